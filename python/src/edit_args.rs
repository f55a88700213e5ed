//! The edit arguments (`set`, `append`, `set_params`, `delete_params`:
//! the command's `--set`, `--append`, `--set-param`, `--delete-param`) as
//! Python passes them, turned into [`EditSpecs`] (kept for `repr`,
//! pickling and equality) and into the library's [`Edit`] list, in the
//! order they apply: `set`, then `append`, then `set_params`, then
//! `delete_params`, the items of each in their order (a dict's in its
//! insertion order). That order is the command's for a command line that
//! gives the options in that order (`--set ... --append ... --set-param
//! ... --delete-param ...`), so the answers are that command line's.

use normurl::normalize::Edit;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyList, PyString, PyTuple};

use crate::rule_args::Reprs;

/// The edit arguments as given (`None` or missing: not given).
pub struct EditArgs<'a, 'py> {
    pub set: Option<&'a Bound<'py, PyAny>>,
    pub append: Option<&'a Bound<'py, PyAny>>,
    pub set_params: Option<&'a Bound<'py, PyAny>>,
    pub delete_params: Option<&'a Bound<'py, PyAny>>,
}

/// One edit as given: the command's option (`set`, `append`,
/// `set-param`, `delete-param`), then the component (or the parameter's
/// name, or for `delete-param` the list of names) and the value (empty
/// for `delete-param`).
pub type EditSpec = (String, String, String);

/// The edits as given, in the order they apply.
pub type EditSpecs = Vec<EditSpec>;

impl<'py> EditArgs<'_, 'py> {
    /// The edits in the order they apply; the reprs of the arguments
    /// given are appended to `reprs`. A value of the wrong type is a
    /// `TypeError`; a bad component is reported by [`edits`] (a
    /// `ValueError` with the command's message).
    pub fn specs(&self, reprs: &mut Reprs) -> PyResult<EditSpecs> {
        let mut specs = EditSpecs::new();
        for (name, option, arg) in [
            ("set", "set", self.set),
            ("append", "append", self.append),
            ("set_params", "set-param", self.set_params),
        ] {
            let Some(arg) = arg.filter(|a| !a.is_none()) else {
                continue;
            };
            reprs.push((name.to_owned(), arg.repr()?.to_string()));
            for (key, value) in pairs(name, arg)? {
                specs.push((option.to_owned(), key, value));
            }
        }
        if let Some(arg) = self.delete_params.filter(|a| !a.is_none()) {
            reprs.push(("delete_params".to_owned(), arg.repr()?.to_string()));
            for names in names(arg)? {
                specs.push(("delete-param".to_owned(), names, String::new()));
            }
        }
        Ok(specs)
    }
}

/// The library's edits of `specs`, or the command's one-line message for
/// a bad one (`--set: unknown component "schema" (...)`).
pub fn edits(specs: &EditSpecs) -> Result<Vec<Edit>, String> {
    let mut edits = Vec::with_capacity(specs.len());
    // The lists of `delete_params` (the option repeated) check one by one,
    // as the command checks each --delete-param, and become one edit:
    // deleting the union of the patterns in one pass gives what deleting
    // them one list after the other gives.
    let mut deleted: Vec<&str> = Vec::new();
    for (option, key, value) in specs {
        let edit = match option.as_str() {
            "set" => Edit::set_component(key, value),
            "append" => Edit::append_component(key, value),
            "set-param" => Ok(Edit::set_param_to(key, value)),
            "delete-param" => {
                Edit::delete_param(key).map_err(|e| e.to_string())?;
                deleted.push(key);
                continue;
            }
            _ => return Err(format!("normurl: unknown edit {option:?}")),
        };
        edits.push(edit.map_err(|e| e.to_string())?);
    }
    if !deleted.is_empty() {
        edits.push(Edit::delete_param(&deleted.join(",")).map_err(|e| e.to_string())?);
    }
    Ok(edits)
}

/// `(str, value)` pairs: a dict's items, or a list (or tuple) of 2-tuples.
fn pairs(name: &str, arg: &Bound<'_, PyAny>) -> PyResult<Vec<(String, String)>> {
    let wrong = || {
        PyTypeError::new_err(format!(
            "{name}: expected a dict of str to str, or a list of (str, str) pairs"
        ))
    };
    let items: Vec<(Bound<'_, PyAny>, Bound<'_, PyAny>)> = if let Ok(dict) = arg.cast::<PyDict>() {
        dict.iter().collect()
    } else if arg.is_instance_of::<PyList>() || arg.is_instance_of::<PyTuple>() {
        arg.try_iter()?
            .map(|item| item?.extract().map_err(|_| wrong()))
            .collect::<PyResult<_>>()?
    } else {
        return Err(wrong());
    };
    items
        .into_iter()
        .map(|(key, value)| {
            let key = key.cast::<PyString>().map_err(|_| wrong())?.to_string();
            Ok((key, text(name, &value).ok_or_else(wrong)?))
        })
        .collect()
}

/// A value: a str, an int (written in decimal: `set={"port": 8080}`), or
/// for `set` None, which clears the component (as an empty value does:
/// `set={"hash": None}` is `--set hash=`).
fn text(name: &str, value: &Bound<'_, PyAny>) -> Option<String> {
    if let Ok(s) = value.cast::<PyString>() {
        return Some(s.to_string());
    }
    if value.is_instance_of::<PyInt>() && !value.is_instance_of::<PyBool>() {
        return value.str().ok().map(|s| s.to_string());
    }
    (name == "set" && value.is_none()).then(String::new)
}

/// `delete_params`: a str in the command's syntax (`"utm_*,fbclid"`), or a
/// list of them, each as one `--delete-param`.
fn names(arg: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    if let Ok(s) = arg.cast::<PyString>() {
        return Ok(vec![s.to_string()]);
    }
    if arg.is_instance_of::<PyList>() || arg.is_instance_of::<PyTuple>() {
        if let Ok(names) = arg.extract::<Vec<String>>() {
            return Ok(names);
        }
    }
    Err(PyTypeError::new_err(
        "delete_params: expected a str (\"utm_*,fbclid\") or a list of str",
    ))
}
