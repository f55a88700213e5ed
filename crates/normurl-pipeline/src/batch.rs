//! A batch of records and the worker step that transforms it.
//!
//! A batch is the unit of parallel work: about a block of input bytes cut at
//! a record terminator, plus the output buffers the transform writes into.
//! Batches travel reader → worker → writer → reader, so their buffers are
//! allocated once and recycled for the whole run.

use memchr::memchr_iter;

use super::framing::{Framing, QuoteScan};
use super::keys::{Keyed, Split};
use super::transform::{Merge, Outcome, Output, Part, Record, SortKey, Stop, Transform};

/// The record-splitting parameters shared by the reader and the workers.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    /// The record terminator.
    pub(crate) term: u8,
    /// Records longer than this go to [`Transform::overlong`].
    pub(crate) max_record: usize,
    /// How many bytes the reader tries to put in one batch.
    pub(crate) batch_bytes: usize,
    /// Hand out the complete records of each read at once, without
    /// waiting to fill the batch (line-buffered mode).
    pub(crate) eager: bool,
    /// Where records end.
    pub(crate) framing: Framing,
    /// Whether batches carry the line number of their first record.
    pub(crate) number_lines: bool,
}

impl Limits {
    /// Drops the `\r` of a `\r\n` line ending (only when lines end in
    /// `\n`: with NUL-terminated records a `\r` is data).
    #[inline]
    pub(crate) fn strip_cr<'a>(&self, record: &'a [u8]) -> &'a [u8] {
        match record {
            [rest @ .., b'\r'] if self.term == b'\n' => rest,
            _ => record,
        }
    }

    /// How many terminators `bytes` holds (lines, for numbering).
    #[inline]
    pub(crate) fn count_terms(&self, bytes: &[u8]) -> u64 {
        memchr_iter(self.term, bytes).count() as u64
    }
}

/// What a batch's input holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Whole records, each followed by the terminator except possibly the
    /// last record of an input.
    Records,
    /// One piece of a record longer than the limit, without terminator.
    Overlong(Part),
}

pub(crate) struct Batch<S> {
    /// Input bytes in `input[..len]`. The rest of the vector is initialized
    /// scratch, kept so that refilling a recycled batch does not zero it.
    pub(crate) input: Vec<u8>,
    pub(crate) len: usize,
    pub(crate) kind: Kind,
    /// Index of the input this batch comes from.
    pub(crate) file: usize,
    /// Whether the batch starts at the start of its input.
    pub(crate) starts_input: bool,
    /// The input line number (1-based, per input) where the batch's first
    /// record starts (for an over-long record's pieces: where the record
    /// starts); 0 when lines are not numbered.
    pub(crate) line: u64,
    /// The transform's output, terminators included.
    pub(crate) data: Vec<u8>,
    /// The side output (see [`Output::side`]) and where each record's
    /// entry starts in it.
    pub(crate) side: Vec<u8>,
    pub(crate) side_entries: Vec<(u32, u32)>,
    pub(crate) keys: Vec<Keyed>,
    /// The sort keys of the keyed records, in record order.
    pub(crate) sort_keys: Vec<u8>,
    pub(crate) sort_ranges: Vec<SortKey>,
    /// Records completed in this batch (for an over-long record: 1 in its
    /// last piece, 0 in the others). When `stop` is set, the records before
    /// the one that stopped.
    pub(crate) records: u64,
    /// Records written to `data` (terminators pushed).
    pub(crate) emitted: u64,
    pub(crate) stats: S,
    pub(crate) stop: Option<Stop>,
    /// In the [`Part::Last`] piece of an over-long record with quoted
    /// fields: the record ended in `\r\n`, which its output ends in too.
    pub(crate) crlf: bool,
    /// With [`KeyShards`](super::KeyShards): each keyed record's verdict,
    /// in the order of `keys`, and the buffers that decide them.
    pub(crate) verdicts: Vec<u8>,
    pub(crate) split: Split,
    /// The first error of [`KeyShards::decide`](super::KeyShards::decide)
    /// for this batch.
    pub(crate) decide_error: Option<std::io::Error>,
}

impl<S: Merge> Batch<S> {
    pub(crate) fn new() -> Batch<S> {
        Batch {
            input: Vec::new(),
            len: 0,
            kind: Kind::Records,
            file: 0,
            starts_input: false,
            line: 0,
            data: Vec::new(),
            side: Vec::new(),
            side_entries: Vec::new(),
            keys: Vec::new(),
            sort_keys: Vec::new(),
            sort_ranges: Vec::new(),
            records: 0,
            emitted: 0,
            stats: S::default(),
            stop: None,
            crlf: false,
            verdicts: Vec::new(),
            split: Default::default(),
            decide_error: None,
        }
    }

    /// Starts refilling this batch with input from `file`.
    pub(crate) fn begin(&mut self, file: usize) {
        self.len = 0;
        self.kind = Kind::Records;
        self.file = file;
        self.starts_input = false;
        self.line = 0;
        self.crlf = false;
    }

    /// Appends `bytes` to the input.
    pub(crate) fn push_input(&mut self, bytes: &[u8]) {
        let end = self.len + bytes.len();
        if self.input.len() < end {
            self.input.resize(end, 0);
        }
        self.input[self.len..end].copy_from_slice(bytes);
        self.len = end;
    }

    fn clear_output(&mut self) {
        self.data.clear();
        self.side.clear();
        self.side_entries.clear();
        self.keys.clear();
        self.sort_keys.clear();
        self.sort_ranges.clear();
        self.records = 0;
        self.emitted = 0;
        self.stats = S::default();
        self.stop = None;
        self.verdicts.clear();
        self.decide_error = None;
    }
}

/// Runs `t` on every record of `batch`, filling its output buffers. The
/// same function serves the sequential and the parallel pipeline.
pub(crate) fn process<T: Transform>(
    t: &T,
    state: &mut T::State,
    batch: &mut Batch<T::Stats>,
    limits: Limits,
) {
    batch.clear_output();
    let Batch {
        input,
        len,
        kind,
        data,
        side,
        side_entries,
        keys,
        sort_keys,
        sort_ranges,
        records,
        emitted,
        stats,
        stop,
        starts_input,
        line,
        crlf,
        ..
    } = batch;
    let input = &input[..*len];
    // Output buffers grow to the size of the output once, then are reused.
    if data.capacity() < input.len() + input.len() / 8 {
        data.reserve(input.len() + input.len() / 8);
    }
    let mut out = Output {
        data,
        side,
        stats,
        side_entries,
        sort_keys,
        sort_ranges,
        index: 0,
        starts_input: *starts_input,
        first_line: *line,
        inner_lines: 0,
        side_started: false,
        key: None,
    };
    let result = match *kind {
        Kind::Records => records_loop(t, state, input, &mut out, keys, limits, records, emitted),
        Kind::Overlong(part) => {
            let r = t.overlong(state, part, input, &mut out);
            if part == Part::Last {
                match r {
                    Ok(outcome) => {
                        *records = 1;
                        if outcome == Outcome::Emit {
                            if *crlf {
                                out.data.push(b'\r');
                            }
                            out.data.push(limits.term);
                            *emitted = 1;
                        }
                        Ok(())
                    }
                    Err(s) => Err(s),
                }
            } else {
                r.map(|_| ())
            }
        }
    };
    if let Err(s) = result {
        *stop = Some(s);
    }
}

/// Transforms the records of a [`Kind::Records`] batch. On a stop,
/// `records` is the number of records completed before it.
#[allow(clippy::too_many_arguments)]
fn records_loop<T: Transform>(
    t: &T,
    state: &mut T::State,
    input: &[u8],
    out: &mut Output<'_, T::Stats>,
    keys: &mut Vec<Keyed>,
    limits: Limits,
    records: &mut u64,
    emitted: &mut u64,
) -> Result<(), Stop> {
    // One validation per batch instead of one per record: long runs of
    // ASCII take the fast path of `from_utf8`. Records are then slices of
    // the valid string at terminators (ASCII, so always char boundaries).
    let text = if T::WANTS_STR {
        std::str::from_utf8(input).ok()
    } else {
        None
    };
    let record_at = |range: std::ops::Range<usize>| match text.and_then(|t| t.get(range.clone())) {
        Some(t) => Record::from_str(t),
        None => Record::new(&input[range]),
    };
    // Inlined into the loop over records: as a call, its prologue,
    // epilogue and result added instructions to every line of the default
    // run (docs/performance-history.md).
    // (In a tuple because stable Rust takes no attribute on a closure
    // bound by `let`.)
    // `crlf`: the record ended in `\r\n`, which its output ends in too
    // (only with quoted fields: see `quoted_records`).
    let (mut one,) = (
        #[inline(always)]
        |record: Record<'_>, crlf: bool, out: &mut Output<'_, T::Stats>| -> Result<(), Stop> {
            out.side_started = false;
            out.key = None;
            let begin = out.data.len();
            let outcome = if record.bytes().len() > limits.max_record {
                // A long record that arrived whole (it fit in the reader's
                // buffer): same treatment as one that arrived in pieces.
                t.overlong(state, Part::First, record.bytes(), out)?;
                let outcome = t.overlong(state, Part::Last, &[], out)?;
                out.key = None;
                outcome
            } else {
                t.record(state, record, out)?
            };
            match outcome {
                Outcome::Emit => {
                    if crlf {
                        out.data.push(b'\r');
                    }
                    out.data.push(limits.term);
                    *emitted += 1;
                    if let Some(key) = out.key {
                        keys.push(Keyed {
                            start: begin as u32,
                            end: out.data.len() as u32,
                            key,
                        });
                    }
                }
                Outcome::Skip => out.data.truncate(begin),
            }
            *records += 1;
            out.index += 1;
            Ok(())
        },
    );
    match limits.framing {
        Framing::Lines => lines(input, limits, record_at, &mut one, out),
        Framing::QuotedFields { quote, separator } => {
            let ends = |scan: &mut QuoteScan, bytes: &[u8]| {
                scan.find_end(bytes, quote, separator, limits.term)
            };
            quoted_records(input, limits, record_at, ends, &mut one, out)
        }
    }
}

/// Hands every line of `input` to `one`.
#[inline]
fn lines<'i, S>(
    input: &'i [u8],
    limits: Limits,
    record_at: impl Fn(std::ops::Range<usize>) -> Record<'i>,
    one: &mut impl FnMut(Record<'i>, bool, &mut Output<'_, S>) -> Result<(), Stop>,
    out: &mut Output<'_, S>,
) -> Result<(), Stop> {
    let mut start = 0;
    for end in memchr_iter(limits.term, input) {
        let stripped = limits.strip_cr(&input[start..end]).len();
        let record = record_at(start..start + stripped);
        start = end + 1;
        let begin = out.data.len();
        if let Err(s) = one(record, false, out) {
            out.data.truncate(begin);
            return Err(s);
        }
    }
    // The last record of an input may lack its terminator; the reader cuts
    // every other batch right after a terminator.
    if start < input.len() {
        let begin = out.data.len();
        if let Err(s) = one(record_at(start..input.len()), false, out) {
            out.data.truncate(begin);
            return Err(s);
        }
    }
    Ok(())
}

/// Hands every record of `input` to `one`, with [`Framing::QuotedFields`]:
/// `ends` finds the end of the record that starts where the scan is. The
/// reader cuts batches at record ends, so each batch starts a record.
///
/// A record that ends in `\r\n` (RFC 4180's line break) is written with
/// `\r\n`, one that ends in `\n` with `\n`: the output of a CSV file
/// keeps its line breaks, as it keeps those inside quoted fields.
#[inline]
fn quoted_records<'i, S>(
    input: &'i [u8],
    limits: Limits,
    record_at: impl Fn(std::ops::Range<usize>) -> Record<'i>,
    ends: impl Fn(&mut QuoteScan, &[u8]) -> Option<usize>,
    one: &mut impl FnMut(Record<'i>, bool, &mut Output<'_, S>) -> Result<(), Stop>,
    out: &mut Output<'_, S>,
) -> Result<(), Stop> {
    let mut start = 0;
    while start < input.len() {
        let mut scan = QuoteScan::default();
        let (record, crlf, next) = match ends(&mut scan, &input[start..]) {
            Some(p) => {
                let stripped = limits.strip_cr(&input[start..start + p]).len();
                let crlf = stripped < p;
                (record_at(start..start + stripped), crlf, start + p + 1)
            }
            // The last record of the input, without a terminator; with a
            // quote left open, the rest of the input. Its final line
            // break, if it has one, is taken as its terminator (the
            // reader cannot tell whether it was meant to be in the quoted
            // field or end the record), so that the record is written back
            // as it was read, with one line break at the end, not two.
            // (Not when the record may be over the limit: the reader may
            // then have handed it out in pieces, final line break
            // included, and how it is written must not depend on that.)
            None if scan.in_quotes() => {
                let rest = &input[start..];
                let short = rest.len() <= limits.max_record.saturating_add(1);
                let (len, crlf) = match rest.strip_suffix(&[limits.term]).filter(|_| short) {
                    Some(body) => {
                        let stripped = limits.strip_cr(body).len();
                        (stripped, stripped < body.len())
                    }
                    None => (rest.len(), false),
                };
                let record = record_at(start..start + len).with_unclosed_quote(true);
                (record, crlf, input.len())
            }
            None => (record_at(start..input.len()), false, input.len()),
        };
        let begin = out.data.len();
        if let Err(s) = one(record, crlf, out) {
            out.data.truncate(begin);
            return Err(s);
        }
        if out.first_line != 0 {
            // The line breaks inside the record move the next one down.
            out.inner_lines += limits.count_terms(record.bytes());
        }
        start = next;
    }
    Ok(())
}
