//! Errors in canonicalization settings (rule, profile and parameter names).

use std::fmt;

/// A canonicalization setting that could not be understood. These come from
/// the command line, so each message says what was wrong and what is valid.
///
/// # Example
///
/// ```
/// use normurl_canon::{ConfigError, Profile};
///
/// let err = "agressive".parse::<Profile>().unwrap_err();
/// assert_eq!(err, ConfigError::UnknownProfile("agressive".into()));
/// assert!(err.to_string().contains("aggressive"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ConfigError {
    /// No rule has this name.
    UnknownRule(String),
    /// No profile has this name.
    UnknownProfile(String),
    /// No output form has this name.
    UnknownOutput(String),
    /// A parameter name in a strip list is empty, or is only `*`.
    EmptyParamName,
    /// No domain form (`--idn`) has this name.
    UnknownIdnForm(String),
    /// An index file name (`--index-files`) with a `/`, which no last path
    /// segment has.
    BadIndexFile(String),
    /// A line of a redirectors file (`--redirects`) that is not `HOST
    /// /PATH PARAM`: its number and text.
    BadRedirector(usize, String),
    /// A rule of a per-domain parameter file (`--param-rules`) that could
    /// not be read: its line number and why.
    BadParamRule(usize, String),
    /// A line of a Public Suffix List that is not a rule: its number and
    /// why.
    BadPublicSuffixList(usize, String),
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::UnknownRule(name) => {
                write!(f, "unknown rule {name:?}; the rules are: ")?;
                let names: Vec<&str> = super::Rule::ALL.iter().map(|r| r.name()).collect();
                f.write_str(&names.join(", "))
            }
            ConfigError::UnknownProfile(name) => {
                write!(f, "unknown profile {name:?}; the profiles are: ")?;
                let names: Vec<&str> = super::Profile::ALL.iter().map(|p| p.name()).collect();
                f.write_str(&names.join(", "))
            }
            ConfigError::UnknownOutput(name) => {
                write!(
                    f,
                    "unknown output form {name:?}; the forms are: url, surt, ssurt"
                )
            }
            ConfigError::UnknownIdnForm(name) => {
                write!(f, "unknown form {name:?}; the forms are: ascii, unicode")
            }
            ConfigError::BadIndexFile(name) => write!(
                f,
                "index file name {name:?} has a /; a name is one path segment, like index.html"
            ),
            ConfigError::BadRedirector(line, text) => write!(
                f,
                "line {line} ({text:?}) is not HOST /PATH PARAM, e.g. t.example.com /out u"
            ),
            ConfigError::BadParamRule(line, why) => write!(f, "line {line}: {why}"),
            ConfigError::BadPublicSuffixList(line, why) => write!(f, "line {line}: {why}"),
            ConfigError::EmptyParamName => f.write_str(
                "empty parameter name in a strip list (a name, or a prefix ending in *)",
            ),
        }
    }
}

impl std::error::Error for ConfigError {}
