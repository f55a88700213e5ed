//! `normurl warc` accounts for every record (with `--links`, every link)
//! as the line command does for lines: `--stats`, `--stats-json`,
//! `--rejects`, `--dedup`, `--on-invalid`, and records in = out + skipped +
//! deduplicated (issue 33), on the whirlwind samples (tests/data/formats,
//! see PROVENANCE.txt there) and generated records.

mod common;

use std::path::Path;

use common::bin::{file, run};
use common::warc::{record, wat_record};

fn sample(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/formats")
        .join(name)
        .display()
        .to_string()
}

/// The whirlwind WARC decompressed, then a record whose URI does not
/// parse, and one that repeats the page's URI in another spelling.
fn plain_warc() -> Vec<u8> {
    let mut plain = Vec::new();
    std::io::Read::read_to_end(
        &mut flate2::read::MultiGzDecoder::new(
            &std::fs::read(sample("whirlwind.warc.gz")).unwrap()[..],
        ),
        &mut plain,
    )
    .unwrap();
    plain.extend(record("resource", Some("http://[::1/"), b"abc"));
    plain.extend(record(
        "resource",
        Some("HTTPS://an.wikipedia.org/wiki/./Escopete"),
        b"",
    ));
    plain
}

fn stats_json(path: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn every_record_is_written_skipped_or_deduplicated() {
    let dir = tempfile::tempdir().unwrap();
    let warc = file(&dir, "x.warc", &plain_warc());
    let json = dir.path().join("stats.json");
    let rejects = dir.path().join("rejects.tsv");
    // Each policy, and the records written, skipped and deduplicated.
    type Counts = (u64, u64, u64);
    let policies: [(&[&str], Counts); 5] = [
        (&[], (6, 0, 0)),
        (&["--on-invalid=skip"], (4, 2, 0)),
        (&["--on-invalid=empty"], (6, 0, 0)),
        (&["--dedup"], (3, 0, 3)),
        (&["--dedup", "--on-invalid=skip"], (1, 2, 3)),
    ];
    for (policy, (out, skipped, deduplicated)) in policies {
        let mut args = vec!["warc"];
        args.extend(policy);
        args.extend([
            "--stats-json",
            json.to_str().unwrap(),
            "--rejects",
            rejects.to_str().unwrap(),
            &warc,
        ]);
        let ran = run(&args, b"").ok();
        let v = stats_json(&json);
        let n = |k: &str| v[k].as_u64().unwrap();
        assert_eq!(n("lines"), 6, "{policy:?}: {v}");
        assert_eq!((n("valid"), n("invalid")), (4, 2), "{policy:?}: {v}");
        assert_eq!(v["invalid_by_reason"]["no-target-uri"], 1, "{v}");
        assert_eq!(v["invalid_by_reason"]["ipv6-unclosed"], 1, "{v}");
        assert_eq!(
            (n("output_lines"), n("skipped"), n("deduplicated")),
            (out, skipped, deduplicated),
            "{policy:?}: {v}"
        );
        assert_eq!(n("lines"), out + skipped + deduplicated);
        assert_eq!(ran.out().lines().count() as u64, out, "{policy:?}");
        assert_eq!(n("bytes_out"), ran.stdout.len() as u64);
        let rejects = std::fs::read_to_string(&rejects).unwrap();
        let entries: Vec<&str> = rejects.lines().collect();
        assert_eq!(entries.len(), 2, "{policy:?}: {rejects}");
        assert!(
            entries[0].starts_with("1\tno-target-uri\t-\twarcinfo\t0\t"),
            "{}",
            entries[0]
        );
        assert!(
            entries[1].starts_with("5\tipv6-unclosed\thttp://[::1/\tresource\t"),
            "{}",
            entries[1]
        );
    }
    // The duplicates (the response and the metadata of the page the
    // request asked for, and the respelled URI) are dropped; the invalid
    // records are kept, or skipped.
    let ran = run(&["warc", "--dedup", "--on-invalid=skip", &warc], b"").ok();
    assert_eq!(
        ran.out(),
        "https://an.wikipedia.org/wiki/Escopete\trequest\t807\t744\n"
    );
    let ran = run(&["warc", "--dedup", &warc], b"").ok();
    let columns: Vec<String> = ran
        .out()
        .lines()
        .map(|l| l.split('\t').take(2).collect::<Vec<_>>().join(" "))
        .collect();
    assert_eq!(
        columns,
        [
            "- warcinfo",
            "https://an.wikipedia.org/wiki/Escopete request",
            "http://[::1/ resource"
        ]
    );
    let ran = run(&["warc", "--on-invalid=empty", &warc], b"").ok();
    assert!(ran.out().starts_with("\nhttps://"), "{}", ran.out());
}

/// `--on-invalid=fail` stops at the first invalid record, naming the file
/// and the record, with exit status 1, and the summary of what was done.
#[test]
fn fail_stops_at_the_first_invalid_record() {
    let dir = tempfile::tempdir().unwrap();
    let mut warc = record("response", Some("http://a.example/"), b"x");
    warc.extend(record("response", Some("http://[::1/"), b"y"));
    warc.extend(record("response", Some("http://b.example/"), b"z"));
    let path = file(&dir, "bad.warc", &warc);
    let ran = run(&["warc", "--on-invalid=fail", "--stats", &path], b"");
    assert_eq!(ran.code, Some(1), "{}", ran.stderr);
    assert!(
        ran.stderr.contains("bad.warc:2: invalid URL"),
        "{}",
        ran.stderr
    );
    assert!(ran.stderr.contains("(ipv6-unclosed)"), "{}", ran.stderr);
    assert_eq!(ran.out(), "http://a.example/\tresponse\t0\t93\n");
    let valid = ran.stderr.lines().find(|l| l.starts_with("valid"));
    assert_eq!(valid.map(|l| l.split_whitespace().last()), Some(Some("1")));
}

/// With --links the items are links: a link that does not parse is
/// invalid, and --dedup compares page and link.
#[test]
fn links_are_counted_and_deduplicated() {
    use serde_json::json;
    let mut wat = std::fs::read(sample("whirlwind.warc.wat.gz")).unwrap();
    wat.extend(wat_record(
        "http://site.example/a/",
        json!({"Links": [
            {"path": "A@/href", "url": "b"},
            {"path": "A@/href", "url": "./b"},
            {"path": "IMG@/src", "url": "http://[::1"},
            {"path": "A@/href", "url": "/a/c"},
        ]}),
        json!({}),
    ));
    let dir = tempfile::tempdir().unwrap();
    let path = file(&dir, "x.wat.gz", &wat);
    let json = dir.path().join("stats.json");
    let ran = run(
        &[
            "warc",
            "--links",
            "--dedup",
            "--on-invalid=skip",
            "--stats-json",
            json.to_str().unwrap(),
            &path,
        ],
        b"",
    )
    .ok();
    assert_eq!(
        ran.out(),
        "http://site.example/a/\thttp://site.example/a/b\tA@/href\n\
         http://site.example/a/\thttp://site.example/a/c\tA@/href\n"
    );
    let v = stats_json(&json);
    let n = |k: &str| v[k].as_u64().unwrap();
    assert_eq!(
        (
            n("lines"),
            n("output_lines"),
            n("skipped"),
            n("deduplicated")
        ),
        (4, 2, 1, 1),
        "{v}"
    );
}
