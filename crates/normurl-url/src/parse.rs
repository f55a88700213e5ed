//! The parser's entry points on [`Url`]: `Url::parse` and its variants,
//! each running the basic URL parser (`parser.rs`) into a `Url` and
//! settling the result.

#[cfg(feature = "encoding")]
use crate::encoding::QueryEncoding;
use crate::error::ParseError;
use crate::parser;
use crate::url::Url;

impl Url {
    /// Parses an absolute URL, as `new URL(input)` does.
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_url::{ParseError, Url};
    ///
    /// assert_eq!(Url::parse("HTTP://Example.COM/%7e?x")?.href(), "http://example.com/%7e?x");
    /// assert_eq!(Url::parse("/relative"), Err(ParseError::RelativeUrlWithoutBase));
    /// # Ok::<(), ParseError>(())
    /// ```
    pub fn parse(input: &str) -> Result<Url, ParseError> {
        let mut url = Url::empty();
        url.parse_into(input, None)?;
        Ok(url)
    }

    /// Parses `input` against `base`, as `new URL(input, base)` does.
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_url::Url;
    ///
    /// let base = Url::parse("http://example.com/dir/page.html")?;
    /// assert_eq!(Url::parse_with_base("../up?q", &base)?.href(), "http://example.com/up?q");
    /// assert_eq!(Url::parse_with_base("//other.org", &base)?.href(), "http://other.org/");
    /// # Ok::<(), normurl_url::ParseError>(())
    /// ```
    pub fn parse_with_base(input: &str, base: &Url) -> Result<Url, ParseError> {
        let mut url = Url::empty();
        url.parse_into(input, Some(base))?;
        Ok(url)
    }

    /// Parses `input` (against `base`, if given) into `self`, reusing the
    /// allocation of `self`'s serialization.
    ///
    /// This is the entry point for hot loops: keep one `Url` per thread and
    /// call `parse_into` for every input. Once the buffer has grown to the
    /// longest URL seen, parsing an input with an ASCII host and no tab or
    /// newline performs no allocation at all. (Inputs with tabs or newlines,
    /// percent-encoded or non-ASCII hosts take a slower path that may
    /// allocate scratch space.)
    ///
    /// On failure `self` is reset to `about:blank`, so it always holds a
    /// valid URL.
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_url::Url;
    ///
    /// let mut url = Url::parse("about:blank")?;
    /// let mut total = 0;
    /// for line in ["https://a.example/x", "HTTPS://B.example/./y/../z", "not a url"] {
    ///     if url.parse_into(line, None).is_ok() {
    ///         total += url.href().len();
    ///     }
    /// }
    /// assert_eq!(total, "https://a.example/x".len() + "https://b.example/z".len());
    /// # Ok::<(), normurl_url::ParseError>(())
    /// ```
    pub fn parse_into(&mut self, input: &str, base: Option<&Url>) -> Result<(), ParseError> {
        let result = parser::parse(self, input, base);
        self.settle(result, input)
    }

    #[cfg(feature = "encoding")]
    /// Parses `input` (against `base`, if given) as a document in the
    /// encoding `encoding` does: the
    /// [basic URL parser](https://url.spec.whatwg.org/#concept-basic-url-parser)
    /// with its *encoding* argument. The query of a special URL other than
    /// `ws:`/`wss:` is encoded in that encoding before it is
    /// percent-encoded, characters it cannot represent as `%26%23NNNN%3B`;
    /// everything else is as [`Url::parse_with_base`].
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_url::{QueryEncoding, Url};
    ///
    /// let euc_jp = QueryEncoding::for_label("euc-jp").unwrap();
    /// let base = Url::parse("http://example.jp/dir/page.html")?;
    /// let url = Url::parse_with_encoding("find?q=一丁", Some(&base), euc_jp)?;
    /// assert_eq!(url.href(), "http://example.jp/dir/find?q=%B0%EC%C3%FA");
    /// let gbk = QueryEncoding::for_label("gbk").unwrap();
    /// assert_eq!(Url::parse_with_encoding("http://h/?€က", None, gbk)?.query(), Some("%80%26%234096%3B"));
    /// # Ok::<(), normurl_url::ParseError>(())
    /// ```
    pub fn parse_with_encoding(
        input: &str,
        base: Option<&Url>,
        encoding: QueryEncoding,
    ) -> Result<Url, ParseError> {
        let mut url = Url::empty();
        url.parse_into_with_encoding(input, base, encoding)?;
        Ok(url)
    }

    #[cfg(feature = "encoding")]
    /// [`Url::parse_with_encoding`] into `self`, reusing its buffer (see
    /// [`Url::parse_into`]). With UTF-8 this is [`Url::parse_into`].
    pub fn parse_into_with_encoding(
        &mut self,
        input: &str,
        base: Option<&Url>,
        encoding: QueryEncoding,
    ) -> Result<(), ParseError> {
        if encoding.is_utf8() {
            return self.parse_into(input, base);
        }
        let result = parser::parse_with_encoding(self, input, base, encoding.encoding());
        self.settle(result, input)
    }

    /// Like [`Url::parse_into`], but always runs the full state machine,
    /// never the already-canonical fast path. For tests and benchmarks that
    /// compare the two; not part of the stable API.
    #[doc(hidden)]
    pub fn parse_into_without_fast_path(
        &mut self,
        input: &str,
        base: Option<&Url>,
    ) -> Result<(), ParseError> {
        let result = parser::parse_slow(self, input, base);
        self.settle(result, input)
    }
}
