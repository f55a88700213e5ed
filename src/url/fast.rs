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

use super::host::HostKind;
use super::percent::AsciiSet;
use super::scheme::SchemeType;
use super::tables::byte_table;
use super::Url;

/// Host bytes the fast path accepts as they are: lowercase ASCII letters,
/// digits, `-`, `.` and `_`. (The domain parser would keep each of these
/// unchanged.)
static HOST_OK: [bool; 256] = byte_table!(|b| b.is_ascii_lowercase()
    || b.is_ascii_digit()
    || matches!(b, b'-' | b'.' | b'_'));

/// Path bytes the fast path copies as they are: not in the path
/// percent-encode set, not a backslash (a separator in special URLs), not
/// `|` (the file drive-letter quirk), and not a delimiter.
static PATH_OK: [bool; 256] =
    byte_table!(|b| !(path_set(b) || matches!(b, b'\\' | b'|' | b'?' | b'#')));

const fn path_set(b: u8) -> bool {
    b <= 0x1f
        || b > 0x7e
        || matches!(
            b,
            b' ' | b'"' | b'#' | b'<' | b'>' | b'?' | b'^' | b'`' | b'{' | b'}'
        )
}

/// Tries the fast path. On success `url` holds the result (its buffer is
/// `out`); otherwise `out` is handed back, cleared, for the full parser.
#[inline]
pub(crate) fn try_parse(url: &mut Url, input: &[u8], mut out: Vec<u8>) -> Result<(), Vec<u8>> {
    out.clear();
    match check(input) {
        Some(layout) => {
            out.extend_from_slice(input);
            if layout.append_slash {
                out.push(b'/');
            }
            match String::from_utf8(out) {
                Ok(s) => url.serialization = s,
                // Unreachable: `check` accepts ASCII only. Decline anyway.
                Err(e) => {
                    let mut out = e.into_bytes();
                    out.clear();
                    return Err(out);
                }
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
            Ok(())
        }
        None => Err(out),
    }
}

/// The offsets of an input the fast path accepts.
struct Layout {
    scheme_type: SchemeType,
    scheme_end: u32,
    host_end: u32,
    host_kind: HostKind,
    port: Option<u16>,
    path_start: u32,
    query_start: Option<u32>,
    fragment_start: Option<u32>,
    /// The input ends right after the host: the path is `/`.
    append_slash: bool,
}

/// Validates `input` as an already-canonical special URL and returns its
/// layout, or `None` to decline.
fn check(input: &[u8]) -> Option<Layout> {
    if input.len() >= u32::MAX as usize - 1 {
        return None;
    }
    let colon = memchr::memchr(b':', &input[..input.len().min(6)])?;
    let scheme_type = SchemeType::from_lowercase(&input[..colon]);
    if !scheme_type.is_special() || !input[colon + 1..].starts_with(b"//") {
        return None;
    }
    let host_start = colon + 3;
    let mut i = host_start;
    while i < input.len() && HOST_OK[input[i] as usize] {
        i += 1;
    }
    let host_end = i;
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
        HostKind::Domain
    };
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
    // Path: every byte copied as is, no dot segment.
    while i < input.len() {
        let b = input[i];
        if PATH_OK[b as usize] {
            if b == b'/' && is_dot_segment_start(&input[i + 1..]) {
                return None;
            }
            i += 1;
        } else if b == b'?' || b == b'#' {
            break;
        } else {
            return None;
        }
    }
    let mut query_start = None;
    if input.get(i) == Some(&b'?') {
        query_start = Some(i as u32);
        i += 1;
        while i < input.len() && input[i] != b'#' {
            if AsciiSet::SPECIAL_QUERY.contains(input[i]) {
                return None;
            }
            i += 1;
        }
    }
    let mut fragment_start = None;
    if i < input.len() {
        debug_assert_eq!(input[i], b'#');
        fragment_start = Some(i as u32);
        if input[i + 1..]
            .iter()
            .any(|&b| AsciiSet::FRAGMENT.contains(b))
        {
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

/// Whether the last label (ignoring one trailing dot) starts with a digit.
/// Every host that [ends in a number](https://url.spec.whatwg.org/#ends-in-a-number-checker)
/// does, so declining these sends all IPv4-like hosts to the full parser.
fn host_ends_in_digit_label(host: &[u8]) -> bool {
    let host = host.strip_suffix(b".").unwrap_or(host);
    let last = match memchr::memrchr(b'.', host) {
        Some(i) => &host[i + 1..],
        None => host,
    };
    last.first().is_some_and(u8::is_ascii_digit)
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
}
