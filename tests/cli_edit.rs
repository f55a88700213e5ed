//! Editing URLs in bulk (`--set`, `--append`, `--set-param`,
//! `--delete-param`) and reading parameters (`{query:NAME}`,
//! `{query-all:NAME}`, `:decoded` forms, `--json`'s `params`), running the
//! built binary; with differential tests of `--set` against Node's `URL`
//! setters and of `{query:NAME}` against Python's `urllib.parse.parse_qs`
//! on the corpora.

mod common;

use std::collections::HashMap;
use std::process::Command;

use common::bin::Ran;

fn run(args: &[&str], stdin: &str) -> Ran {
    common::bin::run(args, stdin.as_bytes())
}

#[track_caller]
fn ok(args: &[&str], stdin: &str) -> String {
    run(args, stdin).ok().out()
}

#[test]
fn set_each_component() {
    let url = "http://u:p@a.example:8080/p?q=1#f\n";
    for (spec, expected) in [
        ("scheme=https", "https://u:p@a.example:8080/p?q=1#f"),
        ("protocol=ws:", "ws://u:p@a.example:8080/p?q=1#f"),
        ("username=me", "http://me:p@a.example:8080/p?q=1#f"),
        ("password=", "http://u@a.example:8080/p?q=1#f"),
        ("host=b.example", "http://u:p@b.example:8080/p?q=1#f"),
        ("hostname=B.example", "http://u:p@b.example:8080/p?q=1#f"),
        ("port=", "http://u:p@a.example/p?q=1#f"),
        ("port=81", "http://u:p@a.example:81/p?q=1#f"),
        ("path=/a b", "http://u:p@a.example:8080/a%20b?q=1#f"),
        ("pathname=x", "http://u:p@a.example:8080/x?q=1#f"),
        ("query=", "http://u:p@a.example:8080/p#f"),
        ("search=?z=é", "http://u:p@a.example:8080/p?z=%C3%A9#f"),
        ("fragment=", "http://u:p@a.example:8080/p?q=1"),
        ("hash=top", "http://u:p@a.example:8080/p?q=1#top"),
    ] {
        assert_eq!(ok(&["--set", spec], url), format!("{expected}\n"), "{spec}");
    }
}

#[test]
fn append_query_and_path() {
    assert_eq!(
        ok(
            &["--append", "query=q=a b&c", "--append", "query=flag"],
            "http://a.example/x?k=%7e\nhttp://a.example/\n"
        ),
        "http://a.example/x?k=%7e&q=a+b%26c&flag\nhttp://a.example/?q=a+b%26c&flag\n"
    );
    assert_eq!(
        ok(
            &["--append", "path=b c", "--append", "path=d/e"],
            "http://a.example/a\nhttp://a.example/a/\n"
        ),
        "http://a.example/a/b%20c/d%2Fe\nhttp://a.example/a/b%20c/d%2Fe\n"
    );
}

#[test]
fn set_and_delete_params() {
    assert_eq!(
        ok(
            &["--set-param", "page=2 b"],
            "http://a.example/?page=1&x=%20&page=3\nhttp://a.example/\n"
        ),
        "http://a.example/?page=2+b&x=+\nhttp://a.example/?page=2+b\n"
    );
    assert_eq!(
        ok(
            &["--delete-param", "utm_*,fbclid"],
            "http://a.example/?utm_source=a&id=1&fbclid=x\n\
             http://a.example/?utm_medium=1#f\n\
             http://a.example/?keep=%7e\n"
        ),
        // The last has none: its query keeps its bytes.
        "http://a.example/?id=1\nhttp://a.example/#f\nhttp://a.example/?keep=%7e\n"
    );
}

#[test]
fn edits_apply_in_command_line_order() {
    let url = "http://a.example/?a=1\n";
    assert_eq!(
        ok(&["--set-param", "a=2", "--delete-param", "a"], url),
        "http://a.example/\n"
    );
    assert_eq!(
        ok(&["--delete-param", "a", "--set-param", "a=2"], url),
        "http://a.example/?a=2\n"
    );
    assert_eq!(
        ok(
            &[
                "--set",
                "port=81",
                "--set",
                "host=b.example",
                "--set",
                "port="
            ],
            url
        ),
        "http://b.example/?a=1\n"
    );
}

#[test]
fn edits_come_before_the_rules_and_keys() {
    // The profile strips the parameter the edit added, and the key is
    // that of the edited URL.
    assert_eq!(
        ok(
            &[
                "-p",
                "aggressive",
                "--set-param",
                "utm_source=x",
                "--set",
                "host=www.b.example"
            ],
            "http://a.example/p?z=1\n"
        ),
        "http://b.example/p?z=1\n"
    );
    assert_eq!(
        ok(
            &["-g", "surt", "--set", "scheme=https"],
            "http://a.example/p\n"
        ),
        "example,a)/p\n"
    );
    assert_eq!(
        ok(
            &["-g", "host", "--set", "host=b.example:81"],
            "http://a.example/p\n"
        ),
        "b.example:81\n"
    );
    // Dedup compares the edited URLs.
    assert_eq!(
        ok(
            &["-u", "--delete-param", "sid"],
            "http://a.example/?sid=1\nhttp://a.example/?sid=2\nhttp://a.example/\n"
        ),
        "http://a.example/\n"
    );
    // Fields and JSON objects are edited in place.
    assert_eq!(
        ok(
            &["-f", "2", "--set", "scheme=https"],
            "x http://a.example/ y\n"
        ),
        "x https://a.example/ y\n"
    );
}

#[test]
fn refused_setters_are_visible() {
    let input = "http://a.example/\nmailto:x@y.example\nnot a url\n";
    assert_eq!(
        ok(
            &["--set", "scheme=https", "--set", "hash=h", "--explain"],
            input
        ),
        "https://a.example/#h\tedit\n\
         mailto:x@y.example#h\tedit,edit-refused\n\
         not a url\tinvalid:relative-without-base\n"
    );
    assert_eq!(
        ok(
            &["--set", "port=81", "--explain"],
            "http://a.example:81/\nhttp://a.example/\n"
        ),
        "http://a.example:81/\t-\nhttp://a.example:81/\tedit\n"
    );
    let dir = tempfile::tempdir().unwrap();
    let stats = dir.path().join("stats.json");
    let ran = run(
        &[
            "--set",
            "port=x",
            "--stats",
            "--stats-json",
            stats.to_str().unwrap(),
        ],
        input,
    )
    .ok();
    assert_eq!(ran.out(), input, "a refused edit leaves the URL as it was");
    assert!(ran.stderr.contains("edits refused"), "{}", ran.stderr);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).unwrap();
    assert_eq!(json["edits_refused"], 2);
    assert_eq!(json["valid"], 2);
}

#[test]
fn bad_specs_are_usage_errors() {
    for (args, needle) in [
        (&["--set", "schema=x"][..], "unknown component \"schema\""),
        (&["--set", "scheme"][..], "expected COMPONENT=VALUE"),
        (&["--append", "host=x"][..], "--append: unknown component"),
        (&["--append", "query"][..], "expected query=NAME=VALUE"),
        (&["--set-param", "a"][..], "expected NAME=VALUE"),
        (&["--delete-param", "*"][..], "--delete-param"),
        (&["--relative", "--set", "port=1"][..], "--relative"),
    ] {
        let ran = run(args, "http://a.example/\n").failed(&[needle]);
        assert_eq!(ran.stderr.lines().count(), 1, "{}", ran.stderr);
        assert!(ran.stdout.is_empty());
    }
}

#[test]
fn help_and_rules_list_the_edits() {
    let help = ok(&["--help"], "");
    let rules = ok(&["rules"], "");
    for option in ["--set", "--append", "--set-param", "--delete-param"] {
        assert!(
            help.contains(&format!("{option} <")),
            "{option} not in --help"
        );
        assert!(
            rules.contains(&format!("  {option} ")),
            "{option} not in rules"
        );
    }
    for template in ["query:NAME", "query-all:NAME", "pathname:decoded"] {
        assert!(rules.contains(template), "{template} not in rules");
    }
}

#[test]
fn templates_read_parameters_and_decoded_forms() {
    let input =
        "https://a.example/caf%C3%A9/a%20b?q=rust+url%21&id=1&id=2&e=&utm_source=news#x%20y\n\
                 https://a.example/\n";
    assert_eq!(
        ok(
            &[
                "-g",
                r"{query:q}|{query-all:id}|{query:e}|{query:none}|{pathname:decoded}|{hash:decoded}"
            ],
            input
        ),
        "rust url!|1,2|||/café/a b|#x y\n||||/|\n"
    );
    assert_eq!(ok(&["-g", "query:utm_source"], input), "news\n\n");
    // After the profile's rules: aggressive strips utm_source.
    assert_eq!(
        ok(&["-p", "aggressive", "-g", "{query:utm_source}"], input),
        "\n\n"
    );
    // A header names the columns.
    assert_eq!(
        ok(
            &[
                "--csv",
                "--header",
                "-f",
                "1",
                "--add-field",
                "last",
                "-g",
                "{query:q}"
            ],
            "url\nhttp://a.example/?q=1\n"
        ),
        "url,query:q\nhttp://a.example/?q=1,1\n"
    );
    run(&["-g", "{host:decoded}"], "").failed(&["only href, username"]);
}

#[test]
fn json_objects_have_params() {
    let out = ok(
        &["--json"],
        "http://a.example/?a=1&&b&c=%22+x&a=2\nhttp://a.example/\n",
    );
    let objects: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        objects[0]["params"],
        serde_json::json!([["a", "1"], ["b", ""], ["c", "\" x"], ["a", "2"]])
    );
    assert_eq!(objects[1]["params"], serde_json::json!([]));
}

/// The corpora's lines that are valid UTF-8 without a tab, joined.
fn corpus_input() -> String {
    let mut text = String::new();
    for (_, line) in common::all_corpus_lines() {
        if !line.contains(['\t', '\r']) {
            text.push_str(&line);
            text.push('\n');
        }
    }
    text
}

/// Node's answers for `edits` (see scripts/url-setters.mjs): per line,
/// the URL as parsed and as edited, `None` for no URL.
fn node_edits(input: &str, edits: &[String]) -> Vec<Option<(String, String)>> {
    let mut child = Command::new("node")
        .arg("scripts/url-setters.mjs")
        .args(edits)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("run node");
    let mut stdin = child.stdin.take().unwrap();
    let text = input.to_owned();
    let feeder = std::thread::spawn(move || {
        use std::io::Write;
        stdin.write_all(text.as_bytes()).unwrap();
    });
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    assert!(out.status.success(), "node failed");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            l.split_once('\t')
                .map(|(a, b)| (a.to_owned(), b.to_owned()))
        })
        .collect()
}

fn have(tool: &str) -> bool {
    Command::new(tool).arg("--version").output().is_ok()
}

/// `--set` of every component, and `--set-param`, give what Node's `URL`
/// setters give on every corpus URL that both parse the same.
#[test]
fn set_matches_node_on_the_corpora() {
    if !have("node") {
        eprintln!("SKIPPED: node is not installed; the differential test of --set needs it");
        return;
    }
    let input = corpus_input();
    let plain = ok(&["--on-invalid=empty"], &input);
    let plain: Vec<&str> = plain.lines().collect();
    let cases: &[(&[&str], &[&str])] = &[
        (&["--set", "scheme=https"], &["set:protocol=https"]),
        (&["--set", "protocol=ftp"], &["set:protocol=ftp"]),
        (&["--set", "scheme=web+x"], &["set:protocol=web+x"]),
        (&["--set", "username=us er@"], &["set:username=us er@"]),
        (&["--set", "password=p:w%"], &["set:password=p:w%"]),
        (
            &["--set", "host=Example.ORG:8080"],
            &["set:host=Example.ORG:8080"],
        ),
        (
            &["--set", "host=bücher.example"],
            &["set:host=bücher.example"],
        ),
        (&["--set", "hostname=[::1]"], &["set:hostname=[::1]"]),
        (&["--set", "hostname="], &["set:hostname="]),
        (&["--set", "port=8443"], &["set:port=8443"]),
        (&["--set", "port="], &["set:port="]),
        (&["--set", "port=443x"], &["set:port=443x"]),
        (
            &["--set", "path=/a b/../c%zz\\d"],
            &["set:pathname=/a b/../c%zz\\d"],
        ),
        (&["--set", "pathname="], &["set:pathname="]),
        (&["--set", "query=q=a b&é=#"], &["set:search=q=a b&é=#"]),
        (&["--set", "search="], &["set:search="]),
        (&["--set", "fragment=f g#`"], &["set:hash=f g#`"]),
        (&["--set", "hash="], &["set:hash="]),
        (&["--set-param", "q=a b&c"], &["param:q=a b&c"]),
        (
            &[
                "--set",
                "scheme=https",
                "--set",
                "port=80",
                "--set",
                "hash=x",
            ],
            &["set:protocol=https", "set:port=80", "set:hash=x"],
        ),
    ];
    let mut compared = 0;
    for (args, node) in cases {
        let mut with = vec!["--on-invalid=empty"];
        with.extend_from_slice(args);
        let ours = ok(&with, &input);
        let ours: Vec<&str> = ours.lines().collect();
        let node: Vec<String> = node.iter().map(|s| s.to_string()).collect();
        let theirs = node_edits(&input, &node);
        assert_eq!(ours.len(), theirs.len(), "{args:?}: line counts");
        assert_eq!(plain.len(), theirs.len());
        let mut differ = Vec::new();
        for ((ours, before), theirs) in ours.iter().zip(&plain).zip(&theirs) {
            // Only where both parse the line to the same URL: the parsers
            // are compared elsewhere (tests/differential.rs).
            let Some((node_before, node_after)) = theirs else {
                continue;
            };
            if node_before != before {
                continue;
            }
            compared += 1;
            if ours != node_after {
                differ.push(format!("{before} -> {ours} (node: {node_after})"));
            }
        }
        assert!(
            differ.is_empty(),
            "{args:?}: {} differ, e.g. {:?}",
            differ.len(),
            &differ[..differ.len().min(5)]
        );
    }
    assert!(compared > 100_000, "only {compared} lines compared");
}

/// `{query:NAME}` gives Python's `parse_qs(query, keep_blank_values=True)`
/// first value of NAME on the corpora's http(s) URLs, for the most common
/// parameter names; both split on `&` only (Python 3.10 on), so they agree
/// on splitting: `;` separates nothing in either (docs/editing.md).
#[test]
fn query_param_matches_python_parse_qs_on_the_corpora() {
    if !have("python3") {
        eprintln!("SKIPPED: python3 is not installed");
        return;
    }
    let input: String = corpus_input()
        .lines()
        .filter(|l| l.starts_with("http://") || l.starts_with("https://"))
        .map(|l| format!("{l}\n"))
        .collect();
    let urls = ok(&["--on-invalid=skip"], &input);
    // The most common names, as the standard's parser reads them.
    let mut counts: HashMap<String, usize> = HashMap::new();
    for url in urls.lines() {
        let url = normurl::Url::parse(url).unwrap();
        for (name, _) in url.search_params().iter() {
            if !name.contains(['}', '\t', '\n', '\\', '{']) && !name.is_empty() {
                *counts.entry(name.to_owned()).or_default() += 1;
            }
        }
    }
    let mut names: Vec<(String, usize)> = counts.into_iter().collect();
    names.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    names.truncate(25);
    assert!(names.len() >= 10 && names[0].1 > 100, "{names:?}");
    let template: Vec<String> = names
        .iter()
        .map(|(n, _)| format!("{{query:{n}}}"))
        .collect();
    let ours = ok(&["-g", &template.join(r"\t")], &urls);
    let script = r#"
import sys, json
from urllib.parse import urlsplit, parse_qs
names = json.loads(sys.argv[1])
out = []
for line in sys.stdin.read().split("\n")[:-1]:
    qs = parse_qs(urlsplit(line).query, keep_blank_values=True)
    out.append("\t".join(qs.get(n, [""])[0] for n in names))
sys.stdout.write("\n".join(out) + "\n")
"#;
    let names_json =
        serde_json::to_string(&names.iter().map(|n| &n.0).collect::<Vec<_>>()).unwrap();
    let mut child = Command::new("python3")
        .args(["-c", script, &names_json])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let text = urls.clone();
    let feeder = std::thread::spawn(move || {
        use std::io::Write;
        stdin.write_all(text.as_bytes()).unwrap();
    });
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    assert!(out.status.success());
    let theirs = String::from_utf8(out.stdout).unwrap();
    let (ours, theirs): (Vec<&str>, Vec<&str>) = (ours.lines().collect(), theirs.lines().collect());
    assert_eq!(ours.len(), theirs.len());
    assert!(ours.len() > 50_000, "{}", ours.len());
    let mut differ = Vec::new();
    let mut with_values = 0;
    for ((o, t), url) in ours.iter().zip(&theirs).zip(urls.lines()) {
        with_values += usize::from(o.chars().any(|c| c != '\t'));
        if o != t {
            differ.push(format!("{url}: {o:?} vs {t:?}"));
        }
    }
    assert!(with_values > 1000, "{with_values}");
    assert!(
        differ.is_empty(),
        "{} differ: {:?}",
        differ.len(),
        &differ[..differ.len().min(5)]
    );
}
