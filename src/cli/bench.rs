//! `normurl bench FILE...`: URL parsing throughput, for people who compare
//! URL parsers.
//!
//! Each file is read into memory once, decompressed as the main command
//! decompresses it (a UTF-8 byte order mark dropped, empty lines ignored);
//! then every URL is parsed and serialized (`href`) with a reused [`Url`],
//! first on one thread, then on all threads. Each measurement runs once to
//! warm caches, then `--runs` times; the median is reported. MB/s counts
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
use super::Failure;

/// URLs per parallel work item: large enough to amortize scheduling.
const CHUNK: usize = 4096;

pub fn run(bench: &Bench, out: &mut dyn Write) -> Result<(), Failure> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(bench.threads)
        .build()
        .map_err(|e| Failure::Usage(format!("cannot start {} threads: {e}", bench.threads)))?;
    let mut table = String::new();
    table.push_str(&format!(
        "{:<28} {:>9} {:>8} {:>7} {:>8} {:>10} {:>8} {:>8}\n",
        "file", "URLs", "valid", "threads", "ns/URL", "URLs/s", "MB/s", "MB"
    ));
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

        let (single, valid) = measure(bench.runs, || one_thread(&lines));
        let (multi, valid_multi) = measure(bench.runs, || pool.install(|| all_threads(&lines)));
        if valid != valid_multi {
            return Err(Failure::Usage(format!(
                "{name}: internal error: {valid} valid URLs on one thread, {valid_multi} on {}",
                bench.threads
            )));
        }
        for (threads, time) in [(1, single), (bench.threads, multi)] {
            let secs = time.as_secs_f64();
            let n = lines.len().max(1) as f64;
            table.push_str(&format!(
                "{:<28} {:>9} {:>8} {:>7} {:>8.1} {:>10.0} {:>8.1} {:>8.2}\n",
                shorten(&name, 28),
                lines.len(),
                valid,
                threads,
                secs * 1e9 / n,
                n / secs,
                url_bytes as f64 / secs / 1e6,
                url_bytes as f64 / 1e6,
            ));
        }
    }
    out.write_all(table.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|source| Failure::Io {
            path: "<stdout>".to_string(),
            source,
        })
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
