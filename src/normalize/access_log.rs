//! Web server access logs (NCSA common and combined, Apache's
//! `vhost_combined`): where the request's URL and the referrer are in a
//! line, and the base a line's own host column gives.
//!
//! The layouts are Apache's `LogFormat` nicknames:
//!
//! * `common`: `%h %l %u %t "%r" %>s %b`;
//! * `combined`: `common` then `"%{Referer}i" "%{User-agent}i"`;
//! * `vhost_combined`: `%v:%p` then `combined`'s fields.
//!
//! `%r`, the request line, is `METHOD TARGET VERSION` (RFC 9112 section
//! 3); its target is a path (origin-form), a path on the site's host, or
//! an absolute URL (absolute-form, sent to proxies), taken as it is. An
//! origin-form target is never a reference to another host: `//evil.example/x`
//! is the path `//evil.example/x` of the site ([`as_path`]).

use std::fmt;
use std::ops::Range;
use std::str::FromStr;

use memchr::memchr;

use super::quoting::{Located, Quoting};
use super::Invalid;

/// The layout of an access log's lines.
///
/// # Example
///
/// ```
/// use normurl::normalize::LogFormat;
///
/// assert_eq!("vhost-combined".parse(), Ok(LogFormat::VhostCombined));
/// assert_eq!(LogFormat::Common.name(), "common");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogFormat {
    /// NCSA common: `%h %l %u %t "%r" %>s %b`.
    Common,
    /// NCSA combined: common, then `"%{Referer}i" "%{User-agent}i"`.
    Combined,
    /// Apache's `vhost_combined`: `%v:%p` (the site's name and port),
    /// then combined.
    VhostCombined,
}

impl LogFormat {
    /// Every format.
    pub const ALL: [LogFormat; 3] = [
        LogFormat::Common,
        LogFormat::Combined,
        LogFormat::VhostCombined,
    ];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            LogFormat::Common => "common",
            LogFormat::Combined => "combined",
            LogFormat::VhostCombined => "vhost-combined",
        }
    }

    /// Whether its lines have a referrer.
    pub fn has_referrer(self) -> bool {
        self != LogFormat::Common
    }

    /// Whether each line starts with its site, the base of its URLs.
    pub fn has_host(self) -> bool {
        self == LogFormat::VhostCombined
    }

    /// The index of the request among the line's fields.
    fn request_index(self) -> usize {
        if self.has_host() {
            5
        } else {
            4
        }
    }
}

impl fmt::Display for LogFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for LogFormat {
    type Err = String;

    fn from_str(s: &str) -> Result<LogFormat, String> {
        LogFormat::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| {
                format!("unknown log format {s:?} (expected common, combined or vhost-combined)")
            })
    }
}

/// Which URL of an access log line to normalize.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LogPart {
    /// The request's target (the middle of `"GET /path HTTP/1.1"`).
    #[default]
    Request,
    /// The `Referer` header's value.
    Referrer,
}

/// An access log: its format and the URL to normalize.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AccessLog {
    /// The lines' layout.
    pub format: LogFormat,
    /// The URL to normalize.
    pub part: LogPart,
}

impl AccessLog {
    /// Where the URL of `line` is: the request target, or the referrer
    /// (`"-"` is [`Invalid::NoValue`]). A line without the field is
    /// [`Invalid::MissingField`]; a request that is not `METHOD TARGET
    /// VERSION`, or asks for no URL (`OPTIONS *`, `CONNECT host:port`), is
    /// [`Invalid::RequestLine`].
    pub(super) fn locate(self, line: &[u8]) -> Result<Located, Invalid> {
        let index = match self.part {
            LogPart::Request => self.format.request_index(),
            LogPart::Referrer if self.format.has_referrer() => self.format.request_index() + 3,
            LogPart::Referrer => return Err(Invalid::MissingField),
        };
        let field = if self.format.has_host() {
            // The site column is read as it is: an IPv6 site starts with
            // `[` like a timestamp.
            let skip = first_field(line).end;
            nth_field(&line[skip..], index - 1).map(|r| r.start + skip..r.end + skip)
        } else {
            nth_field(line, index)
        }
        .ok_or(Invalid::MissingField)?;
        let quoted = field.len() >= 2 && line[field.start] == b'"' && line[field.end - 1] == b'"';
        if !quoted {
            return Err(Invalid::MissingField);
        }
        let inner = field.start + 1..field.end - 1;
        let range = match self.part {
            LogPart::Referrer => inner,
            LogPart::Request => request_target(line, inner)?,
        };
        Ok(Located {
            range,
            quoting: Quoting::Log,
        })
    }

    /// With [`LogFormat::VhostCombined`], the base URL of `line`'s
    /// requests written into `out`, from its `HOST:PORT` column (Apache's
    /// `%v:%p`): `https://HOST/` when the port is 443 (the log does not
    /// say the scheme; 443 is HTTPS's port), `http://HOST/` when it is 80
    /// or missing, and `http://HOST:PORT/` for any other port, which the
    /// parser then checks. `false` for other formats, or a line without
    /// the column (then `out` is not touched).
    pub(super) fn host_base(self, line: &[u8], out: &mut Vec<u8>) -> bool {
        if !self.format.has_host() {
            return false;
        }
        let column = &line[first_field(line)];
        // `[::1]:443` and `host:443`: the port is after the last colon,
        // unless that colon is inside an IPv6 literal.
        let (host, port) = match column.iter().rposition(|&b| b == b':') {
            Some(c) if !column[c..].contains(&b']') => (&column[..c], &column[c + 1..]),
            _ => (column, &b""[..]),
        };
        if host.is_empty() || host == b"-" {
            return false;
        }
        out.clear();
        out.extend_from_slice(if port == b"443" {
            b"https://"
        } else {
            b"http://"
        });
        out.extend_from_slice(host);
        if !port.is_empty() && port != b"80" && port != b"443" {
            out.push(b':');
            out.extend_from_slice(port);
        }
        out.push(b'/');
        true
    }
}

/// Whether an access log's request target, `target`, is in origin-form
/// (RFC 9112 section 3.2.1: `absolute-path [ "?" query ]`, a path on the
/// host the request was sent to): `None` for any other form, else whether
/// the URL Standard's parser would read it as a reference to another host
/// and it must go through [`as_path`].
///
/// The parser reads `//evil.example/x` (and `/\evil.example/x` in a
/// special URL, or `/<TAB>/evil.example/x`, since it removes tabs and
/// newlines) as a network-path reference, so a log line could name any
/// host.
pub(super) fn origin_form(target: &str) -> Option<bool> {
    // The parser strips leading C0 controls and spaces.
    let trimmed = target.trim_start_matches(|c: char| c <= ' ');
    let rest = trimmed.strip_prefix('/')?;
    let next = rest.bytes().find(|b| !matches!(b, b'\t' | b'\n' | b'\r'));
    Some(matches!(next, Some(b'/' | b'\\')))
}

/// An origin-form `target` that [`origin_form`] says the parser would read
/// as a reference to another host, as a path: `/.` followed by it. The
/// single-dot segment leaves the path state with nothing appended (the URL
/// Standard's path state: a single-dot segment followed by `/` adds no
/// segment), and what follows is the path, empty segments and all:
/// `https://site.example//evil.example/x`, as RFC 9112 section 3.3
/// rebuilds the target URI from the authority and the path. `buf` holds
/// the text.
pub(super) fn as_path<'a>(target: &str, buf: &'a mut String) -> &'a str {
    buf.clear();
    buf.push_str("/.");
    buf.push_str(target.trim_start_matches(|c: char| c <= ' '));
    buf
}

/// The range of a line's first field after any blanks: Apache's `%v:%p`
/// column of `vhost_combined`, a run of non-blank bytes
/// (`[2001:db8::1]:8080` is not a `[...]` timestamp).
fn first_field(line: &[u8]) -> Range<usize> {
    let blank = |b: &u8| *b == b' ' || *b == b'\t';
    let start = line.iter().position(|b| !blank(b)).unwrap_or(line.len());
    let len = line[start..]
        .iter()
        .position(blank)
        .unwrap_or(line.len() - start);
    start..start + len
}

/// The range of field `n` (from 0) of an access log line: a run of
/// non-blank bytes, a `[...]` timestamp or a `"..."` quoted string (in
/// which `\"` is an escaped quote, as Apache writes one).
fn nth_field(line: &[u8], n: usize) -> Option<Range<usize>> {
    let mut i = 0;
    for seen in 0.. {
        while line.get(i) == Some(&b' ') || line.get(i) == Some(&b'\t') {
            i += 1;
        }
        if i == line.len() {
            return None;
        }
        let start = i;
        i = match line[i] {
            b'"' => quoted_end(line, i)?,
            b'[' => start + memchr(b']', &line[start..])? + 1,
            _ => {
                let rest = &line[start..];
                start
                    + rest
                        .iter()
                        .position(|&b| b == b' ' || b == b'\t')
                        .unwrap_or(rest.len())
            }
        };
        if seen == n {
            return Some(start..i);
        }
    }
    None
}

/// The end (after the closing quote) of the quoted string opening at
/// `start`, skipping backslash escapes; `None` if the line ends first.
fn quoted_end(line: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 1;
    while i < line.len() {
        match line[i] {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

/// The target of the request line at `inner`: its second of exactly three
/// space-separated words, the last an HTTP version.
fn request_target(line: &[u8], inner: Range<usize>) -> Result<Range<usize>, Invalid> {
    let request = &line[inner.clone()];
    let mut words = request.split(|&b| b == b' ');
    let (Some(method), Some(target), Some(version), None) =
        (words.next(), words.next(), words.next(), words.next())
    else {
        return Err(Invalid::RequestLine);
    };
    let method_ok = !method.is_empty() && method.iter().all(u8::is_ascii_alphabetic);
    if !method_ok || target.is_empty() || !version.starts_with(b"HTTP/") {
        return Err(Invalid::RequestLine);
    }
    // asterisk-form and authority-form name no resource (RFC 9112 3.2.3,
    // 3.2.4).
    if target == b"*" || method == b"CONNECT" {
        return Err(Invalid::RequestLine);
    }
    let start = inner.start + method.len() + 1;
    Ok(start..start + target.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    const COMBINED: &[u8] = br#"1.2.3.4 - - [17/May/2015:10:05:03 +0000] "GET /a/b?c HTTP/1.1" 200 203 "http://r.example/" "Mozilla/5.0 (X; Y)""#;

    fn at(log: AccessLog, line: &[u8]) -> Result<&[u8], Invalid> {
        log.locate(line).map(|l| &line[l.range])
    }

    const REQUEST: AccessLog = AccessLog {
        format: LogFormat::Combined,
        part: LogPart::Request,
    };
    const REFERRER: AccessLog = AccessLog {
        format: LogFormat::Combined,
        part: LogPart::Referrer,
    };

    #[test]
    fn fields_of_a_combined_line() {
        assert_eq!(at(REQUEST, COMBINED), Ok(&b"/a/b?c"[..]));
        assert_eq!(at(REFERRER, COMBINED), Ok(&b"http://r.example/"[..]));
        let common = AccessLog {
            format: LogFormat::Common,
            part: LogPart::Request,
        };
        assert_eq!(at(common, COMBINED), Ok(&b"/a/b?c"[..]));
        let mut vhost = b"www.example.org:443 ".to_vec();
        vhost.extend_from_slice(COMBINED);
        let log = AccessLog {
            format: LogFormat::VhostCombined,
            part: LogPart::Referrer,
        };
        assert_eq!(at(log, &vhost), Ok(&b"http://r.example/"[..]));
        let mut base = Vec::new();
        assert!(log.host_base(&vhost, &mut base));
        assert_eq!(base, b"https://www.example.org/");
        assert!(log.host_base(b"[::1]:80 x", &mut base));
        assert_eq!(base, b"http://[::1]/");
        assert!(log.host_base(b"a.example x", &mut base));
        assert_eq!(base, b"http://a.example/");
        assert!(!log.host_base(b"-:80 x", &mut base));
        assert!(!REQUEST.host_base(&vhost, &mut base));
    }

    #[test]
    fn request_lines() {
        let line = |r: &str| format!("h - - [d] \"{r}\" 200 1 \"-\" \"ua\"").into_bytes();
        let target = |r: &str| at(REQUEST, &line(r)).map(<[u8]>::to_vec);
        assert_eq!(
            target("GET http://x.example/ HTTP/1.0"),
            Ok(b"http://x.example/".to_vec())
        );
        assert_eq!(target(r#"GET /a\"b HTTP/1.1"#), Ok(br#"/a\"b"#.to_vec()));
        for bad in [
            "-",
            "",
            "GET /",
            "GET  / HTTP/1.1",
            "GET / HTTP/1.1 x",
            "GET / FTP",
            "\\x16\\x03\\x01",
            "OPTIONS * HTTP/1.1",
            "CONNECT a.example:443 HTTP/1.1",
        ] {
            assert_eq!(target(bad), Err(Invalid::RequestLine), "{bad}");
        }
        assert_eq!(at(REFERRER, &line("GET / HTTP/1.1")), Ok(&b"-"[..]));
        // Lines that are not in the format.
        for bad in [
            &b""[..],
            b"h - - [d] GET",
            b"h - - [d \"GET / HTTP/1.1\"",
            b"h - - [d] \"GET",
        ] {
            assert_eq!(at(REQUEST, bad), Err(Invalid::MissingField));
        }
        assert_eq!(
            at(REFERRER, b"h - - [d] \"GET / HTTP/1.1\" 200 1"),
            Err(Invalid::MissingField)
        );
    }
}
