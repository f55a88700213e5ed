//! What the command writes for each line (issue 29): -g/--get components
//! and templates, --json, --psl, --add-field, --default-scheme, running
//! the built binary.

mod common;

use common::bin::{run, Ran};

#[track_caller]
fn ok(args: &[&str], stdin: &str) -> String {
    run(args, stdin.as_bytes()).ok().out()
}

const INPUT: &str = "\
https://www.Example.co.uk/a/?utm_source=x#f
http://shop.example.co.uk:8080/b
not a url
https://me.github.io/x
http://192.168.0.1/
https://example.co.uk/c
";

#[test]
fn components_and_templates() {
    assert_eq!(
        ok(&["--get", "registered_domain", "--on-invalid=empty"], INPUT),
        "example.co.uk\nexample.co.uk\n\nme.github.io\n\nexample.co.uk\n"
    );
    assert_eq!(
        ok(&["-g", "host", "--on-invalid=skip"], INPUT),
        "www.example.co.uk\nshop.example.co.uk:8080\nme.github.io\n192.168.0.1\nexample.co.uk\n"
    );
    assert_eq!(
        ok(
            &[
                "--get",
                r"{public_suffix}\t{url_host_registry_suffix}\t{pathname}"
            ],
            INPUT
        )
        .lines()
        .collect::<Vec<_>>(),
        [
            "co.uk\tco.uk\t/a/",
            "co.uk\tco.uk\t/b",
            "not a url",
            "github.io\tio\t/x",
            "\t\t/",
            "co.uk\tco.uk\t/c"
        ]
    );
}

/// Components are taken after the profile's rules.
#[test]
fn components_follow_the_profile() {
    assert_eq!(
        ok(
            &[
                "--profile",
                "aggressive",
                "--get",
                "{host}{search}",
                "--on-invalid=skip"
            ],
            INPUT
        )
        .lines()
        .next(),
        Some("example.co.uk")
    );
    // Without rules, the parsed URL's.
    assert_eq!(
        ok(&["--get", "{host}{search}"], INPUT).lines().next(),
        Some("www.example.co.uk?utm_source=x")
    );
}

/// Components of the host are read off the canonical URL; where its
/// bytes leave a doubt (an IPv6 address, a port that parsing drops, a
/// last label that is a number, a scheme that is not special) they come
/// from parsing it, and are the same.
#[test]
fn host_components_of_every_kind_of_host() {
    let input = "\
https://u:p@www.Example.com:8443/a
http://[::1]:81/
http://1.2.3.4/x
ftp://example.com:21/
foo://Opaque.example/
file:///etc/passwd
http://example.com./
";
    let template =
        r"{host}|{hostname}|{port}|{host_type}|{scheme}|{registered_domain}|{url_host_tld}";
    assert_eq!(
        ok(&["-g", template], input),
        "\
www.example.com:8443|www.example.com|8443|domain|https|example.com|com
[::1]:81|[::1]|81|ipv6|http||
1.2.3.4|1.2.3.4||ipv4|http||
example.com|example.com||domain|ftp|example.com|com
Opaque.example|Opaque.example||opaque|foo||
|||empty|file||
example.com.|example.com.||domain|http|example.com|com
"
    );
    // urlcanon-aggressive makes https http and keeps the port, which the
    // parse of its output drops.
    assert_eq!(
        ok(
            &["-p", "urlcanon-aggressive", "-g", r"{host}|{port}"],
            "https://example.com:80/\n"
        ),
        "example.com|\n"
    );
}

/// The bundled list is the newer one (surge.sh is a rule since August),
/// and the strip-www guard reads the same.
#[test]
fn bundled_list_is_the_newer_one() {
    assert_eq!(
        ok(&["-g", "registered_domain"], "https://x.surge.sh/\n"),
        "x.surge.sh\n"
    );
    assert_eq!(
        ok(&["-p", "aggressive"], "https://www.surge.sh/\n"),
        "https://www.surge.sh/\n"
    );
    assert!(ok(&["--version"], "").contains("Public Suffix List of 2026-11-21"));
}

/// --dedup keys on what is written: distinct domains, first seen first.
#[test]
fn dedup_on_the_written_value() {
    assert_eq!(
        ok(
            &["--get", "registered_domain", "--dedup", "--on-invalid=skip"],
            INPUT
        ),
        "example.co.uk\nme.github.io\n\n"
    );
    // With --original, the first line of each domain as it was read.
    assert_eq!(
        ok(
            &["--get", "registered_domain", "--dedup", "--original", "--on-invalid=skip"],
            INPUT
        ),
        "https://www.Example.co.uk/a/?utm_source=x#f\nhttps://me.github.io/x\nhttp://192.168.0.1/\n"
    );
}

/// Every --json line parses as a JSON object, whatever the input bytes.
#[test]
fn json_lines_are_valid_json() {
    let mut input = INPUT.as_bytes().to_vec();
    input.extend_from_slice(b"\n\xff\"\\\x01 bad\nhttp://a.example/\xe9\n");
    input.extend_from_slice(&[b'x'; 300]);
    input.push(b'\n');
    for policy in ["keep", "empty"] {
        let ran = run(
            &["--json", "--max-line-bytes", "100", "--on-invalid", policy],
            &input,
        )
        .ok();
        let out = ran.out();
        let lines: Vec<serde_json::Value> = out
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
            .collect();
        assert_eq!(lines.len(), 10, "{out}");
        assert_eq!(lines[0]["registered_domain"], "example.co.uk");
        assert_eq!(lines[0]["url_host_4th_last_part"], "www");
        assert_eq!(lines[1]["port"], "8080");
        assert_eq!(lines[2]["invalid"], "relative-without-base");
        assert_eq!(lines[6], serde_json::json!({"line": 7}));
        assert_eq!(lines[8]["pathname"], "/%E9");
        assert_eq!(lines[9]["invalid"], "line-too-long");
        if policy == "keep" {
            assert_eq!(lines[2]["input"], "not a url");
            assert_eq!(lines[7]["input"], "\u{fffd}\"\\\u{1} bad");
        } else {
            assert!(lines[2].get("input").is_none());
        }
    }
}

/// The "line" of each --json object: where its line is, from 1 in each
/// input (issue 29), whatever the batches, threads and compression.
fn json_line_numbers(args: &[&str], stdin: &[u8]) -> Vec<u64> {
    let ran = run(args, stdin).ok();
    ran.out()
        .lines()
        .map(|l| {
            let v: serde_json::Value =
                serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"));
            v["line"]
                .as_u64()
                .unwrap_or_else(|| panic!("no line in {l}"))
        })
        .collect()
}

#[test]
fn json_objects_carry_their_line_number() {
    let dir = tempfile::tempdir().unwrap();
    let text = b"http://a.example/\n\nnot a url\r\nhttp://b.example/\n\n\nhttp://c.example/";
    let a = common::bin::file(&dir, "a.txt", text);
    let b = common::bin::file(&dir, "b.txt", b"\nhttp://d.example/\n");
    // Two members cut after a line (a member whose data does not end in
    // a line break ends its line: tests/member_ends.rs).
    let gz = [
        common::bin::gzip(&text[..19]),
        common::bin::gzip(&text[19..]),
    ]
    .concat();
    let c = common::bin::file(&dir, "c.gz", &gz);
    let one = [1, 2, 3, 4, 5, 6, 7];
    let expected: Vec<u64> = [&one[..], &[1, 2], &one[..]].concat();
    for extra in [&[][..], &["-j", "1"], &["-j", "2", "--batch-bytes", "3"]] {
        let mut args = vec!["--json", &a, &b, &c];
        args.extend(extra);
        assert_eq!(json_line_numbers(&args, b""), expected, "{extra:?}");
        let mut args = vec!["--json", "--on-invalid=skip"];
        args.extend(extra);
        assert_eq!(json_line_numbers(&args, text), [1, 4, 7], "{extra:?}");
    }
    // An over-long line is one line; the next keeps its number.
    let long = format!("http://a.example/{}\n\nhttp://b.example/\n", "x".repeat(50));
    for extra in [&["-j", "1"][..], &["-j", "2", "--batch-bytes", "5"]] {
        let mut args = vec!["--json", "--max-line-bytes", "20"];
        args.extend(extra);
        assert_eq!(json_line_numbers(&args, long.as_bytes()), [1, 2, 3]);
    }
    // --dedup compares the objects without their numbers.
    let dup = b"http://a.example/\nHTTP://A.example/\nhttp://b.example/\n";
    assert_eq!(json_line_numbers(&["--json", "--dedup"], dup), [1, 3]);
}

#[test]
fn json_with_fields_writes_only_the_object() {
    let out = ok(
        &["--json", "--field", "2", "-d", "\\t"],
        "a\thttps://b.example/\tc\n",
    );
    let v: serde_json::Value = serde_json::from_str(out.trim_end()).unwrap();
    assert_eq!(v["hostname"], "b.example");
}

#[test]
fn another_public_suffix_list() {
    let dir = tempfile::tempdir().unwrap();
    let list = common::bin::file(
        &dir,
        "list.dat",
        b"// my list\nuk\n// ===BEGIN PRIVATE DOMAINS===\nexample.co.uk\n",
    );
    assert_eq!(
        ok(
            &[
                "--psl",
                &list,
                "--get",
                r"{registered_domain}\t{url_host_registered_domain}"
            ],
            "https://www.example.co.uk/\n"
        ),
        "www.example.co.uk\tco.uk\n"
    );
    let bad = common::bin::file(&dir, "bad.dat", b"uk\nfoo.*.uk\n");
    run(&["--psl", &bad, "--get", "host"], b"").failed(&["--psl", "bad.dat", "line 2"]);
    let missing = dir.path().join("missing.dat");
    run(&["--psl", missing.to_str().unwrap()], b"").failed(&["missing.dat"]);
}

#[test]
fn default_scheme() {
    let input = "example.com/a\nwww.example.com\n//example.com/a\nexample.com:8080/x\n\
                 mailto:x@y\nurn:x\njavascript:alert(1)\n/path\n";
    assert_eq!(
        ok(&["--default-scheme", "https", "--on-invalid=empty"], input),
        "https://example.com/a\nhttps://www.example.com/\nhttps://example.com/a\n\
         https://example.com:8080/x\nmailto:x@y\nurn:x\njavascript:alert(1)\n\n"
    );
    // Without the option such lines are invalid (example.com:8080/x has
    // the scheme example.com).
    assert_eq!(
        ok(&["--on-invalid=empty"], input),
        "\n\n\nexample.com:8080/x\nmailto:x@y\nurn:x\njavascript:alert(1)\n\n"
    );
}

/// --add-field keeps the line and writes the value as a new column.
#[test]
fn add_field() {
    let log = "2011-06-23T17:12:08.802Z   200  1299 http://www.example.com/a LREP\n\
               2011-06-23T17:12:09.000Z   404  12 nope -\n";
    assert_eq!(
        ok(
            &["--field", "4", "--get", "surt", "--add-field", "last"],
            log
        ),
        // A line kept without a URL gets the column too: `-`, the empty
        // value between blanks.
        "2011-06-23T17:12:08.802Z   200  1299 http://www.example.com/a LREP com,example)/a\n\
         2011-06-23T17:12:09.000Z   404  12 nope - -\n"
    );
    assert_eq!(
        ok(
            &[
                "--field",
                "2",
                "-d",
                "\\t",
                "--get",
                "registered_domain",
                "--add-field",
                "first"
            ],
            "x\thttps://a.b.example.org/\ty\n"
        ),
        "example.org\tx\thttps://a.b.example.org/\ty\n"
    );
    // The dedup key is the value, not the line.
    let cdx = "a http://a.example/x 1\nb http://A.example/x 2\n";
    assert_eq!(
        ok(
            &["--field", "2", "-d", " ", "--add-field", "first", "--dedup"],
            cdx
        ),
        "http://a.example/x a http://a.example/x 1\n"
    );
    assert_eq!(
        ok(
            &["--field", "2", "-d", " ", "--add-field", "last", "--dedup"],
            cdx
        ),
        "a http://a.example/x 1 http://a.example/x\n"
    );
}

#[test]
fn bad_options_are_usage_errors() {
    let cases: [(&[&str], &str); 8] = [
        (&["--get", "nope"], "unknown component \"nope\""),
        (&["--get", "{host"], "unclosed {"),
        (&["--field", "1", "--add-field", "middle"], "--add-field"),
        (&["--default-scheme", "ftp"], "--default-scheme"),
        (&["--idn", "unicode", "--get", "host"], "--idn unicode"),
        // clap's own checks.
        (&["--add-field", "first"], "--field"),
        (&["--json", "--explain"], "--explain"),
        (
            &["--default-scheme", "http", "--base", "http://a/"],
            "--base",
        ),
    ];
    for (args, needle) in cases {
        let ran: Ran = run(args, b"http://a/\n");
        assert_eq!(ran.code, Some(2), "{args:?}: {}", ran.stderr);
        assert!(ran.stderr.contains(needle), "{args:?}: {}", ran.stderr);
        assert!(ran.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn rules_and_version_name_the_list() {
    let rules = ok(&["rules"], "");
    assert!(rules.contains("url_host_private_domain"), "{rules}");
    assert!(
        rules.contains("Public Suffix List: the bundled copy of 20"),
        "{rules}"
    );
    let version = ok(&["--version"], "");
    assert!(version.contains("Public Suffix List of 20"), "{version}");
}

#[test]
fn inspect_shows_rules_and_get() {
    let out = ok(
        &[
            "inspect",
            "--profile",
            "aggressive",
            "--rules",
            "-sort-query",
            "-g",
            "registered_domain",
            "HTTP://www.Example.co.uk/a/?z=1&a=2#x",
        ],
        "",
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["href"], "http://www.example.co.uk/a/?z=1&a=2#x");
    assert_eq!(v["rules"]["strip-www"], "http://example.co.uk/a/?z=1&a=2#x");
    assert!(v["rules"].get("sort-query").is_none(), "{out}");
    assert_eq!(v["canonical"], "http://example.co.uk/a?z=1&a=2");
    assert_eq!(v["get"], "example.co.uk");
    run(&["inspect", "--profile", "nope", "http://a/"], b"").failed(&["--profile"]);
}

/// --default-scheme with components (the path that parses before it
/// writes) and with --field.
#[test]
fn default_scheme_with_components() {
    assert_eq!(
        ok(
            &[
                "--default-scheme",
                "http",
                "--get",
                "{scheme} {registered_domain}"
            ],
            "www.example.co.uk/a\n"
        ),
        "http example.co.uk\n"
    );
    assert_eq!(
        ok(
            &["--default-scheme", "https", "--field", "2", "-d", ","],
            "a,example.com:8443/x,b\n"
        ),
        "a,https://example.com:8443/x,b\n"
    );
}
