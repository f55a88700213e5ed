/*!
An ordered streaming pipeline: records in, transformed records out, in input
order, using every core, in bounded memory.

The pipeline knows nothing about URLs. It reads inputs (plain, gzip, zstd,
bzip2 or xz, detected from their first bytes; other compression formats
are refused), splits them into records (lines, NUL-terminated records, or records whose
quoted fields may hold terminators: [`Framing`]), runs
a [`Transform`] on every record and writes the results in input order. The
`normurl` crate's `normalize` module provides the transform that the
`normurl` command uses.

# Brief overview

* Blocks of [`PipelineBuilder::batch_bytes`] bytes are read straight into a
  batch, cut at the last terminator, and the partial record after it is
  carried over to the next batch (`reader.rs`).
* The workers of a rayon pool take turns reading batches; each transforms
  the batch it read, splitting it into records with `memchr` and writing
  the output into the batch's own buffer (`batch.rs`), while the next
  worker reads.
* The writer, on the calling thread, puts batches back in input order
  (a queue of per-batch one-shot receivers, filled in read order) and
  writes each with one large write (`order.rs`, `writer.rs`).
* At most [`PipelineBuilder::in_flight`] batches exist, and they are
  recycled, so memory depends on the batch size and the thread count, not
  on the input size. Records longer than
  [`PipelineBuilder::max_record_bytes`] are passed to the transform in
  pieces instead of being buffered (see [`Transform::overlong`]).
* Compressed input is decoded on threads of its own: gzip members and zstd
  frames in chunks of about 256 KiB, each decoded in memory to at most
  8 MiB (a chunk that decodes to more, and the rest of the input, go
  through one streaming decoder: memory is bounded by decoded bytes,
  whatever the compression ratio; `chunks.rs`); one long gzip member of a
  regular file on several threads with the `parallel-gzip` feature
  (`gzip_parallel.rs`).
* With one thread the same functions run in a simple loop on the calling
  thread (`sequential.rs`): that is the `-j 1` mode and the reference that
  tests compare the parallel mode with.

# Example

```
use normurl_pipeline::{Input, MapFn, Pipeline, Sinks};

let dir = tempfile::tempdir()?;
let path = dir.path().join("words.txt");
std::fs::write(&path, "one\ntwo\r\nthree")?;

let upper = MapFn::new(|rec: &[u8], out: &mut Vec<u8>| {
    out.extend(rec.iter().map(u8::to_ascii_uppercase))
});
let pipeline = Pipeline::builder().threads(2).batch_bytes(4).build(upper);
let mut out = Vec::new();
let summary = pipeline.run(vec![Input::path(&path)], Sinks::new("<stdout>", &mut out))?;
assert_eq!(out, b"ONE\nTWO\nTHREE\n");
assert_eq!(summary.records, 3);
# Ok::<(), Box<dyn std::error::Error>>(())
```
*/

mod ahead;
mod batch;
mod chunks;
mod cpu;
mod decode;
mod decoder_reads;
mod error;
mod framing;
#[cfg(test)]
mod framing_tests;
mod gzip_chunks;
mod gzip_members;
#[cfg(feature = "parallel-gzip")]
mod gzip_parallel;
mod keys;
mod order;
mod reader;
mod sequential;
mod shards;
#[cfg(test)]
mod tests;
mod transform;
mod writer;
mod zstd_chunks;
mod zstd_frames;

use std::any::Any;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

pub use cpu::CpuTimes;
pub use decode::{Format, Input};
pub use error::Error;
pub use framing::Framing;
pub use shards::MAX_SHARDS;
pub use transform::{
    KeyFilter, KeyShards, MapFn, Merge, Outcome, Output, Part, Record, RecordOutput, Stop,
    Transform,
};
pub use writer::{Report, Sinks, Summary, Unsorted};

use batch::Limits;

/// Batches (and record pieces) are addressed with `u32` offsets.
pub const MAX_BATCH_BYTES: usize = 1 << 30;

/// The most worker threads a pipeline runs, whatever it is asked for: the
/// work is CPU-bound and one worker reads at a time, so threads beyond the
/// cores add only memory (each brings about two batches in flight).
pub const MAX_THREADS: usize = 256;

/// The worker threads a pipeline asked for `requested` runs: 0 means one
/// per available core; any number is reduced to four per core and to
/// [`MAX_THREADS`].
///
/// # Example
///
/// ```
/// use normurl_pipeline::{threads_for, MAX_THREADS};
///
/// let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
/// assert_eq!(threads_for(0), cores.min(MAX_THREADS));
/// assert_eq!(threads_for(1), 1);
/// assert!(threads_for(usize::MAX) <= MAX_THREADS);
/// ```
pub fn threads_for(requested: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let n = if requested == 0 { cores } else { requested };
    n.min(cores.saturating_mul(4)).clamp(1, MAX_THREADS)
}

/// Configures a [`Pipeline`].
///
/// # Example
///
/// ```
/// use normurl_pipeline::{MapFn, PipelineBuilder};
///
/// let pipeline = PipelineBuilder::new()
///     .threads(1)
///     .terminator(b'\0')
///     .max_record_bytes(64 * 1024)
///     .build(MapFn::new(|r: &[u8], o: &mut Vec<u8>| o.extend_from_slice(r)));
/// assert_eq!(pipeline.threads(), 1);
/// ```
#[derive(Clone, Debug)]
pub struct PipelineBuilder {
    threads: usize,
    batch_bytes: usize,
    max_record_bytes: usize,
    terminator: u8,
    in_flight: usize,
    zstd_window_max: u64,
    line_buffered: bool,
    gzip_chunk_bytes: usize,
    framing: Framing,
    number_lines: bool,
}

impl Default for PipelineBuilder {
    fn default() -> Self {
        PipelineBuilder::new()
    }
}

impl PipelineBuilder {
    /// The defaults: all cores, 1 MiB batches, 1 MiB record limit, `\n`,
    /// 8 MiB zstd windows.
    pub fn new() -> PipelineBuilder {
        PipelineBuilder {
            threads: 0,
            batch_bytes: 1 << 20,
            max_record_bytes: 1 << 20,
            terminator: b'\n',
            in_flight: 0,
            zstd_window_max: 8 << 20,
            line_buffered: false,
            gzip_chunk_bytes: decode::GZIP_CHUNK,
            framing: Framing::Lines,
            number_lines: false,
        }
    }

    /// Worker threads: 0 (the default) means one per available core, 1
    /// means the sequential pipeline (no threads at all); see
    /// [`threads_for`] for the most that run.
    pub fn threads(&mut self, n: usize) -> &mut PipelineBuilder {
        self.threads = n;
        self
    }

    /// How many bytes the reader puts in a batch (at least 1, at most
    /// 1 GiB; default 1 MiB). Large batches amortize the hand-over between
    /// threads; the output does not depend on this.
    pub fn batch_bytes(&mut self, n: usize) -> &mut PipelineBuilder {
        self.batch_bytes = n.clamp(1, MAX_BATCH_BYTES);
        self
    }

    /// Records longer than this (terminator excluded) are handed to
    /// [`Transform::overlong`] in pieces (at most 1 GiB; default 1 MiB).
    pub fn max_record_bytes(&mut self, n: usize) -> &mut PipelineBuilder {
        self.max_record_bytes = n.min(MAX_BATCH_BYTES);
        self
    }

    /// The byte that ends records, in input and output (default `\n`).
    /// With `\n`, a `\r` right before it is part of the line ending, not of
    /// the record.
    pub fn terminator(&mut self, byte: u8) -> &mut PipelineBuilder {
        self.terminator = byte;
        self
    }

    /// The most batches that exist at once, which bounds memory at about
    /// `in_flight × (batch_bytes + output size)`. 0 (the default) means
    /// twice the number of threads, plus two; at most 4096.
    pub fn in_flight(&mut self, n: usize) -> &mut PipelineBuilder {
        self.in_flight = n.min(4096);
        self
    }

    /// The largest window a zstd frame may declare, in bytes (default
    /// 8 MiB). Decoding a frame takes about its window in memory, and the
    /// window is the frame's to choose (`zstd --long=31` asks for 2 GiB,
    /// in a file of any size): a frame over the limit stops the run with
    /// [`Error::ZstdWindow`], after the frames before it. zstd's levels 1
    /// to 19 use at most 8 MiB, without `--long`.
    pub fn zstd_window_max(&mut self, bytes: u64) -> &mut PipelineBuilder {
        self.zstd_window_max = bytes;
        self
    }

    /// Hands records on as soon as they arrive instead of filling batches,
    /// and flushes the outputs after each batch (default off): for inputs
    /// that grow while they are read (`tail -f crawl.log | normurl`),
    /// where waiting for a full batch would hold lines back indefinitely.
    /// The output is the same; throughput on large files is lower.
    pub fn line_buffered(&mut self, on: bool) -> &mut PipelineBuilder {
        self.line_buffered = on;
        self
    }

    /// How many compressed bytes of a multi-member gzip or multi-frame
    /// zstd input are decoded as one piece, at least (default 256 KiB). For tests and fuzzing,
    /// which need small inputs cut into many pieces: the output of damaged
    /// input may depend on it (never on the thread count).
    #[doc(hidden)]
    pub fn gzip_chunk_bytes(&mut self, n: usize) -> &mut PipelineBuilder {
        self.gzip_chunk_bytes = n;
        self
    }

    /// How the input is cut into records (default [`Framing::Lines`]).
    pub fn framing(&mut self, framing: Framing) -> &mut PipelineBuilder {
        self.framing = framing;
        self
    }

    /// Numbers the lines (default off): [`Output::line`] then gives the
    /// input line number where the current record starts, counted per input
    /// from 1, as `grep -n` does (a line is what ends with the terminator,
    /// so with `\0` a record). The reader counts the terminators of each
    /// batch it cuts; off, nobody pays for that.
    pub fn number_lines(&mut self, on: bool) -> &mut PipelineBuilder {
        self.number_lines = on;
        self
    }

    /// Builds a pipeline that runs `transform`.
    pub fn build<T: Transform>(&self, transform: T) -> Pipeline<T> {
        let threads = threads_for(self.threads);
        Pipeline {
            threads,
            batch_bytes: self.batch_bytes,
            max_record_bytes: self.max_record_bytes,
            terminator: self.terminator,
            in_flight: self.in_flight,
            zstd_window_max: self.zstd_window_max,
            line_buffered: self.line_buffered,
            gzip_chunk_bytes: self.gzip_chunk_bytes,
            framing: self.framing,
            number_lines: self.number_lines,
            transform,
            progress: Arc::new(Progress::default()),
        }
    }
}

/// A configured pipeline around a [`Transform`]; see the
/// [module documentation](self).
///
/// # Example
///
/// ```
/// use normurl_pipeline::{Input, MapFn, Pipeline, Sinks};
///
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("in.txt");
/// std::fs::write(&path, "b\na\n")?;
/// let p = Pipeline::builder().build(MapFn::new(|r: &[u8], o: &mut Vec<u8>| o.extend_from_slice(r)));
/// let mut out = Vec::new();
/// p.run(vec![Input::path(&path), Input::path(&path)], Sinks::new("out", &mut out))?;
/// assert_eq!(out, b"b\na\nb\na\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Pipeline<T> {
    threads: usize,
    batch_bytes: usize,
    max_record_bytes: usize,
    terminator: u8,
    in_flight: usize,
    zstd_window_max: u64,
    line_buffered: bool,
    gzip_chunk_bytes: usize,
    framing: Framing,
    number_lines: bool,
    transform: T,
    progress: Arc<Progress>,
}

impl Pipeline<()> {
    /// A [`PipelineBuilder`] with the defaults.
    pub fn builder() -> PipelineBuilder {
        PipelineBuilder::new()
    }
}

impl<T: Transform> Pipeline<T> {
    /// Reads `inputs` in order and writes the transformed records to
    /// `sinks`. Stops at the first error, after writing the output of every
    /// record before it, and returns that error: errors that flushing the
    /// outputs gave after it, and the totals of what was done, are in
    /// [`Pipeline::run_report`]'s answer.
    pub fn run(&self, inputs: Vec<Input>, sinks: Sinks<'_>) -> Result<Summary<T::Stats>, Error> {
        let mut report = self.run_report(inputs, sinks);
        if report.errors.is_empty() {
            Ok(report.summary)
        } else {
            Err(report.errors.swap_remove(0))
        }
    }

    /// Like [`Pipeline::run`], but returns the totals also when the run
    /// stopped early, with every error: why it stopped, then each error
    /// that flushing an output gave afterwards (a command must report them
    /// all).
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_pipeline::{Input, MapFn, Pipeline, Sinks};
    ///
    /// let dir = tempfile::tempdir()?;
    /// let path = dir.path().join("in.txt");
    /// std::fs::write(&path, "a\nb\n")?;
    /// let copy = MapFn::new(|r: &[u8], o: &mut Vec<u8>| o.extend_from_slice(r));
    /// let mut full = std::fs::OpenOptions::new().write(true).open("/dev/full")?;
    /// let report = Pipeline::builder()
    ///     .build(copy)
    ///     .run_report(vec![Input::path(&path)], Sinks::new("/dev/full", &mut full));
    /// assert_eq!(report.summary.records, 2);
    /// assert_eq!(report.errors.len(), 1);
    /// assert!(report.errors[0].to_string().starts_with("/dev/full: write error"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn run_report(&self, inputs: Vec<Input>, sinks: Sinks<'_>) -> Report<T::Stats> {
        if self.threads <= 1 {
            sequential::run(self, inputs, sinks)
        } else {
            order::run(self, inputs, sinks, self.threads)
        }
    }

    /// The number of worker threads (1: sequential).
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The transform.
    pub fn transform(&self) -> &T {
        &self.transform
    }

    /// Live counters for a progress display, updated while
    /// [`Pipeline::run`] runs (on another thread). They count from the
    /// pipeline's creation.
    pub fn progress(&self) -> Arc<Progress> {
        Arc::clone(&self.progress)
    }

    /// The reader of `inputs` and the writer to `sinks` of a run, which
    /// the sequential and the parallel pipeline share.
    fn ends<'a>(
        &self,
        inputs: Vec<Input>,
        sinks: Sinks<'a>,
    ) -> (reader::BatchReader, writer::BatchWriter<'a, T::Stats>) {
        let limits = self.limits();
        let decoding = decode::Decoding {
            zstd_window_max: self.zstd_window_max,
            threads: self.threads,
            gzip_chunk: self.gzip_chunk_bytes,
            term: self.terminator,
        };
        let reader =
            reader::BatchReader::new(inputs, limits, decoding, self.progress.raw_counter());
        let names = reader.names().to_vec();
        let mut writer = writer::BatchWriter::new(sinks, names, limits.term, self.progress());
        writer.flush_each = self.line_buffered;
        (reader, writer)
    }

    fn limits(&self) -> Limits {
        Limits {
            term: self.terminator,
            max_record: self.max_record_bytes,
            batch_bytes: self.batch_bytes,
            eager: self.line_buffered,
            framing: self.framing,
            number_lines: self.number_lines,
        }
    }

    fn in_flight(&self, workers: usize) -> usize {
        match self.in_flight {
            0 => 2 * workers + 2,
            n => n,
        }
    }
}

/// Counters a progress display can read while a run is going.
///
/// # Example
///
/// ```
/// use normurl_pipeline::Progress;
///
/// let p = Progress::default();
/// assert_eq!((p.raw_bytes(), p.records()), (0, 0));
/// ```
#[derive(Debug, Default)]
pub struct Progress {
    raw_bytes: Arc<AtomicU64>,
    records: AtomicU64,
}

impl Progress {
    /// Bytes read from the inputs as stored (compressed, if they are).
    pub fn raw_bytes(&self) -> u64 {
        self.raw_bytes.load(Ordering::Relaxed)
    }

    /// Records written (or dropped) so far.
    pub fn records(&self) -> u64 {
        self.records.load(Ordering::Relaxed)
    }

    fn raw_counter(&self) -> Arc<AtomicU64> {
        Arc::clone(&self.raw_bytes)
    }

    fn add_records(&self, n: u64) {
        self.records.fetch_add(n, Ordering::Relaxed);
    }
}

/// The message of a panic payload, for [`Error::Panicked`].
fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(no message)".to_string()
    }
}

// Compile and run the README's example as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
