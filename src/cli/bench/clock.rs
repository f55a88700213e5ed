//! What a one-thread measurement is timed by: wall time, or with
//! `--cpu-time` the thread's CPU time, which does not charge a run for the
//! time other processes held the CPU. On a machine shared with other jobs
//! a scheduler slice is a few milliseconds: wall time then penalizes the
//! slower parser (its runs are interrupted more often), and the best of
//! several runs does not undo that.

use std::time::{Duration, Instant};

/// A started timing.
pub(super) enum Stopwatch {
    Wall(Instant),
    Cpu(Duration),
}

impl Stopwatch {
    pub(super) fn start(cpu: bool) -> Stopwatch {
        match thread_cpu_time() {
            Some(t) if cpu => Stopwatch::Cpu(t),
            _ => Stopwatch::Wall(Instant::now()),
        }
    }

    pub(super) fn elapsed(&self) -> Duration {
        match self {
            Stopwatch::Wall(start) => start.elapsed(),
            Stopwatch::Cpu(start) => thread_cpu_time().map_or(Duration::ZERO, |t| t - *start),
        }
    }
}

/// The name of the clock `--cpu-time` picks on this platform, for the
/// output.
pub(super) fn name(cpu: bool) -> &'static str {
    if cpu && thread_cpu_time().is_some() {
        "cpu"
    } else {
        "wall"
    }
}

/// The CPU time the calling thread has used (user and system).
#[cfg(unix)]
fn thread_cpu_time() -> Option<Duration> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    (rc == 0).then(|| Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32))
}

/// No per-thread CPU clock here: `--cpu-time` falls back to wall time.
#[cfg(not(unix))]
fn thread_cpu_time() -> Option<Duration> {
    None
}
