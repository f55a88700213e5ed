//! `--dedup` and `--count` through the binary: the same bytes at every
//! thread count and batch size, spilled or not; `--count`'s formats; the
//! CPU seconds per stage in `--stats` and `--stats-json`.

mod common;

use common::bin::{normurl, run, run_command};

/// URLs with duplicates far apart and close together, some differing only
/// in what normalization removes, and invalid lines among them.
fn input() -> String {
    let mut s = String::new();
    for i in 0..4000u64 {
        let k = (i * 7919) % 1500;
        match i % 211 {
            7 => s.push_str("not a url\n"),
            8 => s.push_str(&format!("HTTP://H{k}.Example:80/p\n")),
            _ => s.push_str(&format!("http://h{k}.example/p?q={}\n", k % 7)),
        }
    }
    s
}

/// The output, rejects and counts of `normurl ARGS --stats-json` on
/// `input`, with the timing fields left out.
fn run_all(args: &[&str], input: &str) -> (Vec<u8>, Vec<u8>, String) {
    let dir = tempfile::tempdir().unwrap();
    let (rejects, stats) = (dir.path().join("rejects"), dir.path().join("stats"));
    let mut cmd = normurl();
    cmd.args(args)
        .arg("--rejects")
        .arg(&rejects)
        .arg("--stats-json")
        .arg(&stats)
        .env("TMPDIR", dir.path());
    let ran = run_command(&mut cmd, input.as_bytes()).ok();
    let stats = std::fs::read_to_string(&stats).unwrap();
    let v: serde_json::Value = serde_json::from_str(&stats).unwrap();
    let counts: Vec<String> = v
        .as_object()
        .unwrap()
        .iter()
        .filter(|(k, _)| !k.contains("second") && *k != "cpu_seconds")
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    // Spill files are gone.
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(left.len(), 2, "{left:?}");
    (
        ran.stdout,
        std::fs::read(&rejects).unwrap(),
        counts.join(" "),
    )
}

#[test]
fn dedup_and_count_are_the_same_at_every_thread_count_and_batch_size() {
    let input = input();
    for mode in [&["-u"][..], &["--count"], &["--count", "-g", "host"]] {
        let reference = run_all(&[mode, &["-j", "1"]].concat(), &input);
        assert!(!reference.0.is_empty());
        for j in ["1", "2", "3", "8"] {
            for batch in ["1K", "64K"] {
                // 64K spills; 1G does not.
                for memory in ["1G", "64K"] {
                    let args = [
                        mode,
                        &["-j", j, "--batch-bytes", batch, "--dedup-memory", memory],
                    ]
                    .concat();
                    let got = run_all(&args, &input);
                    assert!(got == reference, "{args:?} differs from -j 1");
                }
            }
        }
    }
}

#[test]
fn dedup_keeps_the_first_line_of_each_url() {
    let out = run(
        &["-u", "-j", "3", "--batch-bytes", "1K"],
        b"http://a/\nhttp://b/\nHTTP://A:80/\nbad\nhttp://b\nhttp://c/\n",
    )
    .ok();
    assert_eq!(out.out(), "http://a/\nhttp://b/\nbad\nhttp://c/\n");
}

#[test]
fn count_writes_count_tab_value_in_first_occurrence_order() {
    let input = "http://b/\nhttp://a/\nHTTP://B:80/\nhttp://b/\nhttp://a\nhttp://c/\n";
    for memory in ["1G", "1K"] {
        let out = run(&["--count", "--dedup-memory", memory], input.as_bytes()).ok();
        assert_eq!(out.out(), "3\thttp://b/\n2\thttp://a/\n1\thttp://c/\n");
    }
    // -c is --count; -u with it changes nothing.
    let out = run(&["-c", "-u"], input.as_bytes()).ok();
    assert_eq!(out.out(), "3\thttp://b/\n2\thttp://a/\n1\thttp://c/\n");
}

#[test]
fn count_of_a_component() {
    let input = "http://www.a.example/x\nhttps://b.example/\nhttp://c.a.example/y\n";
    let out = run(&["--count", "-g", "registered_domain"], input.as_bytes()).ok();
    assert_eq!(out.out(), "2\ta.example\n1\tb.example\n");
}

#[test]
fn count_as_json_adds_a_count_member() {
    let input = "http://a/\nhttp://b/\nhttp://a/\n";
    let out = run(&["--count", "--json"], input.as_bytes()).ok();
    let lines: Vec<serde_json::Value> = out
        .out()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2, "{}", out.out());
    assert_eq!(lines[0]["href"], "http://a/");
    assert_eq!(lines[0]["count"], 2);
    assert_eq!(lines[0]["line"], 1);
    assert_eq!(lines[1]["count"], 1);
    assert_eq!(lines[1]["line"], 2);
}

#[test]
fn count_with_a_field_and_a_header() {
    let input = "n\turl\n1\thttp://a/\n2\thttp://b/\n3\tHTTP://A/\n";
    let out = run(
        &["--count", "-f", "2", "-d", "\\t", "--header"],
        input.as_bytes(),
    )
    .ok();
    assert_eq!(
        out.out(),
        "count\tn\turl\n2\t1\thttp://a/\n1\t2\thttp://b/\n"
    );
    // With --csv the count column is a CSV column.
    let csv = "n,url\n1,http://a/\n2,\"http://a/\"\n";
    let out = run(&["--count", "-f", "2", "--csv", "--header"], csv.as_bytes()).ok();
    assert_eq!(out.out(), "count,n,url\n2,1,http://a/\n");
}

#[test]
fn count_keeps_lines_without_a_key_in_their_place() {
    let input = "http://a/\nbad\nhttp://a/\n";
    let out = run(&["--count"], input.as_bytes()).ok();
    assert_eq!(out.out(), "2\thttp://a/\nbad\n");
    let out = run(&["--count", "--on-invalid", "skip"], input.as_bytes()).ok();
    assert_eq!(out.out(), "2\thttp://a/\n");
}

#[test]
fn stats_give_cpu_seconds_per_stage() {
    let input = "http://a/\nhttp://b/\nhttp://a/\n".repeat(2000);
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("s.json");
    let ran = run_command(
        normurl()
            .args(["-u", "-j", "2", "--stats", "--stats-json"])
            .arg(&json),
        input.as_bytes(),
    )
    .ok();
    for stage in ["read", "workers", "dedup", "write", "other", "total"] {
        assert!(
            ran.stderr.contains(&format!("cpu {stage} ")),
            "{stage}: {}",
            ran.stderr
        );
    }
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let cpu = &v["cpu_seconds"];
    let stages: f64 = ["read", "workers", "dedup", "write", "other"]
        .iter()
        .map(|s| cpu[*s].as_f64().unwrap())
        .sum();
    let total = cpu["total"].as_f64().unwrap();
    assert!(total > 0.0, "{cpu}");
    // The stages add up to the total (each is rounded to milliseconds).
    assert!((stages - total).abs() < 0.01, "{cpu}");
    assert_eq!(v["deduplicated"], 5998);
}

#[test]
fn bench_stages_gives_the_pipelines_cpu_per_stage() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("urls.txt");
    std::fs::write(&path, "http://a/\nhttp://b/\n".repeat(500)).unwrap();
    let path = path.to_str().unwrap();
    let ran = run(&["bench", "--runs", "1", "-j", "2", "--stages", path], b"").ok();
    let line = ran
        .out()
        .lines()
        .find(|l| l.contains("pipeline at -j 2"))
        .unwrap_or_else(|| panic!("{}", ran.out()))
        .to_string();
    for stage in ["read", "workers", "dedup", "write", "other", "total"] {
        assert!(line.contains(&format!(" {stage} ")), "{line}");
    }
    let ran = run(
        &[
            "bench", "--runs", "1", "-j", "2", "--stages", "--json", path,
        ],
        b"",
    )
    .ok();
    let last: serde_json::Value = serde_json::from_str(ran.out().lines().last().unwrap()).unwrap();
    assert_eq!(last["parser"], "pipeline stages");
    assert!(last["cpu_total"].as_f64().unwrap() > 0.0, "{last}");
}
