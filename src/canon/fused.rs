//! Parsing and canonicalizing in one go:
//! [`Canonicalizer::parse_apply`](super::Canonicalizer::parse_apply).
//!
//! Most crawled URLs are already canonical for the URL Standard: the
//! parser's fast check accepts them, and their serialization is the input.
//! When such a URL has no query or fragment, the canonicalizer's straight
//! line ([`plain`] here) only cuts `www.` or a trailing slash after one scan
//! of the host and path, and it can do that on the input: the URL is never
//! stored (one copy of it fewer) and its offsets come in registers from the
//! check. Every other input is stored in the caller's `Url`, from the
//! layout the check found when it accepted (no second parse), and takes
//! [`Canonicalizer::apply`].
//!
//! In debug builds, every answer is compared with that of
//! [`Url::parse_into`] and [`Canonicalizer::apply`].

use super::classify::{append_if_none_in, Features};
use super::fast::{self, trim_dots_declines, www_candidate, www_rule};
use super::{host, Canonicalizer, IdnForm, OutputForm, Rule, RuleSet, Scratch};
use crate::url::staged::{self, Layout};
use crate::{HostKind, ParseError, Url};

/// An instance of [`fused`] (or [`copy`], for no rules), picked once per
/// canonicalizer by [`pick`].
///
/// # Safety
///
/// The wide instances need a CPU with AVX2: [`pick`] picks them only after
/// checking.
pub(super) type Fused = unsafe fn(
    &Canonicalizer,
    &str,
    &mut Url,
    &mut Scratch,
    &mut Vec<u8>,
) -> Result<RuleSet, ParseError>;

/// A row of [`INSTANCES`]: the features, the SSE2 instance and the AVX2
/// one (off x86_64, the SSE2 one again; [`pick`] never picks it).
macro_rules! instances {
    ($features:expr) => {
        (
            $features,
            fused::<{ $features.bits() }, false> as Fused,
            #[cfg(target_arch = "x86_64")]
            fused_wide::<{ $features.bits() }>,
            #[cfg(not(target_arch = "x86_64"))]
            fused::<{ $features.bits() }, false>,
        )
    };
}

/// The instances of [`fused`], each scanning for a set of features: those
/// of the fast path's straight line ([`fast::STRAIGHT`]).
const INSTANCES: [(Features, Fused, Fused); 4] = [
    instances!(fast::PERCENT),
    instances!(fast::SAFE_BROWSING),
    instances!(fast::AGGRESSIVE),
    instances!(Features::ALL),
];

/// The instance for a canonicalizer: `path` is what its fast path scans
/// a host and path for.
/// `wide` says whether the AVX2 instances may run ([`fast::wide_available`];
/// the tests also run the SSE2 ones where they may).
pub(super) fn pick(
    rules: RuleSet,
    output: OutputForm,
    idn: IdnForm,
    path: Features,
    wide: bool,
) -> Fused {
    if rules.is_empty() && output == OutputForm::Url && idn == IdnForm::Ascii {
        return copy;
    }
    let (_, narrow, avx2) = INSTANCES
        .into_iter()
        .find(|&(features, _, _)| features.contains_all(path))
        .expect("the last one has every feature");
    // The safety condition of the wide instances.
    if wide && fast::wide_available() {
        avx2
    } else {
        narrow
    }
}

/// No rules: the output is the URL's serialization, which for an input the
/// check accepts is the input (and `/` when its path is empty).
fn copy(
    canon: &Canonicalizer,
    input: &str,
    url: &mut Url,
    scratch: &mut Scratch,
    out: &mut Vec<u8>,
) -> Result<RuleSet, ParseError> {
    let trimmed = staged::trim(input);
    match staged::check(trimmed.as_bytes()) {
        Some(layout) => {
            out.extend_from_slice(trimmed.as_bytes());
            if layout.append_slash {
                out.push(b'/');
            }
            Ok(RuleSet::EMPTY)
        }
        None => {
            staged::parse_declined(url, trimmed)?;
            Ok(canon.apply(url, scratch, out))
        }
    }
}

/// [`fused`] with AVX2 vectors.
///
/// # Safety
///
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn fused_wide<const W: u8>(
    canon: &Canonicalizer,
    input: &str,
    url: &mut Url,
    scratch: &mut Scratch,
    out: &mut Vec<u8>,
) -> Result<RuleSet, ParseError> {
    // SAFETY: the caller's.
    unsafe { fused::<W, true>(canon, input, url, scratch, out) }
}

/// Parses `input` with the parser's fast check and, when it accepts,
/// writes the result straight from the input if [`plain`] can; otherwise
/// stores the URL in `url` and runs [`Canonicalizer::apply`]. `W` has the
/// features the canonicalizer's fast path scans a host and path for.
///
/// # Safety
///
/// With `WIDE`, the CPU must have AVX2.
#[inline(always)]
unsafe fn fused<const W: u8, const WIDE: bool>(
    canon: &Canonicalizer,
    input: &str,
    url: &mut Url,
    scratch: &mut Scratch,
    out: &mut Vec<u8>,
) -> Result<RuleSet, ParseError> {
    let trimmed = staged::trim(input);
    match staged::check(trimmed.as_bytes()) {
        Some(layout) => {
            // SAFETY: the caller's.
            if let Some(fired) =
                unsafe { plain::<W, WIDE>(canon, trimmed.as_bytes(), &layout, out) }
            {
                return Ok(fired);
            }
            staged::fill(url, trimmed, &layout);
        }
        None => staged::parse_declined(url, trimmed)?,
    }
    Ok(canon.apply(url, scratch, out))
}

/// The straight line of the canonicalizer's fast path, on an input the
/// parser's check accepted: no query, no fragment, at most `www.`, a port
/// and a trailing slash to cut, and nothing of `W` in the host and path.
/// `None`, having written nothing, for every other URL.
///
/// The input is the URL's serialization, and the parser's check rules out
/// userinfo and any host but a domain or file's empty one.
///
/// # Safety
///
/// With `WIDE`, the CPU must have AVX2.
#[inline(always)]
unsafe fn plain<const W: u8, const WIDE: bool>(
    canon: &Canonicalizer,
    input: &[u8],
    at: &Layout,
    out: &mut Vec<u8>,
) -> Option<RuleSet> {
    let plan = &canon.plan;
    if at.append_slash || at.query_start.is_some() || at.fragment_start.is_some() || !plan.simple()
    {
        return None;
    }
    let rules = plan.rules();
    let host_start = at.scheme_end as usize + 3;
    let host = &input[host_start..at.host_end as usize];
    let domain = at.host_kind == HostKind::Domain;
    if domain && trim_dots_declines(rules, host) {
        return None;
    }
    if at.port.is_some() && rules.contains(Rule::DropPort) {
        return None;
    }
    // Branch-free on the last byte, as in the straight line.
    let slash = rules.contains(Rule::StripTrailingSlash)
        && (input.len() - at.path_start as usize > 1) & (input[input.len() - 1] == b'/');
    let mut fired = RuleSet::EMPTY;
    let mut cut = 0;
    if domain && www_candidate(rules, host) {
        cut = host.len() - host::strip_plain_www(host)?.len();
        fired.insert_if(www_rule(rules), cut > 0);
    }
    // One pass scans the host and path and copies them.
    // SAFETY: the caller's.
    if !unsafe { append_if_none_in::<W, WIDE>(input, host_start, host_start + cut, out) } {
        return None;
    }
    out.truncate(out.len() - usize::from(slash));
    fired.insert_if(Rule::StripTrailingSlash, slash);
    Some(fired)
}
