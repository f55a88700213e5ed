//! Tests of the pipeline against a naive reference: the whole input in
//! memory, split with `split`, transformed record by record.
//!
//! The test transform exercises every channel: output, side output, dedup
//! keys, counters and over-long records (whose output does not depend on
//! where the pieces were cut).

use std::collections::HashSet;
use std::io::{self, Write};

use proptest::prelude::*;

use super::*;

/// Per-record output: the record reversed, with a `:n` length tag; records
/// starting with `s` are skipped; records containing `x` get a side entry;
/// records starting with `k` get a dedup key (their bytes); records equal to
/// `STOP` stop the run; records equal to `PANIC` panic.
struct Probe;

#[derive(Default, Debug, PartialEq, Eq, Clone)]
struct Counts {
    records: u64,
    empty: u64,
    overlong: u64,
}

impl Merge for Counts {
    fn merge(&mut self, o: &Counts) {
        self.records += o.records;
        self.empty += o.empty;
        self.overlong += o.overlong;
    }
}

fn key_of(rec: &[u8]) -> u128 {
    // Distinct for the short records the tests generate.
    rec.iter().fold(rec.len() as u128, |h, &b| {
        h.wrapping_mul(257).wrapping_add(b as u128 + 1)
    })
}

fn probe_record(rec: &[u8], data: &mut Vec<u8>) {
    data.extend(rec.iter().rev());
    let _ = write!(data, ":{}", rec.len());
}

impl Transform for Probe {
    type State = Vec<u8>;
    type Stats = Counts;
    const WANTS_STR: bool = true;

    fn state(&self) -> Vec<u8> {
        Vec::new()
    }

    fn record(
        &self,
        scratch: &mut Vec<u8>,
        rec: Record<'_>,
        out: &mut Output<'_, Counts>,
    ) -> Result<Outcome, Stop> {
        // Records of valid-UTF-8 batches come as strings: the same bytes.
        let text = rec.to_str().ok();
        let rec = rec.bytes();
        if let Some(text) = text {
            assert_eq!(text.as_bytes(), rec);
        }
        out.stats().records += 1;
        if rec.is_empty() {
            out.stats().empty += 1;
        }
        if rec == b"STOP" {
            out.side().extend_from_slice(b"stopped");
            return Err(Stop::new("stop requested"));
        }
        if rec == b"PANIC" {
            panic!("probe panic");
        }
        if rec.contains(&b'x') {
            let _ = write!(out.side(), "x{}", rec.len());
        }
        if rec.first() == Some(&b'k') {
            out.dedup_key(key_of(rec));
        }
        // Use the worker state, as a real transform would.
        scratch.clear();
        probe_record(rec, scratch);
        out.data().extend_from_slice(scratch);
        if rec.first() == Some(&b's') {
            return Ok(Outcome::Skip);
        }
        Ok(Outcome::Emit)
    }

    fn overlong(
        &self,
        _: &mut Vec<u8>,
        part: Part,
        bytes: &[u8],
        out: &mut Output<'_, Counts>,
    ) -> Result<Outcome, Stop> {
        if part == Part::First {
            out.stats().records += 1;
            out.stats().overlong += 1;
            out.data().push(b'<');
            out.side().extend_from_slice(b"long:");
        }
        out.data().extend_from_slice(bytes);
        out.side().extend_from_slice(bytes);
        if part == Part::Last {
            out.data().push(b'>');
        }
        Ok(Outcome::Emit)
    }
}

/// What a run produced.
#[derive(Debug, PartialEq, Eq)]
struct Run {
    out: Vec<u8>,
    side: Vec<u8>,
    records: u64,
    output_records: u64,
    deduplicated: u64,
    bytes_out: u64,
    stats: Counts,
    error: Option<String>,
}

#[derive(Default)]
struct FirstSeen {
    seen: HashSet<u128>,
    dropped: u64,
}

impl KeyFilter for FirstSeen {
    fn offer(&mut self, key: u128, record: &[u8], out: &mut Vec<u8>) -> io::Result<()> {
        if self.seen.insert(key) {
            out.extend_from_slice(record);
        } else {
            self.dropped += 1;
        }
        Ok(())
    }

    fn finish(&mut self, _: &mut dyn Write) -> io::Result<u64> {
        Ok(self.dropped)
    }
}

/// `FirstSeen` split into shards that decide on the workers (verdict 1:
/// first occurrence); the writer's side only reads the verdicts.
struct SeenShards(Vec<std::sync::Mutex<HashSet<u128>>>);

impl KeyShards for SeenShards {
    fn shards(&self) -> usize {
        self.0.len()
    }
    fn shard_of(&self, key: u128) -> usize {
        (key % 7) as usize
    }
    fn decide(&self, shard: usize, keys: &[u128], verdicts: &mut [u8]) -> io::Result<()> {
        let mut seen = self.0[shard].lock().unwrap();
        for (k, v) in keys.iter().zip(verdicts) {
            *v = u8::from(seen.insert(*k));
        }
        Ok(())
    }
}

#[derive(Default)]
struct Verdicts {
    dropped: u64,
}

impl KeyFilter for Verdicts {
    fn offer(&mut self, _: u128, _: &[u8], _: &mut Vec<u8>) -> io::Result<()> {
        Err(io::Error::other("offered without a verdict"))
    }
    fn offer_decided(
        &mut self,
        _: u128,
        v: u8,
        record: &[u8],
        out: &mut Vec<u8>,
    ) -> io::Result<()> {
        if v == 1 {
            out.extend_from_slice(record);
        } else {
            self.dropped += 1;
        }
        Ok(())
    }
    fn finish(&mut self, _: &mut dyn Write) -> io::Result<u64> {
        Ok(self.dropped)
    }
}

#[derive(Clone, Copy, Debug)]
struct Params {
    threads: usize,
    batch_bytes: usize,
    max_record: usize,
    term: u8,
    dedup: bool,
    /// Dedup with `SeenShards` on the workers instead of `FirstSeen`.
    sharded: bool,
}

fn write_files(dir: &tempfile::TempDir, files: &[Vec<u8>]) -> Vec<Input> {
    files
        .iter()
        .enumerate()
        .map(|(i, bytes)| {
            let path = dir.path().join(format!("in{i}"));
            std::fs::write(&path, bytes).unwrap();
            Input::path(path)
        })
        .collect()
}

fn run_pipeline(inputs: Vec<Input>, p: Params) -> Run {
    let pipeline = Pipeline::builder()
        .threads(p.threads)
        .batch_bytes(p.batch_bytes)
        .max_record_bytes(p.max_record)
        .terminator(p.term)
        .build(Probe);
    let (mut out, mut side) = (Vec::new(), Vec::new());
    let mut filter = FirstSeen::default();
    let mut verdicts = Verdicts::default();
    let shards = SeenShards((0..7).map(|_| Default::default()).collect());
    let mut sinks = Sinks::new("out", &mut out).side("side", &mut side);
    if p.dedup && p.sharded {
        sinks = sinks.key_filter(&mut verdicts).key_shards(&shards);
    } else if p.dedup {
        sinks = sinks.key_filter(&mut filter);
    }
    let result = pipeline.run(inputs, sinks);
    let (summary, error) = match result {
        Ok(s) => (s, None),
        Err(e) => (Summary::default(), Some(e.to_string())),
    };
    Run {
        out,
        side,
        records: summary.records,
        output_records: summary.output_records,
        deduplicated: summary.deduplicated,
        bytes_out: summary.bytes_out,
        stats: summary.stats,
        error,
    }
}

/// The reference: every file in memory, split naively.
fn naive(files: &[Vec<u8>], p: Params) -> Run {
    let mut run = Run {
        out: Vec::new(),
        side: Vec::new(),
        records: 0,
        output_records: 0,
        deduplicated: 0,
        bytes_out: 0,
        stats: Counts::default(),
        error: None,
    };
    let mut seen = HashSet::new();
    for file in files {
        let file = file.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(file);
        let mut records: Vec<&[u8]> = file.split(|&b| b == p.term).collect();
        // `split` yields an empty piece after a final terminator (and for
        // an empty file), which is not a record.
        let unterminated_last = !file.is_empty() && *file.last().unwrap() != p.term;
        if !unterminated_last {
            records.pop();
        }
        let n = records.len();
        for (i, mut rec) in records.into_iter().enumerate() {
            let terminated = i + 1 < n || !unterminated_last;
            if p.term == b'\n' && terminated {
                rec = rec.strip_suffix(b"\r").unwrap_or(rec);
            }
            run.records += 1;
            run.stats.records += 1;
            let number = run.records;
            let mut data = Vec::new();
            let mut side = None;
            let mut key = None;
            let mut emit = true;
            if rec.len() > p.max_record {
                run.stats.overlong += 1;
                data.push(b'<');
                data.extend_from_slice(rec);
                data.push(b'>');
                side = Some([b"long:", rec].concat());
            } else {
                if rec.is_empty() {
                    run.stats.empty += 1;
                }
                if rec.contains(&b'x') {
                    side = Some(format!("x{}", rec.len()).into_bytes());
                }
                if rec.first() == Some(&b'k') {
                    key = Some(key_of(rec));
                }
                probe_record(rec, &mut data);
                emit = rec.first() != Some(&b's');
            }
            if let Some(side) = side {
                let _ = write!(run.side, "{number}\t");
                run.side.extend_from_slice(&side);
                run.side.push(p.term);
            }
            if !emit {
                continue;
            }
            data.push(p.term);
            if let (true, Some(key)) = (p.dedup, key) {
                if !seen.insert(key) {
                    run.deduplicated += 1;
                    continue;
                }
            }
            run.output_records += 1;
            run.out.extend_from_slice(&data);
        }
    }
    run.bytes_out = run.out.len() as u64;
    run
}

fn check(files: &[Vec<u8>], p: Params) {
    let dir = tempfile::tempdir().unwrap();
    let inputs = write_files(&dir, files);
    let expected = naive(files, p);
    let got = run_pipeline(inputs.clone(), p);
    assert_eq!(
        got,
        expected,
        "params {p:?}, files {:?}",
        files
            .iter()
            .map(|f| String::from_utf8_lossy(f))
            .collect::<Vec<_>>()
    );
    // Skipped records are the ones starting with `s`; the rest are written
    // or deduplicated.
    let skipped = got.records - got.output_records - got.deduplicated;
    assert!(skipped <= got.records);
    let sequential = run_pipeline(inputs, Params { threads: 1, ..p });
    assert_eq!(got, sequential, "params {p:?}");
}

fn params(threads: usize, batch_bytes: usize) -> Params {
    Params {
        threads,
        batch_bytes,
        max_record: 1 << 20,
        term: b'\n',
        dedup: false,
        sharded: false,
    }
}

#[test]
fn line_endings_bom_and_empty_lines() {
    let files = vec![
        b"\xEF\xBB\xBFab\r\n\ncd\r\n\r\nlast".to_vec(),
        b"".to_vec(),
        b"\n\n".to_vec(),
        b"no-final-newline\r".to_vec(),
        b"\xEF\xBB\xBF".to_vec(),
        b"mid\xEF\xBB\xBFbom\n".to_vec(),
    ];
    for batch_bytes in [1, 2, 3, 5, 64, 1 << 20] {
        for threads in [1, 2, 3] {
            check(&files, params(threads, batch_bytes));
        }
    }
    // Spot-check the reference itself on one file.
    let run = naive(&[b"\xEF\xBB\xBFab\r\n\nc\r".to_vec()], params(1, 1));
    assert_eq!(run.out, b"ba:2\n:0\n\rc:2\n");
}

#[test]
fn nul_terminated_records_keep_carriage_returns() {
    let p = Params {
        term: 0,
        ..params(2, 3)
    };
    let files = vec![b"a\r\0\0b\nc\0d".to_vec()];
    check(&files, p);
    assert_eq!(naive(&files, p).out, b"\ra:2\0:0\0c\nb:3\0d:1\0");
}

#[test]
fn overlong_records_arrive_in_pieces() {
    let long = "y".repeat(100);
    let text = format!("ab\n{long}\r\ncd\n{long}\r\r\n{long}x\nz\n{long}");
    for max_record in [0, 1, 3, 50, 99, 100, 101] {
        for batch_bytes in [1, 2, 7, 16, 1000] {
            for threads in [1, 4] {
                let p = Params {
                    max_record,
                    ..params(threads, batch_bytes)
                };
                check(&[text.clone().into_bytes()], p);
            }
        }
    }
}

#[test]
fn carriage_return_at_a_piece_boundary() {
    // With 4-byte batches and a limit of 2, pieces are cut right after the
    // `\r` of `\r\n` in several places.
    let text = b"abc\r\nabcdefg\r\nabcdefgh\r\n\r\r\r\n".to_vec();
    for batch_bytes in 1..=9 {
        let p = Params {
            max_record: 2,
            ..params(2, batch_bytes)
        };
        check(std::slice::from_ref(&text), p);
    }
}

#[test]
fn dedup_keys_go_through_the_filter_in_order() {
    let text = b"ka\nkb\nka\nx\nka\nskb\nkb\n".to_vec();
    for batch_bytes in [1, 3, 100] {
        let p = Params {
            dedup: true,
            ..params(3, batch_bytes)
        };
        check(std::slice::from_ref(&text), p);
        let run = run_pipeline(
            write_files(&tempfile::tempdir().unwrap(), std::slice::from_ref(&text)),
            p,
        );
        assert_eq!(run.out, b"ak:2\nbk:2\nx:1\n");
        assert_eq!(
            (run.records, run.output_records, run.deduplicated),
            (7, 3, 3)
        );
    }
}

#[test]
fn side_entries_are_numbered_over_all_inputs() {
    let files = vec![b"a\nx\n".to_vec(), b"bx\n\nxx".to_vec()];
    let run = run_pipeline(
        write_files(&tempfile::tempdir().unwrap(), &files),
        params(2, 1),
    );
    assert_eq!(run.side, b"2\tx1\n3\tx2\n5\tx2\n");
    check(&files, params(2, 1));
}

#[test]
fn stop_reports_file_and_line_after_writing_what_came_before() {
    let files = vec![b"a\nb\n".to_vec(), b"c\nSTOP\nd\n".to_vec()];
    for threads in [1, 2, 8] {
        for batch_bytes in [1, 4, 1 << 20] {
            let dir = tempfile::tempdir().unwrap();
            let inputs = write_files(&dir, &files);
            let name = inputs[1].name();
            let run = run_pipeline(inputs, params(threads, batch_bytes));
            assert_eq!(
                run.out, b"a:1\nb:1\nc:1\n",
                "threads {threads}, batch {batch_bytes}"
            );
            assert_eq!(run.side, b"4\tstopped\n");
            assert_eq!(run.error, Some(format!("{name}:2: stop requested")));
        }
    }
}

#[test]
fn a_panicking_worker_ends_the_run_with_an_error() {
    let mut text = Vec::new();
    for i in 0..5000 {
        let _ = writeln!(text, "line {i}");
    }
    text.extend_from_slice(b"PANIC\nafter\n");
    for (threads, batch_bytes, sharded) in [1, 2, 8].into_iter().flat_map(|j| {
        [
            (j, 10, false),
            (j, 4096, false),
            (j, 10, true),
            (j, 4096, true),
        ]
    }) {
        {
            let dir = tempfile::tempdir().unwrap();
            let mut p = params(threads, batch_bytes);
            p.dedup = true;
            // With shards: the panicking batch still takes its turn at
            // every shard, so the batches after it do not wait forever.
            p.sharded = sharded;
            let run = run_pipeline(write_files(&dir, std::slice::from_ref(&text)), p);
            let error = run.error.expect("an error");
            assert!(error.contains("worker panicked: probe panic"), "{error}");
            // Nothing after the panicking batch was written.
            assert!(!run.out.ends_with(b"retfa:5\n"));
        }
    }
}

#[test]
fn compressed_inputs_are_detected_by_content() {
    use flate2::write::GzEncoder;
    let plain = b"\xEF\xBB\xBFone\ntwo\r\nthree".to_vec();
    let gzip = |bytes: &[u8]| {
        let mut e = GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(bytes).unwrap();
        e.finish().unwrap()
    };
    // Two gzip members, as `cat a.gz b.gz` makes (a member whose data
    // does not end in a line break ends a line: see framing_tests.rs).
    let mut multi = gzip(b"\xEF\xBB\xBFone\n");
    multi.extend(gzip(b"two\r\nthree"));
    // Two zstd frames.
    let mut zst = zstd::encode_all(&b"\xEF\xBB\xBFone\ntwo\r\n"[..], 3).unwrap();
    zst.extend(zstd::encode_all(&b"three"[..], 3).unwrap());
    let dir = tempfile::tempdir().unwrap();
    let expected = naive(std::slice::from_ref(&plain), params(1, 1)).out;
    for bytes in [plain, gzip(b"\xEF\xBB\xBFone\ntwo\r\nthree"), multi, zst] {
        let inputs = write_files(&dir, &[bytes]);
        for p in [params(1, 1), params(2, 3), params(2, 1 << 20)] {
            assert_eq!(run_pipeline(inputs.clone(), p).out, expected);
        }
    }
}

#[test]
fn truncated_gzip_is_an_error_after_the_complete_lines() {
    use flate2::write::GzEncoder;
    let mut text = Vec::new();
    for i in 0..20000 {
        let _ = writeln!(text, "line number {i}");
    }
    let mut e = GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(&text).unwrap();
    let gz = e.finish().unwrap();
    let cut = &gz[..gz.len() / 2];
    for p in [params(1, 4096), params(2, 4096), params(2, 1 << 20)] {
        let dir = tempfile::tempdir().unwrap();
        let run = run_pipeline(write_files(&dir, &[cut.to_vec()]), p);
        let error = run.error.expect("an error");
        assert!(error.contains("corrupt or truncated gzip data"), "{error}");
        // Whole lines only, in order, and a prefix of the full output.
        let full = naive(std::slice::from_ref(&text), p).out;
        assert!(run.out.ends_with(b"\n"));
        assert!(full.starts_with(&run.out));
    }
}

#[test]
fn missing_input_names_the_file() {
    let run = run_pipeline(
        vec![Input::path("/nonexistent/normurl-test")],
        params(2, 10),
    );
    let error = run.error.unwrap();
    assert!(error.starts_with("/nonexistent/normurl-test: "), "{error}");
}

#[test]
fn broken_pipe_is_recognized() {
    struct Closed;
    impl Write for Closed {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let inputs = write_files(&dir, &[b"a\n".repeat(100_000)]);
    for threads in [1, 2] {
        let pipeline = Pipeline::builder()
            .threads(threads)
            .batch_bytes(1000)
            .build(MapFn::new(|r: &[u8], o: &mut Vec<u8>| {
                o.extend_from_slice(r)
            }));
        let err = pipeline
            .run(inputs.clone(), Sinks::new("<stdout>", &mut Closed))
            .unwrap_err();
        assert!(err.is_broken_pipe(), "{err}");
    }
}

/// Random records over a small alphabet that hits every special case:
/// terminators, `\r`, NUL, BOM bytes, and the probe's `s`, `k` and `x`.
fn arb_file() -> impl Strategy<Value = Vec<u8>> {
    let byte = prop::sample::select(vec![
        b'a', b'k', b's', b'x', b'\n', b'\n', b'\n', b'\r', 0, 0xEF, 0xBB, 0xBF,
    ]);
    prop::collection::vec(byte, 0..400)
}

fn arb_batch_bytes() -> impl Strategy<Value = usize> {
    prop_oneof![1usize..=16, 17usize..=4096, Just(1 << 20)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Every thread count and batch size gives the reference's output, and
    /// the parallel pipeline gives byte-for-byte what the sequential one does.
    #[test]
    fn parallel_equals_sequential_equals_naive(
        files in prop::collection::vec(arb_file(), 1..4),
        threads in 1usize..=8,
        batch_bytes in arb_batch_bytes(),
        max_record in prop_oneof![0usize..=20, Just(1 << 20)],
        nul in any::<bool>(),
        dedup in any::<bool>(),
        sharded in any::<bool>(),
    ) {
        let p = Params {
            threads,
            batch_bytes,
            max_record,
            term: if nul { 0 } else { b'\n' },
            dedup,
            sharded,
        };
        check(&files, p);
    }
}
