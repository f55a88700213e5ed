//! `unwrap-redirects`: a URL of a known redirector (a search engine's or a
//! social network's link wrapper, an AMP cache) is replaced by the URL it
//! carries, without fetching anything.
//!
//! The built-in table is ours, written after medialab/ural at fab05af
//! (GPL-3.0; the patterns, not the code): `ural/google.py`
//! (`is_google_link`: a host with `google.` and the path `/url`; the
//! target in `url`, and Google's links also use `q`), `ural/facebook.py`
//! (`is_facebook_link`: a host with `.facebook.` and the path `/l.php`;
//! the target in `u`) and `ural/infer_redirection.py`'s redirection
//! domains (`.ampproject.org/c/`, `/v/`, `/c/s/`; `bc.marfeelcache.com/amp/`;
//! `bc.marfeel.com/`), whose path carries the target's host and path.
//! Also built in: YouTube's outbound links (`youtube.com/redirect?q=`),
//! Reddit's (`out.reddit.com/ANY?url=`) and Google's AMP viewer
//! (`google.com/amp/s/HOST/PATH`, which carries its target's host and path
//! as the AMP caches do).
//! ural's catch-all (any parameter named `url`, `next`, `q`, `redirect`...
//! holding a URL, on any host) is left out on purpose: a search for a URL
//! or a login page's `?next=` is a page of its own, not a redirect.

use super::glob;
use crate::error::ConfigError;
use crate::form;
use normurl_url::{HostKind, SchemeType, Url};

/// One redirector: URLs whose host matches `host` (the domain or a
/// subdomain of it; a last label `*` stands for any suffix, so `google.*`
/// is `google.com`, `www.google.co.uk`...) and whose path matches `path`
/// (the path itself, or with `*` standing for any run of bytes: `/*` is
/// every path, `/out/*` every path under `/out/`) carry their target in
/// the query parameter `param`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Redirector {
    host: Box<[u8]>,
    path: Box<[u8]>,
    param: Box<[u8]>,
}

/// The built-in redirectors: (host, path, parameter).
const BUILT_IN: [(&str, &str, &str); 5] = [
    ("google.*", "/url", "q"),
    ("google.*", "/url", "url"),
    ("facebook.*", "/l.php", "u"),
    ("youtube.com", "/redirect", "q"),
    ("out.reddit.com", "/*", "url"),
];

/// The redirectors `unwrap-redirects` knows: the built-in ones and the
/// user's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Redirectors(Vec<Redirector>);

impl Default for Redirectors {
    fn default() -> Redirectors {
        let mut all = Redirectors(Vec::new());
        for (host, path, param) in BUILT_IN {
            all.push(host, path, param);
        }
        all
    }
}

impl Redirectors {
    fn push(&mut self, host: &str, path: &str, param: &str) {
        self.0.push(Redirector {
            host: host.to_ascii_lowercase().into_bytes().into(),
            path: path.as_bytes().into(),
            param: param.as_bytes().into(),
        });
    }

    /// Adds the redirectors of a file's text: one `HOST PATH PARAM` a
    /// line (whitespace-separated, `#` starts a comment), e.g.
    /// `t.example.com /out u` or `out.example.com /* url` (`*` in the
    /// path stands for any run of bytes). `line` in the error is 1-based.
    pub(crate) fn add_text(&mut self, text: &str) -> Result<(), ConfigError> {
        for (i, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("");
            let fields: Vec<&str> = line.split_whitespace().collect();
            match fields[..] {
                [] => {}
                [host, path, param] if path.starts_with('/') => self.push(host, path, param),
                _ => return Err(ConfigError::BadRedirector(i + 1, line.trim().to_owned())),
            }
        }
        Ok(())
    }

    /// The URL `url` redirects to, when it is a known redirector's and
    /// carries an `http:` or `https:` URL; `None` otherwise.
    pub(crate) fn target(&self, url: &Url) -> Option<Url> {
        if !matches!(url.scheme_type(), SchemeType::Http | SchemeType::Https)
            || url.host_kind() != HostKind::Domain
        {
            return None;
        }
        let host = url.hostname().as_bytes();
        let path = url.pathname().as_bytes();
        let href = url.href();
        // The path, query and fragment.
        let tail = &href.as_bytes()[path.as_ptr() as usize - href.as_ptr() as usize..];
        let target = match amp_cache(host, tail) {
            Some(target) => target,
            None => {
                let query = url.query()?.as_bytes();
                let found = self.0.iter().find_map(|r| {
                    (glob::matches(&r.path, path) && host_matches(&r.host, host))
                        .then(|| param_value(query, &r.param))
                        .flatten()
                })?;
                found
            }
        };
        let target = Url::parse(&target).ok()?;
        matches!(target.scheme_type(), SchemeType::Http | SchemeType::Https).then_some(target)
    }
}

/// Whether `host` is `pattern`'s domain or a subdomain of it; a `.*` at
/// the end of the pattern matches any suffix of one or more labels.
fn host_matches(pattern: &[u8], host: &[u8]) -> bool {
    let Some(name) = pattern.strip_suffix(b".*") else {
        return host.ends_with(pattern)
            && (host.len() == pattern.len() || host[host.len() - pattern.len() - 1] == b'.');
    };
    // Some label sequence ending in `name`, followed by a suffix.
    let mut rest = host;
    loop {
        if rest.starts_with(name)
            && rest.get(name.len()) == Some(&b'.')
            && rest.len() > name.len() + 1
        {
            return true;
        }
        match memchr::memchr(b'.', rest) {
            Some(dot) => rest = &rest[dot + 1..],
            None => return false,
        }
    }
}

/// The decoded value of the first parameter named `name`, as text.
fn param_value(query: &[u8], name: &[u8]) -> Option<String> {
    let mut decoded = Vec::new();
    for piece in form::pieces(query) {
        decoded.clear();
        form::decode_component(piece.name(query), &mut decoded);
        if decoded == name {
            decoded.clear();
            form::decode_component(piece.value(query).unwrap_or(b""), &mut decoded);
            return Some(String::from_utf8_lossy(&decoded).into_owned());
        }
    }
    None
}

/// The target of an AMP cache URL from its path, query and fragment
/// (`path`): `/c/s/HOST/PATH` (and `/v/s/`) is `https://HOST/PATH`,
/// `/c/HOST/PATH` `http://HOST/PATH`; Marfeel's caches serve `https://`
/// pages; Google's AMP viewer's `/amp/s/HOST/PATH` is `https://HOST/PATH`
/// and `/amp/HOST/PATH` `http://HOST/PATH`.
fn amp_cache(host: &[u8], path: &[u8]) -> Option<String> {
    let (scheme, rest) = if path.starts_with(b"/amp/") && host_matches(b"google.*", host) {
        let rest = &path[b"/amp/".len()..];
        match rest.strip_prefix(b"s/") {
            Some(rest) => ("https://", rest),
            None => ("http://", rest),
        }
    } else if host.ends_with(b".ampproject.org") {
        let rest = path
            .strip_prefix(b"/c/")
            .or_else(|| path.strip_prefix(b"/v/"))?;
        match rest.strip_prefix(b"s/") {
            Some(rest) => ("https://", rest),
            None => ("http://", rest),
        }
    } else if host == b"bc.marfeelcache.com" {
        ("https://", path.strip_prefix(b"/amp/")?)
    } else if host == b"bc.marfeel.com" {
        ("https://", path.strip_prefix(b"/")?)
    } else {
        return None;
    };
    (!rest.is_empty()).then(|| format!("{scheme}{}", String::from_utf8_lossy(rest)))
}

/// How many redirectors deep [`unwrap`] looks: a link wrapped more often
/// than that is left with the last wrapper (and is then not idempotent).
pub(crate) const MAX_DEPTH: usize = 32;

/// The URL at the end of `url`'s chain of redirectors, or `None` when
/// `url` is no redirector's.
pub(crate) fn unwrap(redirectors: &Redirectors, url: &Url) -> Option<Url> {
    let mut current = redirectors.target(url)?;
    for _ in 1..MAX_DEPTH {
        match redirectors.target(&current) {
            Some(next) => current = next,
            None => break,
        }
    }
    Some(current)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unwrap_str(input: &str) -> Option<String> {
        let url = Url::parse(input).unwrap();
        unwrap(&Redirectors::default(), &url).map(|u| u.href().to_owned())
    }

    #[test]
    fn known_redirectors() {
        for (input, expected) in [
            (
                "https://www.google.com/url?q=https://a.com/x%3Fb%3D1&sa=D",
                Some("https://a.com/x?b=1"),
            ),
            (
                "https://google.co.uk/url?sa=t&url=http%3A%2F%2Fa.com%2F",
                Some("http://a.com/"),
            ),
            (
                "https://l.facebook.com/l.php?u=https%3A%2F%2Fa.com%2Fp&h=AT0",
                Some("https://a.com/p"),
            ),
            (
                "https://www-a-com.cdn.ampproject.org/c/s/www.a.com/p?x=1#f",
                Some("https://www.a.com/p?x=1#f"),
            ),
            (
                "https://a-com.cdn.ampproject.org/v/a.com/p",
                Some("http://a.com/p"),
            ),
            (
                "https://bc.marfeelcache.com/amp/a.com/p",
                Some("https://a.com/p"),
            ),
            (
                "https://www.youtube.com/redirect?event=video_description&q=https%3A%2F%2Fa.com%2Fp%3Fx%3D1",
                Some("https://a.com/p?x=1"),
            ),
            (
                "https://out.reddit.com/t3_abc?url=https%3A%2F%2Fa.com%2F&token=AQ",
                Some("https://a.com/"),
            ),
            (
                "https://www.google.com/amp/s/www.a.com/p/amp?x=1",
                Some("https://www.a.com/p/amp?x=1"),
            ),
            ("https://www.google.co.uk/amp/a.com/p", Some("http://a.com/p")),
            ("https://www.google.com/amp/", None),
            ("https://www.youtube.com/watch?q=https://a.com/", None),
            ("https://reddit.com/t3_abc?url=https://a.com/", None),
            // Nested: all the way.
            (
                "https://google.com/url?q=https://l.facebook.com/l.php?u=https://a.com/",
                Some("https://a.com/"),
            ),
            // Not a redirector, or no http(s) target.
            ("https://www.google.com/search?q=https://a.com/", None),
            ("https://google.com/url?q=javascript:alert(1)", None),
            ("https://google.com/url?q=/relative", None),
            ("https://notgoogle.com/url?q=https://a.com/", None),
            ("https://google/url?q=https://a.com/", None),
            ("https://a.com/l.php?u=https://b.com/", None),
        ] {
            assert_eq!(unwrap_str(input).as_deref(), expected, "{input}");
        }
    }

    #[test]
    fn user_redirectors() {
        let mut r = Redirectors::default();
        r.add_text("# mine\nt.example.com /out u\n\n").unwrap();
        let url = Url::parse("https://x.t.example.com/out?u=https://a.com/").unwrap();
        assert_eq!(unwrap(&r, &url).unwrap().href(), "https://a.com/");
        // Paths are exact unless they have a `*`.
        let url = Url::parse("https://t.example.com/out/1?u=https://a.com/").unwrap();
        assert_eq!(unwrap(&r, &url), None);
        r.add_text("t.example.com /out/* u\nl.example /*/go u")
            .unwrap();
        assert_eq!(unwrap(&r, &url).unwrap().href(), "https://a.com/");
        let url = Url::parse("https://l.example/x/y/go?u=https://b.com/").unwrap();
        assert_eq!(unwrap(&r, &url).unwrap().href(), "https://b.com/");
        let url = Url::parse("https://l.example/x/y/gone?u=https://b.com/").unwrap();
        assert_eq!(unwrap(&r, &url), None);
        assert_eq!(
            r.add_text("a.com /x u\nb.com x u"),
            Err(ConfigError::BadRedirector(2, "b.com x u".to_owned()))
        );
    }

    #[test]
    fn depth_is_bounded() {
        let mut url = String::from("https://a.com/");
        for _ in 0..100 {
            url = format!("https://google.com/url?q={url}");
        }
        let out = unwrap_str(&url).unwrap();
        assert!(out.starts_with("https://google.com/url?q="), "{out}");
    }
}
