//! `normurl warc`: one line per WARC record, its target URI normalized,
//! with what a CDX line needs (type, offset, length); or, for WAT files,
//! one line per outlink.

use std::fs::File;
use std::io::{self, Read, Write};
use std::ops::Range;

use normurl::canon::{Canonicalizer, Scratch};
use normurl::dedup::Shards;
use normurl::normalize::Get;
use normurl::normalize::Invalid::{self, NoTargetUri};
use normurl::pipeline::{Outcome, Record, Transform};
use normurl::warc::{wat_links, Records, WarcRecord};
use normurl::Url;

use super::config::warc::Warc;
use super::config::Target;
use super::warc_tally::{Counted, Tally};
use super::{compress, Failure};

/// With --links, WAT records larger than this are not read for links (a
/// warning names them).
const MAX_WAT_BLOCK: u64 = 64 << 20;

/// Writes `URI TAB TYPE TAB OFFSET TAB LENGTH` for every record of every
/// file, in order: the URI normalized (or what --get asks of it), or as it
/// was read if it does not parse, `-` for a record without one
/// (warcinfo); these two are invalid (invalid URL, no-target-uri), written
/// as --on-invalid says. A broken file stops the run with an error naming
/// it and the record's offset, after the lines of the records before it.
pub fn run(w: &Warc) -> Result<(), Failure> {
    // First, before any thread starts: spill files are removed on SIGINT,
    // SIGTERM and SIGHUP, as the main command's.
    let _signals = super::signals::for_dedup(w.accounting.dedup.as_ref());
    // --dedup and --count as the main command's: the same shards.
    let count = w.accounting.count.is_some();
    let shards = (w.accounting.dedup.clone()).map(|d| Shards::new(d, count));
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
    let sink = compress::writer(sink, (w.compression.output, b'\n'), threads, &name)?;
    let mut tally = Tally::new(sink, name, &w.accounting, shards.as_ref())?;
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
