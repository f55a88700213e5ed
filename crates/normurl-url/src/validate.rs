//! The validate-only path of [`Url::can_parse`](crate::Url::can_parse):
//! whether the [basic URL parser](https://url.spec.whatwg.org/#concept-basic-url-parser)
//! would succeed, decided from the scheme and the authority without
//! writing anything, for the inputs where that is cheap; every other input
//! is left to the parser itself.
//!
//! Without a base, the parser returns failure only in these places:
//!
//! - the [no scheme state](https://url.spec.whatwg.org/#no-scheme-state):
//!   the input does not start with an ASCII alpha followed by scheme code
//!   points and `:`;
//! - the [authority state](https://url.spec.whatwg.org/#authority-state):
//!   an `@` with nothing after the last one;
//! - the [host state](https://url.spec.whatwg.org/#host-state) and
//!   [file host state](https://url.spec.whatwg.org/#file-host-state): an
//!   empty host before `:`, an empty host of a special scheme but `file`,
//!   and the [host parser](https://url.spec.whatwg.org/#concept-host-parser)'s
//!   failures;
//! - the [port state](https://url.spec.whatwg.org/#port-state): a byte
//!   other than an ASCII digit before the authority ends, or a port above
//!   65535.
//!
//! The path, opaque path, query and fragment states never fail (they
//! percent-encode), so nothing after the authority is read.
//!
//! For an ASCII host without `%`, the host parser is simple: the
//! [domain parser](https://url.spec.whatwg.org/#concept-domain-to-ascii)
//! with *beStrict* false lowercases an ASCII domain (whatever its labels,
//! `xn--` ones included) and then fails only on a
//! [forbidden domain code point](https://url.spec.whatwg.org/#forbidden-domain-code-point)
//! (an empty domain cannot happen: the host states reject empty hosts
//! first); a domain that
//! [ends in a number](https://url.spec.whatwg.org/#ends-in-a-number-checker)
//! goes to the [IPv4 parser](https://url.spec.whatwg.org/#concept-ipv4-parser),
//! which works on the bytes in any case. Both are the parser's own
//! functions (`ip.rs`), called here on the input's bytes.
//!
//! What this path leaves to the parser (`None`): an ASCII tab or newline
//! where it could matter (the parser removes them anywhere, which can join
//! a scheme, `//`, a host or a port), a host with `%`, a non-ASCII byte or
//! `[` (percent-decoding, UTS #46, IPv6), the authority of a non-special
//! scheme (the opaque-host parser), and, with a base, an input whose
//! meaning depends on the base (no scheme, or the base's special scheme).
//!
//! The common case, a lowercase special scheme with `//` and a lowercase
//! host, costs a comparison of the scheme and one vector scan of the host
//! (`simd::stop`'s `Stop::Host`, the fast path's scan).

use crate::fast::special_scheme_prefix;
use crate::ip::{ends_in_a_number, parse_ipv4};
use crate::scheme::SchemeType;
use crate::simd::stop::{find, Stop};
use crate::tables::{byte_table, trim_c0_control_or_space, FORBIDDEN_DOMAIN, SCHEME_CHAR};

/// Whether `input` parses without a base: `Some(answer)` when the scheme
/// and the authority decide it as described in the module's docs, `None`
/// when only the parser can tell.
#[inline]
pub fn without_base(input: &[u8]) -> Option<bool> {
    let input = trim_c0_control_or_space(input);
    match scheme(input) {
        Scheme::Found(scheme_type, colon) => after_scheme(input, scheme_type, colon),
        // "If base is null ... return failure."
        Scheme::Missing => Some(false),
        Scheme::Unsure => None,
    }
}

/// Whether `input` parses against `base`, where that does not need the
/// base's URL: the base must parse (decided as by [`without_base`]), and
/// an input whose scheme is not special or is not the base's scheme is
/// parsed without looking at the base (the
/// [scheme state](https://url.spec.whatwg.org/#scheme-state) consults the
/// base only for a special scheme equal to the base's, and the
/// [file state](https://url.spec.whatwg.org/#file-state) only for a base
/// whose scheme is `file`). `None` otherwise.
#[inline]
pub fn with_base(input: &[u8], base: &[u8]) -> Option<bool> {
    let base = trim_c0_control_or_space(base);
    let base_type = match scheme(base) {
        Scheme::Found(scheme_type, colon) => {
            if !after_scheme(base, scheme_type, colon)? {
                return Some(false);
            }
            scheme_type
        }
        Scheme::Missing => return Some(false),
        Scheme::Unsure => return None,
    };
    let input = trim_c0_control_or_space(input);
    match scheme(input) {
        Scheme::Found(scheme_type, colon)
            if scheme_type == SchemeType::NotSpecial || scheme_type != base_type =>
        {
            after_scheme(input, scheme_type, colon)
        }
        _ => None,
    }
}

/// What the [scheme start state](https://url.spec.whatwg.org/#scheme-start-state)
/// and [scheme state](https://url.spec.whatwg.org/#scheme-state) find at
/// the start of a trimmed input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scheme {
    /// A scheme of this type, its `:` at this offset.
    Found(SchemeType, usize),
    /// No scheme: the parser goes to the no scheme state.
    Missing,
    /// An ASCII tab or newline ends the scheme code points, so the scheme
    /// may go on after it (the parser removes them first).
    Unsure,
}

fn scheme(input: &[u8]) -> Scheme {
    // `https://`, `http://`, `file://` and the like: one comparison.
    if let Some((scheme_type, colon)) = special_scheme_prefix(input) {
        return Scheme::Found(scheme_type, colon);
    }
    // A trimmed input does not start with a tab or newline.
    if !input.first().is_some_and(u8::is_ascii_alphabetic) {
        return Scheme::Missing;
    }
    let mut i = 1;
    while i < input.len() && SCHEME_CHAR[input[i] as usize] {
        i += 1;
    }
    match input.get(i) {
        Some(b':') => Scheme::Found(scheme_type(&input[..i]), i),
        Some(b'\t' | b'\n' | b'\r') => Scheme::Unsure,
        _ => Scheme::Missing,
    }
}

/// The type of a scheme of scheme code points, in any case.
#[inline]
fn scheme_type(scheme: &[u8]) -> SchemeType {
    let mut lower = [0u8; 5];
    let Some(lower) = lower.get_mut(..scheme.len()) else {
        return SchemeType::NotSpecial;
    };
    for (l, &b) in lower.iter_mut().zip(scheme) {
        *l = b.to_ascii_lowercase();
    }
    SchemeType::from_lowercase(lower)
}

/// The states after the scheme's `:` (at `colon`) that can fail.
#[inline]
fn after_scheme(input: &[u8], scheme_type: SchemeType, colon: usize) -> Option<bool> {
    let rest = &input[colon + 1..];
    match scheme_type {
        SchemeType::File => file(input, colon),
        SchemeType::NotSpecial => match rest {
            // "If remaining starts with /": the path or authority state;
            // `//` starts an authority (an opaque host), left to the parser.
            [b'/', b'/' | b'\t' | b'\n' | b'\r', ..] => None,
            [b'\t' | b'\n' | b'\r', ..] => None,
            // The path state or the opaque path state: they never fail.
            _ => Some(true),
        },
        _ => special_authority(input, colon),
    }
}

/// A special scheme but `file`, its `:` at `colon`: the
/// [special authority slashes state](https://url.spec.whatwg.org/#special-authority-slashes-state)
/// and the [special authority ignore slashes state](https://url.spec.whatwg.org/#special-authority-ignore-slashes-state)
/// skip every `/` and `\`, then the authority.
#[inline]
fn special_authority(input: &[u8], colon: usize) -> Option<bool> {
    let mut start = colon + 1;
    while matches!(input.get(start), Some(b'/' | b'\\')) {
        start += 1;
    }
    // The common case: a host of lowercase letters, digits, `-`, `.` and
    // `_`, then the end of the authority or a port.
    let stop = find(Stop::Host, input, start);
    let host = &input[start..stop];
    match input.get(stop) {
        None | Some(b'/' | b'\\' | b'?' | b'#') => Some(!host.is_empty() && domain(host)),
        Some(b':') if !host.is_empty() => {
            let port_end = skip_digits(input, stop + 1);
            if matches!(input.get(port_end), None | Some(b'/' | b'\\' | b'?' | b'#')) {
                Some(domain(host) && port(&input[stop + 1..port_end])?)
            } else {
                // An `@` later makes this userinfo; anything else is
                // decided by the general case as well.
                authority(input, start)
            }
        }
        _ => authority(input, start),
    }
}

/// The offset of the first byte at or after `i` that is not an ASCII
/// digit.
#[inline]
fn skip_digits(input: &[u8], mut i: usize) -> usize {
    while input.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    i
}

/// Where a special URL's authority ends: `/`, `\`, `?`, `#`.
static SPECIAL_END: [bool; 256] = byte_table!(|b| matches!(b, b'/' | b'\\' | b'?' | b'#'));

/// The [authority state](https://url.spec.whatwg.org/#authority-state),
/// [host state](https://url.spec.whatwg.org/#host-state) and port state
/// of a special URL whose authority starts at `start` and ends at the
/// first `/`, `\`, `?` or `#` (or the input's end): the host is what
/// follows the last `@`, up to the first `:`.
fn authority(input: &[u8], start: usize) -> Option<bool> {
    let end = input[start..]
        .iter()
        .position(|&b| SPECIAL_END[b as usize])
        .map_or(input.len(), |i| start + i);
    let authority = &input[start..end];
    // Credentials never fail; but "if atSignSeen is true and buffer is the
    // empty string, host-missing validation error, return failure".
    let host_and_port = match memchr::memrchr(b'@', authority) {
        Some(at) if at + 1 == authority.len() => return Some(false),
        Some(at) => &authority[at + 1..],
        None => authority,
    };
    let (host, port_bytes) = match memchr::memchr(b':', host_and_port) {
        Some(colon) => (&host_and_port[..colon], Some(&host_and_port[colon + 1..])),
        None => (host_and_port, None),
    };
    let bytes = host_bytes(host);
    if bytes.decline {
        return None;
    }
    // An empty host before `:` or at the end: host-missing, failure.
    if host.is_empty() || bytes.forbidden || !domain(host) {
        return Some(false);
    }
    match port_bytes {
        Some(digits) => port(digits),
        None => Some(true),
    }
}

/// A byte of a host this path leaves to the parser: an ASCII tab or
/// newline (removed before parsing), `%` (percent-decoded), a non-ASCII
/// byte (UTS #46), `[` (an IPv6 address).
static DECLINE: [bool; 256] =
    byte_table!(|b| matches!(b, b'\t' | b'\n' | b'\r' | b'%' | b'[') || b >= 0x80);

/// What a host's bytes hold.
#[derive(Clone, Copy, Default)]
struct HostBytes {
    /// A byte of [`DECLINE`].
    decline: bool,
    /// A forbidden domain code point, which the domain parser rejects
    /// (`:` and `@` among them, which only `file` hosts can hold here).
    forbidden: bool,
}

/// The classes of a host's bytes.
#[inline]
fn host_bytes(host: &[u8]) -> HostBytes {
    host.iter().fold(HostBytes::default(), |acc, &b| HostBytes {
        decline: acc.decline | DECLINE[b as usize],
        forbidden: acc.forbidden | FORBIDDEN_DOMAIN[b as usize],
    })
}

/// Whether a non-empty ASCII host without forbidden domain code points,
/// `%` or `[` parses: the domain is the host lowercased, and one that ends
/// in a number must be an IPv4 address.
#[inline]
fn domain(host: &[u8]) -> bool {
    !ends_in_a_number(host) || parse_ipv4(host).is_ok()
}

/// The [port state](https://url.spec.whatwg.org/#port-state) on the bytes
/// between the host's `:` and the end of the authority: ASCII digits (any
/// number of leading zeros) of value at most 65535. `None` for an ASCII
/// tab or newline, which the parser would have removed.
#[inline]
fn port(digits: &[u8]) -> Option<bool> {
    let mut value: u32 = 0;
    for &b in digits {
        match b {
            b'0'..=b'9' => value = (value * 10 + u32::from(b - b'0')).min(65536),
            b'\t' | b'\n' | b'\r' => return None,
            _ => return Some(false),
        }
    }
    Some(value <= 65535)
}

/// The [file state](https://url.spec.whatwg.org/#file-state) and what
/// follows, without a base (or with a base whose scheme is not `file`):
/// only two `/` or `\` lead to the
/// [file host state](https://url.spec.whatwg.org/#file-host-state), whose
/// host ends at `/`, `\`, `?` or `#`; any other input goes to the path
/// state, which never fails.
#[inline]
fn file(input: &[u8], colon: usize) -> Option<bool> {
    let rest = &input[colon + 1..];
    match rest {
        [b'/' | b'\\', b'/' | b'\\', ..] => {}
        [b'\t' | b'\n' | b'\r', ..] | [b'/' | b'\\', b'\t' | b'\n' | b'\r', ..] => return None,
        _ => return Some(true),
    }
    let start = colon + 3;
    let stop = find(Stop::Host, input, start);
    if matches!(input.get(stop), None | Some(b'/' | b'\\' | b'?' | b'#')) {
        // An empty host is the empty host; `localhost` becomes it.
        let host = &input[start..stop];
        return Some(host.is_empty() || domain(host));
    }
    let end = input[stop..]
        .iter()
        .position(|&b| SPECIAL_END[b as usize])
        .map_or(input.len(), |i| stop + i);
    let host = &input[start..end];
    let bytes = host_bytes(host);
    if bytes.decline {
        return None;
    }
    // "If ... buffer is a Windows drive letter": a path, not a host.
    if let [letter, b':' | b'|'] = host {
        if letter.is_ascii_alphabetic() {
            return Some(true);
        }
    }
    Some(!bytes.forbidden && domain(host))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Url;

    /// Each shape the fast answers cover, with the answer the parser gives.
    #[test]
    fn answers() {
        for (input, expected) in [
            ("https://example.com/", Some(true)),
            ("HTTPS://Example.COM:0443/a?b#c", Some(true)),
            ("http:example.com", Some(true)),
            ("http:\\\\/h\\p", Some(true)),
            ("ws://h:/", Some(true)),
            ("http://u:p@h:80/", Some(true)),
            ("http://a@b@h/", Some(true)),
            ("http://xn--nxasmq6b.ab--c/", Some(true)),
            ("http://a..b/", Some(true)),
            ("http://./", Some(true)),
            ("http://a_b!$&'()*+,;=~/", Some(true)),
            ("http://1.2.3.4/", Some(true)),
            ("http://0x7f.1/", Some(true)),
            ("http://a.1b/", Some(true)),
            ("http://h:000065535/", Some(true)),
            ("  http://h/ \x01", Some(true)),
            ("http://h/\t path with\nanything%", Some(true)),
            ("mailto:a@b", Some(true)),
            ("web+x:anything at all", Some(true)),
            ("sc:/p", Some(true)),
            ("file:", Some(true)),
            ("file:/x", Some(true)),
            ("file:///etc", Some(true)),
            ("FILE://localhost/x", Some(true)),
            ("file://C:/x", Some(true)),
            ("file://c|", Some(true)),
            ("file:\\\\host\\share", Some(true)),
            ("", Some(false)),
            ("//h/", Some(false)),
            ("1http://h", Some(false)),
            ("ht tp://h", Some(false)),
            ("http", Some(false)),
            ("http:", Some(false)),
            ("http://", Some(false)),
            ("http:///?q", Some(false)),
            ("http://u@/", Some(false)),
            ("http://u@", Some(false)),
            ("http://:80/", Some(false)),
            ("http://u@:80/", Some(false)),
            ("http://h:65536/", Some(false)),
            ("http://h:8o/", Some(false)),
            ("http://h:80:80/", Some(false)),
            ("http://a b/", Some(false)),
            ("http://a<b/", Some(false)),
            ("http://a]b/", Some(false)),
            ("http://1.2.3.256/", Some(false)),
            ("http://a.0x1g0/", Some(true)),
            ("http://a.09/", Some(false)),
            ("file://a:b/", Some(false)),
            ("file://u@h/", Some(false)),
            ("file://ab|/", Some(false)),
            ("ht\ttp://h", None),
            ("http://h\t:80/", None),
            ("http://h:8\t0/", None),
            ("http:\t//h", None),
            ("http://h%41/", None),
            ("http://ü/", None),
            ("http://[::1]/", None),
            ("sc://h/", None),
            ("sc:/\t/h", None),
            ("file:/\t/h", None),
            ("file://C\t|/", None),
        ] {
            assert_eq!(without_base(input.as_bytes()), expected, "{input:?}");
            if let Some(expected) = expected {
                assert_eq!(Url::parse(input).is_ok(), expected, "parse({input:?})");
            }
        }
    }

    #[test]
    fn with_a_base() {
        for (input, base, expected) in [
            ("https://h/", "http://b/", Some(true)),
            ("https://", "http://b/", Some(false)),
            ("sc://h/", "http://b/", None),
            ("mailto:x", "mailto:y", Some(true)),
            ("https://h/", "not a base", Some(false)),
            ("https://h/", "http://b:99999/", Some(false)),
            // Relative to the base: only the parser can tell.
            ("/p", "http://b/", None),
            ("http:p", "http://b/", None),
            ("file:p", "file:///b", None),
            ("file:p", "http://b/", Some(true)),
            ("/p", "http://b%41/", None),
        ] {
            assert_eq!(
                with_base(input.as_bytes(), base.as_bytes()),
                expected,
                "{input:?} against {base:?}"
            );
            if let Some(expected) = expected {
                let parsed = Url::parse(base).and_then(|b| Url::parse_with_base(input, &b));
                assert_eq!(parsed.is_ok(), expected, "parse({input:?}, {base:?})");
            }
        }
    }
}
