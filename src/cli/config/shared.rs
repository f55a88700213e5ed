//! The configuration of the option groups that the main command and
//! `normurl warc` share (`args/shared.rs`), in one place: the
//! canonicalizer, the scope rules and dedup.

use std::sync::Arc;

use normurl::canon::{Canonicalizer, OutputForm, Profile};
use normurl::component::PublicSuffixList;
use normurl::dedup::{DedupConfig, DedupMode};
use normurl::normalize::RuleOptions;
use normurl::scope::{Decision, Scope};

use crate::cli::args::shared::{CanonArgs, DedupArgs, ScopeArgs};
use crate::cli::Failure;

/// The scope of `a`, or `None` without rules; a bad rule is a usage
/// error.
pub fn scope(a: &ScopeArgs) -> Result<Option<Arc<Scope>>, Failure> {
    // Built from the parsed values when `args::parse_args` did not order them
    // (the order between the two options is then keep, drop).
    let fallback: Vec<(Decision, String)>;
    let rules = if a.ordered.is_empty() {
        fallback = (a.keep_if.iter().map(|r| (Decision::Keep, r.clone())))
            .chain(a.drop_if.iter().map(|r| (Decision::Drop, r.clone())))
            .collect();
        &fallback
    } else {
        &a.ordered
    };
    if rules.is_empty() {
        return Ok(None);
    }
    for (decision, rule) in rules {
        // Each rule alone first, so that the message names its option.
        if let Err(e) = normurl::scope::Rule::parse(rule) {
            let option = match decision {
                Decision::Keep => "--keep-if",
                Decision::Drop => "--drop-if",
            };
            return Err(Failure::Usage(format!("{option}: {e}")));
        }
    }
    let scope = Scope::new(rules.iter().map(|(d, r)| (*d, r.as_str())))
        .map_err(|e| Failure::Usage(e.to_string()))?;
    Ok(Some(Arc::new(scope)))
}

/// The profile of `a`: its `--profile`, or by default `wayback` for the
/// SURT forms (the keys of CDX files) and `whatwg` otherwise.
fn profile(a: &CanonArgs, form: OutputForm) -> Profile {
    match a.profile {
        Some(profile) => profile,
        None if matches!(form, OutputForm::Surt(_)) => Profile::Wayback,
        None => Profile::Whatwg,
    }
}

/// Builds the canonicalizer of `--profile`, `--rules`, `--strip-params`,
/// the rule options, `--idn` and the output form `form` (of `--get`);
/// returns it with the options, whose files are read, for `--rewrite`.
/// `psl` is `--psl`'s list, which `strip-www` asks too.
pub fn canonicalizer(
    a: &CanonArgs,
    form: OutputForm,
    psl: Option<&PublicSuffixList>,
) -> Result<(Canonicalizer, RuleOptions), Failure> {
    let mut rule_options = super::rule_options::options(&a.rule_options, &a.rules, &a.strip_params);
    let mut builder = super::rule_options::builder(&mut rule_options, profile(a, form))?;
    builder.output(form).idn(a.idn);
    if let Some(psl) = psl {
        builder.public_suffixes(psl);
    }
    Ok((builder.build(), rule_options))
}

/// The dedup configuration of `a`, `sorted` when only adjacent
/// duplicates are to go (`--assume-sorted`).
/// The deduper of `--dedup`, or of `--count` (`count`), which needs one.
pub fn dedup(a: &DedupArgs, sorted: bool) -> Option<DedupConfig> {
    (a.dedup || a.count).then(|| DedupConfig {
        mode: if sorted {
            DedupMode::Adjacent
        } else {
            DedupMode::Exact
        },
        memory_limit: a.dedup_memory,
        temp_dir: a.temp_dir.clone(),
    })
}
