//! Target `pipeline`: the parallel pipeline, with any thread count, batch
//! size and record limit, writes exactly what the sequential mode writes.
//!
//! crates/normurl-pipeline/src/lib.rs: "With one thread the same functions run in a simple
//! loop on the calling thread (`sequential.rs`): that is the `-j 1` mode and
//! the reference that tests compare the parallel mode with." This target is
//! that comparison on arbitrary bytes, with the `normurl` command's own
//! transform ([`Normalizer`]).
//!
//! The first four bytes of a fuzz input choose the configuration
//! ([`Config::from_bytes`]); the rest is the file, written to a temporary
//! file and run twice: with one thread (the reference, default batch size,
//! the same record limit and options), and with the chosen threads and
//! batch size. Output, summary (records, bytes, stats) and error must be
//! equal.

use std::io::Write;

use flate2::write::GzEncoder;
use normurl::normalize::{InvalidUtf8, Normalizer, OnInvalid, Options};
use normurl::pipeline::{Input, Pipeline, Sinks};

use super::TempFile;

/// The configuration of the parallel run.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// 1 to 4.
    pub threads: usize,
    /// 1 to 256 bytes: tiny batches, so that records cross batch
    /// boundaries.
    pub batch_bytes: usize,
    /// 1 to 256 bytes, for both runs.
    pub max_record_bytes: usize,
    pub on_invalid: OnInvalid,
    pub invalid_utf8: InvalidUtf8,
}

impl Config {
    /// Takes the configuration from the first four bytes of `data` (missing
    /// bytes count as 0) and returns it with the rest.
    pub fn from_bytes(data: &[u8]) -> (Config, &[u8]) {
        let byte = |i: usize| usize::from(data.get(i).copied().unwrap_or(0));
        let config = Config {
            threads: 1 + byte(0) % 4,
            batch_bytes: 1 + byte(1),
            max_record_bytes: 1 + byte(2),
            on_invalid: OnInvalid::ALL[byte(3) % OnInvalid::ALL.len()],
            invalid_utf8: InvalidUtf8::ALL[(byte(3) / 4) % InvalidUtf8::ALL.len()],
        };
        (config, data.get(4..).unwrap_or(&[]))
    }
}

/// Runs the check on the fuzz input `data`; returns the output.
pub fn check(data: &[u8]) -> Vec<u8> {
    let (config, content) = Config::from_bytes(data);
    check_content(config, content)
}

/// Runs `content` sequentially and with `config`, compares, and returns
/// the output.
pub fn check_content(config: Config, content: &[u8]) -> Vec<u8> {
    compare(config, content, None)
}

/// The check on multi-member gzip (crawl archives, BGZF), whose members
/// the pipeline decodes in parallel: the content after the configuration
/// is cut into pieces of `batch_bytes` bytes, each compressed into a gzip
/// member (a member whose data does not end in a line break ends its last
/// line). When `max_record_bytes` is even, it also says which byte of
/// the gzip to damage. Both runs decode in chunks of `max_record_bytes`
/// compressed bytes, so that even small inputs make many chunks (the
/// output of damaged input may depend on the chunk size, never on the
/// threads). Sequential and parallel runs must write the same thing.
pub fn check_members(data: &[u8]) -> Vec<u8> {
    let (config, content) = Config::from_bytes(data);
    let mut packed: Vec<u8> = content
        .chunks(config.batch_bytes)
        .flat_map(|piece| {
            let mut e = GzEncoder::new(Vec::new(), flate2::Compression::fast());
            let _ = e.write_all(piece);
            e.finish().unwrap_or_default()
        })
        .collect();
    if content.is_empty() {
        packed = GzEncoder::new(Vec::new(), flate2::Compression::fast())
            .finish()
            .unwrap_or_default();
    }
    if config.max_record_bytes % 2 == 0 {
        let at = (config.max_record_bytes * 977) % packed.len();
        packed[at] ^= 0x5a;
    }
    compare(config, &packed, Some(config.max_record_bytes))
}

/// [`check_members`] on zstd frames, which the pipeline decodes in
/// parallel the same way: the content is cut into pieces of `batch_bytes`
/// bytes, each compressed into a frame, with a skippable frame after every
/// third when `batch_bytes` is odd. When `max_record_bytes` is even, it
/// also says which byte to damage (a frame header, a block header or
/// content, a checksum). Chunks of `max_record_bytes` compressed bytes.
pub fn check_frames(data: &[u8]) -> Vec<u8> {
    let (config, content) = Config::from_bytes(data);
    let mut packed = Vec::new();
    for (i, piece) in content.chunks(config.batch_bytes).enumerate() {
        packed.extend(zstd::bulk::compress(piece, 1).unwrap_or_default());
        if config.batch_bytes % 2 == 1 && i % 3 == 2 {
            packed.extend_from_slice(&[0x50, 0x2a, 0x4d, 0x18, 2, 0, 0, 0, b'h', b'i']);
        }
    }
    if packed.is_empty() {
        packed = zstd::bulk::compress(&[], 1).unwrap_or_default();
    }
    if config.max_record_bytes % 2 == 0 {
        let at = (config.max_record_bytes * 977) % packed.len();
        packed[at] ^= 0x5a;
    }
    compare(config, &packed, Some(config.max_record_bytes))
}

/// Runs `content` sequentially and with `config` (and the gzip chunk
/// size, if given), compares, and returns the output.
fn compare(config: Config, content: &[u8], gzip_chunk: Option<usize>) -> Vec<u8> {
    let file = TempFile::new("pipeline", content);
    let run = |threads: usize, batch_bytes: Option<usize>| {
        let options = Options {
            on_invalid: config.on_invalid,
            invalid_utf8: config.invalid_utf8,
            ..Options::default()
        };
        let mut builder = Pipeline::builder();
        builder
            .threads(threads)
            .max_record_bytes(config.max_record_bytes);
        if let Some(n) = batch_bytes {
            builder.batch_bytes(n);
        }
        if let Some(n) = gzip_chunk {
            builder.gzip_chunk_bytes(n);
        }
        let pipeline = builder.build(Normalizer::new(options));
        let mut out = Vec::new();
        let result = pipeline.run(vec![Input::path(&file.0)], Sinks::new("<stdout>", &mut out));
        // Errors name the file and a line or byte offset; compare their
        // messages.
        // messages. The CPU times vary from run to run: left out.
        let result = result
            .map(|mut s| {
                s.cpu = Default::default();
                format!("{s:?}")
            })
            .map_err(|e| e.to_string());
        (out, result)
    };
    let sequential = run(1, None);
    let parallel = run(config.threads, Some(config.batch_bytes));
    if sequential != parallel {
        panic!(
            "{config:?} on {:?}:\nsequential: {:?}\n{:?}\nparallel: {:?}\n{:?}",
            String::from_utf8_lossy(content),
            sequential.1,
            String::from_utf8_lossy(&sequential.0),
            parallel.1,
            String::from_utf8_lossy(&parallel.0),
        );
    }
    sequential.0
}
