//! alwinb's *Parsing* section: a URL-string to a [`Reference`], in one
//! pass over the code points, as spec-url's `parse` does.

use super::super::host::parse_host;
use super::{Authority, Reference, ReferenceError};
use crate::error::ParseError;

/// 1 for a `.` segment, 2 for a `..` segment (`%2e` counting as a dot,
/// in either case), 0 otherwise.
pub(super) fn dots(seg: &str) -> u8 {
    let s = seg.as_bytes();
    let dot = |p: &[u8]| p == b"." || p.eq_ignore_ascii_case(b"%2e");
    if dot(s) {
        return 1;
    }
    for first in [1, 3] {
        if s.len() > first && dot(&s[..first]) && dot(&s[first..]) {
            return 2;
        }
    }
    0
}

/// How a string is read: the specification's parser modes. The mode
/// changes when a scheme is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ParseMode {
    /// A non-special scheme: `\` is a code point, hosts are opaque.
    Generic,
    /// No scheme (yet): `\` is a separator, hosts are opaque.
    NoScheme,
    /// `http`, `https`, `ws`, `wss`, `ftp`: hosts are domains.
    Web,
    /// `file`: hosts are domains, drive letters are recognised.
    File,
}

impl ParseMode {
    /// The mode of a reference: by its scheme, else a drive says file.
    pub(super) fn of(r: &Reference) -> ParseMode {
        match &r.scheme {
            Some(s) => ParseMode::of_scheme(s),
            None if r.drive.is_some() => ParseMode::File,
            None => ParseMode::NoScheme,
        }
    }

    pub(super) fn of_scheme(scheme: &str) -> ParseMode {
        let s = scheme.as_bytes();
        if s.eq_ignore_ascii_case(b"file") {
            ParseMode::File
        } else if [&b"http"[..], b"https", b"ws", b"wss", b"ftp"]
            .iter()
            .any(|w| s.eq_ignore_ascii_case(w))
        {
            ParseMode::Web
        } else {
            ParseMode::Generic
        }
    }

    /// Whether `\` separates path segments (spec-url's `special` modes).
    pub(super) fn is_special(self) -> bool {
        self != ParseMode::Generic
    }

    fn parses_domains(self) -> bool {
        matches!(self, ParseMode::Web | ParseMode::File)
    }
}

// The parser's states, as bit flags so that a set of them is one test; the
// numeric order is also used (`< QUERY`: before the query).
const START: u8 = 1;
const SCHEME: u8 = 2;
const SS: u8 = 4;
const AUTH: u8 = 8;
const PATH: u8 = 16;
const QUERY: u8 = 32;
const FRAG: u8 = 64;

struct Parser {
    url: Reference,
    mode: ParseMode,
    state: u8,
    slashes: u8,
    /// The buffer holds one ASCII letter so far (a drive may follow).
    letter: bool,
    /// The buffer is a drive letter.
    is_drive: bool,
    buffer: String,
    /// The buffer's length without trailing C0 controls and spaces.
    end: usize,
}

/// Parses `input` in `mode` (spec-url 2.3.3's `parse`).
pub(super) fn parse(input: &str, mode: ParseMode) -> Result<Reference, ReferenceError> {
    let mut p = Parser {
        url: Reference::default(),
        mode,
        state: START | SCHEME,
        slashes: 0,
        letter: false,
        is_drive: false,
        buffer: String::new(),
        end: 0,
    };
    // Leading and trailing C0 controls and spaces go first, as in the
    // WHATWG parser: the buffer-end trimming of spec-url would decide too
    // late whether a last segment such as `A| ` is a drive.
    let input = input.trim_matches(|c: char| c <= ' ');
    for c in input.chars().map(Some).chain([None]) {
        p.step(c)?;
    }
    // A dotted last segment is a dir: `..` is `../`, `.` is `./`.
    let url = &mut p.url;
    if !url.has_opaque_path() {
        if let Some(file) = url.file.take_if(|f| dots(f) != 0) {
            url.dirs.push(file);
        }
    }
    Ok(p.url)
}

impl Parser {
    /// One code point, or `None` at the end.
    fn step(&mut self, c: Option<char>) -> Result<(), ReferenceError> {
        let s = self.state;
        // Tabs and newlines are skipped everywhere, C0 controls and spaces
        // at the start; trailing ones are cut at the end.
        let skipped = matches!(c, Some('\t' | '\n' | '\r'))
            || (s & START != 0 && c.is_some_and(|c| c <= ' '));
        if skipped {
            return Ok(());
        }
        if c.is_none() {
            self.buffer.truncate(self.end);
        }
        let is_slash = c == Some('/') || (self.mode.is_special() && c == Some('\\'));
        if is_slash && s & (START | SS) != 0 {
            self.slashes += 1;
            self.state = if self.slashes == 2 { AUTH } else { SS };
            return Ok(());
        }
        let is_delim = (s == SCHEME && c == Some(':'))
            || (s < QUERY && (is_slash || c == Some('?')))
            || (s < FRAG && c == Some('#'))
            || c.is_none();
        if is_delim {
            return self.delimiter(c, is_slash);
        }
        self.track(c.unwrap_or_default());
        Ok(())
    }

    /// Ends the component in the buffer at a delimiter (or the end).
    fn delimiter(&mut self, c: Option<char>, is_slash: bool) -> Result<(), ReferenceError> {
        let s = self.state;
        let buffer = std::mem::take(&mut self.buffer);
        let url = &mut self.url;
        if s == SCHEME && c == Some(':') {
            self.mode = ParseMode::of_scheme(&buffer);
            url.scheme = Some(buffer);
        } else if s == SS {
            if is_slash || self.slashes > 0 {
                url.root = true;
            }
        } else if self.is_drive {
            if s & AUTH != 0 {
                url.authority = Some(Authority::default());
            }
            url.drive = Some(buffer);
            url.root = is_slash;
        } else if s & AUTH != 0 {
            url.authority = Some(parse_authority(&buffer, self.mode)?);
            url.root = is_slash;
        } else if s == QUERY {
            url.query = Some(buffer);
        } else if s == FRAG {
            url.fragment = Some(buffer);
        } else if is_slash {
            url.dirs.push(buffer);
        } else if !buffer.is_empty() {
            url.file = Some(buffer);
        }
        self.state = match c {
            Some(':') => SS,
            Some('?') => QUERY,
            Some('#') => FRAG,
            _ => PATH,
        };
        self.letter = false;
        self.is_drive = false;
        self.end = 0;
        Ok(())
    }

    /// Buffers a code point that is not a delimiter, keeping track of the
    /// scheme, the path-root and a drive letter.
    fn track(&mut self, c: char) {
        let s = self.state;
        if s & SCHEME != 0 && c.is_ascii_alphabetic() {
            self.state = SCHEME;
        } else if s == SCHEME && !matches!(c, '+' | '-' | '.') && !c.is_ascii_digit() {
            self.state = PATH;
        } else if s & (START | SS) != 0 {
            if self.slashes > 0 {
                self.url.root = true;
            }
            self.state = PATH;
        }
        let url = &self.url;
        if self.mode == ParseMode::File
            && url.drive.is_none()
            && url.dirs.is_empty()
            && self.state < QUERY
        {
            self.is_drive = self.letter && (c == '|' || (self.state & !SCHEME != 0 && c == ':'));
            self.letter = self.buffer.is_empty() && c.is_ascii_alphabetic();
        } else {
            self.is_drive = false;
        }
        self.buffer.push(c);
        if c > ' ' {
            self.end = self.buffer.len();
        }
    }
}

/// Parses an authority (spec-url's `parseAuth`): the credentials end at the
/// last `@`, the password starts at the first `:` before it, the port at
/// the first `:` after it outside brackets. The host is then parsed as a
/// domain in web and file modes, as an opaque host otherwise.
pub(super) fn parse_authority(input: &str, mode: ParseMode) -> Result<Authority, ReferenceError> {
    let (mut at, mut colon, mut port) = (None, None, input.len());
    let mut brackets = false;
    for (i, b) in input.bytes().enumerate() {
        match b {
            b'[' => brackets = true,
            b']' => brackets = false,
            b'@' => {
                at = Some(i);
                port = input.len();
                brackets = false;
            }
            // As spec-url does: the last `:` after the credentials and
            // outside brackets starts the port.
            b':' => {
                colon = colon.or(Some(i));
                if !brackets {
                    port = i;
                }
            }
            _ => {}
        }
    }
    let mut auth = Authority::default();
    let host_start = match at {
        Some(at) => {
            match colon.filter(|&c| c < at) {
                Some(c) => {
                    auth.username = Some(input[..c].to_owned());
                    auth.password = Some(input[c + 1..at].to_owned());
                }
                None => auth.username = Some(input[..at].to_owned()),
            }
            at + 1
        }
        None => 0,
    };
    auth.host = parse_host_text(&input[host_start..port], mode)?;
    if port < input.len() {
        auth.port = Some(parse_port(&input[port + 1..])?);
    }
    check_authority(&auth, mode)?;
    Ok(auth)
}

/// The port: empty, or decimal digits of a number below 2^16, written
/// without leading zeros.
fn parse_port(input: &str) -> Result<String, ReferenceError> {
    if input.is_empty() {
        return Ok(String::new());
    }
    if !input.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ParseError::InvalidPort.into());
    }
    let digits = input.trim_start_matches('0');
    match digits.parse::<u32>() {
        Ok(n) if n < 65536 => Ok(n.to_string()),
        _ if digits.is_empty() => Ok("0".to_owned()),
        _ => Err(ParseError::PortOutOfRange.into()),
    }
}

/// A host as the WHATWG host parser writes it (domains and IP addresses
/// in web and file modes; opaque hosts otherwise). The empty host stays
/// empty.
pub(super) fn parse_host_text(input: &str, mode: ParseMode) -> Result<String, ReferenceError> {
    if input.is_empty() {
        return Ok(String::new());
    }
    let mut out = Vec::with_capacity(input.len());
    parse_host(input.as_bytes(), !mode.parses_domains(), &mut out)?;
    // The host parser writes ASCII only.
    Ok(String::from_utf8(out).unwrap_or_default())
}

/// The authority's structural constraints (spec-url's `authErrors`).
fn check_authority(auth: &Authority, mode: ParseMode) -> Result<(), ReferenceError> {
    let has_credentials = auth.username.is_some() || auth.password.is_some();
    let forbidden = if mode == ParseMode::File {
        has_credentials || auth.port.is_some()
    } else {
        auth.host.is_empty() && (has_credentials || auth.port.is_some())
    };
    if forbidden {
        return Err(ReferenceError::Authority);
    }
    Ok(())
}
