//! Target `idempotence`: the href of every parsed URL parses to the same
//! URL.
//!
//! For every `Ok` result among the input alone, the base alone and the
//! input against the base, [`check_url`] parses its href again with
//! `Url::parse`, with the full state machine (`parse_into_without_fast_path`;
//! most hrefs take the fast path, so this is the only way to check the
//! full parser on them), and against the URL itself as base (an absolute
//! href ignores the base). Each must give the same [`Components`]: not only
//! the same href but the same offsets and getters.

use normurl::Url;

use super::{Case, Components};

/// Runs the check on the fuzz input `data` (see [`Case::from_bytes`]).
pub fn check(data: &[u8]) {
    check_case(&Case::from_bytes(data));
}

/// Checks every URL that the input alone, the base alone, and the input
/// against the base parse to.
pub fn check_case(case: &Case) {
    if let Ok(url) = Url::parse(&case.input) {
        check_url(&url);
    }
    let Some(base) = &case.base else { return };
    let Ok(base) = Url::parse(base) else { return };
    check_url(&base);
    if let Ok(url) = Url::parse_with_base(&case.input, &base) {
        check_url(&url);
    }
}

/// Checks that `url`'s href parses back to `url`.
pub fn check_url(url: &Url) {
    let expected = Components::of(url);
    let href = url.href();

    let again = Url::parse(href)
        .unwrap_or_else(|e| panic!("href {href:?} does not parse again: {e:?}\n{url:?}"));
    assert_eq!(
        Components::of(&again),
        expected,
        "Url::parse(href) for href {href:?}"
    );

    let mut slow = Url::parse("about:blank").expect("about:blank parses");
    if let Err(e) = slow.parse_into_without_fast_path(href, None) {
        panic!("href {href:?} fails the full parser: {e:?}\n{url:?}");
    }
    assert_eq!(
        Components::of(&slow),
        expected,
        "parse_into_without_fast_path(href) for href {href:?}"
    );

    let against_itself = Url::parse_with_base(href, url)
        .unwrap_or_else(|e| panic!("href {href:?} fails against itself: {e:?}\n{url:?}"));
    assert_eq!(
        Components::of(&against_itself),
        expected,
        "Url::parse_with_base(href, url) for href {href:?}"
    );
}
