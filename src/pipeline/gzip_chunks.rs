//! gzip members decoded a chunk at a time, in parallel when there are
//! several.
//!
//! Crawl archives (WARC, WAT, WET, CDX ZipNum shards) and block-gzipped
//! files (BGZF) are many gzip members one after another, each decodable
//! on its own; one decoder reading them in turn keeps one core busy while
//! the others wait. [`Chunks`] cuts the compressed input into chunks of
//! about [`TARGET`] bytes, each ending where a member header begins, and
//! decodes them on `n` threads, handing out their bytes in input order.
//!
//! A gzip header does not say how long its member is, so a cut is a
//! guess: the first place at or after [`TARGET`] bytes where a gzip
//! header can begin. A guess inside a member (odds about 10^-11 per byte)
//! shows when that member runs out of input at the cut: the chunk is then
//! decoded again with the next one appended. A chunk is decoded in memory
//! by [`decode_chunk`], which depends only on the chunk's bytes, and
//! where the cuts fall depends only on the input's bytes: so what is
//! handed out, before an error too, is the same whatever the number of
//! threads (1 decodes each chunk on the calling thread).
//!
//! An input with no header within [`REACH`] bytes of a chunk's start
//! (one large member, as `gzip` makes) is decoded from there on by one
//! streaming decoder ([`Members`]), as before.

use std::collections::VecDeque;
use std::fmt;
use std::io::{self, BufReader, Cursor, Read};

use crossbeam_channel::{bounded, unbounded, Receiver, Sender};
use flate2::bufread::GzDecoder;

use super::decode::chunked_boxed;
use super::gzip_members::{next_member, Members};

/// Compressed bytes a chunk holds at least (unless the input ends), by
/// default: a few crawl records or BGZF blocks, 1 to 2 MB decompressed.
pub(crate) const TARGET: usize = 256 << 10;

/// Compressed bytes read at a time while looking for a header.
const READ: usize = 256 << 10;

/// How far past a chunk's start a member header is looked for before the
/// rest of the input is taken for one long member.
const REACH: usize = 8 << 20;

/// Decompressed bytes asked for at each call: see `DECOMPRESS_READ`.
const STEP: usize = 32 << 10;

/// How a chunk's decoding ended.
enum End {
    /// At the end of a member, at the end of the chunk.
    Clean,
    /// Inside a member that goes on past the chunk (not the last chunk):
    /// the cut was not a member boundary.
    Cut,
    /// Damage, after `out`, this many bytes into the chunk.
    Failed(io::Error, usize),
}

/// A decoded chunk.
struct Decoded {
    input: Vec<u8>,
    out: Vec<u8>,
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

/// A chunk for a decoding thread: its bytes, a buffer for its output,
/// whether it is the last, and where its result goes.
type Job = (Vec<u8>, Vec<u8>, bool, Sender<Decoded>);

/// What [`Chunks`] is doing.
enum Mode {
    Chunked,
    /// One long member: the rest is streamed.
    Streaming(Box<dyn Read + Send>),
    Failed(io::Error),
    Done,
}

/// The decompressed bytes of a gzip input; see the module documentation.
pub(crate) struct Chunks {
    inner: Box<dyn Read + Send>,
    /// Compressed bytes read and not yet cut.
    buf: Vec<u8>,
    /// Where `buf` begins in the compressed input.
    offset: u64,
    eof: bool,
    /// Whether the cutting has stopped: no header within reach.
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
    mode: Mode,
}

impl Chunks {
    /// Decodes the gzip stream `inner` with `threads` decoding threads
    /// (at most 1: on the calling thread), in chunks of at least `target`
    /// compressed bytes.
    pub(crate) fn new(
        inner: Box<dyn Read + Send>,
        threads: usize,
        target: usize,
    ) -> io::Result<Chunks> {
        let jobs = if threads > 1 {
            let (tx, rx) = unbounded::<Job>();
            for _ in 0..threads {
                let rx = rx.clone();
                std::thread::Builder::new()
                    .name("normurl-inflate".into())
                    .spawn(move || {
                        for (input, out, last, done) in rx {
                            let _ = done.send(decode_chunk(input, out, last));
                        }
                    })?;
            }
            Some(tx)
        } else {
            None
        };
        Ok(Chunks {
            inner,
            buf: Vec::new(),
            offset: 0,
            eof: false,
            long: false,
            jobs,
            depth: threads.max(1) + 1,
            target: target.clamp(1, REACH),
            queue: VecDeque::new(),
            spare: Vec::new(),
            out: Vec::new(),
            pos: 0,
            mode: Mode::Chunked,
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
    /// there is none (end of input, or no header within reach).
    fn cut(&mut self) -> io::Result<bool> {
        if self.long {
            return Ok(false);
        }
        let mut from = self.target;
        let at = loop {
            // Headers are looked for in the first REACH bytes only, and
            // judged with all their bytes read: where a cut falls must not
            // depend on how much a read returned.
            let seen = self.buf.len().min(REACH);
            match header_from(&self.buf[..seen], from) {
                Scan::Found(p) => break Some(p),
                Scan::Upto(p) => from = p,
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
                if let Err(e) = jobs.send((input, out, last, tx)) {
                    let (input, out, last, tx) = e.into_inner();
                    let _ = tx.send(decode_chunk(input, out, last));
                }
            }
            // Decoded when it is needed, below.
            None => {
                let _ = tx.send(Decoded {
                    input,
                    out,
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
        let mut decoded = self.result(front.result, front.last);
        let mut last = front.last;
        while matches!(decoded.end, End::Cut) && !last {
            // Not a member boundary: decode again with the next chunk.
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
            decoded = decode_chunk(input, decoded.out, last);
        }
        // Output buffers go round: fresh ones of a few MB each would cost
        // page faults, and memory the allocator keeps.
        let old = std::mem::replace(&mut self.out, decoded.out);
        self.spare.push(old);
        self.pos = 0;
        if let End::Failed(source, at) = decoded.end {
            let offset = front.start + at as u64;
            self.mode = Mode::Failed(io::Error::new(source.kind(), DamageAt { offset, source }));
        }
        Ok(())
    }

    /// A chunk's result: decoded by a thread, or here.
    fn result(&self, rx: Receiver<Decoded>, last: bool) -> Decoded {
        match rx.recv() {
            Ok(d) if self.jobs.is_some() => d,
            Ok(d) => decode_chunk(d.input, d.out, last),
            Err(_) => Decoded {
                input: Vec::new(),
                out: Vec::new(),
                end: End::Failed(io::Error::other("a gzip decoding thread stopped"), 0),
            },
        }
    }

    /// Streams `head`, the unread bytes and the rest of the input through
    /// one decoder (`head` begins with a member).
    fn streaming(&mut self, head: Vec<u8>) -> Mode {
        let buffered = [head, std::mem::take(&mut self.buf)].concat();
        if buffered.is_empty() && !self.long {
            return Mode::Done;
        }
        let inner = std::mem::replace(&mut self.inner, Box::new(io::empty()));
        let rest = Cursor::new(buffered).chain(inner);
        let members = Members::new(BufReader::with_capacity(1 << 16, rest));
        Mode::Streaming(chunked_boxed(Box::new(members)))
    }
}

impl Read for Chunks {
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

impl fmt::Display for DamageAt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.source.fmt(f)
    }
}

impl std::error::Error for DamageAt {}

/// The compressed bytes of a chunk and its output buffer, whatever became
/// of its decoding.
fn parts_of(rx: Receiver<Decoded>) -> io::Result<(Vec<u8>, Vec<u8>)> {
    rx.recv()
        .map(|d| (d.input, d.out))
        .map_err(|_| io::Error::other("a gzip decoding thread stopped"))
}

/// Where the first possible gzip member header at or after `from` begins
/// (the magic number, deflate, no reserved flag, a known XFL and OS), or
/// up to where there is none.
fn header_from(buf: &[u8], from: usize) -> Scan {
    let mut at = from;
    while at < buf.len() {
        let Some(p) = memchr::memchr(0x1f, &buf[at..]).map(|p| at + p) else {
            break;
        };
        match buf[p..] {
            [0x1f, 0x8b, 8, flags, _, _, _, _, xfl, os, ..]
                if flags & 0xe0 == 0 && matches!(xfl, 0 | 2 | 4) && (os <= 13 || os == 255) =>
            {
                return Scan::Found(p)
            }
            // Not all read yet: judged when it is.
            _ if buf.len() - p < 10 => return Scan::Upto(p),
            _ => at = p + 1,
        }
    }
    Scan::Upto(at.max(buf.len()))
}

/// What [`header_from`] found.
enum Scan {
    /// A header at this position.
    Found(usize),
    /// None before this position.
    Upto(usize),
}

/// Decodes the members of `input` (which begins with one). `last`: no
/// more input follows, so a member cut short is damage, not a wrong cut.
fn decode_chunk(input: Vec<u8>, mut out: Vec<u8>, last: bool) -> Decoded {
    out.clear();
    let end = members(&input, last, &mut out);
    Decoded { input, out, end }
}

fn members(input: &[u8], last: bool, out: &mut Vec<u8>) -> End {
    let mut rest = input;
    loop {
        let mut member = GzDecoder::new(rest);
        loop {
            let len = out.len();
            out.resize(len + STEP, 0);
            match member.read(&mut out[len..]) {
                Ok(n) => {
                    out.truncate(len + n);
                    if n == 0 {
                        break;
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => out.truncate(len),
                Err(e) => {
                    out.truncate(len);
                    let at = input.len() - member.get_ref().len();
                    let ran_out = at == input.len() || e.kind() == io::ErrorKind::UnexpectedEof;
                    return if ran_out && !last {
                        End::Cut
                    } else {
                        End::Failed(e, at)
                    };
                }
            }
        }
        rest = member.into_inner();
        let padded = rest.first() == Some(&0);
        match next_member(&mut rest) {
            Ok(true) => {}
            // Zeros are padding only at the very end of the input.
            Ok(false) if padded && !last => return End::Failed(garbage(), input.len()),
            Ok(false) => return End::Clean,
            Err(e) => return End::Failed(e, input.len() - rest.len()),
        }
    }
}

fn garbage() -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        "trailing garbage after the last gzip member",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(bytes).unwrap();
        e.finish().unwrap()
    }

    /// Everything `Chunks` hands out, and its error.
    fn decode(bytes: &[u8], threads: usize) -> (Vec<u8>, Option<String>) {
        let mut chunks =
            Chunks::new(Box::new(Cursor::new(bytes.to_vec())), threads, TARGET).unwrap();
        let mut out = Vec::new();
        let mut buf = vec![0; 100_000];
        loop {
            match chunks.read(&mut buf) {
                Ok(0) => return (out, None),
                Ok(n) => out.extend_from_slice(&buf[..n]),
                Err(e) => {
                    let at = e.get_ref().and_then(|e| e.downcast_ref::<DamageAt>());
                    let at = at.map_or(String::new(), |d| format!(" at {}", d.offset));
                    return (out, Some(format!("{e}{at}")));
                }
            }
        }
    }

    /// Text that compresses to about `n` bytes: random digits.
    fn text(seed: u64, lines: usize) -> Vec<u8> {
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

    #[test]
    fn many_members_at_every_thread_count() {
        let parts: Vec<Vec<u8>> = (0..40).map(|i| text(i, 7000)).collect();
        let whole: Vec<u8> = parts.concat();
        let packed: Vec<u8> = parts.iter().flat_map(|p| gzip(p)).collect();
        assert!(packed.len() > 2 * TARGET, "{}", packed.len());
        for threads in [1, 2, 5] {
            assert_eq!(decode(&packed, threads), (whole.clone(), None), "{threads}");
        }
        // One long member: streamed past REACH.
        let long: Vec<u8> = (0..150).flat_map(|i| text(i, 7000)).collect();
        let one = gzip(&long);
        assert!(one.len() > REACH, "{}", one.len());
        assert_eq!(decode(&one, 2), (long, None));
        // A header look-alike inside a member's data: a wrong cut, decoded
        // again with the next chunk.
        let mut fake = parts[0].clone();
        fake.extend_from_slice(&text(99, 60_000));
        let stored = {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::none());
            let mut data = fake.clone();
            let at = TARGET + 100;
            data[at..at + 10].copy_from_slice(&[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);
            e.write_all(&data).unwrap();
            (e.finish().unwrap(), data)
        };
        let (packed, data) = stored;
        let packed = [packed, gzip(b"tail\n")].concat();
        for threads in [1, 3] {
            assert_eq!(
                decode(&packed, threads),
                ([&data[..], b"tail\n"].concat(), None),
                "{threads}"
            );
        }
    }

    #[test]
    fn damage_gives_the_same_bytes_at_every_thread_count() {
        let parts: Vec<Vec<u8>> = (0..30).map(|i| text(i, 5000)).collect();
        let packed: Vec<u8> = parts.iter().flat_map(|p| gzip(p)).collect();
        let cases = [
            packed[..packed.len() / 2].to_vec(),
            [&packed[..], b"junk"].concat(),
            [&packed[..], &[0, 0][..], &gzip(b"x\n")].concat(),
            {
                let mut p = packed.clone();
                let mid = p.len() / 2;
                p[mid..mid + 16].fill(0xff);
                p
            },
        ];
        for bytes in cases {
            let one = decode(&bytes, 1);
            assert!(
                one.1.as_ref().is_some_and(|e| e.contains(" at ")),
                "{:?}",
                one.1
            );
            for threads in [2, 4] {
                assert_eq!(decode(&bytes, threads), one, "{threads}");
            }
        }
    }
}
