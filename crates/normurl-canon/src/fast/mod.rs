//! The fast path of [`Canonicalizer::apply`](super::Canonicalizer::apply).
//!
//! Most rules, on most URLs, either have nothing to do or only cut a range
//! out of the href: `strip-www` drops the start of the host,
//! `strip-trailing-slash` the last byte of the path, `drop-fragment`
//! everything from `#`. The fast path finds out which with a
//! [scan](normurl_url::simd::features) of the host and path for the bytes that would
//! give a rule more to do (`%`, `//`, `..`, `;`...), one of the query when
//! there is one, and the URL's offsets; then it writes the href without
//! the cut ranges: one copy when nothing fired.
//!
//! [`straight_line`] is the line most URLs take; [`careful()`] takes the others
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

use crate::config::OutputForm;
use crate::config::{Config, IdnForm};
use crate::general;
use crate::rule::{Rule, RuleSet};
use crate::rules::escapes::value_has_equals;
use crate::rules::form_encode::form_encode;
use crate::rules::host;
use crate::rules::lists::{ESCAPE_GENERAL, GENERAL_ONLY, PERCENT_GENERAL, QUERY_GENERAL};
use crate::rules::percent;
use crate::rules::public_suffix::Suffixes;
use crate::rules::query::{self, QueryScratch};
use crate::rules::query_session;
use crate::rules::tracking::TrackingParams;
use crate::scratch::Scratch;
use crate::surt::Parts;
use normurl_url::simd::features::{any, any_in, any_of, append_if_none_in, classify, Features};

use normurl_url::{HostKind, SchemeType, Url};

mod careful;
mod copy;
pub(super) mod fused;
mod params;
#[cfg(test)]
mod tests;

use careful::*;
use copy::*;
use params::*;

/// What the fast paths are given: the plan and the configuration it was
/// made from. One value, so that an instance of the fused path takes both
/// as one pointer: as two, its seventh argument goes on the stack, which
/// adds instructions to every line (docs/performance-history.md).
#[derive(Clone, Debug)]
pub(super) struct Setup {
    pub(super) plan: Plan,
    pub(super) config: Config,
    /// The instance of the fused path that `fused::declining` calls on the
    /// inputs it does not decline (the canonicalizer's own otherwise).
    pub(super) fused_inner: fused::Fused,
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
    /// The straight line for these rules: [`decline_some`] when `decline`
    /// says it must look first, else `inner`.
    straight: Straight,
    /// The straight line proper.
    inner: Straight,
    /// The URLs every fast path declines (see [`PERCENT_GENERAL`]).
    decline: DeclineOn,
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
    /// `session-ids-anywhere` with `strip-session-ids`: the query's
    /// session ids may start anywhere in a parameter, so the fast paths
    /// decline a query where [`query_session::may_strip`] says one may be, and run
    /// the parameter rules on the others without `strip-session-ids`.
    sessions_anywhere: bool,
    /// Whether the scan of a [`Bare`] URL's host and path looks for all
    /// that `query` does, so that it may go on over a query of one
    /// parameter (see [`Bare::kept`]).
    bare_query: bool,
    /// Whether `parse_apply` may run the parameter rules on the input's
    /// query ([`Bare::apply_query`]): the straight line may be taken, and
    /// no lowercase rule is on (most crawled queries or paths have an
    /// uppercase letter, which would send them on to the general path after
    /// a scan in vain: docs/performance-history.md).
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
/// more URLs to [`careful()`]). The sets are the needs of the profiles.
/// `@row FEATURES, ...` is one row on its own.
///
/// Each row has the features, the SSE2 instance and the AVX2 one (off
/// x86_64, the SSE2 one again, never picked): with AVX2 vectors, a long
/// path takes half the loop trips.
macro_rules! instances {
    ($line:ident, $wide:ident $(; $extra:expr)*) => {
        [
            instances!(@row $crate::fast::PERCENT, $line, $wide $(; $extra)*),
            instances!(@row $crate::fast::SAFE_BROWSING, $line, $wide $(; $extra)*),
            instances!(@row $crate::fast::AGGRESSIVE, $line, $wide $(; $extra)*),
            instances!(@row ::normurl_url::simd::features::Features::ALL, $line, $wide $(; $extra)*),
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
        let general_only = !rules.intersection(GENERAL_ONLY).is_empty();
        let (narrow, wide) = if general_only {
            (decline_all as Straight, decline_all as Straight)
        } else {
            (narrow, wide)
        };
        // The safety condition of the wide instances.
        let inner = if wide_available() { wide } else { narrow };
        let decline = DeclineOn {
            percent: !rules.intersection(PERCENT_GENERAL).is_empty(),
            query: !rules.intersection(QUERY_GENERAL).is_empty(),
            escapes: !rules.intersection(ESCAPE_GENERAL).is_empty(),
        };
        // The other profiles call the straight line as they did: no test
        // for these rules on their line. Nor do those that decline every
        // URL: the tests would only scan it first.
        let straight = if decline.any() && !general_only {
            decline_some as Straight
        } else {
            inner
        };
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
            inner,
            decline,
            #[cfg(test)]
            narrow,
            percent,
            cuts,
            whole: !cuts && path.contains_all(query.union(fragment)),
            simple,
            param_starts: query::removable_starts(query_session::param_rules(rules), tracking),
            sessions_anywhere: query_session::on(rules),
            // `fused` picks its instance as the straight line does. With
            // `lowercase-path`, the scan looks for uppercase letters too,
            // and finds them in most queries (`wayback`: scans that cost
            // instructions and sent most of those URLs back;
            // docs/performance-history.md).
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

    /// Which URLs the fast paths decline ([`DeclineOn`]).
    pub(super) fn declines(&self) -> DeclineOn {
        self.decline
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
        !query.is_empty() && !self.param_starts.may_remove(query) && !self.session_ids(query, true)
    }

    /// Whether `session-ids-anywhere` may strip a session id from `query`
    /// (see [`query_session::may_strip`]; `single` says that it has no
    /// `&`): a job for the general path.
    #[inline(always)]
    fn session_ids(&self, query: &[u8], single: bool) -> bool {
        self.sessions_anywhere
            && if single {
                query_session::may_strip_single(query)
            } else {
                query_session::may_strip(query)
            }
    }
}

#[cfg(test)]
impl Plan {
    /// The same plan with the SSE2 instance of the straight line; `None`
    /// when that is the one it has.
    pub(super) fn narrow(&self) -> Option<Plan> {
        if self.straight as usize == decline_some as *const () as usize {
            return (self.inner as usize != self.narrow as usize).then_some(Plan {
                inner: self.narrow,
                ..*self
            });
        }
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
/// [`Scratch`] from one URL to the next.
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

/// Which URLs the fast paths decline for the rules of [`PERCENT_GENERAL`],
/// [`QUERY_GENERAL`] and [`ESCAPE_GENERAL`].
#[derive(Clone, Copy, Debug)]
pub(super) struct DeclineOn {
    /// URLs with a `%`.
    pub(super) percent: bool,
    /// URLs with a query that `form-encode-query` changes.
    pub(super) query: bool,
    /// URLs that [`escapes_change`].
    pub(super) escapes: bool,
}

impl DeclineOn {
    fn any(self) -> bool {
        self.percent || self.query || self.escapes
    }
}

/// Whether `encode-hash-space` or `encode-value-equals` may change `url`:
/// a `#` in its fragment, a space in its opaque path, an `=` in a query
/// value.
fn escapes_change(url: &Url) -> bool {
    url.fragment().is_some_and(|f| f.contains('#'))
        || url.has_opaque_path() && url.pathname().contains(' ')
        || url.query().is_some_and(|q| value_has_equals(q.as_bytes()))
}

/// The straight line of canonicalizers with rules of [`PERCENT_GENERAL`],
/// [`QUERY_GENERAL`] or [`ESCAPE_GENERAL`]: declines the URLs those may change, and runs
/// the plan's straight line on the others.
///
/// # Safety
///
/// As for the plan's straight line (its instance was picked for this CPU).
unsafe fn decline_some(
    setup: &Setup,
    url: &Url,
    params: &mut QueryScratch,
    bufs: &mut Buffers,
    out: &mut Vec<u8>,
) -> Option<RuleSet> {
    let plan = &setup.plan;
    let href = url.href().as_bytes();
    let lower = plan.rules.contains(Rule::LowercaseQuery);
    let query = url.query().map(str::as_bytes);
    if plan.decline.query && query.is_some_and(|q| form_encode_changes(q, lower, &mut bufs.query))
        || plan.decline.percent && memchr::memchr(b'%', href).is_some()
        || plan.decline.escapes && escapes_change(url)
    {
        return None;
    }
    // SAFETY: the caller's.
    unsafe { (plan.inner)(setup, url, params, bufs, out) }
}

/// Whether `form-encode-query` would change `query`, found by writing its
/// output into `buf`: most queries (`id=123&page=2`) are already
/// form-encoded, and the fast paths take them.
pub(super) fn form_encode_changes(query: &[u8], lower: bool, buf: &mut Vec<u8>) -> bool {
    buf.clear();
    let changed = form_encode(query, lower, buf);
    buf.clear();
    changed
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
    if c.is_identity() {
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

/// Whether [`straight_wide`] may run ([`normurl_url::simd::avx2`]).
pub(super) fn wide_available() -> bool {
    normurl_url::simd::avx2()
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
/// take [`careful()`].
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
        // returns above (docs/performance-history.md).
        if unsafe { any_in::<W, WIDE>(href, at.host_start, at.path_end) } {
            return careful(setup, url, params, bufs, out);
        }
        return tail(setup, url, params, bufs, out);
    }
    if !url.has_host() {
        // `mailto:`, `data:`...: rare, and their paths follow other rules.
        return careful(setup, url, params, bufs, out);
    }
    match unsafe { Bare::stored(url, &at).apply::<W, WIDE>(rules, &setup.config.suffixes, out) } {
        Verdict::Done(fired) => Some(fired),
        Verdict::Decline => None,
        Verdict::CutRanges => cut_ranges::<W>(setup, url, params, bufs, out),
        Verdict::Careful => bare_found(setup, url, params, bufs, out),
    }
}
