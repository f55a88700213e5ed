//! `normurl warc`: one line per WARC record, its target URI normalized,
//! with what a CDX line needs (type, offset, length); or, for WAT files,
//! one line per outlink.

use std::fs::File;
use std::io::{self, Read, Write};
use std::ops::Range;
use std::path::PathBuf;

use std::num::NonZeroUsize;

use clap::Args as ClapArgs;
use normurl::canon::{Canonicalizer, OutputForm, Profile, Scratch, SurtOptions};
use normurl::normalize::Invalid::{self, NoTargetUri};
use normurl::normalize::{Delimiter, FieldOutput, Get, Normalizer, Options, Select};
use normurl::pipeline::{Outcome, Record, Transform};
use normurl::warc::{wat_links, Records, WarcRecord};
use normurl::Url;

use super::compress::Compression;
use super::config::Target;
use super::warc_index::{Format, Index};
use super::warc_tally::{Accounting, Counted, Tally};
use super::{shared, Failure};

/// The options of `normurl warc`: the groups shared with the main
/// command ([`super::shared`], [`super::get::GetArgs`]), with the same
/// meanings, and `--links`.
#[derive(Debug, ClapArgs)]
#[command(group = clap::ArgGroup::new("index").args(["cdxj", "cdx"]).multiple(false))]
// The group the shared --dedup-memory and -T require (the main command's
// has --count too; here -T serves --sort as well).
#[command(group(clap::ArgGroup::new("dedup_or_count").args(["dedup", "sort"]).multiple(true)))]
pub struct WarcArgs {
    /// WARC files: plain, gzip with one member per record (.warc.gz, and
    /// WAT and WET files), or zstd with one frame per record (.warc.zst,
    /// with or without a dictionary); ARC files (version 1 or 2, plain or
    /// gzip per record), but not with --links; - reads standard input.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,

    #[command(flatten)]
    pub output: super::shared::OutputArgs,

    #[command(flatten)]
    pub canon: super::shared::CanonArgs,

    #[command(flatten)]
    pub get: super::get::GetArgs,

    /// WAT files: one line per outlink of each page instead, PAGE TAB
    /// LINK TAB PATH: the page's URL, the link resolved against the page's
    /// <base href> (or the page, when the base does not parse or is a
    /// data: or javascript: URL, as browsers do) and normalized, and where
    /// the page has it
    /// (A@/href, IMG@/src, LINK@/href, SCRIPT@/src, META@/content for an
    /// og:url or a refresh's URL, Location for a redirect). A link that
    /// does not parse is invalid, written as it was read (see
    /// --on-invalid).
    #[arg(long, conflicts_with_all = ["get", "json", "keep_if", "drop_if", "cdxj", "cdx"])]
    pub links: bool,

    /// Write a CDXJ index, as pywb's cdxj-indexer does: one line per
    /// record of the --records types, `URLKEY TIMESTAMP {JSON}`, the
    /// urlkey the SURT of the profile and rules (wayback by default), the
    /// JSON's url, mime, status, digest (WARC-Payload-Digest, or the SHA-1
    /// of the payload when the record has none), length, offset and
    /// filename.
    #[arg(long, conflicts_with_all = ["cdx", "get", "json", "keep_if", "drop_if"])]
    pub cdxj: bool,

    /// Write a classic CDX index of 11 fields (` CDX N b a m s k r M S V
    /// g`, the header line before each file's lines), as cdxj-indexer -11
    /// does.
    #[arg(long, conflicts_with_all = ["get", "json", "keep_if", "drop_if"])]
    pub cdx: bool,

    /// With --cdxj or --cdx, the record types to index, comma-separated,
    /// or all. Default: response,revisit,resource,metadata, without the
    /// resource and metadata records of Content-Type
    /// application/warc-fields (cdxj-indexer's default).
    #[arg(long, value_name = "TYPES", requires = "index")]
    pub records: Option<String>,

    /// With --dedup and --cdxj or --cdx, what makes two index lines the
    /// same: url (the urlkey, the default) or url+digest (the urlkey and
    /// the payload digest: one line per URL and content, so that a
    /// revisit of content already indexed goes).
    #[arg(long, value_name = "KEY", requires_all = ["dedup", "index"])]
    pub dedup_key: Option<DedupKey>,

    /// Write the lines sorted by their bytes (UTF-8 byte order, which is
    /// code point order), a line the same as the one before it written
    /// once, as cdxj-indexer --sort does: the order CDX and CDXJ files
    /// need for binary search (pywb, OutbackCDX). The lines of all the
    /// FILEs make one sorted output; with --dedup, the first line of each
    /// key is kept, then sorted. Lines past --sort-memory are sorted in
    /// runs on disk (in -T DIR) and merged, as GNU sort does.
    #[arg(long)]
    pub sort: bool,

    /// With --cdxj or --cdx, as cdxj-indexer --post-append: the urlkey of
    /// a POST or PUT request and of its response (the records next to
    /// each other, the second's WARC-Concurrent-To the first's
    /// WARC-Record-ID) is made of the URL with `__wb_method=POST` and the
    /// request body as a query appended (form fields, JSON values, a
    /// multipart form's parts, or else the body in base64 as
    /// `__wb_post_data`); the response's CDXJ line gains requestBody and
    /// method. Files are then read on one core.
    #[arg(long, requires = "index")]
    pub post_append: bool,

    /// With --cdxj or --cdx, the filename field is the file's path from
    /// DIR (`crawl/a.warc.gz`, `../b.warc.gz`), as cdxj-indexer --dir-root
    /// writes it, rather than its name alone.
    #[arg(long, value_name = "DIR", requires = "index")]
    pub dir_root: Option<PathBuf>,

    /// Memory budget of --sort (K, M, G suffixes): the lines held before a
    /// sorted run is written to the temporary directory.
    #[arg(long, value_name = "BYTES", default_value = "512M", value_parser = super::args::parse_size, requires = "sort")]
    pub sort_memory: usize,

    #[command(flatten)]
    pub invalid: super::shared::InvalidArgs,

    #[command(flatten)]
    pub dedup: super::shared::DedupArgs,

    #[command(flatten)]
    pub stats: super::shared::StatsArgs,

    #[command(flatten)]
    pub scope: super::shared::ScopeArgs,
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
    /// The main command's per-line work, on a line made of each record:
    /// `URI TAB TYPE TAB OFFSET TAB LENGTH`, its URL in field 1.
    normalizer: Normalizer,
    links: bool,
    /// With --cdxj or --cdx.
    index: Option<Index>,
    output: Target,
    compression: Compression,
    accounting: Accounting,
}

/// Checks the options, before any input is read, and turns them into the
/// main command's configuration of the same options.
pub fn config(mut a: WarcArgs) -> Result<Warc, Failure> {
    let indexing = a.cdxj || a.cdx;
    // An index's urlkey is a SURT: the wayback profile's unless -p says.
    if indexing && a.canon.profile.is_none() {
        a.canon.profile = Some(Profile::Wayback);
    }
    let get_options = super::get::options(&a.get, None, None, a.canon.idn)?;
    let form = super::get::output_form(&a.get);
    let (canon, mut rule_options) =
        shared::canonicalizer(&a.canon, form, get_options.psl.as_deref())?;
    let index = if indexing {
        let (key, _) = shared::canonicalizer(
            &a.canon,
            OutputForm::Surt(SurtOptions::CDX),
            get_options.psl.as_deref(),
        )?;
        let format = if a.cdx { Format::Cdx11 } else { Format::Cdxj };
        let dedup = a.dedup.dedup.then(|| a.dedup_key.unwrap_or(DedupKey::Url));
        Some(
            Index::new(key, format, a.records.as_deref(), dedup)
                .post_append(a.post_append)
                .dir_root(a.dir_root.clone()),
        )
    } else {
        None
    };
    let output = match a.output.output {
        Some(p) if p.as_os_str() != "-" => Target::File(p),
        _ => Target::Stdout,
    };
    let compression =
        super::compress::config(&a.output.compress, &output, a.invalid.rejects.as_deref())?;
    let mut options = Options {
        select: Select::Field {
            field: NonZeroUsize::MIN,
            base_field: None,
            delimiter: Delimiter::Byte(b'\t'),
            output: FieldOutput::Line,
        },
        on_invalid: a.invalid.on_invalid,
        rejects: a.invalid.rejects.is_some(),
        canon,
        dedup: a.dedup.dedup,
        scope: shared::scope(&a.scope)?,
        ..get_options
    };
    options.rewrite = super::rule_options::rewrites(&mut rule_options, &options.canon)?;
    Ok(Warc {
        files: a.files,
        normalizer: Normalizer::new(options),
        links: a.links,
        index,
        output,
        compression,
        accounting: Accounting {
            on_invalid: a.invalid.on_invalid,
            rejects: a.invalid.rejects,
            dedup: shared::dedup(&a.dedup, false, false),
            stats: a.stats.stats,
            stats_json: a.stats.stats_json,
            sort: a.sort.then(|| normurl::warc::sort::SortConfig {
                memory: a.sort_memory,
                temp_dir: a.dedup.temp_dir.clone(),
            }),
        },
    })
}

/// Writes `URI TAB TYPE TAB OFFSET TAB LENGTH` for every record of every
/// file, in order: the URI normalized (or what --get asks of it), or as it
/// was read if it does not parse, `-` for a record without one
/// (warcinfo); these two are invalid (invalid URL, no-target-uri), written
/// as --on-invalid says. A broken file stops the run with an error naming
/// it and the record's offset, after the lines of the records before it.
pub fn run(w: &Warc) -> Result<(), Failure> {
    let threads = normurl::pipeline::threads_for(0);
    let (sink, name): (Box<dyn Write>, String) = match &w.output {
        Target::Stdout => (Box::new(io::stdout().lock()), super::STDOUT.to_string()),
        Target::File(p) => {
            let name = p.display().to_string();
            let file = File::create(p).map_err(|source| Failure::Io {
                path: name.clone(),
                source,
            })?;
            (Box::new(file), name)
        }
    };
    // Compressed as --compress or its name says, as the line command's.
    let sink = super::compress::writer(sink, (w.compression.output, b'\n'), threads, &name)?;
    let mut tally = Tally::new(sink, name, &w.accounting)?;
    let failed = run_files(w, &mut tally).err();
    tally.finish(failed)
}

fn run_files(w: &Warc, tally: &mut Tally<'_>) -> Result<(), Failure> {
    let mut line = Vec::new();
    let mut scratch = Scratch::new();
    let mut state = w.normalizer.state();
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
                let canon = &w.normalizer.options().canon;
                let pages = link_lines(canon, &label, &record, &mut scratch);
                for (line, verdict) in pages {
                    links += 1;
                    tally.item(&line, verdict, &label, links)?;
                }
            } else {
                line.clear();
                record_line(&record, &mut line);
                let n = &w.normalizer;
                let json = n.options().get == Some(Get::Json);
                tally.record(
                    |out| {
                        let outcome = match record.target_uri {
                            None => out.with(records, |o| n.invalid_line(NoTargetUri, &line, o)),
                            Some(_) => out.run(n, &mut state, Record::new(&line), records),
                        };
                        if json && matches!(outcome, Ok(Outcome::Emit)) {
                            add_record_fields(&record, &mut out.data);
                        }
                        outcome
                    },
                    &label,
                    records,
                )?;
            }
        }
        tally.add_bytes_in(input.bytes);
    }
    Ok(())
}

/// The range of an item's `--dedup` key in its line, or why it has no URL.
type Verdict = Result<Range<usize>, Invalid>;

/// The line of `record` into `line`: `URI TAB TYPE TAB OFFSET TAB
/// LENGTH`, `-` for the URI of a record without one. The URI loses its
/// tabs and line breaks, which the URL parser removes anyway (URL
/// Standard, basic URL parser: "remove all ASCII tab or newline"), so
/// that it stays the first field of one line.
fn record_line(record: &WarcRecord, line: &mut Vec<u8>) {
    match &record.target_uri {
        None => line.push(b'-'),
        Some(uri) => line.extend(uri.bytes().filter(|b| !matches!(b, b'\t' | b'\n' | b'\r'))),
    }
    let _ = write!(
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

/// With --json, the record's type, offset and length in its object, before
/// the `"line"` that ends every object.
fn add_record_fields(record: &WarcRecord, object: &mut Vec<u8>) {
    let Some(at) = object.windows(7).rposition(|w| w == b"\"line\":") else {
        return;
    };
    let mut fields = Vec::new();
    fields.extend_from_slice(b"\"warc_type\":");
    normurl::component::json::write_string(record.warc_type.as_bytes(), &mut fields);
    let _ = write!(
        fields,
        ",\"offset\":{},\"length\":{},",
        record.offset, record.length
    );
    object.splice(at..at, fields);
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
