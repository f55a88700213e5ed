//! Why a line was invalid, and the per-run counts.

use std::fmt;

use crate::pipeline::Merge;
use crate::ParseError;

/// Why a line did not give a URL.
///
/// # Example
///
/// ```
/// use normurl::normalize::Invalid;
/// use normurl::ParseError;
///
/// assert_eq!(Invalid::Url(ParseError::EmptyHost).name(), "empty-host");
/// assert_eq!(Invalid::Base(ParseError::EmptyHost).name(), "invalid-base");
/// assert_eq!(Invalid::TooLong.to_string(), "line longer than --max-line-bytes");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Invalid {
    /// The URL parser failed.
    Url(ParseError),
    /// The base URL taken from the line (`--base-field`) failed to parse.
    Base(ParseError),
    /// The bytes are not UTF-8 and the policy is to reject them.
    Utf8,
    /// The line has no field with the requested number.
    MissingField,
    /// The line has no field with the requested base-field number.
    MissingBaseField,
    /// The line is longer than the limit.
    TooLong,
    /// `--json-field`: the line holds no JSON object, or a broken one.
    Json,
    /// `--json-field`: the JSON object has no string at the path.
    MissingJsonField,
    /// The field is a log's `"-"`: there is no URL.
    NoValue,
    /// A `--rewrite` rule made of the URL something that does not parse.
    Rewrite,
    /// `--csv`: the input ended inside a quoted field of the record,
    /// which then ran to the end of the input.
    UnclosedQuote,
    /// An access log's request is not `METHOD TARGET VERSION`, or asks
    /// for no URL (`OPTIONS *`, `CONNECT host:port`).
    RequestLine,
    /// `normurl warc`: the record has no `WARC-Target-URI` (a
    /// `warcinfo` record).
    NoTargetUri,
}

/// The reasons that are not parse errors, in [`Stats`] order.
const OTHER: [Invalid; 12] = [
    Invalid::Base(ParseError::RelativeUrlWithoutBase),
    Invalid::Utf8,
    Invalid::MissingField,
    Invalid::MissingBaseField,
    Invalid::TooLong,
    Invalid::Json,
    Invalid::MissingJsonField,
    Invalid::NoValue,
    Invalid::Rewrite,
    Invalid::UnclosedQuote,
    Invalid::RequestLine,
    Invalid::NoTargetUri,
];

/// One counter per parse error, then one per other reason.
const REASONS: usize = ParseError::ALL.len() + OTHER.len();

impl Invalid {
    /// A short kebab-case name, stable across versions: the parse error's
    /// [`ParseError::name`], or `invalid-base`, `invalid-utf8`,
    /// `missing-field`, `missing-base-field`, `line-too-long`,
    /// `invalid-json`, `missing-json-field`, `no-value`, `rewrite-invalid`,
    /// `unclosed-quote`, `invalid-request`, `no-target-uri`.
    pub fn name(self) -> &'static str {
        match self {
            Invalid::Url(e) => e.name(),
            Invalid::Base(_) => "invalid-base",
            Invalid::Utf8 => "invalid-utf8",
            Invalid::MissingField => "missing-field",
            Invalid::MissingBaseField => "missing-base-field",
            Invalid::TooLong => "line-too-long",
            Invalid::Json => "invalid-json",
            Invalid::MissingJsonField => "missing-json-field",
            Invalid::NoValue => "no-value",
            Invalid::Rewrite => "rewrite-invalid",
            Invalid::UnclosedQuote => "unclosed-quote",
            Invalid::RequestLine => "invalid-request",
            Invalid::NoTargetUri => "no-target-uri",
        }
    }

    /// The counter index in [`Stats`].
    fn index(self) -> usize {
        match self {
            Invalid::Url(e) => ParseError::ALL
                .iter()
                .position(|&x| x == e)
                // ALL lists every variant; a new one lands in the last
                // parse-error bucket rather than panicking.
                .unwrap_or(ParseError::ALL.len() - 1),
            Invalid::Base(_) => ParseError::ALL.len(),
            Invalid::Utf8 => ParseError::ALL.len() + 1,
            Invalid::MissingField => ParseError::ALL.len() + 2,
            Invalid::MissingBaseField => ParseError::ALL.len() + 3,
            Invalid::TooLong => ParseError::ALL.len() + 4,
            Invalid::Json => ParseError::ALL.len() + 5,
            Invalid::MissingJsonField => ParseError::ALL.len() + 6,
            Invalid::NoValue => ParseError::ALL.len() + 7,
            Invalid::Rewrite => ParseError::ALL.len() + 8,
            Invalid::UnclosedQuote => ParseError::ALL.len() + 9,
            Invalid::RequestLine => ParseError::ALL.len() + 10,
            Invalid::NoTargetUri => ParseError::ALL.len() + 11,
        }
    }

    /// The reason behind counter `i`.
    fn from_index(i: usize) -> Invalid {
        match ParseError::ALL.get(i) {
            Some(&e) => Invalid::Url(e),
            None => OTHER[i - ParseError::ALL.len()],
        }
    }
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Invalid::Url(e) => write!(f, "invalid URL: {}", e.message()),
            Invalid::Base(e) => write!(f, "invalid base URL: {}", e.message()),
            Invalid::Utf8 => f.write_str("not valid UTF-8"),
            Invalid::MissingField => f.write_str("no such field"),
            Invalid::MissingBaseField => f.write_str("no such base field"),
            Invalid::TooLong => f.write_str("line longer than --max-line-bytes"),
            Invalid::Json => f.write_str("no JSON object, or a broken one"),
            Invalid::MissingJsonField => f.write_str("no string at the --json-field path"),
            Invalid::NoValue => f.write_str("the field is \"-\" (no value)"),
            Invalid::Rewrite => f.write_str("a --rewrite rule made it no URL"),
            Invalid::UnclosedQuote => f.write_str("a quote left open at the end of the input"),
            Invalid::RequestLine => {
                f.write_str("the request is not METHOD TARGET VERSION, or names no URL")
            }
            Invalid::NoTargetUri => f.write_str("the record has no WARC-Target-URI"),
        }
    }
}

/// What happened to the lines of a run.
///
/// `lines == valid + blank + invalid() + headers`, and the lines not
/// written are `skipped`.
///
/// # Example
///
/// ```
/// use normurl::normalize::{Invalid, Stats};
/// use normurl::ParseError;
///
/// let mut stats = Stats::default();
/// stats.lines = 3;
/// stats.valid = 1;
/// stats.count_invalid(Invalid::Url(ParseError::EmptyHost));
/// stats.count_invalid(Invalid::TooLong);
/// assert_eq!(stats.invalid(), 2);
/// let reasons: Vec<_> = stats.invalid_by_reason().map(|(r, n)| (r.name(), n)).collect();
/// assert_eq!(reasons, [("empty-host", 1), ("line-too-long", 1)]);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Lines (records) read.
    pub lines: u64,
    /// Lines whose URL parsed.
    pub valid: u64,
    /// Empty lines (written as empty lines, or skipped with
    /// `--on-invalid=skip`).
    pub blank: u64,
    /// Lines not written (invalid or blank lines under
    /// `--on-invalid=skip`).
    pub skipped: u64,
    /// Lines with a valid URL that the scope rules dropped
    /// ([`Options::scope`](super::Options::scope)): counted as valid too,
    /// not written.
    pub dropped: u64,
    /// Header lines passed through untouched ([`Options::header`]).
    ///
    /// [`Options::header`]: super::Options::header
    pub headers: u64,
    /// Valid lines where a setter of [`Options::edits`] refused its value
    /// and left the URL as it was (the other edits applied).
    ///
    /// [`Options::edits`]: super::Options::edits
    pub edits_refused: u64,
    invalid: [u64; REASONS],
}

impl Stats {
    /// Counts one invalid line.
    #[inline]
    pub fn count_invalid(&mut self, why: Invalid) {
        self.invalid[why.index()] += 1;
    }

    /// Invalid lines, all reasons.
    pub fn invalid(&self) -> u64 {
        self.invalid.iter().sum()
    }

    /// The reasons with a non-zero count. Base URL failures are counted
    /// together, whatever the parse error.
    pub fn invalid_by_reason(&self) -> impl Iterator<Item = (Invalid, u64)> + '_ {
        self.invalid
            .iter()
            .enumerate()
            .filter(|&(_, &n)| n > 0)
            .map(|(i, &n)| (Invalid::from_index(i), n))
    }
}

impl Merge for Stats {
    fn merge(&mut self, o: &Stats) {
        self.lines += o.lines;
        self.valid += o.valid;
        self.blank += o.blank;
        self.skipped += o.skipped;
        self.dropped += o.dropped;
        self.headers += o.headers;
        self.edits_refused += o.edits_refused;
        for (a, b) in self.invalid.iter_mut().zip(o.invalid.iter()) {
            *a += b;
        }
    }
}
