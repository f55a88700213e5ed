//! `normurl warc --cdxj` and `--cdx`: an index line per record, as pywb's
//! `cdxj-indexer` writes them (the fields are [`normurl::warc::cdx`]'s),
//! with the urlkey made by the canonicalizer.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use normurl::canon::{key_hash, Scratch};
use normurl::normalize::Invalid;
use normurl::warc::cdx::{self, Entry};
use normurl::warc::{IndexFields, Records, WarcRecord};
use normurl::Url;

use super::config::warc::{DedupKey, Format, Index};
use super::warc_split::{self, ChunkOut};
use super::warc_tally::Tally;
use super::Failure;

/// The environment variable that sets the chunk size of a gzip WARC read
/// on several threads, in bytes (tests make it small).
const SPLIT_BYTES: &str = "NORMURL_WARC_SPLIT_BYTES";

// The run of an index configured in `config/warc.rs`.
impl Index {
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
        // `os.path.basename`.
        let filename = path
            .file_name()
            .map_or_else(|| label.clone(), |n| n.to_string_lossy().into_owned());
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
        if starts.len() < 2 {
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
        for record in records.index(self.types.clone()) {
            let record = record.map_err(|source| Failure::Io {
                path: label.to_string(),
                source,
            })?;
            if !self.indexed(&record) {
                continue;
            }
            number += 1;
            line.clear();
            let verdict = self.line(
                &record,
                filename,
                &mut url,
                &mut scratch,
                &mut line,
                &mut key,
            );
            tally.item_hashed(&line, verdict, label, number)?;
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
        for record in Records::starting_at(file, start).index(self.types.clone()) {
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
        !(self.default_types
            && matches!(record.warc_type.as_str(), "resource" | "metadata")
            && fields.content_type.as_deref() == Some("application/warc-fields"))
    }

    /// The index line of `record` into `line`, and the hash of its
    /// `--dedup` key (`key` is scratch space), or why it has no URL: no
    /// target URI (urlkey `-`) or one that does not parse (the urlkey is
    /// the URI as it is, as pywb's fallback when its SURT fails).
    fn line(
        &self,
        record: &WarcRecord,
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
        let valid = match &target {
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

/// Whether `uri` is a `dns:` record's (any case).
fn is_dns(uri: &str) -> bool {
    uri.get(..4).is_some_and(|s| s.eq_ignore_ascii_case("dns:"))
}
