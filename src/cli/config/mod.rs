//! Typed configuration, built once from the parsed arguments: every string
//! option becomes an enum or a parsed value here, and every usage error is
//! found here, before any input is read.

pub mod compress;
pub mod edit;
mod files;
pub mod formats;
pub mod get;
pub mod inspect;
pub mod log_format;
pub mod resolve;
pub mod rule_options;
pub mod shared;
pub mod warc;

use std::path::PathBuf;

use normurl::canon::Profile;
use normurl::dedup::DedupConfig;
use normurl::normalize::{Delimiter, FieldOutput, Options as NormalizeOptions, Select};
use normurl::pipeline::{self, Format, Input};

use super::args::{
    Args, BenchArgs, Command, CompletionsArgs, InspectArgs, NormalizeArgs, RulesArgs,
};
use super::Failure;

pub use super::args::bench::BenchOutput;

/// What to do.
#[derive(Debug)]
pub enum Config {
    Normalize(Box<Normalize>),
    /// `normurl rules [PROFILE]`.
    Rules(Option<Profile>),
    /// `normurl completions SHELL`.
    Completions(clap_complete::Shell),
    /// `normurl man`.
    Man,
    Inspect {
        url: String,
        base: Option<String>,
        canon: Box<inspect::Canon>,
    },
    Bench(Bench),
    Warc(Box<warc::Warc>),
}

/// The main job.
#[derive(Debug)]
pub struct Normalize {
    pub inputs: Vec<Input>,
    pub output: Target,
    /// NUL instead of newline.
    pub terminator: u8,
    pub options: NormalizeOptions,
    pub max_line_bytes: usize,
    pub batch_bytes: usize,
    /// `--zstd-memory`: the largest zstd window, in bytes.
    pub zstd_memory: u64,
    pub rejects: Option<PathBuf>,
    /// `--compress`, or the output files' names.
    pub compression: compress::Compression,
    pub threads: usize,
    pub stats: bool,
    pub stats_json: Option<PathBuf>,
    /// `--dedup`: how, and with what memory.
    pub dedup: Option<DedupConfig>,
    /// `--count` (which implies `--dedup`): the byte after the count
    /// column (unless the output is JSON).
    pub count: Option<u8>,
    /// `--check-sorted`: keys out of order fail the run.
    pub check_sorted: bool,
    /// `--line-buffered` (or standard output is a terminal).
    pub line_buffered: bool,
}

/// Where the output goes.
#[derive(Debug, PartialEq, Eq)]
pub enum Target {
    Stdout,
    File(PathBuf),
}

impl Target {
    pub fn name(&self) -> String {
        match self {
            Target::Stdout => "<stdout>".to_string(),
            Target::File(p) => p.display().to_string(),
        }
    }
}

#[derive(Debug)]
pub struct Bench {
    pub files: Vec<PathBuf>,
    pub runs: usize,
    pub threads: usize,
    pub output: BenchOutput,
}

impl Config {
    pub fn from_args(args: Args) -> Result<Config, Failure> {
        match args.command {
            Some(Command::Inspect(InspectArgs { url, base, canon })) => Ok(Config::Inspect {
                url,
                base,
                canon: Box::new(inspect::inspect_canon(&canon)?),
            }),
            Some(Command::Bench(BenchArgs {
                files,
                runs,
                threads,
                output,
            })) => Ok(Config::Bench(Bench {
                files,
                runs: runs.get(),
                threads: pipeline::threads_for(threads),
                output,
            })),
            Some(Command::Rules(RulesArgs { profile })) => Ok(Config::Rules(profile)),
            Some(Command::Completions(CompletionsArgs { shell })) => Ok(Config::Completions(shell)),
            Some(Command::Man) => Ok(Config::Man),
            Some(Command::Warc(a)) => warc::config(a).map(|w| Config::Warc(Box::new(w))),
            None => normalize(args.normalize).map(|n| Config::Normalize(Box::new(n))),
        }
    }
}

/// Whether the input file `p` exists, is not a directory and, if it is a
/// regular file, opens for reading; then the format its first bytes say.
/// (Other kinds are not opened here: a named pipe would block until a
/// writer comes, and see its reader close.) A file that opens but fails
/// to read is left to the run, which reports it where it fails, as any
/// read error.
/// (The message is the one the OS gives when a directory is opened.)
fn check_input(p: &std::path::Path) -> std::io::Result<Option<Format>> {
    let meta = std::fs::metadata(p)?;
    if meta.is_dir() {
        return Err(std::io::Error::other("Is a directory"));
    }
    if meta.is_file() {
        return Ok(Format::sniff(std::fs::File::open(p)?).ok());
    }
    Ok(None)
}

fn normalize(a: NormalizeArgs) -> Result<Normalize, Failure> {
    let terminator = if a.null { b'\0' } else { b'\n' };
    let get_options = get::options(
        &a.get,
        a.add_field.as_deref(),
        a.default_scheme.as_deref(),
        a.canon.idn,
    )?;
    let form = get::output_form(&a.get);
    let (canon, mut rule_options) =
        shared::canonicalizer(&a.canon, form, get_options.psl.as_deref())?;
    let scope = shared::scope(&a.scope)?;
    if scope.is_some() && a.resolve.relative {
        return Err(Failure::Usage(
            "--keep-if and --drop-if decide on absolute URLs, not with --relative".into(),
        ));
    }
    let inputs: Vec<Input> = if a.files.is_empty() {
        vec![Input::Stdin]
    } else {
        a.files.iter().map(|f| Input::from_arg(f)).collect()
    };
    // Find missing, unreadable and directory inputs, and compression
    // formats that are not decoded, before creating the output file and
    // writing anything: the output of a run with a bad input among several
    // must not look like a complete one.
    for input in &inputs {
        if let Input::Path(p) = input {
            match check_input(p) {
                Err(source) => {
                    return Err(Failure::Io {
                        path: input.name(),
                        source,
                    })
                }
                Ok(Some(format)) if !format.is_decoded() => {
                    return Err(Failure::Run(pipeline::Error::Unsupported {
                        path: input.name(),
                        format,
                        stdin: false,
                    }))
                }
                Ok(_) => {}
            }
        }
    }
    let output = match a.output.output {
        None => Target::Stdout,
        Some(p) if p.as_os_str() == "-" => Target::Stdout,
        Some(p) => Target::File(p),
    };
    let mut outputs = vec![match &output {
        Target::Stdout => files::Named {
            label: "standard output".to_string(),
            path: None,
        },
        Target::File(p) => files::Named {
            label: format!("-o {}", p.display()),
            path: Some(p),
        },
    }];
    for (option, path) in [
        ("--rejects", &a.invalid.rejects),
        ("--stats-json", &a.stats.stats_json),
    ] {
        if let Some(p) = path {
            outputs.push(files::Named {
                label: format!("{option} {}", p.display()),
                path: Some(p),
            });
        }
    }
    files::check(&inputs, &outputs)?;
    for (option, value) in [
        ("--max-line-bytes", a.max_line_bytes),
        ("--batch-bytes", a.batch_bytes),
    ] {
        if value > pipeline::MAX_BATCH_BYTES {
            return Err(Failure::Usage(format!("{option} must be at most 1G")));
        }
    }
    let (base, resolution) = resolve::options(&a.resolve, a.base.as_deref())?;
    let select = match a.field {
        None => Select::Line,
        Some(field) => Select::Field {
            field,
            base_field: a.base_field,
            delimiter: match &a.delimiter {
                None => Delimiter::Blanks,
                Some(d) => Delimiter::Byte(parse_delimiter(d, terminator)?),
            },
            output: if a.only_field {
                FieldOutput::Field
            } else {
                FieldOutput::Line
            },
        },
    };
    let mut options = NormalizeOptions {
        select,
        base,
        resolution,
        invalid_utf8: a.invalid_utf8,
        on_invalid: a.invalid.on_invalid,
        rejects: a.invalid.rejects.is_some(),
        canon,
        dedup: a.dedup.dedup || a.dedup.count,
        scope,
        explain: a.explain,
        original: a.original,
        sort_keys: a.assume_sorted,
        ..get_options
    };
    log_format::apply(&a.log, &mut options, a.only_field)?;
    formats::apply(&a.formats, &mut options, a.only_field)?;
    options.rewrite = rule_options::rewrites(&mut rule_options, &options.canon)?;
    options.edits = edit::edits(&a.edits)?;
    if !options.edits.is_empty() && options.resolution.relative {
        return Err(Failure::Usage(
            "--set, --append, --set-param and --delete-param edit URLs; --relative keeps references, which have none to edit".to_owned(),
        ));
    }
    let count = a.dedup.count.then(|| {
        let separator = match options.select {
            Select::Field {
                delimiter: Delimiter::Csv(separator),
                ..
            } => separator,
            _ => b'\t',
        };
        // A JSON header object gets no column.
        options.count_column = options.header.then_some(separator);
        separator
    });
    let dedup = shared::dedup(&a.dedup, a.assume_sorted);
    let line_buffered = a.line_buffered
        || (matches!(output, Target::Stdout)
            && std::io::IsTerminal::is_terminal(&std::io::stdout()));
    Ok(Normalize {
        compression: compress::config(&a.output.compress, &output, a.invalid.rejects.as_deref())?,
        inputs,
        output,
        terminator,
        options,
        max_line_bytes: a.max_line_bytes,
        batch_bytes: a.batch_bytes,
        zstd_memory: a.zstd_memory as u64,
        rejects: a.invalid.rejects,
        threads: pipeline::threads_for(a.threads),
        stats: a.stats.stats,
        stats_json: a.stats.stats_json,
        count,
        dedup,
        check_sorted: a.check_sorted,
        line_buffered,
    })
}

/// `-d`: one byte, or the escapes `\t`, `\0`, `\\`, or the names `tab`,
/// `space`.
fn parse_delimiter(s: &str, terminator: u8) -> Result<u8, Failure> {
    let byte = match s {
        "\\t" | "tab" | "TAB" => b'\t',
        "\\0" => b'\0',
        "\\\\" => b'\\',
        "space" => b' ',
        _ if s.len() == 1 => s.as_bytes()[0],
        _ => {
            return Err(Failure::Usage(format!(
                "--delimiter {s:?} must be a single ASCII character, or \\t for tab"
            )))
        }
    };
    if byte == terminator || byte == b'\n' {
        return Err(Failure::Usage(format!(
            "--delimiter {s:?} cannot be the record terminator"
        )));
    }
    Ok(byte)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delimiters() {
        assert_eq!(parse_delimiter("\\t", b'\n').ok(), Some(b'\t'));
        assert_eq!(parse_delimiter(",", b'\n').ok(), Some(b','));
        assert_eq!(parse_delimiter("tab", b'\n').ok(), Some(b'\t'));
        assert!(parse_delimiter("ab", b'\n').is_err());
        assert!(parse_delimiter("é", b'\n').is_err());
        assert!(parse_delimiter("\\0", b'\0').is_err());
        assert!(parse_delimiter("\n", b'\0').is_err());
    }
}
