//! One large gzip member (as `gzip big.txt` makes), decoded on several
//! threads from a regular file (the command's `parallel-gzip` feature, on
//! by default), on one from a pipe: the same output at every -j
//! and batch size, the complete lines before damage and then status 2
//! with one line naming the file; and (issue 44) memory bounded by
//! decoded bytes whatever the compression ratio, for members and frames.

mod common;

use std::io::Read;
use std::process::Stdio;

use common::bin::{file, gzip, normurl, run, run_command, zstd, Rng};

/// About `bytes` of URL lines with random paths: compresses about 2:1, so
/// that the member is longer than the 8 MiB in which the decoder looks
/// for a second one; the last line has no line break.
fn url_lines(bytes: usize) -> Vec<u8> {
    let mut rng = Rng(44);
    let mut t = Vec::with_capacity(bytes + 100);
    while t.len() < bytes {
        let (a, b) = (rng.next(), rng.next());
        t.extend_from_slice(format!("HTTP://H{}.Example/a/../{a:x}?q={b:x}\n", a % 97).as_bytes());
    }
    t.pop();
    t
}

/// The text, its one member (over 8 MiB) and the output of `-j 1`.
fn one_member(dir: &tempfile::TempDir) -> (String, Vec<u8>, Vec<u8>) {
    let text = url_lines(24 << 20);
    let packed = gzip(&text);
    assert!(packed.len() > 9 << 20, "{}", packed.len());
    let path = file(dir, "one.gz", &packed);
    let reference = run(&["-j", "1", &path], b"").ok().stdout;
    (path, packed, reference)
}

#[test]
fn one_member_same_output_at_every_thread_count_and_batch_size() {
    let dir = tempfile::tempdir().unwrap();
    let (path, packed, reference) = one_member(&dir);
    // Every line normalized, and the last (without a line break) ended.
    let lines = reference.iter().filter(|&&b| b == b'\n').count();
    assert_eq!(lines, url_lines(24 << 20).split(|&b| b == b'\n').count());
    assert!(reference.starts_with(b"http://h"), "{:?}", &reference[..20]);
    for args in [
        &["-j", "2"][..],
        &["-j", "3"],
        &["-j", "8"],
        &["-j", "2", "--batch-bytes", "64K"],
        &["-j", "8", "--batch-bytes", "3000"],
    ] {
        let out = run(&[args, &[path.as_str()]].concat(), b"").ok().stdout;
        assert!(out == reference, "{args:?}");
    }
    // From a pipe: one decoder, the same output.
    let out = run(&["-j", "2"], &packed).ok().stdout;
    assert!(out == reference, "standard input");
}

#[test]
fn damaged_one_member_gives_the_lines_before_then_status_2() {
    let dir = tempfile::tempdir().unwrap();
    let (_, packed, reference) = one_member(&dir);
    // Cut short: every complete line before the cut, the error at the cut.
    let cut = packed.len() * 2 / 3;
    let path = file(&dir, "cut.gz", &packed[..cut]);
    let mut first = None;
    for j in ["1", "2", "8"] {
        let ran = run(&["-j", j, &path], b"").failed(&[&format!(
            "{path}: corrupt or truncated gzip data near compressed byte {cut}"
        )]);
        assert_eq!(ran.stderr.lines().count(), 1, "{}", ran.stderr);
        assert!(ran.stdout.len() > 10 << 20 && ran.stdout.ends_with(b"\n"));
        assert!(reference.starts_with(&ran.stdout), "-j {j}");
        let first = first.get_or_insert_with(|| ran.stdout.clone());
        assert!(*first == ran.stdout, "-j {j}: another prefix than -j 1's");
    }
    // A wrong CRC-32 (the data is only found wrong at the member's end),
    // and bytes after the member that are not another: every complete
    // line (the last, without a line break, is not complete), then the
    // error, the same at every -j.
    let last_line = reference[..reference.len() - 1]
        .rsplit(|&b| b == b'\n')
        .next()
        .unwrap()
        .len()
        + 1;
    let complete = &reference[..reference.len() - last_line];
    let mut bad = packed.clone();
    let crc = bad.len() - 8;
    bad[crc] ^= 0x40;
    let junk = [&packed[..], b"junk"].concat();
    for (name, bytes, needle) in [("crc.gz", bad, "checksum"), ("junk.gz", junk, "garbage")] {
        let path = file(&dir, name, &bytes);
        for j in ["1", "2", "8"] {
            let ran = run(&["-j", j, &path], b"").failed(&[&path, needle]);
            assert_eq!(ran.stderr.lines().count(), 1, "{}", ran.stderr);
            assert!(ran.stdout == complete, "{name} -j {j}");
        }
    }
}

/// A member after a long one still ends a record (issue 42's rule), and
/// zero bytes after the last member are padding.
#[test]
fn a_member_after_a_long_one_and_padding() {
    let dir = tempfile::tempdir().unwrap();
    let text = url_lines(24 << 20);
    let packed = [gzip(&text), gzip(b"http://b.example/x"), vec![0; 512]].concat();
    let path = file(&dir, "two.gz", &packed);
    let mut expected = run(&["-j", "1"], &text).ok().stdout;
    expected.extend_from_slice(b"http://b.example/x\n");
    for j in ["1", "2", "8"] {
        let ran = run(&["-j", j, &path], b"").ok();
        assert!(ran.stdout == expected, "-j {j}");
    }
}

/// Runs `normurl -j 2 path`, reads its output, and returns the output's
/// size and the process's peak resident memory in KiB, read from
/// /proc/PID/status while the last MiB of output is still unread (the
/// process is then blocked writing it, all its input decoded).
fn peak_rss(path: &str, expected_len: usize) -> (usize, u64) {
    let mut child = normurl()
        .args(["-j", "2", path])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let mut stdout = child.stdout.take().unwrap();
    let mut buf = vec![0u8; 1 << 16];
    let mut received = 0;
    let mut peak_kib = None;
    loop {
        if peak_kib.is_none() && received + (1 << 20) >= expected_len {
            let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
            peak_kib = status
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok());
        }
        let k = stdout.read(&mut buf).unwrap();
        if k == 0 {
            break;
        }
        received += k;
    }
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (received, peak_kib.expect("VmHWM in /proc/PID/status"))
}

/// Members and frames that expand about 1000 times (16 of 16 MiB each
/// from about 300 KB): the decoded bytes held are capped, not the
/// compressed ones, so a plain run stays under 64 MiB resident at -j 2
/// (holding one chunk's members whole would take 256 MiB).
#[test]
fn memory_is_bounded_by_decoded_bytes_whatever_the_ratio() {
    let dir = tempfile::tempdir().unwrap();
    let line = [&[b'a'; 99][..], b"\n"].concat();
    let member: Vec<u8> = line.repeat((16 << 20) / line.len());
    let total = 16 * member.len();
    let gz = gzip(&member).repeat(16);
    let zst = zstd(&member).repeat(16);
    // At least 64:1: a 256 KiB chunk of them holds over 16 MiB decoded.
    assert!(
        gz.len() < 4 << 20 && zst.len() < 4 << 20,
        "{} {}",
        gz.len(),
        zst.len()
    );
    for (name, packed) in [("bomb.gz", gz), ("bomb.zst", zst)] {
        let path = file(&dir, name, &packed);
        let (len, peak_kib) = peak_rss(&path, total);
        assert_eq!(len, total, "{name}: every line, unchanged");
        assert!(peak_kib < 64 * 1024, "{name}: peak RSS {peak_kib} KiB");
    }
    // The same bytes, in order, as from -j 1.
    let path = file(&dir, "check.gz", &gzip(&member).repeat(3));
    let one = run_command(normurl().args(["-j", "1", path.as_str()]), b"")
        .ok()
        .stdout;
    let two = run(&["-j", "2", &path], b"").ok().stdout;
    assert!(one.len() == 3 * member.len() && one == two);
}
