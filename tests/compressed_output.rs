//! Compressed output (issue 32): `-o out.gz`, `.zst`, `.bz2`, `.xz`,
//! `--compress` on standard output, and a rejects file named so, through
//! the binary; names of compressions normurl does not write refused. Each must decompress, with a standard decoder, to exactly
//! the uncompressed output, at every -j.

mod common;

use std::io::Read;

use common::bin::{file, run};

/// Lines that normalize, with every 50th not a URL (a rejects entry).
fn input(n: usize) -> String {
    (0..n)
        .map(|i| match i % 50 {
            0 => format!("not a url {i}\n"),
            _ => format!("HTTP://h{}.Example/a/../p{}?q={}\n", i % 9973, i, i % 7),
        })
        .collect()
}

/// A decoder, for tests that run over several.
type Decode = fn(&[u8]) -> Vec<u8>;

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(bytes)
        .read_to_end(&mut out)
        .unwrap();
    out
}

fn unzstd(bytes: &[u8]) -> Vec<u8> {
    zstd::stream::decode_all(bytes).unwrap()
}

fn bunzip2(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    bzip2::read::MultiBzDecoder::new(bytes)
        .read_to_end(&mut out)
        .unwrap();
    out
}

fn unxz(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    lzma_rust2::XzReader::new(bytes, true)
        .read_to_end(&mut out)
        .unwrap();
    out
}

#[test]
fn compressed_outputs_decode_to_the_plain_output() {
    let dir = tempfile::tempdir().unwrap();
    // Over 1 MiB of output: several members (frames).
    let text = input(80_000);
    let path = file(&dir, "in.txt", text.as_bytes());
    let tsv = dir.path().join("rejects.tsv");
    let tsv = tsv.to_str().unwrap();
    let plain = run(&["-j", "1", &path, "--rejects", tsv], b"").ok().stdout;
    let rejects = std::fs::read(tsv).unwrap();
    assert!(plain.len() > 2 << 20 && !rejects.is_empty());
    let decoders: [(&str, &str, Decode); 4] = [
        ("gz", "gzip", gunzip),
        ("zst", "zstd", unzstd),
        ("bz2", "bzip2", bunzip2),
        ("xz", "xz", unxz),
    ];
    for (ext, format, decode) in decoders {
        // bzip2 and xz are slow to write: one thread count is enough for
        // them (the blocks are the same code as gzip's and zstd's).
        let threads: &[&str] = if matches!(ext, "gz" | "zst") {
            &["1", "3"]
        } else {
            &["3"]
        };
        for &j in threads {
            let out = dir.path().join(format!("out.{ext}"));
            let out = out.to_str().unwrap();
            let rej = dir.path().join(format!("rejects.tsv.{ext}"));
            let rej = rej.to_str().unwrap();
            let ran = run(&["-j", j, &path, "-o", out, "--rejects", rej], b"").ok();
            assert!(ran.stdout.is_empty());
            let packed = std::fs::read(out).unwrap();
            assert!(packed.len() < plain.len() / 3, "{ext} -j {j}: compressed");
            assert!(decode(&packed) == plain, "{ext} -j {j}");
            assert!(
                decode(&std::fs::read(rej).unwrap()) == rejects,
                "{ext} -j {j}"
            );
            // normurl reads its own output back.
            let again = run(&["-j", j, out], b"").ok().stdout;
            assert!(again == plain, "{ext} -j {j}: read back");
            // On standard output, when asked.
            let ran = run(&["-j", j, "--compress", format, &path], b"").ok();
            assert!(decode(&ran.stdout) == plain, "{ext} -j {j} on stdout");
        }
    }
    // --compress none writes plain text whatever the name.
    let out = dir.path().join("plain.gz");
    let out = out.to_str().unwrap();
    run(&[&path, "-o", out, "--compress", "none"], b"").ok();
    assert!(std::fs::read(out).unwrap() == plain);
    // A bad name is a usage error.
    let ran = run(&["--compress", "lz4", &path], b"");
    assert_eq!(ran.code, Some(2));
    assert!(ran.stderr.contains("--compress"), "{}", ran.stderr);
}

/// With tools that decode as they are: gzip and zstd's own CLIs, where
/// they are installed (skipped elsewhere, but the crate decoders above
/// always run).
#[test]
fn the_standard_tools_decode_it() {
    let dir = tempfile::tempdir().unwrap();
    let text = input(30_000);
    let path = file(&dir, "in.txt", text.as_bytes());
    let plain = run(&[&path], b"").ok().stdout;
    for (ext, tool) in [
        ("gz", "gzip"),
        ("zst", "zstd"),
        ("bz2", "bzip2"),
        ("xz", "xz"),
    ] {
        let out = dir.path().join(format!("out.{ext}"));
        let out = out.to_str().unwrap();
        run(&["-j", "2", &path, "-o", out], b"").ok();
        let Ok(decoded) = std::process::Command::new(tool).args(["-dc", out]).output() else {
            eprintln!("{tool} is not installed: skipped");
            continue;
        };
        assert!(decoded.status.success(), "{tool}");
        assert!(decoded.stdout == plain, "{tool} -dc");
    }
}

/// An output named for a compression normurl does not write is refused
/// before anything is written: `-o out.lz4` holding plain text would be
/// misread by every tool that trusts the name. `--compress` overrides the
/// name, as for any output.
#[test]
fn unwritten_compressions_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = file(&dir, "in.txt", input(10).as_bytes());
    for ext in ["lz4", "zip", "Z", "lz", "7z", "br"] {
        let out = dir.path().join(format!("out.{ext}"));
        let out = out.to_str().unwrap();
        let ran = run(&[&path, "-o", out], b"");
        assert_eq!(ran.code, Some(2), "{ext}: {}", ran.stderr);
        assert!(
            ran.stderr.contains("does not write"),
            "{ext}: {}",
            ran.stderr
        );
        assert_eq!(ran.stderr.lines().count(), 1, "{}", ran.stderr);
        assert!(!std::path::Path::new(out).exists(), "{ext}: created");
        let rej = dir.path().join(format!("rejects.{ext}"));
        let ran = run(&[&path, "--rejects", rej.to_str().unwrap()], b"");
        assert_eq!(ran.code, Some(2), "{ext}: {}", ran.stderr);
        assert!(ran.stdout.is_empty());
    }
    let out = dir.path().join("out.lz4");
    let out = out.to_str().unwrap();
    run(&[&path, "-o", out, "--compress", "zstd"], b"").ok();
    assert!(unzstd(&std::fs::read(out).unwrap()) == run(&[&path], b"").ok().stdout);
}

/// `normurl warc -o` is compressed as its name says too, and refuses the
/// names the line command refuses.
#[test]
fn warc_output_is_compressed_by_name() {
    let sample = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/formats/whirlwind.warc.gz");
    let sample = sample.to_str().unwrap();
    let plain = run(&["warc", sample], b"").ok().stdout;
    assert!(!plain.is_empty());
    let dir = tempfile::tempdir().unwrap();
    let decoders: [(&str, Decode); 4] = [
        ("gz", gunzip),
        ("zst", unzstd),
        ("bz2", bunzip2),
        ("xz", unxz),
    ];
    for (ext, decode) in decoders {
        let out = dir.path().join(format!("index.{ext}"));
        let out = out.to_str().unwrap();
        run(&["warc", sample, "-o", out], b"").ok();
        assert!(decode(&std::fs::read(out).unwrap()) == plain, "{ext}");
    }
    let out = dir.path().join("index.lz4");
    let ran = run(&["warc", sample, "-o", out.to_str().unwrap()], b"");
    assert_eq!(ran.code, Some(2), "{}", ran.stderr);
    assert!(!out.exists());
}
