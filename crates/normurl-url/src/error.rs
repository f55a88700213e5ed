//! Parse failures.
//!
//! The URL Standard only distinguishes "failure", but a user looking at a
//! rejected line wants to know why. Each variant maps to the spec's
//! [validation error](https://url.spec.whatwg.org/#validation-error) names
//! that cause failure (the ones marked "Failure: Yes" in the table).

use std::fmt;

/// Why a URL failed to parse.
///
/// `ParseError` is `Copy` and its message is a `&'static str`, so reporting a
/// failure never allocates.
///
/// # Example
///
/// ```
/// use normurl_url::{ParseError, Url};
///
/// assert_eq!(Url::parse("http://exa mple.com/"), Err(ParseError::ForbiddenHostCodePoint));
/// assert_eq!(ParseError::ForbiddenHostCodePoint.message(), "host contains a forbidden code point");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum ParseError {
    /// `missing-scheme-non-relative-URL`: no scheme, and no base URL (or a
    /// base with an opaque path) to resolve against.
    RelativeUrlWithoutBase,
    /// `host-missing`: a special URL (or credentials) without a host.
    EmptyHost,
    /// `port-invalid`: the port contains something other than ASCII digits.
    InvalidPort,
    /// `port-out-of-range`: the port is larger than 65535.
    PortOutOfRange,
    /// `host-invalid-code-point` / `domain-invalid-code-point`: the host
    /// contains a forbidden host (or domain) code point.
    ForbiddenHostCodePoint,
    /// `domain-to-ASCII`: UTS #46 processing of a non-ASCII domain failed,
    /// or the domain is empty after it.
    IdnaError,
    /// `IPv4-*`: the host ends in a number but is not a valid IPv4 address.
    InvalidIpv4Address,
    /// `IPv6-*`: the bracketed host is not a valid IPv6 address.
    InvalidIpv6Address,
    /// `IPv6-unclosed`: a host starts with `[` but does not end with `]`.
    Ipv6Unclosed,
    /// The serialized URL would be longer than 4 GiB, which normurl's `u32`
    /// component offsets cannot address.
    TooLong,
}

impl ParseError {
    /// A fixed, human-readable description of the failure.
    pub const fn message(self) -> &'static str {
        match self {
            ParseError::RelativeUrlWithoutBase => "relative URL without a base",
            ParseError::EmptyHost => "empty host",
            ParseError::InvalidPort => "invalid port number",
            ParseError::PortOutOfRange => "port number out of range",
            ParseError::ForbiddenHostCodePoint => "host contains a forbidden code point",
            ParseError::IdnaError => "invalid international domain name",
            ParseError::InvalidIpv4Address => "invalid IPv4 address",
            ParseError::InvalidIpv6Address => "invalid IPv6 address",
            ParseError::Ipv6Unclosed => "unclosed IPv6 address",
            ParseError::TooLong => "URL longer than 4 GiB",
        }
    }

    /// A short kebab-case name, stable across versions, for statistics and
    /// machine-readable reports.
    pub const fn name(self) -> &'static str {
        match self {
            ParseError::RelativeUrlWithoutBase => "relative-without-base",
            ParseError::EmptyHost => "empty-host",
            ParseError::InvalidPort => "invalid-port",
            ParseError::PortOutOfRange => "port-out-of-range",
            ParseError::ForbiddenHostCodePoint => "forbidden-host-code-point",
            ParseError::IdnaError => "idna",
            ParseError::InvalidIpv4Address => "invalid-ipv4",
            ParseError::InvalidIpv6Address => "invalid-ipv6",
            ParseError::Ipv6Unclosed => "ipv6-unclosed",
            ParseError::TooLong => "too-long",
        }
    }

    /// Every variant, in declaration order (for statistics tables).
    pub const ALL: [ParseError; 10] = [
        ParseError::RelativeUrlWithoutBase,
        ParseError::EmptyHost,
        ParseError::InvalidPort,
        ParseError::PortOutOfRange,
        ParseError::ForbiddenHostCodePoint,
        ParseError::IdnaError,
        ParseError::InvalidIpv4Address,
        ParseError::InvalidIpv6Address,
        ParseError::Ipv6Unclosed,
        ParseError::TooLong,
    ];
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for ParseError {}
