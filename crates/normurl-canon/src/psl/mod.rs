//! The [Public Suffix List](https://publicsuffix.org/list/) algorithm, with
//! the list's ICANN and private sections told apart, wildcards (`*.ck`) and
//! exceptions (`!www.ck`).
//!
//! The bundled list is `public_suffix_list.dat` beside this file (MPL-2.0,
//! see its header); [`PublicSuffixList::parse`] reads another copy (the
//! bundled one ages). The list is a hash table of every rule and of every
//! proper suffix of a rule, so a lookup walks the host's labels from the
//! right and stops at the first suffix that no rule extends: two probes for
//! `www.example.com`, no allocation. A suffix is hashed from two word loads
//! and its length, and its labels found 8 bytes at a time, so that a walk
//! costs per label rather than per byte.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;
use std::ops::Range;
use std::sync::OnceLock;

use hash::{mix, words};
use normurl_url::{HostKind, Url};

mod guard;
pub(crate) mod hash;

use guard::Guard;

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
/// use normurl_canon::component::PublicSuffixList;
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
    /// Each slot's tag (bits of its name's hash, never 0), 0 for a free
    /// slot: a probe reads this small table, which stays in the
    /// processor's cache, and the slot only when the tag is the name's.
    tags: Vec<u16>,
    /// `slots.len() - 1`.
    mask: usize,
    /// The suffixes of the slots, one after another.
    names: String,
    rules: usize,
    /// The filters in front of [`PublicSuffixList::is_public_suffix`].
    guard: Guard,
}

#[derive(Clone, Copy, Default)]
struct Slot {
    /// The name's first and last words (`words`): with its length, all
    /// of a name of up to 16 bytes, so that most probes compare no bytes.
    head: u64,
    tail: u64,
    start: u32,
    len: u16,
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

/// A slot's tag from its name's key: bits that [`PublicSuffixList::index`]
/// does not use, never 0.
#[inline(always)]
fn tag(key: u64) -> u16 {
    (key >> 8) as u16 | 1
}

/// Where the label that ends at `end` (exclusive) starts: after the last
/// dot before `end`, or at 0. Eight bytes at a time from the end: labels
/// are short, and a call into `memrchr` costs more than they do.
#[inline(always)]
fn label_start(bytes: &[u8], end: usize) -> usize {
    const DOTS: u64 = u64::from_le_bytes([b'.'; 8]);
    const LOW7: u64 = u64::from_le_bytes([0x7f; 8]);
    let mut e = end;
    while e >= 8 {
        let x = u64::from_le_bytes(bytes[e - 8..e].try_into().expect("8 bytes")) ^ DOTS;
        // The high bit of each zero byte of `x` (a dot), exactly: no
        // carry crosses from byte to byte, so the highest is the last dot.
        let dots = !(((x & LOW7) + LOW7) | x | LOW7);
        if dots != 0 {
            return e - 8 + (63 - dots.leading_zeros() as usize) / 8 + 1;
        }
        e -= 8;
    }
    bytes[..e]
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
        // Names borrowed from `text` where they are already lowercase
        // ASCII (nearly all): a name and its suffixes need no copy.
        let mut rules: HashMap<Cow<'_, str>, u8> = HashMap::new();
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
            // Every proper suffix leads on to this rule.
            for (dot, _) in name.match_indices('.') {
                let suffix = match &name {
                    Cow::Borrowed(name) => Cow::Borrowed(&name[dot + 1..]),
                    Cow::Owned(name) => Cow::Owned(name[dot + 1..].to_owned()),
                };
                *rules.entry(suffix).or_default() |= EXTENDED;
            }
            *rules.entry(name).or_default() |= kind;
        }
        Ok(PublicSuffixList::from_rules(rules))
    }

    fn from_rules(rules: HashMap<Cow<'_, str>, u8>) -> PublicSuffixList {
        // A slot says a name's length in 16 bits: a rule of more bytes
        // (no DNS name has more than 253) is left out.
        let rules: Vec<(Cow<str>, u8)> = rules
            .into_iter()
            .filter(|(name, _)| name.len() <= usize::from(u16::MAX))
            .collect();
        let size = (rules.len() * 2).next_power_of_two().max(16);
        let mut list = PublicSuffixList {
            slots: vec![Slot::default(); size],
            tags: vec![0; size],
            mask: size - 1,
            names: String::new(),
            rules: rules.iter().filter(|(_, f)| f & !EXTENDED != 0).count(),
            guard: Guard::of(std::iter::empty()),
        };
        for (name, flags) in rules {
            let (head, tail) = words(name.as_bytes());
            let key = mix(head, tail, name.len());
            let mut i = list.index(key);
            while list.slots[i].flags != 0 {
                i = (i + 1) & list.mask;
            }
            list.tags[i] = tag(key);
            list.slots[i] = Slot {
                head,
                tail,
                start: u32::try_from(list.names.len()).expect("a list under 4 GiB"),
                len: name.len() as u16,
                flags,
            };
            list.names.push_str(&name);
        }
        list.guard = Guard::of(
            list.slots
                .iter()
                .filter(|slot| slot.flags != 0)
                .map(|slot| (list.name(slot), slot.flags)),
        );
        list
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

    /// The first slot of a name of key `key` (`mix` mixes into the upper
    /// bits).
    #[inline(always)]
    fn index(&self, key: u64) -> usize {
        (key >> 32) as usize & self.mask
    }

    /// The flags of `suffix`, 0 when no rule has it.
    #[inline(always)]
    fn flags(&self, suffix: &[u8]) -> u8 {
        let (head, tail) = words(suffix);
        let n = suffix.len();
        let key = mix(head, tail, n);
        let tag = tag(key);
        let mut i = self.index(key);
        loop {
            match self.tags[i] {
                0 => return 0,
                t if t == tag => {
                    let slot = &self.slots[i];
                    if slot.head == head
                        && slot.tail == tail
                        && usize::from(slot.len) == n
                        && (n <= 16 || self.name(slot) == suffix)
                    {
                        return slot.flags;
                    }
                }
                _ => {}
            }
            i = (i + 1) & self.mask;
        }
    }

    fn name(&self, slot: &Slot) -> &[u8] {
        let start = slot.start as usize;
        &self.names.as_bytes()[start..start + usize::from(slot.len)]
    }

    /// Splits `domain` (lowercase ASCII, punycode, as the URL parser
    /// writes domains; trailing dots are ignored) into its public suffixes,
    /// by the list's algorithm, with both sections and with ICANN rules
    /// only. Never allocates.
    pub fn split(&self, domain: &str) -> Split {
        if u32::try_from(domain.len()).is_err() {
            // No host is that long (URLs have 32-bit offsets).
            return Split::NOTHING;
        }
        let mut n = domain.len();
        while n > 0 && domain.as_bytes()[n - 1] == b'.' {
            n -= 1;
        }
        let bytes = &domain.as_bytes()[..n];
        // Exact rules only, which is nearly every host: where the longest
        // rule of both sections and the longest ICANN one start.
        const NONE: usize = usize::MAX;
        let (mut all, mut icann) = (NONE, NONE);
        let last_label = label_start(bytes, n);
        let mut start = last_label;
        loop {
            let flags = self.flags(&bytes[start..]);
            if flags & (WILD | EXCEPTION) != 0 {
                return self.split_with_walks(bytes);
            }
            if flags & EXACT != 0 {
                all = start;
            }
            if flags & EXACT_ICANN != 0 {
                icann = start;
            }
            if flags & EXTENDED == 0 || start == 0 {
                break;
            }
            start = label_start(bytes, start - 1);
        }
        let suffix = all.min(last_label);
        Split::new(
            n,
            suffix,
            one_label_more(bytes, suffix),
            all != NONE,
            (icann != NONE).then_some(icann),
        )
    }

    /// [`PublicSuffixList::split`] of `bytes` (no trailing dots) by every
    /// kind of rule, wildcards and exceptions too: a walk per section.
    #[cold]
    #[inline(never)]
    fn split_with_walks(&self, bytes: &[u8]) -> Split {
        let mut all = Walk::default();
        let mut icann = Walk::default();
        let last_label = label_start(bytes, bytes.len());
        let mut start = last_label;
        loop {
            let flags = self.flags(&bytes[start..]);
            all.step(flags, bytes, start);
            icann.step(flags & ICANN_ONLY, bytes, start);
            if flags & EXTENDED == 0 || start == 0 || (all.done && icann.done) {
                break;
            }
            start = label_start(bytes, start - 1);
        }
        let suffix = all.found.unwrap_or(last_label);
        Split::new(
            bytes.len(),
            suffix,
            one_label_more(bytes, suffix),
            all.found.is_some(),
            icann.found,
        )
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
    /// Takes in the rules of the suffix `bytes[start..]`.
    #[inline(always)]
    fn step(&mut self, flags: u8, bytes: &[u8], start: usize) {
        if self.done || flags == 0 {
            return;
        }
        if flags & EXCEPTION != 0 {
            // `!www.ck`: the suffix is `ck`, after the exception's first
            // label.
            self.found = Some(label_end(bytes, start) + 1);
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
/// [`PublicSuffixList::split`] found them: byte offsets, `u32::MAX` for
/// none (not `Option<usize>`s: the split of a cached host is then five
/// small numbers, which stay in registers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Split {
    /// The domain's length without trailing dots.
    end: u32,
    /// The public suffix by the rules of both sections, or the last label
    /// (the implicit `*` rule).
    suffix: u32,
    /// Where the registered domain starts: the label before `suffix`, if
    /// there is a non-empty one.
    domain: u32,
    /// The public suffix by the ICANN rules, when one matched.
    icann_suffix: u32,
    /// Whether a rule gave `suffix` (not the implicit `*`).
    listed: bool,
}

/// A [`Split`]'s offset that is not there.
const ABSENT: u32 = u32::MAX;

/// A [`Split`] of a domain of at most 254 bytes, each offset a byte (255
/// for [`ABSENT`]): what [`SplitCache`](super::SplitCache) keeps.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct PackedSplit([u8; 4], bool);

impl PackedSplit {
    /// [`Split::range`] of the split this is, read off the bytes for the
    /// parts that are one offset to the end.
    #[inline(always)]
    pub(crate) fn range(self, domain: &[u8], part: Part) -> Range<usize> {
        let [end, suffix, domain_start, icann_suffix] = self.0;
        let from = |start: u8| match start {
            255 => 0..0,
            s => usize::from(s)..usize::from(end),
        };
        let listed = |start: u8| if self.1 { start } else { 255 };
        match part {
            Part::PublicSuffix => from(suffix),
            Part::ListedSuffix => from(listed(suffix)),
            Part::IcannSuffix => from(icann_suffix),
            Part::RegisteredDomain => from(domain_start),
            Part::ListedDomain => from(listed(domain_start)),
            Part::IcannDomain | Part::Subdomain => self.unpack().range(domain, part),
        }
    }

    /// The split this is.
    #[inline(always)]
    pub(crate) fn unpack(self) -> Split {
        let wide = |b: u8| if b == 255 { ABSENT } else { u32::from(b) };
        let [end, suffix, domain, icann_suffix] = self.0.map(wide);
        Split {
            end,
            suffix,
            domain,
            icann_suffix,
            listed: self.1,
        }
    }
}

/// What of a domain a component of the list is (crate-internal: the
/// components write [`Split::range`]s, with no `str` boundary checks).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[doc(hidden)]
pub enum Part {
    PublicSuffix,
    ListedSuffix,
    IcannSuffix,
    RegisteredDomain,
    ListedDomain,
    IcannDomain,
    Subdomain,
}

impl Split {
    /// The split of a domain too long to have been a host.
    const NOTHING: Split = Split {
        end: 0,
        suffix: 0,
        domain: ABSENT,
        icann_suffix: ABSENT,
        listed: false,
    };

    /// The split of a domain of `end` bytes (less than 4 GiB).
    #[inline(always)]
    fn new(
        end: usize,
        suffix: usize,
        domain: Option<usize>,
        listed: bool,
        icann_suffix: Option<usize>,
    ) -> Split {
        let offset = |at: usize| at as u32;
        Split {
            end: offset(end),
            suffix: offset(suffix),
            domain: domain.map_or(ABSENT, offset),
            icann_suffix: icann_suffix.map_or(ABSENT, offset),
            listed,
        }
    }

    /// This split in bytes, for a domain of at most 254 bytes.
    #[inline(always)]
    pub(crate) fn pack(&self) -> PackedSplit {
        debug_assert!(self.end < 255, "{self:?}");
        // `ABSENT` becomes 255; no other offset is that large.
        let byte = |at: u32| at.min(255) as u8;
        let offsets = [self.end, self.suffix, self.domain, self.icann_suffix];
        PackedSplit(offsets.map(byte), self.listed)
    }

    /// Where `part` of `domain` (the one split) is: empty when the domain
    /// has none. The methods that return `str`s are these ranges.
    #[inline(always)]
    pub(crate) fn range(&self, domain: &[u8], part: Part) -> Range<usize> {
        let end = self.end as usize;
        let from = |start: u32| match start {
            ABSENT => 0..0,
            s => s as usize..end,
        };
        let listed = |start: u32| if self.listed { start } else { ABSENT };
        match part {
            Part::PublicSuffix => from(self.suffix),
            Part::ListedSuffix => from(listed(self.suffix)),
            Part::IcannSuffix => from(self.icann_suffix),
            Part::RegisteredDomain => from(self.domain),
            Part::ListedDomain => from(listed(self.domain)),
            Part::IcannDomain => match self.icann_suffix {
                ABSENT => 0..0,
                s => one_label_more(&domain[..end], s as usize).map_or(0..0, |d| d..end),
            },
            // Without the dot that ends the subdomain.
            Part::Subdomain => match self.domain {
                ABSENT => 0..0,
                s => 0..(s as usize).saturating_sub(1),
            },
        }
    }

    /// `part` of `domain` as a `str`, `None` when empty.
    fn part<'d>(&self, domain: &'d str, part: Part) -> Option<&'d str> {
        let range = self.range(domain.as_bytes(), part);
        (!range.is_empty()).then(|| &domain[range])
    }

    /// The public suffix by the rules of both sections, with the implicit
    /// `*` rule: an unlisted top-level domain is its own suffix.
    pub fn public_suffix<'d>(&self, domain: &'d str) -> &'d str {
        &domain[self.range(domain.as_bytes(), Part::PublicSuffix)]
    }

    /// The public suffix when a rule of the list gave it (`None` for an
    /// unlisted top-level domain): Common Crawl's private suffix.
    pub fn listed_suffix<'d>(&self, domain: &'d str) -> Option<&'d str> {
        self.part(domain, Part::ListedSuffix)
    }

    /// The public suffix by the ICANN section's rules only, when one of
    /// them matched: Common Crawl's registry suffix.
    pub fn icann_suffix<'d>(&self, domain: &'d str) -> Option<&'d str> {
        self.part(domain, Part::IcannSuffix)
    }

    /// The public suffix and the label before it (the registrable domain):
    /// `None` when the domain is a public suffix, or that label is empty.
    pub fn registered_domain<'d>(&self, domain: &'d str) -> Option<&'d str> {
        self.part(domain, Part::RegisteredDomain)
    }

    /// [`Split::registered_domain`] for the suffix of [`Split::listed_suffix`].
    pub fn listed_domain<'d>(&self, domain: &'d str) -> Option<&'d str> {
        self.part(domain, Part::ListedDomain)
    }

    /// [`Split::registered_domain`] for the suffix of [`Split::icann_suffix`].
    pub fn icann_domain<'d>(&self, domain: &'d str) -> Option<&'d str> {
        self.part(domain, Part::IcannDomain)
    }

    /// The labels before the registered domain, without the dot that ends
    /// them; empty when there are none or the domain has no registered
    /// domain.
    pub fn subdomain<'d>(&self, domain: &'d str) -> &'d str {
        self.part(domain, Part::Subdomain).unwrap_or("")
    }
}

/// Where the label before the suffix at `suffix_start` starts, if there
/// is a non-empty one.
#[inline(always)]
fn one_label_more(domain: &[u8], suffix_start: usize) -> Option<usize> {
    if suffix_start < 2 {
        return None;
    }
    let dot = suffix_start - 1;
    let start = label_start(domain, dot);
    (start < dot).then_some(start)
}

/// Where the label that starts at `start` ends: at the next dot, or the
/// end.
fn label_end(bytes: &[u8], start: usize) -> usize {
    bytes[start..]
        .iter()
        .position(|&b| b == b'.')
        .map_or(bytes.len(), |d| start + d)
}

/// A rule's name as the URL parser writes domains: lowercase ASCII,
/// punycode for Unicode labels. `None` for what is not a domain name.
fn ascii_name(name: &str) -> Option<Cow<'_, str>> {
    if name.is_empty() || name.contains(['*', '!', '/', ':']) {
        return None;
    }
    if name.bytes().all(|b| {
        b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'.' || b == b'_'
    }) {
        return Some(Cow::Borrowed(name));
    }
    if name
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.' || b == b'_')
    {
        return Some(Cow::Owned(name.to_ascii_lowercase()));
    }
    let url = Url::parse(&format!("http://{name}/")).ok()?;
    (url.host_kind() == HostKind::Domain).then(|| Cow::Owned(url.hostname().to_owned()))
}

#[cfg(test)]
mod tests;
