//! zstd frames as [`Units`]: chunks of a multi-frame zstd input decoded in
//! parallel (see `chunks.rs`).
//!
//! Unlike a gzip member, a zstd frame says where it ends: its header and
//! block headers (RFC 8878 §3.1.1) give every length, so a cut is never a
//! guess. The walk also bounds what a chunk can decode to (a block gives
//! at most 128 KiB), so that a few KB of compressed input cannot make a
//! chunk of gigabytes in memory: frames that could are streamed.
//!
//! A file of one frame (as `zstd` makes), the last frame when it is
//! alone, and whatever the walk cannot follow (damaged headers, a frame
//! cut short) go to one streaming decoder, which reports the damage as it
//! did before chunks. The window limit is checked per frame both ways, by
//! [`zstd_frames`](super::zstd_frames).

use std::io::{self, BufRead, Read};

use super::chunks::{unit_end, DamageAt, End, Marks, Scan, Units, OUT_CAP, STEP};
use super::decoder_reads::chunked_boxed;
use super::zstd_frames::{self, header, Frames, Header, WindowTooLarge};

/// The most a block decodes to (Block_Maximum_Size, RFC 8878 §3.1.1.2.4).
const BLOCK_MAX: usize = 128 << 10;

/// The most a chunk may decode to, by its block headers: frames that may
/// decode to more are streamed. Above the frames `pzstd` writes (a few
/// windows each); what a chunk actually decodes to is held to
/// [`OUT_CAP`] (`chunks.rs`).
const OUT_MAX: u64 = 64 << 20;

/// zstd frames, with the largest window allowed and the record
/// terminator (a frame whose data does not end in it ends a record: see
/// [`UnitEnds`](super::chunks::UnitEnds)): see the module documentation.
pub(crate) struct Zstd {
    pub(crate) window_max: u64,
    pub(crate) term: u8,
    /// Whether the frames are pieces of one stream cut at any byte, as
    /// `pzstd` writes them: then the end of a frame ends nothing.
    pub(crate) pieces: bool,
}

impl Units for Zstd {
    fn scan(&self, buf: &[u8], _from: usize, target: usize, eof: bool) -> Scan {
        // From the start each time: a few hundred block headers at most.
        let (mut at, mut bound, mut units) = (0, 0, 0);
        loop {
            if at == buf.len() && eof {
                // One frame alone keeps one decoder, as a file that is
                // one frame did before chunks.
                return if units == 1 {
                    Scan::Stream
                } else {
                    Scan::Found(at)
                };
            }
            if units > 0 && at >= target {
                return Scan::Found(at);
            }
            match walk(&buf[at..]) {
                Walk::Unit { len, out } if units == 0 || bound + out <= OUT_MAX => {
                    if out > OUT_MAX {
                        return Scan::Stream;
                    }
                    (at, bound, units) = (at + len, bound + out, units + 1);
                }
                Walk::Unit { .. } => return Scan::Found(at),
                Walk::Short if !eof => return Scan::Upto(at),
                // Damage: the frames before it are a chunk, and it is the
                // streaming decoder's to report.
                Walk::Short | Walk::Bad if units > 0 => return Scan::Found(at),
                Walk::Short | Walk::Bad => return Scan::Stream,
            }
        }
    }

    fn decode(
        &self,
        input: &[u8],
        start: u64,
        _last: bool,
        out: &mut Vec<u8>,
        ends: &mut Vec<usize>,
    ) -> End {
        // Frame by frame, to know where each one's data ends. The chunk
        // was cut where the walk went (see `scan`); whatever it cannot
        // follow is decoded as one piece, for the decoder to report.
        let mut at = 0;
        while at < input.len() {
            let len = match walk(&input[at..]) {
                Walk::Unit { len, .. } => len,
                Walk::Short | Walk::Bad => input.len() - at,
            };
            let from = out.len();
            let end = self.decode_frames(&input[at..at + len], start + at as u64, out);
            if !matches!(end, End::Clean) {
                return end;
            }
            if !self.pieces {
                unit_end(out, from, self.term, ends);
            }
            at += len;
        }
        End::Clean
    }

    fn stream(
        &self,
        rest: Box<dyn Read + Send>,
        start: u64,
        marks: Marks,
    ) -> io::Result<Box<dyn Read + Send>> {
        let frames = zstd_frames::frames(rest, self.window_max, start);
        Ok(chunked_boxed(Box::new(FrameByFrame {
            frames: Some(frames),
            decoder: None,
            window_max: self.window_max,
            pieces: self.pieces,
            marks,
        })))
    }
}

impl Zstd {
    /// Decodes `input`, `start` bytes into the input, into `out`.
    fn decode_frames(&self, input: &[u8], start: u64, out: &mut Vec<u8>) -> End {
        let mut decoder = match zstd_frames::decoder(input, self.window_max, start) {
            Ok(decoder) => decoder,
            Err(e) => return End::Failed(DamageAt::error(e, start)),
        };
        loop {
            let len = out.len();
            out.resize(len + STEP, 0);
            match decoder.read(&mut out[len..]) {
                Ok(0) => {
                    out.truncate(len);
                    return End::Clean;
                }
                Ok(n) if len + n > OUT_CAP => {
                    out.truncate(len + n);
                    return End::Overflow;
                }
                Ok(n) => out.truncate(len + n),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => out.truncate(len),
                Err(e) => {
                    out.truncate(len);
                    return End::Failed(located(e, decoder.get_ref()));
                }
            }
        }
    }
}

/// The streaming decoder, one frame at a time, to know where each one's
/// data ends: a decoder that stops at the end of its frame, then a new
/// one on the same input for the next.
struct FrameByFrame<R: Read> {
    /// The input, between frames.
    frames: Option<Frames<R>>,
    decoder: Option<zstd::stream::read::Decoder<'static, Frames<R>>>,
    window_max: u64,
    pieces: bool,
    marks: Marks,
}

impl<R: Read> Read for FrameByFrame<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            if let Some(decoder) = &mut self.decoder {
                let n = decoder
                    .read(buf)
                    .map_err(|e| located(e, decoder.get_ref()))?;
                self.marks.out(&buf[..n]);
                if n > 0 || buf.is_empty() {
                    return Ok(n);
                }
                if let Some(decoder) = self.decoder.take() {
                    self.frames = Some(decoder.finish());
                }
                // Before the next frame's bytes go out.
                self.marks.unit_end(self.pieces);
            }
            let Some(mut frames) = self.frames.take() else {
                return Ok(0);
            };
            match frames.fill_buf() {
                Ok([]) => return Ok(0),
                Ok(_) => {}
                Err(e) => {
                    let e = located(e, &frames);
                    self.frames = Some(frames);
                    return Err(e);
                }
            }
            let mut decoder = zstd::stream::read::Decoder::with_buffer(frames)?.single_frame();
            decoder.window_log_max(zstd_frames::window_log_max(self.window_max))?;
            self.decoder = Some(decoder);
        }
    }
}

/// The decoder's error `e`, with where it stopped in the input (a refused
/// window says where itself).
fn located<R>(e: io::Error, frames: &Frames<R>) -> io::Error {
    let refused = e.get_ref().is_some_and(|e| e.is::<WindowTooLarge>());
    if refused || e.kind() == io::ErrorKind::Interrupted {
        e
    } else {
        DamageAt::error(e, frames.offset())
    }
}

/// What [`walk`] found at the start of its bytes.
#[derive(Debug, PartialEq, Eq)]
enum Walk {
    /// A frame or skippable frame this long, that decodes to at most
    /// `out` bytes.
    Unit { len: usize, out: u64 },
    /// A frame that goes on past the bytes.
    Short,
    /// Not a frame the decoder accepts.
    Bad,
}

/// Follows the frame at the start of `b` to its end (RFC 8878 §3.1).
fn walk(b: &[u8]) -> Walk {
    match header(b) {
        Header::Short { .. } => Walk::Short,
        Header::Invalid | Header::Unknown => Walk::Bad,
        Header::Skippable { size } => match usize::try_from(size).map(|n| n.saturating_add(8)) {
            Ok(len) if len <= b.len() => Walk::Unit { len, out: 0 },
            _ => Walk::Short,
        },
        Header::Frame { len, checksum, .. } => blocks(b, len, checksum),
    }
}

/// Follows the blocks of a frame from its first block header, at `at`.
fn blocks(b: &[u8], mut at: usize, checksum: bool) -> Walk {
    let mut out = 0;
    loop {
        let Some(h) = b.get(at..at + 3) else {
            return Walk::Short;
        };
        let h = u32::from_le_bytes([h[0], h[1], h[2], 0]);
        let size = (h >> 3) as usize;
        if size > BLOCK_MAX {
            return Walk::Bad;
        }
        let (content, most) = match (h >> 1) & 3 {
            0 => (size, size),
            // RLE: one byte, `size` times.
            1 => (1, size),
            2 => (size, BLOCK_MAX),
            _ => return Walk::Bad,
        };
        out += most as u64;
        at += 3 + content;
        if h & 1 == 1 {
            at += if checksum { 4 } else { 0 };
            break;
        }
    }
    if at <= b.len() {
        Walk::Unit { len: at, out }
    } else {
        Walk::Short
    }
}

#[cfg(test)]
mod tests {
    use super::super::chunks::test_support::{drain, read_all, url_text, whole};
    use super::super::chunks::{Chunks, UnitEnds, TARGET};
    use super::*;
    use std::io::Cursor;

    fn frame(bytes: &[u8]) -> Vec<u8> {
        zstd::bulk::compress(bytes, 3).unwrap()
    }

    /// A skippable frame of `n` bytes of content.
    fn skippable(n: u32) -> Vec<u8> {
        let mut f = vec![0x53, 0x2a, 0x4d, 0x18];
        f.extend_from_slice(&n.to_le_bytes());
        f.resize(8 + n as usize, 0xee);
        f
    }

    /// Everything `Chunks` hands out from `bytes` (which begin `offset`
    /// bytes into the input), and its error with where.
    fn decode(bytes: &[u8], threads: usize, target: usize) -> (Vec<u8>, Option<String>) {
        let zstd = Zstd {
            window_max: 8 << 20,
            term: b'\n',
            pieces: false,
        };
        let input = Box::new(Cursor::new(bytes.to_vec()));
        let ends = (Default::default(), b'\n');
        let mut chunks = Chunks::new(zstd, input, 0, threads, target, ends).unwrap();
        let (out, err) = read_all(&mut chunks);
        let err = err.map(|e| {
            let inner = e.get_ref();
            let at = match inner.and_then(|e| e.downcast_ref::<DamageAt>()) {
                Some(d) => format!(" at {}", d.offset),
                None => match inner.and_then(|e| e.downcast_ref::<WindowTooLarge>()) {
                    Some(w) => format!(" window at {}", w.offset),
                    None => " unlocated".to_string(),
                },
            };
            format!("{e}{at}")
        });
        (out, err)
    }

    fn parts(n: u64) -> Vec<Vec<u8>> {
        (0..n).map(|i| url_text(i, 3000)).collect()
    }

    /// Frames that each expand to more than a chunk may hold decoded:
    /// every byte, in order, with no chunk held past the cap.
    #[test]
    fn decoded_bytes_held_are_capped_whatever_the_ratio() {
        use super::super::chunks::{OUT_CAP, STEP};
        let mut parts: Vec<Vec<u8>> = (0..6).map(|i| vec![b'a' + i; OUT_CAP / 2]).collect();
        parts.extend((0..10).map(|i| url_text(i, 3000)));
        let text = parts.concat();
        let packed: Vec<u8> = parts.iter().flat_map(|p| frame(p)).collect();
        for threads in [1, 2, 4] {
            let zstd = Zstd {
                window_max: 8 << 20,
                term: b'\n',
                pieces: false,
            };
            let input = Box::new(Cursor::new(packed.clone()));
            let ends = (Default::default(), b'\n');
            let mut chunks = Chunks::new(zstd, input, 0, threads, TARGET, ends).unwrap();
            let out = whole(read_all(&mut chunks));
            assert!(out == text, "{threads}");
            assert!(
                chunks.peak() <= OUT_CAP + STEP,
                "{} at {threads}",
                chunks.peak()
            );
        }
    }

    #[test]
    fn frames_walked_to_their_ends() {
        let f = frame(&url_text(1, 2000));
        let out = walk(&f);
        assert!(matches!(out, Walk::Unit { len, out } if len == f.len() && out >= 2000 * 20));
        assert_eq!(walk(&f[..f.len() - 1]), Walk::Short);
        assert_eq!(walk(&f[..3]), Walk::Short);
        let s = skippable(5);
        assert_eq!(walk(&s), Walk::Unit { len: 13, out: 0 });
        assert_eq!(walk(&s[..12]), Walk::Short);
        assert_eq!(walk(b"garbage"), Walk::Bad);
        // A block header of the reserved type.
        let mut bad = f.clone();
        let Header::Frame { len, .. } = header(&f) else {
            panic!("a frame")
        };
        bad[len] |= 6;
        assert_eq!(walk(&bad), Walk::Bad);
        // RLE blocks: four bytes each, 128 KiB out each, bounded.
        let rle = frame(&vec![b'a'; 1 << 20]);
        assert!(matches!(walk(&rle), Walk::Unit { out, .. } if out >= 1 << 20));
    }

    #[test]
    fn many_frames_at_every_thread_count() {
        let parts = parts(40);
        let whole: Vec<u8> = parts.concat();
        let packed: Vec<u8> = parts.iter().flat_map(|p| frame(p)).collect();
        assert!(packed.len() > 2 * TARGET, "{}", packed.len());
        for target in [1, 1000, TARGET] {
            for threads in [1, 2, 4] {
                let got = decode(&packed, threads, target);
                assert!(got == (whole.clone(), None), "{threads} {target}");
            }
        }
        // A skippable frame between frames, and one at the end.
        let mixed = [&packed[..], &skippable(40), &frame(b"x\n"), &skippable(0)].concat();
        let mixed_text = [&whole[..], b"x\n"].concat();
        for threads in [1, 2, 4] {
            assert!(decode(&mixed, threads, 1000) == (mixed_text.clone(), None));
        }
        // One frame: streamed, as before.
        assert_eq!(decode(&frame(&whole), 2, 1000), (whole, None));
    }

    /// The frames whose data does not end in `\n` (empty and skippable
    /// ones aside) are found, whether chunks are decoded (a chunk per
    /// frame, on one thread or two) or streamed; not in pzstd's pieces.
    #[test]
    fn frame_ends_found_alike_chunked_and_streamed() {
        let parts: [&[u8]; 6] = [b"a\nb", b"c\n", b"", b"d\r", b"\n", b"e"];
        let mut packed: Vec<u8> = parts.iter().flat_map(|p| frame(p)).collect();
        packed.splice(0..0, skippable(3));
        let text = parts.concat();
        for pieces in [false, true] {
            let expected = if pieces { vec![] } else { vec![3, 7, 9] };
            let zstd = || Zstd {
                window_max: 8 << 20,
                term: b'\n',
                pieces,
            };
            for threads in [1, 2] {
                let ends = std::sync::Arc::new(UnitEnds::default());
                let input = Box::new(Cursor::new(packed.clone()));
                let chunks = Chunks::new(zstd(), input, 0, threads, 1, (ends.clone(), b'\n'));
                assert_eq!(whole(read_all(chunks.unwrap())), text.clone());
                assert_eq!(drain(&ends), expected, "{threads}");
            }
            let ends = std::sync::Arc::new(UnitEnds::default());
            let marks = Marks::new(ends.clone(), b'\n', 0);
            let input = Box::new(Cursor::new(packed.clone()));
            let streamed = zstd().stream(input, 0, marks).unwrap();
            assert_eq!(whole(read_all(streamed)), text.clone());
            assert_eq!(drain(&ends), expected);
        }
    }

    #[test]
    fn damage_gives_the_same_bytes_and_offsets_at_every_thread_count() {
        let parts = parts(12);
        let frames: Vec<Vec<u8>> = parts.iter().map(|p| frame(p)).collect();
        let packed = frames.concat();
        let kth = |k: usize| frames[..k].iter().map(Vec::len).sum::<usize>();
        // Damage in the content of frame 5: the frames before it whole.
        let mut content = packed.clone();
        let at = kth(5) + frames[5].len() / 2;
        content[at..at + 8].fill(0x55);
        // Damage in the header of frame 7; frame 9 cut short at the end.
        let mut header = packed.clone();
        header[kth(7)] = b'x';
        let cut = packed[..kth(9) + 100].to_vec();
        // A frame whose window is over the limit, in frame 3.
        let mut big = frame(b"y\n");
        big[4] &= !0x20;
        big.insert(5, 23 << 3);
        let refused = [&packed[..kth(3)], &big, &packed[kth(3)..]].concat();
        let unit_end = |k: usize| kth(k) + frames[k].len();
        for (bytes, k, from, to) in [
            (&content, 5, kth(5), at + 8),
            (&header, 7, kth(7), kth(7)),
            (&cut, 9, kth(9), kth(9) + 100),
            (&refused, 3, kth(3), kth(3)),
        ] {
            let one = decode(bytes, 1, 1000);
            let e = one.1.clone().expect("an error");
            let offset: usize = e.rsplit(" at ").next().unwrap().parse().unwrap();
            assert!((from..=to).contains(&offset), "{e}: {from}..={to}");
            assert!(to < unit_end(k) || k == 3);
            if k == 3 {
                assert!(e.contains("window at"), "{e}");
            }
            assert!(one.0.starts_with(&parts[..k].concat()), "{e}");
            assert!(one.0.len() < parts[..=k].concat().len(), "{e}");
            for threads in [2, 4] {
                assert!(decode(bytes, threads, 1000) == one, "{threads}: {e}");
            }
        }
    }
}
