//! Parses every line of a file with one URL parser and prints the number of
//! valid URLs and the sum of their href lengths: a fixed workload for
//! instruction counts, which unlike wall time do not depend on what else the
//! machine is doing.
//!
//! ```text
//! cargo build --release --example parse_corpus
//! valgrind --tool=callgrind --toggle-collect='*parse_corpus::parse_all*' \
//!     target/release/examples/parse_corpus normurl samples/corpora/kasztp.txt
//! ```
//!
//! `<impl>` is `normurl`, `normurl-no-fast-path`, `url` or `ada`, or
//! `normurl-can-parse` or `ada-can-parse` (`Url::can_parse`, which builds
//! no href: the sum is 0). The file
//! is parsed twice: once to warm up, then by `parse_all`, the only
//! function `--toggle-collect` measures, so neither reading the file nor
//! one-time costs count (ada inflates its IDNA tables on first use, about
//! 24 million instructions; normurl's reused buffer grows to the longest
//! URL). Divide the instruction count by the printed line count. Empty
//! lines are skipped and a leading UTF-8 BOM is stripped, as in
//! benches/parse.rs.

use std::hint::black_box;
use std::process::ExitCode;

#[derive(Clone, Copy)]
enum Impl {
    Normurl,
    NormurlNoFastPath,
    Url,
    Ada,
    NormurlCanParse,
    AdaCanParse,
}

/// (valid URLs, sum of their href lengths)
type Answer = (usize, usize);

/// The measured run.
#[inline(never)]
fn parse_all(imp: Impl, lines: &[&str], url: &mut normurl::Url) -> Answer {
    parse_lines(imp, lines, url)
}

/// Parses every line (normurl into the reused `url`).
#[inline(always)]
fn parse_lines(imp: Impl, lines: &[&str], url: &mut normurl::Url) -> Answer {
    let (mut n, mut sum) = (0, 0);
    for &line in lines {
        let len = match imp {
            Impl::Normurl => url
                .parse_into(black_box(line), None)
                .ok()
                .map(|()| url.href().len()),
            Impl::NormurlNoFastPath => url
                .parse_into_without_fast_path(black_box(line), None)
                .ok()
                .map(|()| url.href().len()),
            Impl::Url => url::Url::parse(black_box(line))
                .ok()
                .map(|u| u.as_str().len()),
            Impl::Ada => ada_url::Url::parse(black_box(line), None)
                .ok()
                .map(|u| u.href().len()),
            Impl::NormurlCanParse => normurl::Url::can_parse(black_box(line), None).then_some(0),
            Impl::AdaCanParse => ada_url::Url::can_parse(black_box(line), None).then_some(0),
        };
        if let Some(len) = len {
            n += 1;
            sum += len;
        }
    }
    (n, sum)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let (imp, path) = match args.as_slice() {
        [_, imp, path] => (imp.as_str(), path.as_str()),
        _ => {
            eprintln!(
                "usage: parse_corpus normurl|normurl-no-fast-path|url|ada|normurl-can-parse|ada-can-parse FILE"
            );
            return ExitCode::from(2);
        }
    };
    let imp = match imp {
        "normurl" => Impl::Normurl,
        "normurl-no-fast-path" => Impl::NormurlNoFastPath,
        "url" => Impl::Url,
        "ada" => Impl::Ada,
        "normurl-can-parse" => Impl::NormurlCanParse,
        "ada-can-parse" => Impl::AdaCanParse,
        other => {
            eprintln!("unknown implementation {other:?}");
            return ExitCode::from(2);
        }
    };
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(&text);
    let lines: Vec<&str> = text.lines().filter(|l| !l.is_empty()).collect();
    let mut url = normurl::Url::parse("about:blank").expect("about:blank");
    // The warm-up run, inlined here (a separate function with the same body
    // as `parse_all` would be merged with it by the linker).
    let first = parse_lines(imp, &lines, &mut url);
    let (valid, href_bytes) = parse_all(imp, &lines, &mut url);
    assert_eq!(first, (valid, href_bytes));
    println!(
        "lines {} bytes {} valid {valid} href_bytes {href_bytes}",
        lines.len(),
        lines.iter().map(|l| l.len()).sum::<usize>()
    );
    ExitCode::SUCCESS
}
