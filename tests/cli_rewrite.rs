//! `--rewrite FILE`: regex substitutions on the canonical URL, after the
//! profile and before components and dedup, with the file's tests checked
//! at load time; running the built binary.

mod common;

use common::bin::Ran;

fn run(args: &[&str], stdin: &str) -> Ran {
    common::bin::run(args, stdin.as_bytes())
}

#[track_caller]
fn ok(args: &[&str], stdin: &str) -> String {
    run(args, stdin).ok().out()
}

/// A rules file in a temporary directory: (the directory, its path).
fn rules(text: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = common::bin::file(&dir, "rewrite.txt", text.as_bytes());
    (dir, path)
}

const MOBILE: &str = "# mobile hosts are the same site\n\
                      s|^https://m\\.|https://|\n\
                      /amp$\t\n\
                      test https://M.a.com/x/amp https://a.com/x\n";

#[test]
fn rewrites_after_the_profile_and_explains() {
    let (_dir, file) = rules(MOBILE);
    let input = "https://www.m.a.com/p/amp?utm_source=x\nhttps://b.com/\nhttps://m.c.com/a?b=1\n";
    assert_eq!(
        ok(
            &["-p", "aggressive", "--rewrite", &file, "--explain"],
            input
        ),
        "https://a.com/p\tstrip-www,strip-tracking,rewrite\n\
         https://b.com/\t-\n\
         https://c.com/a?b=1\trewrite\n"
    );
}

#[test]
fn a_rewrite_to_no_url_is_invalid() {
    let (dir, file) = rules("s|^https://bad\\.|nope|\n");
    let rejects = dir.path().join("rejects.txt");
    let input = "https://bad.com/\nhttps://ok.com/\n";
    let args = [
        "--rewrite",
        &file,
        "--rejects",
        rejects.to_str().unwrap(),
        "--explain",
    ];
    assert_eq!(
        ok(&args, input),
        "https://bad.com/\tinvalid:rewrite-invalid\nhttps://ok.com/\t-\n"
    );
    let rejected = std::fs::read_to_string(&rejects).unwrap();
    assert_eq!(rejected, "1\trewrite-invalid\thttps://bad.com/\n");
    assert_eq!(
        ok(&["--rewrite", &file, "--on-invalid", "skip"], input),
        "https://ok.com/\n"
    );
}

#[test]
fn rewritten_urls_are_written_as_serialized() {
    // A rewrite that writes uppercase and a space gives the parsed URL.
    let (_dir, file) = rules("s|/old/|/New Dir/|\ns|^https://a\\.com|HTTPS://A.COM|\n");
    assert_eq!(
        ok(&["--rewrite", &file], "https://a.com/old/x\n"),
        "https://a.com/New%20Dir/x\n"
    );
}

#[test]
fn components_dedup_and_bases_see_the_rewritten_url() {
    let (_dir, file) = rules(MOBILE);
    let input = "https://m.a.com/x\nhttps://a.com/x/amp\nhttps://b.com/\n";
    assert_eq!(
        ok(&["--rewrite", &file, "--get", "host"], input),
        "a.com\na.com\nb.com\n"
    );
    assert_eq!(
        ok(&["--rewrite", &file, "--dedup"], input),
        "https://a.com/x\nhttps://b.com/\n"
    );
    assert_eq!(
        ok(
            &["--rewrite", &file, "--base", "https://m.a.com/d/"],
            "x/amp\n"
        ),
        "https://a.com/d/x\n"
    );
}

#[test]
fn keys_are_rewritten_as_text() {
    let (_dir, file) = rules("s|^com,|org,|\n");
    assert_eq!(
        ok(&["--rewrite", &file, "--get", "surt"], "https://a.com/x\n"),
        "org,a)/x\n"
    );
}

#[test]
fn file_tests_fail_the_run_naming_file_and_line() {
    for (text, profile, needles) in [
        (
            "s|/old/|/new/|\n\ntest https://a.com/old/ https://a.com/old/\n",
            "whatwg",
            vec![":3: ", "gives https://a.com/new/, not https://a.com/old/"],
        ),
        (
            // The profile strips the slash the rule adds: no fixed point.
            "s|/x$|/y/|\ntest https://a.com/x https://a.com/y/\n",
            "aggressive",
            vec![":2: ", "which gives https://a.com/y:", "not idempotent"],
        ),
        (
            "s|/x$|/x/x|\ntest https://a.com/x https://a.com/x/x\n",
            "whatwg",
            vec![":2: ", "which gives https://a.com/x/x/x:", "not idempotent"],
        ),
        ("s|(|x|\n", "whatwg", vec![":1: ", "unclosed group"]),
        ("s|a|$2|\n", "whatwg", vec![":1: ", "$2"]),
        (
            "just words\n",
            "whatwg",
            vec![":1: ", "is not s|REGEX|REPLACEMENT|"],
        ),
    ] {
        let (_dir, file) = rules(text);
        let ran = run(&["-p", profile, "--rewrite", &file], "https://a.com/\n");
        let needle = format!("--rewrite {file}{}", needles[0]);
        let ran = ran.failed(&[&needle]).failed(&needles[1..]);
        assert_eq!(ran.stderr.lines().count(), 1, "{}", ran.stderr);
        assert!(ran.stdout.is_empty());
    }
    run(&["--rewrite", "/nonexistent/rules"], "").failed(&["/nonexistent/rules"]);
}

#[test]
fn rewrite_is_documented_and_not_for_relative_output() {
    let help = ok(&["--help"], "");
    assert!(help.contains("--rewrite <FILE>"), "{help}");
    assert!(ok(&["rules"], "").contains("--rewrite"));
    let (_dir, file) = rules(MOBILE);
    let ran = run(&["--rewrite", &file, "--relative"], "");
    assert_eq!(ran.code, Some(2), "{}", ran.stderr);
}
