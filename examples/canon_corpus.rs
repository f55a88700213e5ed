//! Parses and canonicalizes every line of some files with one profile: a
//! fixed workload for instruction counts (callgrind), which unlike wall
//! time do not depend on what else the machine is doing.
//!
//! ```text
//! cargo build --release --example canon_corpus
//! valgrind --tool=callgrind --toggle-collect='*canon_corpus::canon_all*' \
//!     target/release/examples/canon_corpus aggressive samples/corpora/*.txt
//! ```
//!
//! The lines are canonicalized twice: once to warm up (buffers grow to the
//! longest URL), then by `canon_all`, the only function `--toggle-collect`
//! measures, so reading the files does not count. Divide the instruction
//! count by the printed line count. Empty lines are skipped and a leading
//! UTF-8 BOM is stripped, as in benches/canon.rs.
//!
//! The printed digest covers every output and every set of fired rules, so
//! two builds that print the same digest produced the same bytes. With
//! `--dump` the outputs are written to stdout instead, one per line, with
//! the fired rules after a tab.
//!
//! Each line goes through [`Canonicalizer::parse_apply`], as in the
//! command; with `--two-step`, through `Url::parse_into` and then
//! `Canonicalizer::apply` (the way before `parse_apply`).
//!
//! With `--time ROUNDS` and the profile `all`, it times every profile
//! instead, interleaved round by round, and prints the fastest round of
//! each in ns per line and as a multiple of `whatwg`: a quick side-by-side
//! comparison on a busy machine (criterion's `benches/canon.rs` is the
//! reference). A space-separated list of names (one argument) times
//! those, the first being the baseline; a name may be `PROFILE/EDITS`
//! with rule edits as `--rules` takes them
//! (`"whatwg aggressive aggressive/-strip-www,-drop-fragment"`).

use std::hint::black_box;
use std::process::ExitCode;

use normurl::canon::{Canonicalizer, OutputForm, Profile, RuleSet, Scratch, SurtOptions};
use normurl::Url;

/// FNV-1a over the outputs: enough to notice a change.
struct Digest(u64);

impl Digest {
    fn add(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }
}

/// The measured run: (valid URLs, sum of output lengths).
#[inline(never)]
fn canon_all(canon: &Canonicalizer, lines: &[&str], two_step: bool) -> (usize, usize) {
    let mut url = Url::parse("about:blank").expect("valid");
    let mut scratch = Scratch::new();
    let mut out = Vec::new();
    let (mut n, mut sum) = (0, 0);
    for &line in lines {
        out.clear();
        if run(
            canon,
            black_box(line),
            two_step,
            &mut url,
            &mut scratch,
            &mut out,
        )
        .is_some()
        {
            n += 1;
            sum += out.len();
        }
    }
    (n, sum)
}

/// Canonicalizes one line as the command does
/// ([`Canonicalizer::parse_apply`]), or with `two_step` as
/// [`Url::parse_into`] then [`Canonicalizer::apply`]; `None` when it is
/// no URL.
#[inline(always)]
fn run(
    canon: &Canonicalizer,
    line: &str,
    two_step: bool,
    url: &mut Url,
    scratch: &mut Scratch,
    out: &mut Vec<u8>,
) -> Option<RuleSet> {
    if two_step {
        url.parse_into(line, None).ok()?;
        Some(canon.apply(url, scratch, out))
    } else {
        canon.parse_apply(line, url, scratch, out).ok()
    }
}

fn canonicalizer(name: &str) -> Option<Canonicalizer> {
    if name == "wayback-surt" {
        let mut builder = Canonicalizer::builder(Profile::Wayback);
        builder.output(OutputForm::Surt(SurtOptions::CDX));
        return Some(builder.build());
    }
    // `PROFILE/EDITS`: a profile with rules added or removed, as
    // `--rules` takes them (`aggressive/-strip-www`), to see what a rule
    // costs.
    if let Some((profile, edits)) = name.split_once('/') {
        let mut builder = Canonicalizer::builder(profile.parse::<Profile>().ok()?);
        builder.rules(edits).ok()?;
        return Some(builder.build());
    }
    // `PROFILE+surt` and `PROFILE+ssurt`: another output form, for
    // checking that those outputs do not change either.
    if let Some((profile, output)) = name.split_once('+') {
        let mut builder = Canonicalizer::builder(profile.parse::<Profile>().ok()?);
        builder.output(output.parse::<OutputForm>().ok()?);
        return Some(builder.build());
    }
    name.parse::<Profile>().ok().map(Canonicalizer::new)
}

/// The profiles `--time` compares, `whatwg` first.
const TIMED: [&str; 6] = [
    "whatwg",
    "semantic",
    "aggressive",
    "safe-browsing",
    "wayback",
    "wayback-surt",
];

fn time(rounds: usize, names: &[&str], lines: &[&str], two_step: bool) -> Result<(), String> {
    let canons = names
        .iter()
        .map(|name| canonicalizer(name).ok_or_else(|| format!("unknown profile {name}")))
        .collect::<Result<Vec<Canonicalizer>, String>>()?;
    let mut best = vec![f64::INFINITY; names.len()];
    for _ in 0..rounds {
        for (canon, best) in canons.iter().zip(&mut best) {
            let start = std::time::Instant::now();
            black_box(canon_all(canon, lines, two_step));
            let ns = start.elapsed().as_nanos() as f64 / lines.len() as f64;
            *best = best.min(ns);
        }
    }
    for (name, ns) in names.iter().zip(&best) {
        println!("{name:24} {ns:6.1} ns/line  {:.2}x", ns / best[0]);
    }
    Ok(())
}

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let dump = args.iter().any(|a| a == "--dump");
    let two_step = args.iter().any(|a| a == "--two-step");
    args.retain(|a| a != "--dump" && a != "--two-step");
    let rounds = args
        .iter()
        .position(|a| a == "--time")
        .map(|i| args.drain(i..=i + 1).nth(1).and_then(|n| n.parse().ok()));
    if args.len() < 2 {
        eprintln!("usage: canon_corpus [--two-step] [--dump] <profile|wayback-surt|profile+surt|profile+ssurt> <file>...");
        eprintln!(
            "       canon_corpus [--two-step] --time ROUNDS <all|\"name name ...\"> <file>..."
        );
        return ExitCode::FAILURE;
    }
    let texts: Vec<String> = args[1..]
        .iter()
        .map(|path| std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}")))
        .collect();
    let lines: Vec<&str> = texts
        .iter()
        .flat_map(|t| t.strip_prefix('\u{FEFF}').unwrap_or(t).lines())
        .filter(|l| !l.is_empty())
        .collect();
    if let Some(rounds) = rounds {
        let Some(rounds) = rounds else {
            eprintln!("--time takes a number of rounds");
            return ExitCode::FAILURE;
        };
        // `all`, or a space-separated list whose first is the baseline.
        let names: Vec<&str> = match args[0].as_str() {
            "all" => TIMED.to_vec(),
            list => list.split_whitespace().collect(),
        };
        return match time(rounds, &names, &lines, two_step) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("{e}");
                ExitCode::FAILURE
            }
        };
    }
    let Some(canon) = canonicalizer(&args[0]) else {
        eprintln!("unknown profile {}", args[0]);
        return ExitCode::FAILURE;
    };

    // Warm-up, digest or dump.
    let mut url = Url::parse("about:blank").expect("valid");
    let mut scratch = Scratch::new();
    let mut out = Vec::new();
    let mut digest = Digest(0xcbf2_9ce4_8422_2325);
    let mut dumped = Vec::new();
    for &line in &lines {
        out.clear();
        let Some(fired) = run(&canon, line, two_step, &mut url, &mut scratch, &mut out) else {
            continue;
        };
        out.push(b'\t');
        fired.write_names(&mut out);
        out.push(b'\n');
        if dump {
            dumped.extend_from_slice(&out);
        } else {
            digest.add(&out);
        }
    }
    if dump {
        use std::io::Write;
        std::io::stdout().write_all(&dumped).expect("stdout");
        return ExitCode::SUCCESS;
    }

    let (n, sum) = canon_all(&canon, &lines, two_step);
    println!(
        "{} lines, {n} valid, {sum} output bytes, digest {:016x}",
        lines.len(),
        digest.0
    );
    ExitCode::SUCCESS
}
