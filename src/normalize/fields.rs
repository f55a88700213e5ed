//! Finding a field in a line, as `awk` and `cut` do.

use memchr::memchr;

/// What separates the fields of a line.
///
/// # Example
///
/// ```
/// use normurl::normalize::Delimiter;
///
/// let line = b"2011-06-23T17:12:08.802Z   200       1299 http://a.example/ LREP";
/// assert_eq!(Delimiter::Blanks.field(line, 4), Some(42..59));
/// assert_eq!(Delimiter::Byte(b'\t').field(b"a\t\tc", 2), Some(2..2));
/// assert_eq!(Delimiter::Byte(b'\t').field(b"a\tb", 3), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Delimiter {
    /// Runs of spaces and tabs, ignoring leading and trailing ones (as
    /// `awk` does): the layout of Heritrix crawl.log, whose columns are
    /// padded with spaces.
    Blanks,
    /// Every occurrence of this byte (as `cut -d` does): two delimiters in
    /// a row make an empty field. `Byte(b'\t')` for TSV.
    Byte(u8),
    /// CSV with this separator (RFC 4180): as [`Delimiter::Byte`], but a
    /// field that starts with `"` runs to its closing quote (`""` inside
    /// stands for one `"`), separators included, and line breaks too when
    /// the pipeline cuts records with
    /// [`Normalizer::framing`](super::Normalizer::framing). A quote left
    /// open at the end of the record closes there.
    Csv(u8),
}

impl Delimiter {
    /// The byte range of field `n` (1-based) of `line`, or `None` when the
    /// line has fewer fields (or `n` is 0).
    pub fn field(self, line: &[u8], n: usize) -> Option<std::ops::Range<usize>> {
        if n == 0 {
            return None;
        }
        match self {
            Delimiter::Blanks => blank_field(line, n),
            Delimiter::Byte(d) => byte_field(line, d, n),
            Delimiter::Csv(d) => csv_field(line, d, n),
        }
    }
}

#[inline]
fn is_blank(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

fn blank_field(line: &[u8], n: usize) -> Option<std::ops::Range<usize>> {
    let mut i = 0;
    let mut seen = 0;
    loop {
        while i < line.len() && is_blank(line[i]) {
            i += 1;
        }
        if i == line.len() {
            return None;
        }
        let start = i;
        while i < line.len() && !is_blank(line[i]) {
            i += 1;
        }
        seen += 1;
        if seen == n {
            return Some(start..i);
        }
    }
}

fn byte_field(line: &[u8], d: u8, n: usize) -> Option<std::ops::Range<usize>> {
    let mut start = 0;
    for _ in 1..n {
        start += memchr(d, &line[start..])? + 1;
    }
    let end = memchr(d, &line[start..]).map_or(line.len(), |p| start + p);
    Some(start..end)
}

fn csv_field(line: &[u8], d: u8, n: usize) -> Option<std::ops::Range<usize>> {
    let mut start = 0;
    for _ in 1..n {
        start = csv_field_end(line, d, start);
        if start == line.len() {
            return None;
        }
        start += 1;
    }
    Some(start..csv_field_end(line, d, start))
}

/// Where the CSV field that starts at `start` ends: at the first separator
/// after its closing quote, if it is quoted. (Bytes between a closing
/// quote and the separator belong to the field, which is then not a
/// well-quoted one: see [`quoted_end`].)
fn csv_field_end(line: &[u8], d: u8, start: usize) -> usize {
    let from = match line.get(start) {
        Some(b'"') => match quoted_end(line, start) {
            Some(end) => end,
            None => return line.len(),
        },
        _ => start,
    };
    memchr(d, &line[from..]).map_or(line.len(), |p| from + p)
}

/// The end (after the closing quote) of the quoted CSV field whose opening
/// quote is at `start`, or `None` if the line ends first.
pub(crate) fn quoted_end(line: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 1;
    loop {
        let q = i + memchr(b'"', line.get(i..)?)?;
        if line.get(q + 1) == Some(&b'"') {
            i = q + 2;
        } else {
            return Some(q + 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The reference: split the whole line, then index.
    fn naive(line: &[u8], delim: Delimiter, n: usize) -> Option<Vec<u8>> {
        let fields: Vec<&[u8]> = match delim {
            Delimiter::Blanks => line
                .split(|&b| is_blank(b))
                .filter(|f| !f.is_empty())
                .collect(),
            Delimiter::Byte(d) => line.split(|&b| b == d).collect(),
            Delimiter::Csv(d) => naive_csv(line, d),
        };
        n.checked_sub(1)
            .and_then(|i| fields.get(i))
            .map(|f| f.to_vec())
    }

    /// The reference CSV split: a byte-at-a-time state machine.
    fn naive_csv(line: &[u8], d: u8) -> Vec<&[u8]> {
        let (mut fields, mut start, mut quoted, mut at_start) = (Vec::new(), 0, false, true);
        let mut i = 0;
        while i < line.len() {
            let b = line[i];
            if quoted {
                if b == b'"' && line.get(i + 1) == Some(&b'"') {
                    i += 1;
                } else if b == b'"' {
                    quoted = false;
                }
            } else if b == d {
                fields.push(&line[start..i]);
                start = i + 1;
                at_start = true;
                i += 1;
                continue;
            } else if b == b'"' && at_start {
                quoted = true;
            }
            at_start = false;
            i += 1;
        }
        fields.push(&line[start..]);
        fields
    }

    #[test]
    fn csv_fields() {
        let line = br#"1,"http://a.example/?q=a,b","say ""hi""",,"open"#;
        let f = |n| Delimiter::Csv(b',').field(line, n).map(|r| &line[r]);
        assert_eq!(f(1), Some(&b"1"[..]));
        assert_eq!(f(2), Some(&br#""http://a.example/?q=a,b""#[..]));
        assert_eq!(f(3), Some(&br#""say ""hi""""#[..]));
        assert_eq!(f(4), Some(&b""[..]));
        assert_eq!(f(5), Some(&br#""open"#[..]));
        assert_eq!(f(6), None);
        assert_eq!(quoted_end(line, 2), Some(27));
        assert_eq!(quoted_end(line, 42), None);
    }

    #[test]
    fn crawl_log_columns() {
        let line =
            b"2006-07-07T14:32:16.113Z     1         47 dns:tv2.dk P http://tv2.dk/ text/dns #002";
        let f = |n| Delimiter::Blanks.field(line, n).map(|r| &line[r]);
        assert_eq!(f(2), Some(&b"1"[..]));
        assert_eq!(f(4), Some(&b"dns:tv2.dk"[..]));
        assert_eq!(f(6), Some(&b"http://tv2.dk/"[..]));
        assert_eq!(f(9), None);
        assert_eq!(Delimiter::Blanks.field(b" \t a", 1), Some(3..4));
        assert_eq!(Delimiter::Blanks.field(b"", 1), None);
        assert_eq!(Delimiter::Byte(b',').field(b"", 1), Some(0..0));
        assert_eq!(Delimiter::Byte(b',').field(b"a,", 2), Some(2..2));
    }

    proptest! {
        #[test]
        fn field_matches_split(
            line in prop::collection::vec(prop::sample::select(vec![b'a', b' ', b'\t', b',', b'b', b'"']), 0..40),
            n in 0usize..8,
            kind in 0..3usize,
        ) {
            let delim = [Delimiter::Blanks, Delimiter::Byte(b','), Delimiter::Csv(b',')][kind];
            let got = delim.field(&line, n).map(|r| line[r].to_vec());
            prop_assert_eq!(got, naive(&line, delim, n));
        }
    }
}
