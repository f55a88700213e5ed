//! The counts of a shard's deferred keys (`--count` past the memory
//! budget), in bounded memory.
//!
//! There is one `(index, count)` pair per distinct deferred key, `index`
//! being that of the key's first deferred occurrence. The final pass finds
//! them partition by partition, in no useful order; the replay of the
//! spool needs them in index order. [`CountRuns`] gathers them in a buffer
//! of fixed size; a full buffer is sorted and written as a run file, and
//! at the end the runs are merged, at most [`FAN_IN`] at a time, into one
//! sorted file, as GNU sort merges its temporary files (`--batch-size`,
//! 16 by default). [`Counts`] then reads the pairs back in index order,
//! from memory when they never filled the buffer, else from that file
//! through one small buffer. Memory is the buffer, or the merge's readers,
//! whatever the number of distinct keys.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::{self, File};
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use super::spill_dir::create_private_file;
use super::{error_at, Budget};

/// Run files merged at a time (GNU sort's default).
pub(super) const FAN_IN: usize = 16;

/// The fewest pairs a buffer holds, whatever the budget: runs of a few
/// pairs would make thousands of files. Unit tests lower it to merge runs
/// on small inputs.
const MIN_PAIRS: usize = if cfg!(test) { 4 } else { 512 };

/// Bytes of a pair, in memory and in a run file (two little-endian u64).
const PAIR: usize = 16;

/// Gathers `(index, count)` pairs; see the module docs.
pub(super) struct CountRuns {
    dir: PathBuf,
    /// Names the run files: `{name}{n}`.
    name: String,
    pending: Vec<(u64, u64)>,
    /// The pairs the buffer holds at most.
    cap: usize,
    /// A run file writer's or reader's buffer.
    unit: usize,
    /// The run files not merged yet, oldest first.
    runs: Vec<PathBuf>,
    /// Run files made so far (numbers their names).
    made: usize,
}

impl CountRuns {
    /// A buffer of `bytes` (at least [`MIN_PAIRS`] pairs) whose runs go to
    /// `dir` as `{name}0`, `{name}1`...; `unit` is a file buffer's size.
    pub(super) fn new(dir: &Path, name: String, bytes: usize, unit: usize) -> CountRuns {
        CountRuns {
            dir: dir.to_path_buf(),
            name,
            pending: Vec::new(),
            cap: (bytes / PAIR).max(MIN_PAIRS),
            unit: unit.max(PAIR),
            runs: Vec::new(),
            made: 0,
        }
    }

    /// The memory the gathering may take: the buffer, allocated whole
    /// with the first pair, and a run writer's buffer.
    pub(super) fn bytes(&self) -> usize {
        self.cap * PAIR + self.unit
    }

    /// Adds the count of the deferred key first seen at `index`.
    pub(super) fn push(&mut self, index: u64, count: u64) -> io::Result<()> {
        if self.pending.len() == self.cap {
            self.write_run()?;
        }
        if self.pending.capacity() == 0 {
            // Whole at once: a growing vector would hold two copies.
            self.pending.reserve_exact(self.cap);
        }
        self.pending.push((index, count));
        Ok(())
    }

    fn next_path(&mut self) -> PathBuf {
        let path = self.dir.join(format!("{}{}", self.name, self.made));
        self.made += 1;
        path
    }

    /// Sorts the buffer and writes it as a run file.
    fn write_run(&mut self) -> io::Result<()> {
        self.pending.sort_unstable();
        let path = self.next_path();
        let dir = &self.dir;
        let file =
            create_private_file(&path).map_err(|e| error_at(dir, "cannot create", &path, e))?;
        let mut w = BufWriter::with_capacity(self.unit, file);
        for &(index, count) in &self.pending {
            write_pair(&mut w, index, count)
                .map_err(|e| error_at(dir, "write error in", &path, e))?;
        }
        w.flush()
            .map_err(|e| error_at(dir, "write error in", &path, e))?;
        self.runs.push(path);
        self.pending.clear();
        Ok(())
    }

    /// The pairs in index order: in memory if they fit the buffer, else
    /// the runs merged into one file. `held` is what the caller holds
    /// meanwhile, noted in `budget` with the merge's buffers.
    pub(super) fn finish(mut self, held: usize, budget: &mut Budget) -> io::Result<Counts> {
        if self.runs.is_empty() {
            self.pending.sort_unstable();
            return Ok(Counts::Memory {
                pairs: self.pending,
                next: 0,
            });
        }
        if !self.pending.is_empty() {
            self.write_run()?;
        }
        self.pending = Vec::new();
        while self.runs.len() > 1 {
            let take = self.runs.len().min(FAN_IN);
            budget.note(held + (take + 1) * self.unit + take * 3 * PAIR);
            let group: Vec<PathBuf> = self.runs.drain(..take).collect();
            let merged = self.next_path();
            merge(&self.dir, &group, &merged, self.unit)?;
            for path in &group {
                fs::remove_file(path).map_err(|e| error_at(&self.dir, "cannot remove", path, e))?;
            }
            self.runs.push(merged);
        }
        let path = self.runs.pop().unwrap_or_default();
        let file = File::open(&path).map_err(|e| error_at(&self.dir, "read error in", &path, e))?;
        Ok(Counts::File {
            reader: BufReader::with_capacity(self.unit, file),
            dir: self.dir,
            path,
            ahead: None,
        })
    }
}

fn write_pair(w: &mut impl Write, index: u64, count: u64) -> io::Result<()> {
    w.write_all(&index.to_le_bytes())?;
    w.write_all(&count.to_le_bytes())
}

/// The next pair of a run file, `None` at its end.
fn read_pair(r: &mut impl Read) -> io::Result<Option<(u64, u64)>> {
    let mut pair = [0u8; PAIR];
    match r.read_exact(&mut pair) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
        Err(e) => return Err(e),
    }
    let (index, count) = pair.split_at(8);
    let index = u64::from_le_bytes(index.try_into().unwrap_or_default());
    let count = u64::from_le_bytes(count.try_into().unwrap_or_default());
    Ok(Some((index, count)))
}

/// Merges the sorted run files `runs` into the sorted file `to`.
fn merge(dir: &Path, runs: &[PathBuf], to: &Path, unit: usize) -> io::Result<()> {
    let mut readers = runs
        .iter()
        .map(|path| {
            File::open(path)
                .map(|f| BufReader::with_capacity(unit, f))
                .map_err(|e| error_at(dir, "read error in", path, e))
        })
        .collect::<io::Result<Vec<_>>>()?;
    let file = create_private_file(to).map_err(|e| error_at(dir, "cannot create", to, e))?;
    let mut w = BufWriter::with_capacity(unit, file);
    // The smallest unwritten pair of each run, by index (indices are
    // distinct: each is one key's first occurrence).
    let mut heap = BinaryHeap::with_capacity(runs.len());
    for (i, r) in readers.iter_mut().enumerate() {
        let pair = read_pair(r).map_err(|e| error_at(dir, "read error in", &runs[i], e))?;
        if let Some((index, count)) = pair {
            heap.push(Reverse((index, count, i)));
        }
    }
    while let Some(Reverse((index, count, i))) = heap.pop() {
        write_pair(&mut w, index, count).map_err(|e| error_at(dir, "write error in", to, e))?;
        let pair =
            read_pair(&mut readers[i]).map_err(|e| error_at(dir, "read error in", &runs[i], e))?;
        if let Some((index, count)) = pair {
            heap.push(Reverse((index, count, i)));
        }
    }
    w.flush()
        .map_err(|e| error_at(dir, "write error in", to, e))
}

/// A shard's counts in index order, read back as the spool is replayed.
pub(super) enum Counts {
    /// Sorted in memory; `next` is the first not read yet.
    Memory { pairs: Vec<(u64, u64)>, next: usize },
    /// Sorted in the run file at `path` in the spill directory `dir`;
    /// `ahead` is a pair read past the index last asked for.
    File {
        reader: BufReader<File>,
        dir: PathBuf,
        path: PathBuf,
        ahead: Option<(u64, u64)>,
    },
}

impl Default for Counts {
    fn default() -> Counts {
        Counts::Memory {
            pairs: Vec::new(),
            next: 0,
        }
    }
}

impl Counts {
    /// The memory held.
    pub(super) fn bytes(&self) -> usize {
        match self {
            Counts::Memory { pairs, .. } => pairs.capacity() * PAIR,
            Counts::File { reader, .. } => reader.capacity(),
        }
    }

    /// The count of the key first seen at deferred `index`. Asked for in
    /// increasing order of index (pairs of smaller indices are passed
    /// over). Every first occurrence has a pair: a missing one is an
    /// error (`InvalidData`), never a count made up.
    pub(super) fn of(&mut self, index: u64) -> io::Result<u64> {
        match self {
            Counts::Memory { pairs, next } => {
                while let Some(&(i, count)) = pairs.get(*next) {
                    if i > index {
                        break;
                    }
                    *next += 1;
                    if i == index {
                        return Ok(count);
                    }
                }
                Err(missing())
            }
            Counts::File {
                reader,
                dir,
                path,
                ahead,
            } => loop {
                let pair = match ahead.take() {
                    Some(pair) => pair,
                    None => match read_pair(reader) {
                        Ok(Some(pair)) => pair,
                        Ok(None) => return Err(error_at(dir, "corrupt", path, missing())),
                        Err(e) => return Err(error_at(dir, "read error in", path, e)),
                    },
                };
                let (i, count) = pair;
                if i > index {
                    *ahead = Some(pair);
                    return Err(error_at(dir, "corrupt", path, missing()));
                }
                if i == index {
                    return Ok(count);
                }
            },
        }
    }
}

fn missing() -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, "no count for a kept record")
}
