//! `normurl warc --dir-root` (issue 47): the filename field of an index is
//! the file's path from DIR, as `cdxj-indexer --dir-root` writes it
//! (Python's `os.path.relpath`); python/tests/test_cdxj_indexer.py runs
//! the tool itself.

mod common;

use common::bin::{normurl, run, run_command};

fn filenames(out: &str) -> Vec<String> {
    out.lines()
        .filter(|l| !l.starts_with(" CDX"))
        .map(|l| l.rsplit(' ').next().unwrap().to_string())
        .collect()
}

#[test]
fn filenames_from_the_root() {
    let dir = tempfile::tempdir().unwrap();
    let sample = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/warc/hand-v1.arc.gz"),
    )
    .unwrap();
    let crawl = dir.path().join("crawl/2024");
    std::fs::create_dir_all(&crawl).unwrap();
    std::fs::create_dir_all(dir.path().join("other")).unwrap();
    let f = crawl.join("a.arc.gz");
    std::fs::write(&f, &sample).unwrap();
    let f = f.display().to_string();
    let root = dir.path().display().to_string();
    let out = run(&["warc", "--cdx", "--dir-root", &root, &f], b"")
        .ok()
        .out();
    assert_eq!(filenames(&out), ["crawl/2024/a.arc.gz"; 3]);
    // A root the file is not under: `..` up to the common directory; the
    // root given with `..` and `.` in it, as the text says.
    let other = format!("{root}/other/./x/..");
    let out = run(&["warc", "--cdx", "--dir-root", &other, &f], b"")
        .ok()
        .out();
    assert_eq!(filenames(&out), ["../crawl/2024/a.arc.gz"; 3]);
    // Relative paths are from the working directory.
    let ran = run_command(
        normurl().current_dir(dir.path().join("crawl")).args([
            "warc",
            "--cdxj",
            "--dir-root",
            ".",
            "2024/a.arc.gz",
        ]),
        b"",
    )
    .ok();
    assert!(
        ran.out().contains("\"filename\": \"2024/a.arc.gz\""),
        "{}",
        ran.out()
    );
    // Without it, the name alone.
    let out = run(&["warc", "--cdx", &f], b"").ok().out();
    assert_eq!(filenames(&out), ["a.arc.gz"; 3]);
    run(&["warc", "--dir-root", &root, &f], b"").failed(&["--cdx"]);
}
