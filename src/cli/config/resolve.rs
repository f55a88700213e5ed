//! The normalizer's [`Resolution`] and base, from `--base` and the
//! resolution options (`args/resolve.rs`).

use normurl::normalize::Resolution;
use normurl::{Mode, Reference, Url};

use crate::cli::args::resolve::{ResolveArgs, ResolveMode};
use crate::cli::Failure;

/// The base URL (for absolute output) and the resolution options, from
/// `--base` and these options. A relative `--base` needs `--relative`.
pub fn options(a: &ResolveArgs, base: Option<&str>) -> Result<(Option<Url>, Resolution), Failure> {
    let mode = match a.resolve {
        ResolveMode::Whatwg => Mode::Whatwg,
        ResolveMode::Legacy => Mode::Legacy,
        ResolveMode::Generic => Mode::Generic,
    };
    let mut resolution = Resolution {
        mode,
        relative: a.relative,
        base: None,
        query_encoding: a.query_encoding.unwrap_or_default(),
        charset_field: a.charset_field,
    };
    let Some(s) = base else {
        return Ok((None, resolution));
    };
    if a.relative {
        let r = Reference::parse(s).map_err(|e| {
            Failure::Usage(format!("--base {s:?} is not a valid URL reference: {e}"))
        })?;
        resolution.base = Some(r);
        return Ok((None, resolution));
    }
    match Url::parse(s) {
        Ok(url) => Ok((Some(url), resolution)),
        Err(e) if Reference::parse(s).is_ok() => Err(Failure::Usage(format!(
            "--base {s:?} is not a valid URL: {} (it is a relative reference: add --relative to write references rebased onto it)",
            e.message()
        ))),
        Err(e) => Err(Failure::Usage(format!(
            "--base {s:?} is not a valid URL: {}",
            e.message()
        ))),
    }
}
