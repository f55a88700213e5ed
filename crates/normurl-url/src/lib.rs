/*!
normurl's WHATWG URL parser: a byte-oriented implementation of the
[URL Standard](https://url.spec.whatwg.org/)'s parser and serializer, with
no I/O, no threads and no dependencies beyond `idna` and `memchr` (and
`encoding_rs` with the `encoding` feature). [`Url::parse`] gives exactly what `new URL(input)` gives in
a browser; it passes all of web-platform-tests' URL parsing data.

A [`Url`] is one serialization string (its `href`) plus `u32` offsets of
its components, so every getter is a slice and `href` is free. Parsing
writes the serialization directly while running the state machine of the
[basic URL parser](https://url.spec.whatwg.org/#concept-basic-url-parser);
nothing is built component by component and joined afterwards.
[`Url::parse_into`] reuses the string, so that hot loops do not allocate
per URL.

This crate is the parser alone; the `normurl` crate re-exports it and
adds canonicalization profiles, components and the bulk pipeline.

# Example

```
use normurl_url::Url;

let url = Url::parse("HTTPS://EXAMPLE.com:443/a/./b/../c?x=1#y")?;
assert_eq!(url.href(), "https://example.com/a/c?x=1#y");
assert_eq!(url.hostname(), "example.com");

let link = Url::parse_with_base("../d e", &url)?;
assert_eq!(link.href(), "https://example.com/d%20e");
# Ok::<(), normurl_url::ParseError>(())
```

# Where a spec step lives

| spec | file |
|---|---|
| basic URL parser states | `parser.rs` (one function per state, named after it) |
| already-canonical fast path | `fast.rs` |
| host parser, domain parser, opaque host | `host.rs` |
| IPv4 and IPv6 parsers and serializers | `ip.rs` |
| path segments, dot segments, Windows drive letters | `path.rs` |
| percent-encode sets and percent-decoding | `percent.rs` |
| byte classes, tab/newline pre-scan | `tables.rs` |
| special schemes, default ports | `scheme.rs` |
| the `URL` class's setters, `canParse`, *state override* | `setters.rs` (the path states' override in `parser.rs`) |
| `canParse`'s validate-only path (scheme and authority) | `validate.rs` |
| `URLSearchParams` | `search_params.rs` |
| `application/x-www-form-urlencoded` parser and serializer | `form_urlencoded.rs` |
| RFC 3986 references (`Reference`) | `reference/` |
| the vector scans, each with its scalar reference | `simd/` |

The `encoding` argument of the basic URL parser (the query encoding of
documents in legacy encodings) is `Url::parse_with_encoding`
(`encoding.rs`, with the `encoding` feature, which adds the Encoding
Standard's tables through `encoding_rs`); every other entry point
encodes queries as UTF-8, as the spec does when no encoding is given.
*/

#![deny(missing_docs)]

mod encoding;
mod error;
mod fast;
pub mod form_urlencoded;
mod host;
mod ip;
mod parse;
mod parser;
mod path;
#[doc(hidden)]
pub mod percent;
mod reference;
mod scheme;
pub mod scratch;
mod search_params;
mod setters;
#[doc(hidden)]
pub mod simd;
#[doc(hidden)]
pub mod tables;
mod url;
mod validate;

/// The parser in two steps, for normurl's `Canonicalizer::parse_apply`,
/// which looks at the fast path's result before the URL is stored.
#[doc(hidden)]
pub mod staged {
    pub use super::fast::{check, check_then, Layout};
    pub use super::parser::trim;
    use crate::error::ParseError;
    use crate::url::Url;
    use crate::{fast, parser};

    /// Stores the URL of a trimmed input [`check`] accepted.
    #[inline]
    pub fn fill(url: &mut Url, trimmed: &str, layout: &Layout) {
        fast::fill(url, trimmed, layout);
        parser::debug_check_fast_path(url, trimmed.as_bytes(), None);
    }

    /// Parses a trimmed input [`check`] declined, as
    /// [`Url::parse_into`] would (without trying the fast path again).
    pub fn parse_declined(url: &mut Url, trimmed: &str) -> Result<(), ParseError> {
        let result = parser::parse_declined(url, trimmed.as_bytes(), None);
        url.settle(result, trimmed)
    }
}

#[cfg(feature = "encoding")]
pub use encoding::QueryEncoding;
pub use error::ParseError;
pub use host::HostKind;
pub use percent::{percent_decode, AsciiSet};
pub use reference::{Mode, Order, Reference, ReferenceError};
pub use scheme::SchemeType;
pub use search_params::SearchParams;
pub use url::Url;

// Compile and run the README's example as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
