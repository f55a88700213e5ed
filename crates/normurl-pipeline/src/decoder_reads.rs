//! Decompressor reads of one fixed size, so that what is decoded before
//! an error does not depend on the reader's buffer.

use std::io::{self, BufReader, Read};

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
pub(crate) fn chunked<R: Read>(decoder: R) -> BufReader<Capped<R>> {
    BufReader::with_capacity(DECOMPRESS_READ, Capped(decoder))
}

/// [`chunked`] for a boxed decoder.
pub(crate) fn chunked_boxed(decoder: Box<dyn Read + Send>) -> Box<dyn Read + Send> {
    Box::new(chunked(decoder))
}

/// A reader whose calls ask for at most [`DECOMPRESS_READ`] bytes.
pub(crate) struct Capped<R>(R);

impl<R: Read> Read for Capped<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = buf.len().min(DECOMPRESS_READ);
        self.0.read(&mut buf[..n])
    }
}
