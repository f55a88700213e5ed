//! Finding a string in a JSON Lines or CDXJ line (`--json-field PATH`).
//!
//! A small scanner, not a JSON parser: it checks the object's structure
//! while it walks it, skips what the path does not name, and gives the byte
//! range of the string at the path. Nothing is allocated (a key is decoded
//! only when it holds an escape, which real index files never do), so the
//! hot path of a CDXJ file costs a pass over the line's bytes, strings
//! skipped a `memchr2` at a time.

use std::fmt;
use std::ops::Range;
use std::str::FromStr;

use memchr::{memchr2, memmem};

/// A dotted path to a string in a JSON object: `url`, or
/// `Envelope.WARC-Header-Metadata.WARC-Target-URI`.
///
/// # Example
///
/// ```
/// use normurl::normalize::JsonPath;
///
/// let path: JsonPath = "Envelope.WARC-Header-Metadata.WARC-Target-URI".parse()?;
/// assert_eq!(path.to_string(), "Envelope.WARC-Header-Metadata.WARC-Target-URI");
/// assert!("a..b".parse::<JsonPath>().is_err());
/// # Ok::<(), String>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonPath {
    /// The keys, outermost first; never empty, no key empty.
    keys: Box<[Box<str>]>,
}

impl FromStr for JsonPath {
    type Err = String;

    fn from_str(s: &str) -> Result<JsonPath, String> {
        let keys: Box<[Box<str>]> = s.split('.').map(Box::from).collect();
        if keys.iter().any(|k| k.is_empty()) {
            return Err(format!(
                "{s:?} is not a JSON path (expected keys separated by dots, such as url or a.b.c)"
            ));
        }
        Ok(JsonPath { keys })
    }
}

impl fmt::Display for JsonPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.keys.join("."))
    }
}

/// Why a line gave no string at the path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum JsonError {
    /// No JSON object where one should be, or a broken one.
    Broken,
    /// The object is whole but has no string at the path.
    Missing,
}

/// The string at the path: the range of its contents (between the quotes)
/// and whether they hold an escape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Found {
    pub range: Range<usize>,
    pub escaped: bool,
}

/// Nesting deeper than this is broken: it bounds the scanner's recursion
/// whatever the input (real index lines nest three levels).
const MAX_DEPTH: usize = 64;

/// Finds the string at `path` in `line`: a JSON object, possibly after
/// other fields (CDXJ's `urlkey timestamp {json}`), followed by nothing
/// but blanks. The object starts at the line's first `{` that begins the
/// line (after blanks) or follows a space: SURT keys and timestamps hold
/// no spaces.
pub(crate) fn locate(line: &[u8], path: &JsonPath) -> Result<Found, JsonError> {
    let start = object_start(line).ok_or(JsonError::Broken)?;
    let mut s = Scanner { b: line, i: start };
    let found = s.object(Some(&path.keys), 0)?;
    s.blanks();
    if s.i != line.len() {
        return Err(JsonError::Broken);
    }
    found.ok_or(JsonError::Missing)
}

fn object_start(line: &[u8]) -> Option<usize> {
    let lead = line.iter().take_while(|&&b| is_blank(b)).count();
    if line.get(lead) == Some(&b'{') {
        return Some(lead);
    }
    memmem::find(line, b" {").map(|i| i + 1)
}

#[inline]
fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

struct Scanner<'a> {
    b: &'a [u8],
    i: usize,
}

impl Scanner<'_> {
    #[inline]
    fn blanks(&mut self) {
        while self.i < self.b.len() && is_blank(self.b[self.i]) {
            self.i += 1;
        }
    }

    #[inline]
    fn eat(&mut self, c: u8) -> Result<(), JsonError> {
        self.blanks();
        if self.b.get(self.i) == Some(&c) {
            self.i += 1;
            Ok(())
        } else {
            Err(JsonError::Broken)
        }
    }

    /// A string, at a `"`: the range of its contents, and whether they
    /// hold an escape.
    fn string(&mut self) -> Result<Found, JsonError> {
        self.eat(b'"')?;
        let start = self.i;
        let mut escaped = false;
        loop {
            let at = self.i + quote_or_backslash(&self.b[self.i..]).ok_or(JsonError::Broken)?;
            if self.b[at] == b'"' {
                self.i = at + 1;
                return Ok(Found {
                    range: start..at,
                    escaped,
                });
            }
            escaped = true;
            self.i = at + 1 + escape_len(&self.b[at + 1..]).ok_or(JsonError::Broken)?;
        }
    }

    /// An object, at a `{`, through its `}`. With `path`, the string at
    /// that path within it, if any. Of duplicate keys the last counts, at
    /// every level of the path, as jq, Python and JavaScript's
    /// `JSON.parse` read them (RFC 8259 section 4 leaves it open): a later
    /// key whose value is no string (or no object, inside the path)
    /// hides an earlier one that had it.
    fn object(
        &mut self,
        path: Option<&[Box<str>]>,
        depth: usize,
    ) -> Result<Option<Found>, JsonError> {
        if depth > MAX_DEPTH {
            return Err(JsonError::Broken);
        }
        self.eat(b'{')?;
        self.blanks();
        if self.b.get(self.i) == Some(&b'}') {
            self.i += 1;
            return Ok(None);
        }
        let mut found = None;
        loop {
            let key = self.string()?;
            self.eat(b':')?;
            self.blanks();
            let wanted = match path {
                Some([first, rest @ ..]) if self.key_is(&key, first) => Some(rest),
                _ => None,
            };
            match wanted {
                Some([]) if self.b.get(self.i) == Some(&b'"') => found = Some(self.string()?),
                Some(rest) if !rest.is_empty() && self.b.get(self.i) == Some(&b'{') => {
                    found = self.object(Some(rest), depth + 1)?;
                }
                Some(_) => {
                    // The key again, with a value that has nothing at the
                    // path: it replaces what an earlier one had.
                    found = None;
                    self.value(depth + 1)?;
                }
                None => self.value(depth + 1)?,
            }
            self.blanks();
            match self.b.get(self.i) {
                Some(b',') => self.i += 1,
                Some(b'}') => {
                    self.i += 1;
                    return Ok(found);
                }
                _ => return Err(JsonError::Broken),
            }
            self.blanks();
        }
    }

    /// Whether the key in `key` is `name`.
    fn key_is(&self, key: &Found, name: &str) -> bool {
        let raw = &self.b[key.range.clone()];
        if !key.escaped {
            return raw == name.as_bytes();
        }
        // Keys with escapes are rare: decoding one may allocate.
        let mut decoded = Vec::new();
        decode(raw, &mut decoded).is_ok() && decoded == name.as_bytes()
    }

    /// Skips any value.
    fn value(&mut self, depth: usize) -> Result<(), JsonError> {
        self.blanks();
        match self.b.get(self.i) {
            Some(b'"') => self.string().map(drop),
            Some(b'{') => self.object(None, depth).map(drop),
            Some(b'[') => self.array(depth),
            Some(_) => self.scalar(),
            None => Err(JsonError::Broken),
        }
    }

    fn array(&mut self, depth: usize) -> Result<(), JsonError> {
        if depth > MAX_DEPTH {
            return Err(JsonError::Broken);
        }
        self.eat(b'[')?;
        self.blanks();
        if self.b.get(self.i) == Some(&b']') {
            self.i += 1;
            return Ok(());
        }
        loop {
            self.value(depth + 1)?;
            self.blanks();
            match self.b.get(self.i) {
                Some(b',') => self.i += 1,
                Some(b']') => {
                    self.i += 1;
                    return Ok(());
                }
                _ => return Err(JsonError::Broken),
            }
        }
    }

    /// A number, `true`, `false` or `null`: checked for its characters
    /// only (a scanner, not a validator, for what the path does not name).
    fn scalar(&mut self) -> Result<(), JsonError> {
        let start = self.i;
        while self.i < self.b.len()
            && matches!(self.b[self.i], b'0'..=b'9' | b'a'..=b'z' | b'+' | b'-' | b'.' | b'E')
        {
            self.i += 1;
        }
        if self.i == start {
            return Err(JsonError::Broken);
        }
        Ok(())
    }
}

/// The first `"` or `\` in `bytes`. Most strings of an index line are
/// short (keys, status codes): a plain loop over the first bytes beats
/// setting up `memchr2`, which takes the long ones (profiles of
/// `--json-field url` on CDXJ: docs/performance-history.md).
#[inline]
fn quote_or_backslash(bytes: &[u8]) -> Option<usize> {
    const SHORT: usize = 24;
    let head = &bytes[..bytes.len().min(SHORT)];
    match head.iter().position(|&b| b == b'"' || b == b'\\') {
        Some(p) => Some(p),
        None if bytes.len() <= SHORT => None,
        None => memchr2(b'"', b'\\', &bytes[SHORT..]).map(|p| p + SHORT),
    }
}

/// The length of the escape after a backslash at the start of `rest`, or
/// `None` if it is not one.
#[inline]
fn escape_len(rest: &[u8]) -> Option<usize> {
    match rest.first()? {
        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => Some(1),
        b'u' if rest.len() >= 5 && rest[1..5].iter().all(u8::is_ascii_hexdigit) => Some(5),
        _ => None,
    }
}

/// Appends the decoded contents of a JSON string, `raw` (between its
/// quotes), to `out`. A lone surrogate (`\ud800` not followed by a low
/// one) is an error: it has no UTF-8 form.
pub(crate) fn decode(raw: &[u8], out: &mut Vec<u8>) -> Result<(), JsonError> {
    let mut rest = raw;
    while let Some(at) = memchr::memchr(b'\\', rest) {
        out.extend_from_slice(&rest[..at]);
        rest = &rest[at + 1..];
        let len = escape_len(rest).ok_or(JsonError::Broken)?;
        let c = match rest[0] {
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let (c, used) = unicode_escape(rest)?;
                rest = &rest[used..];
                out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                continue;
            }
            other => char::from(other),
        };
        out.push(c as u8);
        rest = &rest[len..];
    }
    out.extend_from_slice(rest);
    Ok(())
}

/// The character of `uXXXX` (or a surrogate pair `uXXXX\uXXXX`) at the
/// start of `rest`, and the bytes it took.
fn unicode_escape(rest: &[u8]) -> Result<(char, usize), JsonError> {
    let hex = |b: &[u8]| -> Option<u32> {
        std::str::from_utf8(b.get(..4)?)
            .ok()
            .and_then(|h| u32::from_str_radix(h, 16).ok())
    };
    let high = hex(&rest[1..]).ok_or(JsonError::Broken)?;
    if !(0xD800..0xDC00).contains(&high) {
        return char::from_u32(high)
            .map(|c| (c, 5))
            .ok_or(JsonError::Broken);
    }
    match (rest.get(5..7), rest.get(7..).and_then(hex)) {
        (Some(b"\\u"), Some(low)) if (0xDC00..0xE000).contains(&low) => {
            let c = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
            char::from_u32(c).map(|c| (c, 11)).ok_or(JsonError::Broken)
        }
        _ => Err(JsonError::Broken),
    }
}

/// Escapes `data[start..]` in place as the contents of a JSON string: `"`,
/// `\` and control characters. A URL seldom holds one (the WHATWG
/// serialization percent-encodes them, but not a `"` in an opaque path
/// such as `javascript:f("x")`), so the common case is one scan.
pub(crate) fn escape_in_place(data: &mut Vec<u8>, start: usize) {
    // A fold, not `any`: no early exit, so the compiler vectorizes it
    // (docs/performance-history.md).
    let needs = |b: u8| b == b'"' || b == b'\\' || b < 0x20;
    if !data[start..].iter().fold(false, |acc, &b| acc | needs(b)) {
        return;
    }
    let end = data.len();
    for i in start..end {
        let b = data[i];
        match b {
            b'"' | b'\\' => data.extend_from_slice(&[b'\\', b]),
            0..=0x1F => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                data.extend_from_slice(b"\\u00");
                data.push(HEX[usize::from(b >> 4)]);
                data.push(HEX[usize::from(b & 15)]);
            }
            _ => data.push(b),
        }
    }
    data.drain(start..end);
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn path(s: &str) -> JsonPath {
        s.parse().unwrap()
    }

    fn found<'a>(line: &'a str, p: &str) -> Result<&'a str, JsonError> {
        locate(line.as_bytes(), &path(p)).map(|f| &line[f.range])
    }

    #[test]
    fn cdxj_and_json_lines() {
        let cdxj = r#"com,example)/ 20250802232428 {"url": "http://www.example.com/", "mime": "text/html", "status": "200"}"#;
        assert_eq!(found(cdxj, "url"), Ok("http://www.example.com/"));
        assert_eq!(found(cdxj, "status"), Ok("200"));
        assert_eq!(found(cdxj, "nope"), Err(JsonError::Missing));
        let jsonl = r#" {"a": [1, {"url": "x"}, -2.5e3, true, null], "b": {"c": {"d": "deep"}}, "url": "u"} "#;
        assert_eq!(found(jsonl, "url"), Ok("u"));
        assert_eq!(found(jsonl, "b.c.d"), Ok("deep"));
        // A path through a non-object, or to a non-string, is missing.
        assert_eq!(found(jsonl, "a.url"), Err(JsonError::Missing));
        assert_eq!(found(jsonl, "b.c"), Err(JsonError::Missing));
        // Of duplicate keys the last counts, as jq and Python read them.
        assert_eq!(found(r#"{"url":"a","url":"b"}"#, "url"), Ok("b"));
        assert_eq!(
            found(r#"{"url":"a","url":1}"#, "url"),
            Err(JsonError::Missing)
        );
        assert_eq!(found(r#"{"url":1,"url":"b"}"#, "url"), Ok("b"));
        assert_eq!(
            found(r#"{"a":{"b":"x"},"a":{"c":"y"}}"#, "a.b"),
            Err(JsonError::Missing)
        );
        assert_eq!(
            found(r#"{"a":{"b":"x"},"a":{"b":"y","b":"z"}}"#, "a.b"),
            Ok("z")
        );
        assert_eq!(found(r#"{"a":"s","a":{"b":"y"}}"#, "a.b"), Ok("y"));
        assert_eq!(found(r#"{"u\u0072l":"k"}"#, "url"), Ok("k"));
        assert_eq!(found("{}", "url"), Err(JsonError::Missing));
    }

    #[test]
    fn broken_objects() {
        for line in [
            "",
            "http://a.example/",
            "k 1 {\"url\": \"x\"",
            "{\"url\": \"x}",
            "{\"url\" \"x\"}",
            "{\"url\": \"x\",}",
            "{\"url\": \"x\"} trailing",
            "{\"url\": \"x\\q\"}",
            "{\"url\": \"x\\u12\"}",
            "{\"a\": [1,}",
            "{\"a\": }",
            "{url: \"x\"}",
        ] {
            assert_eq!(found(line, "url"), Err(JsonError::Broken), "{line}");
        }
        let deep = format!("{}{}", "[".repeat(100), "]".repeat(100));
        assert_eq!(
            found(&format!("{{\"a\": {deep}}}"), "url"),
            Err(JsonError::Broken)
        );
    }

    #[test]
    fn escapes() {
        let mut out = Vec::new();
        decode(br#"a\"b\\c\/d\n\u00e9\ud83d\ude00"#, &mut out).unwrap();
        assert_eq!(out, "a\"b\\c/d\né😀".as_bytes());
        assert_eq!(decode(br"\ud800", &mut Vec::new()), Err(JsonError::Broken));
        assert_eq!(
            decode(br"\ud800\u0041", &mut Vec::new()),
            Err(JsonError::Broken)
        );
        let mut data = b"keep".to_vec();
        data.extend_from_slice(b"javascript:f(\"x\\y\")\x01");
        escape_in_place(&mut data, 4);
        assert_eq!(data, br#"keepjavascript:f(\"x\\y\")\u0001"#);
    }

    proptest! {
        #[test]
        fn quote_or_backslash_is_memchr2(bytes in prop::collection::vec(prop::sample::select(b"aaaaaaaaaaaaaaaaaaaaaaaaaaaaab\"\\".to_vec()), 0..80)) {
            prop_assert_eq!(quote_or_backslash(&bytes), memchr2(b'"', b'\\', &bytes));
        }

        /// Escaping then decoding gives the text back, and serde_json reads
        /// the escaped form as that text.
        #[test]
        fn escape_round_trips(text in "\\PC*|[\"\\\\\u{0}-\u{1f}a]*") {
            let mut data = b"x".to_vec();
            data.extend_from_slice(text.as_bytes());
            escape_in_place(&mut data, 1);
            let mut back = Vec::new();
            decode(&data[1..], &mut back).unwrap();
            prop_assert_eq!(&back, text.as_bytes());
            let quoted = format!("\"{}\"", std::str::from_utf8(&data[1..]).unwrap());
            prop_assert_eq!(serde_json::from_str::<String>(&quoted).unwrap(), text);
        }

        /// On any object serde_json writes, the scanner finds what serde_json
        /// finds at the path.
        #[test]
        fn agrees_with_serde_json(
            url in "\\PC*",
            other in "[a-z\"\\\\/]{0,8}",
            nested in any::<bool>(),
            n in any::<i32>(),
        ) {
            let value = if nested {
                serde_json::json!({"n": n, "x": [other, {"url": 1}], "a": {"b": {"url": url}}})
            } else {
                serde_json::json!({"n": n, "x": other, "url": url, "z": null})
            };
            let line = format!("key 2024 {value}");
            let p = if nested { "a.b.url" } else { "url" };
            let f = locate(line.as_bytes(), &path(p)).unwrap();
            let mut decoded = Vec::new();
            decode(&line.as_bytes()[f.range.clone()], &mut decoded).unwrap();
            prop_assert_eq!(decoded, url.as_bytes());
            prop_assert_eq!(f.escaped, line[f.range].contains('\\'));
        }
    }
}
