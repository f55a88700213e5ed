//! Input formats through the binary: zstd skippable frames and window
//! sizes, zero padding after gzip, compression formats normurl does not
//! decode, and `normurl bench` on compressed files. What each must give is
//! in docs/guarantees.md.

mod common;

use std::io::Write;

use common::bin::{bzip2, file, gzip, numbered_urls, run, xz, zstd, Ran};

/// A zstd skippable frame with this magic number (0x184D2A50 to
/// 0x184D2A5F) and content, as RFC 8878 §3.1.2 lays it out.
fn skippable(magic: u32, content: &[u8]) -> Vec<u8> {
    let mut frame = magic.to_le_bytes().to_vec();
    frame.extend_from_slice(&(content.len() as u32).to_le_bytes());
    frame.extend_from_slice(content);
    frame
}

/// `bytes` in one zstd frame whose header declares a `1 << log` byte
/// window (no content size, so no single-segment shortcut).
fn zstd_with_window(bytes: &[u8], log: u32) -> Vec<u8> {
    let mut e = zstd::stream::Encoder::new(Vec::new(), 3).unwrap();
    e.window_log(log).unwrap();
    e.long_distance_matching(true).unwrap();
    e.write_all(bytes).unwrap();
    let frame = e.finish().unwrap();
    // Frame_Header_Descriptor: no Single_Segment_Flag, so a
    // Window_Descriptor follows, whose exponent is log - 10 (mantissa 0).
    assert_eq!(frame[4] & 0x20, 0, "not single-segment");
    assert_eq!(frame[5], ((log - 10) << 3) as u8, "window descriptor");
    frame
}

/// What the binary writes for the plain text `text`.
fn plain_output(text: &str) -> Vec<u8> {
    run(&[], text.as_bytes()).ok().stdout
}

#[test]
fn zstd_streams_that_begin_with_skippable_frames() {
    let dir = tempfile::tempdir().unwrap();
    let text = "HTTP://A.example/x/../y\nhttp://b.example\n";
    let expected = plain_output(text);
    // pzstd's output starts with a skippable frame holding the size of
    // the next frame; other writers put any content in them.
    let pzstd = [
        skippable(0x184D_2A50, &[0xfd, 5, 0, 0]),
        zstd(text.as_bytes()),
    ]
    .concat();
    let long = [
        skippable(0x184D_2A5F, &[7; 100_000]),
        skippable(0x184D_2A53, b""),
        zstd(text.as_bytes()),
    ]
    .concat();
    for (name, bytes) in [("pzstd.zst", pzstd), ("long.zst", long)] {
        let path = file(&dir, name, &bytes);
        for j in ["1", "2"] {
            let ran = run(&["-j", j, &path], b"").ok();
            assert_eq!(ran.stdout, expected, "{name} -j {j}");
        }
        let ran = run(&[], &bytes).ok();
        assert_eq!(ran.stdout, expected, "{name} on stdin");
    }
    // Only a skippable frame: a zstd stream with no content.
    let empty = skippable(0x184D_2A50, b"metadata");
    let path = file(&dir, "empty.zst", &empty);
    let ran = run(&[&path], b"").ok();
    assert!(ran.stdout.is_empty(), "{:?}", ran.out());
    assert!(run(&[], &empty).ok().stdout.is_empty());
    // Cut inside the skippable frame: a truncated zstd stream, not text.
    let path = file(&dir, "cut.zst", &empty[..10]);
    let ran = run(&[&path], b"").failed(&[&format!(
        "{path}: corrupt or truncated zstd data near compressed byte 10"
    )]);
    assert!(ran.stdout.is_empty());
}

#[test]
fn zstd_windows_over_the_limit_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let text = numbered_urls(100);
    let big = zstd_with_window(text.as_bytes(), 27);
    assert!(big.len() < 4096);
    let path = file(&dir, "big.zst", &big);
    let refusal = format!(
        "{path}: zstd frame needs a 128 MiB window, more than the zstd memory limit allows \
         (8 MiB); raise it with --zstd-memory 128M"
    );
    for j in ["1", "2"] {
        let ran = run(&["-j", j, &path], b"").failed(&[&refusal]);
        assert!(ran.stdout.is_empty());
        let ran = run(&["-j", j, "--zstd-memory", "128M", &path], b"").ok();
        assert_eq!(ran.out(), text);
        run(&["-j", j, "--zstd-memory", "100M", &path], b"")
            .failed(&["more than the zstd memory limit allows (100 MiB)"]);
    }
    // A window at the limit is allowed.
    let at_limit = zstd_with_window(text.as_bytes(), 23);
    let path = file(&dir, "at-limit.zst", &at_limit);
    assert_eq!(run(&[&path], b"").ok().out(), text);
    // Every frame is checked, not only the first: the lines of the frames
    // before are written, then the error.
    let second = numbered_urls(150)[text.len()..].to_string();
    let two = [
        zstd(text.as_bytes()),
        zstd_with_window(second.as_bytes(), 24),
    ]
    .concat();
    let path = file(&dir, "two.zst", &two);
    for j in ["1", "2"] {
        let ran = run(&["-j", j, &path], b"").failed(&[&format!(
            "{path}: zstd frame needs a 16 MiB window, more than the zstd memory limit allows \
             (8 MiB); raise it with --zstd-memory 16M"
        )]);
        assert_eq!(ran.out(), text, "-j {j}");
    }
    // A single-segment frame's window is its content size.
    let content = "x".repeat(1536 << 10);
    let single = zstd::bulk::compress(content.as_bytes(), 3).unwrap();
    assert_ne!(single[4] & 0x20, 0, "single-segment");
    let path = file(&dir, "single.zst", &single);
    run(&["--zstd-memory", "1M", &path], b"").failed(&[&format!(
        "{path}: zstd frame needs a 1536 KiB window, more than the zstd memory limit allows \
         (1 MiB); raise it with --zstd-memory 2M"
    )]);
    // A bad size is a usage error.
    let ran = run(&["--zstd-memory", "lots", &path], b"");
    assert_eq!(ran.code, Some(2));
    assert!(ran.stderr.contains("--zstd-memory"), "{}", ran.stderr);
}

#[test]
fn gzip_with_zero_padding_and_trailing_garbage() {
    let dir = tempfile::tempdir().unwrap();
    let text = numbered_urls(1000);
    let packed = gzip(text.as_bytes());
    let padded = [packed.clone(), vec![0; 4096]].concat();
    let path = file(&dir, "padded.gz", &padded);
    for j in ["1", "2"] {
        assert_eq!(run(&["-j", j, &path], b"").ok().out(), text, "-j {j}");
    }
    assert_eq!(run(&[], &padded).ok().out(), text, "on stdin");
    let two = [packed.clone(), packed.clone(), vec![0; 3]].concat();
    let path = file(&dir, "two.gz", &two);
    assert_eq!(run(&[&path], b"").ok().out(), text.repeat(2));
    // Trailing garbage: every line of the members before is written, then
    // the run stops with an error, as before (gzip -dc writes the data too
    // and exits with status 2). Zeros followed by more are not padding:
    // gzip -d ignores a member after them as "trailing garbage" too.
    let good = file(&dir, "good.txt", b"http://good.example/\n");
    for (name, tail) in [
        ("garbage.gz", b"garbage\n".to_vec()),
        (
            "zeros-then-garbage.gz",
            [vec![0; 10], b"x".to_vec()].concat(),
        ),
        (
            "zeros-then-member.gz",
            [vec![0; 10], packed.clone()].concat(),
        ),
    ] {
        let path = file(&dir, name, &[packed.clone(), tail].concat());
        for j in ["1", "2"] {
            let ran = run(&["-j", j, &path, &good], b"").failed(&[&format!(
                "{path}: corrupt or truncated gzip data near compressed byte"
            )]);
            assert_eq!(ran.out(), text, "{name} -j {j}");
        }
    }
}

/// A few bytes of each compression format normurl does not decode, with
/// how messages name it and the command that decompresses it.
fn unsupported() -> Vec<(&'static str, Vec<u8>, &'static str, &'static str)> {
    let tail = [0x80, 0x81, 0x82, 0x0a, 0x00, 0xff, 0x10];
    let with = |head: &[u8]| [head, &tail[..]].concat();
    vec![
        (
            "x.lz4",
            with(b"\x04\x22\x4d\x18"),
            "lz4-compressed",
            "lz4 -dc",
        ),
        (
            "legacy.lz4",
            with(b"\x02\x21\x4c\x18"),
            "lz4-compressed",
            "lz4 -dc",
        ),
        ("x.zip", with(b"PK\x03\x04"), "zip archive", "unzip -p"),
        ("empty.zip", with(b"PK\x05\x06"), "zip archive", "unzip -p"),
        ("x.lz", with(b"LZIP\x01"), "lzip-compressed", "lzip -dc"),
        ("x.Z", with(b"\x1f\x9d"), "compress (.Z)", "gzip -dc"),
        (
            "x.7z",
            with(b"7z\xbc\xaf\x27\x1c"),
            "7z archive",
            "7z e -so",
        ),
        // An lz4 frame after a skippable frame (both formats have them).
        (
            "skip.lz4",
            [skippable(0x184D_2A51, b"meta"), with(b"\x04\x22\x4d\x18")].concat(),
            "lz4-compressed",
            "lz4 -dc",
        ),
    ]
}

#[test]
fn formats_normurl_does_not_decode_are_refused_before_any_output() {
    let dir = tempfile::tempdir().unwrap();
    let good = file(&dir, "good.txt", b"http://good.example/\n");
    let out = dir.path().join("out.txt");
    let out = out.to_str().unwrap();
    for (name, bytes, format, command) in unsupported() {
        let path = file(&dir, name, &bytes);
        let what = format!("{path}: {format} input is not supported");
        let how = format!("(decompress it first: {command} {path} | normurl)");
        // After a good file: nothing of it is written, and the output file
        // is not even created.
        for j in ["1", "2"] {
            let ran = run(&["-j", j, &good, &path, "-o", out], b"").failed(&[&what, &how]);
            assert!(ran.stdout.is_empty());
            assert!(!std::path::Path::new(out).exists(), "{name}: {out} created");
        }
        // On standard input the first bytes are all there is to go on.
        // unzip and 7z do not read archives from a pipe.
        let file_arg = if command.starts_with("unzip") || command.starts_with("7z") {
            " FILE"
        } else {
            ""
        };
        let ran = run(&[], &bytes).failed(&[
            &format!("<stdin>: {format} input is not supported"),
            &format!("(decompress it first: {command}{file_arg} | normurl)"),
        ]);
        assert!(ran.stdout.is_empty(), "{name} on stdin");
    }
    // The suggested command quotes a path the shell would split.
    let path = file(&dir, "it's here.lz4", b"\x04\x22\x4d\x18");
    let quoted = path.replace('\'', r"'\''");
    run(&[&path], b"").failed(&[&format!("lz4 -dc '{quoted}' | normurl)")]);
}

#[test]
fn text_that_begins_like_a_magic_number_is_text() {
    let dir = tempfile::tempdir().unwrap();
    for text in [
        "BZh91AY http://a.example/\n",
        "BZh9\nhttp://a.example/\n",
        "BZh\n",
        "PK http://a.example/\n",
        "PK\n",
        "LZIP http://a.example/\n",
        "7z\n",
        "P*M\n",
    ] {
        let path = file(&dir, "text.txt", text.as_bytes());
        let ran = run(&[&path], b"").ok();
        assert_eq!(ran.stdout, plain_output(text), "{text:?}");
        assert_eq!(ran.out().lines().count(), text.lines().count(), "{text:?}");
    }
}

#[test]
fn bench_reads_compressed_files_as_the_command_does() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read("samples/urls.txt").unwrap();
    let gz = file(&dir, "urls.txt.gz", &gzip(&text));
    let zst = file(&dir, "urls.txt.zst", &zstd(&text));
    let bz2 = file(&dir, "urls.txt.bz2", &bzip2(&text));
    let xz = file(&dir, "urls.txt.xz", &xz(&text));
    let urls = |ran: &Ran| -> Vec<String> {
        // file, URLs, valid, threads, ...: the URL and valid counts of
        // normurl's rows (the peers' follow with --features peers).
        ran.out()
            .lines()
            .skip(1)
            // The parser's name, then its time over normurl's: `normurl`,
            // not `normurl can_parse` (a peers row).
            .filter(|l| {
                let parser: Vec<&str> = l.split_whitespace().skip(8).collect();
                parser.len() == 2 && parser[0] == "normurl"
            })
            .map(|l| {
                l.split_whitespace()
                    .skip(1)
                    .take(2)
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    };
    let plain = run(
        &["bench", "--runs", "1", "-j", "2", "samples/urls.txt"],
        b"",
    )
    .ok();
    let counts = urls(&plain);
    assert_eq!(counts.len(), 2);
    assert!(counts[0].starts_with("5000 "), "{}", plain.out());
    for path in [&gz, &zst, &bz2, &xz] {
        let ran = run(&["bench", "--runs", "1", "-j", "2", path], b"").ok();
        assert_eq!(urls(&ran), counts, "{}", ran.out());
    }
    let lz4 = file(&dir, "urls.txt.lz4", b"\x04\x22\x4d\x18\x80\x81");
    run(&["bench", "--runs", "1", &lz4], b"").failed(&[&format!(
        "{lz4}: lz4-compressed input is not supported (decompress it first: lz4 -dc {lz4} | normurl)"
    )]);
}

/// A compressor, for tests that run over several.
type Compress = fn(&[u8]) -> Vec<u8>;

/// bzip2 and xz, one stream or several (as pbzip2 and Wikipedia's
/// multistream dumps make them), from a file at every -j and on stdin.
#[test]
fn bzip2_and_xz_are_decoded_with_every_stream() {
    let dir = tempfile::tempdir().unwrap();
    let text = numbered_urls(3000);
    let expected = plain_output(&text);
    let (a, b) = text.split_at(text.len() / 3);
    let compressors: [(&str, Compress); 2] = [("bz2", bzip2), ("xz", xz)];
    for (ext, compress) in compressors {
        let one = compress(text.as_bytes());
        let two = [compress(a.as_bytes()), compress(b.as_bytes())].concat();
        for (name, bytes) in [("one", one), ("two", two)] {
            let path = file(&dir, &format!("{name}.{ext}"), &bytes);
            for j in ["1", "2"] {
                let ran = run(&["-j", j, &path], b"").ok();
                assert_eq!(ran.stdout, expected, "{name}.{ext} -j {j}");
            }
            assert_eq!(
                run(&[], &bytes).ok().stdout,
                expected,
                "{name}.{ext} on stdin"
            );
        }
    }
}

/// Damage in a bzip2 or xz file, as in gzip and zstd: every complete line
/// before it is written, then the run stops with status 2, naming the file
/// and where in it the damage is.
#[test]
fn damaged_bzip2_and_xz_give_the_lines_before_then_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let first = numbered_urls(2000);
    let second = numbered_urls(4000)[first.len()..].to_string();
    let compressors: [(&str, &str, Compress); 2] = [("bz2", "bzip2", bzip2), ("xz", "xz", xz)];
    for (ext, format, compress) in compressors {
        let head = compress(first.as_bytes());
        let tail = compress(second.as_bytes());
        // The second stream cut in half, or with bytes in its middle
        // overwritten.
        let mut flipped = tail.clone();
        let mid = flipped.len() / 2;
        flipped[mid..mid + 8].copy_from_slice(b"\xff\x00\xffdamag");
        let cut = tail[..tail.len() / 2].to_vec();
        for (kind, damaged) in [("cut", cut), ("flipped", flipped)] {
            let path = file(
                &dir,
                &format!("{kind}.{ext}"),
                &[&head[..], &damaged].concat(),
            );
            let mut outputs = Vec::new();
            for j in ["1", "2"] {
                let ran = run(&["-j", j, &path], b"").failed(&[&format!(
                    "{path}: corrupt or truncated {format} data near compressed byte"
                )]);
                let out = ran.out();
                outputs.push(out.clone());
                assert!(
                    out.starts_with(&first),
                    "{kind}.{ext} -j {j}: {}",
                    out.len()
                );
                // The check sums come at the end of a bzip2 block (up to
                // 900 kB) or an xz block: what a damaged block decoded to
                // before them is not checked, as in a gzip member.
                if kind == "cut" {
                    assert!(
                        second.starts_with(&out[first.len()..]),
                        "{kind}.{ext} -j {j}"
                    );
                }
                assert!(
                    out.ends_with('\n'),
                    "{kind}.{ext} -j {j}: complete lines only"
                );
            }
            assert_eq!(outputs[0], outputs[1], "{kind}.{ext}: -j 1 and -j 2");
        }
    }
}

/// `n` lines of URLs that compress about as badly as real ones (about
/// 12 bytes a line in gzip), so that a few MB of gzip take little time.
fn varied_urls(seed: u64, n: usize) -> String {
    let mut x = seed.wrapping_mul(6_364_136_223_846_793_005) | 1;
    (0..n)
        .map(|_| {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            format!(
                "HTTP://h{}.Example/a/../{}?q={}\n",
                x >> 44,
                x % 977,
                x >> 54
            )
        })
        .collect()
}

/// Many gzip members (crawl archives, BGZF) are decoded in parallel: the
/// output, and with damage the output before it and the message, are the
/// same at every -j.
#[test]
fn gzip_members_decode_alike_at_every_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let parts: Vec<String> = (0..30).map(|i| varied_urls(i, 2000)).collect();
    let text = parts.concat();
    let packed: Vec<u8> = parts.iter().flat_map(|p| gzip(p.as_bytes())).collect();
    assert!(
        packed.len() > 512 << 10,
        "two chunks or more: {}",
        packed.len()
    );
    let expected = plain_output(&text);
    let path = file(&dir, "members.gz", &packed);
    for j in ["1", "2", "3"] {
        assert_eq!(run(&["-j", j, &path], b"").ok().stdout, expected, "-j {j}");
    }
    // Damage in a member in the middle, and garbage after the members.
    let mut flipped = packed.clone();
    let mid = packed.len() / 2;
    flipped[mid..mid + 64].fill(0x55);
    let garbage = [&packed[..], b"not gzip\n"].concat();
    for (name, bytes) in [("flipped.gz", flipped), ("garbage.gz", garbage)] {
        let path = file(&dir, name, &bytes);
        let one = run(&["-j", "1", &path], b"").failed(&[&format!(
            "{path}: corrupt or truncated gzip data near compressed byte"
        )]);
        assert!(
            one.stdout.len() > 1000 && one.stdout.ends_with(b"\n"),
            "{name}"
        );
        for j in ["2", "3"] {
            let ran = run(&["-j", j, &path], b"");
            assert_eq!(
                (&ran.stdout, &ran.stderr, ran.code),
                (&one.stdout, &one.stderr, one.code),
                "{name} -j {j}"
            );
        }
    }
}

/// `bench --json` on `path`: one object per measurement.
fn bench_json(path: &str) -> Vec<serde_json::Value> {
    let ran = run(&["bench", "--runs", "1", "-j", "2", "--json", path], b"").ok();
    ran.out()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// `bench --json`: one object per measurement, normurl's first; built
/// with `--features peers`, ada and the url crate's rows follow, each with
/// its time over normurl's, ada's C++ entry points among them where
/// build.rs found a C++ compiler. Those that build an href sum the hrefs'
/// lengths.
#[test]
fn bench_json_rows_and_peers() {
    let rows = bench_json("samples/urls.txt");
    let parsers: Vec<&str> = rows.iter().map(|r| r["parser"].as_str().unwrap()).collect();
    let mut expected = vec!["normurl", "normurl"];
    if cfg!(feature = "peers") {
        expected.extend(["normurl can_parse", "ada-url href", "ada-url can_parse"]);
        if cfg!(ada_cpp) {
            expected.extend(["ada C++ url_aggregator", "ada C++ can_parse"]);
        }
        expected.push("url crate");
    }
    assert_eq!(parsers, expected);
    // samples/urls.txt is nearly canonical: each href is its line, one
    // has a `/` added; all the parsers agree on these.
    let text = std::fs::read_to_string("samples/urls.txt").unwrap();
    let line_bytes: usize = text.lines().map(str::len).sum();
    for r in &rows {
        let href_bytes = &r["href_bytes"];
        if r["parser"].as_str().unwrap().ends_with("can_parse") {
            assert!(href_bytes.is_null(), "{r}");
        } else {
            assert_eq!(href_bytes.as_u64(), Some(line_bytes as u64 + 1), "{r}");
        }
    }
    assert_eq!(rows[0]["threads"], 1);
    assert_eq!(rows[1]["threads"], 2);
    assert_eq!(rows[0]["vs_normurl"], 1.0);
    for r in &rows {
        assert_eq!(r["urls"], 5000, "{r}");
        assert!(r["valid"].as_u64().unwrap() > 4000, "{r}");
        assert!(r["ns_per_url"].as_f64().unwrap() > 0.0, "{r}");
        assert!(r["mb_per_s"].as_f64().unwrap() > 0.0, "{r}");
    }
}

/// `bench --cpu-time` times the one-thread rows by the thread's CPU time
/// (`clock` in --json; "wall" without it, and for the all-thread row);
/// the table says so.
#[cfg(unix)]
#[test]
fn bench_cpu_time_is_named_in_the_output() {
    let clocks = |extra: &[&str]| -> Vec<(u64, String)> {
        let mut args = vec!["bench", "--runs", "1", "-j", "2", "--json"];
        args.extend(extra);
        args.push("samples/urls.txt");
        let ran = run(&args, b"").ok();
        ran.out()
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .map(|r| (r["threads"].as_u64().unwrap(), r["clock"].to_string()))
            .collect()
    };
    for (threads, clock) in clocks(&[]) {
        assert_eq!(clock, "\"wall\"", "{threads} threads");
    }
    for (threads, clock) in clocks(&["--cpu-time"]) {
        let expected = if threads == 1 { "\"cpu\"" } else { "\"wall\"" };
        assert_eq!(clock, expected, "{threads} threads");
    }
    let table = run(
        &["bench", "--runs", "1", "--cpu-time", "samples/urls.txt"],
        b"",
    )
    .ok();
    assert!(
        table
            .out()
            .contains("one-thread rows: the thread's CPU time (--cpu-time)"),
        "{}",
        table.out()
    );
}

/// ada's C++ entry points, called from the C++ loop of
/// src/cli/bench/ada_shim.cpp, count what ada through the crate counts
/// (the same library): the same valid URLs and the same href lengths, on
/// lines that are invalid, relative, to be normalized or of odd hosts. A
/// difference is a bug in the shim.
#[cfg(all(feature = "peers", ada_cpp))]
#[test]
fn bench_ada_cpp_agrees_with_the_crate() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = std::fs::read_to_string("samples/urls.txt").unwrap();
    text.push_str(concat!(
        "not a url\n/relative/path\nHTTP://EXAMPLE.COM:80/a/../b/./c\n",
        "https://xn--nxasmq6b.example/\nhttps://\u{4f8b}\u{3048}.jp/\u{30d1}\n",
        "http://0x7f.1/\nhttp://[::1]:8080/\nhttp://[::1\nfile:///C:/x\\y\n",
        "https://a b/\nmailto:someone@example.com\nhttps://u:p@h/?q=1 2#f r\n",
        "http://%zz/\nhttps://example.com/%7e?%7e#%7e\n",
    ));
    let path = file(&dir, "mixed.txt", text.as_bytes());
    let rows = bench_json(&path);
    let row = |name: &str| rows.iter().find(|r| r["parser"] == name).unwrap();
    let (crate_href, cpp_href) = (row("ada-url href"), row("ada C++ url_aggregator"));
    assert_eq!(crate_href["href_bytes"], cpp_href["href_bytes"]);
    let valid = crate_href["valid"].as_u64().unwrap();
    assert!((5000..5015).contains(&valid), "{crate_href}");
    for name in [
        "ada C++ url_aggregator",
        "ada C++ can_parse",
        "ada-url can_parse",
    ] {
        assert_eq!(row(name)["valid"], valid, "{name}");
    }
}
