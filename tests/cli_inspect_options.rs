//! `normurl inspect` with the normalize command's rule options
//! (`--keep-params`, `--index-files`, `--redirects`, `--query-separators`,
//! `--param-rules`, `--rewrite`), `--strip-params` and `--default-scheme`:
//! their rules as steps, the rewrite as a step after them; running the
//! built binary.

mod common;

use common::bin::{file, run, Ran};
use serde_json::Value;

/// The JSON of a successful `inspect`, and its text.
#[track_caller]
fn inspect(args: &[&str]) -> (Value, String) {
    let mut all = vec!["inspect"];
    all.extend_from_slice(args);
    let out = run(&all, b"").ok().out();
    let v = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    (v, out)
}

/// The steps of an `inspect` output, as (rule, URL after it), in the
/// order written (serde_json's map is sorted: the text says the order).
fn steps((v, text): &(Value, String)) -> Vec<(String, String)> {
    let mut all: Vec<(usize, String, String)> = v["rules"]
        .as_object()
        .unwrap_or_else(|| panic!("no rules in {text}"))
        .iter()
        .map(|(k, v)| {
            let at = text.find(&format!("\"{k}\":")).unwrap();
            (at, k.clone(), v.as_str().unwrap().to_owned())
        })
        .collect();
    all.sort();
    all.into_iter().map(|(_, k, v)| (k, v)).collect()
}

#[test]
fn param_rules_show_the_domain_params_step() {
    let dir = tempfile::tempdir().unwrap();
    let rules = file(&dir, "rules.txt", b"a.example strip ref\n");
    let out = inspect(&["--param-rules", &rules, "https://a.example/?ref=1&x=2"]);
    assert_eq!(
        steps(&out),
        [("domain-params".into(), "https://a.example/?x=2".into())]
    );
    assert_eq!(out.0["canonical"], "https://a.example/?x=2");
}

#[test]
fn lists_turn_their_rules_on_as_normalize_does() {
    let dir = tempfile::tempdir().unwrap();
    let redirects = file(&dir, "redirects.txt", b"t.example.com /out u\n");
    let url = "https://t.example.com/out?u=https%3A%2F%2Fa.com%2Fx%2Fhome.html%3Fid%3D1%3Bz%3D2%26y%3D3%26w%3D4";
    let out = inspect(&[
        "--redirects",
        &redirects,
        "--index-files",
        "home.html",
        "--query-separators",
        "&;",
        "--keep-params",
        "id,z",
        "--strip-params",
        "y",
        "--rules",
        "+strip-tracking",
        url,
    ]);
    let names: Vec<String> = steps(&out).into_iter().map(|(k, _)| k).collect();
    assert_eq!(
        names,
        [
            "unwrap-redirects",
            "strip-directory-index",
            "semicolon-separators",
            "strip-tracking",
            "keep-params"
        ],
        "{}",
        out.1
    );
    // The same canonical URL as the normalize command's.
    let normalized = run(
        &[
            "--redirects",
            &redirects,
            "--index-files",
            "home.html",
            "--query-separators",
            "&;",
            "--keep-params",
            "id,z",
            "--strip-params",
            "y",
            "--rules",
            "+strip-tracking",
        ],
        format!("{url}\n").as_bytes(),
    )
    .ok()
    .out();
    assert_eq!(out.0["canonical"], normalized.trim_end());
    assert_eq!(out.0["canonical"], "https://a.com/x/?id=1&z=2");
}

#[test]
fn rewrite_is_a_step_after_the_rules() {
    let dir = tempfile::tempdir().unwrap();
    let rewrite = file(&dir, "rewrite.txt", b"s|^https://m\\.|https://|\n");
    let out = inspect(&[
        "-p",
        "aggressive",
        "--rewrite",
        &rewrite,
        "-g",
        "host",
        "https://www.m.a.com/p/?utm_source=x",
    ]);
    let all = steps(&out);
    assert_eq!(
        all.last().unwrap(),
        &("rewrite".into(), "https://a.com/p".into())
    );
    assert_eq!(all[0].0, "strip-www");
    assert_eq!(out.0["canonical"], "https://a.com/p");
    assert_eq!(out.0["get"], "a.com");
    // Without a profile, the rewrite alone is a step.
    let out = inspect(&["--rewrite", &rewrite, "https://m.b.com/"]);
    assert_eq!(steps(&out), [("rewrite".into(), "https://b.com/".into())]);
}

#[test]
fn a_rewrite_to_no_url_is_an_invalid_url() {
    let dir = tempfile::tempdir().unwrap();
    let rewrite = file(&dir, "rewrite.txt", b"s|^https://|nope|\n");
    let ran = run(&["inspect", "--rewrite", &rewrite, "https://a.com/"], b"");
    assert_eq!(ran.code, Some(1), "{}", ran.stderr);
    let v: Value = serde_json::from_slice(&ran.stdout).unwrap();
    assert_eq!(v["error"], "rewrite-invalid");
    assert_eq!(v["rules"]["rewrite"], "nopea.com/");
    assert!(v.get("canonical").is_none(), "{v}");
}

#[test]
fn default_scheme_parses_scheme_less_urls() {
    let (v, _) = inspect(&["--default-scheme", "https", "Example.com/a"]);
    assert_eq!(v["href"], "https://example.com/a");
    run(&["inspect", "--default-scheme", "ftp", "example.com/"], b"").failed(&["--default-scheme"]);
    run(
        &[
            "inspect",
            "--default-scheme",
            "http",
            "--base",
            "http://a/",
            "x",
        ],
        b"",
    )
    .failed(&["--base", "--default-scheme"]);
}

#[test]
fn errors_are_the_normalize_commands() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.txt").display().to_string();
    let bad = file(&dir, "bad.txt", b"a.com frob x\n");
    let same = |args: &[&str]| -> Ran {
        let mut inspect = vec!["inspect"];
        inspect.extend_from_slice(args);
        inspect.push("http://a/");
        let ran = run(&inspect, b"").failed(&[]);
        let normalized = run(args, b"").failed(&[]);
        assert_eq!(ran.stderr, normalized.stderr);
        ran
    };
    // A bad rule name before any file is read.
    same(&["--param-rules", &missing, "--rules", "+nope"]).failed(&["--rules"]);
    same(&["--param-rules", &bad]).failed(&[&format!("--param-rules {bad}:1: ")]);
    same(&["--keep-params", &format!("@{missing}")]).failed(&[&missing]);
    same(&["--query-separators", ","]);
    let rewrite = file(
        &dir,
        "rewrite.txt",
        b"s|a|b|\ntest https://a.com/ https://a.com/\n",
    );
    same(&["--rewrite", &rewrite]).failed(&[&format!("--rewrite {rewrite}:2: ")]);
}
