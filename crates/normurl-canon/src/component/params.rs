//! Query parameters and decoded components, as templates and `--json`
//! write them: `{query:NAME}` (the first value of NAME), `{query-all:NAME}`
//! (every value, comma-joined), `{pathname:decoded}` and the other
//! `:decoded` forms, and `--json`'s `params` array.
//!
//! Parameters are read as the URL Standard's
//! [urlencoded parser](https://url.spec.whatwg.org/#concept-urlencoded-parser)
//! reads a query (what `URLSearchParams` holds): split on `&`, empty pieces
//! skipped, the name ending at the first `=`, `+` a space, `%XX` decoded,
//! invalid UTF-8 as U+FFFD. Nothing is allocated for valid UTF-8: names
//! are decoded into the output and compared there.

use crate::form;

/// Appends the value of the first parameter of `query` named `name`
/// (decoded); nothing when there is none.
///
/// # Example
///
/// ```
/// let mut out = Vec::new();
/// normurl_canon::component::params::write_first("a=1&q=rust+url%21&q=2", "q", &mut out);
/// assert_eq!(out, b"rust url!");
/// ```
pub fn write_first(query: &str, name: &str, out: &mut Vec<u8>) {
    for (raw_name, raw_value) in pairs(query) {
        if name_is(raw_name, name, out) {
            push_decoded(raw_value, out);
            return;
        }
    }
}

/// Appends the values of every parameter of `query` named `name`
/// (decoded), in order, joined by `,`; nothing when there is none. (A
/// value holding a comma reads the same as two values: `--json`'s
/// `params` keeps them apart.)
///
/// # Example
///
/// ```
/// let mut out = Vec::new();
/// normurl_canon::component::params::write_all("id=1&x&id=a+b&id=", "id", &mut out);
/// assert_eq!(out, b"1,a b,");
/// ```
pub fn write_all(query: &str, name: &str, out: &mut Vec<u8>) {
    let mut first = true;
    for (raw_name, raw_value) in pairs(query) {
        if name_is(raw_name, name, out) {
            if !first {
                out.push(b',');
            }
            first = false;
            push_decoded(raw_value, out);
        }
    }
}

/// Appends the parameters of `query` as a JSON array of `[name, value]`
/// string pairs (decoded): `--json`'s `params`. A URL without a query
/// has `[]`.
///
/// # Example
///
/// ```
/// let mut out = Vec::new();
/// normurl_canon::component::params::write_json(Some("a=1&&b&c=%22"), &mut out);
/// assert_eq!(out, br#"[["a","1"],["b",""],["c","\""]]"#);
/// ```
pub fn write_json(query: Option<&str>, out: &mut Vec<u8>) {
    out.push(b'[');
    for (i, (name, value)) in pairs(query.unwrap_or("")).enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.push(b'[');
        for (j, raw) in [name, value].into_iter().enumerate() {
            if j > 0 {
                out.push(b',');
            }
            let start = out.len();
            push_decoded(raw, out);
            super::json_string::escape_in_place(out, start);
        }
        out.push(b']');
    }
    out.push(b']');
}

/// Percent-decodes what was appended to `out` from `start` on, in place
/// (`%XX` only: a `+` stays), then writes invalid UTF-8 as U+FFFD: the
/// `:decoded` forms of components.
///
/// # Example
///
/// ```
/// let mut out = b"x/a%20b+%C3%A9%zz%FF".to_vec();
/// normurl_canon::component::params::decode_in_place(&mut out, 1);
/// assert_eq!(out, "x/a b+é%zz\u{FFFD}".as_bytes());
/// ```
pub fn decode_in_place(out: &mut Vec<u8>, start: usize) {
    let (mut read, mut write) = (start, start);
    while read < out.len() {
        let b = out[read];
        let hex = |i: usize| out.get(i).and_then(|&c| (c as char).to_digit(16));
        match (b, hex(read + 1), hex(read + 2)) {
            (b'%', Some(hi), Some(lo)) => {
                out[write] = (hi * 16 + lo) as u8;
                read += 3;
            }
            _ => {
                out[write] = b;
                read += 1;
            }
        }
        write += 1;
    }
    out.truncate(write);
    lossy_in_place(out, start);
}

/// The `(name, value)` byte pieces of `query`, raw, without empty pieces;
/// a piece without `=` has an empty value.
fn pairs(query: &str) -> impl Iterator<Item = (&[u8], &[u8])> {
    query
        .as_bytes()
        .split(|&b| b == b'&')
        .filter(|piece| !piece.is_empty())
        .map(|piece| match memchr::memchr(b'=', piece) {
            Some(i) => (&piece[..i], &piece[i + 1..]),
            None => (piece, &b""[..]),
        })
}

/// Whether the raw name `raw` decodes to `name`. Decoded at the end of
/// `out` (left as it was) when it has a `%` or `+`.
fn name_is(raw: &[u8], name: &str, out: &mut Vec<u8>) -> bool {
    if !raw.iter().any(|&b| b == b'%' || b == b'+') {
        return raw == name.as_bytes();
    }
    let start = out.len();
    push_decoded(raw, out);
    let same = &out[start..] == name.as_bytes();
    out.truncate(start);
    same
}

/// Appends the raw name or value `raw` decoded as the urlencoded parser
/// decodes it.
fn push_decoded(raw: &[u8], out: &mut Vec<u8>) {
    if !raw.iter().any(|&b| b == b'%' || b == b'+') {
        // Query bytes are ASCII, or the input's own UTF-8.
        out.extend_from_slice(raw);
        return;
    }
    let start = out.len();
    form::decode_component(raw, out);
    lossy_in_place(out, start);
}

/// Replaces invalid UTF-8 in `out[start..]` with U+FFFD (allocating only
/// then).
fn lossy_in_place(out: &mut Vec<u8>, start: usize) {
    if std::str::from_utf8(&out[start..]).is_err() {
        let raw = out.split_off(start);
        form::push_utf8_lossy(&raw, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first(query: &str, name: &str) -> String {
        let mut out = b"prefix".to_vec();
        write_first(query, name, &mut out);
        String::from_utf8(out[6..].to_vec()).unwrap()
    }

    #[test]
    fn first_values_as_url_search_params_get() {
        for (query, name, expected) in [
            ("a=1&a=2", "a", "1"),
            ("%61=x&a=y", "a", "x"),
            ("a+b=c", "a b", "c"),
            ("a%2Bb=c", "a+b", "c"),
            ("flag&x=1", "flag", ""),
            ("x=%FF", "x", "\u{FFFD}"),
            ("%FF=1", "\u{FFFD}", "1"),
            ("x=a=b", "x", "a=b"),
            ("x=1;y=2", "x", "1;y=2"),
            ("", "x", ""),
            ("&&x=%zz", "x", "%zz"),
            ("é=ü", "é", "ü"),
        ] {
            assert_eq!(first(query, name), expected, "{query} {name}");
            let params = normurl_url::SearchParams::new(query);
            assert_eq!(params.get(name).unwrap_or(""), expected, "{query} {name}");
        }
    }

    #[test]
    fn every_value_comma_joined() {
        let mut out = Vec::new();
        write_all("a=1&b=2&a=%2C&a", "a", &mut out);
        assert_eq!(out, b"1,,,");
        out.clear();
        write_all("b=2", "a", &mut out);
        assert_eq!(out, b"");
    }

    #[test]
    fn json_pairs_are_escaped() {
        let mut out = Vec::new();
        write_json(Some("%0A=%5C&t=%09"), &mut out);
        assert_eq!(out, br#"[["\n","\\"],["t","\t"]]"#);
        out.clear();
        write_json(None, &mut out);
        assert_eq!(out, b"[]");
    }
}
