//! Indexing a `.warc.gz` file on all cores. Its gzip members are
//! independent, but where they start is known only by inflating the ones
//! before; so the file is cut into chunks at guessed member starts (the
//! gzip magic, where inflating gives `WARC/`), each chunk is indexed on
//! its own thread from its start until a member starts in the next chunk,
//! and the lines are written in order, a chunk's only once the chunk
//! before it ended exactly where it starts: then its start was a real
//! member's and its lines are those a reading from the file's start
//! gives. Where a guess was wrong (the magic inside compressed data, and
//! a `WARC/` out of it), the rest of the file is read in one go from the
//! last chunk's end, so the output is the same either way.

use std::fs::File;
use std::io::{self, BufReader, Read, Seek, SeekFrom};
use std::ops::Range;
use std::path::Path;

use flate2::read::GzDecoder;
use normurl::normalize::Invalid;
use rayon::prelude::*;

/// The smallest chunk: below, a file is read in one go.
const MIN_CHUNK: u64 = 8 << 20;

/// How far past a chunk's guessed start its member start is looked for.
const SCAN: u64 = 4 << 20;

/// A chunk's index lines, and where it ended.
pub struct ChunkOut {
    /// Where the chunk starts (a member's start, if the guess was right).
    pub start: u64,
    /// The lines, one after the other.
    pub lines: Vec<u8>,
    /// Each line's range in `lines`, its `--dedup` key hash or why it has
    /// no URL.
    pub items: Vec<(Range<usize>, Result<u128, Invalid>)>,
    /// Where the first member that is not the chunk's starts (the file's
    /// end after the last chunk).
    pub end: u64,
    /// The error that stopped the chunk, after its lines.
    pub error: Option<io::Error>,
}

/// The chunk starts of the gzip WARC `path` (of `len` bytes) for
/// `threads` threads: 0 and a guessed member start near each multiple of
/// the chunk size; just 0 for a small file, one thread, or a file that
/// is not a gzip WARC (an ARC, plain or zstd file).
pub fn chunk_starts(path: &Path, len: u64, threads: usize, chunk: Option<u64>) -> Vec<u64> {
    let size = chunk.unwrap_or_else(|| (len / (threads as u64 * 4)).max(MIN_CHUNK));
    if threads < 2 || len < 2 * size || !member_at(path, 0) {
        return vec![0];
    }
    let mut starts = vec![0];
    let mut at = size;
    while at < len {
        if let Some(s) = find_member(path, at, (at + SCAN).min(len)) {
            if s > *starts.last().expect("one") {
                starts.push(s);
            }
        }
        at += size;
    }
    starts
}

/// Whether a gzip member whose data starts with `WARC/` starts at `at`.
fn member_at(path: &Path, at: u64) -> bool {
    let try_read = || -> io::Result<bool> {
        let mut f = File::open(path)?;
        f.seek(SeekFrom::Start(at))?;
        let mut head = [0; 5];
        GzDecoder::new(BufReader::new(f).take(1 << 20)).read_exact(&mut head)?;
        Ok(&head == b"WARC/")
    };
    try_read().unwrap_or(false)
}

/// The first guessed member start in `from..to`.
fn find_member(path: &Path, from: u64, to: u64) -> Option<u64> {
    let mut f = File::open(path).ok()?;
    f.seek(SeekFrom::Start(from)).ok()?;
    let mut window = Vec::new();
    f.take(to - from + 3).read_to_end(&mut window).ok()?;
    // The magic, deflate, and the flag byte's reserved bits clear.
    let mut i = 0;
    while let Some(p) = memchr::memmem::find(&window[i..], &[0x1f, 0x8b, 0x08]) {
        let p = i + p;
        if window.get(p + 3).is_some_and(|flags| flags & 0xe0 == 0)
            && member_at(path, from + p as u64)
        {
            return Some(from + p as u64);
        }
        i = p + 1;
    }
    None
}

/// Indexes the chunks `starts[k]..starts[k + 1]` on all threads, with
/// `index_chunk(start, stop)`; hands each chunk's output to `emit` in
/// order, `threads * 2` chunks at a time (so that the lines held stay
/// few); stops at `emit`'s error, or when it returns `false`.
pub fn run<E>(
    starts: &[u64],
    len: u64,
    threads: usize,
    index_chunk: impl Fn(u64, u64) -> ChunkOut + Sync,
    mut emit: impl FnMut(ChunkOut) -> Result<bool, E>,
) -> Result<(), E> {
    let bounds: Vec<(u64, u64)> = starts
        .iter()
        .enumerate()
        .map(|(k, &s)| (s, starts.get(k + 1).copied().unwrap_or(len)))
        .collect();
    for batch in bounds.chunks(threads * 2) {
        let outs: Vec<ChunkOut> = batch
            .par_iter()
            .map(|&(start, stop)| index_chunk(start, stop))
            .collect();
        for out in outs {
            if !emit(out)? {
                return Ok(());
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn gzip(bytes: &[u8], level: flate2::Compression) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), level);
        e.write_all(bytes).unwrap();
        e.finish().unwrap()
    }

    fn record(block: &[u8]) -> Vec<u8> {
        let mut r = format!(
            "WARC/1.0\r\nWARC-Type: resource\r\nContent-Length: {}\r\n\r\n",
            block.len()
        )
        .into_bytes();
        r.extend_from_slice(block);
        r.extend_from_slice(b"\r\n\r\n");
        r
    }

    /// Chunk starts are member starts, and also the start of a member
    /// stored inside another (which the reading then finds out).
    #[test]
    fn guessed_starts() {
        let fast = flate2::Compression::fast();
        let (mut file, mut members) = (Vec::new(), Vec::new());
        for i in 0..100 {
            members.push(file.len() as u64);
            file.extend(gzip(&record(&vec![b'a' + (i % 26) as u8; 500]), fast));
        }
        // A stored member whose block is 1,500 bytes of padding, then a
        // whole member: a scan that starts in the padding finds the latter.
        let mut block = vec![b'.'; 1500];
        block.extend(gzip(&record(b"inner"), fast));
        let outer_at = file.len();
        file.extend(gzip(&record(&block), flate2::Compression::none()));
        for _ in 0..10 {
            members.push(file.len() as u64);
            file.extend(gzip(&record(b"after"), fast));
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.warc.gz");
        std::fs::write(&path, &file).unwrap();
        let len = file.len() as u64;
        let starts = chunk_starts(&path, len, 2, Some(500));
        assert!(starts.len() > 5, "{starts:?}");
        let false_start = starts.iter().find(|s| !members.contains(s)).copied();
        assert!(
            false_start.is_some_and(|s| s > outer_at as u64),
            "{starts:?}"
        );
        // One thread, or a small file: no split.
        assert_eq!(chunk_starts(&path, len, 1, Some(500)), [0]);
        assert_eq!(chunk_starts(&path, len, 2, None), [0]);
        // Not a gzip WARC: no split.
        std::fs::write(&path, record(&[b'x'; 5000])).unwrap();
        assert_eq!(chunk_starts(&path, 5000, 2, Some(500)), [0]);
    }
}
