//! The [`application/x-www-form-urlencoded`](https://url.spec.whatwg.org/#application/x-www-form-urlencoded)
//! parser and serializer of the URL Standard, and the byte-level view of a
//! query that the query rules work on.
//!
//! The query rules never re-serialize a parameter they keep: they look at
//! each `&`-separated [`Piece`] through the parser's eyes (its name, decoded
//! as the parser would) and move or drop whole pieces, so untouched
//! parameters keep their original bytes.

use std::cmp::Ordering;

use normurl_url::AsciiSet;

/// One `&`-separated piece of a query, as byte offsets into it.
///
/// # Example
///
/// ```
/// use normurl_canon::form::pieces;
///
/// let query = b"a=1&&b";
/// let all: Vec<_> = pieces(query).map(|p| (p.bytes(query), p.name(query), p.value(query))).collect();
/// assert_eq!(all, [
///     (&b"a=1"[..], &b"a"[..], Some(&b"1"[..])),
///     (&b""[..], &b""[..], None),
///     (&b"b"[..], &b"b"[..], None),
/// ]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    /// Start of the piece.
    pub start: u32,
    /// End of the name: the first `=`, or `end`.
    pub name_end: u32,
    /// End of the piece (the next `&` or the end of the query).
    pub end: u32,
}

impl Piece {
    /// The whole piece, `name=value`.
    #[inline]
    pub fn bytes(self, query: &[u8]) -> &[u8] {
        &query[self.start as usize..self.end as usize]
    }

    /// The raw (still encoded) name.
    #[inline]
    pub fn name(self, query: &[u8]) -> &[u8] {
        &query[self.start as usize..self.name_end as usize]
    }

    /// The raw value after the first `=`, or `None` without `=`.
    #[inline]
    pub fn value(self, query: &[u8]) -> Option<&[u8]> {
        (self.name_end < self.end).then(|| &query[self.name_end as usize + 1..self.end as usize])
    }

    /// Whether the piece is empty (the parser skips those).
    #[inline]
    pub fn is_empty(self) -> bool {
        self.start == self.end
    }
}

/// Iterator over the `&`-separated pieces of a query, empty ones included.
#[derive(Clone, Debug)]
pub struct Pieces<'a> {
    query: &'a [u8],
    pos: usize,
    done: bool,
}

/// The `&`-separated pieces of `query` (empty ones included; `""` has one
/// empty piece). Offsets are `u32`: a URL's length fits in one.
pub fn pieces(query: &[u8]) -> Pieces<'_> {
    Pieces {
        query,
        pos: 0,
        done: false,
    }
}

impl Iterator for Pieces<'_> {
    type Item = Piece;

    #[inline]
    fn next(&mut self) -> Option<Piece> {
        if self.done {
            return None;
        }
        let start = self.pos;
        let (end, name_end) = split_at(self.query, start);
        self.done = end == self.query.len();
        self.pos = end + 1;
        Some(Piece {
            start: start as u32,
            name_end: name_end as u32,
            end: end as u32,
        })
    }
}

/// The end of the piece of `query` that starts at `start` (the next `&`,
/// or the end) and of its name (the first `=` before that, or the end of
/// the piece): [`split_piece`] with SSE2, 16 bytes at a time. The first
/// vector load at `start` usually holds both, where the byte loop looks
/// at every byte of the parameter (docs/performance-history.md).
#[inline]
fn split_at(query: &[u8], start: usize) -> (usize, usize) {
    if normurl_url::simd::VECTORS && query.len() >= 16 {
        let mut name_end = None;
        let end =
            normurl_url::simd::find_in_windows(query, start, [b'&', b'='], |base, [amp, eq]| {
                if name_end.is_none() && eq != 0 {
                    name_end = Some(base + eq.trailing_zeros() as usize);
                }
                (amp != 0).then(|| base + amp.trailing_zeros() as usize)
            })
            .unwrap_or(query.len());
        // An `=` after the `&` is the next piece's.
        return (end, name_end.filter(|&e| e < end).unwrap_or(end));
    }
    let (len, name_len) = split_piece(&query[start..]);
    (start + len, start + name_len)
}

/// The length of the piece at the start of `rest` (up to the first `&`, or
/// all of it) and of its name (up to the first `=` in the piece, or all
/// of it). Parameters are mostly short: a byte loop finds both in one
/// pass, where two `memchr` calls cost more in setting up than in
/// scanning; past 32 bytes (long values) `memchr` takes over. Out of
/// line on x86_64, where only queries under 16 bytes come here: inlined
/// into [`split_at`], its registers cost every piece.
#[cfg_attr(target_arch = "x86_64", inline(never))]
#[cfg_attr(not(target_arch = "x86_64"), inline)]
fn split_piece(rest: &[u8]) -> (usize, usize) {
    let mut name_len = None;
    for (i, &b) in rest.iter().enumerate().take(32) {
        match b {
            b'&' => return (i, name_len.unwrap_or(i)),
            b'=' if name_len.is_none() => name_len = Some(i),
            _ => {}
        }
    }
    let scanned = rest.len().min(32);
    let len = memchr::memchr(b'&', &rest[scanned..]).map_or(rest.len(), |i| scanned + i);
    let name_len = name_len
        .or_else(|| memchr::memchr(b'=', &rest[scanned..len]).map(|i| scanned + i))
        .unwrap_or(len);
    (len, name_len)
}

/// Decodes one name or value as the parser does: `+` becomes a space, then
/// percent-decoding. Appends the bytes (which may not be UTF-8) to `out`.
///
/// # Example
///
/// ```
/// let mut out = Vec::new();
/// normurl_canon::form::decode_component(b"a+b%2Bc%zz", &mut out);
/// assert_eq!(out, b"a b+c%zz");
/// ```
pub fn decode_component(raw: &[u8], out: &mut Vec<u8>) {
    // `+` must become a space before percent-decoding, or a `%2B` would
    // turn into a space too. A `%XX` never spans a `+`, so the runs between
    // pluses decode on their own.
    let mut i = 0;
    while i < raw.len() {
        let run = memchr::memchr(b'+', &raw[i..]).unwrap_or(raw.len() - i);
        normurl_url::percent_decode(&raw[i..i + run], out);
        i += run;
        if i < raw.len() {
            out.push(b' ');
            i += 1;
        }
    }
}

/// Appends `bytes` to `out` as [UTF-8 decode without BOM](https://encoding.spec.whatwg.org/#utf-8-decode-without-bom)
/// does: invalid sequences become U+FFFD. A leading BOM is kept.
///
/// # Example
///
/// ```
/// let mut out = Vec::new();
/// normurl_canon::form::push_utf8_lossy(b"a\xffb", &mut out);
/// assert_eq!(out, "a\u{FFFD}b".as_bytes());
/// ```
pub fn push_utf8_lossy(bytes: &[u8], out: &mut Vec<u8>) {
    for chunk in bytes.utf8_chunks() {
        out.extend_from_slice(chunk.valid().as_bytes());
        if !chunk.invalid().is_empty() {
            out.extend_from_slice("\u{FFFD}".as_bytes());
        }
    }
}

/// The [`application/x-www-form-urlencoded` parser](https://url.spec.whatwg.org/#concept-urlencoded-parser):
/// the list of name-value tuples of `input`. Allocates; the query rules use
/// [`pieces`] and [`decode_component`] instead.
///
/// # Example
///
/// ```
/// use normurl_canon::form::parse;
///
/// assert_eq!(parse(b"a=1&&b=%20+&c"), [
///     ("a".to_owned(), "1".to_owned()),
///     ("b".to_owned(), "  ".to_owned()),
///     ("c".to_owned(), String::new()),
/// ]);
/// ```
pub fn parse(input: &[u8]) -> Vec<(String, String)> {
    let mut decoded = Vec::new();
    let mut text = Vec::new();
    let mut lossy = |raw: &[u8]| {
        decoded.clear();
        text.clear();
        decode_component(raw, &mut decoded);
        push_utf8_lossy(&decoded, &mut text);
        String::from_utf8(text.clone()).expect("push_utf8_lossy writes UTF-8")
    };
    pieces(input)
        .filter(|p| !p.is_empty())
        .map(|p| (lossy(p.name(input)), lossy(p.value(input).unwrap_or(b""))))
        .collect()
}

/// Appends one name or value as the [serializer](https://url.spec.whatwg.org/#concept-urlencoded-serializer)
/// writes it: the form-urlencoded percent-encode set, with space as `+`.
///
/// # Example
///
/// ```
/// let mut out = Vec::new();
/// normurl_canon::form::serialize_component("a b&c=d~é".as_bytes(), &mut out);
/// assert_eq!(out, b"a+b%26c%3Dd%7E%C3%A9");
/// ```
pub fn serialize_component(value: &[u8], out: &mut Vec<u8>) {
    for run in value.split(|&b| b == b' ').enumerate() {
        if run.0 > 0 {
            out.push(b'+');
        }
        AsciiSet::FORM_URLENCODED.encode(run.1, out);
    }
}

/// The [`application/x-www-form-urlencoded` serializer](https://url.spec.whatwg.org/#concept-urlencoded-serializer)
/// (UTF-8): appends `name=value` pairs joined by `&` to `out`.
///
/// # Example
///
/// ```
/// let mut out = Vec::new();
/// normurl_canon::form::serialize([("q", "a b"), ("x", "")], &mut out);
/// assert_eq!(out, b"q=a+b&x=");
/// ```
pub fn serialize<'a, I, N, V>(pairs: I, out: &mut Vec<u8>)
where
    I: IntoIterator<Item = (N, V)>,
    N: AsRef<[u8]> + 'a,
    V: AsRef<[u8]> + 'a,
{
    for (i, (name, value)) in pairs.into_iter().enumerate() {
        if i > 0 {
            out.push(b'&');
        }
        serialize_component(name.as_ref(), out);
        out.push(b'=');
        serialize_component(value.as_ref(), out);
    }
}

/// Compares two UTF-8 strings by UTF-16 code units, the order of
/// [`URLSearchParams.sort()`](https://url.spec.whatwg.org/#dom-urlsearchparams-sort).
///
/// UTF-8 byte order is code point order; the two orders differ only where a
/// character in U+E000..U+FFFF (lead byte `EE` or `EF`) meets a
/// supplementary one (lead byte `F0`..`F4`), whose UTF-16 form starts with a
/// surrogate below U+E000. At the first differing byte both strings are at
/// a character boundary (they are valid UTF-8 and equal before it), so
/// comparing lead bytes with that swap is enough.
///
/// # Example
///
/// ```
/// use std::cmp::Ordering;
/// use normurl_canon::form::cmp_code_units;
///
/// assert_eq!(cmp_code_units(b"a", b"b"), Ordering::Less);
/// assert_eq!(cmp_code_units("\u{FFFD}".as_bytes(), "\u{1F600}".as_bytes()), Ordering::Greater);
/// ```
pub fn cmp_code_units(a: &[u8], b: &[u8]) -> Ordering {
    match a.iter().zip(b).position(|(x, y)| x != y) {
        None => a.len().cmp(&b.len()),
        Some(i) => {
            let (x, y) = (a[i], b[i]);
            let bmp_high = |c: u8| c == 0xEE || c == 0xEF;
            if bmp_high(x) && y >= 0xF0 {
                Ordering::Greater
            } else if bmp_high(y) && x >= 0xF0 {
                Ordering::Less
            } else {
                x.cmp(&y)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn empty_query_has_one_empty_piece() {
        let all: Vec<Piece> = pieces(b"").collect();
        assert_eq!(
            all,
            [Piece {
                start: 0,
                name_end: 0,
                end: 0
            }]
        );
        assert_eq!(pieces(b"&").count(), 2);
    }

    #[test]
    fn plus_and_encoded_plus() {
        let mut out = Vec::new();
        decode_component(b"%2B+%2b+", &mut out);
        assert_eq!(out, b"+ + ");
    }

    proptest! {
        #[test]
        fn code_unit_order_matches_utf16(a: String, b: String) {
            let a16: Vec<u16> = a.encode_utf16().collect();
            let b16: Vec<u16> = b.encode_utf16().collect();
            prop_assert_eq!(cmp_code_units(a.as_bytes(), b.as_bytes()), a16.cmp(&b16));
        }

        #[test]
        fn pieces_rebuild_the_query(q in "[a=&%+b]{0,16}") {
            let joined: Vec<&[u8]> = pieces(q.as_bytes()).map(|p| p.bytes(q.as_bytes())).collect();
            prop_assert_eq!(joined.join(&b'&'), q.as_bytes());
        }

        #[test]
        fn split_at_matches_split_piece(q in "([ab]{0,20}=?[a=]{0,20}&?){0,4}", start in 0..100usize) {
            // Queries under and over 16 bytes, pieces starting anywhere.
            let query = q.as_bytes();
            let start = start.min(query.len());
            let (len, name_len) = split_piece(&query[start..]);
            prop_assert_eq!(split_at(query, start), (start + len, start + name_len));
        }

        #[test]
        fn split_piece_matches_the_naive_split(q in "([ab]{0,40}=?[a=]{0,40}&?){0,3}") {
            // Long pieces too, across the 32-byte switch to memchr.
            let rest = q.as_bytes();
            let len = rest.iter().position(|&b| b == b'&').unwrap_or(rest.len());
            let name_len = rest[..len].iter().position(|&b| b == b'=').unwrap_or(len);
            prop_assert_eq!(split_piece(rest), (len, name_len));
        }

        #[test]
        fn serialize_then_parse_round_trips(pairs: Vec<(String, String)>) {
            let mut out = Vec::new();
            serialize(pairs.iter().map(|(n, v)| (n.as_bytes(), v.as_bytes())), &mut out);
            prop_assert_eq!(parse(&out), pairs);
        }
    }
}
