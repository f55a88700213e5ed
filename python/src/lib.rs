//! The `normurl` Python module: the normurl library's per-line work over
//! Arrow arrays (or lists of str), with the command's options and
//! answers. See docs/python.md.

mod arrow_io;
mod batch;
mod column;
mod config;
mod edit_args;
mod engine;
mod objects;
mod polars_plugin;
mod psl_arg;
mod rule_args;
mod scope;

use std::sync::Mutex;

use arrow_array::ArrayRef;
use arrow_schema::ArrowError;
use normurl::normalize::{InvalidUtf8, Source};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple};

use crate::arrow_io::Array;
use crate::batch::{Column, Side, Sink};
use crate::column::{ExplainColumn, KeyColumn, Layout, StringColumn, StructColumn};
use crate::config::{Args, Config, ConfigError};
use crate::edit_args::{EditArgs, EditSpecs};
use crate::engine::Worker;
use crate::objects::ObjectColumn;
use crate::rule_args::{Reprs, RuleArgs, State};

/// The fields of `components()`'s struct, in order: the command's
/// components (`--json`'s order).
pub(crate) fn component_columns() -> &'static [&'static str] {
    static NAMES: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| config::Component::ALL.iter().map(|c| c.name()).collect())
}

fn config_error(e: ConfigError) -> PyErr {
    match e {
        ConfigError::Value(m) => PyValueError::new_err(m),
        ConfigError::Io(m) => PyOSError::new_err(m),
    }
}

fn result_error(e: ArrowError) -> PyErr {
    PyValueError::new_err(format!("normurl: could not build the result: {e}"))
}

/// An optional string argument as `repr` shows it.
fn py_repr(arg: &Option<String>) -> String {
    arg.as_ref()
        .map_or_else(|| "None".into(), |s| format!("{s:?}"))
}

/// `threads`: `None` is the calling thread, 0 one thread per core, and a
/// negative `n` counts from the cores as joblib's `n_jobs` does (-1: one
/// per core, -2: all but one; at least one).
fn resolve_threads(threads: Option<i64>) -> usize {
    let cores = || std::thread::available_parallelism().map_or(1, |n| n.get());
    match threads {
        None => 1,
        Some(0) => cores(),
        Some(n) if n < 0 => {
            let left = (cores() as i64).saturating_add(1).saturating_add(n);
            left.max(1) as usize
        }
        Some(n) => usize::try_from(n).unwrap_or(usize::MAX),
    }
}

/// `invalid_utf8`: the command's `--invalid-utf8` policy for binary
/// inputs (`percent` when not given).
fn invalid_utf8_policy(name: Option<&str>) -> PyResult<InvalidUtf8> {
    match name {
        None => Ok(InvalidUtf8::default()),
        Some(name) => name.parse().map_err(|_| {
            let names: Vec<&str> = InvalidUtf8::ALL.iter().map(|p| p.name()).collect();
            PyValueError::new_err(format!(
                "--invalid-utf8: unknown policy {name:?}; the policies are: {}",
                names.join(", ")
            ))
        }),
    }
}

/// The per-row arguments of a batch call, as Python gave them: `base=`
/// and `charset=` columns (the command's `--base-field` and
/// `--charset-field`).
#[derive(Clone, Copy, Default)]
struct SideArgs<'a, 'py> {
    base: Option<&'a Bound<'py, PyAny>>,
    charset: Option<&'a Bound<'py, PyAny>>,
}

/// A per-row argument imported: an Arrow column as it is, a list of str
/// (None, NaN: null) into an Arrow column. `name` is the argument's, for
/// messages.
fn side_input(
    obj: &Bound<'_, PyAny>,
    name: &str,
    policy: InvalidUtf8,
) -> PyResult<Vec<arrow_io::Chunk>> {
    if obj.is_instance_of::<PyString>() {
        let one = if name == "charset" {
            "one encoding for every URL is query_encoding="
        } else {
            "one base for every URL is given when the Normalizer is made"
        };
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "{name}: expected one {name} per URL (a column), got one str ({one})"
        )));
    }
    if let Some(input) = arrow_io::import_named(obj, policy, name)? {
        return Ok(input.chunks);
    }
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        let items: Vec<Bound<'_, PyAny>> = obj.try_iter()?.collect::<PyResult<_>>()?;
        let strings = arrow_io::list_items_named(&items, name)?;
        let array = arrow_array::LargeStringArray::from(strings);
        return Ok(vec![arrow_io::Chunk {
            values: std::sync::Arc::new(array),
            keys: None,
        }]);
    }
    Err(pyo3::exceptions::PyTypeError::new_err(format!(
        "{name}: expected a column of strings (an Arrow array, a pandas or Polars Series, or a \
         list of str) with one entry per URL, got {}",
        obj.get_type().name()?
    )))
}

/// The per-row arguments' chunks, checked to have one entry per URL.
fn side_chunks(
    side: SideArgs<'_, '_>,
    policy: InvalidUtf8,
    rows: usize,
) -> PyResult<[Option<Vec<arrow_io::Chunk>>; 2]> {
    let mut out = [None, None];
    for (slot, (arg, name)) in out
        .iter_mut()
        .zip([(side.base, "base"), (side.charset, "charset")])
    {
        let Some(arg) = arg.filter(|a| !a.is_none()) else {
            continue;
        };
        let chunks = side_input(arg, name, policy)?;
        let len: usize = chunks.iter().map(|c| c.len()).sum();
        if len != rows {
            return Err(PyValueError::new_err(format!(
                "{name}: {len} values for {rows} URLs (one {name} per URL)"
            )));
        }
        *slot = Some(chunks);
    }
    Ok(out)
}

/// Runs a batch: Arrow in, [`Array`] out; a list in, a list out.
#[allow(clippy::too_many_arguments)]
fn batch<'py, S: Sink>(
    py: Python<'py>,
    config: &Config,
    policy: InvalidUtf8,
    urls: &Bound<'py, PyAny>,
    threads: Option<i64>,
    side: SideArgs<'_, 'py>,
    finish: fn(S, Layout) -> Result<ArrayRef, ArrowError>,
    item: fn(Python<'py>, &S, usize) -> PyResult<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let threads = resolve_threads(threads);
    check_base(config, side)?;
    if let Some(input) = arrow_io::import(urls, policy)? {
        let rows = input.chunks.iter().map(|c| c.len()).sum();
        let chunks = side_chunks(side, policy, rows)?;
        let sink = py.detach(|| {
            let columns = side_columns(&chunks);
            batch::run_chunks::<S>(config, &input.chunks, threads, Side::of(&columns, 0))
        });
        let array = finish(sink, input.layout).map_err(result_error)?;
        return Ok(Bound::new(py, Array::new(array))?.into_any());
    }
    if urls.is_instance_of::<PyList>() || urls.is_instance_of::<PyTuple>() {
        let items: Vec<Bound<'py, PyAny>> = urls.try_iter()?.collect::<PyResult<_>>()?;
        let strings = arrow_io::list_items(&items)?;
        let sink: S = run_rows(py, config, policy, &strings[..], threads, side)?;
        let out = (0..sink.len())
            .map(|i| item(py, &sink, i))
            .collect::<PyResult<Vec<_>>>()?;
        return Ok(PyList::new(py, out)?.into_any());
    }
    if urls.is_instance_of::<ObjectColumn>() {
        return Err(pyo3::exceptions::PyTypeError::new_err(
            "urls: an object column is taken by normalize without explain only",
        ));
    }
    Err(arrow_io::not_a_column(urls))
}

/// `default_scheme` with a column of bases is refused.
fn check_base(config: &Config, side: SideArgs<'_, '_>) -> PyResult<()> {
    if side.base.is_some_and(|b| !b.is_none()) && config.default_scheme.is_some() {
        return Err(PyValueError::new_err(
            "default_scheme: cannot be used with base (with a base, an input without a \
             scheme is a relative reference)",
        ));
    }
    Ok(())
}

/// Runs the rows `urls` (strings borrowed from Python objects that the
/// caller holds) with the GIL released, each with its `side` arguments.
fn run_rows<U: batch::Urls + ?Sized, S: Sink>(
    py: Python<'_>,
    config: &Config,
    policy: InvalidUtf8,
    urls: &U,
    threads: usize,
    side: SideArgs<'_, '_>,
) -> PyResult<S> {
    let chunks = side_chunks(side, policy, urls.len())?;
    let mut sink = S::with_capacity(urls.len());
    py.detach(|| {
        let columns = side_columns(&chunks);
        batch::run(config, urls, threads, Side::of(&columns, 0), &mut sink)
    });
    Ok(sink)
}

/// The per-row columns [`side_chunks`] gave, read as [`Column`]s.
fn side_columns(chunks: &[Option<Vec<arrow_io::Chunk>>; 2]) -> [Option<Column<'_>>; 2] {
    chunks.each_ref().map(|c| c.as_deref().map(Column::new))
}

/// `normalize` of a pandas column of objects (see [`objects`]): a numpy
/// object array, or `None` when a row is neither a `str` nor a missing
/// value (the caller then goes through Arrow, as before).
fn object_batch<'py>(
    py: Python<'py>,
    config: &Config,
    policy: InvalidUtf8,
    column: &ObjectColumn,
    threads: Option<i64>,
    side: SideArgs<'_, 'py>,
) -> PyResult<Bound<'py, PyAny>> {
    let threads = resolve_threads(threads);
    check_base(config, side)?;
    let Some(mut held) = objects::Held::new(py, column)? else {
        return Ok(py.None().into_bound(py));
    };
    let texts = held.take_texts();
    let chunks = side_chunks(side, policy, texts.len())?;
    let (out, layout) = held.output(py)?;
    // The engine runs a block of rows at a time on another thread (and
    // the pool), without the GIL, while this one, with it, turns the
    // block before into `str`s: that is the one step here that needs the
    // GIL and runs on one thread, and it no longer waits for the end.
    let columns = side_columns(&chunks);
    let block = |k: usize, rows: &[objects::Text]| {
        let side = Side::of(&columns, k * OBJECT_BLOCK);
        let mut sink = <objects::Answers as Sink>::with_capacity(rows.len());
        batch::run(config, rows, threads, side, &mut sink);
        sink
    };
    let blocks = || texts.chunks(OBJECT_BLOCK).enumerate();
    let written = std::thread::scope(|scope| {
        let (sender, receiver) = std::sync::mpsc::sync_channel(2);
        let engine = std::thread::Builder::new()
            .name("normurl-objects".into())
            .spawn_scoped(scope, move || {
                for (k, rows) in blocks() {
                    // Gone: the writing below stopped on an error.
                    if sender.send((k * OBJECT_BLOCK, block(k, rows))).is_err() {
                        return;
                    }
                }
            });
        let mut done = 0;
        if engine.is_err() {
            // No thread could be started: this one does the blocks in turn.
            for (k, rows) in blocks() {
                let answers = py.detach(|| block(k, rows));
                held.write(py, &layout, k * OBJECT_BLOCK, &answers)?;
                done += <objects::Answers as Sink>::len(&answers);
            }
            return Ok(done);
        }
        let mut receiver = receiver;
        loop {
            // The receiver is not `Sync`: it goes into the closure that
            // waits without the GIL, and comes back.
            let (back, next) = py.detach(move || {
                let next = receiver.recv();
                (receiver, next)
            });
            receiver = back;
            let Ok((start, answers)) = next else {
                return Ok::<usize, PyErr>(done);
            };
            held.write(py, &layout, start, &answers)?;
            done += <objects::Answers as Sink>::len(&answers);
        }
    })?;
    if written != texts.len() {
        return Err(PyValueError::new_err(
            "normurl: the result has not one row per URL",
        ));
    }
    Ok(out)
}

/// Rows of an object column the engine runs at a time while the rows
/// before are written (see `object_batch`).
const OBJECT_BLOCK: usize = 64 * 1024;

fn string_item<'py>(py: Python<'py>, c: &StringColumn, i: usize) -> PyResult<Bound<'py, PyAny>> {
    Ok(match c.get(i) {
        Some(s) => PyString::new(py, s).into_any(),
        None => py.None().into_bound(py),
    })
}

fn key_item<'py>(py: Python<'py>, c: &KeyColumn, i: usize) -> PyResult<Bound<'py, PyAny>> {
    Ok(match c.get(i) {
        Some(k) => PyBytes::new(py, k).into_any(),
        None => py.None().into_bound(py),
    })
}

fn explain_item<'py>(py: Python<'py>, c: &ExplainColumn, i: usize) -> PyResult<Bound<'py, PyAny>> {
    let (url, rules) = c.get(i);
    Ok(PyTuple::new(
        py,
        [
            url.into_pyobject(py)?.into_any(),
            rules.into_pyobject(py)?.into_any(),
        ],
    )?
    .into_any())
}

fn struct_item<'py>(py: Python<'py>, c: &StructColumn, i: usize) -> PyResult<Bound<'py, PyAny>> {
    if !c.is_valid(i) {
        return Ok(py.None().into_bound(py));
    }
    let dict = PyDict::new(py);
    for (name, column) in c.names.iter().zip(&c.columns) {
        dict.set_item(name, column.get(i))?;
    }
    Ok(dict.into_any())
}

/// `base=` of a function: one URL (str) for every row, the command's
/// `--base`, or a column of one per row, `--base-field`.
fn split_base<'a, 'py>(
    base: Option<&'a Bound<'py, PyAny>>,
) -> PyResult<(Option<String>, Option<&'a Bound<'py, PyAny>>)> {
    match base.filter(|b| !b.is_none()) {
        None => Ok((None, None)),
        Some(b) => match b.cast::<PyString>() {
            Ok(s) => Ok((Some(s.to_str()?.to_owned()), None)),
            Err(_) => Ok((None, Some(b))),
        },
    }
}

/// `base=` of a `Normalizer`: one URL for every row (a column of them
/// goes to its methods).
fn one_base(base: Option<&Bound<'_, PyAny>>) -> PyResult<Option<String>> {
    match base.filter(|b| !b.is_none()) {
        None => Ok(None),
        Some(b) => match b.cast::<PyString>() {
            Ok(s) => Ok(Some(s.to_str()?.to_owned())),
            Err(_) => Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "base: a Normalizer's base is one URL (str), got {}; give one base per row \
                 to its methods (normalize(urls, base=column))",
                b.get_type().name()?
            ))),
        },
    }
}

/// A parsed normurl configuration, for calling many times: the same
/// arguments and methods as the module's functions, plus
/// `normalize_one(url)`.
///
/// >>> n = normurl.Normalizer(profile="aggressive")
/// >>> n.normalize_one("HTTP://www.Example.com/a/?utm_source=x&b=1#top")
/// 'http://example.com/a?b=1'
/// >>> n.normalize(["http://a.example/./b", "not a url"])
/// ['http://a.example/b', None]
#[pyclass(module = "normurl", name = "Normalizer", frozen)]
struct Normalizer {
    config: Config,
    /// `normalize_one`'s buffers (batches make their own).
    worker: Mutex<Worker>,
    /// The arguments, for `repr` and pickling.
    profile: Option<String>,
    get: String,
    rules: Option<String>,
    base: Option<String>,
    default_scheme: Option<String>,
    query_separators: Option<String>,
    /// `invalid_utf8`: what binary inputs' bytes that are not UTF-8 become.
    invalid_utf8: InvalidUtf8,
    /// `idn`: the command's `--idn`, as given.
    idn: Option<String>,
    /// `query_encoding`: the command's `--query-encoding`, as given.
    query_encoding: Option<String>,
    /// `resolve`: the command's `--resolve`, as given.
    resolve: Option<String>,
    /// The list and file arguments given, with their reprs.
    reprs: Reprs,
}

/// [`Plain`] as a pickle keeps it: profile, get, rules, base,
/// default_scheme, query_separators.
pub(crate) type PlainState = (
    Option<String>,
    String,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
);

/// The arguments every function takes but the lists and files.
struct Plain {
    profile: Option<String>,
    get: String,
    rules: Option<String>,
    base: Option<String>,
    default_scheme: Option<String>,
    query_separators: Option<String>,
    invalid_utf8: InvalidUtf8,
    idn: Option<String>,
    query_encoding: Option<String>,
    resolve: Option<String>,
}

impl Normalizer {
    /// What decides the answers: the arguments and the files' texts.
    #[allow(clippy::type_complexity)]
    fn settings(
        &self,
    ) -> (
        PlainState,
        State,
        Option<(String, String)>,
        &'static str,
        Option<String>,
        Option<String>,
        Option<String>,
        EditSpecs,
    ) {
        let plain: PlainState = (
            self.profile.clone(),
            self.get.clone(),
            self.rules.clone(),
            self.base.clone(),
            self.default_scheme.clone(),
            self.query_separators.clone(),
        );
        (
            plain,
            rule_args::state(&self.config.options),
            self.config.psl.as_ref().map(|p| p.state()),
            self.invalid_utf8.name(),
            self.idn.clone(),
            self.query_encoding.clone(),
            self.resolve.clone(),
            self.config.edit_specs.clone(),
        )
    }

    /// One URL as a scalar method takes it: `None` (or NaN, `pd.NA`) is
    /// no URL, a str as it is (`None` if not valid Unicode), bytes as
    /// `invalid_utf8` makes them.
    fn scalar<'a>(
        &self,
        url: Option<&'a Bound<'_, PyAny>>,
        scratch: &'a mut Vec<u8>,
    ) -> PyResult<Option<&'a str>> {
        let Some(url) = url.filter(|u| !u.is_none()) else {
            return Ok(None);
        };
        if let Ok(s) = url.cast::<PyString>() {
            return Ok(s.to_str().ok());
        }
        if let Ok(b) = url.cast::<PyBytes>() {
            return Ok(self.invalid_utf8.apply(b.as_bytes(), scratch));
        }
        if arrow_io::is_missing(url) {
            return Ok(None);
        }
        Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "url: expected str, bytes or None, got {}",
            url.get_type().name()?
        )))
    }

    /// The configuration of the arguments as Python passed them.
    fn with(
        plain: Plain,
        lists: &RuleArgs<'_, '_>,
        edits: &EditArgs<'_, '_>,
    ) -> PyResult<Normalizer> {
        let (options, mut reprs) = lists.options()?;
        if let Some(seps) = &plain.query_separators {
            // In the signature's order: after index_files.
            let later = ["redirects", "param_rules", "rewrite"];
            let at = reprs
                .iter()
                .position(|(name, _)| later.contains(&name.as_str()))
                .unwrap_or(reprs.len());
            reprs.insert(at, ("query_separators".into(), format!("{seps:?}")));
        }
        // Last in the signature.
        let psl = lists.psl()?.map(|(source, repr)| {
            reprs.push(("psl".into(), repr));
            source
        });
        let edits = edits.specs(&mut reprs)?;
        Normalizer::build(plain, options, psl, edits, reprs)
    }

    /// The configuration of `plain` and `options` (files read now, if not
    /// yet).
    fn build(
        plain: Plain,
        options: normurl::normalize::RuleOptions,
        psl: Option<Source>,
        edits: EditSpecs,
        reprs: Reprs,
    ) -> PyResult<Normalizer> {
        let args = Args {
            profile: plain.profile,
            get: Some(plain.get.clone()),
            rules: plain.rules,
            base: plain.base,
            default_scheme: plain.default_scheme,
            query_separators: plain.query_separators,
            options,
            psl,
            idn: plain.idn.clone(),
            query_encoding: plain.query_encoding.clone(),
            resolve: plain.resolve.clone(),
            edits,
        };
        let config = Config::new(&args).map_err(config_error)?;
        Ok(Normalizer {
            config,
            worker: Mutex::new(Worker::default()),
            profile: args.profile,
            get: plain.get,
            rules: args.rules,
            base: args.base,
            default_scheme: args.default_scheme,
            query_separators: args.query_separators,
            invalid_utf8: plain.invalid_utf8,
            idn: plain.idn,
            query_encoding: plain.query_encoding,
            resolve: plain.resolve,
            reprs,
        })
    }
}

#[pymethods]
impl Normalizer {
    #[new]
    #[pyo3(signature = (profile=None, get="url", rules=None, base=None, default_scheme=None, strip_params=None, *, keep_params=None, index_files=None, query_separators=None, redirects=None, param_rules=None, rewrite=None, psl=None, invalid_utf8=None, idn=None, query_encoding=None, resolve=None, set=None, append=None, set_params=None, delete_params=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        profile: Option<String>,
        get: &str,
        rules: Option<String>,
        base: Option<&Bound<'_, PyAny>>,
        default_scheme: Option<String>,
        strip_params: Option<&Bound<'_, PyAny>>,
        keep_params: Option<&Bound<'_, PyAny>>,
        index_files: Option<&Bound<'_, PyAny>>,
        query_separators: Option<String>,
        redirects: Option<&Bound<'_, PyAny>>,
        param_rules: Option<&Bound<'_, PyAny>>,
        rewrite: Option<&Bound<'_, PyAny>>,
        psl: Option<&Bound<'_, PyAny>>,
        invalid_utf8: Option<&str>,
        idn: Option<String>,
        query_encoding: Option<String>,
        resolve: Option<String>,
        set: Option<&Bound<'_, PyAny>>,
        append: Option<&Bound<'_, PyAny>>,
        set_params: Option<&Bound<'_, PyAny>>,
        delete_params: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Normalizer> {
        let plain = Plain {
            profile,
            get: get.to_owned(),
            rules,
            base: one_base(base)?,
            default_scheme,
            query_separators,
            invalid_utf8: invalid_utf8_policy(invalid_utf8)?,
            idn,
            query_encoding,
            resolve,
        };
        let lists = RuleArgs {
            strip_params,
            keep_params,
            index_files,
            redirects,
            param_rules,
            rewrite,
            psl,
        };
        let edits = EditArgs {
            set,
            append,
            set_params,
            delete_params,
        };
        Normalizer::with(plain, &lists, &edits)
    }

    /// Pickling (Spark ships a Normalizer made on the driver to its
    /// workers): the arguments, with the text of every file they name
    /// (`_normalizer` rebuilds it), so that the copy does not need them.
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let plain: PlainState = (
            self.profile.clone(),
            self.get.clone(),
            self.rules.clone(),
            self.base.clone(),
            self.default_scheme.clone(),
            self.query_separators.clone(),
        );
        let state = rule_args::state(&self.config.options);
        let psl = self.config.psl.as_ref().map(|p| p.state());
        let policy = self.invalid_utf8.name();
        let args = (
            plain,
            state,
            self.reprs.clone(),
            psl,
            policy,
            self.idn.clone(),
            self.query_encoding.clone(),
            self.resolve.clone(),
            self.config.edit_specs.clone(),
        )
            .into_pyobject(py)?;
        let restore = py.import("normurl")?.getattr("_normalizer")?;
        Ok((restore, args))
    }

    /// The normalized form of every URL (see `normurl.normalize`).
    /// `base` and `charset` (keyword only) are columns of one entry per
    /// URL: its base (the command's `--base-field`) and the encoding
    /// label of its page (`--charset-field`). `explain=True` gives
    /// `(url, rules)` rows: the answer and the rules that fired.
    #[pyo3(signature = (urls, threads=None, *, base=None, charset=None, explain=false))]
    fn normalize<'py>(
        &self,
        py: Python<'py>,
        urls: &Bound<'py, PyAny>,
        threads: Option<i64>,
        base: Option<&Bound<'py, PyAny>>,
        charset: Option<&Bound<'py, PyAny>>,
        explain: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let side = SideArgs { base, charset };
        if let Ok(column) = urls.cast::<ObjectColumn>() {
            if !explain {
                return object_batch(
                    py,
                    &self.config,
                    self.invalid_utf8,
                    column.get(),
                    threads,
                    side,
                );
            }
        }
        if explain {
            return batch::<ExplainColumn>(
                py,
                &self.config,
                self.invalid_utf8,
                urls,
                threads,
                side,
                |c, layout| c.finish(layout, false),
                explain_item,
            );
        }
        batch::<StringColumn>(
            py,
            &self.config,
            self.invalid_utf8,
            urls,
            threads,
            side,
            StringColumn::finish,
            string_item,
        )
    }

    /// The dedup key of every URL (see `normurl.key_hash`).
    #[pyo3(signature = (urls, threads=None, *, base=None, charset=None))]
    fn key_hash<'py>(
        &self,
        py: Python<'py>,
        urls: &Bound<'py, PyAny>,
        threads: Option<i64>,
        base: Option<&Bound<'py, PyAny>>,
        charset: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        batch::<KeyColumn>(
            py,
            &self.config,
            self.invalid_utf8,
            urls,
            threads,
            SideArgs { base, charset },
            |c, _| c.finish(),
            key_item,
        )
    }

    /// The components of every URL (see `normurl.components`).
    #[pyo3(signature = (urls, threads=None, *, base=None, charset=None))]
    fn components<'py>(
        &self,
        py: Python<'py>,
        urls: &Bound<'py, PyAny>,
        threads: Option<i64>,
        base: Option<&Bound<'py, PyAny>>,
        charset: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        // A rewrite file whose tests are for the SURTs of `get` may fail
        // on URLs: said here, where its rules would run on URLs.
        if let Err(e) = &self.config.url_rewrite {
            return Err(PyValueError::new_err(format!("components: {e}")));
        }
        batch::<StructColumn>(
            py,
            &self.config,
            self.invalid_utf8,
            urls,
            threads,
            SideArgs { base, charset },
            StructColumn::finish,
            struct_item,
        )
    }

    /// The normalized form of one URL (str, or bytes read with
    /// `invalid_utf8`), or None when it is not a valid URL, is None or
    /// NaN, or (for a component) the URL does not have that component.
    ///
    /// >>> normurl.Normalizer(get="surt").normalize_one("https://www.example.com/a?b=1")
    /// 'com,example)/a?b=1'
    fn normalize_one(&self, url: Option<&Bound<'_, PyAny>>) -> PyResult<Option<String>> {
        let mut scratch = Vec::new();
        let Some(url) = self.scalar(url, &mut scratch)? else {
            return Ok(None);
        };
        let mut worker = self.worker.lock().unwrap_or_else(|e| e.into_inner());
        let mut out = Vec::new();
        if !worker.write(&self.config, url, &mut out) || out.is_empty() {
            return Ok(None);
        }
        Ok(String::from_utf8(out).ok())
    }

    /// The dedup key of one URL (16 bytes, as `key_hash` gives), or None.
    fn key_hash_one<'py>(
        &self,
        py: Python<'py>,
        url: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Option<Bound<'py, PyBytes>>> {
        let mut scratch = Vec::new();
        let Some(url) = self.scalar(url, &mut scratch)? else {
            return Ok(None);
        };
        let mut worker = self.worker.lock().unwrap_or_else(|e| e.into_inner());
        Ok(worker
            .key(&self.config, url)
            .map(|k| PyBytes::new(py, &k.to_le_bytes())))
    }

    /// The components of one URL as a dict (the fields of `components`,
    /// None for a component the URL does not have), or None.
    fn components_one<'py>(
        &self,
        py: Python<'py>,
        url: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if let Err(e) = &self.config.url_rewrite {
            return Err(PyValueError::new_err(format!("components: {e}")));
        }
        let mut scratch = Vec::new();
        let url = self.scalar(url, &mut scratch)?;
        let mut column = StructColumn::with_capacity(component_columns(), 1);
        let mut worker = self.worker.lock().unwrap_or_else(|e| e.into_inner());
        column.push(&mut worker, &self.config, url);
        struct_item(py, &column, 0)
    }

    /// Equal when made with the same settings (the files' names and
    /// texts, not how the lists were spelled).
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<Normalizer>() {
            Ok(other) => self.settings() == other.get().settings(),
            Err(_) => false,
        }
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        self.settings().hash(&mut hasher);
        hasher.finish()
    }

    fn __repr__(&self) -> String {
        let mut text = format!(
            "normurl.Normalizer(profile={}, get={:?}, rules={}, base={}, default_scheme={}",
            py_repr(&self.profile),
            self.get,
            py_repr(&self.rules),
            py_repr(&self.base),
            py_repr(&self.default_scheme)
        );
        // The list and file arguments when given, in the signature's
        // order.
        for (name, repr) in &self.reprs {
            text.push_str(&format!(", {name}={repr}"));
        }
        if let Some(label) = &self.query_encoding {
            text.push_str(&format!(", query_encoding={label:?}"));
        }
        if let Some(idn) = &self.idn {
            text.push_str(&format!(", idn={idn:?}"));
        }
        if let Some(mode) = &self.resolve {
            text.push_str(&format!(", resolve={mode:?}"));
        }
        if self.invalid_utf8 != InvalidUtf8::default() {
            text.push_str(&format!(", invalid_utf8={:?}", self.invalid_utf8.name()));
        }
        text + ")"
    }
}

/// Normalizes every URL of `urls`, as the `normurl` command normalizes a
/// line: one entry per input, `None`/null where the input is not a valid
/// URL (or is null).
///
/// `urls` is an Arrow array of strings (pyarrow Array or ChunkedArray,
/// polars Series, any object with `__arrow_c_array__` or
/// `__arrow_c_stream__`), giving a `normurl.Array` of the same string
/// type; or a list of str/None, giving a list.
///
/// >>> normurl.normalize(["HTTP://Example.COM/a/../b", "nope", None])
/// ['http://example.com/b', None, None]
/// >>> normurl.normalize(["https://www.example.com/?b=2&a=1#x"], profile="aggressive")
/// ['https://example.com/?a=1&b=2']
/// >>> normurl.normalize(["https://www.example.com/a"], get="surt")
/// ['com,example)/a']
///
/// `keep_params`, `index_files`, `query_separators`, `redirects`,
/// `param_rules`, `rewrite` and `psl` (keyword only) are the command's
/// options of those names: lists as `"a,b"`, `"@FILE"` or a list of
/// names; files as paths. `psl` is a Public Suffix List file for the
/// list's components and the `strip-www` guard (None: the bundled list).
///
/// >>> normurl.normalize(["https://a.example/?id=1&x=2;y=3"], keep_params=["id", "y"], query_separators="&;")
/// ['https://a.example/?id=1&y=3']
///
/// `base` is one URL (the command's `--base`) or a column of one per URL
/// (`--base-field`); `resolve` is `--resolve` (`whatwg`, `legacy`,
/// `generic`); `charset` a column of one encoding label per URL
/// (`--charset-field`); `explain=True` gives each answer with the rules
/// that fired (`--explain`).
///
/// >>> normurl.normalize(["../a", "b", "http://c.example/"], base=["http://x.example/p/q", None, "-"])
/// ['http://x.example/a', None, 'http://c.example/']
/// >>> normurl.normalize(["HTTP://A.example/#f"], profile="aggressive", explain=True)
/// [('http://a.example/', ['drop-fragment'])]
///
/// `set` (component to value: `{"scheme": "https", "hash": None}`),
/// `append` (`{"query": "NAME=VALUE", "path": "SEGMENT"}` or a list of
/// pairs), `set_params` (name to value) and `delete_params` (names and
/// `*` globs: `"utm_*,fbclid"` or a list) are the command's `--set`,
/// `--append`, `--set-param` and `--delete-param` (keyword only), applied
/// to each parsed URL in that order, before the profile's rules
/// (docs/editing.md). `get` also takes the command's templates:
/// `"{query:NAME}"`, `"{query-all:NAME}"`, `"{pathname:decoded}"`.
///
/// >>> normurl.normalize(["http://a.example/?utm_source=x&id=1"], set={"scheme": "https"}, delete_params="utm_*")
/// ['https://a.example/?id=1']
/// >>> normurl.normalize(["http://a.example/?q=rust+url"], get="{query:q}")
/// ['rust url']
#[pyfunction]
#[pyo3(signature = (urls, profile=None, get="url", rules=None, base=None, default_scheme=None, strip_params=None, threads=None, *, keep_params=None, index_files=None, query_separators=None, redirects=None, param_rules=None, rewrite=None, psl=None, invalid_utf8=None, idn=None, query_encoding=None, resolve=None, charset=None, explain=false, set=None, append=None, set_params=None, delete_params=None))]
#[allow(clippy::too_many_arguments)]
fn normalize<'py>(
    py: Python<'py>,
    urls: &Bound<'py, PyAny>,
    profile: Option<String>,
    get: &str,
    rules: Option<String>,
    base: Option<&Bound<'py, PyAny>>,
    default_scheme: Option<String>,
    strip_params: Option<&Bound<'py, PyAny>>,
    threads: Option<i64>,
    keep_params: Option<&Bound<'py, PyAny>>,
    index_files: Option<&Bound<'py, PyAny>>,
    query_separators: Option<String>,
    redirects: Option<&Bound<'py, PyAny>>,
    param_rules: Option<&Bound<'py, PyAny>>,
    rewrite: Option<&Bound<'py, PyAny>>,
    psl: Option<&Bound<'py, PyAny>>,
    invalid_utf8: Option<&str>,
    idn: Option<String>,
    query_encoding: Option<String>,
    resolve: Option<String>,
    charset: Option<&Bound<'py, PyAny>>,
    explain: bool,
    set: Option<&Bound<'py, PyAny>>,
    append: Option<&Bound<'py, PyAny>>,
    set_params: Option<&Bound<'py, PyAny>>,
    delete_params: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let (base, row_bases) = split_base(base)?;
    let plain = Plain {
        profile,
        get: get.to_owned(),
        rules,
        base,
        default_scheme,
        query_separators,
        invalid_utf8: invalid_utf8_policy(invalid_utf8)?,
        idn,
        query_encoding,
        resolve,
    };
    let lists = RuleArgs {
        strip_params,
        keep_params,
        index_files,
        redirects,
        param_rules,
        rewrite,
        psl,
    };
    let edits = EditArgs {
        set,
        append,
        set_params,
        delete_params,
    };
    Normalizer::with(plain, &lists, &edits)?
        .normalize(py, urls, threads, row_bases, charset, explain)
}

/// The dedup key of every URL: the 128-bit MurmurHash3 (x64_128, seed 0)
/// of what `normalize` gives with the same arguments, as 16 bytes (the
/// digest, little-endian halves: `mmh3.hash_bytes`). It is the key the
/// command's `--dedup` compares. Null where the input is not a valid URL.
///
/// >>> keys = normurl.key_hash(["http://a.example/", "HTTP://A.example"])
/// >>> keys[0] == keys[1], len(keys[0])
/// (True, 16)
#[pyfunction]
#[pyo3(signature = (urls, profile=None, get="url", rules=None, base=None, default_scheme=None, strip_params=None, threads=None, *, keep_params=None, index_files=None, query_separators=None, redirects=None, param_rules=None, rewrite=None, psl=None, invalid_utf8=None, idn=None, query_encoding=None, resolve=None, charset=None, set=None, append=None, set_params=None, delete_params=None))]
#[allow(clippy::too_many_arguments)]
fn key_hash<'py>(
    py: Python<'py>,
    urls: &Bound<'py, PyAny>,
    profile: Option<String>,
    get: &str,
    rules: Option<String>,
    base: Option<&Bound<'py, PyAny>>,
    default_scheme: Option<String>,
    strip_params: Option<&Bound<'py, PyAny>>,
    threads: Option<i64>,
    keep_params: Option<&Bound<'py, PyAny>>,
    index_files: Option<&Bound<'py, PyAny>>,
    query_separators: Option<String>,
    redirects: Option<&Bound<'py, PyAny>>,
    param_rules: Option<&Bound<'py, PyAny>>,
    rewrite: Option<&Bound<'py, PyAny>>,
    psl: Option<&Bound<'py, PyAny>>,
    invalid_utf8: Option<&str>,
    idn: Option<String>,
    query_encoding: Option<String>,
    resolve: Option<String>,
    charset: Option<&Bound<'py, PyAny>>,
    set: Option<&Bound<'py, PyAny>>,
    append: Option<&Bound<'py, PyAny>>,
    set_params: Option<&Bound<'py, PyAny>>,
    delete_params: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let (base, row_bases) = split_base(base)?;
    let plain = Plain {
        profile,
        get: get.to_owned(),
        rules,
        base,
        default_scheme,
        query_separators,
        invalid_utf8: invalid_utf8_policy(invalid_utf8)?,
        idn,
        query_encoding,
        resolve,
    };
    let lists = RuleArgs {
        strip_params,
        keep_params,
        index_files,
        redirects,
        param_rules,
        rewrite,
        psl,
    };
    let edits = EditArgs {
        set,
        append,
        set_params,
        delete_params,
    };
    Normalizer::with(plain, &lists, &edits)?.key_hash(py, urls, threads, row_bases, charset)
}

/// The components of every URL's canonical form: a struct array (or a
/// list of dicts) with the URL API's getters (href, protocol, username,
/// password, host, hostname, port, pathname, search, hash, origin), the
/// reversed host and the SURT. Each field equals `normalize(urls,
/// get=field)` with the same arguments.
///
/// >>> normurl.components(["https://u@www.example.com:8443/a?q#f"])[0]["reversed_host"]
/// 'com,example,www'
#[pyfunction]
#[pyo3(signature = (urls, profile=None, rules=None, base=None, default_scheme=None, strip_params=None, threads=None, *, keep_params=None, index_files=None, query_separators=None, redirects=None, param_rules=None, rewrite=None, psl=None, invalid_utf8=None, idn=None, query_encoding=None, resolve=None, charset=None, set=None, append=None, set_params=None, delete_params=None))]
#[allow(clippy::too_many_arguments)]
fn components<'py>(
    py: Python<'py>,
    urls: &Bound<'py, PyAny>,
    profile: Option<String>,
    rules: Option<String>,
    base: Option<&Bound<'py, PyAny>>,
    default_scheme: Option<String>,
    strip_params: Option<&Bound<'py, PyAny>>,
    threads: Option<i64>,
    keep_params: Option<&Bound<'py, PyAny>>,
    index_files: Option<&Bound<'py, PyAny>>,
    query_separators: Option<String>,
    redirects: Option<&Bound<'py, PyAny>>,
    param_rules: Option<&Bound<'py, PyAny>>,
    rewrite: Option<&Bound<'py, PyAny>>,
    psl: Option<&Bound<'py, PyAny>>,
    invalid_utf8: Option<&str>,
    idn: Option<String>,
    query_encoding: Option<String>,
    resolve: Option<String>,
    charset: Option<&Bound<'py, PyAny>>,
    set: Option<&Bound<'py, PyAny>>,
    append: Option<&Bound<'py, PyAny>>,
    set_params: Option<&Bound<'py, PyAny>>,
    delete_params: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let (base, row_bases) = split_base(base)?;
    let plain = Plain {
        profile,
        get: "url".into(),
        rules,
        base,
        default_scheme,
        query_separators,
        invalid_utf8: invalid_utf8_policy(invalid_utf8)?,
        idn,
        query_encoding,
        resolve,
    };
    let lists = RuleArgs {
        strip_params,
        keep_params,
        index_files,
        redirects,
        param_rules,
        rewrite,
        psl,
    };
    let edits = EditArgs {
        set,
        append,
        set_params,
        delete_params,
    };
    Normalizer::with(plain, &lists, &edits)?.components(py, urls, threads, row_bases, charset)
}

/// Rebuilds a pickled `Normalizer` (its `__reduce__`): the arguments, the
/// text of the files they named, the reprs of those given, and `psl`'s
/// name and text (absent from pickles made before `psl=`), and the
/// `invalid_utf8` policy.
#[pyfunction]
#[pyo3(signature = (plain, state, reprs, psl=None, invalid_utf8=None, idn=None, query_encoding=None, resolve=None, edits=None))]
#[allow(clippy::too_many_arguments)]
fn _normalizer(
    plain: PlainState,
    state: State,
    reprs: Reprs,
    psl: Option<(String, String)>,
    invalid_utf8: Option<&str>,
    idn: Option<String>,
    query_encoding: Option<String>,
    resolve: Option<String>,
    edits: Option<EditSpecs>,
) -> PyResult<Normalizer> {
    let (profile, get, rules, base, default_scheme, query_separators) = plain;
    let plain = Plain {
        profile,
        get,
        rules,
        base,
        default_scheme,
        query_separators,
        invalid_utf8: invalid_utf8_policy(invalid_utf8)?,
        idn,
        query_encoding,
        resolve,
    };
    let psl = psl.map(|(name, text)| Source::Read { name, text });
    let edits = edits.unwrap_or_default();
    Normalizer::build(plain, rule_args::from_state(state)?, psl, edits, reprs)
}

/// Normalize URLs in bulk over Apache Arrow, with the answers of the
/// `normurl` command: normalize, key_hash, components, Normalizer.
#[pymodule(name = "_native")]
fn normurl_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(normalize, m)?)?;
    m.add_function(wrap_pyfunction!(key_hash, m)?)?;
    m.add_function(wrap_pyfunction!(components, m)?)?;
    m.add_function(wrap_pyfunction!(_normalizer, m)?)?;
    m.add_function(wrap_pyfunction!(scope::in_scope, m)?)?;
    m.add_class::<Normalizer>()?;
    m.add_class::<Array>()?;
    m.add_class::<ObjectColumn>()?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("COMPONENTS", PyTuple::new(m.py(), component_columns())?)?;
    Ok(())
}
