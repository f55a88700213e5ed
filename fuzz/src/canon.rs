//! Target `canon`: every canonicalization profile gives a valid URL
//! serialization and is idempotent.
//!
//! src/canon/mod.rs promises: "Canonical URLs are valid URL serializations
//! and idempotent: parsing the output and canonicalizing it again gives the
//! same bytes, for every profile." For every `Ok` result among the input
//! alone and the input against the base, and every profile in
//! `Profile::ALL` (URL output form), [`check_url`] checks that the
//! canonical form parses, that its href is the canonical form itself, and
//! that canonicalizing it again changes nothing.

use std::sync::OnceLock;

use normurl::canon::{Canonicalizer, Profile};
use normurl::Url;

use super::Case;

/// One canonicalizer per profile, built once.
fn canonicalizers() -> &'static [(Profile, Canonicalizer)] {
    static ALL: OnceLock<Vec<(Profile, Canonicalizer)>> = OnceLock::new();
    ALL.get_or_init(|| {
        Profile::ALL
            .into_iter()
            .map(|p| (p, Canonicalizer::new(p)))
            .collect()
    })
}

/// Runs the check on the fuzz input `data` (see [`Case::from_bytes`]).
pub fn check(data: &[u8]) {
    check_case(&Case::from_bytes(data));
}

/// Checks every profile on the URL the input alone, and the input against
/// the base, parse to.
pub fn check_case(case: &Case) {
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

/// Checks every profile on `url`, except for the open bugs that
/// [`known_bug`] recognizes (so that fuzzing finds new ones).
pub fn check_url(url: &Url) {
    check_url_with(url, true);
}

/// Like [`check_url`], with no exception for open bugs: for the `#[ignore]`d
/// tests that reproduce them.
pub fn check_url_strict(url: &Url) {
    check_url_with(url, false);
}

/// Open bugs of src/canon, each with an `#[ignore]`d test in
/// tests/fuzz_regressions.rs. Returns the bug's name when canonicalizing
/// `url` to `once` (which parses to `parsed`) may show it. Delete an entry
/// once its bug is fixed (and un-ignore its test).
///
/// None is open: the last two (collapse-slashes making `c|` a drive letter,
/// decoding making a new escape out of a bare `%`) are fixed and their tests
/// in tests/fuzz_regressions.rs run.
pub fn known_bug(_url: &Url, _once: &str, _parsed: &Url) -> Option<&'static str> {
    None
}

fn check_url_with(url: &Url, skip_known_bugs: bool) {
    for (profile, canon) in canonicalizers() {
        let once = canon.canonicalize_url(url);
        let parsed = Url::parse(&once).unwrap_or_else(|e| {
            panic!(
                "profile {profile:?}: {:?} gives {once:?}, which fails: {e:?}",
                url.href()
            )
        });
        if skip_known_bugs && known_bug(url, &once, &parsed).is_some() {
            continue;
        }
        assert_eq!(
            parsed.href(),
            once,
            "profile {profile:?}: {:?} gives {once:?}, not a URL serialization",
            url.href()
        );
        let twice = canon.canonicalize_url(&parsed);
        assert_eq!(
            twice,
            once,
            "profile {profile:?}: not idempotent on {:?}",
            url.href()
        );
    }
}
