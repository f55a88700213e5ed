//! The web-platform-tests URL suites, driven by their JSON data (copied into
//! tests/data/, see tests/data/README.md), with no expected-failures list:
//! every case must pass.

mod common;

use common::load;
use normurl::Url;
use serde_json::Value;

fn field<'a>(case: &'a Value, key: &str) -> Option<&'a str> {
    case.get(key).and_then(Value::as_str)
}

/// Runs a urltestdata.json-format file; returns (passed, failures).
fn run_urltestdata(path: &str) -> (usize, Vec<String>) {
    let mut passed = 0;
    let mut failures = Vec::new();
    for case in load(path) {
        if !case.is_object() {
            continue;
        }
        let input = field(&case, "input").expect("input");
        let base = field(&case, "base");
        let expect_failure = case
            .get("failure")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        let parsed = match base {
            None => Url::parse(input),
            Some(b) => match Url::parse(b) {
                Ok(base_url) => Url::parse_with_base(input, &base_url),
                Err(e) => {
                    if expect_failure {
                        passed += 1;
                    } else {
                        failures.push(format!("{input:?} base {b:?}: base failed to parse: {e}"));
                    }
                    continue;
                }
            },
        };
        let url = match (parsed, expect_failure) {
            (Err(_), true) => {
                // The harness also checks that the input fails as a base.
                if Url::parse(input).is_ok() && base.is_none() {
                    failures.push(format!("{input:?}: failure case parsed as base"));
                } else {
                    passed += 1;
                }
                continue;
            }
            (Ok(url), true) => {
                failures.push(format!(
                    "{input:?} base {base:?}: expected failure, got {}",
                    url.href()
                ));
                continue;
            }
            (Err(e), false) => {
                failures.push(format!(
                    "{input:?} base {base:?}: expected {:?}, got error {e}",
                    field(&case, "href")
                ));
                continue;
            }
            (Ok(url), false) => url,
        };
        let mut ok = true;
        let got: [(&str, String); 11] = [
            ("href", url.href().to_owned()),
            ("protocol", url.protocol().to_owned()),
            ("username", url.username().to_owned()),
            ("password", url.password().to_owned()),
            ("host", url.host().to_owned()),
            ("hostname", url.hostname().to_owned()),
            ("port", url.port().to_owned()),
            ("pathname", url.pathname().to_owned()),
            ("search", url.search().to_owned()),
            ("hash", url.hash().to_owned()),
            ("origin", url.origin()),
        ];
        for (key, value) in &got {
            if let Some(expected) = field(&case, key) {
                if expected != value {
                    failures.push(format!(
                        "{input:?} base {base:?}: {key} expected {expected:?}, got {value:?}"
                    ));
                    ok = false;
                }
            }
        }
        if let Err(e) = url.check_invariants() {
            failures.push(e);
            ok = false;
        }
        if ok {
            passed += 1;
        }
    }
    (passed, failures)
}

fn assert_suite(name: &str, expected_cases: usize, (passed, failures): (usize, Vec<String>)) {
    if !failures.is_empty() {
        panic!(
            "{name}: {} failures ({passed} passed):\n{}",
            failures.len(),
            failures.join("\n")
        );
    }
    assert_eq!(passed, expected_cases, "{name}: number of cases run");
    eprintln!("{name}: {passed} passed, 0 failed");
}

#[test]
fn urltestdata() {
    assert_suite(
        "urltestdata.json",
        891,
        run_urltestdata("tests/data/wpt/urltestdata.json"),
    );
}

#[test]
fn ada_extra_urltestdata() {
    assert_suite(
        "ada_extra_urltestdata.json",
        28,
        run_urltestdata("tests/data/ada/ada_extra_urltestdata.json"),
    );
}

#[test]
fn ada_long_urltestdata() {
    assert_suite(
        "ada_long_urltestdata.json",
        1,
        run_urltestdata("tests/data/ada/ada_long_urltestdata.json"),
    );
}

/// toascii.json through the URL constructor, as url/toascii.window.js does
/// for `new URL("https://" + input + "/x")`. (The host/hostname setter parts
/// of that harness test setters, which normurl does not have.)
fn run_host_suite(path: &str) -> (usize, Vec<String>) {
    let mut passed = 0;
    let mut failures = Vec::new();
    for case in load(path) {
        if !case.is_object() {
            continue;
        }
        let input = field(&case, "input").expect("input");
        if input.is_empty() {
            // IdnaTestV2.window.js: "cannot test empty string input through new URL()".
            continue;
        }
        let output = match case.get("output") {
            Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.as_str()),
            None => Some(input),
            Some(other) => panic!("{path}: bad output {other}"),
        };
        let href = format!("https://{input}/x");
        match (Url::parse(&href), output) {
            (Err(_), None) => passed += 1,
            (Ok(url), None) => {
                failures.push(format!("{input:?}: expected failure, got {}", url.href()))
            }
            (Err(e), Some(out)) => {
                failures.push(format!("{input:?}: expected {out:?}, got error {e}"))
            }
            (Ok(url), Some(out)) => {
                let expected_href = format!("https://{out}/x");
                if url.host() == out
                    && url.hostname() == out
                    && url.pathname() == "/x"
                    && url.href() == expected_href
                {
                    passed += 1;
                } else {
                    failures.push(format!(
                        "{input:?}: expected {out:?}, got host {:?} href {:?}",
                        url.host(),
                        url.href()
                    ));
                }
            }
        }
    }
    (passed, failures)
}

#[test]
fn toascii() {
    assert_suite(
        "toascii.json",
        87,
        run_host_suite("tests/data/wpt/toascii.json"),
    );
}

#[test]
fn idna_test_v2() {
    // 2,671 cases, minus the one with empty input that the WPT harness skips.
    let data = load("tests/data/wpt/IdnaTestV2.json");
    let runnable = data
        .iter()
        .filter(|c| c.is_object() && field(c, "input") != Some(""))
        .count();
    assert_suite(
        "IdnaTestV2.json",
        runnable,
        run_host_suite("tests/data/wpt/IdnaTestV2.json"),
    );
}
