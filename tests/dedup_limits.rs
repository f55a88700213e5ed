//! The limits of `--dedup`: the memory it really allocates against
//! `--dedup-memory`, spill files removed when the command is interrupted,
//! and spill errors that name the spill directory.

mod common;

use std::io;

use normurl::dedup::{DedupConfig, Deduper};

use common::bin::{normurl, numbered_urls, run_command};

#[path = "common/heap.rs"]
mod heap;

#[global_allocator]
static ALLOCATOR: heap::Counting = heap::Counting;

/// Uniform keys, `distinct` of them, then every other one again.
fn keys(distinct: u64) -> impl Iterator<Item = u128> {
    let key = |i: u64| (u128::from(i) + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835);
    (0..distinct).chain((0..distinct).step_by(2)).map(key)
}

#[test]
fn allocations_stay_within_the_budget() {
    // 256K splits partitions at the end; 4M grows the set to 2^17 slots.
    for limit in [256 << 10, 1 << 20, 4 << 20] {
        let dir = tempfile::tempdir().unwrap();
        let mut stats = None;
        let ((), peak) = heap::peak_heap_during(|| {
            let mut dedup = Deduper::new(DedupConfig {
                memory_limit: limit,
                temp_dir: Some(dir.path().to_path_buf()),
                ..DedupConfig::default()
            });
            for key in keys(300_000) {
                dedup.offer(key, b"record\n", &mut io::sink()).unwrap();
            }
            stats = Some(dedup.finish(&mut io::sink()).unwrap());
        });
        let stats = stats.unwrap();
        assert!(stats.deferred > 0, "limit {limit}: did not spill");
        assert_eq!((stats.kept, stats.dropped), (300_000, 150_000));
        assert!(
            peak <= limit,
            "limit {limit}: allocated {peak} at most, counted {}",
            stats.memory_peak
        );
        // And the set used a fair share of it before spilling.
        assert!(peak > limit / 3, "limit {limit}: allocated {peak} at most");
    }
}

/// An output that keeps nothing: it checks that each line is `COUNT TAB
/// r` and adds up the lines and the counts, without allocating.
#[derive(Default)]
struct CountedLines {
    lines: u64,
    total: u64,
    /// The count of the line being read, until its tab.
    number: Option<u64>,
}

impl io::Write for CountedLines {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        for &b in buf {
            match (b, self.number) {
                (b'0'..=b'9', n) => self.number = Some(n.unwrap_or(0) * 10 + u64::from(b - b'0')),
                (b'\t', Some(n)) => {
                    self.total += n;
                    self.number = None;
                }
                (b'\n', None) => self.lines += 1,
                (b'r', None) => {}
                _ => panic!("unexpected byte {b:?}"),
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn count_allocations_stay_within_the_budget_whatever_the_distinct_values() {
    use normurl::dedup::{CountFormat, ShardWriter, Shards};
    use normurl::pipeline::KeyFilter;
    // Past the budget, each distinct value's count used to stay in memory
    // (16 bytes each, several times the budget here); it goes to sorted
    // run files now, and the heap stays within the budget but for the
    // keep bits (one per deferred record, needed whatever the budget) and
    // a few KiB of bookkeeping.
    let limit = 1 << 20;
    for distinct in [200_000u64, 600_000] {
        let dir = tempfile::tempdir().unwrap();
        let mut out = CountedLines::default();
        let (dropped, peak) = heap::peak_heap_during(|| {
            let shards = Shards::new(
                DedupConfig {
                    memory_limit: limit,
                    temp_dir: Some(dir.path().to_path_buf()),
                    ..DedupConfig::default()
                },
                true,
            );
            let mut writer = ShardWriter::new(&shards, CountFormat::Prefix(b'\t'));
            // Counting holds every record to the end: nothing is written.
            let mut now = Vec::new();
            for key in keys(distinct) {
                writer.offer(key, b"r\n", &mut now).unwrap();
                assert!(now.is_empty());
            }
            writer.finish(&mut out).unwrap()
        });
        assert_eq!(dropped, distinct / 2);
        assert_eq!((out.lines, out.total), (distinct, distinct + distinct / 2));
        let keep_bits = (distinct + distinct / 2) / 8;
        let allowed = limit + keep_bits as usize + (64 << 10);
        assert!(
            peak <= allowed,
            "{distinct} distinct: allocated {peak} at most, allowed {allowed}"
        );
        // The spill directory is gone.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}

/// Spill files removed when the command is interrupted.
#[cfg(unix)]
mod interrupted {
    use std::io::{Read, Write};
    use std::os::unix::process::CommandExt;
    use std::os::unix::process::ExitStatusExt;
    use std::path::Path;
    use std::process::{Child, ExitStatus, Stdio};
    use std::thread::JoinHandle;
    use std::time::{Duration, Instant};

    use super::common::bin::{normurl, numbered_urls};

    /// A spawned `normurl` whose standard input stays open (so it is still
    /// running when signalled) and whose output is drained by a thread.
    struct Running {
        child: Child,
        stdin: Option<std::process::ChildStdin>,
        stdout: JoinHandle<Vec<u8>>,
    }

    /// Runs `normurl --dedup` with TMPDIR set to `tmp`, a budget that
    /// spills after 1,792 keys, and `input` on its standard input, which
    /// is left open. `wrap` runs it through `sh -c` instead (to change how
    /// it starts).
    fn start(tmp: &Path, input: &str, wrap: Option<&str>) -> Running {
        let args = ["--dedup", "--dedup-memory", "64K", "--batch-bytes", "4K"];
        let mut command = match wrap {
            Some(script) => {
                let mut sh = std::process::Command::new("sh");
                sh.args(["-c", script]).arg(env!("CARGO_BIN_EXE_normurl"));
                sh
            }
            None => normurl(),
        };
        // The signals the tests send start at their default action, as
        // from a terminal, whatever this test runs under: a shell's
        // background job ignores SIGINT, `nohup` SIGHUP, and the command
        // keeps a signal ignored that it started with ignored.
        // SAFETY: `signal` is async-signal-safe, and this runs in the
        // forked child before exec.
        unsafe {
            command.pre_exec(|| {
                for sig in [libc::SIGINT, libc::SIGHUP, libc::SIGTERM] {
                    libc::signal(sig, libc::SIG_DFL);
                }
                Ok(())
            });
        }
        let mut child = command
            .args(args)
            .env("TMPDIR", tmp)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let stdout = std::thread::spawn(move || {
            let mut v = Vec::new();
            let _ = stdout.read_to_end(&mut v);
            v
        });
        stdin.write_all(input.as_bytes()).unwrap();
        Running {
            child,
            stdin: Some(stdin),
            stdout,
        }
    }

    /// Polls `done` every 10 ms for at most 10 s (a hang is a failure).
    fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
        let start = Instant::now();
        while !done() {
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "no {what} after 10 s"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    fn entries(dir: &Path) -> Vec<String> {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect()
    }

    fn wait_for_spill(tmp: &Path) {
        wait_for("spill directory", || {
            entries(tmp).iter().any(|n| n.starts_with("normurl-dedup-"))
        });
    }

    fn signal(child: &Child, sig: libc::c_int) {
        // SAFETY: kill has no memory effects; the pid is our child's.
        assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, sig) }, 0);
    }

    impl Running {
        /// Waits at most 10 s for the process to end; returns its status and
        /// output.
        fn end(mut self) -> (ExitStatus, String) {
            let mut status = None;
            wait_for("exit", || {
                status = self.child.try_wait().unwrap();
                status.is_some()
            });
            drop(self.stdin.take());
            let out = self.stdout.join().unwrap();
            (status.unwrap(), String::from_utf8(out).unwrap())
        }
    }

    /// Sends `sig` to a run that has spilled, and checks that it ends by that
    /// signal, with no spill file left and whole, distinct input lines in order
    /// written.
    fn interrupted_while_spilled(sig: libc::c_int) {
        let tmp = tempfile::tempdir().unwrap();
        let input = numbered_urls(20_000);
        let running = start(tmp.path(), &input, None);
        wait_for_spill(tmp.path());
        signal(&running.child, sig);
        let (status, out) = running.end();
        assert_eq!(status.signal(), Some(sig), "{status:?}");
        assert_eq!(entries(tmp.path()), Vec::<String>::new(), "left behind");
        assert!(
            input.starts_with(&out),
            "not a prefix of the input: {out:?}"
        );
    }

    #[test]
    fn sigterm_removes_the_spill_files() {
        interrupted_while_spilled(libc::SIGTERM);
    }

    #[test]
    fn sigint_removes_the_spill_files() {
        interrupted_while_spilled(libc::SIGINT);
    }

    #[test]
    fn sighup_removes_the_spill_files() {
        interrupted_while_spilled(libc::SIGHUP);
    }

    /// The spilled records are the input's: the spill directory is its
    /// owner's alone (0700) and so is each file in it (0600), whatever the
    /// umask, as GNU sort's and mkstemp's temporary files are.
    #[test]
    fn spill_files_are_private() {
        use std::os::unix::fs::PermissionsExt;
        let tmp = tempfile::tempdir().unwrap();
        let input = numbered_urls(20_000);
        let script = r#"umask 000; exec "$0" "$@""#;
        let mut running = start(tmp.path(), &input, Some(script));
        wait_for_spill(tmp.path());
        let dir = tmp.path().join(&entries(tmp.path())[0]);
        wait_for("spill files", || {
            std::fs::read_dir(&dir).is_ok_and(|mut d| d.next().is_some())
        });
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&dir), 0o700, "{}", dir.display());
        let files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        for file in &files {
            assert_eq!(mode(file), 0o600, "{}", file.display());
        }
        drop(running.stdin.take());
        let (status, out) = running.end();
        assert_eq!(status.code(), Some(0));
        assert_eq!(out, input);
    }

    #[test]
    fn an_ignored_sighup_stays_ignored() {
        // As under nohup: the command started with SIGHUP ignored.
        let tmp = tempfile::tempdir().unwrap();
        let input = numbered_urls(20_000);
        let script = r#"trap "" HUP; exec "$0" "$@""#;
        let mut running = start(tmp.path(), &input, Some(script));
        wait_for_spill(tmp.path());
        signal(&running.child, libc::SIGHUP);
        std::thread::sleep(Duration::from_millis(200));
        assert!(
            running.child.try_wait().unwrap().is_none(),
            "ended by SIGHUP"
        );
        drop(running.stdin.take());
        let (status, out) = running.end();
        assert_eq!(status.code(), Some(0));
        assert_eq!(out, input);
        assert_eq!(entries(tmp.path()), Vec::<String>::new());
    }
}

/// A run that must spill with TMPDIR a regular file, where no directory
/// can be made.
fn spill_in_a_file() -> (tempfile::TempDir, String, common::bin::Ran) {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("not-a-dir");
    std::fs::write(&file, b"").unwrap();
    let mut command = normurl();
    command
        .args(["--dedup", "--dedup-memory", "0"])
        .env("TMPDIR", &file);
    let ran = run_command(&mut command, numbered_urls(10).as_bytes());
    (tmp, file.display().to_string(), ran)
}

#[test]
fn a_spill_directory_that_cannot_be_made_is_named() {
    let (_tmp, file, ran) = spill_in_a_file();
    ran.failed(&[
        &format!("spill directory {file}/normurl-dedup-"),
        "cannot create it: Not a directory",
    ]);
}

#[test]
fn spill_errors_are_not_output_errors() {
    let (_tmp, file, ran) = spill_in_a_file();
    let ran = ran.failed(&[&format!("spill directory {file}/normurl-dedup-")]);
    assert!(!ran.stderr.contains("<stdout>"), "{}", ran.stderr);
}
