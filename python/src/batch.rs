//! A batch: every URL of an input through one [`Worker`], into one result
//! column; with `threads`, chunks of the batch on a rayon pool, joined in
//! order. A batch may have per-row arguments beside the URLs ([`Side`]:
//! `base=` and `charset=` columns), read row by row in Rust.

use std::ops::Range;
use std::sync::{Arc, Mutex, OnceLock};

use arrow_array::cast::AsArray;
use arrow_array::{Array as _, GenericStringArray, OffsetSizeTrait, StringViewArray};
use arrow_buffer::NullBuffer;
use arrow_schema::DataType;
use rayon::prelude::*;

use crate::arrow_io::Chunk;
use crate::column::{ExplainColumn, KeyColumn, StringColumn, StructColumn};
use crate::config::Config;
use crate::engine::Worker;

/// Batches shorter than this run on the calling thread whatever `threads`
/// says: splitting them costs more than it saves.
const PARALLEL_MIN: usize = 16 * 1024;

/// A dictionary-encoded chunk: row `i` is `values`' entry `keys[i]`, or
/// null where `nulls` says so.
pub struct Dict<'a, U: ?Sized> {
    pub keys: &'a [usize],
    pub nulls: Option<&'a NullBuffer>,
    pub values: &'a U,
}

impl<U: Urls + ?Sized> Urls for Dict<'_, U> {
    fn len(&self) -> usize {
        self.keys.len()
    }

    #[inline]
    fn url(&self, i: usize) -> Option<&str> {
        if self.nulls.is_some_and(|n| n.is_null(i)) {
            return None;
        }
        self.values.url(self.keys[i])
    }

    fn may_have_newlines(&self) -> bool {
        self.values.may_have_newlines()
    }
}

/// Input URLs, by index: `None` for a null.
pub trait Urls: Sync {
    fn len(&self) -> usize;
    fn url(&self, i: usize) -> Option<&str>;
    /// Whether some entry may hold a newline (which makes it invalid).
    fn may_have_newlines(&self) -> bool {
        true
    }
}

impl<O: OffsetSizeTrait> Urls for GenericStringArray<O> {
    fn len(&self) -> usize {
        arrow_array::Array::len(self)
    }

    #[inline]
    fn url(&self, i: usize) -> Option<&str> {
        self.is_valid(i).then(|| self.value(i))
    }

    /// One scan of the values the offsets span (null entries' too, which
    /// at worst asks for the scan per URL).
    fn may_have_newlines(&self) -> bool {
        let offsets = self.value_offsets();
        let (start, end) = (offsets[0].as_usize(), offsets[offsets.len() - 1].as_usize());
        memchr::memchr(b'\n', &self.value_data()[start..end]).is_some()
    }
}

impl Urls for StringViewArray {
    fn len(&self) -> usize {
        arrow_array::Array::len(self)
    }

    #[inline]
    fn url(&self, i: usize) -> Option<&str> {
        self.is_valid(i).then(|| self.value(i))
    }

    /// One scan of the data buffers, and of the strings kept in the views.
    fn may_have_newlines(&self) -> bool {
        let inline = |&v: &u128| {
            let len = v as u32 as usize;
            len <= 12 && v.to_le_bytes()[4..4 + len].contains(&b'\n')
        };
        self.data_buffers()
            .iter()
            .any(|b| memchr::memchr(b'\n', b).is_some())
            || self.views().iter().any(inline)
    }
}

/// A column of the null type: every entry null.
pub struct Nulls(pub usize);

impl Urls for Nulls {
    fn len(&self) -> usize {
        self.0
    }

    fn url(&self, _: usize) -> Option<&str> {
        None
    }
}

impl Urls for [Option<&str>] {
    fn len(&self) -> usize {
        <[Option<&str>]>::len(self)
    }

    #[inline]
    fn url(&self, i: usize) -> Option<&str> {
        self[i]
    }
}

/// A chunked column of strings as one: the per-row arguments (`base=`,
/// `charset=`), whose chunks need not line up with the URLs'.
pub struct Column<'a> {
    /// Each chunk's first row.
    starts: Vec<usize>,
    parts: Vec<Box<dyn Urls + 'a>>,
    len: usize,
    /// Whether its one row stands for every row (a Polars literal).
    repeat: bool,
}

impl<'a> Column<'a> {
    /// The column of an import's chunks.
    pub fn new(chunks: &'a [Chunk]) -> Column<'a> {
        let mut column = Column {
            starts: Vec::with_capacity(chunks.len()),
            parts: Vec::with_capacity(chunks.len()),
            len: 0,
            repeat: false,
        };
        for chunk in chunks {
            column.starts.push(column.len);
            column.len += chunk.len();
            column.parts.push(chunk_urls(chunk));
        }
        column
    }

    /// The column whose first row stands for every row, if `repeat`.
    pub fn repeated(self, repeat: bool) -> Column<'a> {
        Column { repeat, ..self }
    }
}

impl Urls for Column<'_> {
    fn len(&self) -> usize {
        self.len
    }

    #[inline]
    fn url(&self, i: usize) -> Option<&str> {
        let i = if self.repeat { 0 } else { i };
        // The chunk holding row i: the last one starting at or before it.
        let c = self.starts.partition_point(|&s| s <= i).checked_sub(1)?;
        self.parts[c].url(i - self.starts[c])
    }
}

/// A chunk's strings, of whichever type it is.
fn chunk_urls(chunk: &Chunk) -> Box<dyn Urls + '_> {
    fn keyed<'a, U: Urls + 'a>(values: &'a U, chunk: &'a Chunk) -> Box<dyn Urls + 'a> {
        match &chunk.keys {
            Some((keys, nulls)) => Box::new(Dict {
                keys,
                nulls: nulls.as_ref(),
                values,
            }),
            None => Box::new(Plain(values)),
        }
    }
    let values = &chunk.values;
    match values.data_type() {
        DataType::Utf8 => keyed(values.as_string::<i32>(), chunk),
        DataType::LargeUtf8 => keyed(values.as_string::<i64>(), chunk),
        DataType::Utf8View => keyed(values.as_string_view(), chunk),
        _ => Box::new(Nulls(chunk.len())),
    }
}

/// A borrowed column as a boxed one.
struct Plain<'a, U>(&'a U);

impl<U: Urls> Urls for Plain<'_, U> {
    fn len(&self) -> usize {
        self.0.len()
    }

    #[inline]
    fn url(&self, i: usize) -> Option<&str> {
        self.0.url(i)
    }
}

/// The per-row arguments of a batch: a base column (the command's
/// `--base-field`) and a charset column (`--charset-field`), each as long
/// as the URLs; `offset` is the row of the URLs' chunk being run.
#[derive(Clone, Copy, Default)]
pub struct Side<'a> {
    pub base: Option<&'a Column<'a>>,
    pub charset: Option<&'a Column<'a>>,
    pub offset: usize,
}

impl<'a> Side<'a> {
    /// The rows from `offset` on of `columns`, the base and charset
    /// columns (see `side_columns`).
    pub fn of(columns: &'a [Option<Column<'a>>; 2], offset: usize) -> Side<'a> {
        let [base, charset] = columns;
        Side {
            base: base.as_ref(),
            charset: charset.as_ref(),
            offset,
        }
    }

    fn is_empty(&self) -> bool {
        self.base.is_none() && self.charset.is_none()
    }

    /// Sets row `i` (of the URLs' chunk) on `worker`.
    #[inline]
    fn set(&self, worker: &mut Worker, config: &Config, i: usize) {
        let row = self.offset + i;
        worker.set_row(
            config,
            self.base.map(|b| b.url(row)),
            self.charset.and_then(|c| c.url(row)),
        );
    }
}

/// A result column that rows are pushed to.
pub trait Sink: Send + Sized {
    fn with_capacity(rows: usize) -> Self;
    fn len(&self) -> usize;
    /// Appends the result for `url` (`None`: a null input).
    fn push(&mut self, worker: &mut Worker, config: &Config, url: Option<&str>);
    /// Appends the rows of a later chunk.
    fn append(&mut self, later: Self);
}

impl Sink for StringColumn {
    fn with_capacity(rows: usize) -> StringColumn {
        // Most URLs are under 64 bytes.
        StringColumn::with_capacity(rows, rows * 64)
    }

    fn len(&self) -> usize {
        StringColumn::len(self)
    }

    #[inline]
    fn push(&mut self, worker: &mut Worker, config: &Config, url: Option<&str>) {
        match url {
            // A component that the URL does not have (the command writes
            // an empty line) is null.
            Some(url) => self.push_with(|out| {
                let start = out.len();
                worker.write(config, url, out) && (out.len() > start || !config.get.empty_is_null())
            }),
            None => self.push_null(),
        }
    }

    fn append(&mut self, later: StringColumn) {
        StringColumn::append(self, later)
    }
}

impl Sink for KeyColumn {
    fn with_capacity(rows: usize) -> KeyColumn {
        KeyColumn::with_capacity(rows)
    }

    fn len(&self) -> usize {
        KeyColumn::len(self)
    }

    #[inline]
    fn push(&mut self, worker: &mut Worker, config: &Config, url: Option<&str>) {
        KeyColumn::push(self, url.and_then(|url| worker.key(config, url)));
    }

    fn append(&mut self, later: KeyColumn) {
        KeyColumn::append(self, later)
    }
}

impl Sink for ExplainColumn {
    fn with_capacity(rows: usize) -> ExplainColumn {
        ExplainColumn::with_capacity(rows)
    }

    fn len(&self) -> usize {
        ExplainColumn::len(self)
    }

    #[inline]
    fn push(&mut self, worker: &mut Worker, config: &Config, url: Option<&str>) {
        let mut valid = false;
        match url {
            // As `StringColumn`'s, and the rules of a valid URL (also
            // where it lacks the component asked for).
            Some(url) => self.urls.push_with(|out| {
                let start = out.len();
                valid = worker.write(config, url, out);
                valid && (out.len() > start || !config.get.empty_is_null())
            }),
            None => self.urls.push_null(),
        }
        let (fired, edited) = (worker.fired, worker.edited);
        // In the order they ran, as the command's --explain lists them:
        // the edits, the rules, `rewrite`.
        let names = valid.then(|| {
            edited
                .changed
                .then_some("edit")
                .into_iter()
                .chain(edited.refused.then_some("edit-refused"))
                .chain(fired.rules.iter().map(|r| r.name()))
                .chain(fired.rewritten.then_some("rewrite"))
        });
        self.push_rules(names);
    }

    fn append(&mut self, later: ExplainColumn) {
        ExplainColumn::append(self, later)
    }
}

impl Sink for StructColumn {
    fn with_capacity(rows: usize) -> StructColumn {
        StructColumn::with_capacity(crate::component_columns(), rows)
    }

    fn len(&self) -> usize {
        StructColumn::len(self)
    }

    fn push(&mut self, worker: &mut Worker, config: &Config, url: Option<&str>) {
        let valid = match url {
            Some(url) => worker.components(config, url, &mut self.columns),
            None => false,
        };
        self.end_row(valid);
    }

    fn append(&mut self, later: StructColumn) {
        StructColumn::append(self, later)
    }
}

/// Runs `urls[range]` into `sink` with `worker`, each row with its
/// `side` arguments.
fn run_range<U: Urls + ?Sized, S: Sink>(
    config: &Config,
    urls: &U,
    range: Range<usize>,
    newlines: bool,
    side: Side<'_>,
    sink: &mut S,
) {
    let worker = &mut Worker::default();
    worker.check_newlines = newlines;
    if side.is_empty() {
        for i in range {
            sink.push(worker, config, urls.url(i));
        }
        return;
    }
    for i in range {
        side.set(worker, config, i);
        sink.push(worker, config, urls.url(i));
    }
}

/// The result of every URL of `urls`, in order, on `threads` threads (1:
/// the calling thread), each row with its `side` arguments.
pub fn run<U: Urls + ?Sized, S: Sink>(
    config: &Config,
    urls: &U,
    threads: usize,
    side: Side<'_>,
    sink: &mut S,
) {
    let n = urls.len();
    let newlines = urls.may_have_newlines();
    if threads <= 1 || n < PARALLEL_MIN {
        run_range(config, urls, 0..n, newlines, side, sink);
        return;
    }
    // A few chunks a thread, so that one slow chunk does not hold the
    // others up.
    let chunks = (threads * 4).min(n.div_ceil(PARALLEL_MIN / 4));
    let size = n.div_ceil(chunks);
    let Some(pool) = pool(threads) else {
        // No thread could be started: the calling thread does the work.
        run_range(config, urls, 0..n, newlines, side, sink);
        return;
    };
    let parts: Vec<S> = pool.install(|| {
        (0..chunks)
            .into_par_iter()
            .map(|c| {
                let range = c * size..((c + 1) * size).min(n);
                let mut part = S::with_capacity(range.len());
                run_range(config, urls, range, newlines, side, &mut part);
                part
            })
            .collect()
    });
    for part in parts {
        sink.append(part);
    }
}

/// Runs every chunk of an Arrow input, each row with its `side`
/// arguments (whose `offset` is ignored: they span all the chunks).
pub fn run_chunks<S: Sink>(config: &Config, chunks: &[Chunk], threads: usize, side: Side<'_>) -> S {
    let rows = chunks.iter().map(|c| c.len()).sum();
    let mut sink = S::with_capacity(rows);
    let mut offset = 0;
    for chunk in chunks {
        let values = &chunk.values;
        let keys = chunk.keys.as_ref();
        let sink = &mut sink;
        let side = Side { offset, ..side };
        match values.data_type() {
            DataType::Utf8 => {
                run_keyed(config, values.as_string::<i32>(), keys, threads, side, sink)
            }
            DataType::LargeUtf8 => {
                run_keyed(config, values.as_string::<i64>(), keys, threads, side, sink)
            }
            DataType::Utf8View => {
                run_keyed(config, values.as_string_view(), keys, threads, side, sink)
            }
            // The import makes every chunk one of these or the null type.
            _ => run_keyed(config, &Nulls(values.len()), keys, threads, side, sink),
        }
        offset += chunk.len();
    }
    sink
}

/// Runs `values`, or with `keys` the rows of a dictionary over them.
fn run_keyed<U: Urls + ?Sized, S: Sink>(
    config: &Config,
    values: &U,
    keys: Option<&(Vec<usize>, Option<NullBuffer>)>,
    threads: usize,
    side: Side<'_>,
    sink: &mut S,
) {
    match keys {
        Some((keys, nulls)) => {
            let dict = Dict {
                keys,
                nulls: nulls.as_ref(),
                values,
            };
            run(config, &dict, threads, side, sink)
        }
        None => run(config, values, threads, side, sink),
    }
}

/// A rayon pool of `threads` threads, made once per size and kept: Spark
/// and Polars call once per batch. `None` when no thread can be started.
fn pool(threads: usize) -> Option<Arc<rayon::ThreadPool>> {
    type Pools = Mutex<Vec<(usize, Arc<rayon::ThreadPool>)>>;
    static POOLS: OnceLock<Pools> = OnceLock::new();
    let mut pools = POOLS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some((_, pool)) = pools.iter().find(|(n, _)| *n == threads) {
        return Some(pool.clone());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("normurl-{i}"))
        .build()
        .ok()?;
    let pool = Arc::new(pool);
    pools.push((threads, pool.clone()));
    Some(pool)
}
