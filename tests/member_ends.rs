//! A gzip member or zstd frame whose data does not end in a line break
//! ends a record, as the end of an input does: a ZipNum CDX shard is gzip
//! members of whole lines without a line break after each member's last
//! line (pywb writes and reads them so), and decompressed as one stream
//! each member's last line ran into the next member's first, silently.
//! The same at every -j and batch size, with --stats counting those
//! records, --json numbering the lines as they are, and CSV records.

mod common;

use common::bin::{file, gzip, run, Rng};

/// A member's worth of CDX-like URL lines, the last one without a line
/// break (or with `\r` only, or with `\n`, by `end`).
fn member_text(rng: &mut Rng, lines: usize, end: &str) -> String {
    let mut t: String = (0..lines)
        .map(|_| {
            let x = rng.next();
            format!(
                "HTTP://h{}.Example/a/../{}?q={:x}\n",
                x >> 50,
                x % 977,
                x >> 20
            )
        })
        .collect();
    t.pop();
    t + end
}

/// The members of a shard: most end without a line break, some with `\r`
/// or `\n`, one is empty; enough for several decoding chunks.
fn members() -> Vec<String> {
    let mut rng = Rng(7);
    (0..160)
        .map(|i| match i % 10 {
            3 => member_text(&mut rng, 400, "\r"),
            5 => member_text(&mut rng, 400, "\n"),
            7 if i == 7 => String::new(),
            _ => member_text(&mut rng, 400, ""),
        })
        .collect()
}

/// The same records as plain text: each member's data, with a line break
/// after it where it has none.
fn as_lines(members: &[String]) -> String {
    members
        .iter()
        .filter(|m| !m.is_empty())
        .map(|m| {
            if m.ends_with('\n') {
                m.clone()
            } else {
                format!("{m}\n")
            }
        })
        .collect()
}

/// The records that the end of a member ends: those of members that are
/// not empty and do not end in `\n`, but the last (the input ends it).
fn ended_by_members(members: &[String]) -> u64 {
    let n = members
        .iter()
        .filter(|m| !m.is_empty() && !m.ends_with('\n'))
        .count();
    n as u64 - u64::from(!members.last().unwrap().ends_with('\n'))
}

fn zstd_frame(text: &[u8]) -> Vec<u8> {
    zstd::bulk::compress(text, 3).unwrap()
}

/// Runs `args` on `path` at every -j and batch size; each run must give
/// `expected`, and its --stats-json the line count and the count of lines
/// ended by a member end.
fn check(path: &str, expected: &[u8], lines: u64, ended: u64) {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("stats.json");
    let json = json.to_str().unwrap();
    for j in ["1", "2"] {
        for batch in ["64", "5000", "1M"] {
            let args = ["-j", j, "--batch-bytes", batch, "--stats-json", json, path];
            let ran = run(&args, b"").ok();
            assert!(ran.stdout == expected, "{args:?}: {}", ran.stderr);
            let v: serde_json::Value =
                serde_json::from_slice(&std::fs::read(json).unwrap()).unwrap();
            assert_eq!(v["lines"], lines, "{args:?}");
            assert_eq!(v["lines_ended_by_member_end"], ended, "{args:?}");
        }
    }
}

#[test]
fn gzip_members_without_a_final_line_break_end_records() {
    let members = members();
    let lines = as_lines(&members);
    let total = lines.lines().count() as u64;
    let expected = run(&[], lines.as_bytes()).ok().stdout;
    assert_eq!(
        expected.iter().filter(|&&b| b == b'\n').count() as u64,
        total
    );
    let packed: Vec<u8> = members.iter().flat_map(|m| gzip(m.as_bytes())).collect();
    assert!(packed.len() > 600 << 10, "several chunks: {}", packed.len());
    let dir = tempfile::tempdir().unwrap();
    let path = file(&dir, "shard.cdx.gz", &packed);
    let ended = ended_by_members(&members);
    assert!(ended > 100);
    check(&path, &expected, total, ended);
    // --stats says it; standard input too.
    let ran = run(&["--stats", "-"], &packed).ok();
    assert_eq!(ran.stdout, expected);
    assert!(
        ran.stderr.contains("ended by a member end"),
        "{}",
        ran.stderr
    );
    // --json numbers each record with its line.
    let ran = run(&["-j", "2", "--json", &path], b"").ok();
    for (i, l) in ran.out().lines().enumerate() {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        assert_eq!(v["line"], i + 1, "{l}");
    }
    assert_eq!(ran.out().lines().count() as u64, total);
    // `bench` reads the same lines.
    let ran = run(&["bench", "--runs", "1", "-j", "2", "--json", &path], b"").ok();
    for row in ran.out().lines() {
        let v: serde_json::Value = serde_json::from_str(row).unwrap();
        assert_eq!(v["urls"], total, "{row}");
    }
}

#[test]
fn zstd_frames_without_a_final_line_break_end_records() {
    let members = members();
    let lines = as_lines(&members);
    let total = lines.lines().count() as u64;
    let expected = run(&[], lines.as_bytes()).ok().stdout;
    let packed: Vec<u8> = members
        .iter()
        .flat_map(|m| zstd_frame(m.as_bytes()))
        .collect();
    assert!(packed.len() > 600 << 10, "several chunks: {}", packed.len());
    let dir = tempfile::tempdir().unwrap();
    let path = file(&dir, "shard.cdx.zst", &packed);
    check(&path, &expected, total, ended_by_members(&members));
}

/// With --csv, a quote still open where a member ends makes that record
/// invalid (unclosed-quote), as at the end of the input, and the next
/// member's records are read as they are.
#[test]
fn csv_records_end_with_their_member() {
    let members = [
        "1,http://a.example/x/../\n2,\"http://b.example/",
        "3,http://c.example/\n4,\"http://d.example/\n\"\n5,E://x",
        "6,http://f.example/",
    ];
    let packed: Vec<u8> = members.iter().flat_map(|m| gzip(m.as_bytes())).collect();
    let dir = tempfile::tempdir().unwrap();
    let path = file(&dir, "x.csv.gz", &packed);
    for j in ["1", "2"] {
        let ran = run(
            &[
                "-j",
                j,
                "--field",
                "2",
                "--csv",
                "--explain",
                "--stats",
                &path,
            ],
            b"",
        )
        .ok();
        let expected = [
            "1,http://a.example/\t-",
            "2,\"http://b.example/\tinvalid:unclosed-quote",
            "3,http://c.example/\t-",
            "4,\"http://d.example/\"\t-",
            "5,e://x\t-",
            "6,http://f.example/\t-",
        ];
        assert_eq!(
            ran.out(),
            expected.map(|l| format!("{l}\n")).concat(),
            "-j {j}"
        );
    }
}

/// BGZF (`bgzip`: a `BC` field in each gzip header) and `pzstd` output
/// (its skippable frame before each frame) are one stream cut at any
/// byte: a line cut by a member or frame end is still one line.
#[test]
fn bgzf_and_pzstd_pieces_are_one_stream() {
    let members = members();
    let text = as_lines(&members);
    let expected = run(&[], text.as_bytes()).ok().stdout;
    let pieces: Vec<&[u8]> = text.as_bytes().chunks(65_280).collect();
    assert!(pieces.len() > 10);
    let bgzf: Vec<u8> = pieces
        .iter()
        .flat_map(|p| {
            let mut e = flate2::GzBuilder::new()
                .extra(vec![b'B', b'C', 2, 0, 0, 0])
                .write(Vec::new(), flate2::Compression::fast());
            std::io::Write::write_all(&mut e, p).unwrap();
            e.finish().unwrap()
        })
        .collect();
    let pzstd: Vec<u8> = pieces
        .iter()
        .flat_map(|p| {
            let frame = zstd_frame(p);
            let mut skippable = vec![0x50, 0x2a, 0x4d, 0x18, 4, 0, 0, 0];
            skippable.extend_from_slice(&(frame.len() as u32).to_le_bytes());
            [skippable, frame].concat()
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let total = text.lines().count() as u64;
    for (name, bytes) in [("x.bgz", bgzf), ("x.pzst", pzstd)] {
        let path = file(&dir, name, &bytes);
        check(&path, &expected, total, 0);
    }
}
