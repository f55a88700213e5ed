//! The options of the rules of issue 29 (`--keep-params`,
//! `--index-files`, `--redirects`, `--query-separators`, `--param-rules`,
//! `--rewrite`), flattened into
//! the normalize arguments, and how they configure the canonicalizer.

use std::sync::Arc;

use clap::{ArgAction, Args as ClapArgs};
use normurl::canon::{Canonicalizer, CanonicalizerBuilder, ConfigError};
use normurl::normalize::Rewrites;

use super::Failure;

/// The lists of the `keep-params` and `strip-directory-index` rules.
#[derive(Debug, Default, ClapArgs)]
pub struct RuleOptionArgs {
    /// Keep only these query parameters (turns the keep-params rule on):
    /// NAME,... where `*` matches any run of bytes (`id,page_*,*_ref`), or
    /// @FILE (one name per line); may be repeated.
    #[arg(long, value_name = "LIST", action = ArgAction::Append)]
    pub keep_params: Vec<String>,

    /// More index file names for strip-directory-index, besides
    /// index.html, index.htm, index.php, default.asp and default.aspx
    /// (turns the rule on): NAME,... or @FILE; may be repeated.
    #[arg(long, value_name = "LIST", action = ArgAction::Append)]
    pub index_files: Vec<String>,

    /// More redirectors for unwrap-redirects (turns the rule on): a file
    /// of `HOST /PATH PARAM` lines (`t.example.com /out u`); may be
    /// repeated.
    #[arg(long, value_name = "FILE", action = ArgAction::Append)]
    pub redirects: Vec<std::path::PathBuf>,

    /// The bytes that separate query parameters: `&` (the default) or
    /// `&;` (w3lib's query_separator; turns semicolon-separators on, which
    /// writes each `;` as `&`).
    #[arg(long, value_name = "SEPS", value_parser = parse_separators)]
    pub query_separators: Option<bool>,

    /// Per-domain parameter rules (turns domain-params on): a file of
    /// `DOMAIN strip NAME,...` or `DOMAIN keep NAME,...` lines (a domain
    /// covers its subdomains, `*` every domain; the most specific domain's
    /// line alone applies; names take `*` as --strip-params does;
    /// `DOMAIN strip` alone strips nothing there), or DuckDuckGo's
    /// privacy-config JSON (trackingParameters: its names stripped
    /// everywhere, its exceptions' domains untouched); may be repeated.
    #[arg(long, value_name = "FILE", action = ArgAction::Append)]
    pub param_rules: Vec<std::path::PathBuf>,

    /// Regex substitutions applied to each canonical URL after the
    /// profile's rules (before --get): a file of `s|REGEX|REPLACEMENT|`
    /// lines (any delimiter not in them) or `REGEX<TAB>REPLACEMENT`, each
    /// replacing every match, in order, with $1, ${name}, $$; `#` lines
    /// are comments. `test INPUT EXPECTED` lines are checked at load: a
    /// wrong output or one that changes when run again fails the run. A
    /// URL rewritten to no URL is invalid (rewrite-invalid).
    #[arg(long, value_name = "FILE", conflicts_with = "relative")]
    pub rewrite: Option<std::path::PathBuf>,
}

/// `--query-separators`: whether `;` separates too.
fn parse_separators(s: &str) -> Result<bool, String> {
    match s {
        "&" => Ok(false),
        "&;" | ";&" => Ok(true),
        _ => Err(format!("{s:?}: the separators are & or &;")),
    }
}

/// Adds the lists to `builder`, reading each `@FILE`.
pub fn configure(a: &RuleOptionArgs, builder: &mut CanonicalizerBuilder) -> Result<(), Failure> {
    for list in &a.keep_params {
        let text = read_list(list)?;
        builder
            .keep_params(&text)
            .map_err(|e| usage("--keep-params", e))?;
    }
    for list in &a.index_files {
        let text = read_list(list)?;
        builder
            .index_files(&text)
            .map_err(|e| usage("--index-files", e))?;
    }
    match a.query_separators {
        Some(true) => builder.rules("+semicolon-separators"),
        Some(false) => builder.rules("-semicolon-separators"),
        None => Ok(&mut *builder),
    }
    .map_err(|e| usage("--query-separators", e))?;
    for path in &a.redirects {
        let text = read_file(path)?;
        builder
            .redirectors(&text)
            .map_err(|e| usage(&format!("--redirects {}", path.display()), e))?;
    }
    for path in &a.param_rules {
        let text = read_file(path)?;
        builder.param_rules(&text).map_err(|e| match e {
            ConfigError::BadParamRule(line, why) => {
                Failure::Usage(format!("--param-rules {}:{line}: {why}", path.display()))
            }
            e => usage(&format!("--param-rules {}", path.display()), e),
        })?;
    }
    Ok(())
}

/// The rules of `--rewrite`, their tests run through `canon`.
pub fn rewrites(
    a: &RuleOptionArgs,
    canon: &Canonicalizer,
) -> Result<Option<Arc<Rewrites>>, Failure> {
    let Some(path) = &a.rewrite else {
        return Ok(None);
    };
    let text = read_file(path)?;
    let rewrites = Rewrites::parse(&text, canon).map_err(|e| {
        Failure::Usage(format!(
            "--rewrite {}:{}: {}",
            path.display(),
            e.line,
            e.message
        ))
    })?;
    Ok(Some(Arc::new(rewrites)))
}

fn read_file(path: &std::path::Path) -> Result<String, Failure> {
    std::fs::read_to_string(path).map_err(|source| Failure::Io {
        path: path.display().to_string(),
        source,
    })
}

/// The list itself, or the text of the file `@FILE` names (whose `#`
/// comments the library's list parser skips).
fn read_list(list: &str) -> Result<String, Failure> {
    let Some(path) = list.strip_prefix('@') else {
        return Ok(list.to_owned());
    };
    std::fs::read_to_string(path).map_err(|source| Failure::Io {
        path: path.to_owned(),
        source,
    })
}

fn usage(option: &str, e: ConfigError) -> Failure {
    Failure::Usage(format!("{option}: {e}"))
}
