//! Reference resolution modes in the per-line work (`--resolve`,
//! `--relative`): the [`Reference`] model of `crates/normurl-url/src/reference`, used
//! where the WHATWG parser's own resolution is not what is asked for.

use std::num::NonZeroUsize;

use super::quoting::Located;
use super::{Invalid, Normalizer, ParseBuffers};
use crate::canon::RuleSet;
use crate::pipeline::Output;
use crate::{Mode, ParseError, QueryEncoding, Reference, ReferenceError, Url};

use super::Stats;

/// How relative references are resolved.
///
/// # Example
///
/// ```
/// use normurl::normalize::{Options, Resolution};
/// use normurl::{Mode, Reference};
///
/// // Links collected before their page's URL is known: rebase them onto
/// // the page's path and write normalized references.
/// let options = Options {
///     resolution: Resolution {
///         mode: Mode::Whatwg,
///         relative: true,
///         base: Some(Reference::parse("/docs/guide/")?),
///         ..Resolution::default()
///     },
///     ..Options::default()
/// };
/// # let _ = options;
/// # Ok::<(), normurl::ReferenceError>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct Resolution {
    /// The resolution mode for [`Options::base`](super::Options::base) and
    /// the base field. [`Mode::Whatwg`] is the WHATWG parser's own
    /// resolution; the others go through [`Reference::resolve`].
    pub mode: Mode,
    /// Write normalized references instead of absolute URLs: lines may be
    /// relative references, which are rebased onto the base (if any) in
    /// [`mode`](Resolution::mode) but never forced to absolute URLs, and
    /// written as [`Reference::normalize`] prints them. Canonicalization
    /// profiles do not apply.
    pub relative: bool,
    /// With [`relative`](Resolution::relative): the base, which may itself
    /// be a relative reference (the base field is rebased onto it).
    pub base: Option<Reference>,
    /// The query encoding of the pages the URLs come from
    /// ([`Url::parse_with_encoding`]); UTF-8 for no override. Not used with
    /// [`relative`](Resolution::relative), which writes UTF-8.
    pub query_encoding: QueryEncoding,
    /// The field holding each line's encoding label (a crawler's record of
    /// the page's charset), which overrides
    /// [`query_encoding`](Resolution::query_encoding); an empty field, `-`,
    /// or a label that is no encoding leaves that in force.
    pub charset_field: Option<NonZeroUsize>,
}

/// The closest WHATWG parse error to a reference error, for the counts
/// and the rejects file: a missing scheme or an opaque-path base is what
/// the WHATWG parser calls a relative URL without base; a web URL forced
/// without host, or credentials or a port where there may be none, an
/// empty or missing host.
pub(super) fn parse_error(e: ReferenceError) -> ParseError {
    match e {
        ReferenceError::Host(e) => e,
        ReferenceError::NoScheme | ReferenceError::OpaquePathBase => {
            ParseError::RelativeUrlWithoutBase
        }
        _ => ParseError::EmptyHost,
    }
}

/// Resolves `input` against `base` in `mode` (not the WHATWG parser's
/// own) into `slot`, the query in `encoding`.
pub(super) fn resolve_into<'s>(
    slot: &'s mut Option<Url>,
    input: &str,
    base: &Url,
    mode: Mode,
    encoding: QueryEncoding,
) -> Result<&'s mut Url, ParseError> {
    let base = Reference::from_url(base);
    let resolved = Reference::parse_against(input, &base)
        .and_then(|r| r.resolve(&base, mode)?.to_url_with_encoding(encoding));
    match resolved {
        Ok(url) => Ok(slot.insert(url)),
        Err(e) => Err(parse_error(e)),
    }
}

impl Normalizer {
    /// The query encoding of `line`: its `--charset-field` label if it
    /// names an encoding, else `--query-encoding`.
    pub(super) fn line_encoding(&self, line: &[u8]) -> QueryEncoding {
        let res = &self.options.resolution;
        let from_field = match (res.charset_field, &self.options.select) {
            (Some(n), super::Select::Field { delimiter, .. }) => delimiter
                .field(line, n.get())
                .and_then(|r| std::str::from_utf8(&line[r]).ok())
                .and_then(QueryEncoding::for_label),
            _ => None,
        };
        from_field.unwrap_or(res.query_encoding)
    }

    /// `--relative`: parses the line's reference, rebases it onto the
    /// base field's reference (itself rebased onto the base) or the base,
    /// and writes it normalized.
    pub(super) fn relative_emit(
        &self,
        buffers: &mut ParseBuffers,
        line: &[u8],
        text: Option<&str>,
        at: &Located,
        out: &mut Output<'_, Stats>,
    ) -> Result<(), Invalid> {
        let res = &self.options.resolution;
        let mut base = res.base.clone();
        if let super::Select::Field {
            base_field: Some(m),
            delimiter,
            ..
        } = &self.options.select
        {
            let r = delimiter
                .field(line, m.get())
                .ok_or(Invalid::MissingBaseField)?;
            let base_at = Located::field(line, r, *delimiter);
            if !matches!(&line[base_at.range.clone()], b"" | b"-") {
                let base_text = self.field_text(
                    line,
                    text,
                    &base_at,
                    &mut buffers.base_scratch,
                    &mut buffers.base_unquoted,
                )?;
                let field_base = self
                    .relative_reference(base_text, base.as_ref())
                    .map_err(|e| Invalid::Base(parse_error(e)))?;
                base = Some(field_base);
            }
        }
        let url_text =
            self.field_text(line, text, at, &mut buffers.scratch, &mut buffers.unquoted)?;
        let written = self
            .relative_reference(url_text, base.as_ref())
            .map_err(|e| Invalid::Url(parse_error(e)))?
            .normalize()
            .to_string();
        self.emit(line, at, out, |data| {
            data.extend_from_slice(written.as_bytes());
            Ok(RuleSet::EMPTY.into())
        })
    }

    /// `text` parsed (in the mode of `base`, if any) and rebased onto `base`.
    fn relative_reference(
        &self,
        text: &str,
        base: Option<&Reference>,
    ) -> Result<Reference, ReferenceError> {
        match base {
            None => Reference::parse(text),
            Some(b) => {
                Reference::parse_against(text, b)?.rebase_in(b, self.options.resolution.mode)
            }
        }
    }
}
