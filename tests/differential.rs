//! Differential test: normurl against the `url` crate (servo/rust-url).
//!
//! Every line of samples/corpora and every input (with its base) of
//! urltestdata.json and ada's extra suites is parsed by both; the outcomes
//! (href, or failure) must agree, except for the differences listed in
//! tests/data/known-differences.txt, each of which quotes the URL Standard
//! step that shows normurl is right.
//!
//! The list is a ratchet: the test fails on a difference that is not
//! listed, on a listed difference whose outputs changed, and on a listed
//! difference that no longer occurs (delete its entry). On failure the test
//! prints the unlisted differences in the file's format, ready to be checked
//! against the spec and pasted.

mod common;

use std::collections::BTreeMap;
use std::fmt::Write as _;

use common::Case;

const KNOWN: &str = "tests/data/known-differences.txt";

/// The outcome of `new URL(input, base)`: the href, or `None` for failure
/// (including a base that fails to parse).
type Outcome = Option<String>;

fn normurl_outcome(case: &Case) -> Outcome {
    let parsed = match &case.base {
        None => normurl::Url::parse(&case.input),
        Some(b) => {
            normurl::Url::parse(b).and_then(|b| normurl::Url::parse_with_base(&case.input, &b))
        }
    };
    parsed.ok().map(|u| u.href().to_owned())
}

fn url_outcome(case: &Case) -> Outcome {
    let parsed = match &case.base {
        None => url::Url::parse(&case.input),
        Some(b) => url::Url::parse(b).and_then(|b| b.join(&case.input)),
    };
    parsed.ok().map(String::from)
}

fn show(outcome: &Outcome) -> String {
    match outcome {
        Some(href) => json(href),
        None => "failure".to_owned(),
    }
}

fn json(s: &str) -> String {
    serde_json::to_string(s).expect("string serializes")
}

/// One entry of the known-differences file.
#[derive(Debug)]
struct Known {
    line: usize,
    normurl: String,
    url: String,
    has_spec: bool,
}

/// The key of a difference: (input, base), as JSON strings.
type Key = (String, Option<String>);

/// Parses the known-differences file: blank-line separated entries of
/// `key: value` lines; `#` lines are comments.
fn load_known() -> BTreeMap<Key, Known> {
    let text = std::fs::read_to_string(KNOWN).unwrap_or_else(|e| panic!("{KNOWN}: {e}"));
    let mut known = BTreeMap::new();
    let mut entry: BTreeMap<&str, (usize, String)> = BTreeMap::new();
    let mut spec_lines = 0;
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().chain(std::iter::once(&"")).enumerate() {
        if line.starts_with('#') {
            continue;
        }
        if line.trim().is_empty() {
            if entry.is_empty() {
                continue;
            }
            let get = |k: &str| {
                entry
                    .get(k)
                    .map(|(_, v)| v.clone())
                    .unwrap_or_else(|| panic!("{KNOWN}: entry ending at line {i} has no `{k}:`"))
            };
            let start = entry.values().map(|(l, _)| *l).min().unwrap_or(i);
            let input = get("input");
            let base = entry.get("base").map(|(_, v)| v.clone());
            for v in std::iter::once(&input).chain(&base) {
                let _: String = serde_json::from_str(v)
                    .unwrap_or_else(|e| panic!("{KNOWN}:{start}: {v} is not a JSON string: {e}"));
            }
            let k = Known {
                line: start,
                normurl: get("normurl"),
                url: get("url"),
                has_spec: spec_lines > 0,
            };
            if let Some(old) = known.insert((input, base), k) {
                panic!(
                    "{KNOWN}:{start}: duplicate of the entry at line {}",
                    old.line
                );
            }
            entry.clear();
            spec_lines = 0;
            continue;
        }
        if line.starts_with(' ') {
            // Continuation of the previous line (a long spec quotation).
            continue;
        }
        let (key, value) = line
            .split_once(':')
            .unwrap_or_else(|| panic!("{KNOWN}:{}: not `key: value`: {line:?}", i + 1));
        let key = key.trim();
        if key == "spec" {
            spec_lines += 1;
            continue;
        }
        if entry
            .insert(key, (i + 1, value.trim().to_owned()))
            .is_some()
            && matches!(key, "input" | "base" | "normurl" | "url")
        {
            panic!("{KNOWN}:{}: `{key}:` twice in one entry", i + 1);
        }
    }
    known
}

fn cases() -> Vec<(&'static str, Case)> {
    let mut cases: Vec<(&str, Case)> = Vec::new();
    for (name, path) in [
        ("urltestdata.json", "tests/data/wpt/urltestdata.json"),
        (
            "ada_extra_urltestdata.json",
            "tests/data/ada/ada_extra_urltestdata.json",
        ),
        (
            "ada_long_urltestdata.json",
            "tests/data/ada/ada_long_urltestdata.json",
        ),
    ] {
        cases.extend(common::urltestdata(path).into_iter().map(|c| (name, c)));
    }
    for (name, line) in common::all_corpus_lines() {
        cases.push((
            name,
            Case {
                input: line,
                base: None,
            },
        ));
    }
    cases
}

#[test]
fn normurl_agrees_with_url_crate_except_known_differences() {
    let known = load_known();
    let cases = cases();
    let mut seen: BTreeMap<Key, usize> = BTreeMap::new();
    let mut problems = Vec::new();
    // Unlisted differences, by key: (sources, normurl's outcome, url's outcome).
    let mut unlisted: BTreeMap<Key, (Vec<&str>, String, String)> = BTreeMap::new();
    let mut agree = 0;
    for (source, case) in &cases {
        let ours = normurl_outcome(case);
        let theirs = url_outcome(case);
        if ours == theirs {
            agree += 1;
            continue;
        }
        let key = (json(&case.input), case.base.as_deref().map(json));
        *seen.entry(key.clone()).or_default() += 1;
        match known.get(&key) {
            Some(k) if k.normurl == show(&ours) && k.url == show(&theirs) => {}
            Some(k) => problems.push(format!(
                "{KNOWN}:{}: outputs changed for input {}: now normurl {} url {}",
                k.line,
                key.0,
                show(&ours),
                show(&theirs)
            )),
            None => {
                let entry = unlisted
                    .entry(key)
                    .or_insert_with(|| (Vec::new(), show(&ours), show(&theirs)));
                if !entry.0.contains(source) {
                    entry.0.push(source);
                }
            }
        }
    }
    for (key, k) in &known {
        if !seen.contains_key(key) {
            problems.push(format!(
                "{KNOWN}:{}: listed difference no longer occurs (remove it): input {}",
                k.line, key.0
            ));
        }
        if !k.has_spec {
            problems.push(format!(
                "{KNOWN}:{}: entry has no `spec:` line quoting the URL Standard",
                k.line
            ));
        }
    }
    if !unlisted.is_empty() {
        let mut text = String::new();
        for ((input, base), (sources, ours, theirs)) in &unlisted {
            let _ = writeln!(text, "source: {}", sources.join(", "));
            let _ = writeln!(text, "input: {input}");
            if let Some(b) = base {
                let _ = writeln!(text, "base: {b}");
            }
            let _ = writeln!(text, "normurl: {ours}\nurl: {theirs}\nspec: TODO\n");
        }
        problems.push(format!(
            "{} unlisted differences (add them to {KNOWN} once the spec shows normurl is right):\n\n{text}",
            unlisted.len()
        ));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let differing: usize = seen.values().sum();
    eprintln!(
        "{} inputs: {agree} agree, {differing} differ ({} known differences)",
        cases.len(),
        known.len()
    );
    assert_eq!(agree + differing, cases.len());
}
