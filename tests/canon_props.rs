//! Property tests of canonicalization on generated URLs: for every profile
//! (and every rule at once), the output parses as a URL, canonicalizing it
//! again changes nothing, and no rule fires on it.
//!
//! The generator (tests/common/urlgen.rs) builds URLs from the pieces the
//! rules look at so that rules fire often.

mod common;

use common::urlgen::canon_url;
use normurl::canon::{Canonicalizer, IdnForm, OutputForm, Profile, Rule, RuleSet, Scratch};
use normurl::Url;
use proptest::prelude::*;

fn canonicalizers() -> Vec<Canonicalizer> {
    let mut all: Vec<Canonicalizer> = Profile::ALL
        .iter()
        .map(|&p| Canonicalizer::new(p))
        .collect();
    all.push(every_rule(Rule::StripScheme));
    for rule in common::urlgen::NEW_RULES
        .iter()
        .filter(|&&r| r != "strip-scheme")
    {
        all.push(
            Canonicalizer::builder(Profile::Aggressive)
                .rules(&format!("+{rule}"))
                .unwrap()
                .build(),
        );
    }
    all.push(
        Canonicalizer::builder(Profile::Aggressive)
            .idn(IdnForm::Unicode)
            .build(),
    );
    all
}

/// Every rule but `but` (and `strip-scheme`, whose keys are not URLs),
/// with lists for `keep-params` and `strip-directory-index`.
fn every_rule(but: Rule) -> Canonicalizer {
    let every: Vec<String> = Rule::ALL
        .iter()
        .filter(|&&r| r != but && r != Rule::StripScheme)
        .map(|r| format!("+{}", r.name()))
        .collect();
    Canonicalizer::builder(Profile::Whatwg)
        .rules(&every.join(","))
        .unwrap()
        .keep_params("a,*_id,b*")
        .unwrap()
        .index_files("home.jsp")
        .unwrap()
        .build()
}

/// Every canonicalizer's output of `input` parses, canonicalizes to
/// itself, and (for URL output) no rule fires on it.
fn check_idempotent(input: &str) -> Result<(), TestCaseError> {
    let Ok(url) = Url::parse(input) else {
        return Ok(());
    };
    let mut scratch = Scratch::new();
    for canon in canonicalizers() {
        let mut out = Vec::new();
        canon.apply(&url, &mut scratch, &mut out);
        let text = String::from_utf8(out).unwrap();
        let reparsed = Url::parse(&text);
        prop_assert!(
            reparsed.is_ok(),
            "{:?}: {input:?} -> {text:?} does not parse",
            canon.rules()
        );
        let reparsed = reparsed.unwrap();
        let mut again = Vec::new();
        let fired = canon.apply(&reparsed, &mut scratch, &mut again);
        prop_assert_eq!(
            String::from_utf8(again).unwrap(),
            text.clone(),
            "{:?}: {:?}",
            canon.rules(),
            input
        );
        // A key (strip-root-slash's) parses to the URL again, on which
        // its rule fires once more.
        if canon.output() == OutputForm::Url && text.is_ascii() {
            prop_assert!(
                fired.intersection(RuleSet::KEYS) == fired,
                "{:?}: {} fired on canonical {:?}",
                canon.rules(),
                fired,
                text
            );
        }
    }
    Ok(())
}

/// The long run (`cargo test --test canon_props -- --ignored`, run by CI).
#[test]
#[ignore = "long: about a minute; CI runs it"]
fn long_run_of_idempotence() {
    use proptest::test_runner::{Config, TestRunner};
    let mut runner = TestRunner::new(Config {
        cases: 100_000,
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&canon_url(), |input| check_idempotent(&input))
        .unwrap();
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn outputs_parse_and_are_idempotent(input in canon_url()) {
        check_idempotent(&input)?;
    }

    /// `strip-scheme`'s key is the canonical URL of the other rules
    /// without `scheme:` and `//`: a key, not a URL, so its idempotence is
    /// that of the URL it comes from (checked above).
    #[test]
    fn strip_scheme_keys_are_canonical_urls_without_scheme(input in canon_url()) {
        let Ok(url) = Url::parse(&input) else { return Ok(()) };
        let keys = every_rule(Rule::KeepParams).rules().with(Rule::StripScheme);
        let keyed = Canonicalizer::builder(Profile::Whatwg).rule_set(keys).build();
        let plain = Canonicalizer::builder(Profile::Whatwg).rule_set(keys.without(Rule::StripScheme)).build();
        let canonical = plain.canonicalize_url(&url);
        let scheme_end = canonical.find(':').unwrap() + 1;
        let rest = &canonical[scheme_end..];
        let expected = rest.strip_prefix("//").unwrap_or(rest);
        prop_assert_eq!(keyed.canonicalize_url(&url), expected);
    }

    #[test]
    fn surt_and_ssurt_never_panic(input in canon_url()) {
        let Ok(url) = Url::parse(&input) else { return Ok(()) };
        for output in ["surt", "ssurt"] {
            let canon = Canonicalizer::builder(Profile::Wayback).output(output.parse().unwrap()).build();
            let key = canon.canonicalize_url(&url);
            prop_assert!(!key.is_empty());
        }
    }
}
