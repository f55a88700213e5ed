//! `normurl warc --post-append`: the query that pywb's `cdxj-indexer -p`
//! (its `postquery.py`, 1.5.0) appends to the URL of a POST or PUT request
//! and its response before the urlkey is made, so that requests to one
//! URL with different bodies get different keys:
//! `?__wb_method=POST&BODY-QUERY` (`&` when the URL has a query).
//!
//! The body (at most `Content-Length` bytes of it, 8192 without one) is
//! turned into a query by its `Content-Type` (compared as written, case
//! and all):
//! - `application/x-www-form-urlencoded`: the body decoded as Python's
//!   `unquote_plus` does (`+` a space, `%XX` bytes, UTF-8 with U+FFFD for
//!   bad bytes); a body that is not UTF-8 is binary;
//! - `multipart/…` with a `boundary=`: each part `name=value` (a file
//!   part's raw bytes), percent-encoded as Python's `urlencode`;
//! - `application/json`: the JSON's scalar values by the key they stand
//!   under (`a.2_` for the second `a`), `urlencode`d; or, when it does not
//!   parse as one document, as one document per line; nothing if neither
//!   parses;
//! - `text/plain`: as JSON, or binary when that fails;
//! - anything else (and `application/x-amf`, which pywb decodes and this
//!   does not): binary, `__wb_post_data=` and the body in base64.
//!
//! The query is cut to 4096 characters.

use std::collections::HashMap;

/// The longest query kept, in characters (pywb's `MAX_QUERY_LENGTH`).
pub const MAX_QUERY_LENGTH: usize = 4096;

/// The bytes read of a body without `Content-Length`.
const NO_LENGTH_READ: usize = 8192;

/// What `--post-append` gives for a POST or PUT request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MethodQuery {
    /// The body as a query (pywb's `requestBody`); `None` where the
    /// request's `Content-Length` is no number (pywb writes `null`).
    pub query: Option<String>,
    /// What is appended to the URL: `?__wb_method=METHOD` (or `&…`), then
    /// `&` and the query if there is one.
    pub append: String,
}

/// The request head fields the query needs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RequestHead<'a> {
    /// The request line's first word, as written (`POST`).
    pub method: &'a str,
    /// The first `Content-Type`.
    pub content_type: Option<&'a str>,
    /// The first `Content-Length`.
    pub content_length: Option<&'a str>,
}

/// pywb's `append_method_query`: the query of `body` (the request's
/// payload, de-chunked) and what is appended to `url`. The body is read
/// only for the methods `POST` and `PUT` spelled so.
pub fn method_query(head: &RequestHead<'_>, body: &[u8], url: &str) -> MethodQuery {
    let query = if head.method == "POST" || head.method == "PUT" {
        query_extract(head.content_type, head.content_length, body)
    } else {
        Some(String::new())
    };
    let mut append = String::from(if url.contains('?') { "&" } else { "?" });
    append.push_str("__wb_method=");
    append.push_str(head.method);
    if let Some(q) = query.as_deref().filter(|q| !q.is_empty()) {
        append.push('&');
        append.push_str(q);
    }
    MethodQuery { query, append }
}

/// pywb's `query_extract`.
fn query_extract(mime: Option<&str>, length: Option<&str>, body: &[u8]) -> Option<String> {
    let length = match length {
        None => NO_LENGTH_READ as i128,
        Some(text) => py_int(text)?,
    };
    let data = &body[..usize::try_from(length.max(0))
        .unwrap_or(usize::MAX)
        .min(body.len())];
    let mime = mime.unwrap_or("");
    let mut query = if mime.starts_with("application/x-www-form-urlencoded") {
        match std::str::from_utf8(data) {
            Ok(text) => unquote_plus(text),
            Err(_) => binary(data),
        }
    } else if mime.starts_with("multipart/") {
        match mime.split("boundary=").nth(1) {
            Some(boundary) => multipart(data, boundary).unwrap_or_else(|| binary(data)),
            None => binary(data),
        }
    } else if mime.starts_with("application/json") {
        json_query(data).unwrap_or_default()
    } else if mime.starts_with("text/plain") {
        json_query(data).unwrap_or_else(|| binary(data))
    } else {
        binary(data)
    };
    if let Some((cut, _)) = query.char_indices().nth(MAX_QUERY_LENGTH) {
        query.truncate(cut);
    }
    Some(query)
}

/// Python's `int(text)` for a decimal: white space around, a sign, `_`
/// between digits; `None` where it raises.
fn py_int(text: &str) -> Option<i128> {
    let t = text.trim_matches(super::head::py_space);
    let (negative, digits) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let bytes = digits.as_bytes();
    let well_formed = !bytes.is_empty()
        && bytes[0].is_ascii_digit()
        && bytes[bytes.len() - 1].is_ascii_digit()
        && bytes.iter().all(|b| b.is_ascii_digit() || *b == b'_')
        && !digits.contains("__");
    if !well_formed {
        return None;
    }
    // Lengths beyond i128 are as good as infinite.
    let value = digits
        .bytes()
        .filter(u8::is_ascii_digit)
        .fold(0i128, |v, d| {
            v.saturating_mul(10).saturating_add(i128::from(d - b'0'))
        });
    Some(if negative { -value } else { value })
}

/// `__wb_post_data=` and the base64 of `data`.
fn binary(data: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(15 + data.len().div_ceil(3) * 4);
    out.push_str("__wb_post_data=");
    for chunk in data.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Python's `urllib.parse.unquote_plus`: `+` is a space, `%XX` a byte
/// (other `%` stay), the bytes UTF-8 with U+FFFD for what is not.
pub fn unquote_plus(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) else {
                    out.push(b'%');
                    i += 1;
                    continue;
                };
                out.push(h << 4 | l);
                i += 3;
                continue;
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn hex(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// Python's `quote_plus` of `bytes` into `out`: letters, digits and
/// `_.-~` as they are, a space `+`, every other byte `%XX`.
fn quote_plus(bytes: &[u8], out: &mut String) {
    for &b in bytes {
        match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'_' | b'.' | b'-' | b'~' => {
                out.push(char::from(b));
            }
            b' ' => out.push('+'),
            _ => {
                const HEX: &[u8; 16] = b"0123456789ABCDEF";
                out.push('%');
                out.push(char::from(HEX[usize::from(b >> 4)]));
                out.push(char::from(HEX[usize::from(b & 15)]));
            }
        }
    }
}

/// Python's `urlencode` of `pairs` (each `quote_plus`ed).
fn urlencode<'a>(pairs: impl IntoIterator<Item = (&'a [u8], &'a [u8])>) -> String {
    let mut out = String::new();
    for (i, (k, v)) in pairs.into_iter().enumerate() {
        if i > 0 {
            out.push('&');
        }
        quote_plus(k, &mut out);
        out.push('=');
        quote_plus(v, &mut out);
    }
    out
}

/// The query of a `multipart/form-data` body, as the `multipart`
/// package (2.0) parses it: each part's `name` and its value (decoded
/// UTF-8), or its raw bytes if it has a `filename`. `None` for what that
/// parser rejects (cdxj-indexer stops there) and for what this one does
/// not read: a part's own `Content-Length` or a charset other than UTF-8.
fn multipart(data: &[u8], boundary: &str) -> Option<String> {
    if boundary.is_empty() || boundary.contains('\n') {
        return None;
    }
    let mut delimiter = b"\r\n--".to_vec();
    delimiter.extend_from_slice(boundary.as_bytes());
    // The first delimiter: at the start, or after a preamble ending in CRLF.
    let first = memchr::memmem::find(data, &delimiter[2..])?;
    if first > 0 && (first < 2 || &data[first - 2..first] != b"\r\n") {
        return None;
    }
    let mut at = first + delimiter.len() - 2;
    match data.get(at..at + 2)? {
        b"--" => return Some(String::new()),
        b"\r\n" => at += 2,
        _ => return None,
    }
    let mut parts: Vec<(String, Vec<u8>)> = Vec::new();
    loop {
        if parts.len() >= 128 {
            return None;
        }
        // The part's header lines, to an empty line.
        let (mut name, mut filename, mut utf8, mut disposition) = (None, None, true, None);
        let mut headers = 0;
        loop {
            let nl = memchr::memmem::find(&data[at..], b"\r\n")? + at;
            let line = &data[at..nl];
            at = nl + 2;
            if line.is_empty() {
                break;
            }
            headers += 1;
            if headers > 8
                || line.len() > 4224
                || line.contains(&b'\n')
                || line[0] == b' '
                || line[0] == b'\t'
            {
                return None;
            }
            let line = std::str::from_utf8(line).ok()?;
            let (field, value) = line.split_once(':')?;
            let field = if matches!(field, "Content-Disposition" | "Content-Type") {
                field.to_string()
            } else {
                title(field.trim())?
            };
            let value = value.trim_start_matches([' ', '\t']);
            match field.as_str() {
                "Content-Disposition" => {
                    let (kind, n, f) = content_disposition(value)?;
                    disposition = Some(kind);
                    name = n;
                    filename = f;
                }
                "Content-Type" => {
                    utf8 = match charset(value) {
                        None => true,
                        Some(c) => matches!(c.as_str(), "utf8" | "utf-8" | "UTF-8" | "UTF8"),
                    };
                }
                "Content-Length" => return None,
                _ => {}
            }
        }
        if disposition.as_deref() != Some("form-data") {
            return None;
        }
        let end = memchr::memmem::find(&data[at..], &delimiter)? + at;
        let raw = data[at..end].to_vec();
        at = end + delimiter.len();
        let name = name.unwrap_or_default();
        let value = if filename.is_some() {
            raw
        } else {
            if !utf8 {
                return None;
            }
            std::str::from_utf8(&raw).ok()?;
            raw
        };
        parts.push((name, value));
        match data.get(at..at + 2)? {
            b"--" => break,
            b"\r\n" => at += 2,
            _ => return None,
        }
    }
    Some(urlencode(
        parts.iter().map(|(k, v)| (k.as_bytes(), v.as_slice())),
    ))
}

/// Python's `str.title` for a header name of token characters; `None`
/// for a name the `multipart` package rejects.
fn title(name: &str) -> Option<String> {
    let ok = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b));
    if !ok {
        return None;
    }
    let mut out = String::with_capacity(name.len());
    let mut start = true;
    for c in name.chars() {
        out.push(if start {
            c.to_ascii_uppercase()
        } else {
            c.to_ascii_lowercase()
        });
        start = !c.is_ascii_alphabetic();
    }
    Some(out)
}

/// The `charset` parameter of a part's `Content-Type`, if the value is
/// simple enough to read (`type; charset=NAME`).
fn charset(value: &str) -> Option<String> {
    let (_, params) = value.split_once(';')?;
    params.split(';').find_map(|p| {
        let (k, v) = p.split_once('=')?;
        k.trim()
            .eq_ignore_ascii_case("charset")
            .then(|| v.trim().trim_matches('"').to_string())
    })
}

/// The disposition, name and filename of a part's `Content-Disposition`,
/// in the forms browsers write (`form-data; name="a"`, and `;
/// filename="b"` after it), which is the `multipart` package's fast path;
/// `None` for other forms.
#[allow(clippy::type_complexity)]
fn content_disposition(value: &str) -> Option<(String, Option<String>, Option<String>)> {
    let split: Vec<&str> = value.splitn(5, '"').collect();
    if split[0] != "form-data; name=" || split.last() != Some(&"") {
        return None;
    }
    let unquote = |v: &str| {
        if v.contains('%') {
            v.replace("%0D", "\r")
                .replace("%0A", "\n")
                .replace("%22", "\"")
        } else {
            v.to_string()
        }
    };
    match split.len() {
        3 => Some(("form-data".into(), Some(unquote(split[1])), None)),
        5 if split[2] == "; filename=" => {
            if split[3].contains('\\') {
                return None;
            }
            Some((
                "form-data".into(),
                Some(unquote(split[1])),
                Some(unquote(split[3])),
            ))
        }
        _ => None,
    }
}

/// A JSON value as Python's `json.loads` gives it, as far as pywb's
/// `json_parse` looks at it.
enum Json {
    Object(Vec<(JsonString, Json)>),
    Array(Vec<Json>),
    /// A scalar's `str()`; `None` for a string holding a lone surrogate
    /// (which `urlencode` cannot encode: pywb's query is then empty).
    Scalar(Option<String>),
}

/// A string, `None` when it holds a lone surrogate.
type JsonString = Option<String>;

/// Why a JSON body gave no query.
#[derive(Debug, PartialEq, Eq)]
enum JsonError {
    /// Python's `JSONDecodeError`: pywb then tries the lines.
    Syntax,
    /// Anything else (bytes that are not UTF-8, too deep, an integer of
    /// more than 4300 digits): no query.
    Other,
}

/// pywb's `json_parse` of `data`: the scalars of the JSON by their key,
/// `urlencode`d; `None` where it raises.
fn json_query(data: &[u8]) -> Option<String> {
    let mut flat = Flat::default();
    match parse_json(data) {
        Ok(value) => flat.add(&value, None)?,
        Err(JsonError::Syntax) if data.contains(&b'\n') => {
            for line in data.split(|&b| b == b'\n') {
                flat.add(&parse_json(line).ok()?, None)?;
            }
        }
        Err(_) => return None,
    }
    Some(urlencode(
        flat.data.iter().map(|(k, v)| (k.as_bytes(), v.as_bytes())),
    ))
}

/// pywb's `data` dict and its `dupes` counts.
#[derive(Default)]
struct Flat {
    data: Vec<(String, String)>,
    index: HashMap<String, usize>,
    dupes: HashMap<String, u64>,
}

impl Flat {
    /// pywb's `_parser`; `None` where `urlencode` would fail.
    fn add(&mut self, value: &Json, name: Option<&JsonString>) -> Option<()> {
        match value {
            Json::Object(items) => {
                for (k, v) in items {
                    self.add(v, Some(k))?;
                }
            }
            Json::Array(items) => {
                for v in items {
                    self.add(v, name)?;
                }
            }
            Json::Scalar(text) => {
                // `elif name:`: only under a non-empty key.
                let Some(name) = name else { return Some(()) };
                if name.as_deref() == Some("") {
                    return Some(());
                }
                let (name, text) = (name.as_deref()?, text.as_deref()?);
                let key = if self.index.contains_key(name) {
                    let n = self.dupes.entry(name.to_string()).or_insert(1);
                    *n += 1;
                    format!("{name}.{n}_")
                } else {
                    name.to_string()
                };
                match self.index.get(&key) {
                    Some(&i) => self.data[i].1 = text.to_string(),
                    None => {
                        self.index.insert(key.clone(), self.data.len());
                        self.data.push((key, text.to_string()));
                    }
                }
            }
        }
        Some(())
    }
}

/// The deepest nesting read (Python stops near its recursion limit).
const MAX_DEPTH: usize = 900;

/// Python's `json.loads(bytes)` for UTF-8 input (a BOM allowed).
fn parse_json(data: &[u8]) -> Result<Json, JsonError> {
    let data = data.strip_prefix(b"\xef\xbb\xbf").unwrap_or(data);
    // UTF-16 and UTF-32, which Python detects by their zero bytes, are
    // not read.
    if data.len() >= 2 && (data[0] == 0 || data[1] == 0) {
        return Err(JsonError::Other);
    }
    let text = std::str::from_utf8(data).map_err(|_| JsonError::Other)?;
    let mut p = Parser {
        s: text.as_bytes(),
        at: 0,
        depth: 0,
    };
    p.ws();
    let value = p.value()?;
    p.ws();
    if p.at != p.s.len() {
        return Err(JsonError::Syntax);
    }
    Ok(value)
}

struct Parser<'a> {
    s: &'a [u8],
    at: usize,
    depth: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while matches!(self.s.get(self.at), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn eat(&mut self, word: &[u8]) -> bool {
        if self.s[self.at..].starts_with(word) {
            self.at += word.len();
            true
        } else {
            false
        }
    }

    fn value(&mut self) -> Result<Json, JsonError> {
        let scalar = |s: &str| Ok(Json::Scalar(Some(s.to_string())));
        match self.s.get(self.at) {
            Some(b'{') => self.nested(true),
            Some(b'[') => self.nested(false),
            Some(b'"') => Ok(Json::Scalar(self.string()?)),
            _ if self.eat(b"true") => scalar("True"),
            _ if self.eat(b"false") => scalar("False"),
            _ if self.eat(b"null") => scalar("None"),
            _ if self.eat(b"NaN") => scalar("nan"),
            _ if self.eat(b"Infinity") => scalar("inf"),
            _ if self.eat(b"-Infinity") => scalar("-inf"),
            _ => self.number(),
        }
    }

    fn nested(&mut self, object: bool) -> Result<Json, JsonError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(JsonError::Other);
        }
        self.at += 1;
        let close = if object { b'}' } else { b']' };
        let (mut items, mut values) = (Vec::new(), Vec::new());
        self.ws();
        if self.s.get(self.at) == Some(&close) {
            self.at += 1;
        } else {
            loop {
                if object {
                    if self.s.get(self.at) != Some(&b'"') {
                        return Err(JsonError::Syntax);
                    }
                    let key = self.string()?;
                    self.ws();
                    if !self.eat(b":") {
                        return Err(JsonError::Syntax);
                    }
                    self.ws();
                    let value = self.value()?;
                    // A repeated key keeps its first place and takes the
                    // last value, as a Python dict does.
                    match items.iter_mut().find(|(k, _)| *k == key) {
                        Some((_, v)) => *v = value,
                        None => items.push((key, value)),
                    }
                } else {
                    values.push(self.value()?);
                }
                self.ws();
                match self.s.get(self.at) {
                    Some(b',') => {
                        self.at += 1;
                        self.ws();
                    }
                    Some(&c) if c == close => {
                        self.at += 1;
                        break;
                    }
                    _ => return Err(JsonError::Syntax),
                }
            }
        }
        self.depth -= 1;
        Ok(if object {
            Json::Object(items)
        } else {
            Json::Array(values)
        })
    }

    /// A string at `"`; `None` inside when it holds a lone surrogate.
    fn string(&mut self) -> Result<JsonString, JsonError> {
        self.at += 1;
        let mut out = String::new();
        let mut lone = false;
        loop {
            let start = self.at;
            while matches!(self.s.get(self.at), Some(&c) if c != b'"' && c != b'\\' && c >= 0x20) {
                self.at += 1;
            }
            // Between ASCII delimiters: whole UTF-8 sequences.
            out.push_str(
                std::str::from_utf8(&self.s[start..self.at]).map_err(|_| JsonError::Other)?,
            );
            match self.s.get(self.at) {
                Some(b'"') => {
                    self.at += 1;
                    return Ok((!lone).then_some(out));
                }
                Some(b'\\') => {
                    self.at += 1;
                    let c = *self.s.get(self.at).ok_or(JsonError::Syntax)?;
                    self.at += 1;
                    match c {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let unit = self.hex4()?;
                            if (0xd800..0xdc00).contains(&unit)
                                && self.s[self.at..].starts_with(b"\\u")
                            {
                                let save = self.at;
                                self.at += 2;
                                let low = self.hex4()?;
                                if (0xdc00..0xe000).contains(&low) {
                                    let c = 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
                                    out.push(char::from_u32(c).unwrap_or('\u{fffd}'));
                                    continue;
                                }
                                self.at = save;
                            }
                            match char::from_u32(unit) {
                                Some(c) => out.push(c),
                                None => lone = true,
                            }
                        }
                        _ => return Err(JsonError::Syntax),
                    }
                }
                // The end, or a control character (Python's strict mode).
                _ => return Err(JsonError::Syntax),
            }
        }
    }

    fn hex4(&mut self) -> Result<u32, JsonError> {
        let digits = self.s.get(self.at..self.at + 4).ok_or(JsonError::Syntax)?;
        let mut v = 0;
        for &d in digits {
            v = v << 4 | u32::from(hex(d).ok_or(JsonError::Syntax)?);
        }
        self.at += 4;
        Ok(v)
    }

    /// A number as Python's scanner reads it (`-?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?`),
    /// as its `str()`: an integer as written (`-0` is `0`), else a float's
    /// `repr`.
    fn number(&mut self) -> Result<Json, JsonError> {
        let start = self.at;
        let digits = |p: &mut Self| {
            let from = p.at;
            while p.s.get(p.at).is_some_and(u8::is_ascii_digit) {
                p.at += 1;
            }
            p.at - from
        };
        self.eat(b"-");
        match self.s.get(self.at) {
            Some(b'0') => self.at += 1,
            Some(b'1'..=b'9') => {
                digits(self);
            }
            _ => return Err(JsonError::Syntax),
        }
        let int_end = self.at;
        let mut float = false;
        if self.s.get(self.at) == Some(&b'.')
            && self.s.get(self.at + 1).is_some_and(u8::is_ascii_digit)
        {
            self.at += 1;
            digits(self);
            float = true;
        }
        if matches!(self.s.get(self.at), Some(b'e' | b'E')) {
            let save = self.at;
            self.at += 1;
            if matches!(self.s.get(self.at), Some(b'+' | b'-')) {
                self.at += 1;
            }
            if digits(self) == 0 {
                self.at = save;
            } else {
                float = true;
            }
        }
        let text = std::str::from_utf8(&self.s[start..self.at]).map_err(|_| JsonError::Other)?;
        if !float {
            let body = text.trim_start_matches('-');
            if body.len() > 4300 {
                return Err(JsonError::Other);
            }
            debug_assert_eq!(int_end, self.at);
            let s = if body == "0" { "0" } else { text };
            return Ok(Json::Scalar(Some(s.to_string())));
        }
        let value: f64 = text.parse().map_err(|_| JsonError::Syntax)?;
        Ok(Json::Scalar(Some(py_float_repr(value))))
    }
}

/// Python's `repr` of a float: the shortest digits that read back,
/// written plainly (with `.0` if integral) when the exponent is from -4 to
/// 15, else as `d.ddde+XX`.
fn py_float_repr(v: f64) -> String {
    if v.is_nan() {
        return "nan".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "inf".into() } else { "-inf".into() };
    }
    // Rust's `{:e}` gives the shortest round-trip digits: `-1.5e-7`.
    let sci = format!("{v:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let (sign, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => ("-", m),
        None => ("", mantissa),
    };
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    if (-4..16).contains(&exp) {
        let point = exp + 1;
        let mut out = String::from(sign);
        if point <= 0 {
            out.push_str("0.");
            out.extend(std::iter::repeat_n('0', (-point) as usize));
            out.push_str(&digits);
        } else if point as usize >= digits.len() {
            out.push_str(&digits);
            out.extend(std::iter::repeat_n('0', point as usize - digits.len()));
            out.push_str(".0");
        } else {
            out.push_str(&digits[..point as usize]);
            out.push('.');
            out.push_str(&digits[point as usize..]);
        }
        out
    } else {
        let mut out = String::from(sign);
        out.push_str(&digits[..1]);
        if digits.len() > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        let e_sign = if exp < 0 { '-' } else { '+' };
        out.push_str(&format!("e{e_sign}{:02}", exp.abs()));
        out
    }
}

/// The payload of a request sent with `Transfer-Encoding: chunked`, as
/// warcio's `ChunkedDataReader` de-chunks it: chunk by chunk until the
/// zero-size one; where a size line (`HEX[;ext]CRLF`, read up to 64
/// bytes) or a chunk's CRLF is not there, the rest is taken as it is (the
/// size line with it, the chunk without the two bytes read for its CRLF).
pub fn dechunk(raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(raw.len());
    let mut at = 0;
    loop {
        // readline(64): to a newline, at most 64 bytes.
        let window = &raw[at..raw.len().min(at + 64)];
        let line = &window[..memchr::memchr(b'\n', window).map_or(window.len(), |i| i + 1)];
        let size = line
            .strip_suffix(b"\r\n")
            .and_then(|l| {
                let hex_part = l.split(|&b| b == b';').next().unwrap_or(l);
                py_hex(std::str::from_utf8(hex_part).ok()?)
            })
            .filter(|&n| n <= 1 << 31);
        let Some(size) = size else {
            out.extend_from_slice(&raw[at..]);
            return out;
        };
        at += line.len();
        // A negative size reads no data and then wants its CRLF, as 0
        // does (Python's loop does not run).
        let want = usize::try_from(size).unwrap_or(0);
        let end = raw.len().min(at + want);
        let chunk = &raw[at..end];
        at = end;
        if chunk.len() < want {
            // Cut off: what there is, and the end.
            out.extend_from_slice(chunk);
            return out;
        }
        let crlf = &raw[at..raw.len().min(at + 2)];
        at += crlf.len();
        if crlf != b"\r\n" {
            // The size line and the chunk as they are, the two bytes read
            // for the CRLF lost, the rest as it is.
            out.extend_from_slice(line);
            out.extend_from_slice(chunk);
            out.extend_from_slice(&raw[at..]);
            return out;
        }
        if size == 0 {
            return out;
        }
        out.extend_from_slice(chunk);
    }
}

/// Python's `int(text, 16)`.
fn py_hex(text: &str) -> Option<i64> {
    let t = text.trim_matches(super::head::py_space);
    let (negative, rest) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let rest = rest
        .strip_prefix("0x")
        .or_else(|| rest.strip_prefix("0X"))
        .map(|r| r.strip_prefix('_').unwrap_or(r))
        .unwrap_or(rest);
    let bytes = rest.as_bytes();
    let ok = !bytes.is_empty()
        && bytes[0].is_ascii_hexdigit()
        && bytes[bytes.len() - 1].is_ascii_hexdigit()
        && bytes.iter().all(|b| b.is_ascii_hexdigit() || *b == b'_')
        && !rest.contains("__");
    if !ok {
        return None;
    }
    let mut v: i64 = 0;
    for b in bytes.iter().filter(|b| **b != b'_') {
        v = v.saturating_mul(16).saturating_add(i64::from(hex(*b)?));
    }
    Some(if negative { -v } else { v })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(mime: &str, length: Option<&str>, body: &[u8]) -> Option<String> {
        query_extract(Some(mime), length, body)
    }

    #[test]
    fn appended_to_the_url() {
        let head = RequestHead {
            method: "POST",
            content_type: Some("application/x-www-form-urlencoded"),
            content_length: Some("7"),
        };
        let q = method_query(&head, b"a=1&b=2", "http://example.com/p");
        assert_eq!(q.query.as_deref(), Some("a=1&b=2"));
        assert_eq!(q.append, "?__wb_method=POST&a=1&b=2");
        let q = method_query(&head, b"", "http://example.com/p?x=1");
        assert_eq!(q.append, "&__wb_method=POST");
        assert_eq!(q.query.as_deref(), Some(""));
        let bad = RequestHead {
            content_length: Some("seven"),
            ..head.clone()
        };
        let q = method_query(&bad, b"a=1", "http://example.com/");
        assert_eq!((q.query, q.append.as_str()), (None, "?__wb_method=POST"));
        // Any other spelling: no body read.
        let lower = RequestHead {
            method: "post",
            ..head
        };
        let q = method_query(&lower, b"a=1", "http://example.com/");
        assert_eq!(q.append, "?__wb_method=post");
    }

    #[test]
    fn body_kinds() {
        let form = "application/x-www-form-urlencoded; charset=UTF-8";
        assert_eq!(
            query(form, None, b"q=a+b%20c%C3%A9%zz%").unwrap(),
            "q=a b c\u{e9}%zz%"
        );
        assert_eq!(query(form, Some("3"), b"q=abc").unwrap(), "q=a");
        assert_eq!(
            query(form, Some(" +1_0 "), b"q=abcdefghijk").unwrap(),
            "q=abcdefgh"
        );
        assert_eq!(query(form, Some("-1"), b"q=abc").unwrap(), "");
        assert_eq!(query(form, None, b"\xff").unwrap(), "__wb_post_data=/w==");
        assert_eq!(
            query("image/png", None, b"\x89PNG").unwrap(),
            "__wb_post_data=iVBORw=="
        );
        assert_eq!(query("", None, b"ab").unwrap(), "__wb_post_data=YWI=");
        let json = "application/json";
        assert_eq!(
            query(
                json,
                None,
                br#"{"a": 1, "b": [true, null, 1.5e20, "x y"], "c": {"a": "z"}, "": 3}"#
            )
            .unwrap(),
            "a=1&b=True&b.2_=None&b.3_=1.5e%2B20&b.4_=x+y&a.2_=z"
        );
        assert_eq!(
            query(json, None, b"{\"a\": 1}\n{\"b\": 2}").unwrap(),
            "a=1&b=2"
        );
        assert_eq!(query(json, None, b"{\"a\": 1}\n{\"b\": 2}\n").unwrap(), "");
        assert_eq!(query(json, None, b"nope").unwrap(), "");
        assert_eq!(
            query("text/plain", None, b"nope").unwrap(),
            "__wb_post_data=bm9wZQ=="
        );
        assert_eq!(
            query("text/plain", None, b"[1, {\"k\": -0}]").unwrap(),
            "k=0"
        );
        let long = vec![b'a'; 10_000];
        assert_eq!(
            query("x/y", None, &long).unwrap().chars().count(),
            MAX_QUERY_LENGTH
        );
    }

    #[test]
    fn multipart_forms() {
        let body = b"--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\none two\r\n\
--XyZ\r\nContent-Disposition: form-data; name=\"f\"; filename=\"x.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n\x00\xff\r\n--XyZ--\r\n";
        assert_eq!(
            query("multipart/form-data; boundary=XyZ", None, body).unwrap(),
            "a=one+two&f=%00%FF"
        );
        // No boundary, or one not found: binary.
        assert!(query("multipart/form-data", None, body)
            .unwrap()
            .starts_with("__wb_post_data="));
        assert!(query("multipart/form-data; boundary=Q", None, body)
            .unwrap()
            .starts_with("__wb_post_data="));
    }

    #[test]
    fn python_floats() {
        for (v, s) in [
            (1.0, "1.0"),
            (1e16, "1e+16"),
            (1.5e16, "1.5e+16"),
            (1e15, "1000000000000000.0"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (-2.5e-7, "-2.5e-07"),
            (123.456, "123.456"),
            (-0.0, "-0.0"),
            (1e300, "1e+300"),
            (0.1, "0.1"),
        ] {
            assert_eq!(py_float_repr(v), s, "{v}");
        }
    }

    #[test]
    fn chunked_bodies() {
        assert_eq!(
            dechunk(b"3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\nrest"),
            b"abcde"
        );
        // Not chunked after all: as it is.
        assert_eq!(dechunk(b"a=1&b=2"), b"a=1&b=2");
        // A chunk without its CRLF: the size line and the chunk as they
        // are, the two bytes read for the CRLF lost.
        assert_eq!(dechunk(b"2\r\nabXYcd"), b"2\r\nabcd");
        assert_eq!(dechunk(b"0\r\nXYz"), b"0\r\nz");
        // Cut off.
        assert_eq!(dechunk(b"5\r\nab"), b"ab");
    }
}
