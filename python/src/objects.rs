//! pandas' columns of Python objects (the `object` and `string[python]`
//! dtypes) without Arrow: the numpy object array behind a Series in, a
//! numpy object array out. Each row's UTF-8 is read from its `str` in
//! place (`PyUnicode_AsUTF8AndSize`, which for an ASCII `str` is the
//! object's own bytes), and a row whose answer equals its input gets the
//! input's `str` object back; only the other rows get a new `str`.
//!
//! The rows are held, each with a reference of ours, before the GIL is
//! released for the engine: another Python thread may then write into
//! the caller's array or drop its own references, but every `str` the
//! engine reads stays alive and unchanged (a `str` is immutable, and the
//! UTF-8 that `PyUnicode_AsUTF8AndSize` caches in a non-ASCII one lives
//! as long as the object). The arrays themselves are only read or written
//! with the GIL held.
//!
//! The engine runs a block of rows at a time on other threads while this
//! one, holding the GIL, writes the rows of the block before into the
//! result ([`Held::write`]); a row's reference is given up or moved only
//! there, after the engine is done with its block, so the texts it reads
//! are always of rows still held.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyFloat, PyString, PyTuple, PyType};

use crate::batch::{Sink, Urls};
use crate::column::StringColumn;
use crate::config::Config;
use crate::engine::Worker;

/// A pandas column's values as `normalize` takes them without Arrow:
/// `values`, a one-dimensional numpy array of dtype object (the Series'
/// own, not a copy), and `null`, what the result holds for a null row
/// (`None` for an `object` column, the dtype's `na_value` for a
/// `string` one). For the package's pandas conversion (`_convert`), not
/// a public type: `normalize` gives `None` for a column holding anything
/// but `str`, `None`, NaN, `pd.NA` and `pd.NaT`, which then goes through
/// Arrow as before (bytes as binary, the rest rejected with pyarrow's
/// message).
#[pyclass(module = "normurl._native", name = "_ObjectColumn", frozen)]
pub struct ObjectColumn {
    values: Py<PyAny>,
    null: Py<PyAny>,
}

#[pymethods]
impl ObjectColumn {
    #[new]
    fn new(values: &Bound<'_, PyAny>, null: &Bound<'_, PyAny>) -> PyResult<ObjectColumn> {
        // The layout is read when the column is normalized: checked here
        // too, so that a wrong argument fails where it is made.
        Strided::of(values)?;
        Ok(ObjectColumn {
            values: values.clone().unbind(),
            null: null.clone().unbind(),
        })
    }

    fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(Strided::of(self.values.bind(py))?.len)
    }
}

/// A one-dimensional numpy array of objects as its `__array_interface__`
/// gives it: element `i` is the `PyObject*` at `data + i * stride`.
struct Strided {
    data: *mut u8,
    len: usize,
    stride: isize,
}

impl Strided {
    /// The layout of `array`, which must be a `numpy.ndarray` (not a
    /// subclass, which could say anything in its `__array_interface__`)
    /// of one dimension and dtype object.
    fn of(array: &Bound<'_, PyAny>) -> PyResult<Strided> {
        let wrong = || {
            PyTypeError::new_err(format!(
                "urls: expected a one-dimensional numpy array of dtype object, got {}",
                array
                    .get_type()
                    .fully_qualified_name()
                    .map_or_else(|_| "?".into(), |n| n.to_string())
            ))
        };
        let ty = array.get_type().fully_qualified_name()?;
        if ty.to_str()? != "numpy.ndarray" {
            return Err(wrong());
        }
        let interface = array.getattr("__array_interface__")?;
        let interface = interface.cast::<PyDict>().map_err(|_| wrong())?;
        let item = |key: &str| -> PyResult<Bound<'_, PyAny>> {
            interface.get_item(key)?.ok_or_else(wrong)
        };
        if item("typestr")?.extract::<String>()? != "|O" {
            return Err(wrong());
        }
        let shape = item("shape")?;
        let shape = shape.cast::<PyTuple>().map_err(|_| wrong())?;
        if shape.len() != 1 {
            return Err(wrong());
        }
        let len: usize = shape.get_item(0)?.extract()?;
        let stride = match item("strides")? {
            s if s.is_none() => std::mem::size_of::<*mut ffi::PyObject>() as isize,
            s => s
                .cast::<PyTuple>()
                .map_err(|_| wrong())?
                .get_item(0)?
                .extract()?,
        };
        let data: usize = item("data")?
            .cast::<PyTuple>()
            .map_err(|_| wrong())?
            .get_item(0)?
            .extract()?;
        if len > 0 && data == 0 {
            return Err(wrong());
        }
        Ok(Strided {
            data: data as *mut u8,
            len,
            stride,
        })
    }

    /// The address of element `i`.
    ///
    /// # Safety
    /// `i < self.len`, and the array this layout was read from is alive
    /// and has not been resized.
    #[inline]
    unsafe fn slot(&self, i: usize) -> *mut *mut ffi::PyObject {
        // SAFETY: in bounds by the caller's promise (numpy's own
        // arithmetic: data is element 0's address, strides in bytes).
        unsafe { self.data.offset(i as isize * self.stride).cast() }
    }
}

/// A row's text as the engine reads it: the UTF-8 of a `str` that
/// [`Held`] holds, or no URL (a null `ptr`).
#[derive(Clone, Copy)]
pub struct Text {
    ptr: *const u8,
    len: usize,
}

// SAFETY: a `Text` points into the UTF-8 of a `str` that its `Held`
// holds a reference to, which nothing changes or frees while it is held
// (see the module's comment); it is only read.
unsafe impl Send for Text {}
unsafe impl Sync for Text {}

impl Text {
    const NONE: Text = Text {
        ptr: std::ptr::null(),
        len: 0,
    };
}

impl Urls for [Text] {
    fn len(&self) -> usize {
        <[Text]>::len(self)
    }

    #[inline]
    fn url(&self, i: usize) -> Option<&str> {
        let t = self[i];
        // SAFETY: a non-null `Text` is a held `str`'s UTF-8 (above),
        // valid for `len` bytes as long as the slice's `Held` is.
        (!t.ptr.is_null()).then(|| unsafe {
            std::str::from_utf8_unchecked(std::slice::from_raw_parts(t.ptr, t.len))
        })
    }
}

/// The rows of an object column, each with a reference of ours (`None`
/// for a NULL slot, which numpy reads as `None`), and their texts.
pub struct Held<'py> {
    items: Vec<Option<Bound<'py, PyAny>>>,
    texts: Vec<Text>,
    /// Whether the row is an exact `str`, whose object the result may
    /// reuse (a subclass's row gets a plain `str`).
    exact: Vec<bool>,
    null: Bound<'py, PyAny>,
}

impl<'py> Held<'py> {
    /// Takes a reference to every row of `column` and reads its text: a
    /// `str`'s UTF-8 (none when it is not valid Unicode, a lone
    /// surrogate, as in a list), none for a missing value (`None`, a
    /// float NaN, `pd.NA`, `pd.NaT`). `None` when a row is anything else,
    /// which the Arrow path then takes as it did.
    ///
    /// No Python code runs between reading the array's layout and the
    /// last row (only reference counts change, and `str`s are read), so
    /// nothing can resize or rewrite the array meanwhile; the rows that
    /// are neither `str`, `None` nor a float, whose type is asked its
    /// name, are looked at after.
    pub fn new(py: Python<'py>, column: &ObjectColumn) -> PyResult<Option<Held<'py>>> {
        let values = column.values.bind(py);
        let strided = Strided::of(values)?;
        let n = strided.len;
        let mut items = Vec::with_capacity(n);
        let mut texts = Vec::with_capacity(n);
        let mut exact = Vec::with_capacity(n);
        let mut others = Vec::new();
        for i in 0..n {
            // SAFETY: i < len, and `values` (which we hold) is the array
            // the layout is of, unchanged since (above).
            let item =
                unsafe { Bound::from_borrowed_ptr_or_opt(py, strided.slot(i).read_unaligned()) };
            let mut text = Text::NONE;
            let mut is_exact = false;
            match &item {
                Some(item) if item.is_exact_instance_of::<PyString>() => {
                    is_exact = true;
                    text = str_text(item);
                }
                Some(item) if item.is_none() => {}
                Some(item) if item.is_instance_of::<PyString>() => text = str_text(item),
                Some(item) => match item.cast::<PyFloat>() {
                    Ok(f) if f.value().is_nan() => {}
                    Ok(_) => return Ok(None),
                    Err(_) => others.push(i),
                },
                None => {}
            }
            items.push(item);
            texts.push(text);
            exact.push(is_exact);
        }
        // The types found to be a missing value's (`pd.NA`'s, `pd.NaT`'s),
        // so that each is named once.
        let mut missing: Vec<Bound<'py, PyType>> = Vec::new();
        for i in others {
            let ty = items[i].as_ref().expect("a row of another type").get_type();
            if !(missing.iter().any(|t| t.is(&ty)) || is_pandas_missing(&ty)) {
                return Ok(None);
            }
            missing.push(ty);
        }
        Ok(Some(Held {
            items,
            texts,
            exact,
            null: column.null.bind(py).clone(),
        }))
    }

    /// The rows' texts, for the engine, out of `self` (so that the
    /// engine reads them while rows are written).
    pub fn take_texts(&mut self) -> Vec<Text> {
        std::mem::take(&mut self.texts)
    }

    /// The result array, one `null` per row until [`Held::write`] fills
    /// it, and its layout.
    pub fn output(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Output)> {
        let numpy = py.import("numpy")?;
        let kwargs = PyDict::new(py);
        kwargs.set_item("dtype", "object")?;
        let out = numpy
            .getattr("empty")?
            .call((self.items.len(),), Some(&kwargs))?;
        let layout = Strided::of(&out)?;
        Ok((out, Output(layout)))
    }

    /// Rows `start..` of the result (`out`, from [`Held::output`]): row
    /// `i` is `answers`' (`null` where it is null); a row whose answer is
    /// its input's text gets the input's `str` itself, whose reference
    /// this moves there.
    pub fn write(
        &mut self,
        py: Python<'py>,
        out: &Output,
        start: usize,
        answers: &Answers,
    ) -> PyResult<()> {
        let rows = answers.same.len();
        if answers.column.len() != rows || start + rows > self.items.len() {
            return Err(PyValueError::new_err(
                "normurl: the result has not one row per URL",
            ));
        }
        for (j, item) in self.items[start..start + rows].iter_mut().enumerate() {
            let value = match item.take() {
                Some(item) if answers.same[j] && self.exact[start + j] => item,
                _ => match answers.column.bytes(j) {
                    None => self.null.clone(),
                    Some(bytes) => new_str(py, bytes)?,
                },
            };
            // SAFETY: start + j < n, and `out` is a new array of n objects
            // that only we hold; its slot's old object (None, or NULL) is
            // released as numpy would when an element is replaced.
            unsafe {
                let slot = out.0.slot(start + j);
                let old = slot.read_unaligned();
                slot.write_unaligned(value.into_ptr());
                ffi::Py_XDECREF(old);
            }
        }
        Ok(())
    }
}

/// The layout of the result array [`Held::output`] made.
pub struct Output(Strided);

/// The UTF-8 of a `str`, read in place (none when it is not valid
/// Unicode).
#[inline]
fn str_text(item: &Bound<'_, PyAny>) -> Text {
    // SAFETY: `item` is a `str` (checked by the caller).
    let s = unsafe { item.cast_unchecked::<PyString>() };
    match s.to_str() {
        Ok(s) => Text {
            ptr: s.as_ptr(),
            len: s.len(),
        },
        Err(_) => Text::NONE,
    }
}

/// The answers of `normalize` over an object column, and for each row
/// whether its answer is its input's text (compared as the row is
/// written, while both are in the cache).
pub struct Answers {
    column: StringColumn,
    same: Vec<bool>,
}

impl Sink for Answers {
    fn with_capacity(rows: usize) -> Answers {
        Answers {
            column: <StringColumn as Sink>::with_capacity(rows),
            same: Vec::with_capacity(rows),
        }
    }

    fn len(&self) -> usize {
        self.same.len()
    }

    #[inline]
    fn push(&mut self, worker: &mut Worker, config: &Config, url: Option<&str>) {
        <StringColumn as Sink>::push(&mut self.column, worker, config, url);
        let row = self.same.len();
        let same = url.is_some_and(|u| self.column.bytes(row) == Some(u.as_bytes()));
        self.same.push(same);
    }

    fn append(&mut self, later: Answers) {
        self.column.append(later.column);
        self.same.extend_from_slice(&later.same);
    }
}

/// A `str` of UTF-8 `bytes` (the answers are URL serializations or their
/// parts: UTF-8 by construction, checked by Python all the same).
fn new_str<'py>(py: Python<'py>, bytes: &[u8]) -> PyResult<Bound<'py, PyAny>> {
    // SAFETY: the pointer and length are a live slice's; the result is a
    // new reference, or NULL with an exception set.
    unsafe {
        let p =
            ffi::PyUnicode_FromStringAndSize(bytes.as_ptr().cast(), bytes.len() as ffi::Py_ssize_t);
        Bound::from_owned_ptr_or_err(py, p)
    }
}

/// Whether `ty` is the type of pandas' `NA` or `NaT`.
fn is_pandas_missing(ty: &Bound<'_, PyType>) -> bool {
    ty.fully_qualified_name().is_ok_and(|n| {
        matches!(
            n.to_str().unwrap_or(""),
            "pandas._libs.missing.NAType" | "pandas._libs.tslibs.nattype.NaTType"
        )
    })
}
