//! Index lines for WARC and ARC records: pywb's CDXJ (`urlkey timestamp
//! {json}`) and the classic 11-field CDX (` CDX N b a m s k r M S V g`),
//! field for field as pywb's `cdxj-indexer` (1.5) writes them.
//!
//! The fields of a record, in this order, each left out when the record
//! has none: `url` (`WARC-Target-URI`), `mime` (`warc/revisit` for a
//! revisit, else the HTTP head's `Content-Type` for a response or request
//! and the record's own `Content-Type` for other types, up to its first
//! `;` or white space), `status` (the HTTP status code of a response or
//! revisit), `digest` (`WARC-Payload-Digest`, or the payload's SHA-1 when
//! the record has none), `length` and `offset` (of the record, or its
//! gzip member, in the file) and `filename` (the file's name without its
//! directories). The JSON is Python's `json.dumps`: `", "` and `": "`
//! between items, every character outside printable ASCII escaped.

use super::head::{py_space, HttpHead};
use super::WarcRecord;

/// What a CDX line needs of a record beyond its type, URI, offset and
/// length (which [`WarcRecord`] has).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IndexFields {
    /// The 14-digit timestamp: from `WARC-Date`, or an ARC record's date.
    pub timestamp: Option<String>,
    /// `WARC-Payload-Digest`, or `sha1:` and the base32 SHA-1 of the
    /// payload when the record has none (and is no revisit or warcinfo,
    /// which have no payload of their own).
    pub digest: Option<String>,
    /// The record's `Content-Type`.
    pub content_type: Option<String>,
    /// The HTTP head of a response, revisit or request record with an
    /// `http:` or `https:` target URI and a block.
    pub http: Option<HttpHead>,
    /// `WARC-Record-ID`, with
    /// [`Records::post_bodies`](super::Records::post_bodies), which pairs
    /// a request with its response.
    pub record_id: Option<String>,
    /// `WARC-Concurrent-To`, likewise.
    pub concurrent_to: Option<String>,
    /// With [`Records::post_bodies`](super::Records::post_bodies), a
    /// request's payload after its HTTP head (de-chunked when its head
    /// says `Transfer-Encoding: chunked`), at most
    /// [`super::MAX_POST_BODY`] bytes of it.
    pub request_body: Option<Vec<u8>>,
}

/// The 14-digit timestamp of a `WARC-Date` (`2013-12-26T10:11:12.5Z` is
/// `20131226101112`), as warcio's `iso_date_to_timestamp` makes it: the
/// runs of digits are year, month, day and, if present, hour, minute,
/// second and fraction. `None` where warcio fails (fewer than three or
/// more than seven numbers, an empty one, a date that does not exist).
pub fn warc_timestamp(date: &str) -> Option<String> {
    let mut nums: Vec<&str> = date.split(|c: char| !c.is_ascii_digit()).collect();
    if nums.last() == Some(&"") {
        nums.pop();
    }
    if !(3..=7).contains(&nums.len()) || nums.iter().any(|n| n.is_empty()) {
        return None;
    }
    let mut values = [0u64; 6];
    for (v, n) in values.iter_mut().zip(&nums) {
        *v = n.parse().ok()?;
    }
    let [year, month, day, hour, minute, second] = values;
    let valid = (1..=9999).contains(&year)
        && (1..=12).contains(&month)
        && day >= 1
        && day <= u64::from(super::arc::days_in_month(year as u32, month as u32))
        && hour < 24
        && minute < 60
        && second < 60;
    valid.then(|| format!("{year}{month:02}{day:02}{hour:02}{minute:02}{second:02}"))
}

/// The `mime` field of `record` (see the [module documentation](self)).
pub fn mime(record: &WarcRecord, fields: &IndexFields) -> Option<String> {
    let value = match record.warc_type.as_str() {
        "revisit" => return Some("warc/revisit".to_string()),
        "response" | "request" => fields
            .http
            .as_ref()
            .filter(|h| h.present)?
            .content_type
            .as_deref()?,
        _ => fields.content_type.as_deref()?,
    };
    let first = value
        .split(|c: char| c == ';' || py_space(c))
        .next()
        .unwrap_or("");
    Some(first.trim_matches(py_space).to_string())
}

/// The `status` field of `record`: its HTTP status code, for a response or
/// revisit with an HTTP head.
pub fn status<'a>(record: &WarcRecord, fields: &'a IndexFields) -> Option<&'a str> {
    match record.warc_type.as_str() {
        "response" | "revisit" => fields
            .http
            .as_ref()
            .filter(|h| h.present)
            .map(|h| h.status()),
        _ => None,
    }
}

/// The `url` field: the target URI as warcio gives it, spaces written
/// `%20`.
pub fn url(record: &WarcRecord) -> Option<String> {
    record.target_uri.as_ref().map(|u| u.replace(' ', "%20"))
}

/// The length of `record` in an index: for a plain file, without the blank
/// lines after it, as warcio counts it.
pub fn length(record: &WarcRecord) -> u64 {
    record.length - record.padding
}

/// One index line's fields, as text.
#[derive(Clone, Debug, Default)]
pub struct Entry<'a> {
    /// The SURT key (or the URI, or `-`).
    pub urlkey: &'a [u8],
    /// 14 digits, or `-`.
    pub timestamp: &'a str,
    /// See [`url`].
    pub url: Option<&'a str>,
    /// See [`mime`].
    pub mime: Option<&'a str>,
    /// See [`status`].
    pub status: Option<&'a str>,
    /// [`IndexFields::digest`].
    pub digest: Option<&'a str>,
    /// See [`length`].
    pub length: u64,
    /// [`WarcRecord::offset`].
    pub offset: u64,
    /// The file's name, without its directories.
    pub filename: &'a str,
    /// With `--post-append`, a POST or PUT response's `requestBody`
    /// (`Some(None)` is JSON `null`), after `filename` in CDXJ, as pywb
    /// adds it.
    pub request_body: Option<Option<&'a str>>,
    /// With `--post-append`, a POST or PUT response's `method`, after
    /// `requestBody`.
    pub method: Option<&'a str>,
}

/// Appends `entry` as a CDXJ line (with its newline) to `out`.
pub fn write_cdxj(entry: &Entry<'_>, out: &mut Vec<u8>) {
    out.extend_from_slice(entry.urlkey);
    out.push(b' ');
    out.extend_from_slice(entry.timestamp.as_bytes());
    out.extend_from_slice(b" {");
    let (length, offset) = (entry.length.to_string(), entry.offset.to_string());
    let items = [
        ("url", entry.url),
        ("mime", entry.mime),
        ("status", entry.status),
        ("digest", entry.digest),
        ("length", Some(length.as_str())),
        ("offset", Some(offset.as_str())),
        ("filename", Some(entry.filename)),
    ];
    let mut first = true;
    for (name, value) in items {
        let Some(value) = value else { continue };
        if !first {
            out.extend_from_slice(b", ");
        }
        first = false;
        json_string(name, out);
        out.extend_from_slice(b": ");
        json_string(value, out);
    }
    if let Some(body) = entry.request_body {
        out.extend_from_slice(b", \"requestBody\": ");
        match body {
            Some(b) => json_string(b, out),
            None => out.extend_from_slice(b"null"),
        }
    }
    if let Some(method) = entry.method {
        out.extend_from_slice(b", \"method\": ");
        json_string(method, out);
    }
    out.extend_from_slice(b"}\n");
}

/// The header line of a CDX file of 11 fields, written before each
/// input's lines.
pub const CDX11_HEADER: &str = " CDX N b a m s k r M S V g\n";

/// Appends `entry` as an 11-field CDX line: urlkey, timestamp, url, mime,
/// status, digest without its `sha1:`, redirect, meta tags, length,
/// offset, filename, `-` for a field the record does not have.
pub fn write_cdx11(entry: &Entry<'_>, out: &mut Vec<u8>) {
    let digest = entry.digest.map(|d| d.rsplit(':').next().unwrap_or(d));
    let (length, offset) = (entry.length.to_string(), entry.offset.to_string());
    let fields = [
        entry.timestamp,
        entry.url.unwrap_or("-"),
        entry.mime.unwrap_or("-"),
        entry.status.unwrap_or("-"),
        digest.unwrap_or("-"),
        "-",
        "-",
        &length,
        &offset,
        entry.filename,
    ];
    out.extend_from_slice(entry.urlkey);
    for f in fields {
        out.push(b' ');
        out.extend_from_slice(f.as_bytes());
    }
    out.push(b'\n');
}

/// Appends `s` as a JSON string, as Python's `json.dumps` writes it with
/// `ensure_ascii`: `\"`, `\\`, `\n`, `\r`, `\t`, `\b`, `\f`, and `\uXXXX`
/// (UTF-16, surrogate pairs beyond the BMP) for every other character
/// outside ` ` to `~`.
pub fn json_string(s: &str, out: &mut Vec<u8>) {
    out.push(b'"');
    for c in s.chars() {
        match c {
            '"' => out.extend_from_slice(b"\\\""),
            '\\' => out.extend_from_slice(b"\\\\"),
            '\n' => out.extend_from_slice(b"\\n"),
            '\r' => out.extend_from_slice(b"\\r"),
            '\t' => out.extend_from_slice(b"\\t"),
            '\u{8}' => out.extend_from_slice(b"\\b"),
            '\u{c}' => out.extend_from_slice(b"\\f"),
            ' '..='~' => out.push(c as u8),
            _ => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    out.extend_from_slice(format!("\\u{unit:04x}").as_bytes());
                }
            }
        }
    }
    out.push(b'"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warc_dates() {
        for (date, stamp) in [
            ("2013-12-26T10:11:12Z", Some("20131226101112")),
            ("2013-12-26T10:11:12.123456789Z", Some("20131226101112")),
            ("2013-12-26T10:11:12", Some("20131226101112")),
            ("2013-12-26", Some("20131226000000")),
            ("2013-02-29T00:00:00Z", None),
            ("2013-12-26T10:11:60Z", None),
            ("2013-12", None),
            ("2013-12-26T10::11Z", None),
            ("x2013-12-26", None),
            ("", None),
        ] {
            assert_eq!(warc_timestamp(date).as_deref(), stamp, "{date}");
        }
    }

    #[test]
    fn json_strings_are_pythons() {
        let mut out = Vec::new();
        json_string("a\"\\/\n\t\u{1}\u{7f}é😀", &mut out);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            r#""a\"\\/\n\t\u0001\u007f\u00e9\ud83d\ude00""#
        );
    }

    #[test]
    fn lines() {
        let entry = Entry {
            urlkey: b"com,example)/",
            timestamp: "20240101000000",
            url: Some("http://example.com/"),
            mime: Some("text/html"),
            status: Some("200"),
            digest: Some("sha1:ABC"),
            length: 10,
            offset: 0,
            filename: "a.warc.gz",
            request_body: None,
            method: None,
        };
        let mut out = Vec::new();
        write_cdxj(&entry, &mut out);
        write_cdx11(
            &Entry {
                status: None,
                ..entry
            },
            &mut out,
        );
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "com,example)/ 20240101000000 {\"url\": \"http://example.com/\", \"mime\": \"text/html\", \
             \"status\": \"200\", \"digest\": \"sha1:ABC\", \"length\": \"10\", \"offset\": \"0\", \
             \"filename\": \"a.warc.gz\"}\n\
             com,example)/ 20240101000000 http://example.com/ text/html - ABC - - 10 0 a.warc.gz\n"
        );
        let mut out = Vec::new();
        write_cdxj(
            &Entry {
                mime: None,
                request_body: Some(None),
                method: Some("POST"),
                ..entry
            },
            &mut out,
        );
        assert!(out.ends_with(
            b"\"filename\": \"a.warc.gz\", \"requestBody\": null, \"method\": \"POST\"}\n"
        ));
    }
}
