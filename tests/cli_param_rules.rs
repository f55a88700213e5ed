//! `--param-rules FILE` and the `domain-params` rule: DuckDuckGo's own
//! reference tests (tests/data/ddg_url_parameters, Apache-2.0) through the
//! library and the command, and our line format.

mod common;

use common::bin::Ran;
use normurl::canon::{Canonicalizer, Profile};

const DDG: &str = "tests/data/ddg_url_parameters";

fn run(args: &[&str], stdin: &str) -> Ran {
    common::bin::run(args, stdin.as_bytes())
}

#[track_caller]
fn ok(args: &[&str], stdin: &str) -> String {
    run(args, stdin).ok().out()
}

/// The cases of DuckDuckGo's tests.json: (name, input, expected).
///
/// Two cases cannot pass and are left out by name: their URL is stripped
/// or not depending on the page it was requested from (`initiatorURL`,
/// an allowlisted site), which a URL alone does not carry. The third case
/// with an `initiatorURL` (not allowlisted) expects what the URL alone
/// gives, and is kept.
fn ddg_cases() -> Vec<(String, String, String)> {
    let text = std::fs::read_to_string(format!("{DDG}/tests.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let tests = json["trackingParameters"]["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 20);
    let cases: Vec<_> = tests
        .iter()
        .filter(|t| {
            let initiator = t["initiatorURL"].as_str().unwrap_or("");
            !initiator.contains("allowlisted.com")
        })
        .map(|t| {
            let field = |name: &str| t[name].as_str().unwrap().to_owned();
            (field("name"), field("testURL"), field("expectURL"))
        })
        .collect();
    assert_eq!(cases.len(), 18);
    cases
}

#[test]
fn duckduckgo_reference_tests_through_the_library() {
    let config = std::fs::read_to_string(format!("{DDG}/config_reference.json")).unwrap();
    let canon = Canonicalizer::builder(Profile::Whatwg)
        .param_rules(&config)
        .unwrap()
        .build();
    for (name, input, expected) in ddg_cases() {
        assert_eq!(canon.canonicalize(&input).unwrap(), expected, "{name}");
    }
}

#[test]
fn duckduckgo_reference_tests_through_the_command() {
    let cases = ddg_cases();
    let input: String = cases.iter().map(|c| format!("{}\n", c.1)).collect();
    let expected: String = cases.iter().map(|c| format!("{}\n", c.2)).collect();
    let config = format!("{DDG}/config_reference.json");
    assert_eq!(ok(&["--param-rules", &config], &input), expected);
}

#[test]
fn line_format_subdomains_most_specific_keep_and_globs() {
    let dir = tempfile::tempdir().unwrap();
    let rules = common::bin::file(
        &dir,
        "rules.txt",
        b"# ours\n* strip utm_*\nexample.com strip ref,*_id\nshop.example.com keep id,page_*\npartner.com strip\n",
    );
    let input = "https://other.org/?utm_x=1&ref=2\n\
                 https://www.example.com/?utm_x=1&ref=2&x_id=3&y=4\n\
                 https://a.shop.example.com/?ref=1&id=2&page_n=3&z=4\n\
                 https://partner.com/?utm_source=1\n";
    assert_eq!(
        ok(&["--param-rules", &rules, "--explain"], input),
        "https://other.org/?ref=2\tdomain-params\n\
         https://www.example.com/?utm_x=1&y=4\tdomain-params\n\
         https://a.shop.example.com/?id=2&page_n=3\tdomain-params\n\
         https://partner.com/?utm_source=1\t-\n"
    );
    // Repeated files add up.
    let more = common::bin::file(&dir, "more.txt", b"other.org strip ref\n");
    assert_eq!(
        ok(
            &["--param-rules", &rules, "--param-rules", &more],
            "https://other.org/?utm_x=1&ref=2\n"
        ),
        "https://other.org/?utm_x=1\n"
    );
}

#[test]
fn domain_params_follows_the_profile_host() {
    // The domain is looked up on the host after strip-www, so that the
    // output canonicalizes to itself.
    let dir = tempfile::tempdir().unwrap();
    let rules = common::bin::file(&dir, "rules.txt", b"www.a.com strip x\na.com strip y\n");
    assert_eq!(
        ok(
            &["-p", "aggressive", "--param-rules", &rules],
            "https://www.a.com/?x=1&y=2\n"
        ),
        "https://a.com/?x=1\n"
    );
}

#[test]
fn bad_files_name_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    for (body, needle) in [
        (&b"a.com strip x\nb.com drop y\n"[..], ":2: "),
        (b"a.com strip x\na.com keep y\n", ":2: a.com has both"),
        (b"{\"features\": 1}", ":1: no features.trackingParameters"),
    ] {
        let bad = common::bin::file(&dir, "bad.txt", body);
        let ran = run(&["--param-rules", &bad], "https://a.com/\n")
            .failed(&[&format!("--param-rules {bad}{needle}")]);
        assert_eq!(ran.stderr.lines().count(), 1, "{}", ran.stderr);
    }
    run(&["--param-rules", "/nonexistent/rules"], "").failed(&["/nonexistent/rules"]);
}

#[test]
fn rules_lists_domain_params() {
    let text = ok(&["rules"], "");
    assert!(text.contains("  domain-params "), "{text}");
    let help = ok(&["--help"], "");
    assert!(help.contains("--param-rules <FILE>"), "{help}");
}
