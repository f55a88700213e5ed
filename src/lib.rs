/*!
normurl normalizes URLs in bulk.

Its core is a byte-oriented implementation of the
[WHATWG URL Standard](https://url.spec.whatwg.org/)'s parser and
serializer: [`Url::parse`] gives exactly what `new URL(input)` gives in a
browser. A [`Url`] is one serialization string plus component offsets, and
[`Url::parse_into`] reuses that string so that hot loops do not allocate per
URL.

# Example

```
use normurl::Url;

let url = Url::parse("HTTPS://EXAMPLE.com:443/a/./b/../c?x=1#y")?;
assert_eq!(url.href(), "https://example.com/a/c?x=1#y");
assert_eq!(url.hostname(), "example.com");
assert_eq!(url.pathname(), "/a/c");

let link = Url::parse_with_base("../d e", &url)?;
assert_eq!(link.href(), "https://example.com/d%20e");
# Ok::<(), normurl::ParseError>(())
```
*/

#![deny(missing_docs)]

pub mod dedup;
pub mod normalize;
pub mod scope;
pub mod warc;

/// Canonicalization: profiles, rules, SURT (the `normurl-canon` crate).
pub use normurl_canon as canon;
/// URL components and templates (`normurl-canon`'s `component`).
pub use normurl_canon::component;
/// The ordered streaming pipeline (the `normurl-pipeline` crate).
pub use normurl_pipeline as pipeline;

/// The four sample corpora (samples/corpora), by file name and text, for
/// the unit tests that run over real URLs.
#[cfg(test)]
pub(crate) fn test_corpora() -> Vec<(&'static str, String)> {
    [
        "weburls.txt",
        "kasztp.txt",
        "node_files.txt",
        "isaacs_files.txt",
    ]
    .into_iter()
    .map(|name| {
        let path = format!("{}/samples/corpora/{name}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        (name, text)
    })
    .collect()
}

// Compile and run the README's Rust examples as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

pub use normurl_url::{
    percent_decode, AsciiSet, HostKind, Mode, Order, ParseError, QueryEncoding, Reference,
    ReferenceError, SchemeType, SearchParams, Url,
};
