//! Which parameters `strip-tracking` and `strip-session-ids` may remove,
//! told by their first two bytes ([`removable_starts`]), so that the fast
//! path keeps most parameters without decoding their names.

use super::session::SESSION_NAMES;
use crate::rule::{Rule, RuleSet};
use crate::rules::percent;
use crate::rules::tracking::TrackingParams;

/// Which raw parameters `strip-tracking` or `strip-session-ids` may
/// remove (under `rules`, with `tracking`), told by their first two bytes:
/// [`apply_single`](super::apply_single) keeps any parameter [`RemovableStarts::may_remove`]
/// says no to (a test checks it), so the fast path looks at one table
/// entry instead of decoding the name and looking it up.
///
/// The second byte narrows what the first alone would say: `p` starts
/// `phpsessid`, but `page=2` and `p=1` stay; `s` starts `sid`, but
/// `sort=asc` stays.
pub(crate) fn removable_starts(rules: RuleSet, tracking: &TrackingParams) -> RemovableStarts {
    let mut starts = RemovableStarts([0; 256]);
    let session = rules.contains(Rule::StripSessionIds);
    let strip = rules.contains(Rule::StripTracking);
    if strip {
        for (name, prefix) in tracking.patterns() {
            match (name, prefix) {
                // `u*`: every name that starts with `u`.
                ([first], true) => starts.mark_all(*first),
                // `u`: the name `u`, alone or with a value.
                ([first], false) => {
                    starts.mark(*first, None);
                    starts.mark(*first, Some(b'='));
                }
                ([first, second, ..], _) => starts.mark(*first, Some(*second)),
                // A glob that starts with `*`: any name.
                ([], true) => (0..=255).for_each(|first| starts.mark_all(first)),
                ([], false) => {}
            }
        }
        // Matched in any case: both cases of the first byte (a second
        // byte's class is the same in both cases).
        for prefix in tracking.any_case_prefixes() {
            for first in [prefix[0], prefix[0].to_ascii_uppercase()] {
                match prefix.get(1) {
                    Some(&second) => starts.mark(first, Some(second)),
                    None => starts.mark_all(first),
                }
            }
        }
    }
    if session {
        // Matched case-insensitively: both cases of the first letter (a
        // second byte's class is the same in both cases).
        let urlcanon = rules
            .contains(Rule::UrlcanonSessionIds)
            .then_some(b"sessionid".as_slice());
        for name in SESSION_NAMES.into_iter().chain(urlcanon) {
            for first in [name[0], name[0].to_ascii_uppercase()] {
                starts.mark(first, Some(name[1]));
            }
        }
    }
    if strip || session {
        // `%` and `+` decode to another byte: as a first byte, to any
        // name's; as a second one, after any name's first byte.
        for first in 0..=255u8 {
            if starts.0[usize::from(first)] != 0 {
                starts.mark(first, Some(b'%'));
                starts.mark(first, Some(b'+'));
            }
        }
        starts.mark_all(b'%');
        starts.mark_all(b'+');
    }
    starts
}

/// The table of [`removable_starts`]: for each first byte of a raw
/// parameter, a bit per class of its second byte (the low five bits; the
/// class of a parameter of one byte is 0), set when a parameter that
/// starts so may be removed. Classes are shared by several bytes (`=` and
/// `}`): a shared class only lets more parameters through to the lookup.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RemovableStarts([u32; 256]);

impl RemovableStarts {
    fn class(second: Option<u8>) -> u32 {
        second.map_or(0, |b| u32::from(b & 31))
    }

    fn mark(&mut self, first: u8, second: Option<u8>) {
        self.0[usize::from(first)] |= 1 << Self::class(second);
    }

    fn mark_all(&mut self, first: u8) {
        self.0[usize::from(first)] = u32::MAX;
    }

    /// Whether the parameter `param` (raw, not empty) may be one the rules
    /// remove; when false, they keep it.
    #[inline(always)]
    pub(crate) fn may_remove(&self, param: &[u8]) -> bool {
        let first = param.first().copied().unwrap_or(0);
        self.0[usize::from(first)] >> Self::class(param.get(1).copied()) & 1 != 0
    }

    /// [`RemovableStarts::may_remove`] told by the first two bytes of
    /// `param` decoded as the form-urlencoded parser does (`+` a space,
    /// `%XX` a byte), for a parameter that starts with `%` or `+` (which
    /// `may_remove` lets through whatever follows): the crawled `%D8l...`
    /// of a Latin-1 name need not be decoded and looked up. The rules see
    /// the decoded name made UTF-8, where a byte that starts no character
    /// becomes U+FFFD (`EF BF BD`): a byte of 0x80 or more is asked as
    /// itself and as 0xEF, with any second byte.
    pub(crate) fn may_remove_decoded(&self, param: &[u8]) -> bool {
        let (first, rest) = decode_first(param);
        let row = |b: u8| self.0[usize::from(b)];
        if first >= 0x80 {
            return row(first) | row(0xEF) != 0;
        }
        let seconds = match rest.first() {
            None => 1 << Self::class(None),
            Some(_) => match decode_first(rest).0 {
                b if b >= 0x80 => 1 << Self::class(Some(b)) | 1 << Self::class(Some(0xEF)),
                b => 1 << Self::class(Some(b)),
            },
        };
        row(first) & seconds != 0
    }
}

/// The first byte of `bytes` (not empty) as the form-urlencoded parser
/// decodes it, and the bytes after its encoding.
fn decode_first(bytes: &[u8]) -> (u8, &[u8]) {
    if let Some(byte) = percent::escape_at(bytes, 0) {
        return (byte, &bytes[3..]);
    }
    match bytes {
        [b'+', rest @ ..] => (b' ', rest),
        [first, rest @ ..] => (*first, rest),
        [] => (0, bytes),
    }
}
