//! End-to-end throughput of the streaming pipeline: read a file, split it
//! into lines, transform every line, write the lines in order (to a sink).
//!
//! The input is the four corpora of samples/corpora concatenated 4 times
//! (about 36 MB, written to a temporary file once; the page cache keeps it
//! in memory after the first pass). Two transforms:
//!
//! - `identity`: copy each line. This is the pipeline's own ceiling (read,
//!   cut, hand over, split, copy, reorder, write) with no URL work at all;
//! - `normalize`: the `normurl` command's transform (`Normalizer` with
//!   default options: WHATWG parse and serialize with a reused `Url`).
//!
//! each with 1 thread (the sequential pipeline) and all threads, and two
//! batch sizes for the parallel case. Every iteration checks the line count
//! and output size against the first run, so a benchmark that stopped
//! working would fail rather than get fast. Throughput is input bytes.
//!
//! ```text
//! cargo bench --bench pipeline
//! cargo bench --bench pipeline -- identity
//! ```
//! For the command itself on a 1 GB file, see scripts/make-big-file.sh.

use std::io;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

use normurl::normalize::{Normalizer, Options};
use normurl::pipeline::{Input, MapFn, Pipeline, Sinks, Transform};

const CORPORA: [&str; 4] = [
    "weburls.txt",
    "kasztp.txt",
    "node_files.txt",
    "isaacs_files.txt",
];
const REPEAT: usize = 4;

/// Writes the concatenated corpora to a temporary file.
fn input() -> (tempfile::TempDir, Input, u64) {
    let mut data = Vec::new();
    for _ in 0..REPEAT {
        for name in CORPORA {
            let path = format!("{}/samples/corpora/{name}", env!("CARGO_MANIFEST_DIR"));
            let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
            data.extend_from_slice(&bytes);
            if !data.ends_with(b"\n") {
                data.push(b'\n');
            }
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("corpora.txt");
    std::fs::write(&path, &data).unwrap();
    (dir, Input::path(path), data.len() as u64)
}

/// Runs `pipeline` once; returns (lines, bytes out).
fn once<T: Transform>(pipeline: &Pipeline<T>, input: &Input) -> (u64, u64) {
    let summary = pipeline
        .run(vec![input.clone()], Sinks::new("sink", &mut io::sink()))
        .expect("pipeline run");
    (summary.records, summary.bytes_out)
}

fn bench_transform<T: Transform>(
    c: &mut Criterion,
    name: &str,
    make: impl Fn() -> T,
    input: &Input,
    bytes: u64,
) {
    let mut group = c.benchmark_group(format!("pipeline/{name}"));
    group.throughput(Throughput::Bytes(bytes));
    group.sample_size(10);
    let all = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut answer = None;
    for (threads, batch) in [(1, 1 << 20), (all, 1 << 20), (all, 64 << 10)] {
        let pipeline = Pipeline::builder()
            .threads(threads)
            .batch_bytes(batch)
            .build(make());
        let expected = *answer.get_or_insert_with(|| once(&pipeline, input));
        let id = BenchmarkId::new(format!("{threads}-threads"), format!("{}KiB", batch >> 10));
        group.bench_function(id, |b| {
            b.iter(|| assert_eq!(once(&pipeline, input), expected));
        });
    }
    group.finish();
}

fn pipeline(c: &mut Criterion) {
    let (_dir, input, bytes) = input();
    let copy = || MapFn::new(|line: &[u8], out: &mut Vec<u8>| out.extend_from_slice(line));
    bench_transform(c, "identity", copy, &input, bytes);
    let normalize = || Normalizer::new(Options::default());
    bench_transform(c, "normalize", normalize, &input, bytes);
}

criterion_group!(benches, pipeline);
criterion_main!(benches);
