//! Properties of the parser, checked on every suite input and corpus line
//! and on generated inputs:
//!
//! - the already-canonical fast path gives exactly what the full state
//!   machine gives (`parse_into` ≡ `parse_into_without_fast_path`): the
//!   same error, or the same href, offsets and getters;
//! - every result satisfies `check_invariants` and is idempotent: parsing
//!   its href gives the same URL;
//! - parsing into one reused `Url` gives what a fresh `Url::parse` gives,
//!   also after failures;
//! - no input panics.

mod common;

use common::urlgen::{relative_like, scheme, separator, url_like};
use common::Case;
use normurl::{HostKind, ParseError, SchemeType, Url};
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

/// Everything observable about a successful parse.
#[derive(Debug, PartialEq, Eq)]
struct Snapshot {
    /// The `Debug` output: the href and every component offset.
    debug: String,
    href: String,
    getters: [String; 10],
    origin: String,
    scheme: String,
    query: Option<String>,
    fragment: Option<String>,
    href_without_fragment: String,
    host_kind: HostKind,
    scheme_type: SchemeType,
    port_number: Option<u16>,
    has_host: bool,
    has_opaque_path: bool,
}

fn snapshot(url: &Url) -> Snapshot {
    Snapshot {
        debug: format!("{url:?}"),
        href: url.href().to_owned(),
        getters: [
            url.protocol(),
            url.username(),
            url.password(),
            url.host(),
            url.hostname(),
            url.port(),
            url.pathname(),
            url.search(),
            url.hash(),
            url.as_str(),
        ]
        .map(str::to_owned),
        origin: url.origin(),
        scheme: url.scheme().to_owned(),
        query: url.query().map(str::to_owned),
        fragment: url.fragment().map(str::to_owned),
        href_without_fragment: url.href_without_fragment().to_owned(),
        host_kind: url.host_kind(),
        scheme_type: url.scheme_type(),
        port_number: url.port_number(),
        has_host: url.has_host(),
        has_opaque_path: url.has_opaque_path(),
    }
}

type Observed = Result<Snapshot, ParseError>;

fn observe(url: &Url, result: Result<(), ParseError>) -> Observed {
    result.map(|()| snapshot(url))
}

/// Parses `input` against `base` with the fast path and without it, in
/// fresh `Url`s, and checks that the two agree and that the result is valid
/// and idempotent. Returns the result.
fn check(input: &str, base: Option<&Url>) -> Result<Observed, String> {
    let mut fast = Url::parse("about:blank").expect("about:blank");
    let mut slow = fast.clone();
    let fast_result = fast.parse_into(input, base);
    let slow_result = slow.parse_into_without_fast_path(input, base);
    let observed = observe(&fast, fast_result);
    let slow_observed = observe(&slow, slow_result);
    let base_href = base.map(Url::href);
    if observed != slow_observed {
        return Err(format!(
            "fast path and full parser differ on {input:?} (base {base_href:?}):\n  \
             fast: {observed:?}\n  slow: {slow_observed:?}"
        ));
    }
    for url in [&fast, &slow] {
        // After a failure the URL is about:blank, which must be valid too.
        url.check_invariants()?;
    }
    if fast_result.is_err() && fast.href() != "about:blank" {
        return Err(format!("{input:?}: failed but left {:?}", fast.href()));
    }
    if let Ok(snap) = &observed {
        match Url::parse(&snap.href) {
            Ok(again) if snapshot(&again) == *snap => {}
            Ok(again) => {
                return Err(format!(
                    "not idempotent: {input:?} (base {base_href:?}) gives {:?}, which gives {:?}",
                    snap.debug,
                    snapshot(&again).debug
                ))
            }
            Err(e) => {
                return Err(format!(
                    "not idempotent: {input:?} (base {base_href:?}) gives {:?}, which fails: {e}",
                    snap.href
                ))
            }
        }
    }
    Ok(observed)
}

fn all_cases() -> Vec<Case> {
    let mut cases = common::all_suite_cases();
    cases.extend(
        common::all_corpus_lines()
            .into_iter()
            .map(|(_, input)| Case { input, base: None }),
    );
    cases
}

/// The fast path ≡ the full parser, results are valid and idempotent, on
/// every input of urltestdata.json, ada's suites, toascii.json,
/// IdnaTestV2.json and every corpus line.
#[test]
fn suites_and_corpora() {
    let cases = all_cases();
    let mut failures = Vec::new();
    let (mut ok, mut err, mut canonical) = (0, 0, 0);
    for case in &cases {
        // The base is checked like any input.
        let base = match &case.base {
            None => None,
            Some(b) => match check(b, None) {
                Ok(Ok(_)) => Some(Url::parse(b).expect("checked")),
                // `new URL(input, base)` throws when the base fails.
                Ok(Err(_)) => continue,
                Err(e) => {
                    failures.push(e);
                    continue;
                }
            },
        };
        match check(&case.input, base.as_ref()) {
            Ok(Ok(snap)) => {
                ok += 1;
                if snap.href == case.input {
                    canonical += 1;
                }
            }
            Ok(Err(_)) => err += 1,
            Err(e) => failures.push(e),
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    eprintln!(
        "{} inputs: {ok} valid ({canonical} already canonical), {err} failures",
        cases.len()
    );
    // Guard against a vacuous test: the corpora are mostly canonical URLs,
    // the inputs the fast path exists for.
    assert!(canonical > 100_000, "only {canonical} canonical inputs");
    assert!(err > 1_000, "only {err} failing inputs");
}

/// Parses `cases` in order into one reused `Url` (with and without the fast
/// path) and compares each result with a fresh `Url::parse`.
fn check_reuse(cases: &[(String, Option<Url>)]) -> Result<(), String> {
    let mut reused = Url::parse("about:blank").expect("about:blank");
    let mut reused_slow = reused.clone();
    for (input, base) in cases {
        let fresh = match base {
            None => Url::parse(input),
            Some(b) => Url::parse_with_base(input, b),
        };
        let fresh = fresh.map(|u| snapshot(&u));
        let result = reused.parse_into(input, base.as_ref());
        let got = observe(&reused, result);
        let result = reused_slow.parse_into_without_fast_path(input, base.as_ref());
        let got_slow = observe(&reused_slow, result);
        if got != fresh || got_slow != fresh {
            return Err(format!(
                "{input:?}: fresh {fresh:?}\n  reused {got:?}\n  reused, no fast path {got_slow:?}"
            ));
        }
        reused.check_invariants()?;
        reused_slow.check_invariants()?;
    }
    Ok(())
}

/// One reused `Url` through every suite input and corpus line, in file
/// order (valid and failing inputs interleaved, long and short).
#[test]
fn reuse_equals_fresh_parse() {
    let cases: Vec<(String, Option<Url>)> = all_cases()
        .into_iter()
        .filter_map(|c| match &c.base {
            None => Some((c.input, None)),
            Some(b) => Url::parse(b).ok().map(|b| (c.input, Some(b))),
        })
        .collect();
    check_reuse(&cases).unwrap();
    // Also in reverse order: every URL now follows a different one.
    let reversed: Vec<_> = cases.into_iter().rev().collect();
    check_reuse(&reversed).unwrap();
}

fn base() -> impl Strategy<Value = Url> {
    prop::sample::select(vec![
        "http://example.com/a/b/c?q#f",
        "https://user:pw@example.com:8443/a/",
        "file:///C:/dir/file",
        "file://host/share/x",
        "file:///",
        "foo://host/a/b",
        "foo:/a/b",
        "foo:opaque path",
        "mailto:someone@example.com",
        "web+demo:/.//not-a-host/",
        "http://[::1]/",
        "http://1.2.3.4/x/",
    ])
    .prop_map(|b| Url::parse(b).expect("valid base"))
}

/// [`check`] for proptest.
fn prop_check(input: &str, base: Option<&Url>) -> Result<(), TestCaseError> {
    check(input, base).map(drop).map_err(TestCaseError::fail)
}

/// The generators are not vacuous: they produce valid URLs and failures,
/// and the grammar's absolute URLs are mostly valid.
#[test]
fn generators_produce_valid_and_invalid_inputs() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;

    let mut runner = TestRunner::deterministic();
    let mut count = |strategy: BoxedStrategy<(String, Option<Url>)>| {
        let (mut ok, mut err) = (0, 0);
        for _ in 0..1000 {
            let (input, base) = strategy.new_tree(&mut runner).unwrap().current();
            match check(&input, base.as_ref()).unwrap() {
                Ok(_) => ok += 1,
                Err(_) => err += 1,
            }
        }
        (ok, err)
    };
    let (ok, err) = count(url_like().prop_map(|u| (u, None)).boxed());
    eprintln!("url_like: {ok} valid, {err} failures");
    assert!(
        ok > 250 && err > 100,
        "url_like: {ok} valid, {err} failures"
    );
    let (ok, err) = count((relative_like(), base().prop_map(Some)).boxed());
    eprintln!("relative_like: {ok} valid, {err} failures");
    assert!(
        ok > 500 && err > 50,
        "relative_like: {ok} valid, {err} failures"
    );
}

/// proptest's configuration: `cases` per test; failing inputs are saved to
/// tests/properties.proptest-regressions and replayed first on later runs.
fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource(
            "proptest-regressions",
        ))),
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config(2000))]

    #[test]
    fn prop_arbitrary_strings(input in any::<String>()) {
        prop_check(&input, None)?;
    }

    /// Arbitrary strings after a scheme and `//`, so they reach the host,
    /// path, query and fragment states.
    #[test]
    fn prop_arbitrary_after_scheme(s in scheme(), sep in separator(), rest in any::<String>()) {
        prop_check(&format!("{s}{sep}{rest}"), None)?;
    }

    #[test]
    fn prop_url_like(input in url_like()) {
        prop_check(&input, None)?;
    }

    #[test]
    fn prop_relative_with_base(input in relative_like(), base in base()) {
        prop_check(&input, Some(&base))?;
    }
}

proptest! {
    #![proptest_config(config(300))]

    #[test]
    fn prop_reuse(inputs in prop::collection::vec(
        (prop_oneof![url_like(), any::<String>()], prop::option::of(base())), 1..20)) {
        check_reuse(&inputs).map_err(TestCaseError::fail)?;
    }
}

/// The long run (`cargo test --test properties -- --ignored`, run by CI):
/// the same properties on 200,000 generated URLs and relative references.
#[test]
#[ignore = "long: about a minute; CI runs it"]
fn long_run_of_the_properties() {
    use proptest::test_runner::{Config, TestRunner};
    let mut runner = TestRunner::new(Config {
        cases: 200_000,
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&url_like(), |input| prop_check(&input, None))
        .unwrap();
    runner
        .run(&(relative_like(), base()), |(input, base)| {
            prop_check(&input, Some(&base))
        })
        .unwrap();
}
