//! Nothing lost (issue 5): over every corpus and a file of messy lines,
//! with each option that decides what is written, the binary accounts for
//! every input line: input lines = output lines + skipped + deduplicated,
//! as `--stats-json` reports them and as counted in the output itself; with
//! `--on-invalid=keep` every invalid line is written unchanged at its
//! position, with `--on-invalid=empty` as an empty line at its position
//! (either with `--explain`'s column appended).

mod common;

use std::collections::HashSet;
use std::path::Path;

use common::bin::{run, Rng};
use common::CORPORA;

/// The records of `bytes`: lines without their `\n` (and a `\r` before
/// it), the last one possibly unterminated, a leading byte order mark
/// dropped. The same split as the binary's.
fn records(bytes: &[u8]) -> Vec<&[u8]> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let mut out: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
    if out.last().is_some_and(|r| r.is_empty()) {
        out.pop();
    }
    for r in &mut out {
        *r = r.strip_suffix(b"\r").unwrap_or(r);
    }
    out
}

/// A file of everything that is not a clean URL list: corpus lines mixed
/// with junk, duplicates, CRLF, blank lines, invalid UTF-8, NULs, lines
/// longer than `--max-line-bytes` in some runs, relative references, and no
/// final newline.
fn messy() -> Vec<u8> {
    let corpus = std::fs::read("samples/corpora/weburls.txt").unwrap();
    let lines: Vec<&[u8]> = records(&corpus).into_iter().take(20_000).collect();
    let mut rng = Rng(42);
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        match rng.next() % 10 {
            0 => out.extend(rng.bytes(40)),
            1 => out.extend_from_slice(lines[i / 2]), // a duplicate
            2 => out.extend_from_slice(b"../relative/path?x=1"),
            3 => {
                out.extend_from_slice(line);
                out.push(b'\r');
            }
            4 => {}
            5 => {
                out.extend_from_slice(line);
                out.extend_from_slice(b"/\xFF\x00\xC3");
            }
            6 => out.extend_from_slice(&line.repeat(3)),
            _ => out.extend_from_slice(line),
        }
        out.push(b'\n');
    }
    out.extend_from_slice(b"http://no-final-newline.example/");
    out
}

/// The option sets: every `--on-invalid` policy, dedup in memory and
/// spilled, adjacent dedup, SURT keys, profiles, line limits, UTF-8
/// policies, a base URL, one thread.
const OPTIONS: &[&[&str]] = &[
    &[],
    &["--on-invalid=skip"],
    &["--on-invalid=empty"],
    &["--dedup"],
    &["--dedup", "--dedup-memory", "0"],
    &["--dedup", "--assume-sorted"],
    &["--profile", "aggressive", "--dedup", "--on-invalid=skip"],
    &["--get", "surt", "--dedup", "--on-invalid=empty"],
    &["-j", "1", "--profile", "semantic", "--explain"],
    &["--max-line-bytes", "80"],
    &["--invalid-utf8", "reject", "--on-invalid=skip"],
    &[
        "--invalid-utf8",
        "replace",
        "--base",
        "http://base.example/a/",
    ],
];

#[test]
fn every_line_is_accounted_for() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("stats.json");
    let rejects = dir.path().join("rejects.tsv");
    let messy_path = dir.path().join("messy.txt");
    std::fs::write(&messy_path, messy()).unwrap();
    let mut inputs: Vec<std::path::PathBuf> = CORPORA
        .iter()
        .map(|name| Path::new("samples/corpora").join(name))
        .collect();
    inputs.push(messy_path);
    let mut runs = 0;
    for input in &inputs {
        let bytes = std::fs::read(input).unwrap();
        let expected = records(&bytes);
        let mut dedup_output = None;
        for options in OPTIONS {
            let mut args: Vec<&str> = options.to_vec();
            args.extend([
                "--stats-json",
                json.to_str().unwrap(),
                "--rejects",
                rejects.to_str().unwrap(),
                input.to_str().unwrap(),
            ]);
            let what = format!("{} {options:?}", input.display());
            let ran = run(&args, b"").ok();
            runs += 1;
            let v: serde_json::Value =
                serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
            let n = |k: &str| v[k].as_u64().unwrap_or_else(|| panic!("{k} in {v}"));
            let written = records(&ran.stdout);
            assert_eq!(n("lines"), expected.len() as u64, "{what}");
            assert_eq!(n("output_lines"), written.len() as u64, "{what}");
            assert_eq!(
                n("lines"),
                n("output_lines") + n("skipped") + n("deduplicated"),
                "{what}: {v}"
            );
            assert_eq!(n("valid") + n("invalid") + n("blank"), n("lines"), "{what}");
            // The rejects file lists every invalid line, unchanged.
            let rejected = std::fs::read(&rejects).unwrap();
            let mut invalid = Vec::new();
            for reject in records(&rejected) {
                let mut parts = reject.splitn(3, |&b| b == b'\t');
                let number: usize = std::str::from_utf8(parts.next().unwrap())
                    .unwrap()
                    .parse()
                    .unwrap();
                let reason = parts.next().expect("a reason");
                assert_eq!(parts.next().unwrap(), expected[number - 1], "{what}");
                invalid.push((number - 1, reason));
            }
            assert_eq!(invalid.len() as u64, n("invalid"), "{what}");
            let dedup = options.contains(&"--dedup");
            if input.ends_with("messy.txt") {
                // The accounting is not vacuous: every kind of line occurs.
                assert!(n("invalid") > 50 && n("blank") > 1000, "{what}: {v}");
                if dedup {
                    assert!(n("deduplicated") > 50, "{what}: {v}");
                }
            }
            let policy = options
                .iter()
                .find_map(|o| o.strip_prefix("--on-invalid="))
                .unwrap_or("keep");
            if !dedup && policy != "skip" {
                // Line N of the output is line N of the input; --explain
                // adds its column to every line, invalid and blank ones too.
                let explain = options.contains(&"--explain");
                assert_eq!(written.len(), expected.len(), "{what}");
                for &(i, reason) in &invalid {
                    let mut want: Vec<u8> = if policy == "keep" {
                        expected[i].to_vec()
                    } else {
                        Vec::new()
                    };
                    if explain {
                        want.extend_from_slice(b"\tinvalid:");
                        want.extend_from_slice(reason);
                    }
                    assert_eq!(written[i], want, "{what}: line {}", i + 1);
                }
                let blank: &[u8] = if explain { b"\t-" } else { b"" };
                for (i, line) in expected.iter().enumerate() {
                    if line.is_empty() {
                        assert_eq!(written[i], blank, "{what}: blank line {}", i + 1);
                    }
                }
            }
            if dedup && !options.contains(&"--assume-sorted") && policy == "skip" {
                // Only URL lines remain, each once.
                let mut seen = HashSet::new();
                for line in &written {
                    assert!(seen.insert(*line), "{what}: {line:?} twice");
                }
            }
            if options == &["--dedup"] {
                dedup_output = Some(ran.stdout);
            } else if options == &["--dedup", "--dedup-memory", "0"] {
                let in_memory = dedup_output.as_ref().expect("--dedup runs first");
                assert!(in_memory == &ran.stdout, "{what}: spilled != in memory");
            }
        }
    }
    assert_eq!(runs, inputs.len() * OPTIONS.len());
}

/// The records of a CSV file whose quoted fields may hold line breaks (a
/// byte-at-a-time reference, the split of `--csv`).
fn csv_records(bytes: &[u8]) -> usize {
    let (mut records, mut quoted, mut at_start, mut pending) = (0, false, true, false);
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        pending = true;
        if quoted {
            if b == b'"' && bytes.get(i + 1) == Some(&b'"') {
                i += 1;
            } else if b == b'"' {
                quoted = false;
            }
            at_start = false;
        } else if b == b'\n' {
            records += 1;
            pending = false;
            at_start = true;
        } else {
            quoted = b == b'"' && at_start;
            at_start = b == b',';
        }
        i += 1;
    }
    records + usize::from(pending)
}

/// A CSV whose records span lines (issue 33): quoted line breaks before,
/// inside and after the URL field, CRLF, invalid URLs, duplicates, blank
/// lines, stray quotes.
fn multi_line_csv() -> Vec<u8> {
    let mut rng = Rng(7);
    let mut out = Vec::new();
    for i in 0..3000u64 {
        let host = rng.next() % 400;
        let url = format!("HTTP://H{host}.example/a/../p?q={}", i % 5);
        let record = match rng.next() % 9 {
            0 => format!("\"{i}\nid\",\"{url}\",x"),
            1 => format!("{i},\"{url}\n\",\"two\r\nlines\""),
            2 => format!("{i},{url},\"tail\n\"\"q\"\"\n\""),
            3 => format!("{i},\"not a url\",x\r"),
            4 => String::new(),
            5 => format!("{i},ab\"c,\"\""),
            6 => format!("{i},\"{url}\",\"a,b\"\r"),
            _ => format!("{i},{url},plain"),
        };
        out.extend_from_slice(record.as_bytes());
        out.push(b'\n');
    }
    out
}

#[test]
fn every_csv_record_is_accounted_for() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("stats.json");
    let input = dir.path().join("multi.csv");
    let bytes = multi_line_csv();
    std::fs::write(&input, &bytes).unwrap();
    let expected = csv_records(&bytes) as u64;
    // More records than lines would mean the test split lines, not records.
    assert!(expected < bytes.iter().filter(|&&b| b == b'\n').count() as u64);
    let options: &[&[&str]] = &[
        &[],
        &["--on-invalid=skip"],
        &["--dedup"],
        &["-j", "2", "--batch-bytes", "13"],
        &[
            "-j",
            "1",
            "--dedup",
            "--on-invalid=skip",
            "--batch-bytes",
            "5",
        ],
    ];
    for options in options {
        let mut args = vec!["--csv", "-f", "2", "--stats-json", json.to_str().unwrap()];
        args.extend_from_slice(options);
        args.push(input.to_str().unwrap());
        let ran = run(&args, b"").ok();
        let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
        let n = |k: &str| v[k].as_u64().unwrap_or_else(|| panic!("{k} in {v}"));
        assert_eq!(n("lines"), expected, "{options:?}: {v}");
        assert_eq!(
            n("output_lines"),
            csv_records(&ran.stdout) as u64,
            "{options:?}"
        );
        assert_eq!(
            n("lines"),
            n("output_lines") + n("skipped") + n("deduplicated"),
            "{options:?}: {v}"
        );
        assert!(n("invalid") > 100 && n("blank") > 100, "{options:?}: {v}");
        if options.contains(&"--dedup") {
            assert!(n("deduplicated") > 100, "{options:?}: {v}");
        }
    }
}
