//! `decode-uri-path`: normalize-url's path decoding. normalize-url
//! (index.js, "Decode URI octets") runs `urlObject.pathname =
//! decodeURI(urlObject.pathname).replace(/\\/g, '%5C')` in a `try` whose
//! `catch` keeps the path: JavaScript's `decodeURI` decodes every escape
//! (a UTF-8 sequence for non-ASCII) except those of its reserved set
//! `; / ? : @ & = + $ , #`, which stay as written, and throws on a
//! malformed one (a `%` without two hex digits, bytes that are not UTF-8),
//! so that nothing is decoded then. The pathname setter parses the result
//! again (url.bs "path state" with a state override): it percent-encodes
//! what the path percent-encode set has and non-ASCII, with uppercase hex.
//!
//! One difference, for idempotence: `%25` stays. normalize-url decodes it
//! to `%`, and `%2541` becomes `%41`, which its second run decodes to `A`.

use super::percent::escape_at;
use normurl_url::AsciiSet;

/// Whether `decodeURI` keeps the escape of `b` as written (its
/// `reservedURISet` and `#`), or it is the `%` this rule keeps.
fn kept(b: u8) -> bool {
    matches!(
        b,
        b';' | b'/' | b'?' | b':' | b'@' | b'&' | b'=' | b'+' | b'$' | b',' | b'#' | b'%'
    )
}

/// The length in bytes of the UTF-8 sequence whose escaped form starts at
/// `i` of `path`, or `None` where `decodeURI` throws (a malformed escape,
/// a lead byte without its continuation escapes, bytes that are not UTF-8).
fn sequence_at(path: &[u8], i: usize) -> Option<usize> {
    let lead = escape_at(path, i)?;
    let len = match lead.leading_ones() {
        0 => return Some(1),
        2..=4 => lead.leading_ones() as usize,
        _ => return None,
    };
    let mut bytes = [lead, 0, 0, 0];
    for (n, byte) in bytes.iter_mut().enumerate().take(len).skip(1) {
        *byte = escape_at(path, i + 3 * n)?;
    }
    std::str::from_utf8(&bytes[..len]).ok()?;
    Some(len)
}

/// Writes `path` decoded as normalize-url does into `out` and returns
/// whether that changed it (on false the caller keeps `path`, as when
/// `decodeURI` would throw). Hex digits it writes are lowercase when
/// `lower` (for `lowercase-path`, which would lowercase them anyway).
pub(crate) fn decode(path: &[u8], lower: bool, out: &mut Vec<u8>) -> bool {
    if memchr::memchr(b'%', path).is_none() || !decodes(path) {
        return false;
    }
    let hex: &[u8; 16] = if lower {
        b"0123456789abcdef"
    } else {
        b"0123456789ABCDEF"
    };
    let start = out.len();
    let mut i = 0;
    while i < path.len() {
        let Some(len) = sequence_at(path, i) else {
            out.push(path[i]);
            i += 1;
            continue;
        };
        for n in 0..len {
            let b = escape_at(path, i + 3 * n).unwrap_or(b'%');
            if len == 1 && kept(b) {
                out.extend_from_slice(&path[i..i + 3]);
            } else if b >= 0x80 || b == b'\\' || AsciiSet::PATH.contains(b) {
                out.extend_from_slice(&[b'%', hex[(b >> 4) as usize], hex[(b & 15) as usize]]);
            } else {
                out.push(b);
            }
        }
        i += 3 * len;
    }
    out[start..] != *path
}

/// Whether `decodeURI` decodes `path` without throwing: every `%` starts
/// an escape, and every escaped sequence is UTF-8.
fn decodes(path: &[u8]) -> bool {
    let mut i = 0;
    while let Some(next) = memchr::memchr(b'%', &path[i..]) {
        i += next;
        match sequence_at(path, i) {
            Some(len) => i += 3 * len,
            None => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(path: &str, lower: bool) -> String {
        let mut out = Vec::new();
        let changed = decode(path.as_bytes(), lower, &mut out);
        let out = if changed {
            String::from_utf8(out).unwrap()
        } else {
            path.to_owned()
        };
        assert_eq!(changed, out != path, "{path}");
        out
    }

    /// normalize-url's test.js ("encoded backslashes do not get decoded")
    /// and what `decodeURI` and the pathname setter give.
    #[test]
    fn decodes_as_decode_uri_and_the_setter() {
        let cases = [
            (
                "/some%5Bthing%5Celse/that-is%40great@coding",
                "/some[thing%5Celse/that-is%40great@coding",
            ),
            ("/something%5celse/great", "/something%5Celse/great"),
            ("/%3b%2F%3F%23%25%41%7e", "/%3b%2F%3F%23%25A~"),
            ("/%c3%a9%20%3c%5E%7b", "/%C3%A9%20%3C%5E%7B"),
            ("/%F0%9F%98%80", "/%F0%9F%98%80"),
            ("/a%2E%2E%2Eb", "/a...b"),
            // decodeURI throws: nothing is decoded.
            ("/%41/%zz", "/%41/%zz"),
            ("/%41/100%", "/%41/100%"),
            ("/%41/%C3", "/%41/%C3"),
            ("/%41/%C3%41", "/%41/%C3%41"),
            ("/%41/%ED%A0%80", "/%41/%ED%A0%80"),
            ("/%41/%80", "/%41/%80"),
            ("/a", "/a"),
        ];
        for (path, expected) in cases {
            assert_eq!(run(path, false), expected, "{path}");
        }
        assert_eq!(run("/%c3%a9%5b", true), "/%c3%a9[");
    }

    proptest::proptest! {
        #[test]
        fn is_idempotent(path in "/[%a-fA-F0-9/;\\\\2-57Ec]{0,24}", lower: bool) {
            let once = run(&path, lower);
            proptest::prop_assert_eq!(run(&once, lower), once);
        }
    }
}
