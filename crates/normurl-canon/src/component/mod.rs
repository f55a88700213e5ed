/*!
The parts of a URL that `normurl --get` can write: the WHATWG getters,
fields derived from the host with the [Public Suffix List](psl), and the URL
columns of Common Crawl's columnar index. Pure: no I/O; writing a component
never allocates once the output buffer has grown.

A component of a missing part is empty: the port of `https://a.example/`,
the registered domain of an IP address. Components of the host beyond the
getters (`host_type` aside) are computed for domains only: IPv4 and IPv6
addresses, opaque hosts (`foo://Host`) and empty and null hosts give empty
values. Trailing dots of a domain are ignored by them
(`example.com.` has the registered domain `example.com`).

# Components

| name | value for `https://user:pw@www.example.co.uk:8443/a/b?q=1#top` |
|---|---|
| `href`, `url` | the whole URL |
| `protocol` | `https:` |
| `scheme` | `https` |
| `username`, `password` | `user`, `pw` |
| `host` | `www.example.co.uk:8443` |
| `hostname` | `www.example.co.uk` |
| `port` | `8443` (empty for a default port, which the parser drops) |
| `pathname` | `/a/b` |
| `search` | `?q=1` (empty for an empty query, as in browsers) |
| `hash` | `#top` |
| `origin` | `https://www.example.co.uk:8443` (`null` for opaque origins) |
| `host_type` | `domain`, `ipv4`, `ipv6`, `opaque`, `empty`, or empty for no host |
| `public_suffix` | `co.uk` |
| `registered_domain` | `example.co.uk` |
| `subdomain` | `www` |
| `reversed_host` | `uk,co,example,www` (labels reversed, as in SURTs) |
| `surt` | `uk,co,example:8443)/a/b?q=1`: the key of CDX files, the `wayback` rules on top of the profile's (what `--get surt` writes without a profile) |
| `ssurt` | urlcanon's SSURT |

`public_suffix`, `registered_domain` and `subdomain` follow the list's
algorithm with both of its sections (so `github.io` is a public suffix) and
its implicit `*` rule (an unlisted top-level domain is a public suffix).
`registered_domain` is empty when the host is a public suffix itself, and
`subdomain` when there is no registered domain.

## Common Crawl's columns

The URL columns of the flat schema of Common Crawl's columnar index
([cc-index-table], `HostName.java` and `CCIndex2Table.java`), with a null
written as empty:

| name | value |
|---|---|
| `url_surtkey` | the same as `surt` |
| `url_host_name` | `hostname`, without trailing dots for a domain |
| `url_host_tld`, `url_host_2nd_last_part` … `url_host_5th_last_part` | the last, second last … fifth last label of a domain |
| `url_host_registry_suffix` | the public suffix by the list's ICANN rules only (`com` for `x.blogspot.com`) |
| `url_host_registered_domain` | that suffix and one label more (`blogspot.com`) |
| `url_host_private_suffix` | the public suffix by the rules of both sections (`blogspot.com`) |
| `url_host_private_domain` | that suffix and one label more (`x.blogspot.com`) |
| `url_host_name_reversed` | the labels of a domain in reverse order, joined by dots (`com.blogspot.x`) |
| `url_protocol` | `scheme` |
| `url_port` | `port` |
| `url_path` | `pathname` |
| `url_query` | the query without `?`, empty when there is none |

As there, the four suffix and domain columns are null (empty) when no rule
of the list matches (an unlisted top-level domain: the implicit `*` rule
does not count), and a domain is null when the host is the suffix itself.
The differences come from the URL parser: normurl's is the WHATWG one,
Common Crawl's is `java.net.URL`, so a default port is never written
(Java keeps an explicit `:80`), the path of `http://a.example` is `/` (not
empty), hosts are punycode, and IPv4 addresses in other notations
(`http://0x7f.1/`) are already canonical IPv4 addresses.

[cc-index-table]: https://github.com/commoncrawl/cc-index-table
*/

pub mod json;
mod json_string;
pub mod params;
mod parts;
pub use crate::psl;
pub mod template;

use std::cell::{Cell, RefCell};
use std::fmt;
use std::ops::Range;
use std::str::FromStr;
use std::sync::OnceLock;

use crate::canonicalizer::Canonicalizer;
use crate::config::OutputForm;
use crate::profile::Profile;
use crate::scratch::Scratch;
use crate::surt::SurtOptions;
use normurl_url::{HostKind, Url};

pub use parts::HostParts;
use psl::PackedSplit;
#[doc(hidden)]
pub use psl::Part;
pub use psl::{PslError, PublicSuffixList, Split, BUNDLED_DATE};
#[doc(hidden)]
pub use template::render_psl_part_inline;
pub use template::Template;

macro_rules! components {
    ($($(#[$doc:meta])* $variant:ident = $name:literal,)*) => {
        /// One component of a URL; see the [module documentation](self)
        /// for what each one is.
        ///
        /// # Example
        ///
        /// ```
        /// use normurl_canon::component::Component;
        ///
        /// let c: Component = "registered_domain".parse()?;
        /// assert_eq!(c.name(), "registered_domain");
        /// assert_eq!("url".parse::<Component>()?, Component::Href);
        /// assert!("nope".parse::<Component>().is_err());
        /// # Ok::<(), normurl_canon::component::UnknownComponent>(())
        /// ```
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum Component {
            $($(#[$doc])* $variant,)*
        }

        impl Component {
            /// Every component, in the order of `--json` objects.
            pub const ALL: &'static [Component] = &[$(Component::$variant,)*];

            /// The component's name.
            pub fn name(self) -> &'static str {
                match self {
                    $(Component::$variant => $name,)*
                }
            }
        }
    };
}

components! {
    /// The whole URL (also named `url`).
    Href = "href",
    /// The scheme and `:`.
    Protocol = "protocol",
    /// The scheme.
    Scheme = "scheme",
    /// The username.
    Username = "username",
    /// The password.
    Password = "password",
    /// The host and port.
    Host = "host",
    /// The host.
    Hostname = "hostname",
    /// The port.
    Port = "port",
    /// The path.
    Pathname = "pathname",
    /// `?` and the query.
    Search = "search",
    /// `#` and the fragment.
    Hash = "hash",
    /// The origin.
    Origin = "origin",
    /// The kind of host.
    HostType = "host_type",
    /// The public suffix (both sections, implicit `*` rule).
    PublicSuffix = "public_suffix",
    /// The public suffix and one label more.
    RegisteredDomain = "registered_domain",
    /// The labels before the registered domain.
    Subdomain = "subdomain",
    /// The labels reversed, comma-separated.
    ReversedHost = "reversed_host",
    /// The CDX SURT.
    Surt = "surt",
    /// urlcanon's SSURT.
    Ssurt = "ssurt",
    /// Common Crawl's `url_surtkey`.
    UrlSurtkey = "url_surtkey",
    /// Common Crawl's `url_host_name`.
    UrlHostName = "url_host_name",
    /// Common Crawl's `url_host_tld`.
    UrlHostTld = "url_host_tld",
    /// Common Crawl's `url_host_2nd_last_part`.
    UrlHost2ndLastPart = "url_host_2nd_last_part",
    /// Common Crawl's `url_host_3rd_last_part`.
    UrlHost3rdLastPart = "url_host_3rd_last_part",
    /// Common Crawl's `url_host_4th_last_part`.
    UrlHost4thLastPart = "url_host_4th_last_part",
    /// Common Crawl's `url_host_5th_last_part`.
    UrlHost5thLastPart = "url_host_5th_last_part",
    /// Common Crawl's `url_host_registry_suffix`.
    UrlHostRegistrySuffix = "url_host_registry_suffix",
    /// Common Crawl's `url_host_registered_domain`.
    UrlHostRegisteredDomain = "url_host_registered_domain",
    /// Common Crawl's `url_host_private_suffix`.
    UrlHostPrivateSuffix = "url_host_private_suffix",
    /// Common Crawl's `url_host_private_domain`.
    UrlHostPrivateDomain = "url_host_private_domain",
    /// Common Crawl's `url_host_name_reversed`.
    UrlHostNameReversed = "url_host_name_reversed",
    /// Common Crawl's `url_protocol`.
    UrlProtocol = "url_protocol",
    /// Common Crawl's `url_port`.
    UrlPort = "url_port",
    /// Common Crawl's `url_path`.
    UrlPath = "url_path",
    /// Common Crawl's `url_query`.
    UrlQuery = "url_query",
}

/// A name that is no component.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownComponent(pub String);

impl fmt::Display for UnknownComponent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown component {:?} (`normurl rules` lists them)",
            self.0
        )
    }
}

impl std::error::Error for UnknownComponent {}

impl FromStr for Component {
    type Err = UnknownComponent;

    fn from_str(s: &str) -> Result<Component, UnknownComponent> {
        if s == "url" {
            return Ok(Component::Href);
        }
        Component::ALL
            .iter()
            .copied()
            .find(|c| c.name() == s)
            .ok_or_else(|| UnknownComponent(s.to_owned()))
    }
}

impl fmt::Display for Component {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Component {
    /// Whether the component is one of the scheme and host alone, which
    /// [`Fields::of_host`] writes.
    pub fn of_host(self) -> bool {
        use Component::*;
        !matches!(
            self,
            Href | Username
                | Password
                | Pathname
                | UrlPath
                | Search
                | Hash
                | UrlQuery
                | Origin
                | Surt
                | UrlSurtkey
                | Ssurt
        )
    }

    /// Whether the component needs the Public Suffix List.
    pub fn uses_psl(self) -> bool {
        self.psl_part().is_some()
    }

    /// What of a split domain the component is, for those of the list.
    #[doc(hidden)]
    pub fn psl_part(self) -> Option<Part> {
        use Component::*;
        Some(match self {
            PublicSuffix => Part::PublicSuffix,
            RegisteredDomain => Part::RegisteredDomain,
            Subdomain => Part::Subdomain,
            UrlHostRegistrySuffix => Part::IcannSuffix,
            UrlHostRegisteredDomain => Part::IcannDomain,
            UrlHostPrivateSuffix => Part::ListedSuffix,
            UrlHostPrivateDomain => Part::ListedDomain,
            _ => return None,
        })
    }
}

/// The components of one URL, for writing several of them: the Public
/// Suffix List is asked once, by the first component that needs it.
///
/// # Example
///
/// ```
/// use normurl_canon::component::{Component, Fields, PublicSuffixList};
/// use normurl_canon::Scratch;
/// use normurl_url::Url;
///
/// let url = Url::parse("http://www.Example.co.uk:8080/x?y")?;
/// let fields = Fields::new(&url, PublicSuffixList::bundled());
/// let (mut scratch, mut out) = (Scratch::new(), Vec::new());
/// for c in [Component::RegisteredDomain, Component::Port, Component::Surt] {
///     fields.write(c, &mut scratch, &mut out);
///     out.push(b' ');
/// }
/// assert_eq!(out, b"example.co.uk 8080 uk,co,example:8080)/x?y ");
/// # Ok::<(), normurl_url::ParseError>(())
/// ```
pub struct Fields<'a> {
    /// The parsed URL, when there is one: [`Fields::of_host`] has only
    /// the parts of the host.
    url: Option<&'a Url>,
    parts: HostParts<'a>,
    psl: &'a PublicSuffixList,
    /// The split of the host, once a component has asked for it (a
    /// `Cell`, not a `OnceCell`: a cache hit then needs no call).
    split: Cell<Option<Split>>,
    cache: Option<&'a RefCell<SplitCache>>,
}

/// The [`Split`]s of recent hosts, kept from line to line: lines of crawl
/// logs and CDX files come host by host, and other lists repeat hosts (the
/// benchmark file has few distinct hosts in many lines: see
/// docs/performance-history.md), and a comparison costs less than a walk
/// of the list. An open hash table of 65,536 hosts of up to 24 bytes
/// (nearly all of that file's lines' hosts), 32 bytes each, two to a
/// bucket of one cache line; a host is in the first four buckets from its
/// own, and when those are full the first slot of its own bucket gives
/// way. 2 MiB allocated at the first lookup;
/// longer hosts walk the list each time. For one list only.
#[derive(Debug, Default)]
pub struct SplitCache {
    /// `None` until the first lookup.
    buckets: Option<Box<[Bucket; BUCKETS]>>,
}

/// Buckets of a [`SplitCache`] (a power of two).
const BUCKETS: usize = 32768;

/// How many buckets, from its own on, a host may be kept in.
const PROBES: usize = 4;

/// The longest host a [`SplitCache`] holds: its first and last 8 bytes
/// and the 8 after the first are words of the slot.
const HOST_MAX: usize = 24;

/// Two slots, one cache line: a bucket costs one memory access.
#[derive(Clone, Copy, Debug, Default)]
#[repr(align(64))]
struct Bucket([CachedSplit; 2]);

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

/// One host and its split (32 bytes).
#[derive(Clone, Copy, Debug, Default)]
struct CachedSplit {
    /// [`HostKey`]'s words of the host.
    head: u64,
    tail: u64,
    middle: u64,
    /// The host's length; 0 for an empty slot (an empty host is never
    /// cached).
    len: u8,
    split: PackedSplit,
}

impl CachedSplit {
    /// Whether this is the slot of `key`'s host. Word by word: an array
    /// comparison went through the stack.
    #[inline(always)]
    fn holds(&self, key: &HostKey) -> bool {
        self.len == key.len
            && self.head == key.head
            && self.tail == key.tail
            && self.middle == key.middle
    }
}

/// A host of at most [`HOST_MAX`] bytes, which a [`SplitCache`] may hold,
/// and its bucket: computed once a line, when the host is first known
/// ([`SplitCache::key`], which the caller hands to
/// [`SplitCache::prefetch`] and then to [`SplitCache::range`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[doc(hidden)]
pub struct HostKey {
    /// The host's first and last words (`psl::hash::words`), and its
    /// bytes 8 to 16 when it is longer than 16 (else 0): with its length,
    /// the host.
    head: u64,
    tail: u64,
    middle: u64,
    len: u8,
    home: usize,
}

/// Where [`SplitCache::lookup`] found no split: the slot to fill (bucket
/// and way), and the host's words, or `None` when the host is not one the
/// cache holds.
type Miss = Option<(usize, usize, HostKey)>;

impl SplitCache {
    /// `psl.split(host)`, or the answer kept for `host`.
    #[inline(always)]
    pub fn split(&mut self, psl: &PublicSuffixList, host: &str) -> Split {
        match self.lookup(self.key(host.as_bytes())) {
            Ok(packed) => packed.unpack(),
            Err(miss) => self.fill(psl, host, miss),
        }
    }

    /// Where `part` of `host` (a domain) is: [`SplitCache::split`]'s
    /// [`Split::range`], a hit's offsets read from its slot. `key` is
    /// `self.key(host)`, computed when the caller prefetched its bucket;
    /// `psl` gives the list, asked only on a miss.
    #[inline(always)]
    pub(crate) fn range<'p>(
        &mut self,
        psl: impl FnOnce() -> &'p PublicSuffixList,
        host: &str,
        key: Option<HostKey>,
        part: Part,
    ) -> Range<usize> {
        debug_assert_eq!(key, self.key(host.as_bytes()), "{host}");
        match self.lookup(key) {
            Ok(packed) => packed.range(host.as_bytes(), part),
            Err(miss) => self.fill_range(psl(), host, miss, part),
        }
    }

    /// The key of host `h`; `None` for a host the cache does not hold, or
    /// before the table is allocated (the first lookup allocates it).
    #[inline(always)]
    #[doc(hidden)]
    pub fn key(&self, h: &[u8]) -> Option<HostKey> {
        let n = h.len();
        if n == 0 || n > HOST_MAX || self.buckets.is_none() {
            return None;
        }
        let (head, tail) = psl::hash::words(h);
        Some(HostKey {
            head,
            tail,
            middle: middle_word(h),
            len: n as u8,
            home: bucket_index(head, tail, n),
        })
    }

    /// Starts loading the bucket of `key` into the processor's cache, for
    /// a [`SplitCache::range`] of it a little later: a bucket of the 2 MiB
    /// table is often not in the cache, and the load otherwise stalls the
    /// lookup.
    #[inline(always)]
    #[doc(hidden)]
    pub fn prefetch(&self, key: &HostKey) {
        let Some(buckets) = &self.buckets else {
            return;
        };
        let bucket = &buckets[key.home];
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch reads nothing the program sees and never
        // faults; the address is that of a bucket.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(bucket).cast());
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = bucket;
    }

    /// The split kept for the host of `key`, or where to keep it.
    #[inline(always)]
    fn lookup(&self, key: Option<HostKey>) -> Result<PackedSplit, Miss> {
        let (Some(key), Some(buckets)) = (key, &self.buckets) else {
            return Err(None);
        };
        let mut b = key.home;
        for _ in 0..PROBES {
            let [first, second] = &buckets[b].0;
            if first.holds(&key) {
                return Ok(first.split);
            }
            // Slots are never emptied: no host is kept past an empty one.
            if first.len == 0 {
                return Err(Some((b, 0, key)));
            }
            if second.holds(&key) {
                return Ok(second.split);
            }
            if second.len == 0 {
                return Err(Some((b, 1, key)));
            }
            b = (b + 1) & (BUCKETS - 1);
        }
        Err(Some((key.home, 0, key)))
    }

    /// [`SplitCache::fill`]'s [`Split::range`].
    #[inline(never)]
    fn fill_range(
        &mut self,
        psl: &PublicSuffixList,
        host: &str,
        miss: Miss,
        part: Part,
    ) -> Range<usize> {
        self.fill(psl, host, miss).range(host.as_bytes(), part)
    }

    /// Splits `host`, which the cache does not hold, and keeps the split
    /// in the slot of `miss`; the first time, allocates the slots.
    #[inline(never)]
    fn fill(&mut self, psl: &PublicSuffixList, host: &str, miss: Miss) -> Split {
        let split = psl.split(host);
        match (miss, &mut self.buckets) {
            (Some((b, way, key)), Some(buckets)) => {
                buckets[b].0[way] = CachedSplit {
                    head: key.head,
                    tail: key.tail,
                    middle: key.middle,
                    len: key.len,
                    split: split.pack(),
                };
            }
            // The first lookup: empty slots (length 0) match no host. Kept
            // the next time.
            (_, buckets @ None) => {
                let slots = vec![Bucket::default(); BUCKETS].into_boxed_slice();
                *buckets = Some(slots.try_into().expect("BUCKETS buckets"));
            }
            (None, Some(_)) => {}
        }
        split
    }
}

/// The bucket of a host of `n` bytes whose first and last words are
/// these: the top bits of one multiplication (the list's tables' key has
/// a second, which a cache, where a collision costs a walk, can spare).
#[inline(always)]
fn bucket_index(head: u64, tail: u64, n: usize) -> usize {
    let key = (head ^ tail.rotate_left(29) ^ n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (key >> 48) as usize & (BUCKETS - 1)
}

/// The bytes of `h` (at most [`HOST_MAX`]) from 8 to 16 when it has more
/// than 16, which its first and last words do not cover; else 0.
#[inline(always)]
fn middle_word(h: &[u8]) -> u64 {
    match h.get(8..16) {
        Some(word) if h.len() > 16 => u64::from_le_bytes(word.try_into().expect("8 bytes")),
        _ => 0,
    }
}

impl<'a> Fields<'a> {
    /// The components of `url`, with the suffixes of `psl`.
    pub fn new(url: &'a Url, psl: &'a PublicSuffixList) -> Fields<'a> {
        Fields {
            url: Some(url),
            parts: HostParts::of_url(url),
            psl,
            split: Cell::new(None),
            cache: None,
        }
    }

    /// [`Fields::new`], asking `cache` before the list (see [`SplitCache`]).
    pub fn with_cache(
        url: &'a Url,
        psl: &'a PublicSuffixList,
        cache: &'a RefCell<SplitCache>,
    ) -> Fields<'a> {
        Fields {
            cache: Some(cache),
            ..Fields::new(url, psl)
        }
    }

    /// The components of a URL of which only the scheme and host are
    /// known, asking `cache` before the list: for templates whose every
    /// component [`Component::of_host`] is. Any other component is
    /// written empty.
    pub fn of_host(
        parts: HostParts<'a>,
        psl: &'a PublicSuffixList,
        cache: &'a RefCell<SplitCache>,
    ) -> Fields<'a> {
        Fields {
            url: None,
            parts,
            psl,
            split: Cell::new(None),
            cache: Some(cache),
        }
    }

    /// The host without trailing dots, for a domain; else empty. Not
    /// stored: the getters, which most templates are, never need it.
    #[inline]
    fn domain(&self) -> &'a str {
        match self.parts.kind {
            HostKind::Domain => self.parts.hostname.trim_end_matches('.'),
            _ => "",
        }
    }

    /// The URL, unless these are the fields of [`Fields::of_host`].
    pub fn url(&self) -> Option<&'a Url> {
        self.url
    }

    #[inline]
    fn split(&self) -> Split {
        if let Some(split) = self.split.get() {
            return split;
        }
        let host = self.parts.hostname;
        let split = match self.cache {
            Some(cache) => cache.borrow_mut().split(self.psl, host),
            None => self.psl.split(host),
        };
        self.split.set(Some(split));
        split
    }

    /// Appends component `c` to `out`. `scratch` is for the SURT forms,
    /// which the canonicalizer writes.
    pub fn write(&self, c: Component, scratch: &mut Scratch, out: &mut Vec<u8>) {
        use Component::*;
        let parts = &self.parts;
        let text: &str = match c {
            Protocol => parts.protocol,
            Scheme | UrlProtocol => parts.scheme(),
            Host => parts.host,
            Hostname => parts.hostname,
            Port | UrlPort => parts.port,
            HostType => host_type(parts.kind),
            ReversedHost => return self.write_reversed(b',', out),
            UrlHostNameReversed => return self.write_reversed(b'.', out),
            UrlHostName => self.domain_or_host(),
            UrlHostTld => self.label(0),
            UrlHost2ndLastPart => self.label(1),
            UrlHost3rdLastPart => self.label(2),
            UrlHost4thLastPart => self.label(3),
            UrlHost5thLastPart => self.label(4),
            c => match c.psl_part() {
                Some(part) => {
                    if let Some(host) = split_host(parts) {
                        write_host_range(out, host, self.split().range(host.as_bytes(), part));
                    }
                    return;
                }
                None => return self.write_of_url(c, scratch, out),
            },
        };
        extend_short(out, text.as_bytes());
    }

    /// Appends component `c`, one that needs more of the URL than its
    /// host, to `out`.
    fn write_of_url(&self, c: Component, scratch: &mut Scratch, out: &mut Vec<u8>) {
        use Component::*;
        let Some(url) = self.url else {
            debug_assert!(false, "{c} written from the host alone");
            return;
        };
        let text: &str = match c {
            Href => url.href(),
            Username => url.username(),
            Password => url.password(),
            Pathname | UrlPath => url.pathname(),
            Search => url.search(),
            Hash => url.hash(),
            UrlQuery => url.query().unwrap_or(""),
            Origin => return out.extend_from_slice(url.origin().as_bytes()),
            Surt | UrlSurtkey | Ssurt => return write_surt(c, url, scratch, out),
            _ => "",
        };
        out.extend_from_slice(text.as_bytes());
    }

    /// Label `i` of the domain from the right (0 is the top-level domain).
    fn label(&self, i: usize) -> &'a str {
        let d = self.domain();
        if d.is_empty() {
            return "";
        }
        d.rsplit('.').nth(i).unwrap_or("")
    }

    /// Common Crawl's host name: without trailing dots for a domain.
    fn domain_or_host(&self) -> &'a str {
        match self.parts.kind {
            HostKind::Domain => self.domain(),
            _ => self.parts.hostname,
        }
    }

    fn write_reversed(&self, separator: u8, out: &mut Vec<u8>) {
        for (i, label) in self.domain().rsplit('.').enumerate() {
            if i > 0 {
                out.push(separator);
            }
            out.extend_from_slice(label.as_bytes());
        }
    }
}

/// The host name of `parts` that the list splits: a domain's, with its
/// trailing dots (`Split` knows where the domain ends); `None` for other
/// hosts, whose components of the list are empty.
#[inline(always)]
fn split_host<'a>(parts: &HostParts<'a>) -> Option<&'a str> {
    (parts.kind == HostKind::Domain).then_some(parts.hostname)
}

/// Appends `range` of `host`, a part of its split, to `out`.
#[inline(always)]
fn write_host_range(out: &mut Vec<u8>, host: &str, range: Range<usize>) {
    extend_short(out, host.as_bytes().get(range).unwrap_or_default());
}

/// `out.extend_from_slice(bytes)` for the short values of the host's
/// components: up to 32 bytes are two overlapping loads and stores of one
/// width, not a call to `memcpy`.
#[inline(always)]
fn extend_short(out: &mut Vec<u8>, bytes: &[u8]) {
    let n = bytes.len();
    if n > 32 {
        return out.extend_from_slice(bytes);
    }
    out.reserve(32);
    let len = out.len();
    let (src, dst) = (bytes.as_ptr(), out.as_mut_ptr());
    // SAFETY: `reserve` made room for 32 bytes after `len`, and `bytes`
    // (at most 32) cannot be in `out`'s spare capacity, which nothing
    // borrows. Each copy reads within `bytes` (its second at `n - W` for a
    // width `W <= n`) and writes within `dst[len..len + n]`.
    unsafe {
        let dst = dst.add(len);
        macro_rules! two {
            ($t:ty) => {{
                let w = std::mem::size_of::<$t>();
                let (a, b) = (
                    src.cast::<$t>().read_unaligned(),
                    src.add(n - w).cast::<$t>().read_unaligned(),
                );
                dst.cast::<$t>().write_unaligned(a);
                dst.add(n - w).cast::<$t>().write_unaligned(b);
            }};
        }
        match n {
            16..=32 => two!(u128),
            8..=15 => two!(u64),
            4..=7 => two!(u32),
            1..=3 => {
                *dst = *src;
                *dst.add(n / 2) = *src.add(n / 2);
                *dst.add(n - 1) = *src.add(n - 1);
            }
            _ => {}
        }
        out.set_len(len + n);
    }
}

/// The name of `--get host_type`'s value.
fn host_type(kind: HostKind) -> &'static str {
    match kind {
        HostKind::None => "",
        HostKind::Empty => "empty",
        HostKind::Domain => "domain",
        HostKind::Ipv4 => "ipv4",
        HostKind::Ipv6 => "ipv6",
        HostKind::Opaque => "opaque",
    }
}

/// Writes the SURT (CDX flavor) or SSURT of `url` as it is: the
/// canonicalizer of the `whatwg` profile (no rules) with that output.
fn write_surt(c: Component, url: &Url, scratch: &mut Scratch, out: &mut Vec<u8>) {
    // `surt` and `url_surtkey` are the keys of CDX indexes (what `--get
    // surt` writes without a profile, and Common Crawl's column): the
    // `wayback` rules on top of the profile's. `ssurt` is urlcanon's form
    // of the URL as it is.
    static SURT: OnceLock<[Canonicalizer; 2]> = OnceLock::new();
    let [surt, ssurt] = SURT.get_or_init(|| {
        [
            (Profile::Wayback, OutputForm::Surt(SurtOptions::CDX)),
            (Profile::Whatwg, OutputForm::Ssurt),
        ]
        .map(|(profile, form)| Canonicalizer::builder(profile).output(form).build())
    });
    let canon = if c == Component::Ssurt { ssurt } else { surt };
    canon.apply(url, scratch, out);
}

#[cfg(test)]
mod tests;
