//! `normurl`: parse the command line into a typed configuration, run it,
//! and turn the outcome into an exit status. Everything else lives in
//! `cli/` and in the library.

mod cli;

use std::io::Write;
use std::process::ExitCode;

use clap::FromArgMatches;

fn main() -> ExitCode {
    // Parsed from the matches, which also say where each edit option was
    // (the edits apply in command-line order, across the options).
    let parsed = <cli::args::Args as clap::CommandFactory>::command()
        .try_get_matches()
        .and_then(|m| cli::args::Args::from_arg_matches(&m).map(|a| (a, m)));
    let args = match parsed {
        Ok((mut args, matches)) => {
            args.normalize.edits.record_order(&matches);
            args
        }
        Err(e) => return cli::args::clap_error(&e),
    };
    match cli::Config::from_args(args).and_then(cli::run) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let mut stderr = std::io::stderr().lock();
            for message in e.messages() {
                // Not eprintln!: it panics when stderr is closed.
                let _ = writeln!(stderr, "normurl: {message}");
            }
            // Unix convention (ripgrep, xsv): the main output's reader
            // going away ends the run quietly, with status 0.
            ExitCode::from(e.exit_code())
        }
    }
}
