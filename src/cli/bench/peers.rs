//! The parsers `bench` compares normurl with, built with `--features
//! peers`: normurl's `Url::can_parse`, ada through the ada-url crate (its
//! C API: `href` of a parsed URL, and `can_parse`), ada's C++ entry points called from a C++ loop
//! where a C++ compiler was found (see build.rs), and the url crate
//! (`as_str` of a parsed URL). Without the feature: normurl alone.

use super::Parser;
#[cfg(feature = "peers")]
use super::{Corpus, Tally};

#[cfg(feature = "peers")]
pub(super) fn parsers() -> Vec<Parser> {
    let mut parsers: Vec<Parser> = vec![
        ("normurl", super::normurl),
        ("normurl can_parse", normurl_can_parse),
        ("ada-url href", ada_href),
        ("ada-url can_parse", ada_can_parse),
    ];
    #[cfg(ada_cpp)]
    parsers.extend(super::ada_cpp::parsers());
    parsers.push(("url crate", url_crate));
    parsers
}

#[cfg(not(feature = "peers"))]
pub(super) fn parsers() -> Vec<Parser> {
    vec![("normurl", super::normurl)]
}

/// What `bench` prints under its table about ada's C++ rows.
#[cfg(feature = "peers")]
pub(super) const NOTE: Option<&str> = Some(
    "ada C++ url_aggregator allocates each URL's href buffer (ada cannot \
     parse into an existing one; its own benchmarks do the same); normurl \
     reuses one.",
);
#[cfg(not(feature = "peers"))]
pub(super) const NOTE: Option<&str> = None;

/// Why ada's C++ rows are missing, when they are (build.rs found no C++
/// compiler or no ada.h): printed in their place.
#[cfg(all(feature = "peers", not(ada_cpp)))]
pub(super) const MISSING: Option<&str> = Some(concat!(
    "ada C++: not built (",
    env!("NORMURL_ADA_CPP_NOTE"),
    ")"
));
#[cfg(not(all(feature = "peers", not(ada_cpp))))]
pub(super) const MISSING: Option<&str> = None;

#[cfg(ada_cpp)]
pub(super) use super::ada_cpp::{spans, Span};

#[cfg(feature = "peers")]
fn ada_href(corpus: &Corpus) -> Tally {
    let (mut valid, mut href_bytes) = (0, 0);
    for line in &corpus.lines {
        if let Ok(url) = ada_url::Url::parse(*line, None) {
            href_bytes += url.href().len() as u64;
            valid += 1;
        }
    }
    Tally {
        valid,
        href_bytes: Some(href_bytes),
    }
}

/// `Url::can_parse`, the row ada's `can_parse` is compared with.
#[cfg(feature = "peers")]
fn normurl_can_parse(corpus: &Corpus) -> Tally {
    let valid = corpus.lines.iter();
    Tally {
        valid: valid.filter(|l| normurl::Url::can_parse(l, None)).count() as u64,
        href_bytes: None,
    }
}

#[cfg(feature = "peers")]
fn ada_can_parse(corpus: &Corpus) -> Tally {
    let valid = corpus.lines.iter();
    Tally {
        valid: valid.filter(|l| ada_url::Url::can_parse(l, None)).count() as u64,
        href_bytes: None,
    }
}

#[cfg(feature = "peers")]
fn url_crate(corpus: &Corpus) -> Tally {
    let (mut valid, mut href_bytes) = (0, 0);
    for line in &corpus.lines {
        if let Ok(url) = url::Url::parse(line) {
            href_bytes += url.as_str().len() as u64;
            valid += 1;
        }
    }
    Tally {
        valid,
        href_bytes: Some(href_bytes),
    }
}
