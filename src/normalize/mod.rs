/*!
The per-line work of the `normurl` command: find the URL in a line, apply
the UTF-8 policy, parse it (against a base, if any) with a reused [`Url`],
and write the line back with the URL normalized.

[`Normalizer`] is a [`Transform`], so the [`pipeline`](crate::pipeline) runs
it on every line of a stream, in parallel and in order. It never allocates
per line once its buffers have grown, and never panics on any input: every
line gives an output line, a counted skip, a rejects entry or a stop, as the
[`OnInvalid`] policy says.

# Example

```
use normurl::normalize::{Normalizer, Options, OnInvalid};
use normurl::pipeline::{Input, Pipeline, Sinks};

let dir = tempfile::tempdir()?;
let path = dir.path().join("urls.txt");
std::fs::write(&path, "HTTP://Example.COM/a/../b\nnot a url\n\n")?;

let options = Options { on_invalid: OnInvalid::Empty, ..Options::default() };
let pipeline = Pipeline::builder().build(Normalizer::new(options));
let mut out = Vec::new();
let summary = pipeline.run(vec![Input::path(&path)], Sinks::new("<stdout>", &mut out))?;
assert_eq!(out, b"http://example.com/b\n\n\n");
assert_eq!((summary.stats.valid, summary.stats.invalid(), summary.stats.blank), (1, 1, 1));
# Ok::<(), Box<dyn std::error::Error>>(())
```
*/

mod access_log;
mod edit;
mod fields;
mod get;
mod json_field;
mod options;
mod quoting;
mod resolve;
mod rewrite;
mod rule_options;
mod stats;
mod utf8;

use std::ops::Range;

use crate::canon::{key_hash, Canonicalizer, RuleSet, Scratch};
use crate::pipeline::{Framing, Outcome, Output, Part, Record, Stop, Transform};
use crate::scope::{Decision, Scope, ScopeState};
use crate::{Mode, ParseError, QueryEncoding, Url};
use quoting::{Located, Quoting};

pub use access_log::{AccessLog, LogFormat, LogPart};
pub use edit::{apply as apply_edits, Edit, EditError, Edited, Setter};
pub use fields::Delimiter;
pub use get::{AddField, DefaultScheme, Get};
pub use json_field::JsonPath;
pub use options::{FieldOutput, OnInvalid, Options, Select};
pub use resolve::Resolution;
pub use rewrite::{RewriteError, Rewrites};
pub use rule_options::{
    parse_query_separators, QuerySeparators, ReadError, RuleOptionError, RuleOptions, Source,
};
pub use stats::{Invalid, Stats};
pub use utf8::InvalidUtf8;

/// The [`Transform`] that normalizes the URL of every line; see the
/// [module documentation](self).
///
/// Lines are handled as follows:
///
/// * an empty line is written as an empty line (skipped with
///   [`OnInvalid::Skip`]) and counted as blank, not invalid;
/// * a line whose URL parses is written with the URL replaced by its
///   WHATWG serialization;
/// * any other line is invalid: it is counted by [`Invalid`] reason, sent
///   to the side output if [`Options::rejects`] is set, and written as
///   [`Options::on_invalid`] says. Lines over the pipeline's record limit
///   are invalid ([`Invalid::TooLong`]); with [`OnInvalid::Keep`] they are
///   copied through whole, in pieces.
///
/// # Example
///
/// ```
/// use normurl::normalize::{Delimiter, FieldOutput, Normalizer, Options, Select};
/// use normurl::pipeline::{Input, Pipeline, Sinks};
/// use std::num::NonZeroUsize;
///
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("links.tsv");
/// std::fs::write(&path, "HTTP://A.example/dir/page\t../Img.PNG\tx\n")?;
/// let options = Options {
///     select: Select::Field {
///         field: NonZeroUsize::new(2).unwrap(),
///         base_field: NonZeroUsize::new(1),
///         delimiter: Delimiter::Byte(b'\t'),
///         output: FieldOutput::Line,
///     },
///     ..Options::default()
/// };
/// let mut out = Vec::new();
/// Pipeline::builder()
///     .build(Normalizer::new(options))
///     .run(vec![Input::path(&path)], Sinks::new("<stdout>", &mut out))?;
/// assert_eq!(out, b"HTTP://A.example/dir/page\thttp://a.example/Img.PNG\tx\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Normalizer {
    options: Options,
    /// Whether a component of [`Options::get`] asks the Public Suffix List.
    needs_psl: bool,
    /// Whether each line is a URL to write canonicalized, with nothing
    /// else to do (no field, base, component but of the host, resolution
    /// mode or encoding): `record` takes a short way.
    plain_lines: bool,
    /// Whether a plain line writes its canonical URL and nothing else (no
    /// dedup key, `--explain` column, `--original` or JSON object):
    /// `record` then skips [`Normalizer::emit`], whose checks for those
    /// cost every line of the default run (docs/performance-history.md).
    bare_lines: bool,
    /// Whether [`Options::get`] is a template of the scheme and host
    /// only, which [`Normalizer::parse_write`] reads off the canonical
    /// URL.
    host_get: bool,
    /// Whether the canonicalizer writes the WHATWG serialization as it is
    /// ([`Canonicalizer::is_identity`]), asked by [`Normalizer::host_get`]
    /// on every line.
    canon_is_identity: bool,
    /// With `host_get` and `canon_is_identity`, the part of the Public
    /// Suffix List that [`Options::get`] is, if it is one component of the
    /// list (`--get registered_domain`): [`Normalizer::parse_write`] then
    /// calls [`Normalizer::write_psl_part`], one call fewer.
    psl_part: Option<crate::component::Part>,
    /// Whether every output line is a JSON object (asked on every valid
    /// line: comparing `Option<Get>` each time costs more;
    /// docs/performance-history.md).
    json: bool,
    /// With scope rules, the canonicalizer of the normalized URL they
    /// decide on, when the URL as parsed is not already it (a profile's
    /// rules, `--rewrite`, another output form or Unicode hosts).
    scope_canon: Option<Canonicalizer>,
}

/// One worker's scratch space: parsed URLs and UTF-8 buffers, reused for
/// every line.
#[derive(Debug, Default)]
pub struct State {
    parse: ParseBuffers,
    /// The canonicalizer's scratch space, apart from `parse` so that both
    /// can be borrowed at once (moving it out and back for each line cost
    /// three `memcpy` calls and a drop, a large part of the `whatwg`
    /// profile's instructions: docs/performance-history.md).
    canon: Scratch,
    get: get::GetBuffers,
    /// A URL a `--rewrite` rule wrote, parsed back.
    rewritten: Option<Url>,
    /// With [`Options::edits`]: the URL's serialization before them.
    before_edits: String,
    /// The scope rules' normalized URL and buffers.
    scope: ScopeBuffers,
}

/// What deciding a line's scope reuses.
#[derive(Debug, Default)]
struct ScopeBuffers {
    /// The normalized URL, parsed back from `bytes`.
    canonical: Option<Url>,
    bytes: Vec<u8>,
    state: ScopeState,
}

/// What a line's writer tells `--explain`: the rules that changed the
/// URL, and whether a `--rewrite` rule did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Fired {
    rules: RuleSet,
    rewritten: bool,
    /// What [`Options::edits`] did, before the rules.
    edited: Edited,
}

impl From<RuleSet> for Fired {
    #[inline]
    fn from(rules: RuleSet) -> Fired {
        Fired {
            rules,
            rewritten: false,
            edited: Edited::default(),
        }
    }
}

/// What parsing a line's URL reuses.
#[derive(Debug, Default)]
struct ParseBuffers {
    /// The line's URL (`None` until a first URL parses; then recycled).
    url: Option<Url>,
    /// The line's base URL, from `--base-field`.
    base: Option<Url>,
    scratch: Vec<u8>,
    base_scratch: Vec<u8>,
    /// The line's query encoding (`--query-encoding`, `--charset-field`).
    encoding: QueryEncoding,
    /// The input with `--default-scheme`'s scheme in front.
    scheme_buf: String,
    /// The URL's and the base's bytes with their quoting undone (JSON
    /// escapes, CSV's `""`), for the few that have any.
    unquoted: Vec<u8>,
    base_unquoted: Vec<u8>,
}

impl Normalizer {
    /// A normalizer with the given options.
    pub fn new(options: Options) -> Normalizer {
        let o = &options;
        let res = &o.resolution;
        // The common case (a URL per line, written canonicalized), which
        // `record` runs without the steps other options need.
        // A template of host components is read off the canonical URL,
        // which a rewrite may still change.
        // Edits change the parsed URL, which the host template's short way
        // never holds.
        let host_get = get::of_host(o.get.as_ref()) && o.rewrite.is_none() && o.edits.is_empty();
        let plain_lines = matches!(o.select, Select::Line)
            && o.base.is_none()
            && (o.get.is_none() || host_get)
            && o.default_scheme.is_none()
            && !res.relative
            && res.charset_field.is_none()
            && res.query_encoding.is_utf8()
            && o.rewrite.is_none()
            && o.scope.is_none();
        let json = o.get == Some(Get::Json);
        let bare_lines = plain_lines && !o.dedup && !o.explain && !o.original && !json;
        let canon_is_identity = options.canon.is_identity();
        let scope_canon = o
            .scope
            .as_ref()
            .filter(|_| !canon_is_identity || o.rewrite.is_some())
            .map(|_| o.canon.url_form());
        Normalizer {
            scope_canon,
            needs_psl: get::needs_psl(options.get.as_ref()),
            plain_lines,
            bare_lines,
            host_get,
            canon_is_identity,
            psl_part: get::psl_part(o.get.as_ref()).filter(|_| host_get && canon_is_identity),
            json,
            options,
        }
    }

    /// The canonicalizer of the options, or without one the `whatwg`
    /// profile's, which writes the WHATWG serialization: every line goes
    /// through one.
    #[inline]
    fn canon(&self) -> &Canonicalizer {
        &self.options.canon
    }

    /// Whether URLs are parsed against a base (`--base`, `--base-field`).
    fn has_base(&self) -> bool {
        self.options.base.is_some()
            || matches!(
                self.options.select,
                Select::Field {
                    base_field: Some(_),
                    ..
                }
            )
            || matches!(self.options.select, Select::Log { log, .. } if log.format.has_host())
    }

    /// The options.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The framing the options need from the pipeline
    /// ([`PipelineBuilder::framing`](crate::pipeline::PipelineBuilder::framing)):
    /// with CSV fields ([`Delimiter::Csv`]) a record ends at a line break
    /// outside quotes, so a quoted field may hold line breaks.
    pub fn framing(&self) -> Framing {
        match self.options.select {
            Select::Field {
                delimiter: Delimiter::Csv(separator),
                ..
            } => Framing::QuotedFields {
                quote: b'"',
                separator,
            },
            _ => Framing::Lines,
        }
    }

    /// Whether every output line is a JSON object ([`Get::Json`]).
    pub fn writes_json(&self) -> bool {
        self.json
    }

    /// Whether the output uses line numbers
    /// ([`PipelineBuilder::number_lines`](crate::pipeline::PipelineBuilder::number_lines)):
    /// JSON objects ([`Get::Json`]) then end with `"line":N`, where the
    /// record starts.
    pub fn wants_line_numbers(&self) -> bool {
        self.json()
    }

    /// Where the URL of `line` is.
    #[inline]
    fn locate(&self, line: &[u8]) -> Result<Located, Invalid> {
        self.options.select.locate(line)
    }

    /// Decodes and parses the URL of `line`, which is at `at`. `text` is
    /// the line as a string, if the pipeline already knows it is UTF-8.
    fn parse<'s>(
        &self,
        buffers: &'s mut ParseBuffers,
        line: &[u8],
        text: Option<&str>,
        at: &Located,
    ) -> Result<&'s mut Url, Invalid> {
        let ParseBuffers {
            url,
            base,
            scratch,
            base_scratch,
            encoding,
            scheme_buf,
            unquoted,
            base_unquoted,
        } = buffers;
        let o = &self.options;
        let (mode, encoding) = (o.resolution.mode, *encoding);
        let Select::Field {
            base_field: Some(m),
            delimiter,
            ..
        } = o.select
        else {
            // A vhost log line's site column is its base; one that is not
            // a host fails only the relative targets, as a base field does.
            let line_base = match &o.select {
                Select::Log { log, .. } if log.format.has_host() => {
                    if log.host_base(line, base_scratch) {
                        access_log_base(base, base_scratch).map(Some)
                    } else {
                        Err(Invalid::Url(ParseError::RelativeUrlWithoutBase))
                    }
                }
                _ => Ok(o.base.as_ref()),
            };
            let url_text = self.url_text(line, text, at, scratch, unquoted, scheme_buf)?;
            return match line_base {
                Ok(b) => parse_into(url, url_text, b, mode, encoding).map_err(Invalid::Url),
                Err(why) => parse_into(url, url_text, None, mode, encoding).map_err(|e| match e {
                    ParseError::RelativeUrlWithoutBase => why,
                    e => Invalid::Url(e),
                }),
            };
        };
        // A base matters only to a relative reference: an absolute URL is
        // valid whatever the base field holds. `-` (a crawl.log seed's
        // "via", a log's "-") and an empty field say the line has no base.
        let line_base = match delimiter.field(line, m.get()) {
            None => Err(Invalid::MissingBaseField),
            Some(r) => {
                let base_at = Located::field(line, r, delimiter);
                match &line[base_at.range.clone()] {
                    b"" | b"-" => Err(Invalid::Url(ParseError::RelativeUrlWithoutBase)),
                    _ => {
                        let base_text =
                            self.field_text(line, text, &base_at, base_scratch, base_unquoted)?;
                        parse_into(base, base_text, o.base.as_ref(), mode, encoding)
                            .map_err(Invalid::Base)
                    }
                }
            }
        };
        let url_text = self.field_text(line, text, at, scratch, unquoted)?;
        match line_base {
            Ok(b) => parse_into(url, url_text, Some(&*b), mode, encoding).map_err(Invalid::Url),
            // Without the line's base only an absolute URL is valid; a
            // relative one is invalid for the base's reason. (--base is the
            // base of the base field, not a stand-in for it.)
            Err(why) => parse_into(url, url_text, None, mode, encoding).map_err(|e| match e {
                ParseError::RelativeUrlWithoutBase => why,
                e => Invalid::Url(e),
            }),
        }
    }

    /// The text of the URL at `at` in `line`: a slice of `text`, the line
    /// as a string if the pipeline already knows it is UTF-8, or else what
    /// the `--invalid-utf8` policy makes of the bytes (in `scratch`). Bytes
    /// that are quoted (JSON escapes, CSV's `""`) are first decoded into
    /// `unquoted`.
    #[inline]
    fn field_text<'a>(
        &self,
        line: &'a [u8],
        text: Option<&'a str>,
        at: &Located,
        scratch: &'a mut Vec<u8>,
        unquoted: &'a mut Vec<u8>,
    ) -> Result<&'a str, Invalid> {
        let range = at.range.clone();
        let raw = &line[range.clone()];
        if at.quoting.is_no_value(raw) {
            return Err(Invalid::NoValue);
        }
        if at.quoting.needs_decoding(raw) {
            unquoted.clear();
            at.quoting
                .decode(raw, unquoted)
                .map_err(|()| Invalid::Json)?;
            return self
                .options
                .invalid_utf8
                .apply(unquoted, scratch)
                .ok_or(Invalid::Utf8);
        }
        // `get` rather than indexing: a field range always falls on char
        // boundaries with an ASCII delimiter, but a library user may pick
        // any byte.
        match text.and_then(|t| t.get(range.clone())) {
            Some(t) => Ok(t),
            None => self
                .options
                .invalid_utf8
                .apply(&line[range], scratch)
                .ok_or(Invalid::Utf8),
        }
    }

    /// The text to parse for the URL at `at` in `line`:
    /// [`Normalizer::field_text`], then for an access log's request target
    /// in origin-form a path on the site's host
    /// ([`access_log::origin_form`]), and for anything else
    /// [`Normalizer::with_default_scheme`]. `buf` holds a prefixed text.
    #[inline]
    fn url_text<'a>(
        &self,
        line: &'a [u8],
        text: Option<&'a str>,
        at: &Located,
        scratch: &'a mut Vec<u8>,
        unquoted: &'a mut Vec<u8>,
        buf: &'a mut String,
    ) -> Result<&'a str, Invalid> {
        let url_text = self.field_text(line, text, at, scratch, unquoted)?;
        if let Select::Log {
            log:
                AccessLog {
                    part: LogPart::Request,
                    ..
                },
            ..
        } = self.options.select
        {
            // A path is never given a scheme: with `--default-scheme`,
            // `//evil.example/x` would be a URL of that host.
            match access_log::origin_form(url_text) {
                Some(true) => return Ok(access_log::as_path(url_text, buf)),
                Some(false) => return Ok(url_text),
                None => {}
            }
        }
        Ok(self.with_default_scheme(url_text, buf))
    }

    /// `text`, or with `--default-scheme` and no scheme, the scheme and
    /// `text` in `buf`.
    #[inline]
    fn with_default_scheme<'a>(&self, text: &'a str, buf: &'a mut String) -> &'a str {
        match self.options.default_scheme {
            None => text,
            Some(s) => crate::canon::with_default_scheme(text, s.name(), buf),
        }
    }

    /// What of `line` is written when it is written as it was read (an
    /// invalid line with [`OnInvalid::Keep`], any line with
    /// [`Options::original`]): the URL field with [`FieldOutput::Field`]
    /// (nothing when the line lacks it, `field` being `None`), else the
    /// whole line.
    fn as_read<'l>(&self, line: &'l [u8], field: Option<Range<usize>>) -> &'l [u8] {
        match self.output() {
            Some(FieldOutput::Field) => field.map_or(&[][..], |r| &line[r]),
            _ => line,
        }
    }

    /// What is written of a line with a field selected; `None` when the
    /// whole line is the URL.
    #[inline]
    fn output(&self) -> Option<FieldOutput> {
        match self.options.select {
            Select::Line => None,
            Select::Field { output, .. }
            | Select::Json { output, .. }
            | Select::Log { output, .. } => Some(output),
        }
    }

    /// Writes `line`, which its caller knows holds no URL for reason
    /// `why` (`normurl warc`'s record without a WARC-Target-URI), as any
    /// invalid line: counted, sent to the side output and written as
    /// [`Options::on_invalid`] says.
    pub fn invalid_line(
        &self,
        why: Invalid,
        line: &[u8],
        out: &mut Output<'_, Stats>,
    ) -> Result<Outcome, Stop> {
        out.stats().lines += 1;
        self.invalid(why, line, None, out)
    }

    /// Handles a line that gave no URL. `field` is the URL field's range,
    /// if the line has that field.
    fn invalid(
        &self,
        why: Invalid,
        line: &[u8],
        field: Option<Range<usize>>,
        out: &mut Output<'_, Stats>,
    ) -> Result<Outcome, Stop> {
        out.stats().count_invalid(why);
        if self.options.rejects {
            let side = out.side();
            side.extend_from_slice(why.name().as_bytes());
            side.push(b'\t');
            side.extend_from_slice(line);
        }
        match self.options.on_invalid {
            OnInvalid::Keep | OnInvalid::Empty if self.json() => {
                let keep = self.options.on_invalid == OnInvalid::Keep;
                Normalizer::json_invalid(why, keep.then_some(line), out.data());
                Normalizer::json_line(out);
                Ok(Outcome::Emit)
            }
            OnInvalid::Keep => {
                let data = out.data();
                // A record whose quote is left open comes back as it was:
                // a column added after it would be inside its quotes.
                let column = self.new_column().filter(|_| why != Invalid::UnclosedQuote);
                match column {
                    // The new column, empty: every row has the same columns.
                    Some((AddField::First, delimiter)) => {
                        data.extend_from_slice(self.empty_column());
                        data.extend_from_slice(delimiter);
                        data.extend_from_slice(line);
                    }
                    Some((AddField::Last, delimiter)) => {
                        data.extend_from_slice(line);
                        data.extend_from_slice(delimiter);
                        data.extend_from_slice(self.empty_column());
                    }
                    None => data.extend_from_slice(self.as_read(line, field)),
                }
                self.explain_invalid(why, out.data());
                Ok(Outcome::Emit)
            }
            OnInvalid::Empty => {
                self.explain_invalid(why, out.data());
                Ok(Outcome::Emit)
            }
            OnInvalid::Skip => {
                out.stats().skipped += 1;
                Ok(Outcome::Skip)
            }
            OnInvalid::Fail => Err(stop(why)),
        }
    }

    /// Writes the header line (see [`Options::header`]).
    #[cold]
    #[inline(never)]
    fn header(&self, line: &[u8], out: &mut Output<'_, Stats>) {
        if self.json() {
            // Every output line is a JSON object, the header's too: `jq`
            // reads the whole output, and nothing of the input is lost.
            let data = out.data();
            data.extend_from_slice(b"{\"header\":");
            crate::component::json::write_string(line, data);
            data.push(b'}');
            Normalizer::json_line(out);
            return;
        }
        let data = out.data();
        if let Some(sep) = self.options.count_column {
            data.extend_from_slice(b"count");
            data.push(sep);
        }
        self.header_columns(line, data);
        if self.options.explain {
            // Every line gets the `--explain` column: the header its name.
            data.extend_from_slice(b"\trules");
        }
    }

    /// The header line's own columns, and the name of `--add-field`'s.
    fn header_columns(&self, line: &[u8], data: &mut Vec<u8>) {
        let o = &self.options;
        let name_at = match self.new_column() {
            None => {
                // With only the URL's field written, the header's field at
                // that place names the column.
                let field = self.locate(line).ok().map(|at| at.range);
                data.extend_from_slice(self.as_read(line, field));
                return;
            }
            Some((AddField::First, _)) => data.len(),
            Some((AddField::Last, delimiter)) => {
                data.extend_from_slice(line);
                data.extend_from_slice(delimiter);
                data.len()
            }
        };
        data.extend_from_slice(o.add_field_name.as_bytes());
        self.fit_new_column(data, name_at);
        if let Some((AddField::First, delimiter)) = self.new_column() {
            data.extend_from_slice(delimiter);
            data.extend_from_slice(line);
        }
    }

    /// With `--add-field` (and the line written, not a JSON object): where
    /// the new column goes and the delimiter that joins it to the line.
    fn new_column(&self) -> Option<(AddField, &'static [u8])> {
        if self.output() != Some(FieldOutput::Line) || self.json() {
            return None;
        }
        Some((self.options.add_field?, self.delimiter()))
    }

    /// Makes the new column's value or name in `data[start..]` one field:
    /// with CSV, quoted when it holds the separator, a quote or a line
    /// break (RFC 4180 section 2); between blanks, `-` when it is empty
    /// (a run of blanks is one separator, so an empty field cannot be
    /// written; `-` is "no value" in crawl logs and CDX files).
    #[inline]
    fn fit_new_column(&self, data: &mut Vec<u8>, start: usize) {
        match self.options.select {
            Select::Field {
                delimiter: Delimiter::Csv(separator),
                ..
            } => Quoting::CsvBare(separator).escape(data, start),
            Select::Field {
                delimiter: Delimiter::Blanks,
                ..
            } if data.len() == start => data.push(b'-'),
            _ => {}
        }
    }

    /// The new column of a line kept without a URL: empty, or `-` between
    /// blanks ([`Normalizer::fit_new_column`]).
    fn empty_column(&self) -> &'static [u8] {
        match self.options.select {
            Select::Field {
                delimiter: Delimiter::Blanks,
                ..
            } => b"-",
            _ => b"",
        }
    }

    /// The `--explain` column of a line without a URL.
    fn explain_invalid(&self, why: Invalid, data: &mut Vec<u8>) {
        if self.options.explain {
            data.extend_from_slice(b"\tinvalid:");
            data.extend_from_slice(why.name().as_bytes());
        }
    }

    /// Parses the URL of `line`, which is at `at`, without a base, and
    /// writes the line with [`Normalizer::emit`]; canonicalizing as it
    /// parses ([`Canonicalizer::parse_apply`]) is faster than parsing
    /// first.
    #[inline]
    // The parts of `State` that `record` has already split apart.
    #[allow(clippy::too_many_arguments)]
    fn parse_emit(
        &self,
        buffers: &mut ParseBuffers,
        canon_scratch: &mut Scratch,
        rewritten: &mut Option<Url>,
        get: &mut get::GetBuffers,
        line: &[u8],
        text: Option<&str>,
        at: &Located,
        out: &mut Output<'_, Stats>,
    ) -> Result<(), Invalid> {
        let ParseBuffers {
            url,
            scratch,
            scheme_buf,
            unquoted,
            ..
        } = buffers;
        let url_text = self.url_text(line, text, at, scratch, unquoted, scheme_buf)?;
        let url = url.get_or_insert_with(|| Url::parse("about:blank").expect("valid"));
        self.emit(line, at, out, |data| {
            let start = data.len();
            let fired = self.parse_write(url_text, url, canon_scratch, get, data)?;
            self.rewrite(fired, data, start, rewritten)
        })
    }

    /// Whether `scope` keeps `url` (the line's URL as parsed), decided on
    /// its normalized URL: the canonical URL after the profile's rules
    /// and the `--rewrite` rules. A rewrite that makes it no URL makes
    /// the line invalid, as writing it would.
    fn in_scope(
        &self,
        scope: &Scope,
        url: &Url,
        buffers: &mut ScopeBuffers,
        canon_scratch: &mut Scratch,
    ) -> Result<bool, Invalid> {
        let ScopeBuffers {
            canonical,
            bytes,
            state,
        } = buffers;
        let url = match &self.scope_canon {
            None => url,
            Some(canon) => {
                bytes.clear();
                canon.apply(url, canon_scratch, bytes);
                let changed = match self.options.rewrite.as_deref().map(|r| r.apply(bytes)) {
                    Some(std::borrow::Cow::Owned(changed)) => Some(changed),
                    _ => None,
                };
                let rewritten = changed.is_some();
                if let Some(changed) = changed {
                    *bytes = changed;
                }
                let why = |e| if rewritten { Invalid::Rewrite } else { e };
                let text = std::str::from_utf8(bytes).map_err(|_| why(Invalid::Utf8))?;
                parse_into(canonical, text, None, Mode::Whatwg, QueryEncoding::UTF_8)
                    .map_err(|e| why(Invalid::Url(e)))?
            }
        };
        Ok(scope.decide(url, state) == Decision::Keep)
    }

    /// Applies [`Options::edits`] to the line's parsed `url`, counting a
    /// line where a setter refused its value
    /// ([`Stats::edits_refused`]). `before` is scratch space.
    #[inline]
    fn edit(&self, url: &mut Url, before: &mut String, out: &mut Output<'_, Stats>) -> Edited {
        if self.options.edits.is_empty() {
            return Edited::default();
        }
        let before = self.options.explain.then_some(before);
        let edited = edit::apply(&self.options.edits, url, before);
        if edited.refused {
            out.stats().edits_refused += 1;
        }
        edited
    }

    /// A plain line ([`Normalizer::plain_lines`]) with edits: its URL
    /// parsed, edited and written canonicalized, without the steps of the
    /// general way that these options do not use.
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn plain_edit(
        &self,
        text: &str,
        line: &[u8],
        at: &Located,
        url: &mut Url,
        canon_scratch: &mut Scratch,
        before: &mut String,
        out: &mut Output<'_, Stats>,
    ) -> Result<(), Invalid> {
        url.parse_into(text, None).map_err(Invalid::Url)?;
        let edited = self.edit(url, before, out);
        if self.bare_lines {
            // What `emit` writes for these options: the URL alone.
            self.canon().apply(url, canon_scratch, out.data());
            return Ok(());
        }
        self.emit(line, at, out, |data| {
            let rules = self.canon().apply(url, canon_scratch, data);
            Ok(Fired {
                edited,
                ..Fired::from(rules)
            })
        })
    }

    /// Applies the `--rewrite` rules, if any, to the output the
    /// canonicalizer appended to `data` after `start`.
    #[inline]
    fn rewrite(
        &self,
        rules: RuleSet,
        data: &mut Vec<u8>,
        start: usize,
        url: &mut Option<Url>,
    ) -> Result<Fired, Invalid> {
        let rewritten = match &self.options.rewrite {
            None => false,
            Some(rewrites) => rewrites
                .rewrite(data, start, url)
                .map_err(|_| Invalid::Rewrite)?,
        };
        Ok(Fired {
            rules,
            rewritten,
            edited: Edited::default(),
        })
    }

    /// Parses `text` as an absolute URL and appends its canonical form, or
    /// the `--get` template of its host ([`Normalizer::host_get`]).
    #[inline(always)]
    fn parse_write(
        &self,
        text: &str,
        url: &mut Url,
        canon_scratch: &mut Scratch,
        get: &mut get::GetBuffers,
        data: &mut Vec<u8>,
    ) -> Result<RuleSet, Invalid> {
        if self.host_get {
            // Out of line: the plain lines' loop stays as small as
            // without templates (a call here slowed the default run:
            // docs/performance-history.md).
            if let Some(part) = self.psl_part {
                return self.write_psl_part(part, text, url, canon_scratch, get, data);
            }
            return self.parse_write_host(text, url, canon_scratch, get, data);
        }
        self.canon()
            .parse_apply(text, url, canon_scratch, data)
            .map_err(Invalid::Url)
    }

    /// [`Normalizer::parse_write`] with a template of the host.
    #[inline(never)]
    fn parse_write_host(
        &self,
        text: &str,
        url: &mut Url,
        canon_scratch: &mut Scratch,
        get: &mut get::GetBuffers,
        data: &mut Vec<u8>,
    ) -> Result<RuleSet, Invalid> {
        match &self.options.get {
            Some(Get::Template(t)) => self.write_host_get(t, text, url, get, canon_scratch, data),
            // Not `host_get` (which has a template): the canonical URL.
            _ => self
                .canon()
                .parse_apply(text, url, canon_scratch, data)
                .map_err(Invalid::Url),
        }
    }

    /// Writes a line whose URL parses: the URL (canonicalized, if a
    /// profile is set), which `write` appends, spliced into the line, a
    /// dedup key, and the `--explain` column. When `write` fails, nothing
    /// is written.
    #[inline]
    fn emit(
        &self,
        line: &[u8],
        at: &Located,
        out: &mut Output<'_, Stats>,
        write: impl FnOnce(&mut Vec<u8>) -> Result<Fired, Invalid>,
    ) -> Result<(), Invalid> {
        let o = &self.options;
        let field = at.range.clone();
        let data = out.data();
        let before = data.len();
        let [head, tail] = self.around_value(line, field.clone());
        head.iter().for_each(|h| data.extend_from_slice(h));
        let start = data.len();
        let fired = match write(data) {
            Ok(fired) => fired,
            Err(why) => {
                data.truncate(before);
                return Err(why);
            }
        };
        let key = o.dedup.then(|| key_hash(&data[start..]));
        let key_end = data.len();
        if let Some(key) = key {
            // Before --original rewrites what was written.
            if o.sort_keys {
                out.dedup_key_sorted(key, start..key_end);
            } else {
                out.dedup_key(key);
            }
        }
        let data = out.data();
        if o.original {
            // The URL was written for its key and to know it is valid.
            data.truncate(before);
            data.extend_from_slice(self.as_read(line, Some(field.clone())));
        } else {
            // Only a value put back in its field is quoted as the field
            // was; a JSON object is written as it is, an added column
            // quoted as a new field needs.
            if self.output() == Some(FieldOutput::Line) && !self.json() {
                if o.add_field.is_none() {
                    // The URL goes back where it was, quoted as it was there.
                    at.quoting.escape(data, start);
                } else {
                    self.fit_new_column(data, start);
                }
            }
            tail.iter().for_each(|t| data.extend_from_slice(t));
            if self.json() {
                // After the dedup key: the same URL on another line is a
                // duplicate still.
                Normalizer::json_line(out);
            }
        }
        let data = out.data();
        if o.explain {
            data.push(b'\t');
            if fired == Fired::default() {
                data.push(b'-');
            } else {
                // In the order they ran: the edits, the rules, --rewrite.
                let start = data.len();
                if fired.edited.changed {
                    data.extend_from_slice(b"edit,");
                }
                if fired.edited.refused {
                    data.extend_from_slice(b"edit-refused,");
                }
                fired.rules.write_names(data);
                if fired.rewritten {
                    if data.len() > start && data.last() != Some(&b',') {
                        data.push(b',');
                    }
                    data.extend_from_slice(b"rewrite");
                }
                if data.last() == Some(&b',') {
                    data.pop();
                }
            }
        }
        Ok(())
    }
}

impl Normalizer {
    /// What is written before and after a valid line's value: in field
    /// mode, the rest of the line (around it, or beside it with
    /// `--add-field`); else, or with JSON objects, nothing.
    #[inline]
    fn around_value<'l>(&self, line: &'l [u8], field: Range<usize>) -> [[&'l [u8]; 2]; 2] {
        if self.output() != Some(FieldOutput::Line) || self.json() {
            return [[b""; 2]; 2];
        }
        let delimiter = self.delimiter();
        match self.options.add_field {
            None => [[&line[..field.start], b""], [&line[field.end..], b""]],
            Some(AddField::First) => [[b""; 2], [delimiter, line]],
            Some(AddField::Last) => [[line, delimiter], [b""; 2]],
        }
    }
}

impl Normalizer {
    /// What joins `--add-field`'s column to the line: the field delimiter,
    /// a space between blank-separated fields.
    #[inline]
    fn delimiter(&self) -> &'static [u8] {
        match &self.options.select {
            Select::Field {
                delimiter: Delimiter::Byte(b) | Delimiter::Csv(b),
                ..
            } => std::slice::from_ref(&BYTES[*b as usize]),
            _ => b" ",
        }
    }
}

/// Every byte, to borrow a one-byte slice of any of them for `'static`.
static BYTES: [u8; 256] = {
    let mut all = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        all[i] = i as u8;
        i += 1;
    }
    all
};

/// Parses `input` into the recycled URL in `slot`, resolving it against
/// `base` in `mode`, its query in `encoding`.
fn parse_into<'s>(
    slot: &'s mut Option<Url>,
    input: &str,
    base: Option<&Url>,
    mode: Mode,
    encoding: QueryEncoding,
) -> Result<&'s mut Url, ParseError> {
    if let Some(base) = base.filter(|_| mode != Mode::Whatwg) {
        return resolve::resolve_into(slot, input, base, mode, encoding);
    }
    match slot {
        Some(url) => {
            url.parse_into_with_encoding(input, base, encoding)?;
            Ok(url)
        }
        None => Ok(slot.insert(Url::parse_with_encoding(input, base, encoding)?)),
    }
}

/// Parses the base an access log line's site column gave, in `text`,
/// into the recycled URL in `slot`.
fn access_log_base<'s>(slot: &'s mut Option<Url>, text: &[u8]) -> Result<&'s Url, Invalid> {
    // A host that is not UTF-8 is no domain name.
    let text = std::str::from_utf8(text).map_err(|_| Invalid::Base(ParseError::IdnaError))?;
    parse_into(slot, text, None, Mode::Whatwg, QueryEncoding::default())
        .map(|url| &*url)
        .map_err(Invalid::Base)
}

/// The stop of `--on-invalid=fail`.
fn stop(why: Invalid) -> Stop {
    Stop::new(format!("{why} ({})", why.name()))
}

/// A test hook, in debug builds only: a worker panics on a line equal to
/// the value of `NORMURL_DEBUG_PANIC_ON`, so that tests of the binary can
/// check that a panic in a worker ends the run with an error and never a
/// hang (tests/bad_input.rs). Release builds have no such code.
#[cfg(debug_assertions)]
fn debug_panic_hook(line: &[u8]) {
    static PANIC_ON: std::sync::OnceLock<Option<Vec<u8>>> = std::sync::OnceLock::new();
    let on = PANIC_ON.get_or_init(|| {
        std::env::var_os("NORMURL_DEBUG_PANIC_ON").map(std::ffi::OsString::into_encoded_bytes)
    });
    if on.as_deref() == Some(line) {
        panic!("injected by NORMURL_DEBUG_PANIC_ON");
    }
}

impl Transform for Normalizer {
    type State = State;
    type Stats = Stats;
    const WANTS_STR: bool = true;

    fn state(&self) -> State {
        State::default()
    }

    // Inlined into the pipeline's loop over lines: as a call, its
    // prologue and epilogue cost every line of the default run
    // (docs/performance-history.md).
    #[inline(always)]
    fn record(
        &self,
        state: &mut State,
        record: Record<'_>,
        out: &mut Output<'_, Stats>,
    ) -> Result<Outcome, Stop> {
        let line = record.bytes();
        #[cfg(debug_assertions)]
        debug_panic_hook(line);
        // Valid UTF-8 unless proven otherwise (checked once per batch by the
        // pipeline); the policy only runs for the rare other lines.
        let text = record.to_str().ok();
        out.stats().lines += 1;
        if out.is_first_of_input() && line.starts_with(b"WARC/1.") {
            // Its header lines would parse as URLs (`Content-Type:
            // text/html` has a scheme), its blocks are binary: no policy
            // makes sense of it line by line.
            return Err(Stop::new(
                "a WARC file, not lines of text: read it with `normurl warc`",
            ));
        }
        if self.options.header && out.is_first_of_input() {
            out.stats().headers += 1;
            self.header(line, out);
            return Ok(Outcome::Emit);
        }
        if record.unclosed_quote() {
            return self.invalid(Invalid::UnclosedQuote, line, None, out);
        }
        if line.is_empty() {
            out.stats().blank += 1;
            if self.options.on_invalid == OnInvalid::Skip {
                out.stats().skipped += 1;
                return Ok(Outcome::Skip);
            }
            if self.json() {
                out.data().extend_from_slice(b"{}");
                Normalizer::json_line(out);
            } else if self.options.explain {
                out.data().extend_from_slice(b"\t-");
            }
            return Ok(Outcome::Emit);
        }
        if let (true, Some(text)) = (self.plain_lines, text) {
            // What the general way below does for these options, without
            // the steps they do not use.
            let at = Located::plain(0..line.len());
            let url = state
                .parse
                .url
                .get_or_insert_with(|| Url::parse("about:blank").expect("valid"));
            let (canon_scratch, get) = (&mut state.canon, &mut state.get);
            let written = if !self.options.edits.is_empty() {
                let before = &mut state.before_edits;
                self.plain_edit(text, line, &at, url, canon_scratch, before, out)
            } else if self.bare_lines {
                // What `emit` writes for these options: the URL alone.
                let data = out.data();
                let before = data.len();
                self.parse_write(text, url, canon_scratch, get, data)
                    .map(drop)
                    .inspect_err(|_| data.truncate(before))
            } else {
                self.emit(line, &at, out, |data| {
                    self.parse_write(text, url, canon_scratch, get, data)
                        .map(Fired::from)
                })
            };
            return match written {
                Ok(()) => {
                    out.stats().valid += 1;
                    Ok(Outcome::Emit)
                }
                Err(why) => self.invalid(why, line, Some(at.range), out),
            };
        }
        let at = match self.locate(line) {
            Ok(at) => at,
            Err(why) => return self.invalid(why, line, None, out),
        };
        let State {
            parse: buffers,
            canon: canon_scratch,
            get: get_buffers,
            rewritten,
            scope: scope_buffers,
            before_edits,
        } = state;
        buffers.encoding = self.line_encoding(line);
        // Relative references (`--relative`) have no normalized URL to
        // decide on: the scope applies to absolute URLs only there.
        if let Some(scope) = self.options.scope.as_deref() {
            if !self.options.resolution.relative {
                let kept = self.parse(buffers, line, text, &at).and_then(|url| {
                    // The scope decides on the edited URL's normalized form;
                    // a refused edit is counted where the line is written.
                    if !self.options.edits.is_empty() {
                        edit::apply(&self.options.edits, url, None);
                    }
                    self.in_scope(scope, url, scope_buffers, canon_scratch)
                });
                match kept {
                    Ok(true) => {}
                    Ok(false) => {
                        let stats = out.stats();
                        stats.valid += 1;
                        stats.dropped += 1;
                        return Ok(Outcome::Skip);
                    }
                    Err(why) => return self.invalid(why, line, Some(at.range), out),
                }
            }
        }
        // No base and UTF-8: parsing and canonicalizing go in one step
        // (edits need the parsed URL first).
        let direct =
            !self.has_base() && buffers.encoding.is_utf8() && self.options.edits.is_empty();
        let written = if self.options.resolution.relative {
            self.relative_emit(buffers, line, text, &at, out)
        } else if let Some(get) = self
            .options
            .get
            .as_ref()
            .filter(|_| !direct || !self.host_get)
        {
            self.parse(buffers, line, text, &at).and_then(|url| {
                let edited = self.edit(url, before_edits, out);
                self.emit(line, &at, out, |data| {
                    self.write_get(get, url, get_buffers, canon_scratch, data)
                        .map(|fired| Fired { edited, ..fired })
                })
            })
        } else if !direct {
            self.parse(buffers, line, text, &at).and_then(|url| {
                let edited = self.edit(url, before_edits, out);
                self.emit(line, &at, out, |data| {
                    let start = data.len();
                    let fired = self.canon().apply(url, canon_scratch, data);
                    self.rewrite(fired, data, start, rewritten)
                        .map(|fired| Fired { edited, ..fired })
                })
            })
        } else {
            self.parse_emit(
                buffers,
                canon_scratch,
                rewritten,
                get_buffers,
                line,
                text,
                &at,
                out,
            )
        };
        match written {
            Ok(()) => {
                out.stats().valid += 1;
                Ok(Outcome::Emit)
            }
            Err(why) => self.invalid(why, line, Some(at.range), out),
        }
    }

    fn overlong(
        &self,
        _: &mut State,
        part: Part,
        bytes: &[u8],
        out: &mut Output<'_, Stats>,
    ) -> Result<Outcome, Stop> {
        let on_invalid = self.options.on_invalid;
        if part == Part::First {
            out.stats().lines += 1;
            out.stats().count_invalid(Invalid::TooLong);
            if on_invalid == OnInvalid::Skip {
                out.stats().skipped += 1;
            }
        }
        if self.options.rejects {
            let side = out.side();
            if part == Part::First {
                side.extend_from_slice(Invalid::TooLong.name().as_bytes());
                side.push(b'\t');
            }
            side.extend_from_slice(bytes);
        }
        match on_invalid {
            // The line is not kept whole: its object has no input.
            OnInvalid::Keep | OnInvalid::Empty if self.json() => {
                if part == Part::Last {
                    Normalizer::json_invalid(Invalid::TooLong, None, out.data());
                    Normalizer::json_line(out);
                }
                Ok(Outcome::Emit)
            }
            OnInvalid::Keep => {
                // The new column, empty, as for any line kept without a URL.
                let column = self.new_column();
                let empty = self.empty_column();
                let data = out.data();
                if let (Some((AddField::First, delimiter)), Part::First) = (column, part) {
                    data.extend_from_slice(empty);
                    data.extend_from_slice(delimiter);
                }
                data.extend_from_slice(bytes);
                if let (Some((AddField::Last, delimiter)), Part::Last) = (column, part) {
                    data.extend_from_slice(delimiter);
                    data.extend_from_slice(empty);
                }
                if part == Part::Last {
                    self.explain_invalid(Invalid::TooLong, out.data());
                }
                Ok(Outcome::Emit)
            }
            OnInvalid::Empty => {
                if part == Part::Last {
                    self.explain_invalid(Invalid::TooLong, out.data());
                }
                Ok(Outcome::Emit)
            }
            OnInvalid::Skip => Ok(Outcome::Skip),
            // With rejects, the stop waits for the last piece, so that the
            // rejects entry holds the whole line, as under the other
            // policies; stopping at the first piece wrote as much of the
            // line as the reader's batch held (the `command` fuzz target
            // found it). Without rejects nothing needs the rest of the line.
            OnInvalid::Fail if self.options.rejects && part != Part::Last => Ok(Outcome::Skip),
            OnInvalid::Fail => Err(stop(Invalid::TooLong)),
        }
    }
}

#[cfg(test)]
mod tests;
