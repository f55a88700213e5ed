//! [`SearchParams`]: the URL Standard's
//! [`URLSearchParams`](https://url.spec.whatwg.org/#interface-urlsearchparams).

use std::fmt;

use super::form_urlencoded;

/// A list of name-value pairs read from and written as
/// [`application/x-www-form-urlencoded`](https://url.spec.whatwg.org/#application/x-www-form-urlencoded):
/// the URL Standard's
/// [`URLSearchParams`](https://url.spec.whatwg.org/#interface-urlsearchparams),
/// with its string constructor. Names and values are Rust strings (scalar
/// value strings, as the standard's `USVString`s are).
///
/// Unlike `url.searchParams` in a browser it is not tied to a URL: take
/// one with [`Url::search_params`](crate::Url::search_params), change it,
/// and store it back with
/// [`Url::set_search_params`](crate::Url::set_search_params).
///
/// # Example
///
/// ```
/// use normurl_url::{SearchParams, Url};
///
/// let mut params = SearchParams::new("?q=rust+url&lang=en&q=whatwg");
/// assert_eq!(params.get("q"), Some("rust url"));
/// assert_eq!(params.get_all("q"), ["rust url", "whatwg"]);
/// params.append("page", "2");
/// params.delete("lang", None);
/// params.sort();
/// assert_eq!(params.to_string(), "page=2&q=rust+url&q=whatwg");
///
/// let mut url = Url::parse("https://example.com/search?x=1#top")?;
/// url.set_search_params(&params);
/// assert_eq!(url.href(), "https://example.com/search?page=2&q=rust+url&q=whatwg#top");
/// # Ok::<(), normurl_url::ParseError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SearchParams {
    list: Vec<(String, String)>,
}

impl SearchParams {
    /// `new URLSearchParams(init)` for a string `init`: a leading `?`
    /// removed, then the
    /// [urlencoded string parser](https://url.spec.whatwg.org/#concept-urlencoded-string-parser)
    /// (pairs split on `&`, empty ones skipped, the name ending at the first
    /// `=`, `+` read as a space, percent-decoded, invalid UTF-8 as U+FFFD).
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_url::SearchParams;
    ///
    /// let params = SearchParams::new("?a=b+c&&d&%F0%9F%92%A9=%zz");
    /// let pairs: Vec<_> = params.iter().collect();
    /// assert_eq!(pairs, [("a", "b c"), ("d", ""), ("💩", "%zz")]);
    /// ```
    pub fn new(init: &str) -> SearchParams {
        let init = init.strip_prefix('?').unwrap_or(init);
        let mut list = Vec::new();
        form_urlencoded::parse(init, &mut list);
        SearchParams { list }
    }

    /// The list of `url.searchParams`: the query parsed as it is (a leading
    /// `?` is part of the first name here, unlike in [`SearchParams::new`]).
    pub(crate) fn from_query(query: &str) -> SearchParams {
        let mut list = Vec::new();
        form_urlencoded::parse(query, &mut list);
        SearchParams { list }
    }

    /// `size`: the number of name-value pairs.
    ///
    /// # Example
    ///
    /// ```
    /// assert_eq!(normurl_url::SearchParams::new("a=1&a=2&b").len(), 3);
    /// ```
    #[inline]
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether there are no pairs (`size` is 0).
    ///
    /// # Example
    ///
    /// ```
    /// assert!(normurl_url::SearchParams::new("?&&").is_empty());
    /// ```
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// `append(name, value)`: adds the pair at the end.
    ///
    /// # Example
    ///
    /// ```
    /// let mut params = normurl_url::SearchParams::new("a=1");
    /// params.append("a", "2");
    /// assert_eq!(params.to_string(), "a=1&a=2");
    /// ```
    pub fn append(&mut self, name: &str, value: &str) {
        self.list.push((name.to_owned(), value.to_owned()));
    }

    /// `delete(name, value)`: removes every pair named `name` or, when
    /// `value` is given, every pair named `name` with that value.
    ///
    /// # Example
    ///
    /// ```
    /// let mut params = normurl_url::SearchParams::new("a=1&b=2&a=3");
    /// params.delete("a", Some("3"));
    /// assert_eq!(params.to_string(), "a=1&b=2");
    /// params.delete("a", None);
    /// assert_eq!(params.to_string(), "b=2");
    /// ```
    pub fn delete(&mut self, name: &str, value: Option<&str>) {
        self.list
            .retain(|(n, v)| n != name || value.is_some_and(|value| v != value));
    }

    /// `get(name)`: the value of the first pair named `name`.
    ///
    /// # Example
    ///
    /// ```
    /// let params = normurl_url::SearchParams::new("a=1&a=2");
    /// assert_eq!(params.get("a"), Some("1"));
    /// assert_eq!(params.get("b"), None);
    /// ```
    pub fn get(&self, name: &str) -> Option<&str> {
        self.list
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// `getAll(name)`: the values of all pairs named `name`, in order.
    ///
    /// # Example
    ///
    /// ```
    /// let params = normurl_url::SearchParams::new("a=1&b=2&a=3");
    /// assert_eq!(params.get_all("a"), ["1", "3"]);
    /// assert!(params.get_all("c").is_empty());
    /// ```
    pub fn get_all(&self, name: &str) -> Vec<&str> {
        self.list
            .iter()
            .filter(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
            .collect()
    }

    /// `has(name, value)`: whether a pair is named `name` (and, when
    /// `value` is given, has that value).
    ///
    /// # Example
    ///
    /// ```
    /// let params = normurl_url::SearchParams::new("a=1");
    /// assert!(params.has("a", None));
    /// assert!(params.has("a", Some("1")));
    /// assert!(!params.has("a", Some("2")));
    /// ```
    pub fn has(&self, name: &str, value: Option<&str>) -> bool {
        self.list
            .iter()
            .any(|(n, v)| n == name && value.is_none_or(|value| v == value))
    }

    /// `set(name, value)`: the first pair named `name` gets `value` and the
    /// other pairs of that name are removed; without such a pair, the pair
    /// is appended.
    ///
    /// # Example
    ///
    /// ```
    /// let mut params = normurl_url::SearchParams::new("a=1&b=2&a=3");
    /// params.set("a", "4");
    /// assert_eq!(params.to_string(), "a=4&b=2");
    /// params.set("c", "5");
    /// assert_eq!(params.to_string(), "a=4&b=2&c=5");
    /// ```
    pub fn set(&mut self, name: &str, value: &str) {
        match self.list.iter().position(|(n, _)| n == name) {
            Some(first) => {
                value.clone_into(&mut self.list[first].1);
                let mut index = 0;
                self.list.retain(|(n, _)| {
                    let keep = index <= first || n != name;
                    index += 1;
                    keep
                });
            }
            None => self.append(name, value),
        }
    }

    /// `sort()`: a stable sort of the pairs by name, comparing names by
    /// their UTF-16 code units (as JavaScript does, so that U+FFFD sorts
    /// after U+10000, which is two surrogates in UTF-16).
    ///
    /// # Example
    ///
    /// ```
    /// let mut params = normurl_url::SearchParams::new("z=1&a=2&%EF%BF%BD=3&%F0%90%80%80=4&a=1");
    /// params.sort();
    /// assert_eq!(params.to_string(), "a=2&a=1&z=1&%F0%90%80%80=4&%EF%BF%BD=3");
    /// ```
    pub fn sort(&mut self) {
        self.list
            .sort_by(|(a, _), (b, _)| a.encode_utf16().cmp(b.encode_utf16()));
    }

    /// The pairs, in order, as `(name, value)`.
    ///
    /// # Example
    ///
    /// ```
    /// let params = normurl_url::SearchParams::new("a=1&b");
    /// assert_eq!(params.iter().collect::<Vec<_>>(), [("a", "1"), ("b", "")]);
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> + '_ {
        self.list.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }
}

/// The stringifier: the
/// [urlencoded serializer](https://url.spec.whatwg.org/#concept-urlencoded-serializer),
/// `name=value` pairs joined by `&`, a space written as `+` and everything
/// in the
/// [`application/x-www-form-urlencoded` percent-encode set](https://url.spec.whatwg.org/#application-x-www-form-urlencoded-percent-encode-set)
/// percent-encoded.
impl fmt::Display for SearchParams {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        form_urlencoded::serialize(self.iter(), f)
    }
}
