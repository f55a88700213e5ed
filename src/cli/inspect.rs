//! `normurl inspect URL [--base URL] [--profile P] [--rules E] [--get WHAT]`:
//! one URL's components, as JSON, and with a profile or rules the URL after
//! each rule that changed it.

use std::io::Write;

use normurl::canon::{Canonicalizer, Profile, Rule, RuleSet, Scratch};
use normurl::component::{Fields, PublicSuffixList, Template};
use normurl::normalize::Invalid;
use normurl::Url;

use super::json::Object;
use super::Failure;

/// What `inspect` shows beyond the parsed URL's components.
#[derive(Debug, Default)]
pub struct Canon {
    /// The rules of `--profile` and `--rules`, when either is given.
    pub rules: Option<RuleSet>,
    /// `--get`: a component or template of the canonical URL.
    pub get: Option<Template>,
}

/// Writes the JSON for `input` to `out`. Returns whether the URL is valid
/// (an invalid one gets `error` and `message` members instead).
pub fn run(
    input: &str,
    base: Option<&str>,
    canon: &Canon,
    out: &mut dyn Write,
) -> Result<bool, Failure> {
    let (json, valid) = match parse(input, base) {
        Ok(url) => (components(&url, canon), true),
        Err(why) => {
            let mut o = Object::new("  ");
            o.string("input", input);
            if let Some(base) = base {
                o.string("base", base);
            }
            o.string("error", why.name())
                .string("message", &why.to_string());
            (o.finish(), false)
        }
    };
    writeln!(out, "{json}")
        .and_then(|()| out.flush())
        .map_err(|source| Failure::Io {
            path: "<stdout>".to_string(),
            source,
        })?;
    Ok(valid)
}

fn parse(input: &str, base: Option<&str>) -> Result<Url, Invalid> {
    match base {
        None => Url::parse(input).map_err(Invalid::Url),
        Some(b) => {
            let base = Url::parse(b).map_err(Invalid::Base)?;
            Url::parse_with_base(input, &base).map_err(Invalid::Url)
        }
    }
}

/// The members of the URL interface, in the order of the standard's IDL;
/// then `rules` (each rule that changed the URL, with the URL after it),
/// `canonical` and `get`.
fn components(url: &Url, canon: &Canon) -> String {
    let mut o = Object::new("  ");
    o.string("href", url.href())
        .string("protocol", url.protocol())
        .string("username", url.username())
        .string("password", url.password())
        .string("host", url.host())
        .string("hostname", url.hostname())
        .string("port", url.port())
        .string("pathname", url.pathname())
        .string("search", url.search())
        .string("hash", url.hash())
        .string("origin", &url.origin());
    let mut scratch = Scratch::new();
    let mut canonical = url.clone();
    if let Some(rules) = canon.rules {
        let (steps, last) = steps(url, rules, &mut scratch);
        o.object("rules", steps);
        // The output of rules is a valid URL.
        canonical = Url::parse(&last).unwrap_or(canonical);
        o.string("canonical", canonical.href());
    }
    if let Some(t) = &canon.get {
        let mut value = Vec::new();
        t.render(
            &Fields::new(&canonical, PublicSuffixList::bundled()),
            &mut scratch,
            &mut value,
        );
        o.string("get", &String::from_utf8_lossy(&value));
    }
    o.finish()
}

/// Applies `rules` one more at a time, in the order they run (that of
/// `normurl rules`): the rules that changed the URL, each with the URL
/// after the rules up to it; and the URL after all of them.
fn steps(url: &Url, rules: RuleSet, scratch: &mut Scratch) -> (Object, String) {
    let mut steps = Object::new("");
    let mut before = url.href().to_owned();
    let mut upto = RuleSet::EMPTY;
    for rule in Rule::ALL.into_iter().filter(|&r| rules.contains(r)) {
        upto.insert(rule);
        let canon = Canonicalizer::builder(Profile::Whatwg)
            .rule_set(upto)
            .build();
        let mut out = Vec::new();
        canon.apply(url, scratch, &mut out);
        let after = String::from_utf8_lossy(&out).into_owned();
        if after != before {
            steps.string(rule.name(), &after);
            before = after;
        }
    }
    (steps, before)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(input: &str, base: Option<&str>) -> (serde_json::Value, bool) {
        json_with(input, base, &Canon::default())
    }

    fn json_with(input: &str, base: Option<&str>, canon: &Canon) -> (serde_json::Value, bool) {
        let mut out = Vec::new();
        let valid = run(input, base, canon, &mut out).unwrap();
        (serde_json::from_slice(&out).unwrap(), valid)
    }

    #[test]
    fn components_and_errors() {
        let (v, valid) = json("HTTP://u:p@EXAMPLE.com:8080/a/../b?q#f", None);
        assert!(valid);
        assert_eq!(v["href"], "http://u:p@example.com:8080/b?q#f");
        assert_eq!(v["host"], "example.com:8080");
        assert_eq!(v["origin"], "http://example.com:8080");
        let (v, _) = json("../x\"y", Some("https://h.example/a/b/"));
        assert_eq!(v["pathname"], "/a/x%22y");
        let (v, valid) = json("nope", None);
        assert!(!valid);
        assert_eq!(v["error"], "relative-without-base");
        let (v, _) = json("x", Some("also nope"));
        assert_eq!(v["error"], "invalid-base");
    }

    #[test]
    fn rules_step_by_step() {
        let canon = Canon {
            rules: Some(Profile::Aggressive.rules()),
            get: Some("{registered_domain} {search}".parse().unwrap()),
        };
        let (v, valid) = json_with("HTTP://www.Example.com/a/?utm_source=x&b=1#f", None, &canon);
        assert!(valid);
        assert_eq!(v["href"], "http://www.example.com/a/?utm_source=x&b=1#f");
        let steps = &v["rules"];
        assert_eq!(steps.as_object().unwrap().len(), 4, "{steps}");
        assert_eq!(
            steps["strip-www"],
            "http://example.com/a/?utm_source=x&b=1#f"
        );
        assert_eq!(
            steps["strip-trailing-slash"],
            "http://example.com/a?utm_source=x&b=1#f"
        );
        assert_eq!(steps["strip-tracking"], "http://example.com/a?b=1#f");
        assert_eq!(steps["drop-fragment"], "http://example.com/a?b=1");
        // In the order they run (serde_json's map is sorted: look at the text).
        let mut out = Vec::new();
        run(
            "HTTP://www.Example.com/a/?utm_source=x&b=1#f",
            None,
            &canon,
            &mut out,
        )
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        let at = |name: &str| text.find(&format!("\"{name}\":")).unwrap();
        assert!(at("strip-www") < at("strip-trailing-slash"));
        assert!(at("strip-tracking") < at("drop-fragment"));
        assert_eq!(v["canonical"], "http://example.com/a?b=1");
        assert_eq!(v["get"], "example.com ?b=1");
        // Without rules: no steps, the components of the parsed URL.
        let canon = Canon {
            rules: None,
            get: Some("host".parse().unwrap()),
        };
        let (v, _) = json_with("http://www.example.com:81/", None, &canon);
        assert!(v.get("rules").is_none());
        assert_eq!(v["get"], "www.example.com:81");
    }
}
