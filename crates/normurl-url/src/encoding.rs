//! The query encoding override: the `encoding` argument of the
//! [basic URL parser](https://url.spec.whatwg.org/#concept-basic-url-parser),
//! which browsers pass for documents in a legacy encoding (Shift_JIS,
//! EUC-JP, GBK, windows-1252...). Only the query of special URLs other than
//! `ws:` and `wss:` is affected (url.bs "query state", step 1).

#[cfg(feature = "encoding")]
pub use tables::QueryEncoding;
#[cfg(feature = "encoding")]
pub(crate) use tables::{encode_after_encoding, Encoding};

/// Without the `encoding` feature the only encoding is UTF-8, which needs
/// no override: a type with no values, so that the parser's override is
/// always `None`.
#[cfg(not(feature = "encoding"))]
pub(crate) enum Encoding {}

/// See the `encoding` feature's version; never called without it.
#[cfg(not(feature = "encoding"))]
pub(crate) fn encode_after_encoding(
    encoding: &'static Encoding,
    _: &str,
    _: &crate::percent::AsciiSet,
    _: &mut Vec<u8>,
) {
    match *encoding {}
}

/// The encoding override, with the Encoding Standard's tables.
#[cfg(feature = "encoding")]
mod tables {
    use std::fmt;
    use std::str::FromStr;

    pub(crate) use encoding_rs::Encoding;
    use encoding_rs::{EncoderResult, UTF_8};

    use crate::percent::push_percent_encoded;
    use crate::percent::AsciiSet;

    /// An [output encoding](https://encoding.spec.whatwg.org/#get-an-output-encoding)
    /// for queries, from an Encoding Standard label.
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_url::{QueryEncoding, Url};
    ///
    /// let sjis: QueryEncoding = "Shift_JIS".parse()?;
    /// assert_eq!(sjis.name(), "Shift_JIS");
    /// let url = Url::parse_with_encoding("http://example.jp/search?q=東京", None, sjis)?;
    /// assert_eq!(url.href(), "http://example.jp/search?q=%93%8C%8B%9E");
    /// // Paths are UTF-8 whatever the page's encoding.
    /// let url = Url::parse_with_encoding("http://example.jp/東京?q=東京", None, sjis)?;
    /// assert_eq!(url.href(), "http://example.jp/%E6%9D%B1%E4%BA%AC?q=%93%8C%8B%9E");
    /// // Encoded bytes that are ASCII stay as they are: 本 is 0x96 0x7B `{`.
    /// assert_eq!(Url::parse_with_encoding("http://h/?本", None, sjis)?.query(), Some("%96{"));
    /// // A label that is no encoding is an error; UTF-16 is written as UTF-8.
    /// assert!("shift-jisx".parse::<QueryEncoding>().is_err());
    /// assert_eq!("utf-16le".parse::<QueryEncoding>()?.name(), "UTF-8");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct QueryEncoding(&'static Encoding);

    impl QueryEncoding {
        /// UTF-8: no override.
        pub const UTF_8: QueryEncoding = QueryEncoding(UTF_8);

        /// The encoding of an [Encoding Standard label](https://encoding.spec.whatwg.org/#names-and-labels)
        /// (case-insensitive, surrounding whitespace ignored), as its output
        /// encoding (UTF-16 and `replacement` become UTF-8), or `None` for an
        /// unknown label.
        pub fn for_label(label: &str) -> Option<QueryEncoding> {
            Encoding::for_label(label.trim().as_bytes()).map(|e| QueryEncoding(e.output_encoding()))
        }

        /// The encoding's name, e.g. `Shift_JIS`.
        pub fn name(self) -> &'static str {
            self.0.name()
        }

        /// Whether this is UTF-8, the encoding without override.
        pub fn is_utf8(self) -> bool {
            self.0 == UTF_8
        }

        pub(crate) fn encoding(self) -> &'static Encoding {
            self.0
        }
    }

    impl Default for QueryEncoding {
        fn default() -> QueryEncoding {
            QueryEncoding::UTF_8
        }
    }

    impl fmt::Display for QueryEncoding {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(self.name())
        }
    }

    impl FromStr for QueryEncoding {
        type Err = String;

        fn from_str(s: &str) -> Result<QueryEncoding, String> {
            QueryEncoding::for_label(s).ok_or_else(|| {
            format!("unknown encoding label {s:?} (expected an Encoding Standard label such as shift_jis, euc-jp, gbk, windows-1252)")
        })
        }
    }

    /// [Percent-encode after encoding](https://url.spec.whatwg.org/#string-percent-encode-after-encoding)
    /// `input` with `encoding` and `set`, appending to `out`: a character the
    /// encoding cannot represent becomes `%26%23` NNNN `%3B` (its decimal
    /// `&#NNNN;`, percent-encoded).
    pub(crate) fn encode_after_encoding(
        encoding: &'static Encoding,
        input: &str,
        set: &AsciiSet,
        out: &mut Vec<u8>,
    ) {
        let mut encoder = encoding.new_encoder();
        let mut buffer = [0u8; 512];
        let mut rest = input;
        loop {
            // `last` is true: the whole query is one call, so the stateful
            // ISO-2022-JP encoder ends in ASCII.
            let (result, read, written) =
                encoder.encode_from_utf8_without_replacement(rest, &mut buffer, true);
            for &b in &buffer[..written] {
                if set.contains(b) {
                    push_percent_encoded(b, out);
                } else {
                    out.push(b);
                }
            }
            rest = &rest[read..];
            match result {
                EncoderResult::InputEmpty => return,
                EncoderResult::OutputFull => {}
                EncoderResult::Unmappable(c) => {
                    out.extend_from_slice(b"%26%23");
                    out.extend_from_slice(u32::from(c).to_string().as_bytes());
                    out.extend_from_slice(b"%3B");
                }
            }
        }
    }
}
