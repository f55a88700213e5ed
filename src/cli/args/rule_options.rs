//! The options of the rules of issue 29 (`--keep-params`,
//! `--index-files`, `--redirects`, `--query-separators`, `--param-rules`,
//! `--rewrite`), flattened into the arguments of the normalize command and
//! of `inspect`; `config/rule_options.rs` makes the library's rule options.

use std::path::PathBuf;

use clap::{ArgAction, Args as ClapArgs};
use normurl::normalize::{parse_query_separators, QuerySeparators};

/// The lists and files of the rules of issue 29.
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
    pub redirects: Vec<PathBuf>,

    /// The bytes that separate query parameters: `&` (the default), `&;`
    /// (turns semicolon-separators on, which writes each `;` as `&`) or
    /// `;` (w3lib's query_separator=";": turns semicolon-only-separators
    /// on; `;` alone separates and joins, an `&` is written `%26`).
    #[arg(long, value_name = "SEPS", value_parser = parse_query_separators)]
    pub query_separators: Option<QuerySeparators>,

    /// Per-domain parameter rules (turns domain-params on): a file of
    /// `DOMAIN strip NAME,...` or `DOMAIN keep NAME,...` lines (a domain
    /// covers its subdomains, `*` every domain; the most specific domain's
    /// line alone applies; names take `*` as --strip-params does;
    /// `DOMAIN strip` alone strips nothing there), or DuckDuckGo's
    /// privacy-config JSON (trackingParameters: its names stripped
    /// everywhere, its exceptions' domains untouched); may be repeated.
    #[arg(long, value_name = "FILE", action = ArgAction::Append)]
    pub param_rules: Vec<PathBuf>,

    /// Regex substitutions applied to each canonical URL after the
    /// profile's rules (before --get): a file of `s|REGEX|REPLACEMENT|`
    /// lines (any delimiter not in them) or `REGEX<TAB>REPLACEMENT`, each
    /// replacing every match, in order, with $1, ${name}, $$; `#` lines
    /// are comments. `test INPUT EXPECTED` lines are checked at load: a
    /// wrong output or one that changes when run again fails the run. A
    /// URL rewritten to no URL is invalid (rewrite-invalid).
    #[arg(long, value_name = "FILE")]
    pub rewrite: Option<PathBuf>,
}
