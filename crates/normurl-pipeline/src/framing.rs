//! Where records end: at every terminator, or at the terminators outside
//! quoted fields (CSV records may hold line breaks).

use memchr::{memchr, memchr2};

/// How the pipeline cuts its input into records.
///
/// The pipeline stays ignorant of what the records hold: the caller, who
/// knows the format, picks the framing.
///
/// # Example
///
/// ```
/// use normurl_pipeline::{Framing, Input, MapFn, Pipeline, Sinks};
///
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("in.csv");
/// std::fs::write(&path, "1,\"two\nlines\"\n2,one\n")?;
/// let count = MapFn::new(|r: &[u8], o: &mut Vec<u8>| o.extend_from_slice(r.len().to_string().as_bytes()));
/// let mut out = Vec::new();
/// Pipeline::builder()
///     .framing(Framing::QuotedFields { quote: b'"', separator: b',' })
///     .build(count)
///     .run(vec![Input::path(&path)], Sinks::new("out", &mut out))?;
/// assert_eq!(out, b"13\n5\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Framing {
    /// Every terminator ends a record (the default).
    #[default]
    Lines,
    /// RFC 4180: a terminator inside a quoted field does not end the
    /// record. A field is quoted when it starts with `quote` (at the start
    /// of the record or right after `separator`); inside it two quotes
    /// stand for one and a single quote closes it. A quote anywhere else
    /// is data. A record whose quote is still open when its input ends
    /// runs to the end of the input, and says so
    /// ([`Record::unclosed_quote`](super::Record::unclosed_quote)); the
    /// input's final line break is then its terminator. Each record's
    /// output ends with the line break the record ended with: `\r\n`
    /// stays `\r\n` (RFC 4180's line break), `\n` stays `\n`.
    QuotedFields {
        /// The quote byte (`"` in RFC 4180).
        quote: u8,
        /// The field separator (`,` in RFC 4180).
        separator: u8,
    },
}

/// Where a scan of a quoted-fields record stands. The scan can stop at any
/// byte and resume with the next bytes: the reader feeds it what it reads,
/// in pieces whose size depends on the batch size, and the result must not.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum QuoteScan {
    /// At the start of a field: a quote here opens a quoted field.
    #[default]
    FieldStart,
    /// In an unquoted field, or after a quoted field's closing quote.
    Bare,
    /// Inside a quoted field.
    Quoted,
    /// Inside a quoted field, right after a quote: it closes the field
    /// unless another quote follows.
    QuoteSeen,
}

impl QuoteScan {
    /// Scans `bytes`, which follow the bytes scanned so far, up to the first
    /// `term` outside quotes: returns its offset (the scan is then at the
    /// start of the next record), or `None` when the record goes on past
    /// `bytes`. `quote` and `separator` are those of
    /// [`Framing::QuotedFields`]; neither may be `term`.
    #[inline]
    pub(crate) fn find_end(
        &mut self,
        bytes: &[u8],
        quote: u8,
        separator: u8,
        term: u8,
    ) -> Option<usize> {
        let mut i = 0;
        loop {
            match *self {
                QuoteScan::Quoted => {
                    i += memchr(quote, &bytes[i..])? + 1;
                    *self = QuoteScan::QuoteSeen;
                }
                QuoteScan::QuoteSeen => {
                    let b = *bytes.get(i)?;
                    if b == quote {
                        // `""`: an escaped quote, still inside.
                        *self = QuoteScan::Quoted;
                        i += 1;
                    } else {
                        *self = QuoteScan::Bare;
                    }
                }
                QuoteScan::FieldStart | QuoteScan::Bare => {
                    let rest = &bytes[i..];
                    let Some(p) = memchr2(quote, term, rest) else {
                        if let Some(&last) = rest.last() {
                            *self = self.after(last, separator);
                        }
                        return None;
                    };
                    let at_field_start = match p {
                        0 => *self == QuoteScan::FieldStart,
                        _ => rest[p - 1] == separator,
                    };
                    if rest[p] == term {
                        *self = QuoteScan::FieldStart;
                        return Some(i + p);
                    }
                    *self = if at_field_start {
                        QuoteScan::Quoted
                    } else {
                        QuoteScan::Bare
                    };
                    i += p + 1;
                }
            }
        }
    }

    /// The state after the unquoted byte `b`.
    #[inline]
    fn after(self, b: u8, separator: u8) -> QuoteScan {
        if b == separator {
            QuoteScan::FieldStart
        } else {
            QuoteScan::Bare
        }
    }

    /// Whether the scan is inside a quoted field (an input that ends here
    /// leaves the quote open).
    pub(crate) fn in_quotes(self) -> bool {
        self == QuoteScan::Quoted
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The reference: a byte-at-a-time state machine over the whole input,
    /// giving every record end.
    fn naive_ends(input: &[u8]) -> Vec<usize> {
        let (mut ends, mut quoted, mut at_start) = (Vec::new(), false, true);
        let mut i = 0;
        while i < input.len() {
            let b = input[i];
            if quoted {
                if b == b'"' && input.get(i + 1) == Some(&b'"') {
                    i += 1;
                } else if b == b'"' {
                    quoted = false;
                }
                at_start = false;
            } else if b == b'\n' {
                ends.push(i);
                at_start = true;
            } else {
                quoted = b == b'"' && at_start;
                at_start = b == b',';
            }
            i += 1;
        }
        ends
    }

    /// Every record end, feeding the scan `input` in pieces of `piece`
    /// bytes.
    fn ends_in_pieces(input: &[u8], piece: usize) -> Vec<usize> {
        let mut scan = QuoteScan::default();
        let mut ends = Vec::new();
        let mut at = 0;
        for chunk in input.chunks(piece.max(1)) {
            let mut i = 0;
            while let Some(p) = scan.find_end(&chunk[i..], b'"', b',', b'\n') {
                ends.push(at + i + p);
                i += p + 1;
            }
            at += chunk.len();
        }
        ends
    }

    #[test]
    fn quoted_line_breaks_do_not_end_records() {
        let csv = b"a,\"x\ny\",b\n\"q\"\"\n\",c\nd\"e\nf,\"\"\n";
        assert_eq!(ends_in_pieces(csv, 100), vec![9, 18, 22, 27]);
        let mut scan = QuoteScan::default();
        assert_eq!(scan.find_end(b"a,\"open\nstill", b'"', b',', b'\n'), None);
        assert!(scan.in_quotes());
    }

    proptest! {
        #[test]
        fn pieces_do_not_matter(
            input in prop::collection::vec(prop::sample::select(vec![b'a', b',', b'"', b'\n', b'\r']), 0..60),
            piece in 1usize..8,
        ) {
            prop_assert_eq!(ends_in_pieces(&input, piece), naive_ends(&input));
            prop_assert_eq!(ends_in_pieces(&input, input.len()), naive_ends(&input));
        }
    }
}
