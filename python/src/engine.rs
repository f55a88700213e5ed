//! The per-URL work, with the calls the command makes for one line
//! (`normurl::normalize::Normalizer`): `Canonicalizer::parse_apply` without
//! a base, `Url::parse_into` and `Canonicalizer::apply` with one, then
//! `Rewrites::rewrite_output` for `rewrite`; with edits (`set=` ...), the
//! URL is parsed, edited with each `Edit::apply` and then
//! canonicalized, as the command does. Buffers live in a [`Worker`],
//! reused for every URL of a batch.

use normurl::canon::{key_hash, with_default_scheme, Scratch};
use normurl::component::Fields;
use normurl::Url;

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
    /// Parses `input` into `self.url` as the configuration says (base,
    /// default scheme), then applies the edits. Returns whether it is a
    /// valid URL.
    fn parse(&mut self, config: &Config, input: &str) -> bool {
        if !self.parse_url(config, input) {
            return false;
        }
        // A setter the standard refuses leaves the URL as it was, as in
        // the command: the row stays valid and the later edits apply.
        for edit in &config.edits {
            edit.apply(&mut self.url);
        }
        true
    }

    /// [`Worker::parse`] without the edits.
    fn parse_url(&mut self, config: &Config, input: &str) -> bool {
        if !is_line(input, self.check_newlines) {
            return false;
        }
        // The query in `query_encoding`, as the command's
        // --query-encoding (UTF-8: the plain parse).
        let encoding = config.query_encoding;
        match &config.default_scheme {
            Some(scheme) => {
                let text = with_default_scheme(input, scheme, &mut self.retry);
                self.url
                    .parse_into_with_encoding(text, None, encoding)
                    .is_ok()
            }
            None => self
                .url
                .parse_into_with_encoding(input, config.base.as_ref(), encoding)
                .is_ok(),
        }
    }

    /// Appends what `get` asks for to `out`; returns false, having written
    /// nothing, when `input` is not a valid URL (or `rewrite` made it no
    /// URL).
    #[inline]
    pub fn write(&mut self, config: &Config, input: &str, out: &mut Vec<u8>) -> bool {
        let start = out.len();
        let written = match &config.get {
            Get::Form(_)
                if config.base.is_none()
                    && config.default_scheme.is_none()
                    && config.query_encoding.is_utf8()
                    && config.edits.is_empty() =>
            {
                // The command's path for a line without a base: parsing
                // and canonicalizing in one pass.
                is_line(input, self.check_newlines)
                    && config
                        .canon
                        .parse_apply(input, &mut self.url, &mut self.scratch, out)
                        .is_ok()
            }
            Get::Form(_) => {
                if !self.parse(config, input) {
                    return false;
                }
                config.canon.apply(&self.url, &mut self.scratch, out);
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
        if rewrites
            .rewrite_output(out, start, &mut self.rewritten)
            .is_none()
        {
            out.truncate(start);
            return false;
        }
        true
    }

    /// Makes `self.canonical` the canonical URL (in the URL form, after
    /// `rewrite`) of the URL just parsed, when the profile has rules or a
    /// rewrite is given (else that is `self.url`). Returns false if it
    /// does not parse.
    fn make_canonical(&mut self, config: &Config) -> bool {
        !config.reparse || self.canonical(config).is_some()
    }

    /// The canonical URL (in the URL form, after `rewrite`) of the URL
    /// just parsed.
    fn canonical(&mut self, config: &Config) -> Option<&Url> {
        if !config.reparse {
            return Some(&self.url);
        }
        self.text.clear();
        config
            .url_canon
            .apply(&self.url, &mut self.scratch, &mut self.text);
        if let Ok(Some(rewrites)) = &config.url_rewrite {
            // A rewrite that makes it no URL makes it invalid (below).
            if let std::borrow::Cow::Owned(changed) = rewrites.apply(&self.text) {
                self.text = changed;
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
