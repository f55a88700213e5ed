//! The careful line: URLs the straight line does not take (userinfo,
//! something a scan found, a query of several parameters, SURT output)
//! are looked at component by component; the lowercase and parameter
//! rules are run here, anything else that would rewrite bytes declines
//! to the general path.

use super::*;
/// [`straight_line`] for URLs with a query or a fragment. (It finds the
/// offsets again: passing them from [`straight_line`] would make that keep them
/// in memory for all URLs.)
#[inline(never)]
pub(super) fn tail(
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
    cut_host_port_slash(rules, &setup.config.suffixes, url, href, layout, &mut edit)?;
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
            .apply(&mut edit)?;
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
pub(super) fn careful(
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
/// writes, without the scan; otherwise goes on as [`careful()`] would from
/// there. (`careful` costs these URLs many more instructions, most of
/// them finding out again what this knows.)
#[cold]
#[inline(never)]
pub(super) fn bare_found(
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
        if let Verdict::Done(fired) =
            unsafe { bare.apply::<0, false>(plan.rules, &setup.config.suffixes, out) }
        {
            return Some(fired);
        }
    }
    rewrite(setup, url, &layout, lower, params, bufs, out)
}

/// [`careful()`] once [`inspect`] has said what the lowercase rules do:
/// the cuts, the lowercase and parameter rules, and the writing.
pub(super) fn rewrite(
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
    cut_host_port_slash(rules, &setup.config.suffixes, url, href, layout, &mut edit)?;
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
        .apply(&mut edit)?;
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
pub(super) fn write(
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
        OutputForm::Surt(options) => {
            let mut sorted = Vec::new();
            let mut parts = parts(url, layout, edit, bufs);
            parts.query = super::super::cdx_key::sorted(config, parts.query, &mut sorted);
            parts.write_surt(options, out)
        }
        OutputForm::Ssurt => parts(url, layout, edit, bufs).write_ssurt(out),
    }
    edit.fired
}

/// Whether the percent rules would change a userinfo that stays.
#[cold]
pub(super) fn userinfo_changes(plan: &Plan, url: &Url) -> bool {
    // `user:pass` without its `@`. Percent rules change something there
    // exactly when they do on the username or the password: `:` is no hex
    // digit, so no `%XX` spans it.
    let href = url.href();
    let start = url.scheme().len() + 3;
    let end = url.hostname().as_ptr() as usize - href.as_ptr() as usize - 1;
    plan.percent.changes(&href.as_bytes()[start..end], true)
}

/// What `lowercase-path` and `lowercase-query` have to do: the only
/// rewrites [`careful()`] makes itself, besides the parameter rules.
#[derive(Clone, Copy, Default)]
pub(super) struct Lower {
    path: bool,
    query: bool,
}

/// Declines when a rule other than those that cut, the parameter rules and
/// the lowercase rules has something to do in the host, path, query or a
/// fragment that stays; says what the lowercase rules have to do.
///
/// `found` says that a scan of the host and path for the plan's features
/// found one, so that this need not look again.
pub(super) fn inspect(
    plan: &Plan,
    url: &Url,
    layout: &Layout,
    found: bool,
) -> Result<Lower, Decline> {
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
pub(super) fn inspect_path(plan: &Plan, url: &Url, path: &[u8]) -> Result<bool, Decline> {
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
pub(super) fn inspect_query(plan: &Plan, special: bool, query: &[u8]) -> Result<bool, Decline> {
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
pub(super) fn domain(
    rules: RuleSet,
    suffixes: &Suffixes,
    host: &[u8],
    fired: &mut RuleSet,
) -> Option<usize> {
    if trim_dots_declines(rules, host) {
        return None;
    }
    if !www_candidate(rules, host) {
        return Some(0);
    }
    Some(strip_www(rules, suffixes, host, fired))
}

/// Whether `trim-host-dots` has dots to trim at the ends of a domain (the
/// scans look for `..`): a job for the general path.
#[inline(always)]
pub(super) fn trim_dots_declines(rules: RuleSet, host: &[u8]) -> bool {
    rules.contains(Rule::TrimHostDots)
        && (host.first() == Some(&b'.') || host.last() == Some(&b'.'))
}

/// Whether `strip-www` or `strip-www-digits` may have something to strip
/// from a domain: most hosts do not start with `www.` (`www` for
/// `strip-www-digits`), and one 4-byte compare says so. Shorter hosts
/// have nothing to strip (`www.` would leave an empty host).
#[inline(always)]
pub(super) fn www_candidate(rules: RuleSet, host: &[u8]) -> bool {
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
pub(super) fn strip_www(
    rules: RuleSet,
    suffixes: &Suffixes,
    host: &[u8],
    fired: &mut RuleSet,
) -> usize {
    let digits = rules.contains(Rule::StripWwwDigits);
    let cut = host.len() - host::strip_www(host, digits, suffixes).len();
    fired.insert_if(www_rule(rules), cut > 0);
    cut
}

/// The rule that strips `www` labels under `rules`: `strip-www-digits`
/// when it is on (it strips `www.` too), else `strip-www`.
#[inline(always)]
pub(super) fn www_rule(rules: RuleSet) -> Rule {
    if rules.contains(Rule::StripWwwDigits) {
        Rule::StripWwwDigits
    } else {
        Rule::StripWww
    }
}

/// `strip-trailing-slash` on a hierarchical path.
pub(super) fn trailing_slash(url: &Url, href: &[u8], layout: &Layout, edit: &mut Edit) -> Step {
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
pub(super) fn trailing_slash_declines(url: &Url, href: &[u8], start: usize) -> bool {
    !url.has_host() && href[start - 1] != b':'
}
