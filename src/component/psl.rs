//! The [Public Suffix List](https://publicsuffix.org/list/) algorithm, with
//! the list's ICANN and private sections told apart, wildcards (`*.ck`) and
//! exceptions (`!www.ck`).
//!
//! The bundled list is `public_suffix_list.dat` beside this file (MPL-2.0,
//! see its header); [`PublicSuffixList::parse`] reads another copy (the
//! bundled one ages). The list is a hash table of every rule and of every
//! proper suffix of a rule, so a lookup walks the host's labels from the
//! right and stops at the first suffix that no rule extends: two probes for
//! `www.example.com`, no allocation.

use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

use crate::{HostKind, Url};

/// The bundled list, comments stripped except the section markers.
const BUNDLED: &str = include_str!("public_suffix_list.dat");

/// The date of the bundled list: when its rules were taken from the psl
/// crate (see the file's header).
pub const BUNDLED_DATE: &str = "2026-11-21";

// What the table says of a suffix: which kinds of rule it is, per section,
// and whether a longer rule ends with it (so that the walk goes on).
const EXACT_ICANN: u8 = 1;
const EXACT_PRIVATE: u8 = 2;
const WILD_ICANN: u8 = 4;
const WILD_PRIVATE: u8 = 8;
const EXCEPTION_ICANN: u8 = 16;
const EXCEPTION_PRIVATE: u8 = 32;
const EXTENDED: u8 = 64;
const ICANN_ONLY: u8 = EXACT_ICANN | WILD_ICANN | EXCEPTION_ICANN | EXTENDED;
const EXACT: u8 = EXACT_ICANN | EXACT_PRIVATE;
const WILD: u8 = WILD_ICANN | WILD_PRIVATE;
const EXCEPTION: u8 = EXCEPTION_ICANN | EXCEPTION_PRIVATE;

/// A Public Suffix List, ready for lookups.
///
/// # Example
///
/// ```
/// use normurl::component::PublicSuffixList;
///
/// let list = PublicSuffixList::bundled();
/// let host = "a.b.example.co.uk";
/// let split = list.split(host);
/// assert_eq!(split.public_suffix(host), "co.uk");
/// assert_eq!(split.registered_domain(host), Some("example.co.uk"));
/// // github.io is in the private section.
/// let host = "me.github.io";
/// let split = list.split(host);
/// assert_eq!(split.public_suffix(host), "github.io");
/// assert_eq!(split.icann_suffix(host), Some("io"));
/// ```
#[derive(Clone)]
pub struct PublicSuffixList {
    /// Open addressing, a power of two long; `flags == 0` is a free slot.
    slots: Vec<Slot>,
    /// The suffixes of the slots, one after another.
    names: String,
    rules: usize,
}

#[derive(Clone, Copy, Default)]
struct Slot {
    hash: u64,
    start: u32,
    len: u32,
    flags: u8,
}

/// A line of a list that is not a rule normurl can use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PslError {
    /// The line's number, from 1.
    pub line: usize,
    /// What is wrong with it.
    pub message: String,
}

impl fmt::Display for PslError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for PslError {}

impl fmt::Debug for PublicSuffixList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PublicSuffixList")
            .field("rules", &self.rules)
            .finish_non_exhaustive()
    }
}

/// FNV-1a over the bytes of a suffix from its end to its start, so that
/// the hash of `b.c` continues the hash of `c`: the walk over a host's
/// labels hashes each byte once.
const FNV_BASIS: u64 = 0xcbf2_9ce4_8422_2325;

#[inline]
fn hash_rev(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes.iter().rev() {
        h = step(h, b);
    }
    h
}

#[inline(always)]
fn step(h: u64, b: u8) -> u64 {
    (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
}

/// Where the label that ends at `end` (exclusive) starts.
#[inline]
fn label_start(bytes: &[u8], end: usize) -> usize {
    bytes[..end]
        .iter()
        .rposition(|&b| b == b'.')
        .map_or(0, |d| d + 1)
}

impl PublicSuffixList {
    /// The bundled list (see [`BUNDLED_DATE`]), read the first time it is
    /// asked for (a few milliseconds, once per process).
    pub fn bundled() -> &'static PublicSuffixList {
        static LIST: OnceLock<PublicSuffixList> = OnceLock::new();
        LIST.get_or_init(|| PublicSuffixList::parse(BUNDLED).expect("the bundled list parses"))
    }

    /// Reads a list in the format of `public_suffix_list.dat`: one rule per
    /// line (its first word), `//` comments, and the
    /// `===BEGIN PRIVATE DOMAINS===` marker starting the private section
    /// (rules before any marker are ICANN rules). Unicode rules are stored
    /// as their punycode, as the URL parser writes hosts.
    pub fn parse(text: &str) -> Result<PublicSuffixList, PslError> {
        let mut rules: HashMap<String, u8> = HashMap::new();
        let mut private = false;
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if let Some(comment) = line.strip_prefix("//") {
                if comment.contains("===BEGIN PRIVATE DOMAINS===") {
                    private = true;
                } else if comment.contains("===BEGIN ICANN DOMAINS===") {
                    private = false;
                }
                continue;
            }
            let Some(word) = line.split_whitespace().next() else {
                continue;
            };
            let err = |message: String| PslError {
                line: i + 1,
                message,
            };
            let (kind, name) = if let Some(rest) = word.strip_prefix('!') {
                (
                    if private {
                        EXCEPTION_PRIVATE
                    } else {
                        EXCEPTION_ICANN
                    },
                    rest,
                )
            } else if let Some(rest) = word.strip_prefix("*.") {
                (if private { WILD_PRIVATE } else { WILD_ICANN }, rest)
            } else {
                (if private { EXACT_PRIVATE } else { EXACT_ICANN }, word)
            };
            let name = ascii_name(name).ok_or_else(|| {
                err(format!(
                    "{word:?} is not a rule (a domain name, *.NAME or !NAME)"
                ))
            })?;
            if kind & EXCEPTION != 0 && !name.contains('.') {
                return Err(err(format!(
                    "exception {word:?} must have two labels or more"
                )));
            }
            *rules.entry(name.clone()).or_default() |= kind;
            // Every proper suffix leads on to this rule.
            for (dot, _) in name.match_indices('.') {
                *rules.entry(name[dot + 1..].to_owned()).or_default() |= EXTENDED;
            }
        }
        Ok(PublicSuffixList::from_rules(rules))
    }

    fn from_rules(rules: HashMap<String, u8>) -> PublicSuffixList {
        let size = (rules.len() * 2).next_power_of_two().max(16);
        let mut list = PublicSuffixList {
            slots: vec![Slot::default(); size],
            names: String::new(),
            rules: rules.values().filter(|&&f| f & !EXTENDED != 0).count(),
        };
        for (name, flags) in rules {
            let hash = hash_rev(FNV_BASIS, name.as_bytes());
            let mut i = list.index(hash);
            while list.slots[i].flags != 0 {
                i = (i + 1) & (size - 1);
            }
            list.slots[i] = Slot {
                hash,
                start: list.names.len() as u32,
                len: name.len() as u32,
                flags,
            };
            list.names.push_str(&name);
        }
        list
    }

    /// Each name a rule mentions, with whether it is an exact rule, the
    /// parent of a wildcard rule (`ck` of `*.ck`), an exception (`www.ck`
    /// of `!www.ck`), in either section: for the `strip-www` guard's own
    /// table (`canon::rules::public_suffix`).
    pub(crate) fn rules(&self) -> impl Iterator<Item = (&str, [bool; 3])> + '_ {
        self.slots
            .iter()
            .filter(|slot| slot.flags & !EXTENDED != 0)
            .map(|slot| {
                let start = slot.start as usize;
                let name = &self.names[start..start + slot.len as usize];
                let has = |kinds: u8| slot.flags & kinds != 0;
                (name, [has(EXACT), has(WILD), has(EXCEPTION)])
            })
    }

    /// The number of rules.
    pub fn len(&self) -> usize {
        self.rules
    }

    /// Whether the list has no rule (every host then has its last label as
    /// its public suffix).
    pub fn is_empty(&self) -> bool {
        self.rules == 0
    }

    #[inline]
    fn index(&self, hash: u64) -> usize {
        (hash.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) as usize & (self.slots.len() - 1)
    }

    /// The flags of `suffix` (of hash `hash`), 0 when no rule has it.
    #[inline]
    fn flags(&self, hash: u64, suffix: &[u8]) -> u8 {
        let mut i = self.index(hash);
        loop {
            let slot = self.slots[i];
            if slot.flags == 0 {
                return 0;
            }
            if slot.hash == hash
                && self.names.as_bytes()[slot.start as usize..(slot.start + slot.len) as usize]
                    == *suffix
            {
                return slot.flags;
            }
            i = (i + 1) & (self.slots.len() - 1);
        }
    }

    /// Splits `domain` (lowercase ASCII, punycode, as the URL parser
    /// writes domains; trailing dots are ignored) into its public suffixes,
    /// by the list's algorithm, with both sections and with ICANN rules
    /// only. Never allocates.
    pub fn split(&self, domain: &str) -> Split {
        let bytes = domain.trim_end_matches('.').as_bytes();
        let mut all = Walk::default();
        let mut icann = Walk::default();
        let mut hash = FNV_BASIS;
        let mut end = bytes.len();
        let mut last_label = None;
        loop {
            // One pass over the label, from its end: its hash and start.
            // (memrchr's set-up costs more than these short labels.)
            let mut start = end;
            while start > 0 && bytes[start - 1] != b'.' {
                start -= 1;
                hash = step(hash, bytes[start]);
            }
            last_label.get_or_insert(start);
            let flags = self.flags(hash, &bytes[start..]);
            all.step(flags, bytes, start, end);
            icann.step(flags & ICANN_ONLY, bytes, start, end);
            if flags & EXTENDED == 0 || start == 0 || (all.done && icann.done) {
                break;
            }
            hash = step(hash, b'.');
            end = start - 1;
        }
        let last_label = last_label.unwrap_or(0);
        Split {
            end: bytes.len(),
            suffix: all.found.unwrap_or(last_label),
            listed: all.found.is_some(),
            icann_suffix: icann.found,
        }
    }
}

/// The state of one section's walk in [`PublicSuffixList::split`].
#[derive(Default)]
struct Walk {
    /// Where the public suffix found so far starts.
    found: Option<usize>,
    /// An exception matched: it prevails over every other rule.
    done: bool,
}

impl Walk {
    /// Takes in the rules of the suffix `bytes[start..]`, whose first
    /// label ends at `end`.
    #[inline]
    fn step(&mut self, flags: u8, bytes: &[u8], start: usize, end: usize) {
        if self.done {
            return;
        }
        if flags & EXCEPTION != 0 {
            // `!www.ck`: the suffix is `ck`.
            self.found = Some(end + 1);
            self.done = true;
            return;
        }
        if flags & EXACT != 0 {
            self.found = Some(start);
        }
        if flags & WILD != 0 && start > 0 {
            // `*.ck` makes `anything.ck` a suffix.
            self.found = Some(label_start(bytes, start - 1));
        }
    }
}

/// Where the public suffixes of a domain start, as
/// [`PublicSuffixList::split`] found them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Split {
    /// The domain's length without trailing dots.
    end: usize,
    /// The public suffix by the rules of both sections, or the last label
    /// (the implicit `*` rule).
    suffix: usize,
    /// Whether a rule gave `suffix` (not the implicit `*`).
    listed: bool,
    /// The public suffix by the ICANN rules, when one matched.
    icann_suffix: Option<usize>,
}

impl Split {
    /// The public suffix by the rules of both sections, with the implicit
    /// `*` rule: an unlisted top-level domain is its own suffix.
    pub fn public_suffix<'d>(&self, domain: &'d str) -> &'d str {
        &domain[self.suffix..self.end]
    }

    /// The public suffix when a rule of the list gave it (`None` for an
    /// unlisted top-level domain): Common Crawl's private suffix.
    pub fn listed_suffix<'d>(&self, domain: &'d str) -> Option<&'d str> {
        self.listed.then(|| &domain[self.suffix..self.end])
    }

    /// The public suffix by the ICANN section's rules only, when one of
    /// them matched: Common Crawl's registry suffix.
    pub fn icann_suffix<'d>(&self, domain: &'d str) -> Option<&'d str> {
        self.icann_suffix.map(|s| &domain[s..self.end])
    }

    /// The public suffix and the label before it (the registrable domain):
    /// `None` when the domain is a public suffix, or that label is empty.
    pub fn registered_domain<'d>(&self, domain: &'d str) -> Option<&'d str> {
        one_label_more(domain, self.suffix, self.end)
    }

    /// [`Split::registered_domain`] for the suffix of [`Split::listed_suffix`].
    pub fn listed_domain<'d>(&self, domain: &'d str) -> Option<&'d str> {
        one_label_more(domain, self.suffix, self.end).filter(|_| self.listed)
    }

    /// [`Split::registered_domain`] for the suffix of [`Split::icann_suffix`].
    pub fn icann_domain<'d>(&self, domain: &'d str) -> Option<&'d str> {
        self.icann_suffix
            .and_then(|s| one_label_more(domain, s, self.end))
    }

    /// The labels before the registered domain, without the dot that ends
    /// them; empty when there are none or the domain has no registered
    /// domain.
    pub fn subdomain<'d>(&self, domain: &'d str) -> &'d str {
        match self.registered_domain(domain) {
            Some(r) => {
                let start = self.end - r.len();
                &domain[..start.saturating_sub(1)]
            }
            None => "",
        }
    }
}

/// `domain[..end]` from the label before `suffix_start` on, if there is a
/// non-empty one.
fn one_label_more(domain: &str, suffix_start: usize, end: usize) -> Option<&str> {
    if suffix_start < 2 {
        return None;
    }
    let dot = suffix_start - 1;
    let start = label_start(domain.as_bytes(), dot);
    (start < dot).then(|| &domain[start..end])
}

/// A rule's name as the URL parser writes domains: lowercase ASCII,
/// punycode for Unicode labels. `None` for what is not a domain name.
fn ascii_name(name: &str) -> Option<String> {
    if name.is_empty() || name.contains(['*', '!', '/', ':']) {
        return None;
    }
    if name
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.' || b == b'_')
    {
        return Some(name.to_ascii_lowercase());
    }
    let url = Url::parse(&format!("http://{name}/")).ok()?;
    (url.host_kind() == HostKind::Domain).then(|| url.hostname().to_owned())
}

#[cfg(test)]
mod tests;
