//! Parse + href on each corpus of samples/corpora: normurl (with and without
//! its already-canonical fast path) side by side with the `url` crate
//! (servo/rust-url) and the `ada-url` crate (ada's C++ url_aggregator through
//! its C API).
//!
//! One iteration parses every non-empty line of a corpus (the UTF-8 BOM of
//! kasztp.txt stripped) and sums the href lengths of the valid URLs. The
//! answer is checked inside the loop against the value computed once before
//! it, so a benchmark that stopped parsing would fail rather than get fast.
//! Throughput is the bytes of those lines (newlines excluded), so criterion's
//! time per iteration divided by the line count printed at start-up is the
//! time per URL.
//!
//! ```text
//! cargo bench --bench parse -- --measurement-time 5
//! cargo bench --bench parse -- kasztp        # one corpus
//! ```
//!
//! What each implementation does per line:
//! - normurl: `Url::parse_into` into one reused `Url` (no allocation once the
//!   buffer has grown), `href().len()`;
//! - url: `url::Url::parse` (allocates the serialization), `as_str().len()`;
//! - ada: `ada_url::Url::parse(line, None)` (ada's `ada_parse`, which
//!   allocates the `url_aggregator` and its buffer), `href().len()`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

const CORPORA: [&str; 4] = [
    "weburls.txt",
    "kasztp.txt",
    "node_files.txt",
    "isaacs_files.txt",
];

/// How many lines the implementations may disagree on being valid URLs.
/// They disagree legitimately where the `url` crate does not follow the
/// current URL Standard: tests/data/known-differences.txt lists 10 lines of
/// weburls.txt (invalid `xn--` labels in ASCII hosts, which the Standard
/// lowercases and keeps) and none in the other corpora.
const MAX_VALID_COUNT_DIFFERENCE: usize = 16;

fn corpus_lines(name: &str) -> Vec<String> {
    let path = format!("{}/samples/corpora/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(&text);
    text.lines()
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect()
}

/// (valid URLs, sum of their href lengths)
type Answer = (usize, usize);

fn run_normurl(url: &mut normurl::Url, lines: &[String]) -> Answer {
    let (mut n, mut sum) = (0, 0);
    for line in lines {
        if url.parse_into(black_box(line), None).is_ok() {
            n += 1;
            sum += url.href().len();
        }
    }
    (n, sum)
}

fn run_normurl_without_fast_path(url: &mut normurl::Url, lines: &[String]) -> Answer {
    let (mut n, mut sum) = (0, 0);
    for line in lines {
        if url
            .parse_into_without_fast_path(black_box(line), None)
            .is_ok()
        {
            n += 1;
            sum += url.href().len();
        }
    }
    (n, sum)
}

fn run_url(lines: &[String]) -> Answer {
    let (mut n, mut sum) = (0, 0);
    for line in lines {
        if let Ok(u) = url::Url::parse(black_box(line)) {
            n += 1;
            sum += u.as_str().len();
        }
    }
    (n, sum)
}

fn run_ada(lines: &[String]) -> Answer {
    let (mut n, mut sum) = (0, 0);
    for line in lines {
        if let Ok(u) = ada_url::Url::parse(black_box(line.as_str()), None) {
            n += 1;
            sum += u.href().len();
        }
    }
    (n, sum)
}

fn parse(c: &mut Criterion) {
    for name in CORPORA {
        let lines = corpus_lines(name);
        let bytes: usize = lines.iter().map(String::len).sum();
        let mut url = normurl::Url::parse("about:blank").expect("about:blank");

        // The answers, computed once.
        let normurl_answer = run_normurl(&mut url, &lines);
        let slow_answer = run_normurl_without_fast_path(&mut url, &lines);
        let url_answer = run_url(&lines);
        let ada_answer = run_ada(&lines);
        assert_eq!(
            normurl_answer, slow_answer,
            "{name}: the fast path changed the answer"
        );
        for (other, answer) in [("url", url_answer), ("ada", ada_answer)] {
            assert!(
                normurl_answer.0.abs_diff(answer.0) <= MAX_VALID_COUNT_DIFFERENCE,
                "{name}: normurl finds {} valid URLs, {other} {}",
                normurl_answer.0,
                answer.0
            );
        }
        eprintln!(
            "{name}: {} URLs, {bytes} bytes ({:.1} B/URL); valid: normurl {} url {} ada {}; \
             href bytes: normurl {} url {} ada {}",
            lines.len(),
            bytes as f64 / lines.len() as f64,
            normurl_answer.0,
            url_answer.0,
            ada_answer.0,
            normurl_answer.1,
            url_answer.1,
            ada_answer.1,
        );

        let mut group = c.benchmark_group(name.trim_end_matches(".txt"));
        group.throughput(Throughput::Bytes(bytes as u64));
        group.bench_function("normurl", |b| {
            b.iter(|| assert_eq!(run_normurl(&mut url, &lines), normurl_answer))
        });
        group.bench_function("normurl-no-fast-path", |b| {
            b.iter(|| assert_eq!(run_normurl_without_fast_path(&mut url, &lines), slow_answer))
        });
        group.bench_function("url", |b| {
            b.iter(|| assert_eq!(run_url(&lines), url_answer))
        });
        group.bench_function("ada", |b| {
            b.iter(|| assert_eq!(run_ada(&lines), ada_answer))
        });
        group.finish();
    }
}

criterion_group! {
    name = benches;
    // One iteration parses a whole corpus (milliseconds), so fewer samples
    // than criterion's default of 100 suffice. Command-line flags override.
    config = Criterion::default().sample_size(20);
    targets = parse
}
criterion_main!(benches);
