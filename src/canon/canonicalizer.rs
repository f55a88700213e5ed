//! The canonicalizer: a rule set plus options, built once, applied to every
//! URL with caller-owned buffers.

use super::config::{Config, IdnForm, OutputForm};
use super::{fast, fused, general, Scratch};
use super::{ConfigError, Profile, RuleSet, TrackingParams};
use crate::Url;

/// Canonicalizes parsed URLs with a fixed set of rules and options.
///
/// Build it once (from a [`Profile`] and edits) and share it between
/// threads; each thread keeps its own [`Scratch`].
///
/// # Example
///
/// ```
/// use normurl::canon::{Canonicalizer, Profile, Rule, Scratch};
/// use normurl::Url;
///
/// let canon = Canonicalizer::new(Profile::Aggressive);
/// let mut scratch = Scratch::new();
/// let mut out = Vec::new();
/// let url = Url::parse("HTTP://www.Example.com/a//b/?utm_source=x&b=2&a=%7e1#top")?;
/// let fired = canon.apply(&url, &mut scratch, &mut out);
/// assert_eq!(out, b"http://example.com/a/b?a=~1&b=2");
/// assert!(fired.contains(Rule::StripTracking) && fired.contains(Rule::SortQuery));
/// # Ok::<(), normurl::ParseError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Canonicalizer {
    /// The rules and options, and the plan of the fast paths for them.
    pub(super) setup: fast::Setup,
    /// [`Canonicalizer::parse_apply`]'s instance for these rules.
    fused: fused::Fused,
}

/// Builds a [`Canonicalizer`]: a profile's rules, edited, plus options.
///
/// # Example
///
/// ```
/// use normurl::canon::{Canonicalizer, IdnForm, OutputForm, Profile};
///
/// let canon = Canonicalizer::builder(Profile::Aggressive)
///     .rules("+strip-www-digits,-strip-trailing-slash")?
///     .strip_params("ref,src_*")?
///     .idn(IdnForm::Unicode)
///     .output("surt".parse()?)
///     .build();
/// assert_eq!(canon.canonicalize("https://www3.xn--bcher-kva.de/a/?ref=x").unwrap(), "de,bücher)/a/");
/// # Ok::<(), normurl::canon::ConfigError>(())
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
    /// of an `@FILE`.
    pub fn strip_params(&mut self, list: &str) -> Result<&mut CanonicalizerBuilder, ConfigError> {
        self.config.tracking.add_list(list)?;
        Ok(self)
    }

    /// Adds names to the list of `keep-params` (as
    /// [`TrackingParams::add_list`] reads them: names, `prefix*`, globs
    /// such as `*_id`) and turns the rule on: every other parameter goes.
    ///
    /// # Example
    ///
    /// ```
    /// use normurl::canon::{Canonicalizer, Profile};
    ///
    /// let canon = Canonicalizer::builder(Profile::Whatwg).keep_params("id,p_*")?.build();
    /// assert_eq!(canon.canonicalize("https://a.com/?id=1&x=2&p_1=3").unwrap(), "https://a.com/?id=1&p_1=3");
    /// # Ok::<(), normurl::canon::ConfigError>(())
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
    /// use normurl::canon::{Canonicalizer, Profile};
    ///
    /// let canon = Canonicalizer::builder(Profile::Whatwg).redirectors("t.example.com /out u")?.build();
    /// assert_eq!(canon.canonicalize("https://t.example.com/out?u=https://a.com/").unwrap(), "https://a.com/");
    /// # Ok::<(), normurl::canon::ConfigError>(())
    /// ```
    pub fn redirectors(&mut self, text: &str) -> Result<&mut CanonicalizerBuilder, ConfigError> {
        self.config.lists.redirects.add_text(text)?;
        self.config.rules.insert(super::Rule::UnwrapRedirects);
        Ok(self)
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
        Canonicalizer {
            fused: fused::pick(c.rules, c.output, c.idn, plan.path(), true),
            setup: fast::Setup {
                plan,
                config: c.clone(),
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
                tracking: TrackingParams::default(),
                output: OutputForm::Url,
                idn: IdnForm::Ascii,
                lists: Default::default(),
            },
        }
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
    fn apply_general(&self, url: &Url, scratch: &mut Scratch, out: &mut Vec<u8>) -> RuleSet {
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
    /// use normurl::canon::{Canonicalizer, Profile, Scratch};
    /// use normurl::Url;
    ///
    /// let canon = Canonicalizer::new(Profile::Aggressive);
    /// let (mut url, mut scratch, mut out) = (Url::parse("about:blank")?, Scratch::new(), Vec::new());
    /// canon.parse_apply("https://www.example.com/a/", &mut url, &mut scratch, &mut out)?;
    /// assert_eq!(out, b"https://example.com/a");
    /// assert!(canon.parse_apply("no scheme", &mut url, &mut scratch, &mut out).is_err());
    /// # Ok::<(), normurl::ParseError>(())
    /// ```
    #[inline]
    pub fn parse_apply(
        &self,
        input: &str,
        url: &mut Url,
        scratch: &mut Scratch,
        out: &mut Vec<u8>,
    ) -> Result<RuleSet, crate::ParseError> {
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
        result: &Result<RuleSet, crate::ParseError>,
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
    /// use normurl::canon::{Canonicalizer, Profile};
    ///
    /// let canon = Canonicalizer::new(Profile::Semantic);
    /// assert_eq!(canon.canonicalize("http://EXAMPLE.com/%7euser/%3f").unwrap(), "http://example.com/~user/%3F");
    /// ```
    pub fn canonicalize(&self, input: &str) -> Result<String, crate::ParseError> {
        Ok(self.canonicalize_url(&Url::parse(input)?))
    }

    /// Canonicalizes a parsed URL, allocating (see [`Canonicalizer::apply`]).
    ///
    /// # Example
    ///
    /// ```
    /// use normurl::canon::{Canonicalizer, OutputForm, Profile};
    ///
    /// let mut builder = Canonicalizer::builder(Profile::Wayback);
    /// let canon = builder.output(OutputForm::Ssurt).build();
    /// let url = normurl::Url::parse("http://www.archive.org:8080/Goo/?b&a")?;
    /// assert_eq!(canon.canonicalize_url(&url), "org,archive,//8080:http:/goo?a&b");
    /// # Ok::<(), normurl::ParseError>(())
    /// ```
    pub fn canonicalize_url(&self, url: &Url) -> String {
        let mut out = Vec::new();
        self.apply(url, &mut Scratch::new(), &mut out);
        // The parts are ASCII, or UTF-8 from ToUnicode.
        String::from_utf8(out)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }
}

#[cfg(test)]
mod tests {
    //! The fast path against the general path, its reference: whenever the
    //! fast path takes a URL, both must write the same bytes and report
    //! the same rules.

    use super::*;
    use crate::canon::Rule;
    use proptest::prelude::*;

    /// The profiles, every rule at once, and each output form.
    fn canonicalizers() -> Vec<Canonicalizer> {
        let mut all: Vec<Canonicalizer> = Profile::ALL
            .iter()
            .map(|&p| Canonicalizer::new(p))
            .collect();
        all.push(
            Canonicalizer::builder(Profile::Whatwg)
                .rule_set(Rule::ALL.into_iter().collect())
                .build(),
        );
        // Every rule the fast path applies (with one of the others, it
        // declines every URL).
        let general_only = crate::canon::rules::lists::GENERAL_ONLY;
        all.push(
            Canonicalizer::builder(Profile::Whatwg)
                .rule_set(
                    Rule::ALL
                        .into_iter()
                        .filter(|&r| !general_only.contains(r))
                        .collect(),
                )
                .build(),
        );
        for output in ["surt", "ssurt"] {
            for profile in [Profile::Aggressive, Profile::Wayback] {
                all.push(
                    Canonicalizer::builder(profile)
                        .output(output.parse().unwrap())
                        .build(),
                );
            }
        }
        all.push(
            Canonicalizer::builder(Profile::Aggressive)
                .rules("+force-http,+drop-port,+strip-www-digits,-strip-userinfo")
                .unwrap()
                .build(),
        );
        // Where the fast path scans with AVX2, the SSE2 instances too.
        let narrow: Vec<Canonicalizer> = all
            .iter()
            .filter_map(|canon| {
                let plan = canon.setup.plan.narrow()?;
                Some(Canonicalizer {
                    setup: fast::Setup {
                        plan,
                        config: canon.setup.config.clone(),
                    },
                    fused: fused::pick(
                        canon.setup.config.rules,
                        canon.setup.config.output,
                        canon.setup.config.idn,
                        plan.path(),
                        false,
                    ),
                })
            })
            .collect();
        all.extend(narrow);
        all
    }

    /// [`canonicalizers`], and some that write hosts in Unicode (which
    /// the fast path never takes: `parse_apply`'s tests only).
    fn parse_apply_canonicalizers() -> Vec<Canonicalizer> {
        let mut all = canonicalizers();
        for profile in [Profile::Whatwg, Profile::Aggressive, Profile::Semantic] {
            all.push(
                Canonicalizer::builder(profile)
                    .idn(IdnForm::Unicode)
                    .build(),
            );
        }
        all
    }

    /// Runs both paths; returns whether the fast path took the URL.
    fn compare(canon: &Canonicalizer, url: &Url, scratch: &mut Scratch) -> Result<bool, String> {
        let mut fast_out = Vec::new();
        let fast = fast::apply(
            &canon.setup,
            url,
            &mut scratch.params,
            &mut scratch.fast,
            &mut fast_out,
        );
        let Some(fast_fired) = fast else {
            return if fast_out.is_empty() {
                Ok(false)
            } else {
                Err(format!("{}: declined after writing", url.href()))
            };
        };
        let mut general_out = Vec::new();
        let general_fired = canon.apply_general(url, scratch, &mut general_out);
        if (&fast_out, fast_fired) != (&general_out, general_fired) {
            return Err(format!(
                "{:?} on {}: fast {:?} {}, general {:?} {}",
                canon.rules(),
                url.href(),
                String::from_utf8_lossy(&fast_out),
                fast_fired,
                String::from_utf8_lossy(&general_out),
                general_fired,
            ));
        }
        Ok(true)
    }

    #[test]
    fn fast_path_strips_one_slash_of_a_path_ending_in_two() {
        // As the general path does when collapse-slashes is off (so the
        // output is not idempotent: that is the rules' own doing).
        let canon = Canonicalizer::builder(Profile::Whatwg)
            .rules("+strip-trailing-slash")
            .unwrap()
            .build();
        let mut scratch = Scratch::new();
        for input in [
            "http://h/a//",
            "http://h//",
            "http://h/a//?q",
            "http://h/a//#f",
        ] {
            let url = Url::parse(input).unwrap();
            assert_eq!(compare(&canon, &url, &mut scratch), Ok(true), "{input}");
        }
        let mut out = Vec::new();
        canon.apply(&Url::parse("http://h/a//").unwrap(), &mut scratch, &mut out);
        assert_eq!(out, b"http://h/a/");
    }

    #[test]
    fn fast_path_drops_a_fragment_with_the_cuts_of_host_port_and_slash() {
        // `parse_apply` cuts a fragment off before `Bare` (`Bare::kept`);
        // where `Bare` gives up (a port to drop, a `www` host of several
        // labels), the stored URL's fast path must drop it too.
        let canon = Canonicalizer::builder(Profile::Whatwg)
            .rules("+drop-fragment,+drop-port,+strip-www,+strip-trailing-slash")
            .unwrap()
            .build();
        let mut scratch = Scratch::new();
        for (input, expected) in [
            ("http://www.example.com/a/#f", "http://example.com/a"),
            ("http://example.com:8080/a/#f", "http://example.com/a"),
            ("http://www.www.example.com/#", "http://example.com/"),
            ("http://example.com/a?q#f", "http://example.com/a?q"),
        ] {
            let url = Url::parse(input).unwrap();
            assert_eq!(compare(&canon, &url, &mut scratch), Ok(true), "{input}");
            let mut out = Vec::new();
            canon.apply(&url, &mut scratch, &mut out);
            assert_eq!(String::from_utf8_lossy(&out), expected, "{input}");
        }
    }

    #[test]
    fn parse_apply_keeps_a_query_of_one_parameter_with_the_cuts() {
        // `Bare` on the input may end in a query: its last byte is no
        // trailing slash, and a slash before it is left to the stored
        // URL's way.
        let canon = Canonicalizer::builder(Profile::Aggressive).build();
        let mut url = Url::parse("about:blank").unwrap();
        let mut scratch = Scratch::new();
        for (input, expected) in [
            (
                "https://www.example.com/a?q=1/",
                "https://example.com/a?q=1/",
            ),
            ("https://www.example.com/a/?q", "https://example.com/a?q"),
            ("https://example.com/a?q#f", "https://example.com/a?q"),
            ("https://example.com/?utm_source=x", "https://example.com/"),
            ("https://example.com/a?b&a", "https://example.com/a?a&b"),
            ("https://www.co.uk/a?q", "https://www.co.uk/a?q"),
        ] {
            let mut out = Vec::new();
            let fired = canon.parse_apply(input, &mut url, &mut scratch, &mut out);
            assert!(fired.is_ok(), "{input}");
            assert_eq!(String::from_utf8_lossy(&out), expected, "{input}");
        }
    }

    #[test]
    fn fast_path_matches_general_path_on_the_corpora() {
        let mut scratch = Scratch::new();
        let mut url = Url::parse("about:blank").unwrap();
        let canons = canonicalizers();
        let (mut lines, mut taken) = (0, 0);
        for (_, text) in crate::test_corpora() {
            for line in text.lines() {
                if url.parse_into(line, None).is_err() {
                    continue;
                }
                lines += 1;
                for canon in &canons {
                    taken += usize::from(compare(canon, &url, &mut scratch).unwrap());
                }
            }
        }
        assert!(lines > 100_000, "corpora missing? {lines} lines");
        assert!(
            taken > lines * canons.len() * 3 / 4,
            "the fast path took only {taken} of {}",
            lines * canons.len()
        );
    }

    /// [`Canonicalizer::parse_apply`] against [`Url::parse_into`] and
    /// [`Canonicalizer::apply`]: the same result, appended to what `out`
    /// had. `url` comes in holding some other URL. Returns whether the
    /// input took the way that never stores the URL (`url` unchanged).
    fn compare_parse_apply(
        canon: &Canonicalizer,
        input: &str,
        url: &mut Url,
        scratch: &mut Scratch,
    ) -> Result<bool, String> {
        url.parse_into("http://stale.example/", None).unwrap();
        let mut out = b"kept".to_vec();
        let fused = canon.parse_apply(input, url, scratch, &mut out);
        let untouched = url.href() == "http://stale.example/";
        let mut two_step = Url::parse("about:blank").unwrap();
        let mut expected = b"kept".to_vec();
        let reference = two_step
            .parse_into(input, None)
            .map(|()| canon.apply(&two_step, scratch, &mut expected));
        if (&fused, &out) != (&reference, &expected) {
            return Err(format!(
                "{:?} on {input:?}: parse_apply {fused:?} {:?}, two steps {reference:?} {:?}",
                canon.rules(),
                String::from_utf8_lossy(&out),
                String::from_utf8_lossy(&expected),
            ));
        }
        Ok(fused.is_ok() && untouched)
    }

    #[test]
    fn parse_apply_matches_two_steps() {
        let mut scratch = Scratch::new();
        let mut url = Url::parse("about:blank").unwrap();
        let canons = parse_apply_canonicalizers();
        let aggressive = Canonicalizer::new(Profile::Aggressive);
        for input in [
            "https://example.com",
            "  https://www.example.com/a/ \n",
            "\thttps://example.com/a/",
            "https://www.example.com/a/",
            "https://www.co.uk/",
            "https://www.github.io/x/",
            "https://www./",
            "https://www",
            "https://.example.com./",
            "https://example.com:8080/a/",
            "http://example.com:80/a/",
            "file:///a/",
            "file://host/a/",
            "https://example.com/a/?",
            "https://example.com/a/#",
            "https://www.example.com/a/#top",
            "https://www.co.uk/#x%7e",
            "https://example.com:8080/a/#f",
            "https://example.com//a/#f",
            "https://example.com/#",
            "https://example.com/a;jsessionid=0123456789abcdef0123456789ABCDEF/",
            "https://example.com//a/",
            "https://example.com/%7e/",
            "http://EXAMPLE.com/",
            "https://ex ample.com/",
            "https://user@example.com/",
            "http://xn--bcher-kva.example/a",
            "http://www.xn--bcher-kva.example/a/?b=1&a#f",
            "http://xn--bcher-kva.example/a?b",
            "mailto:a@b",
            "no scheme",
            "",
        ] {
            for canon in &canons {
                compare_parse_apply(canon, input, &mut url, &mut scratch).unwrap();
            }
        }
        // Hosts in Unicode, whatever the rules.
        for profile in [Profile::Whatwg, Profile::Aggressive] {
            let unicode = Canonicalizer::builder(profile)
                .idn(IdnForm::Unicode)
                .build();
            let mut out = Vec::new();
            unicode
                .parse_apply(
                    "http://xn--bcher-kva.example/a",
                    &mut url,
                    &mut scratch,
                    &mut out,
                )
                .unwrap();
            assert_eq!(out, "http://bücher.example/a".as_bytes(), "{profile:?}");
        }
        // The way that never stores the URL is taken where it should be,
        // and only there.
        for (input, taken) in [
            ("https://www.example.com/a/", true),
            ("https://example.com:8080/a/", true),
            ("file:///a/", true),
            ("https://example.com", false),
            // A query of one parameter that no rule touches.
            ("https://example.com/a?q", true),
            ("https://example.com/a?q#f", true),
            ("https://www.example.com/a?q=1/", true),
            // A parameter a rule may remove, two parameters, an empty
            // query, a trailing slash before the query: the parameter
            // rules run on the input's query too, and on percent-encoding
            // that the percent rules keep; the general path decodes and
            // uppercases.
            ("https://example.com/a?utm_source=x", true),
            ("https://example.com/a?q&r", true),
            ("https://www.example.com/a/?z=1&utm_source=x&a#f", true),
            ("https://example.com/a?", true),
            ("https://example.com/a?q=%2F&r", true),
            ("https://example.com/a?x%2F=1&utm_source=x", true),
            ("https://example.com/a?%75tm_source=1&r", false),
            ("https://example.com/a?%7e", false),
            ("https://example.com/a?q&%7e", false),
            ("https://example.com/a?q=%2f&r", false),
            ("https://example.com/a/?q", true),
            ("https://example.com/a%7e?q&r", false),
            ("https://example.com/?q", true),
            ("https://www.example.com/a/#top", true),
            ("https://example.com/#", true),
            ("https://example.com//a/#f", false),
            ("https://example.com/%7e/", false),
            ("https://www.co.uk/", true),
            ("http://EXAMPLE.com/", false),
        ] {
            assert_eq!(
                compare_parse_apply(&aggressive, input, &mut url, &mut scratch),
                Ok(taken),
                "{input}"
            );
        }
    }

    #[test]
    fn parse_apply_matches_two_steps_on_the_corpora() {
        let mut scratch = Scratch::new();
        let mut url = Url::parse("about:blank").unwrap();
        let canons = parse_apply_canonicalizers();
        let (mut lines, mut taken) = (0, 0);
        for (_, text) in crate::test_corpora() {
            // A sixth of the lines keeps the debug build's time down (each
            // call is checked against the two steps there too).
            for line in text.lines().step_by(6) {
                lines += 1;
                for canon in &canons {
                    let fused = compare_parse_apply(canon, line, &mut url, &mut scratch);
                    taken += usize::from(fused.unwrap());
                }
            }
        }
        assert!(lines > 20_000, "corpora missing? {lines} lines");
        // Most lines have no query, and most canonicalizers output URLs.
        assert!(
            taken > lines * canons.len() / 3,
            "parse_apply wrote only {taken} of {} from the input",
            lines * canons.len()
        );
    }

    fn url() -> impl Strategy<Value = String> {
        let scheme = prop::sample::select(vec![
            "http", "https", "HTTPS", "ftp", "file", "ws", "foo", "web+x",
        ]);
        let userinfo = prop::option::weighted(
            0.2,
            prop::sample::select(vec!["u", "u:p", ":p", "%41:%62", "a%7e", "A"]),
        );
        let label = prop::sample::select(vec![
            "www",
            "www2",
            "WWW",
            "example",
            "co",
            "uk",
            "com",
            "github",
            "io",
            "a%62c",
            "09",
            "0x1f",
            "",
            "xn--bcher-kva",
            "a;b",
            "a(b",
        ]);
        let host = prop::option::weighted(
            0.9,
            prop::collection::vec(label, 1..5).prop_map(|labels| labels.join(".")),
        );
        let port = prop::option::weighted(0.2, prop::sample::select(vec!["80", "443", "8080"]));
        let segment = prop::sample::select(vec![
            "",
            "a",
            "B",
            ".",
            "..",
            "%2e",
            "%41",
            "%7e",
            "%7E",
            "%2f",
            "%3f",
            "%20",
            "x;jsessionid=0123456789abcdef0123456789ABCDEF",
            "(S(4hqa0555fwsecu455xqckv45))",
            "p.aspx",
            "%",
            "~",
            "index.html",
            "a..b",
            "a;b",
        ]);
        let path = prop::collection::vec(segment, 0..5);
        let param = prop::sample::select(vec![
            "",
            "a=1",
            "b=2",
            "A=B",
            "utm_source=x",
            "fbclid",
            "gclid=1",
            "sid=0123456789abcdef0123456789abcdef",
            "CFID=1",
            "cftoken=2",
            "q=a+b",
            "x=%2B",
            "%61=1",
            "u=http://x//y",
            "z",
            "=",
        ]);
        let query = prop::option::weighted(0.4, prop::collection::vec(param, 0..4));
        let fragment = prop::option::weighted(
            0.3,
            prop::sample::select(vec!["", "f", "%7e", "%7E", "a#b", "A", "x//y"]),
        );
        (
            scheme,
            userinfo,
            host,
            port,
            path,
            any::<bool>(),
            query,
            fragment,
        )
            .prop_map(
                |(scheme, userinfo, host, port, path, slash, query, fragment)| {
                    let mut s = format!("{scheme}:");
                    if let Some(host) = host {
                        s.push_str("//");
                        if let Some(userinfo) = userinfo {
                            s.push_str(userinfo);
                            s.push('@');
                        }
                        s.push_str(&host);
                        if let Some(port) = port {
                            s.push(':');
                            s.push_str(port);
                        }
                    }
                    for segment in path {
                        s.push('/');
                        s.push_str(segment);
                    }
                    if slash {
                        s.push('/');
                    }
                    if let Some(query) = query {
                        s.push('?');
                        s.push_str(&query.join("&"));
                    }
                    if let Some(fragment) = fragment {
                        s.push('#');
                        s.push_str(fragment);
                    }
                    s
                },
            )
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

        #[test]
        fn fast_path_matches_general_path(input in url(), rules in prop::sample::subsequence(Rule::ALL.to_vec(), 0..=Rule::ALL.len())) {
            let Ok(url) = Url::parse(&input) else { return Ok(()) };
            let mut scratch = Scratch::new();
            let mut canons = canonicalizers();
            canons.push(Canonicalizer::builder(Profile::Whatwg).rule_set(rules.into_iter().collect()).build());
            for canon in &canons {
                if let Err(e) = compare(canon, &url, &mut scratch) {
                    return Err(TestCaseError::fail(e));
                }
            }
        }

        #[test]
        fn parse_apply_matches(input in url(), pad in prop::sample::select(vec!["", " ", "\t", "\n", "\u{1}"]), rules in prop::sample::subsequence(Rule::ALL.to_vec(), 0..=Rule::ALL.len())) {
            let input = format!("{pad}{input}{pad}");
            let mut scratch = Scratch::new();
            let mut url = Url::parse("about:blank").unwrap();
            let mut canons = parse_apply_canonicalizers();
            canons.push(Canonicalizer::builder(Profile::Whatwg).rule_set(rules.into_iter().collect()).build());
            for canon in &canons {
                if let Err(e) = compare_parse_apply(canon, &input, &mut url, &mut scratch) {
                    return Err(TestCaseError::fail(e));
                }
            }
        }

        #[test]
        fn opaque_paths_match(path in "[a-zA-Z%0-9/.;:@?#]{0,12}", rules in prop::sample::subsequence(Rule::ALL.to_vec(), 0..=Rule::ALL.len())) {
            for scheme in ["mailto:", "javascript:", "foo:", "foo:/", "web+x://"] {
                let Ok(url) = Url::parse(&format!("{scheme}{path}")) else { continue };
                let mut scratch = Scratch::new();
                let canon = Canonicalizer::builder(Profile::Whatwg).rule_set(rules.iter().copied().collect()).build();
                if let Err(e) = compare(&canon, &url, &mut scratch) {
                    return Err(TestCaseError::fail(e));
                }
            }
        }
    }
}
