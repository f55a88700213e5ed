//! Bad input and I/O faults, each through the binary (issue 5): random
//! bytes, a 100 MB line, millions of empty lines, pathological URLs,
//! damaged compressed files, unreadable and missing inputs, a full disk, a
//! panicking worker. What each must give is in docs/guarantees.md.
//!
//! Speed is not asserted here, but every pathological line is about a
//! megabyte: an algorithm quadratic in the line would make this file take
//! minutes instead of seconds.

mod common;

use std::io::{Read, Write};
use std::process::{Child, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::bin::{
    count_lines, file, gzip, normurl, numbered_urls, run, run_command, zstd, Ran, Rng,
};

/// The records of `bytes` as the binary splits them: at `term`, the last
/// one possibly unterminated, a `\r` before `\n` belonging to the
/// terminator and a leading UTF-8 byte order mark dropped.
fn records(bytes: &[u8], term: u8) -> Vec<&[u8]> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let mut out: Vec<&[u8]> = bytes.split(|&b| b == term).collect();
    if out.last().is_some_and(|r| r.is_empty()) {
        out.pop();
    }
    if term == b'\n' {
        for r in &mut out {
            *r = r.strip_suffix(b"\r").unwrap_or(r);
        }
    }
    out
}

/// The `--stats-json` summary of a run.
fn stats(path: &std::path::Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

fn n(v: &serde_json::Value, key: &str) -> u64 {
    v[key].as_u64().unwrap_or_else(|| panic!("{key} in {v}"))
}

/// Waits for `child` at most `limit`, killing it and failing the test if it
/// is still running then (a hang is the bug these tests look for).
fn wait_at_most(mut child: Child, limit: Duration) -> Ran {
    let start = Instant::now();
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut v = Vec::new();
        stdout.read_to_end(&mut v).unwrap();
        v
    });
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        stderr.read_to_string(&mut s).unwrap();
        s
    });
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > limit {
            child.kill().unwrap();
            panic!("normurl still running after {limit:?}: a hang");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Ran {
        code: status.code(),
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

#[test]
fn random_binary_nul_bytes_and_invalid_utf8_lose_no_line() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("stats.json");
    let rejects = dir.path().join("rejects");
    for (term, null) in [(b'\n', false), (b'\0', true)] {
        // Random bytes (NULs, invalid UTF-8, control characters), and
        // between them URLs with a NUL or a newline and invalid UTF-8 in
        // their path (whichever is not the terminator).
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let mut input = Vec::new();
        let inner = if null { b'\n' } else { b'\0' };
        for i in 0..3000 {
            input.extend(rng.bytes(300));
            input.push(term);
            input.extend_from_slice(format!("http://h{i}.EXAMPLE/").as_bytes());
            input.extend_from_slice(&[inner, b'a', 0xFF, b'b', term]);
        }
        input.extend(rng.bytes(100)); // no final terminator
        let expected = records(&input, term);
        let mut first: Option<Vec<u8>> = None;
        for j in ["1", "2"] {
            let mut args = vec![
                "-j",
                j,
                "--stats-json",
                json.to_str().unwrap(),
                "--rejects",
                rejects.to_str().unwrap(),
            ];
            if null {
                args.push("-z");
            }
            let ran = run(&args, &input).ok();
            let v = stats(&json);
            assert_eq!(n(&v, "lines"), expected.len() as u64);
            assert_eq!(
                n(&v, "valid") + n(&v, "invalid") + n(&v, "blank"),
                n(&v, "lines")
            );
            assert_eq!(
                n(&v, "output_lines"),
                n(&v, "lines"),
                "keep writes every line"
            );
            let got = records(&ran.stdout, term);
            assert_eq!(got.len(), expected.len(), "-j {j}, -z {null}");
            assert!(n(&v, "valid") >= 3000 && n(&v, "invalid") > 0, "{v}");
            // Every invalid line is written unchanged at its position.
            let rejected = std::fs::read(&rejects).unwrap();
            let mut count = 0;
            for reject in records(&rejected, term) {
                let mut parts = reject.splitn(3, |&b| b == b'\t');
                let line: usize = std::str::from_utf8(parts.next().unwrap())
                    .unwrap()
                    .parse()
                    .unwrap();
                let _reason = parts.next().unwrap();
                let text = parts.next().unwrap();
                assert_eq!(got[line - 1], expected[line - 1], "line {line}");
                assert_eq!(text, expected[line - 1], "line {line} in --rejects");
                count += 1;
            }
            assert_eq!(count, n(&v, "invalid"));
            match &first {
                None => first = Some(ran.stdout),
                Some(one) => assert!(one == &ran.stdout, "-j 1 and -j 2 differ"),
            }
        }
    }
}

#[test]
fn a_100_mb_line_without_newline_streams_in_bounded_memory() {
    const SIZE: usize = 100 << 20;
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("stats.json");
    let mut child = normurl()
        .args(["-j", "2", "--stats-json", json.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let mut stdout = child.stdout.take().unwrap();
    let received = Arc::new(AtomicU64::new(0));
    let reader = {
        let received = Arc::clone(&received);
        std::thread::spawn(move || {
            let mut buf = vec![0u8; 1 << 16];
            let (mut newlines, mut other) = (0, 0u64);
            loop {
                let k = stdout.read(&mut buf).unwrap();
                if k == 0 {
                    return (newlines, other);
                }
                for &b in &buf[..k] {
                    match b {
                        b'\n' => newlines += 1,
                        b'a' => {}
                        _ => other += 1,
                    }
                }
                received.fetch_add(k as u64, Ordering::Relaxed);
            }
        })
    };
    let mut stdin = child.stdin.take().unwrap();
    let chunk = vec![b'a'; 1 << 20];
    for _ in 0..SIZE / chunk.len() {
        stdin.write_all(&chunk).unwrap();
    }
    stdin.flush().unwrap();
    // Wait until nearly all of it came out again, then read the peak
    // resident memory while the line is still open (no newline, no EOF):
    // holding the line would take at least 100 MiB.
    let start = Instant::now();
    while received.load(Ordering::Relaxed) < (SIZE - (4 << 20)) as u64 {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no output for the long line"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let peak_kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM in /proc/PID/status");
    drop(stdin);
    let exit = child.wait().unwrap();
    let (newlines, other) = reader.join().unwrap();
    assert!(exit.success());
    assert!(
        peak_kib < 64 * 1024,
        "peak RSS {peak_kib} KiB for a 100 MiB line"
    );
    assert_eq!(received.load(Ordering::Relaxed), SIZE as u64 + 1);
    assert_eq!(
        (newlines, other),
        (1, 0),
        "the line, unchanged, then a newline"
    );
    let v = stats(&json);
    assert_eq!(
        (n(&v, "lines"), n(&v, "invalid"), n(&v, "output_lines")),
        (1, 1, 1)
    );
    assert_eq!(v["invalid_by_reason"]["line-too-long"], 1);
}

#[test]
fn millions_of_empty_lines() {
    let input = vec![b'\n'; 3_000_000];
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("stats.json");
    let json = json.to_str().unwrap();
    let ran = run(&["-j", "2", "--stats-json", json], &input).ok();
    assert!(ran.stdout == input, "every empty line written");
    let v = stats(std::path::Path::new(json));
    assert_eq!((n(&v, "lines"), n(&v, "blank")), (3_000_000, 3_000_000));
    let ran = run(&["--on-invalid=skip", "--stats-json", json], &input).ok();
    assert!(ran.stdout.is_empty());
    let v = stats(std::path::Path::new(json));
    assert_eq!(n(&v, "skipped"), 3_000_000);
    let crlf = b"\r\n".repeat(1_000_000);
    let ran = run(&["-j", "2"], &crlf).ok();
    assert!(ran.stdout == vec![b'\n'; 1_000_000]);
}

#[test]
fn a_file_of_only_carriage_returns() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("stats.json");
    let json = json.to_str().unwrap();
    // One line of a thousand `\r`, and one of 3 MB (too long).
    for size in [1000, 3 << 20] {
        let input = vec![b'\r'; size];
        let path = file(&dir, "cr.txt", &input);
        let ran = run(&["-j", "2", "--stats-json", json, &path], b"").ok();
        assert_eq!(ran.stdout.len(), size + 1);
        assert!(ran.stdout[..size].iter().all(|&b| b == b'\r') && ran.stdout[size] == b'\n');
        let v = stats(std::path::Path::new(json));
        assert_eq!(
            (n(&v, "lines"), n(&v, "invalid"), n(&v, "output_lines")),
            (1, 1, 1)
        );
    }
}

#[test]
fn very_long_hosts() {
    let upper = format!("http://{}.EXAMPLE/", "A".repeat(300_000));
    let labels = format!("http://{}com/", "a.".repeat(200_000));
    let unicode = format!("http://{}.example/", "\u{e9}".repeat(100_000));
    let input = format!("{upper}\n{labels}\n{unicode}\n");
    let ran = run(&["-j", "2", "--on-invalid=keep"], input.as_bytes()).ok();
    let out = ran.out();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0], upper.to_ascii_lowercase());
    assert_eq!(lines[1], labels);
    // A 100,000-character label is past what IDNA (ToASCII's Punycode)
    // encodes: the line is invalid and written unchanged.
    assert_eq!(lines[2], unicode);
    let ran = run(&["--on-invalid=skip", "--stats"], input.as_bytes()).ok();
    assert_eq!(count_lines(&ran.stdout), 2);
    assert!(ran.stderr.contains("idna"), "{}", ran.stderr);
}

#[test]
fn ten_thousand_dot_dot_segments() {
    let ups = "../".repeat(10_000);
    let cases = [
        (format!("http://h/{ups}x"), "http://h/x".to_owned()),
        (
            format!("http://h/{}{ups}b", "a/".repeat(10_000)),
            "http://h/b".to_owned(),
        ),
        (
            format!("http://h/{}", "%2e%2E/".repeat(10_000)),
            "http://h/".to_owned(),
        ),
        (format!("file:///C:/{ups}x/"), "file:///C:/x/".to_owned()),
        (
            format!("http://h/{}", "a/./../".repeat(10_000)),
            "http://h/".to_owned(),
        ),
    ];
    let input: String = cases.iter().map(|(i, _)| format!("{i}\n")).collect();
    let expected: String = cases.iter().map(|(_, o)| format!("{o}\n")).collect();
    let ran = run(&["-j", "2"], input.as_bytes()).ok();
    assert_eq!(ran.out(), expected);
    // aggressive also strips the trailing slash.
    let ran = run(&["-j", "2", "--profile", "aggressive"], input.as_bytes()).ok();
    assert_eq!(ran.out(), expected.replace("x/\n", "x\n"));
    // Relative references climb no higher than the base's root.
    let ran = run(
        &["--base", "http://h/a/b/c"],
        format!("{ups}y\n").as_bytes(),
    )
    .ok();
    assert_eq!(ran.out(), "http://h/y\n");
}

#[test]
fn deeply_nested_percent_encoding() {
    // `%252525…41` decodes one level per pass: 200,000 levels.
    let nested = format!("%{}41", "25".repeat(200_000));
    let input = format!("http://h/{nested}\nhttp://h/{}x\n", "%".repeat(500_000));
    let ran = run(&["-j", "2"], input.as_bytes()).ok();
    assert_eq!(ran.out(), input, "already serialized: unchanged");
    let expected_bare = format!("http://h/{}x\n", "%25".repeat(500_000));
    let ran = run(&["--profile", "safe-browsing"], input.as_bytes()).ok();
    assert_eq!(ran.out(), format!("http://h/A\n{expected_bare}"));
    let ran = run(&["--profile", "wayback"], input.as_bytes()).ok();
    assert_eq!(ran.out(), format!("http://h/a\n{expected_bare}"));
    // semantic decodes only unreserved characters: `%25` stays.
    let ran = run(&["--profile", "semantic"], input.as_bytes()).ok();
    assert_eq!(ran.out(), input);
}

#[test]
fn ipv6_edge_forms() {
    let cases = [
        ("http://[::]/", "http://[::]/"),
        ("http://[0:0:0:0:0:0:0:0]", "http://[::]/"),
        ("http://[0::0:0:1]", "http://[::1]/"),
        ("http://[1:0:0:0:0:0:0:0]/", "http://[1::]/"),
        ("http://[1:0:0:2:0:0:0:3]/", "http://[1:0:0:2::3]/"),
        ("http://[1:0:0:2:0:0:3:4]/", "http://[1::2:0:0:3:4]/"),
        ("http://[FFFF::ABCD]:80/", "http://[ffff::abcd]/"),
        ("http://[::ffff:1.2.3.4]/", "http://[::ffff:102:304]/"),
        ("http://[::127.0.0.1]:8080/", "http://[::7f00:1]:8080/"),
        ("http://[1:2:3:4:5:6:7:8]/", "http://[1:2:3:4:5:6:7:8]/"),
        ("http://[1:2:3:4:5:6:7:8:9]/", "invalid"),
        ("http://[1::2::3]/", "invalid"),
        ("http://[:1]/", "invalid"),
        ("http://[1:]/", "invalid"),
        ("http://[::1.2.3.4.5]/", "invalid"),
        ("http://[::1.2.3]/", "invalid"),
        ("http://[::1%25eth0]/", "invalid"),
        ("http://[12345::]/", "invalid"),
        ("http://[::1]:65536/", "invalid"),
        ("http://[v1.x]/", "invalid"),
        ("http://[::1/", "invalid"),
        ("http://[::1]x/", "invalid"),
        ("foo://[::1]/", "foo://[::1]/"),
    ];
    let input: String = cases.iter().map(|(i, _)| format!("{i}\n")).collect();
    let expected: String = cases.iter().map(|(_, o)| format!("{o}\n")).collect();
    let ran = run(&["-j", "2", "--on-invalid=empty"], input.as_bytes()).ok();
    assert_eq!(ran.out(), expected.replace("invalid", ""));
}

#[test]
fn truncated_gzip_and_corrupt_zstd() {
    let dir = tempfile::tempdir().unwrap();
    let lines = numbered_urls(50_000);
    let good = file(&dir, "good.txt", b"http://good.example/\n");
    for (name, packed) in [
        ("cut.gz", gzip(lines.as_bytes())),
        ("cut.zst", zstd(lines.as_bytes())),
    ] {
        let kind = if name.ends_with("gz") { "gzip" } else { "zstd" };
        let cut = &packed[..packed.len() / 2];
        let path = file(&dir, name, cut);
        for j in ["1", "2"] {
            let ran = run(&["-j", j, &path, &good], b"").failed(&[&format!(
                "{path}: corrupt or truncated {kind} data near compressed byte {}",
                cut.len()
            )]);
            // Every complete line decoded before the fault, and nothing of
            // the files after it.
            assert!(
                ran.stdout.len() > 1000 && ran.stdout.ends_with(b"\n"),
                "{name}"
            );
            assert!(lines.as_bytes().starts_with(&ran.stdout), "{name} -j {j}");
        }
    }
    // Damage in the middle of a zstd frame: the frame checksum finds it at
    // the frame's end, so lines decoded from damaged blocks may have been
    // written; the error says so, with the file and the offset.
    let mut packed = zstd(lines.as_bytes());
    let middle = packed.len() / 2;
    for b in &mut packed[middle..middle + 40] {
        *b ^= 0x5A;
    }
    let path = file(&dir, "bad.zst", &packed);
    let ran = run(&["-j", "2", &path], b"").failed(&[
        &format!("{path}: corrupt or truncated zstd data near compressed byte"),
        "after",
        "decompressed bytes",
    ]);
    assert!(ran.stdout.starts_with(b"http://h0.example/\n"));
    // Not compressed data at all after a zstd magic number.
    let path = file(&dir, "junk.zst", b"\x28\xB5\x2F\xFDjunk junk junk junk");
    let ran = run(&[&path], b"").failed(&[&path, "zstd"]);
    assert!(ran.stdout.is_empty());
}

#[test]
fn unreadable_missing_and_directory_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let good = file(&dir, "good.txt", b"http://good.example/\n");
    // Inputs are opened before anything is written: a missing file or a
    // directory among several gives no output at all.
    let ran = run(&[&good, "/nonexistent/x.txt", &good], b"")
        .failed(&["/nonexistent/x.txt: No such file or directory"]);
    assert!(ran.stdout.is_empty());
    let folder = dir.path().to_str().unwrap();
    let ran = run(&[&good, folder], b"").failed(&[&format!("{folder}: Is a directory")]);
    assert!(ran.stdout.is_empty());
    // A file that opens but fails to read: the lines before, then an error
    // that names it (as root, /proc/self/mem is such a file).
    for j in ["1", "2"] {
        let ran = run(&["-j", j, &good, "/proc/self/mem", &good], b"")
            .failed(&["/proc/self/mem: Input/output error"]);
        assert_eq!(ran.out(), "http://good.example/\n");
    }
    // A file without read permission (only meaningful when not root).
    let secret = file(&dir, "secret.txt", b"http://secret.example/\n");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o000)).unwrap();
    if std::fs::File::open(&secret).is_err() {
        let ran = run(&[&good, &secret], b"").failed(&[&format!("{secret}: Permission denied")]);
        assert!(ran.stdout.is_empty());
    } else {
        eprintln!("running as root: the permission case is covered by /proc/self/mem");
    }
}

#[test]
fn writing_to_a_full_disk() {
    let dir = tempfile::tempdir().unwrap();
    let small = file(&dir, "small.txt", b"http://a.example/\n");
    let many = numbered_urls(100_000);
    let big = file(&dir, "big.txt", many.as_bytes());
    for input in [&small, &big] {
        for j in ["1", "2"] {
            let full = std::fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .unwrap();
            let mut command = normurl();
            command.args(["-j", j, input]).stdout(full);
            let child = command.stderr(Stdio::piped()).stdin(Stdio::null());
            let out = child.output().unwrap();
            let ran = Ran {
                code: out.status.code(),
                stdout: Vec::new(),
                stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            };
            ran.failed(&["<stdout>: write error: No space left on device"]);
            let ran = run(&["-j", j, "-o", "/dev/full", input], b"");
            ran.failed(&["/dev/full: write error: No space left on device"]);
        }
    }
}

#[test]
// The injection hook exists in debug builds only (debug_panic_hook in
// src/normalize/mod.rs): elsewhere the test says it did not run, rather
// than passing without asserting.
#[cfg_attr(
    not(debug_assertions),
    ignore = "the panic injection hook exists in debug builds only"
)]
fn a_worker_panic_ends_the_run_with_an_error() {
    let mut input = numbered_urls(100_000);
    let middle = input[input.len() / 2..].find('\n').unwrap() + input.len() / 2 + 1;
    input.insert_str(middle, "http://boom.example/\n");
    let dir = tempfile::tempdir().unwrap();
    let path = file(&dir, "in.txt", input.as_bytes());
    for j in ["1", "2"] {
        let child = normurl()
            .args(["-j", j, &path])
            .env("NORMURL_DEBUG_PANIC_ON", "http://boom.example/")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let ran = wait_at_most(child, Duration::from_secs(120));
        assert_eq!(ran.code, Some(2), "-j {j}: {}", ran.stderr);
        assert!(
            ran.stderr
                .contains("internal error, a worker panicked: injected by NORMURL_DEBUG_PANIC_ON"),
            "{}",
            ran.stderr
        );
        // What was written is a prefix of the answer, up to the bad batch.
        let out = ran.out();
        assert!(out.len() < input.len() / 2 + 1);
        assert!(input.starts_with(&out), "-j {j}");
    }
    // Without the variable the same file goes through.
    let ran = run_command(normurl().args(["-j", "2", &path]), b"").ok();
    assert_eq!(count_lines(&ran.stdout), 100_001);
}
