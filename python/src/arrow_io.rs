//! Arrow in and out through the Arrow PyCapsule interface: inputs are any
//! object with `__arrow_c_array__` or `__arrow_c_stream__` (pyarrow,
//! Polars, DuckDB, nanoarrow...); results are [`Array`]s, which export
//! `__arrow_c_array__` so that `pyarrow.array(x)` and `polars.Series(x)`
//! take them without a copy.

use std::ffi::CStr;

use arrow_array::ffi::{from_ffi, to_ffi, FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::ffi_stream::{ArrayStreamReader, FFI_ArrowArrayStream};
use std::sync::Arc;

use arrow_array::builder::LargeStringBuilder;
use arrow_array::{
    make_array, Array as _, ArrayRef, BinaryViewArray, GenericBinaryArray, GenericStringArray,
    NullArray, OffsetSizeTrait,
};
use arrow_buffer::NullBuffer;
use arrow_data::{ArrayData, ByteView};
use arrow_schema::{ArrowError, DataType};
use normurl::normalize::InvalidUtf8;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyCapsule, PyDict, PyList, PyString, PyTuple};

use crate::column::Layout;

/// An input column: its chunks, each a column of strings, and the string
/// type of the result.
pub struct Input {
    pub layout: Layout,
    pub chunks: Vec<Chunk>,
}

/// One chunk of an input: a column of strings (`string`, `large_string`,
/// `string_view`, or the null type), or a dictionary's values and each
/// row's index into them.
pub struct Chunk {
    pub values: ArrayRef,
    /// For a dictionary-encoded chunk: each row's index into `values`
    /// (any index for a null row) and the rows' nulls.
    pub keys: Option<(Vec<usize>, Option<NullBuffer>)>,
}

impl Chunk {
    pub fn len(&self) -> usize {
        match &self.keys {
            Some((keys, _)) => keys.len(),
            None => self.values.len(),
        }
    }
}

/// The message of a `TypeError` for an argument that is not a column of
/// strings.
fn not_strings(what: &str) -> PyErr {
    PyTypeError::new_err(format!("urls: expected strings, got {what}"))
}

fn arrow_error(e: ArrowError) -> PyErr {
    PyValueError::new_err(format!("urls: invalid Arrow data: {e}"))
}

/// The layout of results for an input of type `dt`: the string type of
/// the same offsets (`binary` gives `string`, `binary_view` gives
/// `string_view`), a dictionary's that of its values.
fn layout_of(dt: &DataType) -> PyResult<Layout> {
    match dt {
        DataType::Utf8 | DataType::Binary | DataType::Null => Ok(Layout::Utf8),
        DataType::LargeUtf8 | DataType::LargeBinary => Ok(Layout::LargeUtf8),
        DataType::Utf8View | DataType::BinaryView => Ok(Layout::Utf8View),
        DataType::Dictionary(key, values) if key.is_dictionary_key_type() => {
            layout_of(values).map_err(|_| not_strings(&py_type(dt)))
        }
        other => Err(not_strings(&py_type(other))),
    }
}

/// An Arrow type as pyarrow names it (`int64`, `double`,
/// `list<item: string>`), for messages in Python's words.
pub fn py_type(dt: &DataType) -> String {
    use arrow_schema::TimeUnit;
    let unit = |u: &TimeUnit| match u {
        TimeUnit::Second => "s",
        TimeUnit::Millisecond => "ms",
        TimeUnit::Microsecond => "us",
        TimeUnit::Nanosecond => "ns",
    };
    let item = |f: &arrow_schema::Field| format!("{}: {}", f.name(), py_type(f.data_type()));
    match dt {
        DataType::Null => "null".into(),
        DataType::Boolean => "bool".into(),
        DataType::Int8 => "int8".into(),
        DataType::Int16 => "int16".into(),
        DataType::Int32 => "int32".into(),
        DataType::Int64 => "int64".into(),
        DataType::UInt8 => "uint8".into(),
        DataType::UInt16 => "uint16".into(),
        DataType::UInt32 => "uint32".into(),
        DataType::UInt64 => "uint64".into(),
        DataType::Float16 => "halffloat".into(),
        DataType::Float32 => "float".into(),
        DataType::Float64 => "double".into(),
        DataType::Utf8 => "string".into(),
        DataType::LargeUtf8 => "large_string".into(),
        DataType::Utf8View => "string_view".into(),
        DataType::Binary => "binary".into(),
        DataType::LargeBinary => "large_binary".into(),
        DataType::BinaryView => "binary_view".into(),
        DataType::FixedSizeBinary(n) => format!("fixed_size_binary[{n}]"),
        DataType::Date32 => "date32[day]".into(),
        DataType::Date64 => "date64[ms]".into(),
        DataType::Time32(u) => format!("time32[{}]", unit(u)),
        DataType::Time64(u) => format!("time64[{}]", unit(u)),
        DataType::Duration(u) => format!("duration[{}]", unit(u)),
        DataType::Timestamp(u, None) => format!("timestamp[{}]", unit(u)),
        DataType::Timestamp(u, Some(tz)) => format!("timestamp[{}, tz={tz}]", unit(u)),
        DataType::Decimal128(p, s) => format!("decimal128({p}, {s})"),
        DataType::Decimal256(p, s) => format!("decimal256({p}, {s})"),
        DataType::List(f) => format!("list<{}>", item(f)),
        DataType::LargeList(f) => format!("large_list<{}>", item(f)),
        DataType::ListView(f) => format!("list_view<{}>", item(f)),
        DataType::FixedSizeList(f, n) => format!("fixed_size_list<{}>[{n}]", item(f)),
        DataType::Struct(fields) => {
            let fields: Vec<String> = fields.iter().map(|f| item(f)).collect();
            format!("struct<{}>", fields.join(", "))
        }
        DataType::Dictionary(k, v) => format!(
            "dictionary<values={}, indices={}, ordered=0>",
            py_type(v),
            py_type(k)
        ),
        other => other.to_string().to_lowercase(),
    }
}

/// `array` as a chunk of strings: strings as they are; binary as strings
/// without a copy when it is all UTF-8, else each value as `policy` makes
/// it (the command's `--invalid-utf8`: `%XX`, U+FFFD, or null for
/// `reject`); a dictionary as its values (so made) and its keys.
fn chunk(array: ArrayRef, policy: InvalidUtf8) -> PyResult<Chunk> {
    use arrow_array::cast::AsArray;
    let values = match array.data_type() {
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View | DataType::Null => array,
        DataType::Binary => decode(array.as_binary::<i32>(), policy),
        DataType::LargeBinary => decode(array.as_binary::<i64>(), policy),
        DataType::BinaryView => decode_view(array.as_binary_view(), policy),
        DataType::Dictionary(_, _) => {
            let dict = array.as_any_dictionary();
            let values = chunk(dict.values().clone(), policy)?;
            if values.keys.is_some() {
                return Err(not_strings(&py_type(array.data_type())));
            }
            if values.values.is_empty() {
                // No values: every row is null (validated).
                return Ok(Chunk {
                    values: Arc::new(NullArray::new(array.len())),
                    keys: None,
                });
            }
            return Ok(Chunk {
                values: values.values,
                keys: Some((dict.normalized_keys(), array.logical_nulls())),
            });
        }
        other => return Err(not_strings(&py_type(other))),
    };
    Ok(Chunk { values, keys: None })
}

/// A binary column as strings (see [`chunk`]).
fn decode<O: OffsetSizeTrait>(array: &GenericBinaryArray<O>, policy: InvalidUtf8) -> ArrayRef {
    if let Ok(strings) = GenericStringArray::<O>::try_from_binary(array.clone()) {
        return Arc::new(strings);
    }
    let mut out = LargeStringBuilder::with_capacity(array.len(), array.value_data().len());
    let mut scratch = Vec::new();
    for value in array.iter() {
        out.append_option(value.and_then(|v| policy.apply(v, &mut scratch)));
    }
    Arc::new(out.finish())
}

/// A binary_view column as strings (see [`chunk`]).
fn decode_view(array: &BinaryViewArray, policy: InvalidUtf8) -> ArrayRef {
    if let Ok(strings) = array.clone().to_string_view() {
        return Arc::new(strings);
    }
    let mut out = LargeStringBuilder::with_capacity(array.len(), 0);
    let mut scratch = Vec::new();
    for value in array.iter() {
        out.append_option(value.and_then(|v| policy.apply(v, &mut scratch)));
    }
    Arc::new(out.finish())
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
pub fn import(obj: &Bound<'_, PyAny>, policy: InvalidUtf8) -> PyResult<Option<Input>> {
    import_named(obj, policy, "urls")
}

/// [`import`] of the argument `name` (`base`, `charset`), whose name
/// its messages begin with.
pub fn import_named(
    obj: &Bound<'_, PyAny>,
    policy: InvalidUtf8,
    name: &str,
) -> PyResult<Option<Input>> {
    import_urls(obj, policy).map_err(|e| rename(obj.py(), e, name))
}

/// An error about `urls` said of the argument `name`.
fn rename(py: Python<'_>, e: PyErr, name: &str) -> PyErr {
    if name == "urls" {
        return e;
    }
    let message = e.value(py).to_string();
    let Some(rest) = message.strip_prefix("urls") else {
        return e;
    };
    let message = format!("{name}{rest}");
    if e.is_instance_of::<PyTypeError>(py) {
        PyTypeError::new_err(message)
    } else {
        PyValueError::new_err(message)
    }
}

fn import_urls(obj: &Bound<'_, PyAny>, policy: InvalidUtf8) -> PyResult<Option<Input>> {
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
            chunks: vec![chunk(make_array(data), policy)?],
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
            chunks.push(self::chunk(chunk, policy)?);
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

/// The strings of a Python list (or tuple), borrowed: `None` for `None`,
/// for the missing values of pandas and numpy (`NaN`, `pd.NA`, `pd.NaT`),
/// and for strings that are not valid Unicode (lone surrogates cannot be
/// UTF-8, so no line of the command holds one).
pub fn list_items<'a, 'py>(items: &'a [Bound<'py, PyAny>]) -> PyResult<Vec<Option<&'a str>>> {
    list_items_named(items, "urls")
}

/// [`list_items`] of the argument `name`, for messages.
pub fn list_items_named<'a, 'py>(
    items: &'a [Bound<'py, PyAny>],
    name: &str,
) -> PyResult<Vec<Option<&'a str>>> {
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            if item.is_none() {
                return Ok(None);
            }
            if let Ok(s) = item.cast::<PyString>() {
                return Ok(s.to_str().ok());
            }
            if is_missing(item) {
                return Ok(None);
            }
            Err(PyTypeError::new_err(format!(
                "{name}[{i}]: expected str or None, got {}",
                item.get_type().name()?
            )))
        })
        .collect()
}

/// Whether `item` is a missing value of pandas or numpy: a float NaN
/// (`float("nan")`, `np.nan`), `pd.NA` or `pd.NaT`.
pub fn is_missing(item: &Bound<'_, PyAny>) -> bool {
    if let Ok(f) = item.cast::<pyo3::types::PyFloat>() {
        return f.value().is_nan();
    }
    let Ok(ty) = item.get_type().fully_qualified_name() else {
        return false;
    };
    matches!(
        ty.to_str().unwrap_or(""),
        "pandas._libs.missing.NAType" | "pandas._libs.tslibs.nattype.NaTType"
    ) || (ty.to_str().unwrap_or("").starts_with("numpy.float") && item.ne(item).unwrap_or(false))
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
            "urls: expected strings (an Arrow array, a pandas or Polars Series, or a list \
             of str), got one str (use Normalizer.normalize_one for a single URL)",
        );
    }
    PyTypeError::new_err(format!(
        "urls: expected strings (an Arrow array, a pandas or Polars Series, or a list \
         of str), got {name}"
    ))
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
