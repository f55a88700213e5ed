//! The progress bar: only on a terminal, only for large inputs (a bar that
//! flashes for 50 ms is noise, and one in a log file is garbage).

use std::io::IsTerminal;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{bounded, RecvTimeoutError, Sender};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use normurl::pipeline::{Input, Progress};

/// Inputs smaller than this (as stored) get no bar.
const LARGE: u64 = 64 << 20;

/// A running progress bar, updated by its own thread from the pipeline's
/// counters.
pub struct Bar {
    stop: Sender<()>,
    thread: JoinHandle<()>,
}

impl Bar {
    /// Starts a bar if standard error is a terminal and the inputs' total
    /// size is known and large.
    pub fn start(inputs: &[Input], progress: Arc<Progress>) -> Option<Bar> {
        if !std::io::stderr().is_terminal() {
            return None;
        }
        let mut total = 0u64;
        for input in inputs {
            total += input.size()?;
        }
        if total < LARGE {
            return None;
        }
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        let style =
            ProgressStyle::with_template("{bar:30} {bytes}/{total_bytes} {msg} ETA {eta}").ok()?;
        bar.set_style(style);
        let (stop, stopped) = bounded::<()>(0);
        let thread = std::thread::Builder::new()
            .name("normurl-progress".to_string())
            .spawn(move || {
                let start = Instant::now();
                loop {
                    let secs = start.elapsed().as_secs_f64().max(1e-3);
                    bar.set_position(progress.raw_bytes());
                    bar.set_message(rate(progress.records() as f64 / secs));
                    match stopped.recv_timeout(Duration::from_millis(200)) {
                        Err(RecvTimeoutError::Timeout) => {}
                        _ => break,
                    }
                }
                bar.finish_and_clear();
            })
            .ok()?;
        Some(Bar { stop, thread })
    }

    /// Removes the bar.
    pub fn finish(self) {
        drop(self.stop);
        let _ = self.thread.join();
    }
}

/// `4054721.3` as `4.05M lines/s`.
fn rate(per_second: f64) -> String {
    if per_second >= 1e6 {
        format!("{:.2}M lines/s", per_second / 1e6)
    } else if per_second >= 1e3 {
        format!("{:.1}k lines/s", per_second / 1e3)
    } else {
        format!("{per_second:.0} lines/s")
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn rates() {
        assert_eq!(super::rate(4054721.3), "4.05M lines/s");
        assert_eq!(super::rate(12345.0), "12.3k lines/s");
        assert_eq!(super::rate(12.0), "12 lines/s");
    }
}
