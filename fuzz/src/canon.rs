//! Target `canon`: every canonicalization profile gives a valid URL
//! serialization and is idempotent.
//!
//! crates/normurl-canon/src/lib.rs promises: "Canonical URLs are valid URL serializations
//! and idempotent: parsing the output and canonicalizing it again gives the
//! same bytes, for every profile." For every `Ok` result among the input
//! alone and the input against the base, and every profile in
//! `Profile::ALL` (URL output form), [`check_url`] checks that the
//! canonical form parses, that its href is the canonical form itself, and
//! that canonicalizing it again changes nothing. Before that,
//! [`check_fast_path`] checks that the fast path of `Canonicalizer::apply`
//! and the general path give the same output and fired rules, for every
//! profile in every output form, with hosts in Unicode, and for all rules
//! at once, and
//! [`check_parse_apply`] that `Canonicalizer::parse_apply` on the input
//! alone gives what parsing and then `apply` give.

use std::sync::OnceLock;

use normurl::canon::{Canonicalizer, IdnForm, OutputForm, Profile, Rule, RuleSet, Scratch};
use normurl::Url;

use super::Case;

/// Every profile in URL, SURT and SSURT output and with hosts in Unicode,
/// and every rule at once: what [`check_fast_path`] and
/// [`check_parse_apply`] compare.
fn all_outputs() -> &'static [Canonicalizer] {
    static ALL: OnceLock<Vec<Canonicalizer>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut all = Vec::new();
        for profile in Profile::ALL {
            for output in ["url", "surt", "ssurt"] {
                let output: OutputForm = output.parse().expect("a known output form");
                all.push(Canonicalizer::builder(profile).output(output).build());
            }
        }
        // Hosts in Unicode, which `parse_apply` once wrote as the input had
        // them (no rules, `aggressive`'s instances of its own, `wayback`'s
        // lowercase rules).
        for profile in [Profile::Whatwg, Profile::Aggressive, Profile::Wayback] {
            all.push(
                Canonicalizer::builder(profile)
                    .idn(IdnForm::Unicode)
                    .build(),
            );
        }
        let every: Vec<String> = Rule::ALL.iter().map(|r| format!("+{}", r.name())).collect();
        all.push(
            Canonicalizer::builder(Profile::Whatwg)
                .rules(&every.join(","))
                .expect("known rules")
                .build(),
        );
        all
    })
}

/// The fast path of `Canonicalizer::apply` gives the same bytes and fired
/// rules as the general path (`apply_without_fast_path`), which applies
/// every rule to copies of the components.
fn check_fast_path(url: &Url) {
    let mut scratch = Scratch::new();
    let (mut fast, mut general) = (Vec::new(), Vec::new());
    for canon in all_outputs() {
        fast.clear();
        general.clear();
        let fast_fired = canon.apply(url, &mut scratch, &mut fast);
        let general_fired = canon.apply_without_fast_path(url, &mut scratch, &mut general);
        assert_eq!(
            (String::from_utf8_lossy(&fast), fast_fired),
            (String::from_utf8_lossy(&general), general_fired),
            "fast path and general path differ on {:?} with rules {} and output {}",
            url.href(),
            canon.rules(),
            canon.output()
        );
    }
}

/// `Canonicalizer::parse_apply`, which writes most URLs straight from the
/// input, gives what `Url::parse_into` and `Canonicalizer::apply` give:
/// the same error, or the same bytes (appended) and fired rules.
fn check_parse_apply(input: &str) {
    let mut scratch = Scratch::new();
    let mut url = Url::parse("http://stale.example/").expect("valid");
    let (mut fused, mut two_step) = (Vec::new(), Vec::new());
    for canon in all_outputs() {
        fused.clear();
        fused.extend_from_slice(b"kept");
        two_step.clone_from(&fused);
        let fused_fired = canon.parse_apply(input, &mut url, &mut scratch, &mut fused);
        let mut reference = Url::parse("about:blank").expect("valid");
        let two_step_fired = reference
            .parse_into(input, None)
            .map(|()| canon.apply(&reference, &mut scratch, &mut two_step));
        assert_eq!(
            (String::from_utf8_lossy(&fused), fused_fired),
            (String::from_utf8_lossy(&two_step), two_step_fired),
            "parse_apply and two steps differ on {input:?} with rules {} and output {}",
            canon.rules(),
            canon.output()
        );
    }
}

/// One canonicalizer per profile, and one with every rule but
/// `strip-scheme` (whose keys are not URLs: see [`check_key`]), built once.
fn canonicalizers() -> &'static [(String, Canonicalizer)] {
    static ALL: OnceLock<Vec<(String, Canonicalizer)>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut all: Vec<(String, Canonicalizer)> = Profile::ALL
            .into_iter()
            .map(|p| (p.name().to_owned(), Canonicalizer::new(p)))
            .collect();
        let every: Vec<String> = Rule::ALL
            .iter()
            .filter(|&&r| r != Rule::StripScheme)
            .map(|r| format!("+{}", r.name()))
            .collect();
        let every = Canonicalizer::builder(Profile::Whatwg)
            .rules(&every.join(","))
            .expect("known rules")
            .keep_params("a,*_id,b*")
            .expect("a valid list")
            .index_files("home.jsp")
            .expect("a valid list")
            .build();
        all.push(("every rule but strip-scheme".to_owned(), every));
        all
    })
}

/// `strip-scheme`'s key of `url` is its canonical URL under the other
/// rules without `scheme:` and `//`.
fn check_key(url: &Url) {
    static PAIR: OnceLock<(Canonicalizer, Canonicalizer)> = OnceLock::new();
    let (keyed, plain) = PAIR.get_or_init(|| {
        let (_, every) = canonicalizers().last().expect("built above");
        let with = |rules| {
            Canonicalizer::builder(Profile::Whatwg)
                .rule_set(rules)
                .build()
        };
        (
            with(every.rules().with(Rule::StripScheme)),
            with(every.rules()),
        )
    });
    let canonical = plain.canonicalize_url(url);
    let rest = canonical.split_once(':').map_or("", |(_, rest)| rest);
    assert_eq!(
        keyed.canonicalize_url(url),
        rest.strip_prefix("//").unwrap_or(rest),
        "strip-scheme on {:?}",
        url.href()
    );
}

/// Runs the check on the fuzz input `data` (see [`Case::from_bytes`]).
pub fn check(data: &[u8]) {
    check_case(&Case::from_bytes(data));
}

/// Checks every profile on the URL the input alone, and the input against
/// the base, parse to.
pub fn check_case(case: &Case) {
    check_parse_apply(&case.input);
    if let Ok(url) = Url::parse(&case.input) {
        check_url(&url);
    }
    let Some(base) = case.base.as_deref().and_then(|b| Url::parse(b).ok()) else {
        return;
    };
    if let Ok(url) = Url::parse_with_base(&case.input, &base) {
        check_url(&url);
    }
}

/// Checks every profile on `url`: the fast path equals the general path,
/// and each profile's canonical form is a URL serialization that
/// canonicalizes to itself.
pub fn check_url(url: &Url) {
    check_fast_path(url);
    check_key(url);
    for (profile, canon) in canonicalizers() {
        let once = canon.canonicalize_url(url);
        let parsed = Url::parse(&once).unwrap_or_else(|e| {
            panic!(
                "profile {profile}: {:?} gives {once:?}, which fails: {e:?}",
                url.href()
            )
        });
        // strip-root-slash writes a key (`http://h`), whose parse is the
        // URL again; idempotence below still holds for it.
        if canon.rules().intersection(RuleSet::KEYS).is_empty() {
            assert_eq!(
                parsed.href(),
                once,
                "profile {profile}: {:?} gives {once:?}, not a URL serialization",
                url.href()
            );
        }
        let twice = canon.canonicalize_url(&parsed);
        assert_eq!(
            twice,
            once,
            "profile {profile}: not idempotent on {:?}",
            url.href()
        );
    }
}
