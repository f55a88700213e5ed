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
//! input order, with memory bounded by the budget (plus one bit per deferred
//! record).
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

use std::collections::HashSet;
use std::fs::{self, File};
use std::hash::{BuildHasherDefault, Hasher};
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// How many hash partitions deferred keys are spread over (and how many
/// sub-partitions a partition that is still too big is split into).
pub const PARTITIONS: usize = 64;

/// Marks a spooled item that has no key and is always written.
const UNKEYED: u64 = 1 << 63;

/// Bytes of memory one key costs in the in-memory set: 16 bytes of key plus
/// one control byte per slot (hashbrown), at full capacity.
const BYTES_PER_SLOT: usize = 17;

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
    /// The memory budget for the key set, in bytes. Past it, keys spill to
    /// disk.
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

/// Deduplicates records by key, in input order; see the module docs.
pub struct Deduper {
    config: DedupConfig,
    last: Option<u128>,
    set: KeySet,
    spill: Option<Spill>,
    stats: DedupStats,
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
        Deduper {
            config,
            last: None,
            set: KeySet::default(),
            spill: None,
            stats: DedupStats::default(),
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
            self.spill = Some(Spill::create(self.config.temp_dir.as_deref())?);
        }
        match &mut self.spill {
            None => {
                self.set.insert(key);
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
                spill.defer_unkeyed(self.stats.deferred, bytes)?;
                self.stats.deferred += 1;
                self.unkeyed += 1;
                Ok(())
            }
        }
    }

    /// Whether one more key fits in the set within the memory budget
    /// (hashbrown doubles its capacity when full).
    fn set_can_grow(&self) -> bool {
        let capacity = self.set.capacity();
        if self.set.len() < capacity {
            return true;
        }
        let next = if capacity == 0 { 4 } else { capacity * 2 };
        next * BYTES_PER_SLOT <= self.config.memory_limit
    }

    /// Decides the deferred records, writes the kept ones to `out` in input
    /// order, removes the spill files and returns the counts.
    pub fn finish<W: Write + ?Sized>(mut self, out: &mut W) -> io::Result<DedupStats> {
        let Some(mut spill) = self.spill.take() else {
            return Ok(self.stats);
        };
        // The frozen set is no longer needed: give its memory to the
        // partition pass.
        self.set = KeySet::default();
        let deferred = self.stats.deferred;
        let keep = spill.decide(deferred, self.config.memory_limit)?;
        let kept = spill.replay(&keep, deferred, out)?;
        self.stats.kept += kept;
        self.stats.dropped += deferred - self.unkeyed - kept;
        self.stats.deferred -= self.unkeyed;
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
    fn create(temp_dir: Option<&Path>) -> io::Result<Spill> {
        let dir = TempDir::new(temp_dir)?;
        let spool = BufWriter::with_capacity(1 << 16, File::create(dir.path.join("spool"))?);
        let partitions = (0..PARTITIONS)
            .map(|p| {
                Ok(BufWriter::with_capacity(
                    1 << 13,
                    File::create(dir.path.join(format!("p{p}")))?,
                ))
            })
            .collect::<io::Result<Vec<_>>>()?;
        Ok(Spill {
            dir,
            spool,
            partitions,
        })
    }

    /// Spools bytes that are always written (no key): the top bit of the
    /// length marks them.
    fn defer_unkeyed(&mut self, _index: u64, bytes: &[u8]) -> io::Result<()> {
        self.spool
            .write_all(&(bytes.len() as u64 | UNKEYED).to_le_bytes())?;
        self.spool.write_all(bytes)
    }

    fn defer(&mut self, key: u128, index: u64, record: &[u8]) -> io::Result<()> {
        self.spool.write_all(&(record.len() as u64).to_le_bytes())?;
        self.spool.write_all(record)?;
        let partition = partition_of(key, 0);
        let w = &mut self.partitions[partition];
        w.write_all(&key.to_le_bytes())?;
        w.write_all(&index.to_le_bytes())
    }

    /// Reads every partition back and returns one bit per deferred record:
    /// set for the first occurrence of its key among the deferred records.
    fn decide(&mut self, deferred: u64, memory_limit: usize) -> io::Result<Vec<u64>> {
        let mut keep = vec![0u64; (deferred as usize).div_ceil(64)];
        let paths: Vec<PathBuf> = (0..PARTITIONS)
            .map(|p| self.dir.path.join(format!("p{p}")))
            .collect();
        for w in &mut self.partitions {
            w.flush()?;
        }
        self.partitions.clear();
        for path in paths {
            decide_partition(&path, 0, memory_limit, &mut keep)?;
        }
        Ok(keep)
    }

    /// Replays the spool in order, writing the records whose bit is set.
    fn replay<W: Write + ?Sized>(
        mut self,
        keep: &[u64],
        deferred: u64,
        out: &mut W,
    ) -> io::Result<u64> {
        self.spool.flush()?;
        let mut reader =
            BufReader::with_capacity(1 << 16, File::open(self.dir.path.join("spool"))?);
        let mut record = Vec::new();
        let mut kept = 0;
        for index in 0..deferred {
            let mut len = [0u8; 8];
            reader.read_exact(&mut len)?;
            let len = u64::from_le_bytes(len);
            let unkeyed = len & UNKEYED != 0;
            let len = (len & !UNKEYED) as usize;
            if unkeyed || keep[(index / 64) as usize] >> (index % 64) & 1 == 1 {
                record.resize(len, 0);
                reader.read_exact(&mut record)?;
                out.write_all(&record)?;
                kept += u64::from(!unkeyed);
            } else {
                io::copy(&mut (&mut reader).take(len as u64), &mut io::sink())?;
            }
        }
        Ok(kept)
    }
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
/// (a few MB at most): splitting them costs 64 files for little gain. Tests
/// lower it to exercise the split path on small inputs.
const MIN_SPLIT_ENTRIES: u64 = if cfg!(test) { 48 } else { 1 << 16 };

/// Marks the first occurrence of each key in the partition file at `path`
/// (entries are in input order). A partition whose set would exceed the
/// budget is split by the next hash bits first.
fn decide_partition(
    path: &Path,
    level: u32,
    memory_limit: usize,
    keep: &mut [u64],
) -> io::Result<()> {
    let entries = fs::metadata(path)?.len() / 24;
    let needed = (entries as usize).saturating_mul(2 * BYTES_PER_SLOT);
    if needed > memory_limit && level < MAX_LEVEL && entries >= MIN_SPLIT_ENTRIES {
        let dir = path.with_extension(format!("split{level}"));
        fs::create_dir(&dir)?;
        let mut counts = [0u64; PARTITIONS];
        {
            let mut writers = (0..PARTITIONS)
                .map(|p| Ok(BufWriter::new(File::create(dir.join(format!("p{p}")))?)))
                .collect::<io::Result<Vec<_>>>()?;
            for_each_entry(path, |key, index| {
                let p = partition_of(key, level + 1);
                counts[p] += 1;
                let w = &mut writers[p];
                w.write_all(&key.to_le_bytes())?;
                w.write_all(&index.to_le_bytes())
            })?;
            for w in &mut writers {
                w.flush()?;
            }
        }
        fs::remove_file(path)?;
        // If every entry landed in one sub-partition (one key repeated, or
        // keys equal in these bits), splitting again would not help.
        let progress = counts.iter().all(|&c| c < entries);
        let next_level = if progress { level + 1 } else { MAX_LEVEL };
        for p in 0..PARTITIONS {
            decide_partition(&dir.join(format!("p{p}")), next_level, memory_limit, keep)?;
        }
        return fs::remove_dir(&dir);
    }
    let mut seen = KeySet::default();
    for_each_entry(path, |key, index| {
        if seen.insert(key) {
            keep[(index / 64) as usize] |= 1 << (index % 64);
        }
        Ok(())
    })?;
    fs::remove_file(path)
}

fn for_each_entry(path: &Path, mut f: impl FnMut(u128, u64) -> io::Result<()>) -> io::Result<()> {
    let mut reader = BufReader::with_capacity(1 << 16, File::open(path)?);
    let mut entry = [0u8; 24];
    loop {
        match reader.read_exact(&mut entry) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(()),
            Err(e) => return Err(e),
        }
        let key = u128::from_le_bytes(entry[..16].try_into().unwrap());
        let index = u64::from_le_bytes(entry[16..].try_into().unwrap());
        f(key, index)?;
    }
}

/// A uniquely named directory, removed (best effort) when dropped.
struct TempDir {
    path: PathBuf,
}

impl TempDir {
    fn new(parent: Option<&Path>) -> io::Result<TempDir> {
        let parent = parent
            .map(Path::to_path_buf)
            .unwrap_or_else(std::env::temp_dir);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        for attempt in 0..100u32 {
            let path = parent.join(format!(
                "normurl-dedup-{}-{nanos}-{attempt}",
                std::process::id()
            ));
            match fs::create_dir(&path) {
                Ok(()) => return Ok(TempDir { path }),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => {
                    return Err(io::Error::new(
                        e.kind(),
                        format!(
                            "cannot create a spill directory in {}: {e}",
                            parent.display()
                        ),
                    ))
                }
            }
        }
        Err(io::Error::other(format!(
            "cannot create a unique spill directory in {}",
            parent.display()
        )))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The naive oracle: a HashSet of everything seen.
    fn naive(records: &[(u128, Vec<u8>)]) -> Vec<u8> {
        let mut seen = HashSet::new();
        records
            .iter()
            .filter(|(k, _)| seen.insert(*k))
            .flat_map(|(_, r)| r.clone())
            .collect()
    }

    fn run(records: &[(u128, Vec<u8>)], config: DedupConfig) -> (Vec<u8>, DedupStats) {
        let mut d = Deduper::new(config);
        let mut out = Vec::new();
        for (k, r) in records {
            d.offer(*k, r, &mut out).unwrap();
        }
        let stats = d.finish(&mut out).unwrap();
        (out, stats)
    }

    fn records(keys: &[u64]) -> Vec<(u128, Vec<u8>)> {
        // Spread small keys over all 128 bits (as real hashes are), so that
        // partitions and sets see varied bits.
        keys.iter()
            .enumerate()
            .map(|(i, &k)| {
                let key = (k as u128).wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835);
                (key, format!("{k}:{i}\n").into_bytes())
            })
            .collect()
    }

    fn tiny(limit: usize) -> DedupConfig {
        DedupConfig {
            memory_limit: limit,
            ..DedupConfig::default()
        }
    }

    #[test]
    fn spilled_equals_in_memory() {
        let keys: Vec<u64> = (0..5000u64).map(|i| (i * 7919) % 1300).collect();
        let recs = records(&keys);
        let (mem, mem_stats) = run(&recs, DedupConfig::default());
        assert_eq!(mem_stats.deferred, 0);
        assert_eq!(mem, naive(&recs));
        // A budget so small that the set freezes almost at once, and the
        // partitions must be split again.
        for limit in [0, 64, 1000, 20_000] {
            let (spilled, stats) = run(&recs, tiny(limit));
            assert!(stats.deferred > 0, "limit {limit} did not spill");
            assert_eq!(spilled, mem, "limit {limit}");
            assert_eq!(
                (stats.kept, stats.dropped),
                (mem_stats.kept, mem_stats.dropped)
            );
        }
    }

    #[test]
    fn unkeyed_output_keeps_its_place_after_spilling() {
        let mut d = Deduper::new(tiny(0));
        let mut out = Vec::new();
        d.offer(1, b"a\n", &mut out).unwrap();
        d.pass(b"-\n", &mut out).unwrap();
        d.offer(1, b"a again\n", &mut out).unwrap();
        d.offer(2, b"b\n", &mut out).unwrap();
        d.pass(b"=\n", &mut out).unwrap();
        let stats = d.finish(&mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "a\n-\nb\n=\n");
        assert_eq!((stats.kept, stats.dropped), (2, 1));
    }

    #[test]
    fn adjacent_mode() {
        let recs = records(&[1, 1, 2, 1, 1, 3, 3]);
        let (out, stats) = run(
            &recs,
            DedupConfig {
                mode: DedupMode::Adjacent,
                ..DedupConfig::default()
            },
        );
        assert_eq!(String::from_utf8(out).unwrap(), "1:0\n2:2\n1:3\n3:5\n");
        assert_eq!((stats.kept, stats.dropped), (4, 3));
    }

    #[test]
    fn spill_directory_is_removed() {
        let parent =
            std::env::temp_dir().join(format!("normurl-dedup-test-{}", std::process::id()));
        fs::create_dir_all(&parent).unwrap();
        let recs = records(&(0..300).map(|i| i % 50).collect::<Vec<_>>());
        let (out, _) = run(
            &recs,
            DedupConfig {
                memory_limit: 0,
                temp_dir: Some(parent.clone()),
                ..Default::default()
            },
        );
        assert_eq!(out, naive(&recs));
        assert_eq!(
            fs::read_dir(&parent).unwrap().count(),
            0,
            "spill files left behind"
        );
        fs::remove_dir(&parent).unwrap();
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(32))]
        #[test]
        fn matches_naive(keys in proptest::collection::vec(0u64..40, 0..400), limit in proptest::prop_oneof![
            proptest::strategy::Just(usize::MAX),
            0usize..2000,
        ]) {
            let recs = records(&keys);
            let (out, stats) = run(&recs, tiny(limit));
            proptest::prop_assert_eq!(&out, &naive(&recs));
            proptest::prop_assert_eq!(stats.kept + stats.dropped, keys.len() as u64);
        }
    }
}
