//! `normurl warc` at par with the main command (issue 47): `-g/--get`,
//! `--json`, `-p/--profile`, `--rules`, `--strip-params`/`--keep-params`,
//! `--dedup` on what is written, `-o` with compression, `--stats`,
//! `--keep-if`/`--drop-if`, the same options with the same meanings (and
//! the same help text: one definition), on generated records.

mod common;

use common::bin::{file, run};
use common::warc::record;

/// Six records: a warcinfo (no URI), a response and its request, a URI in
/// another spelling with a tracking parameter, one that does not parse,
/// and another site.
fn warc() -> Vec<u8> {
    let mut w = Vec::new();
    w.extend(record("warcinfo", None, b"software: test\r\n"));
    w.extend(record(
        "response",
        Some("http://www.example.com/a"),
        b"HTTP/1.1 200 OK\r\n\r\nhi",
    ));
    w.extend(record(
        "request",
        Some("http://www.example.com/a"),
        b"GET /a HTTP/1.1\r\n\r\n",
    ));
    w.extend(record(
        "response",
        Some("HTTPS://Example.com/b?utm_source=x&k=1"),
        b"HTTP/1.1 200 OK\r\n\r\n",
    ));
    w.extend(record("resource", Some("http://[::1/"), b"abc"));
    w.extend(record(
        "response",
        Some("http://other.org/x"),
        b"HTTP/1.1 200 OK\r\n\r\n",
    ));
    w
}

/// The columns of each output line.
fn rows(out: &str) -> Vec<Vec<String>> {
    out.lines()
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

/// The first column of each line, and checks that the rest of each line
/// (type, offset, length) is the default run's for the same record.
fn uris(args: &[&str]) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let path = file(&dir, "x.warc", &warc());
    let default = rows(&run(&["warc", &path], b"").ok().out());
    let mut all = vec!["warc"];
    all.extend_from_slice(args);
    all.push(&path);
    let got = rows(&run(&all, b"").ok().out());
    for row in &got {
        assert_eq!(row.len(), 4, "{row:?}");
        assert!(
            default.iter().any(|d| d[1..] == row[1..]),
            "{row:?} not among {default:?}"
        );
    }
    got.into_iter().map(|r| r[0].clone()).collect()
}

#[test]
fn default_output_is_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let path = file(&dir, "x.warc", &warc());
    let out = rows(&run(&["warc", &path], b"").ok().out());
    let firsts: Vec<&str> = out.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(
        firsts,
        [
            "-",
            "http://www.example.com/a",
            "http://www.example.com/a",
            "https://example.com/b?utm_source=x&k=1",
            "http://[::1/",
            "http://other.org/x"
        ]
    );
    assert_eq!(out[0][1..3], ["warcinfo".to_string(), "0".to_string()]);
}

#[test]
fn get_writes_a_component_in_the_uri_column() {
    assert_eq!(
        uris(&["-g", "host"]),
        [
            "-",
            "www.example.com",
            "www.example.com",
            "example.com",
            "http://[::1/",
            "other.org"
        ]
    );
    assert_eq!(
        uris(&["--get", "{registered_domain}"]),
        [
            "-",
            "example.com",
            "example.com",
            "example.com",
            "http://[::1/",
            "other.org"
        ]
    );
    // --get surt: the wayback profile by default, as the main command.
    assert_eq!(uris(&["-g", "surt"])[1], "com,example)/a");
    assert_eq!(
        uris(&["-g", "surt", "-p", "whatwg"])[1],
        "com,example,www)/a"
    );
}

#[test]
fn profiles_rules_and_parameter_lists() {
    assert_eq!(uris(&["-p", "aggressive"])[3], "https://example.com/b?k=1");
    assert_eq!(
        uris(&["--profile", "aggressive"])[1],
        "http://example.com/a"
    );
    assert_eq!(uris(&["--rules", "+strip-www"])[1], "http://example.com/a");
    assert_eq!(
        uris(&["--rules", "+sort-query"])[3],
        "https://example.com/b?k=1&utm_source=x"
    );
    assert_eq!(uris(&["--strip-params", "k"])[3], "https://example.com/b");
    assert_eq!(
        uris(&["--keep-params", "k"])[3],
        "https://example.com/b?k=1"
    );
    assert_eq!(uris(&["--idn", "unicode"])[5], "http://other.org/x");
}

#[test]
fn json_objects_carry_the_record() {
    let dir = tempfile::tempdir().unwrap();
    let path = file(&dir, "x.warc", &warc());
    let default = rows(&run(&["warc", &path], b"").ok().out());
    let out = run(&["warc", "--json", &path], b"").ok().out();
    let objects: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect();
    assert_eq!(objects.len(), 6);
    for (i, (o, d)) in objects.iter().zip(&default).enumerate() {
        assert_eq!(o["line"], i as u64 + 1, "{o}");
        assert_eq!(o["warc_type"], d[1].as_str(), "{o}");
        assert_eq!(o["offset"].to_string(), d[2], "{o}");
        assert_eq!(o["length"].to_string(), d[3], "{o}");
    }
    assert_eq!(objects[0]["invalid"], "no-target-uri");
    assert_eq!(objects[1]["hostname"], "www.example.com");
    assert_eq!(objects[3]["search"], "?utm_source=x&k=1");
    assert_eq!(objects[4]["invalid"], "ipv6-unclosed");
}

#[test]
fn dedup_compares_what_is_written() {
    assert_eq!(uris(&["--dedup"]).len(), 5);
    assert_eq!(
        uris(&["-u", "-g", "registered_domain"]),
        ["-", "example.com", "http://[::1/", "other.org"]
    );
    assert_eq!(
        uris(&["-u", "-g", "registered_domain", "--on-invalid=skip"]),
        ["example.com", "other.org"]
    );
}

#[test]
fn scope_rules_and_the_count_of_records() {
    let dir = tempfile::tempdir().unwrap();
    let path = file(&dir, "x.warc", &warc());
    let json = dir.path().join("s.json");
    for (args, dropped) in [
        (&["--keep-if", "domain:example.com"][..], 1),
        (&["--drop-if", "surt:com,example,www)/"][..], 2),
        (&["--keep-if", "surt:http://example.com", "-u"][..], 1),
        (&["--drop-if", "scheme:http", "--on-invalid=skip"][..], 3),
    ] {
        let mut all = vec!["warc", "--stats", "--stats-json", json.to_str().unwrap()];
        all.extend_from_slice(args);
        all.push(&path);
        let ran = run(&all, b"").ok();
        let s: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
        let n = |k: &str| s[k].as_u64().unwrap();
        assert_eq!(n("lines"), 6, "{args:?}");
        assert_eq!(n("dropped"), dropped, "{args:?}: {s}");
        assert_eq!(n("output_lines"), ran.out().lines().count() as u64);
        assert_eq!(
            n("lines"),
            n("output_lines") + n("skipped") + n("dropped") + n("deduplicated"),
            "{args:?}: {s}"
        );
        assert!(
            ran.stderr.lines().any(|l| l.starts_with("dropped")),
            "{}",
            ran.stderr
        );
    }
    assert_eq!(
        uris(&[
            "--keep-if",
            "domain:example.com",
            "--drop-if",
            "host:www.example.com"
        ]),
        [
            "-",
            "https://example.com/b?utm_source=x&k=1",
            "http://[::1/"
        ]
    );
}

#[test]
fn output_compression_and_rejects() {
    let dir = tempfile::tempdir().unwrap();
    let path = file(&dir, "x.warc", &warc());
    let plain = run(&["warc", "-g", "host", &path], b"").ok().stdout;
    let gz = dir.path().join("out.tsv.gz");
    let rejects = dir.path().join("rejects.tsv");
    run(
        &[
            "warc",
            "-g",
            "host",
            "-o",
            gz.to_str().unwrap(),
            "--rejects",
            rejects.to_str().unwrap(),
            &path,
        ],
        b"",
    )
    .ok();
    let mut decoded = Vec::new();
    std::io::Read::read_to_end(
        &mut flate2::read::MultiGzDecoder::new(&std::fs::read(&gz).unwrap()[..]),
        &mut decoded,
    )
    .unwrap();
    assert_eq!(decoded, plain);
    let zst = run(&["warc", "-g", "host", "--compress", "zstd", &path], b"")
        .ok()
        .stdout;
    assert_eq!(zstd::decode_all(&zst[..]).unwrap(), plain);
    let rejects = std::fs::read_to_string(&rejects).unwrap();
    let entries: Vec<&str> = rejects.lines().collect();
    assert_eq!(entries.len(), 2, "{rejects}");
    assert!(
        entries[0].starts_with("1\tno-target-uri\t-\twarcinfo\t0\t"),
        "{rejects}"
    );
    assert!(
        entries[1].starts_with("5\tipv6-unclosed\thttp://[::1/\tresource\t"),
        "{rejects}"
    );
    // A name for a compression normurl does not write is refused.
    run(&["warc", "-o", "x.lz4", &path], b"").failed(&["x.lz4"]);
}

#[test]
fn on_invalid_fail_names_the_record() {
    let dir = tempfile::tempdir().unwrap();
    let path = file(&dir, "x.warc", &warc());
    let ran = run(&["warc", "--on-invalid=fail", "-g", "host", &path], b"");
    assert_eq!(ran.code, Some(1), "{}", ran.stderr);
    assert!(ran.stderr.contains("no-target-uri"), "{}", ran.stderr);
}

#[test]
fn the_options_are_the_main_commands() {
    let main = run(&["--help"], b"").ok().out();
    let warc_help = run(&["warc", "--help"], b"").ok().out();
    // Each shared option's help text is the main command's, word for word.
    for option in [
        "--get <WHAT>",
        "--json",
        "--profile <NAME>",
        "--rules <EDITS>",
        "--strip-params <LIST>",
        "--keep-params <LIST>",
        "--dedup",
        "--count",
        "--dedup-memory <BYTES>",
        "--output <FILE>",
        "--compress <FORMAT>",
        "--stats",
        "--stats-json <FILE>",
        "--on-invalid <POLICY>",
        "--rejects <FILE>",
        "--keep-if <RULE>",
        "--drop-if <RULE>",
    ] {
        // The option's help, as words: clap lays the two commands' help
        // out in different columns.
        let help = |text: &str| {
            let lines: Vec<&str> = text.lines().collect();
            // The option's own line: `  -g, --get <WHAT>` or `      --json`.
            let is_option = |l: &&str| {
                let t = l.trim_start();
                let indent = l.len() - t.len();
                let t = if t.len() > 4 && t.as_bytes()[2] == b',' {
                    &t[4..]
                } else {
                    t
                };
                // The option itself, not a longer one it begins
                // (`--dedup` of `--dedup-key`).
                let rest = t.strip_prefix(option);
                (2..=6).contains(&indent)
                    && rest.is_some_and(|r| r.is_empty() || r.starts_with(' '))
            };
            let start = lines
                .iter()
                .position(is_option)
                .unwrap_or_else(|| panic!("{option} not in {text}"));
            let mut words = Vec::new();
            for (i, line) in lines[start..].iter().enumerate() {
                let indent = line.len() - line.trim_start().len();
                if i > 0 && indent <= 6 && line.trim_start().starts_with('-') {
                    break;
                }
                words.extend(line.split_whitespace().map(str::to_string));
            }
            words.join(" ")
        };
        assert_eq!(help(&main), help(&warc_help), "{option}");
    }
    let dir = tempfile::tempdir().unwrap();
    let path = file(&dir, "x.warc", &warc());
    run(&["warc", "--links", "-g", "host", &path], b"").failed(&["--links"]);
    run(&["warc", "--keep-if", "bad", &path], b"").failed(&["--keep-if"]);
}
