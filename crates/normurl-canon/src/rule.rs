//! The canonicalization rules and sets of them.
//!
//! A [`Rule`] is one named, documented transformation; a [`RuleSet`] is a
//! bitset of rules. Profiles are rule sets (see [`Profile`](super::Profile)),
//! and the set of rules that changed a URL, returned by
//! [`Canonicalizer::apply`](super::Canonicalizer::apply), is one too.
//!
//! The order of [`Rule::ALL`] is the order in which the rules are applied;
//! a rule set has no order of its own, so `+a,+b` and `+b,+a` mean the same.

use std::fmt;
use std::str::FromStr;

use crate::error::ConfigError;

/// One canonicalization rule.
///
/// Each rule has a stable kebab-case [name](Rule::name) (what `--rules` and
/// `--explain` use) and a one-line [description](Rule::description).
///
/// # Example
///
/// ```
/// use normurl_canon::Rule;
///
/// let rule: Rule = "strip-www".parse()?;
/// assert_eq!(rule, Rule::StripWww);
/// assert_eq!(rule.name(), "strip-www");
/// assert!(rule.description().contains("www."));
/// # Ok::<(), normurl_canon::ConfigError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Rule {
    /// `unwrap-redirects`: a known redirector's URL (`google.com/url?q=`,
    /// `l.facebook.com/l.php?u=`, `youtube.com/redirect?q=`,
    /// `out.reddit.com/*?url=`, AMP caches and `google.com/amp/s/`, user
    /// triples) becomes the URL it carries; nothing is fetched.
    UnwrapRedirects,
    /// `force-http`: `https:` becomes `http:` (a port of 80 then disappears).
    ForceHttp,
    /// `force-https`: `http:` becomes `https:` (a port of 443 then
    /// disappears). With `force-http` too, `https:` wins.
    ForceHttps,
    /// `strip-userinfo`: drop the username and password.
    StripUserinfo,
    /// `trim-host-dots`: remove leading and trailing dots of a domain and
    /// collapse runs of dots.
    TrimHostDots,
    /// `strip-www`: remove leading `www.` labels from a domain.
    StripWww,
    /// `strip-www-digits`: remove leading `www.`, `www2.`, `www123.`...
    /// labels from a domain.
    StripWwwDigits,
    /// `strip-one-www`: with `strip-www`, remove one `www.` only, and only
    /// when no other `www.` follows and two labels are left
    /// (normalize-url's test).
    StripOneWww,
    /// `drop-port`: remove any explicit port.
    DropPort,
    /// `unescape-path`: percent-decode the path repeatedly, resolve the dot
    /// segments that appear, and re-encode only what must be.
    UnescapePath,
    /// `decode-path-reserved`: percent-decode the characters a path may
    /// hold as they are, reserved ones too (`,` `:` `@` `!` `$` `&` `'`
    /// `(` `)` `*` `+` `;` `=` `[` `]` `|` and the unreserved ones), but
    /// not `/`, `?`, `#` or `%`: w3lib's path rule.
    DecodePathReserved,
    /// `decode-uri-path`: decode the path as normalize-url does
    /// (JavaScript's `decodeURI`, then the URL parser): every escape but
    /// those of `; / ? : @ & = + $ , #` and `%25`, re-encoding what a path
    /// must have encoded; nothing when an escape is malformed.
    DecodeUriPath,
    /// `decode-unreserved`: decode percent-encoded unreserved characters
    /// (RFC 3986 section 6.2.2.2).
    DecodeUnreserved,
    /// `uppercase-percent`: uppercase the hex digits of percent-encodings
    /// (RFC 3986 section 6.2.2.1).
    UppercasePercent,
    /// `encode-bare-percent`: a `%` that does not start a percent-encoding
    /// becomes `%25`, in every component but the domain: urlcanon's rule.
    EncodeBarePercent,
    /// `encode-hash-space`: a `#` in the fragment becomes `%23` and a
    /// space in an opaque path `%20`, which urlcanon's encode sets have and
    /// the URL Standard's do not.
    EncodeHashSpace,
    /// `strip-session-ids`: remove session ids from the path and the query.
    StripSessionIds,
    /// `keep-path-jsessionid`: with `strip-session-ids`, keep a path's
    /// `;jsessionid=` suffix, as webarchive-commons' WaybackURLKeyMaker
    /// (the CDX keys) and the Python `surt` package do: they strip session
    /// ids from the query and ASP.NET segments from the path only.
    KeepPathJsessionid,
    /// `session-ids-anywhere`: with `strip-session-ids`, strip the query's
    /// session ids as webarchive-commons' `URLRegexTransformer` (the CDX
    /// keys) and the Python `surt` package do: by regexes on the whole
    /// query, wherever an id starts (`id=7;jsessionid=<32>` keeps `id=7;`),
    /// the last id of each kind, leaving a `&` before it, instead of whole
    /// parameters. Repeated (with the sort) until no id is left, so that
    /// the output is idempotent.
    SessionIdsAnywhere,
    /// `urlcanon-session-ids`: with `strip-session-ids`, strip the query
    /// parameters urlcanon's `aggressive` takes for session ids:
    /// `jsessionid` with 10 or more letters, digits or `$`; `sessionid`,
    /// `phpsessid`, `sid` and `aspsessionid` plus 8 letters with 16 or
    /// more letters or digits; `cfid` with digits and `cftoken` with
    /// letters, digits or `-`, both present.
    UrlcanonSessionIds,
    /// `collapse-slashes`: replace runs of `/` in the path by one.
    CollapseSlashes,
    /// `keep-scheme-slashes`: with `collapse-slashes`, keep the `//` of a
    /// URL embedded in the path after its scheme (`/https://b.com/`).
    KeepSchemeSlashes,
    /// `keep-nonspecial-slashes`: with `collapse-slashes`, keep the runs
    /// of `/` in the paths of non-special URLs, as urlcanon does.
    KeepNonspecialSlashes,
    /// `lowercase-path`: ASCII-lowercase the path.
    LowercasePath,
    /// `normalize-data-urls`: write a `data:` URL's media type as
    /// normalize-url does (lowercased, defaults dropped).
    NormalizeDataUrls,
    /// `strip-directory-index`: remove a last path segment that names a
    /// directory index (`index.html`, `default.aspx`... and user names).
    StripDirectoryIndex,
    /// `strip-trailing-slash`: remove a trailing `/` from a path longer than `/`.
    StripTrailingSlash,
    /// `unescape-query`: percent-decode each query parameter's name and
    /// value repeatedly and re-encode only what must be.
    UnescapeQuery,
    /// `encode-value-equals`: with `unescape-query`, write `=` in
    /// parameter values as `%3D` too, as in names (urlcanon).
    EncodeValueEquals,
    /// `lowercase-query`: ASCII-lowercase the query.
    LowercaseQuery,
    /// `semicolon-separators`: `;` separates query parameters as `&`
    /// does; it is written as `&`.
    SemicolonSeparators,
    /// `semicolon-only-separators`: `;` alone separates query parameters
    /// and joins them again; an `&` is data, written `%26` (w3lib's
    /// `query_separator=";"`). With `semicolon-separators` too, this wins.
    SemicolonOnlySeparators,
    /// `form-encode-query`: decode each parameter as a form does (`+` is a
    /// space) and encode it again as a form does (`urlencode`: only
    /// letters, digits and `-._~` stay, a space is `+`, a parameter without
    /// `=` gets one): w3lib's query rule.
    FormEncodeQuery,
    /// `url-search-params`: write each parameter as normalize-url leaves
    /// it after `URLSearchParams.sort()` and `decodeURIComponent`:
    /// `name=value`, escapes decoded but `%25`, `%26`, `%2B` (and `%3D` in
    /// names), a space as `+`, what a query must encode encoded.
    UrlSearchParams,
    /// `strip-tracking`: remove tracking parameters (`utm_*`, `gclid`,
    /// `fbclid`... and user lists).
    StripTracking,
    /// `keep-params`: remove every query parameter whose name is not on
    /// the `--keep-params` list.
    KeepParams,
    /// `domain-params`: remove the query parameters that the
    /// `--param-rules` rule of the URL's domain strips (or does not keep).
    DomainParams,
    /// `drop-blank-params`: remove query parameters with an empty value
    /// (`a=` and `a`).
    DropBlankParams,
    /// `drop-empty-params`: remove empty `&&` pieces of the query.
    DropEmptyParams,
    /// `sort-query`: sort query parameters by name, stably.
    SortQuery,
    /// `sort-query-values`: with `sort-query`, order parameters of equal
    /// name by value.
    SortQueryValues,
    /// `sort-query-bytes`: with `sort-query`, order parameters by their
    /// whole `name=value` bytes instead of by name (urlcanon sorts the
    /// `&`-separated pieces as strings: `L0=x` before `L=y`, since `0`
    /// is below `=`).
    SortQueryBytes,
    /// `drop-empty-query`: remove a `?` that has no query after it.
    DropEmptyQuery,
    /// `strip-text-fragment`: remove the `:~:text=` directives of the
    /// fragment.
    StripTextFragment,
    /// `drop-empty-fragment`: remove a `#` with nothing after it.
    DropEmptyFragment,
    /// `keep-spa-fragments`: with `drop-fragment`, keep fragments that are
    /// routes of single-page applications (`#!...`, `#/...`).
    KeepSpaFragments,
    /// `drop-fragment`: remove the fragment.
    DropFragment,
    /// `strip-scheme`: write the key without `scheme:` and `//`
    /// (`example.com/a`): not a URL, a key for URLs that differ in scheme
    /// only.
    StripScheme,
    /// `strip-root-slash`: write `http://example.com` for
    /// `http://example.com/` when there is no query and no fragment: not
    /// a URL serialization, a key (normalize-url's).
    StripRootSlash,
}

impl Rule {
    /// Every rule, in the order the canonicalizer applies them.
    pub const ALL: [Rule; 49] = [
        Rule::UnwrapRedirects,
        Rule::ForceHttp,
        Rule::ForceHttps,
        Rule::StripUserinfo,
        Rule::TrimHostDots,
        Rule::StripWww,
        Rule::StripWwwDigits,
        Rule::StripOneWww,
        Rule::DropPort,
        Rule::UnescapePath,
        Rule::DecodePathReserved,
        Rule::DecodeUriPath,
        Rule::DecodeUnreserved,
        Rule::UppercasePercent,
        Rule::EncodeBarePercent,
        Rule::EncodeHashSpace,
        Rule::StripSessionIds,
        Rule::KeepPathJsessionid,
        Rule::SessionIdsAnywhere,
        Rule::UrlcanonSessionIds,
        Rule::CollapseSlashes,
        Rule::KeepSchemeSlashes,
        Rule::KeepNonspecialSlashes,
        Rule::LowercasePath,
        Rule::NormalizeDataUrls,
        Rule::StripDirectoryIndex,
        Rule::StripTrailingSlash,
        Rule::UnescapeQuery,
        Rule::EncodeValueEquals,
        Rule::LowercaseQuery,
        Rule::SemicolonSeparators,
        Rule::SemicolonOnlySeparators,
        Rule::FormEncodeQuery,
        Rule::UrlSearchParams,
        Rule::StripTracking,
        Rule::KeepParams,
        Rule::DomainParams,
        Rule::DropBlankParams,
        Rule::DropEmptyParams,
        Rule::SortQuery,
        Rule::SortQueryValues,
        Rule::SortQueryBytes,
        Rule::DropEmptyQuery,
        Rule::StripTextFragment,
        Rule::DropEmptyFragment,
        Rule::KeepSpaFragments,
        Rule::DropFragment,
        Rule::StripScheme,
        Rule::StripRootSlash,
    ];

    /// The rule's kebab-case name.
    ///
    /// # Example
    ///
    /// ```
    /// assert_eq!(normurl_canon::Rule::DecodeUnreserved.name(), "decode-unreserved");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Rule::UnwrapRedirects => "unwrap-redirects",
            Rule::ForceHttp => "force-http",
            Rule::ForceHttps => "force-https",
            Rule::StripUserinfo => "strip-userinfo",
            Rule::TrimHostDots => "trim-host-dots",
            Rule::StripWww => "strip-www",
            Rule::StripWwwDigits => "strip-www-digits",
            Rule::StripOneWww => "strip-one-www",
            Rule::DropPort => "drop-port",
            Rule::UnescapePath => "unescape-path",
            Rule::DecodePathReserved => "decode-path-reserved",
            Rule::DecodeUriPath => "decode-uri-path",
            Rule::DecodeUnreserved => "decode-unreserved",
            Rule::UppercasePercent => "uppercase-percent",
            Rule::EncodeBarePercent => "encode-bare-percent",
            Rule::EncodeHashSpace => "encode-hash-space",
            Rule::StripSessionIds => "strip-session-ids",
            Rule::KeepPathJsessionid => "keep-path-jsessionid",
            Rule::SessionIdsAnywhere => "session-ids-anywhere",
            Rule::UrlcanonSessionIds => "urlcanon-session-ids",
            Rule::CollapseSlashes => "collapse-slashes",
            Rule::KeepSchemeSlashes => "keep-scheme-slashes",
            Rule::KeepNonspecialSlashes => "keep-nonspecial-slashes",
            Rule::LowercasePath => "lowercase-path",
            Rule::NormalizeDataUrls => "normalize-data-urls",
            Rule::StripDirectoryIndex => "strip-directory-index",
            Rule::StripTrailingSlash => "strip-trailing-slash",
            Rule::UnescapeQuery => "unescape-query",
            Rule::EncodeValueEquals => "encode-value-equals",
            Rule::LowercaseQuery => "lowercase-query",
            Rule::SemicolonSeparators => "semicolon-separators",
            Rule::SemicolonOnlySeparators => "semicolon-only-separators",
            Rule::FormEncodeQuery => "form-encode-query",
            Rule::UrlSearchParams => "url-search-params",
            Rule::StripTracking => "strip-tracking",
            Rule::KeepParams => "keep-params",
            Rule::DomainParams => "domain-params",
            Rule::DropBlankParams => "drop-blank-params",
            Rule::DropEmptyParams => "drop-empty-params",
            Rule::SortQuery => "sort-query",
            Rule::SortQueryValues => "sort-query-values",
            Rule::SortQueryBytes => "sort-query-bytes",
            Rule::DropEmptyQuery => "drop-empty-query",
            Rule::StripTextFragment => "strip-text-fragment",
            Rule::DropEmptyFragment => "drop-empty-fragment",
            Rule::KeepSpaFragments => "keep-spa-fragments",
            Rule::DropFragment => "drop-fragment",
            Rule::StripScheme => "strip-scheme",
            Rule::StripRootSlash => "strip-root-slash",
        }
    }

    /// One line saying what the rule does, for `normurl rules`.
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_canon::Rule;
    ///
    /// for rule in Rule::ALL {
    ///     println!("{:22} {}", rule.name(), rule.description());
    /// }
    /// ```
    pub const fn description(self) -> &'static str {
        match self {
            Rule::UnwrapRedirects => {
                "replace a redirector's URL (google.*/url?q=, facebook.*/l.php?u=, youtube.com/redirect?q=, out.reddit.com/*?url=, AMP caches, google.*/amp/s/, --redirects) by the URL it carries"
            }
            Rule::ForceHttp => "https: becomes http: (port 80 then disappears)",
            Rule::ForceHttps => "http: becomes https: (port 443 then disappears; wins over force-http)",
            Rule::StripUserinfo => "drop the username and password",
            Rule::TrimHostDots => {
                "remove leading and trailing dots of a domain, collapse runs of dots"
            }
            Rule::StripWww => {
                "remove leading \"www.\" labels, unless only a public suffix would remain (of --psl FILE's list, or the bundled one)"
            }
            Rule::StripWwwDigits => {
                "remove leading \"www.\", \"www2.\", \"www123.\"... labels, as CDX keys do (www.blogspot.com becomes blogspot.com)"
            }
            Rule::StripOneWww => {
                "with strip-www: remove one www. only, when no www. follows and two labels stay (normalize-url)"
            }
            Rule::DropPort => "remove any explicit port (Safe Browsing hashes URLs without one)",
            Rule::UnescapePath => {
                "percent-decode the path repeatedly, resolve dot segments, re-encode only what must be"
            }
            Rule::DecodePathReserved => {
                "decode %XX in the path of every character a path may hold raw but / ? # % (w3lib: %2C becomes ,)"
            }
            Rule::DecodeUriPath => {
                "decode the path as normalize-url (decodeURI): %XX but of ; / ? : @ & = + $ , # % and what a path keeps encoded; nothing if one is malformed (%5B becomes [)"
            }
            Rule::DecodeUnreserved => {
                "decode %XX of unreserved characters A-Z a-z 0-9 - . _ ~ (RFC 3986 6.2.2.2)"
            }
            Rule::UppercasePercent => "uppercase the hex digits of %xx (RFC 3986 6.2.2.1)",
            Rule::EncodeBarePercent => {
                "a % that starts no %XX becomes %25, except in the host (urlcanon: a%zz becomes a%25zz)"
            }
            Rule::EncodeHashSpace => {
                "a # in the fragment becomes %23, a space in an opaque path %20 (urlcanon: #a#b becomes #a%23b)"
            }
            Rule::StripSessionIds => {
                "remove session ids: jsessionid, phpsessid, sid, aspsessionid*, cfid+cftoken, ;jsessionid= and ASP.NET (S(...)) path segments"
            }
            Rule::KeepPathJsessionid => {
                "with strip-session-ids: keep a path's ;jsessionid= as CDX keys do (webarchive-commons, surt)"
            }
            Rule::UrlcanonSessionIds => {
                "with strip-session-ids: urlcanon's query session ids (jsessionid= 10+ of A-Z a-z 0-9 $; sessionid, phpsessid, sid, aspsessionid*= 16+ letters or digits; cfid=digits with cftoken)"
            }
            Rule::SessionIdsAnywhere => {
                "with strip-session-ids: strip query session ids as CDX keys do (webarchive-commons, surt): wherever one starts (id=7;jsessionid=<32> keeps id=7;), the last of each kind"
            }
            Rule::CollapseSlashes => "replace runs of / in the path by one /",
            Rule::KeepSchemeSlashes => {
                "with collapse-slashes: keep the // after a scheme inside the path (/https://b.com/)"
            }
            Rule::KeepNonspecialSlashes => {
                "with collapse-slashes: keep runs of / in the paths of non-special URLs (urlcanon: foo://h//a stays)"
            }
            Rule::LowercasePath => "ASCII-lowercase the path",
            Rule::NormalizeDataUrls => {
                "data: URLs: lowercase the media type, drop text/plain and charset=us-ascii, trim base64 data"
            }
            Rule::StripDirectoryIndex => {
                "remove a last segment index.html, index.htm, index.php, default.asp, default.aspx (any case) or of --index-files"
            }
            Rule::StripTrailingSlash => "remove a trailing / from a path other than /",
            Rule::UnescapeQuery => {
                "percent-decode each parameter's name and value repeatedly, re-encode only what must be"
            }
            Rule::EncodeValueEquals => {
                "with unescape-query: write = in parameter values as %3D too (urlcanon: a=b=c becomes a=b%3Dc)"
            }
            Rule::LowercaseQuery => "ASCII-lowercase the query",
            Rule::SemicolonSeparators => {
                "; separates query parameters as & does (a=1;b=2 becomes a=1&b=2)"
            }
            Rule::SemicolonOnlySeparators => {
                "; alone separates query parameters and joins them, & is data written %26 (w3lib query_separator=\";\": a=1&b;c becomes a=1%26b;c); wins over semicolon-separators"
            }
            Rule::FormEncodeQuery => {
                "re-encode each parameter as a form does: only A-Z a-z 0-9 -._~ raw, space as +, = always (w3lib: a=x y&b becomes a=x+y&b=)"
            }
            Rule::UrlSearchParams => {
                "write parameters as normalize-url's URLSearchParams: name=value, escapes but %25 %26 %2B decoded, space as + (a%20b&c becomes a+b&c=)"
            }
            Rule::StripTracking => {
                "remove tracking parameters (utm_*, gclid, fbclid... and --strip-params lists)"
            }
            Rule::KeepParams => "remove every query parameter not named in --keep-params (none: all)",
            Rule::DomainParams => {
                "remove the parameters a --param-rules file strips on the URL's domain (or does not keep)"
            }
            Rule::DropBlankParams => "remove parameters with an empty value (a=&b=1 becomes b=1)",
            Rule::DropEmptyParams => "remove empty pieces of the query (a=1&&b=2 becomes a=1&b=2)",
            Rule::SortQuery => "sort query parameters by name, keeping the order of equal names",
            Rule::SortQueryValues => "with sort-query: order parameters of equal name by value",
            Rule::SortQueryBytes => {
                "with sort-query: order parameters by their raw name=value bytes, not by name (urlcanon: L0=x before L=y)"
            }
            Rule::DropEmptyQuery => "remove a ? with nothing after it",
            Rule::StripTextFragment => {
                "remove the :~:text= directives of the fragment (#a:~:text=b becomes #a)"
            }
            Rule::DropEmptyFragment => "remove a # with nothing after it",
            Rule::KeepSpaFragments => "with drop-fragment: keep #!... and #/... routes",
            Rule::DropFragment => "remove the #fragment",
            Rule::StripScheme => {
                "write keys without scheme: and // (example.com/a): not a URL"
            }
            Rule::StripRootSlash => {
                "write http://example.com for http://example.com/ (no query, no fragment): not a URL"
            }
        }
    }

    /// Looks a rule up by its [name](Rule::name).
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_canon::Rule;
    ///
    /// assert_eq!(Rule::from_name("sort-query"), Some(Rule::SortQuery));
    /// assert_eq!(Rule::from_name("sort_query"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Rule> {
        Rule::ALL.into_iter().find(|rule| rule.name() == name)
    }

    const fn bit(self) -> u64 {
        1 << self as u64
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Rule {
    type Err = ConfigError;

    fn from_str(s: &str) -> Result<Rule, ConfigError> {
        Rule::from_name(s).ok_or_else(|| ConfigError::UnknownRule(s.to_owned()))
    }
}

/// A set of [`Rule`]s: a profile's rules, or the rules that fired on a URL.
///
/// It is a `u64` bitset, so it is `Copy` and cheap to return per URL.
///
/// # Example
///
/// ```
/// use normurl_canon::{Rule, RuleSet};
///
/// let set = RuleSet::from_rules(&[Rule::SortQuery, Rule::DropFragment]);
/// assert!(set.contains(Rule::SortQuery));
/// assert_eq!(set.to_string(), "sort-query,drop-fragment");
/// let edited = set.edit("-drop-fragment,+strip-www")?;
/// assert_eq!(edited.to_string(), "strip-www,sort-query");
/// # Ok::<(), normurl_canon::ConfigError>(())
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct RuleSet(u64);

impl RuleSet {
    /// The empty set.
    pub const EMPTY: RuleSet = RuleSet(0);

    /// The rules whose output is a key, not a URL serialization
    /// (`strip-scheme`'s `example.com/a`, `strip-root-slash`'s
    /// `http://example.com`): a key may not parse, or parse to a URL whose
    /// href differs from it, so checks of "the output is its own parse"
    /// leave these out.
    pub const KEYS: RuleSet = RuleSet::from_rules(&[Rule::StripScheme, Rule::StripRootSlash]);

    /// The set of the given rules.
    pub const fn from_rules(rules: &[Rule]) -> RuleSet {
        let mut bits = 0;
        let mut i = 0;
        while i < rules.len() {
            bits |= rules[i].bit();
            i += 1;
        }
        RuleSet(bits)
    }

    /// The set as bits, for a const generic parameter (see
    /// [`RuleSet::from_bits`]).
    pub(crate) const fn bits(self) -> u64 {
        self.0
    }

    /// The set of [`RuleSet::bits`].
    pub(crate) const fn from_bits(bits: u64) -> RuleSet {
        RuleSet(bits)
    }

    /// Whether `rule` is in the set.
    #[inline]
    pub const fn contains(self, rule: Rule) -> bool {
        self.0 & rule.bit() != 0
    }

    /// The set with `rule` added.
    #[inline]
    pub const fn with(self, rule: Rule) -> RuleSet {
        RuleSet(self.0 | rule.bit())
    }

    /// The set with `rule` removed.
    #[inline]
    pub const fn without(self, rule: Rule) -> RuleSet {
        RuleSet(self.0 & !rule.bit())
    }

    /// Adds `rule` to the set.
    #[inline]
    pub fn insert(&mut self, rule: Rule) {
        self.0 |= rule.bit();
    }

    /// Adds `rule` when `changed` is true: how rules report that they fired.
    #[inline]
    pub fn insert_if(&mut self, rule: Rule, changed: bool) {
        if changed {
            self.insert(rule);
        }
    }

    /// The rules in either set.
    #[inline]
    pub const fn union(self, other: RuleSet) -> RuleSet {
        RuleSet(self.0 | other.0)
    }

    /// The rules in both sets.
    #[inline]
    pub const fn intersection(self, other: RuleSet) -> RuleSet {
        RuleSet(self.0 & other.0)
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The number of rules in the set.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// The rules in the set, in [`Rule::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Rule> {
        Rule::ALL
            .into_iter()
            .filter(move |&rule| self.contains(rule))
    }

    /// Applies rule edits: a comma-separated list of `+name` (add), `-name`
    /// (remove) or `name` (add), left to right. Spaces around items are
    /// ignored; an empty string changes nothing.
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_canon::{ConfigError, Rule, RuleSet};
    ///
    /// let set = RuleSet::EMPTY.edit("+strip-www, sort-query, -strip-www")?;
    /// assert_eq!(set, RuleSet::from_rules(&[Rule::SortQuery]));
    /// assert!(matches!(RuleSet::EMPTY.edit("+nope"), Err(ConfigError::UnknownRule(_))));
    /// # Ok::<(), ConfigError>(())
    /// ```
    pub fn edit(self, edits: &str) -> Result<RuleSet, ConfigError> {
        let mut set = self;
        for item in edits.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            if let Some(name) = item.strip_prefix('-') {
                set = set.without(name.trim().parse()?);
            } else {
                let name = item.strip_prefix('+').unwrap_or(item);
                set = set.with(name.trim().parse()?);
            }
        }
        Ok(set)
    }

    /// Appends the names of the rules, comma-separated, to `out` (nothing
    /// for the empty set). For `--explain` columns, without allocating.
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_canon::{Rule, RuleSet};
    ///
    /// let mut out = b"url\t".to_vec();
    /// RuleSet::from_rules(&[Rule::DropFragment, Rule::StripWww]).write_names(&mut out);
    /// assert_eq!(out, b"url\tstrip-www,drop-fragment");
    /// ```
    pub fn write_names(self, out: &mut Vec<u8>) {
        for (i, rule) in self.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            out.extend_from_slice(rule.name().as_bytes());
        }
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, rule) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            f.write_str(rule.name())?;
        }
        Ok(())
    }
}

impl fmt::Debug for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl FromIterator<Rule> for RuleSet {
    fn from_iter<I: IntoIterator<Item = Rule>>(iter: I) -> RuleSet {
        let mut set = RuleSet::EMPTY;
        for rule in iter {
            set.insert(rule);
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_kebab_case_and_round_trip() {
        for rule in Rule::ALL {
            let name = rule.name();
            assert!(
                name.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'),
                "{name}"
            );
            assert_eq!(Rule::from_name(name), Some(rule));
            assert!(!rule.description().is_empty());
        }
        let set: RuleSet = Rule::ALL.into_iter().collect();
        assert_eq!(set.len(), Rule::ALL.len(), "two rules share a bit");
    }

    #[test]
    fn all_is_in_declaration_order() {
        // The bit of a rule is its discriminant; iteration order must be
        // the application order, so the two must agree.
        for (i, rule) in Rule::ALL.into_iter().enumerate() {
            assert_eq!(rule as usize, i);
        }
    }

    #[test]
    fn edit_errors_name_the_bad_item() {
        let err = RuleSet::EMPTY.edit("+sort-query,-bogus").unwrap_err();
        assert!(err.to_string().contains("bogus"), "{err}");
        assert_eq!(RuleSet::EMPTY.edit(" , ").unwrap(), RuleSet::EMPTY);
    }
}
