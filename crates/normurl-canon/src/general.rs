//! The general path: every rule's reference function run on copies of the
//! components, in [`Rule::ALL`] order. It canonicalizes every URL the fast
//! paths decline, and it is the reference they are tested against
//! (`fast/tests.rs`, `tests/canon_props.rs`).

use crate::cdx_key;
use crate::config::{Config, IdnForm, OutputForm};
use crate::rule::{Rule, RuleSet};
use crate::rules::percent::{self, PATH_MINIMAL};
use crate::rules::query::{self, QueryScratch};
use crate::rules::{
    data_url, decode_uri, directory_index, escapes, form_encode, fragment, host,
    params as param_rules, path, query_session, redirect, scheme as key, search_params, separators,
};
use crate::surt::Parts;
use normurl_url::{HostKind, SchemeType, Url};

/// The general path's buffers, reused from one URL to the next.
#[derive(Debug, Default)]
pub(super) struct Buffers {
    username: Vec<u8>,
    password: Vec<u8>,
    host: Vec<u8>,
    path: Vec<u8>,
    query: Vec<u8>,
    fragment: Vec<u8>,
    /// The second buffer of whichever component is being rewritten.
    tmp: Vec<u8>,
    unescaped: Vec<u8>,
    resolved: Vec<u8>,
    host_unicode: String,
    host_check: String,
}

/// The canonical form of `url` under `config`, appended to `out`; returns
/// the rules that changed something.
pub(super) fn apply(
    config: &Config,
    url: &Url,
    bufs: &mut Buffers,
    params: &mut QueryScratch,
    out: &mut Vec<u8>,
) -> RuleSet {
    if config.rules.contains(Rule::UnwrapRedirects) {
        return unwrap_and_apply(config, url, bufs, params, out);
    }
    apply_rules(config, url, bufs, params, out)
}

/// `unwrap-redirects`, then the other rules on the target. The other
/// rules can make a redirector's URL of one that was not
/// (`google.com/url/?q=` loses its trailing slash), so in URL output the
/// result is unwrapped again until it is no redirector's, or the output
/// would not be idempotent. (Keys, from `strip-scheme` or in SURT form,
/// are not checked.)
fn unwrap_and_apply(
    config: &Config,
    url: &Url,
    bufs: &mut Buffers,
    params: &mut QueryScratch,
    out: &mut Vec<u8>,
) -> RuleSet {
    let redirects = &config.lists.redirects;
    let start = out.len();
    let mut current = redirect::unwrap(redirects, url);
    let mut unwrapped = current.is_some();
    for _ in 0..redirect::MAX_DEPTH {
        let fired = apply_rules(config, current.as_ref().unwrap_or(url), bufs, params, out);
        let url_output = config.output == OutputForm::Url && !fired.contains(Rule::StripScheme);
        let again = url_output
            .then(|| std::str::from_utf8(&out[start..]).ok())
            .flatten()
            .and_then(|text| Url::parse(text).ok())
            .and_then(|output| redirect::unwrap(redirects, &output));
        let Some(next) = again else {
            return fired.union(if unwrapped {
                RuleSet::from_rules(&[Rule::UnwrapRedirects])
            } else {
                RuleSet::EMPTY
            });
        };
        out.truncate(start);
        current = Some(next);
        unwrapped = true;
    }
    let fired = apply_rules(config, current.as_ref().unwrap_or(url), bufs, params, out);
    fired.union(if unwrapped {
        RuleSet::from_rules(&[Rule::UnwrapRedirects])
    } else {
        RuleSet::EMPTY
    })
}

/// [`apply`] after `unwrap-redirects`: the other rules.
fn apply_rules(
    config: &Config,
    url: &Url,
    bufs: &mut Buffers,
    params: &mut QueryScratch,
    out: &mut Vec<u8>,
) -> RuleSet {
    let rules = config.rules;
    let mut fired = RuleSet::EMPTY;
    let Buffers {
        username: user_buf,
        password: pass_buf,
        host: host_buf,
        path: path_buf,
        query: query_buf,
        fragment: fragment_buf,
        tmp,
        unescaped,
        resolved,
        host_unicode,
        host_check,
    } = bufs;
    // One scan of the whole URL instead of one per component: most URLs
    // have no '%' at all.
    let has_percent = memchr::memchr(b'%', url.href().as_bytes()).is_some();
    let percent_rules = PercentRules {
        decode: has_percent && rules.contains(Rule::DecodeUnreserved),
        upper: has_percent && rules.contains(Rule::UppercasePercent),
    };
    let (scheme, port) = scheme_and_port(rules, url, &mut fired);
    let (username, password) = userinfo(rules, url, &mut fired);
    // `encode-bare-percent` goes first in each component, so that the
    // decoding rules see no `%` that is not an escape (decode-unreserved
    // keeps `%30` in `%7%30`, which decoded would make `%70`), and last,
    // after the rules that decode `%25` into a bare `%`.
    let bare = has_percent && rules.contains(Rule::EncodeBarePercent);
    let mut work = Work::new(username, user_buf, tmp);
    encode_bare_percent(bare, &mut work, &mut fired);
    percent_rules.run(&mut work, &mut fired);
    encode_bare_percent(bare, &mut work, &mut fired);
    let username = work.finish();
    let mut work = Work::new(password, pass_buf, tmp);
    encode_bare_percent(bare, &mut work, &mut fired);
    percent_rules.run(&mut work, &mut fired);
    encode_bare_percent(bare, &mut work, &mut fired);
    let password = work.finish();
    let mut work = Work::new(url.hostname().as_bytes(), host_buf, tmp);
    let opaque_host = bare && url.host_kind() == HostKind::Opaque;
    encode_bare_percent(opaque_host, &mut work, &mut fired);
    host_rules(config, url, percent_rules, &mut work, &mut fired);
    encode_bare_percent(opaque_host, &mut work, &mut fired);
    let host = work.finish();
    let mut work = Work::new(url.pathname().as_bytes(), path_buf, tmp);
    let scratch = (&mut *unescaped, &mut *resolved);
    let index_files = &config.lists.index_files;
    encode_bare_percent(bare, &mut work, &mut fired);
    path_component(rules, url, percent_rules, &mut work, scratch, &mut fired);
    if rules.contains(Rule::StripDirectoryIndex) && !url.has_opaque_path() {
        let special = url.scheme_type().is_special();
        directory_index_rule(rules, special, index_files, &mut work, &mut fired);
    }
    encode_bare_percent(bare, &mut work, &mut fired);
    let path = work.finish();
    // Exemption from strip-tracking is decided on the final host, so that
    // the output canonicalizes to itself.
    let final_host = host.unwrap_or(host_buf);
    let mut work = Work::new(url.query().unwrap_or("").as_bytes(), query_buf, tmp);
    encode_bare_percent(bare, &mut work, &mut fired);
    let query_null = url.query().is_none()
        || query_component(
            config,
            url,
            final_host,
            percent_rules,
            &mut work,
            params,
            &mut fired,
        );
    encode_bare_percent(bare && !query_null, &mut work, &mut fired);
    let query = work.finish();
    let mut work = Work::new(url.fragment().unwrap_or("").as_bytes(), fragment_buf, tmp);
    encode_bare_percent(bare, &mut work, &mut fired);
    let fragment_null = fragment_rules(rules, url, percent_rules, &mut work, &mut fired);
    encode_bare_percent(bare && !fragment_null, &mut work, &mut fired);
    let fragment = work.finish();
    // Every key differs from its URL: the rule always fires.
    fired.insert_if(
        Rule::StripScheme,
        rules.contains(Rule::StripScheme) && config.output == OutputForm::Url,
    );
    let root_slash = rules.contains(Rule::StripRootSlash)
        && config.output == OutputForm::Url
        && url.has_host()
        && !host.unwrap_or(host_buf).is_empty()
        && path.unwrap_or(path_buf) == b"/"
        && query_null
        && fragment_null;
    fired.insert_if(Rule::StripRootSlash, root_slash);

    let unicode = config.idn == IdnForm::Unicode
        && url.host_kind() == HostKind::Domain
        && host::to_unicode(host.unwrap_or(host_buf), host_unicode, host_check);
    if fired.is_empty() && !unicode && config.output == OutputForm::Url {
        // Every change fires a rule: nothing fired, nothing changed.
        out.extend_from_slice(url.href().as_bytes());
        return fired;
    }
    let prefix = unchanged_prefix(url, fired, unicode, [username, password, host]);
    let host = if unicode {
        host_unicode.as_bytes()
    } else {
        host.unwrap_or(host_buf)
    };
    let path = path.unwrap_or(path_buf);
    let query = (!query_null).then(|| query.unwrap_or(query_buf));
    // Out of line and for SURT output only: the URL form does not carry it.
    let (path, query) = if matches!(config.output, OutputForm::Surt(_)) {
        cdx_key::decode(config, url, path, query, [unescaped, resolved, tmp])
    } else {
        (path, query)
    };
    let parts = Parts {
        prefix,
        scheme,
        username: username.unwrap_or(user_buf),
        password: password.unwrap_or(pass_buf),
        host_kind: url.host_kind(),
        host,
        port,
        path,
        query,
        fragment: (!fragment_null).then(|| fragment.unwrap_or(fragment_buf)),
    };
    let start = out.len();
    match config.output {
        OutputForm::Url if fired.contains(Rule::StripScheme) || root_slash => {
            parts.write_url(out);
            if root_slash {
                // The `/` is the last byte: no query, no fragment.
                out.pop();
            }
            if fired.contains(Rule::StripScheme) {
                key::strip(out, start);
            }
        }
        OutputForm::Url => parts.write_url(out),
        OutputForm::Surt(options) => parts.write_surt(options, out),
        OutputForm::Ssurt => parts.write_ssurt(out),
    }
    fired
}

/// `force-http` and `drop-port`: the scheme and port to write.
fn scheme_and_port<'u>(rules: RuleSet, url: &'u Url, fired: &mut RuleSet) -> (&'u [u8], &'u [u8]) {
    // `force-https` wins over `force-http`: with both on, the output is
    // still the same for both schemes, and idempotent.
    let https = rules.contains(Rule::ForceHttps);
    let force_http =
        !https && rules.contains(Rule::ForceHttp) && url.scheme_type() == SchemeType::Https;
    let force_https = https && url.scheme_type() == SchemeType::Http;
    fired.insert_if(Rule::ForceHttp, force_http);
    fired.insert_if(Rule::ForceHttps, force_https);
    let scheme: &[u8] = if force_http {
        b"http"
    } else if force_https {
        b"https"
    } else {
        url.scheme().as_bytes()
    };
    let mut port = url.port().as_bytes();
    if !port.is_empty() && rules.contains(Rule::DropPort) {
        port = b"";
        fired.insert(Rule::DropPort);
    } else if force_http && port == b"80" || force_https && port == b"443" {
        // The new scheme's default port: the parser would drop it.
        port = b"";
    }
    (scheme, port)
}

/// `strip-userinfo`: the username and password the percent rules go on
/// with.
fn userinfo<'u>(rules: RuleSet, url: &'u Url, fired: &mut RuleSet) -> (&'u [u8], &'u [u8]) {
    let (username, password) = (url.username().as_bytes(), url.password().as_bytes());
    if rules.contains(Rule::StripUserinfo) && !(username.is_empty() && password.is_empty()) {
        fired.insert(Rule::StripUserinfo);
        return (b"", b"");
    }
    (username, password)
}

/// The host rules: `trim-host-dots` and `strip-www`/`strip-www-digits` on
/// a domain, the percent rules on an opaque host.
fn host_rules(
    config: &Config,
    url: &Url,
    percent_rules: PercentRules,
    work: &mut Work<'_, '_>,
    fired: &mut RuleSet,
) {
    let rules = config.rules;
    match url.host_kind() {
        HostKind::Domain => {
            if rules.contains(Rule::TrimHostDots) {
                let changed = work.rewrite(host::trim_dots);
                // The file host state turns `localhost` into the empty
                // host (url.bs, file host state), so a trimmed
                // `localhost.` must become empty too, or the output
                // would not parse to itself.
                if changed && url.scheme_type() == SchemeType::File && work.get() == b"localhost" {
                    work.narrow(|h| &h[..0]);
                }
                fired.insert_if(Rule::TrimHostDots, changed);
            }
            let digits = rules.contains(Rule::StripWwwDigits);
            if rules.contains(Rule::StripOneWww) && !digits && rules.contains(Rule::StripWww) {
                let changed = work.narrow(host::strip_one_www);
                fired.insert_if(Rule::StripWww, changed);
            } else if digits || rules.contains(Rule::StripWww) {
                let changed = work.narrow(|h| host::strip_www(h, digits, &config.suffixes));
                let rule = if digits {
                    Rule::StripWwwDigits
                } else {
                    Rule::StripWww
                };
                fired.insert_if(rule, changed);
            }
        }
        HostKind::Opaque => percent_rules.run(work, fired),
        _ => {}
    }
}

/// The path rules: on an opaque path the percent rules and
/// `lowercase-path`; on a hierarchical one `unescape-path` (or the percent
/// rules), then [`path_rules`]. `scratch` is two buffers for
/// `unescape-path`.
fn path_component(
    rules: RuleSet,
    url: &Url,
    percent_rules: PercentRules,
    work: &mut Work<'_, '_>,
    scratch: (&mut Vec<u8>, &mut Vec<u8>),
    fired: &mut RuleSet,
) {
    let lower = rules.contains(Rule::LowercasePath);
    let scheme_type = url.scheme_type();
    let percent_rules = PercentRules {
        upper: percent_rules.upper && !lower,
        ..percent_rules
    };
    if rules.contains(Rule::DecodePathReserved) {
        let changed = work.rewrite(escapes::decode_path_reserved);
        fired.insert_if(Rule::DecodePathReserved, changed);
    }
    if url.has_opaque_path() {
        percent_rules.run(work, fired);
        if rules.contains(Rule::NormalizeDataUrls) && url.scheme() == "data" {
            let changed = work.rewrite(data_url::normalize);
            fired.insert_if(Rule::NormalizeDataUrls, changed);
        }
        if lower {
            let changed = work.rewrite(path::lowercase);
            fired.insert_if(Rule::LowercasePath, changed);
        }
        if rules.contains(Rule::EncodeHashSpace) {
            let changed = work.rewrite(escapes::encode_opaque_spaces);
            fired.insert_if(Rule::EncodeHashSpace, changed);
        }
        return;
    }
    if scheme_type.is_special()
        && scheme_type != SchemeType::File
        && rules.contains(Rule::UnescapePath)
    {
        // Not for file URLs, whose drive letters decoding could disturb.
        let (unescaped, resolved) = scratch;
        let changed = work.rewrite(|p, out| unescape_path(p, lower, out, unescaped, resolved));
        fired.insert_if(Rule::UnescapePath, changed);
    } else {
        percent_rules.run(work, fired);
        if rules.contains(Rule::DecodeUriPath) && scheme_type != SchemeType::File {
            // Not with unescape-path, which decodes more; not for file
            // URLs, whose `%7C` decoded would be a drive letter's `|`.
            let changed = work.rewrite(|p, out| decode_uri::decode(p, lower, out));
            fired.insert_if(Rule::DecodeUriPath, changed);
        }
    }
    path_rules(rules, scheme_type.is_special(), work, fired);
    if scheme_type == SchemeType::File {
        // Part of whichever rule exposed the drive letter.
        work.rewrite(path::file_drive_letter);
    }
}

/// The query rules on a query that is there ([`query_rules`]), again
/// while `session-ids-anywhere` stripped an id or finds one. Its regexes
/// join what comes before an id to the piece after it (`q=` and `a%3D=1`
/// make `q=a%3D=1`, a value to unescape), and the sort can bring
/// `cfid` before `cftoken`: the rules then have more to do, and the
/// output must be idempotent. (The reference's keys are not, there.)
/// Returns whether the query is gone.
fn query_component(
    config: &Config,
    url: &Url,
    final_host: &[u8],
    percent_rules: PercentRules,
    work: &mut Work<'_, '_>,
    params: &mut QueryScratch,
    fired: &mut RuleSet,
) -> bool {
    // Each round but the last strips an id (of 16 bytes or more): a bound
    // on the rounds that no input reaches, so that none loops.
    let rounds = 2 + work.get().len() / 16;
    for _ in 0..rounds {
        let (gone, again) =
            query_rules(config, url, final_host, percent_rules, work, params, fired);
        if gone || !again {
            return gone;
        }
    }
    false
}

/// One round of the query rules: `unescape-query` (or the percent rules),
/// `lowercase-query`, the parameter rules ([`query::apply`]) and
/// `drop-empty-query`. Returns whether the query is gone (every parameter
/// stripped, or empty and dropped), and whether the rules must run again
/// (see [`parameter_rules`]).
fn query_rules(
    config: &Config,
    url: &Url,
    final_host: &[u8],
    percent_rules: PercentRules,
    work: &mut Work<'_, '_>,
    params: &mut QueryScratch,
    fired: &mut RuleSet,
) -> (bool, bool) {
    let rules = config.rules;
    let lower = rules.contains(Rule::LowercaseQuery);
    let special = url.scheme_type().is_special();
    let only_semicolons = rules.contains(Rule::SemicolonOnlySeparators);
    let semicolons = only_semicolons || rules.contains(Rule::SemicolonSeparators);
    if semicolons {
        // Before the decoding rules: a `%3B` they decode is data.
        split_on_semicolons(only_semicolons, work, fired);
    }
    if rules.contains(Rule::FormEncodeQuery) {
        // It decodes and re-encodes every escape: `unescape-query` and the
        // percent rules would undo what it does, and fire on its output.
        // Before `lowercase-query`, which lowercases the letters it decodes.
        let changed = work.rewrite(|q, out| form_encode::form_encode(q, lower, out));
        fired.insert_if(Rule::FormEncodeQuery, changed);
    } else if rules.contains(Rule::UrlSearchParams) {
        // It decodes and re-encodes every escape, as `form-encode-query`.
        let (decoded, text) = params.name_buffers();
        let changed =
            work.rewrite(|q, out| search_params::reserialize(q, special, decoded, text, out));
        fired.insert_if(Rule::UrlSearchParams, changed);
    } else if special && rules.contains(Rule::UnescapeQuery) {
        let changed = work.rewrite(|q, out| {
            let equals = rules.contains(Rule::EncodeValueEquals);
            if !query::unescape(q, lower, equals, params, out) {
                return false;
            }
            if semicolons && memchr::memchr(b';', out).is_some() {
                // Every `;` left came from a `%3B`: encoded again, a
                // second run does not take it for a separator.
                let decoded = std::mem::take(out);
                separators::encode_semicolons(&decoded, lower, out);
            }
            *out != q
        });
        fired.insert_if(Rule::UnescapeQuery, changed);
    } else {
        PercentRules {
            upper: percent_rules.upper && !lower,
            ..percent_rules
        }
        .run(work, fired);
    }
    if lower {
        let changed = work.rewrite(path::lowercase);
        fired.insert_if(Rule::LowercaseQuery, changed);
    }
    if !rules.intersection(param_rules::RULES).is_empty() {
        let mut outcome = param_rules::Outcome::default();
        let lists = param_rules::Lists {
            keep: &config.lists.keep,
            // On the final host, as strip-tracking's exemptions.
            domain: config.lists.domain.lookup(final_host),
        };
        work.rewrite(|q, out| {
            outcome = param_rules::apply(q, rules, lists, params.name_buffers(), out);
            outcome.changed
        });
        *fired = fired.union(outcome.fired);
        if outcome.gone {
            return (true, false);
        }
    }
    let config = query::Params {
        rules,
        tracking: &config.tracking,
        host: final_host,
        starts: None,
    };
    let (mut gone, again) = parameter_rules(&config, work, params, fired);
    if !gone && work.get().is_empty() && rules.contains(Rule::DropEmptyQuery) {
        gone = true;
        fired.insert(Rule::DropEmptyQuery);
    }
    if only_semicolons && !gone {
        // Part of the rule, which fired if it encoded an `&`.
        work.rewrite(separators::amps_to_semicolons);
    }
    (gone, again)
}

/// The parameter rules ([`query::apply`]) and, first, with
/// `session-ids-anywhere`, the query's session ids by webarchive-commons'
/// regexes ([`query_session::strip`]) instead of by parameter. Returns
/// whether the query is gone (every parameter stripped), and whether the
/// query rules must run again: the regexes stripped an id, or find one in
/// what the parameter rules made.
fn parameter_rules(
    config: &query::Params<'_>,
    work: &mut Work<'_, '_>,
    params: &mut QueryScratch,
    fired: &mut RuleSet,
) -> (bool, bool) {
    // One look at most queries (`may_strip` says no, and so would `found`
    // after the parameter rules), instead of one per pattern and another
    // after them.
    let maybe = query_session::on(config.rules) && query_session::may_strip(work.get());
    let stripped = maybe && work.rewrite(query_session::strip);
    fired.insert_if(Rule::StripSessionIds, stripped);
    if stripped && work.get().is_empty() {
        // As when every parameter is stripped: no `?` either.
        return (true, false);
    }
    let config = query::Params {
        rules: query_session::param_rules(config.rules),
        ..*config
    };
    let mut gone = false;
    if !config.rules.intersection(query::Params::RULES).is_empty() {
        let mut outcome = query::Outcome::default();
        work.rewrite(|q, out| {
            outcome = query::apply(q, &config, params, out);
            outcome.changed
        });
        *fired = fired.union(outcome.fired);
        gone = outcome.stripped_all;
    }
    let again = maybe && !gone && (stripped || query_session::found(work.get()));
    (gone, again)
}

/// `semicolon-separators` (`;` written `&`), or `semicolon-only-separators`
/// (`&` written `%26`, `;` written `&` until the query rules are done),
/// which wins over it.
fn split_on_semicolons(only: bool, work: &mut Work<'_, '_>, fired: &mut RuleSet) {
    if only {
        let mut amp = false;
        work.rewrite(|q, out| {
            let (had_amp, wrote) = separators::semicolons_for_amps(q, out);
            amp = had_amp;
            wrote
        });
        fired.insert_if(Rule::SemicolonOnlySeparators, amp);
    } else {
        let changed = work.rewrite(separators::semicolons_to_amps);
        fired.insert_if(Rule::SemicolonSeparators, changed);
    }
}

/// `drop-fragment`, or the percent rules on a fragment that stays.
/// Returns whether there is no fragment (any more).
fn fragment_rules(
    rules: RuleSet,
    url: &Url,
    percent_rules: PercentRules,
    work: &mut Work<'_, '_>,
    fired: &mut RuleSet,
) -> bool {
    let Some(fragment) = url.fragment() else {
        return true;
    };
    // keep-spa-fragments never fires: it keeps what drop-fragment would
    // change.
    let spa = rules.contains(Rule::KeepSpaFragments) && fragment::is_spa_route(fragment.as_bytes());
    if rules.contains(Rule::DropFragment) && !spa {
        fired.insert(Rule::DropFragment);
        return true;
    }
    percent_rules.run(work, fired);
    if rules.contains(Rule::EncodeHashSpace) {
        let changed = work.rewrite(escapes::encode_fragment_hashes);
        fired.insert_if(Rule::EncodeHashSpace, changed);
    }
    if rules.contains(Rule::StripTextFragment) {
        let changed = work.rewrite(fragment::strip_text_directives);
        fired.insert_if(Rule::StripTextFragment, changed);
        if changed && work.get().is_empty() {
            return true;
        }
    }
    let empty = rules.contains(Rule::DropEmptyFragment) && work.get().is_empty();
    fired.insert_if(Rule::DropEmptyFragment, empty);
    empty
}

/// `encode-bare-percent` on a component, when `on`.
fn encode_bare_percent(on: bool, work: &mut Work<'_, '_>, fired: &mut RuleSet) {
    if on {
        let changed = work.rewrite(escapes::encode_bare_percent);
        fired.insert_if(Rule::EncodeBarePercent, changed);
    }
}

/// Everything before the path, when no rule touched it: written with one
/// copy. `components` are the username, password and host, `Some` while
/// still borrowed from the URL.
fn unchanged_prefix<'u>(
    url: &'u Url,
    fired: RuleSet,
    unicode: bool,
    components: [Option<&[u8]>; 3],
) -> Option<&'u [u8]> {
    let before_path_changed = RuleSet::from_rules(&[
        Rule::ForceHttp,
        Rule::ForceHttps,
        Rule::StripUserinfo,
        Rule::TrimHostDots,
        Rule::StripWww,
        Rule::StripWwwDigits,
        Rule::DropPort,
    ]);
    (url.has_host()
        && !unicode
        && fired.intersection(before_path_changed).is_empty()
        && components.iter().all(Option::is_some))
    .then(|| {
        let href = url.href();
        &href.as_bytes()[..url.pathname().as_ptr() as usize - href.as_ptr() as usize]
    })
}

/// The rules on a hierarchical path (`/a/b`) after the percent rules,
/// in [`Rule::ALL`] order.
fn path_rules(rules: RuleSet, special: bool, path: &mut Work<'_, '_>, fired: &mut RuleSet) {
    if rules.contains(Rule::LowercasePath) {
        // Lowercasing commutes with the other path rules (they match
        // case-insensitively), so it can go first and run once.
        let changed = path.rewrite(path::lowercase);
        fired.insert_if(Rule::LowercasePath, changed);
    }
    let sessions = rules.contains(Rule::StripSessionIds);
    // `keep-path-jsessionid` never fires: it keeps what the other would
    // change.
    let jsessionid = sessions && !rules.contains(Rule::KeepPathJsessionid);
    if sessions {
        let changed = path.rewrite(|p, out| path::strip_session_ids(p, jsessionid, out));
        fired.insert_if(Rule::StripSessionIds, changed);
    }
    // `keep-nonspecial-slashes` never fires: it keeps what the other
    // would change.
    let keep_runs = rules.contains(Rule::CollapseSlashes)
        && !special
        && rules.contains(Rule::KeepNonspecialSlashes);
    if rules.contains(Rule::CollapseSlashes) && !keep_runs {
        let changed = if rules.contains(Rule::KeepSchemeSlashes) {
            path.rewrite(path::collapse_slashes_keeping_schemes)
        } else {
            path.rewrite(path::collapse_slashes)
        };
        fired.insert_if(Rule::CollapseSlashes, changed);
    }
    if !rules.contains(Rule::StripTrailingSlash) {
        return;
    }
    // Stripping a trailing slash can expose a session id
    // (`/x;jsessionid=.../`) and stripping a session id can expose a
    // trailing slash (`/x/;jsessionid=...`): repeat until neither
    // changes anything, or the output would not be idempotent. From
    // here on both only cut the end of the path (the ASP.NET segments,
    // which need a later `.aspx`, and the runs of slashes are gone), so
    // each round is O(1) and a path of thousands of `;jsessionid=`
    // suffixes takes linear time, not a copy of the path per round.
    loop {
        let changed = if keep_runs {
            // A kept run would lose one slash per run, not idempotent.
            path.narrow(path::strip_trailing_slashes)
        } else {
            path.narrow(path::strip_trailing_slash)
        };
        fired.insert_if(Rule::StripTrailingSlash, changed);
        if !changed || !jsessionid {
            break;
        }
        let changed = path.narrow(path::strip_jsessionid_suffixes);
        fired.insert_if(Rule::StripSessionIds, changed);
        if !changed {
            break;
        }
    }
}

/// `strip-directory-index`, then the path rules again on what it
/// exposes (`/a/index.html/` without its trailing slash is `/a/index.html`,
/// which strips to `/a/`, which strips to `/a`), until neither changes
/// anything: the output must be idempotent. Each round shortens the path.
fn directory_index_rule(
    rules: RuleSet,
    special: bool,
    index_files: &[Box<[u8]>],
    path: &mut Work<'_, '_>,
    fired: &mut RuleSet,
) {
    while path.narrow(|p| directory_index::strip(p, index_files)) {
        fired.insert(Rule::StripDirectoryIndex);
        path_rules(rules, special, path, fired);
    }
}

/// `unescape-path`: decode repeatedly, resolve the dot segments decoding
/// revealed (`%2e%2e%2f` is `../`), re-encode the minimal set.
fn unescape_path(
    path: &[u8],
    lower: bool,
    out: &mut Vec<u8>,
    decoded: &mut Vec<u8>,
    tmp: &mut Vec<u8>,
) -> bool {
    // Without '%' nothing decodes and nothing needs encoding: the parser
    // already encoded everything else in the minimal set.
    if memchr::memchr(b'%', path).is_none() {
        return false;
    }
    percent::unescape_repeatedly(path, decoded);
    tmp.clear();
    path::resolve_dots(decoded, tmp);
    percent::encode(tmp, &PATH_MINIMAL, lower, out);
    *out != path
}

/// A component while rules rewrite it: borrowed from the URL until a rule
/// changes it, then in `buf`. Rules write their result into the other
/// buffer and the two are swapped, so a component is copied only by rules
/// that change it.
struct Work<'u, 's> {
    orig: &'u [u8],
    buf: &'s mut Vec<u8>,
    tmp: &'s mut Vec<u8>,
    owned: bool,
}

impl<'u, 's> Work<'u, 's> {
    fn new(orig: &'u [u8], buf: &'s mut Vec<u8>, tmp: &'s mut Vec<u8>) -> Work<'u, 's> {
        Work {
            orig,
            buf,
            tmp,
            owned: false,
        }
    }

    fn get(&self) -> &[u8] {
        if self.owned {
            self.buf
        } else {
            self.orig
        }
    }

    /// Runs a rule that writes its whole result into the buffer it is
    /// given and returns true when it changes something.
    fn rewrite(&mut self, rule: impl FnOnce(&[u8], &mut Vec<u8>) -> bool) -> bool {
        self.tmp.clear();
        let input = if self.owned { &self.buf[..] } else { self.orig };
        let changed = rule(input, self.tmp);
        if changed {
            std::mem::swap(self.buf, self.tmp);
            self.owned = true;
        }
        changed
    }

    /// Runs a rule whose result is a subslice of its input.
    fn narrow(&mut self, rule: impl FnOnce(&[u8]) -> &[u8]) -> bool {
        let input = self.get();
        let sub = rule(input);
        if sub.len() == input.len() {
            return false;
        }
        let start = sub.as_ptr() as usize - input.as_ptr() as usize;
        let end = start + sub.len();
        if self.owned {
            self.buf.truncate(end);
            self.buf.drain(..start);
        } else {
            self.orig = &self.orig[start..end];
        }
        true
    }

    /// The final bytes: `Some` when still borrowed from the URL, `None`
    /// when they are in the buffer.
    fn finish(self) -> Option<&'u [u8]> {
        (!self.owned).then_some(self.orig)
    }
}

/// Which of the percent rules to run on a component.
#[derive(Clone, Copy)]
struct PercentRules {
    decode: bool,
    upper: bool,
}

impl PercentRules {
    fn run(self, work: &mut Work<'_, '_>, fired: &mut RuleSet) {
        if !self.decode && !self.upper {
            return;
        }
        let mut done = percent::Normalized::default();
        work.rewrite(|input, out| {
            done = percent::normalize(input, self.decode, self.upper, out);
            done.any()
        });
        fired.insert_if(Rule::DecodeUnreserved, done.decoded);
        fired.insert_if(Rule::UppercasePercent, done.uppercased);
    }
}
