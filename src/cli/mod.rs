//! The `normurl` command: arguments, configuration and the jobs. The
//! library does the work; this module only turns a command line into calls
//! and errors into messages and exit codes.
//!
//! Three layers, each using only the ones before it, as ripgrep's flags,
//! configuration and search: `args/` (clap's structures and value
//! parsers), `config/` (the typed configuration built from them once,
//! where every usage error is found) and the runs (`run.rs`, `warc*.rs`,
//! `bench.rs`, `inspect.rs`, `rules.rs` and what they use), which see the
//! configuration only.

pub mod args;
mod bench;
mod compress;
mod config;
mod inspect;
mod json;
mod progress;
mod rules;
mod run;
mod signals;
mod stats;
mod warc;
mod warc_index;
mod warc_split;
mod warc_tally;

use std::fmt;
use std::io;

use normurl::pipeline;

pub use config::Config;

/// Why the command did not succeed, and with which exit status.
#[derive(Debug)]
pub enum Failure {
    /// A bad combination of options or values (exit 2).
    Usage(String),
    /// An I/O error outside the pipeline: creating an output, writing the
    /// stats (exit 2).
    Io { path: String, source: io::Error },
    /// The pipeline stopped: exit 1 for `--on-invalid=fail`, 2 otherwise.
    Run(pipeline::Error),
    /// `inspect` of an invalid URL; the JSON already says why (exit 1).
    InvalidUrl,
    /// `--check-sorted` found keys out of order (exit 1).
    Unsorted(String),
    /// Several failures of one run, the first being why it stopped: each
    /// is reported, and the exit status is the worst of theirs.
    Several(Vec<Failure>),
}

/// The name of standard output in messages.
pub const STDOUT: &str = "<stdout>";

impl Failure {
    /// The process exit status: 0 for the main output's reader going away
    /// (`normurl big.txt | head`, how pipelines end), 1 for a run stopped
    /// by `--on-invalid=fail` or `--check-sorted` and an invalid URL given
    /// to `inspect`, 2 for everything else. Several failures give the
    /// worst.
    pub fn exit_code(&self) -> u8 {
        match self {
            Failure::Several(all) => all.iter().map(Failure::exit_code).max().unwrap_or(0),
            Failure::Run(e) if e.is_broken_pipe() => 0,
            Failure::Io { path, source }
                if path == STDOUT && source.kind() == io::ErrorKind::BrokenPipe =>
            {
                0
            }
            Failure::Run(pipeline::Error::Stopped { .. })
            | Failure::InvalidUrl
            | Failure::Unsorted(_) => 1,
            _ => 2,
        }
    }

    /// The one-line messages to print, in order: none for a quiet end or
    /// for `inspect`'s invalid URL (its JSON explains it).
    pub fn messages(&self) -> Vec<String> {
        match self {
            Failure::Several(all) => all.iter().flat_map(Failure::messages).collect(),
            Failure::InvalidUrl => Vec::new(),
            quiet if quiet.exit_code() == 0 => Vec::new(),
            other => vec![other.to_string()],
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Usage(msg) | Failure::Unsorted(msg) => f.write_str(msg),
            Failure::Io { path, source } => write!(f, "{path}: {source}"),
            Failure::Run(e) => write!(f, "{e}"),
            Failure::InvalidUrl => f.write_str("invalid URL"),
            Failure::Several(all) => {
                let messages: Vec<String> = all.iter().map(ToString::to_string).collect();
                f.write_str(&messages.join("; "))
            }
        }
    }
}

/// Runs the configured job.
pub fn run(config: Config) -> Result<(), Failure> {
    match config {
        Config::Normalize(cfg) => run::run(*cfg),
        Config::Inspect { url, base, canon } => {
            let valid = inspect::run(&url, base.as_deref(), &canon, &mut io::stdout().lock())?;
            if valid {
                Ok(())
            } else {
                Err(Failure::InvalidUrl)
            }
        }
        Config::Bench(cfg) => bench::run(&cfg, &mut io::stdout().lock()),
        Config::Warc(cfg) => warc::run(&cfg),
        Config::Rules(profile) => print(&rules::list(profile)),
        Config::Completions(shell) => {
            let mut text = Vec::new();
            let mut command = <args::Args as clap::CommandFactory>::command();
            clap_complete::generate(shell, &mut command, "normurl", &mut text);
            print_bytes(&text)
        }
        Config::Man => {
            let mut text = Vec::new();
            let command = <args::Args as clap::CommandFactory>::command();
            clap_mangen::Man::new(command)
                .render(&mut text)
                .map_err(|source| Failure::Io {
                    path: STDOUT.into(),
                    source,
                })?;
            print_bytes(&text)
        }
    }
}

/// Writes `text` to standard output; its reader going away is not an error.
fn print(text: &str) -> Result<(), Failure> {
    print_bytes(text.as_bytes())
}

fn print_bytes(text: &[u8]) -> Result<(), Failure> {
    let mut out = io::stdout().lock();
    match io::Write::write_all(&mut out, text).and_then(|()| io::Write::flush(&mut out)) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(Failure::Io {
            path: STDOUT.into(),
            source: e,
        }),
        _ => Ok(()),
    }
}
