//! The order of `sort-query`: the sort entries of a query's pieces, their
//! decoded names and values (the keys), the orders by name, by name then
//! value (`sort-query-values`) and by raw bytes (`sort-query-bytes`).

use std::cmp::Ordering;

use crate::form::{self, Piece};

/// A piece and where its sort keys live.
#[derive(Clone, Copy, Debug)]
pub(super) struct Entry {
    pub(super) piece: Piece,
    pub(super) name: Key,
    pub(super) value: Key,
    /// The first 8 bytes of the decoded name, big-endian and padded with
    /// zeros, or `None` when one of them is `0xEE` or above (where
    /// [`form::cmp_code_units`] is not byte order): see [`order_prefix`].
    pub(super) prefix: Option<u64>,
    pub(super) removed: bool,
}

/// The sort prefix of a decoded name (see [`Entry::prefix`]). Where two
/// prefixes differ they order the names as [`form::cmp_code_units`]
/// does: the first byte where they differ is either a byte where the
/// names differ, or one name's padding against the other's longer tail
/// (a `0` byte of a name matches the padding, so its prefix never comes
/// first wrongly; equal prefixes are left to the full compare).
pub(super) fn order_prefix(name: &[u8]) -> Option<u64> {
    let word = padded_prefix(name, 0, name.len());
    // ASCII (every raw name: a parsed query is ASCII) is below 0xEE.
    let ascii = word & 0x8080_8080_8080_8080 == 0;
    (ascii || word.to_be_bytes().iter().all(|&b| b < 0xEE)).then_some(word)
}

/// A decoded name or value: a range of the query when decoding changes
/// nothing (the common case), or of `QueryScratch::keys`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Key {
    pub(super) in_keys: bool,
    pub(super) start: u32,
    pub(super) end: u32,
}

impl Key {
    pub(super) fn get<'a>(self, query: &'a [u8], keys: &'a [u8]) -> &'a [u8] {
        let src = if self.in_keys { keys } else { query };
        &src[self.start as usize..self.end as usize]
    }
}

/// The decoded form of `raw` (at `offset` in the query) as a [`Key`],
/// decoding into `keys` only when it differs from the raw bytes. `plain`
/// says that the whole query has no `%` or `+` (so `raw` has none).
pub(super) fn key(
    raw: &[u8],
    offset: usize,
    plain: bool,
    keys: &mut Vec<u8>,
    decoded: &mut Vec<u8>,
) -> Key {
    if plain || !raw.iter().any(|&b| b == b'%' || b == b'+') {
        // The query of a parsed URL is ASCII, so the raw bytes are already
        // what the parser's UTF-8 decode would give.
        return Key {
            in_keys: false,
            start: offset as u32,
            end: (offset + raw.len()) as u32,
        };
    }
    decoded.clear();
    form::decode_component(raw, decoded);
    let start = keys.len();
    form::push_utf8_lossy(decoded, keys);
    Key {
        in_keys: true,
        start: start as u32,
        end: keys.len() as u32,
    }
}

/// The order of `sort-query`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum SortBy {
    /// By decoded name.
    Name,
    /// By decoded name, then value (`sort-query-values`).
    NameValue,
    /// By the raw bytes of the whole piece (`sort-query-bytes`).
    Bytes,
}

/// `sort-query` in `order`: sorts `entries`, ties by position; returns
/// whether the order changed.
pub(super) fn sort(query: &[u8], keys: &[u8], order: SortBy, entries: &mut [Entry]) -> bool {
    let by_value = order == SortBy::NameValue;
    let cmp = |a: &Entry, b: &Entry| {
        if order == SortBy::Bytes {
            return a
                .piece
                .bytes(query)
                .cmp(b.piece.bytes(query))
                .then_with(|| a.piece.start.cmp(&b.piece.start));
        }
        let names = match (a.prefix, b.prefix) {
            // Most names differ in their first 8 bytes.
            (Some(x), Some(y)) if x != y => x.cmp(&y),
            _ => form::cmp_code_units(a.name.get(query, keys), b.name.get(query, keys)),
        };
        names
            .then_with(|| {
                if by_value {
                    cmp_values(a, b, query, keys)
                } else {
                    Ordering::Equal
                }
            })
            .then_with(|| a.piece.start.cmp(&b.piece.start))
    };
    if entries
        .windows(2)
        .all(|w| cmp(&w[0], &w[1]) == Ordering::Less)
    {
        return false;
    }
    // Ties are broken by position, so an unstable sort (which does not
    // allocate) gives the stable order.
    entries.sort_unstable_by(cmp);
    true
}

/// The first 8 bytes of `bytes[start..end]`, big-endian, padded with
/// zeros. One load when 8 bytes follow `start` in `bytes` (those past
/// `end` are masked off), as for a name inside its query.
#[inline(always)]
pub(super) fn padded_prefix(bytes: &[u8], start: usize, end: usize) -> u64 {
    let n = end - start;
    let word = match bytes.get(start..start + 8) {
        Some(head) => u64::from_be_bytes(head.try_into().expect("8 bytes")),
        None => bytes[start..]
            .iter()
            .take(8)
            .enumerate()
            .fold(0, |word, (i, &b)| word | u64::from(b) << (56 - 8 * i)),
    };
    if n >= 8 {
        word
    } else {
        // Keep the `n` bytes in range, the high ones.
        word & !(u64::MAX >> (8 * n))
    }
}

/// Orders equal names by value, a missing value (`a`) before an empty one
/// (`a=`), as webarchive-commons' `alphaReorderQuery` does.
fn cmp_values(a: &Entry, b: &Entry, query: &[u8], keys: &[u8]) -> Ordering {
    let has_value = |e: &Entry| e.piece.value(query).is_some();
    has_value(a)
        .cmp(&has_value(b))
        .then_with(|| form::cmp_code_units(a.value.get(query, keys), b.value.get(query, keys)))
}
