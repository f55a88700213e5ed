//! `normurl warc --count` (issues 44 and 47): each distinct value once,
//! with the number of records that share its key, in first-occurrence
//! order, for every output form: plain record lines, `-g`, `--json`,
//! `--cdxj` and `--cdx` by `--dedup-key`. Checked against references: the
//! main command's `--count` on the lines `normurl warc` lists (at
//! `-j 1, 2, 8`), and counts made here from the uncounted output, with
//! and without spilling, with the index read in one go and in chunks on
//! several threads.

mod common;

use std::collections::HashMap;
use std::path::Path;

use common::bin::{gzip, normurl, run, run_command};
use common::warc::with_fields as record;

/// The URI no record parses: an invalid record.
const BAD_URI: &str = "http://[::1/";

/// A gzip WARC of `n` records, one member each: responses and requests
/// for 400 URLs written in two spellings, three payloads per URL (so that
/// digests repeat and differ), warcinfo records (no URI) and resources
/// whose URI does not parse, all mixed.
fn warc(n: u64) -> Vec<u8> {
    let mut w = Vec::new();
    for i in 0..n {
        let k = (i * 7919) % 400;
        let date = format!("2024-01-02T03:{:02}:{:02}Z", i / 60 % 60, i % 60);
        let uri = if i % 5 == 0 {
            format!("HTTP://H{k}.Example:80/p?q={}", k % 7)
        } else {
            format!("http://h{k}.example/p?q={}", k % 7)
        };
        let body = format!("body {}", (k + i / 7) % 3);
        let http = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        let rec = match i {
            _ if i % 97 == 3 => record(
                &[("WARC-Type", "warcinfo"), ("WARC-Date", &date)],
                b"software: test\r\n",
            ),
            _ if i % 89 == 5 => record(
                &[
                    ("WARC-Type", "resource"),
                    ("WARC-Date", &date),
                    ("WARC-Target-URI", BAD_URI),
                    ("Content-Type", "text/plain"),
                ],
                b"abc",
            ),
            _ if i % 3 == 0 => record(
                &[
                    ("WARC-Type", "request"),
                    ("WARC-Date", &date),
                    ("WARC-Target-URI", &uri),
                ],
                b"GET /p HTTP/1.1\r\n\r\n",
            ),
            _ => record(
                &[
                    ("WARC-Type", "response"),
                    ("WARC-Date", &date),
                    ("WARC-Target-URI", &uri),
                ],
                http.as_bytes(),
            ),
        };
        w.extend(gzip(&rec));
    }
    w
}

/// A run of `normurl ARGS` with TMPDIR (the spill directory's parent) in
/// a fresh directory, and `env` set; checks that it succeeded and left
/// no spill files.
fn output(args: &[&str], env: &[(&str, &str)], stdin: &[u8]) -> String {
    let tmp = tempfile::tempdir().unwrap();
    let mut cmd = normurl();
    cmd.args(args).env("TMPDIR", tmp.path());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let ran = run_command(&mut cmd, stdin).ok();
    let left: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().collect();
    assert!(left.is_empty(), "{args:?} left {left:?}");
    String::from_utf8(ran.stdout).unwrap()
}

/// Budgets: 1G keeps every key in memory, 16K spills almost at once.
const MEMORY: [&str; 2] = ["1G", "16K"];

fn sample(dir: &tempfile::TempDir) -> String {
    let path = dir.path().join("crawl.warc.gz");
    std::fs::write(&path, warc(3000)).unwrap();
    path.display().to_string()
}

/// The count of each line's key, in first-occurrence order: each line
/// whose key was not seen before, with `COUNT TAB` before it; lines
/// without a key (`key` gives `None`) in their place, as they are.
fn reference(text: &str, key: impl Fn(&str) -> Option<String>) -> String {
    let mut counts: HashMap<String, u64> = HashMap::new();
    let lines: Vec<(&str, Option<String>)> = text.lines().map(|l| (l, key(l))).collect();
    for (_, k) in &lines {
        if let Some(k) = k {
            *counts.entry(k.clone()).or_default() += 1;
        }
    }
    let mut written = HashMap::new();
    let mut out = String::new();
    for (line, k) in lines {
        match k {
            None => out += &format!("{line}\n"),
            Some(k) => {
                if written.insert(k.clone(), ()).is_none() {
                    out += &format!("{}\t{line}\n", counts[&k]);
                }
            }
        }
    }
    out
}

#[test]
fn record_lines_are_counted_as_the_main_command_counts_them() {
    let dir = tempfile::tempdir().unwrap();
    let path = sample(&dir);
    for get in [&[][..], &["-g", "host"], &["-g", "registered_domain"]] {
        // The records as the main command sees them: one line each, URI
        // TAB TYPE TAB OFFSET TAB LENGTH.
        let listing = output(&["warc", &path], &[], b"");
        assert_eq!(listing.lines().count(), 3000);
        let mut main_args = vec!["--count", "-f", "1", "-d", "\\t"];
        main_args.extend_from_slice(get);
        let expected = output(
            &[&main_args[..], &["-j", "1"]].concat(),
            &[],
            listing.as_bytes(),
        );
        // Some values are counted more than once; invalid records stay.
        let count = |l: &str| l.split_once('\t').and_then(|(n, _)| n.parse::<u64>().ok());
        assert!(expected.lines().any(|l| count(l) > Some(1)), "{expected}");
        assert!(expected.lines().any(|l| l.starts_with("-\twarcinfo")));
        for j in ["1", "2", "8"] {
            for memory in MEMORY {
                let args = [&main_args[..], &["-j", j, "--dedup-memory", memory]].concat();
                let main = output(&args, &[], listing.as_bytes());
                assert!(main == expected, "main command {args:?}");
                let mut warc_args = vec!["warc", "--count", "--dedup-memory", memory];
                warc_args.extend_from_slice(get);
                warc_args.push(&path);
                let got = output(&warc_args, &[], b"");
                assert!(got == expected, "{warc_args:?} differs from {args:?}");
            }
        }
    }
    // 16K does spill: with a spill directory that cannot be made, the run
    // fails naming it.
    let missing = dir.path().join("missing");
    let ran = run(
        &[
            "warc",
            "--count",
            "--dedup-memory",
            "16K",
            "-T",
            missing.to_str().unwrap(),
            &path,
        ],
        b"",
    );
    ran.failed(&["spill directory", "missing"]);
}

#[test]
fn json_objects_get_a_count_member() {
    let dir = tempfile::tempdir().unwrap();
    let path = sample(&dir);
    let plain = output(&["warc", "--json", &path], &[], b"");
    // The key is the URL's object (without the record's fields); records
    // without a valid URL have none.
    let key = |l: &str| {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        v.get("href").map(|h| h.to_string())
    };
    let expected: Vec<serde_json::Value> = reference(&plain, key)
        .lines()
        .map(|l| match l.split_once('\t') {
            Some((n, object)) if !l.starts_with('{') => {
                let mut v: serde_json::Value = serde_json::from_str(object).unwrap();
                v["count"] = n.parse::<u64>().unwrap().into();
                v
            }
            _ => serde_json::from_str(l).unwrap(),
        })
        .collect();
    for memory in MEMORY {
        let got = output(
            &["warc", "--json", "--count", "--dedup-memory", memory, &path],
            &[],
            b"",
        );
        let got: Vec<serde_json::Value> = got
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
            .collect();
        assert_eq!(got.len(), expected.len());
        assert!(got == expected, "--dedup-memory {memory}");
    }
    // The member ends the object, as the main command's; objects without
    // a URL get none.
    let text = output(&["warc", "--json", "--count", &path], &[], b"");
    for line in text.lines() {
        let tail = line.rsplit_once(",\"count\":").map(|(_, t)| t);
        if line.contains("\"invalid\"") {
            assert_eq!(tail, None, "{line}");
        } else {
            let digits = tail.and_then(|t| t.strip_suffix('}')).unwrap_or("");
            assert!(digits.parse::<u64>().is_ok_and(|n| n > 0), "{line}");
        }
    }
}

/// The `--dedup-key` of an index line: its urlkey, with `digest` its
/// payload digest too; `None` for the record whose URI does not parse.
fn index_key(line: &str, digest_field: Option<usize>) -> Option<String> {
    if line.starts_with(" CDX") || line.contains(BAD_URI) {
        return None;
    }
    let fields: Vec<&str> = line.split(' ').collect();
    let urlkey = fields[0].to_string();
    match digest_field {
        None => Some(urlkey),
        // CDXJ: the digest is a JSON member.
        Some(0) => {
            let start = line.find(" {").unwrap() + 1;
            let json: serde_json::Value = serde_json::from_str(&line[start..]).unwrap();
            Some(format!(
                "{urlkey} {}",
                json["digest"].as_str().unwrap_or("")
            ))
        }
        Some(i) => Some(format!("{urlkey} {}", fields[i])),
    }
}

#[test]
fn index_lines_are_counted_by_their_dedup_key() {
    let dir = tempfile::tempdir().unwrap();
    let path = sample(&dir);
    // In one go, and in chunks of about 4K on several threads.
    let splits: [&[(&str, &str)]; 2] = [&[], &[("NORMURL_WARC_SPLIT_BYTES", "4096")]];
    for (format, digest_field) in [("--cdxj", 0), ("--cdx", 5)] {
        let plain = output(&["warc", format, &path], &[], b"");
        let mut outputs = Vec::new();
        for (dedup_key, digest) in [("url", None), ("url+digest", Some(digest_field))] {
            let expected = reference(&plain, |l| index_key(l, digest));
            outputs.push(expected.clone());
            let count = |l: &str| l.split_once('\t').and_then(|(n, _)| n.parse::<u64>().ok());
            assert!(expected.lines().any(|l| count(l) > Some(1)), "{expected}");
            assert!(expected.contains(BAD_URI));
            for env in splits {
                for memory in MEMORY {
                    let args = [
                        "warc",
                        format,
                        "--count",
                        "--dedup-key",
                        dedup_key,
                        "--dedup-memory",
                        memory,
                        &path,
                    ];
                    let got = output(&args, env, b"");
                    assert!(got == expected, "{args:?} {env:?}");
                }
            }
        }
        // The digest splits some URLs' captures.
        assert!(outputs[0].lines().count() < outputs[1].lines().count());
    }
}

#[test]
fn every_record_is_accounted_for() {
    let dir = tempfile::tempdir().unwrap();
    let path = sample(&dir);
    let json = dir.path().join("stats.json");
    for args in [
        &["--count"][..],
        &["--count", "--on-invalid=skip", "--dedup-memory", "16K"],
        &["--count", "--cdxj", "--dedup-key", "url+digest"],
        &["--count", "--keep-if", "host:h7.example"],
    ] {
        let mut all = vec!["warc", "--stats-json", json.to_str().unwrap()];
        all.extend_from_slice(args);
        all.push(&path);
        let out = output(&all, &[], b"");
        let s: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
        let n = |k: &str| s[k].as_u64().unwrap();
        assert_eq!(n("output_lines"), out.lines().count() as u64, "{args:?}");
        assert_eq!(
            n("lines"),
            n("output_lines") + n("skipped") + n("dropped") + n("deduplicated"),
            "{args:?}: {s}"
        );
        // The counts add up to the keyed records.
        let counted: u64 = out
            .lines()
            .filter_map(|l| l.split_once('\t')?.0.parse::<u64>().ok())
            .sum();
        let invalid_kept = out
            .lines()
            .filter(|l| !l.as_bytes()[0].is_ascii_digit())
            .count() as u64;
        assert_eq!(
            counted + invalid_kept,
            n("lines") - n("skipped") - n("dropped"),
            "{args:?}"
        );
    }
}

#[test]
fn small_example() {
    let mut w = Vec::new();
    for uri in [
        "http://a.example/",
        "HTTP://A.EXAMPLE:80/",
        "http://b.example/x",
        "http://a.example",
    ] {
        w.extend(record(
            &[("WARC-Type", "response"), ("WARC-Target-URI", uri)],
            b"HTTP/1.1 200 OK\r\n\r\n",
        ));
    }
    w.extend(record(&[("WARC-Type", "warcinfo")], b"x"));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.warc");
    std::fs::write(&path, &w).unwrap();
    let path = path.to_str().unwrap();
    let out = run(&["warc", "-c", "-g", "host", path], b"").ok().out();
    let rows: Vec<Vec<&str>> = out.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows.len(), 3, "{out}");
    assert_eq!(rows[0][..3], ["3", "a.example", "response"]);
    assert_eq!(rows[1][..3], ["1", "b.example", "response"]);
    // A record without a URI has no key: in its place, without a count.
    assert_eq!(rows[2][..2], ["-", "warcinfo"]);
    // --dedup-key needs --dedup or --count, and an index.
    run(&["warc", "--count", "--dedup-key", "url", path], b"").failed(&["--cdxj"]);
    assert!(Path::new(path).exists());
}
