//! `normurl bench FILE...`: URL parsing throughput, for people who compare
//! URL parsers.
//!
//! Each file is read into memory once, decompressed as the main command
//! decompresses it (a UTF-8 byte order mark dropped, empty lines ignored);
//! then every URL is parsed and serialized (`href`) with a reused [`Url`],
//! first on one thread, then on all threads. Each measurement runs once to
//! warm caches, then `--runs` times; the median is reported. Built with
//! `--features peers`, ada (the ada-url crate) and the url crate are timed
//! on the same lines, on one thread, in turn with normurl run by run, and
//! each row says its time over normurl's (`x normurl`). MB/s counts
//! the URLs' bytes, without line endings. I/O, decompression and line
//! splitting are not timed: use the main command with `--stats` for
//! end-to-end numbers.
//!
//! Where a C++ compiler was found at build time, ada's own C++ entry
//! points are timed as well (`ada::parse<ada::url_aggregator>` with
//! `get_href`, and `ada::can_parse`), the loop over the lines in C++ as in
//! ada's benchmarks (src/cli/bench/ada_shim.cpp). Every parser that builds an
//! href also sums the hrefs' lengths (`href_bytes`): ada through the crate
//! and through C++ must agree.

use std::hint::black_box;
use std::io::{Read, Write};
use std::path::Path;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use normurl::pipeline::Input;
use normurl::Url;

use self::clock::Stopwatch;
use super::config::Bench;
use super::{json, Failure};

/// URLs per parallel work item: large enough to amortize scheduling.
const CHUNK: usize = 4096;

/// One measurement.
struct Row {
    file: String,
    parser: &'static str,
    threads: usize,
    /// "wall" or "cpu".
    clock: &'static str,
    urls: usize,
    tally: Tally,
    time: Duration,
    url_bytes: usize,
    /// This parser's time over normurl's on the same lines and threads.
    vs_normurl: f64,
}

pub fn run(bench: &Bench, out: &mut dyn Write) -> Result<(), Failure> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(bench.threads)
        .build()
        .map_err(|e| Failure::Usage(format!("cannot start {} threads: {e}", bench.threads)))?;
    let mut rows = Vec::new();
    let cpu = bench.output.cpu_time;
    for path in &bench.files {
        let name = path.display().to_string();
        let bytes = read(path)?;
        let text = String::from_utf8_lossy(&bytes);
        let text = text.strip_prefix('\u{FEFF}').unwrap_or(&text);
        let corpus = Corpus::new(
            text.split('\n')
                .map(|l| l.strip_suffix('\r').unwrap_or(l))
                .filter(|l| !l.is_empty())
                .collect(),
        );
        let lines = &corpus.lines;
        let url_bytes: usize = lines.iter().map(|l| l.len()).sum();
        let row = |parser, threads, (time, tally): (Duration, Tally), base: Duration| Row {
            file: name.clone(),
            parser,
            threads,
            clock: if threads == 1 {
                clock::name(cpu)
            } else {
                "wall"
            },
            urls: lines.len(),
            tally,
            time,
            url_bytes,
            vs_normurl: time.as_secs_f64() / base.as_secs_f64().max(1e-12),
        };

        // One thread: normurl and the peers in turn, run by run, so that
        // the machine's state weighs on all alike.
        let parsers = peers::parsers();
        let single = measure_alternating(bench.runs, &parsers, &corpus, cpu);
        let (multi, tally_multi) = measure(bench.runs, || pool.install(|| all_threads(lines)));
        let (base, tally) = single[0];
        if tally != tally_multi {
            return Err(Failure::Usage(format!(
                "{name}: internal error: {tally:?} on one thread, {tally_multi:?} on {}",
                bench.threads
            )));
        }
        rows.push(row("normurl", 1, single[0], base));
        rows.push(row("normurl", bench.threads, (multi, tally), multi));
        for ((parser, _), result) in parsers.iter().zip(&single).skip(1) {
            rows.push(row(parser, 1, *result, base));
        }
    }
    let text = if bench.output.json {
        if let Some(missing) = peers::MISSING {
            // Standard output stays one JSON object a line.
            eprintln!("normurl: {missing}");
        }
        rows.iter().map(json_line).collect()
    } else {
        let mut text = table(&rows);
        if clock::name(cpu) == "cpu" {
            text.push_str("one-thread rows: the thread's CPU time (--cpu-time)\n");
        }
        let note = peers::MISSING.or(peers::NOTE).map(|n| format!("{n}\n"));
        text + note.as_deref().unwrap_or("")
    };
    let mut text = text;
    if bench.output.stages {
        for path in &bench.files {
            text.push_str(&stages(path, bench.threads, bench.output.json)?);
        }
    }
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|source| Failure::Io {
            path: "<stdout>".to_string(),
            source,
        })
}

/// One run of the main command's pipeline on `path`, output discarded:
/// its wall time and CPU seconds per stage, as a line of text or JSON.
fn stages(path: &Path, threads: usize, json: bool) -> Result<String, Failure> {
    use normurl::normalize::{Normalizer, Options};
    use normurl::pipeline::{Pipeline, Sinks};

    let pipeline = Pipeline::builder()
        .threads(threads)
        .build(Normalizer::new(Options::default()));
    let mut sink = std::io::sink();
    let start = Instant::now();
    let summary = pipeline
        .run(vec![Input::path(path)], Sinks::new("<null>", &mut sink))
        .map_err(|e| Failure::Usage(e.to_string()))?;
    let wall = start.elapsed().as_secs_f64();
    let c = summary.cpu;
    let stages = [
        ("read", c.read),
        ("workers", c.transform),
        ("dedup", c.dedup),
        ("write", c.write),
        ("other", c.other()),
        ("total", c.total),
    ];
    let name = path.display().to_string();
    if json {
        let mut o = json::Object::new("");
        o.string("file", &name)
            .string("parser", "pipeline stages")
            .uint("threads", threads as u64)
            .float("wall_seconds", wall);
        for (label, d) in stages {
            o.float(&format!("cpu_{label}"), d.as_secs_f64());
        }
        return Ok(o.finish() + "\n");
    }
    let mut line = format!("{name}: pipeline at -j {threads}: {wall:.3} s wall; CPU s");
    for (label, d) in stages {
        line.push_str(&format!(" {label} {:.3}", d.as_secs_f64()));
    }
    Ok(line + "\n")
}

fn table(rows: &[Row]) -> String {
    let mut table = format!(
        "{:<28} {:>9} {:>8} {:>7} {:>8} {:>10} {:>8} {:>8}  {:<22} {:>9}\n",
        "file", "URLs", "valid", "threads", "ns/URL", "URLs/s", "MB/s", "MB", "parser", "x normurl"
    );
    for r in rows {
        let secs = r.time.as_secs_f64();
        let n = r.urls as f64;
        table.push_str(&format!(
            "{:<28} {:>9} {:>8} {:>7} {:>8.1} {:>10.0} {:>8.1} {:>8.2}  {:<22} {:>9.2}\n",
            shorten(&r.file, 28),
            r.urls,
            r.tally.valid,
            r.threads,
            ratio(secs * 1e9, n),
            ratio(n, secs),
            ratio(r.url_bytes as f64, secs) / 1e6,
            r.url_bytes as f64 / 1e6,
            r.parser,
            r.vs_normurl,
        ));
    }
    table
}

fn json_line(r: &Row) -> String {
    let secs = r.time.as_secs_f64();
    let mut o = json::Object::new("");
    o.string("file", &r.file)
        .string("parser", r.parser)
        .uint("threads", r.threads as u64)
        .string("clock", r.clock)
        .uint("urls", r.urls as u64)
        .uint("valid", r.tally.valid);
    if let Some(bytes) = r.tally.href_bytes {
        o.uint("href_bytes", bytes);
    }
    o.float("ns_per_url", ratio(secs * 1e9, r.urls as f64))
        .float("mb_per_s", ratio(r.url_bytes as f64, secs) / 1e6)
        .float("vs_normurl", r.vs_normurl);
    o.finish() + "\n"
}

/// `a / b`, and 0 where `b` is 0 (a file with no URL, or a time below
/// the clock's resolution): rates are then 0, not infinite.
fn ratio(a: f64, b: f64) -> f64 {
    if b > 0.0 {
        a / b
    } else {
        0.0
    }
}

/// What a parser counted in one pass over the lines: the same on every
/// pass.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Tally {
    valid: u64,
    /// The sum of the valid URLs' href lengths, for the parsers that build
    /// an href: it keeps the work from being optimized away, and ada
    /// through the crate and through C++ must agree on it.
    href_bytes: Option<u64>,
}

/// The lines of one file, in the forms the parsers take them.
struct Corpus<'a> {
    lines: Vec<&'a str>,
    /// The same lines as C pointer and length pairs, made once, outside
    /// the timed loops.
    #[cfg(ada_cpp)]
    spans: Vec<peers::Span>,
}

impl<'a> Corpus<'a> {
    fn new(lines: Vec<&'a str>) -> Corpus<'a> {
        Corpus {
            #[cfg(ada_cpp)]
            spans: peers::spans(&lines),
            lines,
        }
    }
}

/// A parser under test: its name, and a function that parses every line.
type Parser = (&'static str, fn(&Corpus) -> Tally);

/// Runs each parser once to warm up, then all in turn `runs` times;
/// returns each one's median time and tally.
fn measure_alternating(
    runs: usize,
    parsers: &[Parser],
    corpus: &Corpus,
    cpu: bool,
) -> Vec<(Duration, Tally)> {
    let tallies: Vec<Tally> = parsers.iter().map(|(_, f)| f(corpus)).collect();
    let mut times = vec![Vec::with_capacity(runs); parsers.len()];
    for _ in 0..runs {
        for ((_, f), t) in parsers.iter().zip(times.iter_mut()) {
            let start = Stopwatch::start(cpu);
            black_box(f(corpus));
            t.push(start.elapsed());
        }
    }
    times
        .into_iter()
        .zip(tallies)
        .map(|(mut t, v)| {
            t.sort();
            (t[t.len() / 2], v)
        })
        .collect()
}

#[cfg(ada_cpp)]
mod ada_cpp;
mod clock;
mod peers;

/// The decompressed content of `path`, read as the main command reads it
/// (gzip, zstd, bzip2 and xz decoded, other compression formats refused). zstd
/// windows are not limited: the whole file is in memory anyway.
fn read(path: &Path) -> Result<Vec<u8>, Failure> {
    let mut bytes = Vec::new();
    Input::path(path)
        .open(u64::MAX)
        .map_err(Failure::Run)?
        .read_to_end(&mut bytes)
        .map_err(|source| Failure::Io {
            path: path.display().to_string(),
            source,
        })?;
    Ok(bytes)
}

/// Runs `f` once to warm up, then `runs` times; returns the median time and
/// `f`'s result (the same every time).
fn measure(runs: usize, mut f: impl FnMut() -> Tally) -> (Duration, Tally) {
    let result = f();
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            black_box(f());
            start.elapsed()
        })
        .collect();
    times.sort();
    (times[times.len() / 2], result)
}

/// normurl as a [`Parser`].
fn normurl(corpus: &Corpus) -> Tally {
    one_thread(&corpus.lines)
}

/// Parses every URL with one reused `Url`, the loop in Rust as ada's is in
/// C++.
fn one_thread(lines: &[&str]) -> Tally {
    let mut url: Option<Url> = None;
    let (mut valid, mut href_bytes) = (0, 0);
    for line in lines {
        if let Some(href) = parse(&mut url, line) {
            href_bytes += href.len() as u64;
            valid += 1;
        }
    }
    Tally {
        valid,
        href_bytes: Some(href_bytes),
    }
}

fn all_threads(lines: &[&str]) -> Tally {
    lines
        .par_chunks(CHUNK)
        .map(one_thread)
        // The identity is what one thread counts on no lines: a file
        // with no URL gives the same tally both ways.
        .reduce(
            || Tally {
                valid: 0,
                href_bytes: Some(0),
            },
            |a, b| Tally {
                valid: a.valid + b.valid,
                href_bytes: Some(a.href_bytes.unwrap_or(0) + b.href_bytes.unwrap_or(0)),
            },
        )
}

/// Parses `input` into the recycled URL in `slot` and returns its href.
fn parse<'a>(slot: &'a mut Option<Url>, input: &str) -> Option<&'a str> {
    match slot {
        Some(url) => url.parse_into(input, None).ok().map(|()| url.href()),
        None => {
            let url = Url::parse(input).ok()?;
            Some(slot.insert(url).href())
        }
    }
}

/// Keeps the end of a long path (the file name matters most).
fn shorten(name: &str, width: usize) -> String {
    let n = name.chars().count();
    if n <= width {
        return name.to_string();
    }
    let tail: String = name.chars().skip(n - (width - 1)).collect();
    format!("…{tail}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_valid_urls_the_same_way_on_every_path() {
        let lines = ["http://a/", "nope", "https://b.example/x", "http://[::1"];
        let lines: Vec<&str> = lines.iter().copied().cycle().take(10_000).collect();
        let bytes = "http://a/".len() + "https://b.example/x".len();
        let expected = Tally {
            valid: 5000,
            href_bytes: Some(2500 * bytes as u64),
        };
        assert_eq!(one_thread(&lines), expected);
        assert_eq!(all_threads(&lines), expected);
        let (_, tally) = measure(3, || one_thread(&lines[..4]));
        assert_eq!(tally.valid, 2);
        assert_eq!(shorten("abcdef", 4), "…def");
        assert_eq!(shorten("abc", 4), "abc");
    }
}
