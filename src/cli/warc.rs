//! `normurl warc`: one line per WARC record, its target URI normalized,
//! with what a CDX line needs (type, offset, length); or, for WAT files,
//! one line per outlink.

use std::fs::File;
use std::io::{self, Read, Write};
use std::ops::Range;
use std::path::PathBuf;

use clap::Args as ClapArgs;
use normurl::canon::{Canonicalizer, Profile, Scratch};
use normurl::normalize::{Invalid, OnInvalid};
use normurl::warc::{wat_links, Records, WarcRecord};
use normurl::Url;

use super::warc_index::{Format, Index};
use super::warc_tally::{Accounting, Counted, Tally};
use super::Failure;

#[derive(Debug, ClapArgs)]
#[command(group = clap::ArgGroup::new("index").args(["cdxj", "cdx"]).multiple(false))]
pub struct WarcArgs {
    /// WARC files: plain, gzip with one member per record (.warc.gz, and
    /// WAT and WET files), or zstd with one frame per record (.warc.zst,
    /// with or without a dictionary); ARC files (version 1 or 2, plain or
    /// gzip per record), but not with --links; - reads standard input.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,

    /// Canonicalization profile for the URIs, as for normalizing (see
    /// `normurl rules`). Default: whatwg, or wayback (whose SURT is the
    /// urlkey) with --cdxj or --cdx.
    #[arg(
        short = 'p',
        long,
        value_name = "NAME",
        value_parser = super::args::profile_parser()
    )]
    pub profile: Option<Profile>,

    /// WAT files: one line per outlink of each page instead, PAGE TAB
    /// LINK TAB PATH: the page's URL, the link resolved against the page's
    /// <base href> (or the page, when the base does not parse or is a
    /// data: or javascript: URL, as browsers do) and normalized, and where
    /// the page has it
    /// (A@/href, IMG@/src, LINK@/href, SCRIPT@/src, META@/content for an
    /// og:url or a refresh's URL, Location for a redirect). A link that
    /// does not parse is invalid, written as it was read (see
    /// --on-invalid).
    #[arg(long, conflicts_with_all = ["cdxj", "cdx"])]
    pub links: bool,

    /// Write a CDXJ index, as pywb's cdxj-indexer does: one line per
    /// record of the --records types, `URLKEY TIMESTAMP {JSON}`, the
    /// urlkey the SURT of the profile (wayback by default), the JSON's
    /// url, mime, status, digest (WARC-Payload-Digest, or the SHA-1 of the
    /// payload when the record has none), length, offset and filename.
    #[arg(long, conflicts_with = "cdx")]
    pub cdxj: bool,

    /// Write a classic CDX index of 11 fields (` CDX N b a m s k r M S V
    /// g`, the header line before each file's lines), as cdxj-indexer -11
    /// does.
    #[arg(long)]
    pub cdx: bool,

    /// With --cdxj or --cdx, the record types to index, comma-separated,
    /// or all. Default: response,revisit,resource,metadata, without the
    /// resource and metadata records of Content-Type
    /// application/warc-fields (cdxj-indexer's default).
    #[arg(long, value_name = "TYPES", requires = "index")]
    pub records: Option<String>,

    /// Write the output to FILE instead of standard output.
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// What to write for a record without a WARC-Target-URI
    /// (no-target-uri: `-` in the URI column) or whose URI does not parse
    /// (written as it was read), or with --links a link that does not
    /// parse: keep, empty (an empty line), skip, or fail (stop with exit
    /// status 1).
    #[arg(long, value_name = "POLICY", default_value = "keep")]
    pub on_invalid: OnInvalid,

    /// Write every invalid record (link) to FILE as NUMBER TAB REASON TAB
    /// LINE, the line as --on-invalid=keep writes it (numbers count over
    /// all inputs, from 1).
    #[arg(long, value_name = "FILE")]
    pub rejects: Option<PathBuf>,

    /// Write only the first line for each normalized URI (with --links,
    /// each page and link), in order; records without a valid URI are all
    /// written. With --cdxj or --cdx, --dedup=url+digest keeps one line
    /// per urlkey and payload digest (one per URL and content: a revisit
    /// of content already indexed goes), --dedup=url one per urlkey.
    #[arg(
        short = 'u',
        long,
        value_name = "KEY",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "url"
    )]
    pub dedup: Option<DedupKey>,

    /// Print a summary to standard error at the end, as for normalizing:
    /// `lines` are the records read (with --links, the links; with
    /// --cdxj or --cdx, the records of the types indexed), then
    /// valid, invalid by reason, skipped, deduplicated and written ones
    /// (lines = output lines + skipped + deduplicated).
    #[arg(long)]
    pub stats: bool,

    /// Write the same summary as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    pub stats_json: Option<PathBuf>,
}

/// What `--dedup` compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DedupKey {
    /// The normalized URI (an index line's urlkey).
    Url,
    /// An index line's urlkey and payload digest.
    #[value(name = "url+digest")]
    UrlDigest,
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
    /// With --cdxj or --cdx.
    index: Option<Index>,
    output: Option<PathBuf>,
    accounting: Accounting,
}

/// Checks the options, before any input is read.
pub fn config(a: WarcArgs) -> Result<Warc, Failure> {
    let indexing = a.cdxj || a.cdx;
    let default = if indexing {
        Profile::Wayback
    } else {
        Profile::Whatwg
    };
    let profile = a.profile.unwrap_or(default);
    for p in a.output.iter().chain(&a.rejects) {
        super::compress::refuse_unwritten(p, None).map_err(Failure::Usage)?;
    }
    if a.dedup == Some(DedupKey::UrlDigest) && !indexing {
        return Err(Failure::Usage(
            "--dedup=url+digest works only with --cdxj or --cdx".into(),
        ));
    }
    let index = indexing.then(|| {
        let format = if a.cdx { Format::Cdx11 } else { Format::Cdxj };
        Index::new(profile, format, a.records.as_deref(), a.dedup)
    });
    Ok(Warc {
        files: a.files,
        canon: Canonicalizer::new(profile),
        links: a.links,
        index,
        output: a.output.filter(|p| p.as_os_str() != "-"),
        accounting: Accounting {
            on_invalid: a.on_invalid,
            rejects: a.rejects,
            dedup: a.dedup.is_some(),
            stats: a.stats,
            stats_json: a.stats_json,
        },
    })
}

/// Writes `URI TAB TYPE TAB OFFSET TAB LENGTH` for every record of every
/// file, in order: the URI normalized, or as it was read if it does not
/// parse, `-` for a record without one (warcinfo); these two are invalid
/// (invalid URL, no-target-uri), written as --on-invalid says. A broken
/// file stops the run with an error naming it and the record's offset,
/// after the lines of the records before it.
pub fn run(w: &Warc) -> Result<(), Failure> {
    let (sink, name): (Box<dyn Write>, String) = match &w.output {
        None => (Box::new(io::stdout().lock()), super::STDOUT.to_string()),
        Some(p) => {
            let name = p.display().to_string();
            let file = File::create(p).map_err(|source| Failure::Io {
                path: name.clone(),
                source,
            })?;
            // Compressed as its name says, as the line command's output.
            let threads = normurl::pipeline::threads_for(0);
            let codec = super::compress::Codec::for_path(p);
            let w = super::compress::writer(Box::new(file), (codec, b'\n'), threads, &name)?;
            (w, name)
        }
    };
    let mut tally = Tally::new(sink, name, &w.accounting)?;
    let failed = run_files(w, &mut tally).err();
    tally.finish(failed)
}

fn run_files(w: &Warc, tally: &mut Tally<'_>) -> Result<(), Failure> {
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
        let mut input = Counted {
            inner: input,
            bytes: 0,
        };
        if let Some(index) = &w.index {
            let threads = normurl::pipeline::threads_for(0);
            let failed = index.write_file(path, &mut input, tally, threads);
            tally.add_bytes_in(input.bytes);
            failed?;
            continue;
        }
        let (mut records, mut links) = (0, 0);
        for record in Records::new(&mut input).keep_blocks(keep) {
            let record = record.map_err(|source| Failure::Io {
                path: label.clone(),
                source,
            })?;
            records += 1;
            if w.links {
                let pages = link_lines(&w.canon, &label, &record, &mut scratch);
                for (line, verdict) in pages {
                    links += 1;
                    tally.item(&line, verdict, &label, links)?;
                }
            } else {
                line.clear();
                let verdict = write_line(&w.canon, &record, &mut url, &mut scratch, &mut line);
                tally.item(&line, verdict, &label, records)?;
            }
        }
        tally.add_bytes_in(input.bytes);
    }
    Ok(())
}

/// The range of an item's `--dedup` key in its line, or why it has no URL.
type Verdict = Result<Range<usize>, Invalid>;

/// The line of `record` into `line`, and the range of its URI (its
/// `--dedup` key) or why it has none.
fn write_line(
    canon: &Canonicalizer,
    record: &WarcRecord,
    url: &mut Option<Url>,
    scratch: &mut Scratch,
    line: &mut Vec<u8>,
) -> Verdict {
    let verdict = match &record.target_uri {
        None => {
            line.push(b'-');
            Err(Invalid::NoTargetUri)
        }
        Some(uri) => {
            let url = url.get_or_insert_with(|| Url::parse("about:blank").expect("valid"));
            match canon.parse_apply(uri, url, scratch, line) {
                Ok(_) => Ok(0..line.len()),
                Err(e) => {
                    line.clear();
                    push_text(line, uri);
                    Err(Invalid::Url(e))
                }
            }
        }
    };
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
    verdict
}

/// The `--links` lines of a WAT record, each with the range of its page
/// and link (its `--dedup` key), or why the link is no URL: none for
/// records that do not describe a response with links.
fn link_lines(
    canon: &Canonicalizer,
    label: &str,
    record: &WarcRecord,
    scratch: &mut Scratch,
) -> Vec<(Vec<u8>, Verdict)> {
    if record.warc_type != "metadata" {
        return Vec::new();
    }
    let Some(block) = &record.block else {
        eprintln!(
            "normurl: warning: {label}: the metadata record at byte {} is over 64M; its links are not read",
            record.offset
        );
        return Vec::new();
    };
    let Some(page) = wat_links(block) else {
        return Vec::new();
    };
    let page_url = Url::parse(&page.page).ok();
    // The HTML Standard's frozen base URL: the base element's href parsed
    // against the fallback base URL (the page's); if that fails, or gives
    // a `data:` or `javascript:` URL (`<base href="javascript:void(0)">`),
    // the fallback is the base, as browsers do.
    let base = match (&page_url, &page.base) {
        (Some(p), Some(b)) => Url::parse_with_base(b, p)
            .ok()
            .filter(|u| !matches!(u.scheme(), "data" | "javascript"))
            .or(Some(p.clone())),
        (p, _) => p.clone(),
    };
    let mut page_text = Vec::new();
    match &page_url {
        Some(u) => {
            canon.apply(u, scratch, &mut page_text);
        }
        None => push_text(&mut page_text, &page.page),
    }
    let mut lines = Vec::with_capacity(page.links.len());
    for (path, link) in &page.links {
        let mut line = page_text.clone();
        line.push(b'\t');
        let parsed = match &base {
            Some(b) => Url::parse_with_base(link, b),
            None => Url::parse(link),
        };
        let verdict = match parsed {
            Ok(u) => {
                canon.apply(&u, scratch, &mut line);
                Ok(0..line.len())
            }
            Err(e) => {
                push_text(&mut line, link);
                Err(Invalid::Url(e))
            }
        };
        line.push(b'\t');
        push_text(&mut line, path);
        line.push(b'\n');
        lines.push((line, verdict));
    }
    lines
}

/// Appends `text` with control characters (tabs, newlines) as spaces, so
/// that it stays one column of one line.
fn push_text(line: &mut Vec<u8>, text: &str) {
    line.extend(text.bytes().map(|b| if b < b' ' { b' ' } else { b }));
}
