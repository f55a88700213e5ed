//! `--resolve`, `--relative`, `--query-encoding`, `--charset-field`: how
//! references are read and resolved (crates/normurl-url/src/reference, crates/normurl-url/src/encoding.rs),
//! as options of their own; `config/resolve.rs` turns them into the
//! normalizer's resolution and base.

use std::num::NonZeroUsize;

use clap::{Args as ClapArgs, ValueEnum};
use normurl::QueryEncoding;

#[derive(Debug, ClapArgs)]
pub struct ResolveArgs {
    /// How --base and --base-field resolve relative references: whatwg (as
    /// browsers do), legacy (RFC 3986 non-strict, as Python's urljoin: a
    /// scheme equal to the base's is ignored, for any scheme), generic
    /// (RFC 3986 strict, as Java's URI and Go's net/url: `http:g` stays
    /// `http:g`, which is then read as http://g/).
    #[arg(long, value_enum, value_name = "MODE", default_value_t = ResolveMode::Whatwg)]
    pub resolve: ResolveMode,

    /// Write normalized references, not absolute URLs: lines may be
    /// relative (`../a/./b` gives `../a/b`), and are rebased onto --base
    /// (which may then be relative too, such as /docs/) and --base-field
    /// but not made absolute. Profiles and --query-encoding do not apply.
    // The conflict with --rewrite is declared here: `inspect` flattens the
    // rule options too, and has no --relative.
    #[arg(long, conflicts_with = "rewrite")]
    pub relative: bool,

    /// The encoding of the pages the URLs come from (an Encoding Standard
    /// label: shift_jis, euc-jp, gbk, windows-1252...): as browsers do, the
    /// query of http(s), ftp and file URLs is encoded in it before
    /// percent-encoding, characters it lacks as %26%23NNNN%3B. Default UTF-8.
    #[arg(long, value_name = "LABEL", value_parser = parse_encoding)]
    pub query_encoding: Option<QueryEncoding>,

    /// The field holding each line's page encoding (a crawler's record of
    /// the charset), which overrides --query-encoding for that line; an
    /// empty field, -, or an unknown label leaves --query-encoding.
    #[arg(long, value_name = "N", requires = "field")]
    pub charset_field: Option<NonZeroUsize>,
}

fn parse_encoding(label: &str) -> Result<QueryEncoding, String> {
    label.parse()
}

/// `--resolve`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ResolveMode {
    /// The WHATWG URL Standard's resolution.
    Whatwg,
    /// RFC 3986 non-strict resolution.
    Legacy,
    /// RFC 3986 strict resolution.
    Generic,
}
