//! `normurl.in_scope`: the command's `--keep-if`/`--drop-if` decision for
//! every URL, as a boolean mask (see `normurl::scope`).

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::{Array as _, ArrayRef, BooleanArray};
use arrow_schema::DataType;
use normurl::canon::{Canonicalizer, Profile, Scratch};
use normurl::scope::{Decision, Scope, ScopeState};
use normurl::Url;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

use crate::arrow_io::{self, Array, Chunk};
use normurl::normalize::InvalidUtf8;

/// Whether each URL is in the scope of the rules, as the command's
/// `--keep-if` and `--drop-if` decide: `True` where the line would be
/// written, `False` where it would be dropped, `None` where the input is
/// not a valid URL (or is None), which the command never drops.
///
/// The rules are decided on the URL normalized with `profile` (default
/// `whatwg`) and `rules` (rule edits, as `--rules`). `keep_if` and
/// `drop_if` are lists of `KIND:VALUE` rules (surt:, domain:, host:,
/// scheme:, regex:); the `keep_if` rules come before the `drop_if` ones,
/// and the last matching rule decides. `scope`, a list of
/// `("keep" | "drop", RULE)` pairs, gives the rules in any order instead.
/// With a keep rule, what no rule matches is out of scope; else in.
///
/// `urls` is an Arrow array of strings (giving a boolean `normurl.Array`)
/// or a list of str/None (giving a list).
///
/// >>> normurl.in_scope(["https://a.example.org/", "http://example.net/", "nope"], keep_if=["domain:example.org"])
/// [True, False, None]
#[pyfunction]
#[pyo3(signature = (urls, keep_if=None, drop_if=None, *, scope=None, profile=None, rules=None))]
pub fn in_scope<'py>(
    py: Python<'py>,
    urls: &Bound<'py, PyAny>,
    keep_if: Option<Vec<String>>,
    drop_if: Option<Vec<String>>,
    scope: Option<Vec<(String, String)>>,
    profile: Option<String>,
    rules: Option<String>,
) -> PyResult<Bound<'py, PyAny>> {
    let mut ordered: Vec<(Decision, String)> = Vec::new();
    ordered.extend(keep_if.into_iter().flatten().map(|r| (Decision::Keep, r)));
    ordered.extend(drop_if.into_iter().flatten().map(|r| (Decision::Drop, r)));
    for (action, rule) in scope.into_iter().flatten() {
        let decision = match action.as_str() {
            "keep" => Decision::Keep,
            "drop" => Decision::Drop,
            other => {
                return Err(PyValueError::new_err(format!(
                    "scope: unknown action {other:?} (expected \"keep\" or \"drop\")"
                )))
            }
        };
        ordered.push((decision, rule));
    }
    let decider = Decider::new(&ordered, profile.as_deref(), rules.as_deref())?;
    if let Some(input) = arrow_io::import(urls, InvalidUtf8::Percent)? {
        let mut mask: Vec<Option<bool>> = Vec::new();
        let mut worker = decider.worker();
        for chunk in &input.chunks {
            push_chunk(chunk, &decider, &mut worker, &mut mask);
        }
        let array: ArrayRef = Arc::new(BooleanArray::from(mask));
        return Ok(Bound::new(py, Array::new(array))?.into_any());
    }
    let items: Vec<Bound<'py, PyAny>> = if let Ok(list) = urls.cast::<PyList>() {
        list.iter().collect()
    } else if let Ok(tuple) = urls.cast::<PyTuple>() {
        tuple.iter().collect()
    } else {
        return Err(arrow_io::not_a_column(urls));
    };
    let mut worker = decider.worker();
    let mask: Vec<Option<bool>> = arrow_io::list_items(&items)?
        .into_iter()
        .map(|u| u.and_then(|u| decider.keeps(u, &mut worker)))
        .collect();
    Ok(PyList::new(py, mask)?.into_any())
}

/// The decisions of `chunk`'s rows, appended to `mask`: a dictionary's
/// values are decided once each, then looked up by the rows' keys.
fn push_chunk(chunk: &Chunk, d: &Decider, w: &mut Worker, mask: &mut Vec<Option<bool>>) {
    match &chunk.keys {
        None => push_values(&chunk.values, d, w, mask),
        Some((keys, nulls)) => {
            let mut values = Vec::new();
            push_values(&chunk.values, d, w, &mut values);
            for (row, &key) in keys.iter().enumerate() {
                let null = nulls.as_ref().is_some_and(|n| n.is_null(row));
                mask.push(if null {
                    None
                } else {
                    values.get(key).copied().flatten()
                });
            }
        }
    }
}

/// The decisions of the strings of `chunk`, appended to `mask`.
fn push_values(chunk: &ArrayRef, d: &Decider, w: &mut Worker, mask: &mut Vec<Option<bool>>) {
    let mut each = |u: Option<&str>| mask.push(u.and_then(|u| d.keeps(u, w)));
    match chunk.data_type() {
        DataType::Utf8 => chunk.as_string::<i32>().iter().for_each(&mut each),
        DataType::LargeUtf8 => chunk.as_string::<i64>().iter().for_each(&mut each),
        DataType::Utf8View => chunk.as_string_view().iter().for_each(&mut each),
        // The null type (a column of Nones), which `import` accepts.
        _ => (0..chunk.len()).for_each(|_| each(None)),
    }
}

/// The rules and the canonicalizer of the normalized URL.
struct Decider {
    scope: Scope,
    canon: Canonicalizer,
}

/// A caller's reused buffers.
struct Worker {
    url: Option<Url>,
    canonical: Option<Url>,
    bytes: Vec<u8>,
    scratch: Scratch,
    state: ScopeState,
}

impl Decider {
    fn new(
        rules: &[(Decision, String)],
        profile: Option<&str>,
        edits: Option<&str>,
    ) -> PyResult<Decider> {
        let value_error = |e: String| PyValueError::new_err(e);
        let profile: Profile = match profile {
            Some(p) => p
                .parse()
                .map_err(|e| value_error(format!("profile: {e}")))?,
            None => Profile::Whatwg,
        };
        let mut builder = Canonicalizer::builder(profile);
        if let Some(edits) = edits {
            builder
                .rules(edits)
                .map_err(|e| value_error(format!("rules: {e}")))?;
        }
        let scope = Scope::new(rules.iter().map(|(d, r)| (*d, r.as_str())))
            .map_err(|e| value_error(e.to_string()))?;
        Ok(Decider {
            scope,
            canon: builder.build(),
        })
    }

    fn worker(&self) -> Worker {
        Worker {
            url: None,
            canonical: None,
            bytes: Vec::new(),
            scratch: Scratch::new(),
            state: ScopeState::default(),
        }
    }

    /// Whether the scope keeps `input`, `None` when it is no URL.
    fn keeps(&self, input: &str, w: &mut Worker) -> Option<bool> {
        let url = w
            .url
            .get_or_insert_with(|| Url::parse("about:blank").expect("valid"));
        w.bytes.clear();
        self.canon
            .parse_apply(input, url, &mut w.scratch, &mut w.bytes)
            .ok()?;
        let text = std::str::from_utf8(&w.bytes).ok()?;
        let canonical = match &mut w.canonical {
            Some(u) => {
                u.parse_into(text, None).ok()?;
                u
            }
            None => w.canonical.insert(Url::parse(text).ok()?),
        };
        Some(self.scope.decide(canonical, &mut w.state) == Decision::Keep)
    }
}
