//! Parsing inputs that lack a scheme, as crawlers and urlcanon do.

use normurl_url::{ParseError, Url};

/// What an input without a scheme needs in front to be parsed as a URL
/// with a default scheme: `"://"` after the scheme for a host name first
/// (`www.example.com/a`), `":"` for a network-path reference
/// (`//example.com/a`); `None` for an input that has a scheme (or is a
/// path, `/a`, which has no host to stand on).
///
/// An input (after the leading C0 controls and spaces the parser drops)
/// counts as scheme-less when it
///
/// * starts with `//`, or
/// * has no `:` before its first `/`, `?` or `#` (`example.com/a`,
///   `www.example.com`, `localhost`), and does not start with `/`, or
/// * starts with `[` (an IPv6 address), or
/// * is a host name followed by a port: what comes before the first `:`
///   has a `.` or is `localhost`, and what follows it is 1 to 5 digits, up
///   to the end or a `/`, `?` or `#` (`example.com:8080/x`; `tel:911` has a
///   scheme).
///
/// So `mailto:x`, `urn:x`, `javascript:x` and `http://x` never count.
///
/// # Example
///
/// ```
/// use normurl_canon::scheme_less;
///
/// assert_eq!(scheme_less("example.com/a"), Some("://"));
/// assert_eq!(scheme_less("example.com:8080/x"), Some("://"));
/// assert_eq!(scheme_less("//example.com/a"), Some(":"));
/// assert_eq!(scheme_less("mailto:x"), None);
/// assert_eq!(scheme_less("/a/b"), None);
/// ```
pub fn scheme_less(input: &str) -> Option<&'static str> {
    let s = input.trim_start_matches(|c: char| c <= ' ').as_bytes();
    if s.starts_with(b"//") {
        return Some(":");
    }
    if s.is_empty() || s[0] == b'/' || s[0] == b'\\' {
        return None;
    }
    if s[0] == b'[' {
        return Some("://");
    }
    let end = |b: &u8| matches!(b, b'/' | b'?' | b'#' | b'\\');
    let Some(colon) = s.iter().position(|b| *b == b':' || end(b)) else {
        return Some("://");
    };
    if s[colon] != b':' {
        return Some("://");
    }
    let host = &s[..colon];
    let rest = &s[colon + 1..];
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    let port = (1..=5).contains(&digits) && rest.get(digits).is_none_or(end);
    let hostname = host.contains(&b'.') || host.eq_ignore_ascii_case(b"localhost");
    (port && hostname).then_some("://")
}

/// Parses `input` into `url`; when `input` has no scheme (see
/// [`scheme_less`]), parses `scheme` and `://` (or `:` before `//`) +
/// `input` instead. `buf` is reused for the prefixed input.
///
/// This is what urlcanon's `default_scheme_http` and Safe Browsing clients
/// do with bare host names. It is a policy, not the URL Standard (which
/// rejects such input: "missing-scheme-non-relative-URL"), so callers opt
/// in.
///
/// # Example
///
/// ```
/// use normurl_canon::parse_with_default_scheme;
/// use normurl_url::Url;
///
/// let mut url = Url::parse("about:blank")?;
/// let mut buf = String::new();
/// parse_with_default_scheme(&mut url, "www.Example.com/a b", "http", &mut buf)?;
/// assert_eq!(url.href(), "http://www.example.com/a%20b");
/// parse_with_default_scheme(&mut url, "example.com:8080", "https", &mut buf)?;
/// assert_eq!(url.href(), "https://example.com:8080/");
/// parse_with_default_scheme(&mut url, "mailto:x@y", "http", &mut buf)?;
/// assert_eq!(url.href(), "mailto:x@y");
/// # Ok::<(), normurl_url::ParseError>(())
/// ```
pub fn parse_with_default_scheme(
    url: &mut Url,
    input: &str,
    scheme: &str,
    buf: &mut String,
) -> Result<(), ParseError> {
    url.parse_into(with_default_scheme(input, scheme, buf), None)
}

/// `input`, or `scheme` and what [`scheme_less`] says + `input` (in `buf`)
/// when it has no scheme.
///
/// # Example
///
/// ```
/// let mut buf = String::new();
/// assert_eq!(normurl_canon::with_default_scheme(" //a.example", "https", &mut buf), "https://a.example");
/// assert_eq!(normurl_canon::with_default_scheme("urn:x", "https", &mut buf), "urn:x");
/// ```
pub fn with_default_scheme<'a>(input: &'a str, scheme: &str, buf: &'a mut String) -> &'a str {
    let Some(prefix) = scheme_less(input) else {
        return input;
    };
    buf.clear();
    buf.push_str(scheme);
    buf.push_str(prefix);
    // The parser strips leading C0 controls and spaces; do it before
    // the scheme is glued on, where they would be inside the URL.
    buf.push_str(input.trim_start_matches(|c: char| c <= ' '));
    buf
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn which_inputs_are_scheme_less() {
        for input in [
            "example.com/a",
            "www.example.com",
            "example.com:8080/x",
            "example.com:8080",
            "localhost:3000/?q",
            "LOCALHOST:1",
            "a.b:1#f",
            "[::1]:80/",
            "example.com?a:b",
            "  www.example.com",
            "host",
        ] {
            assert_eq!(scheme_less(input), Some("://"), "{input}");
        }
        assert_eq!(scheme_less("//example.com/a"), Some(":"));
        for input in [
            "mailto:x",
            "urn:x",
            "javascript:x",
            "javascript:1",
            "tel:911",
            "http://x",
            "a.b:123456",
            "a.b:80x",
            "a.b:",
            "/a",
            "\\a",
            "",
            "   ",
        ] {
            assert_eq!(scheme_less(input), None, "{input}");
        }
    }
}
