//! Writes a high-cardinality file of URLs for benchmarking `--dedup`
//! (scripts/bench-dedup.sh): LINES lines of which a fraction DISTINCT are
//! distinct after normalization, the same bytes for the same SEED.
//!
//! ```text
//! cargo build --release --example make_dedup_file
//! target/release/examples/make_dedup_file                 # 16M lines, ~1 GB
//! target/release/examples/make_dedup_file --lines 80000000 -o bench-data/dedup-5g.txt
//! ```
//!
//! Options: `--lines N` (16,000,000), `--distinct FRACTION` (0.5),
//! `--variants FRACTION` (0.02), `--seed N` (1), `--corpora DIR`
//! (samples/corpora), `-o FILE` (bench-data/dedup.txt). It uses only the
//! standard library, so `rustc -O examples/make_dedup_file.rs` builds it
//! too. (A Python version took 6.8 µs of CPU a line: 9 minutes for 80M
//! lines on an idle core.)
//!
//! The URLs recombine the shapes of the web URL corpora (weburls.txt and
//! kasztp.txt): their hosts, path segments and query parameter names and
//! values, with an id that makes each URL distinct; 64 bytes long on
//! average. URL `k` is a pure function of (SEED, k), so repeats are
//! recomputed, not remembered, and memory stays constant.
//!
//! Duplicates are spread through the file, not in runs: each line is a new
//! URL with the probability that leaves exactly the wanted number of
//! distinct URLs at the end, otherwise a repeat of an earlier one, chosen
//! 40% uniformly (URLs first seen late repeat too), 40% by a power law that
//! favours the earliest (a few URLs repeated very many times) and 20% among
//! the last 10,000 new ones (bursts of recent URLs). A repeat is written in
//! another spelling that normalizes to the same URL (upper-case host, or
//! the default port) with probability VARIANTS, so normalization matters:
//! `sort -u` finds slightly more distinct lines than `normurl --dedup`.
//!
//! The output goes under bench-data/ (git-ignored); never commit it.

use std::collections::BTreeSet;
use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// splitmix64's finalizer: a bijection of the 64-bit integers that spreads
/// every input bit over the output.
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// A seeded random number generator (splitmix64).
struct Rng(u64);

impl Rng {
    /// A uniform float in [0, 1).
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        (mix(self.0) >> 11) as f64 / (1u64 << 53) as f64
    }
}

struct Options {
    lines: u64,
    distinct: f64,
    variants: f64,
    seed: u64,
    corpora: PathBuf,
    output: PathBuf,
}

fn options() -> Result<Options, String> {
    let mut o = Options {
        lines: 16_000_000,
        distinct: 0.5,
        variants: 0.02,
        seed: 1,
        corpora: "samples/corpora".into(),
        output: "bench-data/dedup.txt".into(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or(format!("{flag}: needs a value"))?;
        let bad = |e: &dyn std::fmt::Display| format!("{flag} {value}: {e}");
        match flag.as_str() {
            "--lines" => o.lines = value.parse().map_err(|e| bad(&e))?,
            "--distinct" => o.distinct = value.parse().map_err(|e| bad(&e))?,
            "--variants" => o.variants = value.parse().map_err(|e| bad(&e))?,
            "--seed" => o.seed = value.parse().map_err(|e| bad(&e))?,
            "--corpora" => o.corpora = value.into(),
            "-o" | "--output" => o.output = value.into(),
            _ => return Err(format!("{flag}: unknown option")),
        }
    }
    if !(o.distinct > 0.0 && o.distinct <= 1.0) {
        return Err("--distinct: must be in (0, 1]".into());
    }
    Ok(o)
}

/// Hosts, path segments, query names and query values of the corpora's
/// http(s) URLs, each sorted (so the same for the same corpora).
struct Shapes {
    hosts: Vec<String>,
    segments: Vec<String>,
    names: Vec<String>,
    values: Vec<String>,
}

/// A path segment or query word that normalizes to itself and cannot be a
/// dot segment.
fn plain(s: &str, max: usize) -> bool {
    let ok = |b: u8| b.is_ascii_alphanumeric() || b"_.-".contains(&b);
    (2..=max).contains(&s.len()) && s.bytes().all(ok) && s.as_bytes()[0].is_ascii_alphanumeric()
}

/// A domain name that is valid and normalizes to itself: lower-case
/// labels, none empty or starting or ending with `-`, an alphabetic last
/// one (the corpora have test hosts such as `0x00.0x00.0x00.0x00` and
/// `2..2.3`, which are invalid IPv4 addresses or normalize to another).
fn domain(host: &str) -> bool {
    let label_ok = |l: &str| {
        let b = l.as_bytes();
        let ok = |c: &u8| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-';
        !b.is_empty() && b.iter().all(ok) && b[0] != b'-' && b[b.len() - 1] != b'-'
    };
    let tld = host.rsplit('.').next().unwrap_or("");
    host.contains('.')
        && host.split('.').all(label_ok)
        && tld.len() >= 2
        && tld.bytes().all(|c| c.is_ascii_lowercase())
}

fn shapes(dir: &Path) -> Result<Shapes, String> {
    let mut sets: [BTreeSet<String>; 4] = Default::default();
    for name in ["weburls.txt", "kasztp.txt"] {
        let path = dir.join(name);
        let text = fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        for line in String::from_utf8_lossy(&text).lines() {
            let Some(rest) = line
                .strip_prefix("https://")
                .or_else(|| line.strip_prefix("http://"))
            else {
                continue;
            };
            let rest = rest.split('#').next().unwrap_or("");
            let (before, query) = rest.split_once('?').unwrap_or((rest, ""));
            let (host, path) = before.split_once('/').unwrap_or((before, ""));
            if domain(host) {
                sets[0].insert(host.to_string());
            }
            sets[1].extend(path.split('/').filter(|s| plain(s, 24)).map(String::from));
            for pair in query.split('&') {
                let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
                sets[2].extend(plain(k, 16).then(|| k.to_string()));
                sets[3].extend(plain(v, 16).then(|| v.to_string()));
            }
        }
    }
    let [hosts, segments, names, values] = sets.map(|s| s.into_iter().collect::<Vec<_>>());
    if [&hosts, &segments, &names, &values]
        .iter()
        .any(|v| v.is_empty())
    {
        return Err(format!(
            "{}: no http(s) URLs to take shapes from",
            dir.display()
        ));
    }
    Ok(Shapes {
        hosts,
        segments,
        names,
        values,
    })
}

fn pick(list: &[String], h: u64) -> &str {
    &list[(h % list.len() as u64) as usize]
}

/// Appends `n` in base 36.
fn base36(out: &mut Vec<u8>, mut n: u64) {
    let mut digits = [0u8; 13];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b"0123456789abcdefghijklmnopqrstuvwxyz"[(n % 36) as usize];
        n /= 36;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
}

/// Appends URL `k`, spelt as a variant (see the module docs) if `variant`
/// is 1 (upper-case host) or 2 (default port).
fn url(out: &mut Vec<u8>, s: &Shapes, seed: u64, k: u64, variant: u8) {
    let h = mix(k ^ seed);
    let g = mix(h);
    let shape = g % 8;
    let scheme = if shape == 7 { "http" } else { "https" };
    let host = pick(&s.hosts, h);
    let (s1, s2) = (pick(&s.segments, h >> 16), pick(&s.segments, h >> 32));
    out.extend_from_slice(scheme.as_bytes());
    out.extend_from_slice(b"://");
    match variant {
        1 => out.extend(host.bytes().map(|b| b.to_ascii_uppercase())),
        2 => write!(out, "{host}:{}", if shape == 7 { 80 } else { 443 }).unwrap_or(()),
        _ => out.extend_from_slice(host.as_bytes()),
    }
    let (n1, v1) = (pick(&s.names, g >> 8), pick(&s.values, g >> 24));
    let _ = match shape {
        0..=2 => write!(out, "/{s1}/{s2}/"),
        3 | 4 => write!(out, "/{s1}/{s2}-"),
        5 | 6 => write!(out, "/{s1}?{n1}={v1}&id="),
        _ => write!(out, "/{s1}/{s2}?{n1}="),
    };
    // The id: a bijection of k, so distinct k give distinct URLs.
    base36(out, mix(k ^ 0x5DEE_CE66D));
    if matches!(shape, 3 | 4) {
        out.extend_from_slice(b".html");
    }
    out.push(b'\n');
}

/// Which earlier URL (of `k`) a repeat repeats.
fn repeat_of(rng: &mut Rng, k: u64) -> u64 {
    let r = rng.next();
    let j = if r < 0.4 {
        rng.next() * k as f64
    } else if r < 0.8 {
        k as f64 * rng.next().powi(4)
    } else {
        (k - 1) as f64 - (rng.next() * k.min(10_000) as f64).floor()
    };
    (j as u64).min(k - 1)
}

fn generate(o: &Options, s: &Shapes, out: &mut impl Write) -> std::io::Result<u64> {
    let mut rng = Rng(o.seed);
    let seed = mix(o.seed);
    let distinct = (o.lines as f64 * o.distinct).round() as u64;
    let mut k = 0;
    let mut line = Vec::with_capacity(256);
    for i in 0..o.lines {
        line.clear();
        let left = (o.lines - i) as f64;
        if k < distinct && (k == 0 || rng.next() * left < (distinct - k) as f64) {
            url(&mut line, s, seed, k, 0);
            k += 1;
        } else {
            let j = repeat_of(&mut rng, k);
            let variant = if rng.next() < o.variants {
                1 + u8::from(rng.next() < 0.5)
            } else {
                0
            };
            url(&mut line, s, seed, j, variant);
        }
        out.write_all(&line)?;
    }
    out.flush()?;
    Ok(k)
}

fn main() -> Result<(), String> {
    let o = options()?;
    let s = shapes(&o.corpora)?;
    let path = &o.output;
    let fail = |e: std::io::Error| format!("{}: {e}", path.display());
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir).map_err(fail)?;
    }
    let mut out = BufWriter::with_capacity(1 << 20, File::create(path).map_err(fail)?);
    let k = generate(&o, &s, &mut out).map_err(fail)?;
    let bytes = fs::metadata(path).map_err(fail)?.len();
    println!(
        "{}: {bytes} bytes, {} lines, {k} distinct URLs",
        path.display(),
        o.lines
    );
    Ok(())
}
