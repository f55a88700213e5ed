//! `semicolon-separators`: `;` separates query parameters as `&` does, as
//! in HTML 4's recommendation and w3lib's `query_separator`. The
//! parameter rules split on `&` only, so the `;` are written as `&`
//! first: `a=1;b=2` and `a=1&b=2` then get one key.
//!
//! `semicolon-only-separators`: `;` alone separates, as w3lib's
//! `query_separator=";"` (Python's `parse_qsl(separator=";")`) reads a
//! query, and the parameters are joined with `;` again. An `&` is then
//! data, which w3lib's `urlencode` writes `%26`: the rule writes it so
//! too, and the parameter rules, which split on `&`, see each `;` as `&`
//! ([`semicolons_for_amps`]) until [`amps_to_semicolons`] puts the `;`
//! back.

/// Writes `query` with every `;` replaced by `&` into `out` and returns
/// true, or returns false when it has no `;`. (An encoded `%3B` stays: it
/// is data, not a separator.)
pub(crate) fn semicolons_to_amps(query: &[u8], out: &mut Vec<u8>) -> bool {
    if memchr::memchr(b';', query).is_none() {
        return false;
    }
    out.extend(query.iter().map(|&b| if b == b';' { b'&' } else { b }));
    true
}

/// Writes `query` with every `;` encoded (`%3B`, or `%3b` with `lower`)
/// into `out` and returns true, or returns false when it has no `;`:
/// after `unescape-query`, which decodes `%3B`, the `;` that are data.
pub(crate) fn encode_semicolons(query: &[u8], lower: bool, out: &mut Vec<u8>) -> bool {
    if memchr::memchr(b';', query).is_none() {
        return false;
    }
    let encoded: &[u8] = if lower { b"%3b" } else { b"%3B" };
    for &b in query {
        if b == b';' {
            out.extend_from_slice(encoded);
        } else {
            out.push(b);
        }
    }
    true
}

/// Writes `query` with each `&` written `%26` and each `;` written `&`
/// into `out`; returns whether it has an `&` (whether the rule changes the
/// query: the `;` come back at the end) and whether it wrote anything.
pub(crate) fn semicolons_for_amps(query: &[u8], out: &mut Vec<u8>) -> (bool, bool) {
    let amp = memchr::memchr(b'&', query).is_some();
    if !amp && memchr::memchr(b';', query).is_none() {
        return (false, false);
    }
    for &b in query {
        match b {
            b'&' => out.extend_from_slice(b"%26"),
            b';' => out.push(b'&'),
            _ => out.push(b),
        }
    }
    (amp, true)
}

/// After the query rules of `semicolon-only-separators`: writes `query`
/// with every `&` (a separator: [`semicolons_for_amps`] encoded the
/// others) replaced by `;` into `out`, or returns false when it has none.
pub(crate) fn amps_to_semicolons(query: &[u8], out: &mut Vec<u8>) -> bool {
    if memchr::memchr(b'&', query).is_none() {
        return false;
    }
    out.extend(query.iter().map(|&b| if b == b'&' { b';' } else { b }));
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn semicolons_become_amps() {
        let mut out = Vec::new();
        assert!(semicolons_to_amps(b"a=1;b=2&c=%3B", &mut out));
        assert_eq!(out, b"a=1&b=2&c=%3B");
        assert!(!semicolons_to_amps(b"a=1&b=%3b", &mut Vec::new()));
        out.clear();
        assert!(encode_semicolons(b"a=;", true, &mut out));
        assert_eq!(out, b"a=%3b");
    }

    #[test]
    fn only_semicolons_separate() {
        let mut out = Vec::new();
        assert_eq!(semicolons_for_amps(b"c=1&d;b=%3B", &mut out), (true, true));
        assert_eq!(out, b"c=1%26d&b=%3B");
        let mut back = Vec::new();
        assert!(amps_to_semicolons(&out, &mut back));
        assert_eq!(back, b"c=1%26d;b=%3B");
        out.clear();
        assert_eq!(semicolons_for_amps(b"a=1;b", &mut out), (false, true));
        assert_eq!(out, b"a=1&b");
        assert_eq!(
            semicolons_for_amps(b"a=%26", &mut Vec::new()),
            (false, false)
        );
        assert!(!amps_to_semicolons(b"a=1", &mut Vec::new()));
    }
}
