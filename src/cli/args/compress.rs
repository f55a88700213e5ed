//! `--compress` and the codecs of compressed output (`compress.rs` writes
//! them).

use std::path::Path;

use clap::ValueEnum;

/// The options of this file, flattened into the command line.
#[derive(Debug, Default, clap::Args)]
pub struct CompressArgs {
    /// Compress the output (standard output or -o FILE): gzip, zstd,
    /// bzip2, xz, or none. Default: from the output file's name (.gz,
    /// .zst, .bz2, .xz), none on standard output. A --rejects file is
    /// compressed when its name ends in one of those. Written in
    /// independent members (frames, streams) of about 1 MiB, each ending
    /// with a record (normurl ends a record where a member ends),
    /// compressed on all threads. A file named for another compression
    /// (.lz4, .zip, .Z, .lz, .7z, .br) is refused.
    #[arg(long, value_name = "FORMAT")]
    pub compress: Option<Codec>,
}

/// How an output is compressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Codec {
    Gzip,
    Zstd,
    Bzip2,
    Xz,
    None,
}

impl Codec {
    /// The compression a file's name asks for.
    pub fn for_path(path: &Path) -> Codec {
        match path.extension().and_then(|e| e.to_str()) {
            Some("gz") => Codec::Gzip,
            Some("zst") => Codec::Zstd,
            Some("bz2") => Codec::Bzip2,
            Some("xz") => Codec::Xz,
            _ => Codec::None,
        }
    }
}
