//! The [host parser](https://url.spec.whatwg.org/#host-parsing).
//!
//! Hosts are parsed from input bytes and written, serialized, straight into
//! the URL's buffer. Almost every host on the web is lowercase ASCII; for
//! those the work is one table-driven pass. Percent-encoded and non-ASCII
//! hosts go through percent-decoding and UTS #46 (the `idna` crate).

use super::ip;
use super::percent::{self, AsciiSet};
use super::tables::{FORBIDDEN_DOMAIN, FORBIDDEN_HOST};
use crate::error::ParseError;
use crate::simd::stop::{find, Stop};

/// The kind of a URL's [host](https://url.spec.whatwg.org/#concept-host).
///
/// # Example
///
/// ```
/// use normurl_url::{HostKind, Url};
///
/// assert_eq!(Url::parse("http://127.1/")?.host_kind(), HostKind::Ipv4);
/// assert_eq!(Url::parse("http://[::1]/")?.host_kind(), HostKind::Ipv6);
/// assert_eq!(Url::parse("http://example.com/")?.host_kind(), HostKind::Domain);
/// assert_eq!(Url::parse("sc://x%20y/")?.host_kind(), HostKind::Opaque);
/// assert_eq!(Url::parse("file:///tmp")?.host_kind(), HostKind::Empty);
/// assert_eq!(Url::parse("mailto:a@b")?.host_kind(), HostKind::None);
/// # Ok::<(), normurl_url::ParseError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HostKind {
    /// The host is null: no `//` after the scheme.
    None,
    /// The [empty host](https://url.spec.whatwg.org/#empty-host).
    Empty,
    /// A [domain](https://url.spec.whatwg.org/#concept-domain), in ASCII form.
    Domain,
    /// An [IPv4 address](https://url.spec.whatwg.org/#concept-ipv4).
    Ipv4,
    /// An [IPv6 address](https://url.spec.whatwg.org/#concept-ipv6), serialized in brackets.
    Ipv6,
    /// An [opaque host](https://url.spec.whatwg.org/#opaque-host) (non-special schemes).
    Opaque,
}

const FORBIDDEN: u8 = 1;
const NEEDS_DECODING: u8 = 2;
/// Per byte: `FORBIDDEN` for a forbidden domain code point other than `%`,
/// `NEEDS_DECODING` for `%` and non-ASCII bytes (the slow path decodes and
/// decides), 0 for bytes an ASCII domain keeps (lowercased).
static DOMAIN_CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        t[i] = if b == b'%' || b >= 0x80 {
            NEEDS_DECODING
        } else if super::tables::is_forbidden_domain(b) {
            FORBIDDEN
        } else {
            0
        };
        i += 1;
    }
    t
};

/// [Host parsing](https://url.spec.whatwg.org/#concept-host-parser) of
/// `input` with *isOpaque* = `is_opaque`, appending the
/// [host serialization](https://url.spec.whatwg.org/#concept-host-serializer)
/// to `out`. On failure `out` may hold a partial host; the caller discards
/// the whole URL.
pub fn parse_host(
    input: &[u8],
    is_opaque: bool,
    out: &mut Vec<u8>,
) -> Result<HostKind, ParseError> {
    if let Some(rest) = input.strip_prefix(b"[") {
        let Some(inner) = rest.strip_suffix(b"]") else {
            return Err(ParseError::Ipv6Unclosed);
        };
        let address = ip::parse_ipv6(inner)?;
        out.push(b'[');
        ip::serialize_ipv6(&address, out);
        out.push(b']');
        return Ok(HostKind::Ipv6);
    }
    if is_opaque {
        return parse_opaque_host(input, out);
    }
    if input.is_empty() {
        // The callers only parse empty special hosts for file URLs, where the
        // file host state handles it; treat it as failure to be safe.
        return Err(ParseError::EmptyHost);
    }
    let start = out.len();
    // Already lowercase with the usual domain bytes: copy as it is.
    if find(Stop::Host, input, 0) == input.len() {
        out.extend_from_slice(input);
        return finish_domain(out, start);
    }
    // One pass over the bytes: is any forbidden, or non-ASCII or `%`?
    let class = input
        .iter()
        .fold(0u8, |acc, &b| acc | DOMAIN_CLASS[b as usize]);
    if class & FORBIDDEN != 0 && class & NEEDS_DECODING == 0 {
        return Err(ParseError::ForbiddenHostCodePoint);
    }
    if class == 0 {
        // Fast path: an ASCII domain needs no percent-decoding and, since
        // the 2026 change to the domain parser, no UTS #46 processing:
        // "If domain is an ASCII string, then set result to domain,
        // lowercased" (https://url.spec.whatwg.org/#concept-domain-to-ascii).
        out.extend(input.iter().map(u8::to_ascii_lowercase));
    } else {
        let mut decoded = Vec::with_capacity(input.len());
        percent::percent_decode(input, &mut decoded);
        domain_to_ascii(&decoded, out)?;
    }
    finish_domain(out, start)
}

/// After a domain was written at `out[start..]`: if it
/// [ends in a number](https://url.spec.whatwg.org/#ends-in-a-number-checker),
/// replace it by the serialized IPv4 address.
#[inline]
fn finish_domain(out: &mut Vec<u8>, start: usize) -> Result<HostKind, ParseError> {
    if ip::ends_in_a_number(&out[start..]) {
        let address = ip::parse_ipv4(&out[start..])?;
        out.truncate(start);
        ip::serialize_ipv4(address, out);
        return Ok(HostKind::Ipv4);
    }
    Ok(HostKind::Domain)
}

/// The [domain parser](https://url.spec.whatwg.org/#concept-domain-to-ascii)
/// with *beStrict* false, given the percent-decoded bytes of the host.
fn domain_to_ascii(decoded: &[u8], out: &mut Vec<u8>) -> Result<(), ParseError> {
    // "UTF-8 decode without BOM" would turn invalid bytes into U+FFFD, which
    // the domain parser always rejects; failing here is the same.
    let domain = std::str::from_utf8(decoded).map_err(|_| ParseError::IdnaError)?;
    if domain.is_ascii() {
        // Step 5: an ASCII domain is lowercased, whatever ToASCII says.
        for &b in domain.as_bytes() {
            if FORBIDDEN_DOMAIN[b as usize] {
                return Err(ParseError::ForbiddenHostCodePoint);
            }
            out.push(b.to_ascii_lowercase());
        }
        return Ok(());
    }
    // Step 6: ToASCII with CheckHyphens, UseSTD3ASCIIRules and
    // VerifyDnsLength false, CheckBidi and CheckJoiners true, nontransitional;
    // the URL deny list makes forbidden domain code points an error.
    let ascii = idna::domain_to_ascii_cow(domain.as_bytes(), idna::AsciiDenyList::URL)
        .map_err(|_| ParseError::IdnaError)?;
    // Step 7: "If result is the empty string, then return failure."
    if ascii.is_empty() || !ascii.is_ascii() {
        return Err(ParseError::IdnaError);
    }
    // Step 8: forbidden domain code points (the deny list already catches
    // them; this keeps the guarantee independent of the idna crate).
    if ascii.bytes().any(|b| FORBIDDEN_DOMAIN[b as usize]) {
        return Err(ParseError::ForbiddenHostCodePoint);
    }
    out.extend_from_slice(ascii.as_bytes());
    Ok(())
}

/// The [opaque-host parser](https://url.spec.whatwg.org/#concept-opaque-host-parser).
fn parse_opaque_host(input: &[u8], out: &mut Vec<u8>) -> Result<HostKind, ParseError> {
    if input.iter().any(|&b| FORBIDDEN_HOST[b as usize]) {
        return Err(ParseError::ForbiddenHostCodePoint);
    }
    if input.is_empty() {
        return Ok(HostKind::Empty);
    }
    AsciiSet::C0_CONTROL.encode(input, out);
    Ok(HostKind::Opaque)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn host(input: &str, opaque: bool) -> Result<(String, HostKind), ParseError> {
        let mut out = Vec::new();
        let kind = parse_host(input.as_bytes(), opaque, &mut out)?;
        Ok((String::from_utf8(out).unwrap(), kind))
    }

    #[test]
    fn domains() {
        assert_eq!(
            host("ExAmPle.COM", false).unwrap(),
            ("example.com".into(), HostKind::Domain)
        );
        assert_eq!(
            host("xn--a", false).unwrap(),
            ("xn--a".into(), HostKind::Domain)
        );
        assert_eq!(
            host("%45xample", false).unwrap(),
            ("example".into(), HostKind::Domain)
        );
        assert_eq!(
            host("faß.de", false).unwrap(),
            ("xn--fa-hia.de".into(), HostKind::Domain)
        );
        assert_eq!(
            host("0x7f.1", false).unwrap(),
            ("127.0.0.1".into(), HostKind::Ipv4)
        );
        assert_eq!(
            host("[::1]", false).unwrap(),
            ("[::1]".into(), HostKind::Ipv6)
        );
        assert_eq!(host("a b", false), Err(ParseError::ForbiddenHostCodePoint));
        assert_eq!(
            host("a%25b", false),
            Err(ParseError::ForbiddenHostCodePoint)
        );
        assert_eq!(host("%ff", false), Err(ParseError::IdnaError));
        assert_eq!(host("\u{ad}", false), Err(ParseError::IdnaError));
        assert_eq!(host("[::1", false), Err(ParseError::Ipv6Unclosed));
        assert_eq!(
            host("1.2.3.4.5", false),
            Err(ParseError::InvalidIpv4Address)
        );
    }

    #[test]
    fn opaque_hosts() {
        assert_eq!(
            host("ExAmPle", true).unwrap(),
            ("ExAmPle".into(), HostKind::Opaque)
        );
        assert_eq!(
            host("é", true).unwrap(),
            ("%C3%A9".into(), HostKind::Opaque)
        );
        assert_eq!(host("", true).unwrap(), ("".into(), HostKind::Empty));
        assert_eq!(host("a b", true), Err(ParseError::ForbiddenHostCodePoint));
        assert_eq!(
            host("1.2.3.4.5", true).unwrap(),
            ("1.2.3.4.5".into(), HostKind::Opaque)
        );
    }
}
