//! `normurl inspect URL [--base URL]`: one URL's components, as JSON.

use std::io::Write;

use normurl::normalize::Invalid;
use normurl::Url;

use super::json::Object;
use super::Failure;

/// Writes the JSON for `input` to `out`. Returns whether the URL is valid
/// (an invalid one gets `error` and `message` members instead).
pub fn run(input: &str, base: Option<&str>, out: &mut dyn Write) -> Result<bool, Failure> {
    let (json, valid) = match parse(input, base) {
        Ok(url) => (components(&url), true),
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

/// The members of the URL interface, in the order of the standard's IDL.
fn components(url: &Url) -> String {
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
    o.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(input: &str, base: Option<&str>) -> (serde_json::Value, bool) {
        let mut out = Vec::new();
        let valid = run(input, base, &mut out).unwrap();
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
}
