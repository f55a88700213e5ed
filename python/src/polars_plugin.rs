//! The Polars expression plugin behind `normurl.polars`: the C functions
//! that Polars' engine calls on each batch (`register_plugin_function`
//! names them), so that a normurl expression runs inside Polars, in lazy
//! and streaming queries, with no Python call per batch.
//!
//! The ABI is polars-ffi's `version_0` (Polars' plugin interface 0.1): a
//! Series crosses as a `SeriesExport`, an Arrow C data interface schema
//! and one Arrow C array per chunk; the expression's settings cross as
//! the pickle of its `kwargs`. It is written here against arrow-rs's C
//! data interface instead of through pyo3-polars, whose pyo3 is not this
//! module's and whose polars crates would be compiled into the module.
//!
//! An expression may have more inputs than the URLs: columns of one base
//! and one charset per row (`base=`, `charset=` given as expressions),
//! which the settings name in the order Polars passes them.
//!
//! The settings are those of a `Normalizer` that Python has already built
//! (so a bad argument fails when the expression is made): its pickle state
//! (`__reduce__`), from which the configuration is built once per process
//! and kept, not once per batch.

use std::cell::RefCell;
use std::ffi::{c_char, c_void, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex, OnceLock};

use arrow_array::builder::make_view;
use arrow_array::cast::AsArray;
use arrow_array::ffi::{from_ffi, to_ffi, FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::{make_array, Array as _, ArrayRef, BinaryViewArray, NullArray};
use arrow_buffer::ScalarBuffer;
use arrow_schema::{DataType, Field, Fields};
use normurl::normalize::Source;
use serde::Deserialize;

use crate::arrow_io::Chunk;
use crate::batch::{self, Column, Side};
use crate::column::{ExplainColumn, KeyColumn, Layout, StringColumn, StructColumn};
use crate::config::{Args, Config};
use crate::rule_args::{self, State};

/// The plugin interface's version, major in the high 16 bits: polars-ffi's
/// `MAJOR.MINOR` (0.1), which Polars checks before it calls a plugin.
const FFI_VERSION: u32 = 1;

/// polars-ffi's `SeriesExport`: one Series, as Polars passes it both ways.
#[repr(C)]
pub struct SeriesExport {
    field: *mut FFI_ArrowSchema,
    arrays: *mut *mut FFI_ArrowArray,
    len: usize,
    release: Option<unsafe extern "C" fn(*mut SeriesExport)>,
    private_data: *mut c_void,
}

/// polars-ffi's `CallerContext` (bit 0: Polars runs the call in parallel
/// with others). Unused: a batch runs on the calling thread, as
/// `Normalizer.normalize` does by default.
#[repr(C)]
pub struct CallerContext {
    _bitflags: u64,
}

/// What an exported Series owns until Polars releases it.
struct Owned {
    _schema: Box<FFI_ArrowSchema>,
    arrays: Box<[*mut FFI_ArrowArray]>,
}

/// The `release` of the Series this module exports. Polars moves each
/// array out of its box (and releases it itself) before it calls this,
/// so the boxes are freed without dropping the arrays.
unsafe extern "C" fn release_export(e: *mut SeriesExport) {
    if e.is_null() {
        return;
    }
    let e = &mut *e;
    if e.private_data.is_null() {
        return;
    }
    let owned = Box::from_raw(e.private_data as *mut Owned);
    for &ptr in owned.arrays.iter() {
        drop(Box::from_raw(
            ptr as *mut std::mem::ManuallyDrop<FFI_ArrowArray>,
        ));
    }
    e.private_data = std::ptr::null_mut();
    e.release = None;
}

/// The Series of `array`, named `name`.
fn export(name: &str, array: ArrayRef) -> Result<SeriesExport, String> {
    let field = Field::new(name, array.data_type().clone(), true);
    let schema = Box::new(FFI_ArrowSchema::try_from(&field).map_err(|e| e.to_string())?);
    let (ffi_array, _) = to_ffi(&array.to_data()).map_err(|e| e.to_string())?;
    let mut arrays: Box<[*mut FFI_ArrowArray]> = vec![Box::into_raw(Box::new(ffi_array))].into();
    let export = SeriesExport {
        field: &*schema as *const FFI_ArrowSchema as *mut FFI_ArrowSchema,
        arrays: arrays.as_mut_ptr(),
        len: arrays.len(),
        release: Some(release_export),
        private_data: std::ptr::null_mut(),
    };
    let owned = Owned {
        _schema: schema,
        arrays,
    };
    Ok(SeriesExport {
        private_data: Box::into_raw(Box::new(owned)) as *mut c_void,
        ..export
    })
}

/// An input Series: its name and chunks.
type Series = (String, Vec<ArrayRef>);

/// Takes the input Series out of `inputs` (their names and chunks) and
/// releases them all, as polars-ffi's `import_series_buffer` does.
///
/// # Safety
/// `inputs` points to `len` valid exports, which this takes.
unsafe fn import(inputs: *mut SeriesExport, len: usize) -> Result<Vec<Series>, String> {
    let mut series = Vec::with_capacity(len);
    for i in 0..len {
        let e = &mut *inputs.add(i);
        // Every chunk moved out first (each released when dropped), so
        // that none is leaked whatever fails below.
        let pointers: &[*mut FFI_ArrowArray] = match e.len {
            0 => &[],
            n => std::slice::from_raw_parts(e.arrays, n),
        };
        let arrays: Vec<FFI_ArrowArray> = pointers.iter().map(|&ptr| std::ptr::read(ptr)).collect();
        let schema = &*e.field;
        let result = (|| {
            let field = Field::try_from(schema).map_err(|e| e.to_string())?;
            let mut chunks = Vec::with_capacity(arrays.len());
            for array in arrays {
                if field.data_type() == &DataType::Null {
                    // Polars gives a null column a buffer that arrow-rs's
                    // import refuses for the null type: only its length
                    // counts.
                    chunks.push(Arc::new(NullArray::new(array.len())) as ArrayRef);
                    continue;
                }
                let data = from_ffi(array, schema).map_err(|e| e.to_string())?;
                chunks.push(make_array(data));
            }
            Ok::<_, String>((field.name().clone(), chunks))
        })();
        if let Some(release) = e.release {
            release(e);
        }
        series.push(result);
    }
    if series.is_empty() {
        return Err("normurl: the expression has no input".into());
    }
    series.into_iter().collect()
}

/// A normurl expression's settings: a `Normalizer`'s pickle state, as
/// `normurl.polars` passes it in `kwargs`.
#[derive(Deserialize)]
struct Settings {
    /// profile, get, rules, base, default_scheme, query_separators.
    plain: crate::PlainState,
    /// The list and file arguments, files read.
    state: State,
    /// `psl`'s name and text.
    psl: Option<(String, String)>,
    /// `idn` and `query_encoding`, as given.
    #[serde(default)]
    idn: Option<String>,
    #[serde(default)]
    query_encoding: Option<String>,
    /// `resolve`, as given.
    #[serde(default)]
    resolve: Option<String>,
    /// The edits (`set=` ...), as given, in the order they apply.
    #[serde(default)]
    edits: crate::edit_args::EditSpecs,
    /// What the inputs after the URLs are, in order: `base`, `charset`.
    #[serde(default)]
    inputs: Vec<String>,
}

/// An expression's configuration and the meaning of its extra inputs.
struct Expression {
    config: Config,
    inputs: Vec<String>,
}

/// How many configurations [`config`] keeps (the oldest goes first): each
/// distinct expression's, and queries rarely have more.
const KEPT: usize = 64;

/// The configuration of the settings pickled in `kwargs`, built on the
/// first batch of each distinct setting and kept.
fn config(kwargs: &[u8]) -> Result<Arc<Expression>, String> {
    type Kept = Mutex<Vec<(Vec<u8>, Arc<Expression>)>>;
    static CONFIGS: OnceLock<Kept> = OnceLock::new();
    let configs = CONFIGS.get_or_init(Default::default);
    {
        let kept = configs.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, c)) = kept.iter().find(|(k, _)| k == kwargs) {
            return Ok(c.clone());
        }
    }
    let settings: Settings = serde_pickle::from_slice(kwargs, Default::default())
        .map_err(|e| format!("normurl: could not read the expression's settings: {e}"))?;
    let (profile, get, rules, base, default_scheme, query_separators) = settings.plain;
    let options = rule_args::from_state(settings.state)
        .map_err(|_| "normurl: the expression's settings are not a Normalizer's".to_string())?;
    let args = Args {
        profile,
        get: Some(get),
        rules,
        base,
        default_scheme,
        query_separators,
        options,
        psl: settings.psl.map(|(name, text)| Source::Read { name, text }),
        idn: settings.idn,
        query_encoding: settings.query_encoding,
        resolve: settings.resolve,
        edits: settings.edits,
    };
    if let Some(other) = settings
        .inputs
        .iter()
        .find(|name| !matches!(name.as_str(), "base" | "charset"))
    {
        return Err(format!("normurl: unknown expression input {other:?}"));
    }
    let config = Arc::new(Expression {
        config: Config::new(&args).map_err(|e| e.to_string())?,
        inputs: settings.inputs,
    });
    let mut kept = configs.lock().unwrap_or_else(|e| e.into_inner());
    if kept.len() >= KEPT {
        kept.remove(0);
    }
    kept.push((kwargs.to_vec(), config.clone()));
    Ok(config)
}

/// What an expression computes.
#[derive(Clone, Copy)]
enum Output {
    /// `normalize` (and `get`): a string per URL.
    Strings,
    /// `key_hash`: 16 bytes per URL.
    Keys,
    /// `components`: a struct of strings per URL.
    Struct,
    /// `normalize(explain=True)`: a struct of the string and the list of
    /// the rules that fired.
    Explained,
}

impl Output {
    /// The result's type: Polars' own layouts (string_view, binary_view),
    /// which it takes without a conversion.
    fn data_type(self) -> DataType {
        match self {
            Output::Strings => DataType::Utf8View,
            Output::Keys => DataType::BinaryView,
            Output::Struct => DataType::Struct(
                crate::component_columns()
                    .iter()
                    .map(|name| Field::new(*name, DataType::Utf8View, true))
                    .collect::<Fields>(),
            ),
            Output::Explained => DataType::Struct(Fields::from(vec![
                Field::new("url", DataType::Utf8View, true),
                Field::new(
                    "rules",
                    DataType::LargeList(Arc::new(Field::new("item", DataType::Utf8View, true))),
                    true,
                ),
            ])),
        }
    }

    /// The result of the URLs in `chunks`, each row with its entries of
    /// `side` (the base and charset columns).
    fn run(self, config: &Config, chunks: &[ArrayRef], side: Side<'_>) -> Result<ArrayRef, String> {
        let chunks = as_chunks(chunks);
        let chunks = &chunks[..];
        let result = match self {
            Output::Strings => {
                batch::run_chunks::<StringColumn>(config, chunks, 1, side).finish(Layout::Utf8View)
            }
            Output::Keys => batch::run_chunks::<KeyColumn>(config, chunks, 1, side)
                .finish()
                .map(binary_view),
            Output::Struct => {
                if let Err(e) = &config.url_rewrite {
                    return Err(format!("components: {e}"));
                }
                batch::run_chunks::<StructColumn>(config, chunks, 1, side).finish(Layout::Utf8View)
            }
            Output::Explained => batch::run_chunks::<ExplainColumn>(config, chunks, 1, side)
                .finish(Layout::Utf8View, true),
        };
        result.map_err(|e| format!("normurl: could not build the result: {e}"))
    }
}

/// Polars' chunks as the batch's.
fn as_chunks(arrays: &[ArrayRef]) -> Vec<Chunk> {
    arrays
        .iter()
        .map(|values| Chunk {
            values: values.clone(),
            keys: None,
        })
        .collect()
}

/// The 16-byte keys as a `binary_view` array over the same buffer.
fn binary_view(keys: ArrayRef) -> ArrayRef {
    let keys = keys.as_fixed_size_binary();
    let buffer = keys.values().clone();
    let views: ScalarBuffer<u128> = (0..keys.len())
        .map(|i| make_view(&buffer[i * 16..i * 16 + 16], 0, (i * 16) as u32))
        .collect();
    // Keys live in a buffer under 2 GiB (the batch's rows times 16).
    Arc::new(BinaryViewArray::new(
        views,
        vec![buffer],
        keys.nulls().cloned(),
    ))
}

/// Whether a column of `dt` is one this plugin reads.
fn check_input(dt: &DataType) -> Result<(), String> {
    match dt {
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View | DataType::Null => Ok(()),
        other => Err(format!(
            "normurl: expected a column of strings, got {}",
            polars_name(other)
        )),
    }
}

/// The Polars name of an Arrow type, for messages.
fn polars_name(dt: &DataType) -> String {
    match dt {
        DataType::Int8 => "Int8".into(),
        DataType::Int16 => "Int16".into(),
        DataType::Int32 => "Int32".into(),
        DataType::Int64 => "Int64".into(),
        DataType::UInt8 => "UInt8".into(),
        DataType::UInt16 => "UInt16".into(),
        DataType::UInt32 => "UInt32".into(),
        DataType::UInt64 => "UInt64".into(),
        DataType::Float32 => "Float32".into(),
        DataType::Float64 => "Float64".into(),
        DataType::Boolean => "Boolean".into(),
        DataType::Binary | DataType::LargeBinary | DataType::BinaryView => "Binary".into(),
        DataType::Dictionary(..) => "Categorical (cast it to pl.String)".into(),
        DataType::List(_) | DataType::LargeList(_) | DataType::ListView(_) => "List".into(),
        DataType::Struct(_) => "Struct".into(),
        other => other.to_string(),
    }
}

thread_local! {
    /// The message of the last error on this thread, which Polars asks
    /// for when a call leaves its result empty.
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

fn set_error(message: &str) {
    let message = CString::new(message.replace('\0', " ")).unwrap_or_default();
    LAST_ERROR.with(|last| *last.borrow_mut() = message);
}

/// # Safety
/// Called by Polars: the pointer is valid until the next call on this
/// thread.
#[no_mangle]
pub unsafe extern "C" fn _polars_plugin_get_last_error_message() -> *const c_char {
    LAST_ERROR.with(|last| last.borrow().as_ptr())
}

/// # Safety
/// Called by Polars.
#[no_mangle]
pub unsafe extern "C" fn _polars_plugin_get_version() -> u32 {
    FFI_VERSION
}

/// One batch: the input Series in, the result out through `out`; on an
/// error `out` is left empty and the message kept for Polars.
///
/// # Safety
/// The pointers are Polars' valid arguments.
unsafe fn call(
    output: Output,
    inputs: *mut SeriesExport,
    len: usize,
    kwargs: *const u8,
    kwargs_len: usize,
    out: *mut SeriesExport,
) {
    let result = catch_unwind(AssertUnwindSafe(|| {
        let mut series = import(inputs, len)?.into_iter();
        let (name, chunks) = series
            .next()
            .ok_or("normurl: the expression has no input")?;
        for chunk in &chunks {
            check_input(chunk.data_type())?;
        }
        let kwargs = std::slice::from_raw_parts(kwargs, kwargs_len);
        let expression = config(kwargs)?;
        let rows: usize = chunks.iter().map(|c| c.len()).sum();
        // The extra inputs, in the order the settings name them.
        let mut base = None;
        let mut charset = None;
        for (what, (_, arrays)) in expression.inputs.iter().zip(series) {
            for array in &arrays {
                check_input(array.data_type())?;
            }
            let len: usize = arrays.iter().map(|a| a.len()).sum();
            if len != rows && len != 1 {
                return Err(format!("normurl: {what}: {len} values for {rows} URLs"));
            }
            let slot = if what == "base" {
                &mut base
            } else {
                &mut charset
            };
            *slot = Some((as_chunks(&arrays), len == 1 && rows != 1));
        }
        let base = base
            .as_ref()
            .map(|(c, repeat)| Column::new(c).repeated(*repeat));
        let charset = charset
            .as_ref()
            .map(|(c, repeat)| Column::new(c).repeated(*repeat));
        let side = Side {
            base: base.as_ref(),
            charset: charset.as_ref(),
            offset: 0,
        };
        let array = output.run(&expression.config, &chunks, side)?;
        export(&name, array)
    }));
    match result {
        Ok(Ok(series)) => std::ptr::write(out, series),
        Ok(Err(message)) => set_error(&message),
        Err(_) => set_error("normurl: internal error (a panic) in the Polars plugin"),
    }
}

/// The result field of a call on `fields`: the first input's name, with
/// `output`'s type.
///
/// # Safety
/// The pointers are Polars' valid arguments.
unsafe fn field(
    output: Output,
    fields: *mut FFI_ArrowSchema,
    len: usize,
    out: *mut FFI_ArrowSchema,
) {
    let result = catch_unwind(AssertUnwindSafe(|| {
        if len == 0 {
            return Err("normurl: the expression has no input".to_string());
        }
        let input = Field::try_from(&*fields).map_err(|e| e.to_string())?;
        for i in 0..len {
            let field = Field::try_from(&*fields.add(i)).map_err(|e| e.to_string())?;
            check_input(field.data_type())?;
        }
        let field = Field::new(input.name(), output.data_type(), true);
        FFI_ArrowSchema::try_from(&field).map_err(|e| e.to_string())
    }));
    match result {
        Ok(Ok(schema)) => std::ptr::write(out, schema),
        Ok(Err(message)) => set_error(&message),
        Err(_) => set_error("normurl: internal error (a panic) in the Polars plugin"),
    }
}

/// Declares a plugin function `_polars_plugin_NAME` and its field
/// function `_polars_plugin_field_NAME`.
macro_rules! plugin {
    ($name:ident, $field:ident, $output:expr) => {
        /// # Safety
        /// Called by Polars with its valid arguments.
        #[no_mangle]
        pub unsafe extern "C" fn $name(
            inputs: *mut SeriesExport,
            len: usize,
            kwargs: *const u8,
            kwargs_len: usize,
            out: *mut SeriesExport,
            _context: *mut CallerContext,
        ) {
            call($output, inputs, len, kwargs, kwargs_len, out)
        }

        /// # Safety
        /// Called by Polars with its valid arguments.
        #[no_mangle]
        pub unsafe extern "C" fn $field(
            fields: *mut FFI_ArrowSchema,
            len: usize,
            out: *mut FFI_ArrowSchema,
            _kwargs: *const u8,
            _kwargs_len: usize,
        ) {
            field($output, fields, len, out)
        }
    };
}

plugin!(
    _polars_plugin_normurl_normalize,
    _polars_plugin_field_normurl_normalize,
    Output::Strings
);
plugin!(
    _polars_plugin_normurl_normalize_explain,
    _polars_plugin_field_normurl_normalize_explain,
    Output::Explained
);
plugin!(
    _polars_plugin_normurl_key_hash,
    _polars_plugin_field_normurl_key_hash,
    Output::Keys
);
plugin!(
    _polars_plugin_normurl_components,
    _polars_plugin_field_normurl_components,
    Output::Struct
);
