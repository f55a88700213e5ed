//! Target `parse`: the parser never panics, every result satisfies
//! [`Url::check_invariants`], and every way of parsing gives the same URL.
//!
//! For the input alone, the base alone, and the input against the base
//! (when the base parses), [`check_one`] checks that
//!
//! - `Url::parse` or `Url::parse_with_base` returns, and an `Ok` URL passes
//!   `check_invariants` and every getter returns;
//! - `parse_into` into a `Url` that holds another URL (so its buffer is
//!   reused) gives exactly the same result, twice in a row, and leaves
//!   `about:blank` on failure, as documented;
//! - `parse_into_without_fast_path` (always the full state machine) gives
//!   exactly the same result: the fast path is the full parser, on every
//!   input it accepts.
//!
//! "Exactly the same" compares [`Components`]: the href, every offset and
//! every getter.

use normurl::{ParseError, Url};

use super::{Case, Components};

/// A URL with every component, longer than most inputs, for `parse_into`
/// to overwrite.
const PREVIOUS: &str =
    "https://user:password@previous.example:8443/a/previous/path/with/segments?and=query#fragment";

/// Runs every check on the fuzz input `data` (see [`Case::from_bytes`]).
pub fn check(data: &[u8]) {
    check_case(&Case::from_bytes(data));
}

/// Runs every check on the input alone, the base alone, and the input
/// against the base.
pub fn check_case(case: &Case) {
    let _ = check_one(&case.input, None);
    if let Some(base) = &case.base {
        if let Ok(base) = check_one(base, None) {
            let _ = check_one(&case.input, Some(&base));
        }
    }
}

/// Runs every check on `input` against `base`, and returns the result of
/// `Url::parse` (or `Url::parse_with_base`).
pub fn check_one(input: &str, base: Option<&Url>) -> Result<Url, ParseError> {
    let fresh = match base {
        None => Url::parse(input),
        Some(base) => Url::parse_with_base(input, base),
    };
    if let Ok(url) = &fresh {
        if let Err(why) = url.check_invariants() {
            panic!("{}\n{why}", describe(input, base));
        }
    }
    let expected = fresh.as_ref().map(Components::of).map_err(|&e| e);

    let mut reused = Url::parse(PREVIOUS).expect("PREVIOUS parses");
    for attempt in ["parse_into, buffer reused", "parse_into, again"] {
        let result = reused.parse_into(input, base);
        let got = observed(&reused, result);
        same(input, base, attempt, &expected, &got);
    }

    let mut slow = Url::parse(PREVIOUS).expect("PREVIOUS parses");
    let result = slow.parse_into_without_fast_path(input, base);
    if let Err(why) = slow.check_invariants() {
        panic!(
            "{}\nparse_into_without_fast_path: {why}",
            describe(input, base)
        );
    }
    let got = observed(&slow, result);
    same(input, base, "parse_into_without_fast_path", &expected, &got);
    fresh
}

/// The result of a `parse_into`: on failure, `url` must be `about:blank`.
fn observed(url: &Url, result: Result<(), ParseError>) -> Result<Components, ParseError> {
    match result {
        Ok(()) => Ok(Components::of(url)),
        Err(e) => {
            let blank = Url::parse("about:blank").expect("about:blank parses");
            assert_eq!(
                Components::of(url),
                Components::of(&blank),
                "a failed parse_into must leave about:blank"
            );
            Err(e)
        }
    }
}

fn same(
    input: &str,
    base: Option<&Url>,
    what: &str,
    expected: &Result<Components, ParseError>,
    got: &Result<Components, ParseError>,
) {
    if expected != got {
        panic!(
            "{}\n{what} differs from Url::parse\nUrl::parse: {}\n{what}: {}",
            describe(input, base),
            show(expected),
            show(got),
        );
    }
}

fn show(outcome: &Result<Components, ParseError>) -> String {
    match outcome {
        Ok(c) => c.0.clone(),
        Err(e) => format!("Err({e:?})"),
    }
}

/// The input and base, escaped, for failure messages.
pub fn describe(input: &str, base: Option<&Url>) -> String {
    match base {
        None => format!("input {input:?}"),
        Some(base) => format!("input {input:?} against base {:?}", base.href()),
    }
}
