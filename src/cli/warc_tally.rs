//! The accounting of `normurl warc`: every item (a record, or with
//! `--links` a link) is written, deduplicated, or skipped, and counted
//! with the line command's [`Stats`] and summary, so that items in = out
//! + skipped + deduplicated holds as it does for lines.

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::time::Instant;

use normurl::canon::key_hash;
use normurl::dedup::{CountFormat, ShardWriter, Shards};
use normurl::normalize::{Invalid, OnInvalid, Stats};
use normurl::pipeline::{self, KeyFilter, Merge, Outcome, RecordOutput, Stop, Summary};
use normurl::warc::sort::LineSorter;

use super::config::compress::Codec;
use super::config::warc::Accounting;
use super::Failure;

/// A writer or reader that counts the bytes through it.
pub struct Counted<T> {
    pub inner: T,
    pub bytes: u64,
}

impl<T: Write> Write for Counted<T> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

impl<T: Read> Read for Counted<T> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }
}

/// The output, the counts and the side files of a run.
pub struct Tally<'a> {
    out: Counted<BufWriter<Box<dyn Write + 'a>>>,
    name: String,
    on_invalid: OnInvalid,
    stats: Stats,
    /// Items written other than through the deduper's `offer`.
    written: u64,
    /// `--dedup` and `--count`: the main command's writer side of the
    /// sharded key set, which decides each key as it is offered.
    dedup: Option<Filter<'a>>,
    /// With `--sort`, takes what would be written to `out` (after
    /// `--dedup`) and writes it sorted at the end.
    sort: Option<LineSorter>,
    /// The lines that are no items (a CDX header) given to `sort`: each
    /// once, as the sorted output would hold it once.
    sorted_raw: Vec<Vec<u8>>,
    /// The output of the record the normalizer wrote last, and the
    /// counts of all it wrote.
    records: RecordOutput<Stats>,
    rejects: Option<(String, BufWriter<Box<dyn Write + 'a>>)>,
    stats_json: Option<(PathBuf, File)>,
    show_stats: bool,
    bytes_in: u64,
    start: Instant,
}

/// Where items go: the sorter with `--sort`, else the output.
fn sink<'s>(
    sort: &'s mut Option<LineSorter>,
    out: &'s mut Counted<BufWriter<Box<dyn Write + '_>>>,
) -> &'s mut dyn Write {
    match sort {
        Some(s) => s,
        None => out,
    }
}

fn create(path: &Path) -> Result<File, Failure> {
    File::create(path).map_err(|source| Failure::Io {
        path: path.display().to_string(),
        source,
    })
}

impl<'a> Tally<'a> {
    /// Opens the side files (before any input is read, as the line
    /// command does).
    /// `shards` are `a.dedup`'s (with `a.count`'s counting), as
    /// [`Shards::new`] makes them.
    pub fn new(
        out: Box<dyn Write + 'a>,
        name: String,
        a: &Accounting,
        shards: Option<&'a Shards>,
    ) -> Result<Tally<'a>, Failure> {
        let rejects = match &a.rejects {
            Some(p) => {
                // Compressed as its name says, as the line command's.
                let name = p.display().to_string();
                let file: Box<dyn Write + 'a> = Box::new(create(p)?);
                let threads = pipeline::threads_for(0);
                let w = super::compress::writer(file, (Codec::for_path(p), b'\n'), threads, &name)?;
                Some((name, BufWriter::new(w)))
            }
            None => None,
        };
        let stats_json = match &a.stats_json {
            Some(p) => Some((p.clone(), create(p)?)),
            None => None,
        };
        Ok(Tally {
            out: Counted {
                inner: BufWriter::with_capacity(1 << 16, out),
                bytes: 0,
            },
            name,
            on_invalid: a.on_invalid,
            stats: Stats::default(),
            written: 0,
            dedup: shards.map(|s| {
                let format = a.count.unwrap_or(CountFormat::Prefix(b'\t'));
                Filter::new(ShardWriter::new(s, format))
            }),
            sort: a.sort.clone().map(LineSorter::new),
            sorted_raw: Vec::new(),
            records: RecordOutput::default(),
            rejects,
            stats_json,
            show_stats: a.stats,
            bytes_in: 0,
            start: Instant::now(),
        })
    }

    /// Counts bytes read from an input.
    pub fn add_bytes_in(&mut self, n: u64) {
        self.bytes_in += n;
    }

    fn write_failed(&self, source: io::Error) -> Failure {
        Failure::Io {
            path: self.name.clone(),
            source,
        }
    }

    /// One item: `line` (ending in a newline) and its key (the part
    /// `--dedup` compares), or why it has no URL. `input` and `number`
    /// (from 1, within the input) name it if `--on-invalid=fail` stops.
    pub fn item(
        &mut self,
        line: &[u8],
        verdict: Result<Range<usize>, Invalid>,
        input: &str,
        number: u64,
    ) -> Result<(), Failure> {
        let hashed = verdict.map(|key| key_hash(&line[key]));
        self.item_hashed(line, hashed, input, number)
    }

    /// [`Tally::item`] with the hash of the key ([`key_hash`]) rather
    /// than its place in the line, for keys that are not one range of it
    /// (an index line's urlkey and digest).
    pub fn item_hashed(
        &mut self,
        line: &[u8],
        verdict: Result<u128, Invalid>,
        input: &str,
        number: u64,
    ) -> Result<(), Failure> {
        self.stats.lines += 1;
        let why = match verdict {
            Ok(key) => {
                self.stats.valid += 1;
                let out = sink(&mut self.sort, &mut self.out);
                let written = match &mut self.dedup {
                    Some(d) => d.offer(Some(key), line, out),
                    None => {
                        self.written += 1;
                        out.write_all(line)
                    }
                };
                return written.map_err(|e| self.write_failed(e));
            }
            Err(why) => why,
        };
        self.stats.count_invalid(why);
        if let Some((name, w)) = &mut self.rejects {
            let entry = format!("{}\t{}\t", self.stats.lines, why.name());
            w.write_all(entry.as_bytes())
                .and_then(|()| w.write_all(line))
                .map_err(|source| Failure::Io {
                    path: name.clone(),
                    source,
                })?;
        }
        let kept: &[u8] = match self.on_invalid {
            OnInvalid::Keep => line,
            OnInvalid::Empty => b"\n",
            OnInvalid::Skip => {
                self.stats.skipped += 1;
                return Ok(());
            }
            OnInvalid::Fail => {
                return Err(Failure::Run(pipeline::Error::Stopped {
                    path: input.to_string(),
                    line: number,
                    reason: format!("{why} ({})", why.name()),
                }))
            }
        };
        self.written += 1;
        let out = sink(&mut self.sort, &mut self.out);
        let written = match &mut self.dedup {
            Some(d) => d.offer(None, kept, out),
            None => out.write_all(kept),
        };
        written.map_err(|e| self.write_failed(e))
    }

    /// One record through the normalizer: `run` writes it into the
    /// [`RecordOutput`] it is given and says what to do with it; then its
    /// rejects entry, if any, is written, and the record as the outcome
    /// says (to the deduper when it has a key). `input` and `number`
    /// (from 1, within the input) name it if `--on-invalid=fail` stops.
    pub fn record(
        &mut self,
        run: impl FnOnce(&mut RecordOutput<Stats>) -> Result<Outcome, Stop>,
        input: &str,
        number: u64,
    ) -> Result<(), Failure> {
        let outcome = run(&mut self.records);
        let rec = &mut self.records;
        if let Some((name, w)) = &mut self.rejects {
            if !rec.side.is_empty() {
                // Numbered over all inputs, as the line command's.
                let entry = format!("{}\t", self.stats.lines + rec.stats.lines);
                w.write_all(entry.as_bytes())
                    .and_then(|()| w.write_all(&rec.side))
                    .and_then(|()| w.write_all(b"\n"))
                    .map_err(|source| Failure::Io {
                        path: name.clone(),
                        source,
                    })?;
            }
        }
        match outcome {
            Err(stop) => Err(Failure::Run(pipeline::Error::Stopped {
                path: input.to_string(),
                line: number,
                reason: stop.reason().to_string(),
            })),
            Ok(Outcome::Skip) => Ok(()),
            Ok(Outcome::Emit) => {
                rec.data.push(b'\n');
                let out = sink(&mut self.sort, &mut self.out);
                let written = match (&mut self.dedup, rec.key) {
                    (Some(d), Some(key)) => d.offer(Some(key), &rec.data, out),
                    (Some(d), None) => {
                        self.written += 1;
                        d.offer(None, &rec.data, out)
                    }
                    (None, _) => {
                        self.written += 1;
                        out.write_all(&rec.data)
                    }
                };
                written.map_err(|e| self.write_failed(e))
            }
        }
    }

    /// Writes `bytes` that are no item (a CDX file's header line), in
    /// their place among the items; with `--sort`, once, sorted among
    /// them.
    pub fn raw(&mut self, bytes: &[u8]) -> Result<(), Failure> {
        if self.sort.is_some() {
            if self.sorted_raw.iter().any(|r| r == bytes) {
                return Ok(());
            }
            self.sorted_raw.push(bytes.to_vec());
        }
        let out = sink(&mut self.sort, &mut self.out);
        let written = match &mut self.dedup {
            Some(d) => d.offer(None, bytes, out),
            None => out.write_all(bytes),
        };
        written.map_err(|e| self.write_failed(e))
    }

    /// Flushes the output and the side files, then writes the summary
    /// (`--stats`, `--stats-json`), also after `failed` (the run's
    /// error, if any), as the line command does.
    pub fn finish(mut self, failed: Option<Failure>) -> Result<(), Failure> {
        let mut failures: Vec<Failure> = failed.into_iter().collect();
        let mut deduplicated = 0;
        if let Some(mut d) = self.dedup.take() {
            match d.writer.finish(&mut sink(&mut self.sort, &mut self.out)) {
                Ok(dropped) => {
                    self.written += d.keyed - dropped;
                    deduplicated = dropped;
                }
                Err(e) => failures.push(self.write_failed(e)),
            }
        }
        // The lines taken before a failure are written too, sorted, as
        // the lines before it are without --sort.
        if let Some(s) = self.sort.take() {
            match s.finish(&mut self.out) {
                Ok(repeated) => {
                    // Lines the same as the one before them: deduplicated.
                    self.written -= repeated.min(self.written);
                    deduplicated += repeated;
                }
                Err(e) => failures.push(self.write_failed(e)),
            }
        }
        if let Err(e) = self.out.flush() {
            failures.push(self.write_failed(e));
        }
        if let Some((name, w)) = &mut self.rejects {
            if let Err(source) = w.flush() {
                let path = name.clone();
                failures.push(Failure::Io { path, source });
            }
        }
        self.stats.merge(&self.records.stats);
        let summary = Summary {
            records: self.stats.lines,
            output_records: self.written,
            deduplicated,
            bytes_in: self.bytes_in,
            raw_bytes_in: self.bytes_in,
            unit_ended_records: 0,
            bytes_out: self.out.bytes,
            stats: self.stats.clone(),
            unsorted: None,
            // `normurl warc` does not run the pipeline's stages: no CPU
            // times by stage (all zero).
            cpu: Default::default(),
        };
        self.report(&summary, &mut failures);
        match failures.len() {
            0 => Ok(()),
            1 => Err(failures.remove(0)),
            _ => Err(Failure::Several(failures)),
        }
    }

    fn report(&mut self, summary: &Summary<Stats>, failures: &mut Vec<Failure>) {
        let elapsed = self.start.elapsed();
        if self.show_stats {
            let _ = io::stderr().write_all(super::stats::text(summary, elapsed).as_bytes());
        }
        if let Some((path, file)) = &mut self.stats_json {
            let text = super::stats::json(summary, elapsed);
            if let Err(source) = file.write_all(text.as_bytes()) {
                let path = path.display().to_string();
                failures.push(Failure::Io { path, source });
            }
        }
    }
}

/// The dedup filter of a run and what it needs to write to a [`Write`]:
/// [`ShardWriter`] writes into a buffer, as the pipeline's writer gives it.
struct Filter<'a> {
    writer: ShardWriter<'a>,
    buffer: Vec<u8>,
    /// Keyed items offered.
    keyed: u64,
}

impl<'a> Filter<'a> {
    fn new(writer: ShardWriter<'a>) -> Filter<'a> {
        Filter {
            writer,
            buffer: Vec::new(),
            keyed: 0,
        }
    }

    /// Offers `bytes` with their key (`None`: bytes without one, always
    /// written in their place) and writes to `out` what the filter lets
    /// through now.
    fn offer(&mut self, key: Option<u128>, bytes: &[u8], out: &mut dyn Write) -> io::Result<()> {
        self.buffer.clear();
        match key {
            Some(key) => {
                self.keyed += 1;
                self.writer.offer(key, bytes, &mut self.buffer)?;
            }
            None => self.writer.pass(bytes, &mut self.buffer)?,
        }
        out.write_all(&self.buffer)
    }
}
