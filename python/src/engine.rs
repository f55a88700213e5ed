//! The per-URL work, with the calls the command makes for one line
//! (`normurl::normalize::Normalizer`): `Canonicalizer::parse_apply` without
//! a base, `Url::parse_into` and `Canonicalizer::apply` with one, then
//! `Rewrites::rewrite_output` for `rewrite`; with edits (`set=` ...), the
//! URL is parsed (against the row's base), edited with each `Edit::apply`
//! and then canonicalized, as the command does. Buffers live in a
//! [`Worker`], reused for every URL of a batch. A row's own base and
//! charset (`base=` and `charset=` columns, the command's `--base-field`
//! and `--charset-field`) are set on the worker before its URL
//! ([`Worker::set_row`]).

use normurl::canon::{key_hash, with_default_scheme, RuleSet, Scratch};
use normurl::component::Fields;
use normurl::normalize::{apply_edits, Edited};
use normurl::{Mode, ParseError, QueryEncoding, Reference, Url};

use crate::column::StringColumn;
use crate::config::{Component, Config, Get};

/// One thread's buffers.
pub struct Worker {
    /// The URL as parsed from the input.
    url: Url,
    /// The canonical URL, parsed again for its components.
    canonical: Url,
    scratch: Scratch,
    /// The components' scratch (the SURT forms).
    component_scratch: Scratch,
    /// The canonical URL's text, or a key before it is hashed.
    text: Vec<u8>,
    /// What a key is the hash of.
    key: Vec<u8>,
    /// Whether inputs may hold a newline: false when the caller checked a
    /// whole chunk's bytes at once, which is cheaper than a scan per URL.
    pub check_newlines: bool,
    /// `default_scheme`'s retry.
    retry: String,
    /// A URL a `rewrite` rule wrote, parsed back.
    rewritten: Option<Url>,
    /// What the last successful `write` fired, for `explain`.
    pub fired: Fired,
    /// The base of the row being written.
    row_base: RowBase,
    /// The row's own base, parsed (for [`RowBase::Row`]), and the text and
    /// query encoding it was parsed from with whether it parsed: a base
    /// repeated on the next rows (a page's links) is parsed once.
    base_url: Option<Url>,
    base_text: String,
    base_encoding: QueryEncoding,
    base_valid: bool,
    /// The row's own query encoding (`charset`), over the configuration's.
    row_encoding: Option<QueryEncoding>,
    /// What the edits did to the last URL `write` parsed, for `explain`
    /// (the command's `edit` and `edit-refused`).
    pub edited: Edited,
    /// The URL's serialization before the edits, to tell whether they
    /// changed it.
    before_edits: String,
}

/// What the last URL written fired, as the command's `--explain` lists
/// it: the profile's rules that changed the URL, and whether a `rewrite`
/// rule did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fired {
    pub rules: RuleSet,
    pub rewritten: bool,
}

/// The base a row's URL is parsed against.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum RowBase {
    /// The configuration's (`base=` one URL, or none).
    #[default]
    Config,
    /// None: the row's base is null, empty, `-` or not a valid URL, so
    /// only an absolute URL is valid (the command's `--base-field`).
    Missing,
    /// The row's own, in `Worker::base_url`.
    Row,
}

impl Default for Worker {
    fn default() -> Worker {
        let blank = || Url::parse("about:blank").expect("a valid URL");
        Worker {
            url: blank(),
            canonical: blank(),
            scratch: Scratch::new(),
            component_scratch: Scratch::new(),
            text: Vec::new(),
            key: Vec::new(),
            check_newlines: true,
            retry: String::new(),
            rewritten: None,
            fired: Fired::default(),
            row_base: RowBase::Config,
            base_url: None,
            base_text: String::new(),
            base_encoding: QueryEncoding::UTF_8,
            base_valid: false,
            row_encoding: None,
            edited: Edited::default(),
            before_edits: String::new(),
        }
    }
}

/// Parses `input` into `url`, resolving it against `base` in `mode` (the
/// command's `--resolve`: `whatwg` is the URL parser's own resolution,
/// `legacy` and `generic` RFC 3986's through [`Reference`]), the query in
/// `encoding`; as the command's `parse_into` does.
fn parse_into(
    url: &mut Url,
    input: &str,
    base: Option<&Url>,
    mode: Mode,
    encoding: QueryEncoding,
) -> Result<(), ParseError> {
    if let Some(base) = base.filter(|_| mode != Mode::Whatwg) {
        let base = Reference::from_url(base);
        let resolved = Reference::parse_against(input, &base)
            .and_then(|r| r.resolve(&base, mode)?.to_url_with_encoding(encoding));
        // The error's kind does not matter here: the row is null.
        *url = resolved.map_err(|_| ParseError::RelativeUrlWithoutBase)?;
        return Ok(());
    }
    url.parse_into_with_encoding(input, base, encoding)
}

impl From<RuleSet> for Fired {
    #[inline]
    fn from(rules: RuleSet) -> Fired {
        Fired {
            rules,
            rewritten: false,
        }
    }
}

/// The command's default `--max-line-bytes`: longer lines are invalid.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Whether the command could see `input` as one line holding a URL: an
/// empty line is blank, not a URL; a line never holds a newline (the URL
/// parser would drop it, but the command splits lines there); a line over
/// the default `--max-line-bytes` is `line-too-long`.
#[inline]
fn is_line(input: &str, check_newlines: bool) -> bool {
    !input.is_empty()
        && input.len() <= MAX_LINE_BYTES
        && !(check_newlines && memchr::memchr(b'\n', input.as_bytes()).is_some())
}

impl Worker {
    /// Sets the row's own base and query encoding, before its URL: `base`
    /// is `None` without a base column, else the row's entry (the
    /// command's `--base-field`: null, empty or `-` is no base, and the
    /// configuration's base is the base of the row's); `charset` the
    /// row's encoding label, which overrides `query_encoding` when it
    /// names an encoding (the command's `--charset-field`).
    pub fn set_row(&mut self, config: &Config, base: Option<Option<&str>>, charset: Option<&str>) {
        self.row_encoding = charset.and_then(QueryEncoding::for_label);
        let Some(base) = base else {
            self.row_base = RowBase::Config;
            return;
        };
        let text = match base {
            None | Some("" | "-") => {
                self.row_base = RowBase::Missing;
                return;
            }
            Some(text) => text,
        };
        let encoding = self.encoding(config);
        let cached =
            self.base_url.is_some() && self.base_text == text && self.base_encoding == encoding;
        if !cached {
            let slot = self
                .base_url
                .get_or_insert_with(|| Url::parse("about:blank").expect("a valid URL"));
            self.base_valid =
                parse_into(slot, text, config.base.as_ref(), config.resolve, encoding).is_ok();
            self.base_text.clear();
            self.base_text.push_str(text);
            self.base_encoding = encoding;
        }
        self.row_base = if self.base_valid {
            RowBase::Row
        } else {
            RowBase::Missing
        };
    }

    /// The query encoding of the row: its `charset`, else `query_encoding`.
    #[inline]
    fn encoding(&self, config: &Config) -> QueryEncoding {
        self.row_encoding.unwrap_or(config.query_encoding)
    }

    /// Whether the row is parsed as the configuration alone says (no
    /// base or charset of its own).
    #[inline]
    fn plain_row(&self) -> bool {
        self.row_base == RowBase::Config && self.row_encoding.is_none()
    }

    /// Parses `input` into `self.url` as the configuration and the row
    /// say (base, default scheme, resolution mode, query encoding), then
    /// applies the edits. Returns whether it is a valid URL.
    fn parse(&mut self, config: &Config, input: &str) -> bool {
        if !self.parse_url(config, input) {
            return false;
        }
        if !config.edits.is_empty() {
            // A setter the standard refuses leaves the URL as it was (the row
            // stays valid and the later edits apply), as the command does.
            self.edited = apply_edits(&config.edits, &mut self.url, Some(&mut self.before_edits));
        }
        true
    }

    /// [`Worker::parse`] without the edits.
    fn parse_url(&mut self, config: &Config, input: &str) -> bool {
        if !is_line(input, self.check_newlines) {
            return false;
        }
        // The query in `query_encoding` (or the row's charset), as the
        // command's --query-encoding (UTF-8: the plain parse).
        let encoding = self.encoding(config);
        if let Some(scheme) = &config.default_scheme {
            let text = with_default_scheme(input, scheme, &mut self.retry);
            return self
                .url
                .parse_into_with_encoding(text, None, encoding)
                .is_ok();
        }
        let base = match self.row_base {
            RowBase::Config => config.base.as_ref(),
            RowBase::Missing => None,
            RowBase::Row => self.base_url.as_ref(),
        };
        parse_into(&mut self.url, input, base, config.resolve, encoding).is_ok()
    }

    /// Appends what `get` asks for to `out`; returns false, having written
    /// nothing, when `input` is not a valid URL (or `rewrite` made it no
    /// URL).
    #[inline]
    pub fn write(&mut self, config: &Config, input: &str, out: &mut Vec<u8>) -> bool {
        let start = out.len();
        self.edited = Edited::default();
        let written = match &config.get {
            Get::Form(_)
                if config.base.is_none()
                    && config.default_scheme.is_none()
                    && config.query_encoding.is_utf8()
                    && self.plain_row()
                    && config.edits.is_empty() =>
            {
                // The command's path for a line without a base: parsing
                // and canonicalizing in one pass.
                is_line(input, self.check_newlines)
                    && match config
                        .canon
                        .parse_apply(input, &mut self.url, &mut self.scratch, out)
                    {
                        Ok(rules) => {
                            self.fired = rules.into();
                            true
                        }
                        Err(_) => false,
                    }
            }
            Get::Form(_) => {
                if !self.parse(config, input) {
                    return false;
                }
                self.fired = config.canon.apply(&self.url, &mut self.scratch, out).into();
                true
            }
            Get::Component(c) => {
                if !self.parse(config, input) || !self.make_canonical(config) {
                    return false;
                }
                let url = if config.reparse {
                    &self.canonical
                } else {
                    &self.url
                };
                Fields::new(url, config.suffixes()).write(*c, &mut self.component_scratch, out);
                // The components are those of the rewritten URL.
                return true;
            }
            Get::Template(t) => {
                if !self.parse(config, input) || !self.make_canonical(config) {
                    return false;
                }
                let url = if config.reparse {
                    &self.canonical
                } else {
                    &self.url
                };
                t.render(
                    &Fields::new(url, config.suffixes()),
                    &mut self.component_scratch,
                    out,
                );
                return true;
            }
        };
        if !written {
            return false;
        }
        self.rewrite(config, out, start)
    }

    /// Applies `rewrite`, if any, to what the canonicalizer appended to
    /// `out` after `start`, as the command does; drops it and returns
    /// false when the result is no URL.
    #[inline]
    fn rewrite(&mut self, config: &Config, out: &mut Vec<u8>, start: usize) -> bool {
        let Some(rewrites) = &config.rewrite else {
            return true;
        };
        match rewrites.rewrite_output(out, start, &mut self.rewritten) {
            Some(rewritten) => {
                self.fired.rewritten = rewritten;
                true
            }
            None => {
                out.truncate(start);
                false
            }
        }
    }

    /// Makes `self.canonical` the canonical URL (in the URL form, after
    /// `rewrite`) of the URL just parsed, when the profile has rules or a
    /// rewrite is given (else that is `self.url`). Returns false if it
    /// does not parse.
    fn make_canonical(&mut self, config: &Config) -> bool {
        if !config.reparse {
            self.fired = Fired::default();
            return true;
        }
        self.canonical(config).is_some()
    }

    /// The canonical URL (in the URL form, after `rewrite`) of the URL
    /// just parsed.
    fn canonical(&mut self, config: &Config) -> Option<&Url> {
        if !config.reparse {
            self.fired = Fired::default();
            return Some(&self.url);
        }
        self.text.clear();
        self.fired = config
            .url_canon
            .apply(&self.url, &mut self.scratch, &mut self.text)
            .into();
        if let Ok(Some(rewrites)) = &config.url_rewrite {
            // A rewrite that makes it no URL makes it invalid (below).
            if let std::borrow::Cow::Owned(changed) = rewrites.apply(&self.text) {
                self.text = changed;
                self.fired.rewritten = true;
            }
        }
        // The canonical form is a valid URL serialization (the library
        // promises it); should it ever fail, the URL counts as invalid
        // rather than anything panicking.
        let text = std::str::from_utf8(&self.text).ok()?;
        self.canonical.parse_into(text, None).ok()?;
        Some(&self.canonical)
    }

    /// The dedup key of `input`: the 128-bit hash of what `write` writes,
    /// as the command's `--dedup` computes it.
    pub fn key(&mut self, config: &Config, input: &str) -> Option<u128> {
        let mut key = std::mem::take(&mut self.key);
        key.clear();
        // A component the URL does not have is null, as `normalize`
        // gives it: no key.
        let valid =
            self.write(config, input, &mut key) && (!key.is_empty() || !config.get.empty_is_null());
        let hash = valid.then(|| key_hash(&key));
        self.key = key;
        hash
    }

    /// Every component of `input`'s canonical URL, in
    /// [`Component::ALL`]'s order, each appended to the values of its
    /// column. Returns false for an invalid URL (the caller then closes
    /// the row as null, which drops anything written).
    pub fn components(
        &mut self,
        config: &Config,
        input: &str,
        columns: &mut [StringColumn],
    ) -> bool {
        if !self.parse(config, input) || !self.make_canonical(config) {
            return false;
        }
        let url = if config.reparse {
            &self.canonical
        } else {
            &self.url
        };
        let fields = Fields::new(url, config.suffixes());
        for (&c, column) in Component::ALL.iter().zip(columns) {
            fields.write(c, &mut self.component_scratch, column.values());
        }
        true
    }
}
