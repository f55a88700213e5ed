//! The [`application/x-www-form-urlencoded`](https://url.spec.whatwg.org/#application/x-www-form-urlencoded)
//! parser and serializer, for [`SearchParams`](super::SearchParams).

use std::fmt;

use super::percent::{percent_decode, AsciiSet};

/// The [urlencoded string parser](https://url.spec.whatwg.org/#concept-urlencoded-string-parser):
/// the [urlencoded parser](https://url.spec.whatwg.org/#concept-urlencoded-parser)
/// on the UTF-8 encoding of `input`, appending its name-value tuples to
/// `list`.
pub fn parse(input: &str, list: &mut Vec<(String, String)>) {
    // "Let sequences be the result of splitting input on 0x26 (&)."
    for bytes in input.as_bytes().split(|&b| b == b'&') {
        // "If bytes is the empty byte sequence, then continue."
        if bytes.is_empty() {
            continue;
        }
        // The first `=` separates the name from the value, if there is one.
        let (name, value) = match memchr::memchr(b'=', bytes) {
            Some(i) => (&bytes[..i], &bytes[i + 1..]),
            None => (bytes, &b""[..]),
        };
        list.push((decode(name), decode(value)));
    }
}

/// `+` replaced with a space, then percent-decoded and
/// [UTF-8 decoded without BOM](https://encoding.spec.whatwg.org/#utf-8-decode-without-bom):
/// invalid sequences become U+FFFD (Rust's lossy decoding replaces maximal
/// subparts, as the Encoding Standard's decoder does).
fn decode(bytes: &[u8]) -> String {
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut start = 0;
    // percent_decode over the runs between `+`s: a `+` is never part of a
    // `%XX` sequence, so splitting there changes nothing else.
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'+' {
            percent_decode(&bytes[start..i], &mut decoded);
            decoded.push(b' ');
            start = i + 1;
        }
    }
    percent_decode(&bytes[start..], &mut decoded);
    match String::from_utf8(decoded) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    }
}

/// Writes `s` percent-encoded with the
/// [`application/x-www-form-urlencoded` percent-encode set](https://url.spec.whatwg.org/#application-x-www-form-urlencoded-percent-encode-set),
/// a space as `+` (*spaceAsPlus*), as the
/// [urlencoded serializer](https://url.spec.whatwg.org/#concept-urlencoded-serializer)
/// does for each name and value (UTF-8, the only encoding here).
pub fn write_encoded(s: &str, f: &mut impl fmt::Write) -> fmt::Result {
    let bytes = s.as_bytes();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if AsciiSet::FORM_URLENCODED.contains(b) {
            // The set holds every non-ASCII byte, so a non-empty run
            // `start..i` is ASCII and both ends are char boundaries. (An
            // empty one may start inside a character: not sliced.)
            if start < i {
                f.write_str(&s[start..i])?;
            }
            if b == b' ' {
                f.write_char('+')?;
            } else {
                const HEX: &[u8; 16] = b"0123456789ABCDEF";
                f.write_char('%')?;
                f.write_char(HEX[(b >> 4) as usize] as char)?;
                f.write_char(HEX[(b & 15) as usize] as char)?;
            }
            start = i + 1;
        }
    }
    f.write_str(&s[start..])
}

/// The [urlencoded serializer](https://url.spec.whatwg.org/#concept-urlencoded-serializer)
/// of `list`: `name=value` pairs joined by `&`.
pub fn serialize<'a>(
    list: impl IntoIterator<Item = (&'a str, &'a str)>,
    f: &mut impl fmt::Write,
) -> fmt::Result {
    for (i, (name, value)) in list.into_iter().enumerate() {
        if i > 0 {
            f.write_char('&')?;
        }
        write_encoded(name, f)?;
        f.write_char('=')?;
        write_encoded(value, f)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(input: &str) -> Vec<(String, String)> {
        let mut list = Vec::new();
        parse(input, &mut list);
        list
    }

    #[test]
    fn parses_pairs() {
        let pair = |n: &str, v: &str| (n.to_owned(), v.to_owned());
        assert_eq!(
            parsed("a=1&&b&=c&d=e=f"),
            vec![
                pair("a", "1"),
                pair("b", ""),
                pair("", "c"),
                pair("d", "e=f")
            ]
        );
        assert_eq!(parsed("a+b=%2B%zz+%C3"), vec![pair("a b", "+%zz \u{FFFD}")]);
    }

    #[test]
    fn serializes() {
        let mut out = String::new();
        serialize([("a b", "~*-._!'()"), ("é", "&=+%")], &mut out).unwrap();
        assert_eq!(out, "a+b=%7E*-._%21%27%28%29&%C3%A9=%26%3D%2B%25");
    }
}
