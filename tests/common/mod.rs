//! Test inputs shared by tests/differential.rs and tests/properties.rs: the
//! corpora in samples/corpora and the inputs of the JSON suites in
//! tests/data. (Each test binary uses a different subset.)

#![allow(dead_code)]

pub mod bin;
pub mod urlgen;
pub mod warc;

use serde_json::Value;

/// The corpora, in the order the benchmark reports them.
pub const CORPORA: [&str; 4] = [
    "weburls.txt",
    "kasztp.txt",
    "node_files.txt",
    "isaacs_files.txt",
];

/// The non-empty lines of `samples/corpora/{name}`, with the UTF-8 byte
/// order mark of the first line removed.
pub fn corpus_lines(name: &str) -> Vec<String> {
    let path = format!("samples/corpora/{name}");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(&text);
    let lines: Vec<String> = text
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect();
    assert!(lines.len() > 1000, "{path}: only {} lines", lines.len());
    lines
}

/// Every corpus line, tagged with its corpus name.
pub fn all_corpus_lines() -> Vec<(&'static str, String)> {
    CORPORA
        .iter()
        .flat_map(|&name| corpus_lines(name).into_iter().map(move |l| (name, l)))
        .collect()
}

/// One input of a test suite: the string and, optionally, a base URL string.
#[derive(Clone, Debug)]
pub struct Case {
    pub input: String,
    pub base: Option<String>,
}

/// A JSON array file of tests/data, lone surrogates replaced.
pub fn load(path: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let text = replace_lone_surrogates(&text);
    match serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}")) {
        Value::Array(items) => items,
        _ => panic!("{path}: not an array"),
    }
}

/// The JSON files contain lone UTF-16 surrogates (`"a\ud900z"`). The URL
/// constructor takes a USVString, so JavaScript turns each into U+FFFD
/// before parsing (https://webidl.spec.whatwg.org/#es-USVString); do the same
/// to the escapes before serde_json sees them.
fn replace_lone_surrogates(text: &str) -> String {
    fn surrogate_at(b: &[u8], i: usize) -> Option<u16> {
        let hex = std::str::from_utf8(b.get(i + 2..i + 6)?).ok()?;
        let v = u16::from_str_radix(hex, 16).ok()?;
        (b[i] == b'\\' && b[i + 1] == b'u' && (0xD800..=0xDFFF).contains(&v)).then_some(v)
    }
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut copied = 0;
    while i < b.len() {
        if b[i] == b'\\' {
            if let Some(v) = surrogate_at(b, i) {
                let paired = (0xD800..0xDC00).contains(&v)
                    && surrogate_at(b, i + 6).is_some_and(|low| (0xDC00..=0xDFFF).contains(&low));
                if paired {
                    i += 12;
                } else {
                    out.push_str(&text[copied..i]);
                    out.push_str("\\uFFFD");
                    i += 6;
                    copied = i;
                }
                continue;
            }
            i += 2;
            continue;
        }
        i += 1;
    }
    out.push_str(&text[copied..]);
    out
}

/// The (input, base) pairs of a urltestdata.json-format file.
pub fn urltestdata(path: &str) -> Vec<Case> {
    let cases: Vec<Case> = load(path)
        .iter()
        .filter(|c| c.is_object())
        .map(|c| Case {
            input: c["input"].as_str().expect("input").to_owned(),
            base: c.get("base").and_then(Value::as_str).map(str::to_owned),
        })
        .collect();
    assert!(!cases.is_empty(), "{path}: no cases");
    cases
}

/// The host inputs of a toascii.json-format file (toascii.json,
/// IdnaTestV2.json), each as the WPT harness uses it
/// (`https://{input}/x`), with a non-special scheme (opaque host parser),
/// and bare.
pub fn host_suite(path: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    for c in load(path).iter().filter(|c| c.is_object()) {
        let host = c["input"].as_str().expect("input");
        for input in [
            format!("https://{host}/x"),
            format!("foo://{host}/x"),
            host.to_owned(),
        ] {
            cases.push(Case { input, base: None });
        }
    }
    assert!(!cases.is_empty(), "{path}: no cases");
    cases
}

/// Every input of every JSON suite in tests/data.
pub fn all_suite_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for path in [
        "tests/data/wpt/urltestdata.json",
        "tests/data/ada/ada_extra_urltestdata.json",
        "tests/data/ada/ada_long_urltestdata.json",
    ] {
        cases.extend(urltestdata(path));
    }
    for path in [
        "tests/data/wpt/toascii.json",
        "tests/data/wpt/IdnaTestV2.json",
    ] {
        cases.extend(host_suite(path));
    }
    cases
}
