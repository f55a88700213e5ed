//! The fast versions of [`apply`]: [`apply_plain`] for an ASCII query of
//! a few parameters, read with bit masks of its `&`, `=`, `%` and `+`,
//! and [`apply_single`] for a query of one parameter. Each gives what
//! [`apply`] gives, or hands the query to it.

use std::cmp::Ordering;

use super::sort::{key, padded_prefix};
use super::{apply, Outcome, Params, QueryScratch, Verdict};
use crate::rule::{Rule, RuleSet};

/// Longest query [`apply_plain`] takes (the bits of its masks).
pub(super) const PLAIN_LEN: usize = 256;

/// The orders of `sort-query` other than by name, which [`apply_plain`]
/// leaves to [`apply`].
const NOT_BY_NAME: RuleSet = RuleSet::from_rules(&[Rule::SortQueryValues, Rule::SortQueryBytes]);

/// A parameter that stays, for [`apply_plain`].
#[derive(Clone, Copy, Debug)]
pub(super) struct Kept {
    start: u32,
    name_end: u32,
    end: u32,
    /// The first 8 bytes of the name, big-endian, padded with zeros.
    prefix: u64,
}

impl Kept {
    /// Orders two parameters by name (as
    /// [`form::cmp_code_units`](crate::form::cmp_code_units) does on
    /// ASCII: byte order), the prefix first.
    #[inline(always)]
    fn cmp_name(&self, other: &Kept, query: &[u8]) -> Ordering {
        self.prefix.cmp(&other.prefix).then_with(|| {
            query[self.start as usize..self.name_end as usize]
                .cmp(&query[other.start as usize..other.name_end as usize])
        })
    }
}

/// [`apply`] for the fast path's queries, which are ASCII and whose names
/// mostly have no `%` or `+` (so they are what the form-urlencoded parser
/// decodes, and order by their bytes), have a few parameters and keep
/// them all (`params.starts` tells most of them from their first two
/// bytes). It finds the `&`, `=`, `%` and `+` of the whole query with one
/// vector pass into bit masks and records what stays in `scratch`
/// without decoding or copying. Anything else goes to [`apply`]: a name
/// with `%` or `+`, `sort-query-values` or `-bytes`, a ColdFusion id, a query of more
/// than [`PLAIN_LEN`] bytes. The outcome and what it writes are
/// [`apply`]'s (a property test compares them).
pub(crate) fn apply_plain(
    query: &[u8],
    params: &Params<'_>,
    scratch: &mut QueryScratch,
    out: &mut Vec<u8>,
) -> Outcome {
    let rules = params.rules;
    let (Some(starts), true, true) = (
        params.starts,
        rules.intersection(NOT_BY_NAME).is_empty(),
        !query.is_empty() && query.len() <= PLAIN_LEN,
    ) else {
        return apply(query, params, scratch, out);
    };
    debug_assert!(query.is_ascii());
    let masks = plain_masks(query);
    let kept = &mut scratch.kept;
    kept.clear();
    let mut outcome = Outcome::default();
    let (mut removed_any, mut stripped_any, mut sorted) = (false, false, true);
    let mut exempt = None;
    let len = query.len();
    let mut start = 0;
    loop {
        let end = next_bit(&masks.amp, start, len);
        let name_end = next_bit(&masks.eq, start, end);
        if next_bit(&masks.escape, start, name_end) < name_end {
            // A name to decode: `apply`'s.
            return apply(query, params, scratch, out);
        }
        let piece = &query[start..end];
        let mut keep = true;
        if piece.is_empty() {
            if rules.contains(Rule::DropEmptyParams) {
                keep = false;
                removed_any = true;
                outcome.fired.insert(Rule::DropEmptyParams);
            }
        } else if starts.may_remove(piece) {
            let value = query.get(name_end + 1..end).unwrap_or(b"");
            match params.verdict(&query[start..name_end], value, &mut exempt) {
                Verdict::Keep => {}
                Verdict::Strip(rule) => {
                    keep = false;
                    removed_any = true;
                    stripped_any = true;
                    outcome.fired.insert(rule);
                }
                // A pair to look for across the query: `apply`'s.
                Verdict::Cfid | Verdict::Cftoken => return apply(query, params, scratch, out),
            }
        }
        if keep {
            let param = Kept {
                start: start as u32,
                name_end: name_end as u32,
                end: end as u32,
                prefix: padded_prefix(query, start, name_end),
            };
            if let Some(last) = kept.last() {
                sorted &= last.cmp_name(&param, query) != Ordering::Greater;
            }
            kept.push(param);
        }
        if end == len {
            break;
        }
        start = end + 1;
    }
    let reordered = rules.contains(Rule::SortQuery) && !sorted;
    if reordered {
        // By name, then position (a stable sort): few parameters, so an
        // insertion sort.
        for i in 1..kept.len() {
            let mut j = i;
            while j > 0 && kept[j - 1].cmp_name(&kept[j], query) == Ordering::Greater {
                kept.swap(j - 1, j);
                j -= 1;
            }
        }
        outcome.fired.insert(Rule::SortQuery);
    }
    if !removed_any && !reordered {
        return outcome;
    }
    outcome.changed = true;
    outcome.stripped_all = stripped_any && kept.is_empty();
    out.reserve(len);
    for (i, param) in kept.iter().enumerate() {
        if i > 0 {
            out.push(b'&');
        }
        out.extend_from_slice(&query[param.start as usize..param.end as usize]);
    }
    outcome
}

/// Where a query's `&`, `=` and escapes (`%` and `+`) are: bit `i` of
/// each mask (word `i / 64`) for byte `i`.
struct PlainMasks {
    amp: [u64; MASK_WORDS],
    eq: [u64; MASK_WORDS],
    escape: [u64; MASK_WORDS],
}

/// The words of a [`PlainMasks`] mask.
const MASK_WORDS: usize = PLAIN_LEN / 64;

/// The [`PlainMasks`] of `query` (at most [`PLAIN_LEN`] bytes), from
/// [`find_in_windows`](normurl_url::simd::find_in_windows)' 16-byte windows.
#[inline(always)]
fn plain_masks(query: &[u8]) -> PlainMasks {
    let mut masks = PlainMasks {
        amp: [0; MASK_WORDS],
        eq: [0; MASK_WORDS],
        escape: [0; MASK_WORDS],
    };
    // The bits of bytes `at..at + 16` (`at` a multiple of 16, so they stay
    // in one word).
    let mut set = |at: usize, [amp, eq, percent, plus]: [u32; 4]| {
        let (word, shift) = (at / 64, at % 64);
        masks.amp[word] |= u64::from(amp) << shift;
        masks.eq[word] |= u64::from(eq) << shift;
        masks.escape[word] |= u64::from(percent | plus) << shift;
    };
    if normurl_url::simd::VECTORS && query.len() >= 16 {
        // The windows start at 0, 16, 32... but the last one ends at the
        // end of the query, with the lanes already seen masked off: shift
        // them back to where the window was due.
        let mut at = 0;
        normurl_url::simd::find_in_windows(query, 0, [b'&', b'=', b'%', b'+'], |base, found| {
            set(at, found.map(|lanes| lanes >> (at - base)));
            at += 16;
            None::<()>
        });
        return masks;
    }
    for (i, &b) in query.iter().enumerate() {
        set(i, [b'&', b'=', b'%', b'+'].map(|c| u32::from(b == c)));
    }
    masks
}

/// The first set bit of `mask` at `from` or after, or `end` when there is
/// none before it.
#[inline(always)]
fn next_bit(mask: &[u64; MASK_WORDS], from: usize, end: usize) -> usize {
    let mut word = from / 64;
    let mut bits = mask.get(word).map_or(0, |w| w & (u64::MAX << (from % 64)));
    while bits == 0 {
        word += 1;
        if word * 64 >= end {
            return end;
        }
        bits = mask[word];
    }
    (word * 64 + bits.trailing_zeros() as usize).min(end)
}

/// [`apply`] for a query without `&`, which is most queries: one
/// parameter, so nothing to sort and no empty piece to drop, and a lone
/// `cfid` has no `cftoken` to pair with. The parameter goes when it is a
/// tracking parameter or a session id, and then the whole query with it
/// (`stripped_all`); nothing is written either way.
pub(crate) fn apply_single(
    query: &[u8],
    params: &Params<'_>,
    scratch: &mut QueryScratch,
) -> Outcome {
    debug_assert!(!query.contains(&b'&'));
    if query.is_empty() {
        return Outcome::default();
    }
    if params
        .starts
        .is_some_and(|starts| !starts.may_remove_decoded(query))
    {
        return Outcome::default();
    }
    let name_end = query.iter().position(|&b| b == b'=').unwrap_or(query.len());
    let value = query.get(name_end + 1..).unwrap_or(b"");
    let QueryScratch { keys, decoded, .. } = scratch;
    keys.clear();
    let name = key(&query[..name_end], 0, false, keys, decoded).get(query, keys);
    match params.verdict(name, value, &mut None) {
        Verdict::Strip(rule) => Outcome {
            fired: RuleSet::EMPTY.with(rule),
            changed: true,
            stripped_all: true,
        },
        Verdict::Keep | Verdict::Cfid | Verdict::Cftoken => Outcome::default(),
    }
}
