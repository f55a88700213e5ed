//! Result columns built straight into Arrow buffers: the canonicalizer
//! appends each URL to the values buffer, and the finished column hands
//! the buffers to Arrow without a copy.

use std::sync::Arc;

use arrow_array::builder::make_view;
use arrow_array::{
    ArrayRef, FixedSizeBinaryArray, GenericListArray, OffsetSizeTrait, StringViewArray, StructArray,
};
use arrow_buffer::{Buffer, NullBuffer, NullBufferBuilder, OffsetBuffer, ScalarBuffer};
use arrow_schema::{ArrowError, Field, Fields};

/// The string type of a result: the input's, so that Polars (string_view)
/// and pyarrow (string) take it without a conversion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    Utf8,
    LargeUtf8,
    Utf8View,
}

/// A string column being built: values, `i64` offsets and validity, laid
/// out as Arrow's in [`StringColumn::finish`].
#[derive(Debug)]
pub struct StringColumn {
    values: Vec<u8>,
    offsets: Vec<i64>,
    nulls: NullBufferBuilder,
}

impl StringColumn {
    pub fn with_capacity(rows: usize, bytes: usize) -> StringColumn {
        let mut offsets = Vec::with_capacity(rows + 1);
        offsets.push(0);
        StringColumn {
            values: Vec::with_capacity(bytes),
            offsets,
            nulls: NullBufferBuilder::new(rows),
        }
    }

    pub fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Appends one row: what `write` appends to the values, or null when it
    /// returns false (anything it wrote then is dropped).
    #[inline]
    pub fn push_with(&mut self, write: impl FnOnce(&mut Vec<u8>) -> bool) {
        let valid = write(&mut self.values);
        self.end_row(valid);
    }

    /// The values buffer, for a writer that fills several columns at once;
    /// [`StringColumn::end_row`] then closes the row.
    pub fn values(&mut self) -> &mut Vec<u8> {
        &mut self.values
    }

    #[inline]
    pub fn end_row(&mut self, valid: bool) {
        let last = *self.offsets.last().expect("offsets start with 0");
        if !valid {
            self.values.truncate(last as usize);
        }
        self.offsets.push(self.values.len() as i64);
        self.nulls.append(valid);
    }

    /// Closes the row as [`StringColumn::end_row`] does, null also when
    /// nothing was written to it (a component the URL does not have).
    #[inline]
    pub fn end_row_nonempty(&mut self, valid: bool) {
        let last = *self.offsets.last().expect("offsets start with 0");
        self.end_row(valid && self.values.len() > last as usize);
    }

    pub fn push_null(&mut self) {
        self.end_row(false);
    }

    /// Row `i`, `None` when null.
    pub fn get(&self, i: usize) -> Option<&str> {
        if !self.nulls.is_valid(i) {
            return None;
        }
        let bytes = &self.values[self.offsets[i] as usize..self.offsets[i + 1] as usize];
        // Rows are URL serializations or their parts: ASCII.
        std::str::from_utf8(bytes).ok()
    }

    /// Row `i`'s bytes, `None` when null.
    #[inline]
    pub fn bytes(&self, i: usize) -> Option<&[u8]> {
        self.nulls
            .is_valid(i)
            .then(|| &self.values[self.offsets[i] as usize..self.offsets[i + 1] as usize])
    }

    /// Appends the rows of `other` (a later chunk of the same batch).
    pub fn append(&mut self, other: StringColumn) {
        let shift = self.values.len() as i64;
        self.values.extend_from_slice(&other.values);
        self.offsets
            .extend(other.offsets[1..].iter().map(|o| o + shift));
        let mut nulls = other.nulls;
        match nulls.finish() {
            Some(buffer) => self.nulls.append_buffer(&buffer),
            None => self.nulls.append_n_non_nulls(other.offsets.len() - 1),
        }
    }

    /// The Arrow array, in `layout` (or `large_string` when `string`'s
    /// 32-bit offsets cannot address the values).
    pub fn finish(mut self, layout: Layout) -> Result<ArrayRef, ArrowError> {
        let nulls = self.nulls.finish();
        let ascii = self.values.is_ascii();
        Ok(match layout {
            Layout::Utf8 if self.values.len() <= i32::MAX as usize => {
                let offsets: Vec<i32> = self.offsets.iter().map(|&o| o as i32).collect();
                let offsets = OffsetBuffer::new(ScalarBuffer::from(offsets));
                Arc::new(string_array(
                    offsets,
                    Buffer::from_vec(self.values),
                    nulls,
                    ascii,
                )?)
            }
            Layout::Utf8 | Layout::LargeUtf8 => {
                let offsets = OffsetBuffer::new(ScalarBuffer::from(self.offsets));
                Arc::new(string_array(
                    offsets,
                    Buffer::from_vec(self.values),
                    nulls,
                    ascii,
                )?)
            }
            Layout::Utf8View => Arc::new(view_array(&self.offsets, self.values, nulls, ascii)?),
        })
    }
}

/// A `string` or `large_string` array over the buffers.
fn string_array<O: arrow_array::OffsetSizeTrait>(
    offsets: OffsetBuffer<O>,
    values: Buffer,
    nulls: Option<NullBuffer>,
    ascii: bool,
) -> Result<arrow_array::GenericStringArray<O>, ArrowError> {
    if ascii {
        // SAFETY: the offsets are in bounds and increasing (each row's end
        // is the values' length after it was written), and ASCII values
        // are UTF-8 with every offset on a character boundary.
        Ok(unsafe { arrow_array::GenericStringArray::new_unchecked(offsets, values, nulls) })
    } else {
        // Not expected (URL serializations are ASCII): checked if so.
        arrow_array::GenericStringArray::try_new(offsets, values, nulls)
    }
}

/// A `string_view` array: the views point into slices of one buffer, each
/// under 2 GiB so that every consumer's 32-bit offsets reach them.
fn view_array(
    offsets: &[i64],
    values: Vec<u8>,
    nulls: Option<NullBuffer>,
    ascii: bool,
) -> Result<StringViewArray, ArrowError> {
    const MAX_BLOCK: usize = i32::MAX as usize;
    let data = Buffer::from_vec(values);
    let mut views = Vec::with_capacity(offsets.len() - 1);
    let mut blocks: Vec<Buffer> = Vec::new();
    let mut block_start = 0usize;
    for pair in offsets.windows(2) {
        let (start, end) = (pair[0] as usize, pair[1] as usize);
        let bytes = &data.as_slice()[start..end];
        if bytes.len() <= 12 {
            views.push(make_view(bytes, 0, 0));
            continue;
        }
        if blocks.is_empty() || end - block_start > MAX_BLOCK {
            if let Some(last) = blocks.last_mut() {
                *last = data.slice_with_length(block_start, start - block_start);
            }
            block_start = start;
            blocks.push(data.slice(block_start));
        }
        let block = (blocks.len() - 1) as u32;
        views.push(make_view(bytes, block, (start - block_start) as u32));
    }
    if let Some(last) = blocks.last_mut() {
        let end = *offsets.last().expect("offsets start with 0") as usize;
        *last = data.slice_with_length(block_start, end - block_start);
    }
    let views = ScalarBuffer::from(views);
    if ascii {
        // SAFETY: every view's length, block and offset were made from
        // the row's own bytes, inside its block, and ASCII is UTF-8.
        Ok(unsafe { StringViewArray::new_unchecked(views, Arc::from(blocks), nulls) })
    } else {
        StringViewArray::try_new(views, blocks, nulls)
    }
}

/// A column of 16-byte keys.
#[derive(Debug)]
pub struct KeyColumn {
    values: Vec<u8>,
    nulls: NullBufferBuilder,
}

impl KeyColumn {
    pub fn with_capacity(rows: usize) -> KeyColumn {
        KeyColumn {
            values: Vec::with_capacity(rows * 16),
            nulls: NullBufferBuilder::new(rows),
        }
    }

    pub fn len(&self) -> usize {
        self.nulls.len()
    }

    /// Appends a key (its 16 bytes little-endian: MurmurHash3's digest
    /// order), or a null row of zeros.
    #[inline]
    pub fn push(&mut self, key: Option<u128>) {
        self.values
            .extend_from_slice(&key.unwrap_or(0).to_le_bytes());
        self.nulls.append(key.is_some());
    }

    pub fn get(&self, i: usize) -> Option<&[u8]> {
        self.nulls
            .is_valid(i)
            .then(|| &self.values[i * 16..i * 16 + 16])
    }

    pub fn append(&mut self, other: KeyColumn) {
        self.values.extend_from_slice(&other.values);
        let mut nulls = other.nulls;
        let n = nulls.len();
        match nulls.finish() {
            Some(buffer) => self.nulls.append_buffer(&buffer),
            None => self.nulls.append_n_non_nulls(n),
        }
    }

    pub fn finish(mut self) -> Result<ArrayRef, ArrowError> {
        let nulls = self.nulls.finish();
        let keys = FixedSizeBinaryArray::try_new(16, Buffer::from_vec(self.values), nulls)?;
        Ok(Arc::new(keys))
    }
}

/// The columns of `components()`: one per name; a row is null where the
/// URL is invalid, a field where the URL does not have that component.
#[derive(Debug)]
pub struct StructColumn {
    pub names: &'static [&'static str],
    pub columns: Vec<StringColumn>,
    /// The rows' validity.
    nulls: NullBufferBuilder,
}

impl StructColumn {
    pub fn with_capacity(names: &'static [&'static str], rows: usize) -> StructColumn {
        StructColumn {
            names,
            columns: names
                .iter()
                .map(|_| StringColumn::with_capacity(rows, rows * 8))
                .collect(),
            nulls: NullBufferBuilder::new(rows),
        }
    }

    pub fn len(&self) -> usize {
        self.nulls.len()
    }

    /// Whether row `i` is a URL.
    pub fn is_valid(&self, i: usize) -> bool {
        self.nulls.is_valid(i)
    }

    /// Closes the row written to the columns: null when not `valid`, and
    /// each field null when it is empty.
    #[inline]
    pub fn end_row(&mut self, valid: bool) {
        for column in &mut self.columns {
            column.end_row_nonempty(valid);
        }
        self.nulls.append(valid);
    }

    pub fn append(&mut self, other: StructColumn) {
        for (mine, theirs) in self.columns.iter_mut().zip(other.columns) {
            mine.append(theirs);
        }
        let mut nulls = other.nulls;
        let n = nulls.len();
        match nulls.finish() {
            Some(buffer) => self.nulls.append_buffer(&buffer),
            None => self.nulls.append_n_non_nulls(n),
        }
    }

    pub fn finish(mut self, layout: Layout) -> Result<ArrayRef, ArrowError> {
        let arrays = self
            .columns
            .into_iter()
            .map(|c| c.finish(layout))
            .collect::<Result<Vec<ArrayRef>, _>>()?;
        let nulls = self.nulls.finish();
        let fields: Fields = self
            .names
            .iter()
            .zip(&arrays)
            .map(|(name, a)| Field::new(*name, a.data_type().clone(), true))
            .collect();
        Ok(Arc::new(StructArray::try_new(fields, arrays, nulls)?))
    }
}

/// The columns of `normalize(explain=True)`: each row's answer (`url`)
/// and the names of the rules that fired on it (`rules`, the command's
/// `--explain` column as a list). `rules` is null where the row has no
/// URL (null or invalid input), an empty list where nothing changed.
#[derive(Debug)]
pub struct ExplainColumn {
    pub urls: StringColumn,
    /// The rule names, one row each.
    names: StringColumn,
    /// Where each row's names end in `names`.
    offsets: Vec<i64>,
    nulls: NullBufferBuilder,
}

impl ExplainColumn {
    pub fn with_capacity(rows: usize) -> ExplainColumn {
        let mut offsets = Vec::with_capacity(rows + 1);
        offsets.push(0);
        ExplainColumn {
            urls: StringColumn::with_capacity(rows, rows * 64),
            names: StringColumn::with_capacity(rows, rows * 16),
            offsets,
            nulls: NullBufferBuilder::new(rows),
        }
    }

    pub fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Closes a row's rules: `names` for a URL, null (`None`) for none.
    /// The row's answer is pushed to `urls` apart.
    #[inline]
    pub fn push_rules<'a>(&mut self, names: Option<impl Iterator<Item = &'a str>>) {
        let valid = names.is_some();
        if let Some(names) = names {
            for name in names {
                self.names.push_with(|out| {
                    out.extend_from_slice(name.as_bytes());
                    true
                });
            }
        }
        self.nulls.append(valid);
        self.offsets.push(self.names.len() as i64);
    }

    /// Row `i`: its answer and its rule names (`None` for no URL).
    pub fn get(&self, i: usize) -> (Option<&str>, Option<Vec<&str>>) {
        let rules = self.nulls.is_valid(i).then(|| {
            (self.offsets[i] as usize..self.offsets[i + 1] as usize)
                .filter_map(|j| self.names.get(j))
                .collect()
        });
        (self.urls.get(i), rules)
    }

    pub fn append(&mut self, other: ExplainColumn) {
        let shift = self.names.len() as i64;
        self.urls.append(other.urls);
        self.names.append(other.names);
        self.offsets
            .extend(other.offsets[1..].iter().map(|o| o + shift));
        let mut nulls = other.nulls;
        let n = nulls.len();
        match nulls.finish() {
            Some(buffer) => self.nulls.append_buffer(&buffer),
            None => self.nulls.append_n_non_nulls(n),
        }
    }

    /// A struct array of `url` (strings in `layout`) and `rules` (a list
    /// of strings in `layout`; `large_list` for `large_string` or with
    /// `large_list`, which is Polars' own list type).
    pub fn finish(mut self, layout: Layout, large_list: bool) -> Result<ArrayRef, ArrowError> {
        let urls = self.urls.finish(layout)?;
        let names = self.names.finish(layout)?;
        let nulls = self.nulls.finish();
        let item = Arc::new(Field::new("item", names.data_type().clone(), true));
        let rules: ArrayRef = if large_list || layout == Layout::LargeUtf8 {
            let offsets = OffsetBuffer::new(ScalarBuffer::from(self.offsets));
            Arc::new(list_array::<i64>(item, offsets, names, nulls)?)
        } else {
            let offsets: Vec<i32> = self
                .offsets
                .iter()
                .map(|&o| i32::try_from(o))
                .collect::<Result<_, _>>()
                .map_err(|_| ArrowError::ComputeError("too many rule names".into()))?;
            let offsets = OffsetBuffer::new(ScalarBuffer::from(offsets));
            Arc::new(list_array::<i32>(item, offsets, names, nulls)?)
        };
        let fields: Fields = [
            Field::new("url", urls.data_type().clone(), true),
            Field::new("rules", rules.data_type().clone(), true),
        ]
        .into_iter()
        .collect();
        Ok(Arc::new(StructArray::try_new(
            fields,
            vec![urls, rules],
            None,
        )?))
    }
}

fn list_array<O: OffsetSizeTrait>(
    item: Arc<Field>,
    offsets: OffsetBuffer<O>,
    values: ArrayRef,
    nulls: Option<NullBuffer>,
) -> Result<GenericListArray<O>, ArrowError> {
    GenericListArray::<O>::try_new(item, offsets, values, nulls)
}
