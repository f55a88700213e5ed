//! Exact, order-preserving deduplication of records by a 128-bit key, in
//! bounded memory.
//!
//! The [`Deduper`] lives where records come back in input order (the
//! pipeline's ordered writer). For each record it is given the record's key
//! (a 128-bit hash computed by a worker) and the record's bytes, and writes
//! the record only if no earlier record had the same key.
//!
//! While the set of keys fits in the memory budget, every decision is made
//! at once and records stream through. When the set would outgrow the
//! budget, it is frozen: a later record whose key is in the frozen set is a
//! duplicate for sure; any other record is *deferred* — its bytes go to a
//! spool file and its `(key, index)` pair to one of [`PARTITIONS`]
//! hash-partitioned run files. At [`Deduper::finish`], each partition (split
//! again by other hash bits if it is still too big) is read back to find the
//! first occurrence of each key, and the spool is replayed in order, writing
//! only those. Every kept record is therefore written exactly once and in
//! input order, with memory bounded by the budget (see
//! [`DedupConfig::memory_limit`] for what it counts).
//!
//! [`DedupMode::Adjacent`] drops only records whose key equals the previous
//! record's key (for sorted input such as CDX files), in constant memory.
//!
//! # Example
//!
//! ```
//! use normurl::dedup::{Deduper, DedupConfig};
//!
//! let mut dedup = Deduper::new(DedupConfig::default());
//! let mut out = Vec::new();
//! for (key, line) in [(1u128, "a\n"), (2, "b\n"), (1, "a again\n"), (3, "c\n")] {
//!     dedup.offer(key, line.as_bytes(), &mut out)?;
//! }
//! let stats = dedup.finish(&mut out)?;
//! assert_eq!(out, b"a\nb\nc\n");
//! assert_eq!((stats.kept, stats.dropped), (3, 1));
//! # Ok::<(), std::io::Error>(())
//! ```

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::fs::{self, File};
use std::hash::{BuildHasherDefault, Hasher};
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

mod count_runs;
mod sharded;
mod spill_dir;

pub use sharded::{CountFormat, ShardWriter, Shards, SHARDS};

use count_runs::CountRuns;
pub use spill_dir::remove_spill_dirs;
use spill_dir::{create_private_dir, Registry};
// Also the index sort's spill files (src/warc/sort.rs), in directories of
// the same registry, so that a signal removes them too.
pub(crate) use spill_dir::{create_private_file, TempDir};

/// How many hash partitions deferred keys are spread over (and how many
/// sub-partitions a partition that is still too big is split into).
pub const PARTITIONS: usize = 64;

/// Marks a spooled item that has no key and is always written.
const UNKEYED: u64 = 1 << 63;

/// Which records count as duplicates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DedupMode {
    /// A record is dropped when any earlier record had the same key.
    Exact,
    /// A record is dropped when the record just before it had the same key
    /// (`--assume-sorted`): constant memory.
    Adjacent,
}

/// Configuration of a [`Deduper`].
#[derive(Clone, Debug)]
pub struct DedupConfig {
    /// Which records count as duplicates.
    pub mode: DedupMode,
    /// The memory budget, in bytes. It counts the key set (both of its
    /// tables while it grows), and once the set has spilled, the spill
    /// files' buffers (an eighth of the budget, at most 576 KiB) and, at
    /// the end, one bit per deferred record and the sets that decide them
    /// (sized from the start for every key of their partition, so they
    /// never grow). The bits are needed whatever the budget: 125 MB per
    /// billion deferred records. Below about 200 KiB the budget cannot
    /// always be met: a partition of under 4,096 keys (a set of up to
    /// 140 KiB) is never split. A few KiB of bookkeeping are not counted.
    pub memory_limit: usize,
    /// Where spill files go (a fresh subdirectory is created there and
    /// removed when done). Defaults to the system's temporary directory.
    pub temp_dir: Option<PathBuf>,
}

impl Default for DedupConfig {
    /// Exact mode with a 1 GiB budget in the system's temporary directory.
    fn default() -> DedupConfig {
        DedupConfig {
            mode: DedupMode::Exact,
            memory_limit: 1 << 30,
            temp_dir: None,
        }
    }
}

/// What [`Deduper::offer`] did with a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offer {
    /// First occurrence: written to the output now.
    Kept,
    /// A duplicate of an earlier record: dropped.
    Dropped,
    /// Undecided until [`Deduper::finish`] (the key set spilled to disk).
    Deferred,
}

/// Counts reported by [`Deduper::finish`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DedupStats {
    /// Records written.
    pub kept: u64,
    /// Records dropped as duplicates.
    pub dropped: u64,
    /// Records whose decision was deferred to disk (0 if nothing spilled).
    pub deferred: u64,
    /// The most memory, in bytes, that the deduper counted against
    /// [`DedupConfig::memory_limit`] at one time (see there what it
    /// counts).
    pub memory_peak: usize,
}

/// An I/O error of the spill files, naming their directory and what was
/// being done. [`Deduper`]'s methods return it inside an [`io::Error`] of
/// the same kind; errors writing the caller's output come back unwrapped,
/// so `error.get_ref().is_some_and(|e| e.is::<SpillError>())` tells them
/// apart.
#[derive(Debug)]
pub struct SpillError {
    dir: PathBuf,
    what: String,
    source: io::Error,
}

impl SpillError {
    /// The spill directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

impl fmt::Display for SpillError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (dir, what, source) = (self.dir.display(), &self.what, &self.source);
        write!(f, "spill directory {dir}: {what}: {source}")
    }
}

impl std::error::Error for SpillError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

/// `source` as a [`SpillError`] about `dir`, inside an `io::Error` of the
/// same kind.
pub(crate) fn spill_error(dir: &Path, what: impl Into<String>, source: io::Error) -> io::Error {
    let kind = source.kind();
    let what = what.into();
    let dir = dir.to_path_buf();
    io::Error::new(kind, SpillError { dir, what, source })
}

/// The keys are already uniform hashes: use their low 64 bits as the hash.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        // Only reached for non-u128 keys, which this module never uses;
        // fold the bytes in anyway so it stays a correct hasher.
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u128(&mut self, n: u128) {
        self.0 = n as u64;
    }
}

type KeySet = HashSet<u128, BuildHasherDefault<KeyHasher>>;

/// A key's occurrences (`--count`); in the final pass, also the index of
/// its first deferred occurrence.
type CountMap<V = (u64, u64)> = HashMap<u128, V, BuildHasherDefault<KeyHasher>>;

/// Bytes of a count table of `buckets` slots: a 16-byte key and a 16-byte
/// value each (the final pass's; the running counts' 8-byte values are
/// padded to 16 as well), a control byte, one group past the end.
fn count_map_bytes(buckets: usize) -> usize {
    if buckets == 0 {
        0
    } else {
        buckets * 33 + 16
    }
}

/// Bytes of the table behind a [`KeySet`] of `buckets` slots: hashbrown
/// (std's `HashSet`) allocates the 16-byte slots, one control byte per
/// slot and one group of control bytes past the end (16 with SSE2, fewer
/// elsewhere).
fn table_bytes(buckets: usize) -> usize {
    if buckets == 0 {
        0
    } else {
        buckets * 17 + 16
    }
}

/// The slots behind a set's `capacity()`: hashbrown keeps a power of two of
/// them at most 7/8 full (all but one below 8 slots).
fn buckets_of(capacity: usize) -> usize {
    match capacity {
        0 => 0,
        c if c < 8 => c + 1,
        c => c / 7 * 8,
    }
}

/// The slots hashbrown allocates to hold `capacity` keys, by
/// `with_capacity` or by growing when full.
fn buckets_for(capacity: usize) -> usize {
    match capacity {
        0 => 0,
        1..=3 => 4,
        4..=7 => 8,
        c => (c.saturating_mul(8) / 7).next_power_of_two(),
    }
}

fn set_bytes(set: &KeySet) -> usize {
    table_bytes(buckets_of(set.capacity()))
}

/// A deduper's memory budget, the buffer sizes that follow from it, and
/// the most memory counted against it at one time.
#[derive(Clone, Copy, Debug)]
struct Budget {
    limit: usize,
    /// One partition writer's buffer; the spool writer and each reader get
    /// eight.
    unit: usize,
    peak: usize,
}

impl Budget {
    fn new(limit: usize) -> Budget {
        // Buffers take at most an eighth of the budget, and 8 KiB units at
        // most: larger ones gain little.
        let unit = (limit / (8 * (PARTITIONS + 8))).min(1 << 13);
        Budget {
            limit,
            unit,
            peak: 0,
        }
    }

    /// The writers' buffers while spilling: the spool's and the
    /// partitions'.
    fn spill_buffers(&self) -> usize {
        (8 + PARTITIONS) * self.unit
    }

    /// A spill file reader's buffer.
    fn reader(&self) -> usize {
        8 * self.unit
    }

    /// Counts `bytes` in use at one time.
    fn note(&mut self, bytes: usize) {
        self.peak = self.peak.max(bytes);
    }
}

/// Deduplicates records by key, in input order; see the module docs.
pub struct Deduper {
    config: DedupConfig,
    last: Option<u128>,
    set: KeySet,
    spill: Option<Spill>,
    stats: DedupStats,
    budget: Budget,
    /// Unkeyed items among the deferred ones (not records to decide).
    unkeyed: u64,
}

/// The on-disk state once the set has spilled.
struct Spill {
    dir: TempDir,
    /// Deferred records, each as an 8-byte little-endian length and the bytes.
    spool: BufWriter<File>,
    /// `(key, deferred index)` pairs, 24 bytes each, by hash partition.
    partitions: Vec<BufWriter<File>>,
}

impl Deduper {
    /// A deduper with the given configuration. Nothing is allocated until
    /// records arrive.
    pub fn new(config: DedupConfig) -> Deduper {
        let budget = Budget::new(config.memory_limit);
        Deduper {
            config,
            last: None,
            set: KeySet::default(),
            spill: None,
            stats: DedupStats::default(),
            budget,
            unkeyed: 0,
        }
    }

    /// Offers the next record (in input order) with its key. First
    /// occurrences are written to `out` at once unless the key set has
    /// spilled, in which case they may be deferred to [`Deduper::finish`].
    pub fn offer<W: Write + ?Sized>(
        &mut self,
        key: u128,
        record: &[u8],
        out: &mut W,
    ) -> io::Result<Offer> {
        if self.config.mode == DedupMode::Adjacent {
            let duplicate = self.last == Some(key);
            self.last = Some(key);
            return if duplicate {
                self.stats.dropped += 1;
                Ok(Offer::Dropped)
            } else {
                out.write_all(record)?;
                self.stats.kept += 1;
                Ok(Offer::Kept)
            };
        }
        if self.set.contains(&key) {
            self.stats.dropped += 1;
            return Ok(Offer::Dropped);
        }
        if self.spill.is_none() && !self.set_can_grow() {
            self.start_spill()?;
        }
        match &mut self.spill {
            None => {
                self.insert(key);
                out.write_all(record)?;
                self.stats.kept += 1;
                Ok(Offer::Kept)
            }
            Some(spill) => {
                spill.defer(key, self.stats.deferred, record)?;
                self.stats.deferred += 1;
                Ok(Offer::Deferred)
            }
        }
    }

    /// Passes output that has no key (for example invalid lines kept as
    /// they are): always written, but after the key set has spilled it is
    /// deferred like the keyed records around it, so the order holds.
    pub fn pass<W: Write + ?Sized>(&mut self, bytes: &[u8], out: &mut W) -> io::Result<()> {
        match &mut self.spill {
            None => out.write_all(bytes),
            Some(spill) => {
                spill.spool(bytes.len() as u64 | UNKEYED, bytes)?;
                self.stats.deferred += 1;
                self.unkeyed += 1;
                Ok(())
            }
        }
    }

    /// Whether one more key fits in the set within the memory budget.
    fn set_can_grow(&self) -> bool {
        let capacity = self.set.capacity();
        if self.set.len() < capacity {
            return true;
        }
        let now = table_bytes(buckets_of(capacity));
        let next = table_bytes(buckets_for(capacity + 1));
        let limit = self.budget.limit;
        // While growing, hashbrown holds the old table and the new one;
        // once grown, the set must leave room for the spill buffers.
        now + next <= limit && next + self.budget.spill_buffers() <= limit
    }

    fn insert(&mut self, key: u128) {
        let before = self.set.capacity();
        self.set.insert(key);
        if self.set.capacity() != before {
            let old = table_bytes(buckets_of(before));
            self.budget.note(old + set_bytes(&self.set));
        }
    }

    /// Freezes the set and creates the spill files.
    fn start_spill(&mut self) -> io::Result<()> {
        let spill = Spill::create(self.config.temp_dir.as_deref(), self.budget.unit)?;
        self.budget
            .note(set_bytes(&self.set) + self.budget.spill_buffers());
        self.spill = Some(spill);
        Ok(())
    }

    /// Decides the deferred records, writes the kept ones to `out` in input
    /// order, removes the spill files and returns the counts. Errors of the
    /// spill files are [`SpillError`]s; errors writing `out` are returned
    /// as they are.
    pub fn finish<W: Write + ?Sized>(mut self, out: &mut W) -> io::Result<DedupStats> {
        if let Some(spill) = self.spill.take() {
            // The frozen set is no longer needed: give its memory to the
            // partition pass.
            self.set = KeySet::default();
            let dir = spill.close()?;
            let deferred = self.stats.deferred;
            let mut pass = Finish::new(&dir.path, deferred, &mut self.budget);
            pass.decide()?;
            let kept = pass.replay(deferred, out)?;
            self.stats.kept += kept;
            self.stats.dropped += deferred - self.unkeyed - kept;
            self.stats.deferred -= self.unkeyed;
        }
        self.stats.memory_peak = self.budget.peak;
        Ok(self.stats)
    }
}

/// The pipeline's dedup hook: a `Deduper` is the writer's
/// [`KeyFilter`](crate::pipeline::KeyFilter), as for `normurl --dedup`.
/// [`KeyFilter::finish`](crate::pipeline::KeyFilter::finish) returns the
/// records dropped and leaves a fresh deduper with the same configuration.
///
/// # Example
///
/// ```
/// use normurl::dedup::{DedupConfig, Deduper};
/// use normurl::normalize::{Normalizer, Options};
/// use normurl::pipeline::{Input, Pipeline, Sinks};
///
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("urls.txt");
/// std::fs::write(&path, "http://A.example/\nhttp://a.example\nhttp://b.example/\n")?;
/// let options = Options { dedup: true, ..Options::default() };
/// let pipeline = Pipeline::builder().build(Normalizer::new(options));
/// let mut dedup = Deduper::new(DedupConfig::default());
/// let mut out = Vec::new();
/// let summary = pipeline.run(
///     vec![Input::path(&path)],
///     Sinks::new("<stdout>", &mut out).key_filter(&mut dedup),
/// )?;
/// assert_eq!(out, b"http://a.example/\nhttp://b.example/\n");
/// assert_eq!(summary.deduplicated, 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
impl crate::pipeline::KeyFilter for Deduper {
    fn offer(&mut self, key: u128, record: &[u8], out: &mut Vec<u8>) -> io::Result<()> {
        Deduper::offer(self, key, record, out).map(|_| ())
    }

    fn pass(&mut self, bytes: &[u8], out: &mut Vec<u8>) -> io::Result<()> {
        Deduper::pass(self, bytes, out)
    }

    fn finish(&mut self, out: &mut dyn Write) -> io::Result<u64> {
        let fresh = Deduper::new(self.config.clone());
        let stats = std::mem::replace(self, fresh).finish(out)?;
        Ok(stats.dropped)
    }
}

impl Spill {
    fn create(temp_dir: Option<&Path>, unit: usize) -> io::Result<Spill> {
        let dir = TempDir::new(temp_dir, &SPILL_DIRS)?;
        let create = |name: String, capacity: usize| {
            let path = dir.path.join(name);
            create_private_file(&path)
                .map(|f| BufWriter::with_capacity(capacity, f))
                .map_err(|e| error_at(&dir.path, "cannot create", &path, e))
        };
        let spool = create("spool".into(), 8 * unit)?;
        let partitions = (0..PARTITIONS)
            .map(|p| create(format!("p{p}"), unit))
            .collect::<io::Result<Vec<_>>>()?;
        Ok(Spill {
            dir,
            spool,
            partitions,
        })
    }

    /// Appends an item to the spool: its length (with [`UNKEYED`] set for
    /// bytes that have no key) and its bytes.
    fn spool(&mut self, header: u64, bytes: &[u8]) -> io::Result<()> {
        let w = &mut self.spool;
        w.write_all(&header.to_le_bytes())
            .and_then(|()| w.write_all(bytes))
            .map_err(|e| spill_error(&self.dir.path, "write error in spool", e))
    }

    fn defer(&mut self, key: u128, index: u64, record: &[u8]) -> io::Result<()> {
        self.spool(record.len() as u64, record)?;
        let p = partition_of(key, 0);
        write_entry(&mut self.partitions[p], key, index)
            .map_err(|e| spill_error(&self.dir.path, format!("write error in p{p}"), e))
    }

    /// Flushes the spill files and frees their buffers.
    fn close(self) -> io::Result<TempDir> {
        let Spill {
            dir,
            spool,
            partitions,
        } = self;
        let flush = |mut w: BufWriter<File>, name: String| {
            w.flush()
                .map_err(|e| spill_error(&dir.path, format!("write error in {name}"), e))
        };
        flush(spool, "spool".into())?;
        for (p, w) in partitions.into_iter().enumerate() {
            flush(w, format!("p{p}"))?;
        }
        Ok(dir)
    }
}

fn write_entry(w: &mut impl Write, key: u128, index: u64) -> io::Result<()> {
    w.write_all(&key.to_le_bytes())?;
    w.write_all(&index.to_le_bytes())
}

/// A spill error about the file at `path` in the spill directory `dir`.
fn error_at(dir: &Path, what: &str, path: &Path, e: io::Error) -> io::Error {
    let name = path.strip_prefix(dir).unwrap_or(path).display();
    spill_error(dir, format!("{what} {name}"), e)
}

/// Which partition `key` goes to at recursion `level`: six fresh bits of
/// the high half each level (the set hashes by the low half).
fn partition_of(key: u128, level: u32) -> usize {
    ((key >> (64 + 6 * level)) as usize) % PARTITIONS
}

/// The deepest split: by then 60 bits of the high half were used and no
/// more splitting can separate keys that collide there.
const MAX_LEVEL: u32 = 9;

/// Partitions with fewer entries are decided in memory whatever the budget
/// (a set of 140 KiB at most): splitting them costs 64 files for little
/// gain. Tests lower it to exercise the split path on small inputs.
const MIN_SPLIT_ENTRIES: u64 = if cfg!(test) { 48 } else { 1 << 12 };

/// The end of a spilled run: decides the deferred records from the
/// partition files, then replays the spool.
struct Finish<'a> {
    dir: &'a Path,
    budget: &'a mut Budget,
    /// One bit per deferred record: set for the first occurrence of its
    /// key among the deferred records.
    keep: Vec<u64>,
}

impl<'a> Finish<'a> {
    fn new(dir: &'a Path, deferred: u64, budget: &'a mut Budget) -> Finish<'a> {
        let words = usize::try_from(deferred.div_ceil(64)).unwrap_or(usize::MAX);
        Finish {
            dir,
            budget,
            keep: vec![0; words],
        }
    }

    /// What every step holds: the keep bits and a reader.
    fn base(&self) -> usize {
        self.keep.capacity() * 8 + self.budget.reader()
    }

    fn decide(&mut self) -> io::Result<()> {
        for p in 0..PARTITIONS {
            self.partition(&self.dir.join(format!("p{p}")), 0, None)?;
        }
        Ok(())
    }

    /// Marks the first occurrence of each key in the partition file at
    /// `path` (entries are in input order), and with `counts` (`--count`)
    /// also gives it each one's index and number of occurrences. A
    /// partition whose table would not fit in the budget is split by the
    /// next hash bits first.
    fn partition(
        &mut self,
        path: &Path,
        level: u32,
        counts: Option<&mut CountRuns>,
    ) -> io::Result<()> {
        let entries = fs::metadata(path)
            .map_err(|e| error_at(self.dir, "read error in", path, e))?
            .len()
            / 24;
        let capacity = usize::try_from(entries).unwrap_or(usize::MAX);
        let buckets = buckets_for(capacity);
        let table = match counts {
            None => table_bytes(buckets),
            Some(_) => count_map_bytes(buckets),
        };
        let base = self.base() + counts.as_ref().map_or(0, |c| c.bytes());
        if self.must_split(base + table, table, entries, level) {
            self.budget.note(base + PARTITIONS * self.budget.unit);
            return self.split(path, level, entries, counts);
        }
        // Room for every entry from the start: a growing table would hold
        // two copies at once.
        self.budget.note(base + table);
        match counts {
            None => self.first_occurrences(path, capacity)?,
            Some(counts) => self.counted_occurrences(path, capacity, counts)?,
        }
        fs::remove_file(path).map_err(|e| error_at(self.dir, "cannot remove", path, e))
    }

    /// Whether a partition of `entries` at `level`, whose pass would take
    /// `needed` bytes with a table of `table` bytes, is split first: it
    /// does not fit in the budget, the split's 64 writers take less than
    /// the table, hash bits are left to split by, and it is not too small
    /// to be worth it.
    fn must_split(&self, needed: usize, table: usize, entries: u64, level: u32) -> bool {
        needed > self.budget.limit
            && PARTITIONS * self.budget.unit < table
            && level < MAX_LEVEL
            && entries >= MIN_SPLIT_ENTRIES
    }

    /// Sets the keep bit of each key's first entry in `path`.
    fn first_occurrences(&mut self, path: &Path, capacity: usize) -> io::Result<()> {
        let mut seen = KeySet::with_capacity_and_hasher(capacity, Default::default());
        let (dir, keep) = (self.dir, &mut self.keep);
        for_each_entry(dir, path, self.budget.reader(), |key, index| {
            let word = keep_word(keep, index, dir, path)?;
            if seen.insert(key) {
                *word |= 1 << (index % 64);
            }
            Ok(())
        })
    }

    /// Sets the keep bit of each key's first entry in `path` and gives
    /// `counts` its index and the key's number of entries.
    fn counted_occurrences(
        &mut self,
        path: &Path,
        capacity: usize,
        counts: &mut CountRuns,
    ) -> io::Result<()> {
        let mut seen: CountMap = HashMap::with_capacity_and_hasher(capacity, Default::default());
        let (dir, keep) = (self.dir, &mut self.keep);
        for_each_entry(dir, path, self.budget.reader(), |key, index| {
            let word = keep_word(keep, index, dir, path)?;
            let entry = seen.entry(key).or_insert_with(|| {
                *word |= 1 << (index % 64);
                (index, 0)
            });
            entry.1 += 1;
            Ok(())
        })?;
        seen.into_values()
            .try_for_each(|(index, n)| counts.push(index, n))
    }

    /// Splits the partition file at `path` by the hash bits of `level + 1`
    /// and decides each part.
    fn split(
        &mut self,
        path: &Path,
        level: u32,
        entries: u64,
        mut counts: Option<&mut CountRuns>,
    ) -> io::Result<()> {
        let dir = path.with_extension(format!("split{level}"));
        create_private_dir(&dir).map_err(|e| error_at(self.dir, "cannot create", &dir, e))?;
        let parts = self.split_into(path, &dir, level)?;
        fs::remove_file(path).map_err(|e| error_at(self.dir, "cannot remove", path, e))?;
        // If every entry landed in one sub-partition (one key repeated, or
        // keys equal in these bits), splitting again would not help.
        let progress = parts.iter().all(|&c| c < entries);
        let next_level = if progress { level + 1 } else { MAX_LEVEL };
        for p in 0..PARTITIONS {
            let part = dir.join(format!("p{p}"));
            self.partition(&part, next_level, counts.as_deref_mut())?;
        }
        fs::remove_dir(&dir).map_err(|e| error_at(self.dir, "cannot remove", &dir, e))
    }

    /// Copies the entries of `path` to one file per sub-partition in `dir`;
    /// returns how many went to each.
    fn split_into(&self, path: &Path, dir: &Path, level: u32) -> io::Result<[u64; PARTITIONS]> {
        let root = self.dir;
        let mut parts = (0..PARTITIONS)
            .map(|p| {
                let part = dir.join(format!("p{p}"));
                create_private_file(&part)
                    .map(|f| (BufWriter::with_capacity(self.budget.unit, f), part.clone()))
                    .map_err(|e| error_at(root, "cannot create", &part, e))
            })
            .collect::<io::Result<Vec<_>>>()?;
        let mut counts = [0u64; PARTITIONS];
        for_each_entry(root, path, self.budget.reader(), |key, index| {
            let p = partition_of(key, level + 1);
            counts[p] += 1;
            let (w, part) = &mut parts[p];
            write_entry(w, key, index).map_err(|e| error_at(root, "write error in", part, e))
        })?;
        for (w, part) in &mut parts {
            w.flush()
                .map_err(|e| error_at(root, "write error in", part, e))?;
        }
        Ok(counts)
    }

    /// Replays the spool in order, writing the unkeyed items and the
    /// records whose bit is set; returns the records written.
    fn replay<W: Write + ?Sized>(&mut self, deferred: u64, out: &mut W) -> io::Result<u64> {
        let path = self.dir.join("spool");
        let dir = self.dir;
        let read_error = |e| error_at(dir, "read error in", &path, e);
        // A reader and, since records are small and `out` may be unbuffered
        // (a terminal or a pipe), a writer of the same size.
        let buffer = self.budget.reader();
        self.budget.note(self.base() + buffer);
        let file = File::open(&path).map_err(read_error)?;
        let mut reader = BufReader::with_capacity(buffer, file);
        let mut out = BufWriter::with_capacity(buffer, out);
        let mut kept = 0;
        for index in 0..deferred {
            let mut header = [0u8; 8];
            reader.read_exact(&mut header).map_err(read_error)?;
            let header = u64::from_le_bytes(header);
            let unkeyed = header & UNKEYED != 0;
            let len = header & !UNKEYED;
            if unkeyed || self.keeps(index) {
                copy_out(&mut reader, len, &mut out, read_error)?;
                kept += u64::from(!unkeyed);
            } else {
                // The length has its top bit clear, so it fits an i64.
                reader.seek_relative(len as i64).map_err(read_error)?;
            }
        }
        out.flush()?;
        Ok(kept)
    }

    fn keeps(&self, index: u64) -> bool {
        let word = self.keep.get((index / 64) as usize).copied().unwrap_or(0);
        word >> (index % 64) & 1 == 1
    }
}

/// The word of `keep` that holds deferred record `index`'s bit; an index
/// past the deferred records means the partition file at `path` is
/// corrupt.
fn keep_word<'k>(
    keep: &'k mut [u64],
    index: u64,
    dir: &Path,
    path: &Path,
) -> io::Result<&'k mut u64> {
    keep.get_mut((index / 64) as usize).ok_or_else(|| {
        let e = io::Error::new(io::ErrorKind::InvalidData, "record index out of range");
        error_at(dir, "corrupt", path, e)
    })
}

/// Copies `len` bytes of the spool to `out` through a stack buffer: read
/// errors become spill errors, errors writing `out` are returned as they
/// are.
fn copy_out<W: Write + ?Sized>(
    reader: &mut impl Read,
    len: u64,
    out: &mut W,
    read_error: impl Fn(io::Error) -> io::Error,
) -> io::Result<()> {
    let mut chunk = [0u8; 8192];
    let mut left = len;
    while left > 0 {
        let n = left.min(chunk.len() as u64) as usize;
        reader.read_exact(&mut chunk[..n]).map_err(&read_error)?;
        out.write_all(&chunk[..n])?;
        left -= n as u64;
    }
    Ok(())
}

/// Calls `f` with each `(key, index)` entry of the partition file at
/// `path` in the spill directory `dir`. Read errors become spill errors;
/// `f`'s are returned as they are.
fn for_each_entry(
    dir: &Path,
    path: &Path,
    buffer: usize,
    mut f: impl FnMut(u128, u64) -> io::Result<()>,
) -> io::Result<()> {
    let read_error = |e| error_at(dir, "read error in", path, e);
    let mut reader = BufReader::with_capacity(buffer, File::open(path).map_err(read_error)?);
    let mut entry = [0u8; 24];
    loop {
        match reader.read_exact(&mut entry) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(()),
            Err(e) => return Err(read_error(e)),
        }
        let (key, index) = entry.split_at(16);
        let key = u128::from_le_bytes(key.try_into().unwrap_or_default());
        let index = u64::from_le_bytes(index.try_into().unwrap_or_default());
        f(key, index)?;
    }
}

/// The spill directories of this process's dedupers, for
/// [`remove_spill_dirs`].
pub(crate) static SPILL_DIRS: Registry = Registry::new();

#[cfg(test)]
mod tests;
