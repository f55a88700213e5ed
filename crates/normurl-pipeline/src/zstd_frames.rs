//! Zstandard frames, checked before the decoder sees them.
//!
//! The window a frame declares is the memory its decoder allocates, and a
//! 4 KB file can declare 2 GiB. [`Frames`] follows the frame and block
//! headers (RFC 8878 §3.1) as the compressed bytes pass, and stops at the
//! header of a frame whose window is over the limit, before the decoder
//! has seen it: the frames before it are decoded and written, then the
//! error ([`WindowTooLarge`]) names the exact window. The decoder's own
//! `window_log_max` stays as a second line, rounded up to a power of two.
//!
//! Block contents are skipped in bulk, not parsed: following the headers
//! costs nothing measurable. Where the headers make no sense (a reserved
//! bit, a reserved block type, a cut), the bytes go to the decoder
//! unchecked, and it stops there with its own error.

use std::fmt;
use std::io::{self, BufRead, Read};

/// What [`Frames`] reads from its input at a time (the decoder's input
/// buffer, which it replaces).
const BUFFER: usize = 1 << 16;

/// A zstd frame whose window is more than the limit; the error inside the
/// `io::Error` that [`Frames`] returns.
#[derive(Debug)]
pub(crate) struct WindowTooLarge {
    pub(crate) window: u64,
    pub(crate) limit: u64,
    /// Where the frame starts in the compressed input.
    pub(crate) offset: u64,
}

impl fmt::Display for WindowTooLarge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "zstd frame needs a {} window, more than the zstd memory limit allows ({})",
            size_text(self.window),
            size_text(self.limit)
        )
    }
}

impl std::error::Error for WindowTooLarge {}

/// `n` bytes in the largest binary unit that divides it exactly, for
/// messages: `128 MiB`, `1536 KiB`, `1000 bytes`.
fn size_text(n: u64) -> String {
    match n {
        0 => "0 bytes".to_string(),
        _ if n % (1 << 30) == 0 => format!("{} GiB", n >> 30),
        _ if n % (1 << 20) == 0 => format!("{} MiB", n >> 20),
        _ if n % (1 << 10) == 0 => format!("{} KiB", n >> 10),
        _ => format!("{n} bytes"),
    }
}

/// A zstd decoder of `inner` that refuses frames with a window over
/// `limit` bytes. `offset` is where `inner` starts in the input (after
/// skippable frames already read), for messages.
pub(crate) fn decoder<R: Read>(
    inner: R,
    limit: u64,
    offset: u64,
) -> io::Result<zstd::stream::read::Decoder<'static, Frames<R>>> {
    let mut decoder = zstd::stream::read::Decoder::with_buffer(Frames::new(inner, limit, offset))?;
    decoder.window_log_max(window_log_max(limit))?;
    Ok(decoder)
}

/// The compressed input `inner` of a zstd decoder that refuses frames
/// with a window over `limit` bytes; `offset`: as for [`decoder`].
pub(crate) fn frames<R: Read>(inner: R, limit: u64, offset: u64) -> Frames<R> {
    Frames::new(inner, limit, offset)
}

/// The decoder's limit: `limit` rounded up to a power of two (windows are
/// not all powers of two, and [`Frames`] has refused the ones over
/// `limit`), within what zstd accepts.
pub(crate) fn window_log_max(limit: u64) -> u32 {
    let max = if cfg!(target_pointer_width = "64") {
        31
    } else {
        30
    };
    let log = u64::BITS - limit.saturating_sub(1).leading_zeros();
    log.clamp(10, max)
}

/// What comes next in the compressed stream.
#[derive(Clone, Copy, Debug)]
enum Step {
    /// A frame, a skippable frame, or the end.
    Frame,
    /// A block header of a frame that has (or has not) a checksum.
    Block { checksum: bool },
    /// `n` bytes to hand over as they are, then `next`.
    Skip { n: u64, next: Next },
    /// Bytes the decoder will reject: no more checking.
    Unchecked,
    /// A frame with this window, over the limit.
    Refused { window: u64 },
}

/// Where a [`Step::Skip`] ends.
#[derive(Clone, Copy, Debug)]
enum Next {
    Frame,
    Block { checksum: bool },
}

/// The compressed input of a zstd decoder, handed over one checked part at
/// a time (see the module documentation).
pub(crate) struct Frames<R> {
    inner: R,
    buf: Box<[u8]>,
    pos: usize,
    end: usize,
    /// Bytes at `pos` that are checked: the decoder may have them.
    cleared: usize,
    step: Step,
    limit: u64,
    /// Where `pos` is in the compressed input.
    offset: u64,
    /// Whether `inner` has ended (a terminal is not asked twice).
    eof: bool,
}

impl<R: Read> Frames<R> {
    fn new(inner: R, limit: u64, offset: u64) -> Self {
        Frames {
            inner,
            buf: vec![0; BUFFER].into_boxed_slice(),
            pos: 0,
            end: 0,
            cleared: 0,
            step: Step::Frame,
            limit,
            offset,
            eof: false,
        }
    }

    /// Reads until at least `n` (at most [`BUFFER`]) unread bytes are
    /// buffered; false if the input ends first.
    fn fill(&mut self, n: usize) -> io::Result<bool> {
        if self.pos == self.end {
            (self.pos, self.end) = (0, 0);
        } else if self.pos + n > self.buf.len() {
            self.buf.copy_within(self.pos..self.end, 0);
            (self.pos, self.end) = (0, self.end - self.pos);
        }
        while self.end - self.pos < n && !self.eof {
            match self.inner.read(&mut self.buf[self.end..]) {
                Ok(0) => self.eof = true,
                Ok(k) => self.end += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(self.end - self.pos >= n)
    }

    /// Checks the next part of the stream and clears it for the decoder
    /// (`cleared` is 0 on entry). False at the end of the input.
    fn advance(&mut self) -> io::Result<bool> {
        match self.step {
            Step::Refused { window } => Err(io::Error::new(
                io::ErrorKind::InvalidData,
                WindowTooLarge {
                    window,
                    limit: self.limit,
                    offset: self.offset,
                },
            )),
            Step::Frame => self.frame(),
            Step::Block { checksum } => self.block(checksum),
            Step::Skip { n: 0, next } => {
                self.step = match next {
                    Next::Frame => Step::Frame,
                    Next::Block { checksum } => Step::Block { checksum },
                };
                Ok(true)
            }
            Step::Skip { n, next } => {
                if !self.fill(1)? {
                    return Ok(false);
                }
                let k = n.min((self.end - self.pos) as u64);
                // At most the buffered bytes, so it fits a usize.
                self.cleared = k as usize;
                self.step = Step::Skip { n: n - k, next };
                Ok(true)
            }
            Step::Unchecked => {
                if !self.fill(1)? {
                    return Ok(false);
                }
                self.cleared = self.end - self.pos;
                Ok(true)
            }
        }
    }

    /// At a frame boundary: reads the header and decides.
    fn frame(&mut self) -> io::Result<bool> {
        if !self.fill(1)? {
            return Ok(false);
        }
        let header = loop {
            match header(&self.buf[self.pos..self.end]) {
                Header::Short { need } if self.fill(need)? => {}
                header => break header,
            }
        };
        match header {
            Header::Frame { window, .. } if window > self.limit => {
                self.step = Step::Refused { window };
            }
            Header::Frame { len, checksum, .. } => {
                self.cleared = len;
                self.step = Step::Block { checksum };
            }
            Header::Skippable { size } => {
                self.cleared = 8;
                self.step = Step::Skip {
                    n: size.into(),
                    next: Next::Frame,
                };
            }
            // Legacy frames (zstd before 0.8) would be decoded without
            // the window check: they are not let through either.
            Header::Unknown => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    "not a zstd frame (unknown magic number)",
                ))
            }
            Header::Short { .. } | Header::Invalid => self.step = Step::Unchecked,
        }
        Ok(true)
    }

    /// At a block header (RFC 8878 §3.1.1.2): clears it and its content.
    fn block(&mut self, checksum: bool) -> io::Result<bool> {
        if !self.fill(3)? {
            self.step = Step::Unchecked;
            return Ok(true);
        }
        let b = &self.buf[self.pos..self.pos + 3];
        let h = u32::from_le_bytes([b[0], b[1], b[2], 0]);
        let last = h & 1 == 1;
        let content = match (h >> 1) & 3 {
            // RLE: one byte, repeated.
            1 => 1,
            // Reserved.
            3 => {
                self.step = Step::Unchecked;
                return Ok(true);
            }
            _ => u64::from(h >> 3),
        };
        self.cleared = 3;
        self.step = if last {
            Step::Skip {
                n: content + if checksum { 4 } else { 0 },
                next: Next::Frame,
            }
        } else {
            Step::Skip {
                n: content,
                next: Next::Block { checksum },
            }
        };
        Ok(true)
    }
}

impl<R> Frames<R> {
    /// Where the decoder is in the compressed input: the bytes it has
    /// taken so far.
    pub(crate) fn offset(&self) -> u64 {
        self.offset
    }
}

impl<R: Read> Read for Frames<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(buf.len());
        buf[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: Read> BufRead for Frames<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        while self.cleared == 0 && self.advance()? {}
        Ok(&self.buf[self.pos..self.pos + self.cleared])
    }

    fn consume(&mut self, amt: usize) {
        let n = amt.min(self.cleared);
        self.pos += n;
        self.cleared -= n;
        self.offset += n as u64;
    }
}

/// What the bytes at a frame boundary are.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Header {
    /// A zstd frame (RFC 8878 §3.1.1.1): the header's length, the window
    /// size, whether a checksum ends the frame.
    Frame {
        len: usize,
        window: u64,
        checksum: bool,
    },
    /// A skippable frame with this much content after its 8-byte header.
    Skippable { size: u32 },
    /// More bytes are needed to tell: this many in all.
    Short { need: usize },
    /// A zstd frame header the decoder rejects (reserved bit set).
    Invalid,
    /// Not a frame (garbage, or a legacy zstd frame).
    Unknown,
}

const MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

/// Reads the header at the start of `b`.
pub(crate) fn header(b: &[u8]) -> Header {
    let Some(magic) = b.get(..4) else {
        return Header::Short { need: 4 };
    };
    if magic != MAGIC {
        return match b {
            [0x50..=0x5f, 0x2a, 0x4d, 0x18, a, b, c, d, ..] => Header::Skippable {
                size: u32::from_le_bytes([*a, *b, *c, *d]),
            },
            [0x50..=0x5f, 0x2a, 0x4d, 0x18, ..] => Header::Short { need: 8 },
            _ => Header::Unknown,
        };
    }
    let Some(&descriptor) = b.get(4) else {
        return Header::Short { need: 5 };
    };
    if descriptor & 0x08 != 0 {
        return Header::Invalid;
    }
    let single_segment = descriptor & 0x20 != 0;
    let content_size_len = match descriptor >> 6 {
        0 => usize::from(single_segment),
        1 => 2,
        2 => 4,
        _ => 8,
    };
    let dictionary_id_len = [0, 1, 2, 4][usize::from(descriptor & 3)];
    let len = 5 + usize::from(!single_segment) + dictionary_id_len + content_size_len;
    if b.len() < len {
        return Header::Short { need: len };
    }
    let window = if single_segment {
        // The window is the content size (§3.1.1.1.2).
        let mut le = [0; 8];
        le[..content_size_len].copy_from_slice(&b[len - content_size_len..len]);
        let size = u64::from_le_bytes(le);
        if content_size_len == 2 {
            size + 256
        } else {
            size
        }
    } else {
        let descriptor = b[5];
        let base = 1u64 << (10 + (descriptor >> 3));
        base + base / 8 * u64::from(descriptor & 7)
    };
    Header::Frame {
        len,
        window,
        checksum: descriptor & 0x04 != 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(rest: &[u8]) -> Header {
        header(&[&MAGIC[..], rest].concat())
    }

    #[test]
    fn window_descriptors_and_content_sizes() {
        // Window_Descriptor: exponent 17, mantissa 0 and 3.
        let at = |window| Header::Frame {
            len: 6,
            window,
            checksum: true,
        };
        assert_eq!(frame(&[0x04, 17 << 3]), at(128 << 20));
        assert_eq!(frame(&[0x04, 17 << 3 | 3]), at((128 + 48) << 20));
        assert_eq!(frame(&[0x04, 0]), at(1 << 10));
        assert_eq!(frame(&[0x04, 0xff]).window(), Some(15 << 38));
        // Single segment: the content size, in 1, 2 (+256), 4 or 8 bytes,
        // after a dictionary ID of 0, 1, 2 or 4 bytes.
        assert_eq!(frame(&[0x20, 200]).window(), Some(200));
        assert_eq!(frame(&[0x60, 0, 1]).window(), Some(256 + 256));
        assert_eq!(frame(&[0xa1, 9, 0, 0, 0x10, 0]).window(), Some(1 << 20));
        let header = frame(&[0xe3, 1, 2, 3, 4, 0, 0, 0, 0, 1, 0, 0, 0]);
        assert_eq!(header.window(), Some(1 << 32));
        assert!(matches!(header, Header::Frame { len: 17, .. }));
        // The longest header: a window descriptor too.
        let header = frame(&[0xc3, 0, 1, 2, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0]);
        assert!(matches!(
            header,
            Header::Frame {
                len: 18,
                window: 1024,
                ..
            }
        ));
        // Not single segment, with a content size: the window descriptor
        // decides.
        assert_eq!(
            frame(&[0x80, 3 << 3, 0xff, 0xff, 0xff, 0xff]).window(),
            Some(8 << 10)
        );
    }

    #[test]
    fn short_skippable_and_unknown_headers() {
        assert_eq!(header(&MAGIC[..3]), Header::Short { need: 4 });
        assert_eq!(frame(&[]), Header::Short { need: 5 });
        assert_eq!(frame(&[0xc3, 1]), Header::Short { need: 18 });
        assert_eq!(frame(&[0x08, 0]), Header::Invalid);
        assert_eq!(
            header(&[0x5e, 0x2a, 0x4d, 0x18, 4, 1, 0, 0]),
            Header::Skippable { size: 260 }
        );
        assert_eq!(header(&[0x5e, 0x2a, 0x4d, 0x18]), Header::Short { need: 8 });
        // zstd 0.7's magic number (legacy).
        assert_eq!(header(&[0x27, 0xb5, 0x2f, 0xfd, 0]), Header::Unknown);
    }

    #[test]
    fn decoder_limit() {
        assert_eq!(window_log_max(8 << 20), 23);
        assert_eq!(window_log_max((8 << 20) + 1), 24);
        assert_eq!(window_log_max(100 << 20), 27);
        assert_eq!(window_log_max(0), 10);
        assert!(window_log_max(u64::MAX) >= 30);
    }

    /// Reads `bytes` through [`Frames`] with `limit`: what it hands over
    /// before stopping, and the error.
    fn pass(bytes: &[u8], limit: u64) -> (Vec<u8>, Option<io::Error>) {
        let mut frames = Frames::new(bytes, limit, 0);
        let mut out = Vec::new();
        let mut buf = [0; 7];
        loop {
            match frames.read(&mut buf) {
                Ok(0) => return (out, None),
                Ok(n) => out.extend_from_slice(&buf[..n]),
                Err(e) => return (out, Some(e)),
            }
        }
    }

    #[test]
    fn hands_over_whole_frames_before_the_refused_one() {
        let small = zstd::stream::encode_all(&b"a\n".repeat(1000)[..], 3).unwrap();
        let skip = [0x50, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 1, 2, 3];
        let mut big = MAGIC.to_vec();
        big.extend_from_slice(&[0x04, 17 << 3, 1, 0, 0]);
        let stream = [&small[..], &skip, &small, &big].concat();
        let (out, err) = pass(&stream, 8 << 20);
        assert_eq!(out, stream[..stream.len() - big.len()]);
        let err = err.expect("refused");
        let refused = err.get_ref().unwrap().downcast_ref::<WindowTooLarge>();
        let refused = refused.expect("a WindowTooLarge");
        assert_eq!(refused.window, 128 << 20);
        assert_eq!(refused.offset, out.len() as u64);
        // Under a higher limit all of it passes (it is cut short, which
        // is for the decoder to report).
        let (out, err) = pass(&stream, 128 << 20);
        assert!(out == stream && err.is_none(), "{err:?}");
    }

    impl Header {
        fn window(&self) -> Option<u64> {
            match self {
                Header::Frame { window, .. } => Some(*window),
                _ => None,
            }
        }
    }

    #[test]
    fn sizes_in_messages() {
        assert_eq!(size_text(128 << 20), "128 MiB");
        assert_eq!(size_text(1536 << 10), "1536 KiB");
        assert_eq!(size_text(2 << 30), "2 GiB");
        assert_eq!(size_text(1000), "1000 bytes");
        assert_eq!(size_text(0), "0 bytes");
    }
}
