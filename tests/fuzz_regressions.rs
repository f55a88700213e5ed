//! The fuzz targets' checks (fuzz/src) on inputs that once made a target
//! fail and on hand-picked pathological inputs.
//!
//! - Every file in tests/data/fuzz-regressions/TARGET/ (fuzz/run.sh copies
//!   each crash there) goes through the `parse`, `idempotence` and `canon`
//!   checks, and the files of `differential/` through the differential
//!   check too; the files of `pipeline/` go through the pipeline check,
//!   and those of `command/` through the command check.
//! - Pathological inputs (100k `../` segments, 100k nested `%25`, huge
//!   ports, long IPv6 forms, 10k `@`, a 1 MB host, lone `%`, ...) go through
//!   every URL check (parse, idempotence, differential, canon), and each
//!   must parse with a heap peak and an href linear in its length.
//! - Every byte 0..=255 (bytes above 0x7F as the code points U+0080..U+00FF)
//!   inserted at, and replacing, each position of a short URL, alone and
//!   against bases.

#[allow(dead_code)]
#[path = "../fuzz/src/lib.rs"]
mod fuzz;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

use fuzz::{canon, command, differential, idempotence, parse, pipeline, warc, Case};
use normurl::canon::{Canonicalizer, Profile};
use normurl::Url;

const REGRESSIONS: &str = "tests/data/fuzz-regressions";

/// Runs every check of the targets on `case`.
fn check_all(case: &Case) {
    parse::check_case(case);
    idempotence::check_case(case);
    differential::check_case(case);
    canon::check_case(case);
}

fn case(input: &str, base: Option<&str>) -> Case {
    Case {
        input: input.into(),
        base: base.map(Into::into),
    }
}

/// Runs `check` on each case, catching panics, and fails with the list of
/// the cases that panicked.
fn check_each(cases: &[Case], check: impl Fn(&Case)) {
    let mut failed = Vec::new();
    for c in cases {
        if catch_unwind(AssertUnwindSafe(|| check(c))).is_err() {
            failed.push(format!("{:.200?} against {:.200?}", c.input, c.base));
        }
    }
    assert!(
        failed.is_empty(),
        "{} of {} cases failed (messages above):\n{}",
        failed.len(),
        cases.len(),
        failed.join("\n")
    );
}

#[test]
fn replay_fuzz_regressions() {
    let mut replayed = 0;
    let mut failed = Vec::new();
    let mut dirs: Vec<_> = std::fs::read_dir(REGRESSIONS)
        .unwrap_or_else(|e| panic!("{REGRESSIONS}: {e}"))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.is_dir())
        .collect();
    dirs.sort();
    for dir in &dirs {
        let target = dir
            .file_name()
            .and_then(|n| n.to_str())
            .expect("UTF-8 name");
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|entry| entry.expect("directory entry").path())
            .collect();
        files.sort();
        for file in &files {
            let data = std::fs::read(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            let result = catch_unwind(|| {
                // A configuration and a file, not a URL.
                if target == "pipeline" {
                    let _ = pipeline::check(&data);
                    return;
                }
                if target == "command" {
                    let _ = command::check(&data);
                    return;
                }
                if target == "warc" {
                    let _ = warc::check(&data);
                    return;
                }
                parse::check(&data);
                idempotence::check(&data);
                canon::check(&data);
                if target == "differential" {
                    differential::check(&data);
                }
            });
            if result.is_err() {
                failed.push(file.display().to_string());
            }
            replayed += 1;
        }
    }
    assert!(
        failed.is_empty(),
        "failing inputs (messages above):\n{}",
        failed.join("\n")
    );
    // Guard against a vacuous test (e.g. a wrong directory).
    assert!(replayed > 0, "no inputs in {REGRESSIONS}");
    assert!(Path::new(REGRESSIONS).join("differential").is_dir());
}

/// The `warc` target's check on the WARC and WAT samples (as fuzz/run.sh
/// seeds them: plain, cut into gzip members, blocks kept), and on every
/// cut of a small WARC, so that a change that breaks it fails here first.
#[test]
fn warc_check_on_seeds() {
    use std::io::Read;
    for name in ["whirlwind.warc.gz", "whirlwind.warc.wat.gz"] {
        let gz = std::fs::read(Path::new("tests/data/formats").join(name)).unwrap();
        let mut plain = Vec::new();
        flate2::read::MultiGzDecoder::new(&gz[..])
            .read_to_end(&mut plain)
            .unwrap();
        let records = if name.contains("wat") { 2 } else { 4 };
        for mode in [0u8, 2] {
            let data = [&[mode][..], &plain].concat();
            assert_eq!(warc::check(&data), records, "{name}, mode {mode}");
            // The sample's own gzip members.
            let data = [&[mode][..], &gz].concat();
            assert_eq!(warc::check(&data), records, "{name}, mode {mode}");
        }
        // Cut before every `WARC/`, also those inside blocks (a WAT's
        // JSON holds some): records, then an error.
        for mode in [1u8, 3] {
            assert!(warc::check(&[&[mode][..], &plain].concat()) > 0);
        }
    }
    let small = b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://a/\r\n\
Content-Length: 2\r\n\r\nhi\r\n\r\nWARC/1.0\r\nContent-Length: 0\r\n\r\n\r\n\r\n";
    for mode in 0..4u8 {
        for cut in 0..=small.len() {
            let mut data = vec![mode];
            data.extend_from_slice(&small[..cut]);
            warc::check(&data);
        }
        assert_eq!(warc::check(&[&[mode][..], small].concat()), 2);
    }
}

/// fuzz/src/differential.rs claims that its rules cover every difference
/// listed in tests/data/known-differences.txt (the corpus-level
/// differential test's list): check it.
#[test]
fn differential_rules_cover_known_differences() {
    let path = "tests/data/known-differences.txt";
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let json = |v: &str| -> String {
        serde_json::from_str(v.trim()).unwrap_or_else(|e| panic!("{path}: {v}: {e}"))
    };
    let mut cases = Vec::new();
    let mut input = None;
    let mut base = None;
    for line in text.lines().chain([""]) {
        if let Some(v) = line.strip_prefix("input:") {
            input = Some(json(v));
        } else if let Some(v) = line.strip_prefix("base:") {
            base = Some(json(v));
        } else if line.trim().is_empty() {
            if let Some(i) = input.take() {
                cases.push(case(&i, base.take().as_deref()));
            }
            base = None;
        }
    }
    assert!(cases.len() > 50, "{path}: only {} entries", cases.len());
    check_each(&cases, differential::check_case);
}

// ---------------------------------------------------------------------------
// Pathological inputs.

/// Inputs of roughly `n` bytes that stress one part of the parser each,
/// with a short name for failure messages.
fn pathological(n: usize) -> Vec<(&'static str, String)> {
    let rep = |s: &str, count: usize| s.repeat(count);
    vec![
        ("../ segments", format!("http://h/{}", rep("../", n / 3))),
        (
            "..\\ segments",
            format!("http://h/a\\{}", rep("..\\", n / 3)),
        ),
        (
            "%2e%2e/ segments",
            format!("file:///C:/{}", rep("%2e%2E/", n / 7)),
        ),
        ("./ segments", format!("foo:{}x", rep("./", n / 2))),
        ("empty segments", format!("file://{}", rep("/", n))),
        ("nested %25", format!("http://h/{}2e", rep("%25", n / 3))),
        (
            "nested %25 in query",
            format!("http://h/?{}41", rep("%25", n / 3)),
        ),
        ("%25 then 25s", format!("http://h/#%{}", rep("25", n / 2))),
        ("%25 host", format!("http://{}/", rep("%25", n / 3))),
        ("lone %", format!("http://h/{}", rep("%", n))),
        ("huge port", format!("http://h:{}/", rep("9", n))),
        ("zero-padded port", format!("http://h:{}8080/", rep("0", n))),
        (
            "zero-padded default port",
            format!("https://h:{}443/", rep("0", n)),
        ),
        ("long IPv6", format!("http://[{}1]/", rep("1:", n / 2))),
        ("long IPv6 piece", format!("http://[{}::]/", rep("0", n))),
        (
            "IPv6 compressions",
            format!("http://[{}]/", rep("::", n / 2)),
        ),
        (
            "long embedded IPv4",
            format!("http://[::1.2.3.4{}]/", rep(".5", n / 2)),
        ),
        ("IPv4 dots", format!("http://{}1/", rep("1.", n / 2))),
        ("IPv4 hex zeros", format!("http://0x{}1/", rep("0", n))),
        ("IPv4 octal zeros", format!("http://{}7/", rep("0", n))),
        ("@ signs", format!("http://{}h/", rep("@", n))),
        ("user@ pairs", format!("http://{}h/", rep("a@", n / 2))),
        ("colons in userinfo", format!("http://{}@h/", rep(":", n))),
        ("long host", format!("http://{}/", rep("a", n))),
        ("long uppercase host", format!("HTTP://{}", rep("A", n))),
        ("many labels", format!("http://{}com/", rep("a.", n / 2))),
        ("long opaque host", format!("foo://{}/", rep("a", n))),
        ("long xn-- label", format!("http://xn--{}/", rep("a", n))),
        (
            "long non-ASCII host",
            format!("http://{}/", rep("é", n / 2)),
        ),
        (
            "distinct code points per label",
            format!("http://{}/", cjk_labels(n)),
        ),
        ("long opaque path", format!("mailto:{}", rep(" ", n))),
        ("backslashes", format!("http:{}h", rep("\\", n))),
        ("slashes", format!("http:{}h", rep("/", n))),
        (
            "tabs and newlines",
            format!("ht\ttp://h/{}x", rep("\t\n\r", n / 3)),
        ),
        (
            "leading C0 controls",
            format!("{}http://h/", rep("\u{1}", n)),
        ),
        (
            "query specials",
            format!("http://h/?{}", rep("\"#<>'", n / 5)),
        ),
        (
            "fragment specials",
            format!("http://h/#{}", rep("\"<>`", n / 4)),
        ),
        ("path specials", format!("http://h/{}", rep("^{}|`", n / 5))),
        ("question marks", format!("http://h/{}", rep("?", n))),
        ("hashes", format!("http://h/{}", rep("#", n))),
        ("drive letters", format!("file:{}", rep("C|/", n / 3))),
        ("scheme-like", format!("{}:", rep("a", n))),
        (
            "non-ASCII path",
            format!("http://h/{}", rep("\u{10FFFF}", n / 4)),
        ),
    ]
}

/// Labels of 999 distinct CJK ideographs (3 bytes each), about `n` bytes
/// in all: the worst case of Punycode's encoder, quadratic in the distinct
/// code points of a label (idna refuses labels over 1000 code points).
fn cjk_labels(n: usize) -> String {
    let label: String = (0x4E00..0x4E00 + 999).filter_map(char::from_u32).collect();
    vec![label; (n / 3000).max(1)].join(".")
}

#[path = "common/heap.rs"]
mod heap;

#[global_allocator]
static ALLOCATOR: heap::Counting = heap::Counting;

/// Each pathological input, at 100k bytes (1 MB for the long hosts):
/// every check passes, and parsing needs heap and gives an href linear in
/// the input's length. Percent-encoding at most triples a byte, and the
/// serialization buffer may have up to twice the capacity it uses, so
/// parsing never needs more than about 8 bytes of heap per input byte
/// (debug builds also re-parse fast-path results with the full parser;
/// the constant covers IDNA's tables and scratch buffers).
#[test]
fn pathological_inputs_pass_every_check_in_linear_memory() {
    let mut cases = pathological(100_000);
    cases.extend([
        ("1 MB host", format!("http://{}/", "a".repeat(1 << 20))),
        (
            "1 MB uppercase host",
            format!("https://{}.COM/", "EXAMPLE".repeat((1 << 20) / 7)),
        ),
    ]);
    let mut problems = Vec::new();
    for (name, input) in &cases {
        let ((result, href_len), peak) = heap::peak_heap_during(|| {
            let result = Url::parse(input);
            let len = result.as_ref().map_or(0, |u| u.href().len());
            (result.is_ok(), len)
        });
        let n = input.len();
        if href_len > 3 * n + 64 {
            problems.push(format!(
                "{name}: href of {href_len} bytes for {n} input bytes"
            ));
        }
        if peak > 8 * n + (1 << 20) {
            problems.push(format!(
                "{name}: heap peak {peak} bytes for {n} input bytes"
            ));
        }
        if catch_unwind(|| check_all(&case(input, None))).is_err() {
            problems.push(format!("{name}: a check failed (message above)"));
        }
        eprintln!("{name}: {n} bytes, ok: {result}, href {href_len} bytes, heap peak {peak}");
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The pathological inputs also as relative references against bases.
#[test]
fn pathological_inputs_against_bases() {
    let bases = ["http://h/a/b", "file:///C:/x/y", "foo://h/a/b", "foo:/a/b"];
    let mut cases = Vec::new();
    for (_, input) in pathological(20_000) {
        // Without the scheme: a relative reference.
        let relative = input.split_once(':').map_or(&*input, |(_, rest)| rest);
        for base in bases {
            cases.push(case(relative, Some(base)));
        }
    }
    check_each(&cases, check_all);
}

/// Short URLs, with every byte at every position.
const SHORT_URLS: &[(&str, Option<&str>)] = &[
    ("https://u:p@h.example:8080/p/q?r=s#t", None),
    ("file:///C:/a", None),
    ("foo://[::1]:1/a?b", None),
    ("../a/./b?c#d", Some("http://h/x/y")),
    ("c|/d", Some("file://host/x")),
];

/// The code point for byte `b` (bytes above 0x7F as U+0080..U+00FF).
fn byte_char(b: u8) -> char {
    char::from(b)
}

#[test]
fn every_byte_at_every_position() {
    let mut cases = Vec::new();
    for &(url, base) in SHORT_URLS {
        let chars: Vec<char> = url.chars().collect();
        for i in 0..=chars.len() {
            for b in 0..=255u8 {
                let c = byte_char(b);
                let mut inserted = chars.clone();
                inserted.insert(i, c);
                cases.push(case(&inserted.iter().collect::<String>(), base));
                if i < chars.len() {
                    let mut replaced = chars.clone();
                    replaced[i] = c;
                    cases.push(case(&replaced.iter().collect::<String>(), base));
                }
            }
        }
    }
    check_each(&cases, check_all);
}

/// The replays above run the same code as the fuzz targets; check that the
/// input format is the one fuzz/run.sh seeds: input, 0xFF, base.
#[test]
fn fuzz_input_format() {
    let c = Case::from_bytes(b"../x\xffhttp://h/a/b");
    assert_eq!(
        (&*c.input, c.base.as_deref()),
        ("../x", Some("http://h/a/b"))
    );
    let c = Case::from_bytes(b"a\xc3b");
    assert_eq!((&*c.input, c.base.as_deref()), ("a\u{FFFD}b", None));
    assert!(catch_unwind(|| parse::check(b"http://h/\xffnot a base")).is_ok());
}

/// The pipeline target's check on hand-picked files: the parallel pipeline,
/// with tiny batches and record limits, writes what the sequential one
/// writes, with every `--on-invalid` and invalid-UTF-8 policy.
#[test]
fn pipeline_parallel_equals_sequential_on_odd_files() {
    let long_line = format!("http://h/{}\n", "a".repeat(1000));
    let files: Vec<Vec<u8>> = vec![
        b"".to_vec(),
        b"\n".to_vec(),
        b"\r\r\r\r".to_vec(),
        b"HTTP://A.example/x/../y\r\nnot a url\n\nfoo:bar".to_vec(),
        b"\0\xff\xfe\n\xc3\n%\n\x80http://h/\xff\n".to_vec(),
        long_line.into_bytes(),
        "\n".repeat(10_000).into_bytes(),
        b"\x1f\x8b\x08\x00truncated gzip".to_vec(),
        b"\x28\xb5\x2f\xfdcorrupt zstd".to_vec(),
    ];
    for content in &files {
        for (threads, batch, record, policy) in [
            (0, 0, 255, 0),
            (1, 0, 0, 1),
            (1, 6, 15, 2),
            (2, 1, 255, 3),
            (3, 63, 31, 4),
            (3, 255, 7, 5),
            (0, 2, 255, 10),
            (1, 15, 0, 11),
        ] {
            let mut data = vec![threads, batch, record, policy];
            data.extend_from_slice(content);
            pipeline::check(&data);
        }
    }
    // The check compares real output: policy 0 keeps invalid lines.
    let out = pipeline::check(&[&[1, 6, 255, 0][..], &files[3]].concat());
    assert_eq!(out, b"http://a.example/y\nnot a url\n\nfoo:bar\n");
}

/// The pipeline_members target's check: files cut into gzip members or
/// zstd frames and decoded in chunks of a few bytes, intact and with a damaged byte,
/// decode alike with one thread and several.
#[test]
fn members_and_frames_decode_alike_sequential_and_parallel() {
    let lines: String = (0..400)
        .map(|i| format!("HTTP://h{i}.example/a/../{}\n", i % 7))
        .collect();
    let files: Vec<Vec<u8>> = vec![
        b"".to_vec(),
        b"HTTP://A.example/x/../y\r\nnot a url\n\nfoo:bar".to_vec(),
        lines.into_bytes(),
    ];
    for content in &files {
        // threads, piece size, chunk size (an odd byte: with damage),
        // policy; each size is the byte plus one.
        for (threads, piece, chunk, policy) in [
            (1, 0, 0, 0),
            (1, 6, 15, 2),
            (2, 1, 255, 3),
            (3, 63, 30, 4),
            (3, 255, 7, 5),
            (2, 200, 100, 0),
            (3, 31, 1, 1),
        ] {
            let mut data = vec![threads, piece, chunk, policy];
            data.extend_from_slice(content);
            pipeline::check_members(&data);
            pipeline::check_frames(&data);
        }
    }
    // The check compares real output: intact members and frames, policy
    // 0 keeps invalid lines. Whole, the content is its lines; cut into
    // 7-byte members, each member whose data does not end in a line break
    // ends its last line.
    for check in [pipeline::check_members, pipeline::check_frames] {
        let out = check(&[&[1, 254, 254, 0][..], &files[1]].concat());
        assert_eq!(out, b"http://a.example/y\nnot a url\n\nfoo:bar\n");
        let out = check(&[&[1, 6, 254, 0][..], &files[1]].concat());
        let cut = b"HTTP://\nA.examp\nle/x/..\n/y\nnot\n a url\n\nfoo:ba\nr\n";
        assert_eq!(String::from_utf8_lossy(&out), String::from_utf8_lossy(cut));
    }
}

/// The command target's check on hand-picked files with every value of its
/// option byte (canonicalizer, explain, original, rejects, dedup mode and
/// spill limit), each with other field selections, `--on-invalid`,
/// invalid-UTF-8 policies, `--base`, thread counts and batch sizes.
#[test]
fn command_check_covers_every_option() {
    let files: [&[u8]; 6] = [
        b"",
        b"HTTP://A.example/x/../y\r\nnot a url\n\nhttp://a.example/y#z\nfoo:bar",
        b"\xEF\xBB\xBFa\tHTTP://WWW.A.example/?b=2&a=1\t../c\nb\thttp://a.example/?a=1&b=2\t/d\nc\n",
        b"1 2  http://h/%7e?utm_source=x   http://h/\n \t\n1 2 3\n1 2 h:\xff\xfe x\n",
        b"http://a.example/\nhttp://b.example/\nhttp://a.example/\nhttp://a.example/\nhttp://c.example/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\nhttp://b.example/\n",
        b"\x1f\x8b\x08\x00truncated gzip",
    ];
    // Field selections: the whole line; field 2 by tab, writing the field;
    // field 3 by tab, writing the line, base field 2; field 3 by blanks,
    // writing the field; field 1 by space, base field 1; field 2 by
    // blanks, base field 3.
    let selects = [0u8, 41, 153, 69, 85, 245];
    // Each option byte with two of the files (each canonicalizer meets
    // every file), the other bytes varying with it.
    for flags in 0..=255u8 {
        for f in [usize::from(flags) % 6, (usize::from(flags) + 3) % 6] {
            let i = usize::from(flags) + f;
            // --on-invalid, UTF-8, --base; --get or --json.
            let policies = (i * 5 % 24 + 24 * (i / 3 % 4)) as u8;
            let max_record = [255, 3, 40, 7][i / 16 % 4];
            let config = [
                (i % 4) as u8,              // threads
                [0, 2, 15, 255][i / 4 % 4], // batch bytes
                max_record,
                policies,
                selects[i % selects.len()],
                flags,
            ];
            command::check(&[&config[..], files[f]].concat());
        }
    }
    // The check returns the reference's real output: wayback SURT keys,
    // exact dedup (spilling in the parallel run), invalid lines skipped.
    let out = command::check(&[&[1, 0, 255, 2, 0, 3 | 1 << 5][..], files[4]].concat());
    let surts = format!("example,a)/\nexample,b)/\nexample,c)/{}\n", "a".repeat(88));
    assert_eq!(String::from_utf8_lossy(&out), surts);
    // Original, keep, the field of a tab-separated line, as read.
    let out = command::check(&[&[3, 1, 255, 0, 41, 8][..], files[2]].concat());
    assert_eq!(
        out,
        b"HTTP://WWW.A.example/?b=2&a=1\nhttp://a.example/?a=1&b=2\n\n"
    );
    // --json (option byte 3 is 24: keep, percent, no base): an object
    // per line, which a JSON parser reads.
    let out = command::check(&[&[2, 0, 255, 24, 0, 0][..], files[1]].concat());
    let text = String::from_utf8(out).unwrap();
    let objects: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert_eq!(objects.len(), 5, "{text}");
    assert_eq!(objects[0]["href"], "http://a.example/y");
    assert_eq!(objects[1]["input"], "not a url");
    // The template (byte 3 is 48).
    let out = command::check(&[&[2, 0, 255, 48, 0, 0][..], files[4]].concat());
    assert!(
        out.starts_with(b"[a.example]\texample,a)/{}\n[b.example]"),
        "{}",
        String::from_utf8_lossy(&out)
    );
}

/// The command check's JSON checker agrees with a JSON parser on what
/// `--json` can write, and on near misses.
#[test]
fn command_json_checker() {
    for (line, ok) in [
        (&br#"{}"#[..], true),
        (br#"{"a":"b","c":"\u00e9\"\\\t"}"#, true),
        ("{\"a\":\"\u{fffd}\"}".as_bytes(), true),
        (br#"{"a":"b",}"#, false),
        (br#"{"a":"b"} "#, false),
        (b"{\"a\":\"\x01\"}", false),
        (b"{\"a\":\"\xff\"}", false),
        (br#"{"a":"\x"}"#, false),
        (br#"{"a":"b","line":10}"#, true),
        (br#"{"line":0}"#, true),
        (br#"{"a":01}"#, false),
        (br#"{"a":-1}"#, false),
        (br#"{"a":1.5}"#, false),
        (br#"{"a":}"#, false),
        (br#""a""#, false),
    ] {
        let text = String::from_utf8_lossy(line);
        assert_eq!(command::is_json_object(line), ok, "{text}");
        if ok {
            serde_json::from_slice::<serde_json::Value>(line).unwrap();
        }
    }
}

/// The command check with the formats of byte 3 (CSV by comma and by tab,
/// `--json-field url`, `--json-field a.u`) on JSON, CDXJ, CSV and log
/// lines, good and broken, with every option byte.
#[test]
fn command_check_covers_formats() {
    let files: [&[u8]; 4] = [
        b"{\"url\": \"HTTP://A.example/x/../y\", \"a\": {\"u\": \"h:\\\"q\\\\\"}}\n\
          k 1 {\"a\": {\"u\": \"http://a.example/\\u00e9\"}, \"url\": \"../r\"}\n\
          {\"url\": \"x\"\n{}\n\n{\"url\": \"\\ud800\"}\n[1]\n{\"url\": 5}",
        b"1,\"HTTP://A.example/?q=a,b\",\"x\"\"y\"\n2,\"-\",\"open\n\"\",b\n,,\n\"a\tb\"\tc",
        b"h - - [d] \"GET /a HTTP/1.1\" 200 1 \"HTTP://R.example/\\\"q\" \"UA\"\n\"-\" \"\" \"",
        b"\xEF\xBB\xBF{\"url\": \"http://b.example/caf\xE9\"}\r\n{\"a\": {\"u\": \"http://a.example/\"}}",
    ];
    let selects = [0u8, 41, 153, 69, 85, 245, 36];
    for flags in 0..=255u8 {
        for f in [usize::from(flags) % 4, (usize::from(flags) + 1) % 4] {
            let i = usize::from(flags) + f;
            // 192..=255: the four formats, with each policy and base.
            let policies = 192 + (i * 5 % 64) as u8;
            let config = [
                (i % 4) as u8,
                [0, 2, 15, 255][i / 4 % 4],
                [255, 3, 40, 7][i / 16 % 4],
                policies,
                selects[i % selects.len()],
                flags,
            ];
            command::check(&[&config[..], files[f]].concat());
        }
    }
    // The reference's output: `--json-field url`, the line written.
    let out = command::check(&[&[1, 0, 255, 192 + 32, 0, 0][..], files[0]].concat());
    let expected = "{\"url\": \"http://a.example/y\", \"a\": {\"u\": \"h:\\\"q\\\\\"}}\n\
                    k 1 {\"a\": {\"u\": \"http://a.example/\\u00e9\"}, \"url\": \"../r\"}\n\
                    {\"url\": \"x\"\n{}\n\n{\"url\": \"\\ud800\"}\n[1]\n{\"url\": 5}\n";
    assert_eq!(String::from_utf8_lossy(&out), expected);
    // `--json-field a.u` with --only-field: URLs decoded, invalid lines'
    // fields as read (none without one).
    let out = command::check(&[&[1, 0, 255, 192 + 48, 36, 0][..], files[0]].concat());
    assert_eq!(
        String::from_utf8_lossy(&out),
        "h:\"q\\\nhttp://a.example/%C3%A9\n\n\n\n\n\n\n"
    );
}

// ---------------------------------------------------------------------------
// Bugs found by fuzzing, fixed. A bug not yet fixed gets an `#[ignore]`d
// test here, and its input stays out of tests/data/fuzz-regressions (whose
// replay would fail) until the fix.

/// normurl-canon: the `aggressive`, `safe-browsing` and `wayback` profiles
/// collapse `//` in a path, which can make a `c|` segment the first one of
/// a file path, where the parser turns it into the drive letter `c:`. The
/// canonical form is then neither a URL serialization nor idempotent:
/// `file://h//c|/x` gives `file://h/c|/x`, which parses to
/// `file://h/c:/x`. (Found by the canon check on the differential target's
/// crash-11396af6….) Fixed: the canonical form says `c:`, as the parser
/// would (url.bs, path state: "If url's scheme is \"file\", url's path is
/// empty, and buffer is a Windows drive letter, then replace the second code
/// point in buffer with U+003A (:).").
#[test]
fn canon_collapse_slashes_pipe_drive_letter() {
    for input in ["file://h//c|/x", "file://examf//c|/ple%/", "file:////c|/x"] {
        let url = Url::parse(input).expect("parses");
        canon::check_url(&url);
    }
    let aggressive = Canonicalizer::new(Profile::Aggressive);
    assert_eq!(
        aggressive.canonicalize("file://h//c|/x").unwrap(),
        "file://h/c:/x"
    );
    // Decoding can expose a drive letter too.
    let semantic = Canonicalizer::new(Profile::Semantic);
    assert_eq!(
        semantic.canonicalize("file://h/%63|/x").unwrap(),
        "file://h/c:/x"
    );
}

/// normurl-canon: percent-decoding unreserved characters can make a new escape
/// out of a `%` that starts none, which the next canonicalization decodes:
/// the `semantic` profile (and every profile that decodes) is not
/// idempotent. `foo://h/%7%30` gives `foo://h/%70`, which gives
/// `foo://h/p`. (Found by the canon fuzz target:
/// tests/data/fuzz-regressions/canon/crash-5eeb52a9….) Fixed: an escape
/// whose decoded hex digit would complete a bare `%` stays encoded, so one
/// pass gives the fixed point and the server still receives `%7` and `0`.
#[test]
fn canon_decode_makes_escape() {
    for input in ["foo://h/%7%30", "http://h/?%4%31", "http://h/%%34%31"] {
        let url = Url::parse(input).expect("parses");
        canon::check_url(&url);
    }
    let semantic = Canonicalizer::new(Profile::Semantic);
    for (input, expected) in [
        ("foo://h/%7%30", "foo://h/%7%30"),
        ("http://h/?%4%31", "http://h/?%4%31"),
        ("http://h/%%34%31", "http://h/%4%31"),
        ("http://h/%%34A%7e", "http://h/%%34A~"),
    ] {
        assert_eq!(semantic.canonicalize(input).unwrap(), expected, "{input}");
    }
}

/// normurl-canon: trimming the dots of a file URL's host `localhost.` gives
/// `localhost`, which the host parser turns into the empty host, so the
/// canonical form (`aggressive`, `safe-browsing`, `wayback`) is not a URL
/// serialization: `file://localhost./x` gives `file://localhost/x`, which
/// parses to `file:///x`. (Found by the canon fuzz target:
/// tests/data/fuzz-regressions/canon/crash-f6ee8325….) Expected: the
/// canonical form `file:///x` (url.bs, file host state: "If host is
/// \"localhost\", then set host to the empty string.").
#[test]
fn canon_trim_host_dots_file_localhost() {
    for input in ["file://localhost./x", "file://LOCALHOST../"] {
        let url = Url::parse(input).expect("parses");
        canon::check_url(&url);
    }
}

/// A file that starts as a WARC file stops the normalizer (it is refused
/// with a message pointing to `normurl warc`), whatever the options, and
/// the command check allows it under `keep` too.
#[test]
fn command_check_refuses_warc_files() {
    let warc =
        b"WARC/1.0\r\nWARC-Type: response\r\nContent-Type: text/html\r\n\r\nhttp://a.example/\n";
    for flags in [0u8, 4, 8, 16, 32, 255] {
        for select in [0u8, 41, 245] {
            let config = [2, 7, 255, 0, select, flags];
            command::check(&[&config[..], warc].concat());
        }
    }
}
