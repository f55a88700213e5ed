//! `normurl warc --sort` (issue 47): the index sorted as cdxj-indexer
//! --sort sorts it (byte order of the lines with their newline, a line the
//! same as the one before it dropped), one sorted output for several
//! files, the same whether sorted in memory or in runs spilled to
//! --temp-dir and merged, with -o and its compression, --dedup and
//! --stats. python/tests/test_cdxj_indexer.py runs the tool itself.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::bin::{file, gzip, normurl, run, run_command};
use common::warc::with_fields as warc_record;

fn data(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
        .display()
        .to_string()
}

/// `lines` sorted as cdxj-indexer sorts them: Python strings (code point
/// order, which is UTF-8's byte order) with their newline, repeats
/// dropped.
fn python_sorted(text: &[u8]) -> Vec<u8> {
    let mut lines: Vec<&[u8]> = text.split_inclusive(|&b| b == b'\n').collect();
    lines.sort();
    lines.dedup();
    lines.concat()
}

/// The output of `LC_ALL=C sort -s -u`, if the system has `sort`.
fn c_sort(text: &[u8], dir: &tempfile::TempDir) -> Option<Vec<u8>> {
    let input = file(dir, "to-sort", text);
    let out = Command::new("sort")
        .env("LC_ALL", "C")
        .args(["-s", "-u", &input])
        .output()
        .ok()?;
    out.status.success().then_some(out.stdout)
}

/// A gzip WARC of `n` responses in an order far from sorted: URIs with
/// characters of every UTF-8 length, some that do not parse (their key is
/// the URI), repeated URIs at other dates.
fn many_records(n: usize) -> Vec<u8> {
    let paths = [
        "a",
        "\u{e9}t\u{e9}",
        "\u{65e5}\u{672c}",
        "\u{1f600}",
        "\u{ff21}",
        "Z",
    ];
    let mut warc = Vec::new();
    for i in 0..n {
        let k = (i * 7919) % 997;
        let uri = match k % 7 {
            0 => format!("http://exa mple{k}.com/{}", paths[k % paths.len()]),
            1 => format!("https://\u{fc}ber{}.example/{k}", k % 5),
            _ => format!(
                "http://www.site{}.example/{}/{}?q={k}",
                k % 13,
                paths[k % paths.len()],
                paths[(k / 7) % paths.len()]
            ),
        };
        let date = format!("2024-01-{:02}T00:00:{:02}Z", 1 + i % 28, i % 60);
        let http = format!("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\nbody {k}");
        let record = warc_record(
            &[
                ("WARC-Type", "response"),
                ("WARC-Date", &date),
                ("WARC-Target-URI", &uri),
            ],
            http.as_bytes(),
        );
        warc.extend_from_slice(&gzip(&record));
    }
    warc
}

fn warc(args: &[&str]) -> Vec<u8> {
    let mut all = vec!["warc"];
    all.extend_from_slice(args);
    run(&all, b"").ok().stdout
}

#[test]
fn samples_sort_as_cdxj_indexer_does() {
    let dir = tempfile::tempdir().unwrap();
    // Whether any sample's lines were out of order (the ARC sample's are
    // not).
    let mut changed = false;
    for name in [
        "warc/records.warc.gz",
        "warc/hand-v1.arc",
        "formats/whirlwind.warc.gz",
    ] {
        let path = data(name);
        for format in ["--cdxj", "--cdx"] {
            let unsorted = warc(&[format, &path]);
            let sorted = warc(&[format, "--sort", &path]);
            assert_eq!(sorted, python_sorted(&unsorted), "{name} {format}");
            changed |= sorted != unsorted;
            if let Some(c) = c_sort(&unsorted, &dir) {
                assert_eq!(sorted, c, "{name} {format}: LC_ALL=C sort -s -u");
            }
        }
    }
    assert!(changed);
}

#[test]
fn several_files_make_one_index() {
    let files = [
        data("warc/records-11.warc.gz"),
        data("warc/hand-v1.arc"),
        data("formats/whirlwind.warc.gz"),
    ];
    let files: Vec<&str> = files.iter().map(String::as_str).collect();
    for format in ["--cdxj", "--cdx"] {
        let mut args = vec![format];
        args.extend(&files);
        let unsorted = warc(&args);
        args.push("--sort");
        let sorted = warc(&args);
        assert_eq!(sorted, python_sorted(&unsorted), "{format}");
    }
    // The CDX header, before each file's lines unsorted, once at the top.
    let mut args = vec!["--cdx", "--sort"];
    args.extend(&files);
    let sorted = String::from_utf8(warc(&args)).unwrap();
    assert!(sorted.starts_with(" CDX N b a m s k r M S V g\n"));
    assert_eq!(sorted.matches(" CDX ").count(), 1);
}

#[test]
fn non_ascii_lines_in_code_point_order() {
    let dir = tempfile::tempdir().unwrap();
    let f = file(&dir, "many.warc.gz", &many_records(400));
    let unsorted = warc(&["--cdx", &f]);
    let sorted = warc(&["--cdx", "--sort", &f]);
    assert_eq!(sorted, python_sorted(&unsorted));
    let text = String::from_utf8(sorted.clone()).unwrap();
    // Code point order is byte order: é (2 bytes) < 日 (3) < Ａ (3) < 😀 (4).
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.windows(2).all(|w| w[0] <= w[1]));
    for c in ['\u{e9}', '\u{65e5}', '\u{ff21}', '\u{1f600}', '\u{fc}'] {
        assert!(text.contains(c), "{c}");
    }
    if let Some(c) = c_sort(&unsorted, &dir) {
        assert_eq!(sorted, c);
    }
}

#[test]
fn spilled_runs_give_the_in_memory_result() {
    let dir = tempfile::tempdir().unwrap();
    let f = file(&dir, "many.warc.gz", &many_records(1500));
    let spill = dir.path().join("spill");
    std::fs::create_dir(&spill).unwrap();
    let spill = spill.display().to_string();
    for format in ["--cdxj", "--cdx"] {
        let in_memory = warc(&[format, "--sort", &f]);
        // A budget of a few lines: hundreds of runs, merged in passes.
        let spilled = warc(&[format, "--sort", "--sort-memory", "2K", "-T", &spill, &f]);
        assert_eq!(spilled, in_memory, "{format}");
        let unsorted = warc(&[format, &f]);
        assert_eq!(in_memory, python_sorted(&unsorted), "{format}");
        if let Some(c) = c_sort(&unsorted, &dir) {
            assert_eq!(spilled, c, "{format}: LC_ALL=C sort -s -u");
        }
        // The spill directory is removed at the end.
        assert_eq!(std::fs::read_dir(&spill).unwrap().count(), 0);
    }
    // Also when the files are read on several threads.
    let ran = run_command(
        normurl().env("NORMURL_WARC_SPLIT_BYTES", "20000").args([
            "warc",
            "--cdxj",
            "--sort",
            "--sort-memory",
            "1K",
            "-T",
            &spill,
            &f,
        ]),
        b"",
    )
    .ok();
    assert_eq!(ran.stdout, warc(&["--cdxj", "--sort", &f]));
}

#[test]
fn output_file_and_compression() {
    let dir = tempfile::tempdir().unwrap();
    let f = file(&dir, "many.warc.gz", &many_records(300));
    let want = warc(&["--cdxj", "--sort", &f]);
    let out: PathBuf = dir.path().join("index.cdxj.gz");
    let out = out.display().to_string();
    for memory in ["512M", "1K"] {
        run(
            &[
                "warc",
                "--cdxj",
                "--sort",
                "--sort-memory",
                memory,
                &f,
                "-o",
                &out,
            ],
            b"",
        )
        .ok();
        let mut text = Vec::new();
        let gz = std::fs::read(&out).unwrap();
        std::io::Read::read_to_end(&mut flate2::read::MultiGzDecoder::new(&gz[..]), &mut text)
            .unwrap();
        assert_eq!(text, want, "{memory}");
    }
}

/// The `--stats-json` counts of a run.
fn stats(args: &[&str], dir: &tempfile::TempDir) -> (Vec<u8>, serde_json::Value) {
    let json = dir.path().join("stats.json").display().to_string();
    let mut all = vec!["warc", "--stats-json", json.as_str()];
    all.extend_from_slice(args);
    let out = run(&all, b"").ok().stdout;
    let v = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    (out, v)
}

#[test]
fn repeated_lines_are_counted_and_dedup_comes_first() {
    let dir = tempfile::tempdir().unwrap();
    let f = data("warc/records.warc.gz");
    // The same file twice: every line twice, each written once.
    let once = warc(&["--cdxj", "--sort", &f]);
    let n = once.iter().filter(|&&b| b == b'\n').count() as u64;
    let (twice, v) = stats(&["--cdxj", "--sort", &f, &f], &dir);
    assert_eq!(twice, once);
    assert_eq!(v["lines"], 2 * n);
    assert_eq!(v["deduplicated"], n);
    assert_eq!(v["output_lines"], n);
    for memory in ["512M", "1K"] {
        // --dedup keeps the first line of each urlkey (in the files'
        // order), then the kept lines are sorted.
        let (out, v) = stats(
            &["--cdxj", "--dedup", "--sort", "--sort-memory", memory, &f],
            &dir,
        );
        let deduped = warc(&["--cdxj", "--dedup", &f]);
        assert_eq!(out, python_sorted(&deduped), "{memory}");
        let count = |k: &str| v[k].as_u64().unwrap();
        assert_eq!(count("lines"), n);
        assert_eq!(
            count("output_lines") + count("deduplicated") + count("skipped"),
            n
        );
        assert!(count("deduplicated") > 0);
    }
}

#[test]
fn options_need_sort() {
    let f = data("warc/records.warc.gz");
    run(&["warc", "--cdxj", "--sort-memory", "1M", &f], b"").failed(&["--sort"]);
    // -T serves --sort as well as --dedup.
    let tmp = std::env::temp_dir().display().to_string();
    run(&["warc", "--cdxj", "--sort", "-T", &tmp, &f], b"").ok();
    // A spill directory that cannot be made is an error naming it.
    let ran = run(
        &[
            "warc",
            "--cdxj",
            "--sort",
            "--sort-memory",
            "1K",
            "-T",
            "/nonexistent/dir",
            &f,
        ],
        b"",
    );
    assert_eq!(ran.code, Some(2), "{}", ran.stderr);
    assert!(ran.stderr.contains("/nonexistent/dir"), "{}", ran.stderr);
    assert!(!ran.stderr.contains("panicked"), "{}", ran.stderr);
}
