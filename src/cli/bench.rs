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

use std::hint::black_box;
use std::io::{Read, Write};
use std::path::Path;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use normurl::pipeline::Input;
use normurl::Url;

use super::config::Bench;
use super::{json, Failure};

/// URLs per parallel work item: large enough to amortize scheduling.
const CHUNK: usize = 4096;

/// The options of `bench` that say how to report.
#[derive(Debug, Default, clap::Args)]
pub struct BenchOutput {
    /// Print one JSON object per measurement, one a line (file, parser,
    /// threads, urls, valid, ns_per_url, mb_per_s, vs_normurl), for
    /// scripts.
    #[arg(long)]
    pub json: bool,
}

/// One measurement.
struct Row {
    file: String,
    parser: &'static str,
    threads: usize,
    urls: usize,
    valid: u64,
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
    for path in &bench.files {
        let name = path.display().to_string();
        let bytes = read(path)?;
        let text = String::from_utf8_lossy(&bytes);
        let text = text.strip_prefix('\u{FEFF}').unwrap_or(&text);
        let lines: Vec<&str> = text
            .split('\n')
            .map(|l| l.strip_suffix('\r').unwrap_or(l))
            .filter(|l| !l.is_empty())
            .collect();
        let url_bytes: usize = lines.iter().map(|l| l.len()).sum();
        let row = |parser, threads, (time, valid): (Duration, u64), base: Duration| Row {
            file: name.clone(),
            parser,
            threads,
            urls: lines.len(),
            valid,
            time,
            url_bytes,
            vs_normurl: time.as_secs_f64() / base.as_secs_f64().max(1e-12),
        };

        // One thread: normurl and the peers in turn, run by run, so that
        // the machine's state weighs on all alike.
        let mut parsers = peers::parsers();
        let single = measure_alternating(bench.runs, &mut parsers, &lines);
        let (multi, valid_multi) = measure(bench.runs, || pool.install(|| all_threads(&lines)));
        let (base, valid) = single[0];
        if valid != valid_multi {
            return Err(Failure::Usage(format!(
                "{name}: internal error: {valid} valid URLs on one thread, {valid_multi} on {}",
                bench.threads
            )));
        }
        rows.push(row("normurl", 1, single[0], base));
        rows.push(row("normurl", bench.threads, (multi, valid), multi));
        for ((parser, _), result) in parsers.iter().zip(&single).skip(1) {
            rows.push(row(parser, 1, *result, base));
        }
    }
    let text = if bench.output.json {
        rows.iter().map(json_line).collect()
    } else {
        table(&rows)
    };
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|source| Failure::Io {
            path: "<stdout>".to_string(),
            source,
        })
}

fn table(rows: &[Row]) -> String {
    let mut table = format!(
        "{:<28} {:>9} {:>8} {:>7} {:>8} {:>10} {:>8} {:>8}  {:<18} {:>9}\n",
        "file", "URLs", "valid", "threads", "ns/URL", "URLs/s", "MB/s", "MB", "parser", "x normurl"
    );
    for r in rows {
        let secs = r.time.as_secs_f64();
        let n = r.urls.max(1) as f64;
        table.push_str(&format!(
            "{:<28} {:>9} {:>8} {:>7} {:>8.1} {:>10.0} {:>8.1} {:>8.2}  {:<18} {:>9.2}\n",
            shorten(&r.file, 28),
            r.urls,
            r.valid,
            r.threads,
            secs * 1e9 / n,
            n / secs,
            r.url_bytes as f64 / secs / 1e6,
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
        .uint("urls", r.urls as u64)
        .uint("valid", r.valid)
        .float("ns_per_url", secs * 1e9 / r.urls.max(1) as f64)
        .float("mb_per_s", r.url_bytes as f64 / secs / 1e6)
        .float("vs_normurl", r.vs_normurl);
    o.finish() + "\n"
}

/// A parser under test: its name, and a function that parses every line
/// and returns how many are valid.
type Parser = (&'static str, fn(&[&str]) -> u64);

/// Runs each parser once to warm up, then all in turn `runs` times;
/// returns each one's median time and valid count.
fn measure_alternating(
    runs: usize,
    parsers: &mut [Parser],
    lines: &[&str],
) -> Vec<(Duration, u64)> {
    let valid: Vec<u64> = parsers.iter().map(|(_, f)| f(lines)).collect();
    let mut times = vec![Vec::with_capacity(runs); parsers.len()];
    for _ in 0..runs {
        for ((_, f), t) in parsers.iter().zip(times.iter_mut()) {
            let start = Instant::now();
            black_box(f(lines));
            t.push(start.elapsed());
        }
    }
    times
        .into_iter()
        .zip(valid)
        .map(|(mut t, v)| {
            t.sort();
            (t[t.len() / 2], v)
        })
        .collect()
}

/// The parsers `bench` compares normurl with, built with `--features
/// peers`: ada through the ada-url crate (ada's C++: `href` of a parsed
/// URL, and `can_parse`, its fastest entry point, which allocates
/// nothing), and the url crate (`as_str` of a parsed URL).
#[cfg(feature = "peers")]
mod peers {
    use super::*;

    pub(super) fn parsers() -> Vec<Parser> {
        vec![
            ("normurl", one_thread),
            ("ada-url href", ada_href),
            ("ada-url can_parse", ada_can_parse),
            ("url crate", url_crate),
        ]
    }

    fn ada_href(lines: &[&str]) -> u64 {
        let mut valid = 0;
        for line in lines {
            if let Ok(url) = ada_url::Url::parse(*line, None) {
                black_box(url.href());
                valid += 1;
            }
        }
        valid
    }

    fn ada_can_parse(lines: &[&str]) -> u64 {
        lines
            .iter()
            .filter(|l| black_box(ada_url::Url::can_parse(l, None)))
            .count() as u64
    }

    fn url_crate(lines: &[&str]) -> u64 {
        let mut valid = 0;
        for line in lines {
            if let Ok(url) = url::Url::parse(line) {
                black_box(url.as_str());
                valid += 1;
            }
        }
        valid
    }
}

/// Without `--features peers`: normurl alone.
#[cfg(not(feature = "peers"))]
mod peers {
    use super::*;

    pub(super) fn parsers() -> Vec<Parser> {
        vec![("normurl", one_thread)]
    }
}

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
/// `f`'s result (the number of valid URLs, the same every time).
fn measure(runs: usize, mut f: impl FnMut() -> u64) -> (Duration, u64) {
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

/// Parses every URL with one reused `Url`; returns how many are valid.
fn one_thread(lines: &[&str]) -> u64 {
    let mut url: Option<Url> = None;
    let mut valid = 0;
    for line in lines {
        if let Some(href) = parse(&mut url, line) {
            black_box(href);
            valid += 1;
        }
    }
    valid
}

fn all_threads(lines: &[&str]) -> u64 {
    lines.par_chunks(CHUNK).map(one_thread).sum()
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
        assert_eq!(one_thread(&lines), 5000);
        assert_eq!(all_threads(&lines), 5000);
        let (_, valid) = measure(3, || one_thread(&lines[..4]));
        assert_eq!(valid, 2);
        assert_eq!(shorten("abcdef", 4), "…def");
        assert_eq!(shorten("abc", 4), "abc");
    }
}
