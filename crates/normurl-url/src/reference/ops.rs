//! alwinb's *Reference Resolution* section: order, prefix, goto, force and
//! the three resolutions. Pure operations on [`Reference`]s; none of them
//! normalises (that is [`Reference::normalize`]'s job).

use super::parse::{parse_authority, parse_host_text, ParseMode};
use super::{Authority, Mode, Order, Reference, ReferenceError, Url};
#[cfg(feature = "encoding")]
use crate::encoding::QueryEncoding;

impl Reference {
    /// The order: the type of the first component, or
    /// [`Order::Fragment`] for the empty reference (*The Order of an URL*).
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_url::{Order, Reference};
    ///
    /// assert_eq!(Reference::parse("//h/p")?.order(), Order::Authority);
    /// assert_eq!(Reference::parse("a/b")?.order(), Order::Dir);
    /// assert_eq!(Reference::parse("")?.order(), Order::Fragment);
    /// # Ok::<(), normurl_url::ReferenceError>(())
    /// ```
    pub fn order(&self) -> Order {
        if self.scheme.is_some() {
            Order::Scheme
        } else if self.authority.is_some() {
            Order::Authority
        } else if self.drive.is_some() {
            Order::Drive
        } else if self.root {
            Order::Root
        } else if !self.dirs.is_empty() {
            Order::Dir
        } else if self.file.is_some() {
            Order::File
        } else if self.query.is_some() {
            Order::Query
        } else {
            Order::Fragment
        }
    }

    /// The order-limited prefix (`url upto order`): the components of a
    /// type below `order`, and the dirs too when `order` is
    /// [`Order::Dir`] (*Order-Limited Prefix*).
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_url::{Order, Reference};
    ///
    /// let r = Reference::parse("http://h/a/b?q#f")?;
    /// assert_eq!(r.upto(Order::Dir).to_string(), "http://h/a/");
    /// assert_eq!(r.upto(Order::Root).to_string(), "http://h");
    /// # Ok::<(), normurl_url::ReferenceError>(())
    /// ```
    pub fn upto(&self, order: Order) -> Reference {
        let below = |o: Order| o < order;
        Reference {
            scheme: self.scheme.clone().filter(|_| below(Order::Scheme)),
            authority: self.authority.clone().filter(|_| below(Order::Authority)),
            drive: self.drive.clone().filter(|_| below(Order::Drive)),
            root: self.root && below(Order::Root),
            dirs: if order >= Order::Dir {
                self.dirs.clone()
            } else {
                Vec::new()
            },
            file: self.file.clone().filter(|_| below(Order::File)),
            query: self.query.clone().filter(|_| below(Order::Query)),
            fragment: self.fragment.clone().filter(|_| below(Order::Fragment)),
        }
    }

    /// `self goto other`: the shortest reference that starts with `self
    /// upto (order of other)` and ends with `other`, with a path-root added
    /// when an authority or drive would otherwise run into the path (*The
    /// Goto Operation*; RFC 3986's "merge", without removing dot segments).
    /// Total: it never fails, whatever the two references are.
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_url::Reference;
    ///
    /// let host = Reference::parse("//host")?;
    /// assert_eq!(host.goto(&Reference::parse("foo/bar")?).to_string(), "//host/foo/bar");
    /// let dir = Reference::parse("../lib/")?;
    /// assert_eq!(dir.goto(&Reference::parse("x.js?v=2")?).to_string(), "../lib/x.js?v=2");
    /// # Ok::<(), normurl_url::ReferenceError>(())
    /// ```
    pub fn goto(&self, other: &Reference) -> Reference {
        let mut r = self.upto(other.order());
        let o = other.clone();
        if o.scheme.is_some() {
            r.scheme = o.scheme;
        }
        if o.authority.is_some() {
            r.authority = o.authority;
        }
        if o.drive.is_some() {
            r.drive = o.drive;
        }
        r.root |= o.root;
        r.dirs.extend(o.dirs);
        if o.file.is_some() {
            r.file = o.file;
        }
        if o.query.is_some() {
            r.query = o.query;
        }
        if o.fragment.is_some() {
            r.fragment = o.fragment;
        }
        if (r.authority.is_some() || r.drive.is_some()) && (!r.dirs.is_empty() || r.file.is_some())
        {
            r.root = true;
        }
        r
    }

    /// Rebases `self` onto `base`: [goto](Reference::goto) with the WHATWG
    /// parser's two rules, which generalise WHATWG resolution to relative
    /// bases: a web or file scheme equal (ignoring case) to the base's is
    /// dropped first, and a base with an opaque path (`mailto:x`, `sch:`)
    /// takes only a reference with a scheme or a fragment-only one.
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_url::Reference;
    ///
    /// let base = Reference::parse("http://host")?;
    /// assert_eq!(Reference::parse("http:foo")?.rebase(&base)?.to_string(), "http://host/foo");
    /// let base = Reference::parse("/path/dir/file")?;
    /// assert_eq!(Reference::parse("./")?.rebase(&base)?.to_string(), "/path/dir/./");
    /// assert!(Reference::parse("foo")?.rebase(&Reference::parse("sch:opaque")?).is_err());
    /// # Ok::<(), normurl_url::ReferenceError>(())
    /// ```
    pub fn rebase(&self, base: &Reference) -> Result<Reference, ReferenceError> {
        let mut url = self.clone();
        if ParseMode::of(&url).is_special() && url.scheme.is_some() && same_scheme(&url, base) {
            url.scheme = None;
        }
        if url.scheme.is_some() || url.is_fragment() || !base.has_opaque_path() {
            Ok(base.goto(&url))
        } else {
            Err(ReferenceError::OpaquePathBase)
        }
    }

    /// Forces a web or file URL to have an authority and a path-root, as
    /// the last step of WHATWG resolution (*Forcing*): a file URL gets an
    /// empty host if it has none (and fails with credentials or a port); a
    /// web URL without a host takes its authority from its first non-empty
    /// path segment, and fails without one. Other URLs with a scheme are
    /// returned as they are; a reference without a scheme fails.
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_url::Reference;
    ///
    /// assert_eq!(Reference::parse("http:/example.com/a")?.force()?.to_string(), "http://example.com/a");
    /// assert_eq!(Reference::parse("file:a/b")?.force()?.to_string(), "file:///a/b");
    /// assert!(Reference::parse("http:")?.force().is_err());
    /// assert!(Reference::parse("/no/scheme")?.force().is_err());
    /// # Ok::<(), normurl_url::ReferenceError>(())
    /// ```
    pub fn force(&self) -> Result<Reference, ReferenceError> {
        match ParseMode::of(self) {
            ParseMode::File => self.force_file(),
            ParseMode::Web => self.force_web(),
            _ if self.scheme.is_some() => Ok(self.clone()),
            _ => Err(ReferenceError::Force),
        }
    }

    /// *Forced File URL*.
    fn force_file(&self) -> Result<Reference, ReferenceError> {
        let mut r = self.clone();
        match &r.authority {
            None => r.authority = Some(Authority::default()),
            Some(a) if a.username.is_some() || a.password.is_some() || a.port.is_some() => {
                return Err(ReferenceError::Force)
            }
            Some(_) => {}
        }
        if r.drive.is_none() {
            r.root = true;
        }
        Ok(r)
    }

    /// *Forced Web URL*.
    fn force_web(&self) -> Result<Reference, ReferenceError> {
        let mut r = self.clone();
        if r.authority.as_ref().is_none_or(|a| a.host.is_empty()) {
            let auth = r.take_first_segment().ok_or(ReferenceError::Force)?;
            // The segment as it is: no trimming, as the full parser would.
            let new = parse_authority(&auth, ParseMode::Web).map_err(|_| ReferenceError::Force)?;
            // Components the segment does not give are kept, as spec-url's
            // `assign` does.
            let old = r.authority.take().unwrap_or_default();
            r.authority = Some(Authority {
                username: new.username.or(old.username),
                password: new.password.or(old.password),
                host: new.host,
                port: new.port.or(old.port),
            });
        }
        if let Some(a) = &mut r.authority {
            a.host = parse_host_text(&a.host, ParseMode::Web).map_err(|_| ReferenceError::Force)?;
            if a.host.is_empty() {
                return Err(ReferenceError::Force);
            }
        }
        r.root = true;
        Ok(r)
    }

    /// Removes the first non-empty dir or file and the dirs before it, and
    /// returns it.
    fn take_first_segment(&mut self) -> Option<String> {
        if let Some(i) = self.dirs.iter().position(|d| !d.is_empty()) {
            let seg = self.dirs[i].clone();
            self.dirs.drain(..=i);
            return Some(seg);
        }
        // The (empty) dirs before it go too, as the specification says
        // (spec-url 2.3.3 keeps them, and so gives `http://mouse///` for
        // `/////mouse` against a web base where browsers give `http://mouse/`).
        let file = self.file.take()?;
        self.dirs.clear();
        Some(file)
    }

    /// Resolves `self` against `base` in `mode` (*Resolution*):
    ///
    /// * [`Mode::Generic`]: `base goto self`, when either has a scheme;
    /// * [`Mode::Legacy`]: the same, after dropping `self`'s scheme when it
    ///   equals the base's (ignoring case);
    /// * [`Mode::Whatwg`]: [rebase](Reference::rebase), then
    ///   [force](Reference::force).
    ///
    /// The result is not normalised: call [`Reference::normalize`] (or,
    /// for an absolute URL, [`Reference::to_url`]).
    ///
    /// # Example
    ///
    /// RFC 3986's example base and an abnormal example of section 5.4.2:
    ///
    /// ```
    /// use normurl_url::{Mode, Reference};
    ///
    /// let base = Reference::parse("http://a/b/c/d;p?q")?;
    /// let r = Reference::parse("../../../g")?;
    /// for mode in Mode::ALL {
    ///     assert_eq!(r.resolve(&base, mode)?.normalize().to_string(), "http://a/g");
    /// }
    /// # Ok::<(), normurl_url::ReferenceError>(())
    /// ```
    pub fn resolve(&self, base: &Reference, mode: Mode) -> Result<Reference, ReferenceError> {
        match mode {
            // *Generic Resolution* and *Legacy Resolution* need a scheme.
            Mode::Generic | Mode::Legacy if self.scheme.is_none() && base.scheme.is_none() => {
                Err(ReferenceError::NoScheme)
            }
            Mode::Generic | Mode::Legacy => self.rebase_in(base, mode),
            Mode::Whatwg => self.rebase(base)?.force(),
        }
    }

    /// Resolution in `mode` without its last requirement, for relative
    /// bases: [`Mode::Whatwg`]'s [rebase](Reference::rebase) without
    /// forcing, and [`Mode::Generic`]'s and [`Mode::Legacy`]'s
    /// [goto](Reference::goto) (after legacy's scheme rule) even when
    /// neither reference has a scheme. The result may be relative.
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_url::{Mode, Reference};
    ///
    /// let page = Reference::parse("/docs/guide/intro.html")?;
    /// let link = Reference::parse("../img/a.png")?;
    /// for mode in Mode::ALL {
    ///     assert_eq!(link.rebase_in(&page, mode)?.normalize().to_string(), "/docs/img/a.png");
    /// }
    /// # Ok::<(), normurl_url::ReferenceError>(())
    /// ```
    pub fn rebase_in(&self, base: &Reference, mode: Mode) -> Result<Reference, ReferenceError> {
        match mode {
            Mode::Whatwg => self.rebase(base),
            Mode::Legacy if same_scheme(self, base) => {
                let mut url = self.clone();
                url.scheme = None;
                let mut r = base.goto(&url);
                // The reference's spelling of the scheme, as the
                // specification's legacy resolution gives.
                r.scheme.clone_from(&self.scheme);
                Ok(r)
            }
            Mode::Legacy | Mode::Generic => Ok(base.goto(self)),
        }
    }

    /// Parses `input` against the absolute URL `base` and resolves it in
    /// `mode`, then normalises the result with the WHATWG parser. With
    /// [`Mode::Whatwg`] this is exactly [`Url::parse_with_base`].
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_url::{Mode, Reference, Url};
    ///
    /// let base = Url::parse("http://a/b/c/d;p?q")?;
    /// assert_eq!(Reference::resolve_url("http:g", &base, Mode::Legacy)?.href(), "http://a/b/c/g");
    /// // The generic result `http:g` read by the WHATWG parser:
    /// assert_eq!(Reference::resolve_url("http:g", &base, Mode::Generic)?.href(), "http://g/");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn resolve_url(input: &str, base: &Url, mode: Mode) -> Result<Url, ReferenceError> {
        let base = Reference::from_url(base);
        let r = Reference::parse_against(input, &base)?;
        r.resolve(&base, mode)?.to_url()
    }

    /// The absolute URL of this reference: its printed form parsed by the
    /// WHATWG parser (which percent-encodes, parses the host, removes dot
    /// segments and default ports). Fails for a relative reference.
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_url::Reference;
    ///
    /// assert_eq!(Reference::parse("HTTP://h:80/a/../b c")?.to_url()?.href(), "http://h/b%20c");
    /// assert!(Reference::parse("/a")?.to_url().is_err());
    /// # Ok::<(), normurl_url::ReferenceError>(())
    /// ```
    pub fn to_url(&self) -> Result<Url, ReferenceError> {
        Url::parse(&self.to_string()).map_err(ReferenceError::Host)
    }

    #[cfg(feature = "encoding")]
    /// [`Reference::to_url`] for a document in `encoding`: the query is
    /// encoded as [`Url::parse_with_encoding`] does.
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_url::{QueryEncoding, Reference};
    ///
    /// let sjis = QueryEncoding::for_label("shift_jis").unwrap();
    /// let r = Reference::parse("http://h/?q=東京")?;
    /// assert_eq!(r.to_url_with_encoding(sjis)?.href(), "http://h/?q=%93%8C%8B%9E");
    /// # Ok::<(), normurl_url::ReferenceError>(())
    /// ```
    pub fn to_url_with_encoding(&self, encoding: QueryEncoding) -> Result<Url, ReferenceError> {
        Url::parse_with_encoding(&self.to_string(), None, encoding).map_err(ReferenceError::Host)
    }

    /// A fragment-only reference (`#f`).
    fn is_fragment(&self) -> bool {
        self.fragment.is_some() && self.order() == Order::Fragment
    }

    /// Whether the path is opaque: a non-special scheme with neither
    /// authority nor path-root (WHATWG specific).
    pub(super) fn has_opaque_path(&self) -> bool {
        !self.root && self.authority.is_none() && ParseMode::of(self) == ParseMode::Generic
    }
}

/// Both have a scheme and they are equal ignoring ASCII case.
fn same_scheme(a: &Reference, b: &Reference) -> bool {
    match (&a.scheme, &b.scheme) {
        (Some(x), Some(y)) => x.eq_ignore_ascii_case(y),
        _ => false,
    }
}
