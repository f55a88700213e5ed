//! The formats URLs live in (issue 33), run through the binary on real
//! samples (tests/data/formats/, see PROVENANCE.txt there): CDXJ and JSON
//! Lines (`--json-field`), combined logs (quoted fields), CSV (`--csv`).

mod common;

use std::path::{Path, PathBuf};

use common::bin::{file, run};
use common::warc::wat_record;

fn sample(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/formats")
        .join(name)
        .display()
        .to_string()
}

fn lines(bytes: &[u8]) -> Vec<&str> {
    std::str::from_utf8(bytes).unwrap().lines().collect()
}

/// The JSON object of a CDXJ or JSON Lines line, and what comes before it.
fn split_json(line: &str) -> (&str, serde_json::Value) {
    let at = line.find('{').unwrap();
    (&line[..at], serde_json::from_str(&line[at..]).unwrap())
}

#[test]
fn cdxj_url_is_normalized_in_place() {
    let input = std::fs::read(sample("cc-index-derived.cdxj")).unwrap();
    let ran = run(
        &["--json-field", "url", &sample("cc-index-derived.cdxj")],
        b"",
    )
    .ok();
    let (before, after) = (lines(&input), lines(&ran.stdout));
    assert_eq!(before.len(), 34);
    assert_eq!(after.len(), before.len());
    let mut changed = 0;
    for (b, a) in before.iter().zip(&after) {
        let (b_key, mut b_json) = split_json(b);
        let (a_key, a_json) = split_json(a);
        assert_eq!(a_key, b_key);
        // Only the URL changes; it is what the parser makes of the old one.
        let url = b_json["url"].as_str().unwrap().to_string();
        let normalized = normurl::Url::parse(&url).unwrap().to_string();
        changed += usize::from(normalized != url);
        b_json["url"] = normalized.clone().into();
        assert_eq!(a_json, b_json);
        // Byte for byte: the old line with the URL's bytes replaced.
        assert_eq!(
            *a,
            b.replacen(&format!("\"{url}\""), &format!("\"{normalized}\""), 1)
        );
    }
    // `http://commoncrawl.org` gains its path `/` on five lines.
    assert_eq!(changed, 5);
    assert!(after[2].starts_with(
        r#"org,commoncrawl)/ 20250804145408 {"url": "http://commoncrawl.org/", "mime": "text/html""#
    ));
}

#[test]
fn index_api_json_lines_with_profile_and_only_field() {
    let ran = run(
        &[
            "--json-field",
            "url",
            "--only-field",
            "--profile",
            "aggressive",
            "--dedup",
            &sample("cc-index-api-records.jsonl"),
        ],
        b"",
    )
    .ok();
    assert_eq!(
        ran.out(),
        "http://example.com/\n\
         https://commoncrawl.org/\n\
         http://commoncrawl.org/\n\
         http://commoncrawl.org/2011/12/mapreduce-for-the-masses\n\
         http://commoncrawl.org/2012/03/data-2-0-summit\n\
         http://commoncrawl.org/2012/03/twelve-steps-to-running-your-ruby-code-across-five-billion-web-pages\n\
         http://commoncrawl.org/2012/05/learn-hadoop-and-get-a-paper-published\n\
         http://commoncrawl.org/2012/07/2012-crawl-data-now-available\n\
         http://commoncrawl.org/2012/08/common-crawl-code-contest-extended-through-the-holiday-weekend\n\
         http://commoncrawl.org/2012/09/announcing-the-winners-of-the-code-contest\n\
         http://commoncrawl.org/2012/10/towards-social-discovery\n\
         http://commoncrawl.org/robots.txt\n\
         http://commoncrawl.org/big-picture/frequently-asked-questions\n"
    );
}

/// Escapes, nesting, broken JSON and missing paths, with each policy.
#[test]
fn json_lines_escapes_and_invalid_lines() {
    let input = concat!(
        r#"{"n": 1, "page": {"u": "HTTP://A.example/x\/..\/y", "t": "é"}}"#,
        "\n",
        r#"{"page": {"u": "javascript:f(\"Q\")\u0041"}}"#,
        "\n",
        r#"{"page": {"u": "not a url"}}"#,
        "\n",
        r#"{"page": {"t": "no u"}}"#,
        "\n",
        r#"{"page": {"u": "http://b.example/"}"#,
        "\n",
        "plain text\n",
        "\n",
        r#"{"page": {"u": "http://c.example/\ud800"}}"#,
        "\n",
    );
    let dir = tempfile::tempdir().unwrap();
    let rejects = dir.path().join("rejects.tsv");
    let ran = run(
        &[
            "--json-field",
            "page.u",
            "--rejects",
            rejects.to_str().unwrap(),
        ],
        input.as_bytes(),
    )
    .ok();
    assert_eq!(
        ran.out(),
        concat!(
            r#"{"n": 1, "page": {"u": "http://a.example/y", "t": "é"}}"#,
            "\n",
            r#"{"page": {"u": "javascript:f(\"Q\")A"}}"#,
            "\n",
            r#"{"page": {"u": "not a url"}}"#,
            "\n",
            r#"{"page": {"t": "no u"}}"#,
            "\n",
            r#"{"page": {"u": "http://b.example/"}"#,
            "\n",
            "plain text\n",
            "\n",
            r#"{"page": {"u": "http://c.example/\ud800"}}"#,
            "\n",
        )
    );
    let reasons: Vec<String> = lines(&std::fs::read(&rejects).unwrap())
        .iter()
        .map(|l| l.split('\t').take(2).collect::<Vec<_>>().join(" "))
        .collect();
    assert_eq!(
        reasons,
        [
            "3 relative-without-base",
            "4 missing-json-field",
            "5 invalid-json",
            "6 invalid-json",
            "8 invalid-json",
        ]
    );
    // --only-field writes the URL decoded; the invalid lines' fields as
    // they were (none where the path is missing), --explain saying why.
    let ran = run(
        &["--json-field", "page.u", "--only-field", "--explain"],
        input.as_bytes(),
    )
    .ok();
    assert_eq!(
        ran.out(),
        "http://a.example/y\t-\n\
         javascript:f(\"Q\")A\t-\n\
         not a url\tinvalid:relative-without-base\n\
         \tinvalid:missing-json-field\n\
         \tinvalid:invalid-json\n\
         \tinvalid:invalid-json\n\
         \t-\n\
         http://c.example/\\ud800\tinvalid:invalid-json\n"
    );
    // --original keeps valid lines as read; --on-invalid=skip drops the rest.
    let ran = run(
        &["--json-field", "page.u", "--original", "--on-invalid=skip"],
        input.as_bytes(),
    )
    .ok();
    assert_eq!(ran.out(), lines(input.as_bytes())[..2].join("\n") + "\n");
}

/// Exit status 2 and a message naming the options, from clap or normurl.
#[track_caller]
fn usage_error(args: &[&str], needles: &[&str]) {
    let ran = run(args, b"");
    assert_eq!(ran.code, Some(2), "{args:?}: {}", ran.stderr);
    for needle in needles {
        assert!(
            ran.stderr.contains(needle),
            "{needle:?} not in {}",
            ran.stderr
        );
    }
    assert!(!ran.stderr.contains("panicked"), "{}", ran.stderr);
}

#[test]
fn json_field_usage_errors() {
    usage_error(&["--json-field", "a..b"], &["--json-field", "a..b"]);
    usage_error(
        &["--json-field", "url", "--field", "2"],
        &["--json-field", "--field"],
    );
    usage_error(&["--only-field"], &["--only-field"]);
    usage_error(&["--csv"], &["--csv", "--field"]);
    usage_error(&["--csv", "--field", "1", "-d", "\""], &["--csv"]);
}

/// A combined log's referrer (field 11) is read without its quotes, and
/// `"-"` is no URL: it was `http://host/%22-%22` with --base, and valid.
#[test]
fn combined_log_referrer() {
    let log = sample("apache_combined-head200.log");
    let dir = tempfile::tempdir().unwrap();
    let stats = dir.path().join("stats.json");
    let ran = run(
        &[
            "--field",
            "11",
            "--base",
            "http://semicomplete.com/",
            "--stats-json",
            stats.to_str().unwrap(),
            &log,
        ],
        b"",
    )
    .ok();
    let input = std::fs::read(&log).unwrap();
    let (before, after) = (lines(&input), lines(&ran.stdout));
    assert_eq!(after.len(), 200);
    // The referrers are canonical already; line 23's is "-", kept.
    assert_eq!(after, before);
    assert!(
        before[22].contains(r#" 3638 "-" "Mozilla"#),
        "{}",
        before[22]
    );
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&stats).unwrap()).unwrap();
    assert_eq!(v["invalid_by_reason"]["no-value"], 97, "{v}");
    assert_eq!(v["valid"], 103, "{v}");
    // An escaped quote in a referrer is decoded, and escaped again.
    let ran = run(
        &["--field", "11"],
        br#"h - - [d +0] "GET / HTTP/1.1" 200 1 "FOO:bar\"x\\y" "UA""#,
    )
    .ok();
    assert_eq!(
        ran.out(),
        "h - - [d +0] \"GET / HTTP/1.1\" 200 1 \"foo:bar\\\"x\\\\y\" \"UA\"\n"
    );
}

/// The request path (field 7) resolved against the site, written alone.
#[test]
fn combined_log_request_urls() {
    let ran = run(
        &[
            "--field",
            "7",
            "--base",
            "http://semicomplete.com/",
            "--only-field",
            &sample("apache_combined-head200.log"),
        ],
        b"",
    )
    .ok();
    let out = lines(&ran.stdout);
    assert_eq!(out.len(), 200);
    assert_eq!(
        out[..3],
        [
            "http://semicomplete.com/presentations/logstash-monitorama-2013/images/kibana-search.png",
            "http://semicomplete.com/presentations/logstash-monitorama-2013/images/kibana-dashboard3.png",
            "http://semicomplete.com/presentations/logstash-monitorama-2013/plugin/highlight/highlight.js",
        ]
    );
    assert!(out
        .iter()
        .all(|u| u.starts_with("http://semicomplete.com/")));
}

#[test]
fn csv_quoted_fields() {
    let input = concat!(
        "id,url,title\n",
        "1,HTTP://A.example/x/../y,plain\n",
        "2,\"HTTP://B.example/?q=a,b\",\"with, comma\"\n",
        "3,\"javascript:f(\"\"x\"\")\",quotes\n",
        "4,\"-\",dash\n",
        "5,\"open\n",
        "6\n",
    );
    let ran = run(&["--csv", "--field", "2"], input.as_bytes()).ok();
    assert_eq!(
        ran.out(),
        concat!(
            "id,url,title\n",
            "1,http://a.example/y,plain\n",
            "2,\"http://b.example/?q=a,b\",\"with, comma\"\n",
            "3,\"javascript:f(\"\"x\"\")\",quotes\n",
            "4,\"-\",dash\n",
            // A quote left open: the rest is one invalid record, written
            // back as it was (its final line break once).
            "5,\"open\n",
            "6\n",
        )
    );
    let ran = run(&["--csv", "--field", "2", "--only-field"], input.as_bytes()).ok();
    assert_eq!(
        ran.out(),
        "url\nhttp://a.example/y\nhttp://b.example/?q=a,b\njavascript:f(\"x\")\n-\n\n"
    );
    // -d picks the separator; without --csv the quotes are bytes of the field.
    let tsv = "1\t\"HTTP://C.example/\"\n";
    let ran = run(&["--csv", "-d", "\\t", "--field", "2"], tsv.as_bytes()).ok();
    assert_eq!(ran.out(), "1\t\"http://c.example/\"\n");
    let ran = run(
        &["-d", "\\t", "--field", "2", "--on-invalid=empty"],
        tsv.as_bytes(),
    )
    .ok();
    assert_eq!(ran.out(), "\n");
}

/// Nothing lost: for each format and option set, lines in = lines out +
/// skipped + deduplicated, and every invalid line has its rejects entry.
#[test]
fn formats_account_for_every_line() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("stats.json");
    let rejects = dir.path().join("rejects.tsv");
    let mut broken = std::fs::read(sample("cc-index-derived.cdxj")).unwrap();
    broken.extend_from_slice(
        b"key 1 {\"url\": \"x\"\nkey 2 {}\n\nkey 3 {\"url\": \"http://a.example/\"}",
    );
    let broken = file(&dir, "broken.cdxj", &broken);
    let cases: [(&[&str], PathBuf); 4] = [
        (
            &["--json-field", "url"],
            sample("cc-index-derived.cdxj").into(),
        ),
        (&["--json-field", "url"], broken.into()),
        (
            &["--json-field", "url"],
            sample("cc-index-api-records.jsonl").into(),
        ),
        (
            &["--field", "11"],
            sample("apache_combined-head200.log").into(),
        ),
    ];
    let policies: [&[&str]; 5] = [
        &[],
        &["--on-invalid=skip"],
        &["--on-invalid=empty", "--explain"],
        &["--dedup", "--profile", "aggressive"],
        &["--dedup", "--original", "--on-invalid=skip", "--only-field"],
    ];
    for (select, input) in &cases {
        let records = lines(&std::fs::read(input).unwrap()).len() as u64;
        for policy in policies {
            let mut args: Vec<&str> = select.to_vec();
            args.extend(policy);
            args.extend([
                "--stats-json",
                json.to_str().unwrap(),
                "--rejects",
                rejects.to_str().unwrap(),
                input.to_str().unwrap(),
            ]);
            let ran = run(&args, b"").ok();
            let v: serde_json::Value =
                serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
            let n = |k: &str| v[k].as_u64().unwrap();
            let what = format!("{args:?}: {v}");
            assert_eq!(n("lines"), records, "{what}");
            assert_eq!(n("output_lines"), lines(&ran.stdout).len() as u64, "{what}");
            assert_eq!(
                n("lines"),
                n("output_lines") + n("skipped") + n("deduplicated"),
                "{what}"
            );
            assert_eq!(n("lines"), n("valid") + n("invalid") + n("blank"), "{what}");
            let entries = lines(&std::fs::read(&rejects).unwrap()).len() as u64;
            assert_eq!(entries, n("invalid"), "{what}");
        }
    }
}

/// `--header`: the first line of each input is written untouched and
/// counted apart, however the input is cut into batches; other lines that
/// look like it are ordinary lines.
#[test]
fn header_lines_pass_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let mut cdx = String::from(" CDX N b a m s k r M S V g\n");
    for i in 0..40 {
        cdx.push_str(&format!(
            "com,example)/{i} 2024010100000{} HTTP://Example.COM/{i}/../x - 200 K - - 1 {i} f.warc.gz\n",
            i % 10
        ));
    }
    cdx.push_str(" CDX N b a m s k r M S V g\n");
    let a = file(&dir, "a.cdx", cdx.as_bytes());
    let b = file(&dir, "b.cdx", cdx.as_bytes());
    let stats = dir.path().join("stats.json");
    let ran = run(
        &[
            "--header",
            "--field",
            "3",
            "--on-invalid=skip",
            "-j",
            "2",
            "--batch-bytes",
            "64",
            "--stats-json",
            stats.to_str().unwrap(),
            &a,
            &b,
        ],
        b"",
    )
    .ok();
    let out = lines(&ran.stdout);
    assert_eq!(out.len(), 82);
    assert_eq!(out[0], " CDX N b a m s k r M S V g");
    assert_eq!(
        out[1],
        "com,example)/0 20240101000000 http://example.com/x - 200 K - - 1 0 f.warc.gz"
    );
    assert_eq!(out[41], " CDX N b a m s k r M S V g");
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&stats).unwrap()).unwrap();
    assert_eq!(
        (&v["lines"], &v["headers"], &v["valid"], &v["skipped"]),
        (&84.into(), &2.into(), &80.into(), &2.into()),
        "{v}"
    );
    // A CSV header, with --csv.
    let ran = run(
        &["--header", "--csv", "--field", "2", "--on-invalid=empty"],
        b"id,url\n1,\"HTTP://A.example\"\nid,url\n",
    )
    .ok();
    assert_eq!(ran.out(), "id,url\n1,\"http://a.example/\"\n\n");
}

/// A CSV with line breaks in quoted fields: before, inside and after the
/// URL field, with CRLF line endings.
const MULTI_LINE_CSV: &str = concat!(
    "id,url,note\r\n",
    "1,HTTP://A.example/x/../y,plain\r\n",
    "\"2\na\",\"HTTP://B.example/\",after\r\n",
    "3,\"HTTP://C.example/\r\np\",\"two\r\nlines\"\r\n",
    "4,http://d.example/,\"x\n\n\"\"y\"\"\"\r\n",
    "5,\"http://e.example/\",\"\"\r\n",
);

/// What --csv writes for [`MULTI_LINE_CSV`]: each record byte for byte but
/// its URL, line breaks inside quotes included (issue 33), and the CRLF
/// that ends it too.
const MULTI_LINE_OUT: &str = concat!(
    "id,url,note\r\n",
    "1,http://a.example/y,plain\r\n",
    "\"2\na\",\"http://b.example/\",after\r\n",
    "3,\"http://c.example/p\",\"two\r\nlines\"\r\n",
    "4,http://d.example/,\"x\n\n\"\"y\"\"\"\r\n",
    "5,\"http://e.example/\",\"\"\r\n",
);

/// `args`, then `extra`.
fn with<'a>(args: &[&'a str], extra: &[&'a str]) -> Vec<&'a str> {
    [args, extra].concat()
}

/// The value of `name` in `--stats`' summary on standard error.
fn stat(stderr: &str, name: &str) -> u64 {
    stderr
        .lines()
        .find_map(|l| {
            let (key, value) = l.trim().rsplit_once(' ')?;
            (key.trim_end() == name).then(|| value.replace(',', "").parse().ok())?
        })
        .unwrap_or_else(|| panic!("no {name} in {stderr}"))
}

#[test]
fn csv_records_may_span_lines() {
    let dir = tempfile::tempdir().unwrap();
    let path = file(&dir, "multi.csv", MULTI_LINE_CSV.as_bytes());
    let tiny: [&[&str]; 3] = [
        &["-j", "1"],
        &["-j", "2", "--batch-bytes", "1"],
        &["-j", "2", "--batch-bytes", "7"],
    ];
    for extra in tiny {
        let ran = run(&with(&["--csv", "-f", "2", "--header", &path], extra), b"").ok();
        assert_eq!(ran.out(), MULTI_LINE_OUT, "{extra:?}");
        // Records, not lines, are counted.
        let args = with(&["--csv", "-f", "2", "--header", "--stats", &path], extra);
        let ran = run(&args, b"").ok();
        assert_eq!(stat(&ran.stderr, "lines"), 6, "{}", ran.stderr);
        assert_eq!(stat(&ran.stderr, "valid"), 5, "{}", ran.stderr);
        assert_eq!(stat(&ran.stderr, "output lines"), 6, "{}", ran.stderr);
        // --json: the line where each record starts.
        let ran = run(&with(&["--csv", "-f", "2", "--json", &path], extra), b"").ok();
        let numbers: Vec<u64> = lines(&ran.stdout)
            .iter()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                v["line"].as_u64().unwrap()
            })
            .collect();
        assert_eq!(numbers, [1, 2, 3, 5, 8, 11], "{extra:?}");
    }
}

/// A quote still open at the end of the input: the rest is one record,
/// invalid for its own reason, kept whole (never lost).
#[test]
fn csv_unclosed_quote_runs_to_the_end() {
    let input = "1,http://a.example/\n2,\"http://b.example/\n3,http://c.example/\n";
    for extra in [&["-j", "1"][..], &["-j", "2", "--batch-bytes", "2"]] {
        let ran = run(
            &with(&["--csv", "-f", "2", "--explain"], extra),
            input.as_bytes(),
        )
        .ok();
        assert_eq!(
            ran.out(),
            concat!(
                "1,http://a.example/\t-\n",
                "2,\"http://b.example/\n3,http://c.example/\tinvalid:unclosed-quote\n"
            )
        );
        let args = with(&["--csv", "-f", "2", "--on-invalid=skip", "--stats"], extra);
        let ran = run(&args, input.as_bytes()).ok();
        assert_eq!(ran.out(), "1,http://a.example/\n");
        assert_eq!(stat(&ran.stderr, "unclosed-quote"), 1, "{}", ran.stderr);
        // Longer than --max-line-bytes: an over-long line, as any other.
        let args = with(
            &[
                "--csv",
                "-f",
                "2",
                "--max-line-bytes",
                "25",
                "--on-invalid=empty",
            ],
            extra,
        );
        let ran = run(&args, input.as_bytes()).ok();
        assert_eq!(ran.out(), "1,http://a.example/\n\n");
    }
}

/// `normurl warc`: one line per record, on the whirlwind WARC and WAT
/// samples; each line's offset and length cut out a gzip member that is
/// that record alone.
#[test]
fn warc_records_with_offsets() {
    let warc = sample("whirlwind.warc.gz");
    let ran = run(&["warc", &warc, &sample("whirlwind.warc.wat.gz")], b"").ok();
    assert_eq!(
        ran.out(),
        "-\twarcinfo\t0\t516\n\
         https://an.wikipedia.org/wiki/Escopete\trequest\t516\t507\n\
         https://an.wikipedia.org/wiki/Escopete\tresponse\t1023\t17351\n\
         https://an.wikipedia.org/wiki/Escopete\tmetadata\t18374\t483\n\
         -\twarcinfo\t0\t443\n\
         https://an.wikipedia.org/wiki/Escopete\tmetadata\t443\t918\n"
    );
    let bytes = std::fs::read(&warc).unwrap();
    assert_eq!(bytes.len(), 18374 + 483);
    for l in lines(&ran.stdout).iter().take(4) {
        let cols: Vec<&str> = l.split('\t').collect();
        let (offset, length): (usize, usize) = (cols[2].parse().unwrap(), cols[3].parse().unwrap());
        let mut member = Vec::new();
        std::io::Read::read_to_end(
            &mut flate2::read::GzDecoder::new(&bytes[offset..offset + length]),
            &mut member,
        )
        .unwrap();
        assert!(member.starts_with(b"WARC/1.0\r\n"), "{l}");
        let header = String::from_utf8_lossy(&member[..200]);
        assert!(
            header.contains(&format!("WARC-Type: {}\r\n", cols[1])),
            "{l}"
        );
    }
}

/// A plain WARC (the sample decompressed) from standard input, with a
/// profile; a target URI that needs normalizing; a broken file.
#[test]
fn warc_plain_profile_and_errors() {
    let mut plain = Vec::new();
    std::io::Read::read_to_end(
        &mut flate2::read::MultiGzDecoder::new(
            &std::fs::read(sample("whirlwind.warc.gz")).unwrap()[..],
        ),
        &mut plain,
    )
    .unwrap();
    let extra = b"WARC/1.1\r\nWARC-Type: resource\r\nWARC-Target-URI: <HTTP://WWW.Example.COM/a/../b?utm_source=x&q=1>\r\nContent-Length: 3\r\n\r\nabc\r\n\r\n";
    plain.extend_from_slice(extra);
    let ran = run(&["warc", "--profile", "aggressive", "-"], &plain).ok();
    let out = lines(&ran.stdout);
    assert_eq!(out.len(), 5);
    assert!(out[0].starts_with("-\twarcinfo\t0\t"), "{}", out[0]);
    assert_eq!(
        out[4],
        format!(
            "http://example.com/b?q=1\tresource\t{}\t{}",
            plain.len() - extra.len(),
            extra.len()
        )
    );
    // In a plain file each record starts where the one before ends.
    let mut at = 0;
    for l in &out {
        let n: Vec<usize> = l.split('\t').skip(2).map(|n| n.parse().unwrap()).collect();
        assert_eq!(n[0], at, "{l}");
        at += n[1];
    }
    assert_eq!(at, plain.len());
    // A truncated file: the records before the break, then an error.
    let dir = tempfile::tempdir().unwrap();
    let cut = file(&dir, "cut.warc", &plain[..plain.len() - 10]);
    let ran = run(&["warc", &cut], b"");
    assert_eq!(ran.code, Some(2), "{}", ran.stderr);
    assert!(
        ran.stderr.contains("cut.warc") && ran.stderr.contains("not a WARC file"),
        "{}",
        ran.stderr
    );
    assert_eq!(lines(&ran.stdout).len(), 4);
    usage_error(&["warc", "--profile", "nope", &cut], &["--profile"]);
}

/// `normurl warc --links`: the outlinks of a generated WAT (the sample's
/// WAT holds only a request's record, so no links), resolved against the
/// page's <base href> or the page, normalized, with their paths.
#[test]
fn wat_links_resolved_and_normalized() {
    use serde_json::json;
    let mut wat = std::fs::read(sample("whirlwind.warc.wat.gz")).unwrap();
    wat.extend(wat_record(
        "HTTP://Site.example/dir/page.html",
        json!({
            "Head": {"Base": "/base/", "Link": [{"path": "LINK@/href", "url": "style.css", "rel": "stylesheet"}]},
            "Links": [
                {"path": "A@/href", "url": "../Other.html#top", "text": "other"},
                {"path": "IMG@/src", "url": "//CDN.example/a%7ex.png"},
                {"path": "A@/href", "url": "https://ext.example/?utm_source=x&q=1"},
                {"path": "A@/href", "url": "http://[::1"},
                {"path": "FORM@/action"},
            ],
        }),
        json!({"Content-Type": "text/html"}),
    ));
    wat.extend(wat_record(
        "http://redirect.example/",
        json!({}),
        json!({"Location": "/moved\there"}),
    ));
    let dir = tempfile::tempdir().unwrap();
    let path = file(&dir, "links.wat.gz", &wat);
    let ran = run(&["warc", "--links", &path], b"").ok();
    assert_eq!(
        ran.out(),
        "http://site.example/dir/page.html\thttp://site.example/base/style.css\tLINK@/href\n\
         http://site.example/dir/page.html\thttp://site.example/Other.html#top\tA@/href\n\
         http://site.example/dir/page.html\thttp://cdn.example/a%7ex.png\tIMG@/src\n\
         http://site.example/dir/page.html\thttps://ext.example/?utm_source=x&q=1\tA@/href\n\
         http://site.example/dir/page.html\thttp://[::1\tA@/href\n\
         http://redirect.example/\thttp://redirect.example/movedhere\tLocation\n"
    );
    // With a profile, links are canonicalized as URLs are.
    let ran = run(&["warc", "--links", "--profile", "aggressive", &path], b"").ok();
    let links: Vec<&str> = lines(&ran.stdout)
        .iter()
        .map(|l| l.split('\t').nth(1).unwrap())
        .collect();
    assert_eq!(links[1], "http://site.example/Other.html");
    assert_eq!(links[3], "https://ext.example/?q=1");
}

/// A WARC file given to the line-by-line command stops it with a message
/// saying what to use; it used to count header lines such as
/// `Content-Type: text/html` as valid URLs.
#[test]
fn warc_is_not_read_as_lines() {
    let ran = run(&["--stats", &sample("whirlwind.warc.gz")], b"");
    assert_eq!(ran.code, Some(1), "{}", ran.stderr);
    assert!(ran.stderr.contains("normurl warc"), "{}", ran.stderr);
    assert!(ran.stderr.contains("whirlwind.warc.gz"), "{}", ran.stderr);
    assert!(ran.stdout.is_empty());
    // Only at the start of an input: a URL list is not refused for a line.
    let ran = run(&[], b"http://a.example/\nWARC/1.0\n").ok();
    assert_eq!(ran.out(), "http://a.example/\nWARC/1.0\n");
}

/// The whirlwind WARC recompressed as WARC-zstd, a frame per record:
/// the same records, at the frames' offsets.
#[test]
fn warc_zstd_frames() {
    let gz = std::fs::read(sample("whirlwind.warc.gz")).unwrap();
    let members = [0..516, 516..1023, 1023..18374, 18374..gz.len()];
    let mut zst = Vec::new();
    let mut expected = String::new();
    let kinds = [
        "-\twarcinfo",
        "https://an.wikipedia.org/wiki/Escopete\trequest",
        "https://an.wikipedia.org/wiki/Escopete\tresponse",
        "https://an.wikipedia.org/wiki/Escopete\tmetadata",
    ];
    for (m, kind) in members.iter().zip(kinds) {
        let mut record = Vec::new();
        std::io::Read::read_to_end(
            &mut flate2::read::GzDecoder::new(&gz[m.clone()]),
            &mut record,
        )
        .unwrap();
        let frame = common::bin::zstd(&record);
        expected.push_str(&format!("{kind}\t{}\t{}\n", zst.len(), frame.len()));
        zst.extend(frame);
    }
    let dir = tempfile::tempdir().unwrap();
    let path = file(&dir, "whirlwind.warc.zst", &zst);
    assert_eq!(run(&["warc", &path], b"").ok().out(), expected);
}

/// `--json` with `--json-field`: one JSON object of components per line,
/// not the object quoted as the field's string.
#[test]
fn json_field_with_json_output_writes_objects() {
    let ran = run(
        &["--json-field", "url", "--json"],
        b"{\"url\": \"HTTP://A.example/x\"}\n",
    )
    .ok();
    let object: serde_json::Value = serde_json::from_str(ran.out().trim()).unwrap();
    assert_eq!(object["href"], "http://a.example/x");
    assert_eq!(object["registered_domain"], "a.example");
}
