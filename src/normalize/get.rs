//! What a valid line's URL becomes when it is not the canonical URL:
//! components and templates (`--get`), JSON objects (`--json`), written in
//! place of the URL or as a new column (`--add-field`); and the default
//! scheme of inputs without one (`--default-scheme`).

use std::cell::RefCell;
use std::fmt;
use std::io::Write;
use std::ops::Range;
use std::str::FromStr;
use std::sync::OnceLock;

use super::{parse_into, Fired, Invalid, Normalizer, Stats};
use crate::canon::{RuleSet, Scratch};
use crate::component::{
    json, render_psl_part_inline, Component, Fields, HostKey, HostParts, Part, PublicSuffixList,
    SplitCache, Template,
};
use crate::pipeline::Output;
use crate::{Mode, QueryEncoding, Url};

/// What to write for a valid line instead of its canonical URL
/// ([`Options::get`](super::Options::get)). The components are those of
/// the URL after the profile's rules.
///
/// # Example
///
/// ```
/// use normurl::normalize::{Get, Normalizer, Options};
/// use normurl::pipeline::{Input, Pipeline, Sinks};
///
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("urls.txt");
/// std::fs::write(&path, "https://a.b.example.co.uk/x\nhttp://example.co.uk./\n")?;
/// let options = Options {
///     get: Some(Get::Template("registered_domain".parse()?)),
///     ..Options::default()
/// };
/// let pipeline = Pipeline::builder().build(Normalizer::new(options));
/// let mut out = Vec::new();
/// pipeline.run(vec![Input::path(&path)], Sinks::new("<stdout>", &mut out))?;
/// assert_eq!(out, b"example.co.uk\nexample.co.uk\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Get {
    /// A component or a template of components.
    Template(Template),
    /// A JSON object with every component. Every output line is then an
    /// object: a line without a URL gives `{"invalid":REASON}` (and with
    /// [`OnInvalid::Keep`](super::OnInvalid::Keep) its `"input"`), a blank
    /// line `{}`, whatever the field options say.
    Json,
}

/// Where `--add-field` puts the value: a new first or last column, the
/// line otherwise unchanged. A line without a URL is written as
/// [`Options::on_invalid`](super::Options::on_invalid) says; kept, it has
/// the new column, empty ([`Options::add_field`](super::Options::add_field)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddField {
    /// Before the line.
    First,
    /// After the line.
    Last,
}

impl FromStr for AddField {
    type Err = String;

    fn from_str(s: &str) -> Result<AddField, String> {
        match s {
            "first" => Ok(AddField::First),
            "last" => Ok(AddField::Last),
            _ => Err(format!("unknown place {s:?} (expected first or last)")),
        }
    }
}

/// The scheme given to inputs without one (`--default-scheme`); which
/// inputs count is [`scheme_less`](crate::canon::scheme_less)'s rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefaultScheme {
    /// `http`.
    Http,
    /// `https`.
    Https,
}

impl DefaultScheme {
    /// The scheme.
    pub fn name(self) -> &'static str {
        match self {
            DefaultScheme::Http => "http",
            DefaultScheme::Https => "https",
        }
    }
}

impl fmt::Display for DefaultScheme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for DefaultScheme {
    type Err = String;

    fn from_str(s: &str) -> Result<DefaultScheme, String> {
        match s {
            "http" => Ok(DefaultScheme::Http),
            "https" => Ok(DefaultScheme::Https),
            _ => Err(format!("unknown scheme {s:?} (expected http or https)")),
        }
    }
}

/// Whether a component of `get` asks the Public Suffix List.
pub(super) fn needs_psl(get: Option<&Get>) -> bool {
    match get {
        None => false,
        Some(Get::Json) => true,
        Some(Get::Template(t)) => t.components().any(|c| c.uses_psl()),
    }
}

/// The part of the Public Suffix List that `get` is, when it is one
/// component of the list.
pub(super) fn psl_part(get: Option<&Get>) -> Option<Part> {
    match get {
        Some(Get::Template(t)) => t.psl_part(),
        _ => None,
    }
}

/// Whether `get` is a template of the scheme and host only
/// ([`Component::of_host`]).
pub(super) fn of_host(get: Option<&Get>) -> bool {
    match get {
        Some(Get::Template(t)) => t.components().all(Component::of_host),
        _ => false,
    }
}

/// Starts loading the split cache's bucket of the host at `host` in
/// `text`, and returns its key.
#[inline(always)]
fn prefetch(cache: &SplitCache, text: &str, host: Range<usize>) -> Option<HostKey> {
    let key = cache.key(text.as_bytes().get(host).unwrap_or_default());
    if let Some(key) = &key {
        cache.prefetch(key);
    }
    key
}

/// A worker's buffers for [`Get`]: the URL after the profile's rules,
/// parsed back from their output.
#[derive(Debug, Default)]
pub(super) struct GetBuffers {
    canonical: Option<Url>,
    bytes: Vec<u8>,
    suffixes: RefCell<SplitCache>,
}

impl Normalizer {
    /// The Public Suffix List of the components: an empty one when no
    /// component asks it anything, so that `--get host` does not pay for
    /// reading the bundled list (docs/performance-history.md).
    fn psl(&self) -> &PublicSuffixList {
        static EMPTY: OnceLock<PublicSuffixList> = OnceLock::new();
        match &self.options.psl {
            Some(list) => list,
            None if self.needs_psl => PublicSuffixList::bundled(),
            None => EMPTY.get_or_init(|| PublicSuffixList::parse("").expect("empty list")),
        }
    }

    /// Appends what `get` asks for of `url` after the profile's rules and
    /// the `--rewrite` rules, and returns what fired.
    pub(super) fn write_get(
        &self,
        get: &Get,
        url: &Url,
        buffers: &mut GetBuffers,
        scratch: &mut Scratch,
        out: &mut Vec<u8>,
    ) -> Result<Fired, Invalid> {
        let canon = self.canon();
        let rewrites = self.options.rewrite.as_deref();
        let (url, fired) = if canon.rules().is_empty() && rewrites.is_none() {
            (url, Fired::default())
        } else {
            let GetBuffers {
                canonical, bytes, ..
            } = buffers;
            bytes.clear();
            let rules = canon.apply(url, scratch, bytes);
            let rewritten = rewrites.map(|r| r.apply(bytes));
            let rewritten = match rewritten {
                Some(std::borrow::Cow::Owned(changed)) => Some(changed),
                _ => None,
            };
            let fired = Fired {
                rules,
                rewritten: rewritten.is_some(),
                edited: super::Edited::default(),
            };
            if let Some(changed) = rewritten {
                *bytes = changed;
            }
            // The profile's output is a valid URL's serialization, ASCII:
            // neither fails, but an error is better than a panic. A
            // rewritten one may be no URL.
            let why = |e| if fired.rewritten { Invalid::Rewrite } else { e };
            let text = std::str::from_utf8(bytes).map_err(|_| why(Invalid::Utf8))?;
            (
                &*parse_into(canonical, text, None, Mode::Whatwg, QueryEncoding::UTF_8)
                    .map_err(|e| why(Invalid::Url(e)))?,
                fired,
            )
        };
        let fields = Fields::with_cache(url, self.psl(), &buffers.suffixes);
        match get {
            Get::Template(t) => t.render(&fields, scratch, out),
            Get::Json => json::write_object(&fields, scratch, out),
        }
        Ok(fired)
    }

    /// Parses `text` (absolute, no base), canonicalizes it and appends
    /// template `t`, all of whose components are of the host: without
    /// rules, off the input when it is already canonical
    /// ([`HostParts::of_canonical_input`]); else the scheme
    /// and host are read off the canonical URL's bytes, so that the URL
    /// is stored only when the canonicalizer needs it, and the canonical
    /// URL parsed again only when its bytes leave a doubt
    /// ([`HostParts::of_serialization`]).
    pub(super) fn write_host_get(
        &self,
        t: &Template,
        text: &str,
        url: &mut Url,
        buffers: &mut GetBuffers,
        scratch: &mut Scratch,
        out: &mut Vec<u8>,
    ) -> Result<RuleSet, Invalid> {
        let start = out.len();
        // The canonical URL is the input itself when the parser's fast
        // path takes it (most lines): no copy, no second scan.
        let canonical = match self.canon_is_identity {
            true => HostParts::of_canonical_input_then(text, |host| {
                // The list's components look the host up in the split
                // cache: its bucket loads while the rest of the line is
                // checked.
                if self.needs_psl {
                    prefetch(buffers.suffixes.get_mut(), text, host);
                }
            }),
            false => None,
        };
        let result = match canonical {
            Some(parts) => {
                t.render_host(parts, self.psl(), &mut buffers.suffixes, scratch, out);
                Ok(RuleSet::EMPTY)
            }
            None => self.parse_render_host(t, text, url, buffers, scratch, out),
        };
        if cfg!(debug_assertions) {
            self.debug_check_host_get(text, result, &out[start..]);
        }
        result
    }

    /// [`Normalizer::write_host_get`] of a template that is `part` of the
    /// Public Suffix List alone, without rules ([`Normalizer::psl_part`]),
    /// in one call from the lines' loop: the host's key in the split
    /// cache is computed once, when the check finds the host, and its
    /// bucket loads while the rest of the line is checked.
    #[inline(never)]
    pub(super) fn write_psl_part(
        &self,
        part: Part,
        text: &str,
        url: &mut Url,
        scratch: &mut Scratch,
        buffers: &mut GetBuffers,
        out: &mut Vec<u8>,
    ) -> Result<RuleSet, Invalid> {
        let start = out.len();
        let cache = buffers.suffixes.get_mut();
        let mut key = None;
        let domain = HostParts::domain_of_canonical_input_then(text, |host| {
            key = prefetch(cache, text, host)
        });
        let result = match (domain, &self.options.get) {
            (Some(domain), _) => {
                render_psl_part_inline(part, domain, key, || self.psl(), cache, out);
                Ok(RuleSet::EMPTY)
            }
            (None, Some(Get::Template(t))) => {
                self.parse_render_host(t, text, url, buffers, scratch, out)
            }
            // Not a template, which `psl_part` is not without one.
            (None, _) => self.parse_write_host(text, url, scratch, buffers, out),
        };
        if cfg!(debug_assertions) {
            self.debug_check_host_get(text, result, &out[start..]);
        }
        result
    }

    /// [`Normalizer::write_host_get`]'s way through the canonicalizer: the
    /// canonical URL into a buffer, its host read off the bytes.
    #[inline(always)]
    fn parse_render_host(
        &self,
        t: &Template,
        text: &str,
        url: &mut Url,
        buffers: &mut GetBuffers,
        scratch: &mut Scratch,
        out: &mut Vec<u8>,
    ) -> Result<RuleSet, Invalid> {
        let GetBuffers {
            canonical,
            bytes,
            suffixes,
        } = buffers;
        bytes.clear();
        let fired = self
            .canon()
            .parse_apply(text, url, scratch, bytes)
            .map_err(Invalid::Url)?;
        match HostParts::of_serialization(bytes) {
            Some(parts) => t.render_host(parts, self.psl(), suffixes, scratch, out),
            None => {
                let text = std::str::from_utf8(bytes).map_err(|_| Invalid::Utf8)?;
                let url = parse_into(canonical, text, None, Mode::Whatwg, QueryEncoding::UTF_8)
                    .map_err(Invalid::Url)?;
                t.render(&Fields::with_cache(url, self.psl(), suffixes), scratch, out);
            }
        }
        Ok(fired)
    }

    /// In debug builds, [`Normalizer::write_host_get`]'s answer (what
    /// fired and what it wrote, or why the line is invalid) must be that
    /// of [`Normalizer::write_get`] on the whole input, parsed.
    fn debug_check_host_get(&self, text: &str, result: Result<RuleSet, Invalid>, written: &[u8]) {
        let Some(get) = &self.options.get else {
            panic!("write_host_get({text:?}) without a template");
        };
        let mut out = Vec::new();
        let expected = match Url::parse(text) {
            Ok(url) => self.write_get(
                get,
                &url,
                &mut GetBuffers::default(),
                &mut Scratch::new(),
                &mut out,
            ),
            Err(e) => Err(Invalid::Url(e)),
        };
        assert_eq!(
            expected,
            result.map(Fired::from),
            "write_host_get({text:?})"
        );
        assert_eq!(
            String::from_utf8_lossy(written),
            String::from_utf8_lossy(&out),
            "write_host_get({text:?})"
        );
    }

    /// Whether every output line is a JSON object.
    #[inline]
    pub(super) fn json(&self) -> bool {
        self.json
    }

    /// Ends the JSON object the current record just wrote with its line
    /// number, when the pipeline numbers lines.
    pub(super) fn json_line(out: &mut Output<'_, Stats>) {
        let Some(n) = out.line() else { return };
        let data = out.data();
        if data.last() != Some(&b'}') {
            return;
        }
        data.pop();
        if data.last() != Some(&b'{') {
            data.push(b',');
        }
        data.extend_from_slice(b"\"line\":");
        // Writing to a Vec cannot fail.
        let _ = write!(data, "{n}}}");
    }

    /// The JSON object of a line without a URL: its reason, and with
    /// `input` the line.
    pub(super) fn json_invalid(why: Invalid, input: Option<&[u8]>, out: &mut Vec<u8>) {
        out.extend_from_slice(b"{\"invalid\":\"");
        out.extend_from_slice(why.name().as_bytes());
        out.push(b'"');
        if let Some(line) = input {
            out.extend_from_slice(b",\"input\":");
            json::write_string(line, out);
        }
        out.push(b'}');
    }
}
