//! `semicolon-separators`: `;` separates query parameters as `&` does, as
//! in HTML 4's recommendation and w3lib's `query_separator`. The
//! parameter rules split on `&` only, so the `;` are written as `&`
//! first: `a=1;b=2` and `a=1&b=2` then get one key.

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
}
