//! The [`application/x-www-form-urlencoded`](https://url.spec.whatwg.org/#application/x-www-form-urlencoded)
//! parser and serializer, for [`SearchParams`](super::SearchParams), and a
//! walk over a query's pairs ([`for_each_pair`]) that rewrites a query
//! without building a list.

use std::borrow::Cow;
use std::fmt;
use std::ops::ControlFlow;

use super::percent::{percent_decode, AsciiSet};
use super::scratch::Bytes;

/// The [urlencoded string parser](https://url.spec.whatwg.org/#concept-urlencoded-string-parser):
/// the [urlencoded parser](https://url.spec.whatwg.org/#concept-urlencoded-parser)
/// on the UTF-8 encoding of `input`, appending its name-value tuples to
/// `list`.
pub fn parse(input: &str, list: &mut Vec<(String, String)>) {
    for_each_pair(input, |name, value| {
        list.push((name.to_owned(), value.to_owned()));
        ControlFlow::Continue(())
    });
}

/// Calls `f` with each name-value pair of `input` in order, until `f`
/// breaks: the [urlencoded parser](https://url.spec.whatwg.org/#concept-urlencoded-parser)
/// (`+` as a space, then percent-decoded and
/// [UTF-8 decoded without BOM](https://encoding.spec.whatwg.org/#utf-8-decode-without-bom):
/// invalid sequences become U+FFFD, as Rust's lossy decoding replaces
/// maximal subparts like the Encoding Standard's decoder). A name or value with no `+`
/// and no `%` is passed as it is; others are decoded into buffers reused
/// on the thread, so the walk allocates nothing once they have grown
/// (except for percent-encoded bytes that are not UTF-8, which are
/// replaced).
///
/// # Example
///
/// ```
/// use std::ops::ControlFlow;
/// use normurl_url::form_urlencoded::for_each_pair;
///
/// let mut pairs = Vec::new();
/// for_each_pair("a=b+c&&d&%C3%A9=%zz", |name, value| {
///     pairs.push(format!("{name}:{value}"));
///     ControlFlow::Continue(())
/// });
/// assert_eq!(pairs, ["a:b c", "d:", "é:%zz"]);
/// ```
pub fn for_each_pair(input: &str, mut f: impl FnMut(&str, &str) -> ControlFlow<()>) {
    for_each_pair_as_written(input, |_, name, value| f(name, value));
}

/// As [`for_each_pair`], with each pair also as `input` holds it (the run
/// between its `&`s), for a caller that rewrites a query and copies the
/// pairs it keeps ([`append_pair_as_written`]).
///
/// # Example
///
/// ```
/// use std::ops::ControlFlow;
/// use normurl_url::form_urlencoded::{append_pair_as_written, for_each_pair_as_written};
///
/// let mut kept = String::new();
/// for_each_pair_as_written("utm_source=x&q=a+b&id", |written, name, value| {
///     if !name.starts_with("utm_") {
///         append_pair_as_written(&mut kept, written, name, value);
///     }
///     ControlFlow::Continue(())
/// });
/// assert_eq!(kept, "q=a+b&id=");
/// ```
pub fn for_each_pair_as_written(
    input: &str,
    mut f: impl FnMut(&str, &str, &str) -> ControlFlow<()>,
) {
    let (mut name_buffer, mut value_buffer) = (None, None);
    // "Let sequences be the result of splitting input on 0x26 (&)."
    for pair in input.split('&') {
        // "If bytes is the empty byte sequence, then continue."
        if pair.is_empty() {
            continue;
        }
        // The first `=` separates the name from the value, if there is one.
        let (name, value) = match memchr::memchr(b'=', pair.as_bytes()) {
            Some(i) => (&pair[..i], &pair[i + 1..]),
            None => (pair, ""),
        };
        let name = decode_reusing(name, &mut name_buffer);
        let value = decode_reusing(value, &mut value_buffer);
        if f(pair, &name, &value).is_break() {
            return;
        }
    }
}

/// `text` (a run of a `&str` between ASCII delimiters) decoded as
/// [`decode`] does, borrowed when there is nothing to decode, else in
/// `buffer` (taken from the thread's pool on first use).
fn decode_reusing<'a>(text: &'a str, buffer: &'a mut Option<Bytes>) -> Cow<'a, str> {
    if memchr::memchr2(b'+', b'%', text.as_bytes()).is_none() {
        return Cow::Borrowed(text);
    }
    let out = buffer.get_or_insert_with(Bytes::new);
    out.clear();
    decode_into(text.as_bytes(), out);
    String::from_utf8_lossy(&out[..])
}

/// `+` replaced with a space, then percent-decoded, appended to `out`.
fn decode_into(bytes: &[u8], out: &mut Vec<u8>) {
    let mut start = 0;
    // percent_decode over the runs between `+`s: a `+` is never part of a
    // `%XX` sequence, so splitting there changes nothing else.
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'+' {
            percent_decode(&bytes[start..i], out);
            out.push(b' ');
            start = i + 1;
        }
    }
    percent_decode(&bytes[start..], out);
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

/// One step of the [urlencoded serializer](https://url.spec.whatwg.org/#concept-urlencoded-serializer):
/// `name=value`, encoded, appended to `out` after a `&` unless `out` is
/// empty.
///
/// # Example
///
/// ```
/// let mut query = String::new();
/// normurl_url::form_urlencoded::append_pair(&mut query, "q", "a b&c");
/// normurl_url::form_urlencoded::append_pair(&mut query, "é", "");
/// assert_eq!(query, "q=a+b%26c&%C3%A9=");
/// ```
pub fn append_pair(out: &mut String, name: &str, value: &str) {
    if !out.is_empty() {
        out.push('&');
    }
    push_encoded(out, name);
    out.push('=');
    push_encoded(out, value);
}

/// Appends the pair `name=value` to `out` as [`append_pair`] does, where
/// `written` is the pair as a query held it ([`for_each_pair_as_written`]
/// gave the three): `written` is copied when it is already what the
/// urlencoded serializer writes (one `=` and no other byte to encode),
/// which saves encoding `name` and `value` again.
pub fn append_pair_as_written(out: &mut String, written: &str, name: &str, value: &str) {
    let bytes = written.as_bytes();
    let as_serialized = match AsciiSet::FORM_URLENCODED.find(bytes) {
        Some(i) => bytes[i] == b'=' && AsciiSet::FORM_URLENCODED.find(&bytes[i + 1..]).is_none(),
        None => false,
    };
    if as_serialized {
        if !out.is_empty() {
            out.push('&');
        }
        out.push_str(written);
    } else {
        append_pair(out, name, value);
    }
}

/// [`write_encoded`] to a `String`; most names and values have nothing
/// to encode and are copied whole.
fn push_encoded(out: &mut String, s: &str) {
    if AsciiSet::FORM_URLENCODED.find(s.as_bytes()).is_none() {
        out.push_str(s);
    } else {
        // Writing to a String does not fail.
        let _ = write_encoded(s, out);
    }
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
    fn the_walk_decodes_and_stops() {
        let walked = |input: &str| {
            let mut pairs = Vec::new();
            for_each_pair(input, |n, v| {
                pairs.push(format!("{n}|{v}"));
                ControlFlow::Continue(())
            });
            pairs
        };
        assert_eq!(walked(""), Vec::<String>::new());
        assert_eq!(
            walked("&&=&==&%=%%&+=+&x=%E2%82%AC%FF"),
            ["|", "|=", "%|%%", " | ", "x|\u{20ac}\u{fffd}"]
        );
        // Borrowed and decoded pairs one after the other: each decoded
        // value is its own, not the previous one's buffer.
        assert_eq!(
            walked("a=%41&b=c&d=%42%43&e=f"),
            ["a|A", "b|c", "d|BC", "e|f"]
        );
        let mut seen = 0;
        for_each_pair("a&b&c", |_, _| {
            seen += 1;
            if seen == 2 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        assert_eq!(seen, 2);
    }

    #[test]
    fn serializes() {
        let mut out = String::new();
        serialize([("a b", "~*-._!'()"), ("é", "&=+%")], &mut out).unwrap();
        assert_eq!(out, "a+b=%7E*-._%21%27%28%29&%C3%A9=%26%3D%2B%25");
    }
}
