//! Compressed input cut into independent chunks, decoded in parallel when
//! there are several, handed out in input order.
//!
//! Crawl archives (WARC, WAT, WET, CDX ZipNum shards), block-gzipped files
//! (BGZF) and zstd files written in frames (`pzstd`, `normurl -o x.zst`)
//! are many gzip members or zstd frames one after another, each decodable
//! on its own; one decoder reading them in turn keeps one core busy while
//! the others wait. [`Chunks`] cuts the compressed input into chunks of
//! about `target` bytes, each ending where a member or frame begins, and
//! decodes them on `n` threads, handing out their bytes in input order.
//! Where a unit may begin, and how a chunk is decoded, is the format's
//! ([`Units`]: `gzip_chunks.rs`, `zstd_chunks.rs`).
//!
//! A chunk is decoded in memory by [`Units::decode`], which depends only
//! on the chunk's bytes, and where the cuts fall depends only on the
//! input's bytes: so what is handed out, before an error too, is the same
//! whatever the number of threads (1 decodes each chunk on the calling
//! thread).
//!
//! An input with no cut within [`REACH`] bytes of a chunk's start (one
//! large gzip member or zstd frame, as `gzip` and `zstd` make), or where
//! the format says so, is decoded from there on by one streaming decoder
//! ([`Units::stream`]).

use std::collections::VecDeque;
use std::fmt;
use std::io::{self, Cursor, Read};
use std::sync::{Arc, Mutex, PoisonError};

use crossbeam_channel::{bounded, unbounded, Receiver, Sender};

/// Compressed bytes a chunk holds at least (unless the input ends), by
/// default: a few crawl records, BGZF blocks or zstd frames, 1 to 2 MB
/// decompressed.
pub(crate) const TARGET: usize = 256 << 10;

/// Compressed bytes read at a time while looking for a cut.
const READ: usize = 256 << 10;

/// How far past a chunk's start a cut is looked for before the rest of
/// the input is taken for one long unit.
pub(crate) const REACH: usize = 8 << 20;

/// Decompressed bytes asked for at each call: see `DECOMPRESS_READ`.
pub(crate) const STEP: usize = 32 << 10;

/// The most decompressed bytes a chunk is decoded to in memory (plus one
/// [`STEP`]): a chunk that decodes to more ([`End::Overflow`]: a
/// compression ratio over 32, as of a file of one repeated byte) is
/// dropped, and the input is streamed from its start by one decoder.
/// `threads + 1` chunks are in flight, so memory is bounded by decoded
/// bytes, whatever the compression ratio.
pub(crate) const OUT_CAP: usize = 8 << 20;

/// A compressed format made of independent units (gzip members, zstd
/// frames): where chunks may be cut, and how they are decoded.
pub(crate) trait Units: Send + Sync + 'static {
    /// Where to cut `buf`, which begins with a unit: the first boundary
    /// at or after `target` bytes; or up to where there is none, to look
    /// on from there when more is read (`from`: where the last look
    /// ended). `eof`: `buf` holds the rest of the input. The answer must
    /// depend only on the bytes of `buf`, never on how much of it is read.
    fn scan(&self, buf: &[u8], from: usize, target: usize, eof: bool) -> Scan;

    /// Decodes `input` (which begins with a unit, `start` bytes into the
    /// input) into `out`, and pushes onto `ends` where in `out` each unit
    /// whose data does not end in `term` ends (see [`UnitEnds`]). `last`:
    /// no more input follows.
    fn decode(
        &self,
        input: &[u8],
        start: u64,
        last: bool,
        out: &mut Vec<u8>,
        ends: &mut Vec<usize>,
    ) -> End;

    /// A streaming decoder of `rest`, which begins with a unit `start`
    /// bytes into the input and `marks.at` bytes into the decompressed
    /// output; it reports unit ends to `marks`.
    fn stream(
        &self,
        rest: Box<dyn Read + Send>,
        start: u64,
        marks: Marks,
    ) -> io::Result<Box<dyn Read + Send>>;
}

/// Where records end because a unit (gzip member, zstd frame) ends: the
/// offsets in the decompressed input of the ends of units whose data is
/// not empty and does not end in the record terminator, in order.
///
/// A ZipNum CDX shard is gzip members of whole lines, without a line
/// break after each member's last line, as pywb writes and reads them:
/// decompressed as one stream, each member's last line would run into
/// the next member's first. The decoders push these ends as they find
/// them, always before they hand out the bytes after an end, and the
/// reader ends a record at each (`reader.rs`). Units whose data ends in
/// the terminator (almost all) leave nothing here.
#[derive(Debug, Default)]
pub(crate) struct UnitEnds {
    queue: Mutex<VecDeque<u64>>,
}

impl UnitEnds {
    fn push(&self, at: u64) {
        self.queue
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push_back(at);
    }

    /// Takes the first end at or after `from` and before `upto`, dropping
    /// the ends before `from` (those that are past).
    pub(crate) fn take_within(&self, from: u64, upto: u64) -> Option<u64> {
        let mut queue = self.queue.lock().unwrap_or_else(PoisonError::into_inner);
        while let Some(&at) = queue.front() {
            if at >= from {
                if at < upto {
                    queue.pop_front();
                    return Some(at);
                }
                return None;
            }
            queue.pop_front();
        }
        None
    }
}

/// What a streaming decoder needs to report unit ends: where they go,
/// the terminator, and how many decompressed bytes came before it.
pub(crate) struct Marks {
    pub(crate) ends: Arc<UnitEnds>,
    pub(crate) term: u8,
    /// The offset in the decompressed input of the next byte out.
    pub(crate) at: u64,
    /// The last byte out of the current unit, if any.
    last: Option<u8>,
}

impl Marks {
    pub(crate) fn new(ends: Arc<UnitEnds>, term: u8, at: u64) -> Marks {
        Marks {
            ends,
            term,
            at,
            last: None,
        }
    }

    /// `bytes` came out of the current unit.
    pub(crate) fn out(&mut self, bytes: &[u8]) {
        if let Some(&b) = bytes.last() {
            self.last = Some(b);
            self.at += bytes.len() as u64;
        }
    }

    /// The current unit ended; `piece`: it is a piece of a stream cut at
    /// any byte, whose end ends nothing (see [`is_bgzf`]).
    pub(crate) fn unit_end(&mut self, piece: bool) {
        if self.last.take().is_some_and(|b| b != self.term) && !piece {
            self.ends.push(self.at);
        }
    }
}

/// Whether a gzip member's extra field (RFC 1952 §2.3.1.1) has BGZF's
/// `BC` subfield: `bgzip` cuts a stream into members at any byte (every
/// 65280 bytes), so the end of such a member is not the end of a record
/// (SAM/BAM Format Specification §4.1).
pub(crate) fn is_bgzf(extra: &[u8]) -> bool {
    let mut rest = extra;
    while let [si1, si2, lo, hi, tail @ ..] = rest {
        if [*si1, *si2] == *b"BC" {
            return true;
        }
        let len = usize::from(u16::from_le_bytes([*lo, *hi]));
        rest = tail.get(len..).unwrap_or_default();
    }
    false
}

/// Pushes onto `ends` the end of the unit whose data is `out[from..]`,
/// if that is not empty and does not end in `term`.
pub(crate) fn unit_end(out: &[u8], from: usize, term: u8, ends: &mut Vec<usize>) {
    if out.len() > from && out.last() != Some(&term) {
        ends.push(out.len());
    }
}

/// What [`Units::scan`] found.
pub(crate) enum Scan {
    /// A cut at this position.
    Found(usize),
    /// None before this position.
    Upto(usize),
    /// Stream from the chunk's start on (one long unit, or bytes that are
    /// not units, for the streaming decoder to report).
    Stream,
}

/// How a chunk's decoding ended.
pub(crate) enum End {
    /// At the end of a unit, at the end of the chunk.
    Clean,
    /// Inside a unit that goes on past the chunk (not the last chunk):
    /// the cut was not a boundary.
    Cut,
    /// Damage, after `out`: the error the reader returns.
    Failed(io::Error),
    /// More than [`OUT_CAP`] bytes decoded, and not done: `out` is to be
    /// dropped and the chunk streamed.
    Overflow,
}

/// A decoded chunk.
struct Decoded {
    input: Vec<u8>,
    out: Vec<u8>,
    /// Where in `out` units end without a terminator.
    ends: Vec<usize>,
    end: End,
}

/// A chunk cut from the input, being (or to be) decoded.
struct Pending {
    /// The decoded chunk, when a thread has done it.
    result: Receiver<Decoded>,
    last: bool,
    /// Where the chunk begins in the compressed input.
    start: u64,
}

/// A chunk for a decoding thread: its bytes, where they begin, a buffer
/// for its output, whether it is the last, and where its result goes.
type Job = (Vec<u8>, u64, Vec<u8>, bool, Sender<Decoded>);

/// What [`Chunks`] is doing.
enum Mode {
    Chunked,
    /// One long unit: the rest is streamed.
    Streaming(Box<dyn Read + Send>),
    Failed(io::Error),
    Done,
}

/// The decompressed bytes of an input of [`Units`]; see the module
/// documentation.
pub(crate) struct Chunks<U: Units> {
    units: Arc<U>,
    inner: Box<dyn Read + Send>,
    /// Compressed bytes read and not yet cut.
    buf: Vec<u8>,
    /// Where `buf` begins in the compressed input.
    offset: u64,
    eof: bool,
    /// Whether the cutting has stopped: the rest is streamed.
    long: bool,
    /// Decoding threads' queue; `None`: decode on the calling thread.
    jobs: Option<Sender<Job>>,
    depth: usize,
    /// Compressed bytes a chunk holds at least.
    target: usize,
    queue: VecDeque<Pending>,
    /// Output buffers to reuse.
    spare: Vec<Vec<u8>>,
    out: Vec<u8>,
    pos: usize,
    /// Where `out` begins in the decompressed input.
    out_at: u64,
    /// Where unit ends go, and the terminator.
    ends: Arc<UnitEnds>,
    term: u8,
    mode: Mode,
    /// The largest decoded chunk held so far, in bytes: for the tests of
    /// the memory bound.
    peak: usize,
}

impl<U: Units> Chunks<U> {
    /// Decodes `inner`, which begins `offset` bytes into the input, with
    /// `threads` decoding threads (at most 1: on the calling thread), in
    /// chunks of at least `target` compressed bytes. The ends of units
    /// whose data does not end in `term` go to `ends`.
    pub(crate) fn new(
        units: U,
        inner: Box<dyn Read + Send>,
        offset: u64,
        threads: usize,
        target: usize,
        (ends, term): (Arc<UnitEnds>, u8),
    ) -> io::Result<Chunks<U>> {
        let units = Arc::new(units);
        let jobs = if threads > 1 {
            let (tx, rx) = unbounded::<Job>();
            for _ in 0..threads {
                let rx = rx.clone();
                let units = Arc::clone(&units);
                std::thread::Builder::new()
                    .name("normurl-inflate".into())
                    .spawn(move || {
                        for (input, start, out, last, done) in rx {
                            let decoded = decode_chunk(&*units, input, start, out, last);
                            let _ = done.send(decoded);
                        }
                    })?;
            }
            Some(tx)
        } else {
            None
        };
        Ok(Chunks {
            units,
            inner,
            buf: Vec::new(),
            offset,
            eof: false,
            long: false,
            jobs,
            depth: threads.max(1) + 1,
            target: target.clamp(1, REACH),
            queue: VecDeque::new(),
            spare: Vec::new(),
            out: Vec::new(),
            pos: 0,
            out_at: 0,
            ends,
            term,
            mode: Mode::Chunked,
            peak: 0,
        })
    }

    /// Reads until `buf` holds `n` bytes or the input ends.
    fn fill(&mut self, n: usize) -> io::Result<()> {
        while self.buf.len() < n && !self.eof {
            let old = self.buf.len();
            self.buf.resize(n, 0);
            let read = self.inner.read(&mut self.buf[old..]);
            self.buf.truncate(old + *read.as_ref().unwrap_or(&0));
            match read {
                Ok(0) => self.eof = true,
                Ok(_) => {}
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// Cuts the next chunk off `buf` and starts decoding it; false if
    /// there is none (end of input, or the rest is to be streamed).
    fn cut(&mut self) -> io::Result<bool> {
        if self.long {
            return Ok(false);
        }
        let mut from = 0;
        let at = loop {
            // Cuts are looked for in the first REACH bytes only, and
            // judged with all their bytes read: where a cut falls must not
            // depend on how much a read returned.
            let seen = self.buf.len().min(REACH);
            let eof = self.eof && seen == self.buf.len();
            match self.units.scan(&self.buf[..seen], from, self.target, eof) {
                Scan::Found(p) => break Some(p),
                Scan::Upto(p) => from = p,
                Scan::Stream => {
                    self.long = true;
                    return Ok(false);
                }
            }
            if self.eof || self.buf.len() >= REACH {
                break None;
            }
            self.fill((self.buf.len() + READ).min(REACH))?;
        };
        if self.buf.is_empty() {
            return Ok(false);
        }
        let Some(at) = at else {
            if self.eof {
                // The rest is one chunk: no cut needed.
                let input = std::mem::take(&mut self.buf);
                self.start(input, true);
                return Ok(true);
            }
            self.long = true;
            return Ok(false);
        };
        let rest = self.buf[at..].to_vec();
        self.buf.truncate(at);
        let input = std::mem::replace(&mut self.buf, rest);
        let last = self.eof && self.buf.is_empty();
        self.start(input, last);
        Ok(true)
    }

    fn start(&mut self, input: Vec<u8>, last: bool) {
        let start = self.offset;
        self.offset += input.len() as u64;
        let (tx, rx) = bounded(1);
        let out = self.spare.pop().unwrap_or_default();
        match &self.jobs {
            Some(jobs) => {
                if let Err(e) = jobs.send((input, start, out, last, tx)) {
                    let (input, start, out, last, tx) = e.into_inner();
                    let _ = tx.send(decode_chunk(&*self.units, input, start, out, last));
                }
            }
            // Decoded when it is needed, below.
            None => {
                let _ = tx.send(Decoded {
                    input,
                    out,
                    ends: Vec::new(),
                    end: End::Cut,
                });
            }
        }
        self.queue.push_back(Pending {
            result: rx,
            last,
            start,
        });
    }

    /// The next chunk's bytes into `out`, or the next mode.
    fn next_chunk(&mut self) -> io::Result<()> {
        while self.queue.len() < self.depth && self.cut()? {}
        let Some(front) = self.queue.pop_front() else {
            self.mode = self.streaming(Vec::new());
            return Ok(());
        };
        let mut decoded = self.result(&front);
        let mut last = front.last;
        while matches!(decoded.end, End::Cut) && !last {
            // Not a boundary: decode again with the next chunk.
            if self.queue.is_empty() && !self.cut()? {
                self.mode = self.streaming(decoded.input);
                return Ok(());
            }
            let Some(next) = self.queue.pop_front() else {
                break;
            };
            last = next.last;
            let mut input = decoded.input;
            let (next_input, next_out) = parts_of(next.result)?;
            input.extend_from_slice(&next_input);
            self.spare.push(next_out);
            decoded = decode_chunk(&*self.units, input, front.start, decoded.out, last);
        }
        self.peak = self.peak.max(decoded.out.len());
        if matches!(decoded.end, End::Overflow) {
            // Too large to hold: this chunk, those after it in flight and
            // the rest of the input go through one streaming decoder.
            // No chunk is decoded from now on: their buffers are freed.
            let mut head = decoded.input;
            while let Some(next) = self.queue.pop_front() {
                let (next_input, _) = parts_of(next.result)?;
                head.extend_from_slice(&next_input);
            }
            self.out_at += self.out.len() as u64;
            self.out = Vec::new();
            self.spare = Vec::new();
            self.pos = 0;
            self.mode = self.streaming(head);
            return Ok(());
        }
        // Output buffers go round: fresh ones of a few MB each would cost
        // page faults, and memory the allocator keeps.
        let old = std::mem::replace(&mut self.out, decoded.out);
        self.out_at += old.len() as u64;
        self.spare.push(old);
        self.pos = 0;
        // Before any of the chunk's bytes go out.
        for &end in &decoded.ends {
            self.ends.push(self.out_at + end as u64);
        }
        if let End::Failed(e) = decoded.end {
            self.mode = Mode::Failed(e);
        }
        Ok(())
    }

    /// The largest decoded chunk held so far, in bytes.
    #[cfg(test)]
    pub(crate) fn peak(&self) -> usize {
        self.peak
    }

    /// A chunk's result: decoded by a thread, or here.
    fn result(&self, pending: &Pending) -> Decoded {
        match pending.result.recv() {
            Ok(d) if self.jobs.is_some() => d,
            Ok(d) => decode_chunk(&*self.units, d.input, pending.start, d.out, pending.last),
            Err(_) => Decoded {
                input: Vec::new(),
                out: Vec::new(),
                ends: Vec::new(),
                end: End::Failed(stopped()),
            },
        }
    }

    /// Streams `head`, the unread bytes and the rest of the input through
    /// one decoder (`head` begins with a unit, and ends where the unread
    /// bytes begin).
    fn streaming(&mut self, head: Vec<u8>) -> Mode {
        let start = self.offset - head.len() as u64;
        let buffered = [head, std::mem::take(&mut self.buf)].concat();
        if buffered.is_empty() && !self.long {
            return Mode::Done;
        }
        let inner = std::mem::replace(&mut self.inner, Box::new(io::empty()));
        let rest = Cursor::new(buffered).chain(inner);
        // Every byte of `out` has gone out by now.
        let at = self.out_at + self.out.len() as u64;
        let marks = Marks::new(Arc::clone(&self.ends), self.term, at);
        match self.units.stream(Box::new(rest), start, marks) {
            Ok(rdr) => Mode::Streaming(rdr),
            Err(e) => Mode::Failed(e),
        }
    }
}

impl<U: Units> Read for Chunks<U> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            if self.pos < self.out.len() {
                let n = buf.len().min(self.out.len() - self.pos);
                buf[..n].copy_from_slice(&self.out[self.pos..self.pos + n]);
                self.pos += n;
                return Ok(n);
            }
            match &mut self.mode {
                Mode::Chunked => self.next_chunk()?,
                Mode::Streaming(rdr) => return rdr.read(buf),
                Mode::Failed(_) => {
                    if let Mode::Failed(e) = std::mem::replace(&mut self.mode, Mode::Done) {
                        return Err(e);
                    }
                }
                Mode::Done => return Ok(0),
            }
        }
    }
}

/// Damage found in a chunk, with where: a precise offset, where the bytes
/// read so far would depend on how far ahead the chunks were cut.
#[derive(Debug)]
pub(crate) struct DamageAt {
    /// In the compressed input.
    pub(crate) offset: u64,
    source: io::Error,
}

impl DamageAt {
    /// `source`, `offset` bytes into the compressed input.
    pub(crate) fn error(source: io::Error, offset: u64) -> io::Error {
        io::Error::new(source.kind(), DamageAt { offset, source })
    }
}

impl fmt::Display for DamageAt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.source.fmt(f)
    }
}

impl std::error::Error for DamageAt {}

fn stopped() -> io::Error {
    io::Error::other("a decoding thread stopped")
}

/// The compressed bytes of a chunk and its output buffer, whatever became
/// of its decoding.
fn parts_of(rx: Receiver<Decoded>) -> io::Result<(Vec<u8>, Vec<u8>)> {
    rx.recv().map(|d| (d.input, d.out)).map_err(|_| stopped())
}

/// Decodes `input`, which begins `start` bytes into the input, into `out`
/// (cleared first).
fn decode_chunk<U: Units + ?Sized>(
    units: &U,
    input: Vec<u8>,
    start: u64,
    mut out: Vec<u8>,
    last: bool,
) -> Decoded {
    out.clear();
    let mut ends = Vec::new();
    let end = units.decode(&input, start, last, &mut out, &mut ends);
    Decoded {
        input,
        out,
        ends,
        end,
    }
}

/// What the gzip and zstd chunk tests share.
#[cfg(test)]
pub(super) mod test_support {
    use std::io::{self, Read, Write};

    /// Everything `input` hands out, in 100,000-byte reads, and the error
    /// that stopped it, if any.
    pub(crate) fn read_all(mut input: impl Read) -> (Vec<u8>, Option<io::Error>) {
        let mut out = Vec::new();
        let mut buf = vec![0; 100_000];
        loop {
            match input.read(&mut buf) {
                Ok(0) => return (out, None),
                Ok(n) => out.extend_from_slice(&buf[..n]),
                Err(e) => return (out, Some(e)),
            }
        }
    }

    /// What [`read_all`] read, which must have ended without an error.
    pub(crate) fn whole((out, err): (Vec<u8>, Option<io::Error>)) -> Vec<u8> {
        assert!(err.is_none(), "{err:?}");
        out
    }

    /// Every unit end in `ends`, in order.
    pub(crate) fn drain(ends: &super::UnitEnds) -> Vec<u64> {
        std::iter::from_fn(|| ends.take_within(0, u64::MAX)).collect()
    }

    /// `lines` lines of URLs from a seeded LCG: text that compresses
    /// about as URL lists do.
    pub(crate) fn url_text(seed: u64, lines: usize) -> Vec<u8> {
        let mut x = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
        let mut t = Vec::new();
        for _ in 0..lines {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            writeln!(t, "http://h{}.example/{}", x >> 40, x % 1000).unwrap();
        }
        t
    }
}
