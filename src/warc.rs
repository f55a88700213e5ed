/*!
Reading the records of a WARC file (ISO 28500; WARC/1.0 and 1.1): plain,
gzip with one member per record as crawlers write them (`.warc.gz`, also
WAT and WET files), or zstd with one frame per record (`.warc.zst`, as
IIPC's WARC-zstd specification says, with or without its dictionary
frame).

A small reader of our own: [`Records`] yields, for each record, its type,
its `WARC-Target-URI` and where it is in the file (the offset and length
of its gzip member, or of the record itself in a plain file), what a CDX
line needs. Record blocks are skipped, never held in memory, unless
[`Records::keep_blocks`] asks for them (a WAT's JSON, for
[`wat_links`]).

# Example

```
use normurl::warc::Records;

let warc = b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: <http://a.example/>\r\n\
Content-Length: 5\r\n\r\nhello\r\n\r\n";
let records: Vec<_> = Records::new(&warc[..]).collect::<Result<_, _>>()?;
assert_eq!(records[0].warc_type, "response");
assert_eq!(records[0].target_uri.as_deref(), Some("http://a.example/"));
assert_eq!((records[0].offset, records[0].length), (0, warc.len() as u64));
# Ok::<(), std::io::Error>(())
```
*/

use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Read};

use flate2::bufread::GzDecoder;

pub mod arc;
pub mod cdx;
pub mod head;
pub mod post;
pub mod sort;

pub use cdx::IndexFields;

/// One WARC record, as a CDX line sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WarcRecord {
    /// Where the record starts in the file: its gzip member's (zstd
    /// frame's) first byte, or its `WARC/` line's in a plain file.
    pub offset: u64,
    /// The bytes it takes in the file, from `offset`: its whole gzip
    /// member (zstd frame), or the record and the blank lines after it.
    pub length: u64,
    /// `WARC-Type` (`response`, `request`, `metadata`, `warcinfo`, …);
    /// empty if the header lacks it.
    pub warc_type: String,
    /// `WARC-Target-URI`, without the `<…>` that some writers put around
    /// it, if the record has one.
    pub target_uri: Option<String>,
    /// The record's block, with [`Records::keep_blocks`], if it is no
    /// larger than asked.
    pub block: Option<Vec<u8>>,
    /// The bytes of the blank lines after the record that `length`
    /// counts (in a plain file; in a gzip member they are the member's).
    pub padding: u64,
    /// What an index line needs, with [`Records::index`], for records of
    /// the types it asks for.
    pub index: Option<Box<IndexFields>>,
}

/// Header lines longer than this are an error, not a reason to buffer
/// without bound.
const MAX_HEADER_LINE: u64 = 64 << 10;

const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];
/// The skippable frame that holds a WARC-zstd file's dictionary.
const ZSTD_DICTIONARY_MAGIC: [u8; 4] = [0x5d, 0x2a, 0x4d, 0x18];
/// The largest zstd window accepted (2^27 bytes, 128 MiB): a frame
/// asking for more is an error, not an allocation.
const ZSTD_WINDOW_LOG_MAX: u32 = 27;
/// The largest WARC-zstd dictionary accepted.
const MAX_DICTIONARY: u32 = 64 << 20;

/// How a WARC file is compressed.
enum Compression {
    Plain,
    Gzip,
    /// zstd, with this dictionary (empty without one).
    Zstd(Vec<u8>),
}

/// The records of a WARC file, in order; see the [module
/// documentation](self). After an error the iterator ends.
pub struct Records<R: Read> {
    input: Counted<BufReader<R>>,
    /// Decided at the first record.
    compression: Option<Compression>,
    /// Records read from the last gzip member (zstd frame) and not yet
    /// handed out (one, unless a writer put several records in one).
    queue: VecDeque<WarcRecord>,
    /// What to read of each record.
    read: ReadOptions,
    done: bool,
}

/// What [`Records`] reads of each record besides its place, type and URI.
#[derive(Default)]
struct ReadOptions {
    /// Blocks up to this size are kept.
    keep: u64,
    /// With [`Records::index`]: the types whose index fields are read
    /// (`None`: all).
    index: Option<Option<Vec<String>>>,
    /// Set by the first record of an ARC file: its version (1 or 2).
    arc_version: Option<u8>,
    /// With [`Records::post_bodies`].
    post: bool,
}

/// The most of a request's payload [`Records::post_bodies`] keeps: what
/// `--post-append` reads of a body larger than this is its first bytes.
pub const MAX_POST_BODY: u64 = 16 << 20;

impl<R: Read> Records<R> {
    /// The records of `input`.
    pub fn new(input: R) -> Records<R> {
        Records {
            input: Counted {
                inner: BufReader::with_capacity(1 << 16, input),
                at: 0,
            },
            compression: None,
            queue: VecDeque::new(),
            read: ReadOptions::default(),
            done: false,
        }
    }

    /// The records of `input`, which starts at byte `offset` of its file
    /// (at a record, or the gzip member or zstd frame of one): offsets
    /// count from the file's start.
    pub fn starting_at(input: R, offset: u64) -> Records<R> {
        let mut records = Records::new(input);
        records.input.at = offset;
        records
    }

    /// Keeps the blocks of records no larger than `max_bytes`, in
    /// [`WarcRecord::block`].
    pub fn keep_blocks(mut self, max_bytes: u64) -> Records<R> {
        self.read.keep = max_bytes;
        self
    }

    /// Reads the [`IndexFields`] of the records of `types` (all records
    /// with `None`) into [`WarcRecord::index`]: the block is read once, in
    /// bounded memory, for the HTTP head and, when the record has no
    /// `WARC-Payload-Digest`, the payload's SHA-1.
    pub fn index(mut self, types: Option<Vec<String>>) -> Records<R> {
        self.read.index = Some(types);
        self
    }

    /// With [`Records::index`], reads the index fields of every record, and
    /// their [`IndexFields::record_id`], [`IndexFields::concurrent_to`]
    /// and, for requests, [`IndexFields::request_body`]: what
    /// `--post-append` needs to pair a request with its response and read
    /// its body.
    pub fn post_bodies(mut self) -> Records<R> {
        self.read.post = true;
        self
    }

    fn next_record(&mut self) -> io::Result<Option<WarcRecord>> {
        if self.compression.is_none() {
            self.compression = Some(self.detect()?);
        }
        if matches!(self.compression, Some(Compression::Plain)) {
            let offset = self.input.at;
            let Some(mut record) = read_record(&mut self.input, offset, &mut self.read)? else {
                return Ok(None);
            };
            record.length = self.input.at - offset;
            return Ok(Some(record));
        }
        while self.queue.is_empty() {
            if self.input.fill_buf()?.is_empty() {
                return Ok(None);
            }
            self.read_member()?;
        }
        Ok(self.queue.pop_front())
    }

    /// The compression of the input, from its first bytes; reads a
    /// WARC-zstd dictionary frame.
    fn detect(&mut self) -> io::Result<Compression> {
        let head = self.input.fill_buf()?;
        if head.starts_with(&GZIP_MAGIC) {
            return Ok(Compression::Gzip);
        }
        if head.starts_with(&ZSTD_MAGIC) {
            return Ok(Compression::Zstd(Vec::new()));
        }
        if !head.starts_with(&ZSTD_DICTIONARY_MAGIC) {
            return Ok(Compression::Plain);
        }
        let mut header = [0; 8];
        self.input.read_exact(&mut header)?;
        let size = u32::from_le_bytes(header[4..].try_into().expect("4 bytes"));
        if size > MAX_DICTIONARY {
            return Err(bad(0, "a zstd dictionary over 64M"));
        }
        let mut dictionary = Vec::new();
        (&mut self.input)
            .take(u64::from(size))
            .read_to_end(&mut dictionary)?;
        if dictionary.len() != size as usize {
            return Err(bad(0, "the input ends in its zstd dictionary"));
        }
        if dictionary.starts_with(&ZSTD_MAGIC) {
            // The specification lets the dictionary itself be compressed.
            let mut d = zstd::stream::read::Decoder::new(&dictionary[..])?;
            d.window_log_max(ZSTD_WINDOW_LOG_MAX)?;
            let mut plain = Vec::new();
            d.take(u64::from(MAX_DICTIONARY)).read_to_end(&mut plain)?;
            dictionary = plain;
        }
        Ok(Compression::Zstd(dictionary))
    }

    /// Reads the records of the next gzip member (zstd frame) into the
    /// queue; they all have its offset and length.
    fn read_member(&mut self) -> io::Result<()> {
        let offset = self.input.at;
        let decoder: Box<dyn Read + '_> = match &self.compression {
            Some(Compression::Zstd(dictionary)) => {
                let mut d =
                    zstd::stream::read::Decoder::with_dictionary(&mut self.input, dictionary)?
                        .single_frame();
                d.window_log_max(ZSTD_WINDOW_LOG_MAX)?;
                Box::new(d)
            }
            _ => Box::new(GzDecoder::new(&mut self.input)),
        };
        let mut member = BufReader::new(decoder);
        let mut count = 0;
        // To the member's end, gzip trailer included, so that `at` is where
        // the next member starts.
        while let Some(record) = read_record(&mut member, offset, &mut self.read)? {
            self.queue.push_back(record);
            count += 1;
        }
        drop(member);
        if count == 0 {
            return Err(bad(offset, "a gzip member or zstd frame without a record"));
        }
        let length = self.input.at - offset;
        for r in self.queue.iter_mut() {
            // The blank lines are the member's, which `length` is.
            (r.length, r.padding) = (length, 0);
        }
        Ok(())
    }
}

impl<R: Read> Iterator for Records<R> {
    type Item = io::Result<WarcRecord>;

    fn next(&mut self) -> Option<io::Result<WarcRecord>> {
        if self.done {
            return None;
        }
        let next = self.next_record().transpose();
        if !matches!(next, Some(Ok(_))) {
            self.done = true;
        }
        next
    }
}

/// A reader that counts the bytes taken from it.
struct Counted<R> {
    inner: R,
    at: u64,
}

impl<R: BufRead> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.at += n as u64;
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Counted<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, n: usize) {
        self.inner.consume(n);
        self.at += n as u64;
    }
}

/// Reads one record (header, block, the blank lines after it) from
/// `r`; `None` at the end of the input. `offset` is for messages.
fn read_record(
    r: &mut impl BufRead,
    offset: u64,
    read: &mut ReadOptions,
) -> io::Result<Option<WarcRecord>> {
    let mut line = Vec::new();
    // Blank lines between records are tolerated.
    loop {
        if !read_line(r, &mut line)? {
            return Ok(None);
        }
        if !line.is_empty() {
            break;
        }
    }
    let mut record = WarcRecord {
        offset,
        length: 0,
        warc_type: String::new(),
        target_uri: None,
        block: None,
        padding: 0,
        index: None,
    };
    let is_arc = !line.starts_with(b"WARC/")
        && (read.arc_version.is_some() || line.starts_with(b"filedesc://"));
    let length = if is_arc {
        arc_header(&line, offset, read, &mut record)?
    } else if line.starts_with(b"WARC/") {
        warc_header(r, &mut line, offset, read, &mut record)?
    } else {
        return Err(bad(offset, "no WARC/ version line where a record starts"));
    };
    let mut block = r.by_ref().take(length);
    if let Some(fields) = &mut record.index {
        scan_block(
            &mut block,
            &record.warc_type,
            record.target_uri.as_deref(),
            read.post,
            fields,
        )?;
    } else if length > 0 && length <= read.keep {
        let mut kept = Vec::with_capacity(length as usize);
        block.read_to_end(&mut kept)?;
        record.block = Some(kept);
    } else if record.warc_type == "warcinfo" && is_arc {
        // The version block of an ARC file: its first line says the
        // version, which says how its records' header lines read.
        read_line(&mut block, &mut line)?;
        read.arc_version = Some(arc::version(&line));
    }
    io::copy(&mut block, &mut io::sink())?;
    if block.limit() != 0 {
        return Err(bad(offset, "the input ends in a record block"));
    }
    record.padding = skip_blank_lines(r)?;
    Ok(Some(record))
}

/// Reads a WARC record's header (after its version line), into `record`;
/// returns its `Content-Length`. A field given twice counts where it
/// is first, as warcio reads it.
fn warc_header(
    r: &mut impl BufRead,
    line: &mut Vec<u8>,
    offset: u64,
    read: &ReadOptions,
    record: &mut WarcRecord,
) -> io::Result<u64> {
    let mut content_length = None;
    let mut fields = IndexFields::default();
    let (mut date, mut digest, mut content_type) = (None, None, None);
    let (mut record_id, mut concurrent_to) = (None, None);
    let (mut has_type, mut has_length) = (false, false);
    loop {
        if !read_line(r, line)? {
            return Err(bad(offset, "the input ends in a record header"));
        }
        if line.is_empty() {
            break;
        }
        let Some(colon) = line.iter().position(|&b| b == b':') else {
            continue;
        };
        let name = &line[..colon];
        let value = || {
            head::header_text(&line[colon + 1..])
                .trim_matches(head::py_space)
                .to_string()
        };
        if name.eq_ignore_ascii_case(b"WARC-Type") && !has_type {
            has_type = true;
            record.warc_type = value();
        } else if name.eq_ignore_ascii_case(b"WARC-Target-URI") && record.target_uri.is_none() {
            let value = value();
            let uri = value
                .strip_prefix('<')
                .and_then(|v| v.strip_suffix('>'))
                .map_or(value.clone(), str::to_string);
            record.target_uri = Some(uri);
        } else if name.eq_ignore_ascii_case(b"Content-Length") && !has_length {
            has_length = true;
            content_length = value().parse::<u64>().ok();
        } else if read.index.is_some() {
            if name.eq_ignore_ascii_case(b"WARC-Date") {
                date.get_or_insert_with(value);
            } else if name.eq_ignore_ascii_case(b"WARC-Payload-Digest") {
                digest.get_or_insert_with(value);
            } else if name.eq_ignore_ascii_case(b"Content-Type") {
                content_type.get_or_insert_with(value);
            } else if read.post && name.eq_ignore_ascii_case(b"WARC-Record-ID") {
                record_id.get_or_insert_with(value);
            } else if read.post && name.eq_ignore_ascii_case(b"WARC-Concurrent-To") {
                concurrent_to.get_or_insert_with(value);
            }
        }
    }
    let length =
        content_length.ok_or_else(|| bad(offset, "a record without a valid Content-Length"))?;
    if wants_index(read, &record.warc_type) {
        fields.timestamp = date.as_deref().and_then(cdx::warc_timestamp);
        // An empty digest is none, as warcio takes it.
        fields.digest = digest.filter(|d| !d.is_empty());
        fields.content_type = content_type;
        (fields.record_id, fields.concurrent_to) = (record_id, concurrent_to);
        record.index = Some(Box::new(fields));
    }
    Ok(length)
}

/// Reads an ARC record's header line into `record`, as warcio converts
/// it to a WARC record's (see [`arc`]); returns its length.
fn arc_header(
    line: &[u8],
    offset: u64,
    read: &mut ReadOptions,
    record: &mut WarcRecord,
) -> io::Result<u64> {
    let text = head::header_text(line);
    let desc = text.starts_with("filedesc://");
    let version = if desc {
        1
    } else {
        read.arc_version.unwrap_or(1)
    };
    let header =
        arc::parse_header(&text, version).ok_or_else(|| bad(offset, "a bad ARC header line"))?;
    if desc {
        read.arc_version.get_or_insert(1);
        record.warc_type = "warcinfo".to_string();
    } else {
        record.warc_type = "response".to_string();
        record.target_uri = Some(header.url);
    }
    if wants_index(read, &record.warc_type) {
        record.index = Some(Box::new(IndexFields {
            timestamp: Some(arc::timestamp(&header.date)),
            digest: None,
            content_type: Some(if desc {
                header.mime
            } else {
                "application/http;msgtype=response".to_string()
            }),
            ..IndexFields::default()
        }));
    }
    Ok(header.length)
}

/// Whether [`Records::index`] asks for the index fields of `warc_type`.
fn wants_index(read: &ReadOptions, warc_type: &str) -> bool {
    match &read.index {
        None => false,
        Some(_) if read.post => true,
        Some(None) => true,
        Some(Some(types)) => types.iter().any(|t| t == warc_type),
    }
}

/// Reads the HTTP head of a record's block, if warcio would (a response,
/// request or revisit with an `http:` or `https:` target URI and a
/// block), then hashes the rest when the record has no payload digest
/// (and is no revisit or warcinfo); leaves the rest, if any, in `block`.
/// With `post`, keeps a request's payload.
fn scan_block(
    block: &mut io::Take<impl BufRead>,
    warc_type: &str,
    uri: Option<&str>,
    post: bool,
    fields: &mut IndexFields,
) -> io::Result<()> {
    let http_type = matches!(warc_type, "response" | "request" | "revisit");
    let http_uri = uri.is_some_and(|u| u.starts_with("http:") || u.starts_with("https:"));
    if http_type && http_uri && block.limit() > 0 {
        fields.http = head::read_http_head(block)?;
    }
    let start = block.limit();
    let mut body = Vec::new();
    let keep_body = post && warc_type == "request" && fields.http.is_some();
    if keep_body {
        block.by_ref().take(MAX_POST_BODY).read_to_end(&mut body)?;
    }
    if fields.digest.is_none() && !matches!(warc_type, "warcinfo" | "revisit") {
        let digest = head::sha1_base32(&mut (&body[..]).chain(&mut *block))?;
        // A block cut short has no digest: the caller reports it.
        if block.limit() == 0 || start == 0 {
            fields.digest = Some(digest);
        }
    }
    if keep_body {
        let chunked = fields
            .http
            .as_ref()
            .and_then(|h| h.transfer_encoding.as_deref())
            == Some("chunked");
        fields.request_body = Some(if chunked { post::dechunk(&body) } else { body });
    }
    Ok(())
}

/// Reads the blank lines after a record (the two CRLFs that end a WARC
/// record, the newline after an ARC record, and any more); returns their
/// bytes.
fn skip_blank_lines(r: &mut impl BufRead) -> io::Result<u64> {
    let mut skipped = 0;
    loop {
        let buf = r.fill_buf()?;
        if !matches!(buf.first(), Some(b'\r' | b'\n')) {
            return Ok(skipped);
        }
        let n = memchr::memchr(b'\n', buf).map_or(buf.len(), |i| i + 1);
        r.consume(n);
        skipped += n as u64;
    }
}

/// Reads a line into `line`, without its `\n` or `\r\n`; `false` at the
/// end of the input.
fn read_line(r: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<bool> {
    line.clear();
    let n = r.by_ref().take(MAX_HEADER_LINE).read_until(b'\n', line)?;
    if n == 0 {
        return Ok(false);
    }
    if line.last() == Some(&b'\n') {
        line.pop();
        if line.last() == Some(&b'\r') {
            line.pop();
        }
    } else if n as u64 == MAX_HEADER_LINE {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "a WARC header line longer than 64K",
        ));
    }
    Ok(true)
}

fn bad(offset: u64, what: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("not a WARC file: {what} (record at byte {offset})"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn record(kind: &str, uri: Option<&str>, block: &[u8]) -> Vec<u8> {
        let mut r = format!("WARC/1.1\r\nWARC-Type: {kind}\r\n");
        if let Some(u) = uri {
            r.push_str(&format!("WARC-Target-URI: {u}\r\n"));
        }
        r.push_str(&format!("content-length: {}\r\n\r\n", block.len()));
        let mut r = r.into_bytes();
        r.extend_from_slice(block);
        r.extend_from_slice(b"\r\n\r\n");
        r
    }

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(bytes).unwrap();
        e.finish().unwrap()
    }

    fn all(bytes: &[u8]) -> io::Result<Vec<WarcRecord>> {
        Records::new(bytes).collect()
    }

    #[test]
    fn plain_and_gzip_members() {
        // A block holding what looks like a record header is skipped whole.
        let records = [
            record("warcinfo", None, b"software: x\r\n"),
            record(
                "response",
                Some("HTTP://A.example/"),
                b"WARC/1.0\r\nWARC-Target-URI: x\r\n",
            ),
            record("request", Some("<http://b.example/>"), b""),
        ];
        let plain = records.concat();
        let got = all(&plain).unwrap();
        let lens: Vec<u64> = records.iter().map(|r| r.len() as u64).collect();
        assert_eq!(got.len(), 3);
        assert_eq!((got[1].offset, got[1].length), (lens[0], lens[1]));
        assert_eq!(got[1].target_uri.as_deref(), Some("HTTP://A.example/"));
        assert_eq!(got[2].target_uri.as_deref(), Some("http://b.example/"));
        assert_eq!(
            (got[0].warc_type.as_str(), got[0].target_uri.as_deref()),
            ("warcinfo", None)
        );
        let members: Vec<Vec<u8>> = records.iter().map(|r| gzip(r)).collect();
        let got_gz = all(&members.concat()).unwrap();
        assert_eq!(got_gz.len(), 3);
        let mut offset = 0;
        for (r, m) in got_gz.iter().zip(&members) {
            assert_eq!((r.offset, r.length), (offset, m.len() as u64));
            offset += m.len() as u64;
        }
        // Two records in one member share its offset and length.
        let two = gzip(&records[1..].concat());
        let got = all(&two).unwrap();
        assert_eq!(got.len(), 2);
        assert!(got
            .iter()
            .all(|r| (r.offset, r.length) == (0, two.len() as u64)));
        assert!(all(b"").unwrap().is_empty());
    }

    /// WARC-zstd: a frame per record, without a dictionary, with one, and
    /// with a compressed one.
    #[test]
    fn zstd_frames_and_dictionaries() {
        let records = [
            record("warcinfo", None, b"software: x\r\n"),
            record(
                "response",
                Some("http://a.example/"),
                b"HTTP/1.1 200 OK\r\n\r\nhi",
            ),
            record("request", Some("http://b.example/"), b""),
        ];
        let dictionary = b"WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: http://".repeat(4);
        let framed = |dict: &[u8]| -> Vec<Vec<u8>> {
            let mut c = zstd::bulk::Compressor::with_dictionary(3, dict).unwrap();
            records.iter().map(|r| c.compress(r).unwrap()).collect()
        };
        let skippable = |payload: &[u8]| {
            let mut f = ZSTD_DICTIONARY_MAGIC.to_vec();
            f.extend_from_slice(&(payload.len() as u32).to_le_bytes());
            f.extend_from_slice(payload);
            f
        };
        let compressed_dict = zstd::encode_all(&dictionary[..], 3).unwrap();
        for (head, frames) in [
            (Vec::new(), framed(b"")),
            (skippable(&dictionary), framed(&dictionary)),
            (skippable(&compressed_dict), framed(&dictionary)),
        ] {
            let file = [head.clone(), frames.concat()].concat();
            let got = all(&file).unwrap();
            assert_eq!(got.len(), 3);
            let mut offset = head.len() as u64;
            for (r, f) in got.iter().zip(&frames) {
                assert_eq!((r.offset, r.length), (offset, f.len() as u64));
                offset += f.len() as u64;
            }
            assert_eq!(got[1].target_uri.as_deref(), Some("http://a.example/"));
        }
        // Frames made with a dictionary, read without it: an error.
        assert!(all(&framed(&dictionary).concat()).is_err());
    }

    #[test]
    fn broken_files_are_errors() {
        let good = record("response", Some("http://a.example/"), b"12345");
        for bad in [
            &b"not a warc\r\n"[..],
            &good[..good.len() - 8],
            b"WARC/1.0\r\nWARC-Type: x\r\n",
            b"WARC/1.0\r\nContent-Length: x\r\n\r\n",
        ] {
            let err = all(bad).unwrap_err();
            assert!(err.to_string().contains("not a WARC file"), "{err}");
        }
        let mut truncated = gzip(&good);
        truncated.truncate(truncated.len() - 4);
        assert!(all(&truncated).is_err());
        // After an error, the iterator ends.
        let mut it = Records::new(&b"junk\n"[..]);
        assert!(it.next().unwrap().is_err());
        assert!(it.next().is_none());
    }
}

/// The outlinks of a page, from a WAT metadata record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WatLinks {
    /// The page's URL (`WARC-Target-URI` of the response the record
    /// describes).
    pub page: String,
    /// The page's `<base href>`, if it has one.
    pub base: Option<String>,
    /// Each link's path in the page (`A@/href`, `IMG@/src`,
    /// `LINK@/href`, …; `Location` for a redirect) and its URL as written.
    pub links: Vec<(String, String)>,
}

/// The outlinks in a WAT record's JSON block, in this order: the
/// redirect's `Location`, the head's `Link` elements (`LINK@/href`), the
/// head's `<meta>` elements that name a URL (`META@/content`: `og:url`,
/// as Common Crawl's cc-pyspark `wat_extract_links.py` takes it, and a
/// `http-equiv=refresh`'s URL), the head's scripts (`SCRIPT@/src`), and
/// `HTML-Metadata.Links` (`A@/href`, `IMG@/src`, …). cc-pyspark reads the
/// same fields but the refresh and the scripts: a refresh is a redirect
/// written in HTML, and a script a resource the page loads, as an
/// `IMG@/src` in `Links` is. `None` if the block is not JSON describing a
/// response.
///
/// # Example
///
/// ```
/// use normurl::warc::wat_links;
///
/// let json = br#"{"Envelope": {"WARC-Header-Metadata": {"WARC-Type": "response",
///   "WARC-Target-URI": "http://a.example/d/"}, "Payload-Metadata": {"HTTP-Response-Metadata":
///   {"HTML-Metadata": {"Head": {"Base": "/b/", "Metas": [{"property": "og:url", "content": "/c"}]},
///   "Links": [{"path": "A@/href", "url": "x"}]}}}}}"#;
/// let page = wat_links(json).unwrap();
/// assert_eq!(page.base.as_deref(), Some("/b/"));
/// assert_eq!(page.links, [
///     ("META@/content".to_string(), "/c".to_string()),
///     ("A@/href".to_string(), "x".to_string()),
/// ]);
/// ```
pub fn wat_links(block: &[u8]) -> Option<WatLinks> {
    use serde_json::Value;
    let v: Value = serde_json::from_slice(block).ok()?;
    let envelope = &v["Envelope"];
    let header = &envelope["WARC-Header-Metadata"];
    if header["WARC-Type"] != "response" {
        return None;
    }
    let page = header["WARC-Target-URI"].as_str()?.to_string();
    let response = &envelope["Payload-Metadata"]["HTTP-Response-Metadata"];
    let html = &response["HTML-Metadata"];
    let head = &html["Head"];
    let mut links = Vec::new();
    if let Some(location) = response["Headers"]["Location"].as_str() {
        links.push(("Location".to_string(), location.to_string()));
    }
    push_links(&mut links, &head["Link"], "LINK@/href");
    for meta in head["Metas"].as_array().into_iter().flatten() {
        if let Some(url) = meta_url(meta) {
            links.push(("META@/content".to_string(), url.to_string()));
        }
    }
    push_links(&mut links, &head["Scripts"], "SCRIPT@/src");
    push_links(&mut links, &html["Links"], "-");
    Some(WatLinks {
        page,
        base: head["Base"].as_str().map(str::to_string),
        links,
    })
}

/// Appends the `url` of each object in `list` with its `path`, or
/// `default_path` if it has none.
fn push_links(links: &mut Vec<(String, String)>, list: &serde_json::Value, default_path: &str) {
    for link in list.as_array().into_iter().flatten() {
        if let Some(url) = link["url"].as_str() {
            let path = link["path"].as_str().unwrap_or(default_path);
            links.push((path.to_string(), url.to_string()));
        }
    }
}

/// The URL a WAT `Metas` entry names: an `og:url` property's content, or
/// the URL of a `http-equiv=refresh`'s content.
fn meta_url(meta: &serde_json::Value) -> Option<&str> {
    let content = meta["content"].as_str()?;
    if meta["property"].as_str() == Some("og:url") {
        return Some(content);
    }
    let equiv = meta["http-equiv"].as_str()?;
    if equiv.eq_ignore_ascii_case("refresh") {
        refresh_url(content)
    } else {
        None
    }
}

/// The URL of a refresh's `content` (`5; url='/next'`), as the HTML
/// Standard's shared declarative refresh steps find it; `None` for a
/// refresh of the page itself or a content they reject.
fn refresh_url(content: &str) -> Option<&str> {
    let ws = |c: char| c.is_ascii_whitespace();
    // Steps 3 to 8: the time, digits and dots.
    let rest = content.trim_start_matches(ws);
    let time_end = rest.find(|c: char| !c.is_ascii_digit() && c != '.')?;
    if time_end == 0 || !rest[time_end..].starts_with([';', ',', ' ', '\t', '\n', '\x0c', '\r']) {
        return None;
    }
    // Steps 9 and 10: the separator.
    let rest = rest[time_end..].trim_start_matches(ws);
    let rest = rest.strip_prefix([';', ',']).unwrap_or(rest);
    let rest = rest.trim_start_matches(ws);
    // Step 11: `url=`, if present.
    let url = match rest.get(..3) {
        Some(u) if u.eq_ignore_ascii_case("url") => {
            let after = rest[3..].trim_start_matches(ws);
            match after.strip_prefix('=') {
                Some(v) => v.trim_start_matches(ws),
                None => rest,
            }
        }
        _ => rest,
    };
    // The quotes around it, if any, and what follows them.
    let url = match url.chars().next() {
        Some(q @ ('"' | '\'')) => url[1..].split(q).next().unwrap_or(""),
        _ => url,
    };
    let url = url.trim_end_matches(ws);
    (!url.is_empty()).then_some(url)
}

#[cfg(test)]
mod wat_tests {
    use super::refresh_url;

    #[test]
    fn refresh_urls() {
        for (content, url) in [
            ("0; url=http://a.example/", Some("http://a.example/")),
            ("5;URL='/next page' x", Some("/next page")),
            ("1, url = \"b\"", Some("b")),
            ("0;/plain", Some("/plain")),
            ("3.5 ; urlx", Some("urlx")),
            ("0", None),
            ("0;", None),
            ("x; url=/a", None),
            ("0x; url=/a", None),
        ] {
            assert_eq!(refresh_url(content), url, "{content}");
        }
    }
}
