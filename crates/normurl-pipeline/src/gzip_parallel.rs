//! One large gzip member of a regular file, inflated on several threads
//! by the `rapidgzip-core` crate (feature `parallel-gzip`).
//!
//! A deflate stream is one chain: each block may copy from the 32 KiB
//! before it, so one decoder reads it start to end on one core. rapidgzip
//! (Knespel and Brunst, "Rapidgzip: Parallel Decompression and Seeking in
//! Gzip Files Using Cache Prefetching", HPDC 2023; pugz before it) guesses
//! block starts at chunk offsets, decodes each chunk with markers in place
//! of the unknown window, and replaces the markers once the previous
//! chunk's last 32 KiB are known. It needs positional reads, so it is used
//! for regular files only; standard input and pipes keep the sequential
//! decoder (`gzip_members.rs`).
//!
//! It is used where `chunks.rs` streams: from a member's start on, when
//! no cut was found within [`REACH`](super::chunks::REACH) bytes. The
//! crate decodes members one after another but does not say where each
//! ends, and a member end ends a record (see
//! [`UnitEnds`](super::chunks::UnitEnds)); so it is used only when the
//! rest of the file is one member: no byte after the member's header
//! looks like the start of another ([`one_member`]), which the crate's
//! member count confirms at the end (a second member it found anyway is
//! an error, never a silent merge). A file that ends in a zero byte may be
//! zero-padded, which `gzip -d` accepts and the crate does not: it keeps
//! the sequential decoder too (so does a member whose size modulo 4 GiB is
//! under 16 MiB, the last byte of its ISIZE field being zero: 1 in 256 of
//! large members).
//!
//! What it gives before an error is every byte decoded before the fault,
//! at any thread count (the crate's property, checked by the tests below
//! against flate2), and the error is located in the compressed input
//! ([`DamageAt`]). The member's CRC-32 and size are checked at its end, as
//! flate2 does. Memory is the crate's bound: `threads + 2` chunks of at
//! most 4 MiB decoded each, whatever the compression ratio.

use std::fs::File;
use std::io::{self, Read};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use rapidgzip_core::{DecodeError, Decoder, DecoderReader, GzipErrorKind, ReadAt};

use super::chunks::{DamageAt, Marks, Scan};

/// A regular file that a gzip input was opened from, and its raw-byte
/// counters (the input's own and the run's, as `decode.rs` counts them).
#[derive(Clone)]
pub(crate) struct Seekable {
    pub(crate) file: Arc<File>,
    pub(crate) counters: [Arc<AtomicU64>; 2],
}

/// Compressed bytes scanned at a time by [`one_member`].
const SCAN: usize = 1 << 20;

/// Whether the file from `start` (where a member begins) to its end is
/// one gzip member: no header look-alike after the first ten bytes (the
/// same test that finds members to cut at, `gzip_chunks.rs`, without its
/// OS byte check, so that a member of an unusual OS is not missed), and
/// not a zero last byte (padding, which the crate refuses). Returns the
/// member's length. Reads the file once (a memchr pass: a small share of
/// inflating it).
pub(crate) fn one_member(file: &File, start: u64) -> io::Result<Option<u64>> {
    let len = file.metadata()?.len();
    let Some(size) = len.checked_sub(start).filter(|&n| n > 18) else {
        return Ok(None);
    };
    let mut last = [0u8];
    read_exact_at(file, &mut last, len - 1)?;
    if last[0] == 0 {
        return Ok(None);
    }
    let mut buf = vec![0u8; SCAN + 9];
    let mut at = start + 10;
    while at < len {
        let n = (len - at).min(buf.len() as u64) as usize;
        read_exact_at(file, &mut buf[..n], at)?;
        if let Scan::Found(_) = header_any_os(&buf[..n]) {
            return Ok(None);
        }
        if at + n as u64 == len {
            break;
        }
        // The last 9 bytes again with the next block: a header across
        // the boundary is seen whole.
        at += (n - 9) as u64;
    }
    Ok(Some(size))
}

/// Where a gzip member header may begin in `buf`: the magic number,
/// deflate, no reserved flag, a known XFL; any OS byte.
fn header_any_os(buf: &[u8]) -> Scan {
    let mut at = 0;
    while let Some(p) = memchr::memchr(0x1f, &buf[at..]).map(|p| at + p) {
        if let [0x1f, 0x8b, 8, flags, _, _, _, _, xfl, _, ..] = buf[p..] {
            if flags & 0xe0 == 0 && matches!(xfl, 0 | 2 | 4) {
                return Scan::Found(p);
            }
        }
        at = p + 1;
    }
    Scan::Upto(buf.len())
}

fn read_exact_at(file: &File, mut buf: &mut [u8], mut offset: u64) -> io::Result<()> {
    while !buf.is_empty() {
        match positional(file, buf, offset) {
            Ok(0) => return Err(io::ErrorKind::UnexpectedEof.into()),
            Ok(n) => {
                buf = &mut buf[n..];
                offset += n as u64;
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

#[cfg(unix)]
fn positional(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(file, buf, offset)
}

#[cfg(windows)]
fn positional(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    std::os::windows::fs::FileExt::seek_read(file, buf, offset)
}

/// `len` bytes of a file from `start`, as the crate reads them; counts the
/// highest byte read into the raw counters (for progress and offsets).
struct Window {
    file: Arc<File>,
    start: u64,
    len: u64,
    counters: [Arc<AtomicU64>; 2],
    /// The end of the highest range read, from `start`.
    high: AtomicU64,
}

impl ReadAt for Window {
    fn len(&self) -> io::Result<u64> {
        Ok(self.len)
    }

    fn read_at(&self, offset: u64, buffer: &mut [u8]) -> io::Result<usize> {
        let room = self.len.saturating_sub(offset);
        let want = buffer
            .len()
            .min(usize::try_from(room).unwrap_or(usize::MAX));
        if want == 0 {
            return Ok(0);
        }
        let n = positional(&self.file, &mut buffer[..want], self.start + offset)?;
        let end = offset + n as u64;
        let before = self.high.fetch_max(end, Ordering::Relaxed);
        if end > before {
            for counter in &self.counters {
                counter.fetch_add(end - before, Ordering::Relaxed);
            }
        }
        Ok(n)
    }
}

/// The decoded bytes of the one member at `start` (of `len` bytes, as
/// [`one_member`] found), decoded on `threads` threads; reports its end to
/// `marks`.
pub(crate) fn reader(
    seekable: &Seekable,
    start: u64,
    len: u64,
    threads: usize,
    marks: Marks,
) -> io::Result<Box<dyn Read + Send>> {
    // The bytes already read (and counted) by the chunk reader before it
    // gave up looking for a cut are not counted again.
    let counted = seekable.counters[0].load(Ordering::Relaxed);
    let window = Window {
        file: Arc::clone(&seekable.file),
        start,
        len,
        counters: seekable.counters.clone(),
        high: AtomicU64::new(counted.saturating_sub(start).min(len)),
    };
    let decoder = Decoder::builder()
        .decoder_threads(threads.max(1))
        .build()
        .map_err(io::Error::other)?;
    let inner = decoder
        .reader(window)
        .map_err(|e| located(&e, start, len))?;
    Ok(Box::new(Parallel {
        inner: Some(inner),
        start,
        len,
        marks,
    }))
}

/// The crate's reader, with errors located and the member end reported.
struct Parallel {
    /// `None` once it has ended.
    inner: Option<DecoderReader>,
    start: u64,
    len: u64,
    marks: Marks,
}

impl Read for Parallel {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let Some(inner) = &mut self.inner else {
            return Ok(0);
        };
        let n = match inner.read(buf) {
            Ok(n) => n,
            Err(e) => {
                self.inner = None;
                let located = e
                    .get_ref()
                    .and_then(|d| d.downcast_ref::<DecodeError>())
                    .map(|d| located(d, self.start, self.len));
                return Err(located.unwrap_or(e));
            }
        };
        if n > 0 || buf.is_empty() {
            self.marks.out(&buf[..n]);
            return Ok(n);
        }
        let Some(inner) = self.inner.take() else {
            return Ok(0);
        };
        let report = inner
            .finish()
            .map_err(|e| located(&e, self.start, self.len))?;
        if report.member_count != 1 {
            let e = io::Error::new(
                io::ErrorKind::InvalidData,
                "a second gzip member whose header is not a usual one (XFL byte \
                 not 0, 2 or 4) follows a member of over 8 MiB: decompress it \
                 with `gzip -dc` and pipe it in",
            );
            return Err(DamageAt::error(e, self.start + self.len));
        }
        self.marks.unit_end(false);
        Ok(0)
    }
}

/// The crate's error, as an error located in the compressed input (its
/// offsets are from `start`), with a message in this crate's terms.
fn located(e: &DecodeError, start: u64, len: u64) -> io::Error {
    use io::ErrorKind::{InvalidData, UnexpectedEof};
    let (kind, offset, message) = match e {
        DecodeError::InvalidDeflate { bit_offset, reason } => {
            let text = reason.to_string();
            let kind = if text.contains("truncated") {
                UnexpectedEof
            } else {
                InvalidData
            };
            (
                kind,
                bit_offset / 8,
                format!("invalid deflate data: {text}"),
            )
        }
        // As the sequential decoder says it (`gzip_members.rs`).
        DecodeError::InvalidGzip {
            offset,
            reason: GzipErrorKind::TrailingGarbage,
        } => (
            InvalidData,
            *offset,
            "trailing garbage after the last gzip member".to_string(),
        ),
        DecodeError::InvalidGzip { offset, reason } => {
            (InvalidData, *offset, format!("invalid gzip data: {reason}"))
        }
        DecodeError::ChecksumMismatch { .. } => (
            InvalidData,
            len,
            "the data does not match its CRC-32 checksum".to_string(),
        ),
        DecodeError::SizeMismatch { .. } => (
            InvalidData,
            len,
            "the data does not match its stored size".to_string(),
        ),
        DecodeError::Io {
            offset: Some(offset),
            source,
        } => (source.kind(), *offset, source.to_string()),
        other => (InvalidData, len, other.to_string()),
    };
    DamageAt::error(io::Error::new(kind, message), start + offset.min(len))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chunks::test_support::{drain, read_all, url_text};
    use crate::chunks::UnitEnds;
    use std::io::Write;

    fn gzip(bytes: &[u8], level: u32) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(level));
        e.write_all(bytes).unwrap();
        e.finish().unwrap()
    }

    fn stored(dir: &tempfile::TempDir, bytes: &[u8]) -> Seekable {
        let path = dir.path().join("x.gz");
        std::fs::write(&path, bytes).unwrap();
        Seekable {
            file: Arc::new(File::open(path).unwrap()),
            counters: Default::default(),
        }
    }

    /// What the crate's reader gives for `bytes` (one member from 0), in
    /// reads of `step` bytes, with the unit ends it reported and the
    /// error's offset.
    fn parallel(bytes: &[u8], threads: usize) -> (Vec<u8>, Option<(io::ErrorKind, u64)>, Vec<u64>) {
        let dir = tempfile::tempdir().unwrap();
        let seekable = stored(&dir, bytes);
        let ends = Arc::new(UnitEnds::default());
        let marks = Marks::new(Arc::clone(&ends), b'\n', 0);
        let (out, err) = match reader(&seekable, 0, bytes.len() as u64, threads, marks) {
            Ok(rdr) => read_all(rdr),
            Err(e) => (Vec::new(), Some(e)),
        };
        let err = err.map(|e| {
            let at = e.get_ref().and_then(|d| d.downcast_ref::<DamageAt>());
            (e.kind(), at.map_or(u64::MAX, |d| d.offset))
        });
        (out, err, drain(&ends))
    }

    /// The sequential decoder (flate2's, through `gzip_members.rs`) on
    /// `bytes`, 1 KiB at a time: every byte it decodes before an error,
    /// and whether there was one.
    fn sequential(bytes: &[u8]) -> (Vec<u8>, bool) {
        let mut d = crate::gzip_members::Members::new(io::BufReader::new(bytes));
        let mut out = Vec::new();
        let mut buf = [0u8; 1024];
        loop {
            match d.read(&mut buf) {
                Ok(0) => return (out, false),
                Ok(n) => out.extend_from_slice(&buf[..n]),
                Err(_) => return (out, true),
            }
        }
    }

    /// A seeded generator of test data: URL lines, runs of one byte and
    /// noise, so that blocks are stored, fixed and dynamic.
    fn data(seed: u64, len: usize) -> Vec<u8> {
        let mut x = seed | 1;
        let mut out = url_text(seed, len / 60);
        while out.len() < len {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            match x % 3 {
                0 => out.extend(std::iter::repeat_n(
                    b'a' + (x % 26) as u8,
                    (x % 5000) as usize,
                )),
                1 => out.extend((0..(x % 3000)).map(|i| (x >> (i % 50)) as u8)),
                _ => out.extend_from_slice(&url_text(x, (x % 200) as usize)),
            }
        }
        out.truncate(len);
        out
    }

    #[test]
    fn same_bytes_as_flate2_at_every_thread_count() {
        for (seed, len, level) in [
            (1, 12 << 20, 6),
            (2, 9 << 20, 1),
            (3, 5 << 20, 9),
            (4, 0, 6),
        ] {
            let text = data(seed, len);
            let packed = gzip(&text, level);
            for threads in [1, 2, 3, 8] {
                let (out, err, ends) = parallel(&packed, threads);
                assert!(err.is_none(), "{seed} {threads}: {err:?}");
                assert!(out == text, "{seed} at {threads} threads");
                // The member's end is reported as a sequential decoder does.
                let end = (!text.is_empty() && !text.ends_with(b"\n")).then_some(len as u64);
                assert_eq!(ends, end.into_iter().collect::<Vec<_>>());
            }
        }
    }

    #[test]
    fn truncated_and_corrupt_give_the_bytes_before_then_an_error() {
        let text = data(7, 10 << 20);
        let packed = gzip(&text, 6);
        let mut cases = Vec::new();
        for cut in [5, 30, packed.len() / 3, packed.len() - 4, packed.len() - 1] {
            cases.push(packed[..cut].to_vec());
        }
        for (at, byte) in [(packed.len() / 2, 0xff), (packed.len() / 5, 0x00)] {
            let mut bad = packed.clone();
            bad[at..at + 64].fill(byte);
            cases.push(bad);
        }
        // The CRC-32 and the size.
        for from_end in [8, 3] {
            let mut bad = packed.clone();
            let i = bad.len() - from_end;
            bad[i] ^= 1;
            cases.push(bad);
        }
        cases.push([&packed[..], b"junk"].concat());
        for bytes in &cases {
            let (flate2_out, flate2_failed) = sequential(bytes);
            assert!(flate2_failed);
            let one = parallel(bytes, 1);
            let (out, err, _) = &one;
            let (_, offset) = err.expect("an error");
            assert!(offset <= bytes.len() as u64, "{offset}");
            // Nothing invented: flate2's bytes, and at most what it would
            // have handed out in the read that failed.
            assert!(out.len() <= flate2_out.len() + (1 << 10), "{}", out.len());
            assert_eq!(out[..], flate2_out[..out.len().min(flate2_out.len())]);
            for threads in [2, 3, 8] {
                assert_eq!(parallel(bytes, threads), one, "{threads}");
            }
        }
        // Cut short: every byte before the cut, at the cut.
        let cut = packed.len() / 3;
        let (out, err, _) = parallel(&packed[..cut], 2);
        assert_eq!(err, Some((io::ErrorKind::UnexpectedEof, cut as u64)));
        assert_eq!(out, sequential(&packed[..cut]).0);
    }

    #[test]
    fn only_a_lone_member_is_taken() {
        let dir = tempfile::tempdir().unwrap();
        // Over 16 MiB: the last byte of its size field (ISIZE, little
        // endian) is not zero.
        let one = gzip(&data(5, 17 << 20), 1);
        let len = one.len() as u64;
        assert!(one.len() > SCAN + 10 && one[one.len() - 1] != 0);
        let seekable = stored(&dir, &one);
        assert_eq!(one_member(&seekable.file, 0).unwrap(), Some(len));
        // Two members, zero padding: no.
        let two = [&one[..], &gzip(b"x\n", 6)].concat();
        assert_eq!(one_member(&stored(&dir, &two).file, 0).unwrap(), None);
        let padded = [&one[..], &[0, 0][..]].concat();
        assert_eq!(one_member(&stored(&dir, &padded).file, 0).unwrap(), None);
        // A size field ending in zero (under 16 MiB) may be padding: no.
        let small = gzip(&data(6, 1 << 20), 6);
        assert_eq!(one_member(&stored(&dir, &small).file, 0).unwrap(), None);
        // A header of any OS byte across the scan's block boundary: no.
        let mut across = one.clone();
        let at = 10 + SCAN - 12;
        across[at..at + 10].copy_from_slice(&[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 99]);
        assert_eq!(one_member(&stored(&dir, &across).file, 0).unwrap(), None);
        // From an offset: the member there alone.
        let after = [&gzip(b"z\n", 6)[..], &one].concat();
        let from = after.len() as u64 - len;
        assert_eq!(
            one_member(&stored(&dir, &after).file, from).unwrap(),
            Some(len)
        );
    }
}
