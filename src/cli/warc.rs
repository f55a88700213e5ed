//! `normurl warc`: one line per WARC record, its target URI normalized,
//! with what a CDX line needs (type, offset, length); or, for WAT files,
//! one line per outlink.

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::path::PathBuf;

use clap::Args as ClapArgs;
use normurl::canon::{Canonicalizer, Profile, Scratch};
use normurl::warc::{wat_links, Records, WarcRecord};
use normurl::Url;

use super::Failure;

#[derive(Debug, ClapArgs)]
pub struct WarcArgs {
    /// WARC files: plain, gzip with one member per record (.warc.gz, and
    /// WAT and WET files), or zstd with one frame per record (.warc.zst,
    /// with or without a dictionary); - reads standard input.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,

    /// Canonicalization profile for the URIs, as for normalizing (see
    /// `normurl rules`).
    #[arg(long, value_name = "NAME", default_value = "whatwg")]
    pub profile: String,

    /// WAT files: one line per outlink of each page instead, PAGE TAB
    /// LINK TAB PATH: the page's URL, the link resolved against the page's
    /// <base href> (or the page) and normalized, and where the page has it
    /// (A@/href, IMG@/src, LINK@/href, Location for a redirect). A link
    /// that does not parse is written as it was read.
    #[arg(long)]
    pub links: bool,

    /// Write the output to FILE instead of standard output.
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// With --links, WAT records larger than this are not read for links (a
/// warning names them).
const MAX_WAT_BLOCK: u64 = 64 << 20;

/// The `warc` job.
#[derive(Debug)]
pub struct Warc {
    files: Vec<PathBuf>,
    canon: Canonicalizer,
    links: bool,
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
        links: a.links,
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
        let keep = if w.links { MAX_WAT_BLOCK } else { 0 };
        for record in Records::new(input).keep_blocks(keep) {
            let record = record.map_err(|source| Failure::Io {
                path: label.clone(),
                source,
            })?;
            line.clear();
            if w.links {
                link_lines(&w.canon, &label, &record, &mut scratch, &mut line);
            } else {
                write_line(&w.canon, &record, &mut url, &mut scratch, &mut line);
            }
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
                push_text(line, uri);
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

/// The `--links` lines of a WAT record: none for records that do not
/// describe a response with links.
fn link_lines(
    canon: &Canonicalizer,
    label: &str,
    record: &WarcRecord,
    scratch: &mut Scratch,
    line: &mut Vec<u8>,
) {
    if record.warc_type != "metadata" {
        return;
    }
    let Some(block) = &record.block else {
        eprintln!(
            "normurl: warning: {label}: the metadata record at byte {} is over 64M; its links are not read",
            record.offset
        );
        return;
    };
    let Some(page) = wat_links(block) else {
        return;
    };
    let page_url = Url::parse(&page.page).ok();
    // The base is resolved against the page; a base that does not parse
    // is ignored, as browsers ignore it.
    let base = match (&page_url, &page.base) {
        (Some(p), Some(b)) => Url::parse_with_base(b, p).ok().or(Some(p.clone())),
        (p, _) => p.clone(),
    };
    let mut page_text = Vec::new();
    match &page_url {
        Some(u) => {
            canon.apply(u, scratch, &mut page_text);
        }
        None => push_text(&mut page_text, &page.page),
    }
    for (path, link) in &page.links {
        line.extend_from_slice(&page_text);
        line.push(b'\t');
        let parsed = match &base {
            Some(b) => Url::parse_with_base(link, b),
            None => Url::parse(link),
        };
        match parsed {
            Ok(u) => {
                canon.apply(&u, scratch, line);
            }
            Err(_) => push_text(line, link),
        }
        line.push(b'\t');
        push_text(line, path);
        line.push(b'\n');
    }
}

/// Appends `text` with control characters (tabs, newlines) as spaces, so
/// that it stays one column of one line.
fn push_text(line: &mut Vec<u8>, text: &str) {
    line.extend(text.bytes().map(|b| if b < b' ' { b' ' } else { b }));
}
