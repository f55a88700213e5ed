//! `wayback` with SURT output against the keys of the world's CDX indexes:
//! the `surt` package 0.3.1's keys in tests/data/surt/keys.tsv (see its
//! README.md), which are pywb's and Common Crawl's, made the way
//! webarchive-commons' `WaybackURLKeyMaker` makes OpenWayback's.
//!
//! Inputs are parsed with `http` as the default scheme, as `surt` does
//! (`--default-scheme http`). Every input whose key differs must be listed
//! in tests/data/surt/known-differences.txt with the key normurl gives and
//! a class that names the URL Standard step responsible; the test fails on
//! an unlisted difference, on a listed key that changed and on a listed
//! input that now matches (a ratchet: delete the entry).

mod common;

use std::collections::HashMap;

use common::bin::run;

use normurl::canon::{parse_with_default_scheme, Canonicalizer, OutputForm, Profile, SurtOptions};
use normurl::Url;

const KEYS: &str = "tests/data/surt/keys.tsv";
const KNOWN: &str = "tests/data/surt/known-differences.txt";

/// `--profile wayback --get surt`.
fn keymaker() -> Canonicalizer {
    Canonicalizer::builder(Profile::Wayback)
        .output(OutputForm::Surt(SurtOptions::CDX))
        .build()
}

/// normurl's key for `input`, or `<parse error: NAME>`.
fn key(canon: &Canonicalizer, url: &mut Url, input: &str) -> String {
    match parse_with_default_scheme(url, input, "http", &mut String::new()) {
        Ok(()) => canon.canonicalize_url(url),
        Err(e) => format!("<parse error: {}>", e.name()),
    }
}

/// `INPUT<TAB>KEY` lines.
fn pairs(text: &str) -> Vec<(&str, &str)> {
    text.lines()
        .map(|line| line.split_once('\t').expect("INPUT<TAB>KEY"))
        .collect()
}

/// The inputs whose keys differ, with normurl's key.
fn differences(pairs: &[(&str, &str)]) -> Vec<(String, String, String)> {
    let canon = keymaker();
    let mut url = Url::parse("about:blank").unwrap();
    pairs
        .iter()
        .filter_map(|&(input, expected)| {
            let actual = key(&canon, &mut url, input);
            (actual != expected).then(|| (input.to_owned(), expected.to_owned(), actual))
        })
        .collect()
}

/// The list: input -> (normurl's key, class). Lines are `"json
/// input"<TAB>"json key"<TAB>[class]`; `#` starts a comment line.
fn known() -> HashMap<String, (String, String)> {
    let text = std::fs::read_to_string(KNOWN).unwrap_or_else(|e| panic!("{KNOWN}: {e}"));
    let mut map = HashMap::new();
    for (n, line) in text.lines().enumerate() {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.splitn(3, '\t').collect();
        let at = format!("{KNOWN}:{}", n + 1);
        assert_eq!(fields.len(), 3, "{at}: want input, key, [class]");
        let json =
            |s: &str| -> String { serde_json::from_str(s).unwrap_or_else(|e| panic!("{at}: {e}")) };
        assert!(fields[2].starts_with('['), "{at}: want a [class]");
        let class = fields[2][1..].split(']').next().unwrap().to_owned();
        let old = map.insert(json(fields[0]), (json(fields[1]), class));
        assert!(old.is_none(), "{at}: listed twice");
    }
    map
}

#[test]
fn keys_of_the_surt_package() {
    let text = std::fs::read_to_string(KEYS).unwrap_or_else(|e| panic!("{KEYS}: {e}"));
    let pairs = pairs(&text);
    let known = known();
    let differences = differences(&pairs);
    let mut problems = Vec::new();
    let mut classes: HashMap<&str, usize> = HashMap::new();
    for (input, expected, actual) in &differences {
        match known.get(input) {
            Some((key, class)) if key == actual => *classes.entry(class).or_default() += 1,
            Some((key, _)) => problems.push(format!("{input:?}: listed {key:?}, now {actual:?}")),
            None => problems.push(format!(
                "{}\t{}\t[class] url.bs step\n    surt gives {expected:?}",
                serde_json::to_string(input).unwrap(),
                serde_json::to_string(actual).unwrap(),
            )),
        }
    }
    for input in known.keys() {
        if !differences.iter().any(|d| &d.0 == input) {
            problems.push(format!(
                "{input:?} now matches (or is gone): delete it from {KNOWN}"
            ));
        }
    }
    let mut classes: Vec<_> = classes.into_iter().collect();
    classes.sort();
    eprintln!(
        "{} inputs, {} differ: {classes:?}",
        pairs.len(),
        differences.len()
    );
    assert!(pairs.len() > 12_000, "{KEYS}: {} lines", pairs.len());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The rule differences of issue 29, which the list must not have: each of
/// these was a different key before, and is the `surt` package's now.
#[test]
fn rule_differences_are_gone() {
    let canon = keymaker();
    let mut url = Url::parse("about:blank").unwrap();
    for (input, expected) in [
        ("http://www.freedesktop.org/wiki/", "org,freedesktop)/wiki"),
        ("http://www.blogspot.com/", "com,blogspot)/"),
        ("https://www10.org/cdrom/", "org)/cdrom"),
        ("http://example.com/a{b}c", "com,example)/a{b}c"),
        ("http://example.com/a\"b\"^<>`", "com,example)/a\"b\"^<>`"),
        ("http://example.com/a%3Fb", "com,example)/a?b"),
        ("http://example.com/a%5Cb", "com,example)/a\\b"),
        (
            "http://example.com/?q={x}&r=\"y'\"",
            "com,example)/?q={x}&r=\"y'\"",
        ),
    ] {
        assert_eq!(key(&canon, &mut url, input), expected, "{input}");
    }
    // The URL form stays a URL that parses to itself.
    let wayback = Canonicalizer::new(Profile::Wayback);
    let url = Url::parse("http://example.com/a%3Fb{c}?r=\"y'\"").unwrap();
    assert_eq!(
        wayback.canonicalize_url(&url),
        "http://example.com/a%3fb%7bc%7d?r=%22y%27%22"
    );
}

/// Measures another set of keys: `SURT_KEYS=FILE` of `INPUT<TAB>KEY` lines
/// (e.g. made from a crawl log with the `surt` package), printing the
/// share that differs and each difference. Measures, asserts nothing on
/// the count: run with `--ignored --nocapture`.
#[test]
#[ignore = "needs SURT_KEYS=FILE"]
fn keys_from_env() {
    let path = std::env::var("SURT_KEYS").expect("SURT_KEYS=FILE");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let pairs = pairs(&text);
    let differences = differences(&pairs);
    for (input, expected, actual) in &differences {
        println!("{input}\n  surt    {expected}\n  normurl {actual}");
    }
    println!(
        "{path}: {} of {} keys differ ({:.2}%)",
        differences.len(),
        pairs.len(),
        100.0 * differences.len() as f64 / pairs.len().max(1) as f64
    );
}

#[test]
fn binary_writes_the_keys_of_cdx_indexes() {
    let input = "http://www.blogspot.com/\nhttps://www10.org/cdrom/\nhttp://example.com/a%3Fb{c}\nhttp://example.com/x?print&%D8lejr=1\nhttp://e.com/?x=%26amp%3B_y\n";
    let ran = run(&["--profile", "wayback", "--get", "surt"], input.as_bytes()).ok();
    assert_eq!(
        ran.out(),
        "com,blogspot)/\norg)/cdrom\ncom,example)/a?b{c}\ncom,example)/x?%d8lejr=1&print\ncom,e)/?amp;_y&x=\n"
    );
}
