/*!
Scope rules: keep or drop a URL by its normalized form, as `--keep-if`
and `--drop-if` ask, in the manner of Heritrix's decide rules.

A [`Scope`] is a list of rules, each saying [`Decision::Keep`] or
[`Decision::Drop`] for the URLs it matches. The rules are tried in order
and the **last** one that matches decides, as Heritrix's
`DecideRuleSequence` does. When no rule matches, the default is
[`Decision::Drop`] if any rule keeps (a scope made of `--keep-if` rules
keeps only what they match) and [`Decision::Keep`] otherwise (a scope
made of `--drop-if` rules drops only what they match).

The kinds of rule ([`Rule`]):

* `surt:PREFIX` — the URL's SURT form starts with `PREFIX` (Heritrix's
  `SurtPrefixedDecideRule`). Three spellings:
  - `com,example)/` (no `(` and no `://`): a prefix of the CDX key
    (`normurl -g surt`'s form, webarchive-commons' `WaybackURLKeyMaker`
    without its canonicalization: `com,example,www)/` for a `www.` host
    unless the profile strips `www.`, the path in the profile's case);
    the host part of the prefix (up to its `)`) is lowercased;
  - `http://(com,example,` (with `(`): a prefix of Heritrix's SURT form,
    `scheme://(tld,domain,:port@userinfo)/path?query`, all lowercase and
    without the fragment, as `SURT.fromURI` writes it;
  - `http://example.com/a/b` (with `://`, no `(`): a URL, turned into a
    Heritrix prefix as `SurtPrefixSet.prefixFromPlainForceHttp` does: its
    SURT form cut after the last `/` (`http://(com,example,)/a/`), and
    when that leaves no `/` after the host, the closing `)` removed, so
    that subdomains are in (`http://example.com` gives
    `http://(com,example,`, `http://example.com/` gives
    `http://(com,example,)/`).

  In the Heritrix forms `https` is `http`, for the prefix and the URL,
  as `SurtPrefixSet` compares them.
* `domain:NAME` — the host is `NAME` or a subdomain of it
  (`domain:example.com` matches `example.com` and `a.b.example.com`, not
  `badexample.com`).
* `host:NAME` — the host is `NAME` (the port is not compared).
* `scheme:NAME` — the scheme is `NAME`.
* `regex:RE` — the regular expression `RE` (Rust's `regex` syntax) matches
  somewhere in the normalized URL (anchor it with `^...$` to match it
  whole).

Names (`domain:`, `host:`) are compared as the URL Standard writes hosts:
lowercase, IDNA's ASCII form, a trailing dot ignored on both sides.

# Example

```
use normurl::scope::{Decision, Scope, ScopeState};
use normurl::Url;

let scope = Scope::new([
    (Decision::Keep, "domain:example.com"),
    (Decision::Drop, "surt:com,example,www)/private/"),
])?;
let mut state = ScopeState::default();
let decide = |s: &mut ScopeState, u: &str| scope.decide(&Url::parse(u).unwrap(), s);
assert_eq!(decide(&mut state, "https://a.example.com/"), Decision::Keep);
assert_eq!(decide(&mut state, "https://www.example.com/private/x"), Decision::Drop);
assert_eq!(decide(&mut state, "https://example.org/"), Decision::Drop);
# Ok::<(), normurl::scope::ScopeError>(())
```
*/

use std::fmt;

use crate::canon::{Canonicalizer, OutputForm, Profile, Scratch, SurtOptions};
use crate::{HostKind, Url};

/// What a rule (or the default) says of a URL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// The line is written.
    Keep,
    /// The line is dropped (and counted as dropped).
    Drop,
}

/// A usage error in a rule: one line, naming the rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScopeError(String);

impl fmt::Display for ScopeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ScopeError {}

/// One rule: what it matches (see the [module documentation](self)).
#[derive(Clone, Debug)]
pub enum Rule {
    /// A prefix of the CDX key (`com,example)/`).
    CdxPrefix(String),
    /// A prefix of Heritrix's SURT form (`http://(com,example,`).
    HeritrixPrefix(String),
    /// A host and its subdomains.
    Domain(String),
    /// A host.
    Host(String),
    /// A scheme.
    Scheme(String),
    /// A regular expression, searched in the normalized URL.
    Regex(regex::Regex),
}

impl Rule {
    /// Parses `KIND:VALUE`.
    pub fn parse(text: &str) -> Result<Rule, ScopeError> {
        let err = |why: String| ScopeError(format!("scope rule {text:?}: {why}"));
        let Some((kind, value)) = text.split_once(':') else {
            return Err(err(
                "expected KIND:VALUE, KIND one of surt, domain, host, scheme, regex".into(),
            ));
        };
        if value.is_empty() {
            return Err(err(format!("{kind}: needs a value")));
        }
        match kind {
            "surt" => Ok(surt_prefix(value)),
            "domain" => host_name(value).map(Rule::Domain).map_err(err),
            "host" => host_name(value).map(Rule::Host).map_err(err),
            "scheme" => {
                let valid = value.as_bytes()[0].is_ascii_alphabetic()
                    && value
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'));
                if valid {
                    Ok(Rule::Scheme(value.to_ascii_lowercase()))
                } else {
                    Err(err(format!("{value:?} is not a scheme")))
                }
            }
            "regex" => regex::Regex::new(value)
                .map(Rule::Regex)
                .map_err(|e| err(one_line(&e.to_string()))),
            _ => Err(err(format!(
                "unknown kind {kind:?} (expected surt, domain, host, scheme or regex)"
            ))),
        }
    }
}

/// The regex crate's multi-line message as one line.
fn one_line(message: &str) -> String {
    let lines: Vec<&str> = message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    lines.join(" ")
}

/// The rule of `surt:VALUE`, in the spelling that `value` has.
fn surt_prefix(value: &str) -> Rule {
    if value.contains('(') {
        // A formal Heritrix prefix, lowercased as SurtPrefixSet does.
        return Rule::HeritrixPrefix(force_http(value.to_ascii_lowercase()));
    }
    if value.contains("://") {
        return Rule::HeritrixPrefix(prefix_from_plain(value));
    }
    // The host part of a key is lowercase whatever the profile: so is the
    // prefix's. The path is compared as given, as the profile writes it
    // (the wayback profile lowercases it, whatwg does not).
    let host_end = value.find(')').map_or(value.len(), |i| i + 1);
    let mut prefix = value[..host_end].to_ascii_lowercase();
    prefix.push_str(&value[host_end..]);
    Rule::CdxPrefix(prefix)
}

/// `SurtPrefixSet.prefixFromPlainForceHttp`: the SURT form of the URL
/// `plain`, cut to the prefix it implies.
fn prefix_from_plain(plain: &str) -> String {
    let mut surt = Vec::new();
    match Url::parse(plain) {
        Ok(url) => {
            heritrix_surt(&url, &mut surt);
            // `SURT.fromPlain`: the parser's serialization adds a `/` to a
            // bare host; one the input did not have is taken off again,
            // for its absence means "and the subdomains".
            if !plain.ends_with('/') && surt.ends_with(b")/") {
                surt.pop();
            }
        }
        // Heritrix goes on with the string as it is.
        Err(_) => surt.extend_from_slice(plain.to_ascii_lowercase().as_bytes()),
    }
    let mut prefix = String::from_utf8_lossy(&surt).into_owned();
    // `SurtPrefixSet.asPrefix`: drop what follows the last `/` after the
    // `//`; then, with no `/` left at the end, the last `)`.
    if let Some(start) = prefix.find("//") {
        if let Some(last) = prefix[start + 2..].rfind('/') {
            prefix.truncate(start + 2 + last + 1);
        }
    }
    if !prefix.ends_with('/') {
        if let Some(close) = prefix.rfind(')') {
            prefix.remove(close);
        }
    }
    force_http(prefix)
}

/// `https://...` as `http://...`, as SurtPrefixSet compares both.
fn force_http(s: String) -> String {
    match s.strip_prefix("https://") {
        Some(rest) => format!("http://{rest}"),
        None => s,
    }
}

/// A host name as the URL Standard writes it (lowercase, IDNA ASCII,
/// IPv4 and IPv6 canonical), without a trailing dot.
fn host_name(value: &str) -> Result<String, String> {
    let url = Url::parse(&format!("http://{value}/"))
        .ok()
        .filter(|u| u.pathname() == "/" && u.query().is_none() && u.port().is_empty())
        .filter(|u| u.username().is_empty() && u.password().is_empty())
        .ok_or_else(|| format!("{value:?} is not a host name"))?;
    let host = url.hostname();
    Ok(host.strip_suffix('.').unwrap_or(host).to_string())
}

/// Appends Heritrix's SURT form of `url` (`SURT.fromURI` of its
/// serialization, as `UURI.getSurtForm` gives it, https as http):
/// `scheme://(tld,domain,:port@userinfo)/path?query`, lowercase, without
/// the fragment (UURI drops it). A URL without a host (`mailto:`, `dns:`)
/// is its serialization, as `fromURI` leaves what it does not split.
pub fn heritrix_surt(url: &Url, out: &mut Vec<u8>) {
    let start = out.len();
    if !url.has_host() || url.host_kind() == HostKind::Empty {
        out.extend_from_slice(url.href_without_fragment().as_bytes());
        return;
    }
    let scheme = match url.scheme() {
        "https" => "http",
        s => s,
    };
    out.extend_from_slice(scheme.as_bytes());
    out.extend_from_slice(b"://(");
    let host = url.hostname().as_bytes();
    match url.host_kind() {
        // A dotted quad is not reversed; an IPv6 address, which has no
        // dots, is one label.
        HostKind::Ipv4 | HostKind::Ipv6 => {
            out.extend_from_slice(host);
            out.push(b',');
        }
        _ => {
            for label in host.rsplit(|&b| b == b'.') {
                out.extend_from_slice(label);
                out.push(b',');
            }
        }
    }
    if !url.port().is_empty() {
        out.push(b':');
        out.extend_from_slice(url.port().as_bytes());
    }
    if !url.username().is_empty() || !url.password().is_empty() {
        out.push(b'@');
        out.extend_from_slice(url.username().as_bytes());
        if !url.password().is_empty() {
            out.push(b':');
            out.extend_from_slice(url.password().as_bytes());
        }
    }
    out.push(b')');
    out.extend_from_slice(url.pathname().as_bytes());
    if let Some(q) = url.query() {
        out.push(b'?');
        out.extend_from_slice(q.as_bytes());
    }
    out[start..].make_ascii_lowercase();
}

/// A parsed list of rules, built once and shared by every worker.
#[derive(Clone, Debug)]
pub struct Scope {
    rules: Vec<(Decision, Rule)>,
    default: Decision,
    /// The writer of CDX keys, when a rule needs one.
    cdx: Option<Canonicalizer>,
    heritrix: bool,
}

/// A worker's buffers for [`Scope::decide`], reused for every URL.
#[derive(Debug, Default)]
pub struct ScopeState {
    cdx: Vec<u8>,
    heritrix: Vec<u8>,
    scratch: Scratch,
}

impl Scope {
    /// The scope of `rules`, in order: each a decision and the rule's
    /// text (`KIND:VALUE`).
    pub fn new<'a>(
        rules: impl IntoIterator<Item = (Decision, &'a str)>,
    ) -> Result<Scope, ScopeError> {
        let rules = rules
            .into_iter()
            .map(|(d, text)| Rule::parse(text).map(|r| (d, r)))
            .collect::<Result<Vec<_>, _>>()?;
        let default = if rules.iter().any(|(d, _)| *d == Decision::Keep) {
            Decision::Drop
        } else {
            Decision::Keep
        };
        let cdx = rules
            .iter()
            .any(|(_, r)| matches!(r, Rule::CdxPrefix(_)))
            .then(|| {
                Canonicalizer::builder(Profile::Whatwg)
                    .output(OutputForm::Surt(SurtOptions::CDX))
                    .build()
            });
        let heritrix = rules
            .iter()
            .any(|(_, r)| matches!(r, Rule::HeritrixPrefix(_)));
        Ok(Scope {
            rules,
            default,
            cdx,
            heritrix,
        })
    }

    /// The rules, in order.
    pub fn rules(&self) -> &[(Decision, Rule)] {
        &self.rules
    }

    /// What no rule matching means: [`Decision::Drop`] if a rule keeps,
    /// else [`Decision::Keep`].
    pub fn default_decision(&self) -> Decision {
        self.default
    }

    /// The decision for `url`, the normalized URL: the last matching
    /// rule's, or the default.
    pub fn decide(&self, url: &Url, state: &mut ScopeState) -> Decision {
        if let Some(cdx) = &self.cdx {
            state.cdx.clear();
            cdx.apply(url, &mut state.scratch, &mut state.cdx);
        }
        if self.heritrix {
            state.heritrix.clear();
            heritrix_surt(url, &mut state.heritrix);
        }
        let host = url.hostname();
        let host = host.strip_suffix('.').unwrap_or(host);
        for (decision, rule) in self.rules.iter().rev() {
            let hit = match rule {
                Rule::CdxPrefix(p) => state.cdx.starts_with(p.as_bytes()),
                Rule::HeritrixPrefix(p) => state.heritrix.starts_with(p.as_bytes()),
                Rule::Domain(d) => {
                    url.has_host()
                        && host
                            .strip_suffix(d.as_str())
                            .is_some_and(|rest| rest.is_empty() || rest.ends_with('.'))
                }
                Rule::Host(h) => url.has_host() && host == h,
                Rule::Scheme(s) => url.scheme() == s,
                Rule::Regex(re) => re.is_match(url.href()),
            };
            if hit {
                return *decision;
            }
        }
        self.default
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decide(rules: &[(Decision, &str)], url: &str) -> Decision {
        let scope = Scope::new(rules.iter().copied()).unwrap();
        scope.decide(&Url::parse(url).unwrap(), &mut ScopeState::default())
    }

    fn hsurt(url: &str) -> String {
        let mut out = Vec::new();
        heritrix_surt(&Url::parse(url).unwrap(), &mut out);
        String::from_utf8(out).unwrap()
    }

    fn prefix(value: &str) -> String {
        match surt_prefix(value) {
            Rule::HeritrixPrefix(p) | Rule::CdxPrefix(p) => p,
            r => panic!("{r:?}"),
        }
    }

    use Decision::{Drop, Keep};

    #[test]
    fn heritrix_surt_form() {
        // SURT.java's documented form.
        assert_eq!(
            hsurt("http://user:pw@www.Example.com:8080/A/b?Q=1#frag"),
            "http://(com,example,www,:8080@user:pw)/a/b?q=1"
        );
        assert_eq!(hsurt("https://example.com/"), "http://(com,example,)/");
        assert_eq!(hsurt("http://192.168.0.1/x"), "http://(192.168.0.1,)/x");
        assert_eq!(hsurt("ftp://example.com/f"), "ftp://(com,example,)/f");
        assert_eq!(hsurt("dns:example.com"), "dns:example.com");
    }

    #[test]
    fn prefixes_from_plain_urls_as_surt_prefix_set() {
        // SurtPrefixSet.prefixFromPlainForceHttp's documented cases.
        assert_eq!(prefix("http://example.com/"), "http://(com,example,)/");
        assert_eq!(prefix("http://example.com"), "http://(com,example,");
        assert_eq!(
            prefix("https://www.example.com"),
            "http://(com,example,www,"
        );
        assert_eq!(prefix("http://example.com/a/b"), "http://(com,example,)/a/");
        assert_eq!(prefix("http://example.com/a/"), "http://(com,example,)/a/");
        assert_eq!(
            prefix("http://example.com:8080"),
            "http://(com,example,:8080"
        );
        assert_eq!(prefix("HTTP://(COM,Example,"), "http://(com,example,");
        assert_eq!(prefix("https://(com,example,)/"), "http://(com,example,)/");
        assert_eq!(prefix("com,Example)/A"), "com,example)/A");
    }

    #[test]
    fn heritrix_prefixes_match_as_surt_prefixed_decide_rule() {
        let keep = |p: &'static str| [(Keep, p)];
        // Open-ended domain prefix: the host and its subdomains, on any
        // port (`:8080` follows the host's last comma).
        let open = keep("surt:http://example.com");
        assert_eq!(decide(&open, "http://example.com/x"), Keep);
        assert_eq!(decide(&open, "https://www.example.com/x"), Keep);
        assert_eq!(decide(&open, "http://example.com:8080/"), Keep);
        assert_eq!(decide(&open, "ftp://example.com/"), Drop);
        assert_eq!(decide(&open, "http://example.org/"), Drop);
        // With the slash: that host only.
        let host = keep("surt:http://example.com/");
        assert_eq!(decide(&host, "http://example.com/a"), Keep);
        assert_eq!(decide(&host, "http://www.example.com/a"), Drop);
        // A path prefix.
        let path = keep("surt:http://(com,example,)/docs/");
        assert_eq!(decide(&path, "https://example.com/docs/a"), Keep);
        assert_eq!(decide(&path, "https://example.com/DOCS/a"), Keep);
        assert_eq!(decide(&path, "https://example.com/doc"), Drop);
        // "com,example" without the comma is a prefix of "com,examples".
        let loose = keep("surt:http://(com,example");
        assert_eq!(decide(&loose, "http://examples.com/"), Keep);
    }

    #[test]
    fn cdx_prefixes() {
        let rules = [(Keep, "surt:com,example)/")];
        assert_eq!(decide(&rules, "https://example.com/a"), Keep);
        assert_eq!(decide(&rules, "http://www.example.com/a"), Drop);
        let rules = [(Keep, "surt:com,example")];
        assert_eq!(decide(&rules, "http://www.example.com/a"), Keep);
        assert_eq!(decide(&rules, "http://example.org/"), Drop);
    }

    #[test]
    fn domains_hosts_schemes_regexes() {
        let d = [(Keep, "domain:Example.COM.")];
        assert_eq!(decide(&d, "http://example.com/"), Keep);
        assert_eq!(decide(&d, "http://a.b.example.com./"), Keep);
        assert_eq!(decide(&d, "http://badexample.com/"), Drop);
        assert_eq!(decide(&d, "mailto:a@example.com"), Drop);
        let idn = [(Keep, "domain:bücher.de")];
        assert_eq!(decide(&idn, "http://www.xn--bcher-kva.de/"), Keep);
        let h = [(Keep, "host:example.com")];
        assert_eq!(decide(&h, "http://example.com:81/"), Keep);
        assert_eq!(decide(&h, "http://www.example.com/"), Drop);
        let s = [(Drop, "scheme:FTP")];
        assert_eq!(decide(&s, "ftp://example.com/"), Drop);
        assert_eq!(decide(&s, "http://example.com/"), Keep);
        let r = [(Drop, r"regex:\.pdf$")];
        assert_eq!(decide(&r, "http://example.com/a.PDF"), Keep);
        assert_eq!(decide(&r, "http://example.com/a.pdf"), Drop);
    }

    #[test]
    fn the_last_matching_rule_decides() {
        let rules = [
            (Keep, "domain:example.com"),
            (Drop, "host:private.example.com"),
            (Keep, "regex:/public/"),
        ];
        assert_eq!(decide(&rules, "http://a.example.com/"), Keep);
        assert_eq!(decide(&rules, "http://private.example.com/x"), Drop);
        assert_eq!(decide(&rules, "http://private.example.com/public/x"), Keep);
        assert_eq!(decide(&rules, "http://other.org/"), Drop);
        // Only drop rules: what none matches is kept.
        assert_eq!(decide(&[(Drop, "scheme:ftp")], "http://a/"), Keep);
        assert_eq!(Scope::new([]).unwrap().default_decision(), Keep);
    }

    #[test]
    fn bad_rules_are_one_line_errors() {
        for bad in [
            "nope",
            "kind:x",
            "domain:",
            "domain:a/b",
            "host:a b",
            "scheme:1x",
            "regex:(",
        ] {
            let e = Rule::parse(bad).unwrap_err().to_string();
            assert!(!e.contains('\n') && e.contains(bad), "{bad}: {e}");
        }
    }
}
