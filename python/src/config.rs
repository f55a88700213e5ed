//! The Python arguments (`profile`, `get`, `rules`, `base`,
//! `default_scheme` and the lists and files of `strip_params`,
//! `keep_params`, `index_files`, `query_separators`, `redirects`,
//! `param_rules`, `rewrite`), the edits (`set`, `append`, `set_params`,
//! `delete_params`) and `psl` turned once into library values,
//! with the command's defaults and error messages: the canonicalizer is
//! built by the library's `RuleOptions`, as the command's
//! `src/cli/config.rs` builds it.

use std::fmt;
use std::sync::Arc;

use normurl::canon::{Canonicalizer, CanonicalizerBuilder, IdnForm, OutputForm, Profile};
use normurl::component::{PublicSuffixList, Template};
use normurl::normalize::{
    parse_query_separators, Edit, Rewrites, RuleOptionError, RuleOptions, Source,
};
use normurl::{Mode, QueryEncoding, Url};

use crate::edit_args::EditSpecs;
use crate::psl_arg::Psl;

/// What to write for each URL: the command's `--get` forms (written by
/// the canonicalizer) or one component of the canonical URL, or a
/// template of its components.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Get {
    /// `url`, `surt` or `ssurt`.
    Form(OutputForm),
    /// A getter of the URL API, or a derived host field.
    Component(Component),
    /// A template of the command's `--get` (`{query:utm_source}`,
    /// `{pathname:decoded}`, `{host}\t{query-all:tag}`) that is not one
    /// component.
    Template(Template),
}

impl Get {
    /// Whether an empty answer is null: a component or template the URL
    /// gives nothing for (the command writes an empty line), where a form
    /// is never empty.
    pub fn empty_is_null(&self) -> bool {
        matches!(self, Get::Component(_) | Get::Template(_))
    }
}

/// The components `get=` and `components()` know: the command's
/// (`normurl rules` lists them), in `--json`'s order.
pub use normurl::component::Component;

/// The names `get=` accepts, each once, in the order error messages list
/// them: the forms, then the components (`surt` and `ssurt` are both).
pub(crate) fn get_names() -> impl Iterator<Item = &'static str> {
    const FORMS: [&str; 3] = ["url", "surt", "ssurt"];
    FORMS.into_iter().chain(
        Component::ALL
            .iter()
            .map(|c| c.name())
            .filter(|n| !FORMS.contains(n)),
    )
}

impl std::str::FromStr for Get {
    type Err = String;

    fn from_str(s: &str) -> Result<Get, String> {
        if let Ok(form) = s.parse::<OutputForm>() {
            return Ok(Get::Form(form));
        }
        match s.parse::<Component>() {
            Ok(c) => Ok(Get::Component(c)),
            // A template, as the command's --get takes it: a name with
            // `:` (`query:q`, `pathname:decoded`) or braces.
            Err(_) if s.contains(['{', '}', '\\', ':']) => match s.parse::<Template>() {
                Ok(t) => Ok(t.as_component().map_or(Get::Template(t), Get::Component)),
                Err(e) => Err(format!("--get: {e}")),
            },
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

impl From<RuleOptionError> for ConfigError {
    fn from(e: RuleOptionError) -> ConfigError {
        match e {
            RuleOptionError::Read(_) => ConfigError::Io(e.to_string()),
            RuleOptionError::Usage(m) => ConfigError::Value(m),
        }
    }
}

/// The arguments as Python passed them; the lists and files as the
/// library's [`RuleOptions`] takes them (`rules` aside).
#[derive(Default)]
pub struct Args {
    pub profile: Option<String>,
    pub get: Option<String>,
    pub rules: Option<String>,
    pub base: Option<String>,
    pub default_scheme: Option<String>,
    /// `query_separators` as given.
    pub query_separators: Option<String>,
    /// `strip_params`, `keep_params`, `index_files`, `redirects`,
    /// `param_rules`, `rewrite`.
    pub options: RuleOptions,
    /// `psl`: None for the bundled list.
    pub psl: Option<Source>,
    /// `idn`: the command's `--idn` (`ascii`, `unicode`).
    pub idn: Option<String>,
    /// `query_encoding`: the command's `--query-encoding` label.
    pub query_encoding: Option<String>,
    /// `resolve`: the command's `--resolve` mode (`whatwg`, `legacy`,
    /// `generic`).
    pub resolve: Option<String>,
    /// `set`, `append`, `set_params`, `delete_params`, in the order they
    /// apply.
    pub edits: EditSpecs,
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
    /// `rewrite`'s rules for `canon`'s output, as the command loads them.
    pub rewrite: Option<Arc<Rewrites>>,
    /// `rewrite`'s rules for `url_canon`'s (the same for a component or
    /// `get="url"`); loaded for `components()` of a SURT form's
    /// configuration, whose file's tests may be for SURTs, so its error
    /// waits for a call of `components()`.
    pub url_rewrite: Result<Option<Arc<Rewrites>>, String>,
    pub base: Option<Url>,
    pub default_scheme: Option<String>,
    /// The encoding of the query (`query_encoding`; UTF-8 by default).
    pub query_encoding: QueryEncoding,
    /// How references are resolved against a base (`resolve`, the
    /// command's `--resolve`; `whatwg` by default).
    pub resolve: Mode,
    /// Whether a component must be read from a second parse of the
    /// canonical URL: whether `url_canon` or `url_rewrite` changes
    /// anything.
    pub reparse: bool,
    /// The options with every file read, to rebuild the configuration
    /// where the files are not (a pickled `Normalizer`).
    pub options: RuleOptions,
    /// `psl`'s list (None: the bundled one), which both canonicalizers'
    /// `strip-www` guard asks too.
    pub psl: Option<Arc<Psl>>,
    /// The edits of each parsed URL, in order, before the profile's rules
    /// (empty: none, and the one-pass path).
    pub edits: Vec<Edit>,
    /// The edits as given, for pickling and equality.
    pub edit_specs: EditSpecs,
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
        // The command checks its edits when it reads its options.
        let edits = crate::edit_args::edits(&args.edits).map_err(value)?;
        let profile: Option<Profile> = match &args.profile {
            Some(name) => Some(name.parse().map_err(|e| value(format!("--profile: {e}")))?),
            None => None,
        };
        // The command's parser reads --query-separators with --profile.
        let mut options = RuleOptions {
            rules: args.rules.iter().cloned().collect(),
            query_separators: match &args.query_separators {
                Some(s) => Some(
                    parse_query_separators(s)
                        .map_err(|e| value(format!("--query-separators: {e}")))?,
                ),
                None => None,
            },
            ..args.options.clone()
        };
        // The command's default: wayback for SURT keys, else whatwg.
        let profile_of = |form: OutputForm| match form {
            OutputForm::Surt(_) => profile.unwrap_or(Profile::Wayback),
            _ => profile.unwrap_or(Profile::Whatwg),
        };
        // The command reads --psl before it builds the canonicalizer.
        let psl = match &args.psl {
            Some(source) => Some(Arc::new(Psl::load(source)?)),
            None => None,
        };
        let list = psl.as_deref().map(Psl::list);
        // The command's --idn, on the canonicalizer of every form.
        let idn: IdnForm = match &args.idn {
            Some(name) => name.parse().map_err(|e| value(format!("--idn: {e}")))?,
            None => IdnForm::default(),
        };
        // The first build reads the files (after checking the rules, as
        // the command); the second finds them read.
        let url_canon = build(options.builder(profile_of(OutputForm::Url))?.idn(idn), list);
        let canon = match get {
            Get::Form(form) => build(
                options.builder(profile_of(form))?.output(form).idn(idn),
                list,
            ),
            Get::Component(_) | Get::Template(_) => url_canon.clone(),
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
        let query_encoding = match &args.query_encoding {
            Some(label) => label
                .parse()
                .map_err(|e| value(format!("--query-encoding: {e}")))?,
            None => QueryEncoding::default(),
        };
        let resolve = match &args.resolve {
            Some(name) => name.parse().map_err(|e| value(format!("--resolve: {e}")))?,
            None => Mode::default(),
        };
        let rewrite = options.rewrites(&canon)?.map(Arc::new);
        let url_rewrite = match &get {
            Get::Form(OutputForm::Surt(_) | OutputForm::Ssurt) => options
                .rewrites(&url_canon)
                .map(|r| r.map(Arc::new))
                .map_err(|e| e.to_string()),
            _ => Ok(rewrite.clone()),
        };
        Ok(Config {
            get,
            reparse: !url_canon.rules().is_empty() || options.rewrite.is_some(),
            canon,
            url_canon,
            rewrite,
            url_rewrite,
            base,
            default_scheme,
            query_encoding,
            resolve,
            options,
            psl,
            edits,
            edit_specs: args.edits.clone(),
        })
    }

    /// The list the components are read with: `psl`'s or the bundled one.
    pub fn suffixes(&self) -> &PublicSuffixList {
        match &self.psl {
            Some(psl) => psl.list(),
            None => PublicSuffixList::bundled(),
        }
    }
}

/// The canonicalizer of `builder`, whose `strip-www` guard asks `psl`
/// (None: the bundled list), as the command's `canonicalizer` builds it.
fn build(builder: &mut CanonicalizerBuilder, psl: Option<&PublicSuffixList>) -> Canonicalizer {
    if let Some(list) = psl {
        builder.public_suffixes(list);
    }
    builder.build()
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
