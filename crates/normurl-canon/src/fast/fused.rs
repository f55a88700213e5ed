//! Parsing and canonicalizing in one go:
//! [`Canonicalizer::parse_apply`](crate::canonicalizer::Canonicalizer::parse_apply).
//!
//! Most crawled URLs are already canonical for the URL Standard: the
//! parser's fast check accepts them, and their serialization is the input.
//! When such a URL has no query or one of one parameter that no rule
//! changes, and no fragment or one that `drop-fragment` drops, the
//! canonicalizer's straight line ([`plain`] here) only cuts `www.`, a
//! trailing slash or the fragment after one scan of the host, path and
//! query, and it can do that on the input: the URL is never
//! stored (one copy of it fewer) and its offsets come in registers from the
//! check. Every other input is stored in the caller's `Url`, from the
//! layout the check found when it accepted (no second parse), and takes
//! [`Canonicalizer::apply`](crate::canonicalizer::Canonicalizer::apply); except that a query of several parameters
//! (or of one that a rule may remove) after a host and path that [`plain`]
//! would take need not be stored either: [`query_narrow`] runs the
//! parameter rules on the input's query and writes the result after the
//! host and path.
//!
//! In debug builds, every answer is compared with that of
//! [`Url::parse_into`] and [`Canonicalizer::apply`](crate::canonicalizer::Canonicalizer::apply).

use super::{self as fast, instances, Bare, Plan, Setup, Suffixes, Verdict};
use crate::config::{IdnForm, OutputForm};
use crate::profile::Profile;
use crate::rule::{Rule, RuleSet};
use crate::rules::escapes::value_has_equals;
use crate::rules::lists::{ESCAPE_GENERAL, GENERAL_ONLY, PERCENT_GENERAL, QUERY_GENERAL};
use crate::rules::query::QueryScratch;
use crate::scratch::Scratch;
use normurl_url::simd::features::Features;
use normurl_url::staged::{self, Layout};
use normurl_url::{HostKind, ParseError, Url};

/// An instance of [`fused`] (or [`copy`], for no rules), picked once per
/// canonicalizer by [`pick`].
///
/// # Safety
///
/// The wide instances need a CPU with AVX2: [`pick`] picks them only after
/// checking.
pub(crate) type Fused =
    unsafe fn(&Setup, &str, &mut Url, &mut Scratch, &mut Vec<u8>) -> Result<RuleSet, ParseError>;

/// The instances of [`fused`] for the plan's rules, as those of the fast
/// path's straight line.
const INSTANCES: [(Features, Fused, Fused); 4] = instances!(fused, fused_wide; RUNTIME);

/// [`fused`]'s `R` when the rules are the plan's, read at run time.
const RUNTIME: u64 = u64::MAX;

/// The rules of `aggressive`, which has instances of its own (see [`pick`]).
const AGGRESSIVE: RuleSet = Profile::Aggressive.rules();

/// The SSE2 and AVX2 instances of [`fused`] for exactly the rules of
/// `aggressive`, whose tests of the rules then fold away at compile time,
/// taking instructions off each plain URL and each `www.` one
/// (docs/performance-history.md).
const AGGRESSIVE_INSTANCES: (Features, Fused, Fused) =
    instances!(@row fast::AGGRESSIVE, fused, fused_wide; AGGRESSIVE.bits());

/// Which instances [`pick`] takes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// [`general`]: hosts written in Unicode, which only the general path
    /// writes, and the rules only it applies.
    General,
    /// [`copy`]: no rules, URL output in ASCII.
    Copy,
    /// [`AGGRESSIVE_INSTANCES`].
    Aggressive,
    /// The row of [`INSTANCES`] for the plan's features.
    Plan,
}

impl Kind {
    fn of(rules: RuleSet, output: OutputForm, idn: IdnForm, path: Features) -> Kind {
        let url = output == OutputForm::Url;
        if idn != IdnForm::Ascii || !rules.intersection(GENERAL_ONLY).is_empty() {
            Kind::General
        } else if rules.is_empty() && url {
            Kind::Copy
        } else if rules == AGGRESSIVE && url && AGGRESSIVE_INSTANCES.0.contains_all(path) {
            Kind::Aggressive
        } else {
            Kind::Plan
        }
    }
}

/// The instance for a canonicalizer: `path` is what its fast path scans
/// a host and path for.
/// `wide` says whether the AVX2 instances may run ([`fast::wide_available`];
/// the tests also run the SSE2 ones where they may).
///
/// Returns the instance to call and the one [`declining`] calls: with
/// rules of `PERCENT_GENERAL` or `QUERY_GENERAL`, the first is
/// [`declining`], which sends the inputs those rules may change to the
/// general path and the others to the second.
pub(crate) fn pick(
    rules: RuleSet,
    output: OutputForm,
    idn: IdnForm,
    path: Features,
    wide: bool,
) -> (Fused, Fused) {
    let (narrow, avx2) = match Kind::of(rules, output, idn, path) {
        Kind::General => return (general, general),
        Kind::Copy => return (copy, copy),
        Kind::Aggressive => (AGGRESSIVE_INSTANCES.1, AGGRESSIVE_INSTANCES.2),
        Kind::Plan => fast::instance(INSTANCES, path),
    };
    // The safety condition of the wide instances.
    let inner = if wide && fast::wide_available() {
        avx2
    } else {
        narrow
    };
    let declining_rules = PERCENT_GENERAL.union(QUERY_GENERAL).union(ESCAPE_GENERAL);
    if rules.intersection(declining_rules).is_empty() {
        (inner, inner)
    } else {
        (declining, inner)
    }
}

/// The instance of canonicalizers with rules that change only inputs with
/// a `%` (`PERCENT_GENERAL`), a query (`QUERY_GENERAL`), or a space, a
/// second `#` or an `=` in a query value (`ESCAPE_GENERAL`): those inputs
/// take the general path, the others the instance [`pick`] chose for the
/// other rules (`Setup::fused_inner`), which those rules leave as they
/// are. A test of the whole input: a `%` or `?` in a fragment declines
/// too, which is only slower.
///
/// # Safety
///
/// As for the inner instance.
unsafe fn declining(
    setup: &Setup,
    input: &str,
    url: &mut Url,
    scratch: &mut Scratch,
    out: &mut Vec<u8>,
) -> Result<RuleSet, ParseError> {
    let decline = setup.plan.declines();
    let (percent, query) = (decline.percent, decline.query);
    let bytes = input.as_bytes();
    // The query of the input as it is: if the parser changes it, the
    // input is not its serialization, and `fast::apply` looks again at
    // the parsed URL.
    let input_query = || {
        let start = memchr::memchr(b'?', bytes)? + 1;
        let end = memchr::memchr(b'#', &bytes[start..]).map_or(bytes.len(), |n| start + n);
        Some(&bytes[start..end])
    };
    let lower = setup.plan.rules().contains(Rule::LowercaseQuery);
    if input_declines(bytes, percent, decline.escapes)
        || query
            && input_query()
                .is_some_and(|q| fast::form_encode_changes(q, lower, &mut scratch.fast.query))
    {
        return general(setup, input, url, scratch, out);
    }
    // SAFETY: the caller's.
    unsafe { (setup.fused_inner)(setup, input, url, scratch, out) }
}

/// Whether the input has what the declining rules may change: with
/// `percent`, a `%`; with `escapes`, what `fast::escapes_change` tells of
/// a parsed URL, told of its input (a space anywhere, a second `#`, an
/// `=` in a query value). One pass over the line for the three bytes,
/// which costs less than a pass per byte (docs/performance-history.md).
fn input_declines(bytes: &[u8], percent: bool, escapes: bool) -> bool {
    if !escapes {
        return percent && memchr::memchr(b'%', bytes).is_some();
    }
    let mut fragment = bytes.len();
    for at in memchr::memchr3_iter(b'%', b' ', b'#', bytes) {
        match bytes[at] {
            b'#' if fragment == bytes.len() => fragment = at,
            b'%' if !percent => {}
            _ => return true,
        }
    }
    let before = &bytes[..fragment];
    memchr::memchr(b'?', before).is_some_and(|q| value_has_equals(&before[q + 1..]))
}

/// No rules: the output is the URL's serialization, which for an input the
/// check accepts is the input (and `/` when its path is empty).
fn copy(
    setup: &Setup,
    input: &str,
    url: &mut Url,
    scratch: &mut Scratch,
    out: &mut Vec<u8>,
) -> Result<RuleSet, ParseError> {
    staged_apply(setup, input, url, scratch, out, |input, at, _, out| {
        out.extend_from_slice(input);
        if at.append_slash {
            out.push(b'/');
        }
        Some(RuleSet::EMPTY)
    })
}

/// Hosts in Unicode: the input's serialization is not the output even
/// without rules (an `xn--` label is written decoded), so every input is
/// stored, from the check's layout when it accepts, and takes
/// [`Canonicalizer::apply`](crate::canonicalizer::Canonicalizer::apply), whose general path writes such hosts.
fn general(
    setup: &Setup,
    input: &str,
    url: &mut Url,
    scratch: &mut Scratch,
    out: &mut Vec<u8>,
) -> Result<RuleSet, ParseError> {
    staged_apply(setup, input, url, scratch, out, |_, _, _, _| None)
}

/// [`fused`] with AVX2 vectors.
///
/// # Safety
///
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn fused_wide<const W: u8, const R: u64>(
    setup: &Setup,
    input: &str,
    url: &mut Url,
    scratch: &mut Scratch,
    out: &mut Vec<u8>,
) -> Result<RuleSet, ParseError> {
    // SAFETY: the caller's.
    unsafe { fused::<W, true, R>(setup, input, url, scratch, out) }
}

/// Writes the result straight from the input when [`plain`] can. `W` has
/// the features the canonicalizer's fast path scans a host and path for;
/// `R` is [`RUNTIME`] or the plan's rules as a constant, for
/// [`AGGRESSIVE_INSTANCES`].
///
/// # Safety
///
/// With `WIDE`, the CPU must have AVX2. With `R` other than [`RUNTIME`],
/// the plan's rules must be `R`, and the output URLs in ASCII.
#[inline(always)]
unsafe fn fused<const W: u8, const WIDE: bool, const R: u64>(
    setup: &Setup,
    input: &str,
    url: &mut Url,
    scratch: &mut Scratch,
    out: &mut Vec<u8>,
) -> Result<RuleSet, ParseError> {
    let (plan, suffixes) = (&setup.plan, &setup.config.suffixes);
    // The closure is inlined, so that the scan in `plain` is compiled with
    // AVX2 in `fused_wide` (without the attribute it is not, and
    // `aggressive` takes far more instructions: docs/performance-history.md).
    staged_apply(
        setup,
        input,
        url,
        scratch,
        out,
        #[inline(always)]
        |input: &[u8], at: &Layout, scratch: &mut Scratch, out: &mut Vec<u8>| {
            // SAFETY: the caller's.
            if let Some(fired) = unsafe { plain::<W, WIDE, R>(plan, suffixes, input, at, out) } {
                return Some(fired);
            }
            // A query `plain` does not keep. (Or one it kept, when the
            // scan found something: `query` then scans the host and path
            // again and declines. Telling the two apart in `plain`, or
            // calling `query` from there, adds instructions to each URL
            // without a query, and more to each `www.` one, for its
            // registers.)
            let mark = at.query_start? as usize;
            let fragment = at.fragment_start.map(|m| m as usize);
            let input = bare_at(input, at, at.path_start as usize);
            let scratch = &mut scratch.params;
            #[cfg(target_arch = "x86_64")]
            if WIDE {
                // SAFETY: the caller's.
                return unsafe { query_wide::<W>(setup, &input, mark, fragment, scratch, out) };
            }
            query_narrow::<W>(setup, &input, mark, fragment, scratch, out)
        },
    )
}

/// Parses `input` with the parser's fast check and, when it accepts, lets
/// `direct` write the result from the input and its layout; when the check
/// declines or `direct` returns `None` (having written nothing), stores
/// the URL in `url` (from the layout, if the check accepted) and runs
/// [`Canonicalizer::apply`](crate::canonicalizer::Canonicalizer::apply) ([`fast::apply_url`]).
#[inline(always)]
fn staged_apply(
    setup: &Setup,
    input: &str,
    url: &mut Url,
    scratch: &mut Scratch,
    out: &mut Vec<u8>,
    direct: impl FnOnce(&[u8], &Layout, &mut Scratch, &mut Vec<u8>) -> Option<RuleSet>,
) -> Result<RuleSet, ParseError> {
    let trimmed = staged::trim(input);
    match staged::check(trimmed.as_bytes()) {
        Some(layout) => {
            if let Some(fired) = direct(trimmed.as_bytes(), &layout, scratch, out) {
                return Ok(fired);
            }
            staged::fill(url, trimmed, &layout);
        }
        None => staged::parse_declined(url, trimmed)?,
    }
    Ok(fast::apply_url(setup, url, scratch, out))
}

/// The straight line of the canonicalizer's fast path ([`Bare::apply`]) on
/// an input the parser's check accepted, when it is a [`Bare`] URL:
/// `None`, having written nothing, for the others and wherever the
/// straight line would go on elsewhere.
///
/// The input is the URL's serialization, and the parser's check rules out
/// userinfo and any host but a domain or file's empty one.
///
/// # Safety
///
/// As for [`fused`].
#[inline(always)]
unsafe fn plain<const W: u8, const WIDE: bool, const R: u64>(
    plan: &Plan,
    suffixes: &Suffixes,
    input: &[u8],
    at: &Layout,
    out: &mut Vec<u8>,
) -> Option<RuleSet> {
    let (rules, simple) = if R == RUNTIME {
        (plan.rules(), plan.simple())
    } else {
        debug_assert_eq!(plan.rules().bits(), R);
        // URL output (the caller's) and no `force-http` (a rule).
        (
            RuleSet::from_bits(R),
            !RuleSet::from_bits(R).contains(Rule::ForceHttp),
        )
    };
    if at.append_slash || !simple {
        return None;
    }
    let offset = |mark: Option<u32>| mark.map(|m| m as usize);
    let (kept, slash_start) = Bare::kept(
        plan,
        rules,
        input,
        at.path_start as usize,
        offset(at.query_start),
        offset(at.fragment_start),
    )?;
    let bare = bare_at(kept, at, slash_start);
    // SAFETY: the caller's.
    match unsafe { bare.apply::<W, WIDE>(rules, suffixes, out) } {
        // What `kept` left out is a fragment `drop-fragment` drops (here,
        // not in `Bare::apply`, so that nothing of it is kept across the
        // scan).
        Verdict::Done(mut fired) => {
            fired.insert_if(Rule::DropFragment, kept.len() < input.len());
            Some(fired)
        }
        Verdict::Decline | Verdict::CutRanges | Verdict::Careful => None,
    }
}

/// The [`Bare`] URL `href` (the input, or a start of it), whose layout
/// the parser's check found to be `at`.
#[inline(always)]
fn bare_at<'a>(href: &'a [u8], at: &Layout, slash_start: usize) -> Bare<'a> {
    Bare {
        href,
        host: at.scheme_end as usize + 3..at.host_end as usize,
        slash_start,
        domain: at.host_kind == HostKind::Domain,
        port: at.port.is_some(),
    }
}

/// [`plain`] for an input with a query (at `mark`):
/// [`Bare::apply_query`], with SSE2 vectors. `input` is the whole input as
/// a [`Bare`] URL, and `fragment` where its fragment starts.
///
/// Out of line and cold, so that what the query needs does not crowd the
/// registers of the way most URLs take: without `#[cold]`, each URL
/// without a query took more instructions, and each `www.` one more
/// still (docs/performance-history.md).
#[cold]
#[inline(never)]
fn query_narrow<const W: u8>(
    setup: &Setup,
    input: &Bare<'_>,
    mark: usize,
    fragment: Option<usize>,
    scratch: &mut QueryScratch,
    out: &mut Vec<u8>,
) -> Option<RuleSet> {
    // SAFETY: not `WIDE`.
    unsafe { query::<W, false>(setup, input, mark, fragment, scratch, out) }
}

/// [`query_narrow`] with AVX2 vectors.
///
/// # Safety
///
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[cold]
#[inline(never)]
unsafe fn query_wide<const W: u8>(
    setup: &Setup,
    input: &Bare<'_>,
    mark: usize,
    fragment: Option<usize>,
    scratch: &mut QueryScratch,
    out: &mut Vec<u8>,
) -> Option<RuleSet> {
    // SAFETY: the caller's.
    unsafe { query::<W, true>(setup, input, mark, fragment, scratch, out) }
}

/// See [`query_narrow`].
///
/// # Safety
///
/// With `WIDE`, the CPU must have AVX2.
#[inline(always)]
unsafe fn query<const W: u8, const WIDE: bool>(
    setup: &Setup,
    input: &Bare<'_>,
    mark: usize,
    fragment: Option<usize>,
    scratch: &mut QueryScratch,
    out: &mut Vec<u8>,
) -> Option<RuleSet> {
    let plan = &setup.plan;
    // Checked here, not before the call: there, the check adds
    // instructions to each `www.` URL, even in `aggressive`, whose rules
    // are constants there (docs/performance-history.md).
    if !plan.input_query() {
        return None;
    }
    let rules = plan.rules();
    let kept = Bare::unfragmented(rules, input.href, fragment)?;
    let bare = input.cut_to(kept.len());
    // SAFETY: the caller's.
    let mut fired = unsafe { bare.apply_query::<W, WIDE>(setup, rules, mark, scratch, out)? };
    fired.insert_if(Rule::DropFragment, kept.len() < input.href.len());
    Some(fired)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::tracking::TrackingParams;

    /// What `pick` takes for `rules` and `output` in ASCII, with the
    /// features their plan scans for.
    fn kind(rules: RuleSet, output: OutputForm) -> Kind {
        let plan = fast::Plan::new(rules, output, &TrackingParams::default());
        Kind::of(rules, output, IdnForm::Ascii, plan.path())
    }

    #[test]
    fn aggressive_rules_alone_take_their_own_instances() {
        // What `aggressive`'s plan scans for is what its rows were built
        // for, so they are picked, not silently passed over.
        assert_eq!(kind(AGGRESSIVE, OutputForm::Url), Kind::Aggressive);
        // Any edit of the rules, or another output, takes the instances
        // that read the rules at run time.
        for edited in [
            AGGRESSIVE.without(Rule::StripWww),
            AGGRESSIVE.with(Rule::ForceHttp),
            Profile::Semantic.rules(),
        ] {
            assert_eq!(kind(edited, OutputForm::Url), Kind::Plan, "{edited}");
        }
        assert_eq!(kind(AGGRESSIVE, OutputForm::Ssurt), Kind::Plan);
        // Hosts in Unicode: the general path for every rule set.
        for rules in [AGGRESSIVE, RuleSet::EMPTY, Profile::Semantic.rules()] {
            let unicode = Kind::of(rules, OutputForm::Url, IdnForm::Unicode, fast::AGGRESSIVE);
            assert_eq!(unicode, Kind::General, "{rules}");
        }
        assert_eq!(kind(RuleSet::EMPTY, OutputForm::Url), Kind::Copy);
    }
}
