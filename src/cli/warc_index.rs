//! `normurl warc --cdxj` and `--cdx`: an index line per record, as pywb's
//! `cdxj-indexer` writes them (the fields are [`normurl::warc::cdx`]'s),
//! with the urlkey made by the canonicalizer.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Component, Path};

use normurl::canon::{key_hash, Scratch};
use normurl::normalize::Invalid;
use normurl::warc::cdx::{self, Entry};
use normurl::warc::post::{self, MethodQuery, RequestHead};
use normurl::warc::{IndexFields, Records, WarcRecord};
use normurl::Url;

use super::config::warc::{DedupKey, Format, Index};
use super::warc_split::{self, ChunkOut};
use super::warc_tally::Tally;
use super::Failure;

/// The environment variable that sets the chunk size of a gzip WARC read
/// on several threads, in bytes (tests make it small).
const SPLIT_BYTES: &str = "NORMURL_WARC_SPLIT_BYTES";

/// What `--post-append` changes in the line of a record of a POST or PUT
/// request and its response.
struct PostKey {
    /// The URL with the query appended, of which the urlkey is made.
    url: String,
    /// The response's `requestBody` and `method` (`None` for the request).
    fields: Option<(Option<String>, String)>,
}

// The run of an index configured in `config/warc.rs`.
impl Index {
    /// The records of `input`, with what the index reads of them.
    fn records<R: Read>(&self, records: Records<R>) -> Records<R> {
        let records = records.index(self.types.clone());
        if self.post_append {
            records.post_bodies()
        } else {
            records
        }
    }

    /// Writes the index lines of the file `path`, read from `input`, in
    /// the file's order; an error names the file and the record. A gzip
    /// WARC file is read on `threads` threads ([`super::warc_split`]).
    pub fn write_file(
        &self,
        path: &Path,
        input: &mut impl Read,
        tally: &mut Tally<'_>,
        threads: usize,
    ) -> Result<(), Failure> {
        let label = path.display().to_string();
        // The file's name without its directories, as cdxj-indexer's
        // `os.path.basename`, or its path from --dir-root.
        let filename = match &self.dir_root {
            Some(root) if path.as_os_str() != "-" => relative_path(path, root),
            _ => None,
        };
        let filename = filename.unwrap_or_else(|| {
            path.file_name()
                .map_or_else(|| label.clone(), |n| n.to_string_lossy().into_owned())
        });
        if self.format == Format::Cdx11 {
            tally.raw(cdx::CDX11_HEADER.as_bytes())?;
        }
        let failed = |source| Failure::Io {
            path: label.clone(),
            source,
        };
        let len = match std::fs::metadata(path) {
            Ok(m) if m.is_file() && path.as_os_str() != "-" => m.len(),
            _ => return self.write_records(Records::new(input), &filename, &label, 0, tally),
        };
        let chunk: Option<u64> = std::env::var(SPLIT_BYTES).ok().and_then(|v| v.parse().ok());
        // Set, it splits on one core too, so that tests run the split.
        let threads = if chunk.is_some() {
            threads.max(2)
        } else {
            threads
        };
        let starts = warc_split::chunk_starts(path, len, threads, chunk);
        // --post-append pairs each record with the one before it: read in
        // one go.
        if starts.len() < 2 || self.post_append {
            return self.write_records(Records::new(input), &filename, &label, 0, tally);
        }
        // The workers read the file, not `input`.
        tally.add_bytes_in(len);
        let (mut expected, mut number, mut rest) = (0, 0, None);
        let index_chunk = |start, stop| self.chunk(path, &filename, start, stop, len);
        warc_split::run(&starts, len, threads, index_chunk, |out| {
            if out.start != expected {
                // A guessed member start that was none: read on from the
                // last chunk's end.
                rest = Some(expected);
                return Ok(false);
            }
            for (range, verdict) in out.items {
                number += 1;
                tally.item_hashed(&out.lines[range], verdict, &label, number)?;
            }
            if let Some(e) = out.error {
                return Err(failed(e));
            }
            expected = out.end;
            Ok(true)
        })?;
        if let Some(at) = rest {
            let mut file = File::open(path).map_err(failed)?;
            file.seek(SeekFrom::Start(at)).map_err(failed)?;
            let records = Records::starting_at(file, at);
            self.write_records(records, &filename, &label, number, tally)?;
        }
        Ok(())
    }

    /// Writes the index lines of `records`, numbered after `number`.
    fn write_records(
        &self,
        records: Records<impl Read>,
        filename: &str,
        label: &str,
        mut number: u64,
        tally: &mut Tally<'_>,
    ) -> Result<(), Failure> {
        let (mut url, mut scratch) = (None, Scratch::new());
        let (mut line, mut key) = (Vec::new(), Vec::new());
        let mut emit = |record: &WarcRecord, post: Option<&PostKey>| {
            if !self.indexed(record) {
                return Ok(());
            }
            number += 1;
            line.clear();
            let verdict = self.line(
                record,
                post,
                filename,
                &mut url,
                &mut scratch,
                &mut line,
                &mut key,
            );
            tally.item_hashed(&line, verdict, label, number)
        };
        // With --post-append, the record before this one, not yet written:
        // it may be this one's request or response.
        let mut before: Option<WarcRecord> = None;
        for record in self.records(records) {
            let record = record.map_err(|source| Failure::Io {
                path: label.to_string(),
                source,
            })?;
            if !self.post_append {
                emit(&record, None)?;
                continue;
            }
            let Some(prev) = before.take() else {
                before = Some(record);
                continue;
            };
            match pair(&prev, &record) {
                Some(request_first) => {
                    let request = if request_first { &prev } else { &record };
                    let (for_request, for_response) = post_keys(request);
                    let (a, b) = if request_first {
                        (for_request, for_response)
                    } else {
                        (for_response, for_request)
                    };
                    emit(&prev, a.as_ref())?;
                    emit(&record, b.as_ref())?;
                }
                None => {
                    emit(&prev, None)?;
                    before = Some(record);
                }
            }
        }
        if let Some(prev) = before {
            emit(&prev, None)?;
        }
        Ok(())
    }

    /// The index lines of the records of `path` from the member at
    /// `start` to the first member at or after `stop`.
    fn chunk(&self, path: &Path, filename: &str, start: u64, stop: u64, len: u64) -> ChunkOut {
        let mut out = ChunkOut {
            start,
            lines: Vec::new(),
            items: Vec::new(),
            end: len,
            error: None,
        };
        let opened = File::open(path).and_then(|mut f| f.seek(SeekFrom::Start(start)).map(|_| f));
        let file = match opened {
            Ok(f) => f,
            Err(e) => {
                out.error = Some(e);
                return out;
            }
        };
        let (mut url, mut scratch, mut key) = (None, Scratch::new(), Vec::new());
        for record in self.records(Records::starting_at(file, start)) {
            let record = match record {
                Ok(r) => r,
                Err(e) => {
                    out.error = Some(e);
                    break;
                }
            };
            if record.offset >= stop {
                out.end = record.offset;
                break;
            }
            if !self.indexed(&record) {
                continue;
            }
            let from = out.lines.len();
            let verdict = self.line(
                &record,
                None,
                filename,
                &mut url,
                &mut scratch,
                &mut out.lines,
                &mut key,
            );
            out.items.push((from..out.lines.len(), verdict));
        }
        out
    }

    /// Whether `record` gets a line: one of the types asked for, and with
    /// the default types not a resource or metadata record of
    /// `application/warc-fields`, as cdxj-indexer filters them.
    fn indexed(&self, record: &WarcRecord) -> bool {
        let Some(fields) = &record.index else {
            return false;
        };
        // With --post-append every record is read, for the pairing.
        let asked = match &self.types {
            Some(types) => types.contains(&record.warc_type),
            None => true,
        };
        asked
            && !(self.default_types
                && matches!(record.warc_type.as_str(), "resource" | "metadata")
                && fields.content_type.as_deref() == Some("application/warc-fields"))
    }

    /// The index line of `record` into `line`, and the hash of its
    /// `--dedup` key (`key` is scratch space), or why it has no URL: no
    /// target URI (urlkey `-`) or one that does not parse (the urlkey is
    /// the URI as it is, as pywb's fallback when its SURT fails). `post`
    /// is what `--post-append` makes of a POST or PUT and its response.
    #[allow(clippy::too_many_arguments)]
    fn line(
        &self,
        record: &WarcRecord,
        post: Option<&PostKey>,
        filename: &str,
        url: &mut Option<Url>,
        scratch: &mut Scratch,
        line: &mut Vec<u8>,
        key: &mut Vec<u8>,
    ) -> Result<u128, Invalid> {
        let none = IndexFields::default();
        let fields = record.index.as_deref().unwrap_or(&none);
        let target = cdx::url(record);
        key.clear();
        let key_source = match post {
            Some(p) => Some(p.url.as_str()),
            None => target.as_deref(),
        };
        let valid = match key_source {
            None => {
                key.push(b'-');
                Err(Invalid::NoTargetUri)
            }
            Some(uri) if is_dns(uri) => {
                // pywb's key for a DNS lookup record (the `surt` package's):
                // the URI with its host lowercased, where webarchive-commons
                // and the `wayback` profile reverse the host (`com,example)`).
                let colon = uri.find(':').unwrap_or(0);
                key.extend_from_slice(&uri.as_bytes()[..colon]);
                key.extend(uri[colon..].bytes().map(|b| b.to_ascii_lowercase()));
                Ok(())
            }
            Some(uri) => {
                let url = url.get_or_insert_with(|| Url::parse("about:blank").expect("valid"));
                match self.key.parse_apply(uri, url, scratch, key) {
                    Ok(_) => Ok(()),
                    Err(e) => {
                        key.clear();
                        key.extend_from_slice(uri.as_bytes());
                        Err(Invalid::Url(e))
                    }
                }
            }
        };
        let mime = cdx::mime(record, fields);
        let entry = Entry {
            urlkey: key,
            timestamp: fields.timestamp.as_deref().unwrap_or("-"),
            url: target.as_deref(),
            mime: mime.as_deref(),
            status: cdx::status(record, fields),
            digest: fields.digest.as_deref(),
            length: cdx::length(record),
            offset: record.offset,
            filename,
            request_body: post
                .and_then(|p| p.fields.as_ref())
                .map(|(body, _)| body.as_deref()),
            method: post
                .and_then(|p| p.fields.as_ref())
                .map(|(_, method)| method.as_str()),
        };
        match self.format {
            Format::Cdxj => cdx::write_cdxj(&entry, line),
            Format::Cdx11 => cdx::write_cdx11(&entry, line),
        }
        valid?;
        let urlkey_len = key.len();
        if self.dedup == Some(DedupKey::UrlDigest) {
            key.push(b' ');
            key.extend_from_slice(fields.digest.as_deref().unwrap_or("").as_bytes());
        }
        let hash = key_hash(key);
        key.truncate(urlkey_len);
        Ok(hash)
    }
}

/// Whether `first` and `second`, the record after it, are a request and
/// its response as cdxj-indexer pairs them: a request and a response, in
/// either order, with the same target URI, the second's
/// `WARC-Concurrent-To` the first's `WARC-Record-ID` (both absent counts);
/// `Some(true)` when the request comes first.
fn pair(first: &WarcRecord, second: &WarcRecord) -> Option<bool> {
    let (a, b) = (first.index.as_deref()?, second.index.as_deref()?);
    if cdx::url(first) != cdx::url(second) || b.concurrent_to != a.record_id {
        return None;
    }
    match (first.warc_type.as_str(), second.warc_type.as_str()) {
        ("response", "request") => Some(false),
        ("request", "response") => Some(true),
        _ => None,
    }
}

/// What `--post-append` makes of a request and its response (pywb's
/// `join_req_resp`): for a POST or PUT (any case) with an HTTP head, the
/// URL with the body's query appended for both, and the response's
/// `requestBody` and `method`; nothing for other methods.
fn post_keys(request: &WarcRecord) -> (Option<PostKey>, Option<PostKey>) {
    let fields = request.index.as_deref();
    let Some(http) = fields.and_then(|f| f.http.as_ref()) else {
        return (None, None);
    };
    let method = http.protocol.to_uppercase();
    if method != "POST" && method != "PUT" {
        return (None, None);
    }
    let url = cdx::url(request).unwrap_or_default();
    let head = RequestHead {
        method: &http.protocol,
        content_type: http.content_type.as_deref(),
        content_length: http.content_length.as_deref(),
    };
    let body = fields
        .and_then(|f| f.request_body.as_deref())
        .unwrap_or(&[]);
    let MethodQuery { query, append } = post::method_query(&head, body, &url);
    let url = url + &append;
    (
        Some(PostKey {
            url: url.clone(),
            fields: None,
        }),
        Some(PostKey {
            url,
            fields: Some((query, method)),
        }),
    )
}

/// `path` relative to `root`, as Python's `os.path.relpath` makes it: both
/// made absolute (from the working directory) and `..` resolved in the
/// text, not through symbolic links; `..` for each directory of `root`
/// that `path` is not under; `/` between the parts; `.` for `root`
/// itself. `None` if the working directory is unknown.
fn relative_path(path: &Path, root: &Path) -> Option<String> {
    let parts = |p: &Path| -> Option<Vec<String>> {
        let mut parts = Vec::new();
        for c in std::path::absolute(p).ok()?.components() {
            match c {
                Component::Normal(s) => parts.push(s.to_string_lossy().into_owned()),
                Component::ParentDir => {
                    parts.pop();
                }
                Component::CurDir | Component::RootDir | Component::Prefix(_) => {}
            }
        }
        Some(parts)
    };
    let (path, root) = (parts(path)?, parts(root)?);
    let common = path.iter().zip(&root).take_while(|(a, b)| a == b).count();
    let mut rel: Vec<&str> = vec![".."; root.len() - common];
    rel.extend(path[common..].iter().map(String::as_str));
    Some(if rel.is_empty() {
        ".".to_string()
    } else {
        rel.join("/")
    })
}

/// Whether `uri` is a `dns:` record's (any case).
fn is_dns(uri: &str) -> bool {
    uri.get(..4).is_some_and(|s| s.eq_ignore_ascii_case("dns:"))
}
