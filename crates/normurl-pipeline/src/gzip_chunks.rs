//! gzip members as [`Units`]: chunks of a multi-member gzip input
//! decoded in parallel (see `chunks.rs`).
//!
//! A gzip header does not say how long its member is, so a cut is a
//! guess: the first place at or after the target where a gzip header can
//! begin. A guess inside a member (odds about 10^-11 per byte) shows when
//! that member runs out of input at the cut: the chunk is then decoded
//! again with the next one appended ([`End::Cut`]).

use std::io::{self, BufReader, Read};

use flate2::bufread::GzDecoder;

use super::chunks::{is_bgzf, unit_end, DamageAt, End, Marks, Scan, Units, OUT_CAP, STEP};
use super::decoder_reads::chunked_boxed;
use super::gzip_members::{next_member, Members};

/// gzip members, with the record terminator (a member whose data does not
/// end in it ends a record: see [`UnitEnds`](super::chunks::UnitEnds)):
/// see the module documentation.
pub(crate) struct Gzip {
    pub(crate) term: u8,
    /// The regular file the input is, if it is one: a long member alone
    /// at its end is then inflated on `threads` threads
    /// (`gzip_parallel.rs`).
    #[cfg(feature = "parallel-gzip")]
    pub(crate) seekable: Option<super::gzip_parallel::Seekable>,
    #[cfg(feature = "parallel-gzip")]
    pub(crate) threads: usize,
}

impl Gzip {
    /// gzip members with the record terminator `term`, streamed by one
    /// decoder when long.
    pub(crate) fn new(term: u8) -> Gzip {
        Gzip {
            term,
            #[cfg(feature = "parallel-gzip")]
            seekable: None,
            #[cfg(feature = "parallel-gzip")]
            threads: 1,
        }
    }
}

impl Units for Gzip {
    fn scan(&self, buf: &[u8], from: usize, target: usize, _eof: bool) -> Scan {
        header_from(buf, from.max(target))
    }

    fn decode(
        &self,
        input: &[u8],
        start: u64,
        last: bool,
        out: &mut Vec<u8>,
        ends: &mut Vec<usize>,
    ) -> End {
        match members(input, last, out, (self.term, ends)) {
            Failed::Not(end) => end,
            Failed::At(e, at) => End::Failed(DamageAt::error(e, start + at as u64)),
        }
    }

    fn stream(
        &self,
        rest: Box<dyn Read + Send>,
        start: u64,
        marks: Marks,
    ) -> io::Result<Box<dyn Read + Send>> {
        #[cfg(feature = "parallel-gzip")]
        if let Some(seekable) = &self.seekable {
            // A file that cannot be scanned is left to the sequential
            // decoder, which reports what is wrong with it.
            if let Ok(Some(len)) = super::gzip_parallel::one_member(&seekable.file, start) {
                return super::gzip_parallel::reader(seekable, start, len, self.threads, marks);
            }
        }
        let _ = start;
        let members = Members::new(BufReader::with_capacity(1 << 16, rest)).marking(marks);
        Ok(chunked_boxed(Box::new(members)))
    }
}

/// How [`members`] ended: damage this many bytes into the chunk, or not.
enum Failed {
    At(io::Error, usize),
    Not(End),
}

/// Where the first possible gzip member header at or after `from` begins
/// (the magic number, deflate, no reserved flag, a known XFL and OS), or
/// up to where there is none.
fn header_from(buf: &[u8], from: usize) -> Scan {
    let mut at = from;
    while at < buf.len() {
        let Some(p) = memchr::memchr(0x1f, &buf[at..]).map(|p| at + p) else {
            break;
        };
        match buf[p..] {
            [0x1f, 0x8b, 8, flags, _, _, _, _, xfl, os, ..]
                if flags & 0xe0 == 0 && matches!(xfl, 0 | 2 | 4) && (os <= 13 || os == 255) =>
            {
                return Scan::Found(p)
            }
            // Not all read yet: judged when it is.
            _ if buf.len() - p < 10 => return Scan::Upto(p),
            _ => at = p + 1,
        }
    }
    Scan::Upto(at.max(buf.len()))
}

/// Decodes the members of `input` (which begins with one), and pushes
/// onto `ends` where those whose data does not end in `term` end. `last`:
/// no more input follows, so a member cut short is damage, not a wrong cut.
fn members(
    input: &[u8],
    last: bool,
    out: &mut Vec<u8>,
    (term, ends): (u8, &mut Vec<usize>),
) -> Failed {
    let mut rest = input;
    loop {
        let from = out.len();
        let mut member = GzDecoder::new(rest);
        loop {
            let len = out.len();
            out.resize(len + STEP, 0);
            match member.read(&mut out[len..]) {
                Ok(n) => {
                    out.truncate(len + n);
                    if n == 0 {
                        break;
                    }
                    if out.len() > OUT_CAP {
                        return Failed::Not(End::Overflow);
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => out.truncate(len),
                Err(e) => {
                    out.truncate(len);
                    let at = input.len() - member.get_ref().len();
                    let ran_out = at == input.len() || e.kind() == io::ErrorKind::UnexpectedEof;
                    return if ran_out && !last {
                        Failed::Not(End::Cut)
                    } else {
                        Failed::At(e, at)
                    };
                }
            }
        }
        if !member.header().and_then(|h| h.extra()).is_some_and(is_bgzf) {
            unit_end(out, from, term, ends);
        }
        rest = member.into_inner();
        let padded = rest.first() == Some(&0);
        match next_member(&mut rest) {
            Ok(true) => {}
            // Zeros are padding only at the very end of the input.
            Ok(false) if padded && !last => return Failed::At(garbage(), input.len()),
            Ok(false) => return Failed::Not(End::Clean),
            Err(e) => return Failed::At(e, input.len() - rest.len()),
        }
    }
}

fn garbage() -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        "trailing garbage after the last gzip member",
    )
}

#[cfg(test)]
mod tests {
    use super::super::chunks::test_support::{drain, read_all, url_text, whole};
    use super::super::chunks::{Chunks, UnitEnds, REACH, TARGET};
    use super::*;
    use std::io::{Cursor, Write};

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(bytes).unwrap();
        e.finish().unwrap()
    }

    /// Everything `Chunks` hands out, and its error.
    fn decode(bytes: &[u8], threads: usize) -> (Vec<u8>, Option<String>) {
        let mut chunks = Chunks::new(
            Gzip::new(b'\n'),
            Box::new(Cursor::new(bytes.to_vec())),
            0,
            threads,
            TARGET,
            (Default::default(), b'\n'),
        )
        .unwrap();
        let (out, err) = read_all(&mut chunks);
        let err = err.map(|e| {
            let at = e.get_ref().and_then(|e| e.downcast_ref::<DamageAt>());
            let at = at.map_or(String::new(), |d| format!(" at {}", d.offset));
            format!("{e}{at}")
        });
        (out, err)
    }

    #[test]
    fn many_members_at_every_thread_count() {
        let parts: Vec<Vec<u8>> = (0..40).map(|i| url_text(i, 7000)).collect();
        let whole: Vec<u8> = parts.concat();
        let packed: Vec<u8> = parts.iter().flat_map(|p| gzip(p)).collect();
        assert!(packed.len() > 2 * TARGET, "{}", packed.len());
        for threads in [1, 2, 5] {
            assert_eq!(decode(&packed, threads), (whole.clone(), None), "{threads}");
        }
        // One long member: streamed past REACH.
        let long: Vec<u8> = (0..150).flat_map(|i| url_text(i, 7000)).collect();
        let one = gzip(&long);
        assert!(one.len() > REACH, "{}", one.len());
        assert_eq!(decode(&one, 2), (long, None));
        // A header look-alike inside a member's data: a wrong cut, decoded
        // again with the next chunk.
        let mut fake = parts[0].clone();
        fake.extend_from_slice(&url_text(99, 60_000));
        let stored = {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::none());
            let mut data = fake.clone();
            let at = TARGET + 100;
            data[at..at + 10].copy_from_slice(&[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);
            e.write_all(&data).unwrap();
            (e.finish().unwrap(), data)
        };
        let (packed, data) = stored;
        let packed = [packed, gzip(b"tail\n")].concat();
        for threads in [1, 3] {
            assert_eq!(
                decode(&packed, threads),
                ([&data[..], b"tail\n"].concat(), None),
                "{threads}"
            );
        }
    }

    /// The members whose data does not end in `\n` (empty ones aside)
    /// are found, whether chunks are decoded (a chunk per member, on one
    /// thread or two) or streamed; BGZF members are not.
    #[test]
    fn member_ends_found_alike_chunked_and_streamed() {
        let parts: [&[u8]; 6] = [b"a\nb", b"c\n", b"", b"d\r", b"\n", b"e"];
        let packed: Vec<u8> = parts.iter().flat_map(|p| gzip(p)).collect();
        let text = parts.concat();
        let expected = vec![3, 7, 9];
        for threads in [1, 2] {
            let ends = std::sync::Arc::new(UnitEnds::default());
            let input = Box::new(Cursor::new(packed.clone()));
            let chunks = Chunks::new(
                Gzip::new(b'\n'),
                input,
                0,
                threads,
                1,
                (ends.clone(), b'\n'),
            );
            assert_eq!(whole(read_all(chunks.unwrap())), text.clone());
            assert_eq!(drain(&ends), expected, "{threads}");
        }
        let ends = std::sync::Arc::new(UnitEnds::default());
        let marks = Marks::new(ends.clone(), b'\n', 0);
        let input = Box::new(Cursor::new(packed.clone()));
        let streamed = Gzip::new(b'\n').stream(input, 0, marks).unwrap();
        assert_eq!(whole(read_all(streamed)), text.clone());
        assert_eq!(drain(&ends), expected);
        // BGZF: the same members, each with a `BC` field.
        let bgzf: Vec<u8> = parts
            .iter()
            .flat_map(|p| {
                let mut e = flate2::GzBuilder::new()
                    .extra(vec![b'X', b'Y', 1, 0, 7, b'B', b'C', 2, 0, 0, 0])
                    .write(Vec::new(), flate2::Compression::fast());
                e.write_all(p).unwrap();
                e.finish().unwrap()
            })
            .collect();
        let ends = std::sync::Arc::new(UnitEnds::default());
        let input = Box::new(Cursor::new(bgzf.clone()));
        let chunks = Chunks::new(Gzip::new(b'\n'), input, 0, 1, 1, (ends.clone(), b'\n'));
        assert_eq!(whole(read_all(chunks.unwrap())), text.clone());
        assert_eq!(drain(&ends), Vec::<u64>::new());
        let marks = Marks::new(ends.clone(), b'\n', 0);
        let streamed = Gzip::new(b'\n').stream(Box::new(Cursor::new(bgzf)), 0, marks);
        assert_eq!(whole(read_all(streamed.unwrap())), text);
        assert_eq!(drain(&ends), Vec::<u64>::new());
        assert!(!is_bgzf(b"BD\x02\x00\x00\x00") && !is_bgzf(b"B") && !is_bgzf(b"XY\x09\x00BC"));
    }

    /// Members that each expand to more than a chunk may hold decoded (a
    /// compression ratio of about 1000): every byte, in order, with the
    /// member ends, and no chunk held past the cap, at every thread count;
    /// then members of ordinary text after them, and damage after those.
    #[test]
    fn decoded_bytes_held_are_capped_whatever_the_ratio() {
        use super::super::chunks::{OUT_CAP, STEP};
        let bomb = vec![b'a'; OUT_CAP / 3];
        let mut parts: Vec<Vec<u8>> = (0..8).map(|_| bomb.clone()).collect();
        parts.extend((0..20).map(|i| url_text(i, 7000)));
        let text = parts.concat();
        let packed: Vec<u8> = parts.iter().flat_map(|p| gzip(p)).collect();
        let held = |bytes: &[u8], threads| {
            let ends = std::sync::Arc::new(UnitEnds::default());
            let input = Box::new(Cursor::new(bytes.to_vec()));
            let marks = (ends.clone(), b'\n');
            let mut chunks = Chunks::new(Gzip::new(b'\n'), input, 0, threads, TARGET, marks);
            let chunks = chunks.as_mut().unwrap();
            let (out, err) = read_all(&mut *chunks);
            (out, err.map(|e| e.to_string()), drain(&ends), chunks.peak())
        };
        // Each member of `a`s ends without a line break: a record ends
        // there.
        let expected_ends: Vec<u64> = (1..=8).map(|i| (i * bomb.len()) as u64).collect();
        for threads in [1, 2, 4] {
            let (out, err, ends, peak) = held(&packed, threads);
            assert!(err.is_none(), "{err:?}");
            assert!(out == text, "{threads}");
            assert_eq!(ends, expected_ends, "{threads}");
            // Without the cap the first chunk would hold all eight.
            assert!(peak <= OUT_CAP + STEP, "{peak} at {threads}");
        }
        let cut = &packed[..packed.len() - 1000];
        let one = held(cut, 1);
        assert!(one.1.is_some());
        for threads in [2, 4] {
            assert_eq!(held(cut, threads), one, "{threads}");
        }
    }

    #[test]
    fn damage_gives_the_same_bytes_at_every_thread_count() {
        let parts: Vec<Vec<u8>> = (0..30).map(|i| url_text(i, 5000)).collect();
        let packed: Vec<u8> = parts.iter().flat_map(|p| gzip(p)).collect();
        let cases = [
            packed[..packed.len() / 2].to_vec(),
            [&packed[..], b"junk"].concat(),
            [&packed[..], &[0, 0][..], &gzip(b"x\n")].concat(),
            {
                let mut p = packed.clone();
                let mid = p.len() / 2;
                p[mid..mid + 16].fill(0xff);
                p
            },
        ];
        for bytes in cases {
            let one = decode(&bytes, 1);
            assert!(
                one.1.as_ref().is_some_and(|e| e.contains(" at ")),
                "{:?}",
                one.1
            );
            for threads in [2, 4] {
                assert_eq!(decode(&bytes, threads), one, "{threads}");
            }
        }
    }
}
