//! The spill directories: made under the temporary directory, removed
//! when the run ends, and on SIGINT, SIGTERM or SIGHUP through a registry
//! the signal thread empties.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};

use super::spill_error;

/// A list of live spill directories, closed (`None`) once they have been
/// removed for good.
pub(crate) struct Registry(Mutex<Option<Vec<PathBuf>>>);

impl Registry {
    pub(super) const fn new() -> Registry {
        Registry(Mutex::new(Some(Vec::new())))
    }

    fn lock(&self) -> MutexGuard<'_, Option<Vec<PathBuf>>> {
        // The list is valid whatever panicked while it was locked.
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Removes every listed directory and closes the list.
    pub(super) fn remove_all(&self) {
        let mut dirs = self.lock();
        for dir in dirs.take().unwrap_or_default() {
            // Renamed first: a deduper still running creates its files by
            // path, so none can appear in the directory while it is being
            // removed.
            let mut doomed = dir.clone().into_os_string();
            doomed.push(".removing");
            let doomed = PathBuf::from(doomed);
            let target = if fs::rename(&dir, &doomed).is_ok() {
                doomed
            } else {
                dir
            };
            let _ = fs::remove_dir_all(target);
        }
    }
}

/// Removes the spill directories of every [`Deduper`](super::Deduper) of this process and
/// makes every later attempt to spill fail: for a program about to end on
/// a signal (the `normurl` command calls it when it gets SIGINT, SIGTERM or
/// SIGHUP; this library installs no signal handlers). It waits while a
/// spill directory is being created or removed, so none is left behind. A
/// deduper still running may then fail with a [`SpillError`](super::SpillError), or go on
/// writing records it has already decided; it writes no wrong output.
pub fn remove_spill_dirs() {
    super::SPILL_DIRS.remove_all();
}

/// Creates the directory `path` readable by its owner alone (mode 0700 on
/// Unix, as GNU sort's and `mkdtemp`'s are): the spilled records are the
/// input's, and on a shared machine nobody else is to read them.
pub(super) fn create_private_dir(path: &Path) -> io::Result<()> {
    let mut builder = fs::DirBuilder::new();
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(path)
}

/// Creates (or truncates) the file `path` for writing, readable by its
/// owner alone (mode 0600 on Unix, as `mkstemp`'s files are).
pub(crate) fn create_private_file(path: &Path) -> io::Result<fs::File> {
    let mut options = fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)
}

/// A uniquely named directory, listed in a [`Registry`] and removed (best
/// effort) when dropped.
pub(crate) struct TempDir {
    pub(crate) path: PathBuf,
    registry: &'static Registry,
}

impl TempDir {
    pub(crate) fn new(parent: Option<&Path>, registry: &'static Registry) -> io::Result<TempDir> {
        let parent = parent
            .map(Path::to_path_buf)
            .unwrap_or_else(std::env::temp_dir);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let name = format!("normurl-dedup-{}-{nanos}", std::process::id());
        let mut dirs = registry.lock();
        let Some(list) = dirs.as_mut() else {
            let e = io::Error::other("the program is ending");
            return Err(spill_error(&parent.join(name), "not created", e));
        };
        for attempt in 0..100u32 {
            let path = parent.join(format!("{name}-{attempt}"));
            match create_private_dir(&path) {
                Ok(()) => {
                    list.push(path.clone());
                    return Ok(TempDir { path, registry });
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(spill_error(&path, "cannot create it", e)),
            }
        }
        let e = io::Error::from(io::ErrorKind::AlreadyExists);
        Err(spill_error(
            &parent.join(name + "-*"),
            "cannot create it",
            e,
        ))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        // Under the lock: remove_spill_dirs, which ends the process right
        // after, must not find the directory half removed and unlisted.
        let mut dirs = self.registry.lock();
        let _ = fs::remove_dir_all(&self.path);
        if let Some(list) = dirs.as_mut() {
            list.retain(|d| d != &self.path);
        }
    }
}
