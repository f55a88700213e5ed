//! A fast yes for [`Url::can_parse`](crate::Url::can_parse) without a base:
//! the inputs whose success the [basic URL parser](https://url.spec.whatwg.org/#concept-basic-url-parser)
//! decides in the scheme and the authority alone, answered without writing
//! the URL out.
//!
//! For a URL without a base, the parser can only fail in the scheme (no
//! scheme: "missing-scheme-non-relative-URL"), in the host (the host
//! parser's failures) and in the port (non-digits, above 65535). The path,
//! query and fragment states never fail: they percent-encode. So an input
//! whose scheme and authority are plainly valid parses, whatever follows.
//!
//! [`plainly_valid`] says yes only for the plain cases below and gives no
//! answer otherwise, so the caller runs the full parser then; it never says
//! no. Plain means:
//!
//! - no leading or trailing C0 control or space, and no tab or newline
//!   anywhere (the parser strips those first);
//! - a scheme (ASCII alpha, then alphanumerics, `+`, `-`, `.`) and `:`;
//! - a scheme that is not special and is not followed by `/`: the
//!   [opaque path state](https://url.spec.whatwg.org/#cannot-be-a-base-url-path-state)
//!   takes the rest and never fails;
//! - or one of the special schemes but `file` (`http`, `https`, `ws`,
//!   `wss`, `ftp`, in any case), then any number of `/` and `\` (the
//!   [special authority ignore slashes state](https://url.spec.whatwg.org/#special-authority-ignore-slashes-state)),
//!   then an authority, up to the first `/`, `\`, `?` or `#`, with no `@`
//!   (no userinfo), no `[` (no IPv6 address) and no `%`, that is a host
//!   and an optional `:` and port:
//!   - the host is not empty, is made of ASCII letters, digits, `-` and
//!     `.`, has no label that starts or ends with `-`, no empty label but
//!     a trailing dot's, no
//!     label with `-` at its third and fourth bytes (`xn--` and the like,
//!     which IDNA checks), and its last label does not start with a digit
//!     or `0x` (an [ends-in-a-number](https://url.spec.whatwg.org/#ends-in-a-number-checker)
//!     host goes to the IPv4 parser). For such a host
//!     [domain to ASCII](https://url.spec.whatwg.org/#concept-domain-to-ascii)
//!     (UTS #46 with `CheckHyphens` and `VerifyDnsLength` false) only
//!     lowercases, and no byte of it is a forbidden domain code point;
//!   - the port is empty or at most five digits of value at most 65535.

/// `Some(true)` when `input` certainly parses without a base (see the
/// module's docs); `None` when only the full parser can tell.
pub(crate) fn plainly_valid(input: &[u8]) -> Option<bool> {
    let (&first, &last) = (input.first()?, input.last()?);
    if first <= b' ' || last <= b' ' || memchr::memchr3(b'\t', b'\n', b'\r', input).is_some() {
        return None;
    }
    if !first.is_ascii_alphabetic() {
        return None;
    }
    let colon = input
        .iter()
        .position(|&b| !(b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')))?;
    if input[colon] != b':' {
        return None;
    }
    let (scheme, rest) = (&input[..colon], &input[colon + 1..]);
    if !is_special_but_file(scheme) {
        // `file` is special, with hosts of its own rules.
        if scheme.eq_ignore_ascii_case(b"file") || rest.first() == Some(&b'/') {
            return None;
        }
        return Some(true);
    }
    let start = rest.iter().position(|&b| b != b'/' && b != b'\\')?;
    let rest = &rest[start..];
    let end = rest
        .iter()
        .position(|&b| matches!(b, b'/' | b'\\' | b'?' | b'#'))
        .unwrap_or(rest.len());
    let authority = &rest[..end];
    let (host, port) = match memchr::memchr(b':', authority) {
        Some(at) => (&authority[..at], &authority[at + 1..]),
        None => (authority, &b""[..]),
    };
    (plain_host(host) && plain_port(port)).then_some(true)
}

/// `http`, `https`, `ws`, `wss` or `ftp`, in any case.
fn is_special_but_file(scheme: &[u8]) -> bool {
    ["http", "https", "ws", "wss", "ftp"]
        .iter()
        .any(|s| scheme.eq_ignore_ascii_case(s.as_bytes()))
}

/// A host that domain to ASCII only lowercases and that is not an IPv4
/// address (the module's docs list the conditions).
fn plain_host(host: &[u8]) -> bool {
    if host.is_empty() {
        return false;
    }
    // An empty label anywhere but at the end: `.a`, `a..b`.
    if host[0] == b'.' || host.windows(2).any(|w| w == b"..") {
        return false;
    }
    let mut last = &b""[..];
    // Empty labels are now only a trailing dot's.
    for label in host.split(|&b| b == b'.').filter(|l| !l.is_empty()) {
        if label[0] == b'-'
            || label[label.len() - 1] == b'-'
            || label.get(2..4) == Some(b"--")
            || !label
                .iter()
                .all(|&b| b.is_ascii_alphanumeric() || b == b'-')
        {
            return false;
        }
        last = label;
    }
    !(last[0].is_ascii_digit() || (last.len() >= 2 && last[..2].eq_ignore_ascii_case(b"0x")))
}

/// An empty port or one of at most five digits and at most 65535.
fn plain_port(port: &[u8]) -> bool {
    port.len() <= 5
        && port.iter().all(u8::is_ascii_digit)
        && port.iter().fold(0u32, |n, &d| n * 10 + u32::from(d - b'0')) <= 65535
}

#[cfg(test)]
mod tests {
    use super::plainly_valid;
    use crate::Url;

    #[test]
    fn plain_cases() {
        for yes in [
            "http://example.com/",
            "HTTPS://Example.COM:443/a?b#c",
            "https://a-b.example./x",
            "ws://h:/",
            "ftp:\\\\host\\p",
            "http://h?q",
            "http://h#f",
            "mailto:someone@example.com",
            "javascript:alert(1)",
            "web+x:anything at all",
            "http://h:65535",
            "http://a1.b2",
        ] {
            assert_eq!(plainly_valid(yes.as_bytes()), Some(true), "{yes}");
            assert!(Url::parse(yes).is_ok(), "{yes}");
        }
        for unsure in [
            "",
            " http://h/",
            "http://h/ ",
            "http://h/\t",
            "//h/",
            "1http://h",
            "http:",
            "http://",
            "http:///",
            "http://u@h/",
            "http://[::1]/",
            "http://h%41/",
            "http://h:65536/",
            "http://h:123456/",
            "http://h:8o/",
            "http://1.2.3.4/",
            "http://a.0x1/",
            "http://a.1/",
            "http://xn--nxasmq6b/",
            "http://ab--c/",
            "http://.a/",
            "http://a..b/",
            "http://-a/",
            "http://a-.b/",
            "http://./",
            "http://a_b/",
            "http://ü/",
            "file:///etc",
            "sc://h/",
            "sc:/p",
        ] {
            assert_eq!(plainly_valid(unsure.as_bytes()), None, "{unsure:?}");
        }
    }
}
