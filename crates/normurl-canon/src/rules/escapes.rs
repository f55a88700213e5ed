//! Percent-encoding rules that other canonicalizers apply and that
//! their profiles turn on: `decode-path-reserved` (w3lib decodes every
//! character its path may hold raw), `encode-bare-percent` (urlcanon
//! writes a `%` that starts no escape as `%25`), `encode-hash-space`
//! (urlcanon's encode sets have `#` and the space, which the URL
//! Standard's fragment and opaque-path sets leave raw) and, for
//! `encode-value-equals`, whether a query value has an `=`.
//!
//! As in `percent.rs`, each function writes into a caller buffer and
//! reports whether it changed anything; on `false` the caller keeps the
//! input.

use memchr::memchr;

use super::percent::{escape_at, is_unreserved, makes_escape};
use normurl_url::percent::push_percent_encoded;

/// Whether w3lib leaves `b` decoded in a path: `quote(path, _path_safe_chars)`
/// keeps RFC 3986's reserved and unreserved characters and `|`, but `#`;
/// `_unquotepath` never decodes `%2F` and `%3F`. `%` is not decoded either
/// (w3lib does, and `%2541` then becomes `%41`, which a second run decodes
/// to `A`: not idempotent).
fn path_keeps_raw(b: u8) -> bool {
    is_unreserved(b)
        || matches!(
            b,
            b':' | b'@'
                | b'!'
                | b'$'
                | b'&'
                | b'\''
                | b'('
                | b')'
                | b'*'
                | b'+'
                | b','
                | b';'
                | b'='
                | b'['
                | b']'
                | b'|'
        )
}

/// `decode-path-reserved`: decodes the `%XX` of the characters
/// [`path_keeps_raw`] allows. None of them is in a percent-encode set of
/// the URL Standard's path states (`\` is not decoded: a special URL's
/// parser reads it as `/`), so the output parses to itself; a decoded hex
/// digit that would complete a new escape after a bare `%` stays encoded,
/// as in `decode-unreserved`.
pub(crate) fn decode_path_reserved(path: &[u8], out: &mut Vec<u8>) -> bool {
    let Some(first) = memchr(b'%', path) else {
        return false;
    };
    let start = out.len();
    out.extend_from_slice(&path[..first]);
    let mut changed = false;
    let mut i = first;
    while i < path.len() {
        match escape_at(path, i) {
            Some(v) if path_keeps_raw(v) && !makes_escape(&out[start..], v, path.get(i + 3)) => {
                out.push(v);
                changed = true;
                i += 3;
            }
            Some(_) => {
                out.extend_from_slice(&path[i..i + 3]);
                i += 3;
            }
            None => {
                out.push(path[i]);
                i += 1;
            }
        }
    }
    changed
}

/// `encode-bare-percent`: each `%` not followed by two hex digits becomes
/// `%25` (urlcanon's `pct_encode` re-encodes every component so). The URL
/// parser keeps such a `%` (url.bs, percent-encode sets never contain
/// `%`), so without this rule `a%zz` and `a%25zz` stay two keys.
pub(crate) fn encode_bare_percent(input: &[u8], out: &mut Vec<u8>) -> bool {
    let mut changed = false;
    let mut copied = 0;
    let mut i = 0;
    while let Some(next) = memchr(b'%', &input[i..]) {
        i += next;
        if escape_at(input, i).is_none() {
            out.extend_from_slice(&input[copied..=i]);
            out.extend_from_slice(b"25");
            copied = i + 1;
            changed = true;
        }
        i += 1;
    }
    out.extend_from_slice(&input[copied..]);
    changed
}

/// `encode-hash-space` on a fragment: each `#` becomes `%23`. urlcanon
/// encodes the fragment with Safe Browsing's set, which has `#`; the
/// fragment percent-encode set has not (url.bs "fragment state"), so the
/// parser keeps a `#` and keeps a `%23`: the output parses to itself.
pub(crate) fn encode_fragment_hashes(fragment: &[u8], out: &mut Vec<u8>) -> bool {
    encode_byte(fragment, b'#', out)
}

/// `encode-hash-space` on an opaque path: each space becomes `%20`.
/// urlcanon's path set has the space; the URL Standard's opaque path
/// state uses the C0 control percent-encode set, which has not (it writes
/// `%20` only for a space right before `?` or `#`, url.bs "opaque path
/// state"), and keeps a `%20`: the output parses to itself.
pub(crate) fn encode_opaque_spaces(path: &[u8], out: &mut Vec<u8>) -> bool {
    encode_byte(path, b' ', out)
}

/// Writes `input` with each `byte` percent-encoded into `out`, or returns
/// false when it has none.
fn encode_byte(input: &[u8], byte: u8, out: &mut Vec<u8>) -> bool {
    let mut start = 0;
    for at in memchr::memchr_iter(byte, input) {
        out.extend_from_slice(&input[start..at]);
        push_percent_encoded(byte, out);
        start = at + 1;
    }
    if start == 0 {
        return false;
    }
    out.extend_from_slice(&input[start..]);
    true
}

/// Whether a `&`-separated parameter of `query` has an `=` in its value
/// (after its first `=`), which `encode-value-equals` writes `%3D`.
pub(crate) fn value_has_equals(query: &[u8]) -> bool {
    // One pass, a byte at a time: queries are short.
    let mut equals = 0u8;
    for &b in query {
        match b {
            b'&' => equals = 0,
            b'=' if equals == 1 => return true,
            b'=' => equals = 1,
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(rule: fn(&[u8], &mut Vec<u8>) -> bool, input: &str) -> String {
        let mut out = Vec::new();
        if rule(input.as_bytes(), &mut out) {
            String::from_utf8(out).unwrap()
        } else {
            input.to_owned()
        }
    }

    #[test]
    fn decodes_what_a_path_holds_raw() {
        let decode = |p| run(decode_path_reserved, p);
        assert_eq!(decode("/a%23b%2cc"), "/a%23b,c");
        assert_eq!(
            decode("/%3A%40%21%24%26%27%28%29%2A%2B%3B%3D%5B%5D%7C"),
            "/:@!$&'()*+;=[]|"
        );
        assert_eq!(decode("/%2F%3F%25%20%5C%C3%A9"), "/%2F%3F%25%20%5C%C3%A9");
        assert_eq!(decode("/%7e%41"), "/~A");
        // `%%34%31` must not become `%41`.
        assert_eq!(decode("/%%34%31"), "/%4%31");
        assert_eq!(decode("/%zz"), "/%zz");
    }

    #[test]
    fn encodes_bare_percents_only() {
        let encode = |p| run(encode_bare_percent, p);
        assert_eq!(encode("%"), "%25");
        assert_eq!(encode("/%/a%1G%NBD"), "/%25/a%251G%25NBD");
        assert_eq!(encode("/%41%e9%"), "/%41%e9%25");
        assert_eq!(encode("/a"), "/a");
        assert_eq!(encode("%25%"), "%25%25");
    }

    #[test]
    fn encodes_hashes_and_spaces() {
        assert_eq!(run(encode_fragment_hashes, "bar#baz#"), "bar%23baz%23");
        assert_eq!(run(encode_fragment_hashes, "bar%23 "), "bar%23 ");
        assert_eq!(run(encode_opaque_spaces, "x x  y"), "x%20x%20%20y");
        assert_eq!(run(encode_opaque_spaces, "x#y"), "x#y");
    }

    #[test]
    fn finds_equals_in_values() {
        assert!(value_has_equals(b"a=1&b=c=d"));
        assert!(value_has_equals(b"==&x"));
        assert!(!value_has_equals(b"a=1&b&c=%3D"));
        assert!(!value_has_equals(b""));
    }

    proptest::proptest! {
        #[test]
        fn both_are_idempotent(input in "[%a-fA-F0-9/,:2cC3]{0,24}") {
            for rule in [decode_path_reserved as fn(&[u8], &mut Vec<u8>) -> bool, encode_bare_percent] {
                let once = run(rule, &input);
                proptest::prop_assert_eq!(run(rule, &once), once.clone());
            }
        }
    }
}
