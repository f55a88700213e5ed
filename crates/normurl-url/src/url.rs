//! The [`Url`] type: a parsed URL as one serialization plus component
//! offsets, its getters and its parsing entry points.

use crate::error::ParseError;
use crate::host::HostKind;
use crate::scheme::SchemeType;
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;

/// A parsed URL: its serialization plus component offsets.
///
/// The layout, with `scheme_end` at the `:`:
///
/// ```text
/// https://user:pass@example.com:8080/path/to?query#frag
///      |  |   |    |          |    |       |     |
///      |  |   |    host_start |    |       |     fragment_start
///      |  |   username_end    |    |       query_start
///      |  scheme_end + 3      |    path_start
///      scheme_end             host_end
/// ```
///
/// When the URL has no host, `username_end == host_start == host_end ==
/// scheme_end + 1`, and `path_start` is also there unless the serializer
/// inserted `/.` (see [`Url::pathname`]).
///
/// # Example
///
/// ```
/// use normurl_url::Url;
///
/// let base = Url::parse("https://user:pw@EXAMPLE.com:8080/a/b?q=1#top")?;
/// assert_eq!(base.href(), "https://user:pw@example.com:8080/a/b?q=1#top");
/// assert_eq!(base.protocol(), "https:");
/// assert_eq!(base.username(), "user");
/// assert_eq!(base.password(), "pw");
/// assert_eq!(base.host(), "example.com:8080");
/// assert_eq!(base.hostname(), "example.com");
/// assert_eq!(base.port(), "8080");
/// assert_eq!(base.pathname(), "/a/b");
/// assert_eq!(base.search(), "?q=1");
/// assert_eq!(base.hash(), "#top");
/// assert_eq!(base.origin(), "https://example.com:8080");
///
/// let url = Url::parse_with_base("../c d", &base)?;
/// assert_eq!(url.href(), "https://user:pw@example.com:8080/c%20d");
/// # Ok::<(), normurl_url::ParseError>(())
/// ```
#[derive(Clone)]
pub struct Url {
    /// The href. Always ASCII.
    pub(crate) serialization: String,
    /// Index of the `:` that ends the scheme.
    pub(crate) scheme_end: u32,
    /// End of the username; equal to `host_start` when there are no
    /// credentials. When a password follows, the byte here is `:`.
    pub(crate) username_end: u32,
    pub(crate) host_start: u32,
    pub(crate) host_end: u32,
    /// The port, when it is not null (default ports are always null).
    pub(crate) port: Option<u16>,
    pub(crate) path_start: u32,
    /// Index of the `?`, when the query is not null.
    pub(crate) query_start: Option<u32>,
    /// Index of the `#`, when the fragment is not null.
    pub(crate) fragment_start: Option<u32>,
    pub(crate) scheme_type: SchemeType,
    pub(crate) host_kind: HostKind,
}

impl Url {
    /// The end of every parse of `input` into `self`: after a failure the
    /// URL is `about:blank` (the parser may have left it half written), so
    /// that it is valid whatever the result; debug builds check that.
    pub(crate) fn settle(
        &mut self,
        result: Result<(), ParseError>,
        input: &str,
    ) -> Result<(), ParseError> {
        if result.is_err() {
            self.set_about_blank();
        }
        debug_assert_eq!(self.check_invariants(), Ok(()), "input {input:?}");
        result
    }

    /// A URL with an empty serialization; only valid once parsed into.
    pub(crate) fn empty() -> Url {
        Url {
            serialization: String::new(),
            scheme_end: 0,
            username_end: 0,
            host_start: 0,
            host_end: 0,
            port: None,
            path_start: 0,
            query_start: None,
            fragment_start: None,
            scheme_type: SchemeType::NotSpecial,
            host_kind: HostKind::None,
        }
    }

    pub(crate) fn set_about_blank(&mut self) {
        self.serialization.clear();
        self.serialization.push_str("about:blank");
        self.scheme_end = 5;
        self.username_end = 6;
        self.host_start = 6;
        self.host_end = 6;
        self.port = None;
        self.path_start = 6;
        self.query_start = None;
        self.fragment_start = None;
        self.scheme_type = SchemeType::NotSpecial;
        self.host_kind = HostKind::None;
    }

    /// The serialization: `new URL(..).href`.
    #[inline]
    pub fn href(&self) -> &str {
        &self.serialization
    }

    /// The serialization (same as [`Url::href`]).
    #[inline]
    pub fn as_str(&self) -> &str {
        &self.serialization
    }

    /// Consumes the URL and returns its serialization.
    pub fn into_string(self) -> String {
        self.serialization
    }

    #[inline]
    pub(crate) fn slice(&self, start: u32, end: u32) -> &str {
        &self.serialization[start as usize..end as usize]
    }

    /// Where the host starts and ends in the href: the byte offsets of
    /// [`Url::hostname`], without the `str` slicing (for the
    /// canonicalizer's fast path, which works on the href's bytes).
    #[inline]
    pub fn host_offsets(&self) -> (usize, usize) {
        (self.host_start as usize, self.host_end as usize)
    }

    /// Where [`Url::pathname`] starts in the href.
    #[inline]
    pub fn path_offset(&self) -> usize {
        self.path_start as usize
    }

    /// The offsets of the `?` and of the `#` in the href, when the query
    /// and the fragment are not null.
    #[inline]
    pub fn query_fragment_offsets(&self) -> (Option<usize>, Option<usize>) {
        (
            self.query_start.map(|q| q as usize),
            self.fragment_start.map(|f| f as usize),
        )
    }

    #[inline]
    pub(crate) fn len_u32(&self) -> u32 {
        self.serialization.len() as u32
    }

    /// The scheme followed by `:`, e.g. `"https:"`.
    #[inline]
    pub fn protocol(&self) -> &str {
        self.slice(0, self.scheme_end + 1)
    }

    /// The scheme, lowercase, without the `:`.
    #[inline]
    pub fn scheme(&self) -> &str {
        self.slice(0, self.scheme_end)
    }

    /// The kind of scheme (special or not).
    #[inline]
    pub fn scheme_type(&self) -> SchemeType {
        self.scheme_type
    }

    /// What kind of host the URL has ([`HostKind::None`] for a null host).
    #[inline]
    pub fn host_kind(&self) -> HostKind {
        self.host_kind
    }

    /// Whether the serialization has `//` after the scheme, i.e. the host is
    /// not null.
    #[inline]
    pub fn has_host(&self) -> bool {
        self.host_kind != HostKind::None
    }

    /// Whether the URL has an [opaque path](https://url.spec.whatwg.org/#url-opaque-path)
    /// (e.g. `mailto:a@b`).
    #[inline]
    pub fn has_opaque_path(&self) -> bool {
        !self.has_host()
            && self
                .serialization
                .as_bytes()
                .get(self.path_start as usize)
                .is_none_or(|&b| b != b'/')
    }

    /// The username, percent-encoded; empty when there is none.
    pub fn username(&self) -> &str {
        if self.has_host() && self.username_end > self.scheme_end + 3 {
            self.slice(self.scheme_end + 3, self.username_end)
        } else {
            ""
        }
    }

    /// The password, percent-encoded; empty when there is none.
    pub fn password(&self) -> &str {
        if self.has_host()
            && self.host_start > self.username_end
            && self.serialization.as_bytes()[self.username_end as usize] == b':'
        {
            self.slice(self.username_end + 1, self.host_start - 1)
        } else {
            ""
        }
    }

    /// The host and, when not null, the port: `new URL(..).host`.
    pub fn host(&self) -> &str {
        if self.port.is_some() {
            self.slice(self.host_start, self.path_start)
        } else {
            self.hostname()
        }
    }

    /// The serialized host without the port: `new URL(..).hostname`. IPv6
    /// addresses keep their brackets.
    #[inline]
    pub fn hostname(&self) -> &str {
        self.slice(self.host_start, self.host_end)
    }

    /// The port as written in the href (`""` when null): `new URL(..).port`.
    pub fn port(&self) -> &str {
        if self.port.is_some() {
            self.slice(self.host_end + 1, self.path_start)
        } else {
            ""
        }
    }

    /// The port number, when not null. Default ports are always null.
    #[inline]
    pub fn port_number(&self) -> Option<u16> {
        self.port
    }

    /// The path: `new URL(..).pathname`.
    ///
    /// When a URL without host has a path starting with an empty segment,
    /// the href carries `/.` before the path (`web+demo:/.//not-a-host/`);
    /// the pathname does not include it.
    pub fn pathname(&self) -> &str {
        let end = self
            .query_start
            .or(self.fragment_start)
            .unwrap_or(self.len_u32());
        self.slice(self.path_start, end)
    }

    /// `?` followed by the query, or `""` when the query is null or empty:
    /// `new URL(..).search`.
    pub fn search(&self) -> &str {
        match self.query_start {
            Some(q) => {
                let end = self.fragment_start.unwrap_or(self.len_u32());
                if end - q == 1 {
                    ""
                } else {
                    self.slice(q, end)
                }
            }
            None => "",
        }
    }

    /// The query without `?`, or `None` when it is null.
    pub fn query(&self) -> Option<&str> {
        self.query_start
            .map(|q| self.slice(q + 1, self.fragment_start.unwrap_or(self.len_u32())))
    }

    /// `#` followed by the fragment, or `""` when the fragment is null or
    /// empty: `new URL(..).hash`.
    pub fn hash(&self) -> &str {
        match self.fragment_start {
            Some(f) if self.len_u32() - f > 1 => self.slice(f, self.len_u32()),
            _ => "",
        }
    }

    /// The fragment without `#`, or `None` when it is null.
    pub fn fragment(&self) -> Option<&str> {
        self.fragment_start
            .map(|f| self.slice(f + 1, self.len_u32()))
    }

    /// The href without the fragment (the serializer's *exclude fragment*).
    pub fn href_without_fragment(&self) -> &str {
        &self.serialization[..self.fragment_start.unwrap_or(self.len_u32()) as usize]
    }

    /// The [ASCII serialization](https://html.spec.whatwg.org/#ascii-serialisation-of-an-origin)
    /// of the URL's [origin](https://url.spec.whatwg.org/#concept-url-origin):
    /// `new URL(..).origin`. Opaque origins serialize as `"null"`.
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_url::Url;
    ///
    /// assert_eq!(Url::parse("https://a.example:443/x")?.origin(), "https://a.example");
    /// assert_eq!(Url::parse("blob:https://a.example:8443/uuid")?.origin(), "https://a.example:8443");
    /// assert_eq!(Url::parse("file:///etc/passwd")?.origin(), "null");
    /// # Ok::<(), normurl_url::ParseError>(())
    /// ```
    pub fn origin(&self) -> String {
        match self.scheme_type {
            SchemeType::Http
            | SchemeType::Https
            | SchemeType::Ws
            | SchemeType::Wss
            | SchemeType::Ftp => {
                // scheme "://" host [":" port]
                let mut s = String::with_capacity(self.path_start as usize);
                s.push_str(self.protocol());
                s.push_str("//");
                s.push_str(self.host());
                s
            }
            SchemeType::NotSpecial if self.scheme() == "blob" => {
                // https://url.spec.whatwg.org/#concept-url-origin "blob": parse the path.
                match Url::parse(self.pathname()) {
                    Ok(inner)
                        if matches!(inner.scheme_type, SchemeType::Http | SchemeType::Https) =>
                    {
                        inner.origin()
                    }
                    _ => "null".to_owned(),
                }
            }
            _ => "null".to_owned(),
        }
    }

    /// Checks that the component offsets describe the serialization
    /// consistently. Used by debug builds after every parse, by the tests
    /// and by the fuzz targets.
    ///
    /// # Example
    ///
    /// ```
    /// assert_eq!(normurl_url::Url::parse("https://example.com/")?.check_invariants(), Ok(()));
    /// # Ok::<(), normurl_url::ParseError>(())
    /// ```
    pub fn check_invariants(&self) -> Result<(), String> {
        macro_rules! check {
            ($cond:expr) => {
                if !$cond {
                    return Err(format!(
                        "invariant `{}` failed for {:?} ({:?})",
                        stringify!($cond),
                        self.serialization,
                        self
                    ));
                }
            };
        }
        let s = self.serialization.as_bytes();
        let len = self.len_u32();
        check!(s.is_ascii());
        check!(s.len() <= u32::MAX as usize);
        check!(self.scheme_end >= 1 && self.scheme_end < len);
        check!(s[self.scheme_end as usize] == b':');
        check!(s[0].is_ascii_lowercase());
        check!(s[1..self.scheme_end as usize]
            .iter()
            .all(|&b| b.is_ascii_lowercase()
                || b.is_ascii_digit()
                || matches!(b, b'+' | b'-' | b'.')));
        check!(SchemeType::from_lowercase(&s[..self.scheme_end as usize]) == self.scheme_type);
        check!(self.scheme_end < self.username_end || !self.has_host());
        check!(self.username_end <= self.host_start);
        check!(self.host_start <= self.host_end);
        check!(self.host_end <= self.path_start);
        check!(self.path_start <= len);
        if self.has_host() {
            check!(s[self.scheme_end as usize + 1..].starts_with(b"//"));
            check!(self.username_end >= self.scheme_end + 3);
            if self.host_start > self.username_end {
                check!(s[self.host_start as usize - 1] == b'@');
                check!(matches!(s[self.username_end as usize], b':' | b'@'));
                // https://url.spec.whatwg.org/#include-credentials: "user:@" is never written.
                check!(
                    self.host_start - 1 > self.username_end + 1
                        || s[self.username_end as usize] == b'@'
                );
                check!(
                    self.username_end > self.scheme_end + 3
                        || s[self.username_end as usize] == b':'
                );
            } else {
                check!(self.username_end == self.scheme_end + 3);
            }
            match self.port {
                Some(port) => {
                    check!(s[self.host_end as usize] == b':');
                    check!(self.port().parse::<u16>() == Ok(port));
                    check!(self.scheme_type.default_port() != Some(port));
                }
                None => check!(self.host_end == self.path_start),
            }
            if self.host_kind == HostKind::Empty {
                check!(self.host_start == self.host_end);
            } else {
                check!(self.host_start < self.host_end);
            }
            if self.scheme_type.is_special() {
                check!(s.get(self.path_start as usize) == Some(&b'/'));
                check!(self.scheme_type == SchemeType::File || self.host_kind != HostKind::Empty);
            }
        } else {
            check!(self.username_end == self.scheme_end + 1);
            check!(self.host_start == self.username_end && self.host_end == self.host_start);
            check!(self.port.is_none());
            check!(!self.scheme_type.is_special());
            if self.path_start != self.scheme_end + 1 {
                // The "/." the serializer adds before a path starting with "//".
                check!(self.path_start == self.scheme_end + 3);
                check!(&s[self.scheme_end as usize + 1..self.path_start as usize] == b"/.");
                check!(s[self.path_start as usize..].starts_with(b"//"));
            } else if s.get(self.path_start as usize) == Some(&b'/') {
                check!(!s[self.path_start as usize..].starts_with(b"//"));
            }
        }
        let path_end = self.query_start.or(self.fragment_start).unwrap_or(len);
        check!(self.path_start <= path_end);
        if let Some(q) = self.query_start {
            check!(s[q as usize] == b'?');
            check!(q < self.fragment_start.unwrap_or(len + 1));
        }
        if let Some(f) = self.fragment_start {
            check!(f < len && s[f as usize] == b'#');
        }
        // No component may contain its terminators.
        let path = &s[self.path_start as usize..path_end as usize];
        check!(!path.contains(&b'?') && !path.contains(&b'#'));
        if let Some(q) = self.query() {
            check!(!q.as_bytes().contains(&b'#'));
        }
        Ok(())
    }
}

impl fmt::Display for Url {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.serialization)
    }
}

impl fmt::Debug for Url {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Url")
            .field("href", &self.serialization)
            .field("scheme_end", &self.scheme_end)
            .field("username_end", &self.username_end)
            .field("host_start", &self.host_start)
            .field("host_end", &self.host_end)
            .field("port", &self.port)
            .field("path_start", &self.path_start)
            .field("query_start", &self.query_start)
            .field("fragment_start", &self.fragment_start)
            .field("host_kind", &self.host_kind)
            .finish()
    }
}

impl FromStr for Url {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Url, ParseError> {
        Url::parse(s)
    }
}

impl AsRef<str> for Url {
    fn as_ref(&self) -> &str {
        &self.serialization
    }
}

/// URLs compare by their serialization (the offsets follow from it).
impl PartialEq for Url {
    fn eq(&self, other: &Url) -> bool {
        self.serialization == other.serialization
    }
}

impl Eq for Url {}

impl PartialOrd for Url {
    fn partial_cmp(&self, other: &Url) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Url {
    fn cmp(&self, other: &Url) -> Ordering {
        self.serialization.cmp(&other.serialization)
    }
}

impl Hash for Url {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.serialization.hash(state)
    }
}
