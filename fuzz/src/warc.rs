//! The `warc` target: the WARC reader ([`normurl::warc::Records`]) on any
//! bytes, plain or cut into gzip members.
//!
//! The first byte chooses: bit 0, whether the rest is read as it is or
//! first cut before each `WARC/` and gzipped a member per piece (as
//! crawlers write `.warc.gz`, so that the fuzzer reaches the member code
//! without having to write deflate); bit 1, whether blocks are kept (and
//! read by [`normurl::warc::wat_links`]). Checked: no panic; the reader
//! ends (an error ends it); every record lies within the file; records
//! never overlap and their offsets never decrease: the next record starts
//! where the one before ends or later, unless both came out of the same
//! gzip member (then they share its offset and length).

use std::io::Write;

use normurl::warc::{wat_links, Records};

/// The most records a check reads: far more than an input of the
/// fuzzer's size can hold (the smallest record is over 20 bytes).
const MAX_RECORDS: usize = 1 << 16;

/// Runs the check on one fuzz input; returns the number of records read.
pub fn check(data: &[u8]) -> usize {
    let Some((&mode, rest)) = data.split_first() else {
        return 0;
    };
    let file = if mode & 1 == 1 {
        members(rest)
    } else {
        rest.to_vec()
    };
    let keep = if mode & 2 == 2 { 1 << 12 } else { 0 };
    let mut previous: Option<(u64, u64)> = None;
    let mut count = 0;
    let mut records = Records::new(&file[..]).keep_blocks(keep);
    if mode & 4 == 4 {
        records = records.index(None);
    }
    for record in records {
        count += 1;
        assert!(count < MAX_RECORDS, "the reader does not end");
        let Ok(record) = record else {
            continue;
        };
        let (offset, length) = (record.offset, record.length);
        assert!(
            offset
                .checked_add(length)
                .is_some_and(|end| end <= file.len() as u64),
            "record at {offset}, {length} bytes, past the file's {} bytes",
            file.len()
        );
        if let Some((p_offset, p_length)) = previous {
            // Any input may be gzip or zstd itself, not only mode 1's.
            let same_member = (offset, length) == (p_offset, p_length);
            assert!(
                same_member || offset >= p_offset + p_length,
                "record at {offset} overlaps the one at {p_offset} ({p_length} bytes)"
            );
        }
        previous = Some((offset, length));
        if let Some(block) = &record.block {
            assert!(block.len() as u64 <= keep);
            let _ = wat_links(block);
        }
    }
    count
}

/// `bytes` cut before each `WARC/` and gzipped a member per piece.
fn members(bytes: &[u8]) -> Vec<u8> {
    let mut starts: Vec<usize> = (1..bytes.len())
        .filter(|&i| bytes[i..].starts_with(b"WARC/"))
        .collect();
    starts.insert(0, 0);
    starts.push(bytes.len());
    let mut out = Vec::new();
    for piece in starts.windows(2) {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(&bytes[piece[0]..piece[1]]).expect("in memory");
        out.extend(e.finish().expect("in memory"));
    }
    out
}
