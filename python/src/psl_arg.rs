//! `psl=`: another copy of the Public Suffix List (the command's `--psl
//! FILE`), read once per call or `Normalizer` by the library's
//! `Source::public_suffix_list`, as the command reads it, for the list's
//! components and the `strip-www` rule's guard; kept as text for
//! pickling.

use std::fmt;

use normurl::component::PublicSuffixList;
use normurl::normalize::Source;

use crate::config::ConfigError;

/// A list read and parsed, with its file's name and text for pickling.
pub struct Psl {
    /// Always `Source::Read`.
    source: Source,
    list: PublicSuffixList,
}

impl fmt::Debug for Psl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Psl({:?}, {} rules)",
            self.source.name(),
            self.list.len()
        )
    }
}

impl Psl {
    /// Reads (a `Source::File`) and parses the list, with the command's
    /// messages: an `OSError` for a file that cannot be read, a
    /// `ValueError` `--psl NAME: line N: why` for a line that is no rule.
    pub fn load(source: &Source) -> Result<Psl, ConfigError> {
        let mut source = source.clone();
        let list = source.public_suffix_list()?;
        Ok(Psl { source, list })
    }

    pub fn list(&self) -> &PublicSuffixList {
        &self.list
    }

    /// What a pickle keeps: the file's name and text (a `Source::Read`).
    pub fn state(&self) -> (String, String) {
        match &self.source {
            Source::Read { name, text } => (name.clone(), text.clone()),
            other => (other.name(), String::new()),
        }
    }
}
