//! Schemes and their default ports.
//!
//! <https://url.spec.whatwg.org/#special-scheme>

/// The kind of a URL's scheme: one of the six special schemes, or any other.
///
/// # Example
///
/// ```
/// use normurl_url::{SchemeType, Url};
///
/// let url = Url::parse("wss://example.com/").unwrap();
/// assert_eq!(url.scheme_type(), SchemeType::Wss);
/// assert_eq!(SchemeType::Wss.default_port(), Some(443));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SchemeType {
    /// `http`
    Http,
    /// `https`
    Https,
    /// `ws`
    Ws,
    /// `wss`
    Wss,
    /// `ftp`
    Ftp,
    /// `file`
    File,
    /// Any scheme that is not [special](https://url.spec.whatwg.org/#special-scheme).
    NotSpecial,
}

impl SchemeType {
    /// Classifies an already lowercased scheme (without the `:`).
    #[inline]
    pub fn from_lowercase(scheme: &[u8]) -> SchemeType {
        match scheme {
            b"http" => SchemeType::Http,
            b"https" => SchemeType::Https,
            b"ws" => SchemeType::Ws,
            b"wss" => SchemeType::Wss,
            b"ftp" => SchemeType::Ftp,
            b"file" => SchemeType::File,
            _ => SchemeType::NotSpecial,
        }
    }

    /// Whether the scheme is [special](https://url.spec.whatwg.org/#is-special).
    #[inline]
    pub fn is_special(self) -> bool {
        self != SchemeType::NotSpecial
    }

    /// The scheme's [default port](https://url.spec.whatwg.org/#default-port).
    #[inline]
    pub fn default_port(self) -> Option<u16> {
        match self {
            SchemeType::Http | SchemeType::Ws => Some(80),
            SchemeType::Https | SchemeType::Wss => Some(443),
            SchemeType::Ftp => Some(21),
            SchemeType::File | SchemeType::NotSpecial => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classify() {
        assert_eq!(SchemeType::from_lowercase(b"http"), SchemeType::Http);
        assert_eq!(SchemeType::from_lowercase(b"https"), SchemeType::Https);
        assert_eq!(SchemeType::from_lowercase(b"file"), SchemeType::File);
        assert_eq!(SchemeType::from_lowercase(b"httpx"), SchemeType::NotSpecial);
        assert_eq!(SchemeType::from_lowercase(b"HTTP"), SchemeType::NotSpecial);
        assert!(!SchemeType::NotSpecial.is_special());
        assert_eq!(SchemeType::File.default_port(), None);
        assert_eq!(SchemeType::Ftp.default_port(), Some(21));
    }
}
