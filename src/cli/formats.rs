//! Options that say where the URL is in the formats URLs live in (JSON
//! Lines and CDXJ, CSV), and the selection they make.

use clap::Args as ClapArgs;
use normurl::normalize::{Delimiter, FieldOutput, JsonPath, Options, Select};

use super::Failure;

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

/// Applies `--json-field`, `--csv` and `--header` to the options the other
/// options made.
pub fn apply(f: &FormatArgs, options: &mut Options, only_field: bool) -> Result<(), Failure> {
    options.select = select(f, options.select.clone(), only_field)?;
    options.header = f.header;
    Ok(())
}

/// The selection of `--json-field` and `--csv`, given the one `--field`,
/// `-d` and `--base-field` made, and whether `--only-field` is set.
fn select(f: &FormatArgs, select: Select, only_field: bool) -> Result<Select, Failure> {
    let output = if only_field {
        FieldOutput::Field
    } else {
        FieldOutput::Line
    };
    if let Some(path) = &f.json_field {
        return Ok(Select::Json {
            path: path.clone(),
            output,
        });
    }
    match select {
        Select::Line if only_field => Err(Failure::Usage(
            "--only-field needs --field, --json-field or --format".to_string(),
        )),
        Select::Line if f.csv => Err(Failure::Usage(
            "--csv needs --field (the column of the URL)".to_string(),
        )),
        Select::Field {
            field,
            base_field,
            delimiter,
            output,
        } if f.csv => {
            let separator = match delimiter {
                Delimiter::Byte(b'"') => {
                    return Err(Failure::Usage(
                        "--csv: the separator cannot be a double quote".to_string(),
                    ))
                }
                Delimiter::Byte(d) => d,
                _ => b',',
            };
            Ok(Select::Field {
                field,
                base_field,
                delimiter: Delimiter::Csv(separator),
                output,
            })
        }
        select => Ok(select),
    }
}
