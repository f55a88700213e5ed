//! `normurl`: parse the command line into a typed configuration, run it,
//! and turn the outcome into an exit status. Everything else lives in
//! `cli/` and in the library.

mod cli;

use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = match cli::args::parse_args() {
        Ok(args) => args,
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
