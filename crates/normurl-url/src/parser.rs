//! The [basic URL parser](https://url.spec.whatwg.org/#concept-basic-url-parser).
//!
//! One method per spec state, named after it. Instead of walking a pointer
//! one code point at a time, each state finds the end of the component it
//! owns (with memchr or a byte loop) and writes the component, serialized
//! and percent-encoded, straight into the output buffer. "Decrease pointer
//! by 1" and "start over" become calls with the position of the code point
//! the next state must see. Component offsets are recorded as they are
//! written, so the buffer is the href when the last state returns.
//!
//! Validation-error reporting is not implemented: normurl only needs the
//! result. Of the *state override*, only the path start state's is here
//! ([`path_with_override`], for the pathname setter); the setters apply
//! the other states' override steps themselves (`setters.rs`). (The
//! encoding argument is: [`super::encoding`].)
//!
//! Over 800 lines, for a reason: the states call one another, and they are
//! kept in one file in the spec's order so that the state machine reads
//! side by side with url.bs.

use super::encoding::{encode_after_encoding, Encoding};
use super::host::{parse_host, HostKind};
use super::ip::push_decimal;
use super::path::{
    is_double_dot, is_normalized_windows_drive_letter, is_single_dot, is_windows_drive_letter,
    starts_with_windows_drive_letter,
};
use super::percent::{push_percent_encoded, AsciiSet};
use super::scheme::SchemeType;
use super::tables::{
    has_tab_or_newline, remove_tab_or_newline, trim_c0_control_or_space, SCHEME_CHAR,
};
use crate::error::ParseError;
use crate::fast;
use crate::simd::stop::{find, Stop};
use crate::url::Url;

/// Runs the basic URL parser on `input` (against `base`) and stores the
/// result in `url`, reusing its buffer.
pub fn parse(url: &mut Url, input: &str, base: Option<&Url>) -> Result<(), ParseError> {
    let trimmed = trim(input);
    if fast::try_parse(url, trimmed) {
        debug_check_fast_path(url, trimmed.as_bytes(), base);
        return Ok(());
    }
    parse_declined(url, trimmed.as_bytes(), base)
}

/// "Remove any leading and trailing C0 control or space from input."
#[inline]
pub fn trim(input: &str) -> &str {
    let trimmed = trim_c0_control_or_space(input.as_bytes());
    // Only ASCII bytes were trimmed, so these are char boundaries.
    let start = trimmed.as_ptr() as usize - input.as_ptr() as usize;
    &input[start..start + trimmed.len()]
}

/// [`parse`] for a trimmed input the fast path declined: the state
/// machine, on the input without tabs and newlines.
pub fn parse_declined(url: &mut Url, trimmed: &[u8], base: Option<&Url>) -> Result<(), ParseError> {
    let out = std::mem::take(&mut url.serialization).into_bytes();
    if has_tab_or_newline(trimmed) {
        // "Remove all ASCII tab or newline from input." Rare: copy only here.
        let cleaned = remove_tab_or_newline(trimmed);
        return Parser::new(&cleaned, base, out).run(url);
    }
    Parser::new(trimmed, base, out).run(url)
}

/// In debug builds, the fast path's answer must equal the full parser's.
pub fn debug_check_fast_path(url: &Url, input: &[u8], base: Option<&Url>) {
    if cfg!(debug_assertions) {
        let mut slow = Url::empty();
        let slow_result = Parser::new(input, base, Vec::new()).run(&mut slow);
        debug_assert_eq!(
            slow_result,
            Ok(()),
            "fast path accepted {:?}",
            String::from_utf8_lossy(input)
        );
        debug_assert_eq!(format!("{slow:?}"), format!("{url:?}"));
    }
}

/// [`parse`] with the query encoding override `encoding` (not UTF-8): the
/// state machine only, so that the UTF-8 path and its fast path stay as
/// they are.
#[cfg(feature = "encoding")]
pub fn parse_with_encoding(
    url: &mut Url,
    input: &str,
    base: Option<&Url>,
    encoding: &'static Encoding,
) -> Result<(), ParseError> {
    let out = std::mem::take(&mut url.serialization).into_bytes();
    let trimmed = trim_c0_control_or_space(input.as_bytes());
    let cleaned;
    let input = if has_tab_or_newline(trimmed) {
        cleaned = remove_tab_or_newline(trimmed);
        &cleaned[..]
    } else {
        trimmed
    };
    let mut parser = Parser::new(input, base, out);
    parser.encoding = Some(encoding);
    parser.run(url)
}

/// Parses without the fast path (for tests proving both agree).
pub fn parse_slow(url: &mut Url, input: &str, base: Option<&Url>) -> Result<(), ParseError> {
    let out = std::mem::take(&mut url.serialization).into_bytes();
    let trimmed = trim_c0_control_or_space(input.as_bytes());
    if has_tab_or_newline(trimmed) {
        let cleaned = remove_tab_or_newline(trimmed);
        Parser::new(&cleaned, base, out).run(url)
    } else {
        Parser::new(trimmed, base, out).run(url)
    }
}

/// The [path start state](https://url.spec.whatwg.org/#path-start-state)
/// with *state override*, as the pathname setter runs it after emptying the
/// path of a URL whose scheme is `scheme_type` and whose host is of kind
/// `host_kind`: writes the serialized path parsed from `input` to `out`,
/// which it replaces (ASCII tab and newline removed first; no trimming, as
/// the URL is given). `?` and
/// `#` are part of the path then, percent-encoded. The `/.` the serializer
/// puts before a path starting with `//` when the host is null is not
/// included.
pub fn path_with_override(
    scheme_type: SchemeType,
    host_kind: HostKind,
    input: &[u8],
    out: &mut Vec<u8>,
) {
    let cleaned;
    let input = if has_tab_or_newline(input) {
        cleaned = remove_tab_or_newline(input);
        &cleaned[..]
    } else {
        input
    };
    let mut buffer = std::mem::take(out);
    buffer.clear();
    buffer.reserve(input.len() + 1);
    let mut parser = Parser::new(input, None, buffer);
    parser.state_override = true;
    parser.scheme_type = scheme_type;
    parser.host_kind = host_kind;
    // The path states never fail.
    let _ = parser.path_start_state(0);
    *out = parser.out;
}

/// The parser's state: the input, the output buffer, and the offsets of the
/// components written so far (as `usize`, checked to fit `u32` at the end).
struct Parser<'a> {
    input: &'a [u8],
    base: Option<&'a Url>,
    /// The query encoding override; `None` for UTF-8.
    encoding: Option<&'static Encoding>,
    /// Whether the path states run with a *state override*
    /// ([`path_with_override`]): `?` and `#` do not end the path, and
    /// nothing follows it.
    state_override: bool,
    out: Vec<u8>,
    scheme_type: SchemeType,
    scheme_end: usize,
    username_end: usize,
    host_start: usize,
    host_end: usize,
    host_kind: HostKind,
    port: Option<u16>,
    path_start: usize,
    query_start: Option<usize>,
    fragment_start: Option<usize>,
}

impl<'a> Parser<'a> {
    fn new(input: &'a [u8], base: Option<&'a Url>, mut out: Vec<u8>) -> Parser<'a> {
        out.clear();
        Parser {
            input,
            base,
            encoding: None,
            state_override: false,
            out,
            scheme_type: SchemeType::NotSpecial,
            scheme_end: 0,
            username_end: 0,
            host_start: 0,
            host_end: 0,
            host_kind: HostKind::None,
            port: None,
            path_start: 0,
            query_start: None,
            fragment_start: None,
        }
    }

    /// Runs the state machine and, on success, moves the result into `url`.
    fn run(mut self, url: &mut Url) -> Result<(), ParseError> {
        let result = self.scheme_start_state();
        let out = std::mem::take(&mut self.out);
        if let Err(e) = result {
            // Keep the allocation for the next parse.
            url.serialization = String::from_utf8(out).unwrap_or_default();
            return Err(e);
        }
        if out.len() > u32::MAX as usize {
            return Err(ParseError::TooLong);
        }
        // Everything written is ASCII: the scheme is checked against
        // SCHEME_CHAR, hosts are ASCII after IDNA, and all other bytes went
        // through a percent-encode set that contains every non-ASCII byte.
        // `is_ascii` checks a word at a time, far cheaper than UTF-8
        // validation; a failure here would be a parser bug, reported as an
        // error rather than a panic.
        if !out.is_ascii() {
            debug_assert!(
                false,
                "non-ASCII serialization {:?}",
                String::from_utf8_lossy(&out)
            );
            return Err(ParseError::IdnaError);
        }
        // SAFETY: `out` was just checked to be ASCII, hence valid UTF-8.
        url.serialization = unsafe { String::from_utf8_unchecked(out) };
        url.scheme_type = self.scheme_type;
        url.scheme_end = self.scheme_end as u32;
        url.username_end = self.username_end as u32;
        url.host_start = self.host_start as u32;
        url.host_end = self.host_end as u32;
        url.host_kind = self.host_kind;
        url.port = self.port;
        url.path_start = self.path_start as u32;
        url.query_start = self.query_start.map(|q| q as u32);
        url.fragment_start = self.fragment_start.map(|f| f as u32);
        Ok(())
    }

    #[inline]
    fn is_special(&self) -> bool {
        self.scheme_type.is_special()
    }

    #[inline]
    fn at(&self, pos: usize) -> Option<u8> {
        self.input.get(pos).copied()
    }

    /// A `/`, or for special URLs also a `\`.
    #[inline]
    fn is_slash(&self, c: Option<u8>) -> bool {
        c == Some(b'/') || (c == Some(b'\\') && self.is_special())
    }

    /// Offsets for a URL whose host is null, once `scheme:` is written.
    fn set_null_host(&mut self) {
        self.username_end = self.scheme_end + 1;
        self.host_start = self.username_end;
        self.host_end = self.username_end;
        self.host_kind = HostKind::None;
        self.port = None;
    }

    /// [Scheme start state](https://url.spec.whatwg.org/#scheme-start-state)
    /// and [scheme state](https://url.spec.whatwg.org/#scheme-state).
    fn scheme_start_state(&mut self) -> Result<(), ParseError> {
        let input = self.input;
        if input.first().is_some_and(u8::is_ascii_alphabetic) {
            let end = input
                .iter()
                .position(|&b| !SCHEME_CHAR[b as usize])
                .unwrap_or(input.len());
            if input.get(end) == Some(&b':') {
                self.out
                    .extend(input[..end].iter().map(u8::to_ascii_lowercase));
                self.scheme_type = SchemeType::from_lowercase(&self.out);
                self.scheme_end = end;
                self.out.push(b':');
                return self.after_scheme(end + 1);
            }
        }
        // "Otherwise ... set state to no scheme state, and start over."
        self.no_scheme_state()
    }

    /// The end of the [scheme state](https://url.spec.whatwg.org/#scheme-state)
    /// for `c` = `:`: choose the next state.
    fn after_scheme(&mut self, pos: usize) -> Result<(), ParseError> {
        match self.scheme_type {
            SchemeType::File => self.file_state(pos),
            st if st.is_special() => match self.base {
                Some(base) if base.scheme_type == st => {
                    self.special_relative_or_authority_state(pos)
                }
                _ => self.special_authority_slashes_state(pos),
            },
            _ if self.at(pos) == Some(b'/') => self.path_or_authority_state(pos + 1),
            _ => self.opaque_path_state(pos),
        }
    }

    /// [No scheme state](https://url.spec.whatwg.org/#no-scheme-state).
    fn no_scheme_state(&mut self) -> Result<(), ParseError> {
        let Some(base) = self.base else {
            return Err(ParseError::RelativeUrlWithoutBase);
        };
        if base.has_opaque_path() {
            if self.at(0) != Some(b'#') {
                return Err(ParseError::RelativeUrlWithoutBase);
            }
            // Scheme, path and query of the base; a new fragment.
            self.out
                .extend_from_slice(base.href_without_fragment().as_bytes());
            self.scheme_type = base.scheme_type;
            self.scheme_end = base.scheme_end as usize;
            self.set_null_host();
            self.path_start = base.path_start as usize;
            self.query_start = base.query_start.map(|q| q as usize);
            return self.fragment_state(1);
        }
        self.out.extend_from_slice(base.protocol().as_bytes());
        self.scheme_type = base.scheme_type;
        self.scheme_end = base.scheme_end as usize;
        if base.scheme_type == SchemeType::File {
            self.file_state(0)
        } else {
            self.relative_state(0)
        }
    }

    /// [Special relative or authority state](https://url.spec.whatwg.org/#special-relative-or-authority-state).
    fn special_relative_or_authority_state(&mut self, pos: usize) -> Result<(), ParseError> {
        if self.input[pos..].starts_with(b"//") {
            self.special_authority_ignore_slashes_state(pos + 2)
        } else {
            self.relative_state(pos)
        }
    }

    /// [Path or authority state](https://url.spec.whatwg.org/#path-or-authority-state);
    /// `pos` is after the first `/`.
    fn path_or_authority_state(&mut self, pos: usize) -> Result<(), ParseError> {
        if self.at(pos) == Some(b'/') {
            self.authority_state(pos + 1)
        } else {
            self.set_null_host();
            self.path_start = self.out.len();
            self.path_state(pos)
        }
    }

    /// Copies the base's username, password, host and port. The output holds
    /// exactly the (same) scheme and `:`, so the base's offsets apply as
    /// they are.
    fn copy_base_authority(&mut self, base: &Url) {
        debug_assert_eq!(self.out.len(), base.scheme_end as usize + 1);
        if base.has_host() {
            // With a host there is no "/." prefix: the authority ends at path_start.
            self.out.extend_from_slice(
                &base.href().as_bytes()[self.out.len()..base.path_start as usize],
            );
            self.username_end = base.username_end as usize;
            self.host_start = base.host_start as usize;
            self.host_end = base.host_end as usize;
            self.host_kind = base.host_kind;
            self.port = base.port;
        } else {
            self.set_null_host();
        }
    }

    /// Copies the base's path (a clone of base's path) after the authority.
    fn copy_base_path(&mut self, base: &Url) {
        self.path_start = self.out.len();
        self.out.extend_from_slice(base.pathname().as_bytes());
    }

    /// Copies the base's query, if not null, after the (finished) path.
    fn copy_base_query(&mut self, base: &Url) {
        if let Some(q) = base.query_start {
            let end = base.fragment_start.unwrap_or(base.href().len() as u32);
            self.query_start = Some(self.out.len());
            self.out
                .extend_from_slice(&base.href().as_bytes()[q as usize..end as usize]);
        }
    }

    /// [Relative state](https://url.spec.whatwg.org/#relative-state). The
    /// base's scheme is already written.
    fn relative_state(&mut self, pos: usize) -> Result<(), ParseError> {
        let base = self.base.expect("relative state needs a base");
        let c = self.at(pos);
        if self.is_slash(c) {
            return self.relative_slash_state(pos + 1);
        }
        self.copy_base_authority(base);
        self.copy_base_path(base);
        match c {
            None => {
                self.finish_path();
                self.copy_base_query(base);
                Ok(())
            }
            Some(b'?') => self.after_path(pos),
            Some(b'#') => {
                self.finish_path();
                self.copy_base_query(base);
                self.fragment_state(pos + 1)
            }
            Some(_) => {
                self.shorten_path();
                self.path_state(pos)
            }
        }
    }

    /// [Relative slash state](https://url.spec.whatwg.org/#relative-slash-state);
    /// `pos` is after the first slash.
    fn relative_slash_state(&mut self, pos: usize) -> Result<(), ParseError> {
        let c = self.at(pos);
        if self.is_special() && matches!(c, Some(b'/' | b'\\')) {
            self.special_authority_ignore_slashes_state(pos + 1)
        } else if c == Some(b'/') {
            self.authority_state(pos + 1)
        } else {
            let base = self.base.expect("relative slash state needs a base");
            self.copy_base_authority(base);
            self.path_start = self.out.len();
            self.path_state(pos)
        }
    }

    /// [Special authority slashes state](https://url.spec.whatwg.org/#special-authority-slashes-state).
    fn special_authority_slashes_state(&mut self, pos: usize) -> Result<(), ParseError> {
        let pos = if self.input[pos..].starts_with(b"//") {
            pos + 2
        } else {
            pos
        };
        self.special_authority_ignore_slashes_state(pos)
    }

    /// [Special authority ignore slashes state](https://url.spec.whatwg.org/#special-authority-ignore-slashes-state).
    fn special_authority_ignore_slashes_state(&mut self, pos: usize) -> Result<(), ParseError> {
        let skip = self.input[pos..]
            .iter()
            .take_while(|&&b| b == b'/' || b == b'\\')
            .count();
        self.authority_state(pos + skip)
    }

    /// Where the authority (or host) starting at `pos` ends: at EOF, `/`,
    /// `?`, `#`, or for special URLs `\`.
    fn authority_end(&self, pos: usize) -> usize {
        let special = self.is_special();
        self.input[pos..]
            .iter()
            .position(|&b| matches!(b, b'/' | b'?' | b'#') || (b == b'\\' && special))
            .map_or(self.input.len(), |i| pos + i)
    }

    /// [Authority state](https://url.spec.whatwg.org/#authority-state): the
    /// credentials are everything before the last `@`; the first `:` in them
    /// separates the password.
    fn authority_state(&mut self, pos: usize) -> Result<(), ParseError> {
        self.out.extend_from_slice(b"//");
        // Common case first: one scan finds the end of an authority without
        // credentials. Only if it meets an `@` is the last `@` looked for.
        let class = if self.is_special() {
            Stop::SpecialAuthority
        } else {
            Stop::Authority
        };
        let stop = find(class, self.input, pos);
        if self.at(stop) != Some(b'@') {
            self.username_end = self.out.len();
            self.host_start = self.out.len();
            return self.host_state(pos, stop);
        }
        let end = self.authority_end(stop);
        let authority = &self.input[pos..end];
        let at = memchr::memrchr(b'@', authority).expect("an @ was found");
        // "If atSignSeen is true and buffer is the empty string, host-missing
        // validation error, return failure."
        if at + 1 == authority.len() {
            return Err(ParseError::EmptyHost);
        }
        let userinfo = &authority[..at];
        let (username, password) = match memchr::memchr(b':', userinfo) {
            Some(colon) => (&userinfo[..colon], &userinfo[colon + 1..]),
            None => (userinfo, &b""[..]),
        };
        // Earlier `@`s are percent-encoded as %40 by the userinfo set, which
        // is what "prepend %40 to buffer" amounts to.
        AsciiSet::USERINFO.encode(username, &mut self.out);
        self.username_end = self.out.len();
        if !password.is_empty() {
            self.out.push(b':');
            AsciiSet::USERINFO.encode(password, &mut self.out);
        }
        // https://url.spec.whatwg.org/#url-serializing: "@" only if the URL
        // includes credentials (non-empty username or password).
        if self.out.len() > self.scheme_end + 3 {
            self.out.push(b'@');
        }
        self.host_start = self.out.len();
        self.host_state(pos + at + 1, end)
    }

    /// [Host state](https://url.spec.whatwg.org/#host-state) and
    /// [port state](https://url.spec.whatwg.org/#port-state) for the host and
    /// port in `input[start..end]`.
    fn host_state(&mut self, start: usize, end: usize) -> Result<(), ParseError> {
        let special = self.is_special();
        let mut inside_brackets = false;
        let mut colon = None;
        for (i, &b) in self.input[start..end].iter().enumerate() {
            match b {
                b'[' => inside_brackets = true,
                b']' => inside_brackets = false,
                b':' if !inside_brackets => {
                    colon = Some(start + i);
                    break;
                }
                _ => {}
            }
        }
        let host = &self.input[start..colon.unwrap_or(end)];
        if host.is_empty() && (colon.is_some() || special) {
            return Err(ParseError::EmptyHost);
        }
        self.host_kind = parse_host(host, !special, &mut self.out)?;
        self.host_end = self.out.len();
        if let Some(colon) = colon {
            self.port_state(colon + 1, end)?;
        }
        self.path_start_state(end)
    }

    /// [Port state](https://url.spec.whatwg.org/#port-state) for the digits in
    /// `input[start..end]`.
    fn port_state(&mut self, start: usize, end: usize) -> Result<(), ParseError> {
        let digits = &self.input[start..end];
        if !digits.iter().all(u8::is_ascii_digit) {
            return Err(ParseError::InvalidPort);
        }
        if digits.is_empty() {
            return Ok(());
        }
        let mut port: u32 = 0;
        for &d in digits {
            port = port * 10 + (d - b'0') as u32;
            if port > 65535 {
                return Err(ParseError::PortOutOfRange);
            }
        }
        let port = port as u16;
        if self.scheme_type.default_port() != Some(port) {
            self.out.push(b':');
            push_decimal(port as u32, &mut self.out);
            self.port = Some(port);
        }
        Ok(())
    }

    /// [File state](https://url.spec.whatwg.org/#file-state). `file:` is
    /// already written.
    fn file_state(&mut self, pos: usize) -> Result<(), ParseError> {
        self.scheme_type = SchemeType::File;
        let c = self.at(pos);
        if matches!(c, Some(b'/' | b'\\')) {
            return self.file_slash_state(pos + 1);
        }
        self.out.extend_from_slice(b"//");
        self.username_end = self.out.len();
        self.host_start = self.out.len();
        match self.base.filter(|b| b.scheme_type == SchemeType::File) {
            Some(base) => {
                self.out.extend_from_slice(base.hostname().as_bytes());
                self.host_end = self.out.len();
                self.host_kind = base.host_kind;
                self.copy_base_path(base);
                match c {
                    None => {
                        self.copy_base_query(base);
                        Ok(())
                    }
                    Some(b'?') => self.after_path(pos),
                    Some(b'#') => {
                        self.copy_base_query(base);
                        self.fragment_state(pos + 1)
                    }
                    Some(_) => {
                        if starts_with_windows_drive_letter(&self.input[pos..]) {
                            // Windows drive letter quirk: "Set url's path to « »."
                            self.out.truncate(self.path_start);
                        } else {
                            self.shorten_path();
                        }
                        self.path_state(pos)
                    }
                }
            }
            None => {
                self.host_end = self.out.len();
                self.host_kind = HostKind::Empty;
                self.path_start = self.out.len();
                self.path_state(pos)
            }
        }
    }

    /// [File slash state](https://url.spec.whatwg.org/#file-slash-state);
    /// `pos` is after the first slash.
    fn file_slash_state(&mut self, pos: usize) -> Result<(), ParseError> {
        if matches!(self.at(pos), Some(b'/' | b'\\')) {
            return self.file_host_state(pos + 1);
        }
        self.out.extend_from_slice(b"//");
        self.username_end = self.out.len();
        self.host_start = self.out.len();
        self.host_kind = HostKind::Empty;
        let base = self.base.filter(|b| b.scheme_type == SchemeType::File);
        if let Some(base) = base {
            self.out.extend_from_slice(base.hostname().as_bytes());
            self.host_kind = base.host_kind;
        }
        self.host_end = self.out.len();
        self.path_start = self.out.len();
        if let Some(base) = base {
            // Windows drive letter quirk: keep the base's drive letter.
            let base_path = base.pathname().as_bytes();
            let first_is_drive = base_path.len() >= 3
                && is_normalized_windows_drive_letter(&base_path[1..3])
                && (base_path.len() == 3 || base_path[3] == b'/');
            if first_is_drive && !starts_with_windows_drive_letter(&self.input[pos..]) {
                self.out.extend_from_slice(&base_path[..3]);
            }
        }
        self.path_state(pos)
    }

    /// [File host state](https://url.spec.whatwg.org/#file-host-state).
    fn file_host_state(&mut self, pos: usize) -> Result<(), ParseError> {
        let end = self.input[pos..]
            .iter()
            .position(|&b| matches!(b, b'/' | b'\\' | b'?' | b'#'))
            .map_or(self.input.len(), |i| pos + i);
        let buffer = &self.input[pos..end];
        self.out.extend_from_slice(b"//");
        self.username_end = self.out.len();
        self.host_start = self.out.len();
        if is_windows_drive_letter(buffer) {
            // Windows drive letter quirk: the buffer is the first path segment.
            self.host_end = self.out.len();
            self.host_kind = HostKind::Empty;
            self.path_start = self.out.len();
            return self.path_state(pos);
        }
        if buffer.is_empty() {
            self.host_kind = HostKind::Empty;
        } else {
            self.host_kind = parse_host(buffer, false, &mut self.out)?;
            if &self.out[self.host_start..] == b"localhost" {
                self.out.truncate(self.host_start);
                self.host_kind = HostKind::Empty;
            }
        }
        self.host_end = self.out.len();
        self.path_start_state(end)
    }

    /// [Path start state](https://url.spec.whatwg.org/#path-start-state).
    fn path_start_state(&mut self, pos: usize) -> Result<(), ParseError> {
        self.path_start = self.out.len();
        let c = self.at(pos);
        if self.is_special() {
            let pos = if matches!(c, Some(b'/' | b'\\')) {
                pos + 1
            } else {
                pos
            };
            return self.path_state(pos);
        }
        match c {
            // "Otherwise, if state override is given and url's host is
            // null, append the empty string to url's path."
            None if self.state_override => {
                if self.host_kind == HostKind::None {
                    self.out.push(b'/');
                }
                Ok(())
            }
            None => self.after_path(pos),
            Some(b'?' | b'#') if !self.state_override => self.after_path(pos),
            Some(b'/') => self.path_state(pos + 1),
            Some(_) => self.path_state(pos),
        }
    }

    /// [Shorten a URL's path](https://url.spec.whatwg.org/#shorten-a-urls-path).
    fn shorten_path(&mut self) {
        let path = &self.out[self.path_start..];
        if self.scheme_type == SchemeType::File
            && path.len() == 3
            && is_normalized_windows_drive_letter(&path[1..])
        {
            return;
        }
        if let Some(i) = memchr::memrchr(b'/', path) {
            self.out.truncate(self.path_start + i);
        }
    }

    /// [Path state](https://url.spec.whatwg.org/#path-state), from `pos` (the
    /// first code point of a segment) to the end of the path.
    ///
    /// Most segments cannot be dot segments or drive letters: those are
    /// copied in runs that may span several segments, found with the SIMD
    /// scan that stops at bytes to encode, delimiters, and `/` followed by
    /// `.` or `%`. A segment that starts with `.` or `%`, and the first
    /// segment of a file URL, go through [`Parser::path_segment`], which
    /// applies the spec's checks to exactly that segment.
    fn path_state(&mut self, mut pos: usize) -> Result<(), ParseError> {
        let special = self.is_special();
        let file = self.scheme_type == SchemeType::File;
        let input = self.input;
        loop {
            let exact = matches!(input.get(pos), Some(b'.' | b'%'))
                || (file && self.out.len() == self.path_start);
            if exact {
                match self.path_segment(pos) {
                    Some(next) => {
                        pos = next;
                        continue;
                    }
                    None => return self.after_path(self.segment_end(pos)),
                }
            }
            self.out.push(b'/');
            pos = loop {
                let stop = find(Stop::Path, input, pos);
                self.out.extend_from_slice(&input[pos..stop]);
                match input.get(stop) {
                    None => return self.after_path(stop),
                    Some(b'?' | b'#') if !self.state_override => return self.after_path(stop),
                    // The next segment may be a dot segment (`/` followed
                    // by `.` or `%`), or `\` ends a segment in a special URL.
                    Some(b'/') => break stop + 1,
                    Some(b'\\') if special => break stop + 1,
                    Some(&b) => {
                        // A byte to percent-encode, or a non-special backslash or `|`, kept as it is.
                        if AsciiSet::PATH.contains(b) {
                            push_percent_encoded(b, &mut self.out);
                        } else {
                            self.out.push(b);
                        }
                        pos = stop + 1;
                    }
                }
            };
        }
    }

    /// Where the segment starting at `pos` ends: EOF, `/`, `?`, `#` (not
    /// with a state override), or for special URLs `\\`.
    fn segment_end(&self, pos: usize) -> usize {
        let special = self.is_special();
        let query_or_fragment = !self.state_override;
        self.input[pos..]
            .iter()
            .position(|&b| {
                b == b'/'
                    || (b == b'\\' && special)
                    || (matches!(b, b'?' | b'#') && query_or_fragment)
            })
            .map_or(self.input.len(), |i| pos + i)
    }

    /// One segment of the [path state](https://url.spec.whatwg.org/#path-state),
    /// with the spec's checks: written as `/` + its percent-encoded bytes,
    /// then single- and double-dot segments and Windows drive letters are
    /// handled. Returns the start of the next segment, or `None` when the
    /// path ends after this one.
    fn path_segment(&mut self, pos: usize) -> Option<usize> {
        let end = self.segment_end(pos);
        let segment_start = self.out.len();
        self.out.push(b'/');
        AsciiSet::PATH.encode(&self.input[pos..end], &mut self.out);
        let more = self.is_slash(self.at(end));
        let segment = &self.out[segment_start + 1..];
        if is_double_dot(segment) {
            self.out.truncate(segment_start);
            self.shorten_path();
            if !more {
                self.out.push(b'/');
            }
        } else if is_single_dot(segment) {
            self.out.truncate(segment_start);
            if !more {
                self.out.push(b'/');
            }
        } else if self.scheme_type == SchemeType::File
            && segment_start == self.path_start
            && is_windows_drive_letter(segment)
        {
            // Windows drive letter quirk: "C|" becomes "C:".
            self.out[segment_start + 2] = b':';
        }
        more.then_some(end + 1)
    }

    /// The serializer's rule for a URL without host whose path starts with an
    /// empty segment: write `/.` before the path so that it does not read as
    /// an authority (<https://url.spec.whatwg.org/#url-serializing>, step 3).
    fn finish_path(&mut self) {
        if self.host_kind == HostKind::None && self.out[self.path_start..].starts_with(b"//") {
            self.out.splice(self.path_start..self.path_start, *b"/.");
            self.path_start += 2;
        }
    }

    /// After the path: `pos` is at EOF, `?` or `#`.
    fn after_path(&mut self, pos: usize) -> Result<(), ParseError> {
        if self.state_override {
            // The pathname setter: the caller serializes the URL around the path.
            return Ok(());
        }
        self.finish_path();
        match self.at(pos) {
            Some(b'?') => self.query_state(pos + 1),
            Some(b'#') => self.fragment_state(pos + 1),
            _ => Ok(()),
        }
    }

    /// [Opaque path state](https://url.spec.whatwg.org/#cannot-be-a-base-url-path-state).
    fn opaque_path_state(&mut self, pos: usize) -> Result<(), ParseError> {
        self.set_null_host();
        self.path_start = self.out.len();
        let input = self.input;
        let end = memchr::memchr2(b'?', b'#', &input[pos..]).map_or(input.len(), |i| pos + i);
        let mut path = &input[pos..end];
        // "If c is U+0020 SPACE: if remaining starts with ? or #, append %20;
        // otherwise append a space." Only a space right before ? or # is
        // encoded (trailing spaces at the very end were trimmed).
        let space_before_delimiter = end < input.len() && path.last() == Some(&b' ');
        if space_before_delimiter {
            path = &path[..path.len() - 1];
        }
        AsciiSet::C0_CONTROL.encode(path, &mut self.out);
        if space_before_delimiter {
            self.out.extend_from_slice(b"%20");
        }
        self.after_path(end)
    }

    /// [Query state](https://url.spec.whatwg.org/#query-state).
    fn query_state(&mut self, pos: usize) -> Result<(), ParseError> {
        self.query_start = Some(self.out.len());
        self.out.push(b'?');
        let input = self.input;
        let end = memchr::memchr(b'#', &input[pos..]).map_or(input.len(), |i| pos + i);
        let set = if self.is_special() {
            &AsciiSet::SPECIAL_QUERY
        } else {
            &AsciiSet::QUERY
        };
        // Step 1: an encoding override applies to special URLs but ws: and wss:.
        let encoding = self.encoding.filter(|_| {
            self.is_special() && !matches!(self.scheme_type, SchemeType::Ws | SchemeType::Wss)
        });
        // The query is whole characters: it lies between ASCII delimiters.
        let query = encoding.and_then(|e| Some((e, std::str::from_utf8(&input[pos..end]).ok()?)));
        match query {
            Some((encoding, query)) => encode_after_encoding(encoding, query, set, &mut self.out),
            None => set.encode(&input[pos..end], &mut self.out),
        }
        if end < input.len() {
            self.fragment_state(end + 1)
        } else {
            Ok(())
        }
    }

    /// [Fragment state](https://url.spec.whatwg.org/#fragment-state).
    fn fragment_state(&mut self, pos: usize) -> Result<(), ParseError> {
        self.fragment_start = Some(self.out.len());
        self.out.push(b'#');
        AsciiSet::FRAGMENT.encode(&self.input[pos..], &mut self.out);
        Ok(())
    }
}
