//! `--format` and `--log-field`: web server access logs (NCSA common and
//! combined, Apache's vhost_combined), whose request URL is a path in a
//! quoted request line, resolved against --base or the line's own site.

use clap::{Args as ClapArgs, ValueEnum};
use normurl::normalize::LogFormat;

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
