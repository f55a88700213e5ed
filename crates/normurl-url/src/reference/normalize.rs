//! alwinb's *Normalisation* section, and percent-encoding with the WHATWG
//! percent-encode sets, for references absolute or relative.

use super::parse::{dots, ParseMode};
use super::{Order, Reference};
use crate::percent::AsciiSet;

impl Reference {
    /// Normalises the reference (*Normalisation*, as spec-url 2.3.3's
    /// `normalise` followed by its WHATWG percent-encoding profile):
    ///
    /// * the scheme is lowercased; an empty password, then an empty
    ///   username, and an empty port are dropped; the drive becomes `x:`;
    /// * dot segments (`.`, `..`, and `%2e` for a dot) are removed, except
    ///   from an opaque path. Without a path-root, leading `..` segments
    ///   stay (`a/../../b` is `../b`); with one they are dropped. A path
    ///   that disappears entirely becomes `./`, so that the reference does
    ///   not become empty;
    /// * a `file:` host `localhost` becomes empty; a default port is
    ///   dropped;
    /// * components are percent-encoded with the WHATWG sets (userinfo,
    ///   path, query or special-query, fragment; C0 control for opaque
    ///   paths). References without a scheme use the special sets, as
    ///   spec-url does.
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_url::Reference;
    ///
    /// let norm = |s: &str| Reference::parse(s).map(|r| r.normalize().to_string());
    /// assert_eq!(norm("a/../../b")?, "../b");
    /// assert_eq!(norm("./a/./b")?, "a/b");
    /// assert_eq!(norm("/../a/%2E%2e/b")?, "/b");
    /// assert_eq!(norm("foo/..")?, "./");
    /// assert_eq!(norm("?q=with-'-sign")?, "?q=with-%27-sign");
    /// assert_eq!(norm("FILE://localhost/C|/x y")?, "file:///C:/x%20y");
    /// # Ok::<(), normurl_url::ReferenceError>(())
    /// ```
    pub fn normalize(&self) -> Reference {
        let mut r = self.clone();
        r.normalize_structure(self);
        r.percent_encode();
        r
    }

    /// spec-url's `normalise`; `orig` is the reference before it.
    fn normalize_structure(&mut self, orig: &Reference) {
        if let Some(s) = &mut self.scheme {
            s.make_ascii_lowercase();
        }
        if let Some(a) = &mut self.authority {
            a.password = a.password.take().filter(|p| !p.is_empty());
            if a.password.is_none() {
                a.username = a.username.take().filter(|u| !u.is_empty());
            }
            a.port = a.port.take().filter(|p| !p.is_empty());
        }
        if let Some(d) = &mut self.drive {
            let letter = d.chars().next().unwrap_or('c');
            *d = format!("{letter}:");
        }
        if !orig.has_opaque_path() {
            self.dirs = remove_dots(&orig.dirs, orig.root);
            if self.dirs.is_empty() && orig.order() == Order::Dir {
                self.dirs.push(".".to_owned());
            }
        }
        let scheme = self.scheme.clone().unwrap_or_default();
        if let Some(a) = &mut self.authority {
            if scheme == "file" && a.host == "localhost" {
                a.host.clear();
            } else if a.port.as_deref() == default_port(&scheme) {
                a.port = None;
            }
        }
    }

    /// Percent-encodes every component with its WHATWG set.
    fn percent_encode(&mut self) {
        let special = ParseMode::of(self).is_special();
        let opaque = self.has_opaque_path();
        let path = if opaque {
            &AsciiSet::C0_CONTROL
        } else {
            &AsciiSet::PATH
        };
        let query = if special {
            &AsciiSet::SPECIAL_QUERY
        } else {
            &AsciiSet::QUERY
        };
        if let Some(a) = &mut self.authority {
            for part in [&mut a.username, &mut a.password].into_iter().flatten() {
                encode(part, &AsciiSet::USERINFO);
            }
        }
        for d in &mut self.dirs {
            encode(d, path);
        }
        if let Some(f) = &mut self.file {
            encode(f, path);
        }
        if let Some(q) = &mut self.query {
            encode(q, query);
        }
        if let Some(f) = &mut self.fragment {
            encode(f, &AsciiSet::FRAGMENT);
        }
    }
}

/// Removes `.` and `..` dirs: `..` takes away the dir before it, or stays
/// when there is none and the path is relative (no path-root).
fn remove_dots(dirs: &[String], root: bool) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(dirs.len());
    for d in dirs {
        match dots(d) {
            0 => out.push(d.clone()),
            2 => {
                if out.last().is_some_and(|last| last != "..") {
                    out.pop();
                } else if !root {
                    out.push("..".to_owned());
                }
            }
            _ => {}
        }
    }
    out
}

fn default_port(scheme: &str) -> Option<&'static str> {
    match scheme {
        "http" | "ws" => Some("80"),
        "https" | "wss" => Some("443"),
        "ftp" => Some("21"),
        _ => None,
    }
}

fn encode(s: &mut String, set: &AsciiSet) {
    if set.find(s.as_bytes()).is_none() {
        return;
    }
    let mut out = Vec::with_capacity(s.len() + 8);
    set.encode(s.as_bytes(), &mut out);
    // Percent-encoding writes ASCII.
    *s = String::from_utf8(out).unwrap_or_default();
}
