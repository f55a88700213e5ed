//! `--get` templates: text with `{component}` placeholders, parsed once and
//! rendered for every line.

use std::fmt;
use std::str::FromStr;

use std::cell::RefCell;

use super::params;
use super::psl::Part;
use super::{
    split_host, write_host_range, Component, Fields, HostKey, HostParts, PublicSuffixList,
    SplitCache,
};
use crate::scratch::Scratch;

/// What `--get` writes: one component, or a template such as
/// `{registered_domain}\t{url}`.
///
/// In a template, `{name}` is a component ([`Component`]'s names),
/// `{query:NAME}` the first value of the query parameter NAME and
/// `{query-all:NAME}` all of them, comma-joined (decoded as
/// `URLSearchParams` decodes them: `+` a space, `%XX`; empty when there is
/// none), `{pathname:decoded}` a component percent-decoded (also `href`,
/// `username`, `password`, `search`, `hash`, `url_path`), `\t`
/// a tab, `\\` a backslash and `\{`, `\}` braces; any other `\` or brace
/// is an error. A string without braces and backslashes is a single
/// placeholder's name (`host`, `query:q`).
///
/// # Example
///
/// ```
/// use normurl_canon::component::{Fields, PublicSuffixList, Template};
/// use normurl_canon::Scratch;
/// use normurl_url::Url;
///
/// let template: Template = r"{registered_domain}\t{pathname}".parse()?;
/// let url = Url::parse("https://www.example.com/a")?;
/// let mut out = Vec::new();
/// template.render(&Fields::new(&url, PublicSuffixList::bundled()), &mut Scratch::new(), &mut out);
/// assert_eq!(out, b"example.com\t/a");
/// assert!(r"{nope}".parse::<Template>().is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Template {
    pieces: Vec<Piece>,
    /// The literal text of the pieces.
    text: String,
    /// What of a split domain the template is, when it is one component
    /// of the Public Suffix List.
    psl_part: Option<Part>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Piece {
    /// `text[start..end]`.
    Literal(usize, usize),
    Component(Component),
    /// `{query:NAME}` (`all` false) or `{query-all:NAME}`, NAME being
    /// `text[start..end]`.
    Param {
        all: bool,
        start: usize,
        end: usize,
    },
    /// `{pathname:decoded}` and the like: the component percent-decoded.
    Decoded(Component),
}

/// The components that have a `:decoded` form: those the parser
/// percent-encodes.
const DECODABLE: [Component; 7] = [
    Component::Href,
    Component::Username,
    Component::Password,
    Component::Pathname,
    Component::Search,
    Component::Hash,
    Component::UrlPath,
];

/// [`Template::render_host`] of a template that is `part` alone. Out of
/// line, so that templates of other components keep their registers.
#[inline(never)]
fn render_psl_part(
    part: Part,
    parts: &HostParts<'_>,
    psl: &PublicSuffixList,
    cache: &mut SplitCache,
    out: &mut Vec<u8>,
) {
    let key = cache.key(parts.hostname.as_bytes());
    render_psl_part_inline(part, split_host(parts), key, || psl, cache, out)
}

/// [`render_psl_part`], inlined: for a caller that has the registers and
/// has computed `key`, `cache`'s [`SplitCache::key`] of `domain`, to
/// prefetch its bucket. `psl` gives the list, asked only when the cache
/// does not hold the host.
#[inline(always)]
#[doc(hidden)]
pub fn render_psl_part_inline<'p>(
    part: Part,
    domain: Option<&str>,
    key: Option<HostKey>,
    psl: impl FnOnce() -> &'p PublicSuffixList,
    cache: &mut SplitCache,
    out: &mut Vec<u8>,
) {
    if let Some(host) = domain {
        write_host_range(out, host, cache.range(psl, host, key, part));
    }
}

/// Why a template does not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TemplateError(pub String);

impl fmt::Display for TemplateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TemplateError {}

impl FromStr for Template {
    type Err = TemplateError;

    fn from_str(s: &str) -> Result<Template, TemplateError> {
        let mut t = Template {
            pieces: Vec::new(),
            text: String::new(),
            psl_part: None,
        };
        if !s.contains(['{', '}', '\\']) {
            // One placeholder's name without its braces.
            let piece = t.piece(s)?;
            t.pieces.push(piece);
            t.psl_part = t.as_component().and_then(Component::psl_part);
            return Ok(t);
        }
        let mut chars = s.char_indices();
        while let Some((i, ch)) = chars.next() {
            match ch {
                '\\' => {
                    let escaped = match chars.next().map(|(_, c)| c) {
                        Some('t') => '\t',
                        Some(c @ ('\\' | '{' | '}')) => c,
                        _ => {
                            return Err(TemplateError(format!(
                                "unknown escape at byte {i} of {s:?} (expected \\t, \\\\, \\{{ or \\}})"
                            )))
                        }
                    };
                    t.push_literal(escaped);
                }
                '{' => {
                    let rest = &s[i + 1..];
                    let end = rest.find('}').ok_or_else(|| {
                        TemplateError(format!("unclosed {{ at byte {i} of {s:?}"))
                    })?;
                    let piece = t.piece(&rest[..end])?;
                    t.pieces.push(piece);
                    // Skip the name and `}`.
                    for _ in rest[..=end].chars() {
                        chars.next();
                    }
                }
                '}' => {
                    return Err(TemplateError(format!(
                        "unmatched }} at byte {i} of {s:?} (write \\}} for a brace)"
                    )))
                }
                c => t.push_literal(c),
            }
        }
        t.psl_part = t.as_component().and_then(Component::psl_part);
        Ok(t)
    }
}

impl Template {
    /// The template of one component.
    pub fn component(c: Component) -> Template {
        Template {
            pieces: vec![Piece::Component(c)],
            text: String::new(),
            psl_part: c.psl_part(),
        }
    }

    /// The piece of a placeholder's name: a component, `query:NAME`,
    /// `query-all:NAME` or `COMPONENT:decoded`. NAME is stored in `text`.
    fn piece(&mut self, name: &str) -> Result<Piece, TemplateError> {
        for (prefix, all) in [("query:", false), ("query-all:", true)] {
            if let Some(param) = name.strip_prefix(prefix) {
                let start = self.text.len();
                self.text.push_str(param);
                return Ok(Piece::Param {
                    all,
                    start,
                    end: self.text.len(),
                });
            }
        }
        if let Some(component) = name.strip_suffix(":decoded") {
            let c: Component = component
                .parse()
                .map_err(|e| TemplateError(format!("{e}")))?;
            if !DECODABLE.contains(&c) {
                let names: Vec<&str> = DECODABLE.iter().map(|c| c.name()).collect();
                return Err(TemplateError(format!(
                    "{name:?}: only {} have a :decoded form",
                    names.join(", ")
                )));
            }
            return Ok(Piece::Decoded(c));
        }
        name.parse()
            .map(Piece::Component)
            .map_err(|e| TemplateError(format!("{e}")))
    }

    fn push_literal(&mut self, c: char) {
        let start = self.text.len();
        self.text.push(c);
        match self.pieces.last_mut() {
            Some(Piece::Literal(_, end)) if *end == start => *end = self.text.len(),
            _ => self.pieces.push(Piece::Literal(start, self.text.len())),
        }
    }

    /// The single component the template is, if it is one.
    pub fn as_component(&self) -> Option<Component> {
        match self.pieces[..] {
            [Piece::Component(c)] => Some(c),
            _ => None,
        }
    }

    /// The components of the template, in order (for `{query:NAME}`,
    /// [`Component::Search`]; for `{pathname:decoded}`, the pathname).
    pub fn components(&self) -> impl Iterator<Item = Component> + '_ {
        // A parameter is read from the query, a decoded form from its
        // component: what decides which parts of the URL are needed.
        self.pieces.iter().filter_map(|p| match p {
            Piece::Component(c) | Piece::Decoded(c) => Some(*c),
            Piece::Param { .. } => Some(Component::Search),
            Piece::Literal(..) => None,
        })
    }

    /// What of a split domain the template is, when it is one component
    /// of the Public Suffix List.
    #[doc(hidden)]
    pub fn psl_part(&self) -> Option<Part> {
        self.psl_part
    }

    /// Appends the template with the components of a host alone to `out`
    /// (as [`Template::render`] of [`Fields::of_host`]). A template that
    /// is one component of the Public Suffix List asks `cache` directly,
    /// without the general writer's dispatch and lazy split.
    #[inline(always)]
    #[doc(hidden)]
    pub fn render_host(
        &self,
        parts: HostParts<'_>,
        psl: &PublicSuffixList,
        cache: &mut RefCell<SplitCache>,
        scratch: &mut Scratch,
        out: &mut Vec<u8>,
    ) {
        match self.psl_part {
            Some(part) => render_psl_part(part, &parts, psl, cache.get_mut(), out),
            None => self.render(&Fields::of_host(parts, psl, cache), scratch, out),
        }
    }

    /// Appends the template with each component written as `name` says
    /// (`{host}\t{url}` with the components' names is `host` TAB `url`):
    /// the names of the columns it writes, for a header line.
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_canon::component::{Component, Template};
    ///
    /// let t: Template = r"{host}\t{url}".parse()?;
    /// let mut out = Vec::new();
    /// t.render_names(|c| if c == Component::Href { "url" } else { c.name() }, &mut out);
    /// assert_eq!(out, b"host\turl");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn render_names(&self, name: impl Fn(Component) -> &'static str, out: &mut Vec<u8>) {
        for piece in &self.pieces {
            match *piece {
                Piece::Literal(start, end) => {
                    out.extend_from_slice(&self.text.as_bytes()[start..end])
                }
                Piece::Component(c) => out.extend_from_slice(name(c).as_bytes()),
                Piece::Param { all, start, end } => {
                    out.extend_from_slice(if all { &b"query-all:"[..] } else { b"query:" });
                    out.extend_from_slice(&self.text.as_bytes()[start..end]);
                }
                Piece::Decoded(c) => {
                    out.extend_from_slice(name(c).as_bytes());
                    out.extend_from_slice(b":decoded");
                }
            }
        }
    }

    /// Appends the template with the components of `fields` to `out`.
    #[inline]
    pub fn render(&self, fields: &Fields<'_>, scratch: &mut Scratch, out: &mut Vec<u8>) {
        for piece in &self.pieces {
            match *piece {
                Piece::Literal(start, end) => {
                    out.extend_from_slice(&self.text.as_bytes()[start..end])
                }
                Piece::Component(c) => fields.write(c, scratch, out),
                Piece::Param { all, start, end } => {
                    let name = &self.text[start..end];
                    let query = fields.url().and_then(|u| u.query()).unwrap_or("");
                    if all {
                        params::write_all(query, name, out);
                    } else {
                        params::write_first(query, name, out);
                    }
                }
                Piece::Decoded(c) => {
                    let start = out.len();
                    fields.write(c, scratch, out);
                    params::decode_in_place(out, start);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::component::PublicSuffixList;
    use normurl_url::Url;

    fn render(template: &str, url: &str) -> String {
        let t: Template = template.parse().unwrap();
        let url = Url::parse(url).unwrap();
        let mut out = Vec::new();
        t.render(
            &Fields::new(&url, PublicSuffixList::bundled()),
            &mut Scratch::new(),
            &mut out,
        );
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn placeholders_and_escapes() {
        let url = "https://www.example.com:81/a?b#c";
        assert_eq!(render("host", url), "www.example.com:81");
        assert_eq!(render(r"{subdomain}\t{port}", url), "www\t81");
        assert_eq!(render(r"\{{scheme}\}\\x", url), "{https}\\x");
        assert_eq!(render("é {hash}{search}", url), "é #c?b");
        assert_eq!(render("{url}", url), url);
    }

    #[test]
    fn errors_say_where() {
        for (t, msg) in [
            ("{host", "unclosed { at byte 0"),
            ("a}", "unmatched } at byte 1"),
            (r"{host}\n", "unknown escape at byte 6"),
            ("{hots}", "unknown component \"hots\""),
            ("hots", "unknown component \"hots\""),
            ("{}", "unknown component \"\""),
        ] {
            let e = t.parse::<Template>().unwrap_err().to_string();
            assert!(e.starts_with(msg), "{t}: {e}");
        }
    }

    #[test]
    fn params_and_decoded_forms() {
        let url = "https://a.example/a%20b/%C3%A9?q=rust+url&id=1&id=%32&e=%FF#x%20y";
        assert_eq!(render("{query:q}", url), "rust url");
        assert_eq!(render("query:id", url), "1");
        assert_eq!(render("{query-all:id}|{query:nope}|", url), "1,2||");
        assert_eq!(render("{query:e}", url), "\u{FFFD}");
        assert_eq!(render("{pathname:decoded}", url), "/a b/é");
        assert_eq!(
            render("{search:decoded}", url),
            "?q=rust+url&id=1&id=2&e=\u{FFFD}"
        );
        assert_eq!(render("{hash:decoded}", url), "#x y");
        assert_eq!(render("{pathname}", url), "/a%20b/%C3%A9");
        let t: Template = "{query:q}".parse().unwrap();
        assert_eq!(t.components().collect::<Vec<_>>(), [Component::Search]);
        assert_eq!(t.as_component(), None);
        let t: Template = r"{query-all:a b}\t{pathname:decoded}".parse().unwrap();
        let mut names = Vec::new();
        t.render_names(Component::name, &mut names);
        assert_eq!(names, b"query-all:a b\tpathname:decoded");
        let e = "{host:decoded}".parse::<Template>().unwrap_err().0;
        assert!(e.contains("only href, username"), "{e}");
        assert!("{nope:decoded}".parse::<Template>().is_err());
    }

    #[test]
    fn single_components() {
        let t: Template = "registered_domain".parse().unwrap();
        assert_eq!(t.as_component(), Some(Component::RegisteredDomain));
        let t: Template = "{host}".parse().unwrap();
        assert_eq!(t.as_component(), Some(Component::Host));
        let t: Template = "{host}/{port}".parse().unwrap();
        assert_eq!(t.as_component(), None);
        assert_eq!(
            t.components().collect::<Vec<_>>(),
            [Component::Host, Component::Port]
        );
    }
}
