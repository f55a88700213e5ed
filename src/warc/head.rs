//! What a CDX line takes from a record's block: the HTTP status line and
//! `Content-Type` of its HTTP head, and the SHA-1 of its payload, read in
//! one pass over the block in bounded memory whatever its size.
//!
//! The head is read as warcio's `StatusAndHeadersParser` reads it without
//! verification (pywb's `cdxj-indexer` runs it so): lines end at `\n` and
//! lose trailing whitespace, each is UTF-8 or else ISO-8859-1, a line
//! without `:` is no header, a line starting with a space or tab continues
//! the header before it, and the first line that is empty after that ends
//! the head. The payload is everything after it, as it is in the record
//! (still chunked or compressed if it was sent so): warcio's
//! `ensure_digest` hashes that, not the decoded body.

use std::io::{self, BufRead};

use sha1::{Digest, Sha1};

/// The longest head line kept; the rest of a longer line is read and
/// dropped, so that a record's head never takes more memory.
const MAX_LINE: usize = 64 << 10;

/// A record's HTTP head, as far as a CDX line needs it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HttpHead {
    /// The status line after the protocol (`200 OK`), trimmed; empty when
    /// the line has no space.
    pub status_line: String,
    /// The first word of the first line (warcio's `protocol`): a
    /// request's method, a response's `HTTP/1.1`.
    pub protocol: String,
    /// The first `Content-Type` header's value, with its continuation
    /// lines.
    pub content_type: Option<String>,
    /// The first `Content-Length`, likewise (for `--post-append`).
    pub content_length: Option<String>,
    /// The first `Transfer-Encoding`, likewise (for `--post-append`).
    pub transfer_encoding: Option<String>,
    /// Whether the head has a status line or any header (warcio's
    /// `bool(http_headers)`): without, the record has no head for the
    /// `status` and `mime` fields.
    pub present: bool,
}

impl HttpHead {
    /// The status code: the status line's first word (`200`), as
    /// warcio's `get_statuscode` takes it.
    pub fn status(&self) -> &str {
        self.status_line
            .split(' ')
            .next()
            .unwrap_or(&self.status_line)
    }
}

/// Python's `str.isspace`, which `strip` and the regular expression `\s`
/// use: Unicode white space and the four separators U+001C to U+001F.
pub fn py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Bytes as text the way warcio decodes a header line: UTF-8 if they are,
/// else ISO-8859-1.
pub fn header_text(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => bytes.iter().map(|&b| char::from(b)).collect(),
    }
}

/// Reads a line (to its `\n`, included) into `line`, keeping at most
/// [`MAX_LINE`] bytes; returns the bytes taken from `r` (0 at the end).
fn read_line_capped(r: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<usize> {
    line.clear();
    let mut taken = 0;
    loop {
        let buf = r.fill_buf()?;
        if buf.is_empty() {
            return Ok(taken);
        }
        let (n, done) = match memchr::memchr(b'\n', buf) {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        let room = MAX_LINE.saturating_sub(line.len());
        line.extend_from_slice(&buf[..n.min(room)]);
        r.consume(n);
        taken += n;
        if done {
            return Ok(taken);
        }
    }
}

/// A decoded line without its trailing white space.
fn stripped(line: &[u8]) -> String {
    let mut text = header_text(line);
    let keep = text.trim_end_matches(py_space).len();
    text.truncate(keep);
    text
}

/// Reads an HTTP head from the start of `r` (a record's block), leaving
/// `r` at the payload's first byte; `None` if `r` is empty.
pub fn read_http_head(r: &mut impl BufRead) -> io::Result<Option<HttpHead>> {
    let mut raw = Vec::new();
    if read_line_capped(r, &mut raw)? == 0 {
        return Ok(None);
    }
    let first = stripped(&raw);
    let mut head = HttpHead::default();
    if first.is_empty() {
        return Ok(Some(head));
    }
    head.present = true;
    let (protocol, rest) = first.split_once(' ').unwrap_or((&first, ""));
    head.protocol = protocol.to_string();
    head.status_line = rest.trim_matches(py_space).to_string();
    // The header being read, if it is the first of its name, which
    // continuation lines extend.
    let mut in_field: Option<usize> = None;
    loop {
        read_line_capped(r, &mut raw)?;
        let line = stripped(&raw);
        if line.is_empty() {
            break;
        }
        let mut fields = [
            &mut head.content_type,
            &mut head.content_length,
            &mut head.transfer_encoding,
        ];
        if line.starts_with([' ', '\t']) {
            if let Some(Some(value)) = in_field.map(|i| &mut *fields[i]) {
                value.push_str(&line);
            }
            continue;
        }
        in_field = None;
        if let Some((name, value)) = line.split_once(':') {
            let name = name.trim_end_matches([' ', '\t']);
            let i = ["content-type", "content-length", "transfer-encoding"]
                .iter()
                .position(|n| name.eq_ignore_ascii_case(n));
            if let Some(i) = i.filter(|&i| fields[i].is_none()) {
                *fields[i] = Some(value.trim_start_matches(py_space).to_string());
                in_field = Some(i);
            }
        }
    }
    Ok(Some(head))
}

/// `sha1:` and the base32 (RFC 4648) of the SHA-1 of what is left in
/// `r`, as WARC writers give `WARC-Payload-Digest`.
pub fn sha1_base32(r: &mut impl BufRead) -> io::Result<String> {
    let mut hasher = Sha1::new();
    loop {
        let buf = r.fill_buf()?;
        if buf.is_empty() {
            break;
        }
        hasher.update(buf);
        let n = buf.len();
        r.consume(n);
    }
    let mut out = String::from("sha1:");
    base32(&hasher.finalize(), &mut out);
    Ok(out)
}

/// RFC 4648 section 6 base32, with `=` padding.
fn base32(bytes: &[u8], out: &mut String) {
    const ALPHABET: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    for chunk in bytes.chunks(5) {
        let mut group = [0u8; 5];
        group[..chunk.len()].copy_from_slice(chunk);
        let bits = group.iter().fold(0u64, |acc, &b| acc << 8 | u64::from(b));
        // Characters that carry data: ceil(bits / 5).
        let used = (chunk.len() * 8).div_ceil(5);
        for i in 0..8 {
            if i < used {
                out.push(char::from(ALPHABET[(bits >> (35 - 5 * i) & 31) as usize]));
            } else {
                out.push('=');
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(text: &[u8]) -> (Option<HttpHead>, Vec<u8>) {
        let mut r = text;
        let h = read_http_head(&mut r).unwrap();
        (h, r.to_vec())
    }

    #[test]
    fn base32_is_rfc4648() {
        // RFC 4648 section 10's test vectors.
        for (input, output) in [
            ("", ""),
            ("f", "MY======"),
            ("fo", "MZXQ===="),
            ("foo", "MZXW6==="),
            ("foob", "MZXW6YQ="),
            ("fooba", "MZXW6YTB"),
            ("foobar", "MZXW6YTBOI======"),
        ] {
            let mut out = String::new();
            base32(input.as_bytes(), &mut out);
            assert_eq!(out, output, "{input}");
        }
        // SHA-1 of the empty string, as WARC writers write it.
        assert_eq!(
            sha1_base32(&mut &b""[..]).unwrap(),
            "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ"
        );
    }

    #[test]
    fn heads() {
        let (h, rest) = head(b"HTTP/1.1 404 Not Found\r\ncontent-type : text/html;\r\n charset=x\r\nContent-Type: b\r\n\r\nbody");
        let h = h.unwrap();
        assert_eq!(
            (h.status(), h.status_line.as_str()),
            ("404", "404 Not Found")
        );
        assert_eq!(h.content_type.as_deref(), Some("text/html; charset=x"));
        assert_eq!(rest, b"body");
        // A blank first line: no head, the payload after it.
        let (h, rest) = head(b"\r\nHTTP/1.1 200 OK\r\n\r\n");
        assert!(!h.unwrap().present);
        assert_eq!(rest, b"HTTP/1.1 200 OK\r\n\r\n");
        // No blank line: all head, no payload; a status line without space.
        let (h, rest) = head(b"HTTP/1.0\nServer: x");
        let h = h.unwrap();
        assert!(h.present && h.status_line.is_empty() && h.content_type.is_none());
        assert!(rest.is_empty());
        assert_eq!(head(b"").0, None);
        // A request's method, and the fields --post-append reads, first
        // of each name, with continuation lines.
        let (h, rest) = head(b"POST /a HTTP/1.1\r\ncontent-length: 3\r\nTransfer-Encoding: chunked\r\nContent-Length: 9\r\nTransfer-Encoding:\r\n x\r\n\r\nabc");
        let h = h.unwrap();
        assert_eq!(h.protocol, "POST");
        assert_eq!(h.content_length.as_deref(), Some("3"));
        assert_eq!(h.transfer_encoding.as_deref(), Some("chunked"));
        assert_eq!(rest, b"abc");
        // ISO-8859-1 where the line is not UTF-8.
        let (h, _) = head(b"HTTP/1.1 200 \xe9t\xe9\r\n\r\n");
        assert_eq!(h.unwrap().status_line, "200 \u{e9}t\u{e9}");
    }

    #[test]
    fn long_lines_take_bounded_memory() {
        let mut text = b"HTTP/1.1 200 OK\r\nX: ".to_vec();
        text.extend(std::iter::repeat_n(b'a', 3 * MAX_LINE));
        text.extend_from_slice(b"\r\nContent-Type: text/plain\r\n\r\nP");
        let (h, rest) = head(&text);
        assert_eq!(h.unwrap().content_type.as_deref(), Some("text/plain"));
        assert_eq!(rest, b"P");
    }
}
