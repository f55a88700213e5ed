//! Named profiles: documented lists of rules.
//!
//! A profile is data, a [`RuleSet`]; the canonicalizer has no code path per
//! profile. `--rules +a,-b` edits a profile's set.

use std::fmt;
use std::str::FromStr;

use crate::error::ConfigError;
use crate::rule::{Rule, RuleSet};
use crate::rules::tracking::TrackingParams;

/// A named list of rules.
///
/// # Example
///
/// ```
/// use normurl_canon::{Profile, Rule};
///
/// let profile: Profile = "semantic".parse()?;
/// assert!(profile.rules().contains(Rule::DecodeUnreserved));
/// assert!(Profile::Aggressive.rules().contains(Rule::SortQuery));
/// assert!(Profile::Whatwg.rules().is_empty());
/// # Ok::<(), normurl_canon::ConfigError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Profile {
    /// The WHATWG serialization and nothing else.
    #[default]
    Whatwg,
    /// RFC 3986 section 6.2.2 normalizations that never change what a
    /// server receives, on top of WHATWG: decode percent-encoded unreserved
    /// characters and uppercase percent-encoding hex digits. (Case of scheme
    /// and host, dot segments, default ports and empty paths are already
    /// normalized by the WHATWG parser.)
    Semantic,
    /// For dedup keys: `semantic` plus rules that can change meaning but
    /// almost never do in practice: drop the fragment and userinfo, trim
    /// host dots, strip `www.`, collapse slashes, strip a trailing slash,
    /// strip session ids and tracking parameters, drop empty parameters,
    /// sort the query, drop an empty query.
    Aggressive,
    /// Google Safe Browsing's URL canonicalization (v4 "URLs and Hashing"):
    /// repeated unescaping of the path and minimal re-escaping, host dots
    /// trimmed, slashes collapsed, fragment, userinfo and port dropped. The
    /// query is kept as it is (Chromium hashes it verbatim).
    SafeBrowsing,
    /// The canonicalization of webarchive-commons' WaybackURLKeyMaker (CDX
    /// `urlkey`s): Safe Browsing-style unescaping plus the IA rules:
    /// `www\d*.` stripped, path and query lowercased, session ids stripped
    /// (but a path's `;jsessionid=`, which CDX keys keep; in the query
    /// wherever they start, as its regexes do),
    /// trailing slash stripped, query sorted by name then value. Use with
    /// `--get surt` to get CDX keys.
    Wayback,
    /// urlcanon's `semantic` (Internet Archive's Python canonicalizer):
    /// `urlcanon-semantic-precise` plus the fragment dropped.
    UrlcanonSemantic,
    /// urlcanon's `semantic_precise`: `semantic` plus userinfo dropped,
    /// host dots trimmed, path and query unescaped and minimally
    /// re-escaped (`=` in values too), a `%` that starts no escape
    /// written `%25`, a `#` in the fragment and a space in an opaque path
    /// encoded, slashes collapsed in special URLs, query sorted as
    /// urlcanon sorts it (by the bytes of each `name=value`). urlcanon
    /// assumes `http` for inputs without a scheme
    /// (`--default-scheme http`).
    UrlcanonSemanticPrecise,
    /// urlcanon's `aggressive`: `urlcanon-semantic` plus `https` made
    /// `http`, `www\d*.` stripped, path and query lowercased, urlcanon's
    /// session id patterns, trailing slash and empty `&&` pieces and `?`
    /// removed, query sorted again (by bytes). Unlike normurl's
    /// `aggressive`, no tracking parameters are stripped: urlcanon has no
    /// such rule.
    UrlcanonAggressive,
    /// w3lib's `canonicalize_url` with its defaults (Scrapy's request
    /// fingerprints): `semantic`, reserved characters of the path decoded,
    /// query parameters re-encoded as a form does (`urlencode`), empty
    /// `&&` pieces dropped, query sorted by name then value, a `?` with no
    /// query left dropped, fragment dropped.
    W3lib,
    /// normalize-url's defaults (the npm package, v8): `http` assumed for
    /// inputs without a scheme (`--default-scheme http`), userinfo dropped,
    /// a trailing host dot and one `www.` removed, the path decoded as
    /// `decodeURI` does (`%5B` becomes `[`), `%7E`-style escapes decoded, slashes collapsed except after a scheme inside the path,
    /// `utm_*` parameters removed (in any case, as its `/^utm_\w+/i`),
    /// empty `&&` pieces removed, the query sorted and written as
    /// `URLSearchParams` writes it (`url-search-params`), text fragments and an
    /// empty `#` or `?` removed, the trailing slash removed (the root's
    /// too: `http://example.com` is a key, not a URL), `data:` media
    /// types normalized.
    NormalizeUrl,
}

const SEMANTIC: RuleSet = RuleSet::from_rules(&[Rule::DecodeUnreserved, Rule::UppercasePercent]);

const AGGRESSIVE: RuleSet = SEMANTIC.union(RuleSet::from_rules(&[
    Rule::StripUserinfo,
    Rule::TrimHostDots,
    Rule::StripWww,
    Rule::StripSessionIds,
    Rule::CollapseSlashes,
    Rule::StripTrailingSlash,
    Rule::StripTracking,
    Rule::DropEmptyParams,
    Rule::SortQuery,
    Rule::DropEmptyQuery,
    Rule::DropFragment,
]));

const SAFE_BROWSING: RuleSet = RuleSet::from_rules(&[
    Rule::StripUserinfo,
    Rule::TrimHostDots,
    Rule::DropPort,
    Rule::UnescapePath,
    Rule::CollapseSlashes,
    Rule::DropFragment,
]);

const WAYBACK: RuleSet = RuleSet::from_rules(&[
    Rule::StripUserinfo,
    Rule::TrimHostDots,
    Rule::StripWwwDigits,
    Rule::UnescapePath,
    Rule::StripSessionIds,
    Rule::KeepPathJsessionid,
    Rule::SessionIdsAnywhere,
    Rule::CollapseSlashes,
    Rule::LowercasePath,
    Rule::StripTrailingSlash,
    Rule::UnescapeQuery,
    Rule::LowercaseQuery,
    Rule::SortQuery,
    Rule::SortQueryValues,
    Rule::DropEmptyQuery,
    Rule::DropFragment,
]);

// urlcanon sorts the query as `b'&'.join(sorted(query.split(b'&')))`:
// by the bytes of whole pieces.
const URLCANON_SEMANTIC_PRECISE: RuleSet = SEMANTIC.union(RuleSet::from_rules(&[
    Rule::EncodeBarePercent,
    Rule::EncodeHashSpace,
    Rule::StripUserinfo,
    Rule::TrimHostDots,
    Rule::UnescapePath,
    Rule::UnescapeQuery,
    Rule::EncodeValueEquals,
    Rule::CollapseSlashes,
    Rule::KeepNonspecialSlashes,
    Rule::SortQuery,
    Rule::SortQueryBytes,
]));

// urlcanon.semantic is `semantic_precise.steps + [remove_fragment]`.
const URLCANON_SEMANTIC: RuleSet = URLCANON_SEMANTIC_PRECISE.with(Rule::DropFragment);

// `aggressive` less `strip-tracking` (urlcanon strips no tracking
// parameters), plus urlcanon's own rules.
const URLCANON_AGGRESSIVE: RuleSet =
    AGGRESSIVE
        .without(Rule::StripTracking)
        .union(RuleSet::from_rules(&[
            Rule::UrlcanonSessionIds,
            Rule::ForceHttp,
            Rule::StripWwwDigits,
            Rule::LowercasePath,
            Rule::LowercaseQuery,
            Rule::UnescapePath,
            Rule::UnescapeQuery,
            Rule::EncodeValueEquals,
            Rule::EncodeHashSpace,
            Rule::KeepNonspecialSlashes,
            Rule::SortQueryBytes,
        ]));

const W3LIB: RuleSet = SEMANTIC.union(RuleSet::from_rules(&[
    Rule::DecodePathReserved,
    Rule::FormEncodeQuery,
    Rule::DropEmptyParams,
    Rule::SortQuery,
    Rule::SortQueryValues,
    Rule::DropEmptyQuery,
    Rule::DropFragment,
]));

const NORMALIZE_URL: RuleSet = RuleSet::from_rules(&[
    Rule::StripUserinfo,
    Rule::TrimHostDots,
    Rule::StripWww,
    Rule::StripOneWww,
    Rule::DecodeUriPath,
    Rule::DecodeUnreserved,
    Rule::CollapseSlashes,
    Rule::KeepSchemeSlashes,
    Rule::NormalizeDataUrls,
    Rule::StripTrailingSlash,
    Rule::UrlSearchParams,
    Rule::StripTracking,
    Rule::DropEmptyParams,
    Rule::SortQuery,
    Rule::DropEmptyQuery,
    Rule::StripTextFragment,
    Rule::DropEmptyFragment,
    Rule::StripRootSlash,
]);

impl Profile {
    /// Every profile.
    pub const ALL: [Profile; 10] = [
        Profile::Whatwg,
        Profile::Semantic,
        Profile::Aggressive,
        Profile::SafeBrowsing,
        Profile::Wayback,
        Profile::UrlcanonSemantic,
        Profile::UrlcanonSemanticPrecise,
        Profile::UrlcanonAggressive,
        Profile::W3lib,
        Profile::NormalizeUrl,
    ];

    /// The profile's kebab-case name: the tool it reproduces, where it
    /// reproduces one (`safe-browsing` is also accepted for `google`).
    ///
    /// # Example
    ///
    /// ```
    /// assert_eq!(normurl_canon::Profile::SafeBrowsing.name(), "google");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Profile::Whatwg => "whatwg",
            Profile::Semantic => "semantic",
            Profile::Aggressive => "aggressive",
            Profile::SafeBrowsing => "google",
            Profile::Wayback => "wayback",
            Profile::UrlcanonSemantic => "urlcanon-semantic",
            Profile::UrlcanonSemanticPrecise => "urlcanon-semantic-precise",
            Profile::UrlcanonAggressive => "urlcanon-aggressive",
            Profile::W3lib => "w3lib",
            Profile::NormalizeUrl => "normalize-url",
        }
    }

    /// One line saying what the profile is for.
    ///
    /// # Example
    ///
    /// ```
    /// assert!(normurl_canon::Profile::Whatwg.description().contains("WHATWG"));
    /// ```
    pub const fn description(self) -> &'static str {
        match self {
            Profile::Whatwg => "the WHATWG URL serialization and nothing else",
            Profile::Semantic => {
                "WHATWG plus RFC 3986 normalizations that never change what a server receives"
            }
            Profile::Aggressive => "semantic plus the dedup rules of web archives and crawlers",
            Profile::SafeBrowsing => {
                "Google Safe Browsing canonicalization (v4); also named safe-browsing"
            }
            Profile::Wayback => {
                "webarchive-commons' Wayback/CDX canonicalization (use with --get surt)"
            }
            Profile::UrlcanonSemantic => {
                "urlcanon's semantic, which drops the fragment (with --default-scheme http, as urlcanon)"
            }
            Profile::UrlcanonSemanticPrecise => {
                "urlcanon's semantic_precise, which keeps the fragment (with --default-scheme http)"
            }
            Profile::UrlcanonAggressive => {
                "urlcanon's aggressive (with --default-scheme http, as urlcanon)"
            }
            Profile::W3lib => "w3lib's canonicalize_url with its defaults (Scrapy)",
            Profile::NormalizeUrl => {
                "normalize-url's defaults (npm; with --default-scheme http, as normalize-url)"
            }
        }
    }

    /// The profile's rules.
    pub const fn rules(self) -> RuleSet {
        match self {
            Profile::Whatwg => RuleSet::EMPTY,
            Profile::Semantic => SEMANTIC,
            Profile::Aggressive => AGGRESSIVE,
            Profile::SafeBrowsing => SAFE_BROWSING,
            Profile::Wayback => WAYBACK,
            Profile::UrlcanonSemantic => URLCANON_SEMANTIC,
            Profile::UrlcanonSemanticPrecise => URLCANON_SEMANTIC_PRECISE,
            Profile::UrlcanonAggressive => URLCANON_AGGRESSIVE,
            Profile::W3lib => W3LIB,
            Profile::NormalizeUrl => NORMALIZE_URL,
        }
    }

    /// The tracking parameters `strip-tracking` removes by default:
    /// normalize-url removes `utm_` followed by a word character, in any
    /// case (its `/^utm_\w+/i`); the other profiles take
    /// [`TrackingParams::default`], whose names are case-sensitive.
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_canon::Profile;
    ///
    /// assert!(!Profile::NormalizeUrl.tracking_params().matches(b"fbclid"));
    /// assert!(Profile::NormalizeUrl.tracking_params().matches(b"utm_source"));
    /// assert!(Profile::NormalizeUrl.tracking_params().matches(b"Utm_Source"));
    /// assert!(Profile::Aggressive.tracking_params().matches(b"fbclid"));
    /// assert!(!Profile::Aggressive.tracking_params().matches(b"Utm_Source"));
    /// ```
    pub fn tracking_params(self) -> TrackingParams {
        match self {
            Profile::NormalizeUrl => {
                let mut utm = TrackingParams::empty();
                utm.add_word_prefix_any_case("utm_");
                utm
            }
            _ => TrackingParams::default(),
        }
    }

    /// Looks a profile up by its [name](Profile::name).
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_canon::Profile;
    ///
    /// assert_eq!(Profile::from_name("wayback"), Some(Profile::Wayback));
    /// assert_eq!(Profile::from_name("safe-browsing"), Some(Profile::SafeBrowsing));
    /// ```
    pub fn from_name(name: &str) -> Option<Profile> {
        // The name `google` had before profiles were named after tools.
        if name == "safe-browsing" {
            return Some(Profile::SafeBrowsing);
        }
        Profile::ALL.into_iter().find(|p| p.name() == name)
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Profile {
    type Err = ConfigError;

    fn from_str(s: &str) -> Result<Profile, ConfigError> {
        Profile::from_name(s).ok_or_else(|| ConfigError::UnknownProfile(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aggressive_contains_semantic() {
        let semantic = Profile::Semantic.rules();
        let aggressive = Profile::Aggressive.rules();
        assert_eq!(aggressive.union(semantic), aggressive);
    }

    #[test]
    fn names_round_trip() {
        for p in Profile::ALL {
            assert_eq!(p.name().parse::<Profile>(), Ok(p));
        }
    }
}
