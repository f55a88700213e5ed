//! `domain-params`: query parameters stripped, or kept, per domain, from a
//! file of rules (`--param-rules`).
//!
//! Two formats are read. Our line format, one rule a line, `#` starting a
//! comment:
//!
//! ```text
//! *                strip utm_*,gclid   # every domain
//! example.com      strip ref,src_*     # example.com and its subdomains
//! shop.example.com keep id,page        # only these stay
//! partner.com      strip               # nothing is stripped here
//! ```
//!
//! and DuckDuckGo's privacy configuration JSON as it is
//! (duckduckgo/privacy-configuration, Apache-2.0):
//! `features.trackingParameters.settings.parameters` are stripped on
//! every domain, and the domains of `features.trackingParameters.exceptions`
//! and of `unprotectedTemporary` strip nothing.
//!
//! A domain matches itself and its subdomains; of the rules whose domain
//! matches a URL's host, the most specific (longest) one alone applies,
//! so an exception needs no names.

use super::tracking::TrackingParams;
use crate::error::ConfigError;

/// What a domain's rule does with parameters whose decoded name matches
/// its list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Action {
    /// Remove the matching parameters (none, for an empty list).
    Strip(TrackingParams),
    /// Remove every other parameter.
    Keep(TrackingParams),
}

impl Action {
    /// Whether a parameter of decoded name `name` goes.
    pub(crate) fn removes(&self, name: &[u8]) -> bool {
        match self {
            Action::Strip(list) => list.matches(name),
            Action::Keep(list) => !list.matches(name),
        }
    }
}

/// The rules of `--param-rules` files: a domain (empty for `*`, every
/// domain) and its action, at most one per domain.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct DomainParams {
    rules: Vec<(Box<[u8]>, Action)>,
}

impl DomainParams {
    /// The action of the most specific rule whose domain is `host` or a
    /// parent domain of it.
    pub(crate) fn lookup(&self, host: &[u8]) -> Option<&Action> {
        self.rules
            .iter()
            .filter(|(domain, _)| covers(domain, host))
            .max_by_key(|(domain, _)| domain.len())
            .map(|(_, action)| action)
    }

    /// Adds the rules of a file's text: DuckDuckGo's JSON when it starts
    /// with `{`, else the line format. Errors name the 1-based line.
    pub(crate) fn add_text(&mut self, text: &str) -> Result<(), ConfigError> {
        if text.trim_start().starts_with('{') {
            return self.add_duckduckgo(text);
        }
        for (i, line) in text.lines().enumerate() {
            self.add_line(line)
                .map_err(|why| ConfigError::BadParamRule(i + 1, why))?;
        }
        Ok(())
    }

    /// One line of the line format: `DOMAIN strip|keep [NAME,...]`.
    fn add_line(&mut self, line: &str) -> Result<(), String> {
        let line = line.split('#').next().unwrap_or("");
        let mut words = line.split_whitespace();
        let Some(domain) = words.next() else {
            return Ok(());
        };
        let names: Vec<&str> = words.collect();
        let (keep, names) = match names.split_first() {
            Some((&"strip", names)) => (false, names),
            Some((&"keep", names)) => (true, names),
            _ => {
                return Err(format!(
                    "{:?} is not DOMAIN strip|keep NAME,..., e.g. example.com strip utm_*,ref",
                    line.trim()
                ))
            }
        };
        let names: Vec<&str> = names
            .iter()
            .flat_map(|n| n.split(','))
            .filter(|n| !n.is_empty())
            .collect();
        if keep && names.is_empty() {
            return Err(format!(
                "{domain}: keep needs the names it keeps (with none, every parameter would go)"
            ));
        }
        self.add(domain, keep, &names)
    }

    /// Adds names to `domain`'s rule, creating it.
    fn add(&mut self, domain: &str, keep: bool, names: &[&str]) -> Result<(), String> {
        let key = domain_key(domain)?;
        let at = match self.rules.iter().position(|(d, _)| *d == key) {
            Some(at) => at,
            None => {
                let list = TrackingParams::empty();
                let action = if keep {
                    Action::Keep(list)
                } else {
                    Action::Strip(list)
                };
                self.rules.push((key, action));
                self.rules.len() - 1
            }
        };
        let list = match (&mut self.rules[at].1, keep) {
            (Action::Strip(list), false) | (Action::Keep(list), true) => list,
            _ => return Err(format!("{domain} has both a strip and a keep rule")),
        };
        for name in names {
            list.add(name).map_err(|e| e.to_string())?;
        }
        Ok(())
    }

    /// DuckDuckGo's privacy configuration.
    fn add_duckduckgo(&mut self, text: &str) -> Result<(), ConfigError> {
        let json: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| ConfigError::BadParamRule(e.line(), format!("not JSON: {e}")))?;
        let feature = &json["features"]["trackingParameters"];
        let bad = |what: &str| ConfigError::BadParamRule(1, format!("no {what} in the JSON"));
        let names = feature["settings"]["parameters"]
            .as_array()
            .ok_or_else(|| bad("features.trackingParameters.settings.parameters array"))?;
        let mut list = Vec::new();
        for name in names {
            // DuckDuckGo's names are literal: a `*` in one is no pattern.
            let name = name.as_str().filter(|n| !n.is_empty() && !n.contains('*'));
            list.push(name.ok_or_else(|| bad("name without *, as a string"))?);
        }
        let exceptions = feature["exceptions"].as_array().into_iter().flatten();
        let temporary = json["unprotectedTemporary"]
            .as_array()
            .into_iter()
            .flatten();
        let domains: Vec<&str> = exceptions
            .chain(temporary)
            .filter_map(|e| e["domain"].as_str())
            .collect();
        let fail = |why| ConfigError::BadParamRule(1, why);
        self.add("*", false, &list).map_err(fail)?;
        for domain in domains {
            self.add(domain, false, &[]).map_err(fail)?;
        }
        Ok(())
    }
}

/// The key of `domain`: lowercased, without outer dots; `*` is the empty
/// key, which covers every host.
fn domain_key(domain: &str) -> Result<Box<[u8]>, String> {
    if domain == "*" {
        return Ok(Box::default());
    }
    let key = domain.trim_matches('.').to_ascii_lowercase();
    if key.is_empty() || key.contains(['/', ':', '*', '?', '#']) {
        return Err(format!(
            "{domain:?} is not a domain (example.com) or * (every domain)"
        ));
    }
    Ok(key.into_bytes().into())
}

/// Whether the rule of `domain` covers `host`: the same domain, a
/// subdomain of it, or any host for the empty key.
fn covers(domain: &[u8], host: &[u8]) -> bool {
    domain.is_empty()
        || host.ends_with(domain)
            && (host.len() == domain.len() || host[host.len() - domain.len() - 1] == b'.')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(text: &str) -> DomainParams {
        let mut rules = DomainParams::default();
        rules.add_text(text).unwrap();
        rules
    }

    fn removes(rules: &DomainParams, host: &str, name: &str) -> bool {
        rules
            .lookup(host.as_bytes())
            .is_some_and(|a| a.removes(name.as_bytes()))
    }

    #[test]
    fn subdomains_match_and_the_most_specific_wins() {
        let r = rules(
            "* strip utm_*\nexample.com strip ref # ours\nshop.example.com keep id,page\n\npartner.com strip\n",
        );
        assert!(removes(&r, "other.org", "utm_x") && !removes(&r, "other.org", "ref"));
        assert!(removes(&r, "example.com", "ref") && removes(&r, "a.example.com", "ref"));
        // The most specific rule alone: example.com's, not *'s.
        assert!(!removes(&r, "example.com", "utm_x"));
        assert!(!removes(&r, "fooexample.com", "ref"));
        assert!(removes(&r, "x.shop.example.com", "ref"));
        assert!(!removes(&r, "x.shop.example.com", "page"));
        assert!(!removes(&r, "partner.com", "utm_source"));
    }

    #[test]
    fn globs_and_repeated_domains() {
        let r = rules("A.com. strip *_id\na.com strip x\nb.com keep p_*\nb.com keep q");
        assert!(removes(&r, "a.com", "x_id") && removes(&r, "a.com", "x"));
        assert!(!removes(&r, "b.com", "p_1") && !removes(&r, "b.com", "q"));
        assert!(removes(&r, "b.com", "r"));
        assert_eq!(rules("").lookup(b"a.com"), None);
    }

    #[test]
    fn bad_lines_name_their_number() {
        for (text, line, needle) in [
            ("a.com strip x\nb.com drop y", 2, "not DOMAIN"),
            ("a.com", 1, "not DOMAIN"),
            ("\n\na/b strip x", 3, "not a domain"),
            ("a.com strip x\na.com keep y", 2, "both"),
            ("a.com keep", 1, "keep needs"),
            ("a.com strip **", 1, "empty parameter name"),
            ("{\n\"features\": [}", 2, "not JSON"),
            ("{}", 1, "settings.parameters"),
        ] {
            let err = DomainParams::default().add_text(text).unwrap_err();
            let ConfigError::BadParamRule(at, _) = &err else {
                panic!("{err:?}")
            };
            assert_eq!(*at, line, "{text}: {err}");
            assert!(err.to_string().contains(needle), "{text}: {err}");
        }
    }

    #[test]
    fn duckduckgo_json() {
        let r = rules(
            r#"{"features": {"trackingParameters": {"state": "enabled",
                "exceptions": [{"domain": "allowlisted.com", "reason": "breakage"}],
                "settings": {"parameters": ["gclid", "bad."]}}},
               "unprotectedTemporary": [{"domain": "temp.org"}]}"#,
        );
        assert!(removes(&r, "example.com", "gclid") && removes(&r, "example.com", "bad."));
        assert!(!removes(&r, "example.com", "badx"));
        assert!(!removes(&r, "sub.allowlisted.com", "gclid"));
        assert!(!removes(&r, "temp.org", "gclid"));
    }
}
