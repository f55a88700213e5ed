//! `psl=`: another copy of the Public Suffix List (the command's `--psl
//! FILE`), read once per call or `Normalizer`, for the list's components
//! and the `strip-www` rule's guard; kept as text for pickling.

use std::fmt;
use std::path::PathBuf;

use normurl::component::PublicSuffixList;

use crate::config::ConfigError;

/// Where the list comes from: a file to read, or the text of one read
/// before (a pickled `Normalizer`), with the name messages give it.
#[derive(Clone)]
pub enum PslSource {
    File(PathBuf),
    Read { name: String, text: String },
}

/// A list read and parsed, with its text for pickling.
pub struct Psl {
    name: String,
    text: String,
    list: PublicSuffixList,
}

impl fmt::Debug for Psl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Psl({:?}, {} rules)", self.name, self.list.len())
    }
}

impl Psl {
    /// Reads and parses the list, with the command's messages (`--psl`'s
    /// `read_psl`): the file's name and the I/O error for a file that
    /// cannot be read (an `OSError`), `--psl NAME: line N: why` for a
    /// line that is no rule (a `ValueError`).
    pub fn load(source: &PslSource) -> Result<Psl, ConfigError> {
        let (name, text) = match source {
            PslSource::File(path) => {
                let name = path.display().to_string();
                match std::fs::read_to_string(path) {
                    Ok(text) => (name, text),
                    Err(e) => return Err(ConfigError::Io(format!("{name}: {e}"))),
                }
            }
            PslSource::Read { name, text } => (name.clone(), text.clone()),
        };
        let list = PublicSuffixList::parse(&text)
            .map_err(|e| ConfigError::Value(format!("--psl {name}: {e}")))?;
        Ok(Psl { name, text, list })
    }

    pub fn list(&self) -> &PublicSuffixList {
        &self.list
    }

    /// What a pickle keeps: the name and the text (see [`PslSource::Read`]).
    pub fn state(&self) -> (String, String) {
        (self.name.clone(), self.text.clone())
    }
}
