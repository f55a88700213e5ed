//! `normurl inspect URL [--base URL] [--profile P] [--rules E] [--get WHAT]
//! [rule options]`: one URL's components, as JSON, and with a profile,
//! rules or rule options the URL after each rule that changed it, then
//! after `--rewrite`.

use std::borrow::Cow;
use std::io::Write;

use normurl::canon::{with_default_scheme, CanonicalizerBuilder, Rule, RuleSet, Scratch};
use normurl::component::{Fields, PublicSuffixList};
use normurl::normalize::{Invalid, Rewrites};
use normurl::Url;

use super::config::inspect::Canon;
use super::json::Object;
use super::Failure;

/// Writes the JSON for `input` to `out`. Returns whether the URL is valid
/// (an invalid one gets `error` and `message` members instead).
pub fn run(
    input: &str,
    base: Option<&str>,
    canon: &Canon,
    out: &mut dyn Write,
) -> Result<bool, Failure> {
    let mut buf = String::new();
    let text = match canon.default_scheme {
        Some(scheme) => with_default_scheme(input, scheme.name(), &mut buf),
        None => input,
    };
    let (json, valid) = match parse(text, base) {
        Ok(url) => components(&url, canon),
        Err(why) => {
            let mut o = Object::new("  ");
            o.string("input", input);
            if let Some(base) = base {
                o.string("base", base);
            }
            error(&mut o, why);
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

fn error(o: &mut Object, why: Invalid) {
    o.string("error", why.name())
        .string("message", &why.to_string());
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
/// then `rules` (each rule that changed the URL, with the URL after it,
/// and `rewrite`), `canonical` and `get`; and whether the URL is valid (a
/// rewrite may make it no URL: then `error` and `message` end the object).
fn components(url: &Url, canon: &Canon) -> (String, bool) {
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
    if let Some(builder) = &canon.builder {
        let (mut steps, last) = steps(url, builder, &mut scratch);
        let rewritten = canon.rewrites.as_deref().map(|r| rewrite(r, &last));
        match rewritten {
            Some(Rewritten::Url(u)) => {
                steps.string("rewrite", u.href());
                canonical = u;
            }
            Some(Rewritten::NoUrl(text)) => {
                steps.string("rewrite", &text);
                o.object("rules", steps);
                error(&mut o, Invalid::Rewrite);
                return (o.finish(), false);
            }
            // The output of rules is a valid URL.
            _ => canonical = Url::parse(&last).unwrap_or(canonical),
        }
        o.object("rules", steps);
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
    (o.finish(), true)
}

/// What `--rewrite` made of the canonical URL.
enum Rewritten {
    /// No rule matched.
    Unchanged,
    /// A URL, parsed (the normalizer writes its serialization).
    Url(Url),
    /// Text that is no URL (`rewrite-invalid`).
    NoUrl(String),
}

fn rewrite(rewrites: &Rewrites, canonical: &str) -> Rewritten {
    let Cow::Owned(changed) = rewrites.apply(canonical.as_bytes()) else {
        return Rewritten::Unchanged;
    };
    let text = String::from_utf8_lossy(&changed).into_owned();
    match Url::parse(&text) {
        Ok(url) => Rewritten::Url(url),
        // A key (strip-scheme) was no URL before the rewrite either.
        Err(_) if Url::parse(canonical).is_err() => Rewritten::Unchanged,
        Err(_) => Rewritten::NoUrl(text),
    }
}

/// Applies the rules of `builder` one more at a time, in the order they
/// run (that of `normurl rules`), with its lists: the rules that changed
/// the URL, each with the URL after the rules up to it; and the URL after
/// all of them.
fn steps(url: &Url, builder: &CanonicalizerBuilder, scratch: &mut Scratch) -> (Object, String) {
    let rules = builder.build().rules();
    let mut steps = Object::new("");
    let mut before = url.href().to_owned();
    let mut upto = RuleSet::EMPTY;
    for rule in Rule::ALL.into_iter().filter(|&r| rules.contains(r)) {
        upto.insert(rule);
        let canon = builder.clone().rule_set(upto).build();
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
    use normurl::canon::{Canonicalizer, Profile};

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
            builder: Some(Canonicalizer::builder(Profile::Aggressive)),
            get: Some("{registered_domain} {search}".parse().unwrap()),
            ..Canon::default()
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
            get: Some("host".parse().unwrap()),
            ..Canon::default()
        };
        let (v, _) = json_with("http://www.example.com:81/", None, &canon);
        assert!(v.get("rules").is_none());
        assert_eq!(v["get"], "www.example.com:81");
    }
}
