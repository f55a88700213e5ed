//! Refusing runs that would destroy their own input or mix two outputs in
//! one file, before anything is created or written: `normurl -o f < f`
//! would truncate `f` before reading it, `-o x --rejects x` would interleave
//! two outputs. Files are compared by device and inode, as GNU sort does
//! for `-o`; a name that does not exist yet is compared by its directory's
//! and its own name. Only regular files count: a FIFO, a terminal or
//! `/dev/null` can be named twice without harm.

use std::ffi::OsString;
use std::fs::{self, File, Metadata};
use std::path::Path;

use normurl::pipeline::Input;

use crate::cli::Failure;

/// A file's identity.
#[derive(Debug, PartialEq, Eq)]
enum FileId {
    /// An existing regular file.
    Existing { dev: u64, ino: u64 },
    /// A file that opening for writing would create.
    New {
        dir_dev: u64,
        dir_ino: u64,
        name: OsString,
    },
}

/// One of the run's outputs, as its option names it in messages.
pub struct Named<'a> {
    pub label: String,
    pub path: Option<&'a Path>,
}

impl Named<'_> {
    fn id(&self) -> Option<FileId> {
        match self.path {
            Some(p) => path_id(p),
            None => stdio_id(Stdio::Out),
        }
    }
}

/// Refuses (exit status 2, one line naming both) when two of `outputs`
/// are the same file or an output is the same file as one of `inputs`
/// (standard input included, when it is read).
pub fn check(inputs: &[Input], outputs: &[Named<'_>]) -> Result<(), Failure> {
    let out_ids: Vec<Option<FileId>> = outputs.iter().map(Named::id).collect();
    for (i, a) in out_ids.iter().enumerate() {
        for (j, b) in out_ids.iter().enumerate().skip(i + 1) {
            if a.is_some() && a == b {
                return Err(Failure::Usage(format!(
                    "{} and {} are the same file; refusing to write two outputs into one",
                    outputs[i].label, outputs[j].label
                )));
            }
        }
    }
    for input in inputs {
        let (name, id) = match input {
            Input::Stdin => ("standard input".to_string(), stdio_id(Stdio::In)),
            Input::Path(p) => (p.display().to_string(), path_id(p)),
        };
        let Some(id @ FileId::Existing { .. }) = id else {
            continue;
        };
        if let Some(k) = out_ids.iter().position(|o| o.as_ref() == Some(&id)) {
            return Err(Failure::Usage(format!(
                "{name} is both an input and an output ({}); it would be overwritten while it is read",
                outputs[k].label
            )));
        }
    }
    Ok(())
}

fn path_id(path: &Path) -> Option<FileId> {
    match fs::metadata(path) {
        Ok(m) => regular_id(&m),
        Err(_) => {
            // Not there yet: where opening it would create it.
            let name = path.file_name()?.to_owned();
            let dir = match path.parent() {
                Some(d) if !d.as_os_str().is_empty() => d,
                _ => Path::new("."),
            };
            let (dir_dev, dir_ino) = dev_ino(&fs::metadata(dir).ok()?)?;
            Some(FileId::New {
                dir_dev,
                dir_ino,
                name,
            })
        }
    }
}

enum Stdio {
    In,
    Out,
}

/// The identity of what standard input or output is open on (fstat of a
/// duplicate of the descriptor: the process's own fd stays as it is).
#[cfg(unix)]
fn stdio_id(which: Stdio) -> Option<FileId> {
    use std::os::fd::AsFd;
    let fd = match which {
        Stdio::In => std::io::stdin().as_fd().try_clone_to_owned(),
        Stdio::Out => std::io::stdout().as_fd().try_clone_to_owned(),
    };
    regular_id(&File::from(fd.ok()?).metadata().ok()?)
}

#[cfg(not(unix))]
fn stdio_id(_: Stdio) -> Option<FileId> {
    None
}

fn regular_id(m: &Metadata) -> Option<FileId> {
    if !m.is_file() {
        return None;
    }
    let (dev, ino) = dev_ino(m)?;
    Some(FileId::Existing { dev, ino })
}

#[cfg(unix)]
fn dev_ino(m: &Metadata) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    Some((m.dev(), m.ino()))
}

#[cfg(not(unix))]
fn dev_ino(_: &Metadata) -> Option<(u64, u64)> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_files_compare_by_directory_and_name() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.txt");
        let a2 = dir.path().join(".").join("a.txt");
        assert!(path_id(&a).is_some());
        assert_eq!(path_id(&a), path_id(&a2));
        assert_ne!(path_id(&a), path_id(&dir.path().join("b.txt")));
        std::fs::write(&a, "x").unwrap();
        assert!(matches!(path_id(&a2), Some(FileId::Existing { .. })));
        assert_eq!(path_id(Path::new("/dev/null")), None);
    }
}
