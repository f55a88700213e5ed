//! The list and file arguments (`strip_params`, `keep_params`,
//! `index_files`, `redirects`, `param_rules`, `rewrite`, and `psl`'s
//! path) as Python passes them, turned into the library's `RuleOptions`
//! (the command's `--strip-params` ... `--rewrite`); and back, files read,
//! for pickling.

use std::path::PathBuf;

use normurl::normalize::{RuleOptions, Source};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

/// The arguments as given (`None` or missing: not given).
pub struct RuleArgs<'a, 'py> {
    pub strip_params: Option<&'a Bound<'py, PyAny>>,
    pub keep_params: Option<&'a Bound<'py, PyAny>>,
    pub index_files: Option<&'a Bound<'py, PyAny>>,
    pub redirects: Option<&'a Bound<'py, PyAny>>,
    pub param_rules: Option<&'a Bound<'py, PyAny>>,
    pub rewrite: Option<&'a Bound<'py, PyAny>>,
    pub psl: Option<&'a Bound<'py, PyAny>>,
}

/// The arguments given, by name, with their Python `repr`: what the
/// `Normalizer`'s `repr` shows.
pub type Reprs = Vec<(String, String)>;

impl<'py> RuleArgs<'_, 'py> {
    /// The library's options (files not read yet), and the arguments'
    /// reprs.
    pub fn options(&self) -> PyResult<(RuleOptions, Reprs)> {
        let mut reprs = Reprs::new();
        let mut given =
            |name: &str, arg: Option<&Bound<'py, PyAny>>| -> PyResult<Option<Bound<'py, PyAny>>> {
                let arg = arg.filter(|a| !a.is_none());
                if let Some(a) = arg {
                    reprs.push((name.to_owned(), a.repr()?.to_string()));
                }
                Ok(arg.cloned())
            };
        let options = RuleOptions {
            strip_params: list("strip_params", given("strip_params", self.strip_params)?)?,
            keep_params: list("keep_params", given("keep_params", self.keep_params)?)?,
            index_files: list("index_files", given("index_files", self.index_files)?)?,
            redirects: files("redirects", given("redirects", self.redirects)?)?,
            param_rules: files("param_rules", given("param_rules", self.param_rules)?)?,
            rewrite: match given("rewrite", self.rewrite)? {
                Some(a) => Some(Source::File(path("rewrite", &a)?)),
                None => None,
            },
            ..RuleOptions::default()
        };
        Ok((options, reprs))
    }

    /// `psl`'s file (not read yet) and its repr, if given.
    pub fn psl(&self) -> PyResult<Option<(Source, String)>> {
        match self.psl.filter(|a| !a.is_none()) {
            Some(a) => Ok(Some((Source::File(path("psl", a)?), a.repr()?.to_string()))),
            None => Ok(None),
        }
    }
}

/// A list: a str in the command's syntax (`"a,b"`, `"@FILE"`) or a list
/// of names.
fn list(name: &str, arg: Option<Bound<'_, PyAny>>) -> PyResult<Vec<Source>> {
    let Some(arg) = arg else {
        return Ok(Vec::new());
    };
    if let Ok(text) = arg.extract::<String>() {
        return Ok(vec![Source::list(&text)]);
    }
    if arg.is_instance_of::<PyList>() || arg.is_instance_of::<PyTuple>() {
        if let Ok(names) = arg.extract::<Vec<String>>() {
            return Ok(vec![Source::Text(names.join(","))]);
        }
    }
    Err(PyTypeError::new_err(format!(
        "{name}: expected a str (\"a,b\" or \"@FILE\") or a list of str"
    )))
}

/// Files: a path, or a list of paths (the command's option repeated).
fn files(name: &str, arg: Option<Bound<'_, PyAny>>) -> PyResult<Vec<Source>> {
    let Some(arg) = arg else {
        return Ok(Vec::new());
    };
    if arg.is_instance_of::<PyList>() || arg.is_instance_of::<PyTuple>() {
        return arg
            .try_iter()?
            .map(|item| Ok(Source::File(path(name, &item?)?)))
            .collect();
    }
    Ok(vec![Source::File(path(name, &arg)?)])
}

/// A path: a str or an `os.PathLike`.
fn path(name: &str, arg: &Bound<'_, PyAny>) -> PyResult<PathBuf> {
    arg.extract::<PathBuf>().map_err(|_| {
        PyTypeError::new_err(format!(
            "{name}: expected a path (str or os.PathLike), got {}",
            arg.get_type()
                .name()
                .map_or_else(|_| "?".into(), |n| n.to_string())
        ))
    })
}

/// What a pickled `Normalizer` keeps of the options, every file read: for
/// each of `strip_params`, `keep_params`, `index_files`, `redirects`,
/// `param_rules` and `rewrite` (in that order), a list of `(name, text)`,
/// the name `None` for a list given as text.
pub type State = Vec<Vec<(Option<String>, String)>>;

/// The options' state (see [`State`]).
pub fn state(options: &RuleOptions) -> State {
    let sources = |all: &[Source]| -> Vec<(Option<String>, String)> {
        all.iter()
            .filter_map(|s| match s {
                Source::Text(text) => Some((None, text.clone())),
                Source::Read { name, text } => Some((Some(name.clone()), text.clone())),
                // Never: a configuration's files are read.
                Source::File(_) => None,
            })
            .collect()
    };
    vec![
        sources(&options.strip_params),
        sources(&options.keep_params),
        sources(&options.index_files),
        sources(&options.redirects),
        sources(&options.param_rules),
        sources(options.rewrite.as_slice()),
    ]
}

/// The options of a [`State`].
pub fn from_state(state: State) -> PyResult<RuleOptions> {
    let sources = |all: Vec<(Option<String>, String)>| -> Vec<Source> {
        all.into_iter()
            .map(|(name, text)| match name {
                None => Source::Text(text),
                Some(name) => Source::Read { name, text },
            })
            .collect()
    };
    let Ok([strip, keep, index, redirects, param_rules, rewrite]) = <[_; 6]>::try_from(state)
    else {
        return Err(PyValueError::new_err("normurl: not a pickled Normalizer"));
    };
    Ok(RuleOptions {
        strip_params: sources(strip),
        keep_params: sources(keep),
        index_files: sources(index),
        redirects: sources(redirects),
        param_rules: sources(param_rules),
        rewrite: sources(rewrite).into_iter().next(),
        ..RuleOptions::default()
    })
}
