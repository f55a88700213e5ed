//! The Python arguments (`profile`, `get`, `rules`, `strip_params`, `base`,
//! `default_scheme`) turned once into library values, with the command's
//! defaults and error messages: what `--profile`, `--rules`,
//! `--strip-params`, `--get` and `--base` become in the command's
//! `src/cli/config.rs`.

use std::fmt;

use normurl::canon::{Canonicalizer, OutputForm, Profile};
use normurl::Url;

/// What to write for each URL: the command's `--get` forms (written by
/// the canonicalizer) or one component of the canonical URL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Get {
    /// `url`, `surt` or `ssurt`.
    Form(OutputForm),
    /// A getter of the URL API, or a derived host field.
    Component(Component),
}

/// The components `get=` and `components()` know: the command's
/// (`normurl rules` lists them), in `--json`'s order.
pub use normurl::component::Component;

/// The names `get=` accepts, in the order error messages list them.
fn get_names() -> impl Iterator<Item = &'static str> {
    ["url", "surt", "ssurt"]
        .into_iter()
        .chain(Component::ALL.iter().map(|c| c.name()))
}

impl std::str::FromStr for Get {
    type Err = String;

    fn from_str(s: &str) -> Result<Get, String> {
        if let Ok(form) = s.parse::<OutputForm>() {
            return Ok(Get::Form(form));
        }
        match s.parse::<Component>() {
            Ok(c) => Ok(Get::Component(c)),
            Err(_) => Err(format!(
                "--get: unknown output form {s:?}; the forms are: {}",
                get_names().collect::<Vec<_>>().join(", ")
            )),
        }
    }
}

/// A bad argument: a `ValueError` (or `OSError` for a list file that
/// cannot be read) with this message.
#[derive(Debug)]
pub enum ConfigError {
    Value(String),
    Io(String),
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::Value(m) | ConfigError::Io(m) => f.write_str(m),
        }
    }
}

/// The parameters `strip_params=` gives: the command's syntax in one
/// string (`"a,b"`, `"@FILE"`) or a list of names.
pub enum StripParams {
    Text(String),
    Names(Vec<String>),
}

/// The arguments as Python passed them.
#[derive(Default)]
pub struct Args {
    pub profile: Option<String>,
    pub get: Option<String>,
    pub rules: Option<String>,
    pub strip_params: Option<StripParams>,
    pub base: Option<String>,
    pub default_scheme: Option<String>,
}

/// A parsed configuration, built once per call or per `Normalizer`.
#[derive(Clone, Debug)]
pub struct Config {
    pub get: Get,
    /// What `get` is written with: a form's canonicalizer, or the URL
    /// form's for a component.
    pub canon: Canonicalizer,
    /// `components()`'s canonicalizer: the canonical URL the components
    /// are read from, as the command's `--get COMPONENT` reads them.
    pub url_canon: Canonicalizer,
    pub base: Option<Url>,
    pub default_scheme: Option<String>,
    /// Whether `url_canon` changes anything, i.e. whether a component must
    /// be read from a second parse of the canonical URL.
    pub reparse: bool,
    /// `strip_params` as read (an `@FILE` read here), to rebuild the
    /// configuration where the file is not (a pickled `Normalizer`).
    pub strip_params: Option<String>,
}

impl Config {
    pub fn new(args: &Args) -> Result<Config, ConfigError> {
        let value = ConfigError::Value;
        let get: Get = args
            .get
            .as_deref()
            .unwrap_or("url")
            .parse()
            .map_err(value)?;
        let profile: Option<Profile> = match &args.profile {
            Some(name) => Some(name.parse().map_err(|e| value(format!("--profile: {e}")))?),
            None => None,
        };
        // The command's order of checks: the rules before the list file
        // is read.
        if let Some(edits) = &args.rules {
            Profile::Whatwg
                .rules()
                .edit(edits)
                .map_err(|e| value(format!("--rules: {e}")))?;
        }
        let strip = strip_params_text(args.strip_params.as_ref())?;
        let build = |form: OutputForm| -> Result<Canonicalizer, ConfigError> {
            // The command's default: wayback for SURT keys, else whatwg.
            let default = match form {
                OutputForm::Surt(_) => Profile::Wayback,
                _ => Profile::Whatwg,
            };
            let mut builder = Canonicalizer::builder(profile.unwrap_or(default));
            if let Some(list) = &strip {
                builder
                    .strip_params(list)
                    .map_err(|e| value(format!("--strip-params: {e}")))?;
            }
            // Last, as the command: `-strip-tracking` turns off what the
            // list turned on.
            if let Some(edits) = &args.rules {
                builder
                    .rules(edits)
                    .map_err(|e| value(format!("--rules: {e}")))?;
            }
            Ok(builder.output(form).build())
        };
        let url_canon = build(OutputForm::Url)?;
        let canon = match get {
            Get::Form(form) => build(form)?,
            Get::Component(_) => url_canon.clone(),
        };
        let base =
            match &args.base {
                None => None,
                Some(s) => Some(Url::parse(s).map_err(|e| {
                    value(format!("--base {s:?} is not a valid URL: {}", e.message()))
                })?),
            };
        let default_scheme = match &args.default_scheme {
            Some(_) if base.is_some() => {
                return Err(value(
                    "default_scheme: cannot be used with base (with a base, an input \
                     without a scheme is a relative reference)"
                        .into(),
                ))
            }
            Some(s) => Some(check_scheme(s)?),
            None => None,
        };
        Ok(Config {
            get,
            reparse: !url_canon.rules().is_empty(),
            canon,
            url_canon,
            base,
            default_scheme,
            strip_params: strip,
        })
    }
}

/// `strip_params` as the text the command's `--strip-params` would get: an
/// `@FILE`'s lines are trimmed, blank and `#` lines dropped and the rest
/// joined with commas, as the command does.
fn strip_params_text(arg: Option<&StripParams>) -> Result<Option<String>, ConfigError> {
    let text = match arg {
        None => return Ok(None),
        Some(StripParams::Names(names)) => names.join(","),
        Some(StripParams::Text(t)) => match t.strip_prefix('@') {
            None => t.clone(),
            Some(path) => std::fs::read_to_string(path)
                .map_err(|e| ConfigError::Io(format!("{path}: {e}")))?
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .collect::<Vec<_>>()
                .join(","),
        },
    };
    Ok(Some(text))
}

/// A URL scheme as the URL Standard writes one (an ASCII letter, then
/// letters, digits, `+`, `-`, `.`), lowercased.
fn check_scheme(s: &str) -> Result<String, ConfigError> {
    let mut bytes = s.bytes();
    let ok = bytes.next().is_some_and(|b| b.is_ascii_alphabetic())
        && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'));
    if !ok {
        return Err(ConfigError::Value(format!(
            "default_scheme: {s:?} is not a URL scheme (a letter, then letters, digits, +, - or .)"
        )));
    }
    Ok(s.to_ascii_lowercase())
}
