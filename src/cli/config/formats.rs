//! The selection that the format options (`args/formats.rs`) make: where
//! the URL is in JSON Lines and CDXJ, CSV.

use normurl::normalize::{Delimiter, FieldOutput, Options, Select};

use crate::cli::args::formats::FormatArgs;
use crate::cli::Failure;

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
