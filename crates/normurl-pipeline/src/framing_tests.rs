//! Line numbers and quoted-field records against a naive reference: every
//! file in memory, scanned byte by byte. Neither may depend on the batch
//! size, the thread count or where the gzip members of an input end.

use std::io::Write;

use proptest::prelude::*;

use super::*;

/// Writes `LINE:record` (`LINE:<record>` for an over-long one), and `!`
/// after a record whose quote is left open.
struct Numbered;

impl Transform for Numbered {
    type State = ();
    type Stats = ();
    const WANTS_STR: bool = true;

    fn state(&self) {}

    fn record(
        &self,
        _: &mut (),
        rec: Record<'_>,
        out: &mut Output<'_, ()>,
    ) -> Result<Outcome, Stop> {
        let line = out.line().unwrap_or(0);
        let data = out.data();
        let _ = write!(data, "{line}:");
        data.extend_from_slice(rec.bytes());
        if rec.unclosed_quote() {
            data.push(b'!');
        }
        Ok(Outcome::Emit)
    }

    fn overlong(
        &self,
        _: &mut (),
        part: Part,
        bytes: &[u8],
        out: &mut Output<'_, ()>,
    ) -> Result<Outcome, Stop> {
        if part == Part::First {
            let line = out.line().unwrap_or(0);
            let _ = write!(out.data(), "{line}:<");
        }
        out.data().extend_from_slice(bytes);
        if part == Part::Last {
            out.data().push(b'>');
        }
        Ok(Outcome::Emit)
    }
}

#[derive(Clone, Copy, Debug)]
struct Params {
    threads: usize,
    batch_bytes: usize,
    max_record: usize,
    quoted: bool,
}

const CSV: Framing = Framing::QuotedFields {
    quote: b'"',
    separator: b',',
};

/// The records of `file`: (start, end, terminated, unclosed), by a
/// byte-at-a-time state machine.
fn naive_records(file: &[u8], quoted: bool) -> Vec<(usize, usize, bool, bool)> {
    let (mut records, mut start) = (Vec::new(), 0);
    let (mut in_quotes, mut at_field_start) = (false, true);
    let mut i = 0;
    while i < file.len() {
        let b = file[i];
        if in_quotes {
            if b == b'"' && file.get(i + 1) == Some(&b'"') {
                i += 1;
            } else if b == b'"' {
                in_quotes = false;
            }
            at_field_start = false;
        } else if b == b'\n' {
            records.push((start, i, true, false));
            start = i + 1;
            at_field_start = true;
        } else {
            in_quotes = quoted && b == b'"' && at_field_start;
            at_field_start = b == b',';
        }
        i += 1;
    }
    if start < file.len() {
        records.push((start, file.len(), false, in_quotes));
    }
    records
}

fn naive(files: &[Vec<u8>], p: Params) -> Vec<u8> {
    let files: Vec<Vec<Vec<u8>>> = files.iter().map(|f| vec![f.clone()]).collect();
    naive_members(&files, p)
}

/// [`naive`] for files cut into gzip members (or zstd frames), each file
/// its members' data: a member whose data does not end in `\n` ends its
/// last record, as the end of the file does (see `UnitEnds`).
fn naive_members(files: &[Vec<Vec<u8>>], p: Params) -> Vec<u8> {
    let mut out = Vec::new();
    for members in files {
        // What the ends of members cut the file into.
        let mut parts = vec![Vec::new()];
        for m in members {
            parts.last_mut().unwrap().extend_from_slice(m);
            if !m.is_empty() && !m.ends_with(b"\n") {
                parts.push(Vec::new());
            }
        }
        let mut lines_before = 0;
        for (k, part) in parts.iter().enumerate() {
            let part = match k {
                0 => part.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(part),
                _ => part,
            };
            naive_part(part, lines_before, p, &mut out);
            lines_before += part.iter().filter(|&&b| b == b'\n').count();
            lines_before += usize::from(!part.is_empty() && !part.ends_with(b"\n"));
        }
    }
    out
}

/// The records of `file`, whose first line is line `lines_before + 1`.
fn naive_part(file: &[u8], lines_before: usize, p: Params, out: &mut Vec<u8>) {
    for (start, end, terminated, unclosed) in naive_records(file, p.quoted) {
        let mut rec = &file[start..end];
        let mut crlf = false;
        if terminated {
            crlf = rec.ends_with(b"\r");
            rec = rec.strip_suffix(b"\r").unwrap_or(rec);
        }
        let line = lines_before + 1 + file[..start].iter().filter(|&&b| b == b'\n').count();
        if unclosed && rec.len() <= p.max_record + 1 {
            // The final line break of a quote left open is its
            // terminator, written back as it was (unless the record may
            // be over the limit).
            if let Some(body) = rec.strip_suffix(b"\n") {
                crlf = body.ends_with(b"\r");
                rec = body.strip_suffix(b"\r").unwrap_or(body);
            }
        }
        if rec.len() > p.max_record {
            let _ = write!(out, "{line}:<");
            out.extend_from_slice(rec);
            out.push(b'>');
        } else {
            let _ = write!(out, "{line}:");
            out.extend_from_slice(rec);
            if unclosed {
                out.push(b'!');
            }
        }
        // With quoted fields a record keeps its `\r\n`.
        if crlf && p.quoted {
            out.push(b'\r');
        }
        out.push(b'\n');
    }
}

fn run_numbered(inputs: Vec<Input>, p: Params, gzip_chunk: usize) -> Vec<u8> {
    let pipeline = Pipeline::builder()
        .threads(p.threads)
        .batch_bytes(p.batch_bytes)
        .max_record_bytes(p.max_record)
        .gzip_chunk_bytes(gzip_chunk)
        .framing(if p.quoted { CSV } else { Framing::Lines })
        .number_lines(true)
        .build(Numbered);
    let mut out = Vec::new();
    pipeline
        .run(inputs, Sinks::new("out", &mut out))
        .expect("runs");
    out
}

fn check(files: &[Vec<u8>], p: Params) {
    let dir = tempfile::tempdir().unwrap();
    let inputs: Vec<Input> = files
        .iter()
        .enumerate()
        .map(|(i, bytes)| {
            let path = dir.path().join(format!("in{i}"));
            std::fs::write(&path, bytes).unwrap();
            Input::path(path)
        })
        .collect();
    let expected = naive(files, p);
    let got = run_numbered(inputs, p, decode::GZIP_CHUNK);
    assert_eq!(
        String::from_utf8_lossy(&got),
        String::from_utf8_lossy(&expected),
        "{p:?}"
    );
}

#[test]
fn lines_are_numbered_per_input() {
    let files = [
        b"\xEF\xBB\xBFa\n\nb\r\nc".to_vec(),
        b"\n\nd\n".to_vec(),
        b"a,\"x\ny\",z\n\"q\"\"\r\n\",c\nd\"e\nf,\"open\nrest\n".to_vec(),
    ];
    for quoted in [false, true] {
        for (threads, batch_bytes) in [(1, 1 << 20), (1, 1), (2, 1), (2, 3), (3, 7)] {
            for max_record in [1 << 20, 3] {
                let p = Params {
                    threads,
                    batch_bytes,
                    max_record,
                    quoted,
                };
                check(&files, p);
            }
        }
    }
    let p = Params {
        threads: 2,
        batch_bytes: 2,
        max_record: 1 << 20,
        quoted: true,
    };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("in.csv");
    std::fs::write(&path, &files[2]).unwrap();
    assert_eq!(
        run_numbered(vec![Input::path(&path)], p, decode::GZIP_CHUNK),
        b"1:a,\"x\ny\",z\n3:\"q\"\"\r\n\",c\n5:d\"e\n6:f,\"open\nrest!\n"
    );
}

/// An input cut into gzip members at any byte, decoded in parallel in
/// small pieces: a member whose data does not end in a line break ends its
/// last record, and the numbers run on across the members. BGZF members
/// (a `BC` field in their headers) are one stream.
#[test]
fn numbers_run_across_gzip_members() {
    use flate2::{Compression, GzBuilder};
    let mut text = Vec::new();
    for i in 0..3000 {
        match i % 7 {
            0 => text.push(b'\n'),
            3 => {
                let _ = write!(text, "{i},\"multi\nline\"\n");
            }
            _ => {
                let _ = write!(text, "{i},http://e{i}.example/\r\n");
            }
        }
    }
    let pieces: Vec<Vec<u8>> = text.chunks(997).map(<[u8]>::to_vec).collect();
    let members = |extra: &[u8]| -> Vec<u8> {
        let mut gz = Vec::new();
        for part in &pieces {
            let builder = match extra {
                [] => GzBuilder::new(),
                _ => GzBuilder::new().extra(extra.to_vec()),
            };
            let mut e = builder.write(Vec::new(), Compression::fast());
            e.write_all(part).unwrap();
            gz.extend(e.finish().unwrap());
        }
        gz
    };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("in.gz");
    let bgzf = dir.path().join("in.bgz");
    std::fs::write(&path, members(&[])).unwrap();
    std::fs::write(&bgzf, members(&[b'B', b'C', 2, 0, 0, 0])).unwrap();
    for quoted in [false, true] {
        for threads in [1, 2, 4] {
            for batch_bytes in [333, 1 << 20] {
                let p = Params {
                    threads,
                    batch_bytes,
                    max_record: 1 << 20,
                    quoted,
                };
                let got = run_numbered(vec![Input::path(&path)], p, 64);
                let expected = naive_members(std::slice::from_ref(&pieces), p);
                assert_eq!(
                    String::from_utf8_lossy(&got),
                    String::from_utf8_lossy(&expected),
                    "{p:?}"
                );
                let got = run_numbered(vec![Input::path(&bgzf)], p, 64);
                assert_eq!(got, naive(std::slice::from_ref(&text), p), "{p:?}");
            }
        }
    }
}

/// The same with members of random bytes and sizes, and records longer
/// than the limit: what is cut where does not depend on the batch size,
/// the thread count or the chunk size.
#[test]
fn member_ends_match_the_reference() {
    use flate2::{write::GzEncoder, Compression};
    let mut rng = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    for round in 0..150 {
        let members: Vec<Vec<u8>> = (0..1 + next() % 12)
            .map(|_| {
                let len = next() % 40;
                (0..len)
                    .map(|_| b"ab,\"\n\r\n"[(next() % 7) as usize])
                    .collect()
            })
            .collect();
        let gz: Vec<u8> = members
            .iter()
            .flat_map(|m| {
                let mut e = GzEncoder::new(Vec::new(), Compression::fast());
                e.write_all(m).unwrap();
                e.finish().unwrap()
            })
            .collect();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("in.gz");
        std::fs::write(&path, &gz).unwrap();
        for (threads, batch_bytes, max_record, chunk) in [
            (1, 1 << 20, 1 << 20, 1 << 20),
            (1, 1, 5, 1),
            (2, 3, 1 << 20, 40),
            (3, 7, 4, 1),
        ] {
            let p = Params {
                threads,
                batch_bytes,
                max_record,
                quoted: round % 2 == 1,
            };
            let got = run_numbered(vec![Input::path(&path)], p, chunk);
            let expected = naive_members(std::slice::from_ref(&members), p);
            assert_eq!(
                String::from_utf8_lossy(&got),
                String::from_utf8_lossy(&expected),
                "{p:?} {chunk} {members:?}"
            );
        }
    }
}

fn arb_file() -> impl Strategy<Value = Vec<u8>> {
    let byte = prop::sample::select(vec![b'a', b',', b'"', b'"', b'\n', b'\n', b'\r', 0xEF]);
    prop::collection::vec(byte, 0..300)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Records and their numbers do not depend on the batch size, the
    /// thread count or the record limit's pieces.
    #[test]
    fn records_and_numbers_match_the_reference(
        files in prop::collection::vec(arb_file(), 1..4),
        threads in 1usize..=4,
        batch_bytes in prop_oneof![1usize..=16, 17usize..=512, Just(1 << 20)],
        max_record in prop_oneof![0usize..=24, Just(1 << 20)],
        quoted in any::<bool>(),
    ) {
        check(&files, Params { threads, batch_bytes, max_record, quoted });
    }
}
