//! What the pipeline runs on every record: the [`Transform`] trait and the
//! per-batch [`Output`] it writes into.

use std::borrow::Cow;
use std::io::{self, Write};

/// A function from one input record to output bytes, run by the pipeline
/// on every record.
///
/// The pipeline splits its input into records (lines without their
/// terminator), calls [`Transform::record`] on each, and writes whatever
/// the call appended to [`Output::data`], followed by the record terminator
/// (with [`Framing::QuotedFields`](super::Framing::QuotedFields), the
/// record's own line break: `\r\n` if it ended in `\r\n`), in input order. Implementations must be `Sync`: several workers call
/// them at once, each with its own [`Transform::State`].
///
/// # Example
///
/// A transform that upper-cases every record and counts the empty ones:
///
/// ```
/// use normurl_pipeline::{Input, Outcome, Output, Part, Pipeline, Record, Sinks, Stop, Transform};
///
/// struct Upper;
///
/// impl Transform for Upper {
///     type State = ();
///     type Stats = u64;
///
///     fn state(&self) {}
///
///     fn record(&self, _: &mut (), rec: Record<'_>, out: &mut Output<'_, u64>) -> Result<Outcome, Stop> {
///         if rec.bytes().is_empty() {
///             *out.stats() += 1;
///         }
///         out.data().extend(rec.bytes().iter().map(u8::to_ascii_uppercase));
///         Ok(Outcome::Emit)
///     }
///
///     fn overlong(&self, _: &mut (), part: Part, _: &[u8], _: &mut Output<'_, u64>) -> Result<Outcome, Stop> {
///         // Records over the length limit become empty lines.
///         Ok(Outcome::Emit)
///     }
/// }
///
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("in.txt");
/// std::fs::write(&path, "a\n\nb\r\n")?;
/// let mut out = Vec::new();
/// let summary = Pipeline::builder()
///     .build(Upper)
///     .run(vec![Input::path(&path)], Sinks::new("<stdout>", &mut out))?;
/// assert_eq!(out, b"A\n\nB\n");
/// assert_eq!(summary.records, 3);
/// assert_eq!(summary.stats, 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait Transform: Sync {
    /// Scratch space owned by one worker and reused for every record it
    /// handles (for example a parsed URL whose buffer is recycled), so that
    /// the hot loop does not allocate.
    type State: Send;
    /// Counters kept per batch and merged in input order by the writer.
    type Stats: Merge + Send;

    /// Whether the transform wants records as strings (see
    /// [`Record::to_str`]). If so, the pipeline validates each batch as
    /// UTF-8 in one pass before splitting it, which is several times faster
    /// than validating short records one by one.
    const WANTS_STR: bool = false;

    /// Creates the scratch space of one worker.
    fn state(&self) -> Self::State;

    /// Transforms one record.
    ///
    /// The record never contains the terminator (nor the `\r` of a `\r\n`
    /// line ending), except inside quoted fields with
    /// [`Framing::QuotedFields`](super::Framing::QuotedFields), and is never
    /// longer than the pipeline's record limit.
    /// Append the output bytes to [`Output::data`] without a terminator and
    /// return [`Outcome::Emit`]; return [`Outcome::Skip`] to write nothing
    /// for this record (bytes appended anyway are discarded). An error ends
    /// the run with [`Error::Stopped`](super::Error::Stopped), after the
    /// output of every earlier record has been written.
    fn record(
        &self,
        state: &mut Self::State,
        record: Record<'_>,
        out: &mut Output<'_, Self::Stats>,
    ) -> Result<Outcome, Stop>;

    /// Handles a record longer than the pipeline's record limit.
    ///
    /// Such a record is never held in memory as a whole: it arrives in
    /// pieces, one [`Part::First`], any number of [`Part::Middle`] and one
    /// [`Part::Last`] (which may be empty), in order and each in its own
    /// call. Bytes appended to [`Output::data`] and to [`Output::side`] are
    /// written as they come; the outcome of the `Last` call decides whether
    /// a terminator follows. Dedup keys are ignored here.
    fn overlong(
        &self,
        state: &mut Self::State,
        part: Part,
        bytes: &[u8],
        out: &mut Output<'_, Self::Stats>,
    ) -> Result<Outcome, Stop>;
}

/// One input record, as given to [`Transform::record`].
///
/// # Example
///
/// ```
/// use normurl_pipeline::Record;
///
/// let rec = Record::new(b"caf\xC3\xA9");
/// assert_eq!(rec.bytes(), b"caf\xC3\xA9");
/// assert_eq!(rec.to_str(), Ok("café"));
/// assert!(Record::new(b"caf\xE9").to_str().is_err());
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Record<'a> {
    bytes: &'a [u8],
    /// The same bytes, when the pipeline already knows they are UTF-8.
    text: Option<&'a str>,
    /// Whether the input ended inside a quoted field of this record.
    unclosed_quote: bool,
}

impl<'a> Record<'a> {
    /// A record of `bytes` (the pipeline makes them; this is for tests and
    /// for calling a transform directly).
    pub fn new(bytes: &'a [u8]) -> Record<'a> {
        Record {
            bytes,
            text: None,
            unclosed_quote: false,
        }
    }

    /// A record known to be valid UTF-8.
    pub(crate) fn from_str(text: &'a str) -> Record<'a> {
        Record {
            bytes: text.as_bytes(),
            text: Some(text),
            unclosed_quote: false,
        }
    }

    /// This record, marked as ending inside a quoted field, or not.
    pub(crate) fn with_unclosed_quote(self, unclosed_quote: bool) -> Record<'a> {
        Record {
            unclosed_quote,
            ..self
        }
    }

    /// Whether the input ended inside a quoted field of this record (only
    /// with [`Framing::QuotedFields`](super::Framing::QuotedFields)): the
    /// record then runs to the end of its input, whatever line breaks that
    /// holds, and is most likely not what its writer meant.
    #[inline]
    pub fn unclosed_quote(self) -> bool {
        self.unclosed_quote
    }

    /// The record's bytes.
    #[inline]
    pub fn bytes(self) -> &'a [u8] {
        self.bytes
    }

    /// The record as a string, if it is valid UTF-8. Free when the batch
    /// was validated as a whole ([`Transform::WANTS_STR`]).
    #[inline]
    pub fn to_str(self) -> Result<&'a str, std::str::Utf8Error> {
        match self.text {
            Some(text) => Ok(text),
            None => std::str::from_utf8(self.bytes),
        }
    }
}

/// Whether a record produces an output record.
///
/// # Example
///
/// ```
/// use normurl_pipeline::Outcome;
///
/// assert_ne!(Outcome::Emit, Outcome::Skip);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Write the bytes appended to [`Output::data`], then the terminator.
    Emit,
    /// Write nothing for this record.
    Skip,
}

/// Which piece of an over-long record a [`Transform::overlong`] call gets.
///
/// # Example
///
/// ```
/// use normurl_pipeline::Part;
///
/// assert!(Part::First.is_first() && !Part::Last.is_first());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The start of the record (longer than the limit).
    First,
    /// A piece from the middle.
    Middle,
    /// The end of the record (possibly empty).
    Last,
}

impl Part {
    /// Whether this is the first piece.
    pub fn is_first(self) -> bool {
        self == Part::First
    }
}

/// A request from a transform to stop the run at the current record.
///
/// # Example
///
/// ```
/// use normurl_pipeline::Stop;
///
/// assert_eq!(Stop::new("invalid URL").reason(), "invalid URL");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stop {
    reason: Cow<'static, str>,
}

impl Stop {
    /// A stop with the given reason (shown after `FILE:LINE: `).
    pub fn new(reason: impl Into<Cow<'static, str>>) -> Stop {
        Stop {
            reason: reason.into(),
        }
    }

    /// The reason.
    pub fn reason(&self) -> &str {
        &self.reason
    }
}

/// Counters that can be summed, batch by batch.
///
/// # Example
///
/// ```
/// use normurl_pipeline::Merge;
///
/// let mut total = 3u64;
/// total.merge(&4);
/// assert_eq!(total, 7);
/// ```
pub trait Merge: Default {
    /// Adds `other` into `self`.
    fn merge(&mut self, other: &Self);
}

impl Merge for () {
    fn merge(&mut self, _: &()) {}
}

impl Merge for u64 {
    fn merge(&mut self, other: &u64) {
        *self += other;
    }
}

/// The writer's dedup hook: sees every keyed record in input order and
/// decides whether (and when) it is written.
///
/// A transform attaches a key (for example a 128-bit hash of a normalized
/// URL) to a record with [`Output::dedup_key`]. The writer, which sees
/// records in input order, passes each keyed record to
/// [`KeyFilter::offer`] instead of writing it; records without a key are
/// written as usual. A filter that spills to disk may hold records back and
/// write them in [`KeyFilter::finish`], in order.
///
/// # Example
///
/// ```
/// use normurl_pipeline::KeyFilter;
/// use std::collections::HashSet;
/// use std::io::{self, Write};
///
/// #[derive(Default)]
/// struct FirstSeen {
///     seen: HashSet<u128>,
///     dropped: u64,
/// }
///
/// impl KeyFilter for FirstSeen {
///     fn offer(&mut self, key: u128, record: &[u8], out: &mut Vec<u8>) -> io::Result<()> {
///         if self.seen.insert(key) {
///             out.extend_from_slice(record);
///         } else {
///             self.dropped += 1;
///         }
///         Ok(())
///     }
///
///     fn finish(&mut self, _: &mut dyn Write) -> io::Result<u64> {
///         Ok(self.dropped)
///     }
/// }
///
/// let mut f = FirstSeen::default();
/// let mut out = Vec::new();
/// for (key, rec) in [(1, "a\n"), (2, "b\n"), (1, "a\n")] {
///     f.offer(key, rec.as_bytes(), &mut out)?;
/// }
/// assert_eq!(out, b"a\nb\n");
/// assert_eq!(f.finish(&mut io::sink())?, 1);
/// # Ok::<(), io::Error>(())
/// ```
pub trait KeyFilter {
    /// Offers the next keyed record, terminator included. Append it to
    /// `out` to write it now, drop it, or hold it back for
    /// [`KeyFilter::finish`].
    fn offer(&mut self, key: u128, record: &[u8], out: &mut Vec<u8>) -> io::Result<()>;

    /// Passes output that has no key (records without a key, in record
    /// order between the keyed ones). It must be written, but a filter that
    /// holds keyed records back must hold these back too, to keep the
    /// order. The default writes them at once.
    fn pass(&mut self, bytes: &[u8], out: &mut Vec<u8>) -> io::Result<()> {
        out.extend_from_slice(bytes);
        Ok(())
    }

    /// Offers the next keyed record with the verdict its
    /// [`KeyShards::decide`] gave it on a worker (with
    /// [`Sinks::key_shards`](super::Sinks::key_shards)). The default ignores
    /// the verdict and calls [`KeyFilter::offer`].
    fn offer_decided(
        &mut self,
        key: u128,
        verdict: u8,
        record: &[u8],
        out: &mut Vec<u8>,
    ) -> io::Result<()> {
        let _ = verdict;
        self.offer(key, record, out)
    }

    /// Called once after the last record: writes the records held back, in
    /// order, and returns how many records were dropped in total.
    fn finish(&mut self, out: &mut dyn Write) -> io::Result<u64>;
}

/// Decisions about keys made on the workers, shard by shard, before the
/// writer sees the records (see [`Sinks::key_shards`](super::Sinks::key_shards)).
///
/// Keys are split into [`KeyShards::shards`] shards by
/// [`KeyShards::shard_of`], which must depend on the key only, so that every
/// occurrence of a key meets the same shard. The pipeline calls
/// [`KeyShards::decide`] for shard `s` with the keys of shard `s` of one
/// batch after the other, in input order (never two calls for one shard at
/// once; calls for different shards run in parallel), and hands each
/// record's verdict byte to [`KeyFilter::offer_decided`] in the writer.
///
/// # Example
///
/// ```
/// use normurl_pipeline::KeyShards;
/// use std::collections::HashSet;
/// use std::sync::Mutex;
///
/// /// Verdict 1: first occurrence.
/// struct Seen(Vec<Mutex<HashSet<u128>>>);
///
/// impl KeyShards for Seen {
///     fn shards(&self) -> usize {
///         self.0.len()
///     }
///     fn shard_of(&self, key: u128) -> usize {
///         (key >> 124) as usize % self.0.len()
///     }
///     fn decide(&self, shard: usize, keys: &[u128], verdicts: &mut [u8]) -> std::io::Result<()> {
///         let mut set = self.0[shard].lock().unwrap();
///         for (k, v) in keys.iter().zip(verdicts) {
///             *v = u8::from(set.insert(*k));
///         }
///         Ok(())
///     }
/// }
///
/// let seen = Seen((0..4).map(|_| Mutex::default()).collect());
/// let mut v = [0u8; 3];
/// seen.decide(0, &[1, 2, 1], &mut v)?;
/// assert_eq!(v, [1, 1, 0]);
/// # Ok::<(), std::io::Error>(())
/// ```
pub trait KeyShards: Sync {
    /// How many shards (at most [`MAX_SHARDS`](super::MAX_SHARDS)).
    fn shards(&self) -> usize;

    /// The shard of `key`, below [`KeyShards::shards`].
    fn shard_of(&self, key: u128) -> usize;

    /// Decides `keys` (shard `shard`'s keys of the next batch, in record
    /// order), writing one verdict byte for each into `verdicts`. An error
    /// stops the run as the [`KeyFilter`]'s errors do.
    fn decide(&self, shard: usize, keys: &[u128], verdicts: &mut [u8]) -> io::Result<()>;
}

/// A record's sort key (see [`Output::dedup_key_sorted`]): the record's
/// index in the batch and `sort_keys[start..end]`. Apart from `Keyed` (`keys.rs`),
/// so that dedup without an order check does not carry it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SortKey {
    pub(crate) index: u32,
    pub(crate) start: u32,
    pub(crate) end: u32,
}

/// Where a [`Transform`] writes: the batch's output buffers, recycled from
/// batch to batch.
///
/// See [`Transform`] for an example.
pub struct Output<'a, S> {
    pub(crate) data: &'a mut Vec<u8>,
    pub(crate) side: &'a mut Vec<u8>,
    pub(crate) stats: &'a mut S,
    /// Side entries started by earlier records: (record index in the
    /// batch, start offset in `side`).
    pub(crate) side_entries: &'a mut Vec<(u32, u32)>,
    /// Sort keys of the batch's keyed records, one after the other, and
    /// whose they are.
    pub(crate) sort_keys: &'a mut Vec<u8>,
    pub(crate) sort_ranges: &'a mut Vec<SortKey>,
    /// Index of the current record within the batch.
    pub(crate) index: u32,
    /// Whether the batch starts at the start of its input.
    pub(crate) starts_input: bool,
    /// The line number of the batch's first record; 0 when lines are not
    /// numbered.
    pub(crate) first_line: u64,
    /// Line breaks inside the batch's earlier records (quoted fields).
    pub(crate) inner_lines: u64,
    /// Whether the current record already has a side entry.
    pub(crate) side_started: bool,
    pub(crate) key: Option<u128>,
}

impl<S> Output<'_, S> {
    /// The main output. Append the current record's output without a
    /// terminator.
    #[inline]
    pub fn data(&mut self) -> &mut Vec<u8> {
        self.data
    }

    /// The side output (for example the rejects file), for the current
    /// record. The writer prefixes what the record appends here with the
    /// record's line number (1-based, counted over all inputs) and a tab,
    /// and ends it with the terminator; nothing is written for records
    /// that append nothing. Only called for the records that need it, so
    /// the common path does not pay for it.
    pub fn side(&mut self) -> &mut Vec<u8> {
        if !self.side_started {
            self.side_started = true;
            // Batches are far smaller than 4 GiB (see Config::batch_bytes).
            self.side_entries.push((self.index, self.side.len() as u32));
        }
        self.side
    }

    /// Attaches a dedup key to the current record: the writer hands the
    /// record to its [`KeyFilter`] (if any) instead of writing it.
    #[inline]
    pub fn dedup_key(&mut self, key: u128) {
        self.key = Some(key);
    }

    /// Attaches a dedup key, as [`Output::dedup_key`] does, and a sort key
    /// for [`Sinks::check_order`]: the bytes in `data()[range]`, something
    /// the current record wrote (copied now, so the record may rewrite
    /// them afterwards). Call it only for a record that is written.
    ///
    /// [`Sinks::check_order`]: super::Sinks::check_order
    #[inline]
    pub fn dedup_key_sorted(&mut self, key: u128, range: std::ops::Range<usize>) {
        let start = self.sort_keys.len() as u32;
        self.sort_keys.extend_from_slice(&self.data[range]);
        self.sort_ranges.push(SortKey {
            index: self.index,
            start,
            end: self.sort_keys.len() as u32,
        });
        self.key = Some(key);
    }

    /// Whether the current record is the first of its input (of each
    /// file, when several are read): a header line, in some formats.
    #[inline]
    pub fn is_first_of_input(&self) -> bool {
        self.starts_input && self.index == 0
    }

    /// The input line number (1-based, per input) where the current
    /// record starts, when the pipeline numbers lines
    /// ([`PipelineBuilder::number_lines`](super::PipelineBuilder::number_lines));
    /// `None` otherwise. In [`Transform::overlong`], where the over-long
    /// record starts.
    #[inline]
    pub fn line(&self) -> Option<u64> {
        match self.first_line {
            0 => None,
            n => Some(n + u64::from(self.index) + self.inner_lines),
        }
    }

    /// The batch's counters.
    #[inline]
    pub fn stats(&mut self) -> &mut S {
        self.stats
    }
}

/// A transform's output for one record at a time, outside the pipeline,
/// for callers that make their records one by one (`normurl warc` makes a
/// line of each WARC record): what [`RecordOutput::run`] leaves in it.
#[derive(Debug, Default)]
pub struct RecordOutput<S> {
    /// The record's output, without a terminator.
    pub data: Vec<u8>,
    /// The record's side output ([`Output::side`]), empty if none.
    pub side: Vec<u8>,
    /// The counters, added to by every record run.
    pub stats: S,
    /// The record's dedup key ([`Output::dedup_key`]), if it set one.
    pub key: Option<u128>,
    side_entries: Vec<(u32, u32)>,
    sort_keys: Vec<u8>,
    sort_ranges: Vec<SortKey>,
}

impl<S> RecordOutput<S> {
    /// Clears the record's buffers (not the counters) and runs `t` on
    /// `record`, whose input line number is `line` (from 1: what
    /// [`Output::line`] gives). The record is never the first of an
    /// input ([`Output::is_first_of_input`]).
    pub fn run<T: Transform<Stats = S>>(
        &mut self,
        t: &T,
        state: &mut T::State,
        record: Record<'_>,
        line: u64,
    ) -> Result<Outcome, Stop> {
        self.with(line, |out| t.record(state, record, out))
    }

    /// [`RecordOutput::run`] with `f` in the transform's place: `f`
    /// writes the record at line `line` into the [`Output`] it is given.
    pub fn with<R>(&mut self, line: u64, f: impl FnOnce(&mut Output<'_, S>) -> R) -> R {
        self.data.clear();
        self.side.clear();
        self.side_entries.clear();
        self.sort_keys.clear();
        self.sort_ranges.clear();
        let mut out = Output {
            data: &mut self.data,
            side: &mut self.side,
            stats: &mut self.stats,
            side_entries: &mut self.side_entries,
            sort_keys: &mut self.sort_keys,
            sort_ranges: &mut self.sort_ranges,
            index: 0,
            starts_input: false,
            first_line: line,
            inner_lines: 0,
            side_started: false,
            key: None,
        };
        let result = f(&mut out);
        self.key = out.key;
        result
    }
}

/// A [`Transform`] made from a closure that appends a record's output to a
/// buffer; over-long records are copied through unchanged.
///
/// # Example
///
/// ```
/// use normurl_pipeline::MapFn;
///
/// let reverse = MapFn::new(|rec: &[u8], out: &mut Vec<u8>| out.extend(rec.iter().rev()));
/// # let _ = reverse;
/// ```
pub struct MapFn<F> {
    f: F,
}

impl<F> MapFn<F>
where
    F: Fn(&[u8], &mut Vec<u8>) + Sync,
{
    /// Wraps `f`.
    pub fn new(f: F) -> MapFn<F> {
        MapFn { f }
    }
}

impl<F> Transform for MapFn<F>
where
    F: Fn(&[u8], &mut Vec<u8>) + Sync,
{
    type State = ();
    type Stats = ();

    fn state(&self) {}

    #[inline]
    fn record(
        &self,
        _: &mut (),
        record: Record<'_>,
        out: &mut Output<'_, ()>,
    ) -> Result<Outcome, Stop> {
        (self.f)(record.bytes(), out.data());
        Ok(Outcome::Emit)
    }

    fn overlong(
        &self,
        _: &mut (),
        _: Part,
        bytes: &[u8],
        out: &mut Output<'_, ()>,
    ) -> Result<Outcome, Stop> {
        out.data().extend_from_slice(bytes);
        Ok(Outcome::Emit)
    }
}
