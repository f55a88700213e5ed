//! The canonicalizer: a rule set plus options, built once, applied to every
//! URL with caller-owned buffers.

use crate::config::{Config, IdnForm, OutputForm};
use crate::error::ConfigError;
use crate::fast::{self, fused};
use crate::general;
use crate::profile::Profile;
use crate::psl::PublicSuffixList;
use crate::rule::RuleSet;
use crate::rules::public_suffix::Suffixes;
use crate::rules::tracking::TrackingParams;
use crate::scratch::Scratch;
use normurl_url::Url;

/// The `whatwg` profile's: the WHATWG serialization as it is.
impl Default for Canonicalizer {
    fn default() -> Canonicalizer {
        Canonicalizer::new(Profile::Whatwg)
    }
}

/// Canonicalizes parsed URLs with a fixed set of rules and options.
///
/// Build it once (from a [`Profile`] and edits) and share it between
/// threads; each thread keeps its own [`Scratch`].
///
/// # Example
///
/// ```
/// use normurl_canon::{Canonicalizer, Profile, Rule, Scratch};
/// use normurl_url::Url;
///
/// let canon = Canonicalizer::new(Profile::Aggressive);
/// let mut scratch = Scratch::new();
/// let mut out = Vec::new();
/// let url = Url::parse("HTTP://www.Example.com/a//b/?utm_source=x&b=2&a=%7e1#top")?;
/// let fired = canon.apply(&url, &mut scratch, &mut out);
/// assert_eq!(out, b"http://example.com/a/b?a=~1&b=2");
/// assert!(fired.contains(Rule::StripTracking) && fired.contains(Rule::SortQuery));
/// # Ok::<(), normurl_url::ParseError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Canonicalizer {
    /// The rules and options, and the plan of the fast paths for them.
    pub(super) setup: fast::Setup,
    /// [`Canonicalizer::parse_apply`]'s instance for these rules.
    pub(super) fused: fused::Fused,
}

/// Builds a [`Canonicalizer`]: a profile's rules, edited, plus options.
///
/// # Example
///
/// ```
/// use normurl_canon::{Canonicalizer, IdnForm, OutputForm, Profile};
///
/// let canon = Canonicalizer::builder(Profile::Aggressive)
///     .rules("+strip-www-digits,-strip-trailing-slash")?
///     .strip_params("ref,src_*")?
///     .idn(IdnForm::Unicode)
///     .output("surt".parse()?)
///     .build();
/// assert_eq!(canon.canonicalize("https://www3.xn--bcher-kva.de/a/?ref=x").unwrap(), "de,bücher)/a/");
/// # Ok::<(), normurl_canon::ConfigError>(())
/// ```
#[derive(Clone, Debug)]
pub struct CanonicalizerBuilder {
    config: Config,
}

impl CanonicalizerBuilder {
    /// Applies rule edits (`+name,-name`; see [`RuleSet::edit`]).
    pub fn rules(&mut self, edits: &str) -> Result<&mut CanonicalizerBuilder, ConfigError> {
        self.config.rules = self.config.rules.edit(edits)?;
        Ok(self)
    }

    /// Replaces the rule set.
    pub fn rule_set(&mut self, rules: RuleSet) -> &mut CanonicalizerBuilder {
        self.config.rules = rules;
        self
    }

    /// Replaces the tracking parameter list (default: [`TrackingParams::default`]).
    pub fn tracking_params(&mut self, params: TrackingParams) -> &mut CanonicalizerBuilder {
        self.config.tracking = params;
        self
    }

    /// Adds names to the tracking parameter list (see
    /// [`TrackingParams::add_list`]): `--strip-params NAME,...`, or the text
    /// of an `@FILE`; and turns `strip-tracking` on, as
    /// [`keep_params`](CanonicalizerBuilder::keep_params) turns its rule
    /// on: names given to strip are stripped whatever the profile (with
    /// the rule's default list, as under the profiles that have it).
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_canon::{Canonicalizer, Profile};
    ///
    /// let canon = Canonicalizer::builder(Profile::Whatwg).strip_params("sid")?.build();
    /// assert_eq!(canon.canonicalize("https://a.com/?sid=1&x=2").unwrap(), "https://a.com/?x=2");
    /// # Ok::<(), normurl_canon::ConfigError>(())
    /// ```
    pub fn strip_params(&mut self, list: &str) -> Result<&mut CanonicalizerBuilder, ConfigError> {
        self.config.tracking.add_list(list)?;
        self.config.rules.insert(super::Rule::StripTracking);
        Ok(self)
    }

    /// Adds names to the list of `keep-params` (as
    /// [`TrackingParams::add_list`] reads them: names, `prefix*`, globs
    /// such as `*_id`) and turns the rule on: every other parameter goes.
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_canon::{Canonicalizer, Profile};
    ///
    /// let canon = Canonicalizer::builder(Profile::Whatwg).keep_params("id,p_*")?.build();
    /// assert_eq!(canon.canonicalize("https://a.com/?id=1&x=2&p_1=3").unwrap(), "https://a.com/?id=1&p_1=3");
    /// # Ok::<(), normurl_canon::ConfigError>(())
    /// ```
    pub fn keep_params(&mut self, list: &str) -> Result<&mut CanonicalizerBuilder, ConfigError> {
        self.config.lists.keep.add_list(list)?;
        self.config.rules.insert(super::Rule::KeepParams);
        Ok(self)
    }

    /// Adds index file names (comma- or whitespace-separated, each one
    /// path segment) to those `strip-directory-index` strips, and turns
    /// the rule on.
    pub fn index_files(&mut self, list: &str) -> Result<&mut CanonicalizerBuilder, ConfigError> {
        self.config.lists.add_index_files(list)?;
        self.config.rules.insert(super::Rule::StripDirectoryIndex);
        Ok(self)
    }

    /// Adds redirectors for `unwrap-redirects` from the text of a file:
    /// one `HOST /PATH PARAM` a line (`t.example.com /out u`: URLs on that
    /// host or a subdomain, with that path, carry their target in `u`);
    /// `#` starts a comment. Turns the rule on.
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_canon::{Canonicalizer, Profile};
    ///
    /// let canon = Canonicalizer::builder(Profile::Whatwg).redirectors("t.example.com /out u")?.build();
    /// assert_eq!(canon.canonicalize("https://t.example.com/out?u=https://a.com/").unwrap(), "https://a.com/");
    /// # Ok::<(), normurl_canon::ConfigError>(())
    /// ```
    pub fn redirectors(&mut self, text: &str) -> Result<&mut CanonicalizerBuilder, ConfigError> {
        self.config.lists.redirects.add_text(text)?;
        self.config.rules.insert(super::Rule::UnwrapRedirects);
        Ok(self)
    }

    /// Adds per-domain parameter rules for `domain-params` from the text
    /// of a file, and turns the rule on. The text is DuckDuckGo's privacy
    /// configuration JSON (its `trackingParameters` names are stripped
    /// everywhere, its exceptions' domains strip nothing) or lines
    /// `DOMAIN strip NAME,...` and `DOMAIN keep NAME,...`: a domain covers
    /// its subdomains, `*` every domain, and the most specific domain's
    /// rule alone applies; names take `*` as `--strip-params` does; `#`
    /// starts a comment.
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_canon::{Canonicalizer, Profile};
    ///
    /// let rules = "* strip ref\nshop.example keep id,page_*\nfriend.example strip";
    /// let canon = Canonicalizer::builder(Profile::Whatwg).param_rules(rules)?.build();
    /// let go = |url| canon.canonicalize(url).unwrap();
    /// assert_eq!(go("https://a.example/?ref=1&x=2"), "https://a.example/?x=2");
    /// assert_eq!(go("https://www.shop.example/?ref=1&id=2&page_n=3"), "https://www.shop.example/?id=2&page_n=3");
    /// assert_eq!(go("https://friend.example/?ref=1"), "https://friend.example/?ref=1");
    /// # Ok::<(), normurl_canon::ConfigError>(())
    /// ```
    pub fn param_rules(&mut self, text: &str) -> Result<&mut CanonicalizerBuilder, ConfigError> {
        self.config.lists.domain.add_text(text)?;
        self.config.rules.insert(super::Rule::DomainParams);
        Ok(self)
    }

    /// Makes `strip-www` keep `www.` by the Public Suffix List `list`
    /// (when what is left would be one of its public suffixes) rather
    /// than by the bundled copy: the list `--psl FILE` reads for the
    /// components, so that the two agree. The table is built here, once
    /// (a few milliseconds); the canonicalizer's clones share it.
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_canon::{Canonicalizer, Profile};
    /// use normurl_canon::psl::PublicSuffixList;
    ///
    /// let list = PublicSuffixList::parse("com\nnewsuffix.example")?;
    /// let canon = Canonicalizer::builder(Profile::Aggressive).public_suffixes(&list).build();
    /// assert_eq!(canon.canonicalize("https://www.newsuffix.example/").unwrap(), "https://www.newsuffix.example/");
    /// // The bundled list does not have it (and `co.uk` is not in `list`).
    /// assert_eq!(canon.canonicalize("https://www.co.uk/").unwrap(), "https://co.uk/");
    /// # Ok::<(), normurl_canon::psl::PslError>(())
    /// ```
    pub fn public_suffixes(&mut self, list: &PublicSuffixList) -> &mut CanonicalizerBuilder {
        self.config.suffixes = Suffixes::of(list);
        self
    }

    /// [`CanonicalizerBuilder::public_suffixes`] from the text of a list
    /// (the format of publicsuffix.org's `public_suffix_list.dat`, read as
    /// [`PublicSuffixList::parse`] reads it).
    pub fn public_suffix_list(
        &mut self,
        text: &str,
    ) -> Result<&mut CanonicalizerBuilder, ConfigError> {
        let list = PublicSuffixList::parse(text)
            .map_err(|e| ConfigError::BadPublicSuffixList(e.line, e.message))?;
        Ok(self.public_suffixes(&list))
    }

    /// Sets the output form (default: [`OutputForm::Url`]).
    pub fn output(&mut self, output: OutputForm) -> &mut CanonicalizerBuilder {
        self.config.output = output;
        self
    }

    /// Sets how domains are written (default: [`IdnForm::Ascii`]).
    pub fn idn(&mut self, idn: IdnForm) -> &mut CanonicalizerBuilder {
        self.config.idn = idn;
        self
    }

    /// Builds the canonicalizer.
    pub fn build(&self) -> Canonicalizer {
        let c = &self.config;
        let plan = fast::Plan::new(c.rules, c.output, &c.tracking);
        let (fused, fused_inner) = fused::pick(c.rules, c.output, c.idn, plan.path(), true);
        Canonicalizer {
            fused,
            setup: fast::Setup {
                plan,
                config: c.clone(),
                fused_inner,
            },
        }
    }
}

impl Canonicalizer {
    /// The canonicalizer of a profile, with default options.
    pub fn new(profile: Profile) -> Canonicalizer {
        Canonicalizer::builder(profile).build()
    }

    /// A builder starting from a profile's rules.
    pub fn builder(profile: Profile) -> CanonicalizerBuilder {
        CanonicalizerBuilder {
            config: Config {
                rules: profile.rules(),
                tracking: profile.tracking_params(),
                output: OutputForm::Url,
                idn: IdnForm::Ascii,
                lists: Default::default(),
                suffixes: Default::default(),
            },
        }
    }

    /// Whether this canonicalizer writes the WHATWG serialization as it
    /// is: no rules, URL output, ASCII hosts (the `whatwg` profile's).
    pub fn is_identity(&self) -> bool {
        self.setup.config.is_identity()
    }

    /// A canonicalizer of the same rules and options that writes the
    /// canonical URL itself ([`OutputForm::Url`], ASCII hosts), whatever
    /// form this one writes: what scope rules decide on.
    pub fn url_form(&self) -> Canonicalizer {
        let mut config = self.setup.config.clone();
        config.output = OutputForm::Url;
        config.idn = IdnForm::Ascii;
        CanonicalizerBuilder { config }.build()
    }

    /// The rules this canonicalizer applies.
    pub fn rules(&self) -> RuleSet {
        self.setup.config.rules
    }

    /// The output form.
    pub fn output(&self) -> OutputForm {
        self.setup.config.output
    }

    /// Appends the canonical form of `url` to `out` and returns the rules
    /// that changed something (for `--explain`). Never panics; allocates
    /// only while `scratch` grows to the longest URL seen (and for Unicode
    /// domains with [`IdnForm::Unicode`]).
    ///
    /// In [`OutputForm::Url`] the result is a valid URL serialization, and
    /// canonicalizing the parse of it again gives the same bytes.
    pub fn apply(&self, url: &Url, scratch: &mut Scratch, out: &mut Vec<u8>) -> RuleSet {
        fast::apply_url(&self.setup, url, scratch, out)
    }

    /// The general path ([`general::apply`]).
    pub(super) fn apply_general(
        &self,
        url: &Url,
        scratch: &mut Scratch,
        out: &mut Vec<u8>,
    ) -> RuleSet {
        general::apply(
            &self.setup.config,
            url,
            &mut scratch.general,
            &mut scratch.params,
            out,
        )
    }

    /// Parses `input` as an absolute URL, as [`Url::parse_into`] does, and
    /// appends its canonical form to `out`, as [`Canonicalizer::apply`]
    /// does; returns the rules that fired, or the parse error (and then
    /// writes nothing).
    ///
    /// This is the faster way for inputs that are text: for most crawled
    /// URLs, the parser's scan also tells that the rules can only cut
    /// ranges, and the output is written from the input without storing
    /// the URL. `url` is scratch space: afterwards it holds some valid
    /// URL, not necessarily `input`'s.
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_canon::{Canonicalizer, Profile, Scratch};
    /// use normurl_url::Url;
    ///
    /// let canon = Canonicalizer::new(Profile::Aggressive);
    /// let (mut url, mut scratch, mut out) = (Url::parse("about:blank")?, Scratch::new(), Vec::new());
    /// canon.parse_apply("https://www.example.com/a/", &mut url, &mut scratch, &mut out)?;
    /// assert_eq!(out, b"https://example.com/a");
    /// assert!(canon.parse_apply("no scheme", &mut url, &mut scratch, &mut out).is_err());
    /// # Ok::<(), normurl_url::ParseError>(())
    /// ```
    #[inline]
    pub fn parse_apply(
        &self,
        input: &str,
        url: &mut Url,
        scratch: &mut Scratch,
        out: &mut Vec<u8>,
    ) -> Result<RuleSet, normurl_url::ParseError> {
        let start = out.len();
        // SAFETY: `fused::pick` picked a wide instance only on a CPU with
        // AVX2.
        let result = unsafe { (self.fused)(&self.setup, input, url, scratch, out) };
        if cfg!(debug_assertions) {
            self.debug_check_parse_apply(input, &result, &out[start..]);
        }
        result
    }

    /// In debug builds, [`Canonicalizer::parse_apply`]'s answer must be
    /// that of [`Url::parse_into`] and [`Canonicalizer::apply`].
    fn debug_check_parse_apply(
        &self,
        input: &str,
        result: &Result<RuleSet, normurl_url::ParseError>,
        written: &[u8],
    ) {
        let mut url = Url::parse("about:blank").expect("valid");
        let mut out = Vec::new();
        let expected = url
            .parse_into(input, None)
            .map(|()| self.apply(&url, &mut Scratch::new(), &mut out));
        assert_eq!(result, &expected, "parse_apply({input:?})");
        assert_eq!(
            String::from_utf8_lossy(written),
            String::from_utf8_lossy(&out),
            "parse_apply({input:?})"
        );
    }

    /// Like [`Canonicalizer::apply`], but never takes the fast path: every
    /// rule runs on copies of the components. For the fuzz target and
    /// tests that compare the two; not part of the stable API.
    #[doc(hidden)]
    pub fn apply_without_fast_path(
        &self,
        url: &Url,
        scratch: &mut Scratch,
        out: &mut Vec<u8>,
    ) -> RuleSet {
        self.apply_general(url, scratch, out)
    }

    /// Canonicalizes one input string, allocating: for tests, examples and
    /// one-off use. Hot loops use [`Canonicalizer::apply`].
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_canon::{Canonicalizer, Profile};
    ///
    /// let canon = Canonicalizer::new(Profile::Semantic);
    /// assert_eq!(canon.canonicalize("http://EXAMPLE.com/%7euser/%3f").unwrap(), "http://example.com/~user/%3F");
    /// ```
    pub fn canonicalize(&self, input: &str) -> Result<String, normurl_url::ParseError> {
        Ok(self.canonicalize_url(&Url::parse(input)?))
    }

    /// Canonicalizes a parsed URL, allocating (see [`Canonicalizer::apply`]).
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_canon::{Canonicalizer, OutputForm, Profile};
    ///
    /// let mut builder = Canonicalizer::builder(Profile::Wayback);
    /// let canon = builder.output(OutputForm::Ssurt).build();
    /// let url = normurl_url::Url::parse("http://www.archive.org:8080/Goo/?b&a")?;
    /// assert_eq!(canon.canonicalize_url(&url), "org,archive,//8080:http:/goo?a&b");
    /// # Ok::<(), normurl_url::ParseError>(())
    /// ```
    pub fn canonicalize_url(&self, url: &Url) -> String {
        let mut out = Vec::new();
        self.apply(url, &mut Scratch::new(), &mut out);
        // The parts are ASCII, or UTF-8 from ToUnicode.
        String::from_utf8(out)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }
}
