//! The normalizer's options: what to select in a line, what to write for
//! invalid lines, and everything else [`Options`] holds.

use std::fmt;
use std::num::NonZeroUsize;
use std::ops::Range;
use std::str::FromStr;

use super::json_field;
use super::quoting::{Located, Quoting};
use super::{
    AccessLog, AddField, DefaultScheme, Delimiter, Get, Invalid, InvalidUtf8, JsonPath, Resolution,
};
use crate::canon::Canonicalizer;
use crate::Url;

/// What to write for a line that does not give a URL.
///
/// # Example
///
/// ```
/// use normurl::normalize::OnInvalid;
///
/// assert_eq!("skip".parse(), Ok(OnInvalid::Skip));
/// assert_eq!(OnInvalid::default().name(), "keep");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OnInvalid {
    /// Write the input line unchanged (with only the field selected: the
    /// field unchanged; a line over the record limit, whose fields are not
    /// looked for, is written whole).
    #[default]
    Keep,
    /// Write an empty line, so output line N still belongs to input line N.
    Empty,
    /// Write nothing.
    Skip,
    /// Stop the run with an error naming the line.
    Fail,
}

impl OnInvalid {
    /// Every policy.
    pub const ALL: [OnInvalid; 4] = [
        OnInvalid::Keep,
        OnInvalid::Empty,
        OnInvalid::Skip,
        OnInvalid::Fail,
    ];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            OnInvalid::Keep => "keep",
            OnInvalid::Empty => "empty",
            OnInvalid::Skip => "skip",
            OnInvalid::Fail => "fail",
        }
    }
}

impl fmt::Display for OnInvalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for OnInvalid {
    type Err = String;

    fn from_str(s: &str) -> Result<OnInvalid, String> {
        OnInvalid::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| format!("unknown policy {s:?} (expected keep, empty, skip or fail)"))
    }
}

/// Where the URL is in a line.
///
/// # Example
///
/// ```
/// use normurl::normalize::{Delimiter, FieldOutput, Select};
/// use std::num::NonZeroUsize;
///
/// // Heritrix crawl.log: the URL is field 4, its "via" (referrer) field 6.
/// let select = Select::Field {
///     field: NonZeroUsize::new(4).unwrap(),
///     base_field: None,
///     delimiter: Delimiter::Blanks,
///     output: FieldOutput::Line,
/// };
/// # let _ = select;
///
/// // A CDXJ or Common Crawl index line: the URL is the JSON's "url".
/// let select = Select::Json {
///     path: "url".parse().unwrap(),
///     output: FieldOutput::Line,
/// };
/// # let _ = select;
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Select {
    /// The whole line is the URL.
    #[default]
    Line,
    /// One field of each line is the URL.
    Field {
        /// The field's number, from 1.
        field: NonZeroUsize,
        /// The field holding a base URL to resolve the URL against (itself
        /// resolved against [`Options::base`], if given).
        base_field: Option<NonZeroUsize>,
        /// What separates fields.
        delimiter: Delimiter,
        /// Whether to write the whole line or just the field.
        output: FieldOutput,
    },
    /// The string at a path in the line's JSON object: JSON Lines, or
    /// CDXJ's `urlkey timestamp {json}`. The normalized URL replaces the
    /// string's contents, escaped as JSON. A line without a JSON object,
    /// or with a broken one, is [`Invalid::Json`]; one without a string at
    /// the path is [`Invalid::MissingJsonField`].
    Json {
        /// Where the URL is in the object.
        path: JsonPath,
        /// Whether to write the whole line or just the URL (decoded, not
        /// escaped).
        output: FieldOutput,
    },
    /// The request's URL or the referrer of an access log line. The
    /// request's target, usually a path, is resolved against
    /// [`Options::base`] or, in [`LogFormat::VhostCombined`], the line's
    /// own site.
    ///
    /// [`LogFormat::VhostCombined`]: super::LogFormat::VhostCombined
    Log {
        /// The log's format and which URL to normalize.
        log: AccessLog,
        /// Whether to write the whole line or just the URL.
        output: FieldOutput,
    },
}

impl Select {
    /// The byte range of the URL in `line` as it was read: without the
    /// quotes of a quoted field or a JSON string, and not decoded. `None`
    /// when the line lacks it (or its JSON is broken). This is what
    /// [`Options::original`] writes with [`FieldOutput::Field`].
    ///
    /// # Example
    ///
    /// ```
    /// use normurl::normalize::{FieldOutput, Select};
    ///
    /// let select = Select::Json { path: "url".parse()?, output: FieldOutput::Line };
    /// let line = br#"com,a)/ 2024 {"url": "http://a.com/"}"#;
    /// assert_eq!(select.url_range(line), Some(22..35));
    /// assert_eq!(select.url_range(b"{}"), None);
    /// # Ok::<(), String>(())
    /// ```
    pub fn url_range(&self, line: &[u8]) -> Option<Range<usize>> {
        self.locate(line).ok().map(|at| at.range)
    }

    #[inline]
    pub(super) fn locate(&self, line: &[u8]) -> Result<Located, Invalid> {
        match self {
            Select::Line => Ok(Located::plain(0..line.len())),
            Select::Field {
                field, delimiter, ..
            } => match delimiter.field(line, field.get()) {
                Some(r) => Ok(Located::field(line, r, *delimiter)),
                None => Err(Invalid::MissingField),
            },
            Select::Json { path, .. } => match json_field::locate(line, path) {
                Ok(found) => Ok(Located {
                    range: found.range,
                    quoting: Quoting::Json {
                        escaped: found.escaped,
                    },
                }),
                Err(json_field::JsonError::Broken) => Err(Invalid::Json),
                Err(json_field::JsonError::Missing) => Err(Invalid::MissingJsonField),
            },
            Select::Log { log, .. } => log.locate(line),
        }
    }
}

/// What to write in field mode.
///
/// # Example
///
/// ```
/// use normurl::normalize::FieldOutput;
///
/// assert_ne!(FieldOutput::Line, FieldOutput::Field);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FieldOutput {
    /// The line with the field replaced, every other byte unchanged.
    #[default]
    Line,
    /// Only the normalized field.
    Field,
}

/// Configuration of a [`Normalizer`](super::Normalizer).
///
/// # Example
///
/// ```
/// use normurl::normalize::{InvalidUtf8, Options};
/// use normurl::Url;
///
/// let options = Options {
///     base: Some(Url::parse("https://example.com/dir/")?),
///     invalid_utf8: InvalidUtf8::Reject,
///     ..Options::default()
/// };
/// # let _ = options;
/// # Ok::<(), normurl::ParseError>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Where the URL is in a line.
    pub select: Select,
    /// A base URL for relative references.
    pub base: Option<Url>,
    /// How relative references are resolved (`--resolve`, `--relative`).
    pub resolution: Resolution,
    /// What to do with bytes that are not UTF-8.
    pub invalid_utf8: InvalidUtf8,
    /// What to write for invalid lines.
    pub on_invalid: OnInvalid,
    /// Whether to write a side entry `reason TAB line` for every invalid
    /// line (the pipeline prefixes the line number).
    pub rejects: bool,
    /// Canonicalization applied after parsing (profile, rules, output
    /// form); the default, [`Canonicalizer::is_identity`], writes the
    /// WHATWG serialization.
    pub canon: Canonicalizer,
    /// Attach a dedup key (a 128-bit hash of the written URL or key) to
    /// every valid line, for the writer's dedup filter.
    pub dedup: bool,
    /// Append a tab and the comma-separated names of the rules that changed
    /// the URL (`-` when none did) to every valid line, `-` to a blank
    /// line, and `invalid:` and the [`Invalid`] reason's name to a line
    /// without a URL, so that every line has the same columns.
    pub explain: bool,
    /// With [`dedup`](Options::dedup): also give every valid line its key
    /// (what would be written for the URL) as its sort key, for the
    /// writer's order check ([`Sinks::check_order`], `--assume-sorted`).
    ///
    /// [`Sinks::check_order`]: crate::pipeline::Sinks::check_order
    pub sort_keys: bool,
    /// With `--count`: the header line (see [`Options::header`]) starts
    /// with a `count` column ended by this byte (the count column the
    /// counted lines get), except as JSON.
    pub count_column: Option<u8>,
    /// Write valid lines as they were read (with [`FieldOutput::Field`],
    /// the field as it was read): the normalized URL is then only the
    /// [`dedup`](Options::dedup) key and the test of validity, so that
    /// duplicates and invalid lines can be dropped from a log or a CDX file
    /// without rewriting the lines that stay.
    ///
    /// # Example
    ///
    /// ```
    /// use normurl::normalize::{Normalizer, Options, OnInvalid};
    /// use normurl::pipeline::{Input, Pipeline, Sinks};
    ///
    /// let dir = tempfile::tempdir()?;
    /// let path = dir.path().join("urls.txt");
    /// std::fs::write(&path, "HTTP://Example.COM/a\nnot a url\nhttp://example.com/a\n")?;
    /// let options = Options {
    ///     original: true,
    ///     on_invalid: OnInvalid::Skip,
    ///     ..Options::default()
    /// };
    /// let pipeline = Pipeline::builder().build(Normalizer::new(options));
    /// let mut out = Vec::new();
    /// pipeline.run(vec![Input::path(&path)], Sinks::new("<stdout>", &mut out))?;
    /// // The lines with a valid URL, as they were written.
    /// assert_eq!(out, b"HTTP://Example.COM/a\nhttp://example.com/a\n");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub original: bool,
    /// What to write instead of the canonical URL: components, a template
    /// or a JSON object (`--get`, `--json`); `None` writes what the
    /// canonicalizer writes.
    pub get: Option<Get>,
    /// The Public Suffix List of [`get`](Options::get)'s components;
    /// `None` is the bundled one. (The canonicalizer's `strip-www` guard
    /// asks the list it was built with:
    /// [`CanonicalizerBuilder::public_suffixes`](crate::canon::CanonicalizerBuilder::public_suffixes).)
    pub psl: Option<std::sync::Arc<crate::component::PublicSuffixList>>,
    /// With [`FieldOutput::Line`]: write the value as a new column (joined
    /// with the delimiter, a space for [`Delimiter::Blanks`]) and the line
    /// unchanged, instead of replacing the URL field. Every line but a
    /// blank one gets the column: an empty one when it has no URL and is
    /// kept ([`OnInvalid::Keep`]), the name [`add_field_name`] in a
    /// [`header`]. With [`Delimiter::Csv`] the value is quoted if it holds
    /// the separator, a quote or a line break.
    ///
    /// [`add_field_name`]: Options::add_field_name
    /// [`header`]: Options::header
    pub add_field: Option<AddField>,
    /// The name of [`add_field`](Options::add_field)'s column, written in
    /// the [`header`](Options::header) line (`normalized_url`, `surt`,
    /// `registered_domain`: the command names it after `--get`).
    pub add_field_name: String,
    /// Parse inputs without a scheme with this one
    /// ([`scheme_less`](crate::canon::scheme_less) says which).
    pub default_scheme: Option<DefaultScheme>,
    /// The first line of each input is a header (CDX's ` CDX N b a m s k
    /// r …`, a CSV header): it is counted in
    /// [`Stats::headers`](super::Stats::headers), never valid or invalid,
    /// and written as it is, with [`add_field`](Options::add_field)'s
    /// column name added; with [`FieldOutput::Field`], only its field
    /// (as read, without the quotes around it); with JSON objects
    /// ([`Get::Json`]), as `{"header":LINE,"line":N}`.
    pub header: bool,
    /// The `--rewrite` rules, applied to what the canonicalizer writes
    /// (before [`get`](Options::get)'s components); `None` costs nothing.
    pub rewrite: Option<std::sync::Arc<super::Rewrites>>,
    /// Scope rules (`--keep-if`, `--drop-if`): a line whose normalized
    /// URL the scope drops is not written and is counted in
    /// [`Stats::dropped`](super::Stats::dropped); invalid and blank lines
    /// are not dropped. The normalized URL is the canonical URL after the
    /// profile's rules and the `--rewrite` rules, in URL form (whatever
    /// [`Options::get`] writes), with ASCII hosts.
    pub scope: Option<std::sync::Arc<crate::scope::Scope>>,
    /// Edits of each parsed URL (`--set`, `--append`, `--set-param`,
    /// `--delete-param`), applied in order before the profile's rules; an
    /// empty list costs nothing. Not applied with
    /// [`Resolution::relative`](super::Resolution) (a relative reference
    /// is no URL to edit; the command refuses the combination).
    pub edits: Vec<super::Edit>,
}
