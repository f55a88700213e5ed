//! The `normurl` binary, run as a user runs it: options, input encodings,
//! column modes, invalid-line policies, exit codes, a closed stdout.
//!
//! Fixtures are in tests/data/cli/ (see tests/data/README.md); compressed
//! inputs are made here from the plain ones.

mod common;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use common::bin::{file, gzip, normurl, numbered_urls, run};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/cli")
        .join(name)
}

fn fixture_str(name: &str) -> String {
    fixture(name).display().to_string()
}

const MIXED: &[u8] = b"\xEF\xBB\xBFHTTP://Example.COM/a/../b\r\n\
not a url\r\n\
\r\n\
\n\
https://\xE4\xB8\xAD\xE6\x96\x87.example/caf\xE9?q=\xFF\n\
http://[::1\n\
  https://trim.example/  \n\
https://last.example";

const MIXED_OUT: &str = "http://example.com/b\n\
not a url\n\
\n\
\n\
https://xn--fiq228c.example/caf%E9?q=%FF\n\
http://[::1\n\
https://trim.example/\n\
https://last.example/\n";

#[test]
fn bom_crlf_empty_lines_invalid_utf8_and_no_final_newline() {
    let ran = run(&[], MIXED).ok();
    assert_eq!(ran.out(), MIXED_OUT);
    assert_eq!(ran.stderr, "");
    // `-` is stdin too, and the output does not depend on threads.
    for j in ["1", "2", "8"] {
        assert_eq!(run(&["-j", j, "-"], MIXED).ok().out(), MIXED_OUT);
    }
}

#[test]
fn files_are_read_in_order_and_compression_is_detected_by_content() {
    let dir = tempfile::tempdir().unwrap();
    let plain = file(&dir, "plain.txt", MIXED);
    // Misleading names on purpose: detection must look at the bytes.
    let gz = file(&dir, "gzip.txt", &gzip(MIXED));
    // Two members cut after a line (a member whose data does not end in
    // a line break ends its line: tests/member_ends.rs).
    let cut = 1 + MIXED[..40].iter().rposition(|&b| b == b'\n').unwrap();
    let (a, b) = MIXED.split_at(cut);
    let multi = file(&dir, "multi.gz", &[gzip(a), gzip(b)].concat());
    let zst = file(&dir, "zstd.gz", &zstd::encode_all(MIXED, 3).unwrap());
    for path in [&plain, &gz, &multi, &zst] {
        assert_eq!(run(&[path], b"").ok().out(), MIXED_OUT, "{path}");
    }
    let ran = run(&[&gz, "-", &zst], b"http://stdin.example\n").ok();
    assert_eq!(
        ran.out(),
        format!("{MIXED_OUT}http://stdin.example/\n{MIXED_OUT}")
    );
}

#[test]
fn null_terminated_records() {
    let ran = run(&["-z"], b"HTTP://A.example\0b\nc\0http://c.example/x\r\0").ok();
    // A newline or CR inside a record is not an end; the URL parser
    // removes newlines and trims C0 controls.
    assert_eq!(ran.stdout, b"http://a.example/\0b\nc\0http://c.example/x\0");
}

#[test]
fn invalid_utf8_policies() {
    let input = b"http://a.example/caf\xE9\nhttp://b.example/ok\n";
    let percent = run(&["--invalid-utf8=percent"], input).ok();
    assert_eq!(
        percent.out(),
        "http://a.example/caf%E9\nhttp://b.example/ok\n"
    );
    let replace = run(&["--invalid-utf8", "replace"], input).ok();
    assert_eq!(
        replace.out(),
        "http://a.example/caf%EF%BF%BD\nhttp://b.example/ok\n"
    );
    let reject = run(&["--invalid-utf8=reject", "--on-invalid=empty"], input).ok();
    assert_eq!(reject.out(), "\nhttp://b.example/ok\n");
    // Keep writes the invalid line unchanged, bytes and all.
    let keep = run(&["--invalid-utf8=reject"], input).ok();
    assert_eq!(keep.stdout, input);
}

const CRAWL_FIELD_4: [&str; 7] = [
    "dns:www.example.org",
    "http://www.example.org/",
    "http://www.example.org/robots.txt",
    "http://www.example.org/a/c",
    "http://xn--bcher-kva.example/katalog?q=%C3%A4",
    "http://exa[mple.org/",
    "http://192.168.0.1/%7Euser/",
];

#[test]
fn crawl_log_field_mode_keeps_the_rest_of_the_line() {
    let log = std::fs::read_to_string(fixture("crawl.log")).unwrap();
    let ran = run(&["--field", "4", &fixture_str("crawl.log")], b"").ok();
    let out = ran.out();
    let (got, want): (Vec<&str>, Vec<&str>) = (out.lines().collect(), log.lines().collect());
    assert_eq!(got.len(), 7);
    for ((got, want), url) in got.iter().zip(&want).zip(CRAWL_FIELD_4) {
        // Everything but field 4 is byte-for-byte the input, padding too.
        let fields: Vec<&str> = want.split(' ').collect();
        let field4 = fields.iter().filter(|f| !f.is_empty()).nth(3).unwrap();
        assert_eq!(*got, want.replacen(field4, url, 1));
    }
    let only = run(
        &["--field=4", "--only-field", &fixture_str("crawl.log")],
        b"",
    )
    .ok();
    assert_eq!(only.out(), CRAWL_FIELD_4.map(|u| format!("{u}\n")).concat());
}

#[test]
fn tsv_with_base_field() {
    let args = [
        "-d",
        "\\t",
        "--field",
        "2",
        "--base-field",
        "1",
        "--rejects",
    ];
    let dir = tempfile::tempdir().unwrap();
    let rejects = dir.path().join("rejects.tsv");
    let tsv = fixture_str("links.tsv");
    let ran = run(
        &[
            &args[..],
            &[rejects.to_str().unwrap(), "--only-field", &tsv],
        ]
        .concat(),
        b"",
    )
    .ok();
    assert_eq!(
        ran.out(),
        "link\n\
         http://site.example/img/Logo.PNG\n\
         http://site.example/dir/page.html?page=2\n\
         https://cdn.example/x.js\n\
         https://other.example/#top\n\
         http://[::1\n\
         relative.html\n"
    );
    assert_eq!(
        std::fs::read_to_string(&rejects).unwrap(),
        "1\tinvalid-base\tpage\tlink\ttext\n\
         6\tipv6-unclosed\thttps://other.example/\thttp://[::1\tbroken\n\
         7\tinvalid-base\tnot a base\trelative.html\torphan\n"
    );
    // Whole lines, with a literal tab as the delimiter.
    let ran = run(
        &["-d", "\t", "--field", "2", "--base-field", "1", &tsv],
        b"",
    )
    .ok();
    let second = ran.out().lines().nth(1).unwrap().to_string();
    assert_eq!(
        second,
        "http://Site.example/dir/page.html\thttp://site.example/img/Logo.PNG\tthe logo"
    );
}

#[test]
fn base_url() {
    let ran = run(
        &["--base", "https://h.example/a/b"],
        b"c\n../d?x\n//o.example\nhttp://abs.example/\n",
    )
    .ok();
    assert_eq!(
        ran.out(),
        "https://h.example/a/c\nhttps://h.example/d?x\nhttps://o.example/\nhttp://abs.example/\n"
    );
    let bad = run(&["--base", "not absolute"], b"x\n");
    assert_eq!(bad.code, Some(2));
    assert!(
        bad.stderr
            .contains("--base \"not absolute\" is not a valid URL"),
        "{}",
        bad.stderr
    );
}

#[test]
fn on_invalid_modes_with_rejects() {
    let dir = tempfile::tempdir().unwrap();
    let rejects = dir.path().join("rejects.tsv");
    let rejects = rejects.to_str().unwrap();
    let expected_rejects = "2\trelative-without-base\tnot a url\n6\tipv6-unclosed\thttp://[::1\n";
    let cases = [
        ("keep", MIXED_OUT.to_string()),
        (
            "empty",
            MIXED_OUT
                .replace("not a url", "")
                .replace("http://[::1", ""),
        ),
        (
            "skip",
            MIXED_OUT
                .replace("not a url\n\n\n", "")
                .replace("http://[::1\n", ""),
        ),
    ];
    for (mode, expected) in cases {
        let ran = run(&["--on-invalid", mode, "--rejects", rejects], MIXED).ok();
        assert_eq!(ran.out(), expected, "--on-invalid={mode}");
        assert_eq!(
            std::fs::read_to_string(rejects).unwrap(),
            expected_rejects,
            "{mode}"
        );
    }
    let dir2 = tempfile::tempdir().unwrap();
    let input = file(&dir2, "mixed.txt", MIXED);
    let ran = run(&["--on-invalid=fail", "--rejects", rejects, &input], b"");
    assert_eq!(ran.code, Some(1));
    assert_eq!(ran.out(), "http://example.com/b\n");
    assert_eq!(
        ran.stderr,
        format!("normurl: {input}:2: invalid URL: relative URL without a base (relative-without-base)\n")
    );
    assert_eq!(
        std::fs::read_to_string(rejects).unwrap(),
        "2\trelative-without-base\tnot a url\n"
    );
}

#[test]
fn long_lines_need_no_memory_and_are_invalid() {
    let long = format!("http://a.example/{}", "x".repeat(5000));
    let input = format!("http://b.example\n{long}\r\nhttp://c.example\n");
    let dir = tempfile::tempdir().unwrap();
    let rejects = dir.path().join("rejects.tsv");
    let rejects = rejects.to_str().unwrap();
    for j in ["1", "2"] {
        let ran = run(
            &["-j", j, "--max-line-bytes", "1K", "--rejects", rejects],
            input.as_bytes(),
        )
        .ok();
        assert_eq!(
            ran.out(),
            format!("http://b.example/\n{long}\nhttp://c.example/\n")
        );
        assert_eq!(
            std::fs::read_to_string(rejects).unwrap(),
            format!("2\tline-too-long\t{long}\n")
        );
        let ran = run(
            &["-j", j, "--max-line-bytes=1024", "--on-invalid=skip"],
            input.as_bytes(),
        )
        .ok();
        assert_eq!(ran.out(), "http://b.example/\nhttp://c.example/\n");
        // A long line that stops a `fail` run is recorded whole too, however
        // the reader's batches cut it (once, only as much as the first
        // batch held).
        for batch in ["1", "100", "1K", "1M"] {
            let ran = run(
                &[
                    "-j",
                    j,
                    "--max-line-bytes=1K",
                    "--batch-bytes",
                    batch,
                    "--on-invalid=fail",
                    "--rejects",
                    rejects,
                ],
                input.as_bytes(),
            );
            assert_eq!(ran.code, Some(1), "--batch-bytes {batch}");
            assert_eq!(ran.out(), "http://b.example/\n", "--batch-bytes {batch}");
            assert_eq!(
                std::fs::read_to_string(rejects).unwrap(),
                format!("2\tline-too-long\t{long}\n"),
                "--batch-bytes {batch}"
            );
        }
    }
    // The default limit (1 MiB) accepts it.
    let ran = run(&[], input.as_bytes()).ok();
    assert_eq!(
        ran.out(),
        format!("http://b.example/\n{long}\nhttp://c.example/\n")
    );
    for bad in ["lots", "2G"] {
        let ran = run(&["--max-line-bytes", bad], b"");
        assert_eq!(ran.code, Some(2), "--max-line-bytes {bad}");
    }
}

#[test]
fn output_file_and_refusing_to_overwrite_an_input() {
    let dir = tempfile::tempdir().unwrap();
    let input = file(&dir, "in.txt", MIXED);
    let out = dir.path().join("out.txt");
    let ran = run(&["-o", out.to_str().unwrap(), &input], b"").ok();
    assert!(ran.stdout.is_empty());
    assert_eq!(std::fs::read_to_string(&out).unwrap(), MIXED_OUT);
    let same = run(&["-o", &input, &input], b"");
    assert_eq!(same.code, Some(2));
    assert!(
        same.stderr.contains("both an input and an output"),
        "{}",
        same.stderr
    );
    assert_eq!(std::fs::read(&input).unwrap(), MIXED, "input untouched");
}

#[test]
fn stats_and_stats_json_add_up() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("stats.json");
    let ran = run(
        &[
            "--stats",
            "--on-invalid=skip",
            "--stats-json",
            json.to_str().unwrap(),
        ],
        MIXED,
    )
    .ok();
    for needle in [
        "lines",
        "valid",
        "relative-without-base",
        "ipv6-unclosed",
        "bytes in",
        "lines/s",
        "MB/s",
    ] {
        assert!(
            ran.stderr.contains(needle),
            "{needle} missing from {}",
            ran.stderr
        );
    }
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let n = |k: &str| v[k].as_u64().unwrap_or_else(|| panic!("{k} in {v}"));
    assert_eq!(n("lines"), 8);
    assert_eq!(
        (n("valid"), n("invalid"), n("blank"), n("skipped")),
        (4, 2, 2, 4)
    );
    assert_eq!(v["invalid_by_reason"]["relative-without-base"], 1);
    assert_eq!(v["invalid_by_reason"]["ipv6-unclosed"], 1);
    // The accounting identity, checked against the real output.
    let written = ran.stdout.iter().filter(|&&b| b == b'\n').count() as u64;
    assert_eq!(n("output_lines"), written);
    assert_eq!(
        n("lines"),
        n("output_lines") + n("skipped") + n("deduplicated")
    );
    assert_eq!(n("bytes_in"), MIXED.len() as u64);
    assert_eq!(n("bytes_out"), ran.stdout.len() as u64);
    assert!(v["seconds"].as_f64().unwrap() > 0.0);
}

#[test]
fn thread_counts_give_identical_output_on_the_sample() {
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/urls.txt");
    let sample = sample.to_str().unwrap();
    let one = run(&["-j", "1", sample], b"").ok();
    assert_eq!(one.stdout.iter().filter(|&&b| b == b'\n').count(), 5000);
    for j in ["2", "3", "0"] {
        assert_eq!(
            run(&["-j", j, sample], b"").ok().stdout,
            one.stdout,
            "-j {j}"
        );
    }
    // The hidden tuning option changes nothing either.
    for batch in ["1", "100", "64K"] {
        let ran = run(&["-j", "2", "--batch-bytes", batch, sample], b"").ok();
        assert_eq!(ran.stdout, one.stdout, "--batch-bytes {batch}");
    }
}

#[test]
fn errors_name_the_file_and_exit_2() {
    let ran = run(&["/nonexistent/urls.txt"], b"");
    assert_eq!(ran.code, Some(2));
    assert_eq!(
        ran.stderr,
        "normurl: /nonexistent/urls.txt: No such file or directory (os error 2)\n"
    );
    let ran = run(&["--no-such-option"], b"");
    assert_eq!(ran.code, Some(2));
    let ran = run(&["-d", ",", "x.txt"], b"");
    assert_eq!(ran.code, Some(2), "-d needs --field");
    let ran = run(&["--field", "0"], b"");
    assert_eq!(ran.code, Some(2));
    // Damaged compressed inputs: tests/bad_input.rs,
    // truncated_gzip_and_corrupt_zstd.
}

#[test]
fn closed_stdout_is_a_quiet_success() {
    let dir = tempfile::tempdir().unwrap();
    let lines = numbered_urls(200_000);
    let input = file(&dir, "big.txt", lines.as_bytes());
    for j in ["1", "2"] {
        let mut child = normurl()
            .args(["-j", j, &input])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let mut first = [0u8; 100];
        stdout.read_exact(&mut first).unwrap();
        drop(stdout); // as `head` does
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "-j {j}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), "");
        assert!(first.starts_with(b"http://h0.example/\n"));
    }
}

#[test]
fn inspect_prints_json() {
    let ran = run(&["inspect", "HTTP://u:p@EXAMPLE.com:80/a/../b?q#f"], b"").ok();
    let v: serde_json::Value = serde_json::from_slice(&ran.stdout).unwrap();
    let keys = [
        "href", "protocol", "username", "password", "host", "hostname", "port", "pathname",
        "search", "hash", "origin",
    ];
    assert_eq!(v.as_object().unwrap().len(), keys.len());
    // In the order of the URL interface (serde_json's map would sort them).
    let text = ran.out();
    let at: Vec<usize> = keys
        .iter()
        .map(|k| text.find(&format!("\"{k}\":")).unwrap())
        .collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "{text}");
    assert_eq!(v["href"], "http://u:p@example.com/b?q#f");
    let ran = run(
        &["inspect", "x \"y\"", "--base", "https://h.example/d/"],
        b"",
    )
    .ok();
    let v: serde_json::Value = serde_json::from_slice(&ran.stdout).unwrap();
    assert_eq!(v["pathname"], "/d/x%20%22y%22");
    let bad = run(&["inspect", "nope"], b"");
    assert_eq!(bad.code, Some(1));
    let v: serde_json::Value = serde_json::from_slice(&bad.stdout).unwrap();
    assert_eq!(v["error"], "relative-without-base");
}

#[test]
fn bench_prints_a_table() {
    let dir = tempfile::tempdir().unwrap();
    let path = file(
        &dir,
        "urls.txt",
        b"\xEF\xBB\xBFhttp://a.example/\n\nnot a url\nhttps://b.example/x\n",
    );
    let ran = run(&["bench", "--runs", "1", "-j", "2", &path], b"").ok();
    let out = ran.out();
    let rows: Vec<&str> = out.lines().collect();
    assert!(rows[0].contains("ns/URL") && rows[0].contains("MB/s"));
    // Built with `--features peers`, the peers' rows follow normurl's, and
    // a note on ada's C++ rows (or on why they are missing) ends the table.
    if cfg!(feature = "peers") {
        let note = if cfg!(ada_cpp) {
            "ada C++ url_aggregator allocates each URL's href buffer"
        } else {
            "ada C++: not built ("
        };
        assert!(rows.last().unwrap().starts_with(note), "{out}");
    } else {
        assert_eq!(rows.len(), 3, "{out}");
    }
    // 3 URLs (the empty line is ignored), 2 valid, on 1 and on 2 threads.
    for (row, threads) in rows[1..3].iter().zip(["1", "2"]) {
        let cols: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(&cols[1..4], ["3", "2", threads], "{row}");
    }
}

#[test]
fn help_is_usable() {
    let ran = run(&["--help"], b"").ok();
    let help = ran.out();
    for option in [
        "--get",
        "--json",
        "--psl",
        "--default-scheme",
        "--add-field",
        "--null",
        "--invalid-utf8",
        "--field",
        "--delimiter",
        "--only-field",
        "--base",
        "--base-field",
        "--max-line-bytes",
        "--on-invalid",
        "--rejects",
        "--threads",
        "--stats",
        "--stats-json",
        "Examples:",
        "Exit status",
    ] {
        assert!(help.contains(option), "{option} missing from --help");
    }
}
