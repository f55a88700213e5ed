//! Parse + canonicalize on the corpora of samples/corpora, per profile: the
//! cost of each profile's rules on top of parsing. The issue's bar is
//! `aggressive` at most 1.3 times `whatwg` per URL.
//!
//! One iteration parses every non-empty line of every corpus (the UTF-8 BOM
//! of kasztp.txt stripped) into one reused `Url`, canonicalizes the valid
//! ones into one reused buffer with one reused `Scratch`, and sums the
//! output lengths. The sum is checked inside the loop against the value
//! computed before it, so a benchmark that stopped working would fail
//! rather than get fast. Throughput is in URLs (lines): criterion reports
//! URLs per second, and time per iteration divided by the line count printed
//! at start-up is the time per URL.
//!
//! ```text
//! cargo bench --bench canon -- --measurement-time 5
//! cargo bench --bench canon -- aggressive
//! ```
//!
//! On a shared machine, `examples/canon_corpus.rs` gives the same workload's
//! instruction counts under callgrind, which do not depend on the load.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use normurl::canon::{Canonicalizer, OutputForm, Profile, Scratch};
use normurl::Url;

const CORPORA: [&str; 4] = [
    "weburls.txt",
    "kasztp.txt",
    "node_files.txt",
    "isaacs_files.txt",
];

fn lines() -> Vec<String> {
    let mut all = Vec::new();
    for name in CORPORA {
        let path = format!("{}/samples/corpora/{name}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let text = text.strip_prefix('\u{FEFF}').unwrap_or(&text);
        all.extend(text.lines().filter(|l| !l.is_empty()).map(str::to_owned));
    }
    all
}

/// Sum of the canonical lengths of the valid URLs.
fn run(
    canon: &Canonicalizer,
    lines: &[String],
    url: &mut Url,
    scratch: &mut Scratch,
    out: &mut Vec<u8>,
) -> usize {
    let mut sum = 0;
    for line in lines {
        if url.parse_into(black_box(line), None).is_ok() {
            out.clear();
            canon.apply(url, scratch, out);
            sum += out.len();
        }
    }
    sum
}

fn bench(c: &mut Criterion) {
    let lines = lines();
    eprintln!("{} URLs per iteration", lines.len());
    let mut surt = Canonicalizer::builder(Profile::Wayback);
    surt.output(OutputForm::Surt(normurl::canon::SurtOptions::CDX));
    let mut cases: Vec<(String, Canonicalizer)> = Profile::ALL
        .iter()
        .map(|&p| (p.name().to_owned(), Canonicalizer::new(p)))
        .collect();
    cases.push(("wayback-surt".to_owned(), surt.build()));
    let mut group = c.benchmark_group("canon");
    group.throughput(Throughput::Elements(lines.len() as u64));
    let mut url = Url::parse("about:blank").unwrap();
    let mut scratch = Scratch::new();
    let mut out = Vec::new();
    for (name, canon) in &cases {
        let expected = run(canon, &lines, &mut url, &mut scratch, &mut out);
        group.bench_function(name.as_str(), |b| {
            b.iter(|| {
                assert_eq!(
                    run(canon, &lines, &mut url, &mut scratch, &mut out),
                    expected
                )
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
