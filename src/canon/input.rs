//! Parsing inputs that lack a scheme, as crawlers and urlcanon do.

use crate::{ParseError, Url};

/// Parses `input` into `url`; if it fails only because `input` has no
/// scheme (`www.example.com/a`, a relative URL without base), parses
/// `scheme://` + `input` instead. `buf` is reused for that retry.
///
/// This is what urlcanon's `default_scheme_http` and Safe Browsing clients
/// do with bare host names. It is a policy, not the URL Standard (which
/// rejects such input: "missing-scheme-non-relative-URL"), so callers opt
/// in.
///
/// # Example
///
/// ```
/// use normurl::{canon::parse_with_default_scheme, Url};
///
/// let mut url = Url::parse("about:blank")?;
/// let mut buf = String::new();
/// parse_with_default_scheme(&mut url, "www.Example.com/a b", "http", &mut buf)?;
/// assert_eq!(url.href(), "http://www.example.com/a%20b");
/// parse_with_default_scheme(&mut url, "mailto:x@y", "http", &mut buf)?;
/// assert_eq!(url.href(), "mailto:x@y");
/// # Ok::<(), normurl::ParseError>(())
/// ```
pub fn parse_with_default_scheme(
    url: &mut Url,
    input: &str,
    scheme: &str,
    buf: &mut String,
) -> Result<(), ParseError> {
    match url.parse_into(input, None) {
        Err(ParseError::RelativeUrlWithoutBase) => {
            buf.clear();
            buf.push_str(scheme);
            buf.push_str("://");
            // The parser strips leading C0 controls and spaces; do it before
            // the scheme is glued on, where they would be inside the URL.
            buf.push_str(input.trim_start_matches(|c: char| c <= ' '));
            url.parse_into(buf, None)
        }
        other => other,
    }
}
