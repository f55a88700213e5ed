//! The lists the rules added for issue 29 take: `keep-params`'s names and
//! `strip-directory-index`'s extra index files.

use super::domain_params::DomainParams;
use super::redirect::Redirectors;
use super::tracking::TrackingParams;
use crate::error::ConfigError;
use crate::rule::{Rule, RuleSet};

/// The rules that only the general path applies: the fast paths decline
/// every URL when one of them is on (see `Plan::new`, `fused::pick`), so
/// that the profiles without them keep their fast paths unchanged.
pub(crate) const GENERAL_ONLY: RuleSet = RuleSet::from_rules(&[
    Rule::UnwrapRedirects,
    Rule::ForceHttps,
    Rule::StripDirectoryIndex,
    Rule::KeepParams,
    Rule::DomainParams,
    Rule::DropBlankParams,
    Rule::SemicolonSeparators,
    Rule::SemicolonOnlySeparators,
    Rule::StripTextFragment,
    Rule::KeepSpaFragments,
    Rule::StripScheme,
    Rule::KeepSchemeSlashes,
    Rule::NormalizeDataUrls,
    Rule::DropEmptyFragment,
    Rule::StripRootSlash,
    Rule::StripOneWww,
    Rule::UrlSearchParams,
]);

/// Rules that change only URLs with a `%` in them: the fast paths decline
/// those URLs (`fast::decline_some`) and take the others, which the rules
/// leave as they are.
pub(crate) const PERCENT_GENERAL: RuleSet = RuleSet::from_rules(&[
    Rule::DecodePathReserved,
    Rule::DecodeUriPath,
    Rule::EncodeBarePercent,
]);

/// Rules that change only URLs with a query: the fast paths decline the
/// URLs whose query the rule changes (`fast::form_encode_changes`) and
/// take the others.
pub(crate) const QUERY_GENERAL: RuleSet = RuleSet::from_rules(&[Rule::FormEncodeQuery]);

/// Rules that change only URLs with a `#` in the fragment, a space in an
/// opaque path (`encode-hash-space`) or an `=` in a query value
/// (`encode-value-equals`): the fast paths decline those URLs
/// (`fast::escapes_change`) and take the others.
pub(crate) const ESCAPE_GENERAL: RuleSet =
    RuleSet::from_rules(&[Rule::EncodeHashSpace, Rule::EncodeValueEquals]);

/// `keep-params`'s names and `strip-directory-index`'s extra index files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RuleLists {
    /// The names (and patterns) `keep-params` keeps.
    pub(crate) keep: TrackingParams,
    /// Index file names besides the defaults.
    pub(crate) index_files: Vec<Box<[u8]>>,
    /// The redirectors `unwrap-redirects` unwraps.
    pub(crate) redirects: Redirectors,
    /// The per-domain rules of `domain-params`.
    pub(crate) domain: DomainParams,
}

impl Default for RuleLists {
    fn default() -> RuleLists {
        RuleLists {
            keep: TrackingParams::empty(),
            index_files: Vec::new(),
            redirects: Redirectors::default(),
            domain: DomainParams::default(),
        }
    }
}

impl RuleLists {
    /// Adds index file names: a list separated by commas or whitespace, as
    /// `--strip-params` takes. A name with `/` could never be a last
    /// segment, so it is an error rather than a silent no-op.
    pub(crate) fn add_index_files(&mut self, list: &str) -> Result<(), ConfigError> {
        for line in list.lines() {
            let line = line.split('#').next().unwrap_or("");
            for name in line.split(|c: char| c == ',' || c.is_whitespace()) {
                if name.contains('/') {
                    return Err(ConfigError::BadIndexFile(name.to_owned()));
                }
                if !name.is_empty() {
                    self.index_files.push(name.as_bytes().into());
                }
            }
        }
        Ok(())
    }
}
