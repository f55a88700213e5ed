//! The progress bar: only on a terminal, only for large inputs (a bar that
//! flashes for 50 ms is noise, and one in a log file is garbage). "Large"
//! is decided on the decompressed size where the file says it (gzip's
//! ISIZE trailer, a zstd frame's content size), else on a typical ratio:
//! a 20 MB gzip of 200 MB of URLs takes as long as 200 MB of text.

use std::io::IsTerminal;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{bounded, RecvTimeoutError, Sender};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use normurl::pipeline::{Format, Input, Progress};

/// Inputs smaller than this (decompressed, as far as it can be told) get
/// no bar.
const LARGE: u64 = 64 << 20;

/// How much larger than stored a compressed input whose header does not
/// say is taken to be (URL text compresses 4 to 8 times).
const TYPICAL_RATIO: u64 = 4;

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
        let mut estimate = 0u64;
        for input in inputs {
            let stored = input.size()?;
            total += stored;
            estimate += match input {
                Input::Path(p) => decompressed_size(p, stored),
                Input::Stdin => stored,
            };
        }
        if estimate < LARGE {
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

/// The size of file `p` (`stored` bytes) once decompressed: told by the
/// file where it can, else estimated.
fn decompressed_size(p: &Path, stored: u64) -> u64 {
    let told = File::open(p).ok().and_then(|mut f| {
        let mut head = [0u8; 18];
        let n = read_up_to(&mut f, &mut head).ok()?;
        let head = &head[..n];
        Some(match Format::sniff(head).ok()? {
            Format::Plain => Some(stored),
            Format::Gzip => gzip_isize(&mut f).filter(|&size| size >= stored),
            // A later frame would add to the first one's size: only trust
            // a size that accounts for the file.
            Format::Zstd => zstd::zstd_safe::get_frame_content_size(head)
                .ok()
                .flatten()
                .filter(|&size| size >= stored),
            _ => None,
        })
    });
    match told {
        Some(Some(size)) => size,
        _ => stored.saturating_mul(TYPICAL_RATIO),
    }
}

/// The ISIZE field of a gzip file's last member: the member's
/// uncompressed size modulo 2^32 (RFC 1952, 2.3.1). Smaller than the
/// stored size means several members or a wrapped size, so the caller
/// does not trust it then.
fn gzip_isize(f: &mut File) -> Option<u64> {
    f.seek(SeekFrom::End(-4)).ok()?;
    let mut tail = [0u8; 4];
    f.read_exact(&mut tail).ok()?;
    Some(u64::from(u32::from_le_bytes(tail)))
}

fn read_up_to(f: &mut File, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match f.read(&mut buf[n..])? {
            0 => break,
            k => n += k,
        }
    }
    Ok(n)
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
    use std::io::Write;

    #[test]
    fn decompressed_sizes() {
        let dir = tempfile::tempdir().unwrap();
        let text = "http://example.com/a\n".repeat(50_000);
        let plain = dir.path().join("u.txt");
        std::fs::write(&plain, &text).unwrap();
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(text.as_bytes()).unwrap();
        let gz = gz.finish().unwrap();
        let gz_path = dir.path().join("u.gz");
        std::fs::write(&gz_path, &gz).unwrap();
        let zst = zstd::bulk::compress(text.as_bytes(), 3).unwrap();
        let zst_path = dir.path().join("u.zst");
        std::fs::write(&zst_path, &zst).unwrap();
        let len = text.len() as u64;
        assert_eq!(super::decompressed_size(&plain, len), len);
        assert_eq!(super::decompressed_size(&gz_path, gz.len() as u64), len);
        assert_eq!(super::decompressed_size(&zst_path, zst.len() as u64), len);
        // Two gzip members: the last one's ISIZE is not the whole.
        let mut two = gz.clone();
        two.extend_from_slice(&gz);
        let two_path = dir.path().join("two.gz");
        std::fs::write(&two_path, &two).unwrap();
        let est = super::decompressed_size(&two_path, two.len() as u64);
        assert!(est >= two.len() as u64, "{est}");
    }

    #[test]
    fn rates() {
        assert_eq!(super::rate(4054721.3), "4.05M lines/s");
        assert_eq!(super::rate(12345.0), "12.3k lines/s");
        assert_eq!(super::rate(12.0), "12 lines/s");
    }
}
