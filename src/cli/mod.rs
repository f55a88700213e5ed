//! The `normurl` command: arguments, configuration and the jobs. The
//! library does the work; this module only turns a command line into calls
//! and errors into messages and exit codes.

pub mod args;
mod bench;
mod config;
mod inspect;
mod json;
mod progress;
mod run;
mod signals;
mod stats;

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
}

impl Failure {
    /// The process exit status.
    pub fn exit_code(&self) -> u8 {
        match self {
            Failure::Run(pipeline::Error::Stopped { .. }) | Failure::InvalidUrl => 1,
            _ => 2,
        }
    }

    /// Whether to end quietly with status 0: the reader of the output went
    /// away (`normurl big.txt | head`), which is how pipelines end.
    pub fn is_broken_pipe(&self) -> bool {
        match self {
            Failure::Run(e) => e.is_broken_pipe(),
            Failure::Io { source, .. } => source.kind() == io::ErrorKind::BrokenPipe,
            _ => false,
        }
    }

    /// Whether there is a message to print (the JSON of `inspect` already
    /// explains an invalid URL).
    pub fn has_message(&self) -> bool {
        !matches!(self, Failure::InvalidUrl)
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Usage(msg) => f.write_str(msg),
            Failure::Io { path, source } => write!(f, "{path}: {source}"),
            Failure::Run(e) => write!(f, "{e}"),
            Failure::InvalidUrl => f.write_str("invalid URL"),
        }
    }
}

/// Runs the configured job.
pub fn run(config: Config) -> Result<(), Failure> {
    match config {
        Config::Normalize(cfg) => run::run(*cfg),
        Config::Inspect { url, base } => {
            let valid = inspect::run(&url, base.as_deref(), &mut io::stdout().lock())?;
            if valid {
                Ok(())
            } else {
                Err(Failure::InvalidUrl)
            }
        }
        Config::Bench(cfg) => bench::run(&cfg, &mut io::stdout().lock()),
        Config::Rules => {
            let mut text = String::from("Profiles (--profile):\n");
            for p in normurl::canon::Profile::ALL {
                text.push_str(&format!("  {:<20} {}\n", p.name(), p.description()));
            }
            text.push_str("\nRules (--rules +name,-name):\n");
            for r in normurl::canon::Rule::ALL {
                text.push_str(&format!("  {:<20} {}\n", r.name(), r.description()));
            }
            match io::Write::write_all(&mut io::stdout().lock(), text.as_bytes()) {
                Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(Failure::Io {
                    path: "<stdout>".into(),
                    source: e,
                }),
                _ => Ok(()),
            }
        }
    }
}
