//! The subcommands' manners through the binary: a usage error points to
//! the subcommand's own help, and `bench` reports on any file, one with no
//! URL in it too.

mod common;

use common::bin::{file, run};

/// A usage error in a subcommand's arguments points to that subcommand's
/// help (`normurl warc --help`), where its options are listed; one of the
/// main command points to `normurl --help`. (A value that an option's
/// parser refuses says why instead, `--runs x: ...`, with no pointer.)
#[test]
fn usage_errors_point_to_the_subcommands_help() {
    // A value an option's own parser rejects says why, naming the option
    // (and for a profile, every profile), as the main command does.
    for args in [&["warc", "-p", "x", "a.warc.gz"][..], &["-p", "x"]] {
        let ran = run(args, b"");
        assert_eq!(ran.code, Some(2), "{args:?}: {}", ran.stderr);
        assert!(
            ran.stderr
                .starts_with("normurl: --profile: unknown profile"),
            "{args:?}: {}",
            ran.stderr
        );
        assert!(ran.stderr.contains("wayback"), "{}", ran.stderr);
        assert_eq!(ran.stderr.lines().count(), 1, "{args:?}: {}", ran.stderr);
    }
    let cases: [(&[&str], &str); 8] = [
        (&["warc", "--prof", "a.warc.gz"], "normurl warc --help"),
        (&["warc", "--no-such-option"], "normurl warc --help"),
        (&["warc"], "normurl warc --help"),
        (
            &["inspect", "--no-such-option", "http://a/"],
            "normurl inspect --help",
        ),
        (&["rules", "a", "b"], "normurl rules --help"),
        (&["bench", "--no-such-option", "f"], "normurl bench --help"),
        (
            &["completions", "no-such-shell"],
            "normurl completions --help",
        ),
        (&["--no-such-option"], "normurl --help"),
    ];
    for (args, help) in cases {
        let ran = run(args, b"");
        assert_eq!(ran.code, Some(2), "{args:?}: {}", ran.stderr);
        assert!(
            ran.stderr.starts_with("normurl: "),
            "{args:?}: {}",
            ran.stderr
        );
        assert_eq!(ran.stderr.lines().count(), 1, "{args:?}: {}", ran.stderr);
        let pointer = format!("(see {help})");
        assert!(
            ran.stderr.trim_end().ends_with(&pointer),
            "{args:?}: {pointer} not at the end of {}",
            ran.stderr
        );
    }
}

/// `bench` on files with no URL (empty, blank lines only, invalid lines
/// only) reports 0 URLs (or the invalid ones), with finite rates.
#[test]
fn bench_reports_on_files_without_urls() {
    let dir = tempfile::tempdir().unwrap();
    for (name, content, urls) in [
        ("empty.txt", &b""[..], 0),
        ("blank.txt", b"\n\r\n\n", 0),
        ("invalid.txt", b"nope\nhttp://[::1\n", 2),
    ] {
        let path = file(&dir, name, content);
        let ran = run(&["bench", "--runs", "1", "-j", "2", "--json", &path], b"").ok();
        let rows: Vec<serde_json::Value> = ran
            .out()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert!(rows.len() >= 2, "{name}: {}", ran.out());
        for r in &rows {
            assert_eq!(
                (r["urls"].as_u64(), r["valid"].as_u64()),
                (Some(urls), Some(0)),
                "{name}: {r}"
            );
            assert!(
                r["ns_per_url"].is_f64() || r["ns_per_url"].is_u64(),
                "{name}: {r}"
            );
            assert!(r["mb_per_s"].is_number(), "{name}: {r}");
        }
        let table = run(&["bench", "--runs", "1", "-j", "2", &path], b"").ok();
        assert!(table.out().contains(name), "{}", table.out());
        assert!(
            !table.out().contains("inf") && !table.out().contains("NaN"),
            "{}",
            table.out()
        );
    }
}
