//! Running the `normurl` binary as a user does, for tests/cli.rs,
//! tests/bad_input.rs and tests/nothing_lost.rs.

use std::io::Write;
use std::process::{Command, Stdio};

/// What a run of the binary gave.
pub struct Ran {
    pub code: Option<i32>,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

impl Ran {
    pub fn out(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }

    /// Asserts exit status 0.
    #[track_caller]
    pub fn ok(self) -> Ran {
        assert_eq!(self.code, Some(0), "stderr: {}", self.stderr);
        self
    }

    /// Asserts exit status 2 with an error message on standard error that
    /// contains every one of `needles`, and no panic message.
    #[track_caller]
    pub fn failed(self, needles: &[&str]) -> Ran {
        assert_eq!(self.code, Some(2), "stderr: {}", self.stderr);
        assert!(self.stderr.starts_with("normurl: "), "{}", self.stderr);
        for needle in needles {
            assert!(
                self.stderr.contains(needle),
                "{needle:?} not in {}",
                self.stderr
            );
        }
        assert!(!self.stderr.contains("panicked"), "{}", self.stderr);
        self
    }
}

pub fn normurl() -> Command {
    Command::new(env!("CARGO_BIN_EXE_normurl"))
}

/// Runs `normurl args` with `stdin` as its standard input.
pub fn run(args: &[&str], stdin: &[u8]) -> Ran {
    run_command(normurl().args(args), stdin)
}

/// Runs `command` with `stdin` as its standard input.
pub fn run_command(command: &mut Command, stdin: &[u8]) -> Ran {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run normurl");
    let mut input = child.stdin.take().unwrap();
    let stdin = stdin.to_vec();
    // A writer thread, so a large input cannot deadlock against the output.
    let feeder = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let output = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    Ran {
        code: output.status.code(),
        stdout: output.stdout,
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// Writes `bytes` to a file in `dir` and returns its path as a string.
pub fn file(dir: &tempfile::TempDir, name: &str, bytes: &[u8]) -> String {
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).unwrap();
    path.display().to_string()
}

pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

pub fn zstd(bytes: &[u8]) -> Vec<u8> {
    zstd::stream::encode_all(bytes, 3).unwrap()
}

pub fn bzip2(bytes: &[u8]) -> Vec<u8> {
    let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

pub fn xz(bytes: &[u8]) -> Vec<u8> {
    let options = lzma_rust2::XzOptions::with_preset(1);
    let mut e = lzma_rust2::XzWriter::new(Vec::new(), options).unwrap();
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

/// `n` lines `http://h0.example/` to `http://h{n-1}.example/`, each
/// ending in `\n`: a large, valid, canonical input.
pub fn numbered_urls(n: usize) -> String {
    (0..n).map(|i| format!("http://h{i}.example/\n")).collect()
}

/// The number of records (`\n`-terminated) in `bytes`.
pub fn count_lines(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b == b'\n').count()
}

/// A deterministic pseudo-random byte generator (xorshift64*), so tests
/// need no `rand` and fail the same way every time.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| (self.next() >> 56) as u8).collect()
    }
}
