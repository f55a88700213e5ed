//! CPU time per stage of a run, from the threads' own CPU clocks, so that
//! a run shows how much of its work is serial (see [`CpuTimes`]).

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// CPU time spent in each stage of a run, summed over the threads that
/// ran it (measured with each thread's CPU clock, `CLOCK_THREAD_CPUTIME_ID`;
/// all zero where there is none).
///
/// `read` is filling batches from the inputs on the workers (with the
/// decompression done there); `transform` the workers' transform;
/// `dedup` the [`KeyShards`](super::KeyShards) decisions on the workers
/// and the [`KeyFilter`](super::KeyFilter)'s end (a spilled set's final
/// pass, `--count`'s output); `write` the ordered writer; `total` the whole
/// process during the run (`CLOCK_PROCESS_CPUTIME_ID`), so `total` minus
/// the four is the helper threads' (decompression read-ahead, parallel
/// decoding, output compression).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CpuTimes {
    /// Reading and decoding input, on the workers.
    pub read: Duration,
    /// The transform, on the workers.
    pub transform: Duration,
    /// Key decisions and the key filter's end.
    pub dedup: Duration,
    /// The ordered writer.
    pub write: Duration,
    /// The whole process.
    pub total: Duration,
}

impl CpuTimes {
    /// What the helper threads took: `total` less the four stages.
    pub fn other(&self) -> Duration {
        let stages = self.read + self.transform + self.dedup + self.write;
        self.total.saturating_sub(stages)
    }
}

/// The stages' CPU nanoseconds, added to by every thread.
#[derive(Default)]
pub(crate) struct Clocks {
    read: AtomicU64,
    transform: AtomicU64,
    dedup: AtomicU64,
    write: AtomicU64,
}

#[derive(Clone, Copy)]
pub(crate) enum Stage {
    Read,
    Transform,
    Dedup,
    Write,
}

impl Clocks {
    fn counter(&self, stage: Stage) -> &AtomicU64 {
        match stage {
            Stage::Read => &self.read,
            Stage::Transform => &self.transform,
            Stage::Dedup => &self.dedup,
            Stage::Write => &self.write,
        }
    }

    /// Adds the calling thread's CPU time since `since` (a
    /// [`thread_nanos`] reading) to `stage`; returns the time now, for the
    /// next stage.
    pub(crate) fn lap(&self, stage: Stage, since: u64) -> u64 {
        let now = thread_nanos();
        self.counter(stage)
            .fetch_add(now.saturating_sub(since), Ordering::Relaxed);
        now
    }

    pub(crate) fn times(&self, process_since: u64) -> CpuTimes {
        let d = |a: &AtomicU64| Duration::from_nanos(a.load(Ordering::Relaxed));
        CpuTimes {
            read: d(&self.read),
            transform: d(&self.transform),
            dedup: d(&self.dedup),
            write: d(&self.write),
            total: Duration::from_nanos(process_nanos().saturating_sub(process_since)),
        }
    }
}

#[cfg(unix)]
fn clock_nanos(clock: libc::clockid_t) -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec to write to; the clock ids are
    // constants every unix has.
    if unsafe { libc::clock_gettime(clock, &mut ts) } != 0 {
        return 0;
    }
    (ts.tv_sec as u64)
        .saturating_mul(1_000_000_000)
        .saturating_add(ts.tv_nsec as u64)
}

/// The calling thread's CPU time, in nanoseconds.
pub(crate) fn thread_nanos() -> u64 {
    #[cfg(unix)]
    {
        clock_nanos(libc::CLOCK_THREAD_CPUTIME_ID)
    }
    #[cfg(not(unix))]
    {
        0
    }
}

/// The process's CPU time, in nanoseconds.
pub(crate) fn process_nanos() -> u64 {
    #[cfg(unix)]
    {
        clock_nanos(libc::CLOCK_PROCESS_CPUTIME_ID)
    }
    #[cfg(not(unix))]
    {
        0
    }
}
