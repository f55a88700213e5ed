//! The last step of a CDX key (`--get surt` after `unescape-path` and
//! `unescape-query`): decode the escapes that those rules write only so that
//! a canonical URL parses back to itself.
//!
//! webarchive-commons' `WaybackURLKeyMaker` and the `surt` package unescape
//! the path and query repeatedly and then escape only what Safe Browsing
//! escapes (bytes <= 0x20 or >= 0x7f, `#`, `%`), so the keys in CDX
//! indexes have `{`, `"`, `<` and a path's `?` raw. A key is not a URL, so
//! it can have them raw too; a canonical URL cannot. Decoding at the end
//! keeps the rules and the URL form as they are.

use super::config::{Config, OutputForm};
use super::rules::percent::escape_at;
use super::{Rule, SurtOptions};
use crate::{SchemeType, Url};

/// The path and query to write for `url`: as they are, unless the output is
/// a CDX key (a SURT without the scheme) and an unescape rule made them,
/// when they are decoded into `bufs`.
pub(super) fn decode<'a>(
    config: &Config,
    url: &Url,
    mut path: &'a [u8],
    mut query: Option<&'a [u8]>,
    bufs: [&'a mut Vec<u8>; 2],
) -> (&'a [u8], Option<&'a [u8]>) {
    if !matches!(config.output, OutputForm::Surt(SurtOptions { scheme: false, .. })) {
        return (path, query);
    }
    let [path_buf, query_buf] = bufs;
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
    (path, query)
}

/// Whether `unescape-path` encodes `b` for the URL only (the path
/// percent-encode set and `\`, beyond Safe Browsing's).
fn path_only(b: u8) -> bool {
    matches!(b, b'"' | b'<' | b'>' | b'?' | b'\\' | b'^' | b'`' | b'{' | b'}')
}

/// The same for `unescape-query`. `&` and `=` stay encoded: decoded after
/// the parameters were sorted, they would make other parameters than the
/// ones sorted.
fn query_only(b: u8) -> bool {
    matches!(b, b'"' | b'\'' | b'<' | b'>')
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
        assert_eq!(key_path("/a%7bb%7Dc%3f%22%3C%3E%5e%60%5c"), "/a{b}c?\"<>^`\\");
        assert_eq!(key_path("/a%25%2320%20b%c3%a9"), "/a%25%2320%20b%c3%a9");
        assert_eq!(key_path("/plain"), "/plain");
        let mut out = Vec::new();
        assert!(query(b"q=%22y%22&r=%27%26%3d", &mut out));
        assert_eq!(out, b"q=\"y\"&r='%26%3d");
    }
}
