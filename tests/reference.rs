//! Reference resolution in the three modes of alwinb's URL Specification
//! (crates/normurl-url/src/reference/): RFC 3986's examples, spec-url's own test data,
//! WPT's cases with a base under generic and legacy resolution (expectations
//! made by spec-url, scripts/spec-url-expectations.mjs), and WHATWG mode
//! against `Url::parse_with_base` on every WPT input and corpus line.

mod common;

use common::{all_corpus_lines, load};
use normurl::{Mode, Reference, Url};
use serde_json::Value;

fn field<'a>(case: &'a Value, key: &str) -> Option<&'a str> {
    case.get(key).and_then(Value::as_str)
}

/// Parses `input` in the mode of `base`, resolves it, normalises and prints
/// it; "failure" for an error anywhere.
fn resolve(input: &str, base: &str, mode: Mode) -> String {
    let result = Reference::parse(base).and_then(|b| {
        let r = Reference::parse_against(input, &b)?;
        r.resolve(&b, mode)
    });
    match result {
        Ok(r) => r.normalize().to_string(),
        Err(_) => "failure".to_owned(),
    }
}

const RFC3986_BASE: &str = "http://a/b/c/d;p?q";

/// RFC 3986 section 5.4.1, "Normal Examples" (23), and 5.4.2, "Abnormal
/// Examples" (19); the last one is the strict/non-strict case.
const RFC3986_EXAMPLES: [(&str, &str); 42] = [
    ("g:h", "g:h"),
    ("g", "http://a/b/c/g"),
    ("./g", "http://a/b/c/g"),
    ("g/", "http://a/b/c/g/"),
    ("/g", "http://a/g"),
    ("//g", "http://g"),
    ("?y", "http://a/b/c/d;p?y"),
    ("g?y", "http://a/b/c/g?y"),
    ("#s", "http://a/b/c/d;p?q#s"),
    ("g#s", "http://a/b/c/g#s"),
    ("g?y#s", "http://a/b/c/g?y#s"),
    (";x", "http://a/b/c/;x"),
    ("g;x", "http://a/b/c/g;x"),
    ("g;x?y#s", "http://a/b/c/g;x?y#s"),
    ("", "http://a/b/c/d;p?q"),
    (".", "http://a/b/c/"),
    ("./", "http://a/b/c/"),
    ("..", "http://a/b/"),
    ("../", "http://a/b/"),
    ("../g", "http://a/b/g"),
    ("../..", "http://a/"),
    ("../../", "http://a/"),
    ("../../g", "http://a/g"),
    ("../../../g", "http://a/g"),
    ("../../../../g", "http://a/g"),
    ("/./g", "http://a/g"),
    ("/../g", "http://a/g"),
    ("g.", "http://a/b/c/g."),
    (".g", "http://a/b/c/.g"),
    ("g..", "http://a/b/c/g.."),
    ("..g", "http://a/b/c/..g"),
    ("./../g", "http://a/b/g"),
    ("./g/.", "http://a/b/c/g/"),
    ("g/./h", "http://a/b/c/g/h"),
    ("g/../h", "http://a/b/c/h"),
    ("g;x=1/./y", "http://a/b/c/g;x=1/y"),
    ("g;x=1/../y", "http://a/b/c/y"),
    ("g?y/./x", "http://a/b/c/g?y/./x"),
    ("g?y/../x", "http://a/b/c/g?y/../x"),
    ("g#s/./x", "http://a/b/c/g#s/./x"),
    ("g#s/../x", "http://a/b/c/g#s/../x"),
    ("http:g", "http:g"),
];

#[test]
fn rfc3986_examples_generic_and_legacy() {
    for (input, expected) in RFC3986_EXAMPLES {
        assert_eq!(
            resolve(input, RFC3986_BASE, Mode::Generic),
            expected,
            "generic {input:?}"
        );
        // Non-strict resolution differs only for a scheme equal to the base's.
        let legacy = if input == "http:g" {
            "http://a/b/c/g"
        } else {
            expected
        };
        assert_eq!(
            resolve(input, RFC3986_BASE, Mode::Legacy),
            legacy,
            "legacy {input:?}"
        );
    }
}

#[test]
fn rfc3986_examples_whatwg_is_parse_with_base() {
    let base = Url::parse(RFC3986_BASE).unwrap();
    for (input, _) in RFC3986_EXAMPLES {
        let via = Reference::resolve_url(input, &base, Mode::Whatwg).map(|u| u.href().to_owned());
        let direct = Url::parse_with_base(input, &base).map(|u| u.href().to_owned());
        assert_eq!(via.ok(), direct.ok(), "{input:?}");
    }
}

/// spec-url's test/testdata.js: parse (in the base's mode), rebase onto the
/// base when there is one, normalise, print.
#[test]
fn spec_url_testdata() {
    let mut failures = Vec::new();
    let cases = load("tests/data/spec-url/testdata.json");
    let mut n = 0;
    for case in cases.iter().filter(|c| c.is_object()) {
        n += 1;
        let input = field(case, "input").unwrap();
        let base = field(case, "base");
        let got = match base {
            None => Reference::parse(input).map(|r| r.normalize().to_string()),
            Some(b) => Reference::parse(b).and_then(|b| {
                let r = Reference::parse_against(input, &b)?;
                Ok(r.rebase(&b)?.normalize().to_string())
            }),
        };
        let expected = field(case, "href");
        match (got, expected) {
            (Ok(got), Some(want)) if got == want => {}
            (Err(_), None) => {}
            (got, want) => failures.push(format!(
                "{input:?} base {base:?}: got {got:?}, want {want:?}"
            )),
        }
    }
    assert_eq!(n, 106, "spec-url's testdata.js has 106 cases");
    assert!(
        failures.is_empty(),
        "{} of {n} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// WPT's cases with a base, resolved generically and legacy-style, against
/// spec-url's answers. Cases where spec-url's own WHATWG resolution does not
/// give WPT's answer (its IDNA2003-style host parsing) are left out.
#[test]
fn wpt_cases_generic_and_legacy_match_spec_url() {
    let cases = load("tests/data/spec-url/wpt-resolve.json");
    let (mut checked, mut skipped, mut failures) = (0, 0, Vec::new());
    for case in cases.iter().filter(|c| c.is_object()) {
        if case.get("whatwg_agrees") != Some(&Value::Bool(true)) {
            skipped += 1;
            continue;
        }
        checked += 1;
        let (input, base) = (field(case, "input").unwrap(), field(case, "base").unwrap());
        for (mode, key) in [(Mode::Generic, "generic"), (Mode::Legacy, "legacy")] {
            let want = field(case, key).unwrap();
            let got = resolve(input, base, mode);
            if got != want {
                failures.push(format!(
                    "{key} {input:?} base {base:?}: got {got:?}, want {want:?}"
                ));
            }
        }
    }
    assert_eq!((checked, skipped), (334, 2));
    assert!(
        failures.is_empty(),
        "{} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The WPT inputs and bases (every case's input against every distinct
/// valid base).
fn wpt_inputs_and_bases() -> (Vec<String>, Vec<Url>) {
    let cases = load("tests/data/wpt/urltestdata.json");
    let mut inputs = Vec::new();
    let mut bases: Vec<Url> = Vec::new();
    for case in cases.iter().filter(|c| c.is_object()) {
        inputs.push(field(case, "input").unwrap().to_owned());
        if let Some(b) = field(case, "base").and_then(|b| Url::parse(b).ok()) {
            if !bases.contains(&b) {
                bases.push(b);
            }
        }
    }
    (inputs, bases)
}

/// Checks WHATWG-mode resolution against the WHATWG parser on every input
/// and base (in parallel: the corpora give 600,000 pairs); returns the
/// number of pairs and the differences.
fn whatwg_differences(inputs: &[&str], bases: &[Url]) -> (usize, Vec<String>) {
    use rayon::prelude::*;
    let references: Vec<Reference> = bases.iter().map(Reference::from_url).collect();
    let references = &references;
    let diffs: Vec<String> = inputs
        .par_iter()
        .flat_map_iter(|input| {
            bases
                .iter()
                .zip(references.iter())
                .filter_map(move |(base, reference)| {
                    // Reference::resolve_url, with the base's reference made once.
                    let via = Reference::parse_against(input, reference)
                        .and_then(|r| r.resolve(reference, Mode::Whatwg)?.to_url())
                        .map(Url::into_string);
                    let direct = Url::parse_with_base(input, base).map(Url::into_string);
                    (via.as_ref().ok() != direct.as_ref().ok()).then(|| {
                        format!(
                            "{input:?} base {}: via reference {via:?}, parser {direct:?}",
                            base.href()
                        )
                    })
                })
        })
        .collect();
    (inputs.len() * bases.len(), diffs)
}

#[test]
fn whatwg_mode_is_parse_with_base_on_wpt() {
    let (inputs, bases) = wpt_inputs_and_bases();
    let (n, diffs) = whatwg_differences(
        &inputs.iter().map(String::as_str).collect::<Vec<_>>(),
        &bases,
    );
    assert!(n > 50_000, "{n}");
    assert!(
        diffs.is_empty(),
        "{} of {n} differ:\n{}",
        diffs.len(),
        diffs[..diffs.len().min(40)].join("\n")
    );
}

#[test]
fn whatwg_mode_is_parse_with_base_on_corpora() {
    let bases: Vec<Url> = [
        "http://example.com/a/b?c#d",
        "file:///C:/dir/x",
        "sch://h/p/q",
        "mailto:x@y",
    ]
    .iter()
    .map(|b| Url::parse(b).unwrap())
    .collect();
    let lines = all_corpus_lines();
    let (n, diffs) = whatwg_differences(
        &lines.iter().map(|(_, l)| l.as_str()).collect::<Vec<_>>(),
        &bases,
    );
    assert!(
        diffs.is_empty(),
        "{} of {n} differ:\n{}",
        diffs.len(),
        diffs[..diffs.len().min(40)].join("\n")
    );
}

/// Bases of every kind: web, file with and without a drive or host,
/// non-special with a host, a path or an opaque path, credentials, ports.
const RANDOM_BASES: [&str; 9] = [
    "http://h/a/b?q#f",
    "https://u:p@h:81/a/",
    "file:///C:/d/e",
    "file://host/share/x",
    "file:///",
    "sch://h/p/q?x",
    "sch:/p/q",
    "mailto:x@y",
    "ws://h/",
];

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 4000, ..Default::default() })]

    /// WHATWG mode is `Url::parse_with_base` on references made of the
    /// characters that matter to URL structure.
    #[test]
    fn whatwg_mode_is_parse_with_base_on_random_references(
        prefix in proptest::sample::select(&["", "http:", "HTTPS:", "file:", "FILE:", "sch:", "ws:", "mailto:", "//", "/", "\\\\", "C:", "c|"][..]),
        input in "[a-cA-CfFhHlLsSxX0-9:/\\\\?#.%@|\\[\\] \t\n\x00;='\"<>^{}~éß日Ａ。-]{0,28}",
        base in 0..RANDOM_BASES.len(),
    ) {
        let input = format!("{prefix}{input}");
        let base = Url::parse(RANDOM_BASES[base]).unwrap();
        let via = Reference::resolve_url(&input, &base, Mode::Whatwg).map(Url::into_string);
        let direct = Url::parse_with_base(&input, &base).map(Url::into_string);
        proptest::prop_assert_eq!(via.ok(), direct.ok(), "base {}", base.href());
    }
}

/// Cases the random test found: a forced web authority keeps the
/// segment's trailing space (and so fails, as the WHATWG parser does), and
/// a drive letter before trailing spaces is a drive.
#[test]
fn whatwg_mode_regressions() {
    for (input, base) in [("///- #", "ws://h/"), ("A| ", "file:///C:/d/e")] {
        let base = Url::parse(base).unwrap();
        let via = Reference::resolve_url(input, &base, Mode::Whatwg).map(Url::into_string);
        let direct = Url::parse_with_base(input, &base).map(Url::into_string);
        assert_eq!(via.ok(), direct.ok(), "{input:?}");
    }
}
