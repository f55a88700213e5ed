//! The command's manners (issue 31): one-line argument errors, repeated
//! options, short flags, `--line-buffered`, `normurl rules PROFILE`,
//! completions and the man page, each through the binary.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;
use std::sync::mpsc;
use std::time::Duration;

use common::bin::{normurl, run};

const URLS: &str = "HTTPS://www.Example.com/b/../a/?utm_source=x&b=2&a=1#top\n\
                    http://example.com/a/?a=1&b=2\n\
                    HTTP://EXAMPLE.COM/a/?b=2&a=1\n";

#[test]
fn argument_errors_are_one_line_with_status_2() {
    for (args, needle) in [
        (&["--field", "0"][..], "fields count from 1"),
        (&["--fild", "3"][..], "--fild"),
        (&["--profile", "agressive"][..], "aggressive"),
        (&["--on-invalid", "nope"][..], "keep, empty, skip or fail"),
        (&["-j", "x"][..], "invalid number"),
        (&["--delimiter", ","][..], "--field"),
        (&["--base-field", "0", "-f", "1"][..], "fields count from 1"),
    ] {
        let ran = run(args, b"");
        let ran = ran.failed(&[needle]);
        assert_eq!(ran.stderr.lines().count(), 1, "{args:?}: {}", ran.stderr);
        for jargon in [
            "Usage:",
            "error:",
            "non-zero",
            "NonZero",
            "For more information",
        ] {
            assert!(!ran.stderr.contains(jargon), "{args:?}: {}", ran.stderr);
        }
    }
}

#[test]
fn help_and_version_go_to_standard_output() {
    let ran = run(&["--help"], b"").ok();
    assert!(ran.out().contains("--line-buffered"), "{}", ran.out());
    let ran = run(&["--version"], b"").ok();
    assert!(ran.out().starts_with("normurl "), "{}", ran.out());
}

#[test]
fn single_values_take_the_last_and_lists_accumulate() {
    let last = run(
        &["--profile", "whatwg", "--profile", "aggressive"],
        URLS.as_bytes(),
    )
    .ok();
    let aggressive = run(&["--profile", "aggressive"], URLS.as_bytes()).ok();
    assert_eq!(last.stdout, aggressive.stdout);

    let both = run(
        &["--rules", "+sort-query", "--rules", "+drop-fragment"],
        URLS.as_bytes(),
    )
    .ok();
    let joined = run(&["--rules", "+sort-query,+drop-fragment"], URLS.as_bytes()).ok();
    assert_eq!(both.stdout, joined.stdout);
    assert!(
        both.out()
            .starts_with("https://www.example.com/a/?a=1&b=2&utm_source=x\n"),
        "{}",
        both.out()
    );

    let lines = "a 1 http://A.com/\n";
    let ran = run(&["--field", "2", "--field", "3"], lines.as_bytes()).ok();
    assert_eq!(ran.out(), "a 1 http://a.com/\n");

    let params = run(
        &[
            "-p",
            "aggressive",
            "--strip-params",
            "a",
            "--strip-params",
            "b",
        ],
        URLS.as_bytes(),
    )
    .ok();
    assert_eq!(params.out().lines().next(), Some("https://example.com/a"));
}

#[test]
fn short_flags_mean_their_long_options() {
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path().to_str().unwrap();
    let lines = "x HTTP://A.com/a/\nx http://a.com/a/\ny http://b.com/\n";
    let short = run(
        &["-f", "2", "-u", "-p", "aggressive", "-T", tmp],
        lines.as_bytes(),
    )
    .ok();
    let long = run(
        &[
            "--field",
            "2",
            "--dedup",
            "--profile",
            "aggressive",
            "--temp-dir",
            tmp,
        ],
        lines.as_bytes(),
    )
    .ok();
    assert_eq!(short.stdout, long.stdout);
    assert_eq!(short.out(), "x http://a.com/a\ny http://b.com/\n");
    let url = "HTTP://WWW.EXAMPLE.com/a/?utm_source=x";
    let short = run(&["inspect", "-p", "aggressive", url], b"").ok();
    let long = run(&["inspect", "--profile", "aggressive", url], b"").ok();
    assert_eq!(short.stdout, long.stdout);
    assert!(short.out().contains("\"canonical\""), "{}", short.out());
}

#[test]
fn temp_dir_is_where_dedup_spills() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing");
    let urls: String = (0..20_000)
        .map(|i| format!("http://example.com/{i}\n"))
        .collect();
    let ran = run(
        &[
            "-u",
            "--dedup-memory",
            "64K",
            "-T",
            missing.to_str().unwrap(),
        ],
        urls.as_bytes(),
    );
    ran.failed(&["missing"]);
}

#[test]
fn line_buffered_writes_each_line_before_the_input_ends() {
    let mut child = normurl()
        .arg("--line-buffered")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut lines = BufReader::new(stdout).lines();
        while let Some(Ok(line)) = lines.next() {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    for (input, want) in [
        ("HTTP://A.com/x\n", "http://a.com/x"),
        ("http://[x\n", "http://[x"),
    ] {
        stdin.write_all(input.as_bytes()).unwrap();
        stdin.flush().unwrap();
        // The input stays open: the line must come out anyway.
        let got = rx.recv_timeout(Duration::from_secs(20));
        assert_eq!(got.as_deref(), Ok(want));
    }
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

#[test]
fn rules_of_one_profile() {
    let ran = run(&["rules", "safe-browsing"], b"").ok();
    let names: Vec<String> = ran
        .out()
        .lines()
        .skip(1)
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect();
    assert!(names.contains(&"drop-fragment".to_string()), "{names:?}");
    assert!(!names.contains(&"sort-query".to_string()), "{names:?}");
    let all = run(&["rules"], b"").ok();
    assert!(all.out().contains("in: aggressive"), "{}", all.out());
    run(&["rules", "nope"], b"").failed(&["unknown profile", "wayback"]);
}

#[test]
fn completions_and_man_page() {
    for shell in ["bash", "zsh", "fish"] {
        let ran = run(&["completions", shell], b"").ok();
        assert!(ran.out().contains("line-buffered"), "{shell}");
    }
    run(&["completions", "tcsh"], b"").failed(&["tcsh"]);
    let man = run(&["man"], b"").ok();
    assert!(man.out().starts_with(".ie") || man.out().contains(".TH normurl 1"));
    assert!(man.out().contains("line\\-buffered"), "{}", man.out());
}

#[test]
fn output_names_the_output_file_and_get_what_to_write() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.txt");
    let p = path.to_str().unwrap();
    let ran = run(&["--output", p, "--get", "host"], b"HTTP://A.com:8080/x\n").ok();
    assert!(ran.stdout.is_empty());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "a.com:8080\n");
    run(&["-o", p, "-g", "surt"], b"http://www.a.com/x\n").ok();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "com,a)/x\n");
    // The old spellings are gone.
    run(&["--output-file", p], b"").failed(&["--output-file"]);
    run(&["--output", "surt", "--output", p], b"x\n").ok();
}
