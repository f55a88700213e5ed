//! The dedup filter's tests: exact and adjacent modes, spilling, the
//! memory budget.

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
    let parent = std::env::temp_dir().join(format!("normurl-dedup-test-{}", std::process::id()));
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

/// Uniform keys (as real hashes are), `distinct` of them, each
/// offered twice: first all, then every other one again.
fn spread(distinct: u64) -> impl Iterator<Item = u128> {
    let key = |i: u64| (u128::from(i) + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835);
    (0..distinct).chain((0..distinct).step_by(2)).map(key)
}

#[test]
fn counted_memory_stays_within_the_budget() {
    // 64K splits partitions at the end; 4M grows the set to 2^17 slots.
    for limit in [64 << 10, 256 << 10, 1 << 20, 4 << 20] {
        let mut d = Deduper::new(tiny(limit));
        for key in spread(150_000) {
            d.offer(key, b"r\n", &mut io::sink()).unwrap();
        }
        let stats = d.finish(&mut io::sink()).unwrap();
        assert!(stats.deferred > 0, "limit {limit} did not spill");
        assert_eq!((stats.kept, stats.dropped), (150_000, 75_000));
        assert!(
            stats.memory_peak <= limit,
            "limit {limit}: counted {}",
            stats.memory_peak
        );
        // The set used a fair share of it before spilling.
        assert!(stats.memory_peak > limit / 3, "limit {limit}: {stats:?}");
    }
}

#[test]
fn table_sizes_are_what_std_allocates() {
    for n in (1..3000).chain([100_000, 114_688, 114_689, 1 << 20]) {
        let set = KeySet::with_capacity_and_hasher(n, Default::default());
        assert_eq!(
            buckets_of(set.capacity()),
            buckets_for(n),
            "with_capacity({n})"
        );
    }
    let mut set = KeySet::default();
    for key in 0..100_000u128 {
        let before = set.capacity();
        set.insert(key << 64 | key);
        if set.capacity() != before {
            assert_eq!(buckets_of(set.capacity()), buckets_for(before + 1));
        }
    }
}

/// The spill directory of a deduper that spilled into `parent`.
fn spill_dir_in(parent: &Path) -> PathBuf {
    let mut dirs: Vec<PathBuf> = fs::read_dir(parent)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(dirs.len(), 1, "{dirs:?}");
    dirs.pop().unwrap()
}

fn spilled_in(parent: &Path) -> Deduper {
    let mut d = Deduper::new(DedupConfig {
        memory_limit: 0,
        temp_dir: Some(parent.to_path_buf()),
        ..DedupConfig::default()
    });
    for (key, record) in records(&(0..300).map(|i| i % 50).collect::<Vec<_>>()) {
        d.offer(key, &record, &mut io::sink()).unwrap();
    }
    d
}

#[test]
fn spill_errors_name_the_spill_directory() {
    let parent = tempfile::tempdir().unwrap();
    let d = spilled_in(parent.path());
    let dir = spill_dir_in(parent.path());
    fs::remove_file(dir.join("p0")).unwrap();
    let e = d.finish(&mut Vec::new()).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "spill directory {}: read error in p0: No such file or directory (os error 2)",
            dir.display()
        )
    );
    assert!(e.get_ref().is_some_and(|e| e.is::<SpillError>()));
    assert_eq!(fs::read_dir(parent.path()).unwrap().count(), 0);
}

#[test]
fn output_errors_are_returned_as_they_are() {
    struct Broken;
    impl Write for Broken {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::new(io::ErrorKind::StorageFull, "output is full"))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    let parent = tempfile::tempdir().unwrap();
    let e = spilled_in(parent.path()).finish(&mut Broken).unwrap_err();
    assert_eq!(
        (e.kind(), e.to_string()),
        (io::ErrorKind::StorageFull, "output is full".into())
    );
    assert!(!e.get_ref().is_some_and(|e| e.is::<SpillError>()));
}

#[test]
fn removed_spill_dirs_stay_removed() {
    static REGISTRY: Registry = Registry::new();
    let parent = tempfile::tempdir().unwrap();
    let dir = TempDir::new(Some(parent.path()), &REGISTRY).unwrap();
    fs::write(dir.path.join("spool"), b"x").unwrap();
    REGISTRY.remove_all();
    assert_eq!(fs::read_dir(parent.path()).unwrap().count(), 0);
    let e = TempDir::new(Some(parent.path()), &REGISTRY).err().unwrap();
    assert!(
        e.to_string().contains("not created: the program is ending"),
        "{e}"
    );
    assert_eq!(fs::read_dir(parent.path()).unwrap().count(), 0);
    drop(dir);
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

/// The sharded deduper through the real pipeline: records are lines
/// `K:I`, keyed by `K` (spread over all bits), with unkeyed lines (`-`)
/// among them.
fn sharded(
    lines: &[u8],
    threads: usize,
    batch_bytes: usize,
    limit: usize,
    count: bool,
) -> (Vec<u8>, u64) {
    use crate::pipeline::{Input, Outcome, Output, Pipeline, Record, Sinks, Stop, Transform};

    /// Keys a line by what is before its `:`; `-` lines have no key.
    struct Keyed;
    impl Transform for Keyed {
        type State = ();
        type Stats = ();
        fn state(&self) {}
        fn record(
            &self,
            _: &mut (),
            rec: Record<'_>,
            out: &mut Output<'_, ()>,
        ) -> Result<Outcome, Stop> {
            let line = rec.bytes();
            out.data().extend_from_slice(line);
            if let Some(colon) = line.iter().position(|&b| b == b':') {
                let k: u64 = std::str::from_utf8(&line[..colon])
                    .unwrap()
                    .parse()
                    .unwrap();
                out.dedup_key(
                    (u128::from(k) + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835),
                );
            }
            Ok(Outcome::Emit)
        }
        fn overlong(
            &self,
            _: &mut (),
            _: crate::pipeline::Part,
            _: &[u8],
            _: &mut Output<'_, ()>,
        ) -> Result<Outcome, Stop> {
            Ok(Outcome::Skip)
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("in.txt");
    fs::write(&path, lines).unwrap();
    let config = DedupConfig {
        memory_limit: limit,
        temp_dir: Some(dir.path().to_path_buf()),
        ..DedupConfig::default()
    };
    let shards = Shards::new(config, count);
    let mut writer = ShardWriter::new(&shards, CountFormat::Prefix(b'\t'));
    let pipeline = Pipeline::builder()
        .threads(threads)
        .batch_bytes(batch_bytes)
        .build(Keyed);
    let mut out = Vec::new();
    let summary = pipeline
        .run(
            vec![Input::path(&path)],
            Sinks::new("out", &mut out)
                .key_filter(&mut writer)
                .key_shards(&shards),
        )
        .unwrap();
    // Only the input is left: the spill directory is gone.
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    (out, summary.deduplicated)
}

/// What `uniq -c`'s order-keeping cousin writes: each key's first line
/// with its count, in first-occurrence order; `-` lines as they are.
fn naive_counts(lines: &str) -> String {
    let mut order: Vec<&str> = Vec::new();
    let mut counts: HashMap<&str, u64> = HashMap::new();
    let mut first: HashMap<&str, usize> = HashMap::new();
    let mut items: Vec<Result<&str, usize>> = Vec::new();
    for line in lines.lines() {
        match line.split_once(':') {
            Some((k, _)) => {
                *counts.entry(k).or_default() += 1;
                if !first.contains_key(k) {
                    first.insert(k, order.len());
                    items.push(Err(order.len()));
                    order.push(line);
                }
            }
            None => items.push(Ok(line)),
        }
    }
    let mut out = String::new();
    for item in items {
        match item {
            Ok(line) => out += &format!("{line}\n"),
            Err(i) => {
                let line = order[i];
                let k = line.split_once(':').unwrap().0;
                out += &format!("{}\t{line}\n", counts[k]);
            }
        }
    }
    out
}

fn lines_of(keys: &[Option<u64>]) -> String {
    keys.iter()
        .enumerate()
        .map(|(i, k)| match k {
            Some(k) => format!("{k}:{i}\n"),
            None => "-\n".to_string(),
        })
        .collect()
}

#[test]
fn sharded_spills_and_counts_exactly() {
    let keys: Vec<Option<u64>> = (0..6000u64)
        .map(|i| (i % 97 != 5).then_some((i * 7919) % 2500))
        .collect();
    let text = lines_of(&keys);
    let expected_dedup: String = {
        let mut seen = HashSet::new();
        text.lines()
            .filter(|l| {
                l.split_once(':')
                    .is_none_or(|(k, _)| seen.insert(k.to_string()))
            })
            .map(|l| format!("{l}\n"))
            .collect()
    };
    let expected_count = naive_counts(&text);
    for (threads, batch, limit) in [
        (1, 1 << 20, 1 << 30),
        (3, 100, 0),
        (8, 4096, 20_000),
        (2, 777, 200_000),
    ] {
        let (out, dropped) = sharded(text.as_bytes(), threads, batch, limit, false);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            expected_dedup,
            "-j {threads} {batch} {limit}"
        );
        assert_eq!(dropped, 6000 - 62 - 2500);
        let (out, _) = sharded(text.as_bytes(), threads, batch, limit, true);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            expected_count,
            "--count -j {threads} {batch} {limit}"
        );
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]
    /// The sharded deduper and counter against the sequential oracle and a
    /// naive count: any keys, batch sizes, thread counts, budgets.
    #[test]
    fn sharded_matches_sequential(
        keys in proptest::collection::vec(proptest::option::weighted(0.9, 0u64..60), 0..300),
        threads in 1usize..9,
        batch in 1usize..200,
        limit in proptest::prop_oneof![
            proptest::strategy::Just(usize::MAX),
            proptest::strategy::Just(0usize),
            2000usize..40_000,
        ],
    ) {
        let text = lines_of(&keys);
        let recs: Vec<(u128, Vec<u8>)> = keys.iter().enumerate().map(|(i, k)| match k {
            Some(k) => ((u128::from(*k) + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835), format!("{k}:{i}\n").into_bytes()),
            None => (u128::MAX, b"-\n".to_vec()),
        }).collect();
        let mut d = Deduper::new(tiny(limit));
        let mut expected = Vec::new();
        for (k, r) in &recs {
            if *k == u128::MAX { d.pass(r, &mut expected).unwrap(); } else { d.offer(*k, r, &mut expected).unwrap(); }
        }
        let stats = d.finish(&mut expected).unwrap();
        let (out, dropped) = sharded(text.as_bytes(), threads, batch, limit, false);
        proptest::prop_assert_eq!(String::from_utf8(out).unwrap(), String::from_utf8(expected).unwrap());
        proptest::prop_assert_eq!(dropped, stats.dropped);
        let (out, _) = sharded(text.as_bytes(), threads, batch, limit, true);
        proptest::prop_assert_eq!(String::from_utf8(out).unwrap(), naive_counts(&text));
    }
}

/// `(index, count)` pairs in a scrambled order, as the final pass finds
/// them: each index once.
fn scrambled_pairs(n: u64) -> Vec<(u64, u64)> {
    let mut pairs: Vec<(u64, u64)> = (0..n).map(|i| (i * 3 + 1, i % 5 + 1)).collect();
    // A fixed permutation (multiplying by a unit modulo n).
    let n = n as usize;
    (0..n).for_each(|i| pairs.swap(i, (i * 7919 + 13) % n));
    pairs
}

/// The counts of the pairs of `scrambled_pairs(n)`, read back in index
/// order.
fn read_back(counts: &mut count_runs::Counts, n: u64) -> Vec<u64> {
    (0..n).map(|i| counts.of(i * 3 + 1).unwrap()).collect()
}

#[test]
fn count_runs_stay_in_memory_while_they_fit() {
    let dir = tempfile::tempdir().unwrap();
    let mut runs = CountRuns::new(dir.path(), "c".into(), 1 << 20, 4096);
    for (index, count) in scrambled_pairs(1000) {
        runs.push(index, count).unwrap();
    }
    let mut budget = Budget::new(1 << 20);
    let mut counts = runs.finish(0, &mut budget).unwrap();
    assert!(matches!(counts, count_runs::Counts::Memory { .. }));
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
    let got = read_back(&mut counts, 1000);
    assert_eq!(got, (0..1000).map(|i| i % 5 + 1).collect::<Vec<_>>());
}

#[test]
fn count_runs_past_the_buffer_merge_into_one_sorted_file() {
    let dir = tempfile::tempdir().unwrap();
    // 8 pairs a buffer: 1,250 runs, merged 16 at a time over 3 levels.
    let mut runs = CountRuns::new(dir.path(), "c".into(), 8 * 16, 64);
    assert_eq!(runs.bytes(), 8 * 16 + 64);
    for (index, count) in scrambled_pairs(10_000) {
        runs.push(index, count).unwrap();
    }
    let mut budget = Budget::new(0);
    let mut counts = runs.finish(100, &mut budget).unwrap();
    // One file is left, read through one buffer.
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    assert!(matches!(counts, count_runs::Counts::File { .. }));
    assert_eq!(counts.bytes(), 64);
    // The merge's readers and writer were counted.
    assert!(budget.peak >= 100 + 17 * 64, "{}", budget.peak);
    // Every other index asked for: the pairs between are passed over.
    let mut expected = Vec::new();
    let mut got = Vec::new();
    for i in (0..10_000u64).step_by(2) {
        got.push(counts.of(i * 3 + 1).unwrap());
        expected.push(i % 5 + 1);
    }
    assert_eq!(got, expected);
    // An index that has no pair is an error, not a count made up.
    let e = counts.of(10_000 * 3 + 5).unwrap_err();
    assert!(e.to_string().contains("no count for a kept record"), "{e}");
}

#[test]
fn sharded_counts_of_many_distinct_spilled_values_are_exact() {
    // Most keys are deferred and distinct: their counts fill the buffers
    // (a few pairs in unit tests) and go through run files.
    let keys: Vec<Option<u64>> = (0..20_000u64)
        .map(|i| (i % 1000 != 1).then_some((i * 7919) % 9000))
        .collect();
    let text = lines_of(&keys);
    let expected = naive_counts(&text);
    for (threads, batch, limit) in [(1, 4096, 0), (2, 999, 30_000), (8, 10_000, 300_000)] {
        let (out, _) = sharded(text.as_bytes(), threads, batch, limit, true);
        assert!(
            String::from_utf8(out).unwrap() == expected,
            "-j {threads} {batch} {limit}"
        );
    }
}
