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
        "urlcanon-semantic-precise",
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
            "urlcanon-semantic-precise",
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

// Each of the following gives the tool's own answer, checked against
// w3lib 2.5.0, urlcanon 0.3.1 and normalize-url 8.0.2
// (scripts/compare-with-tools.py runs them on the corpora).

#[test]
fn w3lib_drops_a_query_left_empty() {
    // canonicalize_url("http://a.example/x?") is "http://a.example/x", and
    // so are "?&" and "?#f".
    assert_eq!(
        canonical(
            "w3lib",
            "http://a.example/x?\nhttp://a.example/x?&\nhttp://a.example/x?#f\nhttp://a.example/x?&a\n"
        ),
        "http://a.example/x\nhttp://a.example/x\nhttp://a.example/x\nhttp://a.example/x?a=\n"
    );
}

#[test]
fn normalize_url_drops_empty_pieces_before_sorting() {
    // URLSearchParams, which sorts, has no empty parameters.
    assert_eq!(
        canonical(
            "normalize-url",
            "http://a.example/?b=2&a=1&\nhttp://a.example/x?b=1&&a=2#f\nhttp://a.example/x?&&\n"
        ),
        "http://a.example/?a=1&b=2\nhttp://a.example/x?a=2&b=1#f\nhttp://a.example/x\n"
    );
}

#[test]
fn normalize_url_strips_utm_in_any_case() {
    // Its default removeQueryParameters is /^utm_\w+/i: any case, and
    // only with a word character after `utm_`.
    assert_eq!(
        canonical(
            "normalize-url",
            "http://a.example/?Utm_Source=x&UTM_MEDIUM=y&utm_=1&utm_-=2&b=2\n"
        ),
        "http://a.example/?b=2&utm_=1&utm_-=2\n"
    );
    // The other profiles' lists (DuckDuckGo's) are case-sensitive.
    assert_eq!(
        canonical(
            "aggressive",
            "http://a.example/?Utm_Source=x&utm_source=y&b=2\n"
        ),
        "http://a.example/?Utm_Source=x&b=2\n"
    );
}

#[test]
fn urlcanon_aggressive_keeps_tracking_parameters() {
    // urlcanon has no tracking-parameter rule: urlcanon.aggressive keeps
    // them (and lowercases the query).
    assert_eq!(
        canonical(
            "urlcanon-aggressive",
            "http://example.com/a?utm_source=x&b=1&Utm_Medium=2&fbclid=3\n"
        ),
        "http://example.com/a?b=1&fbclid=3&utm_medium=2&utm_source=x\n"
    );
}

#[test]
fn urlcanon_sorts_whole_parameters_by_bytes() {
    // urlcanon sorts the `&`-separated pieces as byte strings: `0` (0x30)
    // is below `=` (0x3D), so `amp;L0=Home` comes first.
    let input = "http://a.example/x?amp;L=1&amp;L0=Home\n";
    for profile in ["urlcanon-semantic", "urlcanon-semantic-precise"] {
        assert_eq!(
            canonical(profile, input),
            "http://a.example/x?amp;L0=Home&amp;L=1\n",
            "{profile}"
        );
    }
    assert_eq!(
        canonical("urlcanon-aggressive", input),
        "http://a.example/x?amp;l0=home&amp;l=1\n"
    );
}

#[test]
fn urlcanon_semantic_drops_the_fragment_and_semantic_precise_keeps_it() {
    // urlcanon.semantic is semantic_precise plus remove_fragment.
    let input = "http://u@example.com//a/%7e?b=1&a=2#x\n";
    assert_eq!(
        canonical("urlcanon-semantic", input),
        "http://example.com/a/~?a=2&b=1\n"
    );
    assert_eq!(
        canonical("urlcanon-semantic-precise", input),
        "http://example.com/a/~?a=2&b=1#x\n"
    );
    let rules = run(&["rules"], b"").ok().out();
    assert!(
        rules
            .lines()
            .any(|l| l.split_whitespace().next() == Some("urlcanon-semantic-precise")),
        "{rules}"
    );
}

#[test]
fn normalize_url_writes_the_query_as_url_search_params() {
    // URLSearchParams.sort() writes every parameter `name=value`, and
    // normalize-url decodes what it encoded: `?r` is `?r=`, `%20` a `+`,
    // `%2F` a `/`. The escapes of `&`, `+`, `%` (and `=` in names) stay,
    // where normalize-url would change the parameters.
    assert_eq!(
        canonical(
            "normalize-url",
            "http://a.example/x?r\nhttp://a.example/x?t=Node.js%20bug&q=%5Cp%7BW%3DF%7D&c=a%2Fb\nhttp://a.example/x?a=%26b%2Bc&d%3De=1\n"
        ),
        "http://a.example/x?r=\nhttp://a.example/x?c=a/b&q=\\p{W=F}&t=Node.js+bug\nhttp://a.example/x?a=%26b%2Bc&d%3De=1\n"
    );
}
