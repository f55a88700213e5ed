//! The normalizer against a naive reference (a fresh `Url::parse` per
//! line, whole lines in memory), and its policies one by one.

use std::num::NonZeroUsize;

use proptest::prelude::*;

use super::*;
use crate::pipeline::{Input, Pipeline, Sinks, Summary};

/// Up to 300 bytes of the makings of URLs, invalid and blank lines,
/// bytes that are not UTF-8 and percent escapes (`%A`).
fn input_bytes() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop::sample::select(b"h:/.a%A\xC3\xA9\xFF \t\n\n[]?#".to_vec()),
        0..300,
    )
}

struct Ran {
    out: String,
    rejects: String,
    summary: Option<Summary<Stats>>,
    error: Option<String>,
}

fn run_with(input: &[u8], options: Options, threads: usize, batch_bytes: usize, max: usize) -> Ran {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("in");
    std::fs::write(&path, input).unwrap();
    let pipeline = Pipeline::builder()
        .threads(threads)
        .batch_bytes(batch_bytes)
        .max_record_bytes(max)
        .build(Normalizer::new(options));
    let (mut out, mut rejects) = (Vec::new(), Vec::new());
    let result = pipeline.run(
        vec![Input::path(&path)],
        Sinks::new("out", &mut out).side("rejects", &mut rejects),
    );
    let (summary, error) = match result {
        Ok(s) => (Some(s), None),
        Err(e) => (
            None,
            Some(e.to_string().replace(&path.display().to_string(), "IN")),
        ),
    };
    Ran {
        out: String::from_utf8_lossy(&out).into_owned(),
        rejects: String::from_utf8_lossy(&rejects).into_owned(),
        summary,
        error,
    }
}

fn run(input: &str, options: Options) -> Ran {
    run_with(input.as_bytes(), options, 2, 7, 1 << 20)
}

fn field(n: usize, base: Option<usize>, delimiter: Delimiter, output: FieldOutput) -> Select {
    Select::Field {
        field: NonZeroUsize::new(n).unwrap(),
        base_field: base.and_then(NonZeroUsize::new),
        delimiter,
        output,
    }
}

/// The reference for whole-line mode with `keep`.
fn naive(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        match Url::parse(line) {
            Ok(url) if !line.is_empty() => out.push_str(url.href()),
            _ => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

#[test]
fn corpus_lines_match_a_fresh_parse_per_line() {
    // The first lines of each sample corpus (kasztp starts with a BOM).
    for (name, text) in crate::test_corpora() {
        let text: String = text.lines().take(3000).flat_map(|l| [l, "\n"]).collect();
        let expected = naive(text.strip_prefix('\u{FEFF}').unwrap_or(&text));
        for (threads, batch) in [(1, 1 << 20), (2, 4096), (3, 100)] {
            let got = run_with(text.as_bytes(), Options::default(), threads, batch, 1 << 20);
            assert_eq!(
                got.out, expected,
                "{name}, {threads} threads, {batch}-byte batches"
            );
            let s = got.summary.unwrap().stats;
            assert_eq!(s.lines, 3000);
            assert_eq!(s.valid + s.invalid() + s.blank, s.lines);
        }
    }
}

#[test]
fn on_invalid_policies_and_rejects() {
    let input = "http://a.example/\nnope\n\nhttp://[::1\n";
    let keep = run(
        input,
        Options {
            rejects: true,
            ..Options::default()
        },
    );
    assert_eq!(keep.out, "http://a.example/\nnope\n\nhttp://[::1\n");
    assert_eq!(
        keep.rejects,
        "2\trelative-without-base\tnope\n4\tipv6-unclosed\thttp://[::1\n"
    );
    let s = keep.summary.unwrap().stats;
    assert_eq!(
        (s.lines, s.valid, s.blank, s.invalid(), s.skipped),
        (4, 1, 1, 2, 0)
    );

    let empty = run(
        input,
        Options {
            on_invalid: OnInvalid::Empty,
            ..Options::default()
        },
    );
    assert_eq!(empty.out, "http://a.example/\n\n\n\n");
    assert_eq!(empty.rejects, "", "no rejects unless asked");

    let skip = run(
        input,
        Options {
            on_invalid: OnInvalid::Skip,
            ..Options::default()
        },
    );
    assert_eq!(skip.out, "http://a.example/\n");
    let summary = skip.summary.unwrap();
    assert_eq!(summary.stats.skipped, 3);
    assert_eq!(
        summary.records,
        summary.output_records + summary.stats.skipped
    );

    let fail = run(
        input,
        Options {
            on_invalid: OnInvalid::Fail,
            rejects: true,
            ..Options::default()
        },
    );
    assert_eq!(fail.out, "http://a.example/\n");
    assert_eq!(fail.rejects, "2\trelative-without-base\tnope\n");
    assert_eq!(
        fail.error.unwrap(),
        "IN:2: invalid URL: relative URL without a base (relative-without-base)"
    );
}

#[test]
fn base_url_and_base_field() {
    let base = Some(Url::parse("http://h.example/a/b").unwrap());
    let ran = run(
        "c\n../d?x#y\n//o.example\n",
        Options {
            base: base.clone(),
            ..Options::default()
        },
    );
    assert_eq!(
        ran.out,
        "http://h.example/a/c\nhttp://h.example/d?x#y\nhttp://o.example/\n"
    );

    // Crawl-log shape: field 4 is the URL, field 6 its referrer.
    let select = field(4, Some(6), Delimiter::Blanks, FieldOutput::Line);
    let input = "t 200 12 img/x.png L http://site.example/dir/ text/html\n\
                 t 200 12 /abs L http://site.example/dir/ text/html\n\
                 t 200 12 rel L - text/html\n\
                 t 200 12 rel L /dir/ text/html\n\
                 t 200\n";
    let ran = run(
        input,
        Options {
            select: select.clone(),
            rejects: true,
            ..Options::default()
        },
    );
    assert_eq!(
        ran.out,
        "t 200 12 http://site.example/dir/img/x.png L http://site.example/dir/ text/html\n\
         t 200 12 http://site.example/abs L http://site.example/dir/ text/html\n\
         t 200 12 rel L - text/html\n\
         t 200 12 rel L /dir/ text/html\n\
         t 200\n"
    );
    assert_eq!(
        ran.rejects,
        // `-` says there is no base: a relative URL is then invalid as such.
        "3\trelative-without-base\tt 200 12 rel L - text/html\n\
         4\tinvalid-base\tt 200 12 rel L /dir/ text/html\n\
         5\tmissing-field\tt 200\n"
    );
    // With --base as well, the base field is resolved against it.
    let ran = run(
        "t 200 12 rel L /dir/ text/html\n",
        Options {
            select,
            base,
            ..Options::default()
        },
    );
    assert_eq!(
        ran.out,
        "t 200 12 http://h.example/dir/rel L /dir/ text/html\n"
    );
}

#[test]
fn field_output_and_tsv() {
    let input = "a\tHTTP://X.example\tb\nc\t\td\n";
    let tab = Delimiter::Byte(b'\t');
    let ran = run(
        input,
        Options {
            select: field(2, None, tab, FieldOutput::Line),
            ..Options::default()
        },
    );
    assert_eq!(ran.out, "a\thttp://x.example/\tb\nc\t\td\n");
    let ran = run(
        input,
        Options {
            select: field(2, None, tab, FieldOutput::Field),
            ..Options::default()
        },
    );
    assert_eq!(ran.out, "http://x.example/\n\n");
    let s = ran.summary.unwrap().stats;
    assert_eq!((s.valid, s.invalid()), (1, 1));
    // A missing field, kept with --only-field, is an empty line.
    let ran = run(
        input,
        Options {
            select: field(5, None, tab, FieldOutput::Field),
            ..Options::default()
        },
    );
    assert_eq!(ran.out, "\n\n");
}

#[test]
fn invalid_utf8_policies() {
    let input = b"http://a.example/caf\xE9\nhttp://a.example/ok\n";
    let percent = run_with(
        input,
        Options {
            rejects: true,
            ..Options::default()
        },
        1,
        1 << 20,
        1 << 20,
    );
    assert_eq!(
        percent.out,
        "http://a.example/caf%E9\nhttp://a.example/ok\n"
    );
    let replace = Options {
        invalid_utf8: InvalidUtf8::Replace,
        ..Options::default()
    };
    let replace = run_with(input, replace, 1, 1 << 20, 1 << 20);
    assert_eq!(
        replace.out,
        "http://a.example/caf%EF%BF%BD\nhttp://a.example/ok\n"
    );
    let reject = Options {
        invalid_utf8: InvalidUtf8::Reject,
        on_invalid: OnInvalid::Empty,
        rejects: true,
        ..Options::default()
    };
    let reject = run_with(input, reject, 2, 5, 1 << 20);
    assert_eq!(reject.out, "\nhttp://a.example/ok\n");
    assert_eq!(
        reject.rejects,
        "1\tinvalid-utf8\thttp://a.example/caf\u{FFFD}\n"
    );
}

#[test]
fn long_lines_are_invalid_and_kept_whole() {
    let long = format!("http://a.example/{}", "x".repeat(200));
    let input = format!("http://b.example\n{long}\nhttp://c.example\n");
    for (threads, batch) in [(1, 16), (2, 16), (2, 1 << 20)] {
        let keep = run_with(
            input.as_bytes(),
            Options {
                rejects: true,
                ..Options::default()
            },
            threads,
            batch,
            100,
        );
        assert_eq!(
            keep.out,
            format!("http://b.example/\n{long}\nhttp://c.example/\n")
        );
        assert_eq!(keep.rejects, format!("2\tline-too-long\t{long}\n"));
        let s = keep.summary.unwrap().stats;
        assert_eq!(
            s.invalid_by_reason()
                .map(|(r, n)| (r.name(), n))
                .collect::<Vec<_>>(),
            [("line-too-long", 1)]
        );
        let skip = Options {
            on_invalid: OnInvalid::Skip,
            ..Options::default()
        };
        let skip = run_with(input.as_bytes(), skip, threads, batch, 100);
        assert_eq!(skip.out, "http://b.example/\nhttp://c.example/\n");
        let fail = Options {
            on_invalid: OnInvalid::Fail,
            ..Options::default()
        };
        let fail = run_with(input.as_bytes(), fail, threads, batch, 100);
        assert_eq!(fail.out, "http://b.example/\n");
        assert_eq!(
            fail.error.unwrap(),
            "IN:2: line longer than --max-line-bytes (line-too-long)"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any bytes: one output line per input line with `keep`, counts that
    /// add up, and the same output for every thread count and batch size.
    #[test]
    fn any_input_keeps_lines_aligned(
        input in input_bytes(),
        threads in 1usize..=4,
        batch in 1usize..64,
    ) {
        let a = run_with(&input, Options::default(), threads, batch, 40);
        let b = run_with(&input, Options::default(), 1, 1 << 20, 40);
        prop_assert_eq!(&a.out, &b.out);
        let summary = a.summary.unwrap();
        let s = &summary.stats;
        prop_assert_eq!(s.valid + s.invalid() + s.blank, s.lines);
        prop_assert_eq!(summary.records, s.lines);
        prop_assert_eq!(summary.output_records, s.lines);
        prop_assert_eq!(a.out.bytes().filter(|&b| b == b'\n').count() as u64, s.lines);
    }

    /// Plain lines with nothing but the URL to write take `record`'s
    /// bare way, past `emit`: they must read as the `--explain` run's
    /// lines (which go through `emit`) without its last column.
    #[test]
    fn bare_lines_write_what_emit_writes(
        input in input_bytes(),
        threads in 1usize..=4,
        batch in 1usize..64,
    ) {
        let bare = run_with(&input, Options::default(), threads, batch, 40);
        let explained = Options { explain: true, ..Options::default() };
        let explained = run_with(&input, explained, 1, 1 << 20, 40);
        let without_column: String = explained
            .out
            .lines()
            .map(|l| format!("{}\n", l.rsplit_once('\t').map_or(l, |(l, _)| l)))
            .collect();
        prop_assert_eq!(&bare.out, &without_column);
    }

    /// `original`: with `keep` the output is the input (overlong lines
    /// too); with `skip`, the input lines that the normalizing run keeps,
    /// unchanged. Compared as lossily decoded text, which still tells a
    /// raw `\xFF` from the `%FF` a normalizing run writes; the `command`
    /// fuzz target compares the bytes.
    #[test]
    fn original_writes_input_lines(
        input in input_bytes(),
        threads in 1usize..=4,
        batch in 1usize..64,
    ) {
        let original = |on_invalid| Options { original: true, on_invalid, ..Options::default() };
        let lines: Vec<&[u8]> = if input.is_empty() {
            Vec::new()
        } else {
            input.strip_suffix(b"\n").unwrap_or(&input).split(|&b| b == b'\n').collect()
        };
        let text = |lines: &[&[u8]]| -> String {
            lines.iter().map(|l| format!("{}\n", String::from_utf8_lossy(l))).collect()
        };
        let keep = run_with(&input, original(OnInvalid::Keep), threads, batch, 40);
        prop_assert_eq!(&keep.out, &text(&lines));
        // Which lines are invalid, from the normalizing run's rejects.
        let reference = Options { rejects: true, ..Options::default() };
        let reference = run_with(&input, reference, 1, 1 << 20, 40);
        let invalid: std::collections::HashSet<usize> = reference
            .rejects
            .lines()
            .filter_map(|entry| entry.split('\t').next()?.parse().ok())
            .collect();
        let valid: Vec<&[u8]> = lines
            .iter()
            .enumerate()
            .filter(|&(i, line)| !line.is_empty() && !invalid.contains(&(i + 1)))
            .map(|(_, &line)| line)
            .collect();
        let skip = run_with(&input, original(OnInvalid::Skip), threads, batch, 40);
        prop_assert_eq!(&skip.out, &text(&valid));
        let s = skip.summary.unwrap().stats;
        prop_assert_eq!(s.valid as usize, valid.len());
    }
}
