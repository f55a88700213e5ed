//! SURT and SSURT: URL forms with the host reversed, so that sorting groups
//! a site's URLs together.
//!
//! - SURT as in CDX `urlkey`s (webarchive-commons' `WaybackURLKeyMaker`):
//!   `com,example)/path?query`. urlcanon's variants keep the scheme
//!   (`http://(com,example,)/path`) and a trailing comma.
//! - SSURT (urlcanon's `ssurt.rst`): `com,example,//8080:http@user:pass:/path?query#frag`,
//!   reversible and grouping a host's URLs across schemes and ports.

use normurl_url::HostKind;

/// How to write a SURT.
///
/// # Example
///
/// ```
/// use normurl_canon::{Canonicalizer, OutputForm, Profile, SurtOptions};
///
/// let url = normurl_url::Url::parse("http://user@foo.example.org:81/path?q")?;
/// let mut builder = Canonicalizer::builder(Profile::Whatwg);
/// builder.output(OutputForm::Surt(SurtOptions::URLCANON));
/// assert_eq!(builder.build().canonicalize_url(&url), "http://(org,example,foo,:81)/path?q");
/// builder.output(OutputForm::Surt(SurtOptions::CDX));
/// assert_eq!(builder.build().canonicalize_url(&url), "org,example,foo:81)/path?q");
/// # Ok::<(), normurl_url::ParseError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SurtOptions {
    /// Start with `scheme://(`.
    pub scheme: bool,
    /// End a reversed host with `,` (`(org,example,)`).
    pub trailing_comma: bool,
    /// Reverse IPv4 addresses like domains and drop IPv6 brackets, as
    /// WaybackURLKeyMaker does (`192,211,203,34)`); otherwise IP addresses
    /// are written as they are.
    pub reverse_ips: bool,
    /// Write a comma inside a host label as a dot, as urlcanon does, so
    /// that the reversed host splits back into its labels; otherwise the
    /// comma stays, as in webarchive-commons' `hostToSURT` and the `surt`
    /// package (`http://a,b.example.com/` is `com,example,a,b)/`, the key
    /// of `http://b.a.example.com/` too). The URL Standard allows a comma
    /// in a host, so one of the two is given up: urlcanon's keys are
    /// reversible, CDX keys are the ones archives look up.
    pub label_commas_as_dots: bool,
}

impl SurtOptions {
    /// CDX `urlkey`s, as webarchive-commons' `WaybackURLKeyMaker` writes
    /// them: no scheme, no trailing comma, IP addresses reversed. A `dns:`
    /// URL becomes its reversed host name and `)`.
    pub const CDX: SurtOptions = SurtOptions {
        scheme: false,
        trailing_comma: false,
        reverse_ips: true,
        label_commas_as_dots: false,
    };

    /// urlcanon's `surt()` defaults: `http://(org,example,:81)/path`.
    pub const URLCANON: SurtOptions = SurtOptions {
        scheme: true,
        trailing_comma: true,
        reverse_ips: false,
        label_commas_as_dots: true,
    };
}

/// The parts of a canonical URL, as the writers need them.
pub(crate) struct Parts<'a> {
    /// The serialization up to the path, when it is the URL's own (no rule
    /// changed scheme, userinfo, host or port): written in one copy.
    pub(crate) prefix: Option<&'a [u8]>,
    pub(crate) scheme: &'a [u8],
    pub(crate) username: &'a [u8],
    pub(crate) password: &'a [u8],
    pub(crate) host_kind: HostKind,
    pub(crate) host: &'a [u8],
    pub(crate) port: &'a [u8],
    pub(crate) path: &'a [u8],
    pub(crate) query: Option<&'a [u8]>,
    pub(crate) fragment: Option<&'a [u8]>,
}

impl Parts<'_> {
    fn has_host(&self) -> bool {
        self.host_kind != HostKind::None
    }

    /// The URL serializer (<https://url.spec.whatwg.org/#concept-url-serializer>).
    pub(crate) fn write_url(&self, out: &mut Vec<u8>) {
        if let Some(prefix) = self.prefix {
            out.extend_from_slice(prefix);
            out.extend_from_slice(self.path);
            self.write_query_fragment(out);
            return;
        }
        out.extend_from_slice(self.scheme);
        out.push(b':');
        if self.has_host() {
            out.extend_from_slice(b"//");
            if !self.username.is_empty() || !self.password.is_empty() {
                out.extend_from_slice(self.username);
                if !self.password.is_empty() {
                    out.push(b':');
                    out.extend_from_slice(self.password);
                }
                out.push(b'@');
            }
            out.extend_from_slice(self.host);
            if !self.port.is_empty() {
                out.push(b':');
                out.extend_from_slice(self.port);
            }
        } else if self.path.starts_with(b"//") {
            // "If url's host is null, url does not have an opaque path, url's
            // path's size is greater than 1, and url's path[0] is the empty
            // string, then append U+002F (/) followed by U+002E (.)".
            out.extend_from_slice(b"/.");
        }
        out.extend_from_slice(self.path);
        self.write_query_fragment(out);
    }

    fn write_query_fragment(&self, out: &mut Vec<u8>) {
        if let Some(query) = self.query {
            out.push(b'?');
            out.extend_from_slice(query);
        }
        if let Some(fragment) = self.fragment {
            out.push(b'#');
            out.extend_from_slice(fragment);
        }
    }

    /// A SURT (see [`SurtOptions`]). URLs without a host have no SURT form
    /// and are written as URLs (`mailto:`, `urn:`; urlcanon does the same),
    /// and so are `filedesc:` and `warcinfo:` records, as WaybackURLKeyMaker
    /// does. Userinfo is never written.
    pub(crate) fn write_surt(&self, options: SurtOptions, out: &mut Vec<u8>) {
        let dns = self.scheme == b"dns" && !options.scheme && !self.has_host();
        if dns {
            reverse_labels(self.path, options.label_commas_as_dots, out);
            out.push(b')');
            return;
        }
        if !self.has_host() || self.scheme == b"filedesc" || self.scheme == b"warcinfo" {
            self.write_url(out);
            return;
        }
        if options.scheme {
            out.extend_from_slice(self.scheme);
            out.extend_from_slice(b"://(");
        }
        match self.host_kind {
            HostKind::Ipv4 if options.reverse_ips => reverse_host(self.host, false, out),
            HostKind::Ipv6 if options.reverse_ips => {
                let bare = self
                    .host
                    .strip_prefix(b"[")
                    .and_then(|h| h.strip_suffix(b"]"));
                out.extend_from_slice(bare.unwrap_or(self.host));
            }
            HostKind::Domain | HostKind::Opaque => {
                reverse_labels(self.host, options.label_commas_as_dots, out);
                if options.trailing_comma {
                    out.push(b',');
                }
            }
            _ => out.extend_from_slice(self.host),
        }
        if !self.port.is_empty() {
            out.push(b':');
            out.extend_from_slice(self.port);
        }
        out.push(b')');
        if self.path.is_empty() && (self.query.is_some() || self.fragment.is_some()) {
            out.push(b'/');
        }
        out.extend_from_slice(self.path);
        self.write_query_fragment(out);
    }

    /// An SSURT: `host//port:scheme@userinfo:path?query#fragment`, with
    /// the host as [`ssurt_host`] writes it. URLs without a host are written
    /// as URLs (their SSURT is the same string).
    pub(crate) fn write_ssurt(&self, out: &mut Vec<u8>) {
        if !self.has_host() {
            self.write_url(out);
            return;
        }
        ssurt_host(self.host, self.host_kind, out);
        out.extend_from_slice(b"//");
        if !self.port.is_empty() {
            out.extend_from_slice(self.port);
            out.push(b':');
        }
        out.extend_from_slice(self.scheme);
        if !self.username.is_empty() || !self.password.is_empty() {
            out.push(b'@');
            out.extend_from_slice(self.username);
            if !self.password.is_empty() {
                out.push(b':');
                out.extend_from_slice(self.password);
            }
        }
        out.push(b':');
        out.extend_from_slice(self.path);
        self.write_query_fragment(out);
    }
}

/// Appends `host` with its dot-separated labels in reverse order, joined by
/// commas, and a trailing comma when `trailing_comma`. Commas inside labels
/// become dots, so the result splits back unambiguously (urlcanon's
/// `reverse_host`).
///
/// # Example
///
/// ```
/// let mut out = Vec::new();
/// normurl_canon::reverse_host(b"a,b.y.z.", true, &mut out);
/// assert_eq!(out, b",z,y,a.b,");
/// ```
pub fn reverse_host(host: &[u8], trailing_comma: bool, out: &mut Vec<u8>) {
    reverse_labels(host, true, out);
    if trailing_comma {
        out.push(b',');
    }
}

/// Appends `host` with its dot-separated labels in reverse order, joined
/// by commas; a comma inside a label becomes a dot with `commas_as_dots`
/// ([`SurtOptions::label_commas_as_dots`]) and stays otherwise.
fn reverse_labels(host: &[u8], commas_as_dots: bool, out: &mut Vec<u8>) {
    for (i, label) in host.rsplit(|&b| b == b'.').enumerate() {
        if i > 0 {
            out.push(b',');
        }
        if commas_as_dots {
            out.extend(label.iter().map(|&b| if b == b',' { b'.' } else { b }));
        } else {
            out.extend_from_slice(label);
        }
    }
}

/// Appends the SSURT form of a host: domains (and opaque hosts) reversed
/// with a trailing comma, IP addresses and the empty host as they are.
///
/// # Example
///
/// ```
/// use normurl_url::HostKind;
///
/// let mut out = Vec::new();
/// normurl_canon::ssurt_host(b"x.y.z", HostKind::Domain, &mut out);
/// out.push(b' ');
/// normurl_canon::ssurt_host(b"1.2.3.4", HostKind::Ipv4, &mut out);
/// assert_eq!(out, b"z,y,x, 1.2.3.4");
/// ```
pub fn ssurt_host(host: &[u8], kind: HostKind, out: &mut Vec<u8>) {
    match kind {
        HostKind::Domain | HostKind::Opaque if !host.is_empty() => reverse_host(host, true, out),
        _ => out.extend_from_slice(host),
    }
}
