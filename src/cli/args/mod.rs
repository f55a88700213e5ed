//! The command line as clap sees it: flags and strings, checked for shape
//! only, in the clap structures of the main command, its subcommands and
//! the option groups they share, with their value parsers. Nothing here
//! knows of the configuration: [`super::config`] turns these into typed
//! configuration, and the runs see only that.

pub mod bench;
pub mod compress;
pub mod edit;
pub mod formats;
pub mod get;
pub mod log_format;
pub mod resolve;
pub mod rule_options;
pub mod shared;
pub mod values;
pub mod warc;

use std::ffi::OsString;
use std::num::NonZeroUsize;
use std::path::PathBuf;

use clap::{ArgMatches, Args as ClapArgs, FromArgMatches, Parser, Subcommand};
use normurl::canon::Profile;
use normurl::normalize::InvalidUtf8;
use normurl::scope::Decision;

use values::{parse_count, parse_field, parse_size, profile_parser};

const ABOUT: &str = "Normalize URLs in bulk, exactly as browsers parse them (WHATWG URL Standard).";

const LONG_ABOUT: &str = "\
Normalize URLs in bulk, exactly as browsers parse them (WHATWG URL Standard).

Reads the FILEs in order (none, or -, means standard input), plain or
compressed with gzip, zstd, bzip2 or xz (detected from the content, not the
name; lz4, zip and other formats are refused, not read as text; a gzip
member or zstd frame whose data does not end in a line break ends its last
line, as in CDX ZipNum shards), and writes one line per input line, in
input order: the line's URL in its WHATWG serialization (lowercase scheme and host, IDNA, IPv4/IPv6 canonical
forms, dot segments resolved, percent-encoding where the standard asks for
it). Lines that do not hold a valid URL are handled as --on-invalid says, and
can be collected with --rejects so that nothing is lost.";

const AFTER_HELP: &str = "\
Examples:
  normurl urls.txt > normalized.txt
  zcat -f crawl.log.gz | normurl --field 4 --on-invalid=keep
  normurl --field 4 --base-field 6 crawl.log       (resolve against the referrer)
  normurl -d '\\t' --field 3 --only-field links.tsv.zst
  normurl --base https://example.com/docs/ relative-links.txt
  normurl --on-invalid=skip --rejects rejects.tsv --stats big.txt.gz -o out.txt
  normurl inspect 'HTTP://EXAMPLE.com:80/a/../b?q#f'
  normurl bench samples/urls.txt

Exit status: 0 on success (also when the reader of the output goes away, as
in `normurl big.txt | head`), 1 when --on-invalid=fail stopped at an invalid
line, 2 for usage errors and I/O errors.";

/// `--version`: the crate's version and the bundled list's date (a test
/// checks that it is [`normurl::component::BUNDLED_DATE`]).
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (Public Suffix List of 2026-11-21)"
);

/// The `normurl` command line.
#[derive(Debug, Parser)]
#[command(
    name = "normurl",
    version = VERSION,
    about = ABOUT,
    long_about = LONG_ABOUT,
    after_help = AFTER_HELP,
    args_conflicts_with_subcommands = true,
    args_override_self = true,
    max_term_width = 100
)]
pub struct Args {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub normalize: NormalizeArgs,
}

// Made once per process from the command line: the size of its largest
// variant costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print the components of one URL as JSON, as `new URL(url, base)` sees them.
    Inspect(InspectArgs),
    /// Measure URL parsing speed (parse and serialize, from memory) on URL files.
    Bench(BenchArgs),
    /// List the profiles and the rules with the profiles that use them, or
    /// the rules of one profile.
    Rules(RulesArgs),
    /// Write a shell completion script to standard output (bash, zsh, fish,
    /// elvish, powershell).
    Completions(CompletionsArgs),
    /// Write the manual page (roff) to standard output: `normurl man >
    /// normurl.1`.
    Man,
    /// One line per WARC record: its target URI normalized, its type, its
    /// offset and length in the file (URI TAB TYPE TAB OFFSET TAB LENGTH);
    /// --get, --json, --profile, --rules, the parameter lists, --dedup,
    /// --count, --keep-if/--drop-if, -o and --stats mean what they mean
    /// for lines.
    Warc(warc::WarcArgs),
}

#[derive(Debug, ClapArgs)]
pub struct RulesArgs {
    /// List the rules of this profile only.
    #[arg(value_name = "PROFILE", value_parser = profile_parser())]
    pub profile: Option<Profile>,
}

#[derive(Debug, ClapArgs)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_name = "SHELL")]
    pub shell: clap_complete::Shell,
}

#[derive(Debug, ClapArgs)]
pub struct InspectArgs {
    /// The URL (or relative reference, with --base).
    #[arg(value_name = "URL")]
    pub url: String,
    /// Resolve the URL against this base URL.
    #[arg(long, value_name = "URL")]
    pub base: Option<String>,
    #[command(flatten)]
    pub canon: get::InspectCanonArgs,
}

#[derive(Debug, ClapArgs)]
pub struct BenchArgs {
    /// Files with one URL per line (empty lines are ignored).
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// Timed runs per measurement (the median is reported).
    #[arg(long, value_name = "N", default_value = "5")]
    pub runs: NonZeroUsize,
    /// Threads of the all-thread measurement (0: all cores; at most 4 per
    /// core and 256).
    #[arg(short = 'j', long, value_name = "N", default_value = "0", value_parser = parse_count)]
    pub threads: usize,
    #[command(flatten)]
    pub output: bench::BenchOutput,
}

#[derive(Debug, ClapArgs)]
#[command(group(clap::ArgGroup::new("dedup_or_count").args(["dedup", "count"]).multiple(true)))]
pub struct NormalizeArgs {
    /// Input files, read in order; none or - means standard input.
    #[arg(value_name = "FILE")]
    pub files: Vec<OsString>,

    #[command(flatten)]
    pub output: shared::OutputArgs,

    #[command(flatten)]
    pub canon: shared::CanonArgs,

    #[command(flatten)]
    pub get: get::GetArgs,

    /// With --field: keep the line as it is and write the --get value as a
    /// new column, first or last (joined by the delimiter, a space without
    /// -d; with --csv, quoted if it needs to be), instead of replacing the
    /// URL field. Every row gets the column: lines kept without a URL an
    /// empty one (- without -d, where blanks cannot hold an empty field;
    /// an empty value too), a --header line the column's name: the --get
    /// name (surt, registered_domain; a template with its components'
    /// names), normalized_url for url. Blank lines stay blank.
    #[arg(long, value_name = "WHERE", requires = "field", conflicts_with_all = ["only_field", "original", "json"])]
    pub add_field: Option<String>,

    /// Parse lines without a scheme (example.com/a, //example.com/a,
    /// example.com:8080/x) as if they began with SCHEME:// (http or
    /// https). mailto:x, urn:x and the like have a scheme.
    #[arg(long, value_name = "SCHEME", conflicts_with_all = ["base", "base_field"])]
    pub default_scheme: Option<String>,

    #[command(flatten)]
    pub edits: edit::EditArgs,

    #[command(flatten)]
    pub dedup: shared::DedupArgs,

    /// With --dedup: the input is sorted by key (e.g. a CDX file), so only
    /// adjacent duplicates are dropped, in constant memory. If the keys are
    /// not in order (byte order, as `LC_ALL=C sort`), a warning names the
    /// first line where the order breaks; the exit status stays 0.
    #[arg(long, requires = "dedup", conflicts_with = "count")]
    pub assume_sorted: bool,

    /// With --assume-sorted: keys out of order are an error (exit status 1
    /// after the run), not a warning.
    #[arg(long, requires = "assume_sorted")]
    pub check_sorted: bool,

    /// Write each line with a valid URL as it was read, not normalized: the
    /// normalized URL (or key) only decides --dedup and --on-invalid. With
    /// --only-field, the field as it was read.
    #[arg(long, conflicts_with = "json")]
    pub original: bool,

    /// Append a tab and the names of the rules that changed each URL
    /// (`-` for none), to see why two URLs collapsed. A line without a URL
    /// gets `invalid:REASON`, so every line has two more columns.
    #[arg(long, conflicts_with = "json")]
    pub explain: bool,

    /// Records end with NUL instead of newline, in input and output (for
    /// `find -print0` and `xargs -0`).
    #[arg(short = 'z', long)]
    pub null: bool,

    /// What to do with bytes that are not UTF-8: percent (encode each
    /// invalid byte as %XX before parsing: lossless, idempotent), replace
    /// (with U+FFFD: lossy) or reject (the line is invalid, invalid-utf8).
    #[arg(long, value_name = "POLICY", default_value = "percent")]
    pub invalid_utf8: InvalidUtf8,

    /// Normalize only field N (from 1) of each line and keep the rest of the
    /// line byte for byte. Heritrix crawl.log: 4 is the URL, 6 the referrer.
    #[arg(short = 'f', long, value_name = "N", value_parser = parse_field)]
    pub field: Option<NonZeroUsize>,

    /// The field separator for --field and --base-field: a single character,
    /// or \t (tab). Default: runs of spaces and tabs, as in crawl.log.
    #[arg(short = 'd', long, value_name = "CHAR", requires = "field")]
    pub delimiter: Option<String>,

    /// With --field, --json-field or --format, write only the normalized field, not
    /// the whole line.
    #[arg(long)]
    pub only_field: bool,

    /// Resolve relative references against this base URL.
    #[arg(long, value_name = "URL")]
    pub base: Option<String>,

    /// Resolve the --field URL against the URL in field M of the same line
    /// (for example the page an extracted link came from).
    #[arg(long, value_name = "M", requires = "field", value_parser = parse_field)]
    pub base_field: Option<NonZeroUsize>,

    #[command(flatten)]
    pub resolve: resolve::ResolveArgs,

    /// Lines longer than this are invalid (line-too-long); they are passed
    /// through in pieces, never held in memory whole. Accepts K, M, G
    /// suffixes (powers of 1024).
    #[arg(long, value_name = "BYTES", default_value = "1M", value_parser = parse_size)]
    pub max_line_bytes: usize,

    /// The most memory a zstd frame may ask for its window (the data it
    /// refers back to); a frame that needs more stops the run. The 8M
    /// default fits zstd levels 1 to 19 without --long. Accepts K, M, G
    /// suffixes.
    #[arg(long, value_name = "BYTES", default_value = "8M", value_parser = parse_size)]
    pub zstd_memory: usize,

    #[command(flatten)]
    pub invalid: shared::InvalidArgs,

    /// Worker threads; 0 means one per core, 1 runs everything on one
    /// thread. At most 4 per core and 256 run (a larger N means that
    /// many); the output is the same for every N. Compressed input is
    /// decoded on N threads too where its format allows: gzip members and
    /// zstd frames, and one large gzip member of a regular file. Standard
    /// input and pipes of one gzip member, one zstd frame (each block
    /// needs the ones before it), bzip2 and xz are decoded on one thread.
    #[arg(short = 'j', long, value_name = "N", default_value = "0", value_parser = parse_count)]
    pub threads: usize,

    #[command(flatten)]
    pub stats: shared::StatsArgs,

    /// Write each line as soon as it is read and normalized (for `tail -f
    /// crawl.log | normurl`); on by default when standard output is a
    /// terminal. Slower on large files.
    #[arg(long)]
    pub line_buffered: bool,

    #[command(flatten)]
    pub scope: shared::ScopeArgs,

    #[command(flatten)]
    pub formats: formats::FormatArgs,

    #[command(flatten)]
    pub log: log_format::LogArgs,

    /// Bytes per batch of work (for tuning and benchmarks; the output does
    /// not depend on it).
    #[arg(long, value_name = "BYTES", default_value = "1M", value_parser = parse_size, hide = true)]
    pub batch_bytes: usize,
}

/// Parses the command line as [`Args::try_parse`] does, then puts the
/// scope rules of the main command or of `warc` in command-line order.
pub fn parse_args() -> Result<Args, clap::Error> {
    let matches = <Args as clap::CommandFactory>::command().try_get_matches()?;
    let mut args = Args::from_arg_matches(&matches)?;
    match &mut args.command {
        None => {
            args.normalize.scope.ordered = ordered(&matches);
            // The edits apply in command-line order, across the options.
            args.normalize.edits.record_order(&matches);
        }
        Some(Command::Warc(w)) => {
            if let Some(m) = matches.subcommand_matches("warc") {
                w.scope.ordered = ordered(m);
            }
        }
        Some(_) => {}
    }
    Ok(args)
}

/// The values of `--keep-if` and `--drop-if` in `m`, ordered by where
/// they stand on the command line.
fn ordered(m: &ArgMatches) -> Vec<(Decision, String)> {
    let mut rules: Vec<(usize, Decision, String)> = Vec::new();
    for (id, decision) in [("keep_if", Decision::Keep), ("drop_if", Decision::Drop)] {
        let (Ok(Some(values)), Some(indices)) = (m.try_get_many::<String>(id), m.indices_of(id))
        else {
            continue;
        };
        rules.extend(indices.zip(values).map(|(i, v)| (i, decision, v.clone())));
    }
    rules.sort_by_key(|r| r.0);
    rules.into_iter().map(|(_, d, v)| (d, v)).collect()
}

/// Ends the command after clap's error `e`: help and version go to
/// standard output (status 0); a usage error is one line on standard error,
/// `normurl: ...`, with status 2, as every other error of the command.
pub fn clap_error(e: &clap::Error) -> std::process::ExitCode {
    use clap::error::ErrorKind;
    use std::io::Write;
    match e.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            // Printing help fails only when its reader has gone away.
            let _ = e.print();
            std::process::ExitCode::from(if e.use_stderr() { 2 } else { 0 })
        }
        _ => {
            let _ = writeln!(std::io::stderr().lock(), "normurl: {}", one_line(e));
            std::process::ExitCode::from(2)
        }
    }
}

/// clap's message as one line: a value an option's parser refused is
/// `--option: why` (the why names the value) or `--option VALUE: why`, as
/// the command's other errors and the Python package's say it; anything
/// else is clap's first paragraph without its `error: ` prefix.
fn one_line(e: &clap::Error) -> String {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let context = |kind| match e.get(kind) {
        Some(ContextValue::String(s)) => Some(s.as_str()),
        _ => None,
    };
    let why = std::error::Error::source(e).map(ToString::to_string);
    if let (ErrorKind::ValueValidation, Some(arg), Some(value), Some(why)) = (
        e.kind(),
        context(ContextKind::InvalidArg),
        context(ContextKind::InvalidValue),
        why,
    ) {
        // `--field <N>` is the option's name and its value's.
        let option = arg.split(' ').next().unwrap_or(arg);
        let option = option.trim_matches(|c| matches!(c, '[' | ']' | '<' | '>'));
        return if why.contains(value) {
            format!("{option}: {why}")
        } else {
            format!("{option} {value}: {why}")
        };
    }
    let text = e.to_string();
    // The message is the first paragraph; a list of missing arguments
    // continues it on indented lines.
    let paragraph: Vec<&str> = text
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .map(str::trim)
        .collect();
    let message = paragraph.join(" ");
    let message = message.strip_prefix("error: ").unwrap_or(&message);
    format!("{message} (see {} --help)", command_of())
}

/// The command whose arguments a usage error is about, whose help lists
/// them: `normurl warc` when the first argument names a subcommand (a
/// subcommand comes first, `args_conflicts_with_subcommands`), else
/// `normurl`. (clap's usage line, which names it too, is missing from
/// some errors, as for a value not among the possible ones.)
fn command_of() -> String {
    use clap::CommandFactory;
    let first = std::env::args_os().nth(1);
    let sub = first.and_then(|arg| {
        Args::command()
            .get_subcommands()
            .find(|c| arg == c.get_name())
            .map(|c| c.get_name().to_string())
    });
    match sub {
        Some(name) => format!("normurl {name}"),
        None => "normurl".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;
    use normurl::component::BUNDLED_DATE;

    #[test]
    fn clap_definition_is_consistent() {
        Args::command().debug_assert();
    }

    #[test]
    fn version_names_the_bundled_list() {
        assert!(VERSION.contains(BUNDLED_DATE), "{VERSION}");
    }
}
