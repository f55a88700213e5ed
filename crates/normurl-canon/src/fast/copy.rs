//! The straight-line copy: a URL whose rules only cut ranges out of its
//! href (`www.`, a trailing slash, the fragment, a tracking parameter) is
//! written with one or two copies of it ([`Bare`]), and a URL the scan
//! sent on with some cuts is written by [`Copier`].

use super::*;
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
    /// adds instructions to every URL without a query
    /// (docs/performance-history.md).
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
    /// The scan found something: [`careful()`]'s.
    Careful,
}

impl<'a> Bare<'a> {
    /// A stored URL with a host and no userinfo, query or fragment, whose
    /// layout is `at`, as a [`Bare`] URL.
    #[inline(always)]
    pub(super) fn stored(url: &'a Url, at: &Layout) -> Bare<'a> {
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
        // Before writing anything: `params_outcome` declines these too.
        if plan.session_ids(query, false) {
            return None;
        }
        let head = self.cut_to(mark);
        let start = out.len();
        // SAFETY: the caller's.
        let Verdict::Done(mut fired) =
            (unsafe { head.apply::<W, WIDE>(rules, &setup.config.suffixes, out) })
        else {
            return None;
        };
        // What `Bare::apply` cut from the start of the host: the final
        // host is the one `strip-tracking`'s exemptions look at.
        let slash = usize::from(fired.contains(Rule::StripTrailingSlash));
        let cut = mark - slash - (out.len() - start);
        let host = &href[self.host.start + cut..self.host.end];
        out.push(b'?');
        // A vector scan for `&`, as in `bare_query`, not a `memchr` call,
        // whose setup costs the short queries that come here more than the
        // scan (docs/performance-history.md).
        // SAFETY: the caller's.
        let single =
            !unsafe { any_in::<{ Features::AMP.bits() }, WIDE>(href, mark + 1, href.len()) };
        let mark = out.len();
        // (Never `None`: the session ids were looked for above.)
        let outcome = params_outcome(setup, host, query, single, scratch, out)?;
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
        suffixes: &Suffixes,
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
            let digits = rules.contains(Rule::StripWwwDigits);
            match host::strip_plain_www(href, self.host.clone(), digits, suffixes) {
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
pub(super) fn bare_query(plan: &Plan, href: &[u8], path_start: usize, mark: usize) -> bool {
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
pub(super) fn cut_ranges<const W: u8>(
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
    cut_host_port_slash(
        plan.rules,
        &setup.config.suffixes,
        url,
        href,
        &at,
        &mut edit,
    )?;
    write_url(url, &at, &edit, bufs, out);
    Some(edit.fired)
}

/// The cuts of the host (`strip-www`, `trim-host-dots`), the port and a
/// trailing slash, for [`tail`] and [`careful()`]; `None` when one of them
/// needs the general path. Inlined into both, so the layout stays in
/// registers.
#[inline(always)]
pub(super) fn cut_host_port_slash(
    rules: RuleSet,
    suffixes: &Suffixes,
    url: &Url,
    href: &[u8],
    layout: &Layout,
    edit: &mut Edit,
) -> Option<()> {
    if url.host_kind() == HostKind::Domain {
        edit.host_cut = domain(
            rules,
            suffixes,
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
    pub(super) fn copy(&mut self, to: usize) {
        let part = &self.href[self.from..to];
        self.insert(part);
        self.from = to;
    }

    /// Writes `part` (a range of the href, or bytes counted in `new`'s
    /// `extra`) at this point.
    #[inline(always)]
    pub(super) fn insert(&mut self, part: &[u8]) {
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
pub(super) fn write_url(
    url: &Url,
    layout: &Layout,
    edit: &Edit,
    bufs: &Buffers,
    out: &mut Vec<u8>,
) {
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
pub(super) fn parts<'u>(
    url: &'u Url,
    layout: &Layout,
    edit: &Edit,
    bufs: &'u Buffers,
) -> Parts<'u> {
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
