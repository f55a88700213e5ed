//! Cutting the inputs into batches of whole records.
//!
//! The reader reads about [`Limits::batch_bytes`] bytes straight into a
//! batch's input buffer, then cuts at the last terminator (`memrchr` over
//! the new bytes only): everything before goes out as the batch, the partial
//! record after it is carried into the next batch. A record that does not
//! fit grows the buffer, but only up to the record limit; past it the record
//! is passed on in pieces ([`Kind::Overlong`]), so a 10 GB line needs no
//! more memory than a short one.
//!
//! Batches never span two inputs: each input's last record ends with the
//! input even without a terminator, and a UTF-8 byte order mark at the start
//! of each input is dropped. Likewise a record ends where a gzip member or
//! zstd frame ends whose data does not end in a terminator (see
//! [`UnitEnds`](super::chunks::UnitEnds)): the batch ends there, as at the
//! end of an input.

use std::io::{self, Read};
use std::sync::atomic::AtomicU64;
use std::sync::Arc;

use memchr::{memchr, memrchr};

use super::batch::{Batch, Kind, Limits};
use super::chunks::DamageAt;
use super::decode::{Decoding, Format, Input, Source};
use super::framing::{Framing, QuoteScan};
use super::transform::{Merge, Part};
use super::zstd_frames::WindowTooLarge;
use super::Error;

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The input currently being read.
struct Open {
    source: Source,
    /// Index into the reader's inputs.
    file: usize,
    /// Whether the byte order mark check is still to be done.
    at_start: bool,
    /// Whether the source returned end of input (it is not read again: a
    /// terminal would wait for a second Ctrl-D).
    exhausted: bool,
    /// Whether the carry continues an over-long record.
    overlong: bool,
    /// Decompressed bytes read from this input.
    bytes: u64,
    /// Whether a batch of this input was handed out (the first one holds
    /// the input's first record, a header line to some formats).
    handed_out: bool,
    /// With numbered lines: the line number of the next batch's first
    /// record, and where the current over-long record started.
    line: u64,
    record_line: u64,
    /// Whether the batch being filled ends at the end of a unit, with a
    /// record that has no terminator.
    unit_ended: bool,
    /// A read error held back until the records before it that end at
    /// unit ends are handed out.
    deferred: Option<io::Error>,
}

pub(crate) struct BatchReader {
    inputs: Vec<Input>,
    decoding: Decoding,
    names: Vec<String>,
    /// The next input to open.
    next: usize,
    src: Option<Open>,
    cutter: Cutter,
    /// The run's raw byte counter (for progress).
    raw_total: Arc<AtomicU64>,
    /// An error to report once the batch read before it has been handed
    /// out.
    pending: Option<Error>,
    /// An over-long record cut short by a read error, held in the carry,
    /// to hand out (from this input) after the batch of the records before
    /// it and before `pending`.
    stranded: Option<usize>,
    /// Raw bytes read from inputs that are finished.
    pub(crate) raw_in: u64,
}

/// Cuts what is read into batches.
struct Cutter {
    /// Bytes read but not yet handed out: the start of the next batch.
    carry: Vec<u8>,
    /// Whether `carry` is known to hold no record end (so a search for the
    /// next cut can skip it). With [`Framing::QuotedFields`], `scan` is
    /// then where the scan of the carry stands (else it is at the start of
    /// the carry, the start of a record).
    carry_clean: bool,
    scan: QuoteScan,
    limits: Limits,
    /// Decompressed bytes read, all inputs.
    bytes_in: u64,
    /// Records ended by the end of a unit, all inputs.
    unit_ends: u64,
}

impl BatchReader {
    pub(crate) fn new(
        inputs: Vec<Input>,
        limits: Limits,
        decoding: Decoding,
        raw_total: Arc<AtomicU64>,
    ) -> Self {
        let names = inputs.iter().map(Input::name).collect();
        BatchReader {
            inputs,
            decoding,
            names,
            next: 0,
            src: None,
            cutter: Cutter {
                carry: Vec::new(),
                carry_clean: true,
                scan: QuoteScan::default(),
                limits,
                bytes_in: 0,
                unit_ends: 0,
            },
            raw_total,
            pending: None,
            stranded: None,
            raw_in: 0,
        }
    }

    /// Decompressed bytes read, all inputs.
    pub(crate) fn bytes_in(&self) -> u64 {
        self.cutter.bytes_in
    }

    /// Records that ended where a gzip member or zstd frame ended, without
    /// a terminator, all inputs.
    pub(crate) fn unit_ends(&self) -> u64 {
        self.cutter.unit_ends
    }

    /// The inputs' names, by index (for messages).
    pub(crate) fn names(&self) -> &[String] {
        &self.names
    }

    /// Fills `batch` with the next batch. Returns `Ok(false)` at the end
    /// of the last input. After an error, the batch of complete records
    /// read before it is returned first, then the error.
    pub(crate) fn next<S: Merge>(&mut self, batch: &mut Batch<S>) -> Result<bool, Error> {
        loop {
            if let Some(file) = self.stranded.take() {
                batch.begin(file);
                batch.push_input(&self.cutter.carry);
                self.cutter.carry.clear();
                batch.kind = Kind::Overlong(Part::First);
                return Ok(true);
            }
            if let Some(e) = self.pending.take() {
                return Err(e);
            }
            let Some(open) = self.src.as_mut() else {
                if self.next == self.inputs.len() {
                    return Ok(false);
                }
                let file = self.next;
                self.next += 1;
                let source = Source::open(
                    &self.inputs[file],
                    &self.decoding,
                    Arc::clone(&self.raw_total),
                )?;
                self.src = Some(Open {
                    source,
                    file,
                    at_start: true,
                    exhausted: false,
                    overlong: false,
                    bytes: 0,
                    handed_out: false,
                    line: 1,
                    record_line: 1,
                    unit_ended: false,
                    deferred: None,
                });
                // The previous input may have ended inside quotes.
                self.cutter.scan = QuoteScan::default();
                continue;
            };
            let cutter = &mut self.cutter;
            if open.exhausted && cutter.carry.is_empty() && !open.overlong {
                self.raw_in += open.source.raw_offset();
                self.src = None;
                continue;
            }
            batch.begin(open.file);
            batch.starts_input = !std::mem::replace(&mut open.handed_out, true);
            batch.push_input(&cutter.carry);
            cutter.carry.clear();
            open.unit_ended = false;
            let filled = if open.overlong {
                cutter.fill_overlong(open, batch)
            } else {
                cutter.fill_records(open, batch)
            };
            if cutter.limits.number_lines {
                number(open, batch, cutter.limits);
            }
            if let Err(failure) = filled {
                // Nothing of this input can be trusted after the error, and
                // the run stops: report it after the batch (and after the
                // stranded over-long record, if any).
                let ReadFailure {
                    source,
                    unprocessed,
                    stranded,
                } = failure;
                self.pending = Some(read_error(&self.names, open, source, unprocessed));
                self.raw_in += open.source.raw_offset();
                self.next = self.inputs.len();
                if stranded {
                    self.stranded = Some(open.file);
                } else {
                    cutter.carry.clear();
                }
                self.src = None;
            }
            if batch.len > 0 || batch.kind != Kind::Records {
                return Ok(true);
            }
        }
    }
}

/// Stamps `batch` with the line number of its first record and counts
/// its lines.
fn number<S: Merge>(open: &mut Open, batch: &mut Batch<S>, limits: Limits) {
    let lines = limits.count_terms(&batch.input[..batch.len]);
    batch.line = match batch.kind {
        Kind::Records => open.line,
        Kind::Overlong(Part::First) => {
            open.record_line = open.line;
            open.line
        }
        Kind::Overlong(_) => open.record_line,
    };
    open.line += lines;
    if batch.kind == Kind::Overlong(Part::Last) || open.unit_ended {
        // The terminator that ended the record is not in the piece, or
        // the end of a unit ended it.
        open.line += 1;
    }
}

/// A read error, and what it leaves behind.
struct ReadFailure {
    source: io::Error,
    /// The bytes of an incomplete record dropped because of it.
    unprocessed: usize,
    /// Whether the carry holds the start of a record already over the
    /// limit, to hand out before the error (see `fill_records`).
    stranded: bool,
}

impl ReadFailure {
    fn new(source: io::Error, unprocessed: usize) -> ReadFailure {
        ReadFailure {
            source,
            unprocessed,
            stranded: false,
        }
    }
}

impl Cutter {
    /// Reads whole records into `batch` (which holds the carry). On a read
    /// error the batch keeps the complete records read before it.
    fn fill_records<S: Merge>(
        &mut self,
        open: &mut Open,
        batch: &mut Batch<S>,
    ) -> Result<(), ReadFailure> {
        let limits = self.limits;
        let mut search_from = if self.carry_clean { batch.len } else { 0 };
        self.carry_clean = true;
        let mut target = batch.len + limits.batch_bytes;
        if open.at_start {
            target = target.max(BOM.len());
        }
        loop {
            let read = read_to(open, batch, target, limits.eager, &mut self.bytes_in);
            if open.at_start && (batch.len >= BOM.len() || open.exhausted || read.is_err()) {
                open.at_start = false;
                if batch.input[..batch.len].starts_with(BOM) {
                    batch.input.copy_within(BOM.len()..batch.len, 0);
                    batch.len -= BOM.len();
                    // What was searched has moved: search it all again.
                    search_from = 0;
                    self.scan = QuoteScan::default();
                }
            }
            // The batch starts a record: an end at its start ends nothing.
            if let Some(p) = unit_end_in(open, batch.len, 1..batch.len) {
                // A unit ends inside what was read, without a terminator:
                // the batch ends there, its last record with the unit.
                // The bytes after it (and a read error) are for the next.
                if let Err(e) = read {
                    open.deferred = Some(e);
                }
                self.end_at_unit(open, batch, p);
                return Ok(());
            }
            if let Err(source) = read {
                let from = search_from.min(batch.len);
                let cut = self.last_cut(&batch.input[..batch.len], from).unwrap_or(0);
                let unprocessed = batch.len - cut;
                if unprocessed > limits.max_record.saturating_add(1) {
                    // The last record is over the limit already. Smaller
                    // batches would have handed out its first pieces
                    // before reaching the error, so hand out what there is
                    // of it too: what is written before an error must not
                    // depend on the batch size (or on -j).
                    if cut == 0 {
                        batch.kind = Kind::Overlong(Part::First);
                        return Err(ReadFailure::new(source, 0));
                    }
                    self.carry.extend_from_slice(&batch.input[cut..batch.len]);
                    batch.len = cut;
                    return Err(ReadFailure {
                        source,
                        unprocessed: 0,
                        stranded: true,
                    });
                }
                batch.len = cut;
                return Err(ReadFailure::new(source, unprocessed));
            }
            if open.exhausted {
                // The whole rest is the batch; its last record may lack
                // a terminator.
                return Ok(());
            }
            let search_from_now = search_from.min(batch.len);
            if let Some(cut) = self.last_cut(&batch.input[..batch.len], search_from_now) {
                self.carry.extend_from_slice(&batch.input[cut..batch.len]);
                batch.len = cut;
                return Ok(());
            }
            // No terminator anywhere: the batch is one partial record.
            search_from = batch.len;
            // One byte of slack for the `\r` of a `\r\n`.
            if batch.len > limits.max_record.saturating_add(1) {
                batch.kind = Kind::Overlong(Part::First);
                open.overlong = true;
                self.hold_back_cr(batch);
                return Ok(());
            }
            target = batch.len + limits.batch_bytes;
        }
    }

    /// Reads the next piece of an over-long record into `batch`.
    fn fill_overlong<S: Merge>(
        &mut self,
        open: &mut Open,
        batch: &mut Batch<S>,
    ) -> Result<(), ReadFailure> {
        let limits = self.limits;
        let target = batch.len + limits.batch_bytes;
        let read = read_to(open, batch, target, limits.eager, &mut self.bytes_in);
        let end = match read {
            Ok(()) => self.first_end(&batch.input[..batch.len]),
            Err(_) => None,
        };
        // A unit that ends at or before the terminator ends the record
        // there; the record goes on from the piece before, so an end at
        // the start of this one ends it too (the piece is then empty).
        let within = end.map_or(batch.len, |p| p + 1);
        if let Some(p) = unit_end_in(open, batch.len, 0..within) {
            if let Err(e) = read {
                open.deferred = Some(e);
            }
            self.end_at_unit(open, batch, p);
            batch.kind = Kind::Overlong(Part::Last);
            open.overlong = false;
            // The record's last line is counted as for a terminator.
            open.unit_ended = false;
            return Ok(());
        }
        if let Err(source) = read {
            // The pieces before this one are handed out already; this one
            // goes too, however short (how far the last piece got must not
            // depend on the batch size), without a terminator: the error
            // message says where the input broke.
            if batch.len > 0 {
                batch.kind = Kind::Overlong(Part::Middle);
            }
            return Err(ReadFailure::new(source, 0));
        }
        if let Some(p) = end {
            self.carry.extend_from_slice(&batch.input[p + 1..batch.len]);
            self.carry_clean = false;
            self.scan = QuoteScan::default();
            batch.len = limits.strip_cr(&batch.input[..p]).len();
            // A CSV record keeps its `\r\n` (see `quoted_records`).
            batch.crlf = batch.len < p && matches!(limits.framing, Framing::QuotedFields { .. });
            batch.kind = Kind::Overlong(Part::Last);
            open.overlong = false;
        } else if open.exhausted {
            batch.kind = Kind::Overlong(Part::Last);
            open.overlong = false;
        } else {
            batch.kind = Kind::Overlong(Part::Middle);
            self.hold_back_cr(batch);
        }
        Ok(())
    }

    /// Where the last complete record of `input` ends (after its
    /// terminator), searching from `from`: the bytes before `from` hold no
    /// record end, and with quoted fields the scan stands at `from`.
    fn last_cut(&mut self, input: &[u8], from: usize) -> Option<usize> {
        let term = self.limits.term;
        match self.limits.framing {
            Framing::Lines => memrchr(term, &input[from..]).map(|p| from + p + 1),
            Framing::QuotedFields { quote, separator } => {
                // Forward: whether a terminator ends a record depends on
                // the quotes before it.
                let (mut at, mut cut) = (from, None);
                while let Some(p) = self.scan.find_end(&input[at..], quote, separator, term) {
                    at += p + 1;
                    cut = Some(at);
                }
                cut
            }
        }
    }

    /// Where the record (an over-long one, being read in pieces) ends in
    /// `piece`: the offset of its terminator.
    fn first_end(&mut self, piece: &[u8]) -> Option<usize> {
        let term = self.limits.term;
        match self.limits.framing {
            Framing::Lines => memchr(term, piece),
            Framing::QuotedFields { quote, separator } => {
                self.scan.find_end(piece, quote, separator, term)
            }
        }
    }

    /// Ends `batch` at `p`, where a unit ends: the rest goes to the carry,
    /// to be searched from its start (a record starts there).
    fn end_at_unit<S: Merge>(&mut self, open: &mut Open, batch: &mut Batch<S>, p: usize) {
        self.carry.extend_from_slice(&batch.input[p..batch.len]);
        batch.len = p;
        self.carry_clean = false;
        self.scan = QuoteScan::default();
        self.unit_ends += 1;
        open.unit_ended = true;
    }

    /// Moves a trailing `\r` of a piece into the carry: if a `\n` follows,
    /// the two are a line ending, not data.
    fn hold_back_cr<S: Merge>(&mut self, batch: &mut Batch<S>) {
        if self.limits.term == b'\n' && batch.len > 0 && batch.input[batch.len - 1] == b'\r' {
            batch.len -= 1;
            self.carry.push(b'\r');
        }
    }
}

/// Reads into `batch` until it holds `target` bytes or the input ends, or,
/// when `eager`, until one read gave something.
fn read_to<S: Merge>(
    open: &mut Open,
    batch: &mut Batch<S>,
    target: usize,
    eager: bool,
    bytes_in: &mut u64,
) -> io::Result<()> {
    if let Some(e) = open.deferred.take() {
        return Err(e);
    }
    if batch.input.len() < target {
        batch.input.resize(target, 0);
    }
    while batch.len < target && !open.exhausted {
        match open.source.rdr.read(&mut batch.input[batch.len..target]) {
            Ok(0) => open.exhausted = true,
            Ok(n) => {
                batch.len += n;
                open.bytes += n as u64;
                *bytes_in += n as u64;
                if eager {
                    break;
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Where in a batch of `len` bytes, the last read, the first unit end
/// in `within` falls (the ends before it are past). An end at the end of
/// the bytes read waits for the next read: if the input ends there, it is
/// the input's end.
fn unit_end_in(open: &Open, len: usize, within: std::ops::Range<usize>) -> Option<usize> {
    // The batch holds the last `len` bytes read.
    let base = open.bytes - len as u64;
    let from = base + within.start as u64;
    let upto = base + within.end.min(len) as u64;
    let at = open.source.ends.take_within(from, upto)?;
    Some((at - base) as usize)
}

fn read_error(names: &[String], open: &Open, source: io::Error, unprocessed: usize) -> Error {
    let path = names[open.file].clone();
    let refused = source
        .get_ref()
        .and_then(|e| e.downcast_ref::<WindowTooLarge>());
    if let Some(w) = refused {
        return Error::ZstdWindow {
            path,
            offset: w.offset,
            window: w.window,
            limit: w.limit,
            unprocessed,
        };
    }
    let damage_at = source
        .get_ref()
        .and_then(|e| e.downcast_ref::<DamageAt>())
        .map(|d| d.offset);
    match open.source.format {
        Format::Plain => Error::Read {
            path,
            offset: open.bytes,
            unprocessed,
            source,
        },
        format => Error::Decode {
            path,
            format,
            offset: damage_at.unwrap_or_else(|| open.source.raw_offset()),
            decompressed: open.bytes,
            unprocessed,
            source,
        },
    }
}
