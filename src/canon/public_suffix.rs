//! A small, conservative stand-in for the Public Suffix List, for one
//! question: would stripping `www.` leave only a public suffix?
//!
//! normurl has no public-suffix dependency. The rule used instead errs on
//! the side of keeping `www.`: a remainder without a dot (`www.com`,
//! `www.local`) is always treated as a public suffix, and so is every
//! multi-label suffix below. The list is hand-written from well-known
//! registry and hosting suffixes (facts, not a copy of the PSL); a domain it
//! misses, such as `www.ac.xx` for some rare registry, gets `www.` stripped.

/// Multi-label public suffixes, sorted (checked by a test).
const MULTI_LABEL: &[&str] = &[
    "ac.at",
    "ac.be",
    "ac.cn",
    "ac.id",
    "ac.il",
    "ac.in",
    "ac.jp",
    "ac.kr",
    "ac.nz",
    "ac.th",
    "ac.uk",
    "ac.za",
    "appspot.com",
    "azurewebsites.net",
    "blogspot.com",
    "cloudfront.net",
    "co.at",
    "co.id",
    "co.il",
    "co.in",
    "co.jp",
    "co.ke",
    "co.kr",
    "co.nz",
    "co.th",
    "co.tz",
    "co.ug",
    "co.uk",
    "co.za",
    "co.zw",
    "com.ar",
    "com.au",
    "com.bd",
    "com.br",
    "com.cn",
    "com.co",
    "com.eg",
    "com.es",
    "com.gh",
    "com.gr",
    "com.hk",
    "com.mx",
    "com.my",
    "com.ng",
    "com.pe",
    "com.ph",
    "com.pk",
    "com.pl",
    "com.pt",
    "com.ru",
    "com.sa",
    "com.sg",
    "com.tr",
    "com.tw",
    "com.ua",
    "com.uy",
    "com.ve",
    "com.vn",
    "edu.au",
    "edu.cn",
    "edu.hk",
    "edu.mx",
    "edu.pl",
    "edu.sg",
    "edu.tr",
    "edu.tw",
    "github.io",
    "gitlab.io",
    "go.id",
    "go.jp",
    "go.kr",
    "gob.es",
    "gob.mx",
    "gouv.fr",
    "gov.au",
    "gov.br",
    "gov.cn",
    "gov.in",
    "gov.it",
    "gov.pl",
    "gov.sg",
    "gov.tr",
    "gov.uk",
    "gov.za",
    "govt.nz",
    "herokuapp.com",
    "ltd.uk",
    "me.uk",
    "ne.jp",
    "ne.kr",
    "net.au",
    "net.br",
    "net.cn",
    "net.in",
    "net.nz",
    "net.pl",
    "net.tr",
    "net.ua",
    "netlify.app",
    "nhs.uk",
    "or.at",
    "or.id",
    "or.jp",
    "or.kr",
    "org.au",
    "org.br",
    "org.cn",
    "org.hk",
    "org.il",
    "org.in",
    "org.mx",
    "org.nz",
    "org.pl",
    "org.tr",
    "org.uk",
    "org.za",
    "pages.dev",
    "plc.uk",
    "sch.uk",
    "vercel.app",
    "web.app",
];

/// Whether `domain` (lowercase ASCII, no trailing dot) may be a public
/// suffix, under the conservative rule above.
#[inline]
pub(crate) fn may_be_public_suffix(domain: &[u8]) -> bool {
    !has_dot(domain) || is_multi_label(domain)
}

/// Whether `s` has a `.`, 8 bytes at a time: domains are short, and a
/// byte loop (or a call into `memchr`) cost more than the lookup itself.
#[inline]
fn has_dot(s: &[u8]) -> bool {
    const DOTS: u64 = u64::from_ne_bytes([b'.'; 8]);
    const LOW: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    // Whether some byte of `v` is zero: exact as a yes/no answer (the
    // borrows only ever mark bytes above a zero byte).
    let has_zero = |v: u64| v.wrapping_sub(LOW) & !v & HIGH != 0;
    if s.len() < 8 {
        return s.contains(&b'.');
    }
    let word = |i: usize| u64::from_ne_bytes(s[i..i + 8].try_into().expect("8 bytes"));
    let mut i = 0;
    while i + 8 < s.len() {
        if has_zero(word(i) ^ DOTS) {
            return true;
        }
        i += 8;
    }
    // The last 8 bytes, overlapping what was already looked at.
    has_zero(word(s.len() - 8) ^ DOTS)
}

/// Whether `domain` is in [`MULTI_LABEL`]: one hash and usually one
/// comparison in a table built at compile time. `strip-www` asks this for
/// every `www.` host, about a quarter of crawled URLs, where a binary
/// search over strings cost seven comparisons.
#[inline]
fn is_multi_label(domain: &[u8]) -> bool {
    if domain.len() < MIN_LEN || domain.len() > MAX_LEN {
        return false;
    }
    let mut slot = hash_words(domain);
    loop {
        let entry = TABLE[slot];
        if entry.is_empty() {
            return false;
        }
        if entry == domain {
            return true;
        }
        slot = (slot + 1) % SLOTS;
    }
}

/// Slots of the open-addressing table: a power of two, about twice the
/// list, so probe sequences stay short (a test bounds them).
const SLOTS: usize = 256;

/// [`MULTI_LABEL`] by [`hash`], linear probing, `b""` for empty slots.
static TABLE: [&[u8]; SLOTS] = {
    const EMPTY: &[u8] = b"";
    let mut table = [EMPTY; SLOTS];
    let mut i = 0;
    while i < MULTI_LABEL.len() {
        let entry = MULTI_LABEL[i].as_bytes();
        let mut slot = hash(entry);
        while !table[slot].is_empty() {
            slot = (slot + 1) % SLOTS;
        }
        table[slot] = entry;
        i += 1;
    }
    table
};

const MIN_LEN: usize = length(true);
const MAX_LEN: usize = length(false);

// The hash reads 4 bytes from the end; probe sequences stay short while
// the table is at most half full.
const _: () = assert!(MIN_LEN >= 4 && MULTI_LABEL.len() * 2 <= SLOTS);

/// The shortest (`min`) or longest entry's length.
const fn length(min: bool) -> usize {
    let mut n = MULTI_LABEL[0].len();
    let mut i = 1;
    while i < MULTI_LABEL.len() {
        let len = MULTI_LABEL[i].len();
        if (min && len < n) || (!min && len > n) {
            n = len;
        }
        i += 1;
    }
    n
}

/// [`hash`] with two loads instead of six (it runs for every `www.`
/// host), for strings of at least 4 bytes.
#[inline]
fn hash_words(s: &[u8]) -> usize {
    let n = s.len();
    let head = u16::from_le_bytes([s[0], s[1]]);
    let last = u32::from_le_bytes(s[n - 4..].try_into().expect("4 bytes"));
    let key = u64::from(head) | u64::from(last) << 16 | (n as u64) << 48;
    (key.wrapping_mul(MULTIPLIER) >> 56) as usize % SLOTS
}

/// Picked by a search for the shortest probe sequences over the list (at
/// most 2 probes past the first slot); a test checks the bound, and an
/// entry added to the list that breaks it calls for another search.
const MULTIPLIER: u64 = 0x7241_e465_b59b_21ef;

/// A hash of the first two bytes, the last four and the length (which
/// together tell the entries apart well: `co.uk`, `ac.uk`, `co.at`), for
/// strings of at least 4 bytes.
const fn hash(s: &[u8]) -> usize {
    let n = s.len();
    let key = s[0] as u64
        | (s[1] as u64) << 8
        | (s[n - 4] as u64) << 16
        | (s[n - 3] as u64) << 24
        | (s[n - 2] as u64) << 32
        | (s[n - 1] as u64) << 40
        | (n as u64) << 48;
    (key.wrapping_mul(MULTIPLIER) >> 56) as usize % SLOTS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_is_sorted_lowercase_and_multi_label() {
        assert!(
            MULTI_LABEL.windows(2).all(|w| w[0] < w[1]),
            "unsorted or duplicate"
        );
        for s in MULTI_LABEL {
            assert!(
                s.contains('.') && s.bytes().all(|b| b == b'.' || b.is_ascii_lowercase()),
                "{s}"
            );
        }
    }

    #[test]
    fn examples() {
        assert!(may_be_public_suffix(b"com"));
        assert!(may_be_public_suffix(b"co.uk"));
        assert!(may_be_public_suffix(b"github.io"));
        assert!(!may_be_public_suffix(b"example.com"));
        assert!(!may_be_public_suffix(b"example.co.uk"));
    }

    /// The naive reference: a binary search of the sorted list.
    fn naive(domain: &[u8]) -> bool {
        !domain.contains(&b'.')
            || MULTI_LABEL
                .binary_search_by(|s| s.as_bytes().cmp(domain))
                .is_ok()
    }

    #[test]
    fn table_finds_every_entry_within_a_few_probes() {
        for entry in MULTI_LABEL {
            let home = hash(entry.as_bytes());
            let at = (0..SLOTS)
                .find(|&k| TABLE[(home + k) % SLOTS] == entry.as_bytes())
                .unwrap_or_else(|| panic!("{entry} missing"));
            assert!(at <= 2, "{entry}: {at} probes");
            assert!(is_multi_label(entry.as_bytes()));
        }
    }

    #[test]
    fn table_matches_binary_search_on_near_misses() {
        // Every entry with each byte changed, dropped or doubled, and with
        // prefixes and suffixes added: same length, same ends, same hash.
        for entry in MULTI_LABEL {
            let entry = entry.as_bytes();
            let mut near: Vec<Vec<u8>> = vec![
                [b"www.", entry].concat(),
                [entry, b".x"].concat(),
                entry[1..].to_vec(),
                entry[..entry.len() - 1].to_vec(),
            ];
            for i in 0..entry.len() {
                for b in [b'a', b'z', b'.', b'-'] {
                    let mut s = entry.to_vec();
                    s[i] = b;
                    near.push(s);
                }
                let mut s = entry.to_vec();
                s.remove(i);
                near.push(s);
                let mut s = entry.to_vec();
                s.insert(i, entry[i]);
                near.push(s);
            }
            for s in near {
                assert_eq!(
                    may_be_public_suffix(&s),
                    naive(&s),
                    "{}",
                    String::from_utf8_lossy(&s)
                );
            }
        }
    }

    #[test]
    fn hash_words_is_hash() {
        for entry in MULTI_LABEL {
            for s in [
                entry.as_bytes(),
                &entry.as_bytes()[1..],
                b"example.com",
                b"abcd",
            ] {
                assert_eq!(hash_words(s), hash(s), "{}", String::from_utf8_lossy(s));
            }
        }
    }

    #[test]
    fn has_dot_at_every_position() {
        for len in 0..40 {
            let mut s = vec![b'a'; len];
            assert!(!has_dot(&s));
            for i in 0..len {
                for b in [b'.', b'.' + 1, b'.' - 1, b'.' | 0x80] {
                    s[i] = b;
                    assert_eq!(has_dot(&s), b == b'.', "{len} {i} {b}");
                }
                s[i] = b'a';
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn matches_binary_search(domain in "[a-z.]{0,20}") {
            proptest::prop_assert_eq!(may_be_public_suffix(domain.as_bytes()), naive(domain.as_bytes()));
        }
    }
}
