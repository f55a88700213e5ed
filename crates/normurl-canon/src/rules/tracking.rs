//! Which query parameters the `strip-tracking` rule removes.

use super::glob;
use crate::error::ConfigError;
use crate::shape::ShapeFilter;

/// DuckDuckGo's tracking parameters (duckduckgo/privacy-configuration,
/// features/tracking-parameters.json @58293df, Apache-2.0). The `utm_`
/// prefix is added separately, as a pattern.
const DUCKDUCKGO: [&str; 25] = [
    "utm_source",
    "utm_medium",
    "utm_campaign",
    "utm_term",
    "utm_content",
    "gclid",
    "fbclid",
    "fb_action_ids",
    "fb_action_types",
    "fb_source",
    "fb_ref",
    "ga_source",
    "ga_medium",
    "ga_term",
    "ga_content",
    "ga_campaign",
    "ga_place",
    "action_object_map",
    "action_type_map",
    "action_ref_map",
    "gs_l",
    "mkt_tok",
    "hmb_campaign",
    "hmb_source",
    "hmb_medium",
];

/// The domains on which DuckDuckGo does not strip, each with the issue
/// that says why (the same file). Stripping there broke the sites.
const DUCKDUCKGO_EXCEPTIONS: [&str; 5] = [
    "axs.com",                // privacy-configuration#1712
    "urldefense.com",         // privacy-configuration#2477
    "centerwellpharmacy.com", // privacy-configuration#2479
    "go365.com",              // privacy-configuration#2479
    "humana.com",             // privacy-configuration#2479
];

/// A list of tracking parameter names and prefixes, plus domains where they
/// are kept.
///
/// Names match the parameter name as the form-urlencoded parser decodes it
/// (`utm%5Fsource` is `utm_source`), case-sensitively, as DuckDuckGo does:
/// `FBCLID` is not `fbclid`. A pattern ending in `*` matches names that
/// start with the rest; any other `*` makes it a glob, where `*` matches
/// any run of bytes (`*_ga`, `a*_id`). The one exception is the list of
/// the `normalize-url` profile
/// ([`Profile::tracking_params`](crate::profile::Profile::tracking_params)),
/// whose `utm_` prefix matches in any case, as normalize-url's
/// `/^utm_\w+/i` does.
///
/// # Example
///
/// ```
/// use normurl_canon::TrackingParams;
///
/// let mut params = TrackingParams::default();
/// assert!(params.matches(b"utm_anything"));
/// assert!(params.matches(b"fbclid"));
/// assert!(!params.matches(b"FBCLID"));
/// params.add_list("ref, mc_*")?;
/// assert!(params.matches(b"mc_eid"));
/// assert!(params.is_exempt(b"www.axs.com"));
/// # Ok::<(), normurl_canon::ConfigError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrackingParams {
    /// Sorted, deduplicated exact names.
    exact: Vec<Box<[u8]>>,
    /// Prefixes (patterns ending in `*`, without it).
    prefixes: Vec<Box<[u8]>>,
    /// Other patterns with a `*`, matched by [`glob::matches`].
    globs: Vec<Box<[u8]>>,
    /// Domains (and their subdomains) where nothing is stripped.
    exempt: Vec<Box<[u8]>>,
    /// The shapes (first and last bytes, length) of the exact names:
    /// most parameter names share a first byte with some tracking name,
    /// few also its shape.
    exact_shapes: ShapeFilter,
    /// The first bytes of the prefixes.
    prefix_firsts: [bool; 256],
    /// ASCII-lowercase prefixes matched in any case and only before a
    /// word byte (see [`TrackingParams::add_word_prefix_any_case`]).
    any_case: Vec<Box<[u8]>>,
}

impl Default for TrackingParams {
    /// `utm_*`, DuckDuckGo's list and DuckDuckGo's exempt domains.
    fn default() -> TrackingParams {
        let mut params = TrackingParams::empty();
        for name in DUCKDUCKGO {
            params.add(name).expect("the built-in names are not empty");
        }
        params
            .add("utm_*")
            .expect("the built-in prefix is not empty");
        for domain in DUCKDUCKGO_EXCEPTIONS {
            params.exempt_domain(domain);
        }
        params
    }
}

impl TrackingParams {
    /// A list that matches nothing.
    pub fn empty() -> TrackingParams {
        TrackingParams {
            exact: Vec::new(),
            prefixes: Vec::new(),
            globs: Vec::new(),
            exempt: Vec::new(),
            exact_shapes: ShapeFilter::new(),
            prefix_firsts: [false; 256],
            any_case: Vec::new(),
        }
    }

    /// Adds a prefix that matches in any ASCII case, and only when a word
    /// byte (`A-Z a-z 0-9 _`) follows it: normalize-url's `/^utm_\w+/i`
    /// for `utm_` (`Utm_Source` matches, `utm_` and `utm_-` do not).
    pub(crate) fn add_word_prefix_any_case(&mut self, prefix: &str) {
        let prefix: Box<[u8]> = prefix.to_ascii_lowercase().into_bytes().into();
        if !prefix.is_empty() && !self.any_case.contains(&prefix) {
            self.any_case.push(prefix);
        }
    }

    /// The prefixes of [`TrackingParams::add_word_prefix_any_case`],
    /// lowercase.
    pub(crate) fn any_case_prefixes(&self) -> impl Iterator<Item = &[u8]> {
        self.any_case.iter().map(|p| &p[..])
    }

    /// Adds one name, or a prefix written `prefix*`.
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_canon::{ConfigError, TrackingParams};
    ///
    /// let mut params = TrackingParams::empty();
    /// params.add("bad.")?;
    /// assert!(params.matches(b"bad."));
    /// assert!(!params.matches(b"badx"), "names are not patterns");
    /// assert_eq!(params.add("*"), Err(ConfigError::EmptyParamName));
    /// # Ok::<(), ConfigError>(())
    /// ```
    pub fn add(&mut self, pattern: &str) -> Result<(), ConfigError> {
        if glob::is_glob(pattern.as_bytes()) {
            return self.add_glob(pattern);
        }
        let (list, name) = match pattern.strip_suffix('*') {
            Some(prefix) => (&mut self.prefixes, prefix),
            None => (&mut self.exact, pattern),
        };
        if name.is_empty() {
            return Err(ConfigError::EmptyParamName);
        }
        let name: Box<[u8]> = name.as_bytes().into();
        if pattern.ends_with('*') {
            self.prefix_firsts[usize::from(name[0])] = true;
        } else {
            self.exact_shapes.insert(&name);
        }
        if let Err(at) = list.binary_search(&name) {
            list.insert(at, name);
        }
        Ok(())
    }

    /// Adds a pattern with a `*` before its end.
    fn add_glob(&mut self, pattern: &str) -> Result<(), ConfigError> {
        if pattern.bytes().all(|b| b == b'*') {
            return Err(ConfigError::EmptyParamName);
        }
        let pattern: Box<[u8]> = pattern.as_bytes().into();
        if !self.globs.contains(&pattern) {
            self.globs.push(pattern);
        }
        Ok(())
    }

    /// Adds every name of a list separated by commas, whitespace or
    /// newlines; `#` starts a comment that runs to the end of the line. This
    /// reads both `--strip-params a,b` and a `@FILE` with one name a line.
    ///
    /// # Example
    ///
    /// ```
    /// let mut params = normurl_canon::TrackingParams::empty();
    /// params.add_list("ref # from newsletters\nsrc, campaign_*")?;
    /// assert!(params.matches(b"ref") && params.matches(b"src") && params.matches(b"campaign_x"));
    /// # Ok::<(), normurl_canon::ConfigError>(())
    /// ```
    pub fn add_list(&mut self, list: &str) -> Result<(), ConfigError> {
        for line in list.lines() {
            let line = line.split('#').next().unwrap_or("");
            for name in line.split(|c: char| c == ',' || c.is_whitespace()) {
                if !name.is_empty() {
                    self.add(name)?;
                }
            }
        }
        Ok(())
    }

    /// Keeps tracking parameters on `domain` and its subdomains. The domain
    /// is compared in its ASCII (punycode) form, lowercased.
    pub fn exempt_domain(&mut self, domain: &str) {
        let domain: Box<[u8]> = domain
            .trim_matches('.')
            .to_ascii_lowercase()
            .into_bytes()
            .into();
        if !domain.is_empty() && !self.exempt.contains(&domain) {
            self.exempt.push(domain);
        }
    }

    /// Whether the decoded parameter name `name` is a tracking parameter.
    #[inline]
    pub fn matches(&self, name: &[u8]) -> bool {
        // Most parameters are not tracking parameters; their shape
        // usually says so without a comparison.
        let Some(&first) = name.first() else {
            return false;
        };
        // Prefixes first: `utm_*` also covers the `utm_` names of the exact
        // list, the tracking parameters crawled URLs have most, with one
        // compare instead of a binary search.
        (self.prefix_firsts[usize::from(first)]
            && self.prefixes.iter().any(|p| name.starts_with(p)))
            || (self.exact_shapes.may_contain(name)
                && self.exact.binary_search_by(|e| (**e).cmp(name)).is_ok())
            || (!self.globs.is_empty() && self.globs.iter().any(|g| glob::matches(g, name)))
            || (!self.any_case.is_empty() && self.any_case.iter().any(|p| word_prefix(p, name)))
    }

    /// Whether `host` (a serialized host) is an exempt domain or a
    /// subdomain of one.
    pub fn is_exempt(&self, host: &[u8]) -> bool {
        self.exempt.iter().any(|d| {
            host.ends_with(d) && (host.len() == d.len() || host[host.len() - d.len() - 1] == b'.')
        })
    }

    /// The names and prefixes, each with whether it is a prefix. A glob
    /// counts as the prefix before its first `*` (empty for `*_ga`).
    pub(crate) fn patterns(&self) -> impl Iterator<Item = (&[u8], bool)> {
        let names = self.exact.iter().map(|name| (&name[..], false));
        let globs = self.globs.iter().map(|g| (glob::literal_prefix(g), true));
        names
            .chain(self.prefixes.iter().map(|prefix| (&prefix[..], true)))
            .chain(globs)
    }

    /// Whether the list matches nothing (then `strip-tracking` is free).
    pub fn is_empty(&self) -> bool {
        self.exact.is_empty()
            && self.prefixes.is_empty()
            && self.globs.is_empty()
            && self.any_case.is_empty()
    }
}

/// Whether `name` starts with the lowercase `prefix` in any ASCII case and
/// a word byte follows (the `\w+` of a JavaScript regex without the `u`
/// flag: ASCII letters, digits and `_`).
fn word_prefix(prefix: &[u8], name: &[u8]) -> bool {
    name.len() > prefix.len()
        && name[..prefix.len()].eq_ignore_ascii_case(prefix)
        && (name[prefix.len()].is_ascii_alphanumeric() || name[prefix.len()] == b'_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_has_the_duckduckgo_list_and_utm_prefix() {
        let params = TrackingParams::default();
        for name in DUCKDUCKGO {
            assert!(params.matches(name.as_bytes()), "{name}");
        }
        assert!(params.matches(b"utm_id"));
        assert!(!params.matches(b"utm"));
        assert!(!params.matches(b"fbclid1"));
        assert!(!params.matches(b""));
    }

    /// `matches` with no filters: the reference.
    fn naive(params: &TrackingParams, name: &[u8]) -> bool {
        params.exact.iter().any(|e| **e == *name)
            || params.prefixes.iter().any(|p| name.starts_with(p))
            || params.globs.iter().any(|g| glob::matches(g, name))
    }

    #[test]
    fn filters_never_reject_a_match() {
        let mut params = TrackingParams::default();
        let long = "x".repeat(70);
        params
            .add_list(&format!("{long}, {long}y*, a, b_*"))
            .unwrap();
        let mut names: Vec<Vec<u8>> = Vec::new();
        for name in params.exact.iter().chain(params.prefixes.iter()) {
            // The name, one byte shorter and longer, with its last byte changed.
            names.push(name.to_vec());
            names.push(name[..name.len() - 1].to_vec());
            names.push([&name[..], b"z"].concat());
            let mut changed = name.to_vec();
            *changed.last_mut().unwrap() ^= 1;
            names.push(changed);
        }
        names.push(format!("{long}x").into_bytes());
        for name in &names {
            assert_eq!(
                params.matches(name),
                naive(&params, name),
                "{:?}",
                String::from_utf8_lossy(name)
            );
        }
        assert!(params.matches(long.as_bytes()) && params.matches(format!("{long}yz").as_bytes()));
    }

    #[test]
    fn exemption_is_by_label() {
        let params = TrackingParams::default();
        assert!(params.is_exempt(b"axs.com"));
        assert!(params.is_exempt(b"tickets.axs.com"));
        assert!(!params.is_exempt(b"faxs.com"));
        assert!(!params.is_exempt(b"axs.com.evil"));
    }

    #[test]
    fn word_prefixes_match_in_any_case_before_a_word_byte() {
        let mut params = TrackingParams::empty();
        params.add_word_prefix_any_case("UTM_");
        for name in [
            "utm_source",
            "Utm_Source",
            "UTM_x",
            "utm_1",
            "utm__",
            "utm_a-b",
        ] {
            assert!(params.matches(name.as_bytes()), "{name}");
        }
        for name in ["utm_", "utm_-", "utm_\u{e9}", "xutm_a", "utm", "utmx_a"] {
            assert!(!params.matches(name.as_bytes()), "{name}");
        }
        assert!(!params.is_empty());
    }

    #[test]
    fn globs_match_anywhere() {
        let mut params = TrackingParams::empty();
        params.add_list("*_ga, a*_id").unwrap();
        assert!(params.matches(b"_ga") && params.matches(b"x_ga"));
        assert!(params.matches(b"a_id") && params.matches(b"ab_id"));
        assert!(!params.matches(b"x_gax") && !params.matches(b"b_id"));
        assert_eq!(params.add("**"), Err(ConfigError::EmptyParamName));
        assert!(!params.is_empty());
        let prefixes: Vec<_> = params.patterns().filter(|p| p.1).map(|p| p.0).collect();
        assert_eq!(prefixes, [&b""[..], b"a"]);
    }
}
