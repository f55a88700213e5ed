//! `normurl inspect`'s configuration: what it shows beyond the parsed
//! URL's components, from its canonicalization options.

use std::sync::Arc;

use normurl::canon::{CanonicalizerBuilder, Profile};
use normurl::component::Template;
use normurl::normalize::{DefaultScheme, Rewrites};

use crate::cli::args::get::InspectCanonArgs;
use crate::cli::Failure;

/// What `inspect` shows beyond the parsed URL's components.
#[derive(Debug, Default)]
pub struct Canon {
    /// The canonicalizer of `--profile`, `--rules`, `--strip-params` and
    /// the rule options, when any of them (or `--rewrite`) is given: its
    /// steps are shown.
    pub builder: Option<CanonicalizerBuilder>,
    /// `--rewrite`: a step after the rules.
    pub rewrites: Option<Arc<Rewrites>>,
    /// `--get`: a component or template of the canonical URL.
    pub get: Option<Template>,
    /// `--default-scheme`.
    pub default_scheme: Option<DefaultScheme>,
}

/// What `inspect` shows of its canonicalization options: the steps when
/// a profile, a rule edit, a list or a file is given.
pub fn inspect_canon(a: &InspectCanonArgs) -> Result<Canon, Failure> {
    let usage = Failure::Usage;
    let profile: Profile = match &a.profile {
        Some(p) => p.parse().map_err(|e| usage(format!("--profile: {e}")))?,
        None => Profile::Whatwg,
    };
    let rules: Vec<String> = a.rules.iter().cloned().collect();
    let mut options = super::rule_options::options(&a.rule_options, &rules, &a.strip_params);
    let steps = a.profile.is_some() || options.edits_rules() || options.rewrite.is_some();
    let builder = super::rule_options::builder(&mut options, profile)?;
    let get = match &a.get {
        Some(t) => Some(t.parse().map_err(|e| usage(format!("--get: {e}")))?),
        None => None,
    };
    let default_scheme = match &a.default_scheme {
        Some(s) => Some(
            s.parse::<DefaultScheme>()
                .map_err(|e| usage(format!("--default-scheme: {e}")))?,
        ),
        None => None,
    };
    let rewrites = super::rule_options::rewrites(&mut options, &builder.build())?;
    Ok(Canon {
        builder: steps.then_some(builder),
        rewrites,
        get,
        default_scheme,
    })
}
