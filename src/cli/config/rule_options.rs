//! The library's [`RuleOptions`] of the rule options
//! (`args/rule_options.rs`), `--rules` and `--strip-params`, and the
//! canonicalizer builder and `--rewrite` rules they make.

use std::path::PathBuf;
use std::sync::Arc;

use normurl::canon::{Canonicalizer, CanonicalizerBuilder, Profile};
use normurl::normalize::{ReadError, Rewrites, RuleOptionError, RuleOptions, Source};

use crate::cli::args::rule_options::RuleOptionArgs;
use crate::cli::Failure;

/// The library's options of these arguments and of `--rules` and
/// `--strip-params` (read when the canonicalizer is built).
pub fn options(a: &RuleOptionArgs, rules: &[String], strip_params: &[String]) -> RuleOptions {
    let lists = |args: &[String]| args.iter().map(|l| Source::list(l)).collect();
    let files = |paths: &[PathBuf]| paths.iter().map(|p| Source::File(p.clone())).collect();
    RuleOptions {
        rules: rules.to_vec(),
        strip_params: lists(strip_params),
        keep_params: lists(&a.keep_params),
        index_files: lists(&a.index_files),
        query_separators: a.query_separators,
        redirects: files(&a.redirects),
        param_rules: files(&a.param_rules),
        rewrite: a.rewrite.clone().map(Source::File),
    }
}

/// The builder of `profile` with `options` (see [`RuleOptions::builder`]).
pub fn builder(
    options: &mut RuleOptions,
    profile: Profile,
) -> Result<CanonicalizerBuilder, Failure> {
    options.builder(profile).map_err(failure)
}

/// The rules of `--rewrite`, their tests run through `canon`.
pub fn rewrites(
    options: &mut RuleOptions,
    canon: &Canonicalizer,
) -> Result<Option<Arc<Rewrites>>, Failure> {
    Ok(options.rewrites(canon).map_err(failure)?.map(Arc::new))
}

pub(super) fn failure(e: RuleOptionError) -> Failure {
    match e {
        RuleOptionError::Read(ReadError { path, source }) => Failure::Io { path, source },
        RuleOptionError::Usage(m) => Failure::Usage(m),
    }
}
