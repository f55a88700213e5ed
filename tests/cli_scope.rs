//! Scope rules through the binary (issue 47): `--keep-if` and `--drop-if`
//! with every kind of rule (surt: in its three spellings, domain:, host:,
//! scheme:, regex:), the last matching rule deciding, the default when no
//! rule matches, the decision made on the normalized URL, dropped lines
//! counted (lines = output + skipped + dropped + deduplicated) and never
//! made invalid, and usage errors. The crawl log is tests/data/scope
//! (see PROVENANCE.txt there); Heritrix's `SurtPrefixedDecideRule`
//! semantics are also checked on the reference crawl logs of
//! ../shared/formats/reference-only when they are present.

mod common;

use std::path::{Path, PathBuf};

use common::bin::{file, run};

fn crawl_log() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/scope/crawl.log")
        .display()
        .to_string()
}

/// The URLs (field 4) the rules keep, in order, as `--only-field` writes
/// them: the invalid line 11 and the blank line 15 are always there.
fn kept(rules: &[&str]) -> Vec<String> {
    let log = crawl_log();
    let mut args = vec!["-f", "4", "--only-field"];
    args.extend_from_slice(rules);
    args.push(&log);
    let ran = run(&args, b"").ok();
    ran.out().lines().map(str::to_string).collect()
}

/// `kept`, with the invalid and the blank line that every run keeps
/// taken out (checked here to be there, in their places).
fn kept_urls(rules: &[&str]) -> Vec<String> {
    let lines = kept(rules);
    assert!(
        lines.contains(&"http://[::1/broken".to_string()),
        "{lines:?}"
    );
    assert!(lines.contains(&String::new()), "{lines:?}");
    let broken = lines.iter().position(|l| l == "http://[::1/broken");
    let blank = lines.iter().position(String::is_empty);
    assert!(broken < blank, "{lines:?}");
    lines
        .into_iter()
        .filter(|l| !l.is_empty() && l != "http://[::1/broken")
        .collect()
}

const ROBOTS: &str = "http://www.example.org/robots.txt";
const HOME: &str = "http://www.example.org/";
const INTRO: &str = "https://www.example.org/docs/intro.html";
const PDF: &str = "http://example.org/docs/a.PDF";
const LOGO: &str = "http://media.example.org:8080/img/logo.png";
const PRIVATE: &str = "http://www.example.org/Private/report.html";
const USERINFO: &str = "http://user:pw@www.example.org/a/c";
const FTP: &str = "ftp://files.example.org/pub/readme.txt";

#[test]
fn domain_keeps_the_host_and_its_subdomains() {
    assert_eq!(
        kept_urls(&["--keep-if", "domain:EXAMPLE.org."]),
        [ROBOTS, HOME, INTRO, PDF, LOGO, PRIVATE, FTP, USERINFO, HOME]
    );
}

#[test]
fn host_keeps_that_host_only() {
    assert_eq!(
        kept_urls(&["--keep-if", "host:www.example.org"]),
        [ROBOTS, HOME, INTRO, PRIVATE, USERINFO, HOME]
    );
    // An IDN host, given in Unicode; an IPv4 address in another form.
    assert_eq!(
        kept_urls(&[
            "--keep-if",
            "host:bücher.example",
            "--keep-if",
            "host:0xC0.168.0.7"
        ]),
        ["http://xn--bcher-kva.example/", "http://192.168.0.7/status"]
    );
}

#[test]
fn scheme_rules() {
    let all = kept_urls(&[]);
    let dropped = kept_urls(&["--drop-if", "scheme:ftp", "--drop-if", "scheme:DNS"]);
    let expected: Vec<&String> = all
        .iter()
        .filter(|u| !u.starts_with("ftp:") && !u.starts_with("dns:"))
        .collect();
    assert_eq!(dropped.iter().collect::<Vec<_>>(), expected);
    assert_eq!(all.len(), dropped.len() + 2);
    assert_eq!(kept_urls(&["--keep-if", "scheme:https"]), [INTRO]);
}

#[test]
fn regex_is_searched_in_the_normalized_url() {
    assert_eq!(kept_urls(&["--keep-if", r"regex:\.(?i:pdf)$"]), [PDF]);
    // Dot segments are gone before the rule sees the URL.
    assert_eq!(kept_urls(&["--keep-if", "regex:/a/c$"]), [USERINFO]);
    assert_eq!(
        kept_urls(&["--keep-if", "regex:/a/\\./b"]),
        Vec::<String>::new()
    );
}

#[test]
fn heritrix_surt_prefixes() {
    let domain = [ROBOTS, HOME, INTRO, PDF, LOGO, PRIVATE, USERINFO, HOME];
    // The formal prefix, and the URL without a slash that implies it:
    // example.org and its subdomains, on any port, http and https alike.
    assert_eq!(
        kept_urls(&["--keep-if", "surt:http://(org,example,"]),
        domain
    );
    assert_eq!(
        kept_urls(&["--keep-if", "surt:https://example.org"]),
        domain
    );
    assert_eq!(
        kept_urls(&["--keep-if", "surt:HTTP://(ORG,Example,"]),
        domain
    );
    // With the slash: that host only.
    assert_eq!(kept_urls(&["--keep-if", "surt:http://example.org/"]), [PDF]);
    // A path: what follows its last slash is cut.
    assert_eq!(
        kept_urls(&["--keep-if", "surt:http://www.example.org/docs/index.html"]),
        [INTRO]
    );
    // Heritrix's SURT form lowercases the path too.
    assert_eq!(
        kept_urls(&["--keep-if", "surt:http://(org,example,www,)/private/"]),
        [PRIVATE]
    );
    // The port and the userinfo are inside the parentheses.
    assert_eq!(
        kept_urls(&["--keep-if", "surt:http://(org,example,media,:8080)/"]),
        [LOGO]
    );
    assert_eq!(
        kept_urls(&["--keep-if", "surt:http://(org,example,www,@user:pw)"]),
        [USERINFO]
    );
    // Another scheme is another prefix.
    assert_eq!(kept_urls(&["--keep-if", "surt:ftp://(org,example,"]), [FTP]);
}

#[test]
fn cdx_surt_prefixes() {
    // The CDX key of the normalized URL: with the whatwg profile,
    // www. stays in the key.
    assert_eq!(kept_urls(&["--keep-if", "surt:org,example)/"]), [PDF]);
    assert_eq!(
        kept_urls(&["--keep-if", "surt:org,example,www)/docs"]),
        [INTRO]
    );
    // With the wayback profile (the default of --get surt) it does not.
    let wayback = kept(&["-p", "wayback", "--keep-if", "surt:org,example)/docs/"]);
    assert_eq!(wayback.iter().filter(|l| l.contains("/docs/")).count(), 2);
}

#[test]
fn the_last_matching_rule_decides() {
    let rules = [
        "--keep-if",
        "domain:example.org",
        "--drop-if",
        "host:www.example.org",
        "--keep-if",
        "regex:/docs/",
    ];
    assert_eq!(kept_urls(&rules), [INTRO, PDF, LOGO, FTP]);
    // The same rules in another order decide otherwise.
    let rules = [
        "--keep-if",
        "regex:/docs/",
        "--keep-if",
        "domain:example.org",
        "--drop-if",
        "host:www.example.org",
    ];
    assert_eq!(kept_urls(&rules), [PDF, LOGO, FTP]);
}

#[test]
fn default_is_drop_with_a_keep_rule_and_keep_without() {
    // No rule matches: dropped when a --keep-if exists...
    assert_eq!(kept_urls(&["--keep-if", "host:nowhere.example"]).len(), 0);
    // ...kept when there are only --drop-if rules.
    assert_eq!(
        kept_urls(&["--drop-if", "host:nowhere.example"]),
        kept_urls(&[])
    );
    // A --drop-if after a --keep-if that matches nothing: still drop.
    assert_eq!(
        kept_urls(&[
            "--keep-if",
            "host:nowhere.example",
            "--drop-if",
            "scheme:ftp"
        ])
        .len(),
        0
    );
}

#[test]
fn decided_on_the_normalized_url_whatever_is_written() {
    // strip-www makes www.example.org example.org before the rule looks.
    assert_eq!(kept_urls(&["--keep-if", "host:example.org"]), [PDF]);
    let aggressive = kept_urls(&["-p", "aggressive", "--keep-if", "host:example.org"]);
    assert_eq!(aggressive.len(), 7, "{aggressive:?}");
    // --get writes the host; the rule still sees the URL.
    assert_eq!(
        kept_urls(&["-g", "host", "--keep-if", "regex:^https:"]),
        ["www.example.org"]
    );
    // --get surt writes keys; the CDX prefix rule sees the same key.
    assert_eq!(
        kept_urls(&["-g", "surt", "--keep-if", "surt:org,example)/docs/"]),
        ["org,example)/docs/intro.html", "org,example)/docs/a.pdf"]
    );
}

fn stats_json(path: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn lines_in_are_lines_out_plus_skipped_dropped_deduplicated() {
    let dir = tempfile::tempdir().unwrap();
    let json: PathBuf = dir.path().join("stats.json");
    let log = crawl_log();
    let rule_sets: [&[&str]; 6] = [
        &[],
        &["--keep-if", "domain:example.org"],
        &["--keep-if", "domain:example.org", "--dedup"],
        &["--drop-if", "scheme:http", "--on-invalid=skip"],
        &[
            "--keep-if",
            "domain:example.org",
            "--dedup",
            "--on-invalid=skip",
        ],
        &["--drop-if", "regex:.", "--on-invalid=empty"],
    ];
    let mut dropped_seen = Vec::new();
    for rules in rule_sets {
        let mut args = vec!["-f", "4", "--stats-json", json.to_str().unwrap()];
        args.extend_from_slice(rules);
        args.push(&log);
        let ran = run(&args, b"").ok();
        let s = stats_json(&json);
        let n = |k: &str| s[k].as_u64().unwrap_or_else(|| panic!("{k} in {s}"));
        let out = ran.out().lines().count() as u64;
        assert_eq!(n("lines"), 16, "{rules:?}");
        assert_eq!(n("output_lines"), out, "{rules:?}");
        assert_eq!(
            n("lines"),
            n("output_lines") + n("skipped") + n("dropped") + n("deduplicated"),
            "{rules:?}: {s}"
        );
        // Dropped lines have valid URLs; the invalid one is never dropped.
        assert_eq!(n("invalid"), 1, "{rules:?}");
        assert_eq!(n("valid") + n("invalid") + n("blank"), 16, "{rules:?}");
        dropped_seen.push(n("dropped"));
    }
    assert_eq!(dropped_seen, [0, 5, 5, 11, 5, 14]);
}

#[test]
fn stats_text_counts_dropped_lines() {
    let log = crawl_log();
    let ran = run(
        &[
            "-f",
            "4",
            "--stats",
            "--keep-if",
            "host:www.example.org",
            &log,
        ],
        b"",
    )
    .ok();
    let row = ran
        .stderr
        .lines()
        .find(|l| l.starts_with("dropped"))
        .unwrap_or_else(|| panic!("{}", ran.stderr));
    assert_eq!(row.split_whitespace().last(), Some("8"), "{row}");
}

#[test]
fn dropped_lines_are_not_rejects() {
    let dir = tempfile::tempdir().unwrap();
    let rejects = dir.path().join("rejects.tsv");
    let log = crawl_log();
    run(
        &[
            "-f",
            "4",
            "--keep-if",
            "host:nowhere.example",
            "--rejects",
            rejects.to_str().unwrap(),
            &log,
        ],
        b"",
    )
    .ok();
    let text = std::fs::read_to_string(&rejects).unwrap();
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(text.starts_with("11\t"), "{text}");
}

#[test]
fn bad_rules_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let urls = file(&dir, "u.txt", b"http://a.example/\n");
    for (args, needles) in [
        (
            ["--keep-if", "nope:x"],
            ["--keep-if", "unknown kind \"nope\""],
        ),
        (["--drop-if", "regex:("], ["--drop-if", "regex:("]),
        (["--keep-if", "domain:"], ["--keep-if", "needs a value"]),
        (["--drop-if", "host:a/b"], ["--drop-if", "not a host name"]),
        (["--keep-if", "example.com"], ["--keep-if", "KIND:VALUE"]),
    ] {
        let mut all = args.to_vec();
        all.push(&urls);
        let ran = run(&all, b"").failed(&needles);
        assert_eq!(ran.stderr.lines().count(), 1, "{}", ran.stderr);
        assert!(ran.stdout.is_empty());
    }
    run(&["--relative", "--keep-if", "scheme:http", &urls], b"").failed(&["--relative"]);
}

/// Heritrix's `SurtPrefixedDecideRule` on the reference crawl logs: a URL
/// is in scope when its SURT form starts with the prefix; the prefix
/// implied by `http://netarkivet.dk` is `http://(dk,netarkivet,`, which
/// takes every http or https URL of netarkivet.dk and its subdomains, on
/// any port, and nothing else (not the `dns:` lines). The expected
/// decisions come from the scheme and host of each URL, which normurl
/// writes with --get.
#[test]
fn surt_prefixed_decide_rule_on_reference_crawl_logs() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/formats/reference-only/heritrix-crawl-log");
    let mut logs: Vec<PathBuf> = vec![PathBuf::from(crawl_log())];
    if let Ok(entries) = std::fs::read_dir(&dir) {
        logs.extend(
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "log")),
        );
    }
    for (prefix, domain) in [
        ("surt:http://netarkivet.dk", "netarkivet.dk"),
        ("surt:http://(org,example,", "example.org"),
    ] {
        for log in &logs {
            let log = log.to_str().unwrap();
            let base = ["-f", "4", "--only-field", "--on-invalid=skip"];
            let parts = run(
                &[&base[..], &["-g", r"{scheme}\t{hostname}", log]].concat(),
                b"",
            )
            .ok();
            let urls = run(&[&base[..], &[log]].concat(), b"").ok();
            let kept = run(&[&base[..], &["--keep-if", prefix, log]].concat(), b"").ok();
            let parts = parts.out();
            let urls = urls.out();
            // Blank lines stay blank under every run: drop them alike.
            let expected: Vec<&str> = parts
                .lines()
                .zip(urls.lines())
                .filter(|(p, _)| !p.is_empty())
                .filter(|(p, _)| {
                    let (scheme, host) = p.split_once('\t').unwrap_or((p, ""));
                    matches!(scheme, "http" | "https")
                        && (host == domain || host.ends_with(&format!(".{domain}")))
                })
                .map(|(_, u)| u)
                .collect();
            let kept = kept.out();
            let got: Vec<&str> = kept.lines().filter(|l| !l.is_empty()).collect();
            assert_eq!(got, expected, "{prefix} on {log}");
        }
    }
}
