//! Exact dedup (and `--count`) with the key set split into [`SHARDS`]
//! shards that decide their keys on the pipeline's workers.
//!
//! [`Shards`] is the pipeline's [`KeyShards`]: the top bits of a key pick
//! its shard, so every occurrence of a key meets the same shard, and the
//! pipeline hands each shard its keys batch after batch in input order, so
//! the first occurrence a shard sees is the first in the input. A shard
//! answers for each key: *kept* (first occurrence), *dropped* (seen
//! before) or *deferred* (its set is full: the key goes to the shard's
//! spill files, as [`Deduper`](super::Deduper)'s do). [`ShardWriter`] is
//! the [`KeyFilter`] on the ordered writer: it only reads the verdicts,
//! writing kept records, and once a record was deferred, spooling every
//! record after it (kept or deferred, and the bytes without a key) so that
//! the order holds. At the end each shard decides its deferred keys from
//! its files (the same final pass as `Deduper`'s) and the spool is
//! replayed in order.
//!
//! The memory budget is the total: each shard's set gets
//! `1/SHARDS` of it; the spill buffers are the same as `Deduper`'s (64
//! partition writers in all, 4 a shard, and the spool's); the final pass
//! runs one shard at a time with the budget less what the other shards
//! still hold (their keep bits, and with `--count` their counts).
//!
//! **Counting** (`--count`): each shard's table counts occurrences. A
//! count is known only at the end of the input, so every kept record is
//! spooled (in memory up to a twelfth of the budget, an eighth while the
//! buffer grows, then on disk; the tables get the other seven eighths) and
//! the spool is written at the end, in first-occurrence order, each kept
//! record with its count. Keys deferred past the budget are counted in the
//! final pass; their counts are gathered in a buffer of a fixed share of
//! the budget and past it go to sorted run files merged into one
//! ([`super::count_runs`]), so memory stays within the budget whatever
//! the number of distinct values.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard, PoisonError};

use crate::pipeline::{KeyFilter, KeyShards};

use super::count_runs::{CountRuns, Counts};
use super::spill_dir::{create_private_file, TempDir};
use super::{
    buckets_for, buckets_of, count_map_bytes, error_at, spill_error, table_bytes, write_entry,
    Budget, CountMap, DedupConfig, DedupStats, Finish, KeySet, PARTITIONS, SPILL_DIRS,
};

/// How many shards the key set is split into, whatever the thread count
/// (so that the spill decisions, and everything else, are the same at
/// every `-j`).
pub const SHARDS: usize = 16;

/// Partition files per shard at the first level (`SHARDS` times this is
/// [`PARTITIONS`], as many as `Deduper` has).
const SHARD_PARTS: usize = PARTITIONS / SHARDS;

const DROPPED: u8 = 0;
const KEPT: u8 = 1;
const DEFERRED: u8 = 2;

/// A shard's table: a set, or with `--count` occurrences by key.
enum Table {
    Set(KeySet),
    Counts(CountMap<u64>),
}

impl Table {
    fn len(&self) -> usize {
        match self {
            Table::Set(s) => s.len(),
            Table::Counts(m) => m.len(),
        }
    }

    fn capacity(&self) -> usize {
        match self {
            Table::Set(s) => s.capacity(),
            Table::Counts(m) => m.capacity(),
        }
    }

    fn bytes_for(&self, buckets: usize) -> usize {
        match self {
            Table::Set(_) => table_bytes(buckets),
            Table::Counts(_) => count_map_bytes(buckets),
        }
    }

    fn bytes(&self) -> usize {
        self.bytes_for(buckets_of(self.capacity()))
    }
}

/// One shard: its table, and once that is full, its spill files.
struct Shard {
    table: Table,
    /// The budget of this shard's table and partition writers.
    budget: Budget,
    /// Partition writers once the table is full, and their directory.
    parts: Option<(Vec<BufWriter<File>>, PathBuf)>,
    /// Keys deferred so far (the index of the next one).
    deferred: u64,
    /// At the end: the first deferred occurrences' bits, and with
    /// `--count` their counts in index order.
    keep: Vec<u64>,
    counts: Counts,
}

/// The shards: the pipeline's [`KeyShards`]. See the module docs.
pub struct Shards {
    shards: Vec<Mutex<Shard>>,
    config: DedupConfig,
    count: bool,
    /// One buffer unit (see `Budget`), for all of the run's spill writers.
    unit: usize,
    /// The spill directory, made by the first shard (or spool) to need it.
    dir: Mutex<Option<TempDir>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Shards {
    /// Shards for exact dedup (`count: false`) or counting, with
    /// `config`'s budget in total ([`DedupConfig::mode`] is not looked at:
    /// adjacent dedup is [`Deduper`](super::Deduper)'s).
    pub fn new(config: DedupConfig, count: bool) -> Shards {
        let unit = Budget::new(config.memory_limit).unit;
        let shards = (0..SHARDS)
            .map(|_| Mutex::new(Shard::new(&config, count, unit)))
            .collect();
        Shards {
            shards,
            config,
            count,
            unit,
            dir: Mutex::new(None),
        }
    }

    /// The spill directory's path, made now if it does not exist yet.
    fn dir(&self) -> io::Result<PathBuf> {
        let mut dir = lock(&self.dir);
        if dir.is_none() {
            *dir = Some(TempDir::new(self.config.temp_dir.as_deref(), &SPILL_DIRS)?);
        }
        Ok(dir.as_ref().map(|d| d.path.clone()).unwrap_or_default())
    }

    /// The share of the budget of the spool's buffer.
    fn spool_buffer(&self) -> usize {
        8 * self.unit
    }
}

impl Shard {
    fn new(config: &DedupConfig, count: bool, unit: usize) -> Shard {
        // With --count, an eighth of the budget is the spool's.
        let limit = config.memory_limit;
        let tables = if count { limit - limit / 8 } else { limit };
        let mut budget = Budget::new(tables / SHARDS);
        budget.unit = unit;
        let table = if count {
            Table::Counts(CountMap::default())
        } else {
            Table::Set(KeySet::default())
        };
        Shard {
            table,
            budget,
            parts: None,
            deferred: 0,
            keep: Vec::new(),
            counts: Counts::default(),
        }
    }

    /// Whether one more key fits in the table within the shard's budget,
    /// leaving room for its partition writers and its share of the
    /// spool's buffer.
    fn can_grow(&self) -> bool {
        let capacity = self.table.capacity();
        if self.table.len() < capacity {
            return true;
        }
        let now = self.table.bytes_for(buckets_of(capacity));
        let next = self.table.bytes_for(buckets_for(capacity + 1));
        let buffers = (SHARD_PARTS + 1) * self.budget.unit;
        let limit = self.budget.limit;
        now + next <= limit && next + buffers <= limit
    }

    fn decide(
        &mut self,
        index: usize,
        shards: &Shards,
        keys: &[u128],
        verdicts: &mut [u8],
    ) -> io::Result<()> {
        for (&key, verdict) in keys.iter().zip(verdicts) {
            *verdict = match &mut self.table {
                Table::Set(set) if set.contains(&key) => DROPPED,
                Table::Counts(map) => match map.get_mut(&key) {
                    Some(n) => {
                        *n += 1;
                        DROPPED
                    }
                    None => self.first(index, shards, key)?,
                },
                Table::Set(_) => self.first(index, shards, key)?,
            };
        }
        Ok(())
    }

    /// A key not in the table: inserted if it fits, else deferred.
    fn first(&mut self, index: usize, shards: &Shards, key: u128) -> io::Result<u8> {
        if self.parts.is_none() && self.can_grow() {
            let before = self.table.capacity();
            match &mut self.table {
                Table::Set(set) => {
                    set.insert(key);
                }
                Table::Counts(map) => {
                    map.insert(key, 1);
                }
            }
            if self.table.capacity() != before {
                let old = self.table.bytes_for(buckets_of(before));
                self.budget.note(old + self.table.bytes());
            }
            return Ok(KEPT);
        }
        if self.parts.is_none() {
            self.parts = Some(self.create_parts(index, shards)?);
        }
        let p = (key >> 64) as usize % SHARD_PARTS;
        if let Some((parts, dir)) = &mut self.parts {
            write_entry(&mut parts[p], key, self.deferred)
                .map_err(|e| spill_error(dir, format!("write error in s{index}p{p}"), e))?;
        }
        self.deferred += 1;
        Ok(DEFERRED)
    }

    fn create_parts(
        &mut self,
        index: usize,
        shards: &Shards,
    ) -> io::Result<(Vec<BufWriter<File>>, PathBuf)> {
        let dir = shards.dir()?;
        self.budget
            .note(self.table.bytes() + (SHARD_PARTS + 1) * self.budget.unit);
        let parts = (0..SHARD_PARTS)
            .map(|p| {
                let path = dir.join(format!("s{index}p{p}"));
                create_private_file(&path)
                    .map(|f| BufWriter::with_capacity(self.budget.unit, f))
                    .map_err(|e| error_at(&dir, "cannot create", &path, e))
            })
            .collect::<io::Result<Vec<_>>>()?;
        Ok((parts, dir))
    }

    /// Decides the deferred keys from the partition files, with `limit`
    /// bytes of the budget, of which `count_buffer` gather the counts
    /// (with `--count`).
    fn finish(
        &mut self,
        index: usize,
        dir: &std::path::Path,
        limit: usize,
        count_buffer: usize,
    ) -> io::Result<()> {
        let Some((parts, _)) = self.parts.take() else {
            return Ok(());
        };
        for (p, mut w) in parts.into_iter().enumerate() {
            w.flush()
                .map_err(|e| spill_error(dir, format!("write error in s{index}p{p}"), e))?;
        }
        let mut budget = self.budget;
        budget.limit = limit;
        let mut pass = Finish::new(dir, self.deferred, &mut budget);
        let unit = self.budget.unit;
        let mut counts = self
            .table_counts()
            .then(|| CountRuns::new(dir, format!("s{index}c"), count_buffer, unit));
        for p in 0..SHARD_PARTS {
            let path = dir.join(format!("s{index}p{p}"));
            pass.partition(&path, 0, counts.as_mut())?;
        }
        self.keep = std::mem::take(&mut pass.keep);
        if let Some(counts) = counts {
            self.counts = counts.finish(self.keep.capacity() * 8, &mut budget)?;
        }
        self.budget.peak = self.budget.peak.max(budget.peak);
        Ok(())
    }

    fn table_counts(&self) -> bool {
        matches!(self.table, Table::Counts(_))
    }

    /// What this shard holds after its final pass.
    fn held(&self) -> usize {
        self.keep.capacity() * 8 + self.counts.bytes()
    }

    fn keeps(&self, index: u64) -> bool {
        let word = self.keep.get((index / 64) as usize).copied().unwrap_or(0);
        word >> (index % 64) & 1 == 1
    }
}

impl KeyShards for Shards {
    fn shards(&self) -> usize {
        SHARDS
    }

    fn shard_of(&self, key: u128) -> usize {
        // The top bits: the sets hash by the low 64, the partition files
        // by bits 64 to 123.
        (key >> 124) as usize % SHARDS
    }

    fn decide(&self, shard: usize, keys: &[u128], verdicts: &mut [u8]) -> io::Result<()> {
        let index = shard % SHARDS;
        lock(&self.shards[index]).decide(index, self, keys, verdicts)
    }
}

/// How `--count` writes a count with its record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CountFormat {
    /// `COUNT`, this separator, then the record (`uniq -c`'s order).
    Prefix(u8),
    /// A JSON object record gains a `"count":N` member at its end.
    Json,
}

/// What a spooled item is.
const ITEM_UNKEYED: u8 = 0;
const ITEM_KEPT: u8 = 1;
const ITEM_DEFERRED: u8 = 2;

/// The ordered writer's side of the sharded dedup: see the module docs.
pub struct ShardWriter<'a> {
    shards: &'a Shards,
    format: CountFormat,
    /// Items held back: a tag, the shard, with `--count` the key, the
    /// length and the bytes. In memory up to `spool_memory` bytes, then in
    /// the spill directory.
    spool: Vec<u8>,
    spool_file: Option<(BufWriter<File>, PathBuf)>,
    spool_memory: usize,
    /// Whether items are being held back (from the first deferred record
    /// on; with `--count` always).
    holding: bool,
    stats: DedupStats,
    /// Keyed records offered.
    keyed: u64,
}

impl<'a> ShardWriter<'a> {
    /// The writer side of `shards`; `format` says how counts are written.
    pub fn new(shards: &'a Shards, format: CountFormat) -> ShardWriter<'a> {
        // Of the spool's eighth of the budget, two thirds for the buffer:
        // growing it holds the old one and the new one at once.
        let spool_memory = if shards.count {
            shards.config.memory_limit / 8 / 3 * 2
        } else {
            0
        };
        ShardWriter {
            shards,
            format,
            spool: Vec::new(),
            spool_file: None,
            spool_memory,
            holding: shards.count,
            stats: DedupStats::default(),
            keyed: 0,
        }
    }

    /// The counts so far (complete after [`KeyFilter::finish`], which
    /// starts a new run).
    pub fn stats(&self) -> DedupStats {
        self.stats
    }

    fn hold(&mut self, tag: u8, shard: usize, key: u128, bytes: &[u8]) -> io::Result<()> {
        let mut head = [0u8; 26];
        head[0] = tag;
        head[1] = shard as u8;
        let mut n = 2;
        if self.shards.count && tag == ITEM_KEPT {
            head[n..n + 16].copy_from_slice(&key.to_le_bytes());
            n += 16;
        }
        head[n..n + 8].copy_from_slice(&(bytes.len() as u64).to_le_bytes());
        n += 8;
        if self.spool_file.is_none() && self.spool.len() + n + bytes.len() > self.spool_memory {
            let dir = self.shards.dir()?;
            let path = dir.join("spool");
            let file = create_private_file(&path)
                .map_err(|e| error_at(&dir, "cannot create", &path, e))?;
            let mut w = BufWriter::with_capacity(self.shards.spool_buffer(), file);
            w.write_all(&self.spool)
                .map_err(|e| spill_error(&dir, "write error in spool", e))?;
            self.spool = Vec::new();
            self.spool_file = Some((w, dir));
        }
        match &mut self.spool_file {
            None => {
                let need = self.spool.len() + n + bytes.len();
                if need > self.spool.capacity() {
                    // Grown by doubling, but never past `spool_memory`.
                    let grown = (self.spool.capacity() * 2).max(need).max(4096);
                    let grown = grown.min(self.spool_memory).max(need);
                    self.spool.reserve_exact(grown - self.spool.len());
                }
                self.spool.extend_from_slice(&head[..n]);
                self.spool.extend_from_slice(bytes);
                Ok(())
            }
            Some((w, dir)) => w
                .write_all(&head[..n])
                .and_then(|()| w.write_all(bytes))
                .map_err(|e| spill_error(dir, "write error in spool", e)),
        }
    }

    /// Decides the deferred keys, writes the spool, starts afresh.
    fn end(&mut self, out: &mut dyn Write) -> io::Result<DedupStats> {
        let shards = self.shards;
        let dir = lock(&shards.dir).as_ref().map(|d| d.path.clone());
        if let Some(dir) = &dir {
            let limit = shards.config.memory_limit;
            // The spool, in memory or its file's buffer, stays until the
            // replay.
            let mut held = self.spool.capacity();
            if self.spool_file.is_some() {
                held += shards.spool_buffer();
            }
            if !shards.count {
                // The sets are done with: their memory is the final pass's.
                for shard in &shards.shards {
                    lock(shard).table = Table::Set(KeySet::default());
                }
            } else {
                // The counts of kept records are read from the tables.
                held += shards
                    .shards
                    .iter()
                    .map(|s| lock(s).table.bytes())
                    .sum::<usize>();
            }
            // Each shard gathers the counts of its deferred keys in an
            // equal share of an eighth of what is left, the buffers it
            // keeps to the replay when they are not filled.
            let count_buffer = limit.saturating_sub(held) / (8 * SHARDS);
            for (i, shard) in shards.shards.iter().enumerate() {
                let mut shard = lock(shard);
                shard.finish(i, dir, limit.saturating_sub(held), count_buffer)?;
                held += shard.held();
            }
        }
        let kept = self.replay(out)?;
        self.stats.kept += kept;
        self.stats.dropped = self.keyed - self.stats.kept;
        self.stats.memory_peak = shards.shards.iter().map(|s| lock(s).budget.peak).sum();
        let stats = self.stats;
        // A fresh run: new shards, spool and spill directory.
        for shard in &shards.shards {
            *lock(shard) = Shard::new(&shards.config, shards.count, shards.unit);
        }
        *lock(&shards.dir) = None;
        *self = ShardWriter::new(shards, self.format);
        Ok(stats)
    }

    /// Writes the spool in order: unkeyed and kept items, and the deferred
    /// records their shard kept; with `--count`, each kept record with its
    /// count. Returns the deferred records written.
    fn replay(&mut self, out: &mut dyn Write) -> io::Result<u64> {
        let (reader, dir): (Box<dyn Read>, Option<PathBuf>) = match self.spool_file.take() {
            None => (
                Box::new(io::Cursor::new(std::mem::take(&mut self.spool))),
                None,
            ),
            Some((mut w, dir)) => {
                w.flush()
                    .map_err(|e| spill_error(&dir, "write error in spool", e))?;
                drop(w);
                let path = dir.join("spool");
                let file =
                    File::open(&path).map_err(|e| error_at(&dir, "read error in", &path, e))?;
                let r = BufReader::with_capacity(self.shards.spool_buffer(), file);
                (Box::new(r), Some(dir))
            }
        };
        let read_error = |e: io::Error| match &dir {
            Some(d) => error_at(d, "read error in", &d.join("spool"), e),
            None => e,
        };
        let mut reader = reader;
        let mut out = BufWriter::with_capacity(self.shards.spool_buffer().max(8192), out);
        let mut shards: Vec<MutexGuard<'_, Shard>> = self.shards.shards.iter().map(lock).collect();
        // Per shard: the deferred records seen.
        let mut seen = [0u64; SHARDS];
        let mut kept = 0;
        let mut record = Vec::new();
        loop {
            let mut tag = [0u8; 2];
            match reader.read_exact(&mut tag) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => break,
                Err(e) => return Err(read_error(e)),
            }
            let (item, s) = (tag[0], tag[1] as usize % SHARDS);
            let mut key = [0u8; 16];
            if self.shards.count && item == ITEM_KEPT {
                reader.read_exact(&mut key).map_err(read_error)?;
            }
            let mut len = [0u8; 8];
            reader.read_exact(&mut len).map_err(read_error)?;
            let len = u64::from_le_bytes(len);
            record.clear();
            (&mut reader)
                .take(len)
                .read_to_end(&mut record)
                .map_err(read_error)?;
            if record.len() as u64 != len {
                return Err(read_error(io::ErrorKind::UnexpectedEof.into()));
            }
            let count = match item {
                ITEM_UNKEYED => None,
                ITEM_KEPT => match &shards[s].table {
                    Table::Counts(map) => Some(
                        map.get(&u128::from_le_bytes(key))
                            .copied()
                            .unwrap_or_default(),
                    ),
                    Table::Set(_) => Some(0),
                },
                _ => {
                    let index = seen[s];
                    seen[s] += 1;
                    if !shards[s].keeps(index) {
                        continue;
                    }
                    kept += 1;
                    if self.shards.count {
                        Some(shards[s].counts.of(index)?)
                    } else {
                        Some(0)
                    }
                }
            };
            match count {
                Some(n) if self.shards.count => write_counted(&mut out, self.format, n, &record)?,
                _ => out.write_all(&record)?,
            }
        }
        out.flush()?;
        Ok(kept)
    }
}

/// Writes `record` with its count `n` in `format`.
fn write_counted(
    out: &mut impl Write,
    format: CountFormat,
    n: u64,
    record: &[u8],
) -> io::Result<()> {
    if format == CountFormat::Json {
        // The object ends the record, before its terminator (and a `\r`).
        let body_end = record.iter().rposition(|&b| b == b'}').filter(|&i| {
            record[i + 1..]
                .iter()
                .all(|&b| matches!(b, b'\n' | b'\r' | 0))
        });
        if let Some(close) = body_end {
            let (head, tail) = record.split_at(close);
            out.write_all(head)?;
            let empty = head.last() == Some(&b'{');
            if !empty {
                out.write_all(b",")?;
            }
            write!(out, "\"count\":{n}")?;
            return out.write_all(tail);
        }
    }
    let sep = match format {
        CountFormat::Prefix(sep) => sep,
        CountFormat::Json => b'\t',
    };
    write!(out, "{n}")?;
    out.write_all(&[sep])?;
    out.write_all(record)
}

impl KeyFilter for ShardWriter<'_> {
    /// Records offered without a verdict (no [`KeyShards`] in the
    /// pipeline) are decided here, on the writer.
    fn offer(&mut self, key: u128, record: &[u8], out: &mut Vec<u8>) -> io::Result<()> {
        let s = self.shards.shard_of(key);
        let mut verdict = [0u8];
        self.shards.decide(s, &[key], &mut verdict)?;
        self.offer_decided(key, verdict[0], record, out)
    }

    fn offer_decided(
        &mut self,
        key: u128,
        verdict: u8,
        record: &[u8],
        out: &mut Vec<u8>,
    ) -> io::Result<()> {
        self.keyed += 1;
        let shard = self.shards.shard_of(key);
        match verdict {
            KEPT if !self.holding => {
                self.stats.kept += 1;
                out.extend_from_slice(record);
                Ok(())
            }
            KEPT => {
                self.stats.kept += 1;
                self.hold(ITEM_KEPT, shard, key, record)
            }
            DEFERRED => {
                self.holding = true;
                self.stats.deferred += 1;
                self.hold(ITEM_DEFERRED, shard, key, record)
            }
            _ => Ok(()),
        }
    }

    fn pass(&mut self, bytes: &[u8], out: &mut Vec<u8>) -> io::Result<()> {
        if self.holding {
            self.hold(ITEM_UNKEYED, 0, 0, bytes)
        } else {
            out.extend_from_slice(bytes);
            Ok(())
        }
    }

    fn finish(&mut self, out: &mut dyn Write) -> io::Result<u64> {
        Ok(self.end(out)?.dropped)
    }
}
