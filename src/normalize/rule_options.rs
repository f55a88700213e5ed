//! The canonicalization options of the command as values: `--profile`,
//! `--rules`, `--strip-params` and the rule options of issue 29
//! (`--keep-params`, `--index-files`, `--query-separators`, `--redirects`,
//! `--param-rules`, `--rewrite`), their files read once, applied in the
//! command's order with its messages.
//!
//! The command (`normurl` and `normurl inspect`) and the Python package
//! build their canonicalizers here, so that the same arguments give the
//! same URLs and the same error lines, in the same order.

use std::fmt;
use std::path::PathBuf;

use super::{RewriteError, Rewrites};
use crate::canon::{Canonicalizer, CanonicalizerBuilder, ConfigError, Profile};
use crate::component::PublicSuffixList;

/// The value of a list or file option: text given as it is, a file not
/// read yet, or a file read (which a pickled Python `Normalizer` keeps, so
/// that it does not depend on the file still being there).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A list given on the command line.
    Text(String),
    /// A file, read when the options are applied.
    File(PathBuf),
    /// A file's text, and its name for messages.
    Read {
        /// The path as given.
        name: String,
        /// What the file held.
        text: String,
    },
}

impl Source {
    /// A list option's value: `@FILE` names a file, anything else is the
    /// list itself.
    pub fn list(arg: &str) -> Source {
        match arg.strip_prefix('@') {
            Some(path) => Source::File(path.into()),
            None => Source::Text(arg.to_owned()),
        }
    }

    /// Reads the file, if it is one not read yet, and returns the text.
    fn load(&mut self) -> Result<&str, ReadError> {
        if let Source::File(path) = self {
            let name = path.display().to_string();
            let text = std::fs::read_to_string(&*path).map_err(|source| ReadError {
                path: name.clone(),
                source,
            })?;
            *self = Source::Read { name, text };
        }
        Ok(self.text())
    }

    /// Reads (if not read yet) and parses a Public Suffix List file, as
    /// `--psl FILE` does, with its messages: the command's and the Python
    /// package's one way to load another list.
    pub fn public_suffix_list(&mut self) -> Result<PublicSuffixList, RuleOptionError> {
        let name = self.name();
        PublicSuffixList::parse(self.load()?)
            .map_err(|e| RuleOptionError::Usage(format!("--psl {name}: {e}")))
    }

    /// The text of a list or of a file read (nothing for a file not read
    /// yet).
    fn text(&self) -> &str {
        match self {
            Source::Text(text) | Source::Read { text, .. } => text,
            Source::File(_) => "",
        }
    }

    /// The file's name (as messages give it), or the text of a list.
    pub fn name(&self) -> String {
        match self {
            Source::Text(text) => text.clone(),
            Source::File(path) => path.display().to_string(),
            Source::Read { name, .. } => name.clone(),
        }
    }
}

/// A file an option names that could not be read.
#[derive(Debug)]
pub struct ReadError {
    /// The path as given.
    pub path: String,
    /// Why.
    pub source: std::io::Error,
}

/// Options that cannot be applied: the command's message (without its
/// `normurl: ` prefix).
#[derive(Debug)]
pub enum RuleOptionError {
    /// A file could not be read.
    Read(ReadError),
    /// A bad name, list or line, with the option it came from.
    Usage(String),
}

impl fmt::Display for RuleOptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleOptionError::Read(e) => write!(f, "{}: {}", e.path, e.source),
            RuleOptionError::Usage(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for RuleOptionError {}

impl From<ReadError> for RuleOptionError {
    fn from(e: ReadError) -> RuleOptionError {
        RuleOptionError::Read(e)
    }
}

/// `--query-separators`: the bytes that separate query parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuerySeparators {
    /// `&`: the form-urlencoded parser's (`semicolon-separators` and
    /// `semicolon-only-separators` off).
    Amp,
    /// `&;`: `;` too, written `&` (`semicolon-separators` on).
    AmpSemicolon,
    /// `;`: `;` alone separates and joins, `&` is data (w3lib's
    /// `query_separator=";"`: `semicolon-only-separators` on).
    Semicolon,
}

impl QuerySeparators {
    /// The rule edits that give these separators.
    fn edits(self) -> &'static str {
        match self {
            QuerySeparators::Amp => "-semicolon-separators,-semicolon-only-separators",
            QuerySeparators::AmpSemicolon => "+semicolon-separators,-semicolon-only-separators",
            QuerySeparators::Semicolon => "-semicolon-separators,+semicolon-only-separators",
        }
    }
}

/// Parses `--query-separators`: `&`, `&;` or `;`.
///
/// # Example
///
/// ```
/// use normurl::normalize::{parse_query_separators, QuerySeparators};
///
/// assert_eq!(parse_query_separators("&;"), Ok(QuerySeparators::AmpSemicolon));
/// assert_eq!(parse_query_separators(";"), Ok(QuerySeparators::Semicolon));
/// assert!(parse_query_separators(",").is_err());
/// ```
pub fn parse_query_separators(s: &str) -> Result<QuerySeparators, String> {
    match s {
        "&" => Ok(QuerySeparators::Amp),
        "&;" | ";&" => Ok(QuerySeparators::AmpSemicolon),
        ";" => Ok(QuerySeparators::Semicolon),
        _ => Err(format!("{s:?}: the separators are &, &; or ;")),
    }
}

/// A canonicalizer's options as the command takes them; each list and
/// file is read once, when first applied.
///
/// # Example
///
/// ```
/// use normurl::canon::Profile;
/// use normurl::normalize::{RuleOptions, Source};
///
/// let mut options = RuleOptions {
///     keep_params: vec![Source::list("id")],
///     rules: vec!["-strip-www".into()],
///     ..RuleOptions::default()
/// };
/// let canon = options.builder(Profile::Aggressive)?.build();
/// assert_eq!(canon.canonicalize("https://www.a.com/?x=1&id=2").unwrap(), "https://www.a.com/?id=2");
/// let err = RuleOptions { rules: vec!["+nope".into()], ..options }.builder(Profile::Whatwg).unwrap_err();
/// assert!(err.to_string().starts_with("--rules: unknown rule \"nope\""));
/// # Ok::<(), normurl::normalize::RuleOptionError>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct RuleOptions {
    /// `--rules`: edits, applied last.
    pub rules: Vec<String>,
    /// `--strip-params`: lists (an `@FILE`'s lines are names).
    pub strip_params: Vec<Source>,
    /// `--keep-params`: lists.
    pub keep_params: Vec<Source>,
    /// `--index-files`: lists.
    pub index_files: Vec<Source>,
    /// `--query-separators`.
    pub query_separators: Option<QuerySeparators>,
    /// `--redirects`: files.
    pub redirects: Vec<Source>,
    /// `--param-rules`: files.
    pub param_rules: Vec<Source>,
    /// `--rewrite`: a file.
    pub rewrite: Option<Source>,
}

impl RuleOptions {
    /// Whether an option other than `--rewrite` is given: whether the
    /// canonicalizer differs from the profile's.
    pub fn edits_rules(&self) -> bool {
        !(self.rules.is_empty()
            && self.strip_params.is_empty()
            && self.keep_params.is_empty()
            && self.index_files.is_empty()
            && self.query_separators.is_none()
            && self.redirects.is_empty()
            && self.param_rules.is_empty())
    }

    /// The builder of `profile` with these options, in the command's
    /// order: a bad `--rules` name is reported before any file is read;
    /// then the lists and files; the rule edits last, so that
    /// `-keep-params` (or `-domain-params`) turns off what a list turned
    /// on. (`--rewrite` is not the canonicalizer's: see
    /// [`RuleOptions::rewrites`].)
    pub fn builder(&mut self, profile: Profile) -> Result<CanonicalizerBuilder, RuleOptionError> {
        let rules = |e: ConfigError| usage("--rules", e);
        for edits in &self.rules {
            profile.rules().edit(edits).map_err(rules)?;
        }
        let mut builder = Canonicalizer::builder(profile);
        for list in &mut self.strip_params {
            let text = match list {
                // The command's reading of a file: one name a line.
                Source::File(_) | Source::Read { .. } => names_of_lines(list.load()?),
                Source::Text(text) => text.clone(),
            };
            builder
                .strip_params(&text)
                .map_err(|e| usage("--strip-params", e))?;
        }
        self.configure(&mut builder)?;
        for edits in &self.rules {
            builder.rules(edits).map_err(rules)?;
        }
        Ok(builder)
    }

    /// Adds the lists and files of issue 29 to `builder`.
    fn configure(&mut self, builder: &mut CanonicalizerBuilder) -> Result<(), RuleOptionError> {
        for list in &mut self.keep_params {
            builder
                .keep_params(list.load()?)
                .map_err(|e| usage("--keep-params", e))?;
        }
        for list in &mut self.index_files {
            builder
                .index_files(list.load()?)
                .map_err(|e| usage("--index-files", e))?;
        }
        if let Some(separators) = self.query_separators {
            builder
                .rules(separators.edits())
                .map_err(|e| usage("--query-separators", e))?;
        }
        for file in &mut self.redirects {
            let text = file.load()?;
            builder
                .redirectors(text)
                .map_err(|e| usage(&format!("--redirects {}", file.name()), e))?;
        }
        for file in &mut self.param_rules {
            let text = file.load()?;
            builder.param_rules(text).map_err(|e| match e {
                ConfigError::BadParamRule(line, why) => {
                    RuleOptionError::Usage(format!("--param-rules {}:{line}: {why}", file.name()))
                }
                e => usage(&format!("--param-rules {}", file.name()), e),
            })?;
        }
        Ok(())
    }

    /// The rules of `--rewrite`, their tests run through `canon` (the
    /// canonicalizer whose output they rewrite).
    pub fn rewrites(&mut self, canon: &Canonicalizer) -> Result<Option<Rewrites>, RuleOptionError> {
        let Some(file) = &mut self.rewrite else {
            return Ok(None);
        };
        let text = file.load()?;
        let rewrites = Rewrites::parse(text, canon).map_err(|RewriteError { line, message }| {
            RuleOptionError::Usage(format!("--rewrite {}:{line}: {message}", file.name()))
        })?;
        Ok(Some(rewrites))
    }
}

/// A `--strip-params @FILE`'s text as a list: its lines trimmed, blank and
/// `#` lines dropped, the rest joined with commas.
fn names_of_lines(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect::<Vec<_>>()
        .join(",")
}

fn usage(option: &str, e: ConfigError) -> RuleOptionError {
    RuleOptionError::Usage(format!("{option}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(options: &mut RuleOptions) -> Result<Canonicalizer, String> {
        options
            .builder(Profile::Whatwg)
            .map(|b| b.build())
            .map_err(|e| e.to_string())
    }

    #[test]
    fn files_are_read_once_and_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("keep.txt");
        std::fs::write(&path, "# ids\nid\n").unwrap();
        let mut options = RuleOptions {
            keep_params: vec![Source::list(&format!("@{}", path.display()))],
            ..RuleOptions::default()
        };
        let canon = build(&mut options).unwrap();
        assert_eq!(
            canon.canonicalize("https://a.com/?x=1&id=2").unwrap(),
            "https://a.com/?id=2"
        );
        std::fs::remove_file(&path).unwrap();
        // Read: building again needs no file.
        assert!(matches!(options.keep_params[0], Source::Read { .. }));
        build(&mut options).unwrap();
    }

    #[test]
    fn messages_name_the_option_and_file() {
        let missing = RuleOptions {
            redirects: vec![Source::File("/nonexistent/r.txt".into())],
            ..RuleOptions::default()
        };
        let err = build(&mut missing.clone()).unwrap_err();
        assert!(err.starts_with("/nonexistent/r.txt: "), "{err}");
        // A bad rule name comes before the file.
        let err = build(&mut RuleOptions {
            rules: vec!["+nope".into()],
            ..missing
        })
        .unwrap_err();
        assert!(err.starts_with("--rules: unknown rule"), "{err}");
        let mut bad = RuleOptions {
            param_rules: vec![Source::Read {
                name: "p.txt".into(),
                text: "a.com strip x\na.com frob y\n".into(),
            }],
            ..RuleOptions::default()
        };
        let err = build(&mut bad).unwrap_err();
        assert!(err.starts_with("--param-rules p.txt:2: "), "{err}");
        let mut bad = RuleOptions {
            keep_params: vec![Source::list("a,*")],
            ..RuleOptions::default()
        };
        assert!(build(&mut bad).unwrap_err().starts_with("--keep-params: "));
    }

    #[test]
    fn rule_edits_come_last() {
        let mut options = RuleOptions {
            keep_params: vec![Source::list("id")],
            rules: vec!["-keep-params".into()],
            ..RuleOptions::default()
        };
        let canon = build(&mut options).unwrap();
        assert_eq!(
            canon.canonicalize("https://a.com/?x=1").unwrap(),
            "https://a.com/?x=1"
        );
    }

    #[test]
    fn rewrites_name_their_file_and_line() {
        let canon = Canonicalizer::new(Profile::Whatwg);
        let mut options = RuleOptions {
            rewrite: Some(Source::Read {
                name: "rw.txt".into(),
                text: "s|a|b|\ns|(|x|\n".into(),
            }),
            ..RuleOptions::default()
        };
        let err = options.rewrites(&canon).unwrap_err().to_string();
        assert!(err.starts_with("--rewrite rw.txt:2: "), "{err}");
        assert!(RuleOptions::default().rewrites(&canon).unwrap().is_none());
    }
}
