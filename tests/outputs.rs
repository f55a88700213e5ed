//! The command's outputs under a hostile user (issue 27, "Reliability
//! II"), each through the binary: a secondary output whose reader goes
//! away, two outputs (or an output and an input) that are one file, write
//! errors during a stop, outputs created before reading, `--stats` after a
//! closed pipe, `-j` of any size, `--explain`'s columns, `--base-field`'s
//! `-`, and `--assume-sorted` on unsorted input. What each must give is in
//! docs/guarantees.md.

mod common;

use std::io::Read;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::bin::{file, gzip, normurl, numbered_urls, run, Ran};

/// Waits for `child` at most `limit`; kills it and fails the test if it
/// is still running then (a hang must fail, not block the suite).
fn wait_bounded(mut child: Child, limit: Duration) -> Ran {
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("normurl did not finish within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = child.wait_with_output().unwrap();
    Ran {
        code: output.status.code(),
        stdout: output.stdout,
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().expect("mkfifo");
    assert!(status.success());
}

/// `n` lines that are not URLs, each a rejects entry.
fn invalid_lines(n: usize) -> String {
    (0..n).map(|i| format!("not a url {i}\n")).collect()
}

#[test]
fn rejects_reader_going_away_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let input = file(&dir, "many.txt", invalid_lines(200_000).as_bytes());
    let fifo = dir.path().join("rejects.fifo");
    mkfifo(&fifo);
    // The reader takes 10 bytes and goes away, as `>(head -c 10)` does.
    let reader = Command::new("head")
        .args(["-c", "10"])
        .arg(&fifo)
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let out = dir.path().join("out.txt");
    let child = normurl()
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .arg("--rejects")
        .arg(&fifo)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let ran = wait_bounded(child, Duration::from_secs(60));
    let _ = wait_bounded(reader, Duration::from_secs(10));
    ran.failed(&[fifo.to_str().unwrap(), "write error"]);
}

#[test]
fn main_output_closing_is_quiet_and_stats_are_still_written() {
    let dir = tempfile::tempdir().unwrap();
    let input = file(&dir, "urls.txt", numbered_urls(400_000).as_bytes());
    let stats = dir.path().join("stats.json");
    let mut child = normurl()
        .args([&input, "--stats", "--stats-json"])
        .arg(&stats)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read one line's worth, then go away as `head -1` does.
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 20];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    let ran = wait_bounded(child, Duration::from_secs(60));
    assert_eq!(ran.code, Some(0), "stderr: {}", ran.stderr);
    assert!(ran.stderr.contains("lines"), "no --stats: {}", ran.stderr);
    assert!(!ran.stderr.contains("error"), "{}", ran.stderr);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).unwrap();
    let lines = json["lines"].as_u64().unwrap();
    assert!(lines > 0 && lines <= 400_000, "lines {lines}");
}

#[test]
fn two_outputs_in_one_file_are_refused_before_writing() {
    let dir = tempfile::tempdir().unwrap();
    let input = file(&dir, "in.txt", b"http://a.example/\nnot a url\n");
    let x = dir.path().join("x.txt");
    let x2 = dir.path().join(".").join("x.txt");
    for (existing, args) in [
        (
            false,
            vec!["-o", x.to_str().unwrap(), "--rejects", x2.to_str().unwrap()],
        ),
        (
            true,
            vec![
                "-o",
                x.to_str().unwrap(),
                "--stats-json",
                x.to_str().unwrap(),
            ],
        ),
        (
            true,
            vec![
                "--rejects",
                x.to_str().unwrap(),
                "--stats-json",
                x2.to_str().unwrap(),
            ],
        ),
    ] {
        if existing {
            std::fs::write(&x, "keep me\n").unwrap();
        } else {
            let _ = std::fs::remove_file(&x);
        }
        let mut all = args.clone();
        all.push(&input);
        let ran = run(&all, b"").failed(&["same file", "x.txt"]);
        assert_eq!(ran.stderr.lines().count(), 1, "{}", ran.stderr);
        if existing {
            assert_eq!(std::fs::read(&x).unwrap(), b"keep me\n", "{args:?}");
        } else {
            assert!(!x.exists(), "{args:?} created the file");
        }
    }
    // Devices are not files that outputs could share.
    run(
        &[
            "-o",
            "/dev/null",
            "--rejects",
            "/dev/null",
            "--stats-json",
            "/dev/null",
            &input,
        ],
        b"",
    )
    .ok();
}

#[test]
fn standard_input_redirected_from_the_output_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let f = file(&dir, "f.txt", b"HTTP://A.example/\n");
    let child = normurl()
        .args(["-o", &f])
        .stdin(std::fs::File::open(&f).unwrap())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_bounded(child, Duration::from_secs(30)).failed(&["standard input", "f.txt"]);
    assert_eq!(std::fs::read(&f).unwrap(), b"HTTP://A.example/\n");
    // Reading standard input from one file into another is fine.
    let g = dir.path().join("g.txt");
    let child = normurl()
        .arg("-o")
        .arg(&g)
        .stdin(std::fs::File::open(&f).unwrap())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_bounded(child, Duration::from_secs(30)).ok();
    assert_eq!(std::fs::read(&g).unwrap(), b"http://a.example/\n");
}

#[test]
fn an_input_appended_to_by_standard_output_is_refused() {
    // `normurl f.txt >> f.txt` would read its own output forever.
    let dir = tempfile::tempdir().unwrap();
    let f = file(&dir, "f.txt", b"http://a.example/\n");
    let append = std::fs::OpenOptions::new().append(true).open(&f).unwrap();
    let child = normurl()
        .arg(&f)
        .stdin(Stdio::null())
        .stdout(append)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let ran = wait_bounded(child, Duration::from_secs(30));
    ran.failed(&["f.txt", "standard output"]);
    assert_eq!(std::fs::read(&f).unwrap(), b"http://a.example/\n");
}

#[test]
fn a_write_error_is_reported_with_the_stop_that_came_first() {
    let dir = tempfile::tempdir().unwrap();
    let input = file(
        &dir,
        "in.txt",
        b"http://a.example/\nnot a url\nhttp://b.example/\n",
    );
    // The stop and the output's own error: both messages, status 2.
    let ran = run(&["--on-invalid=fail", "-o", "/dev/full", &input], b"");
    let ran = ran.failed(&["/dev/full", "in.txt:2"]);
    assert_eq!(ran.stderr.lines().count(), 2, "{}", ran.stderr);
    // The rejects file is flushed at the stop, and fails then.
    let ran = run(
        &["--on-invalid=fail", "--rejects", "/dev/full", &input],
        b"",
    );
    let ran = ran.failed(&["/dev/full", "in.txt:2"]);
    assert_eq!(ran.stderr.lines().count(), 2, "{}", ran.stderr);
    assert_eq!(ran.out(), "http://a.example/\n");
    // A damaged input stops the run; the rejects file's error at the
    // flush that follows is not lost.
    let mut gz = gzip(b"http://a.example/\nnot a url\nhttp://b.example/\n");
    gz.truncate(gz.len() - 6);
    let damaged = file(&dir, "in.gz", &gz);
    let ran = run(&["--rejects", "/dev/full", &damaged], b"");
    let ran = ran.failed(&["/dev/full", "in.gz", "corrupt or truncated"]);
    assert_eq!(ran.stderr.lines().count(), 2, "{}", ran.stderr);
}

#[test]
fn outputs_are_all_opened_before_any_is_truncated_or_input_read() {
    let dir = tempfile::tempdir().unwrap();
    let out = file(&dir, "out.txt", b"precious\n");
    let stats = dir.path().join("no/such/dir/stats.json");
    // Standard input is never read: the run fails before.
    let ran = run(
        &["-o", &out, "--stats-json", stats.to_str().unwrap()],
        b"http://a.example/\n",
    );
    ran.failed(&["stats.json"]);
    assert_eq!(std::fs::read(&out).unwrap(), b"precious\n");
    // A new output is not left behind either.
    let new = dir.path().join("new.txt");
    let rejects = dir.path().join("no/such/dir/rejects.tsv");
    run(
        &[
            "-o",
            new.to_str().unwrap(),
            "--rejects",
            rejects.to_str().unwrap(),
        ],
        b"x\n",
    )
    .failed(&["rejects.tsv"]);
    assert!(!new.exists());
}

#[test]
fn any_thread_count_is_accepted_and_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let one = file(&dir, "one.txt", b"HTTP://A.example/\n");
    for j in [
        "9223372036854775807",
        "99999999999999999999999",
        "2000",
        "3",
    ] {
        let child = normurl()
            .args(["-j", j, &one])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let ran = wait_bounded(child, Duration::from_secs(60)).ok();
        assert_eq!(ran.out(), "http://a.example/\n", "-j {j}");
    }
    let bad = run(&["-j", "two", &one], b"");
    assert_eq!(bad.code, Some(2));
    assert!(bad.stderr.contains("two"), "{}", bad.stderr);
    let help = run(&["--help"], b"").ok().out();
    assert!(help.contains("256"), "--help does not say the maximum");
}

#[test]
fn explain_gives_every_line_the_same_columns() {
    let input = "http://A.example/\nnot a url\n\nhttp://b.example/a/../b\n";
    for policy in ["keep", "empty"] {
        let ran = run(&["--explain", "--on-invalid", policy], input.as_bytes()).ok();
        let out = ran.out();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 4, "{out}");
        for line in &lines {
            assert_eq!(line.matches('\t').count(), 1, "{policy}: {line:?}");
        }
        assert!(
            lines[1].ends_with("\tinvalid:relative-without-base"),
            "{out}"
        );
        assert_eq!(lines[2], "\t-");
    }
    // An over-long line, streamed through in pieces, gets its column too.
    let long = format!("http://a.example/{}\nhttp://b.example/\n", "x".repeat(5000));
    let ran = run(&["--explain", "--max-line-bytes", "100"], long.as_bytes()).ok();
    let out = ran.out();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(
        lines[0].ends_with("\tinvalid:line-too-long"),
        "{}",
        &lines[0][5000..]
    );
}

/// Heritrix crawl.log lines: time, status, size, URL, discovery path, via,
/// type. A seed's via is `-`.
const CRAWL_LOG: &str = "\
2024-01-01T00:00:00.000Z 200 10 HTTP://Seed.example/ - - text/html
2024-01-01T00:00:01.000Z 200 10 /about L http://seed.example/dir/ text/html
2024-01-01T00:00:02.000Z 200 10 http://Other.example/x L %%%bad-base text/html
2024-01-01T00:00:03.000Z 200 10 /relative L - text/html
2024-01-01T00:00:04.000Z 200 10 /relative L
2024-01-01T00:00:05.000Z 200 10 rel2 L ::bad text/html
";

#[test]
fn base_field_dash_or_empty_means_no_base() {
    let dir = tempfile::tempdir().unwrap();
    let log = file(&dir, "crawl.log", CRAWL_LOG.as_bytes());
    let rejects = dir.path().join("rejects.tsv");
    let ran = run(
        &[
            "--field",
            "4",
            "--base-field",
            "6",
            "--only-field",
            "--rejects",
            rejects.to_str().unwrap(),
            &log,
        ],
        b"",
    )
    .ok();
    assert_eq!(
        ran.out(),
        "http://seed.example/\nhttp://seed.example/about\nhttp://other.example/x\n\
         /relative\n/relative\nrel2\n"
    );
    let rejects = std::fs::read_to_string(&rejects).unwrap();
    let reasons: Vec<&str> = rejects
        .lines()
        .map(|l| l.split('\t').nth(1).unwrap())
        .collect();
    assert_eq!(
        reasons,
        [
            "relative-without-base",
            "missing-base-field",
            "invalid-base"
        ],
        "{rejects}"
    );
    // Tab-separated, the empty field says the same as `-`.
    let tsv = "http://a.example/\t\n/x\t\n/x\thttp://b.example/\n";
    let ran = run(
        &[
            "-d",
            "\\t",
            "--field",
            "1",
            "--base-field",
            "2",
            "--only-field",
        ],
        tsv.as_bytes(),
    )
    .ok();
    assert_eq!(ran.out(), "http://a.example/\n/x\nhttp://b.example/x\n");
}

#[test]
fn assume_sorted_warns_once_where_the_order_breaks() {
    let dir = tempfile::tempdir().unwrap();
    let sorted = file(
        &dir,
        "sorted.txt",
        b"http://a.example/\nhttp://a.example/\nhttp://b.example/\n",
    );
    let ran = run(&["--dedup", "--assume-sorted", &sorted], b"").ok();
    assert_eq!(ran.out(), "http://a.example/\nhttp://b.example/\n");
    assert_eq!(ran.stderr, "");
    let input = "http://b.example/\nhttp://c.example/\nhttp://a.example/\nhttp://a.example/\nhttp://0.example/\n";
    let unsorted = file(&dir, "unsorted.txt", input.as_bytes());
    let ran = run(&["--dedup", "--assume-sorted", &unsorted], b"").ok();
    assert_eq!(ran.stderr.lines().count(), 1, "{}", ran.stderr);
    assert!(ran.stderr.contains("warning"), "{}", ran.stderr);
    assert!(ran.stderr.contains("unsorted.txt:3"), "{}", ran.stderr);
    assert_eq!(count(&ran.out()), 4);
    // The same over several batches and threads.
    let ran = run(
        &[
            "--dedup",
            "--assume-sorted",
            "-j",
            "2",
            "--batch-bytes",
            "20",
            &unsorted,
        ],
        b"",
    )
    .ok();
    assert!(ran.stderr.contains("unsorted.txt:3"), "{}", ran.stderr);
    // The key is the normalized URL, also when the lines stay as read.
    let ran = run(
        &["--dedup", "--assume-sorted", "--original", &unsorted],
        b"",
    )
    .ok();
    assert!(ran.stderr.contains("unsorted.txt:3"), "{}", ran.stderr);
    assert_eq!(
        ran.out(),
        "http://b.example/\nhttp://c.example/\nhttp://a.example/\nhttp://0.example/\n"
    );
    // --check-sorted makes it an error, after the run.
    let ran = run(
        &["--dedup", "--assume-sorted", "--check-sorted", &unsorted],
        b"",
    );
    assert_eq!(ran.code, Some(1), "{}", ran.stderr);
    assert!(ran.stderr.contains("unsorted.txt:3"), "{}", ran.stderr);
    assert!(!ran.stderr.contains("warning"), "{}", ran.stderr);
    assert_eq!(count(&ran.out()), 4);
}

fn count(s: &str) -> usize {
    s.lines().count()
}
