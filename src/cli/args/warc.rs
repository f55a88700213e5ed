//! The arguments of `normurl warc`.

use std::path::PathBuf;

use clap::Args as ClapArgs;

/// The options of `normurl warc`: the groups shared with the main
/// command ([`super::shared`], [`super::get::GetArgs`]), with the same
/// meanings, and `--links`.
#[derive(Debug, ClapArgs)]
#[command(group = clap::ArgGroup::new("index").args(["cdxj", "cdx"]).multiple(false))]
// The group the shared --dedup-memory and -T require (here -T serves
// --sort as well).
#[command(group(clap::ArgGroup::new("dedup_or_count").args(["dedup", "count", "sort"]).multiple(true)))]
pub struct WarcArgs {
    /// WARC files: plain, gzip with one member per record (.warc.gz, and
    /// WAT and WET files), or zstd with one frame per record (.warc.zst,
    /// with or without a dictionary); ARC files (version 1 or 2, plain or
    /// gzip per record), but not with --links; - reads standard input.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,

    #[command(flatten)]
    pub output: super::shared::OutputArgs,

    #[command(flatten)]
    pub canon: super::shared::CanonArgs,

    #[command(flatten)]
    pub get: super::get::GetArgs,

    /// WAT files: one line per outlink of each page instead, PAGE TAB
    /// LINK TAB PATH: the page's URL, the link resolved against the page's
    /// <base href> (or the page, when the base does not parse or is a
    /// data: or javascript: URL, as browsers do) and normalized, and where
    /// the page has it
    /// (A@/href, IMG@/src, LINK@/href, SCRIPT@/src, META@/content for an
    /// og:url or a refresh's URL, Location for a redirect). A link that
    /// does not parse is invalid, written as it was read (see
    /// --on-invalid).
    #[arg(long, conflicts_with_all = ["get", "json", "keep_if", "drop_if", "cdxj", "cdx"])]
    pub links: bool,

    /// Write a CDXJ index, as pywb's cdxj-indexer does: one line per
    /// record of the --records types, `URLKEY TIMESTAMP {JSON}`, the
    /// urlkey the SURT of the profile and rules (wayback by default), the
    /// JSON's url, mime, status, digest (WARC-Payload-Digest, or the SHA-1
    /// of the payload when the record has none), length, offset and
    /// filename.
    #[arg(long, conflicts_with_all = ["cdx", "get", "json", "keep_if", "drop_if"])]
    pub cdxj: bool,

    /// Write a classic CDX index of 11 fields (` CDX N b a m s k r M S V
    /// g`, the header line before each file's lines), as cdxj-indexer -11
    /// does.
    #[arg(long, conflicts_with_all = ["get", "json", "keep_if", "drop_if"])]
    pub cdx: bool,

    /// With --cdxj or --cdx, the record types to index, comma-separated,
    /// or all. Default: response,revisit,resource,metadata, without the
    /// resource and metadata records of Content-Type
    /// application/warc-fields (cdxj-indexer's default).
    #[arg(long, value_name = "TYPES", requires = "index")]
    pub records: Option<String>,

    /// With --dedup or --count and --cdxj or --cdx, what makes two index
    /// lines the same: url (the urlkey, the default) or url+digest (the
    /// urlkey and the payload digest: one line per URL and content, so
    /// that a revisit of content already indexed goes).
    #[arg(long, value_name = "KEY", requires_all = ["dedup_or_count", "index"])]
    pub dedup_key: Option<DedupKey>,

    /// Write the lines sorted by their bytes (UTF-8 byte order, which is
    /// code point order), a line the same as the one before it written
    /// once, as cdxj-indexer --sort does: the order CDX and CDXJ files
    /// need for binary search (pywb, OutbackCDX). The lines of all the
    /// FILEs make one sorted output; with --dedup, the first line of each
    /// key is kept, then sorted. Lines past --sort-memory are sorted in
    /// runs on disk (in -T DIR) and merged, as GNU sort does.
    #[arg(long)]
    pub sort: bool,

    /// With --cdxj or --cdx, as cdxj-indexer --post-append: the urlkey of
    /// a POST or PUT request and of its response (the records next to
    /// each other, the second's WARC-Concurrent-To the first's
    /// WARC-Record-ID) is made of the URL with `__wb_method=POST` and the
    /// request body as a query appended (form fields, JSON values, a
    /// multipart form's parts, or else the body in base64 as
    /// `__wb_post_data`); the response's CDXJ line gains requestBody and
    /// method. Files are then read on one core.
    #[arg(long, requires = "index")]
    pub post_append: bool,

    /// With --cdxj or --cdx, the filename field is the file's path from
    /// DIR (`crawl/a.warc.gz`, `../b.warc.gz`), as cdxj-indexer --dir-root
    /// writes it, rather than its name alone.
    #[arg(long, value_name = "DIR", requires = "index")]
    pub dir_root: Option<PathBuf>,

    /// Memory budget of --sort (K, M, G suffixes): the lines held before a
    /// sorted run is written to the temporary directory.
    #[arg(long, value_name = "BYTES", default_value = "512M", value_parser = super::values::parse_size, requires = "sort")]
    pub sort_memory: usize,

    #[command(flatten)]
    pub invalid: super::shared::InvalidArgs,

    #[command(flatten)]
    pub dedup: super::shared::DedupArgs,

    #[command(flatten)]
    pub stats: super::shared::StatsArgs,

    #[command(flatten)]
    pub scope: super::shared::ScopeArgs,
}

/// What `--dedup` compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DedupKey {
    /// The normalized URI (an index line's urlkey).
    Url,
    /// An index line's urlkey and payload digest.
    #[value(name = "url+digest")]
    UrlDigest,
}
