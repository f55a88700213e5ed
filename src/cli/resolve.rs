//! `--resolve` and `--relative`: how relative references are resolved
//! (src/url/reference), as options of their own, turned into the
//! normalizer's [`Resolution`] and base here.

use clap::{Args as ClapArgs, ValueEnum};
use normurl::normalize::Resolution;
use normurl::{Mode, Reference, Url};

use super::Failure;

#[derive(Debug, ClapArgs)]
pub struct ResolveArgs {
    /// How --base and --base-field resolve relative references: whatwg (as
    /// browsers do), legacy (RFC 3986 non-strict: a scheme equal to the
    /// base's is ignored, for any scheme), generic (RFC 3986 strict, as
    /// Java's URI, Go's net/url: `http:g` stays `http:g`, which is then
    /// read as http://g/).
    #[arg(long, value_enum, value_name = "MODE", default_value_t = ResolveMode::Whatwg)]
    pub resolve: ResolveMode,

    /// Write normalized references, not absolute URLs: lines may be
    /// relative (`../a/./b` gives `../a/b`), and are rebased onto --base
    /// (which may then be relative too, such as /docs/) and --base-field
    /// but not made absolute. Profiles do not apply.
    #[arg(long)]
    pub relative: bool,
}

/// `--resolve`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ResolveMode {
    /// The WHATWG URL Standard's resolution.
    Whatwg,
    /// RFC 3986 non-strict resolution.
    Legacy,
    /// RFC 3986 strict resolution.
    Generic,
}

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
            "--base {s:?} is not an absolute URL ({}): add --relative to write references rebased onto it",
            e.message()
        ))),
        Err(e) => Err(Failure::Usage(format!(
            "--base {s:?} is not a valid URL: {}",
            e.message()
        ))),
    }
}
