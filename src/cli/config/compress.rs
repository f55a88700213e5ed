//! The compression of the main output and of the rejects file, from
//! `--compress` and the files' names. An output named for a compression
//! normurl does not write (`.lz4`, `.zip`, `.Z`, ...) is refused before
//! anything is written ([`refuse_unwritten`]).

use std::path::Path;

pub use crate::cli::args::compress::Codec;
use crate::cli::args::compress::CompressArgs;
use crate::cli::Failure;

use super::Target;

/// The compressions whose usual file names say them but that normurl does
/// not write, by extension.
const UNWRITTEN: [(&str, &str); 8] = [
    ("lz4", "lz4"),
    ("zip", "zip"),
    ("Z", "compress"),
    ("lz", "lzip"),
    ("lzma", "lzma"),
    ("7z", "7z"),
    ("br", "brotli"),
    ("sz", "snappy"),
];

/// An error for an output file `path` whose name asks for a compression
/// normurl does not write, unless `--compress` says how to write it: a
/// file named `out.lz4` holding plain text would be misread by every
/// tool that trusts the name.
pub fn refuse_unwritten(path: &Path, compress: Option<Codec>) -> Result<(), String> {
    if compress.is_some() {
        return Ok(());
    }
    let Some(ext) = path.extension().and_then(|e| e.to_str()) else {
        return Ok(());
    };
    match UNWRITTEN.iter().find(|(e, _)| *e == ext) {
        None => Ok(()),
        Some((_, format)) => Err(format!(
            "{}: normurl does not write {format}-compressed output (name it .gz, .zst, .bz2 or .xz, or write plain text with --compress none and pipe it through {format})",
            path.display()
        )),
    }
}

/// The compression of the main output and of the rejects file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Compression {
    pub output: Codec,
    pub rejects: Codec,
}

/// The configuration of `args`, for the output `output` and a rejects
/// file `rejects`.
/// A name that asks for a compression normurl does not write is a usage
/// error ([`refuse_unwritten`]; `--compress` names the output's).
pub fn config(
    args: &CompressArgs,
    output: &Target,
    rejects: Option<&Path>,
) -> Result<Compression, Failure> {
    let by_name = match output {
        Target::File(p) => {
            refuse_unwritten(p, args.compress).map_err(Failure::Usage)?;
            Codec::for_path(p)
        }
        Target::Stdout => Codec::None,
    };
    if let Some(p) = rejects {
        refuse_unwritten(p, None).map_err(Failure::Usage)?;
    }
    Ok(Compression {
        output: args.compress.unwrap_or(by_name),
        rejects: rejects.map_or(Codec::None, Codec::for_path),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_name_says_how_unless_told() {
        let args = |c| CompressArgs { compress: c };
        let gz = &Target::File("out.gz".into());
        let stdout = &Target::Stdout;
        let rej = Some(Path::new("rejects.tsv.zst"));
        assert_eq!(
            config(&args(None), gz, rej).unwrap(),
            Compression {
                output: Codec::Gzip,
                rejects: Codec::Zstd
            }
        );
        assert_eq!(
            config(&args(None), stdout, None).unwrap().output,
            Codec::None
        );
        assert_eq!(
            config(&args(Some(Codec::None)), gz, None).unwrap().output,
            Codec::None
        );
        assert_eq!(
            config(&args(Some(Codec::Zstd)), stdout, None)
                .unwrap()
                .output,
            Codec::Zstd
        );
    }
}
