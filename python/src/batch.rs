//! A batch: every URL of an input through one [`Worker`], into one result
//! column; with `threads`, chunks of the batch on a rayon pool, joined in
//! order.

use std::ops::Range;
use std::sync::{Arc, Mutex, OnceLock};

use arrow_array::cast::AsArray;
use arrow_array::{Array as _, GenericStringArray, OffsetSizeTrait, StringViewArray};
use arrow_buffer::NullBuffer;
use arrow_schema::DataType;
use rayon::prelude::*;

use crate::arrow_io::Chunk;
use crate::column::{KeyColumn, StringColumn, StructColumn};
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

/// Runs `urls[range]` into `sink` with `worker`.
fn run_range<U: Urls + ?Sized, S: Sink>(
    config: &Config,
    urls: &U,
    range: Range<usize>,
    newlines: bool,
    sink: &mut S,
) {
    let worker = &mut Worker::default();
    worker.check_newlines = newlines;
    for i in range {
        sink.push(worker, config, urls.url(i));
    }
}

/// The result of every URL of `urls`, in order, on `threads` threads (1:
/// the calling thread).
pub fn run<U: Urls + ?Sized, S: Sink>(config: &Config, urls: &U, threads: usize, sink: &mut S) {
    let n = urls.len();
    let newlines = urls.may_have_newlines();
    if threads <= 1 || n < PARALLEL_MIN {
        run_range(config, urls, 0..n, newlines, sink);
        return;
    }
    // A few chunks a thread, so that one slow chunk does not hold the
    // others up.
    let chunks = (threads * 4).min(n.div_ceil(PARALLEL_MIN / 4));
    let size = n.div_ceil(chunks);
    let Some(pool) = pool(threads) else {
        // No thread could be started: the calling thread does the work.
        run_range(config, urls, 0..n, newlines, sink);
        return;
    };
    let parts: Vec<S> = pool.install(|| {
        (0..chunks)
            .into_par_iter()
            .map(|c| {
                let range = c * size..((c + 1) * size).min(n);
                let mut part = S::with_capacity(range.len());
                run_range(config, urls, range, newlines, &mut part);
                part
            })
            .collect()
    });
    for part in parts {
        sink.append(part);
    }
}

/// Runs every chunk of an Arrow input.
pub fn run_chunks<S: Sink>(config: &Config, chunks: &[Chunk], threads: usize) -> S {
    let rows = chunks.iter().map(|c| c.len()).sum();
    let mut sink = S::with_capacity(rows);
    for chunk in chunks {
        let values = &chunk.values;
        let keys = chunk.keys.as_ref();
        let sink = &mut sink;
        match values.data_type() {
            DataType::Utf8 => run_keyed(config, values.as_string::<i32>(), keys, threads, sink),
            DataType::LargeUtf8 => {
                run_keyed(config, values.as_string::<i64>(), keys, threads, sink)
            }
            DataType::Utf8View => run_keyed(config, values.as_string_view(), keys, threads, sink),
            // The import makes every chunk one of these or the null type.
            _ => run_keyed(config, &Nulls(values.len()), keys, threads, sink),
        }
    }
    sink
}

/// Runs `values`, or with `keys` the rows of a dictionary over them.
fn run_keyed<U: Urls + ?Sized, S: Sink>(
    config: &Config,
    values: &U,
    keys: Option<&(Vec<usize>, Option<NullBuffer>)>,
    threads: usize,
    sink: &mut S,
) {
    match keys {
        Some((keys, nulls)) => {
            let dict = Dict {
                keys,
                nulls: nulls.as_ref(),
                values,
            };
            run(config, &dict, threads, sink)
        }
        None => run(config, values, threads, sink),
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
