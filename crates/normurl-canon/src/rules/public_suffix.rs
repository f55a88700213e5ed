//! The [Public Suffix List](https://publicsuffix.org/), for one question:
//! would stripping `www.` leave only a public suffix (`www.co.uk` must not
//! become `co.uk`, nor `www.github.io` become `github.io`)?
//!
//! The list is the components' ([`PublicSuffixList`], the bundled one or
//! another from `--psl FILE`), parsed once; it answers the question with
//! [`PublicSuffixList::is_public_suffix`]. This module finds the domain's
//! first dot and hash straight from the href's bytes, so that the guard
//! costs a few instructions on the hot path.

use std::fmt;
use std::sync::Arc;

use crate::psl::hash::{key, mix};
use crate::psl::PublicSuffixList;

/// Whether `domain` (lowercase ASCII, punycode for IDNs, no trailing dot)
/// is a public suffix.
///
/// # Example (crate-internal)
///
/// `co.uk`, `github.io` and `foo.ck` (under the wildcard `*.ck`) are;
/// `example.com` and `www.ck` (an exception) are not.
///
/// Always inlined: a call per function of the lookup cost more in saved
/// registers than the lookup itself.
#[inline(always)]
pub(crate) fn may_be_public_suffix(suffixes: &Suffixes, domain: &[u8]) -> bool {
    match &suffixes.0 {
        Some(list) => in_other_list(list, domain),
        None => in_list(PublicSuffixList::bundled(), domain),
    }
}

/// [`may_be_public_suffix`] by `list`.
#[inline(always)]
fn in_list(list: &PublicSuffixList, domain: &[u8]) -> bool {
    let Some(dot) = first_dot(domain) else {
        return true;
    };
    list.is_public_suffix_keyed(domain, key(domain), dot)
}

/// [`may_be_public_suffix`] by another list than the bundled one (`--psl
/// FILE`). Out of line, so that the bundled table stays at a static
/// address where the guard is inlined: asking a table behind a pointer
/// there adds instructions to every `www.` line, for the registers the
/// pointer takes (docs/performance-history.md).
#[cold]
#[inline(never)]
fn in_other_list(list: &PublicSuffixList, domain: &[u8]) -> bool {
    in_list(list, domain)
}

/// [`may_be_public_suffix`] for the domain `bytes[start..end]`, for a
/// host inside an href: when `bytes` has 16 bytes from `start` on (a
/// host and then its path, as most URLs have), the first dot comes from
/// one vector compare and the key from two loads, with no branch on the
/// domain's length (`first_dot` and `key` branch on it, and the call of
/// the one made the caller keep its registers on the stack).
#[inline(always)]
pub(crate) fn may_be_public_suffix_at(
    suffixes: &Suffixes,
    bytes: &[u8],
    start: usize,
    end: usize,
) -> bool {
    let domain = &bytes[start..end];
    if let Some(list) = &suffixes.0 {
        return in_other_list(list, domain);
    }
    let Some(window) = bytes[start..].first_chunk::<16>() else {
        return may_be_public_suffix(suffixes, domain);
    };
    let n = domain.len();
    // Lanes past the domain (its first 16 bytes) are not its dots.
    let in_domain = if n >= 16 { u32::MAX } else { (1 << n) - 1 };
    let dots = dot_lanes(window) & in_domain;
    let dot = if dots != 0 {
        dots.trailing_zeros() as usize
    } else if n <= 16 {
        // One label.
        return true;
    } else {
        match first_dot(domain) {
            Some(dot) => dot,
            None => return true,
        }
    };
    let list = PublicSuffixList::bundled();
    // As `key`: the first 8 bytes (zero-padded under 8) and the last 8
    // (none under 8), the same words from loads that stay in `bytes`.
    let first = u64::from_le_bytes(*window.first_chunk::<8>().expect("16 bytes"));
    let head = if n >= 8 {
        first
    } else {
        first & ((1 << (8 * n)) - 1)
    };
    let last = end.max(start + 8) - 8;
    let tail = u64::from_le_bytes(bytes[last..last + 8].try_into().expect("8 bytes"));
    let tail = if n >= 8 { tail } else { 0 };
    let own = mix(head, tail, n);
    debug_assert_eq!(own, key(domain));
    list.is_public_suffix_keyed(domain, own, dot)
}

/// Bit `k` set when byte `k` of `window` is a dot.
#[inline(always)]
fn dot_lanes(window: &[u8; 16]) -> u32 {
    if normurl_url::simd::VECTORS {
        // One window: the first answers.
        normurl_url::simd::find_in_windows(window, 0, [b'.'], |_, [dots]| Some(dots))
            .expect("one window")
    } else {
        window
            .iter()
            .enumerate()
            .fold(0, |mask, (k, &b)| mask | u32::from(b == b'.') << k)
    }
}

/// The list a canonicalizer's `strip-www` guard asks: the bundled one
/// (`None`, read the first time a `www.` host asks, so that canonicalizers
/// without `strip-www` never read it), or another list, shared by the
/// canonicalizer's clones.
#[derive(Clone, Default)]
pub(crate) struct Suffixes(Option<Arc<PublicSuffixList>>);

impl Suffixes {
    /// The guard of `psl`'s rules (its sections do not matter here).
    pub(crate) fn of(psl: &PublicSuffixList) -> Suffixes {
        Suffixes(Some(Arc::new(psl.clone())))
    }
}

impl fmt::Debug for Suffixes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            None => f.write_str("Suffixes(bundled)"),
            Some(list) => write!(f, "Suffixes({} rules)", list.len()),
        }
    }
}

/// The position of the first `.` in `s`, 8 bytes at a time: domains are
/// short, and a byte loop (or a call into `memchr`) cost more than the
/// answer is worth for the common `www.example.com`.
///
/// The first 16 bytes take two loads and no branch on which holds the
/// dot: after `www.`, the first label of crawled hosts is under 8 bytes
/// about as often as not, so a branch on it (a loop's exit) is
/// mispredicted often. This way costs more instructions a host, and less
/// time (docs/performance-history.md).
#[inline]
fn first_dot(s: &[u8]) -> Option<usize> {
    const DOTS: u64 = u64::from_le_bytes([b'.'; 8]);
    const LOW: u64 = u64::from_le_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_le_bytes([0x80; 8]);
    // The high bit of each zero byte of `v`, and maybe of bytes above a
    // zero byte (borrows), never below: so the lowest bit set marks the
    // first zero byte exactly, and a word without one has no bit set.
    let zeros = |v: u64| v.wrapping_sub(LOW) & !v & HIGH;
    let n = s.len();
    if n < 8 {
        return s.iter().position(|&b| b == b'.');
    }
    // Little-endian words: byte `k` of the word is `s[i + k]`, bits 8k..8k+8.
    let word = |i: usize| u64::from_le_bytes(s[i..i + 8].try_into().expect("8 bytes"));
    // The first word, and the next 8 bytes or, under 16, the last 8
    // (overlapping the first), as one 128-bit mask in which byte `k` of
    // `s` has bits 8k..8k+8: its lowest bit is the first dot.
    let second = 8.min(n - 8);
    let (z0, z1) = (zeros(word(0) ^ DOTS), zeros(word(second) ^ DOTS));
    let both = u128::from(z0) | u128::from(z1) << (8 * second);
    let at = (both.trailing_zeros() / 8) as usize;
    if at < n.min(16) {
        return Some(at);
    }
    let mut i = 16;
    while i + 8 < n {
        let z = zeros(word(i) ^ DOTS);
        if z != 0 {
            return Some(i + (z.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    if n <= 16 {
        return None;
    }
    // The last 8 bytes, overlapping what was already looked at (which
    // had no dot, so the first one found here is the first of `s`).
    let last = n - 8;
    let z = zeros(word(last) ^ DOTS);
    (z != 0).then(|| last + (z.trailing_zeros() / 8) as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bundled list's text.
    const LIST: &str = include_str!("../psl/public_suffix_list.dat");

    #[test]
    fn examples() {
        for suffix in [
            "com",
            "co.uk",
            "github.io",
            "blogspot.com",
            "pvt.k12.ma.us",
            "s3.amazonaws.com",
            "foo.ck",
            "xn--55qx5d.cn", // 公司.cn
            "local",
        ] {
            assert!(
                may_be_public_suffix(&Suffixes::default(), suffix.as_bytes()),
                "{suffix}"
            );
        }
        for domain in [
            "example.com",
            "example.co.uk",
            "www.ck",
            "city.kawasaki.jp",
            "foo.bar.baz",
        ] {
            assert!(
                !may_be_public_suffix(&Suffixes::default(), domain.as_bytes()),
                "{domain}"
            );
        }
    }

    /// The naive reference: the list's algorithm as published (find the
    /// matching rules, exceptions win, else the longest; the implicit `*`),
    /// on the rules as written.
    fn naive(domain: &str) -> bool {
        let rules: Vec<String> = LIST
            .lines()
            .filter_map(|l| l.split_whitespace().next())
            .filter(|r| !r.starts_with("//"))
            .map(|r| {
                let (bang, name) = r.strip_prefix('!').map_or(("", r), |n| ("!", n));
                let (star, name) = name.strip_prefix("*.").map_or(("", name), |n| ("*.", n));
                let ascii = idna::domain_to_ascii(name).unwrap_or_default();
                format!("{bang}{star}{ascii}")
            })
            .collect();
        let labels: Vec<&str> = domain.split('.').collect();
        let matches = |rule: &str| {
            let rule_labels: Vec<&str> = rule.split('.').collect();
            rule_labels.len() <= labels.len()
                && rule_labels
                    .iter()
                    .rev()
                    .zip(labels.iter().rev())
                    .all(|(r, l)| *r == "*" || r == l)
        };
        let mut best = 1; // the implicit "*"
        for rule in &rules {
            if let Some(exception) = rule.strip_prefix('!') {
                if matches(exception) {
                    return exception.split('.').count() - 1 == labels.len();
                }
            } else if matches(rule) {
                best = best.max(rule.split('.').count());
            }
        }
        best == labels.len()
    }

    #[test]
    fn matches_the_published_algorithm() {
        let mut domains: Vec<String> = [
            "com",
            "example.com",
            "www.ck",
            "foo.ck",
            "a.foo.ck",
            "city.kawasaki.jp",
            "x.kawasaki.jp",
            "kawasaki.jp",
            "co.uk",
            "a.co.uk",
            "github.io",
            "me.github.io",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        // Every 50th rule, as it is, one label up and one label down.
        for rule in LIST
            .lines()
            .filter(|l| !l.starts_with("//") && !l.is_empty())
            .step_by(50)
        {
            let name = rule.trim_start_matches('!').trim_start_matches("*.");
            let Ok(ascii) = idna::domain_to_ascii(name) else {
                continue;
            };
            domains.push(format!("x.{ascii}"));
            if let Some((_, parent)) = ascii.split_once('.') {
                domains.push(parent.to_owned());
            }
            domains.push(ascii);
        }
        // Every wildcard and exception rule (few, and the wildcard parents
        // have their own filter): the parent, a child and a grandchild.
        for rule in LIST
            .lines()
            .filter(|l| l.starts_with("*.") || l.starts_with('!'))
        {
            let name = rule.trim_start_matches('!').trim_start_matches("*.");
            let Ok(ascii) = idna::domain_to_ascii(name) else {
                continue;
            };
            domains.push(format!("x.{ascii}"));
            domains.push(format!("y.x.{ascii}"));
            domains.push(ascii);
        }
        assert!(domains.len() > 500);
        // The bundled list, and another copy of it (as `--psl FILE` gives
        // one), asked out of line.
        let of_components = Suffixes::of(PublicSuffixList::bundled());
        assert!(of_components.0.is_some());
        for domain in domains {
            let expected = naive(&domain);
            assert_eq!(
                may_be_public_suffix(&Suffixes::default(), domain.as_bytes()),
                expected,
                "{domain}"
            );
            assert_eq!(
                may_be_public_suffix(&of_components, domain.as_bytes()),
                expected,
                "{domain} (of the components' list)"
            );
            // Inside an href: after a scheme, followed by nothing, a short
            // path (fewer than 16 bytes from the domain's start, so the
            // general way) or a long one (the vector way), at the end of
            // the bytes or not.
            for after in ["", "/", "/a.b", "/path/with.dots/and-more/"] {
                let href = format!("http://{domain}{after}");
                let end = 7 + domain.len();
                assert_eq!(
                    may_be_public_suffix_at(&Suffixes::default(), href.as_bytes(), 7, end),
                    expected,
                    "{href}"
                );
            }
        }
    }

    proptest::proptest! {
        /// Domains of dots, letters and digits, of every length around
        /// the 8 and 16 bytes where the ways part, with the list's names
        /// among them: the vector way agrees with the general one.
        #[test]
        fn at_matches_the_domain_alone(
            labels in proptest::collection::vec(
                proptest::sample::select(vec!["a", "ck", "co", "uk", "jp", "kawasaki", "github", "io", "www", "x1", "com", ""]),
                1..7,
            ),
            before in 0..9usize,
            after in 0..20usize,
        ) {
            let domain = labels.join(".");
            let href = format!("{}{domain}{}", "h".repeat(before), "/".repeat(after));
            let end = before + domain.len();
            proptest::prop_assert_eq!(
                may_be_public_suffix_at(&Suffixes::default(), href.as_bytes(), before, end),
                may_be_public_suffix(&Suffixes::default(), domain.as_bytes()),
                "{}", href
            );
        }
    }

    /// The guard and the components of `--get` read one list: a name is a
    /// public suffix for the one when it is its own public suffix for the
    /// other (each rule's name, under a label, and its parent).
    #[test]
    fn agrees_with_the_components_list() {
        let psl = PublicSuffixList::bundled();
        let mut checked = 0;
        for rule in LIST
            .lines()
            .filter(|l| !l.starts_with("//") && !l.is_empty())
        {
            let name = rule.trim_start_matches('!').trim_start_matches("*.");
            let Ok(ascii) = idna::domain_to_ascii(name) else {
                continue;
            };
            let parent = ascii.split_once('.').map(|(_, p)| p.to_owned());
            for domain in [Some(ascii.clone()), Some(format!("x.{ascii}")), parent]
                .into_iter()
                .flatten()
            {
                let own = psl.split(&domain).public_suffix(&domain) == domain;
                assert_eq!(
                    may_be_public_suffix(&Suffixes::default(), domain.as_bytes()),
                    own,
                    "{domain}"
                );
                checked += 1;
            }
        }
        assert!(checked > 25_000, "{checked}");
    }

    #[test]
    fn first_dot_at_every_position() {
        for len in 0..40 {
            let mut s = vec![b'a'; len];
            assert_eq!(first_dot(&s), None);
            for i in 0..len {
                for b in [b'.', b'.' + 1, b'.' - 1, b'.' | 0x80, 0] {
                    s[i] = b;
                    let naive = s.iter().position(|&c| c == b'.');
                    assert_eq!(first_dot(&s), naive, "{len} {i} {b}");
                    // And with a second dot after it (a borrow must not
                    // make the later one win).
                    for j in i + 1..len {
                        s[j] = b'.';
                        let naive = s.iter().position(|&c| c == b'.');
                        assert_eq!(first_dot(&s), naive, "{len} {i} {b} {j}");
                        s[j] = b'a';
                    }
                }
                s[i] = b'a';
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn first_dot_matches_position(s in proptest::collection::vec(proptest::sample::select(b"./-\x00\xae\x2fa".to_vec()), 0..40)) {
            proptest::prop_assert_eq!(first_dot(&s), s.iter().position(|&c| c == b'.'));
        }
    }
}
