/*!
Canonicalization: rules applied after WHATWG parsing so that URLs naming the
same resource get the same string, plus the SURT and SSURT forms and the
hash of dedup keys.

# Brief overview

- A [`Rule`] is one documented transformation (`sort-query`,
  `strip-www`...). A [`RuleSet`] is a set of them.
- A [`Profile`] is a named rule set: `whatwg` (nothing), `semantic`
  (RFC 3986 safe normalizations), `aggressive` (dedup keys), and profiles
  named after the tools whose keys they reproduce: `google` (Safe
  Browsing; also `safe-browsing`), `wayback` (CDX keys),
  `urlcanon-semantic`, `urlcanon-semantic-precise`, `urlcanon-aggressive`,
  `w3lib` and `normalize-url` (docs/compat.md: how close each is).
- A [`Canonicalizer`] is built once from a profile, rule edits
  (`+name,-name`), a tracking-parameter list, an [`OutputForm`] and an
  [`IdnForm`]. [`Canonicalizer::apply`] writes one URL's canonical form
  into a caller buffer, using a per-thread [`Scratch`], and returns the
  rules that changed something.
- [`key_hash`] hashes a key to 128 bits for deduplication.

Canonical URLs are valid URL serializations and idempotent: parsing the
output and canonicalizing it again gives the same bytes, for every profile.

# Rules, general path, fast paths

Every rule is specified by a reference function in `rules/` (one module
per family: `host`, `path`, `percent`, `query`, `tracking`,
`public_suffix`), or, for the rules that only drop or replace a whole
component, by a few lines of `general.rs`. The general path
(`general.rs`) composes them, component by component, in [`Rule::ALL`]
order: it is the reference every fast path is tested against.

The fast paths (`fast/`) take a plan worked out once per canonicalizer
and the configuration (`fast::Setup`), never the [`Canonicalizer`]: most
URLs only need ranges cut out of their href (`www.`, a trailing `/`, the
fragment, a tracking parameter), which `fast/copy.rs` writes with one or
two copies after one vector scan (`normurl_url::simd`) of the host and path for
the bytes that would give a rule more to do (`%`, `//`, `..`, `;`,
uppercase, as the rules need); `fast/careful.rs` looks at the other URLs
component by component and runs the lowercase and parameter rules
(`fast/params.rs`); `fast/fused.rs` does the straight line on the input
of [`Canonicalizer::parse_apply`], before the URL is stored. When a rule
would rewrite bytes otherwise, they decline before writing and the
general path runs. `fast/tests.rs` checks on the corpora and on generated
URLs that each fast path writes the general path's bytes and reports its
rules.

| rule | reference | fast path (`fast/`) | tests |
|---|---|---|---|
| `unwrap-redirects` | `rules::redirect::unwrap` (`general::unwrap_and_apply`) | none: `rules::lists::GENERAL_ONLY`, `fast::decline_all` | `redirect::tests::*`, `tests/canon_rules.rs::unwrap_redirects` |
| `force-http` | `general::scheme_and_port` | none: `careful::careful` declines an `https` URL | `fast::tests`, `tests/canon.rs` |
| `force-https` | `general::scheme_and_port` | none: `rules::lists::GENERAL_ONLY`, `fast::decline_all` | `tests/canon_rules.rs::scheme_rules` |
| `strip-userinfo` | `general::userinfo` | `careful::rewrite`; `careful::userinfo_changes` (declines) | `fast::tests`, `tests/canon.rs` |
| `trim-host-dots` | `rules::host::trim_dots` | `careful::trim_dots_declines` (declines) | `host::tests::trims_dots`, `fast::tests` |
| `strip-www` | `rules::host::strip_www` | `host::strip_plain_www` in `copy::Bare::apply`; `careful::strip_www` | `host::tests::strips_www`, `strip_www_matches_label_by_label`, `fast::tests` |
| `strip-www-digits` | `rules::host::strip_www` | `careful::strip_www` | `host::tests::strips_www`, `fast::tests` |
| `strip-one-www` | `rules::host::strip_one_www` (`general::host_rules`) | none: `rules::lists::GENERAL_ONLY`, `fast::decline_all` | `host::tests::strips_one_www_as_normalize_url`, `tests/canon.rs::normalize_url_suite` |
| `drop-port` | `general::scheme_and_port` | `copy::cut_host_port_slash` | `fast::tests`, `tests/canon.rs` |
| `unescape-path` | `general::unescape_path` (`percent::unescape_repeatedly`, `path::resolve_dots`, `percent::encode`) | `careful::inspect_path` (declines on `%`) | `percent::tests::unescape_*`, `fast::tests`, `tests/canon.rs` |
| `decode-path-reserved` | `rules::escapes::decode_path_reserved` (`general::path_component`) | none on a URL with `%`: `rules::lists::PERCENT_GENERAL`, `fast::decline_some` | `escapes::tests`, `tests/canon_rules.rs::tool_rules`, `tests/canon.rs::w3lib_suite` |
| `decode-uri-path` | `rules::decode_uri::decode` (`general::path_component`) | none on a URL with `%`: `rules::lists::PERCENT_GENERAL`, `fast::decline_some` | `decode_uri::tests`, `tests/canon_rules.rs::decode_uri_path`, `tests/canon.rs::normalize_url_suite` |
| `decode-unreserved` | `rules::percent::normalize` | `Percent::changes` (`percent::normalize_changes`; declines) | `percent::tests::normalize_*`, `fast::tests` |
| `uppercase-percent` | `rules::percent::normalize` | as `decode-unreserved` | `percent::tests::normalize_*`, `fast::tests` |
| `encode-bare-percent` | `rules::escapes::encode_bare_percent` (`general::encode_bare_percent`) | none on a URL with `%`: `rules::lists::PERCENT_GENERAL`, `fast::decline_some` | `escapes::tests`, `tests/canon_rules.rs::tool_rules`, `tests/canon.rs::urlcanon_semantic_precise_suite` |
| `encode-hash-space` | `rules::escapes::encode_fragment_hashes`, `encode_opaque_spaces` (`general::fragment_rules`, `general::path_component`) | `fast::escapes_change`, `fused::input_declines` (decline): `rules::lists::ESCAPE_GENERAL`, `fast::decline_some` | `escapes::tests::encodes_hashes_and_spaces`, `tests/canon_rules.rs::urlcanon_rules`, `tests/canon.rs::urlcanon_semantic_precise_suite` |
| `strip-session-ids` | `rules::path::strip_session_ids`, `strip_jsessionid_suffixes`; `rules::query::apply` | `careful::inspect_path` (declines on `;`, `(`); `params::params_outcome` | `path::tests::path_session_ids`, `query::tests::session_ids`, `fast::tests` |
| `keep-path-jsessionid` | `rules::path::strip_session_ids` (`general::path_rules`) | as `strip-session-ids`: `careful::inspect_path` declines on `;` | `tests/canon_rules.rs::keep_path_jsessionid`, `tests/surt_compat.rs` |
| `session-ids-anywhere` | `rules::query_session::strip` (`general::parameter_rules`; `general::query_component` runs the query rules again while it strips or `query_session::found` finds an id) | `Plan::session_ids` declines (`query_session::may_strip`) in `params::params_outcome`, `Plan::keeps_single`, `Bare::apply_query` | `query_session::tests`, `tests/canon_rules.rs::session_ids_anywhere`, `tests/cli_rules.rs`, `tests/surt_compat.rs`, `fast::tests` |
| `urlcanon-session-ids` | `rules::query::session::urlcanon_session_id` (`query::apply`) | as `strip-session-ids`: `params::params_outcome` (`query::removable::removable_starts` adds `sessionid`) | `query::tests::urlcanon_session_ids`, `tests/canon.rs::urlcanon_aggressive_suite`, `tests/cli_rules.rs`, `fast::tests` |
| `collapse-slashes` | `rules::path::collapse_slashes` | `careful::inspect_path` (declines on `//`) | `path::tests::collapses`, `fast::tests` |
| `keep-scheme-slashes` | `rules::path::collapse_slashes_keeping_schemes` | none: `rules::lists::GENERAL_ONLY`, `fast::decline_all` | `path::tests::collapses_but_keeps_embedded_schemes`, `tests/canon.rs::normalize_url_suite` |
| `keep-nonspecial-slashes` | `general::path_rules` (`rules::path::strip_trailing_slashes`) | as `collapse-slashes`: `careful::inspect_path` declines on `//` | `path::tests::trailing_slash`, `tests/canon_rules.rs::urlcanon_rules`, `tests/canon.rs::urlcanon_semantic_precise_suite` |
| `lowercase-path` | `rules::path::lowercase` | `careful::rewrite` | `fast::tests`, `tests/canon.rs` |
| `normalize-data-urls` | `rules::data_url::normalize` (`general::path_component`) | none: `rules::lists::GENERAL_ONLY`, `fast::decline_all` | `data_url::tests`, `tests/canon.rs::normalize_url_suite` |
| `strip-directory-index` | `rules::directory_index::strip` | none: `rules::lists::GENERAL_ONLY`, `fast::decline_all` | `directory_index::tests`, `tests/canon_rules.rs::strip_directory_index` |
| `strip-trailing-slash` | `rules::path::strip_trailing_slash` | `copy::cut_host_port_slash`; `careful::trailing_slash` | `path::tests::trailing_slash`, `fast::tests::fast_path_strips_one_slash_of_a_path_ending_in_two` |
| `unescape-query` | `rules::query::unescape::unescape` | `careful::inspect_query` (declines on `%`, `+`) | `query::tests::unescapes_but_keeps_boundaries`, `fast::tests` |
| `encode-value-equals` | `rules::query::unescape::unescape` (`rules::escapes::value_has_equals`) | as `encode-hash-space` | `escapes::tests::finds_equals_in_values`, `tests/canon_rules.rs::urlcanon_rules`, `tests/canon.rs::urlcanon_semantic_precise_suite` |
| `lowercase-query` | `rules::path::lowercase` | `careful::rewrite` | `fast::tests`, `tests/canon.rs` |
| `semicolon-separators` | `rules::separators::semicolons_to_amps`, `encode_semicolons` | none: `rules::lists::GENERAL_ONLY`, `fast::decline_all` | `separators::tests`, `tests/canon_rules.rs::semicolon_separators` |
| `semicolon-only-separators` | `rules::separators::semicolons_for_amps`, `amps_to_semicolons` (`general::split_on_semicolons`) | none: `rules::lists::GENERAL_ONLY`, `fast::decline_all` | `separators::tests::only_semicolons_separate`, `tests/canon_rules.rs::semicolon_only_separators`, `tests/canon.rs::w3lib_suite` |
| `form-encode-query` | `rules::form_encode::form_encode` (`general::query_component`) | none on a URL with a query: `rules::lists::QUERY_GENERAL`, `fast::decline_some` | `form_encode::tests`, `tests/canon_rules.rs::tool_rules`, `tests/canon.rs::w3lib_suite` |
| `url-search-params` | `rules::search_params::reserialize` (`general::query_component`) | none: `rules::lists::GENERAL_ONLY`, `fast::decline_all` | `search_params::tests`, `tests/profiles.rs::normalize_url_writes_the_query_as_url_search_params` |
| `strip-tracking` | `rules::query::apply` (`rules::tracking`) | `params::params_outcome` (`query::plain::apply_plain`, `apply_single`; `query::removable::removable_starts`) | `query::tests::strips_tracking_and_keeps_other_bytes`, `apply_plain_matches_apply`, `single_parameter_matches_apply`, `fast::tests` |
| `keep-params` | `rules::params::apply` (`rules::glob`) | none: `rules::lists::GENERAL_ONLY`, `fast::decline_all` | `params::tests`, `glob::tests`, `tests/canon_rules.rs::keep_params_keeps_only_listed_names` |
| `domain-params` | `rules::params::apply` (`rules::domain_params`) | none: `rules::lists::GENERAL_ONLY`, `fast::decline_all` | `domain_params::tests`, `params::tests::domain_params_*`, `tests/canon_rules.rs::domain_params_*`, `tests/cli_param_rules.rs` |
| `drop-blank-params` | `rules::params::apply` | none: `rules::lists::GENERAL_ONLY`, `fast::decline_all` | `params::tests`, `tests/canon_rules.rs::drop_blank_params` |
| `drop-empty-params` | `rules::query::apply` | as `strip-tracking` | `query::tests::apply_plain_matches_apply`, `fast::tests` |
| `sort-query` | `rules::query::apply` | as `strip-tracking` | `query::tests::sorts_stably_by_decoded_name`, `sort_matches_naive`, `fast::tests` |
| `sort-query-values` | `rules::query::apply` | as `strip-tracking` | `query::tests::sorts_by_value_like_webarchive_commons`, `fast::tests` |
| `sort-query-bytes` | `rules::query::apply` (`apply_plain` leaves it to `apply`) | as `strip-tracking` | `query::tests::sorts_whole_pieces_by_bytes`, `tests/profiles.rs::urlcanon_sorts_whole_parameters_by_bytes` |
| `drop-empty-query` | `general::query_component` | `params::query_fate` | `fast::tests`, `tests/canon.rs` |
| `strip-text-fragment` | `rules::fragment::strip_text_directives` | none: `rules::lists::GENERAL_ONLY`, `fast::decline_all` | `fragment::tests`, `tests/canon_rules.rs::fragment_rules` |
| `drop-empty-fragment` | `general::fragment_rules` | none: `rules::lists::GENERAL_ONLY`, `fast::decline_all` | `tests/canon_rules.rs::normalize_url_rules`, `tests/canon.rs::normalize_url_suite` |
| `keep-spa-fragments` | `rules::fragment::is_spa_route` (`general::fragment_rules`) | none: `rules::lists::GENERAL_ONLY`, `fast::decline_all` | `fragment::tests`, `tests/canon_rules.rs::fragment_rules` |
| `drop-fragment` | `general::fragment_rules` | `copy::Bare::apply`, `careful::tail`, `fused::plain` | `fast::tests::fast_path_drops_a_fragment_with_the_cuts_of_host_port_and_slash` |
| `strip-scheme` | `rules::scheme::strip` | none: `rules::lists::GENERAL_ONLY`, `fast::decline_all` | `scheme::tests`, `tests/canon_rules.rs::scheme_rules`, `strip_scheme_keys_on_a_corpus` |
| `strip-root-slash` | `general::apply_rules` (output) | none: `rules::lists::GENERAL_ONLY`, `fast::decline_all` | `tests/canon_rules.rs::normalize_url_rules`, `tests/canon.rs::normalize_url_suite` |

The test `tests::rule_table_lists_every_rule` checks that this table has
one row per rule, in [`Rule::ALL`] order.

# Example

```
use normurl_canon::{Canonicalizer, Profile, Scratch};
use normurl_url::Url;

let canon = Canonicalizer::builder(Profile::Aggressive)
    .rules("-strip-trailing-slash")?
    .build();
let mut scratch = Scratch::new();
let mut url = Url::parse("about:blank").unwrap();
let mut out = Vec::new();
for line in ["https://www.example.com/a/?b=2&a=1#x", "https://example.com/a/?a=1&b=2&utm_medium=mail"] {
    url.parse_into(line, None).unwrap();
    out.clear();
    let fired = canon.apply(&url, &mut scratch, &mut out);
    assert_eq!(out, b"https://example.com/a/?a=1&b=2", "{fired}");
}
# Ok::<(), normurl_canon::ConfigError>(())
```
*/

pub mod component;
pub mod psl;

mod canonicalizer;
mod cdx_key;
mod config;
mod error;
mod fast;
pub mod form;
mod general;
mod hash;
mod input;
mod profile;
mod rule;
mod rules;
mod scratch;
mod shape;
mod surt;

pub use canonicalizer::{Canonicalizer, CanonicalizerBuilder};
pub use config::{IdnForm, OutputForm};
pub use error::ConfigError;
pub use hash::key_hash;
pub use input::{parse_with_default_scheme, scheme_less, with_default_scheme};
pub use profile::Profile;
pub use rule::{Rule, RuleSet};
pub use rules::tracking::TrackingParams;
pub use scratch::Scratch;
pub use surt::{reverse_host, ssurt_host, SurtOptions};

// Compile and run the README's example as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

/// The four sample corpora (samples/corpora), by file name and text, for
/// the unit tests that run over real URLs.
#[cfg(test)]
pub(crate) fn test_corpora() -> Vec<(&'static str, String)> {
    [
        "weburls.txt",
        "kasztp.txt",
        "node_files.txt",
        "isaacs_files.txt",
    ]
    .into_iter()
    .map(|name| {
        let path = format!(
            "{}/../../samples/corpora/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        (name, text)
    })
    .collect()
}

#[cfg(test)]
mod tests {
    use super::Rule;

    /// The table in this module's documentation: a row per rule, in
    /// [`Rule::ALL`] order, so that a new rule cannot land without saying
    /// where its reference, fast path and tests are.
    #[test]
    fn rule_table_lists_every_rule() {
        let rows: Vec<&str> = include_str!("lib.rs")
            .lines()
            .filter_map(|line| line.strip_prefix("| `"))
            .filter_map(|row| row.split('`').next())
            .collect();
        let names: Vec<&str> = Rule::ALL.iter().map(|rule| rule.name()).collect();
        assert_eq!(rows, names);
    }
}
