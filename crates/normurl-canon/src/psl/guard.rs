//! The `strip-www` guard's question of the list, "is this domain a public
//! suffix?", asked of every `www.` host (a quarter of crawled URLs): the
//! list's own table answers it, behind two filters that say "no" for
//! nearly every domain without touching the table, which the URLs
//! streaming through the cache have usually evicted.

use super::hash::key;
use super::{PublicSuffixList, EXACT, EXCEPTION, WILD};
use crate::shape::ShapeFilter;

/// The filters in front of the table, built with it from its rules.
#[derive(Clone)]
pub(crate) struct Guard {
    /// A Bloom filter of the exact rules of two labels or more (`co.uk`):
    /// most domains (`example.com`) are not one.
    exact: Bloom,
    /// The shapes of the wildcard parents (`ck` of `*.ck`): about 300
    /// names, so most parents are ruled out without a hash or a probe.
    wildcard_parents: ShapeFilter,
}

impl Guard {
    /// The filters of a list's rules: `(name, flags)` of every slot.
    pub(super) fn of<'n>(names: impl Iterator<Item = (&'n [u8], u8)>) -> Guard {
        let mut guard = Guard {
            exact: Bloom(Box::new([0; BLOOM_WORDS])),
            wildcard_parents: ShapeFilter::new(),
        };
        for (name, flags) in names {
            if flags & EXACT != 0 && name.contains(&b'.') {
                guard.exact.insert(key(name));
            }
            if flags & WILD != 0 {
                guard.wildcard_parents.insert(name);
            }
        }
        guard
    }
}

impl PublicSuffixList {
    /// Whether `domain` (lowercase ASCII, punycode for IDNs, no trailing
    /// dot) is a public suffix: the list's algorithm, both sections, gives
    /// it as its own suffix. It is a rule, or matches a wildcard rule
    /// (`*.ck`) without being an exception (`!www.ck`), or is a single
    /// label (the implicit `*` rule: an unknown top-level domain is a
    /// suffix too). The same answer as `split(domain).public_suffix(domain)
    /// == domain`, faster.
    ///
    /// ```
    /// use normurl_canon::psl::PublicSuffixList;
    ///
    /// let list = PublicSuffixList::bundled();
    /// assert!(list.is_public_suffix(b"co.uk") && list.is_public_suffix(b"foo.ck"));
    /// assert!(!list.is_public_suffix(b"example.com") && !list.is_public_suffix(b"www.ck"));
    /// ```
    pub fn is_public_suffix(&self, domain: &[u8]) -> bool {
        match domain.iter().position(|&b| b == b'.') {
            Some(dot) => self.is_public_suffix_keyed(domain, key(domain), dot),
            None => true,
        }
    }

    /// [`PublicSuffixList::is_public_suffix`] of a domain of more than one
    /// label, given its [`key`] and its first dot. The two filters say
    /// "no" for nearly every domain; the probes behind them are out of
    /// line, so that this stays small where it is inlined.
    #[inline(always)]
    pub(crate) fn is_public_suffix_keyed(&self, domain: &[u8], own: u64, dot: usize) -> bool {
        let parent = &domain[dot + 1..];
        if !self.guard.exact.may_contain(own) && !self.guard.wildcard_parents.may_contain(parent) {
            return false;
        }
        self.is_suffix_by_rules(domain, parent)
    }

    /// [`PublicSuffixList::is_public_suffix_keyed`] past its filters.
    #[cold]
    #[inline(never)]
    fn is_suffix_by_rules(&self, domain: &[u8], parent: &[u8]) -> bool {
        let own = self.flags(domain);
        own & EXACT != 0 || (self.flags(parent) & WILD != 0 && own & EXCEPTION == 0)
    }
}

/// The words of a [`Bloom`] filter: 2^17 bits, for about 9,000 names and
/// two bits each, so that about one name in 70 that is not in the list
/// passes.
const BLOOM_WORDS: usize = 2048;

/// A Bloom filter of names by their [`key`]: two bits per name.
#[derive(Clone)]
struct Bloom(Box<[u64; BLOOM_WORDS]>);

impl Bloom {
    /// The two bits of a key: two disjoint 17-bit pieces of its upper half
    /// (the multiplication mixes every input bit into the upper bits, not
    /// into the lower ones).
    #[inline(always)]
    fn bits(key: u64) -> [usize; 2] {
        const MASK: u64 = BLOOM_WORDS as u64 * 64 - 1;
        [(key >> 47) as usize, (key >> 30 & MASK) as usize]
    }

    fn insert(&mut self, key: u64) {
        for bit in Bloom::bits(key) {
            self.0[bit / 64] |= 1 << (bit % 64);
        }
    }

    /// False when no inserted name has this key.
    #[inline(always)]
    fn may_contain(&self, key: u64) -> bool {
        let [a, b] = Bloom::bits(key);
        (self.0[a / 64] >> (a % 64)) & (self.0[b / 64] >> (b % 64)) & 1 != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters_pass_every_rule_and_few_other_names() {
        let list = PublicSuffixList::bundled();
        let mut exact = 0;
        for slot in list.slots.iter().filter(|slot| slot.flags != 0) {
            let name = list.name(slot);
            if slot.flags & EXACT != 0 && name.contains(&b'.') {
                assert!(list.guard.exact.may_contain(key(name)));
                exact += 1;
            }
            if slot.flags & WILD != 0 {
                assert!(list.guard.wildcard_parents.may_contain(name));
            }
        }
        assert!(exact > 7000, "{exact} exact rules");
        // Names the list does not have, shaped like the domains `www.`
        // leaves: the filter should stop nearly all before the table.
        let mut passed = 0;
        let tried = 20_000;
        for i in 0..tried {
            let name = format!("site{i}.{}", ["com", "org", "co.uk", "de", "net"][i % 5]);
            passed += usize::from(list.guard.exact.may_contain(key(name.as_bytes())));
        }
        // About 1.3% with independent bits (9,000 names, 2^17 bits, 2 bits
        // each); well past that would mean the bits are correlated.
        assert!(passed < tried / 40, "{passed} of {tried} passed the filter");
    }

    /// The guard's answer is the list's algorithm's: a domain is a public
    /// suffix when `split` gives it as its own, for each rule's name, a
    /// label under it and its parent, of a list with wildcards and
    /// exceptions in both sections.
    #[test]
    fn agrees_with_split() {
        let text = "com\n*.ck\n!www.ck\nco.uk\n// ===BEGIN PRIVATE DOMAINS===\ngithub.io\n*.compute.example\n!ok.compute.example\n";
        for list in [
            PublicSuffixList::bundled(),
            &PublicSuffixList::parse(text).unwrap(),
        ] {
            let mut checked = 0;
            for slot in list.slots.iter().filter(|slot| slot.flags != 0) {
                let name = std::str::from_utf8(list.name(slot)).unwrap();
                let parent = name.split_once('.').map(|(_, p)| p.to_owned());
                for domain in [Some(name.to_owned()), Some(format!("x.{name}")), parent]
                    .into_iter()
                    .flatten()
                {
                    let own = list.split(&domain).public_suffix(&domain) == domain;
                    assert_eq!(list.is_public_suffix(domain.as_bytes()), own, "{domain}");
                    checked += 1;
                }
            }
            assert!(checked >= 2 * list.len(), "{checked}");
        }
    }
}
