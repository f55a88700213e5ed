//! Glob patterns of parameter names (`utm_*`, `*_ga`, `a*b`): `*` matches
//! any run of bytes, every other byte itself.

/// Whether `name` matches `pattern`. Linear in practice: the classic
/// greedy match that backtracks only to the last `*` seen, which is
/// enough because a later `*` can absorb whatever an earlier one would.
pub(crate) fn matches(pattern: &[u8], name: &[u8]) -> bool {
    let (mut p, mut n) = (0, 0);
    // The position after the last `*` seen and the name position it was
    // tried at.
    let mut retry: Option<(usize, usize)> = None;
    while n < name.len() {
        match pattern.get(p) {
            Some(b'*') => {
                retry = Some((p + 1, n));
                p += 1;
            }
            Some(&b) if b == name[n] => {
                p += 1;
                n += 1;
            }
            _ => match retry {
                Some((after_star, tried)) => {
                    p = after_star;
                    n = tried + 1;
                    retry = Some((after_star, tried + 1));
                }
                None => return false,
            },
        }
    }
    pattern[p..].iter().all(|&b| b == b'*')
}

/// The bytes of `pattern` before its first `*`: every name it matches
/// starts with them.
pub(crate) fn literal_prefix(pattern: &[u8]) -> &[u8] {
    let end = memchr::memchr(b'*', pattern).unwrap_or(pattern.len());
    &pattern[..end]
}

/// Whether `pattern` needs [`matches`]: a `*` other than one at the end
/// (which the tracking list handles as a prefix).
pub(crate) fn is_glob(pattern: &[u8]) -> bool {
    let body = pattern.strip_suffix(b"*").unwrap_or(pattern);
    memchr::memchr(b'*', body).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stars_match_any_run() {
        for (pattern, name, expected) in [
            ("*_ga", "_ga", true),
            ("*_ga", "x_ga", true),
            ("*_ga", "x_gax", false),
            ("utm_*", "utm_", true),
            ("a*b*c", "aXbYbZc", true),
            ("a*b*c", "aXbYbZ", false),
            ("a**b", "ab", true),
            ("*", "", true),
            ("a", "a", true),
            ("a", "ab", false),
            ("*a*a", "aaa", true),
            ("*ab", "aab", true),
        ] {
            assert_eq!(
                matches(pattern.as_bytes(), name.as_bytes()),
                expected,
                "{pattern} {name}"
            );
        }
    }

    #[test]
    fn prefixes_and_globs() {
        assert_eq!(literal_prefix(b"fb_*x"), b"fb_");
        assert_eq!(literal_prefix(b"*x"), b"");
        assert!(is_glob(b"*_ga") && is_glob(b"a*b") && is_glob(b"a**"));
        assert!(!is_glob(b"utm_*") && !is_glob(b"ref"));
    }

    /// The reference: a name matches when some split of it fits.
    fn naive(p: &[u8], n: &[u8]) -> bool {
        match p.split_first() {
            None => n.is_empty(),
            Some((b'*', rest)) => (0..=n.len()).any(|i| naive(rest, &n[i..])),
            Some((&b, rest)) => n.first() == Some(&b) && naive(rest, &n[1..]),
        }
    }

    proptest::proptest! {
        #[test]
        fn matches_the_naive_matcher(pattern in "[ab*]{0,6}", name in "[ab]{0,8}") {
            proptest::prop_assert_eq!(
                matches(pattern.as_bytes(), name.as_bytes()),
                naive(pattern.as_bytes(), name.as_bytes())
            );
        }
    }
}
