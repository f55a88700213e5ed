//! Target `command`: what the `normurl` command does end to end, with any
//! options, is the same with any thread count, batch size and dedup memory
//! limit, and keeps the promises of the options.
//!
//! The `pipeline` target checks the default options only; this one builds
//! what src/cli/run.rs builds (a [`Normalizer`] with arbitrary [`Options`],
//! a [`Pipeline`], [`Sinks`] with a rejects writer, and a [`Deduper`] as the
//! key filter for `--dedup`) from the first six bytes of a fuzz input:
//!
//! | byte | meaning |
//! |------|---------|
//! | 0 | threads: `1 + b % 4` |
//! | 1 | batch bytes: `1 + b`; with a format (byte 3), the first line is a header (`--header`) if `b` is odd |
//! | 2 | max record (line) bytes: `1 + b`, for every run |
//! | 3 | `OnInvalid::ALL[b % 4]`, `InvalidUtf8::ALL[b / 4 % 3]`, `--base` [`BASE`] if `b / 12` is odd; `b / 24 % 4` (`byte(1) / 2 % 4` when `b >= 192`): `--get` url (as before), `--json`, `--get` [`TEMPLATE`], `--get registered_domain`; if `b >= 192`, the format `(b - 192) / 16`: CSV by `,` or by tab (`--csv`), `--json-field url`, `--json-field a.u` |
//! | 4 | select: the whole line if `b % 4 == 0`, else field `1 + b / 4 % 3`, delimited by tab, space or blanks (`b / 12 % 3`), writing the line or the field (`b / 36 % 2`), with base field none or 1..=3 (`b / 72`); with a format (byte 3), CSV replaces the delimiter (the whole line becoming field 1), JSON keeps only the output bit |
//! | 5 | bits 0-1: canonicalizer none, `aggressive`, `semantic`, `wayback` with `--get surt`; bit 2: explain; bit 3: original; bit 4: rejects; bits 5-6: dedup off, exact, adjacent, exact; bit 7: the parallel run's dedup memory limit 0 (spill at the first key) or 128 bytes (spill after a few keys) |
//!
//! Missing bytes count as 0. The rest is the file, written to a temporary
//! file and run with the same options sequentially (the reference: one
//! thread, default batch size, in-memory dedup with the default 1 GiB
//! budget) and with the chosen threads, batch size and a dedup budget so
//! small that keys spill to disk. Output, rejects, and summary or error
//! must be equal: spilled ≡ in memory ≡ sequential. Then the reference must
//! hold these invariants ([`check_invariants`]):
//!
//! * without `rejects` there is no side output; with it, one entry per
//!   invalid line, numbered in increasing order within the records read;
//! * one output line per written record, and
//!   `records == output_records + skipped + deduplicated`,
//!   `lines == valid + invalid + blank` (`Stats`' own accounting);
//! * on a plain (not gzip or zstd) file, the records are the file's lines
//!   (a leading BOM and the `\r` of `\r\n` dropped, as
//!   crates/normurl-pipeline/src/tests.rs's `naive` splits them); with `keep` and no
//!   dedup, the run succeeds (unless the file starts with `WARC/1.`, which
//!   is refused) with one output line per input line; with
//!   `original` as well (and no `explain` column) the output is the input
//!   lines as src/normalize/tests.rs's `original_writes_input_lines` says,
//!   or their URL field with `FieldOutput::Field` (overlong lines are
//!   copied whole, as the `Normalizer` documentation says);
//! * with `--json`, every output line is a JSON object ([`is_json_object`]);
//! * with dedup, a third run without it (sequential) reads and stops the
//!   same, counts the same `Stats`, writes the dedup run's lines as a
//!   superset in the same order, and exactly `deduplicated` more records.

use std::num::NonZeroUsize;
use std::path::Path;

use normurl::canon::{Canonicalizer, OutputForm, Profile, SurtOptions};
use normurl::dedup::{CountFormat, DedupConfig, DedupMode, Deduper, ShardWriter, Shards};
use normurl::normalize::{
    Delimiter, FieldOutput, Get, Normalizer, OnInvalid, Options, Select, Stats,
};
use normurl::pipeline::{Format, Input, KeyFilter, Pipeline, Sinks, Summary};
use normurl::Url;

use super::{pipeline, TempFile};

/// The `--base` of configurations that set one: with a path, query and
/// fragment, so that relative references of every kind resolve.
pub const BASE: &str = "http://h.example/a/b?q#f";

/// The `--get` template of configurations that choose one: literal text,
/// escapes, a PSL component and a SURT.
pub const TEMPLATE: &str = r"[{registered_domain}]\t{surt}\{{port}\}";

/// What the configuration writes for a valid line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GetMode {
    /// The canonicalizer's output.
    Url,
    Json,
    Template,
    RegisteredDomain,
}

/// The canonicalizers the configuration chooses from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Canon {
    /// No canonicalizer: the WHATWG serialization.
    None,
    Aggressive,
    Semantic,
    /// `--profile wayback --get surt`: CDX keys.
    WaybackSurt,
}

/// The configuration of a run; see the module documentation for the
/// bytes.
#[derive(Clone, Debug)]
pub struct Config {
    /// Threads, batch size and record limit of the parallel run, and the
    /// two policies: the first four bytes, as for the `pipeline` target.
    pub run: pipeline::Config,
    /// Whether `--base` is [`BASE`].
    pub base: bool,
    pub select: Select,
    /// `--header`.
    pub header: bool,
    pub canon: Canon,
    pub get: GetMode,
    pub explain: bool,
    pub original: bool,
    pub rejects: bool,
    pub dedup: Option<DedupMode>,
    /// The parallel run's dedup memory limit, in bytes.
    pub spill_limit: usize,
}

impl Config {
    /// Takes the configuration from the first six bytes of `data` (missing
    /// bytes count as 0) and returns it with the rest.
    pub fn from_bytes(data: &[u8]) -> (Config, &[u8]) {
        let byte = |i: usize| usize::from(data.get(i).copied().unwrap_or(0));
        let output = [FieldOutput::Line, FieldOutput::Field][byte(4) / 36 % 2];
        let select = match (byte(3).checked_sub(192).map(|f| f / 16), byte(4)) {
            (Some(f @ (0 | 1)), s) => Select::Field {
                field: NonZeroUsize::MIN.saturating_add(s / 4 % 3),
                base_field: NonZeroUsize::new(s / 72),
                delimiter: Delimiter::Csv([b',', b'\t'][f]),
                output,
            },
            (Some(f), _) => Select::Json {
                path: if f == 2 { "url" } else { "a.u" }.parse().expect("a path"),
                output,
            },
            (None, s) if s % 4 == 0 => Select::Line,
            (None, s) => Select::Field {
                field: NonZeroUsize::MIN.saturating_add(s / 4 % 3),
                base_field: NonZeroUsize::new(s / 72),
                delimiter: [
                    Delimiter::Byte(b'\t'),
                    Delimiter::Byte(b' '),
                    Delimiter::Blanks,
                ][s / 12 % 3],
                output: [FieldOutput::Line, FieldOutput::Field][s / 36 % 2],
            },
        };
        let flags = byte(5);
        let get = [
            GetMode::Url,
            GetMode::Json,
            GetMode::Template,
            GetMode::RegisteredDomain,
        ][if byte(3) < 192 {
            byte(3) / 24 % 4
        } else {
            byte(1) / 2 % 4
        }];
        // --json excludes --explain and --original, as the command's
        // options do.
        let json = get == GetMode::Json;
        let config = Config {
            header: byte(3) >= 192 && byte(1) % 2 == 1,
            run: pipeline::Config::from_bytes(data).0,
            base: byte(3) / 12 % 2 == 1,
            select,
            canon: [
                Canon::None,
                Canon::Aggressive,
                Canon::Semantic,
                Canon::WaybackSurt,
            ][flags % 4],
            get,
            explain: flags & 4 != 0 && !json,
            original: flags & 8 != 0 && !json,
            rejects: flags & 16 != 0,
            dedup: [
                None,
                Some(DedupMode::Exact),
                Some(DedupMode::Adjacent),
                Some(DedupMode::Exact),
            ][flags >> 5 & 3],
            spill_limit: if flags & 128 != 0 { 128 } else { 0 },
        };
        (config, data.get(6..).unwrap_or(&[]))
    }

    /// The normalizer's options, as src/cli/config.rs makes them; `dedup`
    /// says whether records get keys.
    fn options(&self, dedup: bool) -> Options {
        let surt = self.canon == Canon::WaybackSurt && self.get != GetMode::Url;
        let canon = match self.canon {
            Canon::None => Canonicalizer::default(),
            // The command's canonicalizer writes URLs for components.
            Canon::WaybackSurt if surt => Canonicalizer::new(Profile::Wayback),
            Canon::Aggressive => Canonicalizer::new(Profile::Aggressive),
            Canon::Semantic => Canonicalizer::new(Profile::Semantic),
            Canon::WaybackSurt => Canonicalizer::builder(Profile::Wayback)
                .output(OutputForm::Surt(SurtOptions::CDX))
                .build(),
        };
        Options {
            select: self.select.clone(),
            base: self.base.then(|| Url::parse(BASE).expect("BASE parses")),
            resolution: Default::default(),
            invalid_utf8: self.run.invalid_utf8,
            on_invalid: self.run.on_invalid,
            rejects: self.rejects,
            canon,
            dedup,
            explain: self.explain,
            original: self.original,
            sort_keys: dedup && self.dedup == Some(DedupMode::Adjacent),
            get: match self.get {
                GetMode::Url => None,
                GetMode::Json => Some(Get::Json),
                GetMode::Template => {
                    Some(Get::Template(TEMPLATE.parse().expect("TEMPLATE parses")))
                }
                GetMode::RegisteredDomain => Some(Get::Template(
                    "registered_domain".parse().expect("a component"),
                )),
            },
            header: self.header,
            ..Options::default()
        }
    }
}

/// Runs the check on the fuzz input `data`; returns the output.
pub fn check(data: &[u8]) -> Vec<u8> {
    let (config, content) = Config::from_bytes(data);
    check_content(config, content)
}

/// What a run wrote and returned. The error is compared by its message
/// (it names the file and a line or byte offset).
struct Ran {
    out: Vec<u8>,
    rejects: Vec<u8>,
    result: Result<Summary<Stats>, String>,
}

impl Ran {
    /// Everything two runs must agree on (`Summary` has no `PartialEq`:
    /// its `Debug` form, as the `pipeline` target compares it).
    fn observed(&self) -> (&[u8], &[u8], Result<String, &String>) {
        // Less the CPU times, which vary from run to run.
        let result = self.result.as_ref().map(|s| {
            let mut s = s.clone();
            s.cpu = Default::default();
            format!("{s:?}")
        });
        (&self.out, &self.rejects, result)
    }

    fn show(&self) -> String {
        format!(
            "{:?}\noutput: {:?}\nrejects: {:?}",
            self.result,
            String::from_utf8_lossy(&self.out),
            String::from_utf8_lossy(&self.rejects)
        )
    }
}

/// Runs `content` sequentially and with `config`, compares, checks the
/// invariants, and returns the output.
pub fn check_content(config: Config, content: &[u8]) -> Vec<u8> {
    let file = TempFile::new("command", content);
    let fail = |what: &str, runs: &[(&str, &Ran)]| -> ! {
        let mut message = format!(
            "{what}\n{config:?} on {:?}",
            String::from_utf8_lossy(content)
        );
        for (name, ran) in runs {
            message.push_str(&format!("\n{name}: {}", ran.show()));
        }
        panic!("{message}");
    };
    let dedup = config.dedup.is_some();
    let default_limit = DedupConfig::default().memory_limit;
    let reference = run(&file.0, &config, 1, None, dedup.then_some(default_limit));
    let parallel = run(
        &file.0,
        &config,
        config.run.threads,
        Some(config.run.batch_bytes),
        dedup.then_some(config.spill_limit),
    );
    if reference.observed() != parallel.observed() {
        fail(
            "the parallel run (spilling dedup) differs from the sequential one",
            &[("sequential", &reference), ("parallel", &parallel)],
        );
    }
    if let Err(what) = check_invariants(&config, content, &reference) {
        fail(&what, &[("sequential", &reference)]);
    }
    if dedup {
        let all = run(&file.0, &config, 1, None, None);
        if let Err(what) = check_dedup(&reference, &all) {
            fail(&what, &[("dedup", &reference), ("no dedup", &all)]);
        }
    }
    reference.out
}

/// Runs the command's pipeline on `path` with `config`'s options, and a
/// [`Deduper`] with this memory limit as the key filter if `dedup_limit` is
/// set.
fn run(
    path: &Path,
    config: &Config,
    threads: usize,
    batch_bytes: Option<usize>,
    dedup_limit: Option<usize>,
) -> Ran {
    let mut builder = Pipeline::builder();
    builder
        .threads(threads)
        .max_record_bytes(config.run.max_record_bytes);
    if let Some(n) = batch_bytes {
        builder.batch_bytes(n);
    }
    let normalizer = Normalizer::new(config.options(dedup_limit.is_some()));
    // As the command: --json objects carry line numbers. (CSV records stay
    // one per line here, Framing::Lines: the invariants below count lines.)
    builder.number_lines(normalizer.wants_line_numbers());
    let pipeline = builder.build(normalizer);
    let dedup_config = dedup_limit.map(|memory_limit| DedupConfig {
        mode: config.dedup.unwrap_or(DedupMode::Exact),
        memory_limit,
        // Explicit, as a `--temp-dir` would be: the spill directory is
        // created (and removed) under it.
        temp_dir: Some(std::env::temp_dir()),
    });
    // The parallel run (the one with a batch size) decides exact dedup as
    // the command does, with the sharded deduper on the workers; the
    // reference with the sequential `Deduper` on the writer.
    let sharded = batch_bytes.is_some() && config.dedup == Some(DedupMode::Exact);
    let shards = dedup_config
        .clone()
        .filter(|_| sharded)
        .map(|c| Shards::new(c, false));
    let mut shard_writer = shards
        .as_ref()
        .map(|s| ShardWriter::new(s, CountFormat::Prefix(b'\t')));
    let mut deduper = dedup_config.filter(|_| !sharded).map(Deduper::new);
    let filter: Option<&mut dyn KeyFilter> = match (&mut deduper, &mut shard_writer) {
        (Some(d), _) => Some(d),
        (_, Some(w)) => Some(w),
        _ => None,
    };
    let (mut out, mut rejects) = (Vec::new(), Vec::new());
    // A side writer even without `rejects`, to check nothing goes there.
    let mut sinks = Sinks::new("<stdout>", &mut out).side("rejects", &mut rejects);
    if let Some(s) = &shards {
        sinks = sinks.key_shards(s);
    }
    if let Some(f) = filter {
        sinks = sinks.key_filter(f);
        // As `--assume-sorted` does; `unsorted` is compared with the rest
        // of the summary.
        if config.dedup == Some(DedupMode::Adjacent) {
            sinks = sinks.check_order();
        }
    }
    let result = pipeline
        .run(vec![Input::path(path)], sinks)
        .map_err(|e| e.to_string());
    Ran {
        out,
        rejects,
        result,
    }
}

/// The invariants of one run of `config` on `content`; see the module
/// documentation.
fn check_invariants(config: &Config, content: &[u8], ran: &Ran) -> Result<(), String> {
    if !config.rejects && !ran.rejects.is_empty() {
        return Err("side output without rejects".into());
    }
    let plain = Format::detect(content) == Format::Plain;
    let lines = input_lines(content);
    let keep_all = config.run.on_invalid == OnInvalid::Keep && config.dedup.is_none();
    let summary = match &ran.result {
        Ok(s) => s,
        // A WARC file stops any run (the normalizer refuses it).
        Err(_) if keep_all && plain && !is_warc(content) => {
            return Err("keep failed on a plain file".into())
        }
        Err(_) => return Ok(()),
    };
    let s = &summary.stats;
    let out_lines = count_lines(&ran.out);
    if out_lines != summary.output_records {
        return Err(format!(
            "{out_lines} output lines for {} output records",
            summary.output_records
        ));
    }
    if summary.records != summary.output_records + s.skipped + summary.deduplicated
        || s.lines != summary.records
        || s.lines != s.valid + s.invalid() + s.blank + s.headers
        || s.headers > u64::from(config.header)
    {
        return Err("the counts do not add up".into());
    }
    if config.rejects {
        // Each entry is `number TAB reason TAB line`; lines hold no '\n'.
        let mut last = 0;
        for entry in ran.rejects.split_inclusive(|&b| b == b'\n') {
            let digits = entry.iter().take_while(|b| b.is_ascii_digit()).count();
            let number = std::str::from_utf8(&entry[..digits])
                .ok()
                .and_then(|n| n.parse::<u64>().ok())
                .unwrap_or(0);
            if number <= last || number > summary.records {
                return Err(format!("rejects entry number {number} after {last}"));
            }
            last = number;
        }
        if count_lines(&ran.rejects) != s.invalid() {
            return Err(format!(
                "not one rejects entry per invalid line ({})",
                s.invalid()
            ));
        }
    }
    if !plain {
        return Ok(());
    }
    if summary.records != lines.len() as u64 {
        return Err(format!(
            "{} records for {} lines",
            summary.records,
            lines.len()
        ));
    }
    if keep_all && out_lines != lines.len() as u64 {
        return Err("keep: not one output line per input line".into());
    }
    if config.get == GetMode::Json {
        // Every line, a --header line too, is an object.
        let mut lines = ran.out.split_inclusive(|&b| b == b'\n');
        if let Some(line) = lines.find(|l| !is_json_object(l.strip_suffix(b"\n").unwrap_or(l))) {
            return Err(format!(
                "not a JSON object: {:?}",
                String::from_utf8_lossy(line)
            ));
        }
    }
    if keep_all && config.original && !config.explain {
        let mut expected = Vec::new();
        for line in &lines {
            // A header too: with only the field written, its field.
            expected.extend_from_slice(as_read(config, line));
            expected.push(b'\n');
        }
        if ran.out != expected {
            return Err(format!(
                "original with keep: not the input lines; expected {:?}",
                String::from_utf8_lossy(&expected)
            ));
        }
    }
    Ok(())
}

/// A dedup run against the same run without dedup.
fn check_dedup(dedup: &Ran, all: &Ran) -> Result<(), String> {
    match (&dedup.result, &all.result) {
        (Ok(d), Ok(a)) => {
            if d.records != a.records
                || d.stats != a.stats
                || d.output_records + d.deduplicated != a.output_records
            {
                return Err("dedup: the counts differ from the run without it".into());
            }
        }
        (Err(d), Err(a)) if d == a => {}
        _ => return Err("dedup: the run ends differently without it".into()),
    }
    // Every dedup output line, in order, among the lines without dedup.
    let mut rest = all.out.split_inclusive(|&b| b == b'\n');
    if !dedup
        .out
        .split_inclusive(|&b| b == b'\n')
        .all(|line| rest.any(|other| other == line))
    {
        return Err("dedup: output lines not a subsequence of the run without it".into());
    }
    Ok(())
}

/// The lines the pipeline reads from a plain `content`: a leading BOM
/// dropped, no record after a final `\n`, the `\r` of each `\r\n` dropped
/// (the `naive` reference of crates/normurl-pipeline/src/tests.rs).
fn input_lines(content: &[u8]) -> Vec<&[u8]> {
    let file = content.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(content);
    let mut lines: Vec<&[u8]> = file.split(|&b| b == b'\n').collect();
    let unterminated_last = !file.is_empty() && !file.ends_with(b"\n");
    if !unterminated_last {
        lines.pop();
    }
    let n = lines.len();
    for (i, line) in lines.iter_mut().enumerate() {
        if i + 1 < n || !unterminated_last {
            *line = line.strip_suffix(b"\r").unwrap_or(line);
        }
    }
    lines
}

/// What `original` with `keep` writes for `line`: the line, or its URL
/// field (empty if missing) with `FieldOutput::Field`; an overlong line is
/// copied whole either way.
fn as_read<'l>(config: &Config, line: &'l [u8]) -> &'l [u8] {
    match config.select {
        Select::Field {
            output: FieldOutput::Field,
            ..
        }
        | Select::Json {
            output: FieldOutput::Field,
            ..
        } if line.len() <= config.run.max_record_bytes => {
            config.select.url_range(line).map_or(&[][..], |r| &line[r])
        }
        _ => line,
    }
}

/// Whether the normalizer refuses `content` as a WARC file: its first
/// line (after a byte order mark) starts with `WARC/1.`.
fn is_warc(content: &[u8]) -> bool {
    content
        .strip_prefix(b"\xEF\xBB\xBF")
        .unwrap_or(content)
        .starts_with(b"WARC/1.")
}

fn count_lines(bytes: &[u8]) -> u64 {
    bytes.iter().filter(|&&b| b == b'\n').count() as u64
}

/// Whether `line` is a JSON object whose values are strings, as `--json`
/// writes them: `{}` or `{"name":"value",...}`, valid UTF-8, no control
/// characters in strings, only JSON's escapes. A checker of its own (the
/// fuzz crate has no JSON parser), strict where the writer must be.
pub fn is_json_object(line: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(line) else {
        return false;
    };
    let mut rest = text.as_bytes();
    let Some(r) = rest.strip_prefix(b"{") else {
        return false;
    };
    rest = r;
    if rest == b"}" {
        return true;
    }
    loop {
        let Some(r) = json_string(rest)
            .and_then(|r| r.strip_prefix(b":"))
            .and_then(|r| {
                json_string(r)
                    .or_else(|| json_uint(r))
                    .or_else(|| json_pairs(r))
            })
        else {
            return false;
        };
        match r.split_first() {
            Some((b',', r)) => rest = r,
            Some((b'}', r)) => return r.is_empty(),
            _ => return false,
        }
    }
}

/// The rest of `s` after the array of `[name, value]` string pairs it
/// starts with (the `"params"` member).
fn json_pairs(s: &[u8]) -> Option<&[u8]> {
    let mut rest = s.strip_prefix(b"[")?;
    if let Some(r) = rest.strip_prefix(b"]") {
        return Some(r);
    }
    loop {
        let r = rest.strip_prefix(b"[")?;
        let r = json_string(r)?.strip_prefix(b",")?;
        let r = json_string(r)?.strip_prefix(b"]")?;
        match r.split_first()? {
            (b',', r) => rest = r,
            (b']', r) => return Some(r),
            _ => return None,
        }
    }
}

/// The rest of `s` after the unsigned JSON integer it starts with (the
/// `"line"` numbers).
fn json_uint(s: &[u8]) -> Option<&[u8]> {
    let digits = s.iter().take_while(|b| b.is_ascii_digit()).count();
    match s.first() {
        Some(b'0') if digits > 1 => None,
        _ if digits == 0 => None,
        _ => Some(&s[digits..]),
    }
}

/// The rest of `s` after the JSON string it starts with.
fn json_string(s: &[u8]) -> Option<&[u8]> {
    let mut i = 1;
    if s.first() != Some(&b'"') {
        return None;
    }
    loop {
        match *s.get(i)? {
            b'"' => return Some(&s[i + 1..]),
            b'\\' => match *s.get(i + 1)? {
                b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => i += 2,
                b'u' if s.get(i + 2..i + 6)?.iter().all(u8::is_ascii_hexdigit) => i += 6,
                _ => return None,
            },
            0..=0x1f => return None,
            _ => i += 1,
        }
    }
}
