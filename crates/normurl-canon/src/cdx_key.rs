//! The last step of a CDX key (`--get surt` under `wayback`): the path and
//! query as webarchive-commons' `WaybackURLKeyMaker` and the `surt` package
//! write them, from what the rules made.
//!
//! Those unescape the path and query repeatedly and then escape only what
//! Safe Browsing escapes (bytes <= 0x20 or >= 0x7f, `#`, `%`), so the keys
//! in CDX indexes have `{`, `"`, `<`, a path's `?` and a query's `&` and
//! `=` raw; and they sort the query's `name=value` pieces by their raw
//! bytes, where `sort-query` sorts by decoded name. A key is not a URL, so
//! it can have all that; a canonical URL cannot. Doing it at the end keeps
//! the rules and the URL form as they are.

use crate::config::{Config, OutputForm};
use crate::rule::Rule;
use crate::rules::percent::escape_at;
use crate::surt::SurtOptions;
use normurl_url::{SchemeType, Url};

/// The path and query to write for `url`: as they are, unless the output is
/// a CDX key (a SURT without the scheme): then decoded (when an unescape
/// rule made them) and the query put in the keys' order (when `sort-query`
/// is on), in `bufs`.
#[inline(never)]
pub(super) fn decode<'a>(
    config: &Config,
    url: &Url,
    mut path: &'a [u8],
    mut query: Option<&'a [u8]>,
    bufs: [&'a mut Vec<u8>; 3],
) -> (&'a [u8], Option<&'a [u8]>) {
    if !is_key(config) {
        return (path, query);
    }
    let [path_buf, query_buf, sort_buf] = bufs;
    // The conditions under which the general path runs the rules.
    let special = url.scheme_type().is_special();
    let unescaped_path = special
        && url.scheme_type() != SchemeType::File
        && config.rules.contains(Rule::UnescapePath);
    if unescaped_path && self::path(path, path_buf) {
        path = path_buf;
    }
    let unescaped_query = special && config.rules.contains(Rule::UnescapeQuery);
    if unescaped_query && query.is_some_and(|q| self::query(q, query_buf)) {
        query = Some(query_buf);
    }
    (path, sorted(config, query, sort_buf))
}

/// Whether the output is a CDX key.
fn is_key(config: &Config) -> bool {
    matches!(
        config.output,
        OutputForm::Surt(SurtOptions { scheme: false, .. })
    )
}

/// `query` in the order of CDX keys when the output is one and
/// `sort-query` is on: the fast path's step (its queries have no `%`
/// under the unescape rules, so nothing to decode).
pub(super) fn sorted<'a>(
    config: &Config,
    query: Option<&'a [u8]>,
    buf: &'a mut Vec<u8>,
) -> Option<&'a [u8]> {
    match query {
        Some(q) if is_key(config) && config.rules.contains(Rule::SortQuery) && order(q, buf) => {
            Some(buf)
        }
        other => other,
    }
}

/// Writes `query` into `out` with its `&`-separated pieces sorted as
/// webarchive-commons' `alphaReorderQuery` sorts them: as `(name, value)`
/// pairs split at the first `=`, by raw bytes, a piece without `=` before
/// the same name with one. Returns false, having written nothing, when the
/// pieces are in that order already.
fn order(query: &[u8], out: &mut Vec<u8>) -> bool {
    fn pair(piece: &[u8]) -> (&[u8], Option<&[u8]>) {
        match memchr::memchr(b'=', piece) {
            Some(at) => (&piece[..at], Some(&piece[at + 1..])),
            None => (piece, None),
        }
    }
    if memchr::memchr(b'&', query).is_none() {
        return false;
    }
    let mut pieces: Vec<&[u8]> = query.split(|&b| b == b'&').collect();
    if pieces.windows(2).all(|w| pair(w[0]) <= pair(w[1])) {
        return false;
    }
    pieces.sort_by(|a, b| pair(a).cmp(&pair(b)));
    out.clear();
    for (i, piece) in pieces.iter().enumerate() {
        if i > 0 {
            out.push(b'&');
        }
        out.extend_from_slice(piece);
    }
    true
}

/// Whether `unescape-path` encodes `b` for the URL only (the path
/// percent-encode set and `\`, beyond Safe Browsing's).
fn path_only(b: u8) -> bool {
    matches!(
        b,
        b'"' | b'<' | b'>' | b'?' | b'\\' | b'^' | b'`' | b'{' | b'}'
    )
}

/// The same for `unescape-query`, and `&` and `=`, which it encodes to
/// keep the parameters apart (the keys' sort then sees the pieces the
/// reference sees).
fn query_only(b: u8) -> bool {
    matches!(b, b'"' | b'\'' | b'<' | b'>' | b'&' | b'=')
}

/// Writes `path` into `out` with the URL-only escapes decoded; returns
/// false, having written nothing, when there is none.
pub(super) fn path(path: &[u8], out: &mut Vec<u8>) -> bool {
    decode_only(path, path_only, out)
}

/// [`path`] for a query.
pub(super) fn query(query: &[u8], out: &mut Vec<u8>) -> bool {
    decode_only(query, query_only, out)
}

/// Decodes the `%XX` of `input` whose byte is in `set`. The input is the
/// output of an unescape rule, where every `%` that starts an escape was
/// written by the rule's encoder (`%25` included), so one pass is right.
fn decode_only(input: &[u8], set: fn(u8) -> bool, out: &mut Vec<u8>) -> bool {
    let decodes = |i: usize| escape_at(input, i).is_some_and(set);
    if !(0..input.len()).any(|i| input[i] == b'%' && decodes(i)) {
        return false;
    }
    out.clear();
    let mut i = 0;
    while i < input.len() {
        match escape_at(input, i).filter(|&b| set(b)) {
            Some(b) => {
                out.push(b);
                i += 3;
            }
            None => {
                out.push(input[i]);
                i += 1;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key_path(input: &str) -> String {
        let mut out = Vec::new();
        if !path(input.as_bytes(), &mut out) {
            return input.to_owned();
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn decodes_only_what_the_url_needed() {
        assert_eq!(
            key_path("/a%7bb%7Dc%3f%22%3C%3E%5e%60%5c"),
            "/a{b}c?\"<>^`\\"
        );
        assert_eq!(key_path("/a%25%2320%20b%c3%a9"), "/a%25%2320%20b%c3%a9");
        assert_eq!(key_path("/plain"), "/plain");
        let mut out = Vec::new();
        assert!(query(b"q=%22y%22&r=%27%26%3d", &mut out));
        assert_eq!(out, b"q=\"y\"&r='&=");
    }

    fn ordered(query: &str) -> String {
        let mut out = Vec::new();
        if !order(query.as_bytes(), &mut out) {
            return query.to_owned();
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn orders_pieces_by_raw_bytes_as_pairs() {
        // What the surt package gives for these queries.
        assert_eq!(ordered("%d8lejr&print"), "%d8lejr&print");
        assert_eq!(ordered("print&%d8lejr"), "%d8lejr&print");
        assert_eq!(ordered("a=1&a-b=2&a+b=3&a=0&a"), "a&a=0&a=1&a+b=3&a-b=2");
        assert_eq!(ordered("a=&a"), "a&a=");
        assert_eq!(ordered("b=1&a"), "a&b=1");
        assert_eq!(ordered("a=1"), "a=1");
    }
}
