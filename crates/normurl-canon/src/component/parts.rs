//! The scheme and host of a URL, either from a parsed [`Url`] or read off
//! a canonical URL's serialization without parsing it again.
//!
//! `--get host` and `--get registered_domain` need only these: reading
//! them from the bytes the canonicalizer wrote (which
//! [`Canonicalizer::parse_apply`](crate::canonicalizer::Canonicalizer::parse_apply)
//! writes without storing the URL) saves storing the URL and parsing its
//! canonical form back, most of what such a line cost
//! (docs/performance-history.md).

use normurl_url::{HostKind, Url};

/// The scheme, host and port of a URL, as its getters give them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HostParts<'a> {
    /// The scheme and `:`.
    pub protocol: &'a str,
    /// The host and, if there is one, `:` and the port.
    pub host: &'a str,
    /// The host.
    pub hostname: &'a str,
    /// The port, empty when null.
    pub port: &'a str,
    /// The kind of host.
    pub kind: HostKind,
}

impl<'a> HostParts<'a> {
    /// The parts of a parsed URL.
    #[inline]
    pub fn of_url(url: &'a Url) -> HostParts<'a> {
        HostParts {
            protocol: url.protocol(),
            host: url.host(),
            hostname: url.hostname(),
            port: url.port(),
            kind: url.host_kind(),
        }
    }

    /// The scheme without `:`.
    #[inline]
    pub fn scheme(&self) -> &'a str {
        &self.protocol[..self.protocol.len() - 1]
    }

    /// The parts of `input` when it is an already-canonical special URL,
    /// which the parser's fast path accepts (its serialization is then the
    /// input, or the input and `/`): read off the fast path's layout, with
    /// neither the copy nor the scan of
    /// [`of_serialization`](HostParts::of_serialization). `None` when the
    /// fast path declines (userinfo, IPv4 and IPv6 hosts, bytes to encode,
    /// dot segments, uppercase, ...).
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_canon::component::HostParts;
    ///
    /// let parts = HostParts::of_canonical_input("https://www.example.com:8443/a?b").unwrap();
    /// assert_eq!((parts.protocol, parts.host, parts.port), ("https:", "www.example.com:8443", "8443"));
    /// // Not canonical: the parser (and the canonicalizer) decide.
    /// assert_eq!(HostParts::of_canonical_input("HTTPS://www.example.com/"), None);
    /// ```
    #[inline]
    pub fn of_canonical_input(input: &'a str) -> Option<HostParts<'a>> {
        Self::of_canonical_input_then(input, |_| ())
    }

    /// [`HostParts::of_canonical_input`], which calls `on_host` with where
    /// the hostname (a domain) is in `input` as soon as it is known,
    /// before the rest of the input is checked, so that the caller can
    /// prefetch what it will look up; the input may still be declined
    /// after.
    #[inline(always)]
    #[doc(hidden)]
    pub fn of_canonical_input_then(
        input: &'a str,
        on_host: impl FnOnce(std::ops::Range<usize>),
    ) -> Option<HostParts<'a>> {
        let layout = normurl_url::staged::check_then(input.as_bytes(), on_host)?;
        let colon = layout.scheme_end as usize;
        let host_start = colon + 3;
        let (host_end, port_end) = (layout.host_end as usize, layout.path_start as usize);
        Some(HostParts {
            protocol: &input[..=colon],
            host: &input[host_start..port_end],
            hostname: &input[host_start..host_end],
            port: match layout.port {
                Some(_) => &input[host_end + 1..port_end],
                None => "",
            },
            kind: layout.host_kind,
        })
    }

    /// The host name of `input` when the parser's fast path accepts it
    /// (as [`HostParts::of_canonical_input_then`]), if it is a domain
    /// (else `Some(None)`: a `file:` URL's empty host): the one part the
    /// components of the Public Suffix List read, without slicing the
    /// others (each a check of a char boundary).
    #[inline(always)]
    #[doc(hidden)]
    pub fn domain_of_canonical_input_then(
        input: &'a str,
        on_host: impl FnOnce(std::ops::Range<usize>),
    ) -> Option<Option<&'a str>> {
        let layout = normurl_url::staged::check_then(input.as_bytes(), on_host)?;
        let host_start = layout.scheme_end as usize + 3;
        Some(match layout.host_kind {
            HostKind::Domain => input.get(host_start..layout.host_end as usize),
            _ => None,
        })
    }

    /// The parts of `href`, a URL's serialization, when they are
    /// certainly those that parsing it would give: the URL has a special
    /// scheme (so a host, and an authority after `//`),
    /// a domain that does not end in a number (which would be an IPv4
    /// address) or an IPv4 or IPv6 address as the parser writes them, and
    /// no default port. `None` for anything else, which the caller then
    /// parses: the answer is never a guess.
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_canon::component::HostParts;
    /// use normurl_url::HostKind;
    ///
    /// let parts = HostParts::of_serialization(b"https://u@www.example.com:8443/a").unwrap();
    /// assert_eq!((parts.host, parts.hostname, parts.port), ("www.example.com:8443", "www.example.com", "8443"));
    /// assert_eq!(parts.kind, HostKind::Domain);
    /// // Not a special scheme: the parser decides.
    /// assert_eq!(HostParts::of_serialization(b"foo://example.com/"), None);
    /// ```
    pub fn of_serialization(href: &'a [u8]) -> Option<HostParts<'a>> {
        let (protocol, default_port) = special_scheme(href)?;
        let authority = protocol.len() + 2;
        let (host_start, colon, last_dot, end) = scan_authority(href, authority)?;
        let (name_end, port) = match colon {
            Some(c) => (c, &href[c + 1..end]),
            None => (end, &href[end..end]),
        };
        let hostname = &href[host_start..name_end];
        let Some(default_port) = default_port else {
            // `file`: a host, often empty, and neither userinfo nor port.
            return file_host(protocol, href, authority, host_start, colon, last_dot, end);
        };
        if hostname.is_empty()
            || (colon.is_some() && (port.is_empty() || port.len() > 5))
            || !port.iter().all(u8::is_ascii_digit)
            || port == default_port.as_bytes()
        {
            // No host, or a port the parser would refuse or drop (a rule
            // changed the scheme and kept the port).
            return None;
        }
        let kind = host_kind(hostname, last_dot.map(|d| d - host_start))?;
        let ascii = |bytes: &'a [u8]| {
            debug_assert!(bytes.is_ascii());
            // SAFETY: `scan_authority` let only ASCII bytes into the host
            // and port (and the port is digits).
            unsafe { std::str::from_utf8_unchecked(bytes) }
        };
        Some(HostParts {
            protocol,
            host: ascii(&href[host_start..end]),
            hostname: ascii(hostname),
            port: ascii(port),
            kind,
        })
    }
}

/// The parts of a `file` URL's serialization: its host is empty
/// (`file:///...`, common in lists of files) or a domain or IPv4 address,
/// without userinfo or port.
#[inline]
fn file_host<'a>(
    protocol: &'static str,
    href: &'a [u8],
    authority: usize,
    host_start: usize,
    colon: Option<usize>,
    last_dot: Option<usize>,
    end: usize,
) -> Option<HostParts<'a>> {
    let hostname = &href[host_start..end];
    // The parser makes `localhost` empty.
    if host_start != authority || colon.is_some() || hostname == b"localhost" {
        return None;
    }
    let kind = if hostname.is_empty() {
        HostKind::Empty
    } else {
        host_kind(hostname, last_dot.map(|d| d - host_start))?
    };
    debug_assert!(hostname.is_ascii());
    // SAFETY: `scan_authority` let only ASCII bytes into the host.
    let hostname = unsafe { std::str::from_utf8_unchecked(hostname) };
    Some(HostParts {
        protocol,
        host: hostname,
        hostname,
        port: "",
        kind,
    })
}

/// The protocol (scheme and `:`) and default port of `href` when it
/// starts with a special scheme and `://`: such a URL has a host after
/// `//` (`file` has no port: `None`).
#[inline]
fn special_scheme(href: &[u8]) -> Option<(&'static str, Option<&'static str>)> {
    const SCHEMES: [(&str, Option<&str>); 6] = [
        ("https:", Some("443")),
        ("http:", Some("80")),
        ("file:", None),
        ("wss:", Some("443")),
        ("ws:", Some("80")),
        ("ftp:", Some("21")),
    ];
    let (protocol, port) = SCHEMES
        .into_iter()
        .find(|(p, _)| href.starts_with(p.as_bytes()))?;
    href[protocol.len()..]
        .starts_with(b"//")
        .then_some((protocol, port))
}

/// What a byte of an authority is to [`scan_authority`].
const OTHER: u8 = 0;
const NAME: u8 = 1;
const DOT: u8 = 2;
const COLON: u8 = 3;
const AT: u8 = 4;
const END: u8 = 5;

/// The classes of bytes: [`NAME`] for the bytes of a serialized domain,
/// ASCII but the forbidden domain code points (url.bs, "forbidden domain
/// code point": C0 controls, space, `#`, `/`, `:`, `<`, `>`, `?`, `@`,
/// `[`, `\`, `]`, `^`, `|`, `%`, DEL) and the uppercase letters the host
/// parser lowercases; [`OTHER`] for the rest, `[` of IPv6 addresses too
/// (rare: left to the parser).
const CLASS: [u8; 256] = {
    let mut table = [OTHER; 256];
    let mut b = 0x21;
    while b < 0x7f {
        let c = b as u8;
        table[b] = match c {
            b'.' => DOT,
            b':' => COLON,
            b'@' => AT,
            b'/' | b'?' | b'#' => END,
            b'<' | b'>' | b'[' | b'\\' | b']' | b'^' | b'|' | b'%' => OTHER,
            _ if c.is_ascii_uppercase() => OTHER,
            _ => NAME,
        };
        b += 1;
    }
    table
};

/// What [`scan_authority`] finds: where the host starts, its first `:`,
/// its last `.`, and where the authority ends.
type Authority = (usize, Option<usize>, Option<usize>, usize);

/// One pass over the authority of `href`, from `start` to the first `/`,
/// `?` or `#`: where the host starts (after the userinfo's `@`, which the
/// userinfo writes percent-encoded), its first `:` and last `.`, and where
/// the authority ends. `None` when a byte of the host and port is not one
/// of a serialized domain and port.
#[inline]
fn scan_authority(href: &[u8], start: usize) -> Option<Authority> {
    if normurl_url::simd::VECTORS {
        if let Some(found) = scan_authority_windows(href, start) {
            return found;
        }
    }
    scan_authority_bytes(href, start)
}

/// [`scan_authority`] from the classes of the first 32 bytes, 16 at a
/// time, when the authority ends within them and they are in `href` (an
/// authority ending within the first 16 bytes needs only those): a byte
/// loop costs every line of `--get host` many more instructions
/// (docs/performance-history.md). `None` when it cannot say.
#[inline]
fn scan_authority_windows(href: &[u8], start: usize) -> Option<Option<Authority>> {
    use normurl_url::simd::authority::masks;
    if href.len() < start + 16 {
        return None;
    }
    let mut m = masks(href, start);
    if m.end == 0 {
        if href.len() < start + 32 {
            return None;
        }
        let next = masks(href, start + 16);
        if next.end == 0 {
            return None;
        }
        m.end = next.end << 16;
        m.at |= next.at << 16;
        m.colon |= next.colon << 16;
        m.dot |= next.dot << 16;
        m.other |= next.other << 16;
    }
    let end = m.end.trailing_zeros();
    let before_end = (1u32 << end) - 1;
    // The host starts after the authority's last `@` (the userinfo writes
    // any other percent-encoded).
    let at = m.at & before_end;
    let host = if at == 0 { 0 } else { 32 - at.leading_zeros() };
    let in_host = before_end & !((1u32 << host) - 1);
    if m.other & in_host != 0 {
        return Some(None);
    }
    let lane = |bit: u32| start + bit as usize;
    let colon = m.colon & in_host;
    let dot = m.dot & in_host;
    Some(Some((
        lane(host),
        (colon != 0).then(|| lane(colon.trailing_zeros())),
        (dot != 0).then(|| lane(31 - dot.leading_zeros())),
        lane(end),
    )))
}

/// [`scan_authority`] a byte at a time: the reference, and the way for
/// authorities longer than the windows.
#[inline]
fn scan_authority_bytes(href: &[u8], start: usize) -> Option<Authority> {
    let (mut host_start, mut colon, mut last_dot) = (start, None, None);
    let mut clean = true;
    let mut end = href.len();
    for (i, &b) in href.iter().enumerate().skip(start) {
        match CLASS[usize::from(b)] {
            NAME => {}
            DOT => last_dot = Some(i),
            COLON => colon = colon.or(Some(i)),
            AT => {
                // What came before was the userinfo.
                (host_start, colon, last_dot, clean) = (i + 1, None, None, true);
            }
            END => {
                end = i;
                break;
            }
            _ => clean = false,
        }
    }
    clean.then_some((host_start, colon, last_dot, end))
}

/// [`HostKind::Domain`] or [`HostKind::Ipv4`] for a host of [`NAME`] and
/// [`DOT`] bytes whose last dot is at `last_dot`, when the parser would
/// give it back as it is; `None` when that is not certain: a last label
/// starting with a digit that is no serialized IPv4 address (`1.2.3`,
/// which the parser reads as `1.2.0.3`, or `example.0x10`).
#[inline]
fn host_kind(host: &[u8], last_dot: Option<usize>) -> Option<HostKind> {
    let last_label_start = match last_dot {
        // A trailing dot: the label before it is the last (rare).
        Some(d) if d + 1 == host.len() => host[..d]
            .iter()
            .rposition(|&b| b == b'.')
            .map_or(0, |d| d + 1),
        Some(d) => d + 1,
        None => 0,
    };
    match host.get(last_label_start) {
        Some(b) if b.is_ascii_digit() => is_ipv4(host).then_some(HostKind::Ipv4),
        _ => Some(HostKind::Domain),
    }
}

/// Whether `host` is an IPv4 address as the parser writes it: four
/// decimal numbers under 256 without leading zeros.
fn is_ipv4(host: &[u8]) -> bool {
    let mut parts = 0;
    for part in host.split(|&b| b == b'.') {
        parts += 1;
        let ok = !part.is_empty()
            && part.len() <= 3
            && part.iter().all(u8::is_ascii_digit)
            && (part.len() == 1 || part[0] != b'0')
            && part.iter().fold(0u32, |n, &d| n * 10 + u32::from(d - b'0')) <= 255;
        if !ok {
            return false;
        }
    }
    parts == 4
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the fast reading gives, when it gives anything, is what parsing
    /// gives.
    fn check(href: &str) -> bool {
        let Some(fast) = HostParts::of_serialization(href.as_bytes()) else {
            return false;
        };
        let url = Url::parse(href).unwrap();
        assert_eq!(fast, HostParts::of_url(&url), "{href}");
        true
    }

    #[test]
    fn reads_what_the_parser_would() {
        for href in [
            "http://example.com/",
            "https://www.example.co.uk:8443/a?b#c",
            "http://u:p@example.com/",
            "http://u:p%40x@example.com:81",
            "ws://1.2.3.4/",
            "http://example.com./",
            "http://a.b-c_d.example?x",
            "http://xn--bcher-kva.de#f",
            "http://255.255.255.255/",
            "file:///etc/passwd",
            "file://host.example/x",
            "file://1.2.3.4/",
        ] {
            assert!(check(href), "{href} not read");
        }
    }

    /// The domain read off an accepted input is the parts' host name; a
    /// `file:` URL's empty host is no domain; a declined input is `None`.
    #[test]
    fn domain_of_canonical_input_is_the_parts_hostname() {
        for input in [
            "https://www.example.co.uk/a?b#c",
            "http://a.b-c_d.example:8080",
            "ws://x.example./",
            "file:///etc/passwd",
            "file://host.example/x",
            "HTTPS://www.example.com/",
            "http://1.2.3.4/",
            "https://u@example.com/",
            "not a url",
        ] {
            let expected = HostParts::of_canonical_input(input)
                .map(|p| (p.kind == HostKind::Domain).then_some(p.hostname));
            let domain = HostParts::domain_of_canonical_input_then(input, |_| ());
            assert_eq!(domain, expected, "{input}");
        }
        let domain = HostParts::domain_of_canonical_input_then("file:///x", |_| ());
        assert_eq!(domain, Some(None));
        let domain = HostParts::domain_of_canonical_input_then("https://a.example/", |_| ());
        assert_eq!(domain, Some(Some("a.example")));
    }

    /// The windows' answer, when they give one, is the byte loop's, on
    /// authorities made of the bytes that matter and a few others.
    #[test]
    fn windows_read_as_the_byte_loop() {
        const BYTES: &[u8] = b"ab.:@/?#-_9Z%[]\x80 ";
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let mut decided = 0;
        for _ in 0..200_000 {
            let len = next(48);
            let href: Vec<u8> = (0..len).map(|_| BYTES[next(BYTES.len())]).collect();
            let start = next(len + 1);
            if let Some(found) = scan_authority_windows(&href, start) {
                decided += 1;
                assert_eq!(
                    found,
                    scan_authority_bytes(&href, start),
                    "{:?} from {start}",
                    String::from_utf8_lossy(&href)
                );
            }
        }
        assert!(decided > 50_000, "{decided}");
    }

    /// What the fast path's layout gives, when it gives anything, is what
    /// parsing gives.
    #[test]
    fn canonical_inputs_read_as_the_parser_would() {
        let mut read = 0;
        for href in [
            "http://example.com/",
            "http://example.com",
            "https://www.example.co.uk:8443/a?b#c",
            "ws://h:1/",
            "wss://h.example:65535",
            "ftp://ftp.example.org/pub",
            "file:///etc/passwd",
            "file://host.example/x",
            "http://xn--bcher-kva.de/#f",
            "http://example.com./",
            // Declined: the parser decides.
            "http://a.b-c_d.example?x",
            "http://u:p@example.com/",
            "http://1.2.3.4/",
            "http://[::1]/",
            "http://Example.com/",
            "http://example.com:80/",
            "http://example.com:/",
            "http://example.com/a/../b",
            "http://exa mple.com/",
            " http://example.com/",
            "foo://example.com/",
        ] {
            let Some(fast) = HostParts::of_canonical_input(href) else {
                continue;
            };
            read += 1;
            let url = Url::parse(href).unwrap();
            assert_eq!(fast, HostParts::of_url(&url), "{href}");
        }
        assert_eq!(read, 10);
    }

    #[test]
    fn leaves_the_uncertain_to_the_parser() {
        for href in [
            "foo://example.com/",
            "mailto:a@b.example",
            "http:/example.com/",
            // Parsing drops a default port, and reads numbers as IPv4.
            "http://example.com:80/",
            "https://example.com:443/",
            "http://1.2.3/",
            "http://example.0x10/",
            "http://01.2.3.4/",
            "http://256.1.1.1/",
            "http://1.2.3.4.5/",
            // Not as the parser writes hosts.
            "http://Example.com/",
            "http://ex%41mple.com/",
            "http://exämple.com/",
            "http://example.com:/",
            "http://example.com:x/",
            "http://example.com:123456/",
            // IPv6 addresses are rare: the parser takes them.
            "wss://[::1]:444/x",
            "http:///",
            "file://u@host/",
            "file://host:1/",
            "file://localhost/x",
        ] {
            assert_eq!(HostParts::of_serialization(href.as_bytes()), None, "{href}");
        }
    }
}
