//! Opening inputs: stdin or a file, decompressed by what its first bytes
//! say, never by its name (a `.txt` can be gzip, stdin has no name).

use std::fmt;
use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use super::gzip_members::Members;

/// One input of a run.
///
/// # Example
///
/// ```
/// use normurl::pipeline::Input;
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
/// # Example
///
/// ```
/// use normurl::pipeline::Format;
///
/// assert_eq!(Format::detect(&[0x1f, 0x8b, 8, 0]), Format::Gzip);
/// assert_eq!(Format::detect(&[0x28, 0xb5, 0x2f, 0xfd]), Format::Zstd);
/// assert_eq!(Format::detect(b"http://example.com/"), Format::Plain);
/// assert_eq!(Format::Gzip.to_string(), "gzip");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Not compressed.
    Plain,
    /// gzip (RFC 1952), including several members concatenated, as
    /// `cat a.gz b.gz` and block-gzipped indexes (CDX ZipNum, WARC) make,
    /// and zero bytes after the last member (tape or block padding).
    Gzip,
    /// Zstandard, including several frames concatenated.
    Zstd,
}

impl Format {
    /// Detects the format from the first bytes of an input (at least four
    /// are needed to recognize zstd; fewer mean plain).
    pub fn detect(head: &[u8]) -> Format {
        if head.starts_with(&[0x1f, 0x8b]) {
            Format::Gzip
        } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
            Format::Zstd
        } else {
            Format::Plain
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Plain => "plain",
            Format::Gzip => "gzip",
            Format::Zstd => "zstd",
        })
    }
}

/// An open input: decompressed bytes, plus how many raw (compressed) bytes
/// have been consumed.
pub(crate) struct Source {
    pub(crate) rdr: Box<dyn Read + Send>,
    pub(crate) format: Format,
    /// Raw bytes read from this input so far.
    raw: Arc<AtomicU64>,
}

impl Source {
    /// Opens `input`, adding every raw byte read to `total_raw` (the
    /// progress counter) as well as to this source's own count.
    pub(crate) fn open(input: &Input, total_raw: Arc<AtomicU64>) -> io::Result<Source> {
        let raw = Arc::new(AtomicU64::new(0));
        let counted = |inner: Box<dyn Read + Send>| Counting {
            inner,
            own: Arc::clone(&raw),
            total: total_raw,
        };
        let rdr: Box<dyn Read + Send> = match input {
            Input::Stdin => Box::new(io::stdin()),
            Input::Path(p) => Box::new(File::open(p)?),
        };
        let mut rdr = counted(rdr);
        let mut head = [0u8; 4];
        let n = read_up_to(&mut rdr, &mut head)?;
        let format = Format::detect(&head[..n]);
        // Put the sniffed bytes back in front of the rest.
        let rdr = io::Cursor::new(head).take(n as u64).chain(rdr);
        let rdr: Box<dyn Read + Send> = match format {
            Format::Plain => Box::new(rdr),
            // The decompressors want a BufRead. 64 KiB keeps them from
            // refilling too often.
            Format::Gzip => Box::new(chunked(Members::new(BufReader::with_capacity(
                1 << 16,
                rdr,
            )))),
            Format::Zstd => Box::new(chunked(zstd::stream::read::Decoder::with_buffer(
                BufReader::with_capacity(1 << 16, rdr),
            )?)),
        };
        Ok(Source { rdr, format, raw })
    }

    /// Raw bytes consumed from this input so far.
    pub(crate) fn raw_offset(&self) -> u64 {
        self.raw.load(Ordering::Relaxed)
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

/// What a decompressor is asked for in each `read`.
///
/// A decompressor that meets damaged data returns the error and not the
/// bytes it decoded earlier in the same call (zlib and zstd report how much
/// they wrote only on success). So the calls are small, to lose little of
/// what came before the fault (at most this much), and always this size,
/// whatever the reader's buffer, so that the bytes written before an error
/// do not depend on batch sizes or thread counts (the pipeline fuzz target
/// found that they did). 32 KiB costs nothing measurable: one call per
/// 32 KiB against microseconds of decoding.
const DECOMPRESS_READ: usize = 32 << 10;

/// `decoder`, asked for exactly [`DECOMPRESS_READ`] bytes at each call: a
/// `BufReader` of that capacity fills its buffer with reads of that size
/// and passes larger reads straight through, which [`Capped`] cuts to it.
fn chunked<R: Read>(decoder: R) -> BufReader<Capped<R>> {
    BufReader::with_capacity(DECOMPRESS_READ, Capped(decoder))
}

/// A reader whose calls ask for at most [`DECOMPRESS_READ`] bytes.
struct Capped<R>(R);

impl<R: Read> Read for Capped<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = buf.len().min(DECOMPRESS_READ);
        self.0.read(&mut buf[..n])
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
