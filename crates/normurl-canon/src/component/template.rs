//! `--get` templates: text with `{component}` placeholders, parsed once and
//! rendered for every line.

use std::fmt;
use std::str::FromStr;

use std::cell::RefCell;

use super::psl::Part;
use super::{
    split_host, write_host_range, Component, Fields, HostKey, HostParts, PublicSuffixList,
    SplitCache,
};
use crate::scratch::Scratch;

/// What `--get` writes: one component, or a template such as
/// `{registered_domain}\t{url}`.
///
/// In a template, `{name}` is a component ([`Component`]'s names), `\t`
/// a tab, `\\` a backslash and `\{`, `\}` braces; any other `\` or brace
/// is an error. A string without braces and backslashes is a single
/// component's name.
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
}

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
        if !s.contains(['{', '}', '\\']) {
            let c = s.parse().map_err(|e| TemplateError(format!("{e}")))?;
            return Ok(Template::component(c));
        }
        let mut t = Template {
            pieces: Vec::new(),
            text: String::new(),
            psl_part: None,
        };
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
                    let c = rest[..end]
                        .parse()
                        .map_err(|e| TemplateError(format!("{e}")))?;
                    t.pieces.push(Piece::Component(c));
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

    /// The components of the template, in order.
    pub fn components(&self) -> impl Iterator<Item = Component> + '_ {
        self.pieces.iter().filter_map(|p| match p {
            Piece::Component(c) => Some(*c),
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
