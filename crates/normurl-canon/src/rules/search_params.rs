//! `url-search-params`: the query as normalize-url leaves it. Its default
//! `sortQueryParameters` calls `URLSearchParams.sort()`, which parses the
//! query as application/x-www-form-urlencoded and writes it again with the
//! form serializer (url.bs, "URLSearchParams update steps"): empty pieces
//! gone, every parameter `name=value`. It then sets the query to
//! `decodeURIComponent` of that, which decodes every escape the serializer
//! wrote, and the URL's query setter encodes again what a query must have
//! encoded. So `?q=a%20b&x` becomes `?q=a+b&x=` and `%2F` becomes `/`.
//!
//! Four escapes stay as they are, where normalize-url decodes them and so
//! changes the parameters (and its own output is not its own fixed point):
//! `%26` (`&`, which would split a parameter), `%2B` (`+`, which would then
//! read as a space), `%25` (`%`, which could start an escape) and, in
//! names, `%3D` (`=`, which would move the name's end).

use super::percent::escape_at;
use crate::form::{self, push_utf8_lossy};

const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// Appends each `&`-separated piece of `query` as `name=value` (empty
/// pieces stay empty: `drop-empty-params` drops them, as the form parser
/// does), decoded and re-encoded as the module says, using `decoded` and
/// `text` as scratch space. `special`: the URL's scheme is special, whose
/// query setter also encodes `'`. Returns whether the query changed.
pub(crate) fn reserialize(
    query: &[u8],
    special: bool,
    decoded: &mut Vec<u8>,
    text: &mut Vec<u8>,
    out: &mut Vec<u8>,
) -> bool {
    let start = out.len();
    for (n, piece) in form::pieces(query).enumerate() {
        if n > 0 {
            out.push(b'&');
        }
        if piece.is_empty() {
            continue;
        }
        let value = piece.value(query).unwrap_or(b"");
        component(piece.name(query), true, special, decoded, text, out);
        out.push(b'=');
        component(value, false, special, decoded, text, out);
    }
    out[start..] != *query
}

/// One name (`name`) or value, decoded and re-encoded.
fn component(
    raw: &[u8],
    name: bool,
    special: bool,
    decoded: &mut Vec<u8>,
    text: &mut Vec<u8>,
    out: &mut Vec<u8>,
) {
    // Form-decode (`+` is a space), keeping the escapes that must stay as
    // three ASCII bytes, which the UTF-8 decode leaves alone.
    decoded.clear();
    let mut i = 0;
    while i < raw.len() {
        match (raw[i], escape_at(raw, i)) {
            (b'%', Some(v)) => {
                if kept(v, name) {
                    decoded.extend_from_slice(&[
                        b'%',
                        HEX[usize::from(v >> 4)],
                        HEX[usize::from(v & 15)],
                    ]);
                } else {
                    decoded.push(v);
                }
                i += 3;
            }
            (b'+', _) => {
                decoded.push(b' ');
                i += 1;
            }
            (b, _) => {
                decoded.push(b);
                i += 1;
            }
        }
    }
    // The parser decodes names and values as UTF-8 (invalid bytes become
    // U+FFFD), which the serializer and the setter encode again.
    text.clear();
    push_utf8_lossy(decoded, text);
    for (j, &b) in text.iter().enumerate() {
        if b == b' ' {
            out.push(b'+');
        } else if must_encode(b, special) || (b == b'%' && bare_would_escape(text, j)) {
            out.extend_from_slice(&[b'%', HEX[usize::from(b >> 4)], HEX[usize::from(b & 15)]]);
        } else {
            out.push(b);
        }
    }
}

/// The escapes kept encoded (see the module).
fn kept(v: u8, name: bool) -> bool {
    matches!(v, b'%' | b'&' | b'+') || (name && v == b'=')
}

/// The query setter's encode set: the query percent-encode set, and `'`
/// in special URLs.
fn must_encode(b: u8, special: bool) -> bool {
    !(0x21..=0x7E).contains(&b) || matches!(b, b'"' | b'#' | b'<' | b'>') || (special && b == b'\'')
}

/// Whether the `%` at `text[at]` is a bare one (not the start of a kept
/// escape, which `text` holds in uppercase hex) that the decoded bytes
/// after it would make an escape of: `%%34%31` decodes to `%41`, which a
/// second run would read as `A`; it is written `%2541`.
fn bare_would_escape(text: &[u8], at: usize) -> bool {
    let Some(v) = escape_at(text, at) else {
        return false;
    };
    // A kept escape was written in uppercase hex and is one of these.
    let kept_form = text[at + 1..at + 3].iter().all(|b| !b.is_ascii_lowercase())
        && matches!(v, b'%' | b'&' | b'+' | b'=');
    !kept_form
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(query: &str) -> String {
        let (mut decoded, mut text, mut out) = (Vec::new(), Vec::new(), Vec::new());
        let changed = reserialize(query.as_bytes(), true, &mut decoded, &mut text, &mut out);
        let out = String::from_utf8(out).unwrap();
        assert_eq!(changed, out != query, "{query}");
        out
    }

    /// normalize-url 8.0.2's answers (node), the query part.
    #[test]
    fn writes_the_query_as_normalize_url() {
        assert_eq!(run("r"), "r=");
        assert_eq!(run("E&amp;game/e.htm"), "E=&amp;game/e.htm=");
        assert_eq!(
            run("template=Node.js%20upstream%20bug"),
            "template=Node.js+upstream+bug"
        );
        assert_eq!(run("a=%5Cp%7BW%3DF%7D"), "a=\\p{W=F}");
        assert_eq!(run("rref=collection%2Fcolumn"), "rref=collection/column");
        assert_eq!(run("foo=bar baz"), "foo=bar+baz");
        assert_eq!(run("q=%C3%A9%E9"), "q=%C3%A9%EF%BF%BD");
        assert_eq!(run("q=%22%27%23%3C"), "q=%22%27%23%3C");
        assert_eq!(run("a=1&&b=2"), "a=1&&b=2");
        assert_eq!(run("a=1&b=2"), "a=1&b=2");
        assert_eq!(run("q=%zz"), "q=%zz");
    }

    /// Where normalize-url changes the parameters, they stay.
    #[test]
    fn keeps_the_escapes_that_delimit() {
        assert_eq!(run("a=%26b"), "a=%26b");
        assert_eq!(run("a=%2Bb+c"), "a=%2Bb+c");
        assert_eq!(run("a=%2541"), "a=%2541");
        assert_eq!(run("a%3Db=%3D"), "a%3Db==");
        assert_eq!(run("a=%%34%31"), "a=%2541");
        assert_eq!(run("a=%2b"), "a=%2B");
    }

    proptest::proptest! {
        #[test]
        fn is_idempotent(query in "[a-c=&+%2-4 ,~'#fF]{0,24}") {
            let once = run(&query);
            proptest::prop_assert_eq!(run(&once), once);
        }
    }
}
