//! A validating fast path for URLs that are already in canonical form.
//!
//! Crawl dumps are mostly URLs a browser already serialized:
//! `https://example.com/path?query#fragment` with a lowercase scheme and
//! host, nothing to percent-encode and no dot segments. For those the
//! serialization *is* the input, so this path checks the input in one pass
//! with byte-class tables, copies it once and records the offsets. Anything
//! it is not sure about (uppercase, `%` or non-ASCII in the host, IPv4-like
//! or IPv6 hosts, credentials, default or odd ports, backslashes, dot
//! segments, a missing path) makes it decline, and the full state machine
//! runs instead. The tests check that both give identical results on every
//! input the fast path accepts, and debug builds re-check every accepted
//! input against the full parser.

use std::ops::Range;

use super::host::HostKind;
use super::scheme::SchemeType;
use crate::simd::stop::{find, Stop};
use crate::url::Url;

/// Tries the fast path on the trimmed input. On success `url` holds the
/// result, its buffer reused; on `false` `url` is untouched and the full
/// parser must run.
#[inline]
pub fn try_parse(url: &mut Url, input: &str) -> bool {
    let Some(layout) = check(input.as_bytes()) else {
        return false;
    };
    fill(url, input, &layout);
    true
}

/// Stores the URL of an input [`check`] accepted, with its layout, in
/// `url`.
#[inline]
pub fn fill(url: &mut Url, input: &str, layout: &Layout) {
    // The serialization is the input: copied from a `&str`, so no UTF-8
    // re-validation is needed.
    url.serialization.clear();
    url.serialization.push_str(input);
    if layout.append_slash {
        url.serialization.push('/');
    }
    url.scheme_type = layout.scheme_type;
    url.scheme_end = layout.scheme_end;
    url.username_end = layout.scheme_end + 3;
    url.host_start = layout.scheme_end + 3;
    url.host_end = layout.host_end;
    url.host_kind = layout.host_kind;
    url.port = layout.port;
    url.path_start = layout.path_start;
    url.query_start = layout.query_start;
    url.fragment_start = layout.fragment_start;
}

/// The offsets of an input the fast path accepts: those of the URL, whose
/// serialization is the input (followed by `/` when `append_slash`). The
/// host starts at `scheme_end + 3`: there is no userinfo.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    /// The scheme's kind.
    pub scheme_type: SchemeType,
    /// The offset of the scheme's `:`.
    pub scheme_end: u32,
    /// The offset after the host.
    pub host_end: u32,
    /// The host's kind.
    pub host_kind: HostKind,
    /// The port, if the input has one.
    pub port: Option<u16>,
    /// The offset of the path.
    pub path_start: u32,
    /// The offset of the `?`, if any.
    pub query_start: Option<u32>,
    /// The offset of the `#`, if any.
    pub fragment_start: Option<u32>,
    /// The input ends right after the host: the path is `/`.
    pub append_slash: bool,
}

/// Validates `input` as an already-canonical special URL and returns its
/// layout, or `None` to decline. Any tab, newline or other control byte
/// makes it decline, so the caller need not remove them first.
#[inline(always)]
pub fn check(input: &[u8]) -> Option<Layout> {
    check_then(input, |_| ())
}

/// [`check`], which calls `on_host` with where the host (a domain) is as
/// soon as it is known, before the rest of the input is checked: a
/// caller that will look the host up in a table can start loading the
/// table's line while the path is scanned. The input may still be
/// declined after.
#[inline(always)]
pub fn check_then(input: &[u8], on_host: impl FnOnce(Range<usize>)) -> Option<Layout> {
    if input.len() >= u32::MAX as usize - 1 {
        return None;
    }
    let (scheme_type, colon) = special_scheme_prefix(input)?;
    let host_start = colon + 3;
    let host_end = find(Stop::Host, input, host_start);
    let host = &input[host_start..host_end];
    let host_kind = if host.is_empty() {
        // Only file URLs may have an empty host.
        if scheme_type != SchemeType::File {
            return None;
        }
        HostKind::Empty
    } else {
        if host_ends_in_digit_label(host)
            || (scheme_type == SchemeType::File && host == b"localhost")
        {
            return None;
        }
        on_host(host_start..host_end);
        HostKind::Domain
    };
    let mut i = host_end;
    // Port: no leading zero, not the default, at most 65535.
    let mut port = None;
    if input.get(i) == Some(&b':') {
        if scheme_type == SchemeType::File {
            return None;
        }
        i += 1;
        let digits_start = i;
        let mut value: u32 = 0;
        while i < input.len() && input[i].is_ascii_digit() && i - digits_start < 5 {
            value = value * 10 + (input[i] - b'0') as u32;
            i += 1;
        }
        let n = i - digits_start;
        if n == 0
            || input[digits_start] == b'0'
            || value > 65535
            || scheme_type.default_port() == Some(value as u16)
        {
            return None;
        }
        port = Some(value as u16);
    }
    let path_start = i;
    let append_slash = match input.get(i) {
        None => true,
        Some(b'/') => false,
        _ => return None,
    };
    // Path: runs of plain bytes; stop at `?`, `#`, a byte that needs work,
    // or a `/` followed by `.` or `%` (checked exactly for a dot segment).
    loop {
        i = find(Stop::Path, input, i);
        match input.get(i) {
            None | Some(b'?' | b'#') => break,
            Some(b'/') if !is_dot_segment_start(&input[i + 1..]) => i += 1,
            Some(_) => return None,
        }
    }
    let mut query_start = None;
    if input.get(i) == Some(&b'?') {
        query_start = Some(i as u32);
        i = find(Stop::Query, input, i + 1);
        if i < input.len() && input[i] != b'#' {
            return None;
        }
    }
    let mut fragment_start = None;
    if i < input.len() {
        debug_assert_eq!(input[i], b'#');
        fragment_start = Some(i as u32);
        if find(Stop::Fragment, input, i + 1) != input.len() {
            return None;
        }
    }
    Some(Layout {
        scheme_type,
        scheme_end: colon as u32,
        host_end: host_end as u32,
        host_kind,
        port,
        path_start: path_start as u32,
        query_start,
        fragment_start,
        append_slash,
    })
}

/// Recognizes `scheme://` for the special schemes, lowercase, returning the
/// scheme and the position of its `:`. (Cheaper than a memchr on a 6-byte
/// haystack.)
#[inline(always)]
pub(crate) fn special_scheme_prefix(input: &[u8]) -> Option<(SchemeType, usize)> {
    const PREFIXES: [(&[u8], SchemeType); 6] = [
        (b"https://", SchemeType::Https),
        (b"http://", SchemeType::Http),
        (b"file://", SchemeType::File),
        (b"wss://", SchemeType::Wss),
        (b"ws://", SchemeType::Ws),
        (b"ftp://", SchemeType::Ftp),
    ];
    PREFIXES
        .iter()
        .find(|(p, _)| input.starts_with(p))
        .map(|&(p, t)| (t, p.len() - 3))
}

/// Whether the last label (ignoring one trailing dot) starts with a digit.
/// Every host that [ends in a number](https://url.spec.whatwg.org/#ends-in-a-number-checker)
/// does, so declining these sends all IPv4-like hosts to the full parser.
fn host_ends_in_digit_label(host: &[u8]) -> bool {
    let host = host.strip_suffix(b".").unwrap_or(host);
    let last_start = host.iter().rposition(|&b| b == b'.').map_or(0, |i| i + 1);
    host.get(last_start).is_some_and(u8::is_ascii_digit)
}

/// Whether the segment at the start of `rest` (up to `/`, `?`, `#` or the
/// end) is `.`, `..` or a percent-encoded form of them.
#[inline]
fn is_dot_segment_start(rest: &[u8]) -> bool {
    match rest.first() {
        Some(b'.' | b'%') => {
            let end = rest
                .iter()
                .position(|&b| matches!(b, b'/' | b'?' | b'#'))
                .unwrap_or(rest.len());
            let segment = &rest[..end];
            super::path::is_single_dot(segment) || super::path::is_double_dot(segment)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_canonical() {
        for input in [
            "https://example.com/",
            "http://a.b-c_d.example:8080/x/y.z?q=1&r=%20#frag",
            "https://example.com",
            "file:///usr/lib/x.so",
            "file://host/share/x",
            "wss://example.com/socket",
            "http://example.com/.well-known/x",
        ] {
            assert!(check(input.as_bytes()).is_some(), "{input}");
        }
    }

    #[test]
    fn declines_non_canonical() {
        for input in [
            "HTTPS://example.com/",
            "https://Example.com/",
            "https://example.com:443/",
            "https://example.com:0443/",
            "https://example.com:99999/",
            "https://127.0.0.1/",
            "https://a.0x10/",
            "https://user@example.com/",
            "https://example.com/a b",
            "https://example.com/a/../b",
            "https://example.com/a/%2e/b",
            "https://example.com/a\\b",
            "https://example.com?q",
            "https://example.com/?q'",
            "https://example.com/#a b",
            "https://ex%41mple.com/",
            "https://exämple.com/",
            "file://localhost/x",
            "file:///C|/x",
            "foo://example.com/",
            "http:/example.com/",
            "http://[::1]/",
            "https:///example.com/",
        ] {
            assert!(check(input.as_bytes()).is_none(), "{input}");
        }
    }

    /// `check_then` names the host of each input whose host is a domain,
    /// the host the layout gives when the input is accepted, and no
    /// other.
    #[test]
    fn check_then_names_the_domain() {
        for (input, host) in [
            ("https://www.example.com:81/a?b#c", Some("www.example.com")),
            ("http://a.b/", Some("a.b")),
            ("https://example.com", Some("example.com")),
            // Declined after the host: named all the same.
            ("https://example.com/a b", Some("example.com")),
            ("file:///x", None),
            ("https://127.0.0.1/", None),
            ("HTTPS://example.com/", None),
        ] {
            let mut named = None;
            let layout = check_then(input.as_bytes(), |r| named = Some(input[r].to_owned()));
            assert_eq!(named.as_deref(), host, "{input}");
            if let (Some(layout), Some(host)) = (layout, host) {
                let start = layout.scheme_end as usize + 3;
                assert_eq!(&input[start..layout.host_end as usize], host, "{input}");
            }
        }
    }
}
