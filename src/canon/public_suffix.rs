//! A small, conservative stand-in for the Public Suffix List, for one
//! question: would stripping `www.` leave only a public suffix?
//!
//! normurl has no public-suffix dependency. The rule used instead errs on
//! the side of keeping `www.`: a remainder without a dot (`www.com`,
//! `www.local`) is always treated as a public suffix, and so is every
//! multi-label suffix below. The list is hand-written from well-known
//! registry and hosting suffixes (facts, not a copy of the PSL); a domain it
//! misses, such as `www.ac.xx` for some rare registry, gets `www.` stripped.

/// Multi-label public suffixes, sorted (checked by a test).
const MULTI_LABEL: &[&str] = &[
    "ac.at",
    "ac.be",
    "ac.cn",
    "ac.id",
    "ac.il",
    "ac.in",
    "ac.jp",
    "ac.kr",
    "ac.nz",
    "ac.th",
    "ac.uk",
    "ac.za",
    "appspot.com",
    "azurewebsites.net",
    "blogspot.com",
    "cloudfront.net",
    "co.at",
    "co.id",
    "co.il",
    "co.in",
    "co.jp",
    "co.ke",
    "co.kr",
    "co.nz",
    "co.th",
    "co.tz",
    "co.ug",
    "co.uk",
    "co.za",
    "co.zw",
    "com.ar",
    "com.au",
    "com.bd",
    "com.br",
    "com.cn",
    "com.co",
    "com.eg",
    "com.es",
    "com.gh",
    "com.gr",
    "com.hk",
    "com.mx",
    "com.my",
    "com.ng",
    "com.pe",
    "com.ph",
    "com.pk",
    "com.pl",
    "com.pt",
    "com.ru",
    "com.sa",
    "com.sg",
    "com.tr",
    "com.tw",
    "com.ua",
    "com.uy",
    "com.ve",
    "com.vn",
    "edu.au",
    "edu.cn",
    "edu.hk",
    "edu.mx",
    "edu.pl",
    "edu.sg",
    "edu.tr",
    "edu.tw",
    "github.io",
    "gitlab.io",
    "go.id",
    "go.jp",
    "go.kr",
    "gob.es",
    "gob.mx",
    "gouv.fr",
    "gov.au",
    "gov.br",
    "gov.cn",
    "gov.in",
    "gov.it",
    "gov.pl",
    "gov.sg",
    "gov.tr",
    "gov.uk",
    "gov.za",
    "govt.nz",
    "herokuapp.com",
    "ltd.uk",
    "me.uk",
    "ne.jp",
    "ne.kr",
    "net.au",
    "net.br",
    "net.cn",
    "net.in",
    "net.nz",
    "net.pl",
    "net.tr",
    "net.ua",
    "netlify.app",
    "nhs.uk",
    "or.at",
    "or.id",
    "or.jp",
    "or.kr",
    "org.au",
    "org.br",
    "org.cn",
    "org.hk",
    "org.il",
    "org.in",
    "org.mx",
    "org.nz",
    "org.pl",
    "org.tr",
    "org.uk",
    "org.za",
    "pages.dev",
    "plc.uk",
    "sch.uk",
    "vercel.app",
    "web.app",
];

/// Whether `domain` (lowercase ASCII, no trailing dot) may be a public
/// suffix, under the conservative rule above.
pub(crate) fn may_be_public_suffix(domain: &[u8]) -> bool {
    !domain.contains(&b'.')
        || MULTI_LABEL
            .binary_search_by(|s| s.as_bytes().cmp(domain))
            .is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_is_sorted_lowercase_and_multi_label() {
        assert!(
            MULTI_LABEL.windows(2).all(|w| w[0] < w[1]),
            "unsorted or duplicate"
        );
        for s in MULTI_LABEL {
            assert!(
                s.contains('.') && s.bytes().all(|b| b == b'.' || b.is_ascii_lowercase()),
                "{s}"
            );
        }
    }

    #[test]
    fn examples() {
        assert!(may_be_public_suffix(b"com"));
        assert!(may_be_public_suffix(b"co.uk"));
        assert!(may_be_public_suffix(b"github.io"));
        assert!(!may_be_public_suffix(b"example.com"));
        assert!(!may_be_public_suffix(b"example.co.uk"));
    }
}
