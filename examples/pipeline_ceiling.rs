//! The pipeline's ceiling: the `normurl` command's pipeline with a record
//! function that only copies each line, so no URL work at all. Compare its
//! time with `normurl FILE` to see how much of the command's time is the
//! parser and how much is reading, splitting, handing over, reordering and
//! writing.
//!
//! ```text
//! cargo run --release --example pipeline_ceiling -- bench-data/big.txt 2 > /dev/null
//! ```
//!
//! Arguments: FILE [THREADS (default 0: all cores)]. Writes the lines to
//! stdout and the time to stderr.

use std::io::{self, Write};
use std::time::Instant;

use normurl::pipeline::{Input, MapFn, Pipeline, Sinks};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args_os().skip(1);
    let file = args
        .next()
        .ok_or("usage: pipeline_ceiling FILE [THREADS]")?;
    let threads = match args.next() {
        Some(t) => t.to_str().ok_or("THREADS must be a number")?.parse()?,
        None => 0,
    };
    let copy = MapFn::new(|line: &[u8], out: &mut Vec<u8>| out.extend_from_slice(line));
    let pipeline = Pipeline::builder().threads(threads).build(copy);
    let start = Instant::now();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let summary = pipeline.run(
        vec![Input::from_arg(&file)],
        Sinks::new("<stdout>", &mut out),
    )?;
    let secs = start.elapsed().as_secs_f64();
    writeln!(
        io::stderr(),
        "identity, {} threads: {} lines, {} bytes in {secs:.3} s ({:.0} MB/s)",
        pipeline.threads(),
        summary.records,
        summary.bytes_in,
        summary.bytes_in as f64 / secs / 1e6
    )?;
    Ok(())
}
