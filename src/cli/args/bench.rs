//! The options of `normurl bench` that say how to time and report.

/// The options of `bench` that say how to time and report.
#[derive(Debug, Default, clap::Args)]
pub struct BenchOutput {
    /// Time the one-thread measurements by the thread's CPU time, not
    /// wall time: on a loaded machine a run is then not charged for the
    /// time other processes held the CPU (the all-thread one stays wall
    /// time; wall time where the platform has no thread CPU clock).
    #[arg(long)]
    pub cpu_time: bool,
    /// Print one JSON object per measurement, one a line (file, parser,
    /// threads, clock, urls, valid, href_bytes where an href is built,
    /// ns_per_url, mb_per_s, vs_normurl), for scripts.
    #[arg(long)]
    pub json: bool,
    /// Also run the main command's pipeline on each file (default options,
    /// output discarded, at -j THREADS) and print its CPU seconds per stage
    /// as --stats gives them (read, workers, dedup, write, other, total),
    /// with its wall time: what the run would gain from more cores.
    #[arg(long)]
    pub stages: bool,
}
