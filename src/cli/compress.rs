//! Compressed output: `-o out.gz`, `.zst`, `.bz2`, `.xz`, `--compress
//! gzip|zstd|bzip2|xz`, and a rejects file with one of those names. An
//! output named for a compression normurl does not write (`.lz4`, `.zip`,
//! `.Z`, ...) is refused before anything is written (`config/compress.rs`).
//!
//! The output is cut into blocks of about [`BLOCK`] bytes, each ending
//! with a record (at the last terminator; a record longer than a block is
//! cut), each compressed on its own (a gzip member, a zstd frame, a bzip2
//! or xz stream) on the run's threads and written in order: compression
//! at the speed of the cores, and the result is a stream that `gzip -dc`,
//! `zstd -dc`, `bzip2 -dc` and `xz -dc` decode as a whole (they read
//! concatenated members, frames and streams), and that normurl decodes.
//! Members end with records because normurl, as pywb reads a ZipNum
//! shard, ends a record where a member's data ends without a terminator.

use std::collections::VecDeque;
use std::io::{self, Write};

use super::config::compress::Codec;
use super::Failure;
use crossbeam_channel::{bounded, unbounded, Receiver, Sender};

/// Uncompressed bytes per member or frame: large enough that a member's
/// header and a fresh dictionary cost little in size
/// (docs/performance-history.md), small enough to keep every thread busy.
const BLOCK: usize = 1 << 20;

/// `inner`, compressed with `codec` on `threads` threads if it is not
/// [`Codec::None`]. `name` is the output's name, for the error.
pub fn writer<'a>(
    inner: Box<dyn Write + 'a>,
    (codec, term): (Codec, u8),
    threads: usize,
    name: &str,
) -> Result<Box<dyn Write + 'a>, Failure> {
    if codec == Codec::None {
        return Ok(inner);
    }
    match Compressed::new(inner, (codec, term), threads) {
        Ok(w) => Ok(Box::new(w)),
        Err(source) => Err(Failure::Io {
            path: name.to_string(),
            source,
        }),
    }
}

/// A block for a compressing thread, and where its result goes.
type Job = (Vec<u8>, Codec, Sender<Vec<u8>>);

/// Writes to `inner` compressed with `codec`, on `threads` threads; see
/// the module documentation. [`Write::flush`] ends the stream: what was
/// written is then complete members (frames) in `inner`.
pub struct Compressed<W: Write> {
    inner: W,
    codec: Codec,
    /// The records' terminator, where blocks end.
    term: u8,
    block: Vec<u8>,
    jobs: Sender<Job>,
    /// Compressed blocks, in output order.
    queue: VecDeque<Receiver<Vec<u8>>>,
    depth: usize,
}

impl<W: Write> Compressed<W> {
    /// `codec` must not be [`Codec::None`] (then write to `inner`);
    /// blocks end after a `term` where there is one.
    pub fn new(inner: W, (codec, term): (Codec, u8), threads: usize) -> io::Result<Compressed<W>> {
        let (jobs, rx) = unbounded::<Job>();
        let threads = threads.max(1);
        for _ in 0..threads {
            let rx = rx.clone();
            std::thread::Builder::new()
                .name("normurl-compress".into())
                .spawn(move || {
                    for (block, codec, done) in rx {
                        let _ = done.send(compress(&block, codec));
                    }
                })?;
        }
        Ok(Compressed {
            inner,
            codec,
            term,
            block: Vec::with_capacity(BLOCK),
            jobs,
            queue: VecDeque::new(),
            depth: 2 * threads,
        })
    }

    /// Hands the current block to the threads, first writing out the
    /// oldest ones while too many are pending (memory stays bounded).
    /// Unless `whole`, the bytes after its last terminator start the next
    /// block.
    fn submit(&mut self, whole: bool) -> io::Result<()> {
        while self.queue.len() >= self.depth {
            self.write_oldest()?;
        }
        let cut = match memchr::memrchr(self.term, &self.block) {
            Some(p) if !whole => p + 1,
            _ => self.block.len(),
        };
        let mut next = Vec::with_capacity(BLOCK);
        next.extend_from_slice(&self.block[cut..]);
        self.block.truncate(cut);
        let block = std::mem::replace(&mut self.block, next);
        let (tx, rx) = bounded(1);
        if let Err(e) = self.jobs.send((block, self.codec, tx)) {
            // No thread left (cannot happen while `self` holds the
            // sender and the threads do not panic): compress here.
            let (block, codec, tx) = e.into_inner();
            let _ = tx.send(compress(&block, codec));
        }
        self.queue.push_back(rx);
        Ok(())
    }

    fn write_oldest(&mut self) -> io::Result<()> {
        let Some(rx) = self.queue.pop_front() else {
            return Ok(());
        };
        let packed = rx
            .recv()
            .map_err(|_| io::Error::other("a compressing thread stopped"))?;
        self.inner.write_all(&packed)
    }
}

impl<W: Write> Write for Compressed<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let room = BLOCK - self.block.len();
        let n = buf.len().min(room);
        self.block.extend_from_slice(&buf[..n]);
        if self.block.len() == BLOCK {
            self.submit(false)?;
        }
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        if !self.block.is_empty() {
            self.submit(true)?;
        }
        while !self.queue.is_empty() {
            self.write_oldest()?;
        }
        self.inner.flush()
    }
}

/// `block` as one gzip member (level 6, gzip's default), one zstd frame
/// (level 3, zstd's default), one bzip2 stream (level 9, bzip2's
/// default) or one xz stream (preset 6, xz's default, with a dictionary
/// no larger than the block, which is all it can use).
fn compress(block: &[u8], codec: Codec) -> Vec<u8> {
    match codec {
        Codec::Gzip => {
            let out = Vec::with_capacity(block.len() / 3);
            let mut e = flate2::write::GzEncoder::new(out, flate2::Compression::default());
            // Writing to a Vec does not fail.
            let _ = e.write_all(block);
            e.finish().unwrap_or_default()
        }
        Codec::Zstd => zstd::bulk::compress(block, 3).unwrap_or_default(),
        Codec::Bzip2 => {
            let out = Vec::with_capacity(block.len() / 3);
            let mut e = bzip2::write::BzEncoder::new(out, bzip2::Compression::best());
            let _ = e.write_all(block);
            e.finish().unwrap_or_default()
        }
        Codec::Xz => {
            let mut options = lzma_rust2::XzOptions::with_preset(6);
            let fits = u32::try_from(block.len()).unwrap_or(u32::MAX);
            options.lzma_options.dict_size = options.lzma_options.dict_size.min(fits.max(4096));
            let out = Vec::with_capacity(block.len() / 3);
            match lzma_rust2::XzWriter::new(out, options) {
                Ok(mut e) => {
                    let _ = e.write_all(block);
                    e.finish().unwrap_or_default()
                }
                Err(_) => Vec::new(),
            }
        }
        Codec::None => block.to_vec(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn blocks_decode_to_what_was_written() {
        let text: Vec<u8> = (0..400_000u32)
            .flat_map(|i| format!("http://h{i}.example/{}\n", i % 7).into_bytes())
            .collect();
        assert!(text.len() > 3 * BLOCK);
        for codec in [Codec::Gzip, Codec::Zstd, Codec::Bzip2, Codec::Xz] {
            // bzip2 and xz are slow to write: one thread count for them.
            let counts: &[usize] = match codec {
                Codec::Gzip | Codec::Zstd => &[1, 3],
                _ => &[3],
            };
            for &threads in counts {
                let mut w = Compressed::new(Vec::new(), (codec, b'\n'), threads).unwrap();
                for piece in text.chunks(100_000) {
                    w.write_all(piece).unwrap();
                }
                w.flush().unwrap();
                let mut out = Vec::new();
                match codec {
                    Codec::Gzip => flate2::read::MultiGzDecoder::new(&w.inner[..])
                        .read_to_end(&mut out)
                        .unwrap(),
                    Codec::Bzip2 => bzip2::read::MultiBzDecoder::new(&w.inner[..])
                        .read_to_end(&mut out)
                        .unwrap(),
                    Codec::Xz => lzma_rust2::XzReader::new(&w.inner[..], true)
                        .read_to_end(&mut out)
                        .unwrap(),
                    _ => zstd::stream::read::Decoder::new(&w.inner[..])
                        .unwrap()
                        .read_to_end(&mut out)
                        .unwrap(),
                };
                assert!(out == text, "{codec:?} {threads}");
                assert!(w.inner.len() < text.len() / 3, "{codec:?}");
                // Each member (frame) ends with a line. (bzip2 and xz
                // streams end with one too; normurl reads them as one
                // stream, so nothing hangs on it.)
                if !matches!(codec, Codec::Gzip | Codec::Zstd) {
                    continue;
                }
                let mut rest = io::BufReader::new(&w.inner[..]);
                let mut members = 0;
                while !io::BufRead::fill_buf(&mut rest).unwrap().is_empty() {
                    let mut member = Vec::new();
                    rest = match codec {
                        Codec::Gzip => {
                            let mut d = flate2::bufread::GzDecoder::new(rest);
                            d.read_to_end(&mut member).unwrap();
                            d.into_inner()
                        }
                        _ => {
                            let d = zstd::stream::read::Decoder::with_buffer(rest).unwrap();
                            let mut d = d.single_frame();
                            d.read_to_end(&mut member).unwrap();
                            d.finish()
                        }
                    };
                    assert!(member.ends_with(b"\n"), "{codec:?} {threads}");
                    members += 1;
                }
                assert!(members > 3, "{codec:?} {threads}: {members}");
            }
        }
    }
}
