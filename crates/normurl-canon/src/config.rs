//! What a canonicalizer is built from: its rules and options, parsed once
//! ([`Config`]), and the output forms.

use std::fmt;
use std::str::FromStr;

use crate::error::ConfigError;
use crate::rule::RuleSet;
use crate::rules::lists::RuleLists;
use crate::rules::public_suffix::Suffixes;
use crate::rules::tracking::TrackingParams;
use crate::surt::SurtOptions;

/// A canonicalizer's rules and options, as the general path and the fast
/// paths take them (they never see the [`Canonicalizer`](super::Canonicalizer)).
#[derive(Clone, Debug)]
pub(crate) struct Config {
    pub(crate) rules: RuleSet,
    pub(crate) tracking: TrackingParams,
    pub(crate) output: OutputForm,
    pub(crate) idn: IdnForm,
    /// The lists of `keep-params` and `strip-directory-index`.
    pub(crate) lists: RuleLists,
    /// The Public Suffix List of `strip-www`'s guard.
    pub(crate) suffixes: Suffixes,
}

impl Config {
    /// No rules, URL output, ASCII hosts: the WHATWG serialization as it
    /// is.
    pub(crate) fn is_identity(&self) -> bool {
        self.rules.is_empty() && self.output == OutputForm::Url && self.idn == IdnForm::Ascii
    }
}

/// What [`Canonicalizer::apply`](super::Canonicalizer::apply) writes.
///
/// # Example
///
/// ```
/// use normurl_canon::OutputForm;
///
/// assert_eq!("surt".parse::<OutputForm>()?, OutputForm::Surt(normurl_canon::SurtOptions::CDX));
/// # Ok::<(), normurl_canon::ConfigError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum OutputForm {
    /// The URL serialization.
    #[default]
    Url,
    /// A SURT; `"surt"` parses to the CDX flavor.
    Surt(SurtOptions),
    /// urlcanon's SSURT.
    Ssurt,
}

impl FromStr for OutputForm {
    type Err = ConfigError;

    fn from_str(s: &str) -> Result<OutputForm, ConfigError> {
        match s {
            "url" => Ok(OutputForm::Url),
            "surt" => Ok(OutputForm::Surt(SurtOptions::CDX)),
            "ssurt" => Ok(OutputForm::Ssurt),
            _ => Err(ConfigError::UnknownOutput(s.to_owned())),
        }
    }
}

impl fmt::Display for OutputForm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            OutputForm::Url => "url",
            OutputForm::Surt(_) => "surt",
            OutputForm::Ssurt => "ssurt",
        })
    }
}

/// How domains are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum IdnForm {
    /// Punycode (`xn--bcher-kva.de`), as the URL serializer writes them.
    #[default]
    Ascii,
    /// Unicode (`bücher.de`) via UTS #46 ToUnicode, for domains whose
    /// punycode labels decode cleanly and convert back to the same ASCII;
    /// others stay ASCII. Parsing such output gives back the ASCII URL.
    Unicode,
}

impl FromStr for IdnForm {
    type Err = ConfigError;

    fn from_str(s: &str) -> Result<IdnForm, ConfigError> {
        match s {
            "ascii" => Ok(IdnForm::Ascii),
            "unicode" => Ok(IdnForm::Unicode),
            _ => Err(ConfigError::UnknownIdnForm(s.to_string())),
        }
    }
}
