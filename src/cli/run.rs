//! The main job: wire the inputs, the normalizer, the pipeline and the
//! outputs together, then report.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::time::Instant;

use normurl::dedup::Deduper;
use normurl::normalize::Normalizer;
use normurl::pipeline::{Error, Pipeline, Sinks};

use super::config::{Normalize, Target};
use super::progress::Bar;
use super::{stats, Failure};

pub fn run(cfg: Normalize) -> Result<(), Failure> {
    let start = Instant::now();
    let pipeline = Pipeline::builder()
        .threads(cfg.threads)
        .max_record_bytes(cfg.max_line_bytes)
        .batch_bytes(cfg.batch_bytes)
        .terminator(cfg.terminator)
        .zstd_window_max(cfg.zstd_memory)
        .build(Normalizer::new(cfg.options));

    let create = |path: &std::path::Path| {
        File::create(path).map_err(|source| Failure::Io {
            path: path.display().to_string(),
            source,
        })
    };
    // The pipeline writes about a batch (1 MiB) at a time, so the output
    // needs no buffer of its own.
    let stdout = io::stdout();
    let mut stdout_lock;
    let mut file;
    let output: &mut dyn Write = match &cfg.output {
        Target::Stdout => {
            stdout_lock = stdout.lock();
            &mut stdout_lock
        }
        Target::File(p) => {
            file = create(p)?;
            &mut file
        }
    };
    let mut rejects = match &cfg.rejects {
        Some(p) => Some((p.display().to_string(), BufWriter::new(create(p)?))),
        None => None,
    };
    let mut sinks = Sinks::new(cfg.output.name(), output);
    if let Some((name, w)) = rejects.as_mut() {
        sinks = sinks.side(name.clone(), w);
    }
    let mut dedup = cfg.dedup.clone().map(Deduper::new);
    if let Some(filter) = dedup.as_mut() {
        sinks = sinks.key_filter(filter);
    }

    let bar = Bar::start(&cfg.inputs, pipeline.progress());
    let result = pipeline.run(cfg.inputs, sinks);
    if let Some(bar) = bar {
        bar.finish();
    }
    let summary = result.map_err(|e| match e {
        // The library's message names the limit; say which option it is.
        Error::ZstdWindow { window, .. } => Failure::Usage(format!(
            "{e}; raise it with --zstd-memory {}M",
            window.div_ceil(1 << 20)
        )),
        e => Failure::Run(e),
    })?;
    let elapsed = start.elapsed();

    if cfg.stats {
        // A closed stderr is not worth failing a finished run for.
        let _ = io::stderr().write_all(stats::text(&summary, elapsed).as_bytes());
    }
    if let Some(path) = &cfg.stats_json {
        std::fs::write(path, stats::json(&summary, elapsed)).map_err(|source| Failure::Io {
            path: path.display().to_string(),
            source,
        })?;
    }
    Ok(())
}
