//! The main job: wire the inputs, the normalizer, the pipeline and the
//! outputs together, then report.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::time::Instant;

use normurl::dedup::{CountFormat, DedupMode, Deduper, ShardWriter, Shards};
use normurl::normalize::Normalizer;
use normurl::pipeline::KeyFilter;
use normurl::pipeline::{Error, Pipeline, Sinks, Unsorted};

use super::config::{Normalize, Target};
use super::progress::Bar;
use super::{compress, signals, stats, Failure};

pub fn run(cfg: Normalize) -> Result<(), Failure> {
    let start = Instant::now();
    // First, before any thread starts: spill files are removed on SIGINT,
    // SIGTERM and SIGHUP (src/cli/signals.rs).
    let _signals = signals::for_dedup(cfg.dedup.as_ref());
    let normalizer = Normalizer::new(cfg.options);
    let count_format = match cfg.count {
        _ if normalizer.writes_json() => CountFormat::Json,
        Some(separator) => CountFormat::Prefix(separator),
        None => CountFormat::Prefix(b'\t'),
    };
    let pipeline = Pipeline::builder()
        .threads(cfg.threads)
        .max_record_bytes(cfg.max_line_bytes)
        .batch_bytes(cfg.batch_bytes)
        .terminator(cfg.terminator)
        .zstd_window_max(cfg.zstd_memory)
        .line_buffered(cfg.line_buffered)
        .framing(normalizer.framing())
        .number_lines(normalizer.wants_line_numbers())
        .build(normalizer);

    // Every output is opened before any input is read, and none is
    // truncated until all are open: one that cannot be opened fails the
    // run before it reads or destroys anything.
    let paths: Vec<&Path> = [
        match &cfg.output {
            Target::File(p) => Some(p.as_path()),
            Target::Stdout => None,
        },
        cfg.rejects.as_deref(),
        cfg.stats_json.as_deref(),
    ]
    .into_iter()
    .flatten()
    .collect();
    let mut files = open_outputs(&paths)?.into_iter();
    // The pipeline writes about a batch (1 MiB) at a time, so the output
    // needs no buffer of its own.
    let output: Box<dyn Write> = match &cfg.output {
        Target::Stdout => Box::new(io::stdout().lock()),
        Target::File(_) => Box::new(files.next().expect("opened")),
    };
    let name = cfg.output.name();
    let threads = pipeline.threads();
    let term = cfg.terminator;
    let output_codec = (cfg.compression.output, term);
    let mut output = compress::writer(output, output_codec, threads, &name)?;
    let mut rejects = match cfg.rejects.as_ref() {
        Some(p) => {
            let name = p.display().to_string();
            let file = BufWriter::new(files.next().expect("opened"));
            let codec = (cfg.compression.rejects, term);
            let w = compress::writer(Box::new(file), codec, threads, &name)?;
            Some((name, w))
        }
        None => None,
    };
    let mut stats_json = cfg
        .stats_json
        .as_ref()
        .map(|p| (p, files.next().expect("opened")));
    let mut sinks = Sinks::new(name, &mut *output);
    if let Some((name, w)) = rejects.as_mut() {
        sinks = sinks.side(name.clone(), &mut **w);
    }
    let adjacent = matches!(&cfg.dedup, Some(d) if d.mode == DedupMode::Adjacent);
    // Adjacent dedup is decided on the writer; exact dedup and --count by
    // shards on the workers, the writer only reading their verdicts.
    let mut adjacent_dedup = None;
    let shards = match &cfg.dedup {
        Some(d) if adjacent => {
            adjacent_dedup = Some(Deduper::new(d.clone()));
            None
        }
        Some(d) => Some(Shards::new(d.clone(), cfg.count.is_some())),
        None => None,
    };
    let mut shard_writer = shards.as_ref().map(|s| ShardWriter::new(s, count_format));
    let filter: Option<&mut dyn KeyFilter> = match (&mut adjacent_dedup, &mut shard_writer) {
        (Some(d), _) => Some(d),
        (_, Some(w)) => Some(w),
        _ => None,
    };
    if let Some(filter) = filter {
        sinks = sinks.key_filter(filter);
    }
    if let Some(shards) = &shards {
        sinks = sinks.key_shards(shards);
    }
    if adjacent {
        sinks = sinks.check_order();
    }

    let bar = Bar::start(&cfg.inputs, pipeline.progress());
    let report = pipeline.run_report(cfg.inputs, sinks);
    if let Some(bar) = bar {
        bar.finish();
    }
    let elapsed = start.elapsed();
    let summary = report.summary;
    let mut failures: Vec<Failure> = report.errors.into_iter().map(run_failure).collect();

    // The counts of what was done are written however the run ended: a
    // closed output (`| head`) and a stop have counts worth knowing too.
    if cfg.stats {
        // stderr is where errors go: if it is gone, nothing can say so.
        let _ = io::stderr().write_all(stats::text(&summary, elapsed).as_bytes());
    }
    if let Some((path, file)) = stats_json.as_mut() {
        let text = stats::json(&summary, elapsed);
        if let Err(source) = file.write_all(text.as_bytes()) {
            failures.push(Failure::Io {
                path: path.display().to_string(),
                source,
            });
        }
    }
    if let Some(Unsorted { path, line }) = &summary.unsorted {
        let message = format!(
            "{path}:{line}: not sorted: the key of this line is smaller than the one before \
             it, so --assume-sorted may have kept duplicates"
        );
        if cfg.check_sorted {
            failures.push(Failure::Unsorted(message));
        } else {
            let _ = writeln!(io::stderr(), "normurl: warning: {message}");
        }
    }
    match failures.len() {
        0 => Ok(()),
        1 => Err(failures.remove(0)),
        _ => Err(Failure::Several(failures)),
    }
}

/// The failure of a pipeline error: as it is, but with the option that
/// raises a limit named where the library can only name the limit.
fn run_failure(e: Error) -> Failure {
    match e {
        Error::ZstdWindow { window, .. } => Failure::Usage(format!(
            "{e}; raise it with --zstd-memory {}M",
            window.div_ceil(1 << 20)
        )),
        e => Failure::Run(e),
    }
}

/// Opens `paths` for writing, in order, then truncates them. If one cannot
/// be opened, the files this call created are removed again and the ones
/// that existed are left as they were.
fn open_outputs(paths: &[&Path]) -> Result<Vec<File>, Failure> {
    let mut files = Vec::with_capacity(paths.len());
    let mut created = Vec::new();
    for &path in paths {
        let existed = path.symlink_metadata().is_ok();
        match std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
        {
            Ok(f) => {
                if !existed {
                    created.push(path);
                }
                files.push(f);
            }
            Err(source) => {
                for p in created {
                    let _ = std::fs::remove_file(p);
                }
                return Err(Failure::Io {
                    path: path.display().to_string(),
                    source,
                });
            }
        }
    }
    for (file, path) in files.iter().zip(paths) {
        // Only a regular file has a length to cut (not /dev/null, a FIFO).
        let regular = file.metadata().is_ok_and(|m| m.is_file());
        if regular {
            file.set_len(0).map_err(|source| Failure::Io {
                path: path.display().to_string(),
                source,
            })?;
        }
    }
    Ok(files)
}
