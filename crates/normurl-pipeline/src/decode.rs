//! Opening inputs: stdin or a file, decompressed by what its first bytes
//! say, never by its name (a `.txt` can be gzip, stdin has no name).

use std::fmt;
use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use super::ahead::Ahead;
use super::chunks::{Chunks, UnitEnds};
use super::decoder_reads::chunked;
use super::gzip_chunks::Gzip;
use super::zstd_chunks::Zstd;
use super::Error;

/// One input of a run.
///
/// # Example
///
/// ```
/// use normurl_pipeline::Input;
///
/// assert_eq!(Input::from_arg("-".as_ref()), Input::Stdin);
/// assert_eq!(Input::from_arg("urls.txt".as_ref()).name(), "urls.txt");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// The standard input.
    Stdin,
    /// A file (or anything else `open` can read, such as a FIFO).
    Path(PathBuf),
}

impl Input {
    /// An input that reads `path`.
    pub fn path(path: impl Into<PathBuf>) -> Input {
        Input::Path(path.into())
    }

    /// A command-line argument: `-` means stdin, as for `cat` and `sort`.
    pub fn from_arg(arg: &std::ffi::OsStr) -> Input {
        if arg == "-" {
            Input::Stdin
        } else {
            Input::Path(arg.into())
        }
    }

    /// The name used in messages: the path as given, or `<stdin>`.
    pub fn name(&self) -> String {
        match self {
            Input::Stdin => "<stdin>".to_string(),
            Input::Path(p) => p.display().to_string(),
        }
    }

    /// Opens the input and returns its bytes decompressed, exactly as a
    /// [`Pipeline`](super::Pipeline) reads them (with a `\n` added where a
    /// gzip member or zstd frame ends whose data does not end in one: the
    /// pipeline ends a record there): the formats it does not
    /// decode are refused here, zstd frames whose window is over
    /// `zstd_window_max` bytes when they are reached (see
    /// [`PipelineBuilder::zstd_window_max`](super::PipelineBuilder::zstd_window_max)).
    /// Damaged data is an error of the reader, without the offsets that
    /// [`Error::Decode`] gives.
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_pipeline::{Error, Format, Input};
    /// use std::io::Read;
    ///
    /// let dir = tempfile::tempdir()?;
    /// let path = dir.path().join("urls.lz4");
    /// std::fs::write(&path, b"\x04\x22\x4d\x18...")?;
    /// let err = Input::path(&path).open(8 << 20).err().unwrap();
    /// assert!(matches!(err, Error::Unsupported { format: Format::Lz4, .. }));
    ///
    /// std::fs::write(&path, b"http://a.example/\n")?;
    /// let mut text = String::new();
    /// Input::path(&path).open(8 << 20)?.read_to_string(&mut text)?;
    /// assert_eq!(text, "http://a.example/\n");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn open(&self, zstd_window_max: u64) -> Result<Box<dyn Read + Send>, Error> {
        self.open_threads(zstd_window_max, 1)
    }

    /// [`open`](Input::open), decoding as a run of `threads` threads
    /// decodes: on threads of its own when there are more than one, gzip
    /// members and zstd frames in parallel. For examples/decode_only.rs,
    /// which times decoding alone with the pipeline's code.
    #[doc(hidden)]
    pub fn open_threads(
        &self,
        zstd_window_max: u64,
        threads: usize,
    ) -> Result<Box<dyn Read + Send>, Error> {
        let decoding = Decoding {
            zstd_window_max,
            threads,
            gzip_chunk: GZIP_CHUNK,
            term: b'\n',
        };
        let source = Source::open(self, &decoding, Arc::default())?;
        Ok(match source.format {
            Format::Plain => source.rdr,
            _ => Box::new(WithEnds {
                rdr: source.rdr,
                ends: source.ends,
                at: 0,
                held: Vec::new(),
                held_pos: 0,
                term_due: false,
            }),
        })
    }

    /// The size of the input in bytes as stored (compressed), when known
    /// without reading it. For progress reporting.
    pub fn size(&self) -> Option<u64> {
        match self {
            Input::Stdin => None,
            Input::Path(p) => std::fs::metadata(p)
                .ok()
                .filter(|m| m.is_file())
                .map(|m| m.len()),
        }
    }
}

/// How an input is compressed, as detected from its first bytes.
///
/// The pipeline decodes [`Plain`](Format::Plain), [`Gzip`](Format::Gzip),
/// [`Zstd`](Format::Zstd), [`Bzip2`](Format::Bzip2) and [`Xz`](Format::Xz)
/// ([`Format::is_decoded`]); it recognizes the
/// other formats only to refuse them with a message that says what to do
/// ([`Error::Unsupported`]), instead of reading compressed bytes as text.
///
/// # Example
///
/// ```
/// use normurl_pipeline::Format;
///
/// assert_eq!(Format::detect(&[0x1f, 0x8b, 8, 0]), Format::Gzip);
/// assert_eq!(Format::detect(&[0x28, 0xb5, 0x2f, 0xfd]), Format::Zstd);
/// assert_eq!(Format::detect(b"http://example.com/"), Format::Plain);
/// assert_eq!(Format::detect(b"BZh91AY&SY\x80"), Format::Bzip2);
/// assert_eq!(Format::detect(b"BZh9 is text"), Format::Plain);
/// assert!(Format::Bzip2.is_decoded());
/// assert!(!Format::Lz4.is_decoded());
/// assert_eq!(Format::Gzip.to_string(), "gzip");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Format {
    /// Not compressed.
    Plain,
    /// gzip (RFC 1952), including several members concatenated, as
    /// `cat a.gz b.gz` and block-gzipped indexes (CDX ZipNum, WARC) make,
    /// and zero bytes after the last member (tape or block padding).
    Gzip,
    /// Zstandard, including several frames concatenated and skippable
    /// frames (`pzstd` output begins with one).
    Zstd,
    /// bzip2, including several streams concatenated, as `pbzip2` and
    /// Wikipedia's multistream dumps make.
    Bzip2,
    /// xz, including several streams concatenated and the stream padding
    /// between them.
    Xz,
    /// LZ4, frame or legacy format (not decoded).
    Lz4,
    /// A zip archive (not decoded).
    Zip,
    /// lzip (not decoded).
    Lzip,
    /// Unix `compress`, `.Z` (not decoded).
    Compress,
    /// A 7z archive (not decoded).
    SevenZip,
}

/// The most bytes [`Format::detect`] looks at past skippable frames:
/// bzip2's `BZh9` and the magic number of its first block.
const HEAD: usize = 10;

/// bzip2's block and end-of-stream magic numbers, one of which follows the
/// `BZh` + level header: plain text can begin with `BZh9`.
const BZIP2_BLOCK: &[u8] = &[0x31, 0x41, 0x59, 0x26, 0x53, 0x59];
const BZIP2_END: &[u8] = &[0x17, 0x72, 0x45, 0x38, 0x50, 0x90];

impl Format {
    /// Detects the format from the first bytes of an input (all of it, if
    /// it is short). The same detection as the pipeline's, which reads
    /// past skippable frames: given fewer bytes than that needs, a stream
    /// that begins with a skippable frame counts as zstd.
    pub fn detect(head: &[u8]) -> Format {
        let mut rdr = head;
        sniff(&mut rdr).map_or(Format::Plain, |h| h.format)
    }

    /// Reads the first bytes of `rdr` (at most 10, plus any skippable
    /// frames at the start) and detects the format, as the pipeline does
    /// when it opens an input. For checking inputs before a run.
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_pipeline::Format;
    ///
    /// assert_eq!(Format::sniff(&b"\xfd7zXZ\x00..."[..])?, Format::Xz);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn sniff<R: Read>(mut rdr: R) -> io::Result<Format> {
        sniff(&mut rdr).map(|h| h.format)
    }

    /// Whether the pipeline decodes this format (the others are refused
    /// with [`Error::Unsupported`]).
    pub fn is_decoded(self) -> bool {
        matches!(
            self,
            Format::Plain | Format::Gzip | Format::Zstd | Format::Bzip2 | Format::Xz
        )
    }

    /// What messages call input in this format.
    pub(crate) fn input_kind(self) -> &'static str {
        match self {
            Format::Plain => "plain",
            Format::Gzip => "gzip-compressed",
            Format::Zstd => "zstd-compressed",
            Format::Bzip2 => "bzip2-compressed",
            Format::Xz => "xz-compressed",
            Format::Lz4 => "lz4-compressed",
            Format::Zip => "zip archive",
            Format::Lzip => "lzip-compressed",
            Format::Compress => "compress (.Z)",
            Format::SevenZip => "7z archive",
        }
    }

    /// The command that decompresses this format to standard output, and
    /// whether it reads standard input too (archive tools do not).
    pub(crate) fn decompressor(self) -> (&'static str, bool) {
        match self {
            Format::Plain => ("cat", true),
            Format::Gzip | Format::Compress => ("gzip -dc", true),
            Format::Zstd => ("zstd -dc", true),
            Format::Bzip2 => ("bzip2 -dc", true),
            Format::Xz => ("xz -dc", true),
            Format::Lz4 => ("lz4 -dc", true),
            Format::Zip => ("unzip -p", false),
            Format::Lzip => ("lzip -dc", true),
            Format::SevenZip => ("7z e -so", false),
        }
    }
}

/// The format the magic number at the start of `head` says, skippable
/// frames aside. Strict where a magic number is printable text.
fn magic(head: &[u8]) -> Format {
    match head {
        [0x1f, 0x8b, ..] => Format::Gzip,
        [0x28, 0xb5, 0x2f, 0xfd, ..] => Format::Zstd,
        // A skippable frame cut short: a truncated zstd stream.
        [0x50..=0x5f, 0x2a, 0x4d, 0x18, ..] => Format::Zstd,
        [b'B', b'Z', b'h', b'1'..=b'9', rest @ ..]
            if rest.starts_with(BZIP2_BLOCK) || rest.starts_with(BZIP2_END) =>
        {
            Format::Bzip2
        }
        [0xfd, b'7', b'z', b'X', b'Z', 0, ..] => Format::Xz,
        [0x04, 0x22, 0x4d, 0x18, ..] | [0x02, 0x21, 0x4c, 0x18, ..] => Format::Lz4,
        [b'P', b'K', 3, 4, ..] | [b'P', b'K', 5, 6, ..] => Format::Zip,
        // Then the version, 0 or 1.
        [b'L', b'Z', b'I', b'P', 0 | 1, ..] => Format::Lzip,
        [0x1f, 0x9d, ..] => Format::Compress,
        [b'7', b'z', 0xbc, 0xaf, 0x27, 0x1c, ..] => Format::SevenZip,
        _ => Format::Plain,
    }
}

/// The content size of the skippable frame (RFC 8878 §3.1.2) whose header
/// begins `head`, if it does. zstd and LZ4 share these frames.
fn skippable(head: &[u8]) -> Option<u32> {
    match head {
        [0x50..=0x5f, 0x2a, 0x4d, 0x18, a, b, c, d, ..] => {
            Some(u32::from_le_bytes([*a, *b, *c, *d]))
        }
        _ => None,
    }
}

/// The start of an input, read to detect its format.
struct Head {
    format: Format,
    /// The bytes read after the skippable frames, to put back in front of
    /// the rest.
    bytes: [u8; HEAD],
    len: usize,
    /// Bytes of skippable frames read and dropped before `bytes`.
    skipped: u64,
    /// Whether the input ended inside a skippable frame.
    truncated: bool,
    /// Whether it begins with the skippable frame `pzstd` writes before
    /// each frame (magic 0x184D2A50, the next frame's 4-byte size): its
    /// frames are pieces of one stream, cut at any byte.
    pzstd: bool,
}

/// Reads the start of `rdr` and detects its format. Skippable frames are
/// read and dropped (they hold no data, and may be large): what follows
/// them says whether the stream is zstd or LZ4. A zstd decoder skips them
/// anyway.
fn sniff<R: Read>(rdr: &mut R) -> io::Result<Head> {
    let mut head = Head {
        format: Format::Plain,
        bytes: [0; HEAD],
        len: 0,
        skipped: 0,
        truncated: false,
        pzstd: false,
    };
    head.len = read_up_to(rdr, &mut head.bytes)?;
    while let Some(size) = skippable(&head.bytes[..head.len]) {
        if head.skipped == 0 && head.bytes[0] == 0x50 && size == 4 {
            head.pzstd = true;
        }
        let frame = 8 + u64::from(size);
        let held = (head.len as u64).min(frame);
        let rest = frame - held;
        if io::copy(&mut rdr.by_ref().take(rest), &mut io::sink())? < rest {
            head.format = Format::Zstd;
            head.truncated = true;
            head.len = 0;
            return Ok(head);
        }
        head.skipped += frame;
        // `held` is at most `HEAD`.
        head.bytes.copy_within(held as usize..head.len, 0);
        head.len -= held as usize;
        head.len += read_up_to(rdr, &mut head.bytes[head.len..])?;
    }
    head.format = match magic(&head.bytes[..head.len]) {
        // After skippable frames anything but LZ4 is zstd (or nothing, or
        // damage for the zstd decoder to report).
        Format::Lz4 => Format::Lz4,
        _ if head.skipped > 0 => Format::Zstd,
        format => format,
    };
    Ok(head)
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Plain => "plain",
            Format::Gzip => "gzip",
            Format::Zstd => "zstd",
            Format::Bzip2 => "bzip2",
            Format::Xz => "xz",
            Format::Lz4 => "lz4",
            Format::Zip => "zip",
            Format::Lzip => "lzip",
            Format::Compress => "compress",
            Format::SevenZip => "7z",
        })
    }
}

/// How a run decodes its inputs.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Decoding {
    /// The largest zstd window allowed, in bytes.
    pub(crate) zstd_window_max: u64,
    /// The run's threads: with more than one, decoding has threads of its
    /// own too.
    pub(crate) threads: usize,
    /// Compressed bytes per chunk of gzip members or zstd frames (see
    /// [`Chunks`]).
    pub(crate) gzip_chunk: usize,
    /// The record terminator: a gzip member or zstd frame whose data does
    /// not end in it ends a record (see [`UnitEnds`]).
    pub(crate) term: u8,
}

/// The default of [`Decoding::gzip_chunk`].
pub(crate) const GZIP_CHUNK: usize = super::chunks::TARGET;

/// An open input: decompressed bytes, plus how many raw (compressed) bytes
/// have been consumed.
pub(crate) struct Source {
    pub(crate) rdr: Box<dyn Read + Send>,
    pub(crate) format: Format,
    /// Where gzip members or zstd frames end without a terminator.
    pub(crate) ends: Arc<UnitEnds>,
    /// Raw bytes read from this input so far.
    raw: Arc<AtomicU64>,
}

impl Source {
    /// Opens `input`, adding every raw byte read to `total_raw` (the
    /// progress counter) as well as to this source's own count. Refuses
    /// the formats it does not decode, and zstd frames whose window is
    /// over `zstd_window_max` bytes (when it gets to them). With more
    /// than one of `threads`, compressed input is decoded on a thread of
    /// its own (see [`Ahead`]), and gzip members and zstd frames on
    /// `threads` threads (see [`Chunks`]).
    pub(crate) fn open(
        input: &Input,
        decoding: &Decoding,
        total_raw: Arc<AtomicU64>,
    ) -> Result<Source, Error> {
        let Decoding {
            zstd_window_max,
            threads,
            gzip_chunk,
            term,
        } = *decoding;
        let ends = Arc::new(UnitEnds::default());
        let marking = || (Arc::clone(&ends), term);
        let failed = |source| Error::Open {
            path: input.name(),
            source,
        };
        let raw = Arc::new(AtomicU64::new(0));
        // A regular file can be read at any offset: what one long gzip
        // member needs to be inflated in parallel (`gzip_parallel.rs`).
        #[cfg(feature = "parallel-gzip")]
        let mut seekable = None;
        let rdr: Box<dyn Read + Send> = match input {
            Input::Stdin => Box::new(io::stdin()),
            Input::Path(p) => {
                let file = File::open(p).map_err(failed)?;
                #[cfg(feature = "parallel-gzip")]
                if file.metadata().is_ok_and(|m| m.is_file()) {
                    seekable = file
                        .try_clone()
                        .ok()
                        .map(|f| super::gzip_parallel::Seekable {
                            file: Arc::new(f),
                            counters: [Arc::clone(&raw), Arc::clone(&total_raw)],
                        });
                }
                Box::new(file)
            }
        };
        let mut rdr = Counting {
            inner: rdr,
            own: Arc::clone(&raw),
            total: total_raw,
        };
        let head = sniff(&mut rdr).map_err(failed)?;
        // Put the sniffed bytes back in front of the rest.
        let rest = io::Cursor::new(head.bytes).take(head.len as u64).chain(rdr);
        let rdr: Box<dyn Read + Send> = match head.format {
            Format::Plain => Box::new(rest),
            // The decompressors want a BufRead. 64 KiB keeps them from
            // refilling too often.
            Format::Gzip => Box::new(
                Chunks::new(
                    Gzip {
                        #[cfg(feature = "parallel-gzip")]
                        seekable,
                        #[cfg(feature = "parallel-gzip")]
                        threads,
                        ..Gzip::new(term)
                    },
                    Box::new(rest),
                    0,
                    threads,
                    gzip_chunk,
                    marking(),
                )
                .map_err(failed)?,
            ),
            Format::Zstd if head.truncated => Box::new(Truncated),
            // Skippable frames only: a stream with no content (which the
            // decoder, given nothing, would call incomplete).
            Format::Zstd if head.len == 0 => Box::new(io::empty()),
            Format::Zstd => {
                let zstd = Zstd {
                    window_max: zstd_window_max,
                    term,
                    pieces: head.pzstd,
                };
                Box::new(
                    Chunks::new(
                        zstd,
                        Box::new(rest),
                        head.skipped,
                        threads,
                        gzip_chunk,
                        marking(),
                    )
                    .map_err(failed)?,
                )
            }
            Format::Bzip2 => Box::new(chunked(bzip2::bufread::MultiBzDecoder::new(
                BufReader::with_capacity(1 << 16, rest),
            ))),
            Format::Xz => Box::new(chunked(lzma_rust2::XzReader::new_mem_limit(
                BufReader::with_capacity(1 << 16, rest),
                true,
                XZ_MEMORY_KIB,
            ))),
            format => {
                return Err(Error::Unsupported {
                    path: input.name(),
                    format,
                    stdin: *input == Input::Stdin,
                })
            }
        };
        let rdr = match head.format {
            Format::Plain => rdr,
            _ if threads <= 1 => rdr,
            _ => Box::new(Ahead::spawn(rdr).map_err(|e| Error::Threads {
                message: e.to_string(),
            })?),
        };
        Ok(Source {
            rdr,
            format: head.format,
            ends,
            raw,
        })
    }

    /// Raw bytes consumed from this input so far.
    pub(crate) fn raw_offset(&self) -> u64 {
        self.raw.load(Ordering::Relaxed)
    }
}

/// The most memory an xz block's decoder may take, in KiB. The dictionary
/// size is the file's to choose (up to 4 GiB); `xz -9` takes 65 MiB to
/// decode, so this refuses only files made to take more, as the zstd
/// window limit does, before the allocation.
const XZ_MEMORY_KIB: u32 = 256 << 10;

/// A zstd stream that ends inside a skippable frame.
struct Truncated;

impl Read for Truncated {
    fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
        Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            "the input ends inside a skippable frame",
        ))
    }
}

/// Reads until `buf` is full or the input ends; a pipe may deliver the
/// first bytes one at a time.
fn read_up_to<R: Read>(rdr: &mut R, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match rdr.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// A decompressed input with a line break inserted where a unit (gzip
/// member, zstd frame) ends a record (see [`UnitEnds`]): the lines a
/// pipeline reads, for [`Input::open`]'s callers.
struct WithEnds {
    rdr: Box<dyn Read + Send>,
    ends: Arc<UnitEnds>,
    /// Decompressed bytes handed out, line breaks inserted aside.
    at: u64,
    /// Bytes read past an end, handed out after its line break.
    held: Vec<u8>,
    held_pos: usize,
    /// Whether the line break of an end is to go out next.
    term_due: bool,
}

impl Read for WithEnds {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        if std::mem::take(&mut self.term_due) {
            buf[0] = b'\n';
            return Ok(1);
        }
        let from_held = self.held_pos < self.held.len();
        let n = if from_held {
            let n = buf.len().min(self.held.len() - self.held_pos);
            buf[..n].copy_from_slice(&self.held[self.held_pos..self.held_pos + n]);
            self.held_pos += n;
            n
        } else {
            self.rdr.read(buf)?
        };
        // Ends are known before the bytes after them are read.
        let Some(end) = self.ends.take_within(self.at, self.at + n as u64) else {
            self.at += n as u64;
            return Ok(n);
        };
        let k = (end - self.at) as usize;
        if from_held {
            self.held_pos -= n - k;
        } else {
            self.held.clear();
            self.held.extend_from_slice(&buf[k..n]);
            self.held_pos = 0;
        }
        self.at += k as u64;
        if k == 0 {
            buf[0] = b'\n';
            return Ok(1);
        }
        self.term_due = true;
        Ok(k)
    }
}

/// Counts raw bytes as they are read.
struct Counting {
    inner: Box<dyn Read + Send>,
    own: Arc<AtomicU64>,
    total: Arc<AtomicU64>,
}

impl Read for Counting {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.own.fetch_add(n as u64, Ordering::Relaxed);
        self.total.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skippable_frame(size: u32) -> Vec<u8> {
        let mut frame = vec![0x5a, 0x2a, 0x4d, 0x18];
        frame.extend_from_slice(&size.to_le_bytes());
        frame.extend(std::iter::repeat_n(0xee, size as usize));
        frame
    }

    #[test]
    fn magic_numbers_and_text_that_looks_like_them() {
        let cases: [(&[u8], Format); 16] = [
            (b"", Format::Plain),
            (b"\x1f", Format::Plain),
            (b"\x1f\x8b", Format::Gzip),
            (b"BZh91AY&SY", Format::Bzip2),
            (b"BZh91AY&S", Format::Plain),
            (b"BZh0\x17\x72\x45\x38\x50\x90", Format::Plain),
            (b"BZh", Format::Plain),
            (b"LZIP\x01", Format::Lzip),
            (b"LZIP://x", Format::Plain),
            (b"PK\x03\x04", Format::Zip),
            (b"PK\x03", Format::Plain),
            (b"\x1f\x9d", Format::Compress),
            (b"7z\xbc\xaf\x27\x1c", Format::SevenZip),
            (b"\x02\x21\x4c\x18", Format::Lz4),
            (b"\xfd7zXZ\x00", Format::Xz),
            (b"\xfd7zXZ", Format::Plain),
        ];
        for (head, format) in cases {
            assert_eq!(Format::detect(head), format, "{head:?}");
            assert_eq!(Format::sniff(head).unwrap(), format, "{head:?}");
        }
    }

    #[test]
    fn skippable_frames_are_read_past() {
        let zstd = [0x28, 0xb5, 0x2f, 0xfd, 0x04];
        for sizes in [&[0][..], &[4], &[3, 0, 70_000]] {
            let mut stream: Vec<u8> = sizes.iter().flat_map(|&n| skippable_frame(n)).collect();
            let skipped = stream.len() as u64;
            // Only skippable frames: zstd, empty.
            let head = sniff(&mut &stream[..]).unwrap();
            assert_eq!(
                (head.format, head.len, head.truncated),
                (Format::Zstd, 0, false)
            );
            stream.extend_from_slice(&zstd);
            let head = sniff(&mut &stream[..]).unwrap();
            assert_eq!((head.format, head.skipped), (Format::Zstd, skipped));
            assert_eq!(head.bytes[..head.len], zstd);
            // LZ4 frames can follow skippable frames too; text cannot.
            let lz4 = [&stream[..skipped as usize], b"\x04\x22\x4d\x18"].concat();
            assert_eq!(Format::detect(&lz4), Format::Lz4);
            let text = [&stream[..skipped as usize], b"http://a/"].concat();
            assert_eq!(
                Format::detect(&text),
                Format::Zstd,
                "for the decoder to refuse"
            );
        }
        // Cut inside a skippable frame, in its header or its content.
        let frame = skippable_frame(100);
        for cut in [4, 7, 8, 50] {
            let head = sniff(&mut &frame[..cut]).unwrap();
            assert_eq!(head.format, Format::Zstd, "cut at {cut}");
            assert_eq!(head.truncated, cut >= 8, "cut at {cut}");
        }
    }
}
