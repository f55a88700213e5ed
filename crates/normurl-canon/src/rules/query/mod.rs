//! Query rules that work on parameters: `unescape-query`,
//! `strip-tracking`, the query half of `strip-session-ids`,
//! `drop-empty-params`, `sort-query` and `sort-query-values`.
//!
//! Parameters are the `&`-separated [pieces](crate::form::pieces) of the
//! query; names are compared as the form-urlencoded parser decodes them.
//! Kept pieces are copied byte for byte: sorting moves whole `name=value`
//! slices and only removed pieces disappear.
//!
//! This module holds the reference [`apply`], the verdict on a parameter
//! and the scratch space; one file per concern below it:
//!
//! - `sort.rs`: the sort entries and their decoded keys, the orders of
//!   `sort-query`, `sort-query-values` and `sort-query-bytes`;
//! - `plain.rs`: the two fast versions of [`apply`], [`apply_plain`] and
//!   [`apply_single`], which `fast/params.rs` calls, and the bit masks
//!   they read a query with;
//! - `removable.rs`: [`removable_starts`], which parameters the rules may
//!   remove, told by their first two bytes;
//! - `session.rs`: the query session ids of Heritrix and urlcanon;
//! - `unescape.rs`: `unescape-query` ([`unescape`]);
//! - `tests.rs`: the examples, and the property tests of the fast versions
//!   against [`apply`].
//!
//! The fast versions stay here, not in `fast/`, because they share the
//! reference's private pieces (the sort entries and keys, the verdict,
//! the scratch space); in `fast/` they would make the rules depend on the
//! fast paths.

mod plain;
mod removable;
mod session;
mod sort;
mod unescape;

#[cfg(test)]
mod tests;

use crate::form;
use crate::rule::{Rule, RuleSet};
use crate::rules::tracking::TrackingParams;
use plain::Kept;
use session::{session_id, Session};
use sort::{key, order_prefix, sort, Entry, Key, SortBy};

pub(crate) use plain::{apply_plain, apply_single};
pub(crate) use removable::{removable_starts, RemovableStarts};
pub(crate) use unescape::unescape;

/// Reused buffers of the query rules.
#[derive(Debug, Default)]
pub(crate) struct QueryScratch {
    entries: Vec<Entry>,
    /// [`apply_plain`]'s parameters.
    kept: Vec<Kept>,
    /// Decoded names (and values, for `sort-query-values`) that differ from
    /// their raw bytes.
    keys: Vec<u8>,
    decoded: Vec<u8>,
    tmp: Vec<u8>,
}

impl QueryScratch {
    /// Two buffers to decode a name into, for the parameter rules of
    /// `params.rs`.
    pub(crate) fn name_buffers(&mut self) -> (&mut Vec<u8>, &mut Vec<u8>) {
        (&mut self.decoded, &mut self.keys)
    }
}

/// The parameter rules to apply.
pub(crate) struct Params<'a> {
    pub(crate) rules: RuleSet,
    pub(crate) tracking: &'a TrackingParams,
    /// The URL's (final) host, for exemptions from `strip-tracking`.
    pub(crate) host: &'a [u8],
    /// The [`removable_starts`] of `rules` and `tracking`, to keep most
    /// parameters without decoding their names and looking them up; `None`
    /// looks up every name (the general path, which the fast path's
    /// answers are compared with).
    pub(crate) starts: Option<&'a RemovableStarts>,
}

impl Params<'_> {
    /// The rules this module handles, to skip it when none is on.
    pub(crate) const RULES: RuleSet = RuleSet::from_rules(&[
        Rule::StripTracking,
        Rule::StripSessionIds,
        Rule::DropEmptyParams,
        Rule::SortQuery,
    ]);

    /// What `strip-tracking` and `strip-session-ids` do with a non-empty
    /// parameter of (decoded) name `name`. `exempt` caches whether the host
    /// is exempt from `strip-tracking`, looked up only once a name matches.
    fn verdict(&self, name: &[u8], value: &[u8], exempt: &mut Option<bool>) -> Verdict {
        if self.rules.contains(Rule::StripTracking)
            && self.tracking.matches(name)
            && !*exempt.get_or_insert_with(|| self.tracking.is_exempt(self.host))
        {
            return Verdict::Strip(Rule::StripTracking);
        }
        if !self.rules.contains(Rule::StripSessionIds) {
            return Verdict::Keep;
        }
        let urlcanon = self.rules.contains(Rule::UrlcanonSessionIds);
        match session_id(name, value, urlcanon) {
            Session::Id => Verdict::Strip(Rule::StripSessionIds),
            Session::Cfid => Verdict::Cfid,
            Session::Cftoken => Verdict::Cftoken,
            Session::No => Verdict::Keep,
        }
    }
}

/// What happens to one parameter.
enum Verdict {
    Keep,
    /// Removed by this rule.
    Strip(Rule),
    /// Half of ColdFusion's pair: removed if the other half is there too.
    Cfid,
    Cftoken,
}

/// What [`apply`] did.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Outcome {
    pub(crate) fired: RuleSet,
    /// The new query was written to `out`.
    pub(crate) changed: bool,
    /// Stripping removed every parameter: drop the `?` too (as DuckDuckGo
    /// and webarchive-commons do), not just leave an empty query.
    pub(crate) stripped_all: bool,
}

/// Applies the parameter rules to `query`, writing the new query into
/// `out` when it changes.
pub(crate) fn apply(
    query: &[u8],
    params: &Params<'_>,
    scratch: &mut QueryScratch,
    out: &mut Vec<u8>,
) -> Outcome {
    let mut outcome = Outcome::default();
    if query.is_empty() {
        // `?` alone: no parameters (its one empty piece is not a `&&`).
        return outcome;
    }
    let QueryScratch {
        entries,
        keys,
        decoded,
        ..
    } = scratch;
    let (removed_any, stripped_any) =
        judge_pieces(query, params, entries, keys, decoded, &mut outcome.fired);
    if removed_any {
        entries.retain(|e| !e.removed);
    }
    let order = if params.rules.contains(Rule::SortQueryBytes) {
        SortBy::Bytes
    } else if params.rules.contains(Rule::SortQueryValues) {
        SortBy::NameValue
    } else {
        SortBy::Name
    };
    let reordered = params.rules.contains(Rule::SortQuery) && sort(query, keys, order, entries);
    outcome.fired.insert_if(Rule::SortQuery, reordered);
    if !removed_any && !reordered {
        return outcome;
    }
    outcome.changed = true;
    outcome.stripped_all = stripped_any && entries.is_empty();
    for (i, entry) in entries.iter().enumerate() {
        if i > 0 {
            out.push(b'&');
        }
        out.extend_from_slice(entry.piece.bytes(query));
    }
    outcome
}

/// The pieces of `query` as sort entries in `entries` (cleared first, their
/// decoded keys in `keys`), each marked removed or not by
/// `drop-empty-params`, `strip-tracking` and `strip-session-ids`; the rules
/// that removed some go into `fired`. Returns whether any piece was
/// removed, and whether any non-empty one was.
fn judge_pieces(
    query: &[u8],
    params: &Params<'_>,
    entries: &mut Vec<Entry>,
    keys: &mut Vec<u8>,
    decoded: &mut Vec<u8>,
    fired: &mut RuleSet,
) -> (bool, bool) {
    let rules = params.rules;
    entries.clear();
    keys.clear();
    // Most URLs have no tracking parameter: look at the host only once one
    // matches.
    let mut exempt = None;
    let by_value = rules.contains(Rule::SortQuery) && rules.contains(Rule::SortQueryValues);
    let mut cfid = false;
    let mut cftoken = false;
    let mut removed_any = false;
    let mut stripped_any = false;
    // One look at the whole query instead of a byte loop over each name
    // (most queries of several parameters have neither).
    let plain = memchr::memchr2(b'%', b'+', query).is_none();
    for piece in form::pieces(query) {
        let name = key(
            piece.name(query),
            piece.start as usize,
            plain,
            keys,
            decoded,
        );
        let value = match (by_value, piece.value(query)) {
            (true, Some(raw)) => key(raw, piece.name_end as usize + 1, plain, keys, decoded),
            _ => Key {
                in_keys: false,
                start: piece.end,
                end: piece.end,
            },
        };
        let mut entry = Entry {
            piece,
            name,
            value,
            prefix: order_prefix(name.get(query, keys)),
            removed: false,
        };
        if piece.is_empty() {
            if rules.contains(Rule::DropEmptyParams) {
                entry.removed = true;
                fired.insert(Rule::DropEmptyParams);
            }
        } else if params
            .starts
            .is_none_or(|starts| starts.may_remove(piece.bytes(query)))
        {
            let name = name.get(query, keys);
            match params.verdict(name, piece.value(query).unwrap_or(b""), &mut exempt) {
                Verdict::Strip(rule) => {
                    entry.removed = true;
                    fired.insert(rule);
                }
                Verdict::Cfid => cfid = true,
                Verdict::Cftoken => cftoken = true,
                Verdict::Keep => {}
            }
        }
        removed_any |= entry.removed;
        stripped_any |= entry.removed && !piece.is_empty();
        entries.push(entry);
    }
    let urlcanon = rules.contains(Rule::UrlcanonSessionIds);
    if cfid && cftoken && strip_coldfusion_pair(query, keys, entries, fired, urlcanon) {
        (removed_any, stripped_any) = (true, true);
    }
    (removed_any, stripped_any)
}

/// ColdFusion ids come in pairs; stripping both whenever both are present
/// (not only when adjacent, as Heritrix's regex does) keeps the rule
/// idempotent after sorting brings them together. Returns whether it
/// removed some.
fn strip_coldfusion_pair(
    query: &[u8],
    keys: &[u8],
    entries: &mut [Entry],
    fired: &mut RuleSet,
    urlcanon: bool,
) -> bool {
    let mut removed = false;
    for entry in entries.iter_mut().filter(|e| !e.removed) {
        let name = entry.name.get(query, keys);
        // Heritrix's pattern takes any value here; urlcanon's must fit.
        let value = if urlcanon {
            entry.piece.value(query).unwrap_or(b"")
        } else {
            b"x"
        };
        if matches!(
            session_id(name, value, urlcanon),
            Session::Cfid | Session::Cftoken
        ) {
            entry.removed = true;
            removed = true;
            fired.insert(Rule::StripSessionIds);
        }
    }
    removed
}
