//! Why a pipeline run stopped.

use std::fmt;
use std::io;

use super::decode::Format;
use super::zstd_frames::WindowTooLarge;

/// Why a pipeline run stopped before the end of its input.
///
/// Every variant names the file it is about, so the one-line message of
/// [`Display`](fmt::Display) is enough for a user to act on.
///
/// # Example
///
/// ```
/// use normurl_pipeline::{Error, Input, Pipeline, Sinks, MapFn};
///
/// let pipeline = Pipeline::builder().build(MapFn::new(|r: &[u8], o: &mut Vec<u8>| {
///     o.extend_from_slice(r)
/// }));
/// let mut out = Vec::new();
/// let err = pipeline
///     .run(vec![Input::path("no/such/file.txt")], Sinks::new("<stdout>", &mut out))
///     .unwrap_err();
/// assert!(matches!(err, Error::Open { .. }));
/// assert!(err.to_string().starts_with("no/such/file.txt: "));
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// An input could not be opened.
    Open {
        /// The input's name.
        path: String,
        /// What the operating system said.
        source: io::Error,
    },
    /// Reading a plain (uncompressed) input failed.
    Read {
        /// The input's name.
        path: String,
        /// Bytes of the input read before the failure.
        offset: u64,
        /// Bytes of an incomplete last line that were read but not
        /// processed, because the rest of the line was lost.
        unprocessed: usize,
        /// What the operating system said.
        source: io::Error,
    },
    /// A compressed input is corrupt or truncated.
    Decode {
        /// The input's name.
        path: String,
        /// The compression format that was detected.
        format: Format,
        /// Compressed bytes consumed before the failure. Decompressors read
        /// ahead, so the corruption is at or shortly before this offset.
        offset: u64,
        /// Decompressed bytes produced before the failure.
        decompressed: u64,
        /// Bytes of an incomplete last line that were decompressed but not
        /// processed.
        unprocessed: usize,
        /// What the decompressor said.
        source: io::Error,
    },
    /// An input is compressed in a format the pipeline does not decode
    /// (see [`Format::is_decoded`]). Found from its first bytes, before
    /// anything of it is read as records.
    Unsupported {
        /// The input's name.
        path: String,
        /// The format detected.
        format: Format,
        /// Whether the input is the standard input (the message then
        /// suggests a filter rather than a command on the file).
        stdin: bool,
    },
    /// A zstd frame declares a window larger than
    /// [`PipelineBuilder::zstd_window_max`](super::PipelineBuilder::zstd_window_max):
    /// decoding it would need that much memory. The frames before it have
    /// been decoded.
    ZstdWindow {
        /// The input's name.
        path: String,
        /// Where the frame starts in the compressed input.
        offset: u64,
        /// The window size the frame declares, in bytes.
        window: u64,
        /// The limit, in bytes.
        limit: u64,
        /// Bytes of an incomplete last line that were decompressed but not
        /// processed.
        unprocessed: usize,
    },
    /// Writing the main output failed. A
    /// [`BrokenPipe`](io::ErrorKind::BrokenPipe) here means the reader went
    /// away (`normurl big.txt | head`); see [`Error::is_broken_pipe`].
    Write {
        /// The output's name.
        path: String,
        /// What the operating system said.
        source: io::Error,
    },
    /// Writing the side output (for example a rejects file) failed. Unlike
    /// the main output's, its reader going away is an error: what the side
    /// output should have held is lost.
    SideWrite {
        /// The side output's name.
        path: String,
        /// What the operating system said.
        source: io::Error,
    },
    /// The [`KeyFilter`](super::KeyFilter) failed on its own (for example
    /// while spilling to disk); its message names what it was doing.
    Filter {
        /// What the filter said.
        source: io::Error,
    },
    /// The transform asked to stop at a record (for example because an
    /// invalid URL must fail the run).
    Stopped {
        /// The input's name.
        path: String,
        /// 1-based line (record) number within that input.
        line: u64,
        /// The transform's reason.
        reason: String,
    },
    /// A worker panicked while transforming a batch of records. This is a
    /// bug; the run stops instead of hanging or losing the batch silently.
    Panicked {
        /// The input the batch came from.
        path: String,
        /// The panic message, when it was a string.
        message: String,
    },
    /// The worker threads could not be started.
    Threads {
        /// Why.
        message: String,
    },
}

impl Error {
    /// Whether this is a write to the main output's closed pipe, which a
    /// command-line filter should treat as a quiet, successful end (Unix
    /// convention). A closed side output is not.
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_pipeline::Error;
    /// use std::io;
    ///
    /// let err = Error::Write {
    ///     path: "<stdout>".into(),
    ///     source: io::Error::from(io::ErrorKind::BrokenPipe),
    /// };
    /// assert!(err.is_broken_pipe());
    /// ```
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, Error::Write { source, .. } if source.kind() == io::ErrorKind::BrokenPipe)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Open { path, source } => write!(f, "{path}: {source}"),
            Error::Read {
                path,
                offset,
                unprocessed,
                source,
            } => {
                write!(f, "{path}: read error at byte {offset}: {source}")?;
                incomplete(f, *unprocessed)
            }
            Error::Decode {
                path,
                format,
                offset,
                decompressed,
                unprocessed,
                source,
            } => {
                write!(
                    f,
                    "{path}: corrupt or truncated {format} data near compressed byte {offset} \
                     (after {decompressed} decompressed bytes): {source}"
                )?;
                incomplete(f, *unprocessed)
            }
            Error::Write { path, source } | Error::SideWrite { path, source } => {
                write!(f, "{path}: write error: {source}")
            }
            Error::Filter { source } => write!(f, "{source}"),
            Error::Unsupported {
                path,
                format,
                stdin,
            } => {
                let (command, reads_stdin) = format.decompressor();
                let file = match (stdin, reads_stdin) {
                    (false, _) => format!(" {}", shell_word(path)),
                    (true, true) => String::new(),
                    (true, false) => " FILE".to_string(),
                };
                write!(
                    f,
                    "{path}: {} input is not supported (decompress it first: {command}{file} \
                     | normurl)",
                    format.input_kind()
                )
            }
            Error::ZstdWindow {
                path,
                offset,
                window,
                limit,
                unprocessed,
            } => {
                let refused = WindowTooLarge {
                    window: *window,
                    limit: *limit,
                    offset: *offset,
                };
                write!(f, "{path}: {refused}")?;
                incomplete(f, *unprocessed)
            }
            Error::Stopped { path, line, reason } => write!(f, "{path}:{line}: {reason}"),
            Error::Panicked { path, message } => write!(
                f,
                "{path}: internal error, a worker panicked: {message} (please report this)"
            ),
            Error::Threads { message } => write!(f, "cannot start worker threads: {message}"),
        }
    }
}

/// `s` as one shell word: quoted if it holds anything but the characters
/// of ordinary paths.
fn shell_word(s: &str) -> String {
    let plain = |b: u8| b.is_ascii_alphanumeric() || b"_./,:+@%=-".contains(&b);
    if !s.is_empty() && s.bytes().all(plain) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

fn incomplete(f: &mut fmt::Formatter<'_>, unprocessed: usize) -> fmt::Result {
    if unprocessed > 0 {
        write!(
            f,
            " (an incomplete last line of {unprocessed} bytes was not processed)"
        )?;
    }
    Ok(())
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Open { source, .. }
            | Error::Read { source, .. }
            | Error::Decode { source, .. }
            | Error::Write { source, .. }
            | Error::SideWrite { source, .. }
            | Error::Filter { source } => Some(source),
            _ => None,
        }
    }
}
