//! `form-encode-query`: w3lib's query rule. `canonicalize_url` parses the
//! query with `parse_qsl_to_bytes` (a `+` is a space, each `%XX` decoded
//! once) and writes it again with `urlencode` (`quote_plus`), so that a
//! query is always in one spelling: `a=x%20y`, `a=x+y` and `a=x y` are one
//! key, as are `c` and `c=`.

use super::percent::escape_at;

/// Whether `quote_plus` leaves `b` as it is (Python's `_ALWAYS_SAFE`).
fn always_safe(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-' | b'~')
}

/// Appends the form-decoding of `raw` (`+` as a space, each `%XX` once)
/// re-encoded as `quote_plus` does, with the hex digits in `hex`.
fn reencode(raw: &[u8], hex: &[u8; 16], out: &mut Vec<u8>) {
    let mut i = 0;
    while i < raw.len() {
        let (b, len) = match raw[i] {
            b'+' => (b' ', 1),
            b'%' => escape_at(raw, i).map_or((b'%', 1), |v| (v, 3)),
            b => (b, 1),
        };
        i += len;
        if always_safe(b) {
            out.push(b);
        } else if b == b' ' {
            out.push(b'+');
        } else {
            out.extend_from_slice(&[b'%', hex[(b >> 4) as usize], hex[(b & 15) as usize]]);
        }
    }
}

/// Each `&`-separated parameter of `query` as `urlencode` writes it:
/// name, `=`, value, each re-encoded by [`reencode`]. Empty pieces stay
/// empty (`drop-empty-params` drops them, as `parse_qsl` does). The output
/// has only letters, digits, `-._~`, `+`, `%XX`, `=` and `&`, so it
/// decodes and re-encodes to itself. The hex digits are lowercase when
/// `lower` (for `lowercase-query`, which would lowercase them anyway, and
/// a second run would then report a change it undoes).
pub(crate) fn form_encode(query: &[u8], lower: bool, out: &mut Vec<u8>) -> bool {
    let hex = if lower {
        b"0123456789abcdef"
    } else {
        b"0123456789ABCDEF"
    };
    let start = out.len();
    for (n, piece) in query.split(|&b| b == b'&').enumerate() {
        if n > 0 {
            out.push(b'&');
        }
        if piece.is_empty() {
            continue;
        }
        let (name, value) = match memchr::memchr(b'=', piece) {
            Some(eq) => (&piece[..eq], &piece[eq + 1..]),
            None => (piece, &b""[..]),
        };
        reencode(name, hex, out);
        out.push(b'=');
        reencode(value, hex, out);
    }
    out[start..] != *query
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encode(query: &str) -> String {
        let mut out = Vec::new();
        let changed = form_encode(query.as_bytes(), false, &mut out);
        let out = String::from_utf8(out).unwrap();
        assert_eq!(changed, out != query, "{query}");
        out
    }

    /// w3lib's test_url.py cases (`canonicalize_url`), the query part.
    #[test]
    fn reencodes_as_urlencode_does() {
        assert_eq!(encode("1750,4"), "1750%2C4=");
        assert_eq!(encode("b=&c&a=2"), "b=&c=&a=2");
        assert_eq!(encode("price(%C2%A3)=500&a=1"), "price%28%C2%A3%29=500&a=1");
        assert_eq!(encode("q=a%20space&a=1"), "q=a+space&a=1");
        assert_eq!(encode("q=a+b%2Bc"), "q=a+b%2Bc");
        assert_eq!(encode("a=b=c&&x=%e9%zz"), "a=b%3Dc&&x=%E9%25zz");
        assert_eq!(encode("a=1&b=2"), "a=1&b=2");
        assert_eq!(encode(""), "");
        let mut out = Vec::new();
        assert!(form_encode(b"a=%2F(", true, &mut out));
        assert_eq!(out, b"a=%2f%28");
    }

    proptest::proptest! {
        #[test]
        fn is_idempotent(query in "[a-c=&+%2-4 ,~]{0,24}") {
            let once = encode(&query);
            proptest::prop_assert_eq!(encode(&once), once);
        }
    }
}
