//! `normurl warc --post-append` (issue 47): the urlkey of a POST or PUT
//! request and its response made of the URL with the request body as a
//! query, as pywb's `cdxj-indexer -p` makes it, byte for byte, on
//! tests/data/warc/post.warc (scripts/make-warc-samples.py: a body of
//! every kind, and the tool's output for it, committed next to it);
//! python/tests/test_cdxj_indexer.py runs the tool itself.

mod common;

use std::path::{Path, PathBuf};

use common::bin::{file, run};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/warc")
        .join(name)
}

fn path(name: &str) -> String {
    data(name).display().to_string()
}

fn expected(name: &str) -> String {
    std::fs::read_to_string(data(name)).unwrap()
}

fn warc(args: &[&str]) -> String {
    let mut all = vec!["warc"];
    all.extend_from_slice(args);
    run(&all, b"").ok().out()
}

#[test]
fn post_append_is_cdxj_indexer_ps() {
    let plain = path("post.warc");
    assert_eq!(
        warc(&["--cdxj", "--post-append", &plain]),
        expected("post.warc.p.cdxj")
    );
    assert_eq!(
        warc(&["--cdxj", "--post-append", &path("post.warc.gz")]),
        expected("post.warc.gz.p.cdxj")
    );
    // The requests' lines get the same key.
    assert_eq!(
        warc(&["--cdxj", "--post-append", "--records", "all", &plain]),
        expected("post.warc.p.all.cdxj")
    );
    assert_eq!(
        warc(&["--cdx", "--post-append", &plain]),
        expected("post.warc.p.cdx")
    );
    // Without it, the keys are the URLs'.
    assert_eq!(warc(&["--cdxj", &plain]), expected("post.warc.cdxj"));
}

#[test]
fn what_the_lines_hold() {
    let out = warc(&["--cdxj", "--post-append", &path("post.warc")]);
    let line = |url: &str| {
        out.lines()
            .find(|l| l.contains(&format!("\"url\": \"{url}\"")))
            .unwrap_or_else(|| panic!("{url}: {out}"))
            .to_string()
    };
    let form = line("http://example.com/form2");
    assert!(
        form.starts_with("com,example)/form2?__wb_method=post&a=1&b=2 "),
        "{form}"
    );
    assert!(
        form.ends_with("\"requestBody\": \"a=1&b=2\", \"method\": \"POST\"}"),
        "{form}"
    );
    // A URL with a query: `&__wb_method`, the keys sorted as the profile's.
    assert!(line("http://example.com/search?q=x")
        .starts_with("com,example)/search?__wb_method=post&page=2&q=x "));
    // A Content-Length that is no number: requestBody null.
    assert!(line("http://example.com/bad-length").contains("\"requestBody\": null"));
    // GET: no query, no fields.
    let get = line("http://example.com/get");
    assert!(
        get.starts_with("com,example)/get ") && !get.contains("requestBody"),
        "{get}"
    );
    // Not next to its response: no pair.
    assert!(line("http://example.com/apart").starts_with("com,example)/apart "));
    // The query is cut to 4096 characters.
    let large = line("http://example.com/large");
    let body = &large[large.find("\"requestBody\": \"").unwrap() + 16..];
    assert_eq!(body[..body.find('"').unwrap()].len(), 4096);
}

#[test]
fn with_sort_dedup_and_a_generated_pair() {
    let dir = tempfile::tempdir().unwrap();
    // A request after its response, as warcio writes them, and a second
    // POST to the same URL with another body: two keys.
    let mut warc_bytes = Vec::new();
    for (i, body) in ["q=one", "q=two"].iter().enumerate() {
        let id = format!("<urn:uuid:{i}>");
        let resp = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nok".to_vec();
        let req = format!(
            "POST /s HTTP/1.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        for (kind, block, extra) in [
            ("response", resp, None),
            ("request", req.into_bytes(), Some(id.as_str())),
        ] {
            let mut r = format!(
                "WARC/1.1\r\nWARC-Type: {kind}\r\nWARC-Record-ID: {}\r\nWARC-Date: 2024-01-0{}T00:00:00Z\r\nWARC-Target-URI: http://example.com/s\r\n",
                if kind == "response" { id.clone() } else { format!("<urn:uuid:r{i}>") },
                2 - i
            );
            if let Some(to) = extra {
                r.push_str(&format!("WARC-Concurrent-To: {to}\r\n"));
            }
            r.push_str(&format!("Content-Length: {}\r\n\r\n", block.len()));
            warc_bytes.extend_from_slice(r.as_bytes());
            warc_bytes.extend_from_slice(&block);
            warc_bytes.extend_from_slice(b"\r\n\r\n");
        }
    }
    let f = file(&dir, "s.warc", &warc_bytes);
    let keys = |args: &[&str]| -> Vec<String> {
        let mut all = vec!["--cdxj", "--post-append", f.as_str()];
        all.extend_from_slice(args);
        warc(&all)
            .lines()
            .map(|l| l.split(' ').take(2).collect::<Vec<_>>().join(" "))
            .collect()
    };
    assert_eq!(
        keys(&[]),
        [
            "com,example)/s?__wb_method=post&q=one 20240102000000",
            "com,example)/s?__wb_method=post&q=two 20240101000000"
        ]
    );
    // Two captures, not one URL: --dedup keeps both.
    assert_eq!(keys(&["--dedup"]).len(), 2);
    assert_eq!(
        keys(&["--sort"]),
        [
            "com,example)/s?__wb_method=post&q=one 20240102000000",
            "com,example)/s?__wb_method=post&q=two 20240101000000"
        ]
    );
    // Without --post-append, one key.
    let plain = warc(&["--cdxj", "--dedup", &f]);
    assert_eq!(plain.lines().count(), 1);
    // The records have no WARC-Payload-Digest: the payload's, as without
    // --post-append (cdxj-indexer -p writes the SHA-1 of nothing).
    let digests = |args: &[&str]| -> Vec<String> {
        let mut all = vec!["--cdxj", "--records", "all", f.as_str()];
        all.extend_from_slice(args);
        warc(&all)
            .lines()
            .map(|l| {
                l[l.find("\"digest\"").unwrap()..]
                    .split('"')
                    .nth(3)
                    .unwrap()
                    .to_string()
            })
            .collect()
    };
    let with = digests(&["--post-append"]);
    assert_eq!(with, digests(&[]));
    assert_eq!(with.len(), 4);
    assert!(!with.contains(&"sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ".to_string()));
}

#[test]
fn needs_an_index() {
    run(&["warc", "--post-append", &path("post.warc")], b"").failed(&["--cdx"]);
}
