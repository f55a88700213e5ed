//! Host rules: `trim-host-dots`, `strip-www`, `strip-www-digits`, and the
//! Unicode (`--idn unicode`) form of a domain.
//!
//! All of them only ever see domains (never IP addresses or opaque hosts),
//! which the parser has already lowercased and converted to ASCII.

use std::ops::Range;

use idna::uts46::{AsciiDenyList, ErrorPolicy, Hyphens, ProcessingSuccess, Uts46};

use super::public_suffix::{may_be_public_suffix, may_be_public_suffix_at, Suffixes};

/// `trim-host-dots`: removes leading and trailing dots and collapses runs
/// of dots (Safe Browsing's host rules 1 and 2). Writes into `out` and
/// returns true when that changes the domain. A domain of only dots is left
/// alone: an empty host is not a valid special URL.
///
/// `foo.09..` is a domain (the [ends in a number checker](https://url.spec.whatwg.org/#ends-in-a-number-checker)
/// drops only one trailing empty label, so its last label is empty), but
/// `foo.09` would be an invalid IPv4 address: such domains are left alone.
pub(crate) fn trim_dots(domain: &[u8], out: &mut Vec<u8>) -> bool {
    let (Some(&first), Some(&last)) = (domain.first(), domain.last()) else {
        return false;
    };
    if first != b'.' && last != b'.' && !has_pair(domain, b'.') {
        return false;
    }
    let trimmed = trim_dot_ends(domain);
    if trimmed.is_empty() || ends_in_a_number(trimmed) {
        return false;
    }
    let has_run = has_pair(trimmed, b'.');
    if !has_run {
        if trimmed.len() == domain.len() {
            return false;
        }
        out.extend_from_slice(trimmed);
        return true;
    }
    let mut prev_dot = false;
    for &b in trimmed {
        if !(b == b'.' && prev_dot) {
            out.push(b);
        }
        prev_dot = b == b'.';
    }
    true
}

/// Whether `s` has two `byte`s in a row: `//` in a path, `..` in a host.
/// On every URL, so it looks at 8 bytes at a time (a byte-pair loop over
/// windows was the aggressive profile's hottest spot).
pub(crate) fn has_pair(s: &[u8], byte: u8) -> bool {
    const LO7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let splat = u64::from(byte) * 0x0101_0101_0101_0101;
    let mut chunks = s.chunks_exact(8);
    let mut prev_last = false;
    for chunk in &mut chunks {
        let v = u64::from_le_bytes(chunk.try_into().expect("8 bytes")) ^ splat;
        // High bit of each byte set exactly where the byte equals `byte`.
        let eq = !(((v & LO7) + LO7) | v) & !LO7;
        if eq & (eq >> 8) != 0 || (prev_last && eq & 0x80 != 0) {
            return true;
        }
        prev_last = eq >> 63 != 0;
    }
    let mut prev = prev_last;
    for &b in chunks.remainder() {
        let is = b == byte;
        if prev && is {
            return true;
        }
        prev = is;
    }
    false
}

/// The [ends in a number checker](https://url.spec.whatwg.org/#ends-in-a-number-checker)
/// for a domain without trailing dot: is the last label digits, or `0x`
/// and hex digits?
fn ends_in_a_number(domain: &[u8]) -> bool {
    let last = domain.rsplit(|&b| b == b'.').next().unwrap_or(domain);
    if !last.is_empty() && last.iter().all(u8::is_ascii_digit) {
        return true;
    }
    match last {
        [b'0', b'x' | b'X', hex @ ..] => hex.iter().all(u8::is_ascii_hexdigit),
        _ => false,
    }
}

fn trim_dot_ends(s: &[u8]) -> &[u8] {
    let start = s.iter().position(|&b| b != b'.').unwrap_or(s.len());
    let end = s.iter().rposition(|&b| b != b'.').map_or(start, |i| i + 1);
    &s[start..end]
}

/// `strip-www` (`digits` false: exactly `www.`) and `strip-www-digits`
/// (`digits` true: `www` then any ASCII digits then `.`). Strips such labels
/// repeatedly, as webarchive-commons' `massageHost` does (stripping once
/// would not be idempotent: `www.www.example.com`). `strip-www` never
/// strips so far that only a public suffix of `suffixes` (the
/// canonicalizer's list) is left (see `public_suffix.rs`);
/// `strip-www-digits` is the CDX keys' rule, which
/// strips `^www\d*\.` whatever is left (`www.blogspot.com` is
/// `com,blogspot)/` in every CDX index), so it only keeps a label.
#[inline]
pub(crate) fn strip_www<'d>(domain: &'d [u8], digits: bool, suffixes: &Suffixes) -> &'d [u8] {
    // A quarter of crawled hosts are `www.` and a domain that starts with
    // neither `www` nor a dot and does not end with a dot: one label to
    // look at, no loop.
    match strip_plain_www(domain, 0..domain.len(), digits, suffixes) {
        Some(cut) => &domain[cut..],
        None => strip_www_labels(domain, digits, suffixes),
    }
}

/// `strip-www` with `strip-one-www`: normalize-url's test,
/// `^www\.(?!www\.)[a-z\-\d]{1,63}\.[a-z.\-\d]{2,63}$`: one `www.` goes
/// when no other `www.` follows and what is left is a label, a dot and 2
/// to 63 more bytes of `a-z 0-9 - .` (`www.www.example.com` and `www.com`
/// stay). Stable: what is left never starts with `www.`.
pub(crate) fn strip_one_www(domain: &[u8]) -> &[u8] {
    let Some(rest) = domain.strip_prefix(b"www.") else {
        return domain;
    };
    let allowed = |b: &u8| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'-';
    let label = rest.iter().take_while(|b| allowed(b)).count();
    let tail = rest.get(label + 1..).unwrap_or(b"");
    let fits = !rest.starts_with(b"www.")
        && (1..=63).contains(&label)
        && rest.get(label) == Some(&b'.')
        && (2..=63).contains(&tail.len())
        && tail.iter().all(|b| allowed(b) || *b == b'.');
    if fits {
        rest
    } else {
        domain
    }
}

/// [`strip_www`] for the common domain, `href[host]`: `www.` and a
/// remainder that does not start with `www` or a dot and does not end
/// with a dot, so there is one label to look at (the same for
/// `strip-www-digits`). The bytes to cut from the host's start (4, or 0
/// when the remainder may be a public suffix and `digits` is off); `None`
/// for other domains.
/// Faster when bytes follow the host, as in an href (see
/// [`may_be_public_suffix_at`]).
///
/// Always inlined: since the list's lookups went out of line, the call
/// costs more than the rest (docs/performance-history.md).
#[inline(always)]
pub(crate) fn strip_plain_www(
    href: &[u8],
    host: Range<usize>,
    digits: bool,
    suffixes: &Suffixes,
) -> Option<usize> {
    let rest = href[host.clone()].strip_prefix(b"www.")?;
    let plain = !rest.starts_with(b"www")
        && rest.first().is_some_and(|&b| b != b'.')
        && rest.last() != Some(&b'.');
    if !plain {
        return None;
    }
    Some(
        if !digits && may_be_public_suffix_at(suffixes, href, host.start + 4, host.end) {
            0
        } else {
            4
        },
    )
}

/// [`strip_www`] label by label: the reference, and the way for the hosts
/// its shortcut does not take.
#[inline(never)]
fn strip_www_labels<'d>(domain: &'d [u8], digits: bool, suffixes: &Suffixes) -> &'d [u8] {
    let mut host = domain;
    loop {
        let Some(rest) = host.strip_prefix(b"www") else {
            return host;
        };
        let rest = if digits {
            let n = rest.iter().take_while(|b| b.is_ascii_digit()).count();
            &rest[n..]
        } else {
            rest
        };
        let Some(rest) = rest.strip_prefix(b".") else {
            return host;
        };
        let rest_trimmed = trim_dot_ends(rest);
        let keep = if digits {
            rest_trimmed.is_empty()
        } else {
            may_be_public_suffix(suffixes, rest_trimmed)
        };
        if keep {
            return host;
        }
        host = rest;
    }
}

/// Writes the Unicode form of an ASCII domain into `out` (cleared first)
/// and returns true, when the domain has a punycode label that decodes
/// cleanly and converts back to the same ASCII (so parsing the output gives
/// the same URL). `check` is scratch space.
pub(crate) fn to_unicode(domain: &[u8], out: &mut String, check: &mut String) -> bool {
    if !has_punycode_label(domain) {
        return false;
    }
    let uts46 = Uts46::new();
    out.clear();
    let unicode = uts46.process(
        domain,
        AsciiDenyList::URL,
        Hyphens::Allow,
        ErrorPolicy::FailFast,
        |_, _, _| true,
        out,
        None,
    );
    if !matches!(unicode, Ok(ProcessingSuccess::WroteToSink)) {
        return false;
    }
    check.clear();
    let ascii = uts46.process(
        out.as_bytes(),
        AsciiDenyList::URL,
        Hyphens::Allow,
        ErrorPolicy::FailFast,
        |_, _, _| false,
        check,
        None,
    );
    match ascii {
        Ok(ProcessingSuccess::WroteToSink) => check.as_bytes() == domain,
        Ok(ProcessingSuccess::Passthrough) => out.as_bytes() == domain,
        Err(_) => false,
    }
}

fn has_punycode_label(domain: &[u8]) -> bool {
    domain
        .split(|&b| b == b'.')
        .any(|label| label.starts_with(b"xn--"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trim(s: &str) -> String {
        let mut out = Vec::new();
        if trim_dots(s.as_bytes(), &mut out) {
            String::from_utf8(out).unwrap()
        } else {
            s.to_owned()
        }
    }

    #[test]
    fn trims_dots() {
        assert_eq!(trim("www.google.com..."), "www.google.com");
        assert_eq!(trim("...foo...bar.org..."), "foo.bar.org");
        assert_eq!(trim("example.com"), "example.com");
        assert_eq!(trim("...."), "....");
        assert_eq!(trim("foo.09.."), "foo.09..");
        assert_eq!(trim("foo.0x1f.."), "foo.0x1f..");
        assert_eq!(trim("..foo.0x1g.."), "foo.0x1g");
    }

    #[test]
    fn pairs_match_naive() {
        let naive = |s: &[u8], b: u8| s.windows(2).any(|w| w[0] == b && w[1] == b);
        let inputs: [&[u8]; 8] = [
            b"",
            b"/",
            b"//",
            b"/a/b/c/d/e//",
            b"/abcdefg/h",
            b"/abcdefg//h",
            b"0123456/7",
            b"\xaf/\xaf/\x2f\x2f",
        ];
        for input in inputs {
            for b in [b'/', b'.', 0xaf] {
                assert_eq!(has_pair(input, b), naive(input, b), "{input:?} {b}");
            }
        }
        for n in 0..40 {
            let mut s = vec![b'a'; n];
            for i in 0..n.saturating_sub(1) {
                s[i] = b'/';
                s[i + 1] = b'/';
                assert!(has_pair(&s, b'/'), "{n} {i}");
                s[i] = b'a';
                s[i + 1] = b'a';
                assert!(!has_pair(&s, b'/'));
            }
        }
    }

    #[test]
    fn strips_one_www_as_normalize_url() {
        for (host, want) in [
            ("www.example.com", "example.com"),
            ("www.www.example.com", "www.www.example.com"),
            ("www.com", "www.com"),
            ("www.wwwx.com", "wwwx.com"),
            ("www.a.b.c.d", "a.b.c.d"),
            ("www.my_site.com", "www.my_site.com"),
            ("www.x.c", "www.x.c"),
            ("example.com", "example.com"),
        ] {
            let once = strip_one_www(host.as_bytes());
            assert_eq!(once, want.as_bytes(), "{host}");
            assert_eq!(strip_one_www(once), once, "{host}");
        }
    }

    #[test]
    fn strips_www() {
        let bundled = Suffixes::default();
        let s =
            |h: &str, d| String::from_utf8(strip_www(h.as_bytes(), d, &bundled).to_vec()).unwrap();
        assert_eq!(s("www.example.com", false), "example.com");
        assert_eq!(s("www.www.example.com", false), "example.com");
        assert_eq!(s("www2.example.com", false), "www2.example.com");
        assert_eq!(s("www2.example.com", true), "example.com");
        assert_eq!(s("www2.www2foo.com", true), "www2foo.com");
        assert_eq!(s("www2foo.com", true), "www2foo.com");
        assert_eq!(s("www.com", false), "www.com");
        assert_eq!(s("www.co.uk", false), "www.co.uk");
        assert_eq!(s("www.co.uk.", false), "www.co.uk.");
        assert_eq!(s("www.www.co.uk", false), "www.co.uk");
        // internetarchive/surt#28: a host that is all "www" digits. The
        // CDX indexes have it as `com)/` (surt 0.3.1), and so does this.
        assert_eq!(s("www1355544.com", true), "com");
        // The CDX keys' `^www\d*\.` has no public-suffix guard (issue 29).
        assert_eq!(s("www.blogspot.com", true), "blogspot.com");
        assert_eq!(s("www10.org", true), "org");
        assert_eq!(s("www.ne.jp", true), "ne.jp");
        assert_eq!(s("www.com", true), "com");
        assert_eq!(s("www.", true), "www.");
        assert_eq!(s("www..", true), "www..");
    }

    proptest::proptest! {
        #[test]
        fn strip_www_matches_label_by_label(
            labels in proptest::collection::vec(
                proptest::sample::select(vec!["www", "www2", "www1x", "", "co", "uk", "com", "example", "github", "io", "ac"]),
                0..5,
            ),
            trailing_dot: bool,
            digits: bool,
        ) {
            let mut domain = labels.join(".");
            if trailing_dot {
                domain.push('.');
            }
            let domain = domain.as_bytes();
            let bundled = Suffixes::default();
            proptest::prop_assert_eq!(
                strip_www(domain, digits, &bundled),
                strip_www_labels(domain, digits, &bundled)
            );
        }
    }

    #[test]
    fn unicode_round_trips_or_stays_ascii() {
        let (mut out, mut check) = (String::new(), String::new());
        assert!(to_unicode(b"www.xn--bcher-kva.de", &mut out, &mut check));
        assert_eq!(out, "www.bücher.de");
        assert!(!to_unicode(b"example.com", &mut out, &mut check));
        assert!(
            !to_unicode(b"xn--a.com", &mut out, &mut check),
            "invalid punycode"
        );
    }
}
