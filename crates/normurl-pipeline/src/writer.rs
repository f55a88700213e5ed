//! Writing transformed batches, in input order, one large write each.
//!
//! The writer is the only place that sees batches in input order, so it
//! also keeps everything that depends on order: line numbers (for the side
//! output and for stop messages), the dedup filter, and the run's totals.

use std::io::{self, Write};
use std::sync::Arc;

use super::batch::{Batch, Kind};
use super::cpu::{self, Clocks, CpuTimes, Stage};
use super::keys::Keyed;
use super::transform::{KeyFilter, KeyShards, Merge, Part, SortKey};
use super::{Error, Progress};

/// Where a run writes: the output, an optional side output (for example
/// a rejects file) and an optional dedup filter.
///
/// The names are used in error messages. The writers get large writes
/// (about one batch each), so they need no extra buffering.
///
/// # Example
///
/// ```
/// use normurl_pipeline::Sinks;
///
/// let (mut out, mut rejects) = (Vec::new(), Vec::new());
/// let sinks = Sinks::new("<stdout>", &mut out).side("rejects.tsv", &mut rejects);
/// # let _ = sinks;
/// ```
pub struct Sinks<'a> {
    output: &'a mut dyn Write,
    output_name: String,
    side: Option<(&'a mut dyn Write, String)>,
    filter: Option<&'a mut dyn KeyFilter>,
    shards: Option<&'a dyn KeyShards>,
    check_order: bool,
}

impl<'a> Sinks<'a> {
    /// Writes the output to `output`, called `name` in messages.
    pub fn new(name: impl Into<String>, output: &'a mut dyn Write) -> Sinks<'a> {
        Sinks {
            output,
            output_name: name.into(),
            side: None,
            filter: None,
            shards: None,
            check_order: false,
        }
    }

    /// Writes the side output (see
    /// [`Output::side`](super::Output::side)) to `side`. Without a side
    /// writer, side output is discarded.
    pub fn side(mut self, name: impl Into<String>, side: &'a mut dyn Write) -> Sinks<'a> {
        self.side = Some((side, name.into()));
        self
    }

    /// Passes keyed records through `filter` (see [`KeyFilter`]). Without
    /// a filter, keys are ignored and every record is written.
    pub fn key_filter(mut self, filter: &'a mut dyn KeyFilter) -> Sinks<'a> {
        self.filter = Some(filter);
        self
    }

    /// Decides keyed records with `shards` on the workers, shard by shard
    /// in input order (see [`KeyShards`]), and hands each record's verdict
    /// to the key filter's [`KeyFilter::offer_decided`]. Only used with a
    /// key filter.
    pub fn key_shards(mut self, shards: &'a dyn KeyShards) -> Sinks<'a> {
        self.shards = Some(shards);
        self
    }

    /// The key shards, when there is a key filter to take their verdicts.
    pub(crate) fn shards(&self) -> Option<&'a dyn KeyShards> {
        self.shards.filter(|_| self.filter.is_some())
    }

    /// Checks that the sort keys of keyed records (see
    /// [`Output::dedup_key_sorted`](super::Output::dedup_key_sorted)) never go down, byte
    /// by byte, and reports the first record where they do in
    /// [`Summary::unsorted`]. The run goes on either way.
    pub fn check_order(mut self) -> Sinks<'a> {
        self.check_order = true;
        self
    }
}

/// What a finished run did.
///
/// `records == output_records + skipped + deduplicated`, where `skipped`
/// is whatever the transform's own counters say it skipped.
///
/// # Example
///
/// ```
/// use normurl_pipeline::{Input, MapFn, Pipeline, Sinks};
///
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("in.txt");
/// std::fs::write(&path, "\u{FEFF}a\r\nbb\n")?;
/// let mut out = Vec::new();
/// let copy = MapFn::new(|r: &[u8], o: &mut Vec<u8>| o.extend_from_slice(r));
/// let s = Pipeline::builder().build(copy).run(vec![Input::path(&path)], Sinks::new("-", &mut out))?;
/// assert_eq!(out, b"a\nbb\n");
/// assert_eq!((s.records, s.output_records, s.bytes_in, s.bytes_out), (2, 2, 9, 5));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct Summary<S> {
    /// Records read (lines).
    pub records: u64,
    /// Records written.
    pub output_records: u64,
    /// Records dropped by the [`KeyFilter`] (0 without one).
    pub deduplicated: u64,
    /// Decompressed bytes read (byte order marks included).
    pub bytes_in: u64,
    /// Bytes read from the inputs as stored (compressed, if they are).
    pub raw_bytes_in: u64,
    /// Records that ended where a gzip member or zstd frame ended, its
    /// data not ending in the terminator (as in CDX ZipNum shards): the
    /// end of a member or frame ends a record, as the end of an input
    /// does.
    pub unit_ended_records: u64,
    /// Bytes written to the output.
    pub bytes_out: u64,
    /// The transform's counters, merged over all batches.
    pub stats: S,
    /// With [`Sinks::check_order`]: the first record whose sort key is
    /// smaller than the one before it.
    pub unsorted: Option<Unsorted>,
    /// CPU time by stage. It varies from run to run, unlike the counts.
    pub cpu: CpuTimes,
}

/// Where the input's order breaks (see [`Sinks::check_order`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsorted {
    /// The input's name.
    pub path: String,
    /// The 1-based record number within that input.
    pub line: u64,
}

/// What a run did, whether or not it reached the end: see
/// [`Pipeline::run_report`](super::Pipeline::run_report).
#[derive(Debug)]
pub struct Report<S> {
    /// The totals of what was read and written, up to the stop if there
    /// was one.
    pub summary: Summary<S>,
    /// Empty when the run reached the end. Otherwise why it stopped first
    /// (a read error, the transform's stop, a write error...), then any
    /// error that flushing the outputs gave afterwards: each output reports
    /// its own first error.
    pub errors: Vec<Error>,
}

pub(crate) struct BatchWriter<'a, S> {
    sinks: Sinks<'a>,
    /// The inputs' names, by index.
    names: Vec<String>,
    term: u8,
    progress: Arc<Progress>,
    /// Records before the current batch, all inputs.
    records: u64,
    /// The input of the last batch written, and its records so far.
    file: usize,
    file_records: u64,
    /// Whether the side output has an entry waiting for the rest of an
    /// over-long record.
    side_open: bool,
    /// Where keyed batches are reassembled, and side entries formatted.
    scratch: Vec<u8>,
    side_scratch: Vec<u8>,
    /// The last sort key of the batches written (see
    /// [`Sinks::check_order`]).
    last_sort_key: Option<Vec<u8>>,
    /// Whether writing the output, or the side output, has failed: each
    /// output reports its first error only, and is not written again.
    output_failed: bool,
    side_failed: bool,
    /// Every error so far, the first one being why the run stopped.
    errors: Vec<Error>,
    summary: Summary<S>,
    /// Flush both outputs after each batch (line-buffered mode).
    pub(crate) flush_each: bool,
    /// The stages' CPU times, and the process's CPU clock at the start.
    pub(crate) clocks: Arc<Clocks>,
    process_start: u64,
}

impl<'a, S: Merge> BatchWriter<'a, S> {
    pub(crate) fn new(
        sinks: Sinks<'a>,
        names: Vec<String>,
        term: u8,
        progress: Arc<Progress>,
    ) -> Self {
        BatchWriter {
            sinks,
            names,
            term,
            progress,
            records: 0,
            file: 0,
            file_records: 0,
            side_open: false,
            scratch: Vec::new(),
            side_scratch: Vec::new(),
            last_sort_key: None,
            output_failed: false,
            side_failed: false,
            errors: Vec::new(),
            summary: Summary::default(),
            flush_each: false,
            clocks: Arc::default(),
            process_start: cpu::process_nanos(),
        }
    }

    /// Writes `batch`'s output and side output. Returns whether the run
    /// goes on: after an error (kept for [`BatchWriter::finish`]) or the
    /// transform's stop, it must not. Both outputs get what the batch has
    /// for them even when the other one fails, so that the side output
    /// (the rejects) is complete up to the stop.
    pub(crate) fn write(&mut self, batch: &mut Batch<S>) -> bool {
        if batch.file != self.file {
            self.file = batch.file;
            self.file_records = 0;
        }
        if self.sinks.check_order {
            self.check_order(batch);
        }
        self.write_output(batch);
        self.write_side(batch);
        if self.flush_each {
            self.flush_outputs();
        }
        self.summary.output_records += batch.emitted;
        self.summary.stats.merge(&batch.stats);
        self.records += batch.records;
        self.file_records += batch.records;
        self.summary.records = self.records;
        self.progress.add_records(batch.records);
        if let Some(stop) = batch.stop.take() {
            self.errors.push(Error::Stopped {
                path: self.names[batch.file].clone(),
                line: self.file_records + 1,
                reason: stop.reason().to_string(),
            });
        }
        self.errors.is_empty()
    }

    /// Adds an error that stopped the run outside the writer (a read
    /// error, a panic).
    pub(crate) fn fail(&mut self, error: Error) {
        self.errors.push(error);
    }

    fn write_output(&mut self, batch: &mut Batch<S>) {
        if self.output_failed {
            return;
        }
        if let Some(source) = batch.decide_error.take() {
            self.output_failed = true;
            self.errors.push(Error::Filter { source });
            return;
        }
        let decided = self.sinks.shards.is_some();
        let out = match self.sinks.filter.as_deref_mut() {
            Some(filter) => {
                self.scratch.clear();
                let verdicts = decided.then_some(&batch.verdicts[..]);
                // The filter writes into memory here: an error is its own.
                if let Err(source) = offer_keyed(
                    &batch.data,
                    &batch.keys,
                    verdicts,
                    filter,
                    &mut self.scratch,
                ) {
                    self.output_failed = true;
                    self.errors.push(Error::Filter { source });
                    return;
                }
                &self.scratch
            }
            _ => &batch.data,
        };
        if !out.is_empty() {
            if let Err(source) = self.sinks.output.write_all(out) {
                self.output_failed = true;
                self.errors.push(Error::Write {
                    path: self.sinks.output_name.clone(),
                    source,
                });
                return;
            }
        }
        self.summary.bytes_out += out.len() as u64;
    }

    /// Compares the batch's sort keys with the one before, and keeps the
    /// first place where they go down.
    fn check_order(&mut self, batch: &Batch<S>) {
        let key_of = |k: &SortKey| &batch.sort_keys[k.start as usize..k.end as usize];
        let mut last = self.last_sort_key.as_deref();
        for k in &batch.sort_ranges {
            let key = key_of(k);
            if last.is_some_and(|last| key < last) {
                self.summary.unsorted = Some(Unsorted {
                    path: self.names[batch.file].clone(),
                    line: self.file_records + u64::from(k.index) + 1,
                });
                break;
            }
            last = Some(key);
        }
        if self.summary.unsorted.is_some() {
            // Found: nothing more to compare.
            self.sinks.check_order = false;
        } else if let Some(k) = batch.sort_ranges.last() {
            let kept = self.last_sort_key.get_or_insert_with(Vec::new);
            kept.clear();
            kept.extend_from_slice(key_of(k));
        }
    }

    /// Writes the batch's side entries, each as `number TAB entry term`.
    fn write_side(&mut self, batch: &Batch<S>) {
        let Some((side, name)) = self.sinks.side.as_mut() else {
            return;
        };
        if self.side_failed {
            return;
        }
        let buf = &mut self.side_scratch;
        buf.clear();
        match batch.kind {
            Kind::Records => {
                let entries = &batch.side_entries;
                for (i, &(index, start)) in entries.iter().enumerate() {
                    let end = entries
                        .get(i + 1)
                        .map_or(batch.side.len(), |&(_, s)| s as usize);
                    push_number(buf, self.records + u64::from(index) + 1);
                    buf.push(b'\t');
                    buf.extend_from_slice(&batch.side[start as usize..end]);
                    buf.push(self.term);
                }
            }
            Kind::Overlong(part) => {
                if !self.side_open && !batch.side_entries.is_empty() {
                    push_number(buf, self.records + 1);
                    buf.push(b'\t');
                    self.side_open = true;
                }
                if self.side_open {
                    buf.extend_from_slice(&batch.side);
                    if part == Part::Last || batch.stop.is_some() {
                        buf.push(self.term);
                        self.side_open = false;
                    }
                }
            }
        }
        if !buf.is_empty() {
            if let Err(source) = side.write_all(buf) {
                self.side_failed = true;
                self.errors.push(Error::SideWrite {
                    path: name.clone(),
                    source,
                });
            }
        }
    }

    /// Lets the key filter write what it held back, then flushes both
    /// outputs, also after an error: what was written before a stop must
    /// reach the reader, and a flush that fails is reported with the rest.
    fn finish(&mut self) {
        if !self.output_failed {
            if let Some(filter) = self.sinks.filter.as_deref_mut() {
                let mut counted = Counted {
                    wtr: &mut *self.sinks.output,
                    bytes: 0,
                    error: None,
                };
                let since = cpu::thread_nanos();
                let result = filter.finish(&mut counted);
                self.clocks.lap(Stage::Dedup, since);
                self.summary.bytes_out += counted.bytes;
                match (result, counted.error) {
                    (Ok(dropped), _) => {
                        self.summary.deduplicated = dropped;
                        self.summary.output_records =
                            self.summary.output_records.saturating_sub(dropped);
                    }
                    // The output refused what the filter wrote.
                    (Err(_), Some(source)) => {
                        self.output_failed = true;
                        self.errors.push(Error::Write {
                            path: self.sinks.output_name.clone(),
                            source,
                        });
                    }
                    (Err(source), None) => {
                        self.output_failed = true;
                        self.errors.push(Error::Filter { source });
                    }
                }
            }
        }
        self.flush_outputs();
    }

    /// Flushes both outputs; a failure is reported once per output.
    fn flush_outputs(&mut self) {
        if !self.output_failed {
            if let Err(source) = self.sinks.output.flush() {
                self.output_failed = true;
                self.errors.push(Error::Write {
                    path: self.sinks.output_name.clone(),
                    source,
                });
            }
        }
        if let Some((side, name)) = self.sinks.side.as_mut() {
            if !self.side_failed {
                if let Err(source) = side.flush() {
                    self.side_failed = true;
                    self.errors.push(Error::SideWrite {
                        path: name.clone(),
                        source,
                    });
                }
            }
        }
    }

    /// The name of input `file`.
    pub(crate) fn name(&self, file: usize) -> String {
        self.names[file].clone()
    }

    /// Finishes (see [`BatchWriter::finish`]): the end of every run, also
    /// one that stopped. Returns the totals and
    /// every error; the reader's byte counts are filled in by the caller.
    pub(crate) fn into_report(mut self) -> Report<S> {
        self.finish();
        self.summary.cpu = self.clocks.times(self.process_start);
        Report {
            summary: self.summary,
            errors: self.errors,
        }
    }
}

/// Passes `data` through `filter`: keyed records with `offer`, the bytes
/// between them with `pass`, in record order.
/// With `verdicts` (one per key, from [`KeyShards::decide`]), keyed
/// records go to `offer_decided`.
fn offer_keyed(
    data: &[u8],
    keys: &[Keyed],
    verdicts: Option<&[u8]>,
    filter: &mut dyn KeyFilter,
    out: &mut Vec<u8>,
) -> io::Result<()> {
    let mut read = 0;
    for (i, k) in keys.iter().enumerate() {
        let (start, end) = (k.start as usize, k.end as usize);
        if start > read {
            filter.pass(&data[read..start], out)?;
        }
        let record = &data[start..end];
        match verdicts {
            Some(v) => filter.offer_decided(k.key, v[i], record, out)?,
            None => filter.offer(k.key, record, out)?,
        }
        read = end;
    }
    if data.len() > read {
        filter.pass(&data[read..], out)?;
    }
    Ok(())
}

/// Counts the bytes a key filter writes when it finishes, and keeps the
/// output's own error, to tell it from the filter's.
struct Counted<'a> {
    wtr: &'a mut dyn Write,
    bytes: u64,
    error: Option<io::Error>,
}

impl Counted<'_> {
    fn keep<T>(&mut self, result: io::Result<T>) -> io::Result<T> {
        result.map_err(|e| {
            if e.kind() == io::ErrorKind::Interrupted {
                return e;
            }
            let passed = io::Error::new(e.kind(), e.to_string());
            self.error.get_or_insert(e);
            passed
        })
    }
}

impl Write for Counted<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.wtr.write(buf);
        let n = self.keep(n)?;
        self.bytes += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        let r = self.wtr.flush();
        self.keep(r)
    }
}

/// Appends the decimal digits of `n`.
fn push_number(buf: &mut Vec<u8>, n: u64) {
    // `write!` into a Vec cannot fail.
    let _ = write!(buf, "{n}");
}
