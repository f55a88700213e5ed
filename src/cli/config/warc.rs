//! The configuration of `normurl warc`: its arguments checked, before any
//! input is read, and turned into the main command's configuration of the
//! same options, an index's and the accounting's.

use std::num::NonZeroUsize;
use std::path::PathBuf;

use normurl::canon::{Canonicalizer, OutputForm, Profile, SurtOptions};
use normurl::dedup::{CountFormat, DedupConfig};
use normurl::normalize::{Delimiter, FieldOutput, Get, Normalizer, OnInvalid, Options, Select};

pub use crate::cli::args::warc::DedupKey;
use crate::cli::args::warc::WarcArgs;
use crate::cli::Failure;

use super::compress::Compression;
use super::{shared, Target};

/// The `warc` job.
#[derive(Debug)]
pub struct Warc {
    pub files: Vec<PathBuf>,
    /// The main command's per-line work, on a line made of each record:
    /// `URI TAB TYPE TAB OFFSET TAB LENGTH`, its URL in field 1.
    pub normalizer: Normalizer,
    pub links: bool,
    /// With --cdxj or --cdx.
    pub index: Option<Index>,
    pub output: Target,
    pub compression: Compression,
    pub accounting: Accounting,
}

/// The index line format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// pywb's CDXJ.
    Cdxj,
    /// The classic CDX of 11 fields.
    Cdx11,
}

/// The record types cdxj-indexer indexes unless told otherwise.
const DEFAULT_RECORDS: [&str; 4] = ["response", "revisit", "resource", "metadata"];

/// What `--cdxj`/`--cdx`, `--records` and `--dedup` ask.
#[derive(Debug)]
pub struct Index {
    pub format: Format,
    /// Makes the urlkey: the profile's rules, written as a CDX key.
    pub key: Canonicalizer,
    /// The types to index (`None`: all).
    pub types: Option<Vec<String>>,
    /// The default types, which leave out `application/warc-fields`
    /// resource and metadata records.
    pub default_types: bool,
    pub dedup: Option<DedupKey>,
    /// `--post-append`.
    pub post_append: bool,
    /// `--dir-root`.
    pub dir_root: Option<PathBuf>,
}

impl Index {
    pub fn new(
        key: Canonicalizer,
        format: Format,
        records: Option<&str>,
        dedup: Option<DedupKey>,
    ) -> Index {
        let types = match records {
            Some("all") => None,
            Some(list) => Some(list.split(',').map(str::to_string).collect()),
            None => Some(DEFAULT_RECORDS.map(str::to_string).to_vec()),
        };
        Index {
            format,
            key,
            types,
            default_types: records.is_none(),
            dedup,
            post_append: false,
            dir_root: None,
        }
    }

    /// Writes each file's path from `root` as its `filename`, as
    /// `cdxj-indexer --dir-root` does.
    pub fn dir_root(mut self, root: Option<PathBuf>) -> Index {
        self.dir_root = root;
        self
    }

    /// Appends the bodies of POST and PUT requests to the urlkey of their
    /// lines and their responses', as `cdxj-indexer -p` does
    /// ([`normurl::warc::post`]).
    pub fn post_append(mut self, on: bool) -> Index {
        self.post_append = on;
        self
    }
}

/// What `--on-invalid`, `--rejects`, `--dedup`, `--count`, `--stats` and
/// `--stats-json` ask of a `warc` run.
#[derive(Debug)]
pub struct Accounting {
    pub on_invalid: OnInvalid,
    pub rejects: Option<PathBuf>,
    pub dedup: Option<DedupConfig>,
    /// With `--count`, how counts are written (`dedup` is then set).
    pub count: Option<CountFormat>,
    /// `--sort`: the lines are written sorted at the end.
    pub sort: Option<normurl::warc::sort::SortConfig>,
    pub stats: bool,
    pub stats_json: Option<PathBuf>,
}

/// Checks the options, before any input is read, and turns them into the
/// main command's configuration of the same options.
pub fn config(mut a: WarcArgs) -> Result<Warc, Failure> {
    let indexing = a.cdxj || a.cdx;
    // An index's urlkey is a SURT: the wayback profile's unless -p says.
    if indexing && a.canon.profile.is_none() {
        a.canon.profile = Some(Profile::Wayback);
    }
    let get_options = super::get::options(&a.get, None, None, a.canon.idn)?;
    let form = super::get::output_form(&a.get);
    let (canon, mut rule_options) =
        shared::canonicalizer(&a.canon, form, get_options.psl.as_deref())?;
    let index = if indexing {
        let (key, _) = shared::canonicalizer(
            &a.canon,
            OutputForm::Surt(SurtOptions::CDX),
            get_options.psl.as_deref(),
        )?;
        let format = if a.cdx { Format::Cdx11 } else { Format::Cdxj };
        let keyed = a.dedup.dedup || a.dedup.count;
        let dedup = keyed.then(|| a.dedup_key.unwrap_or(DedupKey::Url));
        Some(
            Index::new(key, format, a.records.as_deref(), dedup)
                .post_append(a.post_append)
                .dir_root(a.dir_root.clone()),
        )
    } else {
        None
    };
    let output = match a.output.output {
        Some(p) if p.as_os_str() != "-" => Target::File(p),
        _ => Target::Stdout,
    };
    let compression =
        super::compress::config(&a.output.compress, &output, a.invalid.rejects.as_deref())?;
    let mut options = Options {
        select: Select::Field {
            field: NonZeroUsize::MIN,
            base_field: None,
            delimiter: Delimiter::Byte(b'\t'),
            output: FieldOutput::Line,
        },
        on_invalid: a.invalid.on_invalid,
        rejects: a.invalid.rejects.is_some(),
        canon,
        dedup: a.dedup.dedup || a.dedup.count,
        scope: shared::scope(&a.scope)?,
        ..get_options
    };
    options.rewrite = super::rule_options::rewrites(&mut rule_options, &options.canon)?;
    // As the main command writes counts: in the object with --json.
    let count = a.dedup.count.then_some(match options.get {
        Some(Get::Json) => CountFormat::Json,
        _ => CountFormat::Prefix(b'\t'),
    });
    Ok(Warc {
        files: a.files,
        normalizer: Normalizer::new(options),
        links: a.links,
        index,
        output,
        compression,
        accounting: Accounting {
            on_invalid: a.invalid.on_invalid,
            rejects: a.invalid.rejects,
            dedup: shared::dedup(&a.dedup, false),
            count,
            sort: a.sort.then(|| normurl::warc::sort::SortConfig {
                memory: a.sort_memory,
                temp_dir: a.dedup.temp_dir.clone(),
            }),
            stats: a.stats.stats,
            stats_json: a.stats.stats_json,
        },
    })
}
