//! The option groups that the main command and `normurl warc` share,
//! flattened into both (one definition, one meaning), and their
//! conversion to the library's configuration, in one place: the output
//! file, canonicalization, dedup, invalid lines, the summary and the
//! scope rules.

use std::path::PathBuf;
use std::sync::Arc;

use clap::{ArgAction, ArgMatches, Args as ClapArgs, FromArgMatches};
use normurl::canon::{Canonicalizer, IdnForm, OutputForm, Profile};
use normurl::component::PublicSuffixList;
use normurl::dedup::{DedupConfig, DedupMode};
use normurl::normalize::{OnInvalid, RuleOptions};
use normurl::scope::{Decision, Scope};

use super::args::{parse_size, profile_parser, Args, Command};
use super::Failure;

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

/// `--dedup` and its memory.
#[derive(Debug, ClapArgs)]
pub struct DedupArgs {
    /// Write only the first line for each distinct value written (URL,
    /// key, component or template of --get), in input order. With --field,
    /// whole lines are kept or dropped by their URL field; with `normurl
    /// warc`, records by their URI's value. Lines without a valid URL have
    /// no key and are all written (--on-invalid=skip drops them).
    #[arg(short = 'u', long)]
    pub dedup: bool,

    /// Memory budget of --dedup and --count (K, M, G suffixes): the key
    /// set, in total over its 16 shards (which decide keys on the worker
    /// threads), counting both of a table's copies while it grows. Past it,
    /// keys spill to the temporary directory (TMPDIR) and the result stays
    /// exact; the spill buffers (576K, or an eighth of a budget under 4.5M)
    /// and the final pass over the spilled keys fit in it too, except for
    /// one bit per spilled line (125M per billion lines), needed whatever
    /// the budget, and with --count 16 bytes per distinct spilled value.
    #[arg(long, value_name = "BYTES", default_value = "1G", value_parser = parse_size, requires = "dedup_or_count")]
    pub dedup_memory: usize,

    /// Where --dedup spills keys past its memory budget, and `normurl
    /// warc --sort` its sorted runs (default: TMPDIR, or /tmp).
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
    /// [`parse_args`] from clap's indices (clap keeps each option's values
    /// apart).
    #[arg(skip)]
    pub ordered: Vec<(Decision, String)>,
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

/// The scope of `a`, or `None` without rules; a bad rule is a usage
/// error.
pub fn scope(a: &ScopeArgs) -> Result<Option<Arc<Scope>>, Failure> {
    // Built from the parsed values when `parse_args` did not order them
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
pub fn dedup(a: &DedupArgs, count: bool, sorted: bool) -> Option<DedupConfig> {
    (a.dedup || count).then(|| DedupConfig {
        mode: if sorted {
            DedupMode::Adjacent
        } else {
            DedupMode::Exact
        },
        memory_limit: a.dedup_memory,
        temp_dir: a.temp_dir.clone(),
    })
}
