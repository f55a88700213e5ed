//! `normurl warc`: one line per WARC record, its target URI normalized,
//! with what a CDX line needs (type, offset, length).

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::path::PathBuf;

use clap::Args as ClapArgs;
use normurl::canon::{Canonicalizer, Profile, Scratch};
use normurl::warc::{Records, WarcRecord};
use normurl::Url;

use super::Failure;

#[derive(Debug, ClapArgs)]
pub struct WarcArgs {
    /// WARC files: plain, or gzip with one member per record (.warc.gz,
    /// and WAT and WET files); - reads standard input.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,

    /// Canonicalization profile for the URIs, as for normalizing (see
    /// `normurl rules`).
    #[arg(long, value_name = "NAME", default_value = "whatwg")]
    pub profile: String,

    /// Write the output to FILE instead of standard output.
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// The `warc` job.
#[derive(Debug)]
pub struct Warc {
    files: Vec<PathBuf>,
    canon: Canonicalizer,
    output: Option<PathBuf>,
}

/// Checks the options, before any input is read.
pub fn config(a: WarcArgs) -> Result<Warc, Failure> {
    let profile: Profile = a
        .profile
        .parse()
        .map_err(|e| Failure::Usage(format!("--profile: {e}")))?;
    Ok(Warc {
        files: a.files,
        canon: Canonicalizer::new(profile),
        output: a.output.filter(|p| p.as_os_str() != "-"),
    })
}

/// Writes `URI TAB TYPE TAB OFFSET TAB LENGTH` for every record of every
/// file, in order: the URI normalized, or as it was read if it does not
/// parse, `-` for a record without one (warcinfo). A broken file stops the
/// run with an error naming it and the record's offset, after the lines of
/// the records before it.
pub fn run(w: &Warc) -> Result<(), Failure> {
    let (sink, name): (Box<dyn Write>, String) = match &w.output {
        None => (Box::new(io::stdout().lock()), super::STDOUT.to_string()),
        Some(p) => (
            Box::new(File::create(p).map_err(|source| Failure::Io {
                path: p.display().to_string(),
                source,
            })?),
            p.display().to_string(),
        ),
    };
    let mut out = BufWriter::with_capacity(1 << 16, sink);
    let write_failed = |source: io::Error| Failure::Io {
        path: name.clone(),
        source,
    };
    let mut line = Vec::new();
    let (mut url, mut scratch) = (None, Scratch::new());
    for path in &w.files {
        let label = path.display().to_string();
        let input: Box<dyn Read> = if path.as_os_str() == "-" {
            Box::new(io::stdin().lock())
        } else {
            Box::new(File::open(path).map_err(|source| Failure::Io {
                path: label.clone(),
                source,
            })?)
        };
        for record in Records::new(input) {
            let record = record.map_err(|source| Failure::Io {
                path: label.clone(),
                source,
            })?;
            line.clear();
            write_line(&w.canon, &record, &mut url, &mut scratch, &mut line);
            if let Err(e) = out.write_all(&line) {
                return broken_pipe_is_ok(e).map_err(write_failed);
            }
        }
    }
    out.flush().or_else(broken_pipe_is_ok).map_err(write_failed)
}

/// A reader of the output that went away (`normurl warc f | head`) ends
/// the run quietly, as for normalizing.
fn broken_pipe_is_ok(e: io::Error) -> io::Result<()> {
    if e.kind() == io::ErrorKind::BrokenPipe {
        Ok(())
    } else {
        Err(e)
    }
}

fn write_line(
    canon: &Canonicalizer,
    record: &WarcRecord,
    url: &mut Option<Url>,
    scratch: &mut Scratch,
    line: &mut Vec<u8>,
) {
    match &record.target_uri {
        None => line.push(b'-'),
        Some(uri) => {
            let url = url.get_or_insert_with(|| Url::parse("about:blank").expect("valid"));
            if canon.parse_apply(uri, url, scratch, line).is_err() {
                line.clear();
                line.extend(uri.bytes().map(|b| if b < b' ' { b' ' } else { b }));
            }
        }
    }
    let _ = writeln!(
        line,
        "\t{}\t{}\t{}",
        if record.warc_type.is_empty() {
            "-"
        } else {
            record.warc_type.as_str()
        },
        record.offset,
        record.length
    );
}
