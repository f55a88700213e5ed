//! URL references, absolute or relative, and reference resolution in three
//! modes, after alwinb's [URL Specification] (version 0.9.0; the
//! `spec-url` npm package is its reference implementation).
//!
//! The WHATWG parser ([`Url::parse_with_base`]) only ever produces
//! absolute URLs and resolves the way browsers do. A [`Reference`] models
//! any URL-reference (`http://h/p`, `//host/p`, `/p`, `p?q`, `?q`, `#f`,
//! the empty reference) as the specification's sequence of components
//! (scheme, authority, drive, path-root, dirs, file, query, fragment), so
//! that references can be normalised, combined and resolved before a base
//! is known, and resolved the way RFC 3986 libraries do:
//!
//! | operation | spec section | method |
//! |---|---|---|
//! | order of a URL, order-limited prefix | *Order and Prefix operations* | [`Reference::order`], [`Reference::upto`] |
//! | goto | *The Goto Operation* | [`Reference::goto`] |
//! | rebase (goto with the WHATWG's scheme and opaque-path rules) | *WHATWG-resolve* | [`Reference::rebase`] |
//! | force | *Forcing* (forced file URL, forced web URL) | [`Reference::force`] |
//! | generic, legacy and WHATWG resolution | *Resolution* | [`Reference::resolve`] with [`Mode`] |
//! | normalisation | *Normalisation* | [`Reference::normalize`] |
//! | printing | *Printing* | [`Display`](std::fmt::Display) |
//!
//! [URL Specification]: https://alwinb.github.io/url-specification/
//!
//! # Example
//!
//! ```
//! use normurl_url::{Mode, Reference};
//!
//! let base = Reference::parse("http://a/b/c/d;p?q")?;
//! let link = Reference::parse("http:g")?;
//! // RFC 3986's strict resolution keeps the reference's scheme...
//! assert_eq!(link.resolve(&base, Mode::Generic)?.normalize().to_string(), "http:g");
//! // ...the non-strict one drops it when it equals the base's...
//! assert_eq!(link.resolve(&base, Mode::Legacy)?.normalize().to_string(), "http://a/b/c/g");
//! // ...and browsers (WHATWG) do that for special schemes, then force the result.
//! assert_eq!(link.resolve(&base, Mode::Whatwg)?.to_url()?.href(), "http://a/b/c/g");
//!
//! // Relative references normalise without a base.
//! assert_eq!(Reference::parse("a/../../b")?.normalize().to_string(), "../b");
//! assert_eq!(Reference::parse("./a/%2e/b")?.normalize().to_string(), "a/b");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod normalize;
mod ops;
mod parse;
mod print;

use std::fmt;
use std::str::FromStr;

use crate::error::ParseError;
use crate::url::Url;

/// A URL-reference: a sequence of components in the order of their type,
/// at most one of each but any number of dirs (alwinb's *URL Model*).
///
/// Component values are strings as they were written (tabs and newlines
/// removed, as every URL parser does), except that the hosts of web and
/// file URLs are parsed as the WHATWG host parser does; percent-encoding
/// is left to [`Reference::normalize`].
///
/// # Example
///
/// ```
/// use normurl_url::Reference;
///
/// let r = Reference::parse("//user@Host:81/dir/sub/file.txt?q#f")?;
/// assert_eq!(r.scheme(), None);
/// assert_eq!(r.host(), Some("Host"));
/// assert_eq!(r.username(), Some("user"));
/// assert_eq!(r.port(), Some("81"));
/// assert!(r.has_root());
/// assert_eq!(r.dirs(), ["dir", "sub"]);
/// assert_eq!(r.file(), Some("file.txt"));
/// assert_eq!(r.query(), Some("q"));
/// assert_eq!(r.fragment(), Some("f"));
/// # Ok::<(), normurl_url::ReferenceError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Reference {
    scheme: Option<String>,
    authority: Option<Authority>,
    /// A Windows drive letter, `c:` or `c|` (file URLs only).
    drive: Option<String>,
    /// The path-root `/`.
    root: bool,
    /// The dir components; empty when there are none.
    dirs: Vec<String>,
    /// The last path segment, when not empty.
    file: Option<String>,
    query: Option<String>,
    fragment: Option<String>,
}

/// The authority of a [`Reference`]: the host and its optional username,
/// password and port.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
struct Authority {
    username: Option<String>,
    password: Option<String>,
    /// Empty for the empty host; IPv6 addresses keep their brackets.
    host: String,
    /// Empty for an empty port, else its number in decimal.
    port: Option<String>,
}

/// The component types, in the specification's order: the
/// [order](Reference::order) of a reference is the type of its first
/// component.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Order {
    /// `scheme:`
    Scheme,
    /// `//authority`
    Authority,
    /// A Windows drive letter.
    Drive,
    /// The path-root `/`.
    Root,
    /// A dir: a path segment followed by `/`.
    Dir,
    /// The last path segment.
    File,
    /// `?query`
    Query,
    /// `#fragment`; also the order of the empty reference.
    Fragment,
}

/// The three reference resolution modes of alwinb's *Resolution* section.
///
/// # Example
///
/// ```
/// use normurl_url::Mode;
///
/// assert_eq!("legacy".parse(), Ok(Mode::Legacy));
/// assert_eq!(Mode::default().name(), "whatwg");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Mode {
    /// RFC 3986's strict resolution (section 5.2.2): the reference's
    /// components replace the base's from the reference's order on, and a
    /// scheme in the reference always wins (`http:g` stays `http:g`). Java's
    /// `URI.resolve` and Go's `net/url` resolve this way.
    Generic,
    /// RFC 3986's non-strict resolution: a scheme in the reference equal
    /// (ignoring case) to the base's is dropped first, for any scheme, then
    /// as [`Mode::Generic`]. Python's `urljoin` resolves this way.
    Legacy,
    /// The WHATWG URL Standard's, as browsers resolve: the scheme is dropped
    /// for special schemes only, a base with an opaque path takes only a
    /// fragment, and the result is [forced](Reference::force) to an absolute
    /// URL. [`Reference::resolve_url`] then gives exactly
    /// [`Url::parse_with_base`]'s answer.
    #[default]
    Whatwg,
}

impl Mode {
    /// Every mode.
    pub const ALL: [Mode; 3] = [Mode::Whatwg, Mode::Legacy, Mode::Generic];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Generic => "generic",
            Mode::Legacy => "legacy",
            Mode::Whatwg => "whatwg",
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Mode {
    type Err = String;

    fn from_str(s: &str) -> Result<Mode, String> {
        Mode::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| format!("unknown mode {s:?} (expected whatwg, legacy or generic)"))
    }
}

/// Why a reference could not be parsed, forced or resolved.
///
/// # Example
///
/// ```
/// use normurl_url::{Mode, Reference, ReferenceError};
///
/// let base = Reference::parse("mailto:someone@example.com")?;
/// let rel = Reference::parse("other")?;
/// assert_eq!(rel.resolve(&base, Mode::Whatwg), Err(ReferenceError::OpaquePathBase));
/// assert_eq!(ReferenceError::OpaquePathBase.message(), "the base has an opaque path: it only takes a fragment");
/// # Ok::<(), ReferenceError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ReferenceError {
    /// A host or port failed to parse.
    Host(ParseError),
    /// Credentials or a port where the URL can have none (a file URL, or
    /// an empty host).
    Authority,
    /// Generic or legacy resolution where neither the reference nor the
    /// base has a scheme.
    NoScheme,
    /// WHATWG resolution against a base with an opaque path (`mailto:x`)
    /// of anything but a fragment.
    OpaquePathBase,
    /// Forcing a reference without a scheme (nor drive), or a web URL
    /// without a host, or a file URL with credentials or a port.
    Force,
}

impl ReferenceError {
    /// A fixed, one-line description.
    pub const fn message(self) -> &'static str {
        match self {
            ReferenceError::Host(e) => e.message(),
            ReferenceError::Authority => "credentials or a port without a host, or on a file URL",
            ReferenceError::NoScheme => "neither the reference nor the base has a scheme",
            ReferenceError::OpaquePathBase => {
                "the base has an opaque path: it only takes a fragment"
            }
            ReferenceError::Force => "cannot be forced to an absolute URL",
        }
    }
}

impl fmt::Display for ReferenceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for ReferenceError {}

impl From<ParseError> for ReferenceError {
    fn from(e: ParseError) -> ReferenceError {
        ReferenceError::Host(e)
    }
}

impl Reference {
    /// Parses a URL-reference without a base, as alwinb's *Parsing* section
    /// does for a scheme-less string: `\` is a path separator until a
    /// scheme says otherwise, and drive letters are recognised only after
    /// `file:`.
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_url::Reference;
    ///
    /// assert_eq!(Reference::parse("/bar\\bee")?.to_string(), "/bar/bee");
    /// assert_eq!(Reference::parse("sch:a\\b")?.to_string(), "sch:a\\b");
    /// assert!(Reference::parse("http://exa mple/").is_err());
    /// # Ok::<(), normurl_url::ReferenceError>(())
    /// ```
    pub fn parse(input: &str) -> Result<Reference, ReferenceError> {
        parse::parse(input, parse::ParseMode::NoScheme)
    }

    /// Parses `input` as a reference that is to be resolved against `base`:
    /// in the base's parse mode, as the WHATWG parser does (after a web or
    /// `file:` base `\` is a separator and hosts are parsed as domains;
    /// after a `file:` base drive letters are recognised; after any other
    /// scheme neither).
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_url::Reference;
    ///
    /// let base = Reference::parse("file:///c:/dir/")?;
    /// let r = Reference::parse_against("d|\\x", &base)?;
    /// assert_eq!(r.drive(), Some("d|"));
    /// assert_eq!(r.normalize().to_string(), "/d:/x");
    /// # Ok::<(), normurl_url::ReferenceError>(())
    /// ```
    pub fn parse_against(input: &str, base: &Reference) -> Result<Reference, ReferenceError> {
        parse::parse(input, parse::ParseMode::of(base))
    }

    /// The reference of an absolute URL.
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_url::{Reference, Url};
    ///
    /// let url = Url::parse("HTTPS://Example.com/a/b?q")?;
    /// assert_eq!(Reference::from_url(&url).dirs(), ["a"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_url(url: &Url) -> Reference {
        // A WHATWG serialization always parses as a reference: its hosts
        // are valid, and a file URL never has credentials or a port.
        parse::parse(url.href(), parse::ParseMode::NoScheme).unwrap_or_default()
    }

    /// The scheme, as written.
    pub fn scheme(&self) -> Option<&str> {
        self.scheme.as_deref()
    }

    /// Whether the reference has an authority (`//` and a host, which may
    /// be empty).
    pub fn has_authority(&self) -> bool {
        self.authority.is_some()
    }

    /// The host, when the reference has an authority.
    pub fn host(&self) -> Option<&str> {
        self.authority.as_ref().map(|a| a.host.as_str())
    }

    /// The username, if any.
    pub fn username(&self) -> Option<&str> {
        self.authority.as_ref()?.username.as_deref()
    }

    /// The password, if any.
    pub fn password(&self) -> Option<&str> {
        self.authority.as_ref()?.password.as_deref()
    }

    /// The port: empty for an empty port, else its number in decimal.
    pub fn port(&self) -> Option<&str> {
        self.authority.as_ref()?.port.as_deref()
    }

    /// The drive letter (`c:` or `c|`), if any.
    pub fn drive(&self) -> Option<&str> {
        self.drive.as_deref()
    }

    /// Whether the path starts at the root (`/`).
    pub fn has_root(&self) -> bool {
        self.root
    }

    /// The dirs: the path segments that a `/` follows.
    pub fn dirs(&self) -> &[String] {
        &self.dirs
    }

    /// The last path segment, when not empty.
    pub fn file(&self) -> Option<&str> {
        self.file.as_deref()
    }

    /// The query without `?`, if any.
    pub fn query(&self) -> Option<&str> {
        self.query.as_deref()
    }

    /// The fragment without `#`, if any.
    pub fn fragment(&self) -> Option<&str> {
        self.fragment.as_deref()
    }
}

impl FromStr for Reference {
    type Err = ReferenceError;
    fn from_str(s: &str) -> Result<Reference, ReferenceError> {
        Reference::parse(s)
    }
}

#[cfg(test)]
mod tests;
