//! Options that say where the URL is in the formats URLs live in (JSON
//! Lines and CDXJ, CSV); `config/formats.rs` makes their selection.

use clap::Args as ClapArgs;
use normurl::normalize::JsonPath;

#[derive(Debug, ClapArgs)]
pub struct FormatArgs {
    /// Each line is a JSON object (JSON Lines), or CDXJ's `urlkey timestamp
    /// {json}` (a Common Crawl index line): normalize the string at PATH
    /// (`url`, or a dotted path such as
    /// `Envelope.WARC-Header-Metadata.WARC-Target-URI`) in place, escaped as
    /// JSON, and keep the rest of the line byte for byte. Lines without a
    /// JSON object, or with a broken one, are invalid (invalid-json), and so
    /// are lines without a string at PATH (missing-json-field).
    #[arg(long, value_name = "PATH", conflicts_with_all = ["field", "base_field"])]
    pub json_field: Option<JsonPath>,

    /// With --field: the fields are CSV (RFC 4180), separated by commas or
    /// by -d: a quoted field is read without its quotes ("" stands for ")
    /// and written back quoted. A record ends at a line break outside
    /// quotes, so a quoted field may span lines (kept byte for byte), and
    /// is written with the line break it ended with (CRLF stays CRLF); a
    /// quote still open at the end of the input makes the rest one invalid
    /// record (unclosed-quote).
    #[arg(long)]
    pub csv: bool,

    /// The first line of each input is a header (CDX's ` CDX N b a m s k r
    /// ...`, a CSV header): write it untouched, whole, and count it apart
    /// (headers in --stats), never as valid or invalid. With --add-field it
    /// gains the new column's name; with --only-field only its field at
    /// the URL's place is written; with --json it is the object
    /// {"header":LINE,"line":1}.
    #[arg(long)]
    pub header: bool,
}
