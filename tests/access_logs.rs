//! `--format combined|vhost-combined|common` (issue 33): access log lines
//! with the request's URL (or the referrer) normalized in place, on the
//! real combined log in tests/data/formats (see PROVENANCE.txt there) and
//! on generated vhost_combined lines.

mod common;

use std::path::Path;

use common::bin::run;

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

/// The count of `name` in a `--stats` summary.
fn stat(summary: &str, name: &str) -> Option<u64> {
    summary.lines().find_map(|l| {
        let (label, value) = l.trim().rsplit_once(' ')?;
        (label.trim() == name).then(|| value.replace(',', "").parse().ok())?
    })
}

const LOG: &str = "apache_combined-head200.log";

/// The request path becomes the absolute URL in the request line; every
/// other byte of the line stays.
#[test]
fn combined_requests_resolved_against_base() {
    let log = sample(LOG);
    let ran = run(
        &[
            "--format",
            "combined",
            "--base",
            "http://semicomplete.com/",
            &log,
        ],
        b"",
    )
    .ok();
    let input = std::fs::read(&log).unwrap();
    let (before, after) = (lines(&input), lines(&ran.stdout));
    assert_eq!(after.len(), 200);
    assert_eq!(
        after[0],
        "83.149.9.216 - - [17/May/2015:10:05:03 +0000] \"GET http://semicomplete.com/presentations/logstash-monitorama-2013/images/kibana-search.png HTTP/1.1\" 200 203023 \"http://semicomplete.com/presentations/logstash-monitorama-2013/\" \"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_9_1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/32.0.1700.77 Safari/537.36\""
    );
    for (b, a) in before.iter().zip(&after) {
        // The sample's paths are canonical: the URL is the site and the path.
        let path = b.split(' ').nth(6).unwrap();
        let url = format!("http://semicomplete.com{path}");
        assert_eq!(*a, b.replacen(&format!(" {path} "), &format!(" {url} "), 1));
    }
    // --only-field: the URLs alone, as the old `-f 7 --base` recipe gave.
    let only = run(
        &[
            "--format",
            "combined",
            "--base",
            "http://semicomplete.com/",
            "--only-field",
            &log,
        ],
        b"",
    )
    .ok();
    let recipe = run(
        &[
            "-f",
            "7",
            "--base",
            "http://semicomplete.com/",
            "--only-field",
            &log,
        ],
        b"",
    )
    .ok();
    assert_eq!(only.out(), recipe.out());
}

/// `--log-field referrer`: the referrer normalized, `"-"` no URL.
#[test]
fn combined_referrers() {
    let input = concat!(
        "h - - [d +0] \"GET / HTTP/1.1\" 200 1 \"HTTP://R.example/a/../b\" \"UA \\\"x\\\"\"\n",
        "h - - [d +0] \"GET / HTTP/1.1\" 200 1 \"-\" \"UA\"\n",
        "h - - [d +0] \"GET / HTTP/1.1\" 200 1\n",
    );
    let ran = run(
        &[
            "--format",
            "combined",
            "--log-field",
            "referrer",
            "--explain",
        ],
        input.as_bytes(),
    )
    .ok();
    assert_eq!(
        ran.out(),
        concat!(
            "h - - [d +0] \"GET / HTTP/1.1\" 200 1 \"http://r.example/b\" \"UA \\\"x\\\"\"\t-\n",
            "h - - [d +0] \"GET / HTTP/1.1\" 200 1 \"-\" \"UA\"\tinvalid:no-value\n",
            "h - - [d +0] \"GET / HTTP/1.1\" 200 1\tinvalid:missing-field\n",
        )
    );
    // On the sample: the same counts as the `-f 11` recipe.
    let ran = run(
        &[
            "--format",
            "combined",
            "--log-field",
            "referrer",
            "--stats",
            &sample(LOG),
        ],
        b"",
    )
    .ok();
    assert_eq!(ran.stdout, std::fs::read(sample(LOG)).unwrap());
    assert_eq!(stat(&ran.stderr, "no-value"), Some(97), "{}", ran.stderr);
}

/// vhost_combined: each line's `host:port` is its base, https for 443; an
/// absolute-form target is taken as it is; a request line that is not
/// METHOD TARGET VERSION is invalid-request, never lost.
#[test]
fn vhost_combined_lines() {
    let input = concat!(
        "www.Example.org:443 1.2.3.4 - - [d +0] \"GET /A/./b?q=%7e HTTP/1.1\" 200 1 \"-\" \"ua\"\n",
        "b.example:80 1.2.3.4 - - [d +0] \"GET /x/../y HTTP/1.0\" 200 1 \"/rel\" \"ua\"\n",
        "b.example:8080 1.2.3.4 - - [d +0] \"GET HTTP://Proxy.example/ HTTP/1.1\" 200 1 \"-\" \"ua\"\n",
        "b.example:80 1.2.3.4 - - [d +0] \"-\" 408 0 \"-\" \"-\"\n",
        "b.example:80 1.2.3.4 - - [d +0] \"\\x16\\x03\\x01\" 400 0 \"-\" \"-\"\n",
        "b.example:80 1.2.3.4 - - [d +0] \"OPTIONS * HTTP/1.1\" 200 0 \"-\" \"-\"\n",
        "-:80 1.2.3.4 - - [d +0] \"GET /z HTTP/1.1\" 200 1 \"-\" \"ua\"\n",
        "not a log line\n",
        "www.example.org:443 1.2.3.4 - - [e +0] \"HEAD /A/b?q=%7e HTTP/1.1\" 200 1 \"-\" \"ua\"\n",
    );
    let dir = tempfile::tempdir().unwrap();
    let rejects = dir.path().join("rejects.tsv");
    let ran = run(
        &[
            "--format",
            "vhost-combined",
            "--stats",
            "--rejects",
            rejects.to_str().unwrap(),
        ],
        input.as_bytes(),
    )
    .ok();
    assert_eq!(
        ran.out(),
        concat!(
            "www.Example.org:443 1.2.3.4 - - [d +0] \"GET https://www.example.org/A/b?q=%7e HTTP/1.1\" 200 1 \"-\" \"ua\"\n",
            "b.example:80 1.2.3.4 - - [d +0] \"GET http://b.example/y HTTP/1.0\" 200 1 \"/rel\" \"ua\"\n",
            "b.example:8080 1.2.3.4 - - [d +0] \"GET http://proxy.example/ HTTP/1.1\" 200 1 \"-\" \"ua\"\n",
            "b.example:80 1.2.3.4 - - [d +0] \"-\" 408 0 \"-\" \"-\"\n",
            "b.example:80 1.2.3.4 - - [d +0] \"\\x16\\x03\\x01\" 400 0 \"-\" \"-\"\n",
            "b.example:80 1.2.3.4 - - [d +0] \"OPTIONS * HTTP/1.1\" 200 0 \"-\" \"-\"\n",
            "-:80 1.2.3.4 - - [d +0] \"GET /z HTTP/1.1\" 200 1 \"-\" \"ua\"\n",
            "not a log line\n",
            "www.example.org:443 1.2.3.4 - - [e +0] \"HEAD https://www.example.org/A/b?q=%7e HTTP/1.1\" 200 1 \"-\" \"ua\"\n",
        )
    );
    for (name, n) in [
        ("lines", 9),
        ("valid", 4),
        ("invalid", 5),
        ("relative-without-base", 1),
        ("missing-field", 1),
        ("invalid-request", 3),
    ] {
        assert_eq!(stat(&ran.stderr, name), Some(n), "{name}: {}", ran.stderr);
    }
    let rejects = std::fs::read_to_string(&rejects).unwrap();
    let reasons: Vec<&str> = rejects
        .lines()
        .map(|l| l.split('\t').nth(1).unwrap())
        .collect();
    assert_eq!(
        reasons,
        [
            "invalid-request",
            "invalid-request",
            "invalid-request",
            "relative-without-base",
            "missing-field"
        ]
    );
    // The referrer of a vhost line: a relative one resolves against its site.
    let ran = run(
        &[
            "--format",
            "vhost-combined",
            "--log-field",
            "referrer",
            "--only-field",
            "--on-invalid=skip",
        ],
        input.as_bytes(),
    )
    .ok();
    assert_eq!(ran.out(), "http://b.example/rel\n");
}

/// An origin-form request target is a path on the site's host (RFC 9112
/// section 3.2.1), never a network-path reference naming another host:
/// `//evil.example/x` is the path `//evil.example/x`. An absolute-form
/// target (a proxy's request) names its own host.
#[test]
fn origin_form_targets_stay_on_the_site() {
    let line =
        |target: &str| format!("1.2.3.4 - - [d +0] \"GET {target} HTTP/1.1\" 200 1 \"-\" \"ua\"\n");
    let cases = [
        ("//evil.example/x", "https://site.example//evil.example/x"),
        ("///x", "https://site.example///x"),
        ("/\\evil.example/x", "https://site.example//evil.example/x"),
        ("/\t/evil.example/x", "https://site.example//evil.example/x"),
        ("//evil.example/../x?q", "https://site.example//x?q"),
        ("//", "https://site.example//"),
        ("/a//b", "https://site.example/a//b"),
        ("/a?b=//c", "https://site.example/a?b=//c"),
        ("http://proxy.example/p", "http://proxy.example/p"),
    ];
    let input: String = cases.iter().map(|(t, _)| line(t)).collect();
    let args = [
        "--format",
        "combined",
        "--base",
        "https://site.example/",
        "--only-field",
    ];
    let ran = run(&args, input.as_bytes()).ok();
    let expected: Vec<&str> = cases.iter().map(|(_, u)| *u).collect();
    assert_eq!(lines(&ran.stdout), expected);
    // The site of a vhost_combined line, likewise.
    let vhost = "site.example:443 1.2.3.4 - - [d +0] \"GET //evil.example/x HTTP/1.1\" 200 1 \"-\" \"ua\"\n";
    for extra in [&[][..], &["--default-scheme", "http"][..]] {
        let args = [&["--format", "vhost-combined", "--only-field"][..], extra].concat();
        let ran = run(&args, vhost.as_bytes()).ok();
        assert_eq!(
            ran.out(),
            "https://site.example//evil.example/x\n",
            "{extra:?}"
        );
    }
}

/// The `%v:%p` column of vhost_combined: a port other than 80 and 443 is
/// kept, and an IPv6 site (`[2001:db8::1]:8080`, which begins like a
/// timestamp) is read as the site.
#[test]
fn vhost_sites_keep_their_port() {
    let rest = " 1.2.3.4 - - [d +0] \"GET /p?q HTTP/1.1\" 200 1 \"/r\" \"ua\"\n";
    let cases = [
        ("sub.example.org:8080", "http://sub.example.org:8080/p?q"),
        ("sub.example.org:80", "http://sub.example.org/p?q"),
        ("sub.example.org:443", "https://sub.example.org/p?q"),
        ("sub.example.org", "http://sub.example.org/p?q"),
        ("[2001:db8::1]:8080", "http://[2001:db8::1]:8080/p?q"),
        ("[2001:db8::1]:443", "https://[2001:db8::1]/p?q"),
        ("[2001:DB8::1]", "http://[2001:db8::1]/p?q"),
    ];
    let input: String = cases
        .iter()
        .map(|(site, _)| format!("{site}{rest}"))
        .collect();
    let ran = run(
        &["--format", "vhost-combined", "--only-field"],
        input.as_bytes(),
    )
    .ok();
    let expected: Vec<&str> = cases.iter().map(|(_, u)| *u).collect();
    assert_eq!(lines(&ran.stdout), expected);
    // The referrer resolves against the same site.
    let ran = run(
        &[
            "--format",
            "vhost-combined",
            "--log-field",
            "referrer",
            "--only-field",
        ],
        format!("[2001:db8::1]:8080{rest}").as_bytes(),
    )
    .ok();
    assert_eq!(ran.out(), "http://[2001:db8::1]:8080/r\n");
    // A port that is not one is the base's error, not another site's.
    let ran = run(
        &[
            "--format",
            "vhost-combined",
            "--only-field",
            "--on-invalid=skip",
            "--stats",
        ],
        format!("a.example:99999{rest}").as_bytes(),
    )
    .ok();
    assert_eq!(ran.out(), "");
    assert_eq!(stat(&ran.stderr, "invalid"), Some(1), "{}", ran.stderr);
}

/// `common`: no referrer; the request as in combined.
#[test]
fn common_lines() {
    let input = "127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] \"GET /apache_pb.gif?A=1 HTTP/1.0\" 200 2326\n";
    let ran = run(
        &["--format", "common", "--base", "HTTP://Example.COM/"],
        input.as_bytes(),
    )
    .ok();
    assert_eq!(
        ran.out(),
        "127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] \"GET http://example.com/apache_pb.gif?A=1 HTTP/1.0\" 200 2326\n"
    );
}

/// Nothing lost: lines in = out + skipped + deduplicated, for every policy,
/// and --dedup keeps the first line of each distinct request URL.
#[test]
fn access_logs_account_for_every_line() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("stats.json");
    let log = sample(LOG);
    let records = lines(&std::fs::read(&log).unwrap()).len() as u64;
    let base: &[&str] = &["--format", "combined", "--base", "http://semicomplete.com/"];
    let policies: [&[&str]; 4] = [
        &[],
        &["--dedup"],
        &["--log-field", "referrer", "--on-invalid=skip"],
        &["--log-field", "referrer", "--dedup", "--on-invalid=skip"],
    ];
    let mut written = Vec::new();
    for policy in policies {
        let mut args = base.to_vec();
        args.extend(policy);
        args.extend(["--stats-json", json.to_str().unwrap(), &log]);
        let ran = run(&args, b"").ok();
        let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
        let n = |k: &str| v[k].as_u64().unwrap();
        assert_eq!(n("lines"), records, "{policy:?}");
        assert_eq!(n("output_lines"), lines(&ran.stdout).len() as u64);
        assert_eq!(
            n("lines"),
            n("output_lines") + n("skipped") + n("deduplicated"),
            "{policy:?}: {v}"
        );
        written.push((n("output_lines"), n("skipped"), n("deduplicated")));
    }
    // The distinct request URLs of the sample, and its 103 referrers of
    // which 18 are distinct (counted with sort -u).
    let distinct_requests = {
        let text = std::fs::read_to_string(&log).unwrap();
        let mut paths: Vec<&str> = text.lines().map(|l| l.split(' ').nth(6).unwrap()).collect();
        paths.sort_unstable();
        paths.dedup();
        paths.len() as u64
    };
    assert_eq!(written[0], (200, 0, 0));
    assert_eq!(written[1], (distinct_requests, 0, 200 - distinct_requests));
    assert_eq!(written[2], (103, 97, 0));
    assert_eq!(written[3].1, 97);
}

#[test]
fn usage_errors() {
    let cases: [(&[&str], &[&str]); 6] = [
        (&["--format", "combined"], &["--format combined", "--base"]),
        (
            &[
                "--format",
                "common",
                "--log-field",
                "referrer",
                "--base",
                "http://a/",
            ],
            &["no referrer"],
        ),
        (
            &["--format", "vhost-combined", "--base", "http://a/"],
            &["--base"],
        ),
        (&["--format", "nope"], &["--format", "nope"]),
        (&["--log-field", "referrer"], &["--format"]),
        (
            &["--format", "combined", "-f", "7", "--base", "http://a/"],
            &["--format", "--field"],
        ),
    ];
    for (args, needles) in cases {
        run(args, b"").failed(needles);
    }
}
