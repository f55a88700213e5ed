//! The option groups that the main command and `normurl warc` share,
//! flattened into both (one definition, one meaning): the output file,
//! canonicalization, dedup, invalid lines, the summary and the scope
//! rules. `config/shared.rs` turns them into the library's configuration.

use std::path::PathBuf;

use clap::{ArgAction, Args as ClapArgs};
use normurl::canon::{IdnForm, Profile};
use normurl::normalize::OnInvalid;
use normurl::scope::Decision;

use super::values::{parse_size, profile_parser};

/// `-o` and its compression.
#[derive(Debug, ClapArgs)]
pub struct OutputArgs {
    /// Write the output to FILE instead of standard output.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,

    #[command(flatten)]
    pub compress: super::compress::CompressArgs,
}

/// The canonicalization: profile, rule edits, parameter lists and files,
/// and how hosts are written.
#[derive(Debug, ClapArgs)]
pub struct CanonArgs {
    /// Canonicalization profile applied after WHATWG parsing: whatwg (the
    /// serialization only), semantic (RFC 3986 safe normalizations),
    /// aggressive (dedup keys: also drops fragments, sorts queries, strips
    /// tracking parameters, session ids and www.), or one named after the
    /// tool whose canonicalization it reproduces. `normurl rules` lists
    /// profiles and rules. Default: whatwg, or wayback with --get surt (the
    /// keys of CDX files).
    #[arg(short = 'p', long, value_name = "NAME", value_parser = profile_parser())]
    pub profile: Option<Profile>,

    /// Add or remove single rules on top of the profile, e.g.
    /// `+sort-query,-strip-www`; may be repeated (the edits apply in order).
    #[arg(long, value_name = "EDITS", allow_hyphen_values = true, action = ArgAction::Append)]
    pub rules: Vec<String>,

    /// More query parameters for the strip-tracking rule (turns the rule
    /// on, with its default list, under any profile): NAME,... where `*`
    /// matches any run of bytes, or @FILE (one name per line); may be
    /// repeated. Names are case-sensitive.
    #[arg(long, value_name = "LIST", action = ArgAction::Append)]
    pub strip_params: Vec<String>,

    #[command(flatten)]
    pub rule_options: super::rule_options::RuleOptionArgs,

    /// How to write domain names: ascii (punycode, as URLs are serialized)
    /// or unicode.
    #[arg(long, value_name = "FORM", default_value = "ascii")]
    pub idn: IdnForm,
}

/// `--dedup`, `--count` and their memory. A command that flattens them
/// defines the group `dedup_or_count` of `dedup` and `count`, which
/// `--dedup-memory` and `-T` require.
#[derive(Debug, ClapArgs)]
pub struct DedupArgs {
    /// Write only the first line for each distinct value written (URL,
    /// key, component or template of --get), in input order. With --field,
    /// whole lines are kept or dropped by their URL field; with `normurl
    /// warc`, records by their URI's value. Lines without a valid URL have
    /// no key and are all written (--on-invalid=skip drops them).
    #[arg(short = 'u', long)]
    pub dedup: bool,

    /// Write each distinct value once (as --dedup) with its number of
    /// occurrences: COUNT, a tab, then the line (as `uniq -c` puts the count
    /// first; with --csv the delimiter instead of the tab), or with --json a
    /// "count" member in the object. In first-occurrence order, exact, so
    /// written at the end of the input (held in memory up to an eighth of
    /// --dedup-memory, then in TMPDIR). With --field, the first line of
    /// each value gets the count; a --header line gets a "count" column.
    /// With `normurl warc`, records (and --cdxj/--cdx lines, by their
    /// --dedup-key) are counted as --dedup compares them. Lines without a
    /// key (invalid lines kept) are written in their place without a count.
    #[arg(short = 'c', long)]
    pub count: bool,

    /// Memory budget of --dedup and --count (K, M, G suffixes): the key
    /// set, in total over its 16 shards (which decide keys on the worker
    /// threads), counting both of a table's copies while it grows. Past it,
    /// keys spill to the temporary directory (TMPDIR) and the result stays
    /// exact; the spill buffers (576K, or an eighth of a budget under 4.5M)
    /// and the final pass over the spilled keys (with --count, their counts
    /// too, past a buffer in sorted runs on disk) fit in it too, except for
    /// one bit per spilled line (125M per billion lines), needed whatever
    /// the budget.
    #[arg(long, value_name = "BYTES", default_value = "1G", value_parser = parse_size, requires = "dedup_or_count")]
    pub dedup_memory: usize,

    /// Where --dedup and --count spill keys past their memory budget, and
    /// `normurl warc --sort` its sorted runs (default: TMPDIR, or /tmp).
    #[arg(short = 'T', long, value_name = "DIR", requires = "dedup_or_count")]
    pub temp_dir: Option<PathBuf>,
}

/// What becomes of lines without a valid URL.
#[derive(Debug, ClapArgs)]
pub struct InvalidArgs {
    /// What to write for a line without a valid URL (with `normurl warc`,
    /// a record without a WARC-Target-URI, `-` in the URI column, or
    /// whose URI does not parse, or with --links a link that does not
    /// parse): keep (the line unchanged), empty (an empty line, so output
    /// line N stays input line N), skip (nothing) or fail (stop with exit
    /// status 1, naming the line).
    #[arg(long, value_name = "POLICY", default_value = "keep")]
    pub on_invalid: OnInvalid,

    /// Write every invalid line to FILE as LINE_NUMBER<TAB>REASON<TAB>LINE
    /// (line numbers count over all inputs, from 1; with `normurl warc`,
    /// record numbers, the line as --on-invalid=keep writes it).
    #[arg(long, value_name = "FILE")]
    pub rejects: Option<PathBuf>,
}

/// The end-of-run summary.
#[derive(Debug, ClapArgs)]
pub struct StatsArgs {
    /// Print a summary to standard error at the end (also when the run
    /// stops early, or the reader of the output goes away): lines (with
    /// `normurl warc`, records; with --links, links), valid, invalid by
    /// reason, skipped, dropped (by --keep-if/--drop-if), deduplicated,
    /// output lines (lines = output lines + skipped + dropped +
    /// deduplicated), bytes in and out, time, lines/s, MB/s.
    #[arg(long)]
    pub stats: bool,

    /// Write the same summary as JSON to FILE (created before the input is
    /// read; written also when the run stops early, with the counts of
    /// what was done).
    #[arg(long, value_name = "FILE")]
    pub stats_json: Option<PathBuf>,
}

/// `--keep-if` and `--drop-if`.
#[derive(Debug, ClapArgs)]
pub struct ScopeArgs {
    /// Keep the lines whose normalized URL (after the profile's and the
    /// --rewrite rules) matches RULE: surt:PREFIX (a SURT prefix, as a CDX
    /// key `com,example)/`, Heritrix's `http://(com,example,` or a URL
    /// `http://example.com/` turned into one as Heritrix does), domain:NAME
    /// (the host and its subdomains), host:NAME, scheme:NAME or regex:RE
    /// (searched in the URL). Rules of --keep-if and --drop-if apply in
    /// the order given, the last matching one deciding; a line no rule
    /// matches is dropped if any --keep-if is given, else kept. Dropped
    /// lines are counted (dropped in --stats); lines without a valid URL
    /// are never dropped. May be repeated.
    #[arg(long, value_name = "RULE", action = ArgAction::Append)]
    pub keep_if: Vec<String>,

    /// Drop the lines whose normalized URL matches RULE (see --keep-if);
    /// may be repeated.
    #[arg(long, value_name = "RULE", action = ArgAction::Append)]
    pub drop_if: Vec<String>,

    /// The rules of both options in command-line order, filled in by
    /// [`super::parse_args`] from clap's indices (clap keeps each option's values
    /// apart).
    #[arg(skip)]
    pub ordered: Vec<(Decision, String)>,
}
