//! Target `differential`: normurl agrees with the `url` crate
//! (servo/rust-url), except for documented differences.
//!
//! The base alone is compared first; when both parse it to the same href,
//! the input is compared against it (normurl's `Url::parse_with_base`,
//! url's `Url::join`); without a base, the input alone. Outcomes are the
//! href or failure.
//!
//! The `url` crate does not implement some recent changes of the URL
//! Standard, and gets a few older cases wrong (its
//! `url/tests/expected_failures.txt`, copied to
//! shared/conformance/rust-url-expected-failures.txt; normurl passes all of
//! web-platform-tests). [`RULES`] lists each such difference: what it is,
//! the spec step (shared/spec/url.bs) that shows normurl is right, and how it
//! is recognized. A rule either *rewrites* url's result into what the spec
//! says (so the rest of the URL is still compared), or, where no local
//! rewrite exists, *excuses* the whole case, only under conditions narrow
//! enough that the difference cannot come from anything else. Every case in
//! tests/data/known-differences.txt (the corpus-level differential test) is
//! covered by one of these rules.
//!
//! Any other difference panics with the input, the base and both outcomes.
//! Before adding a rule for it, check the spec: it may be a normurl bug.
//!
//! When the url crate itself panics (url 2.5.8 trips a debug assertion,
//! `self.serialization.as_bytes()[segment_start - 1] == b'/'` in
//! src/parser.rs, on `..` against `file::/e:`; found by this target), it has
//! no answer and the case is skipped: see [`let_url_crate_panics_unwind`].

use std::panic::catch_unwind;
use std::sync::Once;

use normurl::{HostKind, SchemeType, Url};

use super::Case;

/// One documented difference between normurl and the `url` crate.
pub struct Rule {
    /// A short name, to refer to the rule (tests/data/fuzz-regressions).
    pub name: &'static str,
    /// What differs, and the spec step that shows normurl is right.
    pub why: &'static str,
    /// Either rewrites url's result, or excuses the case.
    pub action: Action,
}

/// What a [`Rule`] does.
pub enum Action {
    /// Rewrites url's parts (in place) into what the spec gives, when the
    /// rule applies; the rest of the URL is then still compared.
    Rewrite(fn(&Context, &mut Parts)),
    /// Returns true when the whole case is excused.
    Excuse(fn(&Context) -> bool),
}

/// What the rules look at.
pub struct Context<'a> {
    /// The input, as given.
    pub input: &'a str,
    /// The base, when there is one (both parsed it to the same href).
    pub base: Option<&'a Url>,
    /// normurl's result.
    pub ours: Option<&'a Url>,
    /// url's result.
    pub theirs: Option<&'a url::Url>,
}

/// url's result, cut into the pieces the rules rewrite. Concatenated, they
/// are its href.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parts {
    /// `scheme:`, and `//` when there is a host.
    pub prefix: String,
    /// `user:password@`, or empty.
    pub userinfo: String,
    pub host: String,
    /// `:port`, or empty.
    pub port: String,
    pub path: String,
    /// `?query`, or empty when the query is null.
    pub query: String,
    /// `#fragment`, or empty when the fragment is null.
    pub fragment: String,
    /// Whether the path is opaque (`cannot_be_a_base`).
    pub opaque_path: bool,
}

impl Parts {
    fn of(url: &url::Url) -> Parts {
        use url::Position::*;
        Parts {
            prefix: url[..BeforeUsername].to_owned(),
            userinfo: url[BeforeUsername..BeforeHost].to_owned(),
            host: url[BeforeHost..AfterHost].to_owned(),
            port: url[AfterHost..BeforePath].to_owned(),
            path: url[BeforePath..AfterPath].to_owned(),
            query: url[AfterPath..AfterQuery].to_owned(),
            fragment: url[AfterQuery..].to_owned(),
            opaque_path: url.cannot_be_a_base(),
        }
    }

    fn href(&self) -> String {
        [
            &self.prefix,
            &self.userinfo,
            &self.host,
            &self.port,
            &self.path,
            &self.query,
            &self.fragment,
        ]
        .into_iter()
        .map(String::as_str)
        .collect()
    }

    fn is_file(&self) -> bool {
        self.prefix.starts_with("file:")
    }
}

/// The documented differences.
pub const RULES: &[Rule] = &[
    Rule {
        name: "caret-in-path",
        why: "U+005E (^) is in the path percent-encode set (and so in the userinfo one): \
              url.bs: \"The path percent-encode set is ... the query percent-encode set and \
              U+003F (?), U+005E (^), U+0060 (`), U+007B ({), and U+007D (}).\" The url crate \
              predates the addition of ^.",
        action: Action::Rewrite(|_, parts| {
            if !parts.opaque_path {
                parts.path = parts.path.replace('^', "%5E");
            }
            parts.userinfo = parts.userinfo.replace('^', "%5E");
        }),
    },
    Rule {
        name: "opaque-path-trailing-space",
        why: "A space that ends an opaque path before `?` or `#` is encoded: url.bs, opaque \
              path state: \"Otherwise, if c is U+0020 SPACE: ... If remaining starts with \
              U+003F (?) or U+0023 (#), then append \"%20\" to url's path.\" (rust-url \
              expected failure: <non-special:opaque  ?hi>)",
        action: Action::Rewrite(|_, parts| {
            let followed = !parts.query.is_empty() || !parts.fragment.is_empty();
            if parts.opaque_path && followed && parts.path.ends_with(' ') {
                parts.path.pop();
                parts.path.push_str("%20");
            }
        }),
    },
    Rule {
        name: "ascii-host-idna",
        why: "An ASCII domain is lowercased, whatever Unicode ToASCII says of it (2026 \
              change): url.bs, domain parser: \"If domain is an ASCII string, then set result \
              to domain, lowercased.\" and the note: \"When beStrict is false and domain is an \
              ASCII string, the algorithm returns domain lowercased regardless of Unicode \
              ToASCII's outcome\". The url crate runs ToASCII on ASCII hosts, so it rejects or \
              rewrites hosts with an invalid `xn--` label. Applies when normurl's host is a \
              domain with an `xn--` label that occurs verbatim (lowercased) in the \
              percent-decoded input, i.e. it was written in ASCII, not produced by ToASCII.",
        action: Action::Rewrite(|ctx, parts| {
            if let Some(host) = ascii_xn_host(ctx) {
                if parts.host != host {
                    parts.host = host.to_owned();
                }
            }
        }),
    },
    Rule {
        name: "ascii-host-idna-failure",
        why: "As ascii-host-idna, where the url crate fails outright.",
        action: Action::Excuse(|ctx| ctx.theirs.is_none() && ascii_xn_host(ctx).is_some()),
    },
    Rule {
        name: "file-drive-letter-pipe",
        why: "`X|` as the first segment of a file path becomes the drive letter `X:`: url.bs, \
              path state: \"If url's scheme is \"file\", url's path is empty, and buffer is a \
              Windows drive letter, then replace the second code point in buffer with U+003A \
              (:).\" (rust-url expected failure: <file:///w|/m>)",
        action: Action::Rewrite(|ctx, parts| {
            let p = parts.path.as_bytes();
            let pipe = p.len() >= 3
                && p[0] == b'/'
                && p[1].is_ascii_alphabetic()
                && p[2] == b'|'
                && matches!(p.get(3), None | Some(b'/'));
            let ours_colon = ctx
                .ours
                .is_some_and(|u| starts_with_drive_letter(u.pathname()));
            if parts.is_file() && pipe && ours_colon {
                parts.path.replace_range(2..3, ":");
            }
        }),
    },
    Rule {
        name: "file-host-before-drive-letter",
        why: "A file URL keeps its host (its own, or its file base's) before a drive-letter \
              path; the url crate drops it. url.bs, file host state keeps the host it parsed; \
              file slash state: \"If base is non-null and base's scheme is \"file\", then: Set \
              url's host to base's host.\" (rust-url expected failures: <file://example.net/C:/>, \
              <C|/> against <file://host/>, ...)",
        action: Action::Rewrite(|ctx, parts| {
            let Some(ours) = ctx.ours else { return };
            if parts.is_file()
                && parts.host.is_empty()
                && !ours.hostname().is_empty()
                && starts_with_drive_letter(ours.pathname())
            {
                parts.host = ours.hostname().to_owned();
            }
        }),
    },
    Rule {
        name: "file-empty-leading-segments",
        why: "Empty path segments of a file URL are kept; the url crate drops leading ones \
              (`file:////foo` becomes `file:///foo`). url.bs, path state appends every segment, \
              empty ones included; nothing in the file states removes them. (rust-url expected \
              failures: <file:////foo>, <file://localhost////foo>, </////mouse> against \
              <file:///elephant>, ...)",
        action: Action::Rewrite(|ctx, parts| {
            let Some(ours) = ctx.ours else { return };
            let path = ours.pathname();
            if parts.is_file()
                && path.starts_with("//")
                && path.trim_start_matches('/') == parts.path.trim_start_matches('/')
            {
                parts.path = path.to_owned();
            }
        }),
    },
    Rule {
        name: "special-base-many-slashes",
        why: "Any number of slashes (or backslashes, for a special URL) after a special base \
              lead to the host: url.bs, special authority ignore slashes state: \"If c is \
              neither U+002F (/) nor U+005C (\\), then set state to authority state and \
              decrease pointer by 1. Otherwise, special-authority-ignore-slashes-missing-\
              solidus validation error.\" The url crate fails. (rust-url expected failures: \
              <///test> against <http://example.org/>, ...)",
        action: Action::Excuse(|ctx| {
            let special_base = ctx.base.is_some_and(|b| {
                b.scheme_type().is_special() && b.scheme_type() != SchemeType::File
            });
            let slashes = cleaned(ctx.input)
                .bytes()
                .take_while(|&b| b == b'/' || b == b'\\')
                .count();
            special_base && slashes >= 3 && ctx.ours.is_some() && ctx.theirs.is_none()
        }),
    },
    Rule {
        name: "non-special-backslash",
        why: "A backslash is not a separator in a non-special URL: url.bs, relative state and \
              relative slash state treat U+005C (\\) as U+002F (/) only \"if url is special\"; \
              otherwise it goes to the path as is. The url crate, joining against a \
              non-special base, treats it as a slash.",
        action: Action::Excuse(|ctx| {
            let non_special_base = ctx.base.is_some_and(|b| !b.scheme_type().is_special());
            non_special_base && ctx.input.contains('\\')
        }),
    },
    Rule {
        name: "shorten-drive-letter",
        why: "Shortening a path removes its last segment even when it looks like a drive \
              letter, except the only segment of a file path: url.bs, shorten a URL's path: \
              \"If url's scheme is \"file\", path's size is 1, and path[0] is a normalized \
              Windows drive letter, then return. Remove path's last item, if any.\" The url \
              crate keeps any segment starting with a letter and `:` or `|`, for `..` (`..` \
              against `abc://x/y/z/C:/`; found by this target: against `file:///Sx/C:/`, and \
              `..//path` against `e:/c|\\x/p` gives `e:/c|\\x//path`, not `e:/.//path`) and \
              when a relative path replaces the base's last segment, where it even glues the \
              two (found by this target: `http\\bar` against `file:///a/f:` gives \
              `file:///a/f:http/bar`, not `file:///a/http/bar`). With file paths, it combines \
              with file-empty-leading-segments (found by this target: `.//C:/..` against \
              `file:///` gives `file:///C:/`, not `file:////`).",
        action: Action::Excuse(|ctx| {
            let Some(theirs) = ctx.theirs else {
                return false;
            };
            // The parser removes tabs and newlines first, so `.\n.` is `..`
            // too (found by this target: `.\n.` against `c:/y//C:/`).
            let dot_dot = {
                let lower: String = ctx
                    .input
                    .chars()
                    .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
                    .map(|c| c.to_ascii_lowercase())
                    .collect();
                lower.contains("..") || lower.contains("%2e")
            };
            let base_ends_in_drive_letter = ctx
                .base
                .is_some_and(|b| b.pathname().rsplit('/').next().is_some_and(is_drive_letter));
            // In a file path, the first segment may stay. But the url crate
            // also drops leading empty segments (file-empty-leading-segments),
            // so its first segment may be one that followed them, even if
            // `..` removed them later.
            let first_may_stay = theirs.scheme() == "file" && !file_empty_segments(ctx);
            let drive_letter = theirs
                .path()
                .split('/')
                .skip(1)
                .enumerate()
                .any(|(i, segment)| {
                    (i > 0 || !first_may_stay) && starts_like_drive_letter(segment)
                });
            (dot_dot && drive_letter) || base_ends_in_drive_letter
        }),
    },
    Rule {
        name: "userinfo-without-host",
        why: "Credentials without a host are a failure, also for a non-special URL and also \
              when both username and password are empty: url.bs, authority state: \"If \
              atSignSeen is true and buffer is the empty string, host-missing validation \
              error, return failure.\" The url crate accepts `sc://:@/` as `sc:///`. (Found by \
              this target: `non-spehttps://:@`.)",
        action: Action::Excuse(|ctx| {
            let Some(theirs) = ctx.theirs else {
                return false;
            };
            ctx.ours.is_none()
                && !is_special(theirs)
                && theirs.has_authority()
                && theirs.host_str().unwrap_or("").is_empty()
                && cleaned(ctx.input).contains('@')
        }),
    },
    Rule {
        name: "non-special-backslash-after-port",
        why: "In a non-special URL, a backslash after the port's `:` is an invalid port: \
              url.bs, port state ends the port at \"EOF, U+002F (/), U+003F (?), or U+0023 \
              (#)\", or at U+005C (\\) only when \"url is special\"; any other code point: \
              \"Otherwise, port-invalid validation error, return failure.\" The url crate ends \
              the port at a backslash in every scheme (`foo://h:80\\x` becomes \
              `foo://h:80/\\x`). (Found by this target.)",
        action: Action::Excuse(|ctx| {
            let Some(theirs) = ctx.theirs else {
                return false;
            };
            // The authority as the spec delimits it for a non-special URL,
            // then the host and port after the last `@`.
            let input = cleaned(ctx.input);
            let Some((_, rest)) = input.split_once("//") else {
                return false;
            };
            let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
            let host_port = authority.rsplit('@').next().unwrap_or("");
            // An IPv6 address has colons of its own.
            let host_port = match host_port.strip_prefix('[') {
                Some(rest) => rest.split_once(']').map_or("", |(_, after)| after),
                None => host_port,
            };
            let port_then_backslash = host_port.split_once(':').is_some_and(|(_, port)| {
                port.trim_start_matches(|c: char| c.is_ascii_digit())
                    .starts_with('\\')
            });
            ctx.ours.is_none() && !is_special(theirs) && port_then_backslash
        }),
    },
    Rule {
        name: "file-drive-letter-tab",
        why: "Tabs and newlines are removed before anything else, also inside or right after \
              a drive letter: url.bs, basic URL parser: \"Remove all ASCII tab or newline from \
              input.\", so `file:e:\\te/` is `file:e:e/`, whose first segment `e:e` is not a \
              drive letter. The url crate checks for a drive letter before removing them and \
              gives `file:///e:/e/`. (Found by this target: `file:\\te:\\t\\u{FFFD}./`.)",
        action: Action::Excuse(|ctx| {
            let file = ctx.ours.is_some_and(|u| u.scheme() == "file")
                || ctx.theirs.is_some_and(|u| u.scheme() == "file");
            file && drive_letter_with_tab_or_newline(ctx.input)
        }),
    },
];

/// Whether `input` has a drive letter (`X:` or `X|`) with a tab or newline
/// between or right after its two code points.
fn drive_letter_with_tab_or_newline(input: &str) -> bool {
    let b = input.as_bytes();
    let skip = |mut i: usize| {
        while i < b.len() && matches!(b[i], b'\t' | b'\n' | b'\r') {
            i += 1;
        }
        i
    };
    (0..b.len())
        .filter(|&i| b[i].is_ascii_alphabetic())
        .any(|i| {
            let colon = skip(i + 1);
            if !matches!(b.get(colon), Some(b':' | b'|')) {
                return false;
            }
            let after = skip(colon + 1);
            colon > i + 1 || after > colon + 1
        })
}

/// Whether the file path of the input or the base may have empty segments
/// (`//`, with either slash a backslash) at some point of parsing.
fn file_empty_segments(ctx: &Context) -> bool {
    let has_empty = |path: &str| {
        let p = path.replace('\\', "/");
        p.contains("//")
    };
    let input = cleaned(ctx.input);
    // Skip `file:` and an authority, whose `//` is no path.
    let lower = input.to_ascii_lowercase();
    let rest = lower
        .strip_prefix("file:")
        .unwrap_or(&lower)
        .replace('\\', "/");
    let path = match rest.strip_prefix("//") {
        Some(authority_and_path) => authority_and_path
            .find('/')
            .map_or("", |i| &authority_and_path[i..]),
        None => &rest,
    };
    has_empty(path) || ctx.base.is_some_and(|b| has_empty(b.pathname()))
}

/// Whether a url-crate URL has a special scheme.
fn is_special(url: &url::Url) -> bool {
    matches!(
        url.scheme(),
        "http" | "https" | "ws" | "wss" | "ftp" | "file"
    )
}

/// Runs the check on the fuzz input `data` (see [`Case::from_bytes`]).
pub fn check(data: &[u8]) {
    check_case(&Case::from_bytes(data));
}

/// Compares the base alone and then the input against it, or the input
/// alone.
pub fn check_case(case: &Case) {
    let Some(base) = &case.base else {
        compare(&case.input, None);
        return;
    };
    let (ours, theirs) = compare(base, None);
    if let (Some(ours), Some(theirs)) = (ours, theirs) {
        if ours.href() == theirs.as_str() {
            compare(&case.input, Some((&ours, &theirs)));
        }
    }
}

/// Compares normurl and url on `input` against `base`, and panics on an
/// undocumented difference. Returns both results.
pub fn compare(input: &str, base: Option<(&Url, &url::Url)>) -> (Option<Url>, Option<url::Url>) {
    let ours = match base {
        None => Url::parse(input),
        Some((base, _)) => Url::parse_with_base(input, base),
    }
    .ok();
    // The url crate trips its own debug assertions on some inputs (fuzz
    // builds and tests enable them): it then has no answer to compare.
    let_url_crate_panics_unwind();
    let theirs = catch_unwind(|| match base {
        None => url::Url::parse(input),
        Some((_, base)) => base.join(input),
    });
    let Ok(theirs) = theirs.map(Result::ok) else {
        return (ours, None);
    };
    let ctx = Context {
        input,
        base: base.map(|(b, _)| b),
        ours: ours.as_ref(),
        theirs: theirs.as_ref(),
    };
    if let Err(why) = agree(&ctx) {
        panic!("{why}");
    }
    (ours, theirs)
}

/// Makes panics inside the url crate unwind, once per process.
///
/// libfuzzer-sys's panic hook aborts the process on any panic, before
/// `catch_unwind` could catch it. This hook lets a panic whose location is
/// in the url crate's sources (`.../url-X.Y.Z/src/...`) unwind, silently,
/// and hands every other panic to the previous hook.
pub fn let_url_crate_panics_unwind() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !info
                .location()
                .is_some_and(|l| is_url_crate_source(l.file()))
            {
                previous(info);
            }
        }));
    });
}

/// Whether `path` is a source file of the url crate: it contains
/// `/url-` followed by a digit (a registry or vendor directory such as
/// `url-2.5.8`), then `/src/`.
fn is_url_crate_source(path: &str) -> bool {
    path.match_indices("/url-").any(|(i, _)| {
        let rest = &path[i + 5..];
        rest.starts_with(|c: char| c.is_ascii_digit()) && rest.contains("/src/")
    })
}

/// `Ok` when both agree, up to the documented differences; otherwise the
/// description of the difference.
pub fn agree(ctx: &Context) -> Result<(), String> {
    let ours = ctx.ours.map(Url::href);
    let theirs = ctx.theirs.map(|u| u.as_str());
    if ours == theirs {
        return Ok(());
    }
    let mut rewritten = ctx.theirs.map(Parts::of);
    for rule in RULES {
        match rule.action {
            Action::Excuse(excused) => {
                if excused(ctx) {
                    return Ok(());
                }
            }
            Action::Rewrite(rewrite) => {
                if let Some(parts) = &mut rewritten {
                    rewrite(ctx, parts);
                }
            }
        }
    }
    let rewritten = rewritten.map(|p| p.href());
    if ours == rewritten.as_deref() {
        return Ok(());
    }
    Err(format!(
        "normurl and url differ, and no documented difference explains it\n\
         input: {:?}\nbase: {:?}\nnormurl: {:?}\nurl: {:?}\nurl, rewritten by the rules: {:?}",
        ctx.input,
        ctx.base.map(Url::href),
        ours,
        theirs,
        rewritten,
    ))
}

/// normurl's host, when it is a domain with an `xn--` label that the input
/// contains verbatim once percent-decoded (so it was written in ASCII: the
/// host parser percent-decodes before the domain parser).
fn ascii_xn_host<'a>(ctx: &Context<'a>) -> Option<&'a str> {
    let ours = ctx.ours?;
    let host = ours.hostname();
    let has_xn_label = host.split('.').any(|label| label.starts_with("xn--"));
    if ours.host_kind() != HostKind::Domain || !has_xn_label {
        return None;
    }
    let decoded = percent_decoded(&cleaned(ctx.input));
    let written = String::from_utf8_lossy(&decoded)
        .to_ascii_lowercase()
        .contains(host);
    written.then_some(host)
}

/// The input as the basic URL parser sees it: without leading and trailing
/// C0 controls and spaces, and without tabs and newlines.
fn cleaned(input: &str) -> String {
    input
        .trim_matches(|c: char| c <= ' ')
        .chars()
        .filter(|&c| !matches!(c, '\t' | '\n' | '\r'))
        .collect()
}

/// `%XX` decoded; any other `%` kept. (Written here rather than taken from
/// normurl, so the oracle's filter does not depend on the code under test.)
fn percent_decoded(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let hex = |c: u8| (c as char).to_digit(16);
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let pair = (
            b.get(i + 1).copied().and_then(hex),
            b.get(i + 2).copied().and_then(hex),
        );
        match (b[i], pair) {
            (b'%', (Some(hi), Some(lo))) => {
                out.push((hi * 16 + lo) as u8);
                i += 3;
            }
            (c, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

/// A Windows drive letter: an ASCII letter followed by `:` or `|`.
fn is_drive_letter(segment: &str) -> bool {
    let s = segment.as_bytes();
    s.len() == 2 && s[0].is_ascii_alphabetic() && matches!(s[1], b':' | b'|')
}

/// Whether `segment` starts with an ASCII letter and `:` or `|`.
fn starts_like_drive_letter(segment: &str) -> bool {
    let s = segment.as_bytes();
    s.len() >= 2 && s[0].is_ascii_alphabetic() && matches!(s[1], b':' | b'|')
}

/// Whether `path` starts with `/` and a normalized Windows drive letter
/// segment.
fn starts_with_drive_letter(path: &str) -> bool {
    let p = path.as_bytes();
    p.len() >= 3
        && p[0] == b'/'
        && p[1].is_ascii_alphabetic()
        && p[2] == b':'
        && matches!(p.get(3), None | Some(b'/'))
}
