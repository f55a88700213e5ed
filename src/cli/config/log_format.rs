//! The selection of `--format` and `--log-field` (`args/log_format.rs`):
//! the URL of an access log line, and what it is resolved against.

use normurl::normalize::{AccessLog, FieldOutput, LogPart, Options, Select};

use crate::cli::args::log_format::{LogArgs, LogField};
use crate::cli::Failure;

/// Applies `--format` and `--log-field` to the options the other options
/// made (`--base` among them); call it before the other format options.
pub fn apply(a: &LogArgs, options: &mut Options, only_field: bool) -> Result<(), Failure> {
    let Some(format) = a.format else {
        return Ok(());
    };
    let part = match a.log_field {
        None | Some(LogField::Request) => LogPart::Request,
        Some(LogField::Referrer) => LogPart::Referrer,
    };
    let usage = |m: &str| Err(Failure::Usage(format!("--format {format}: {m}")));
    if part == LogPart::Referrer && !format.has_referrer() {
        return usage("its lines have no referrer");
    }
    if format.has_host() && options.base.is_some() {
        return usage("each line's site is its base; --base cannot be given");
    }
    if part == LogPart::Request && !format.has_host() && options.base.is_none() {
        return usage("requests are paths: give --base URL, the site they were made to");
    }
    options.select = Select::Log {
        log: AccessLog { format, part },
        output: if only_field {
            FieldOutput::Field
        } else {
            FieldOutput::Line
        },
    };
    Ok(())
}
