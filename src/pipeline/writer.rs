//! Writing transformed batches, in input order, one large write each.
//!
//! The writer is the only place that sees batches in input order, so it
//! also keeps everything that depends on order: line numbers (for the side
//! output and for stop messages), the dedup filter, and the run's totals.

use std::io::{self, Write};
use std::sync::Arc;

use super::batch::{Batch, Keyed, Kind};
use super::transform::{KeyFilter, Merge, Part};
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
/// use normurl::pipeline::Sinks;
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
}

impl<'a> Sinks<'a> {
    /// Writes the output to `output`, called `name` in messages.
    pub fn new(name: impl Into<String>, output: &'a mut dyn Write) -> Sinks<'a> {
        Sinks {
            output,
            output_name: name.into(),
            side: None,
            filter: None,
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
}

/// What a finished run did.
///
/// `records == output_records + skipped + deduplicated`, where `skipped`
/// is whatever the transform's own counters say it skipped.
///
/// # Example
///
/// ```
/// use normurl::pipeline::{Input, MapFn, Pipeline, Sinks};
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
    /// Bytes written to the output.
    pub bytes_out: u64,
    /// The transform's counters, merged over all batches.
    pub stats: S,
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
    /// Whether `finish` has run.
    finished: bool,
    summary: Summary<S>,
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
            finished: false,
            summary: Summary::default(),
        }
    }

    /// Writes `batch`'s output. Returns the transform's stop, as an error,
    /// after writing everything before it.
    pub(crate) fn write(&mut self, batch: &mut Batch<S>) -> Result<(), Error> {
        if batch.file != self.file {
            self.file = batch.file;
            self.file_records = 0;
        }
        let out = match self.sinks.filter.as_deref_mut() {
            Some(filter) => {
                self.scratch.clear();
                offer_keyed(&batch.data, &batch.keys, filter, &mut self.scratch).map_err(
                    |source| Error::Write {
                        path: self.sinks.output_name.clone(),
                        source,
                    },
                )?;
                &self.scratch
            }
            _ => &batch.data,
        };
        if !out.is_empty() {
            self.sinks
                .output
                .write_all(out)
                .map_err(|source| Error::Write {
                    path: self.sinks.output_name.clone(),
                    source,
                })?;
        }
        self.summary.bytes_out += out.len() as u64;
        self.write_side(batch)?;
        self.summary.output_records += batch.emitted;
        self.summary.stats.merge(&batch.stats);
        self.records += batch.records;
        self.file_records += batch.records;
        self.summary.records = self.records;
        self.progress.add_records(batch.records);
        if let Some(stop) = batch.stop.take() {
            // Best effort: the stop is the error to report, but what was
            // written before it should reach the reader too.
            let _ = self.finish();
            return Err(Error::Stopped {
                path: self.names[batch.file].clone(),
                line: self.file_records + 1,
                reason: stop.reason().to_string(),
            });
        }
        Ok(())
    }

    /// Writes the batch's side entries, each as `number TAB entry term`.
    fn write_side(&mut self, batch: &Batch<S>) -> Result<(), Error> {
        let Some((side, name)) = self.sinks.side.as_mut() else {
            return Ok(());
        };
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
            side.write_all(buf).map_err(|source| Error::Write {
                path: name.clone(),
                source,
            })?;
        }
        Ok(())
    }

    /// Lets the key filter write what it held back, then flushes the
    /// outputs. Runs once; later calls do nothing.
    pub(crate) fn finish(&mut self) -> Result<(), Error> {
        if std::mem::replace(&mut self.finished, true) {
            return Ok(());
        }
        let out_err = |name: &String| {
            let path = name.clone();
            move |source| Error::Write { path, source }
        };
        if let Some(filter) = self.sinks.filter.as_deref_mut() {
            let mut counted = Counted {
                wtr: &mut *self.sinks.output,
                bytes: 0,
            };
            let dropped = filter
                .finish(&mut counted)
                .map_err(out_err(&self.sinks.output_name))?;
            self.summary.bytes_out += counted.bytes;
            self.summary.deduplicated = dropped;
            self.summary.output_records = self.summary.output_records.saturating_sub(dropped);
        }
        self.sinks
            .output
            .flush()
            .map_err(out_err(&self.sinks.output_name))?;
        if let Some((side, name)) = self.sinks.side.as_mut() {
            side.flush().map_err(out_err(name))?;
        }
        Ok(())
    }

    /// The name of input `file`.
    pub(crate) fn name(&self, file: usize) -> String {
        self.names[file].clone()
    }

    /// The totals; the reader's byte counts are filled in by the caller.
    pub(crate) fn into_summary(self) -> Summary<S> {
        self.summary
    }
}

/// Passes `data` through `filter`: keyed records with `offer`, the bytes
/// between them with `pass`, in record order.
fn offer_keyed(
    data: &[u8],
    keys: &[Keyed],
    filter: &mut dyn KeyFilter,
    out: &mut Vec<u8>,
) -> io::Result<()> {
    let mut read = 0;
    for k in keys {
        let (start, end) = (k.start as usize, k.end as usize);
        if start > read {
            filter.pass(&data[read..start], out)?;
        }
        filter.offer(k.key, &data[start..end], out)?;
        read = end;
    }
    if data.len() > read {
        filter.pass(&data[read..], out)?;
    }
    Ok(())
}

/// Counts the bytes a key filter writes when it finishes.
struct Counted<'a> {
    wtr: &'a mut dyn Write,
    bytes: u64,
}

impl Write for Counted<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.wtr.write(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.wtr.flush()
    }
}

/// Appends the decimal digits of `n`.
fn push_number(buf: &mut Vec<u8>, n: u64) {
    // `write!` into a Vec cannot fail.
    let _ = write!(buf, "{n}");
}
