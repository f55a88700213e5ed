//! How the URL is quoted where it was found: the decoding that turns its
//! bytes into the URL's text, and the escaping that puts a normalized URL
//! back in its place so that the line keeps its format.

use std::ops::Range;

use memchr::{memchr, memchr3};

use super::fields::quoted_end;
use super::json_field;
use super::Delimiter;

/// How the bytes of a located URL are quoted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Quoting {
    /// As they are.
    Plain,
    /// The contents of a JSON string; `escaped` if they hold a backslash.
    Json { escaped: bool },
    /// The contents of a `"…"` field of a log (Apache writes `\"` and `\\`
    /// for `"` and `\` there). `-` is Apache's "no value".
    Log,
    /// The contents of a quoted CSV field (`""` stands for `"`).
    CsvQuoted,
    /// An unquoted CSV field with this separator: a URL holding a
    /// separator or a quote gets quotes when written back.
    CsvBare(u8),
}

/// Where the URL of a line is: `range` is what a normalized URL replaces
/// and what `--original --only-field` writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Located {
    pub range: Range<usize>,
    pub quoting: Quoting,
}

impl Located {
    pub fn plain(range: Range<usize>) -> Located {
        Located {
            range,
            quoting: Quoting::Plain,
        }
    }

    /// Field `range` of `line`, split by `delimiter`, without its quotes:
    /// a blank-separated field quoted whole (a log's `"referrer"`), or a
    /// well-quoted CSV field.
    pub fn field(line: &[u8], range: Range<usize>, delimiter: Delimiter) -> Located {
        let raw = &line[range.clone()];
        let quoted = raw.len() >= 2 && raw[0] == b'"';
        match delimiter {
            Delimiter::Blanks if quoted && raw.ends_with(b"\"") => Located {
                range: range.start + 1..range.end - 1,
                quoting: Quoting::Log,
            },
            Delimiter::Csv(_) if quoted && quoted_end(line, range.start) == Some(range.end) => {
                Located {
                    range: range.start + 1..range.end - 1,
                    quoting: Quoting::CsvQuoted,
                }
            }
            Delimiter::Csv(d) => Located {
                range,
                quoting: Quoting::CsvBare(d),
            },
            _ => Located::plain(range),
        }
    }
}

impl Quoting {
    /// Whether `raw`, quoted this way, says "no value" (Apache's `"-"`).
    pub fn is_no_value(self, raw: &[u8]) -> bool {
        self == Quoting::Log && raw == b"-"
    }

    /// Whether `raw` needs [`Quoting::decode`] to become the URL's bytes.
    #[inline]
    pub fn needs_decoding(self, raw: &[u8]) -> bool {
        match self {
            Quoting::Plain | Quoting::CsvBare(_) => false,
            Quoting::Json { escaped } => escaped,
            Quoting::Log => memchr(b'\\', raw).is_some(),
            Quoting::CsvQuoted => memchr(b'"', raw).is_some(),
        }
    }

    /// Appends the bytes that `raw` stands for to `out`; fails only on a
    /// JSON string with a lone surrogate escape.
    pub fn decode(self, raw: &[u8], out: &mut Vec<u8>) -> Result<(), ()> {
        match self {
            Quoting::Json { .. } => return json_field::decode(raw, out).map_err(drop),
            Quoting::Log => unescape_with(raw, b'\\', out),
            Quoting::CsvQuoted => unescape_with(raw, b'"', out),
            Quoting::Plain | Quoting::CsvBare(_) => out.extend_from_slice(raw),
        }
        Ok(())
    }

    /// Escapes the URL in `data[start..]` in place, for where it goes.
    pub fn escape(self, data: &mut Vec<u8>, start: usize) {
        match self {
            Quoting::Plain => {}
            Quoting::Json { .. } => json_field::escape_in_place(data, start),
            Quoting::Log => double_in_place(data, start, b'\\', b"\"\\"),
            Quoting::CsvQuoted => double_in_place(data, start, b'"', b"\""),
            Quoting::CsvBare(d) => {
                if memchr3(b'"', d, b'\r', &data[start..]).is_some()
                    || memchr(b'\n', &data[start..]).is_some()
                {
                    double_in_place(data, start, b'"', b"\"");
                    data.insert(start, b'"');
                    data.push(b'"');
                }
            }
        }
    }
}

/// Appends `raw` to `out` with each `esc` that escapes a byte dropped:
/// `\"` and `\\` for a log, `""` for CSV. (A backslash before any other
/// byte stays: Apache's `\xHH` is not decoded.)
fn unescape_with(raw: &[u8], esc: u8, out: &mut Vec<u8>) {
    let mut i = 0;
    while i < raw.len() {
        let b = raw[i];
        let next = raw.get(i + 1).copied();
        if b == esc && (next == Some(b'"') || (esc == b'\\' && next == Some(b'\\'))) {
            out.push(raw[i + 1]);
            i += 2;
        } else {
            out.push(b);
            i += 1;
        }
    }
}

/// Puts `esc` before every byte of `special` in `data[start..]`, in place.
fn double_in_place(data: &mut Vec<u8>, start: usize, esc: u8, special: &[u8]) {
    if !data[start..].iter().any(|b| special.contains(b)) {
        return;
    }
    let end = data.len();
    for i in start..end {
        let b = data[i];
        if special.contains(&b) {
            data.push(esc);
        }
        data.push(b);
    }
    data.drain(start..end);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn located(line: &[u8], n: usize, d: Delimiter) -> (Vec<u8>, Quoting) {
        let l = Located::field(line, d.field(line, n).unwrap(), d);
        (line[l.range].to_vec(), l.quoting)
    }

    #[test]
    fn fields_lose_their_quotes() {
        let log = br#"1.2.3.4 - - [17/May/2015:10:05:03 +0000] "GET /a HTTP/1.1" 200 9 "http://r.example/" "Mozilla/5.0 (X)""#;
        assert_eq!(
            located(log, 11, Delimiter::Blanks),
            (b"http://r.example/".to_vec(), Quoting::Log)
        );
        assert_eq!(
            located(log, 7, Delimiter::Blanks),
            (b"/a".to_vec(), Quoting::Plain)
        );
        assert_eq!(
            located(log, 6, Delimiter::Blanks),
            (b"\"GET".to_vec(), Quoting::Plain)
        );
        let csv = br#"a,"x,""y""",b"c,"open"#;
        let c = Delimiter::Csv(b',');
        assert_eq!(
            located(csv, 2, c),
            (br#"x,""y"""#.to_vec(), Quoting::CsvQuoted)
        );
        assert_eq!(
            located(csv, 3, c),
            (br#"b"c"#.to_vec(), Quoting::CsvBare(b','))
        );
        assert_eq!(
            located(csv, 4, c),
            (br#""open"#.to_vec(), Quoting::CsvBare(b','))
        );
        assert!(Quoting::Log.is_no_value(b"-"));
        assert!(!Quoting::Plain.is_no_value(b"-"));
    }

    #[test]
    fn decode_and_escape_round_trip() {
        let cases: [(Quoting, &[u8], &[u8]); 4] = [
            (Quoting::Log, br#"a\"b\\c\x"#, br#"a"b\c\x"#),
            (Quoting::CsvQuoted, br#"a""b"#, br#"a"b"#),
            (
                Quoting::Json { escaped: true },
                br#"a\"b\u0041"#,
                br#"a"bA"#,
            ),
            (Quoting::Plain, br#"a\"b"#, br#"a\"b"#),
        ];
        for (q, raw, text) in cases {
            assert!(q == Quoting::Plain || q.needs_decoding(raw));
            let mut out = Vec::new();
            q.decode(raw, &mut out).unwrap();
            assert_eq!(out, text, "{q:?}");
            let mut data = b"keep".to_vec();
            data.extend_from_slice(text);
            q.escape(&mut data, 4);
            let mut back = Vec::new();
            q.decode(&data[4..], &mut back).unwrap();
            assert_eq!(back, text, "{q:?}");
        }
        let mut data = b"k,http://a.example/?q=a,b".to_vec();
        Quoting::CsvBare(b',').escape(&mut data, 2);
        assert_eq!(data, br#"k,"http://a.example/?q=a,b""#);
        let mut data = b"k,http://a.example/".to_vec();
        Quoting::CsvBare(b',').escape(&mut data, 2);
        assert_eq!(data, b"k,http://a.example/");
    }
}
