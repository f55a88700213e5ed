//! Path rules: `collapse-slashes`, `strip-trailing-slash`, path session
//! ids, `lowercase-path`, and dot-segment resolution for `unescape-path`.
//!
//! Paths here are serialized WHATWG paths: `/`-separated, percent-encoded,
//! with no `.` or `..` segments left (the parser removed them).

/// `collapse-slashes`: replaces runs of `/` by one. Writes into `out` only
/// when there is a run.
pub(crate) fn collapse_slashes(path: &[u8], out: &mut Vec<u8>) -> bool {
    // Paths are short: a plain scan beats building a memmem searcher.
    if !super::host::has_pair(path, b'/') {
        return false;
    }
    let mut prev_slash = false;
    for &b in path {
        if !(b == b'/' && prev_slash) {
            out.push(b);
        }
        prev_slash = b == b'/';
    }
    true
}

/// `collapse-slashes` with `keep-scheme-slashes`: as [`collapse_slashes`],
/// except that the `//` of a URL embedded in the path after its scheme
/// (`/https://b.com//x` becomes `/https://b.com/x`) stays, as
/// normalize-url's `protocolRegex` (`\b[a-z][a-z\d+\-.]{1,50}://`) keeps
/// it. Unlike normalize-url, a `://` followed by another `/` or by nothing
/// is collapsed like any other run: kept, it would end in slashes that
/// `strip-trailing-slash` cuts one at a time, and the result would not be
/// stable under a second pass.
pub(crate) fn collapse_slashes_keeping_schemes(path: &[u8], out: &mut Vec<u8>) -> bool {
    if !super::host::has_pair(path, b'/') {
        return false;
    }
    let start = out.len();
    let mut prev_slash = false;
    let mut i = 0;
    while i < path.len() {
        let b = path[i];
        let kept =
            path[i + 1..].starts_with(b"//") && path.get(i + 3).is_some_and(|&next| next != b'/');
        if b == b':' && kept && ends_embedded_scheme(&path[..i]) {
            out.extend_from_slice(b"://");
            i += 3;
            prev_slash = false;
            continue;
        }
        if !(b == b'/' && prev_slash) {
            out.push(b);
        }
        prev_slash = b == b'/';
        i += 1;
    }
    if out[start..] == *path {
        out.truncate(start);
        return false;
    }
    true
}

/// Whether `before` ends with what normalize-url takes for a scheme: a
/// lowercase ASCII letter at a word boundary, then 1 to 50 of `a-z 0-9 +
/// - .` (JavaScript's `\b` and classes: case-sensitive, `_` a word byte).
fn ends_embedded_scheme(before: &[u8]) -> bool {
    let is_tail = |b: u8| b.is_ascii_lowercase() || b.is_ascii_digit() || b"+-.".contains(&b);
    let is_word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let run = before.iter().rev().take_while(|&&b| is_tail(b)).count();
    // Any start inside the run whose letter sits at a word boundary and
    // leaves 1 to 50 tail bytes makes the regex match.
    (2..=run.min(51)).any(|len| {
        let at = before.len() - len;
        before[at].is_ascii_lowercase() && (at == 0 || !is_word(before[at - 1]))
    })
}

/// Restores the parser's view of a file path whose first segment a rule
/// turned into a Windows drive letter written with `|` (collapsing `//c|`,
/// decoding `%63|`): the parser would read `c|` as the drive letter `c:`
/// (url.bs, path state: "If url's scheme is \"file\", url's path is empty,
/// and buffer is a Windows drive letter, then replace the second code point
/// in buffer with U+003A (:)."), so the canonical form must say `c:` to be a
/// URL serialization and idempotent. Writes into `out` only when it changes
/// something.
pub(crate) fn file_drive_letter(path: &[u8], out: &mut Vec<u8>) -> bool {
    match path {
        [b'/', letter, b'|', rest @ ..]
            if letter.is_ascii_alphabetic() && (rest.is_empty() || rest[0] == b'/') =>
        {
            out.extend_from_slice(path);
            out[2] = b':';
            true
        }
        _ => false,
    }
}

/// `strip-trailing-slash`: the path without a trailing `/`, unless the path
/// is `/` itself (which stays: a special URL's path is never empty).
pub(crate) fn strip_trailing_slash(path: &[u8]) -> &[u8] {
    match path.strip_suffix(b"/") {
        Some(rest) if !rest.is_empty() => rest,
        _ => path,
    }
}

/// `strip-trailing-slash` on a path whose runs of slashes
/// `keep-nonspecial-slashes` keeps: the path without its trailing run of
/// `/`, but `/` when it is all slashes.
pub(crate) fn strip_trailing_slashes(path: &[u8]) -> &[u8] {
    let end = path.iter().rposition(|&b| b != b'/').map_or(1, |i| i + 1);
    &path[..end.min(path.len())]
}

/// `lowercase-path`, `lowercase-query`: ASCII-lowercases into `out` when
/// there is an uppercase letter (percent-encodings included, as urlcanon and
/// webarchive-commons do).
pub(crate) fn lowercase(input: &[u8], out: &mut Vec<u8>) -> bool {
    if !input.iter().any(u8::is_ascii_uppercase) {
        return false;
    }
    out.extend(input.iter().map(u8::to_ascii_lowercase));
    true
}

/// The path `;jsessionid=` suffix Heritrix and urlcanon strip: 32 ASCII
/// letters or digits at the very end of the path.
const JSESSIONID: &[u8] = b";jsessionid=";

/// Session ids in the path (the path half of `strip-session-ids`):
///
/// - a final `;jsessionid=` followed by 32 letters or digits (Java servlet
///   URL rewriting), as urlcanon's `strip_session_ids_from_path`;
/// - ASP.NET cookieless session segments `(S(<24>))`, `(<24>)` or
///   `(X(<24>)Y(<24>)...)` (24 letters or digits each) followed later by a
///   `.aspx` page, as webarchive-commons' `URLRegexTransformer`.
///
/// Letters match case-insensitively. Every matching segment is removed (the
/// Java original removes one per pattern; removing all keeps the rule
/// idempotent). Writes into `out` only when something is removed.
///
/// With `jsessionid` false (`keep-path-jsessionid`), only the ASP.NET
/// segments.
pub(crate) fn strip_session_ids(path: &[u8], jsessionid: bool, out: &mut Vec<u8>) -> bool {
    // Strip repeatedly, or `;jsessionid=A;jsessionid=B` would lose one id
    // per canonicalization.
    if memchr::memchr2(b';', b'(', path).is_none() {
        return false;
    }
    let rest = if jsessionid {
        strip_jsessionid_suffixes(path)
    } else {
        path
    };
    let jsession = rest.len() < path.len();
    // The suffixes cut have no `(` and no `.`: looking at what is left
    // finds the same ASP.NET segments and `.aspx`. A segment is followed
    // by `.aspx` when the last `.aspx` starts at or after its end: one
    // search, not one per segment (which is quadratic on a path of
    // thousands of segments).
    let path = rest;
    let last_aspx = memchr::memchr(b'(', path).and_then(|_| rfind_ascii_ci(path, b".aspx"));
    let Some(last_aspx) = last_aspx else {
        if jsession {
            out.extend_from_slice(path);
        }
        return jsession;
    };
    let start = out.len();
    let mut removed = jsession;
    // Walk segments, each with its leading '/'.
    let mut i = 0;
    while i < path.len() {
        let end = memchr::memchr(b'/', &path[i + 1..]).map_or(path.len(), |n| i + 1 + n);
        let segment = &path[i + 1..end];
        let followed_by_aspx = last_aspx >= end;
        if followed_by_aspx && is_aspnet_session_segment(segment) {
            removed = true;
        } else {
            out.extend_from_slice(&path[i..end]);
        }
        i = end;
    }
    if !removed {
        out.truncate(start);
    }
    removed
}

/// The path without its final `;jsessionid=<32>` suffixes (all of them:
/// `;jsessionid=A;jsessionid=B` would otherwise lose one id per
/// canonicalization). Only cuts the end, in time linear in what it cuts.
pub(crate) fn strip_jsessionid_suffixes(mut path: &[u8]) -> &[u8] {
    while let Some(at) = jsessionid_start(path) {
        path = &path[..at];
    }
    path
}

fn jsessionid_start(path: &[u8]) -> Option<usize> {
    let at = path.len().checked_sub(JSESSIONID.len() + 32)?;
    let (key, id) = path[at..].split_at(JSESSIONID.len());
    if !key.eq_ignore_ascii_case(JSESSIONID) || !id.iter().all(u8::is_ascii_alphanumeric) {
        return None;
    }
    // Removing the suffix must not leave a dot segment, which a re-parse
    // would resolve: keep `/..;jsessionid=...` as it is. Dot segments are
    // at most 6 bytes (`%2e%2e`), so looking at the last 7 bytes tells
    // (and keeps a chain of suffixes in one segment linear).
    let rest = &path[..at];
    let tail = &rest[rest.len().saturating_sub(7)..];
    let last = match tail.iter().rposition(|&b| b == b'/') {
        Some(i) => &tail[i + 1..],
        None if rest.len() <= 7 => rest,
        None => return Some(at),
    };
    (!is_dot_segment(last)).then_some(at)
}

/// `.`, `..` or one of their percent-encoded spellings (the parser's
/// single-dot and double-dot segments).
fn is_dot_segment(s: &[u8]) -> bool {
    let dot = |t: &[u8]| t == b"." || t.eq_ignore_ascii_case(b"%2e");
    dot(s)
        || [1, 3]
            .iter()
            .any(|&n| s.len() > n && dot(&s[..n]) && dot(&s[n..]))
}

/// `(<24>)` or `(` then one or more `X(<24>)` then `)`.
fn is_aspnet_session_segment(s: &[u8]) -> bool {
    let Some(inner) = s.strip_prefix(b"(").and_then(|s| s.strip_suffix(b")")) else {
        return false;
    };
    if inner.len() == 24 && inner.iter().all(u8::is_ascii_alphanumeric) {
        return true;
    }
    let mut rest = inner;
    if rest.is_empty() {
        return false;
    }
    while !rest.is_empty() {
        match rest {
            [letter, b'(', tail @ ..]
                if letter.is_ascii_alphabetic()
                    && tail.len() > 24
                    && tail[24] == b')'
                    && tail[..24].iter().all(u8::is_ascii_alphanumeric) =>
            {
                rest = &tail[25..];
            }
            _ => return false,
        }
    }
    true
}

fn rfind_ascii_ci(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .rposition(|w| w.eq_ignore_ascii_case(needle))
}

/// Resolves `.` and `..` segments of a `/`-rooted path the way the path
/// state of the URL parser does (a final `.` or `..` leaves a trailing
/// slash; `..` at the root stays at the root). For `unescape-path`, whose
/// decoding can create dot segments (`%2e%2e%2f` is `../`).
pub(crate) fn resolve_dots(path: &[u8], out: &mut Vec<u8>) {
    let base = out.len();
    let body = path.strip_prefix(b"/").unwrap_or(path);
    let mut segments = body.split(|&b| b == b'/').peekable();
    while let Some(segment) = segments.next() {
        let last = segments.peek().is_none();
        match segment {
            b".." => {
                if let Some(slash) = out[base..].iter().rposition(|&b| b == b'/') {
                    out.truncate(base + slash);
                }
                if last {
                    out.push(b'/');
                }
            }
            b"." => {
                if last {
                    out.push(b'/');
                }
            }
            _ => {
                out.push(b'/');
                out.extend_from_slice(segment);
            }
        }
    }
    if out.len() == base {
        out.push(b'/');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strip_session_ids(path: &[u8], out: &mut Vec<u8>) -> bool {
        super::strip_session_ids(path, true, out)
    }

    fn run(f: fn(&[u8], &mut Vec<u8>) -> bool, input: &str) -> String {
        let mut out = Vec::new();
        if f(input.as_bytes(), &mut out) {
            String::from_utf8(out).unwrap()
        } else {
            assert!(out.is_empty());
            input.to_owned()
        }
    }

    #[test]
    fn collapses_but_keeps_embedded_schemes() {
        for (path, want) in [
            ("/https://bar.com/foo//bar", "/https://bar.com/foo/bar"),
            ("////foo////bar", "/foo/bar"),
            ("/s3://x//foo", "/s3://x/foo"),
            ("//foo/git://x//foo", "/foo/git://x/foo"),
            ("/a://x//foo", "/a:/x/foo"),
            ("/2abc://x", "/2abc:/x"),
            ("/a2-.+_://x", "/a2-.+_:/x"),
            ("/a2-.+://x", "/a2-.+://x"),
            ("/HTTP://x", "/HTTP:/x"),
            ("/x_http://y", "/x_http:/y"),
            ("/x.http://y", "/x.http://y"),
            ("/s3:////x", "/s3:/x"),
            ("/https://", "/https:/"),
            ("/a", "/a"),
        ] {
            let once = run(collapse_slashes_keeping_schemes, path);
            assert_eq!(once, want, "{path}");
            assert_eq!(run(collapse_slashes_keeping_schemes, &once), once, "{path}");
        }
        let long = format!("/a{}://x//y", "x".repeat(49));
        assert_eq!(
            run(collapse_slashes_keeping_schemes, &long),
            long.replace("//y", "/y")
        );
        let longer = format!("/a{}://x", "x".repeat(51));
        assert_eq!(
            run(collapse_slashes_keeping_schemes, &longer),
            longer.replace("://", ":/")
        );
    }

    fn resolve(input: &str) -> String {
        let mut out = Vec::new();
        resolve_dots(input.as_bytes(), &mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn file_drive_letters() {
        assert_eq!(run(file_drive_letter, "/c|/x"), "/c:/x");
        assert_eq!(run(file_drive_letter, "/Z|"), "/Z:");
        assert_eq!(run(file_drive_letter, "/c|x/"), "/c|x/");
        assert_eq!(run(file_drive_letter, "/cc|/"), "/cc|/");
        assert_eq!(run(file_drive_letter, "/1|/"), "/1|/");
        assert_eq!(run(file_drive_letter, "/c:/"), "/c:/");
    }

    #[test]
    fn collapses() {
        assert_eq!(run(collapse_slashes, "//a///b/"), "/a/b/");
        assert_eq!(run(collapse_slashes, "/a/b"), "/a/b");
    }

    #[test]
    fn trailing_slash() {
        assert_eq!(strip_trailing_slash(b"/a/"), b"/a");
        assert_eq!(strip_trailing_slash(b"/"), b"/");
        assert_eq!(strip_trailing_slash(b""), b"");
        assert_eq!(strip_trailing_slashes(b"/a//b//"), b"/a//b");
        assert_eq!(strip_trailing_slashes(b"///"), b"/");
        assert_eq!(strip_trailing_slashes(b"/a"), b"/a");
        assert_eq!(strip_trailing_slashes(b""), b"");
    }

    #[test]
    fn path_session_ids() {
        // webarchive-commons URLRegexTransformerTest / urlcanon surt.json
        let cases = [
            ("/(S(4hqa0555fwsecu455xqckv45))/mileg.aspx", "/mileg.aspx"),
            ("/(4hqa0555fwsecu455xqckv45)/mileg.aspx", "/mileg.aspx"),
            (
                "/(a(4hqa0555fwsecu455xqckv45)S(4hqa0555fwsecu455xqckv45)f(4hqa0555fwsecu455xqckv45))/mileg.aspx",
                "/mileg.aspx",
            ),
            ("/photos/36050182@N05/", "/photos/36050182@N05/"),
            ("/(4hqa0555fwsecu455xqckv45)/mileg.html", "/(4hqa0555fwsecu455xqckv45)/mileg.html"),
            ("/something/;jsessionid=E85FAC04E331FFCA55549B10B7C7A4FA", "/something/"),
            ("/a/..;jsessionid=E85FAC04E331FFCA55549B10B7C7A4FA", "/a/..;jsessionid=E85FAC04E331FFCA55549B10B7C7A4FA"),
            ("/x;jsessionid=E85FAC04E331FFCA55549B10B7C7A4F", "/x;jsessionid=E85FAC04E331FFCA55549B10B7C7A4F"),
        ];
        for (input, expected) in cases {
            assert_eq!(run(strip_session_ids, input), expected, "{input}");
        }
    }

    #[test]
    fn resolves_like_the_path_state() {
        assert_eq!(resolve("/a/b/.."), "/a/");
        assert_eq!(resolve("/a/./b"), "/a/b");
        assert_eq!(resolve("/a/."), "/a/");
        assert_eq!(resolve("/.."), "/");
        assert_eq!(resolve("/a//.."), "/a/");
        assert_eq!(resolve("/abc/../def"), "/def");
        assert_eq!(resolve("/"), "/");
        assert_eq!(resolve("/..."), "/...");
    }
}
