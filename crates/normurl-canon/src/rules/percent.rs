//! Percent-encoding transforms behind the `decode-unreserved`,
//! `uppercase-percent`, `unescape-path` and `unescape-query` rules.
//!
//! Every function here writes into a caller buffer and reports whether it
//! changed anything; a function that returns `false` may have written
//! nothing, and the caller keeps the input.

use memchr::memchr;

/// The value of an ASCII hex digit.
#[inline]
fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// The byte `%XY` at `input[i..]` stands for, if it is a percent-encoded byte.
#[inline]
pub(crate) fn escape_at(input: &[u8], i: usize) -> Option<u8> {
    match input.get(i..i + 3) {
        Some([b'%', h, l]) => Some(hex_value(*h)? << 4 | hex_value(*l)?),
        _ => None,
    }
}

/// A set of bytes to percent-encode, as a 256-entry table.
pub(crate) struct EncodeSet([bool; 256]);

impl EncodeSet {
    #[inline]
    fn contains(&self, b: u8) -> bool {
        self.0[b as usize]
    }
}

const fn table(extra: &[u8]) -> EncodeSet {
    // Safe Browsing escapes "all characters that are <= ASCII 32, >= 127,
    // '#', or '%'"; every set here starts from that.
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = b <= 0x20 || b >= 0x7f || b == b'#' as usize || b == b'%' as usize;
        b += 1;
    }
    let mut i = 0;
    while i < extra.len() {
        t[extra[i] as usize] = true;
        i += 1;
    }
    EncodeSet(t)
}

/// What an unescaped special path must re-encode: Safe Browsing's set plus
/// the [path percent-encode set](https://url.spec.whatwg.org/#path-percent-encode-set)
/// (so the result is a valid serialization) plus `\`, which the parser of a
/// special URL would read as `/`.
pub(crate) const PATH_MINIMAL: EncodeSet = table(b"\"<>?\\^`{}");

/// What an unescaped query value must re-encode: Safe Browsing's set plus
/// the [special-query percent-encode set](https://url.spec.whatwg.org/#special-query-percent-encode-set)
/// plus `&`, so that parameters keep their boundaries.
pub(crate) const QUERY_VALUE_MINIMAL: EncodeSet = table(b"\"&'<>");

/// What an unescaped query name must re-encode: as for values, plus `=`.
pub(crate) const QUERY_NAME_MINIMAL: EncodeSet = table(b"\"&'<=>");

/// Whether a byte is unreserved (RFC 3986 section 2.3):
/// `ALPHA / DIGIT / "-" / "." / "_" / "~"`.
#[inline]
pub(crate) fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

/// Whether decoding an escape to `v`, written after `before` (the output so
/// far) and followed by the byte `next` of the input, would make a new
/// escape out of a `%` that starts none: `%7%30` must not become `%70`,
/// which a second pass would decode to `p` (and which a server reads as `p`,
/// not as the `%7` and `0` it was sent). Only hex digits can complete an
/// escape, and a blocked one (`%30`..`%39`, `%41`..`%46`, `%61`..`%66`) has
/// no lowercase hex digit, so blocking never leaves work for
/// `uppercase-percent`.
///
/// One pass then gives the fixed point: a new escape can only start at a
/// bare `%`, and both ways a decoded hex digit could follow one are blocked
/// here (`%` + digit + hex, and `%` + hex + digit).
#[inline]
pub(crate) fn makes_escape(before: &[u8], v: u8, next: Option<&u8>) -> bool {
    if !v.is_ascii_hexdigit() {
        return false;
    }
    match before {
        [.., b'%', h] if h.is_ascii_hexdigit() => true,
        [.., b'%'] => next.is_some_and(u8::is_ascii_hexdigit),
        _ => false,
    }
}

/// What [`normalize`] changed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Normalized {
    /// Some `%XX` of an unreserved character was decoded.
    pub(crate) decoded: bool,
    /// Some `%xx` had its hex digits uppercased.
    pub(crate) uppercased: bool,
}

impl Normalized {
    pub(crate) fn any(self) -> bool {
        self.decoded || self.uppercased
    }
}

/// `decode-unreserved` (when `decode`) and `uppercase-percent` (when
/// `upper`) in one pass. Writes the result into `out` only when something
/// changes.
///
/// Decoding an unreserved character can never change how the URL parses:
/// none of them is a delimiter or in a percent-encode set, and the parser has
/// already removed `%2e` dot segments.
pub(crate) fn normalize(input: &[u8], decode: bool, upper: bool, out: &mut Vec<u8>) -> Normalized {
    let mut done = Normalized::default();
    let Some(first) = memchr(b'%', input) else {
        return done;
    };
    let start_len = out.len();
    out.extend_from_slice(&input[..first]);
    let mut i = first;
    while i < input.len() {
        let Some(next) = memchr(b'%', &input[i..]) else {
            out.extend_from_slice(&input[i..]);
            break;
        };
        out.extend_from_slice(&input[i..i + next]);
        i += next;
        match escape_at(input, i) {
            Some(v)
                if decode
                    && is_unreserved(v)
                    && !makes_escape(&out[start_len..], v, input.get(i + 3)) =>
            {
                out.push(v);
                done.decoded = true;
            }
            Some(_) => {
                let (h, l) = (input[i + 1], input[i + 2]);
                if upper && (h.is_ascii_lowercase() || l.is_ascii_lowercase()) {
                    done.uppercased = true;
                    out.extend_from_slice(&[b'%', h.to_ascii_uppercase(), l.to_ascii_uppercase()]);
                } else {
                    out.extend_from_slice(&input[i..i + 3]);
                }
            }
            None => {
                out.push(b'%');
                i += 1;
                continue;
            }
        }
        i += 3;
    }
    if !done.any() {
        out.truncate(start_len);
    }
    done
}

/// Whether [`normalize`] would change `input`: the same walk over the
/// `%`s, without writing. The fast path asks this of a component that has a
/// `%`, most of which (`%20`, `%C3%A9`) are already normalized.
pub(crate) fn normalize_changes(input: &[u8], decode: bool, upper: bool) -> bool {
    if !decode && !upper {
        return false;
    }
    // Every `%`, in order (those inside an escape are hex digits, so this
    // visits the escapes `normalize` would).
    any_percent(
        input,
        #[inline(always)]
        |i| {
            let Some(v) = escape_at(input, i) else {
                return false;
            };
            // Up to the first change the output is the input, so the input
            // before `i` is what `makes_escape` must look at.
            (decode && is_unreserved(v) && !makes_escape(&input[..i], v, input.get(i + 3)))
                || (upper
                    && (input[i + 1].is_ascii_lowercase() || input[i + 2].is_ascii_lowercase()))
        },
    )
}

/// Whether `found` holds at some position of a `%` in `input`, asked
/// position by position, in order, until it does. With SSE2, 16 bytes a
/// load and the positions from the load's mask: queries and paths with a
/// `%` often have a dozen (`%20`, `%3A`...), and a `memchr` call for each
/// costs more in setting up than in scanning (docs/performance-history.md).
#[inline]
fn any_percent(input: &[u8], mut found: impl FnMut(usize) -> bool) -> bool {
    if normurl_url::simd::VECTORS && input.len() >= 16 {
        return normurl_url::simd::find_in_windows(input, 0, [b'%'], |base, [mut mask]| {
            while mask != 0 {
                if found(base + mask.trailing_zeros() as usize) {
                    return Some(());
                }
                mask &= mask - 1;
            }
            None
        })
        .is_some();
    }
    let mut i = 0;
    while let Some(next) = memchr(b'%', &input[i..]) {
        if found(i + next) {
            return true;
        }
        i += next + 1;
    }
    false
}

/// Percent-decodes `input` until no percent-encoded byte is left (Safe
/// Browsing: "repeatedly percent-unescape the URL until it has no more
/// percent-escapes"), writing the result to `out` (cleared first).
///
/// In one pass, not one pass per level: decoding `%25` can complete an
/// escape only to its left (`%25` `41` gives `%41`), so whenever the end of
/// the output becomes an escape it is decoded on the spot. Two escapes
/// never overlap (a hex digit is not `%`), so the order in which they are
/// decoded does not change the fixed point, and this gives the same result
/// as decoding the whole text again and again (the reference in the tests),
/// in linear time instead of quadratic: `%252525…41` with a million `25`s
/// would otherwise take a million passes.
pub(crate) fn unescape_repeatedly(input: &[u8], out: &mut Vec<u8>) {
    out.clear();
    let mut i = 0;
    while let Some(next) = memchr(b'%', &input[i..]) {
        out.extend_from_slice(&input[i..i + next]);
        i += next;
        // `input[i]` is a `%`: push it, and the bytes after it one by one
        // while the tail may still become an escape.
        out.push(b'%');
        i += 1;
        while i < input.len() && input[i] != b'%' && out_may_complete(out) {
            out.push(input[i]);
            i += 1;
            reduce_tail(out);
        }
    }
    out.extend_from_slice(&input[i..]);
}

/// Whether the output ends in `%` or `%H` (H a hex digit): one that more
/// bytes could turn into an escape.
#[inline]
fn out_may_complete(out: &[u8]) -> bool {
    match out {
        [.., b'%'] => true,
        [.., b'%', h] => h.is_ascii_hexdigit(),
        _ => false,
    }
}

/// Decodes the escape at the end of `out`, and the one that decoding
/// completes, and so on.
#[inline]
fn reduce_tail(out: &mut Vec<u8>) {
    while let [.., b'%', h, l] = out[..] {
        let (Some(h), Some(l)) = (hex_value(h), hex_value(l)) else {
            return;
        };
        out.truncate(out.len() - 3);
        out.push(h << 4 | l);
    }
}

/// Appends `input` to `out`, percent-encoding the bytes in `set`, with
/// uppercase hex digits, or lowercase ones when `lower` (for components the
/// lowercase rules will lowercase anyway: encoding them lowercase right away
/// keeps a second canonicalization from reporting a change it undoes).
pub(crate) fn encode(input: &[u8], set: &EncodeSet, lower: bool, out: &mut Vec<u8>) {
    let hex: &[u8; 16] = if lower {
        b"0123456789abcdef"
    } else {
        b"0123456789ABCDEF"
    };
    let mut start = 0;
    for (i, &b) in input.iter().enumerate() {
        if set.contains(b) {
            out.extend_from_slice(&input[start..i]);
            out.extend_from_slice(&[b'%', hex[(b >> 4) as usize], hex[(b & 15) as usize]]);
            start = i + 1;
        }
    }
    out.extend_from_slice(&input[start..]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn norm(input: &str, decode: bool, upper: bool) -> String {
        let mut out = Vec::new();
        let done = normalize(input.as_bytes(), decode, upper, &mut out);
        if done.any() {
            String::from_utf8(out).unwrap()
        } else {
            assert!(out.is_empty());
            input.to_owned()
        }
    }

    fn unescape(input: &str) -> Vec<u8> {
        let mut out = Vec::new();
        unescape_repeatedly(input.as_bytes(), &mut out);
        out
    }

    /// Naive reference for [`unescape_repeatedly`]: whole passes of
    /// decoding until one changes nothing (quadratic on nested escapes).
    fn naive_unescape(input: &[u8]) -> Vec<u8> {
        let mut text = input.to_vec();
        loop {
            let mut next = Vec::new();
            let mut i = 0;
            while i < text.len() {
                if let Some(v) = escape_at(&text, i) {
                    next.push(v);
                    i += 3;
                } else {
                    next.push(text[i]);
                    i += 1;
                }
            }
            if next == text {
                return text;
            }
            text = next;
        }
    }

    /// Naive reference: look at every `%` with two hex digits.
    fn naive_normalize(input: &[u8], decode: bool, upper: bool) -> Vec<u8> {
        let mut out = Vec::new();
        let mut i = 0;
        while i < input.len() {
            if let Some(v) = escape_at(input, i) {
                // `%%` + `%30` + `0`: the second `%` is bare too.
                let after_bare_percent = |out: &[u8]| match out {
                    [.., b'%', h] if h.is_ascii_hexdigit() => true,
                    [.., b'%'] => input.get(i + 3).is_some_and(u8::is_ascii_hexdigit),
                    _ => false,
                };
                if decode
                    && is_unreserved(v)
                    && !(v.is_ascii_hexdigit() && after_bare_percent(&out))
                {
                    out.push(v);
                } else if upper {
                    out.extend_from_slice(format!("%{v:02X}").as_bytes());
                } else {
                    out.extend_from_slice(&input[i..i + 3]);
                }
                i += 3;
            } else {
                out.push(input[i]);
                i += 1;
            }
        }
        out
    }

    #[test]
    fn decode_and_uppercase() {
        assert_eq!(norm("/a%41%7e%2F%2f%zz%", true, true), "/aA~%2F%2F%zz%");
        assert_eq!(norm("/a%41%7e%2f", true, false), "/aA~%2f");
        assert_eq!(norm("/a%41%7e%2f", false, true), "/a%41%7E%2F");
        assert_eq!(norm("/plain", true, true), "/plain");
        assert_eq!(norm("%2", true, true), "%2");
    }

    #[test]
    fn decoding_never_makes_an_escape() {
        assert_eq!(norm("/%7%30", true, true), "/%7%30");
        // A bare `%` before a bare `%`: `%%` + `0` + `0` would be `%00`.
        assert_eq!(norm("%%%300", true, false), "%%%300");
        assert_eq!(norm("/%%34%31", true, true), "/%4%31");
        assert_eq!(norm("/%%34A", true, true), "/%%34A");
        assert_eq!(norm("/%%34%41", true, true), "/%4%41");
        assert_eq!(norm("/%%34x", true, true), "/%4x");
        assert_eq!(norm("/%7%7e", true, true), "/%7~");
        assert_eq!(norm("/%7%3a", true, true), "/%7%3A");
    }

    #[test]
    fn unescape_examples_from_safe_browsing_and_webarchive_commons() {
        // BasicURLCanonicalizerTest.testUnescapeRepeatedly
        let cases: [(&str, &[u8]); 8] = [
            ("%!A%21%21%25", b"%!A!!%"),
            ("%", b"%"),
            ("%2", b"%2"),
            ("%25", b"%"),
            ("%25%", b"%%"),
            ("%2525", b"%"),
            ("%252525", b"%"),
            ("%25%32%35", b"%"),
        ];
        for (input, expected) in cases {
            assert_eq!(unescape(input), expected, "{input}");
        }
        assert_eq!(
            unescape("%31%36%38%2e%31%38%38%2e%39%39%2e%32%36"),
            b"168.188.99.26"
        );
        // Nested a hundred thousand levels deep: one pass, not 100,000.
        let nested = format!("/%{}41%2", "25".repeat(100_000));
        assert_eq!(unescape(&nested), b"/A%2");
        assert_eq!(unescape("%%414%g"), b"\xA4%g");
    }

    #[test]
    fn encode_escapes_percent_and_delimiters() {
        let mut out = Vec::new();
        encode(b"a b#%?\\^\x7f\xe2", &PATH_MINIMAL, false, &mut out);
        assert_eq!(out, b"a%20b%23%25%3F%5C%5E%7F%E2");
    }

    proptest! {
        #[test]
        fn normalize_matches_naive(input in "[%a-fA-F0-9/~.xz]{0,24}", decode: bool, upper: bool) {
            let expected = naive_normalize(input.as_bytes(), decode, upper);
            let got = norm(&input, decode, upper);
            prop_assert_eq!(got.as_bytes(), &expected[..]);
        }

        #[test]
        fn normalize_is_idempotent(input in "[%a-fA-F0-9/~.xz]{0,24}", decode: bool, upper: bool) {
            let once = norm(&input, decode, upper);
            prop_assert_eq!(norm(&once, decode, upper), once);
        }

        #[test]
        fn normalize_changes_matches_normalize(input in "[%a-fA-F0-9/~.xz]{0,56}", decode: bool, upper: bool) {
            let mut out = Vec::new();
            let done = normalize(input.as_bytes(), decode, upper, &mut out);
            prop_assert_eq!(normalize_changes(input.as_bytes(), decode, upper), done.any());
        }

        #[test]
        fn unescape_matches_naive(input in "[%25a-fA-F0-9x]{0,40}") {
            prop_assert_eq!(unescape(&input), naive_unescape(input.as_bytes()));
        }

        #[test]
        fn unescaped_then_encoded_is_a_fixpoint(input in proptest::collection::vec(any::<u8>(), 0..32)) {
            // decode(encode(s)) == s when the set contains '%', so a second
            // unescape + encode round changes nothing: what makes the
            // unescape rules idempotent.
            let mut once = Vec::new();
            unescape_repeatedly(&input, &mut once);
            let mut encoded = Vec::new();
            encode(&once, &PATH_MINIMAL, false, &mut encoded);
            let mut twice = Vec::new();
            unescape_repeatedly(&encoded, &mut twice);
            prop_assert_eq!(&twice, &once);
        }
    }
}
