//! The fast path of [`Canonicalizer::apply`](super::Canonicalizer::apply).
//!
//! Most rules, on most URLs, either have nothing to do or only cut a range
//! out of the href: `strip-www` drops the start of the host,
//! `strip-trailing-slash` the last byte of the path, `drop-fragment`
//! everything from `#`. The fast path finds out which with a
//! [scan](super::classify) of the host and path for the bytes that would
//! give a rule more to do (`%`, `//`, `..`, `;`...), one of the query when
//! there is one, and the URL's offsets; then it writes the href without
//! the cut ranges: one copy when nothing fired.
//!
//! [`straight_line`] is the line most URLs take; [`careful`] takes the others
//! (userinfo, something found by a scan, a query of several parameters,
//! SURT output...) and looks at each component on its own; it also runs the
//! lowercase rules and the parameter rules, whose rewritten path and query
//! (lowercased, parameters dropped or sorted) it writes in place of the
//! href's. When some other rule would rewrite bytes (decode a `%XX`,
//! collapse `//`...), both give up before writing anything and the caller
//! runs the general path, which applies every rule to copies of the
//! components.
//! The general path is also the reference: the tests check that both give
//! the same output and rules.

use std::ops::Range;

use super::config::{Config, IdnForm};
use super::percent;
use super::query::{self, QueryScratch};
use super::rules::lists::GENERAL_ONLY;
use super::surt::Parts;
use super::{general, Scratch};
use super::{host, OutputForm, Rule, RuleSet, TrackingParams};
use crate::simd::features::{any, any_in, any_of, append_if_none_in, classify, Features};

use crate::{HostKind, SchemeType, Url};

/// What the fast paths are given: the plan and the configuration it was
/// made from. One value, so that an instance of the fused path takes both
/// as one pointer: as two, its seventh argument went on the stack, and
/// `whatwg` took 13 instructions more a line of the corpora.
#[derive(Clone, Debug)]
pub(super) struct Setup {
    pub(super) plan: Plan,
    pub(super) config: Config,
}

/// What the fast path of a canonicalizer looks for, worked out once.
#[derive(Clone, Copy, Debug)]
pub(super) struct Plan {
    rules: RuleSet,
    /// The bytes of a host or path that give a rule more to do than
    /// cutting a range.
    path: Features,
    /// The same for a query.
    query: Features,
    /// `query`, plus `&` when the parameter rules are on: what sends a
    /// query off the straight line.
    query_scan: Features,
    /// The straight line for these rules.
    straight: Straight,
    /// Its SSE2 instance, which the tests also run where `straight` is the
    /// AVX2 one.
    #[cfg(test)]
    narrow: Straight,
    percent: Percent,
    /// Whether some rule may cut a range (`semantic` has none).
    cuts: bool,
    /// Whether one scan from the host to the end of the URL (for the
    /// features of `path`) tells all: no cuts, and a query or fragment can
    /// only matter for the features of the path (`semantic`).
    whole: bool,
    /// Whether the straight line may be taken at all: URL output and no
    /// `force-http`.
    simple: bool,
    /// The first two bytes of the parameters that `strip-tracking` and
    /// `strip-session-ids` may remove (see [`query::removable_starts`]):
    /// a query of one parameter that starts otherwise stays as it is,
    /// with no decoding and no name lookup.
    param_starts: query::RemovableStarts,
    /// Whether the scan of a [`Bare`] URL's host and path looks for all
    /// that `query` does, so that it may go on over a query of one
    /// parameter (see [`Bare::kept`]).
    bare_query: bool,
    /// Whether `parse_apply` may run the parameter rules on the input's
    /// query ([`Bare::apply_query`]): the straight line may be taken, and
    /// no lowercase rule is on (most crawled queries or paths have an
    /// uppercase letter, which would send them on to the general path after
    /// a scan: `wayback` took 17 instructions more per URL of the corpora).
    input_query: bool,
}

/// An instance of [`straight_line`] or [`straight_wide`].
///
/// # Safety
///
/// The wide instances need a CPU with AVX2: [`Plan::new`] picks them only
/// after checking.
type Straight =
    unsafe fn(&Setup, &Url, &mut QueryScratch, &mut Buffers, &mut Vec<u8>) -> Option<RuleSet>;

pub(super) const PERCENT: Features = Features::PERCENT;
pub(super) const SAFE_BROWSING: Features =
    PERCENT.union(Features::SLASH_PAIR.union(Features::DOT_PAIR));
pub(super) const AGGRESSIVE: Features = SAFE_BROWSING.union(Features::SESSION);

/// The instances of a function generic over the features it scans for
/// (`$line::<W, WIDE>`, with `$wide::<W>` its AVX2 wrapper; after `;`,
/// constant arguments that follow `W` and `WIDE`, the same for every row):
/// one row per set of features the fast path has an instance for, each
/// scanning for only those. A caller takes the first row that has all it
/// needs (see [`instance`]; a scan for more finds more, which only sends
/// more URLs to [`careful`]). The sets are the needs of the profiles.
/// `@row FEATURES, ...` is one row on its own.
///
/// Each row has the features, the SSE2 instance and the AVX2 one (off
/// x86_64, the SSE2 one again, never picked): with AVX2 vectors, a long
/// path takes half the loop trips.
macro_rules! instances {
    ($line:ident, $wide:ident $(; $extra:expr)*) => {
        [
            instances!(@row $crate::canon::fast::PERCENT, $line, $wide $(; $extra)*),
            instances!(@row $crate::canon::fast::SAFE_BROWSING, $line, $wide $(; $extra)*),
            instances!(@row $crate::canon::fast::AGGRESSIVE, $line, $wide $(; $extra)*),
            instances!(@row $crate::simd::features::Features::ALL, $line, $wide $(; $extra)*),
        ]
    };
    (@row $features:expr, $line:ident, $wide:ident $(; $extra:expr)*) => {
        (
            $features,
            $line::<{ $features.bits() }, false $(, { $extra })*>,
            #[cfg(target_arch = "x86_64")]
            $wide::<{ $features.bits() } $(, { $extra })*>,
            #[cfg(not(target_arch = "x86_64"))]
            $line::<{ $features.bits() }, false $(, { $extra })*>,
        )
    };
}
pub(super) use instances;

/// The SSE2 and the AVX2 instance of the first row of an [`instances`]
/// table that scans for all of `needs`.
pub(super) fn instance<T: Copy>(rows: [(Features, T, T); 4], needs: Features) -> (T, T) {
    let (_, narrow, wide) = row(rows, needs);
    (narrow, wide)
}

/// The first row of an [`instances`] table that scans for all of `needs`.
fn row<T: Copy>(rows: [(Features, T, T); 4], needs: Features) -> (Features, T, T) {
    rows.into_iter()
        .find(|&(features, _, _)| features.contains_all(needs))
        .expect("the last one has every feature")
}

/// The instances of [`straight_line`].
const STRAIGHT: [(Features, Straight, Straight); 4] = instances!(straight_line, straight_wide);

/// The rules that may cut ranges out of the href.
const CUT_RULES: RuleSet = RuleSet::from_rules(&[
    Rule::StripUserinfo,
    Rule::TrimHostDots,
    Rule::StripWww,
    Rule::StripWwwDigits,
    Rule::DropPort,
    Rule::StripTrailingSlash,
    Rule::StripTracking,
    Rule::StripSessionIds,
    Rule::DropEmptyParams,
    Rule::SortQuery,
    Rule::DropEmptyQuery,
    Rule::DropFragment,
]);

impl Plan {
    pub(super) fn new(rules: RuleSet, output: OutputForm, tracking: &TrackingParams) -> Plan {
        let percent = Percent {
            decode: rules.contains(Rule::DecodeUnreserved),
            upper: rules.contains(Rule::UppercasePercent),
        };
        let when = |rule_on: bool, feature: Features| {
            if rule_on {
                feature
            } else {
                Features::NONE
            }
        };
        let path = when(
            percent.any() || rules.contains(Rule::UnescapePath),
            Features::PERCENT,
        )
        .union(when(rules.contains(Rule::LowercasePath), Features::UPPER))
        .union(when(
            rules.contains(Rule::StripSessionIds),
            Features::SESSION,
        ))
        .union(when(
            rules.contains(Rule::CollapseSlashes),
            Features::SLASH_PAIR,
        ))
        .union(when(rules.contains(Rule::TrimHostDots), Features::DOT_PAIR));
        let query = when(
            percent.any() || rules.contains(Rule::UnescapeQuery),
            Features::PERCENT,
        )
        .union(when(rules.contains(Rule::LowercaseQuery), Features::UPPER));
        // The straight line takes queries of one parameter only.
        let query_params = !rules.intersection(query::Params::RULES).is_empty();
        let (scanned, narrow, wide) = row(STRAIGHT, path);
        let (narrow, wide) = if rules.intersection(GENERAL_ONLY).is_empty() {
            (narrow, wide)
        } else {
            (decline_all as Straight, decline_all as Straight)
        };
        // The safety condition of the wide instances.
        let straight = if wide_available() { wide } else { narrow };
        let cuts = !rules.intersection(CUT_RULES).is_empty();
        // A fragment that stays matters for the percent rules only.
        let fragment = when(percent.any(), Features::PERCENT);
        let query_scan = query.union(when(query_params, Features::AMP));
        let simple = output == OutputForm::Url && !rules.contains(Rule::ForceHttp);
        Plan {
            rules,
            path,
            query,
            query_scan,
            straight,
            #[cfg(test)]
            narrow,
            percent,
            cuts,
            whole: !cuts && path.contains_all(query.union(fragment)),
            simple,
            param_starts: query::removable_starts(rules, tracking),
            // `fused` picks its instance as the straight line does. With
            // `lowercase-path`, the scan looks for uppercase letters too,
            // and finds them in most queries (`wayback`: 95 instructions
            // more per URL of one parameter on the corpora, for scans
            // that sent most of those URLs back).
            bare_query: scanned.contains_all(query) && !scanned.contains(Features::UPPER),
            input_query: simple
                && !rules.contains(Rule::LowercasePath)
                && !rules.contains(Rule::LowercaseQuery),
        }
    }
}

impl Plan {
    /// The rules.
    pub(super) fn rules(&self) -> RuleSet {
        self.rules
    }

    /// What a host and path are scanned for.
    pub(super) fn path(&self) -> Features {
        self.path
    }

    /// Whether the straight line may be taken at all.
    pub(super) fn simple(&self) -> bool {
        self.simple
    }

    /// Whether `parse_apply` may run the parameter rules on the input's
    /// query ([`Bare::apply_query`]).
    pub(super) fn input_query(&self) -> bool {
        self.input_query
    }

    /// Whether a [`Bare`] URL may keep its query, at `mark` of `href` (up
    /// to the end), in the scan of its host and path: see
    /// [`bare_query`].
    #[inline(always)]
    pub(super) fn keeps_query(&self, href: &[u8], path_start: usize, mark: usize) -> bool {
        self.bare_query && bare_query(self, href, path_start, mark)
    }

    /// Whether the parameter rules leave `query`, one parameter (no `&`),
    /// as it is, told by its first two bytes alone: no parameter they
    /// remove starts so, and there is nothing to sort or drop. False for an
    /// empty query (`drop-empty-query`'s) and where the name must be
    /// looked up.
    #[inline(always)]
    fn keeps_single(&self, query: &[u8]) -> bool {
        !query.is_empty() && !self.param_starts.may_remove(query)
    }
}

#[cfg(test)]
impl Plan {
    /// The same plan with the SSE2 instance of the straight line; `None`
    /// when that is the one it has.
    pub(super) fn narrow(&self) -> Option<Plan> {
        (self.straight as usize != self.narrow as usize).then_some(Plan {
            straight: self.narrow,
            ..*self
        })
    }
}

/// Where the components of a URL are in its href (byte offsets).
struct Layout {
    host_start: usize,
    host_end: usize,
    path_start: usize,
    path_end: usize,
    /// The `?`, when the query is not null.
    query: Option<usize>,
    /// The end of the query: the `#` or the end of the href (`path_end`
    /// without query).
    query_end: usize,
    /// The `#`, when the fragment is not null.
    fragment: Option<usize>,
    len: usize,
}

impl Layout {
    /// From the URL's offsets: no `str` slicing, so no UTF-8 boundary
    /// checks (the href is ASCII anyway).
    #[inline(always)]
    fn of(url: &Url) -> Layout {
        let len = url.href().len();
        let (host_start, host_end) = url.host_offsets();
        let (query, fragment) = url.query_fragment_offsets();
        // Without a query, `query_end` is `path_end`: `#` or the end.
        let query_end = fragment.unwrap_or(len);
        Layout {
            host_start,
            host_end,
            path_start: url.path_offset(),
            path_end: query.unwrap_or(query_end),
            query,
            query_end,
            fragment,
            len,
        }
    }

    /// Whether `url` (whose layout this is) has userinfo: the byte before
    /// a host is `@` exactly when the serializer wrote credentials, else
    /// the second `/` of `//`.
    #[inline(always)]
    fn userinfo(&self, url: &Url) -> bool {
        url.has_host() && url.href().as_bytes()[self.host_start - 1] == b'@'
    }
}

/// What the rules do to the href: which ranges to leave out, and the rules
/// that fired. Everything not listed is copied as it is.
#[derive(Default)]
struct Edit {
    fired: RuleSet,
    drop_userinfo: bool,
    /// Bytes `strip-www` removes from the start of the host.
    host_cut: usize,
    drop_port: bool,
    /// Bytes `strip-trailing-slash` removes from the end of the path.
    path_cut: usize,
    drop_query: bool,
    /// The query rules rewrote the query (into [`Buffers::query`]); the
    /// href's query is replaced by that.
    new_query: bool,
    /// `lowercase-path` rewrote the path (into [`Buffers::path`], without
    /// the bytes `path_cut` removes); the href's path is replaced by that.
    new_path: bool,
    drop_fragment: bool,
}

/// The buffers the fast path writes besides `out`, kept in
/// [`Scratch`](super::Scratch) from one URL to the next.
#[derive(Debug, Default)]
pub(super) struct Buffers {
    /// A query the rules rewrote ([`Edit::new_query`]).
    query: Vec<u8>,
    /// A path `lowercase-path` rewrote ([`Edit::new_path`]).
    path: Vec<u8>,
    /// The query `lowercase-query` rewrote, which the parameter rules then
    /// work on.
    lowered: Vec<u8>,
}

/// The percent rules that apply to every component (`decode-unreserved`,
/// `uppercase-percent`).
#[derive(Clone, Copy, Debug)]
struct Percent {
    decode: bool,
    upper: bool,
}

impl Percent {
    fn any(self) -> bool {
        self.decode || self.upper
    }

    /// Whether they would change `bytes`; `upper` is false where a
    /// lowercase rule turns uppercasing off.
    fn changes(self, bytes: &[u8], upper: bool) -> bool {
        percent::normalize_changes(bytes, self.decode, self.upper && upper)
    }
}

/// "The general path must handle this URL."
struct Decline;

type Step = Result<(), Decline>;

fn decline_if(decline: bool) -> Step {
    if decline {
        Err(Decline)
    } else {
        Ok(())
    }
}

/// Runs the fast path: appends the canonical form of `url` to `out` and
/// returns the rules that fired, or returns `None`, having written nothing,
/// when some rule would rewrite bytes.
#[inline]
pub(super) fn apply(
    setup: &Setup,
    url: &Url,
    params: &mut QueryScratch,
    bufs: &mut Buffers,
    out: &mut Vec<u8>,
) -> Option<RuleSet> {
    let plan = &setup.plan;
    // SAFETY: `Plan::new` picked a wide instance only on a CPU with AVX2.
    unsafe { (plan.straight)(setup, url, params, bufs, out) }
}

/// [`Canonicalizer::apply`](super::Canonicalizer::apply): the fast path
/// when it takes the URL, the general path otherwise.
pub(super) fn apply_url(
    setup: &Setup,
    url: &Url,
    scratch: &mut Scratch,
    out: &mut Vec<u8>,
) -> RuleSet {
    let c = &setup.config;
    if c.rules.is_empty() && c.output == OutputForm::Url && c.idn == IdnForm::Ascii {
        out.extend_from_slice(url.href().as_bytes());
        return RuleSet::EMPTY;
    }
    if c.idn == IdnForm::Ascii {
        // Most URLs: rules that only cut ranges out of the href.
        let fast = apply(setup, url, &mut scratch.params, &mut scratch.fast, out);
        if let Some(fired) = fast {
            return fired;
        }
    }
    general::apply(c, url, &mut scratch.general, &mut scratch.params, out)
}

/// The straight line of rules only the general path applies
/// ([`GENERAL_ONLY`]): declines every URL.
///
/// # Safety
///
/// None needed; `unsafe` for the [`Straight`] type.
unsafe fn decline_all(
    _: &Setup,
    _: &Url,
    _: &mut QueryScratch,
    _: &mut Buffers,
    _: &mut Vec<u8>,
) -> Option<RuleSet> {
    None
}

/// Whether [`straight_wide`] may run ([`crate::simd::avx2`]).
pub(super) fn wide_available() -> bool {
    crate::simd::avx2()
}

/// [`straight_line`] with AVX2 vectors: the scans inline into a function
/// with the feature, so their intrinsics are instructions.
///
/// # Safety
///
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn straight_wide<const W: u8>(
    setup: &Setup,
    url: &Url,
    params: &mut QueryScratch,
    bufs: &mut Buffers,
    out: &mut Vec<u8>,
) -> Option<RuleSet> {
    // SAFETY: the caller's.
    unsafe { straight_line::<W, true>(setup, url, params, bufs, out) }
}

/// The fast path for most URLs: no userinfo, and nothing for the content
/// rules in the host and path (`W` has what [`Plan::new`] scans for
/// there). URLs with a query or fragment go on in [`tail`], the others
/// take [`careful`].
///
/// This runs for every URL, so it works on the URL's byte offsets (no
/// `str` slicing), makes one scan, and writes with one capacity check.
/// `WIDE` says whether the scan uses AVX2 vectors.
///
/// # Safety
///
/// With `WIDE`, the CPU must have AVX2 (see [`straight_wide`]).
#[inline(always)]
unsafe fn straight_line<const W: u8, const WIDE: bool>(
    setup: &Setup,
    url: &Url,
    params: &mut QueryScratch,
    bufs: &mut Buffers,
    out: &mut Vec<u8>,
) -> Option<RuleSet> {
    let plan = &setup.plan;
    let rules = plan.rules;
    let href = url.href().as_bytes();
    let at = Layout::of(url);
    if !plan.simple || at.userinfo(url) {
        return careful(setup, url, params, bufs, out);
    }
    if plan.whole {
        // One scan to the end tells all (`semantic`).
        // SAFETY (here and for the scans below): the caller's.
        if unsafe { append_if_none_in::<W, WIDE>(href, at.host_start, at.host_start, out) } {
            return Some(RuleSet::EMPTY);
        }
        return careful(setup, url, params, bufs, out);
    }
    if at.path_end < at.len {
        // A fragment that `drop-fragment` drops goes on in `tail`, not in
        // `Bare` as in `parse_apply`: testing for it here made this
        // function's code worse for every profile, even `semantic`, which
        // returns above (2.4-3.4% more instructions on the corpora with
        // `canon_corpus --two-step`).
        if unsafe { any_in::<W, WIDE>(href, at.host_start, at.path_end) } {
            return careful(setup, url, params, bufs, out);
        }
        return tail(setup, url, params, bufs, out);
    }
    if !url.has_host() {
        // `mailto:`, `data:`...: rare, and their paths follow other rules.
        return careful(setup, url, params, bufs, out);
    }
    match unsafe { Bare::stored(url, &at).apply::<W, WIDE>(rules, out) } {
        Verdict::Done(fired) => Some(fired),
        Verdict::Decline => None,
        Verdict::CutRanges => cut_ranges::<W>(setup, url, params, bufs, out),
        Verdict::Careful => bare_found(setup, url, params, bufs, out),
    }
}

/// A URL with a host and no userinfo or query, and no fragment or one
/// that `drop-fragment` drops: the straight line's most common case,
/// which [`Bare::apply`] handles for [`straight_line`] and for
/// `Canonicalizer::parse_apply` (on the input, before any `Url` is
/// stored). For `parse_apply` it may also have a query of one parameter
/// that no rule changes ([`Bare::kept`]), or be the part before a query
/// that the parameter rules work on ([`Bare::apply_query`]).
pub(super) struct Bare<'a> {
    /// The href, or the part of it before a fragment that `drop-fragment`
    /// drops ([`Bare::unfragmented`]: the caller adds the rule to what
    /// fired).
    pub(super) href: &'a [u8],
    pub(super) host: Range<usize>,
    /// Where a path starts that `strip-trailing-slash` may cut: the
    /// path's start, or `href.len()` when `href` ends in a query (whose
    /// last byte is no path's; [`Bare::kept`] has ruled out a trailing
    /// slash before it). Not a `path_end` that `apply` would cut at: that
    /// cost the corpora's URLs without a query 10 instructions each.
    pub(super) slash_start: usize,
    /// Whether the host is a domain.
    pub(super) domain: bool,
    /// Whether the URL has a port.
    pub(super) port: bool,
}

/// Where [`Bare::apply`] leaves a URL.
pub(super) enum Verdict {
    /// Written to `out`, with the rules that fired.
    Done(RuleSet),
    /// Some rule rewrites bytes: the general path's.
    Decline,
    /// A port to drop, or a `www` host that is not `www.` and one label:
    /// [`cut_ranges`]'.
    CutRanges,
    /// The scan found something: [`careful`]'s.
    Careful,
}

impl<'a> Bare<'a> {
    /// A stored URL with a host and no userinfo, query or fragment, whose
    /// layout is `at`, as a [`Bare`] URL.
    #[inline(always)]
    fn stored(url: &'a Url, at: &Layout) -> Bare<'a> {
        Bare {
            href: url.href().as_bytes(),
            host: at.host_start..at.host_end,
            slash_start: at.path_start,
            domain: url.host_kind() == HostKind::Domain,
            port: url.port_number().is_some(),
        }
    }

    /// The same URL with its href cut to the first `end` bytes (its query
    /// or fragment left out; the host and path stay within them).
    #[inline(always)]
    pub(super) fn cut_to(&self, end: usize) -> Bare<'a> {
        debug_assert!(self.host.end <= end && self.slash_start <= end);
        Bare {
            href: &self.href[..end],
            host: self.host.clone(),
            ..*self
        }
    }

    /// The part of `href` a [`Bare`] URL writes, and its
    /// [`slash_start`](Bare::slash_start) (`path_start` is where the path
    /// starts): all of it, or the part before a fragment `drop-fragment`
    /// drops (no rule looks past the path then); `None` when a fragment
    /// stays, or when there is a query that some rule may change. `query`
    /// and `fragment` are the positions of `?` and `#`; `rules` are the
    /// plan's (given apart, so that a caller may pass them as a constant).
    ///
    /// A query may stay when the plan's scan of a `Bare` URL looks for all
    /// the query rules look for (`%`...) and it is one parameter (no `&`)
    /// that starts with a byte no parameter rule removes: then, as in
    /// [`tail`], no rule touches it. A trailing slash before it would be
    /// a cut in the middle: `None` too.
    #[inline(always)]
    pub(super) fn kept(
        plan: &Plan,
        rules: RuleSet,
        href: &'a [u8],
        path_start: usize,
        query: Option<usize>,
        fragment: Option<usize>,
    ) -> Option<(&'a [u8], usize)> {
        let kept = Bare::unfragmented(rules, href, fragment)?;
        match query {
            // Most URLs.
            None => Some((kept, path_start)),
            Some(mark) => plan
                .keeps_query(kept, path_start, mark)
                .then_some((kept, kept.len())),
        }
    }

    /// `href` without a fragment at `fragment` that `drop-fragment`
    /// drops; `None` when there is one that stays.
    #[inline(always)]
    pub(super) fn unfragmented(
        rules: RuleSet,
        href: &[u8],
        fragment: Option<usize>,
    ) -> Option<&[u8]> {
        match fragment {
            None => Some(href),
            Some(cut) if rules.contains(Rule::DropFragment) => Some(&href[..cut]),
            Some(_) => None,
        }
    }

    /// [`Bare::apply`] for a URL with a query whose `?` is at `mark`, for
    /// the queries [`Bare::kept`] does not keep: several parameters, one
    /// that a parameter rule may remove, an empty one, or one after a
    /// trailing slash. `href` ends with the query (the caller has cut a
    /// fragment that `drop-fragment` drops) and `slash_start` is where the
    /// path starts. The host and path take [`Bare::apply`]'s cuts and the
    /// query the parameter rules and `drop-empty-query`, as in [`tail`],
    /// written straight after them; `None`, having written nothing, when
    /// the query has something the query rules rewrite (a `%`...) or
    /// [`Bare::apply`] does not say [`Verdict::Done`].
    ///
    /// # Safety
    ///
    /// As for [`Bare::apply`].
    #[inline(always)]
    pub(super) unsafe fn apply_query<const W: u8, const WIDE: bool>(
        &self,
        setup: &Setup,
        rules: RuleSet,
        mark: usize,
        scratch: &mut QueryScratch,
        out: &mut Vec<u8>,
    ) -> Option<RuleSet> {
        let plan = &setup.plan;
        let href = self.href;
        let query = &href[mark + 1..];
        // The query rules other than the parameter rules must leave the
        // query as it is: no `%` they change, nothing to lowercase. (The
        // parser's check accepts special schemes only.)
        if any_of(plan.query, href, mark + 1, href.len())
            && !matches!(inspect_query(plan, true, query), Ok(false))
        {
            return None;
        }
        let head = self.cut_to(mark);
        let start = out.len();
        // SAFETY: the caller's.
        let Verdict::Done(mut fired) = (unsafe { head.apply::<W, WIDE>(rules, out) }) else {
            return None;
        };
        // What `Bare::apply` cut from the start of the host: the final
        // host is the one `strip-tracking`'s exemptions look at.
        let slash = usize::from(fired.contains(Rule::StripTrailingSlash));
        let cut = mark - slash - (out.len() - start);
        let host = &href[self.host.start + cut..self.host.end];
        out.push(b'?');
        // A vector scan for `&`, as in `bare_query`, not a `memchr` call,
        // whose setup cost the query lines that come here about 30
        // instructions more (Heritrix crawl-log queries of one parameter,
        // 1313.9 -> 1280.5 a line; several, 2360.9 -> 2333.6).
        // SAFETY: the caller's.
        let single =
            !unsafe { any_in::<{ Features::AMP.bits() }, WIDE>(href, mark + 1, href.len()) };
        let mark = out.len();
        let outcome = params_outcome(setup, host, query, single, scratch, out);
        match query_fate(rules, &outcome, query, &out[mark..], &mut fired) {
            QueryFate::Keep => out.extend_from_slice(query),
            QueryFate::Drop => out.truncate(mark - 1),
            QueryFate::New => {}
        }
        Some(fired)
    }

    /// Cuts at the start of the host, the port and the last byte, writing
    /// nothing unless it returns [`Verdict::Done`]. The checks that may
    /// decline come before the scan (when the scan finds something,
    /// `careful` declines too).
    ///
    /// # Safety
    ///
    /// With `WIDE`, the CPU must have AVX2.
    #[inline(always)]
    pub(super) unsafe fn apply<const W: u8, const WIDE: bool>(
        &self,
        rules: RuleSet,
        out: &mut Vec<u8>,
    ) -> Verdict {
        let href = self.href;
        let host = &href[self.host.clone()];
        if self.domain && trim_dots_declines(rules, host) {
            return Verdict::Decline;
        }
        let mut fired = RuleSet::EMPTY;
        let mut cut = 0;
        if self.domain && www_candidate(rules, host) {
            // `www.` and one label to look at (most `www` hosts): the scan
            // can start after it, for the whole host would not be scanned
            // for more than `..`, which it cannot have there.
            match host::strip_plain_www(href, self.host.clone()) {
                Some(stripped) => cut = stripped,
                None => return Verdict::CutRanges,
            }
            fired.insert_if(www_rule(rules), cut > 0);
        }
        if self.port && rules.contains(Rule::DropPort) {
            return Verdict::CutRanges;
        }
        // Most URLs: the href, or the href without `www.` (a quarter of
        // crawled URLs), maybe without its last byte. One pass scans and
        // copies.
        let start = self.host.start;
        // SAFETY: the caller's.
        if !unsafe { append_if_none_in::<W, WIDE>(href, start, start + cut, out) } {
            return Verdict::Careful;
        }
        // Whether a trailing slash goes, without a branch on the path's
        // last byte (a coin toss on crawled URLs, so a branch on it is
        // mispredicted about as often as it is taken): `&`, not `&&`. The
        // branch on the rule is the same for every URL. (With a host, the
        // general path strips one `/` too, even from a path ending in `//`.)
        // After the copy, so that nothing of it is kept across the scan.
        let slash = rules.contains(Rule::StripTrailingSlash)
            && (href.len() - self.slash_start > 1) & (href[href.len() - 1] == b'/');
        out.truncate(out.len() - usize::from(slash));
        fired.insert_if(Rule::StripTrailingSlash, slash);
        Verdict::Done(fired)
    }
}

/// Whether [`Bare`] may keep the query at `mark` of `href` (up to the end):
/// see [`Bare::kept`]. Out of line: a tenth of URLs have a query, and the
/// checks would crowd the registers of every URL's way.
#[inline(never)]
fn bare_query(plan: &Plan, href: &[u8], path_start: usize, mark: usize) -> bool {
    let slash = plan.rules.contains(Rule::StripTrailingSlash)
        && mark - path_start > 1
        && href[mark - 1] == b'/';
    if slash || !plan.keeps_single(&href[mark + 1..]) {
        return false;
    }
    // A second parameter, when parameter rules are on.
    let second = plan.query_scan.contains(Features::AMP)
        && any::<{ Features::AMP.bits() }>(href, mark + 1, href.len());
    !second
}

/// [`straight_line`] for the URLs without query or fragment that take more
/// than one range of the href: a port to drop, or a `www` host that is
/// not `www.` and one label. (The checks that decline ran in [`straight_line`]:
/// the cuts here never decline.)
#[inline(never)]
fn cut_ranges<const W: u8>(
    setup: &Setup,
    url: &Url,
    params: &mut QueryScratch,
    bufs: &mut Buffers,
    out: &mut Vec<u8>,
) -> Option<RuleSet> {
    let plan = &setup.plan;
    let href = url.href().as_bytes();
    let at = Layout::of(url);
    if any::<W>(href, at.host_start, at.path_end) {
        return careful(setup, url, params, bufs, out);
    }
    let mut edit = Edit::default();
    cut_host_port_slash(plan.rules, url, href, &at, &mut edit)?;
    write_url(url, &at, &edit, bufs, out);
    Some(edit.fired)
}

/// The cuts of the host (`strip-www`, `trim-host-dots`), the port and a
/// trailing slash, for [`tail`] and [`careful`]; `None` when one of them
/// needs the general path. Inlined into both, so the layout stays in
/// registers.
#[inline(always)]
fn cut_host_port_slash(
    rules: RuleSet,
    url: &Url,
    href: &[u8],
    layout: &Layout,
    edit: &mut Edit,
) -> Option<()> {
    if url.host_kind() == HostKind::Domain {
        edit.host_cut = domain(
            rules,
            &href[layout.host_start..layout.host_end],
            &mut edit.fired,
        )?;
    }
    if url.port_number().is_some() && rules.contains(Rule::DropPort) {
        edit.drop_port = true;
        edit.fired.insert(Rule::DropPort);
    }
    if rules.contains(Rule::StripTrailingSlash) && !url.has_opaque_path() {
        trailing_slash(url, href, layout, edit).ok()?;
    }
    Some(())
}

/// [`straight_line`] for URLs with a query or a fragment. (It finds the
/// offsets again: passing them from [`straight_line`] would make that keep them
/// in memory for all URLs.)
#[inline(never)]
fn tail(
    setup: &Setup,
    url: &Url,
    params: &mut QueryScratch,
    bufs: &mut Buffers,
    out: &mut Vec<u8>,
) -> Option<RuleSet> {
    let plan = &setup.plan;
    let rules = plan.rules;
    let href = url.href().as_bytes();
    let layout = &Layout::of(url);
    // Whether the query has no `&` (the scan looks for it when parameter
    // rules are on).
    let mut single = true;
    if let Some(mark) = layout.query {
        if any_of(plan.query_scan, href, mark + 1, layout.query_end) {
            // Several parameters and nothing else the query rules look
            // for: the parameter rules' alone, here as in `careful`
            // (which would scan the host, path and query again).
            let amp_only = plan.query_scan.contains(Features::AMP)
                && !any_of(plan.query, href, mark + 1, layout.query_end);
            if !amp_only {
                return careful(setup, url, params, bufs, out);
            }
            single = false;
        }
    }
    if let Some(mark) = layout.fragment {
        if !rules.contains(Rule::DropFragment) && plan.percent.changes(&href[mark + 1..], true) {
            return None;
        }
    }
    if !plan.cuts {
        out.extend_from_slice(href);
        return Some(RuleSet::EMPTY);
    }
    let mut edit = Edit::default();
    cut_host_port_slash(rules, url, href, layout, &mut edit)?;
    if let Some(mark) = layout.query {
        let query = &href[mark + 1..layout.query_end];
        // Most queries have one parameter that stays.
        if !single || !plan.keeps_single(query) {
            QueryRules {
                setup,
                // The final host, as the general path passes it.
                host: &href[layout.host_start + edit.host_cut..layout.host_end],
                query,
                single,
                params,
                tmp: &mut bufs.query,
            }
            .apply(&mut edit);
        }
    }
    if layout.fragment.is_some() && rules.contains(Rule::DropFragment) {
        edit.drop_fragment = true;
        edit.fired.insert(Rule::DropFragment);
    }
    if edit.fired.is_empty() {
        // Every change fires a rule: nothing fired, nothing changed.
        out.extend_from_slice(href);
    } else {
        write_url(url, layout, &edit, bufs, out);
    }
    Some(edit.fired)
}

/// The fast path for the URLs off the straight line: userinfo, something
/// found by a scan, a query of several parameters, another output form.
#[inline(never)]
fn careful(
    setup: &Setup,
    url: &Url,
    params: &mut QueryScratch,
    bufs: &mut Buffers,
    out: &mut Vec<u8>,
) -> Option<RuleSet> {
    let plan = &setup.plan;
    let rules = plan.rules;
    if rules.contains(Rule::ForceHttp) && url.scheme_type() == SchemeType::Https {
        return None;
    }
    let layout = Layout::of(url);
    if layout.userinfo(url) && !rules.contains(Rule::StripUserinfo) && userinfo_changes(plan, url) {
        return None;
    }
    let lower = inspect(plan, url, &layout, false).ok()?;
    rewrite(setup, url, &layout, lower, params, bufs, out)
}

/// [`straight_line`] for a [`Bare`] URL whose scan found something: when
/// that is nothing a rule rewrites (most of what crawled paths have: a
/// `%20`, a `%40`, a `..` inside a name), writes what [`Bare::apply`]
/// writes, without the scan; otherwise goes on as [`careful`] would from
/// there. (`careful` cost about 750 instructions on these URLs, most of
/// it finding out again what this knows.)
#[cold]
#[inline(never)]
fn bare_found(
    setup: &Setup,
    url: &Url,
    params: &mut QueryScratch,
    bufs: &mut Buffers,
    out: &mut Vec<u8>,
) -> Option<RuleSet> {
    let plan = &setup.plan;
    let layout = Layout::of(url);
    // `straight_line` ruled out userinfo, `force-http` and other outputs.
    let lower = inspect(plan, url, &layout, true).ok()?;
    if !lower.path && !lower.query {
        // No scan: `W` is empty. SAFETY: not `WIDE`.
        let bare = Bare::stored(url, &layout);
        if let Verdict::Done(fired) = unsafe { bare.apply::<0, false>(plan.rules, out) } {
            return Some(fired);
        }
    }
    rewrite(setup, url, &layout, lower, params, bufs, out)
}

/// [`careful`] once [`inspect`] has said what the lowercase rules do:
/// the cuts, the lowercase and parameter rules, and the writing.
fn rewrite(
    setup: &Setup,
    url: &Url,
    layout: &Layout,
    lower: Lower,
    params: &mut QueryScratch,
    bufs: &mut Buffers,
    out: &mut Vec<u8>,
) -> Option<RuleSet> {
    let (plan, config) = (&setup.plan, &setup.config);
    let rules = plan.rules;
    let href = url.href().as_bytes();
    let userinfo = layout.userinfo(url);
    let mut edit = Edit::default();
    if !plan.cuts && !lower.path && !lower.query {
        return Some(write(config, url, layout, &edit, bufs, out));
    }
    if userinfo && rules.contains(Rule::StripUserinfo) {
        edit.drop_userinfo = true;
        edit.fired.insert(Rule::StripUserinfo);
    }
    cut_host_port_slash(rules, url, href, layout, &mut edit)?;
    if lower.path {
        // The general path lowercases before it strips the trailing slash;
        // the cut is the same either way.
        bufs.path.clear();
        let path = &href[layout.path_start..layout.path_end - edit.path_cut];
        bufs.path.extend_from_slice(path);
        bufs.path.make_ascii_lowercase();
        edit.new_path = true;
        edit.fired.insert(Rule::LowercasePath);
    }
    if let Some(mark) = layout.query {
        let raw = &href[mark + 1..layout.query_end];
        // The parameter rules see the lowercased query, as in the general
        // path.
        let query: &[u8] = if lower.query {
            bufs.lowered.clear();
            bufs.lowered.extend_from_slice(raw);
            bufs.lowered.make_ascii_lowercase();
            edit.fired.insert(Rule::LowercaseQuery);
            &bufs.lowered
        } else {
            raw
        };
        QueryRules {
            setup,
            // The final host, as the general path passes it.
            host: &href[layout.host_start + edit.host_cut..layout.host_end],
            query,
            // `query::apply` on a query of one parameter costs more than
            // this look (`wayback`, whose lowercase rules send every
            // query here).
            single: !query.contains(&b'&'),
            params,
            tmp: &mut bufs.query,
        }
        .apply(&mut edit);
        if lower.query && !edit.new_query && !edit.drop_query {
            // No parameter rule changed the lowercased query: it is the
            // new one.
            std::mem::swap(&mut bufs.query, &mut bufs.lowered);
            edit.new_query = true;
        }
    }
    if layout.fragment.is_some() && rules.contains(Rule::DropFragment) {
        edit.drop_fragment = true;
        edit.fired.insert(Rule::DropFragment);
    }
    Some(write(config, url, layout, &edit, bufs, out))
}

/// Writes the edited URL in the canonicalizer's output form; returns the
/// rules that fired. `bufs` holds the rewritten path and query when `edit`
/// says there are some.
fn write(
    config: &Config,
    url: &Url,
    layout: &Layout,
    edit: &Edit,
    bufs: &Buffers,
    out: &mut Vec<u8>,
) -> RuleSet {
    match config.output {
        OutputForm::Url if edit.fired.is_empty() => {
            // Every change fires a rule: nothing fired, nothing changed.
            out.extend_from_slice(url.href().as_bytes());
        }
        OutputForm::Url => write_url(url, layout, edit, bufs, out),
        OutputForm::Surt(options) => parts(url, layout, edit, bufs).write_surt(options, out),
        OutputForm::Ssurt => parts(url, layout, edit, bufs).write_ssurt(out),
    }
    edit.fired
}

/// Whether the percent rules would change a userinfo that stays.
#[cold]
fn userinfo_changes(plan: &Plan, url: &Url) -> bool {
    // `user:pass` without its `@`. Percent rules change something there
    // exactly when they do on the username or the password: `:` is no hex
    // digit, so no `%XX` spans it.
    let href = url.href();
    let start = url.scheme().len() + 3;
    let end = url.hostname().as_ptr() as usize - href.as_ptr() as usize - 1;
    plan.percent.changes(&href.as_bytes()[start..end], true)
}

/// What `lowercase-path` and `lowercase-query` have to do: the only
/// rewrites [`careful`] makes itself, besides the parameter rules.
#[derive(Clone, Copy, Default)]
struct Lower {
    path: bool,
    query: bool,
}

/// Declines when a rule other than those that cut, the parameter rules and
/// the lowercase rules has something to do in the host, path, query or a
/// fragment that stays; says what the lowercase rules have to do.
///
/// `found` says that a scan of the host and path for the plan's features
/// found one, so that this need not look again.
fn inspect(plan: &Plan, url: &Url, layout: &Layout, found: bool) -> Result<Lower, Decline> {
    let (rules, percent) = (plan.rules, plan.percent);
    let mut lower = Lower::default();
    let href = url.href().as_bytes();
    let (host, path) = (
        layout.host_start..layout.host_end,
        layout.path_start..layout.path_end,
    );
    if found || any_of(plan.path, href, host.start, path.end) {
        match url.host_kind() {
            HostKind::Domain => decline_if(
                rules.contains(Rule::TrimHostDots)
                    // In the href, not a slice of it: most hosts are under
                    // 16 bytes, too short for `classify`'s vectors.
                    && any::<{ Features::DOT_PAIR.bits() }>(href, host.start, host.end),
            )?,
            HostKind::Opaque => decline_if(percent.changes(&href[host], true))?,
            _ => {}
        }
        lower.path = inspect_path(plan, url, &href[path])?;
    }
    if let Some(mark) = layout.query {
        if any_of(plan.query, href, mark + 1, layout.query_end) {
            let special = url.scheme_type().is_special();
            lower.query = inspect_query(plan, special, &href[mark + 1..layout.query_end])?;
        }
    }
    if let Some(mark) = layout.fragment {
        if !rules.contains(Rule::DropFragment) {
            decline_if(percent.changes(&href[mark + 1..], true))?;
        }
    }
    Ok(lower)
}

/// Declines when a path rule other than `strip-trailing-slash` and
/// `lowercase-path` has something to do; says whether `lowercase-path`
/// has. (The general path lowercases first, and the other path rules match
/// case-insensitively, so their verdicts hold for the lowercased path.)
fn inspect_path(plan: &Plan, url: &Url, path: &[u8]) -> Result<bool, Decline> {
    let rules = plan.rules;
    let found = classify(path);
    let opaque = url.has_opaque_path();
    let lower = rules.contains(Rule::LowercasePath);
    let lowercase = lower && found.contains(Features::UPPER);
    if !opaque
        && ((rules.contains(Rule::StripSessionIds) && found.contains(Features::SESSION))
            || (rules.contains(Rule::CollapseSlashes) && found.contains(Features::SLASH_PAIR)))
    {
        return Err(Decline);
    }
    if !found.contains(Features::PERCENT) {
        return Ok(lowercase);
    }
    // As the general path: unescape-path on special hierarchical paths but
    // file's, the percent rules elsewhere.
    let unescape = rules.contains(Rule::UnescapePath)
        && !opaque
        && url.scheme_type().is_special()
        && url.scheme_type() != SchemeType::File;
    decline_if(unescape || plan.percent.changes(path, !lower))?;
    Ok(lowercase)
}

/// Declines when the unescape or percent rules would change the query
/// (of a URL whose scheme is `special`); says whether `lowercase-query`
/// would.
fn inspect_query(plan: &Plan, special: bool, query: &[u8]) -> Result<bool, Decline> {
    let rules = plan.rules;
    let lower = rules.contains(Rule::LowercaseQuery);
    // Without `lowercase-query` the scan that sent the query here looked
    // for `%` alone, and found one: no need to classify it again.
    debug_assert!(lower || query.contains(&b'%'));
    let found = if lower {
        classify(query)
    } else {
        Features::PERCENT
    };
    let lowercase = lower && found.contains(Features::UPPER);
    if !found.contains(Features::PERCENT) {
        return Ok(lowercase);
    }
    let unescape = rules.contains(Rule::UnescapeQuery) && special;
    decline_if(unescape || plan.percent.changes(query, !lower))?;
    Ok(lowercase)
}

/// `trim-host-dots` (declines when there are dots to trim; the scan has
/// looked for `..`), `strip-www` and `strip-www-digits` on a domain:
/// returns how many bytes to cut from the start of the host, and adds the
/// rule that fired.
#[inline(always)]
fn domain(rules: RuleSet, host: &[u8], fired: &mut RuleSet) -> Option<usize> {
    if trim_dots_declines(rules, host) {
        return None;
    }
    if !www_candidate(rules, host) {
        return Some(0);
    }
    Some(strip_www(rules, host, fired))
}

/// Whether `trim-host-dots` has dots to trim at the ends of a domain (the
/// scans look for `..`): a job for the general path.
#[inline(always)]
fn trim_dots_declines(rules: RuleSet, host: &[u8]) -> bool {
    rules.contains(Rule::TrimHostDots)
        && (host.first() == Some(&b'.') || host.last() == Some(&b'.'))
}

/// Whether `strip-www` or `strip-www-digits` may have something to strip
/// from a domain: most hosts do not start with `www.` (`www` for
/// `strip-www-digits`), and one 4-byte compare says so. Shorter hosts
/// have nothing to strip (`www.` would leave an empty host).
#[inline(always)]
fn www_candidate(rules: RuleSet, host: &[u8]) -> bool {
    let Some(&head) = host.first_chunk::<4>() else {
        return false;
    };
    let head = u32::from_le_bytes(head);
    if rules.contains(Rule::StripWwwDigits) {
        head & 0x00ff_ffff == u32::from_le_bytes(*b"www\0")
    } else {
        rules.contains(Rule::StripWww) && head == u32::from_le_bytes(*b"www.")
    }
}

/// `strip-www` or `strip-www-digits` on a [candidate](www_candidate):
/// the bytes to cut, and the rule added to `fired` when there are some.
#[inline(always)]
fn strip_www(rules: RuleSet, host: &[u8], fired: &mut RuleSet) -> usize {
    let digits = rules.contains(Rule::StripWwwDigits);
    let cut = host.len() - host::strip_www(host, digits).len();
    fired.insert_if(www_rule(rules), cut > 0);
    cut
}

/// The rule that strips `www` labels under `rules`: `strip-www-digits`
/// when it is on (it strips `www.` too), else `strip-www`.
#[inline(always)]
fn www_rule(rules: RuleSet) -> Rule {
    if rules.contains(Rule::StripWwwDigits) {
        Rule::StripWwwDigits
    } else {
        Rule::StripWww
    }
}

/// `strip-trailing-slash` on a hierarchical path.
fn trailing_slash(url: &Url, href: &[u8], layout: &Layout, edit: &mut Edit) -> Step {
    let (start, end) = (layout.path_start, layout.path_end);
    if end - start < 2 || href[end - 1] != b'/' {
        return Ok(());
    }
    decline_if(trailing_slash_declines(url, href, start))?;
    edit.path_cut = 1;
    edit.fired.insert(Rule::StripTrailingSlash);
    Ok(())
}

/// Whether stripping the `/` that ends `href[start..end]`, a hierarchical
/// path of two bytes or more, is a job for the general path. Without a
/// session id in the path (which `careful` declines), one strip is all the
/// general path's loop does, even when the path ends in `//`
/// (collapse-slashes off); but `scheme:/.//path`, whose `/.` the
/// serializer writes only while the path starts with `//`, is left to it.
fn trailing_slash_declines(url: &Url, href: &[u8], start: usize) -> bool {
    !url.has_host() && href[start - 1] != b':'
}

/// The query parameter rules and `drop-empty-query`.
struct QueryRules<'a> {
    setup: &'a Setup,
    /// The final host, for exemptions from `strip-tracking`.
    host: &'a [u8],
    query: &'a [u8],
    /// The query has no `&`.
    single: bool,
    params: &'a mut QueryScratch,
    tmp: &'a mut Vec<u8>,
}

impl QueryRules<'_> {
    /// Runs the parameter rules and `drop-empty-query`; a rewritten query
    /// is left in `tmp` (see [`Edit::new_query`]).
    #[inline(never)]
    fn apply(self, edit: &mut Edit) {
        let rules = self.setup.plan.rules;
        self.tmp.clear();
        let outcome = params_outcome(
            self.setup,
            self.host,
            self.query,
            self.single,
            self.params,
            self.tmp,
        );
        match query_fate(rules, &outcome, self.query, self.tmp, &mut edit.fired) {
            QueryFate::Keep => {}
            QueryFate::Drop => edit.drop_query = true,
            QueryFate::New => edit.new_query = true,
        }
    }
}

/// Runs the parameter rules on `query` of a URL whose (final) host is
/// `host`, appending the new query to `out` when they change it. `single`
/// says that the query has no `&`.
#[inline(always)]
fn params_outcome(
    setup: &Setup,
    host: &[u8],
    query: &[u8],
    single: bool,
    scratch: &mut QueryScratch,
    out: &mut Vec<u8>,
) -> query::Outcome {
    let (plan, config) = (&setup.plan, &setup.config);
    let rules = plan.rules;
    if rules.intersection(query::Params::RULES).is_empty() {
        return query::Outcome::default();
    }
    let config = query::Params {
        rules,
        tracking: &config.tracking,
        host,
        starts: Some(&plan.param_starts),
    };
    // (`apply_plain` gives the same for a query without `&`, at some
    // cost.)
    if single {
        query::apply_single(query, &config, scratch)
    } else {
        query::apply_plain(query, &config, scratch, out)
    }
}

/// What becomes of a query once the parameter rules have run.
#[derive(Clone, Copy, Debug)]
enum QueryFate {
    /// It stays as it was.
    Keep,
    /// It goes, `?` and all.
    Drop,
    /// The parameter rules wrote a new one.
    New,
}

/// The fate of `query` after the parameter rules' `outcome`
/// ([`params_outcome`], which wrote `written` when it changed the query)
/// and `drop-empty-query`; adds the rules that fired to `fired`.
#[inline(always)]
fn query_fate(
    rules: RuleSet,
    outcome: &query::Outcome,
    query: &[u8],
    written: &[u8],
    fired: &mut RuleSet,
) -> QueryFate {
    if outcome.changed {
        *fired = fired.union(outcome.fired);
        if outcome.stripped_all {
            // Every parameter was stripped: the `?` goes too.
            return QueryFate::Drop;
        }
        // Parameters were dropped or reordered (`apply_single` writes
        // nothing: it only strips all). As in the general path,
        // drop-empty-query looks at the result.
        debug_assert!(query.contains(&b'&'), "apply_single writes nothing");
        if written.is_empty() && rules.contains(Rule::DropEmptyQuery) {
            fired.insert(Rule::DropEmptyQuery);
            return QueryFate::Drop;
        }
        return QueryFate::New;
    }
    if query.is_empty() && rules.contains(Rule::DropEmptyQuery) {
        fired.insert(Rule::DropEmptyQuery);
        return QueryFate::Drop;
    }
    QueryFate::Keep
}

/// Copies an href to `out` leaving out ranges, given in order, and
/// inserting rewritten components, with one capacity check for all of it.
pub(super) struct Copier<'a> {
    href: &'a [u8],
    /// Where the next copy starts.
    from: usize,
    out: &'a mut Vec<u8>,
}

impl<'a> Copier<'a> {
    /// A copier that will insert at most `extra` bytes.
    #[inline(always)]
    pub(super) fn new(href: &'a [u8], extra: usize, out: &'a mut Vec<u8>) -> Copier<'a> {
        // What is written is `href` minus some ranges, plus at most
        // `extra` inserted bytes.
        out.reserve(href.len() + extra);
        Copier { href, from: 0, out }
    }

    /// Leaves out `href[start..end]`.
    #[inline(always)]
    pub(super) fn skip(&mut self, start: usize, end: usize) {
        if start > self.from {
            self.copy(start);
        }
        self.from = end;
    }

    /// Copies `href[self.from..to]`.
    #[inline(always)]
    fn copy(&mut self, to: usize) {
        let part = &self.href[self.from..to];
        self.insert(part);
        self.from = to;
    }

    /// Writes `part` (a range of the href, or bytes counted in `new`'s
    /// `extra`) at this point.
    #[inline(always)]
    fn insert(&mut self, part: &[u8]) {
        let len = self.out.len();
        // `new` reserved `href.len()` bytes plus what `insert` writes,
        // and the parts copied are disjoint ranges of `href`, so this
        // never fails; the check keeps the copy below sound whatever the
        // caller passes.
        assert!(self.out.capacity() - len >= part.len());
        // SAFETY: there is room for `part` after `len` (checked above),
        // and `part` borrows the URL or the query scratch, not `out`, so
        // they do not overlap.
        unsafe {
            std::ptr::copy_nonoverlapping(
                part.as_ptr(),
                self.out.as_mut_ptr().add(len),
                part.len(),
            );
            self.out.set_len(len + part.len());
        }
    }

    #[inline(always)]
    pub(super) fn finish(mut self) {
        self.copy(self.href.len());
    }
}

/// The URL serialization of the edited URL: the href without the ranges
/// the rules dropped. (The scheme, and `//` when there is a host, are
/// never dropped, so this is what the serializer would write.)
#[inline(never)]
fn write_url(url: &Url, layout: &Layout, edit: &Edit, bufs: &Buffers, out: &mut Vec<u8>) {
    let href = url.href().as_bytes();
    let new_path: &[u8] = if edit.new_path { &bufs.path } else { &[] };
    let new_query: &[u8] = if edit.new_query { &bufs.query } else { &[] };
    let mut copier = Copier::new(href, new_path.len() + new_query.len(), out);
    if edit.drop_userinfo {
        copier.skip(url.scheme().len() + 3, layout.host_start);
    }
    copier.skip(layout.host_start, layout.host_start + edit.host_cut);
    if edit.drop_port {
        copier.skip(layout.host_end, layout.path_start);
    }
    if edit.new_path {
        copier.skip(layout.path_start, layout.path_end);
        copier.insert(new_path);
    } else {
        copier.skip(layout.path_end - edit.path_cut, layout.path_end);
    }
    if let Some(mark) = layout.query {
        if edit.drop_query {
            copier.skip(mark, layout.query_end);
        } else if edit.new_query {
            copier.skip(mark + 1, layout.query_end);
            copier.insert(new_query);
        }
    }
    if let (true, Some(mark)) = (edit.drop_fragment, layout.fragment) {
        copier.skip(mark, layout.len);
    }
    copier.finish();
}

/// The edited URL's parts, for the SURT and SSURT writers.
#[inline(never)]
fn parts<'u>(url: &'u Url, layout: &Layout, edit: &Edit, bufs: &'u Buffers) -> Parts<'u> {
    let href = url.href().as_bytes();
    let (username, password) = if edit.drop_userinfo {
        ("", "")
    } else {
        (url.username(), url.password())
    };
    let port = if edit.drop_port { "" } else { url.port() };
    let query = layout.query.filter(|_| !edit.drop_query).map(|mark| {
        if edit.new_query {
            &bufs.query
        } else {
            &href[mark + 1..layout.query_end]
        }
    });
    let fragment = layout
        .fragment
        .filter(|_| !edit.drop_fragment)
        .map(|mark| &href[mark + 1..]);
    Parts {
        prefix: None,
        scheme: url.scheme().as_bytes(),
        username: username.as_bytes(),
        password: password.as_bytes(),
        host_kind: url.host_kind(),
        host: &href[layout.host_start + edit.host_cut..layout.host_end],
        port: port.as_bytes(),
        path: if edit.new_path {
            &bufs.path
        } else {
            &href[layout.path_start..layout.path_end - edit.path_cut]
        },
        query,
        fragment,
    }
}
