//! The profiles named after the tools they reproduce (issue 29), through
//! the binary: `--profile NAME` and `normurl rules`. Their peer suites are
//! in tests/canon.rs.

mod common;

use common::bin::run;

fn canonical(profile: &str, input: &str) -> String {
    run(&["--profile", profile], input.as_bytes()).ok().out()
}

#[test]
fn rules_lists_the_tools_profiles() {
    let out = run(&["rules"], b"").ok().out();
    for name in [
        "google",
        "urlcanon-semantic",
        "urlcanon-aggressive",
        "w3lib",
        "normalize-url",
    ] {
        let listed = out
            .lines()
            .any(|l| l.split_whitespace().next() == Some(name));
        assert!(listed, "{name} missing from:\n{out}");
    }
    let w3lib = run(&["rules", "w3lib"], b"").ok().out();
    assert!(w3lib.contains("drop-empty-params"), "{w3lib}");
    assert!(!w3lib.contains("strip-www"), "{w3lib}");
}

#[test]
fn safe_browsing_is_google() {
    let input = "http://user@Example.com:81/a/%2541//b#f\nhttp://x.org/?q=%41\n";
    let google = canonical("google", input);
    assert_eq!(google, canonical("safe-browsing", input));
    assert_eq!(google, "http://example.com/a/A/b\nhttp://x.org/?q=%41\n");
}

#[test]
fn tools_profiles_give_their_keys() {
    // urlcanon's aggressive: https made http, www2. stripped, lowercased.
    assert_eq!(
        canonical(
            "urlcanon-aggressive",
            "https://www2.Example.com/A/?b=1&a=2#x\n"
        ),
        "http://example.com/a?a=2&b=1\n"
    );
    // urlcanon's semantic_precise: userinfo dropped, // collapsed, sorted.
    assert_eq!(
        canonical(
            "urlcanon-semantic",
            "http://u@example.com//a/%7e?b=1&a=2#x\n"
        ),
        "http://example.com/a/~?a=2&b=1#x\n"
    );
    // w3lib's canonicalize_url: empty pieces dropped, sorted, no fragment.
    assert_eq!(
        canonical("w3lib", "http://www.example.com/a?b=2&&a=1#frag\n"),
        "http://www.example.com/a?a=1&b=2\n"
    );
}

#[test]
fn normalize_url_gives_its_keys() {
    // normalize-url's README example, and its defaults on a scheme-less
    // line: http assumed, one www. and the root slash gone, utm_* only.
    let out = run(
        &["--profile", "normalize-url", "--default-scheme", "http"],
        b"//www.sindresorhus.com:80/../baz\nwww.Example.com/?utm_x=1&b=2&a=1&fbclid=3#\nhttps://x.org//a//https://y.org//b/\n",
    )
    .ok()
    .out();
    assert_eq!(
        out,
        "http://sindresorhus.com/baz\nhttp://example.com/?a=1&b=2&fbclid=3\nhttps://x.org/a/https://y.org/b\n"
    );
    let rules = run(&["rules", "normalize-url"], b"").ok().out();
    for rule in ["strip-root-slash", "keep-scheme-slashes", "strip-one-www"] {
        assert!(rules.contains(rule), "{rule} missing from:\n{rules}");
    }
}
