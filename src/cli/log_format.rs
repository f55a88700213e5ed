//! `--format` and `--log-field`: web server access logs (NCSA common and
//! combined, Apache's vhost_combined), whose request URL is a path in a
//! quoted request line, resolved against --base or the line's own site.

use clap::{Args as ClapArgs, ValueEnum};
use normurl::normalize::{AccessLog, FieldOutput, LogFormat, LogPart, Options, Select};

use super::Failure;

#[derive(Debug, ClapArgs)]
pub struct LogArgs {
    /// Each line is an access log line: common (NCSA: `%h %l %u %t "%r"
    /// %>s %b`), combined (common, then `"%{Referer}i" "%{User-agent}i"`)
    /// or vhost-combined (Apache's vhost_combined: `%v:%p` first, then
    /// combined). Normalize the request's URL (or --log-field's) in place
    /// and keep the rest of the line byte for byte. The request's target,
    /// a path, is resolved against --base, or in vhost-combined against
    /// the line's site: http://HOST/, https://HOST/ when the port is 443.
    /// An absolute URL (a proxy's request) is taken as it is. A request
    /// that is not METHOD TARGET VERSION (`"-"`, garbage, `OPTIONS *`) is
    /// invalid (invalid-request), a line without the field missing-field.
    #[arg(
        long,
        value_name = "FORMAT",
        conflicts_with_all = ["field", "json_field", "csv", "relative"]
    )]
    pub format: Option<LogFormat>,

    /// With --format: which URL to normalize, request (the default) or
    /// referrer (`"-"` is no URL: no-value).
    #[arg(long, value_enum, value_name = "FIELD", requires = "format")]
    pub log_field: Option<LogField>,
}

/// The URL of a log line to normalize.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LogField {
    Request,
    Referrer,
}

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
