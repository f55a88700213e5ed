//! The command's canonicalization options (issue 4): --profile, --rules,
//! --get url|surt|ssurt, --dedup (in memory, spilled, adjacent),
//! --explain and the `rules` subcommand, running the built binary.

mod common;

use common::bin::Ran;

fn run(args: &[&str], stdin: &str) -> Ran {
    common::bin::run(args, stdin.as_bytes())
}

#[track_caller]
fn ok(args: &[&str], stdin: &str) -> String {
    run(args, stdin).ok().out()
}

const INPUT: &str = "\
https://www.Example.com/a/?utm_source=x&b=2&a=1#f
http://example.com/a?a=1&b=2
https://www.example.com/a/?b=2&a=1
not a url
HTTPS://EXAMPLE.COM/a?a=1&b=2
";

#[test]
fn profiles_and_explain() {
    assert_eq!(
        ok(&["--profile", "aggressive", "--explain"], INPUT),
        "https://example.com/a?a=1&b=2\tstrip-www,strip-trailing-slash,strip-tracking,sort-query,drop-fragment\n\
         http://example.com/a?a=1&b=2\t-\n\
         https://example.com/a?a=1&b=2\tstrip-www,strip-trailing-slash,sort-query\n\
         not a url\tinvalid:relative-without-base\n\
         https://example.com/a?a=1&b=2\t-\n"
    );
    // The default profile is the WHATWG serialization only.
    assert_eq!(
        ok(&[], INPUT).lines().next(),
        Some("https://www.example.com/a/?utm_source=x&b=2&a=1#f")
    );
    // A rule edit on top of a profile.
    assert_eq!(
        ok(
            &["--profile", "aggressive", "--rules", "-strip-www"],
            "https://www.example.com/\n"
        ),
        "https://www.example.com/\n"
    );
}

#[test]
fn dedup_keeps_first_lines_in_order_and_spilling_changes_nothing() {
    let in_memory = ok(&["--profile", "aggressive", "--dedup"], INPUT);
    assert_eq!(
        in_memory,
        "https://example.com/a?a=1&b=2\nhttp://example.com/a?a=1&b=2\nnot a url\n"
    );
    // A budget of 0 bytes forces every key to disk: same output.
    let spilled = ok(
        &["--profile", "aggressive", "--dedup", "--dedup-memory", "0"],
        INPUT,
    );
    assert_eq!(spilled, in_memory);
    // On a real corpus, with several threads.
    let corpus = std::fs::read_to_string("samples/urls.txt").unwrap();
    let mem = ok(&["--profile", "aggressive", "--dedup", "-j", "3"], &corpus);
    let disk = ok(
        &[
            "--profile",
            "aggressive",
            "--dedup",
            "--dedup-memory",
            "1K",
            "-j",
            "2",
        ],
        &corpus,
    );
    assert_eq!(mem, disk);
    let mut seen = std::collections::HashSet::new();
    let naive: String = ok(&["--profile", "aggressive"], &corpus)
        .lines()
        .filter(|l| seen.insert(l.to_string()))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(mem, naive);
}

#[test]
fn assume_sorted_drops_only_adjacent_duplicates() {
    let input = "http://a/\nHTTP://A/\nhttp://b/\nhttp://a/\n";
    assert_eq!(
        ok(&["--dedup", "--assume-sorted"], input),
        "http://a/\nhttp://b/\nhttp://a/\n"
    );
}

#[test]
fn dedup_stats_count_dropped_lines() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("stats.json");
    ok(
        &["--dedup", "--stats-json", json.to_str().unwrap()],
        "http://a/\nhttp://A/\nhttp://b/\n",
    );
    let stats: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
    assert_eq!(stats["deduplicated"], 1, "{stats}");
}

#[test]
fn surt_output() {
    assert_eq!(
        ok(
            &["--get", "surt"],
            "http://www.Example.com/path?b=1&a=2\nhttps://example.com:8443/x\n"
        ),
        "com,example)/path?a=2&b=1\ncom,example:8443)/x\n"
    );
}

#[test]
fn rules_lists_profiles_and_rules() {
    let out = ok(&["rules"], "");
    for name in [
        "aggressive",
        "safe-browsing",
        "decode-unreserved",
        "sort-query",
        "strip-www-digits",
    ] {
        assert!(out.contains(name), "{name} missing from:\n{out}");
    }
}

#[test]
fn idn_unicode_writes_hosts_in_unicode() {
    // Lines the parser's fast check accepts as they are, with and without
    // rules and a query: `--idn unicode` once left their `xn--` labels.
    let input = "http://xn--bcher-kva.example/a\nhttp://www.xn--bcher-kva.example/a/?b=1&a=2\n";
    assert_eq!(
        ok(&["--idn", "unicode"], input),
        "http://bücher.example/a\nhttp://www.bücher.example/a/?b=1&a=2\n"
    );
    assert_eq!(
        ok(&["--idn", "unicode", "--profile", "aggressive"], input),
        "http://bücher.example/a\nhttp://bücher.example/a?a=2&b=1\n"
    );
    assert_eq!(
        ok(&["--profile", "aggressive"], input),
        "http://xn--bcher-kva.example/a\nhttp://xn--bcher-kva.example/a?a=2&b=1\n"
    );
}

#[test]
fn bad_names_are_usage_errors() {
    for args in [
        &["--profile", "nope"][..],
        &["--rules", "+nope"],
        &["--get", "xml"],
        &["--idn", "latin1"],
    ] {
        let ran = run(args, "http://a/\n");
        assert_eq!(ran.code, Some(2), "{args:?}");
        assert!(
            ran.stderr.starts_with("normurl: "),
            "{args:?}: {}",
            ran.stderr
        );
        assert!(ran.stdout.is_empty());
    }
}

/// A crawl.log-like input: the URL is field 4.
const LOG: &str = "2026 200 1 http://www.A.example/x?utm_source=1 - -\n\
                   2026 404 2 http://a.example/x/ P ref\n\
                   2026 200 3 http://b.example/ - -\n\
                   bad line\n\
                   2026 301 4 HTTP://B.EXAMPLE - x\n";

#[test]
fn column_mode_dedup_keeps_whole_lines_by_their_url_field() {
    // Lines 2 and 5 have the key of lines 1 and 3: dropped whole, the
    // rest of each kept line byte for byte.
    assert_eq!(
        ok(&["--field", "4", "--profile", "aggressive", "--dedup"], LOG),
        "2026 200 1 http://a.example/x - -\n\
         2026 200 3 http://b.example/ - -\n\
         bad line\n"
    );
    // With --get surt the key is the SURT (wayback keeps utm_*); with
    // --only-field a line without the field gives its (empty) field.
    assert_eq!(
        ok(
            &["--field", "4", "--get", "surt", "--dedup", "--only-field"],
            LOG
        ),
        "example,a)/x?utm_source=1\nexample,a)/x\nexample,b)/\n\n"
    );
}

#[test]
fn original_writes_kept_lines_as_they_were_read() {
    // The keys are those of the test above; the lines that stay are the
    // input's, byte for byte.
    let args = ["--field", "4", "--profile", "aggressive", "--dedup"];
    assert_eq!(
        ok(&[&args[..], &["--original"]].concat(), LOG),
        "2026 200 1 http://www.A.example/x?utm_source=1 - -\n\
         2026 200 3 http://b.example/ - -\n\
         bad line\n"
    );
    // Invalid lines dropped too: a filter that rewrites nothing.
    assert_eq!(
        ok(
            &[
                &args[..],
                &["--original", "--on-invalid=skip", "--only-field"]
            ]
            .concat(),
            LOG
        ),
        "http://www.A.example/x?utm_source=1\nhttp://b.example/\n"
    );
    // --explain still says which rules made the key.
    assert_eq!(
        ok(&["--profile", "aggressive", "--original", "--explain"], INPUT),
        "https://www.Example.com/a/?utm_source=x&b=2&a=1#f\tstrip-www,strip-trailing-slash,strip-tracking,sort-query,drop-fragment\n\
         http://example.com/a?a=1&b=2\t-\n\
         https://www.example.com/a/?b=2&a=1\tstrip-www,strip-trailing-slash,sort-query\n\
         not a url\tinvalid:relative-without-base\n\
         HTTPS://EXAMPLE.COM/a?a=1&b=2\t-\n"
    );
    // Without --original the same run writes the normalized URLs; with it,
    // every valid line is the input line (whatever the profile and form).
    for form in ["url", "surt", "ssurt"] {
        let out = ok(&["--get", form, "--original"], INPUT);
        assert_eq!(out, INPUT, "--get {form}");
    }
}

#[test]
fn original_dedups_a_sorted_cdx_by_the_surt_of_its_url() {
    // CDX (CDX N b a m s k r M S V g): the key, the capture time, the
    // original URL. Sorted by key, several captures per URL; the header has
    // no URL in field 3 and stays.
    let cdx = " CDX N b a m s k r M S V g\n\
               com,example)/ 20200101000000 http://example.com/ text/html 200 AAA - - 10 0 a.warc.gz\n\
               com,example)/ 20210101000000 http://www.example.com/ text/html 200 BBB - - 10 9 a.warc.gz\n\
               com,example)/a?b=1&c=2 20200101000000 http://example.com/a?c=2&b=1 text/html 200 CCC - - 10 19 a.warc.gz\n\
               com,example)/a?b=1&c=2 20200202000000 http://example.com/a?b=1&c=2 text/html 200 DDD - - 10 29 a.warc.gz\n\
               org,example)/ 20200101000000 https://example.org/ text/html 200 EEE - - 10 39 b.warc.gz\n";
    let out = ok(
        &[
            "--field",
            "3",
            "--get",
            "surt",
            "--dedup",
            "--assume-sorted",
            "--original",
        ],
        cdx,
    );
    let lines: Vec<&str> = cdx.lines().collect();
    let expected: String = [0, 1, 3, 5]
        .iter()
        .flat_map(|&i| [lines[i], "\n"])
        .collect();
    assert_eq!(out, expected);
}
