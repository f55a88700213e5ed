//! Sorting index lines (`normurl warc --sort`), as pywb's `cdxj-indexer
//! --sort` does, in bounded memory as GNU sort does.
//!
//! The order is the byte order of the lines with their newline, which is
//! cdxj-indexer's: it sorts Python strings, compared by code point, and
//! the byte order of UTF-8 is the code point order. A line that is the
//! same as the one before it in that order is dropped (cdxj-indexer's
//! writer skips repeated lines; `LC_ALL=C sort -u` gives the same file
//! unless a line holds a byte below `\n`, which cdxj-indexer and this
//! sort put after the line's prefix, and `sort` before it).
//!
//! Lines are kept in memory up to a budget; past it, the lines held are
//! sorted and written to a run file in a spill directory (under
//! `--temp-dir`, removed at the end and on a signal, as the deduper's),
//! and at the end the runs are merged, at most [`FAN_IN`] at a time. The
//! sort is stable (equal lines keep their input order; the merge takes
//! the earlier run's line first), so the result does not depend on the
//! budget.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::PathBuf;

use crate::dedup::{create_private_file, spill_error, TempDir, SPILL_DIRS};

/// The most runs merged at once (GNU sort's default `--batch-size`), so
/// that a small budget over a large input never opens more files than
/// this; more runs are merged in passes.
pub const FAN_IN: usize = 16;

/// Bytes counted per line held, besides its bytes: its place in the
/// buffer.
const LINE_OVERHEAD: usize = std::mem::size_of::<(usize, usize)>();

/// What the sort may use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SortConfig {
    /// The bytes of lines (and their places) held in memory before a run
    /// is written to disk.
    pub memory: usize,
    /// Where the spill directory is made (default: the temporary
    /// directory).
    pub temp_dir: Option<PathBuf>,
}

/// A [`Write`] that takes lines (each ending in `\n`; writes may cut them
/// anywhere) and, at [`LineSorter::finish`], writes them sorted.
pub struct LineSorter {
    config: SortConfig,
    /// The bytes of the lines held, and of the unfinished line at its end.
    buffer: Vec<u8>,
    /// Where each finished line held is in `buffer`.
    lines: Vec<(usize, usize)>,
    /// Where the unfinished line starts in `buffer`.
    partial: usize,
    /// The spill directory, made at the first run.
    dir: Option<TempDir>,
    /// The run files written, in input order.
    runs: Vec<PathBuf>,
    /// Run files made so far (for their names).
    made: u64,
}

impl LineSorter {
    /// A sorter that holds lines up to `config.memory`.
    pub fn new(config: SortConfig) -> LineSorter {
        LineSorter {
            config,
            buffer: Vec::new(),
            lines: Vec::new(),
            partial: 0,
            dir: None,
            runs: Vec::new(),
            made: 0,
        }
    }

    /// Whether lines were written to disk.
    pub fn spilled(&self) -> bool {
        !self.runs.is_empty()
    }

    fn held(&self) -> usize {
        self.buffer.len() + self.lines.len() * LINE_OVERHEAD
    }

    /// The bytes the buffers would take, capacity and all, after `extra`
    /// more bytes and a line: a vector that has to grow doubles.
    fn grown(&self, extra: usize) -> usize {
        let grow = |len: usize, cap: usize| {
            if len > cap {
                // The standard library's growth: doubling, at least the
                // length, and at least 8 (u8) or 4 (larger) elements.
                len.max(cap * 2).max(8)
            } else {
                cap
            }
        };
        grow(self.buffer.len() + extra, self.buffer.capacity())
            + grow(self.lines.len() + 1, self.lines.capacity()) * LINE_OVERHEAD
    }

    /// The lines held, sorted (stably) by their bytes.
    fn sort_held(&mut self) {
        let buffer = &self.buffer;
        self.lines
            .sort_by(|a, b| buffer[a.0..a.1].cmp(&buffer[b.0..b.1]));
    }

    /// A new run file's path and writer.
    fn new_run(&mut self) -> io::Result<(PathBuf, BufWriter<File>)> {
        if self.dir.is_none() {
            self.dir = Some(TempDir::new(self.config.temp_dir.as_deref(), &SPILL_DIRS)?);
        }
        let dir = &self.dir.as_ref().expect("made above").path;
        let path = dir.join(format!("sort-{}", self.made));
        self.made += 1;
        let file = create_private_file(&path)
            .map_err(|e| spill_error(dir, "cannot create a sort run", e))?;
        Ok((path, BufWriter::with_capacity(1 << 16, file)))
    }

    /// Writes the finished lines held, sorted, to a new run, and keeps
    /// only the unfinished line.
    fn spill(&mut self) -> io::Result<()> {
        self.sort_held();
        let (path, mut w) = self.new_run()?;
        let failed = |e| spill_error(path.parent().unwrap_or(&path), "cannot write a sort run", e);
        for &(start, end) in &self.lines {
            w.write_all(&self.buffer[start..end]).map_err(failed)?;
        }
        w.flush().map_err(failed)?;
        self.runs.push(path);
        self.lines.clear();
        self.buffer.drain(..self.partial);
        self.partial = 0;
        Ok(())
    }

    /// Writes every line taken, sorted, to `out`, each line the same as
    /// the one before it left out; returns how many were left out. An
    /// unfinished last line gets its newline.
    pub fn finish<W: Write + ?Sized>(mut self, out: &mut W) -> io::Result<u64> {
        if self.partial < self.buffer.len() {
            self.buffer.push(b'\n');
            self.lines.push((self.partial, self.buffer.len()));
            self.partial = self.buffer.len();
        }
        if self.runs.is_empty() {
            self.sort_held();
            let mut last: Option<&[u8]> = None;
            let mut dropped = 0;
            for &(start, end) in &self.lines {
                let line = &self.buffer[start..end];
                if last == Some(line) {
                    dropped += 1;
                } else {
                    out.write_all(line)?;
                    last = Some(line);
                }
            }
            return Ok(dropped);
        }
        if !self.lines.is_empty() {
            self.spill()?;
        }
        // Merge passes of FAN_IN consecutive runs each, so that the order
        // of equal lines is kept.
        while self.runs.len() > FAN_IN {
            let runs = std::mem::take(&mut self.runs);
            for group in runs.chunks(FAN_IN) {
                if group.len() == 1 {
                    self.runs.push(group[0].clone());
                    continue;
                }
                let (path, mut w) = self.new_run()?;
                merge(group, &mut w, false).map_err(|e| self.merge_error(e))?;
                w.flush().map_err(|e| self.merge_error(e))?;
                self.runs.push(path);
                for done in group {
                    let _ = std::fs::remove_file(done);
                }
            }
        }
        let runs = std::mem::take(&mut self.runs);
        merge(&runs, out, true)
    }

    fn merge_error(&self, e: io::Error) -> io::Error {
        match &self.dir {
            Some(d) => spill_error(&d.path, "cannot merge sort runs", e),
            None => e,
        }
    }
}

impl Write for LineSorter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        // A run is written before the buffers would grow past the budget,
        // so that what they take (their capacity, which a vector doubles
        // as it grows), not only what they hold, stays within it (unless
        // one line is larger).
        if !self.lines.is_empty() && self.grown(buf.len()) > self.config.memory {
            self.spill()?;
        }
        let from = self.buffer.len();
        self.buffer.extend_from_slice(buf);
        for end in memchr::memchr_iter(b'\n', &self.buffer[from..]) {
            let end = from + end + 1;
            self.lines.push((self.partial, end));
            self.partial = end;
        }
        if self.held() > self.config.memory && !self.lines.is_empty() {
            self.spill()?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Merges the sorted runs `paths` into `out`, a line of an earlier run
/// first among equal ones; with `unique`, a line the same as the one
/// before it is left out and counted. Returns the count.
fn merge<W: Write + ?Sized>(paths: &[PathBuf], out: &mut W, unique: bool) -> io::Result<u64> {
    let mut readers = Vec::with_capacity(paths.len());
    for p in paths {
        readers.push(BufReader::with_capacity(1 << 16, File::open(p)?));
    }
    // The next line of each run, with the run's number: the heap gives the
    // least line, and of equal lines the earliest run's.
    let mut heap = BinaryHeap::with_capacity(readers.len());
    for (i, r) in readers.iter_mut().enumerate() {
        let mut line = Vec::new();
        if r.read_until(b'\n', &mut line)? > 0 {
            heap.push(Reverse((line, i)));
        }
    }
    let (mut last, mut have_last, mut dropped) = (Vec::new(), false, 0);
    while let Some(Reverse((mut line, i))) = heap.pop() {
        if unique && have_last && line == last {
            dropped += 1;
        } else {
            out.write_all(&line)?;
            if unique {
                last.clear();
                last.extend_from_slice(&line);
                have_last = true;
            }
        }
        line.clear();
        if readers[i].read_until(b'\n', &mut line)? > 0 {
            heap.push(Reverse((line, i)));
        }
    }
    Ok(dropped)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn sorted(lines: &[&[u8]], memory: usize, temp: &Path) -> (Vec<u8>, u64, bool) {
        let mut s = LineSorter::new(SortConfig {
            memory,
            temp_dir: Some(temp.to_path_buf()),
        });
        for l in lines {
            // Cut each line in two writes, as a buffered writer may.
            let (a, b) = l.split_at(l.len() / 2);
            s.write_all(a).unwrap();
            s.write_all(b).unwrap();
        }
        let spilled = s.spilled();
        let mut out = Vec::new();
        let dropped = s.finish(&mut out).unwrap();
        (out, dropped, spilled)
    }

    #[test]
    fn sorts_by_bytes_with_the_newline_and_drops_repeats() {
        let temp = std::env::temp_dir();
        let lines: [&[u8]; 7] = [
            b"b 1\n",
            "\u{e9} 2\n".as_bytes(),
            "\u{1f600} 3\n".as_bytes(),
            b"a\t4\n",
            b"a\n",
            b"b 1\n",
            "\u{ff21} 5\n".as_bytes(),
        ];
        let (out, dropped, spilled) = sorted(&lines, 1 << 20, &temp);
        assert!(!spilled);
        assert_eq!(dropped, 1);
        // Python's code point order: `a\t4` before `a` (tab < newline).
        let want = "a\t4\na\nb 1\n\u{e9} 2\n\u{ff21} 5\n\u{1f600} 3\n";
        assert_eq!(String::from_utf8(out).unwrap(), want);
    }

    #[test]
    fn buffers_stay_within_the_budget() {
        let parent = std::env::temp_dir();
        let mut s = LineSorter::new(SortConfig {
            memory: 4096,
            temp_dir: Some(parent),
        });
        for i in 0..3000 {
            s.write_all(format!("line {}\n", 3000 - i).as_bytes())
                .unwrap();
            let taken = s.buffer.capacity() + s.lines.capacity() * LINE_OVERHEAD;
            assert!(taken <= 4096, "{taken} after {i} lines");
        }
        assert!(s.spilled());
        let mut out = Vec::new();
        assert_eq!(s.finish(&mut out).unwrap(), 0);
        assert_eq!(out.iter().filter(|&&b| b == b'\n').count(), 3000);
        assert!(out.starts_with(b"line 1\nline 10\nline 100\n"));
    }

    #[test]
    fn spilled_runs_merge_to_the_same_lines() {
        let parent = std::env::temp_dir().join(format!("normurl-sort-test-{}", std::process::id()));
        std::fs::create_dir_all(&parent).unwrap();
        // 1000 lines with repeats, in an order far from sorted.
        let owned: Vec<Vec<u8>> = (0..1000u32)
            .map(|i| format!("k{} {}\n", (i * 7919) % 613, i % 3).into_bytes())
            .collect();
        let lines: Vec<&[u8]> = owned.iter().map(Vec::as_slice).collect();
        let (memory_out, memory_dropped, spilled) = sorted(&lines, 1 << 30, &parent);
        assert!(!spilled);
        // A budget of a few lines: hundreds of runs, merged in passes.
        let (disk_out, disk_dropped, spilled) = sorted(&lines, 64, &parent);
        assert!(spilled);
        assert_eq!(disk_out, memory_out);
        assert_eq!(disk_dropped, memory_dropped);
        let mut want = owned.clone();
        want.sort();
        want.dedup();
        assert_eq!(memory_out, want.concat());
        assert_eq!(memory_dropped, 1000 - want.len() as u64);
        // The spill directories are gone.
        assert_eq!(std::fs::read_dir(&parent).unwrap().count(), 0);
        std::fs::remove_dir(&parent).unwrap();
    }
}
