//! Arrow in and out through the Arrow PyCapsule interface: inputs are any
//! object with `__arrow_c_array__` or `__arrow_c_stream__` (pyarrow,
//! Polars, DuckDB, nanoarrow...); results are [`Array`]s, which export
//! `__arrow_c_array__` so that `pyarrow.array(x)` and `polars.Series(x)`
//! take them without a copy.

use std::ffi::CStr;

use arrow_array::ffi::{from_ffi, to_ffi, FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::ffi_stream::{ArrayStreamReader, FFI_ArrowArrayStream};
use arrow_array::{make_array, Array as _, ArrayRef};
use arrow_data::{ArrayData, ByteView};
use arrow_schema::{ArrowError, DataType};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyCapsule, PyDict, PyList, PyString, PyTuple};

use crate::column::Layout;

/// An input column: its chunks, all of one string type (or the null type,
/// which pyarrow gives a column of `None`s).
pub struct Input {
    pub layout: Layout,
    pub chunks: Vec<ArrayRef>,
}

/// The message of a `TypeError` for an argument that is not a column of
/// strings.
fn not_strings(what: &str) -> PyErr {
    PyTypeError::new_err(format!(
        "urls: expected an Arrow array of strings (string, large_string or string_view) \
         or a list of str, got {what}"
    ))
}

fn arrow_error(e: ArrowError) -> PyErr {
    PyValueError::new_err(format!("urls: invalid Arrow data: {e}"))
}

/// The layout of results for an input of type `dt`.
fn layout_of(dt: &DataType) -> PyResult<Layout> {
    match dt {
        DataType::Utf8 | DataType::Null => Ok(Layout::Utf8),
        DataType::LargeUtf8 => Ok(Layout::LargeUtf8),
        DataType::Utf8View => Ok(Layout::Utf8View),
        other => Err(not_strings(&format!("an Arrow array of type {other}"))),
    }
}

/// The pointer of a capsule named `name`.
fn capsule_pointer(obj: &Bound<'_, PyAny>, name: &CStr) -> PyResult<*mut std::ffi::c_void> {
    let capsule = obj.cast::<PyCapsule>().map_err(|_| {
        PyValueError::new_err(format!(
            "urls: the Arrow PyCapsule interface gave no {} capsule",
            name.to_string_lossy()
        ))
    })?;
    Ok(capsule.pointer_checked(Some(name))?.as_ptr())
}

/// Imports `obj` if it exports the Arrow PyCapsule interface; `None` if it
/// has neither method.
pub fn import(obj: &Bound<'_, PyAny>) -> PyResult<Option<Input>> {
    if obj.hasattr("__arrow_c_array__")? {
        let pair = obj.call_method1("__arrow_c_array__", (obj.py().None(),))?;
        let pair = pair.cast::<PyTuple>().map_err(PyErr::from)?;
        if pair.len() != 2 {
            return Err(PyValueError::new_err(
                "urls: __arrow_c_array__ did not return a (schema, array) pair",
            ));
        }
        let schema_ptr = capsule_pointer(&pair.get_item(0)?, c"arrow_schema")?;
        let array_ptr = capsule_pointer(&pair.get_item(1)?, c"arrow_array")?;
        // SAFETY: the capsules hold the C data interface's structs, as
        // their names say; `from_raw` moves them out and leaves them
        // released, so the capsules' destructors do not release them again.
        let (schema, array) = unsafe {
            (
                FFI_ArrowSchema::from_raw(schema_ptr.cast()),
                FFI_ArrowArray::from_raw(array_ptr.cast()),
            )
        };
        let dt = DataType::try_from(&schema).map_err(arrow_error)?;
        let layout = layout_of(&dt)?;
        // SAFETY: the producer promises a valid C data interface array of
        // the schema's type; `validate_data` below checks the buffers
        // before anything reads them.
        let data = unsafe { from_ffi(array, &schema) }.map_err(arrow_error)?;
        validate(&data).map_err(arrow_error)?;
        return Ok(Some(Input {
            layout,
            chunks: vec![make_array(data)],
        }));
    }
    if obj.hasattr("__arrow_c_stream__")? {
        let capsule = obj.call_method1("__arrow_c_stream__", (obj.py().None(),))?;
        let ptr = capsule_pointer(&capsule, c"arrow_array_stream")?;
        // SAFETY: as above, for the C stream interface's struct.
        let stream = unsafe { FFI_ArrowArrayStream::from_raw(ptr.cast()) };
        let reader = ArrayStreamReader::try_new(stream).map_err(arrow_error)?;
        let layout = layout_of(arrow_array::ArrayReader::field(&reader).data_type())?;
        let mut chunks = Vec::new();
        for chunk in reader {
            let chunk = chunk.map_err(arrow_error)?;
            validate(&chunk.to_data()).map_err(arrow_error)?;
            chunks.push(chunk);
        }
        return Ok(Some(Input { layout, chunks }));
    }
    Ok(None)
}

/// Checks an imported array as `ArrayData::validate_data` does (the C
/// data interface import checks nothing), before any value is read.
fn validate(data: &ArrayData) -> Result<(), ArrowError> {
    if *data.data_type() != DataType::Utf8View {
        return data.validate_data();
    }
    data.validate()?;
    data.validate_nulls()?;
    let views = &data.buffer::<u128>(0)[..data.len()];
    let buffers = &data.buffers()[1..];
    // Arrow checks the UTF-8 of each view's string apart, a tenth of a
    // batch's time (perf); checking each data buffer whole, then each
    // view's bounds and ends, is the same check when the buffers are UTF-8
    // throughout (they may hold other bytes no view points at).
    if !buffers.iter().all(|b| std::str::from_utf8(b).is_ok()) {
        return data.validate_values();
    }
    let boundary = |b: &[u8], i: usize| b.get(i).is_none_or(|&byte| byte & 0xC0 != 0x80);
    for (i, &v) in views.iter().enumerate() {
        let view = ByteView::from(v);
        let ok = if view.length <= 12 {
            let bytes = v.to_le_bytes();
            std::str::from_utf8(&bytes[4..4 + view.length as usize]).is_ok()
        } else {
            let start = view.offset as usize;
            let end = start.checked_add(view.length as usize);
            match (buffers.get(view.buffer_index as usize), end) {
                (Some(b), Some(end)) if end <= b.len() => boundary(b, start) && boundary(b, end),
                _ => false,
            }
        };
        if !ok {
            return Err(ArrowError::InvalidArgumentError(format!(
                "string view {i} is out of its buffer's bounds or not UTF-8"
            )));
        }
    }
    Ok(())
}

/// The strings of a Python list (or tuple), borrowed: `None` for `None`
/// and for strings that are not valid Unicode (lone surrogates cannot be
/// UTF-8, so no line of the command holds one).
pub fn list_items<'a, 'py>(items: &'a [Bound<'py, PyAny>]) -> PyResult<Vec<Option<&'a str>>> {
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            if item.is_none() {
                return Ok(None);
            }
            match item.cast::<PyString>() {
                Ok(s) => Ok(s.to_str().ok()),
                Err(_) => Err(PyTypeError::new_err(format!(
                    "urls[{i}]: expected str or None, got {}",
                    item.get_type().name()?
                ))),
            }
        })
        .collect()
}

/// The rejection of anything else.
pub fn not_a_column(obj: &Bound<'_, PyAny>) -> PyErr {
    let name = obj
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into());
    if obj.is_instance_of::<PyString>() {
        return PyTypeError::new_err(
            "urls: expected an Arrow array or a list of str, got one str \
             (use Normalizer.normalize_one for a single URL)",
        );
    }
    not_strings(&name)
}

/// An Arrow array that normurl returned. It exports the Arrow PyCapsule
/// interface: `pyarrow.array(a)`, `polars.Series(a)` and any other Arrow
/// library take it without a copy.
#[pyclass(module = "normurl", name = "Array", frozen)]
pub struct Array {
    array: ArrayRef,
}

impl Array {
    pub fn new(array: ArrayRef) -> Array {
        Array { array }
    }
}

#[pymethods]
impl Array {
    /// Exports the array through the Arrow C data interface (the Arrow
    /// PyCapsule protocol). `requested_schema` is ignored: the array is
    /// exported as it is.
    #[pyo3(signature = (requested_schema=None))]
    fn __arrow_c_array__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let _ = requested_schema;
        let (array, schema) = to_ffi(&self.array.to_data()).map_err(arrow_error)?;
        let schema = PyCapsule::new_with_value(py, schema, c"arrow_schema")?;
        let array = PyCapsule::new_with_value(py, array, c"arrow_array")?;
        PyTuple::new(py, [schema, array])
    }

    fn __len__(&self) -> usize {
        self.array.len()
    }

    /// The number of null entries (inputs that are not valid URLs, or
    /// null).
    #[getter]
    fn null_count(&self) -> usize {
        self.array.null_count()
    }

    /// The Arrow type, as pyarrow names it (`string`, `string_view`,
    /// `fixed_size_binary[16]`, `struct<...>`).
    #[getter]
    fn r#type(&self) -> String {
        type_name(self.array.data_type())
    }

    /// The entries as Python objects: `str`, `bytes` or `dict`, and `None`
    /// for nulls.
    fn to_pylist<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let items = (0..self.array.len())
            .map(|i| value(py, &self.array, i))
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, items)
    }

    fn __repr__(&self) -> String {
        format!(
            "<normurl.Array of {} {} ({} null)>",
            self.array.len(),
            type_name(self.array.data_type()),
            self.array.null_count()
        )
    }
}

fn type_name(dt: &DataType) -> String {
    match dt {
        DataType::Utf8 => "string".into(),
        DataType::LargeUtf8 => "large_string".into(),
        DataType::Utf8View => "string_view".into(),
        DataType::FixedSizeBinary(n) => format!("fixed_size_binary[{n}]"),
        DataType::Struct(fields) => {
            let fields: Vec<String> = fields
                .iter()
                .map(|f| format!("{}: {}", f.name(), type_name(f.data_type())))
                .collect();
            format!("struct<{}>", fields.join(", "))
        }
        other => other.to_string(),
    }
}

/// Entry `i` of one of the arrays normurl returns, as a Python object.
fn value<'py>(py: Python<'py>, array: &ArrayRef, i: usize) -> PyResult<Bound<'py, PyAny>> {
    use arrow_array::cast::AsArray;
    if array.is_null(i) {
        return Ok(py.None().into_bound(py));
    }
    Ok(match array.data_type() {
        DataType::Utf8 => PyString::new(py, array.as_string::<i32>().value(i)).into_any(),
        DataType::LargeUtf8 => PyString::new(py, array.as_string::<i64>().value(i)).into_any(),
        DataType::Utf8View => PyString::new(py, array.as_string_view().value(i)).into_any(),
        DataType::FixedSizeBinary(_) => {
            PyBytes::new(py, array.as_fixed_size_binary().value(i)).into_any()
        }
        DataType::Struct(fields) => {
            let dict = PyDict::new(py);
            for (field, column) in fields.iter().zip(array.as_struct().columns()) {
                dict.set_item(field.name(), value(py, column, i)?)?;
            }
            dict.into_any()
        }
        other => {
            return Err(PyTypeError::new_err(format!(
                "normurl.Array of type {other} has no Python form"
            )))
        }
    })
}
