//! `normurl warc --cdxj` and `--cdx` (issue 47): index lines byte for byte
//! as pywb's cdxj-indexer 1.5.0 writes them, on the hand-made WARC and ARC
//! files of tests/data/warc (scripts/make-warc-samples.py, which also
//! wrote the tool's output next to them) and Common Crawl's sample; the
//! payload digest, ARC version 2, `--records`, `--dedup --dedup-key url+digest`, the
//! profile, and damaged input.

mod common;

use std::path::{Path, PathBuf};

use common::bin::{file, gzip, normurl, run, run_command};
use common::warc::with_fields as record;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn path(name: &str) -> String {
    data(name).display().to_string()
}

fn expected(name: &str) -> String {
    std::fs::read_to_string(data(name)).unwrap()
}

fn response(uri: &str, digest: Option<&str>, http: &[u8]) -> Vec<u8> {
    let mut fields = vec![
        ("WARC-Type", "response"),
        ("WARC-Date", "2024-01-02T03:04:05Z"),
        ("WARC-Target-URI", uri),
    ];
    if let Some(d) = digest {
        fields.push(("WARC-Payload-Digest", d));
    }
    record(&fields, http)
}

#[test]
fn cdxj_is_cdxj_indexers() {
    for name in [
        "records.warc",
        "records.warc.gz",
        "hand-v1.arc",
        "hand-v1.arc.gz",
    ] {
        let ran = run(&["warc", "--cdxj", &path(&format!("warc/{name}"))], b"").ok();
        assert_eq!(ran.out(), expected(&format!("warc/{name}.cdxj")), "{name}");
    }
    let ran = run(&["warc", "--cdxj", &path("formats/whirlwind.warc.gz")], b"").ok();
    assert_eq!(ran.out(), expected("warc/whirlwind.warc.gz.cdxj"));
}

#[test]
fn cdx_is_cdxj_indexer_11s() {
    for name in [
        "records-11.warc",
        "records-11.warc.gz",
        "hand-v1.arc",
        "hand-v1.arc.gz",
    ] {
        let ran = run(&["warc", "--cdx", &path(&format!("warc/{name}"))], b"").ok();
        assert_eq!(ran.out(), expected(&format!("warc/{name}.cdx")), "{name}");
    }
    // The header line comes before each file's lines, as the tool writes it.
    let whirlwind = path("formats/whirlwind.warc.gz");
    let ran = run(&["warc", "--cdx", &whirlwind, &whirlwind], b"").ok();
    assert_eq!(ran.out(), expected("warc/whirlwind.warc.gz.cdx").repeat(2));
    // A revisit without a digest, on which the tool stops: `-`.
    let ran = run(&["warc", "--cdx", &path("warc/records.warc")], b"").ok();
    let line = ran
        .out()
        .lines()
        .find(|l| l.contains("revisit-no-digest"))
        .map(str::to_string)
        .unwrap();
    assert!(line.contains(" warc/revisit 200 - - - 224 "), "{line}");
}

/// ARC version 2 header lines (10 fields; warcio reads only version 1's)
/// give the records' fields as version 1's do.
#[test]
fn arc_version_2() {
    let fields = |name: &str| -> Vec<(String, serde_json::Value)> {
        let out = run(&["warc", "--cdxj", &path(name)], b"").ok().out();
        out.lines()
            .map(|l| {
                let (key, json) = l.split_at(l.find('{').unwrap());
                let mut v: serde_json::Value = serde_json::from_str(json).unwrap();
                for f in ["length", "offset", "filename"] {
                    v.as_object_mut().unwrap().remove(f);
                }
                (key.to_string(), v)
            })
            .collect()
    };
    let v1 = fields("warc/hand-v1.arc");
    assert_eq!(v1.len(), 3);
    assert_eq!(fields("warc/hand-v2.arc"), v1);
    assert_eq!(fields("warc/hand-v2.arc.gz"), v1);
    // Each offset and length is the record's, header line to newline.
    let bytes = std::fs::read(data("warc/hand-v2.arc")).unwrap();
    let out = run(&["warc", "--cdxj", &path("warc/hand-v2.arc")], b"")
        .ok()
        .out();
    for line in out.lines() {
        let json: serde_json::Value =
            serde_json::from_str(&line[line.find('{').unwrap()..]).unwrap();
        let offset: usize = json["offset"].as_str().unwrap().parse().unwrap();
        let length: usize = json["length"].as_str().unwrap().parse().unwrap();
        let url = json["url"].as_str().unwrap().replace("%20", " ");
        assert!(bytes[offset..].starts_with(url.as_bytes()), "{line}");
        assert_eq!(bytes.get(offset + length), Some(&b'\n'), "{line}");
    }
}

/// Without WARC-Payload-Digest, the digest is the SHA-1 (base32) of the
/// payload as it is in the record: after the HTTP head, still chunked.
#[test]
fn computed_digest() {
    let dir = tempfile::tempdir().unwrap();
    let warc = [
        response("http://a.example/", None, b"HTTP/1.1 200 OK\r\n\r\nabc"),
        response(
            "http://b.example/",
            None,
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
        ),
        response(
            "http://c.example/",
            Some("sha1:GIVEN"),
            b"HTTP/1.1 200 OK\r\n\r\nabc",
        ),
        record(
            &[
                ("WARC-Type", "resource"),
                ("WARC-Target-URI", "http://d.example/"),
            ],
            b"abc",
        ),
    ]
    .concat();
    let f = file(&dir, "d.warc.gz", &gzip(&warc));
    let out = run(&["warc", "--cdx", &f], b"").ok().out();
    let digests: Vec<&str> = out
        .lines()
        .skip(1)
        .map(|l| l.split(' ').nth(5).unwrap())
        .collect();
    assert_eq!(
        digests,
        [
            "VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5",
            "EZMCEYKLYMOWXPIGFLXFT3WW62PQVRQP",
            "GIVEN",
            "VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5"
        ]
    );
    // No WARC-Date: the timestamp is `-` (cdxj-indexer stops there).
    assert!(
        out.lines().nth(4).unwrap().starts_with("example,d)/ - "),
        "{out}"
    );
}

/// `--dedup --dedup-key url+digest` keeps one line per urlkey and content: a revisit
/// of content indexed under the same key goes, a change of content stays;
/// `--dedup` alone keeps one line per urlkey.
#[test]
fn dedup_on_url_and_digest() {
    let dir = tempfile::tempdir().unwrap();
    let revisit = record(
        &[
            ("WARC-Type", "revisit"),
            ("WARC-Date", "2024-02-02T03:04:05Z"),
            ("WARC-Target-URI", "http://www.example.com/"),
            ("WARC-Payload-Digest", "sha1:AAAA"),
        ],
        b"",
    );
    let warc = [
        response(
            "http://example.com/",
            Some("sha1:AAAA"),
            b"HTTP/1.1 200 OK\r\n\r\nv1",
        ),
        revisit,
        response(
            "http://example.com/",
            Some("sha1:BBBB"),
            b"HTTP/1.1 200 OK\r\n\r\nv2",
        ),
    ]
    .concat();
    let f = file(&dir, "r.warc", &warc);
    let digests = |args: &[&str]| -> Vec<String> {
        let mut all = vec!["warc", "--cdxj", f.as_str()];
        all.extend_from_slice(args);
        let ran = run(&all, b"").ok();
        ran.out()
            .lines()
            .map(|l| {
                let v: serde_json::Value =
                    serde_json::from_str(&l[l.find('{').unwrap()..]).unwrap();
                format!(
                    "{} {}",
                    v["mime"].as_str().unwrap_or("-"),
                    v["digest"].as_str().unwrap()
                )
            })
            .collect()
    };
    assert_eq!(digests(&[]).len(), 3);
    assert_eq!(
        digests(&["--dedup", "--dedup-key", "url+digest"]),
        ["- sha1:AAAA", "- sha1:BBBB"]
    );
    assert_eq!(digests(&["--dedup"]), ["- sha1:AAAA"]);
    let ran = run(
        &[
            "warc",
            "--cdxj",
            &f,
            "--dedup",
            "--dedup-key",
            "url+digest",
            "--stats",
        ],
        b"",
    )
    .ok();
    assert!(ran.stderr.contains("deduplicated"), "{}", ran.stderr);
    run(&["warc", &f, "--dedup", "--dedup-key", "url+digest"], b"").failed(&["--cdxj"]);
}

#[test]
fn records_and_profile() {
    let f = path("warc/records.warc.gz");
    let requests = run(&["warc", "--cdxj", "--records", "request", &f], b"")
        .ok()
        .out();
    assert_eq!(requests.lines().count(), 1);
    // A request has the mime of its HTTP head (none here) and no status.
    assert!(requests.starts_with("com,example)/a?a=1&b=2 20240518101112 {\"url\": \"http://www.Example.com/a?b=2&a=1\", \"digest\""), "{requests}");
    let all = run(&["warc", "--cdxj", "--records", "all", &f], b"")
        .ok()
        .out();
    let default = run(&["warc", "--cdxj", &f], b"").ok().out();
    // All: the warcinfo (no URI: urlkey `-`), the request, the
    // application/warc-fields metadata record, and the conversion.
    assert_eq!(all.lines().count(), default.lines().count() + 4);
    assert!(
        all.starts_with("- 20240518101112 {\"mime\": \"application/warc-fields\", \"length\""),
        "{all}"
    );
    // The urlkey is the profile's SURT: whatwg keeps www and the order.
    let whatwg = run(&["warc", "--cdxj", "-p", "whatwg", &f], b"").ok().out();
    assert!(
        whatwg.starts_with("com,example,www)/a?b=2&a=1 "),
        "{whatwg}"
    );
}

/// A damaged file stops the run with exit status 2 and one line naming
/// it and the record, after the lines of the records before it.
#[test]
fn damaged_input() {
    let dir = tempfile::tempdir().unwrap();
    let whole = std::fs::read(data("warc/records.warc")).unwrap();
    let cut = file(&dir, "cut.warc", &whole[..whole.len() - 100]);
    let ran = run(&["warc", "--cdxj", &cut], b"").failed(&["cut.warc", "record at byte"]);
    assert_eq!(ran.stderr.lines().count(), 1, "{}", ran.stderr);
    let expected = expected("warc/records.warc.cdxj").replace("records.warc", "cut.warc");
    let lines: Vec<&str> = expected.lines().collect();
    let want = lines[..lines.len() - 1].join("\n") + "\n";
    assert_eq!(ran.out(), want);
    // Not an archive at all.
    let junk = file(&dir, "junk.warc", b"hello\nworld\n");
    run(&["warc", "--cdx", &junk], b"").failed(&["junk.warc", "not a WARC file"]);
}

/// A gzip WARC read in chunks on several threads gives the lines of a
/// reading in one go, also where a chunk's guessed start is no member's:
/// a member stored without compression that holds a whole gzip member
/// of a record, which inflates to `WARC/` but lies inside another.
#[test]
fn split_reading_is_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let mut warc = Vec::new();
    for i in 0..300 {
        let body = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n{}",
            "x".repeat(i * 7)
        );
        let uri = format!("http://example.com/{i}");
        warc.extend(gzip(&response(&uri, None, body.as_bytes())));
        if i == 150 {
            // Padding first, so that a chunk's scan starts inside it.
            let mut body = b"HTTP/1.1 200 OK\r\n\r\n".to_vec();
            body.extend(std::iter::repeat_n(b'.', 5000));
            body.extend(gzip(&response(
                "http://inner.example/",
                None,
                b"HTTP/1.1 200 OK\r\n\r\n",
            )));
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::none());
            std::io::Write::write_all(&mut e, &response("http://outer.example/", None, &body))
                .unwrap();
            warc.extend(e.finish().unwrap());
        }
    }
    let f = file(&dir, "split.warc.gz", &warc);
    let whole = run(&["warc", "--cdxj", &f], b"").ok().out();
    assert_eq!(whole.lines().count(), 301);
    assert!(!whole.contains("inner.example"));
    for chunk in ["1000", "4096", "65536"] {
        let mut command = normurl();
        command
            .env("NORMURL_WARC_SPLIT_BYTES", chunk)
            .args(["warc", "--cdxj", &f]);
        let split = run_command(&mut command, b"").ok().out();
        assert_eq!(split, whole, "chunks of {chunk} bytes");
    }
    // A damaged member stops the split reading as the whole one.
    let mut cut = warc.clone();
    let at = cut.len() / 2;
    cut[at..at + 64].fill(0);
    let f = file(&dir, "cut.warc.gz", &cut);
    let whole = run(&["warc", "--cdxj", &f], b"").failed(&["cut.warc.gz"]);
    let mut command = normurl();
    command
        .env("NORMURL_WARC_SPLIT_BYTES", "1000")
        .args(["warc", "--cdxj", &f]);
    let split = run_command(&mut command, b"").failed(&["cut.warc.gz"]);
    assert_eq!((split.out(), split.stderr), (whole.out(), whole.stderr));
}
