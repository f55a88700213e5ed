//! The setters of the URL Standard's [`URL` class](https://url.spec.whatwg.org/#url-class),
//! `URL.canParse`, and the link between a [`Url`] and [`SearchParams`].
//!
//! A setter runs the standard's setter steps: the new component is parsed
//! as the [basic URL parser](https://url.spec.whatwg.org/#concept-basic-url-parser)
//! does with the setter's *state override* (scheme start, host, hostname,
//! port, path start, query or fragment state), and the URL is then
//! serialized again from its components ([`Parts::serialize`], the
//! [URL serializer](https://url.spec.whatwg.org/#concept-url-serializer)
//! with its offsets). That is linear in the URL's length. The new
//! serialization and the new component's encoding are written into
//! buffers reused on each thread ([`crate::scratch`]), and the URL's old
//! serialization goes back for the next call, so a setter called on every
//! line of a file (`normurl --set`) allocates nothing once they have grown.
//!
//! The override steps of the host, hostname, port, query, fragment and
//! scheme states are short and are written here; the path states, which
//! handle dot segments and Windows drive letters, are the parser's own,
//! run with the override ([`parser::path_with_override`]).

use std::borrow::Cow;
use std::cell::RefCell;
use std::fmt::Write;

use super::host::{parse_host, HostKind};
use super::parser;
use super::percent::AsciiSet;
use super::scheme::SchemeType;
use super::scratch::{Bytes, Text};
use super::simd::stop::{find, Stop};
use super::tables::{byte_table, has_tab_or_newline, SCHEME_CHAR};
use super::validate;
use crate::error::ParseError;
use crate::search_params::SearchParams;
use crate::url::Url;

/// The components of a URL record, each serialized (percent-encoded, the
/// host serialized), borrowed from a [`Url`] or from a setter's new value.
struct Parts<'a> {
    scheme: &'a str,
    username: &'a str,
    password: &'a str,
    /// `None` for a null host.
    host: Option<(&'a str, HostKind)>,
    port: Option<u16>,
    /// The path as [`Url::pathname`] gives it (without the `/.` prefix).
    path: &'a str,
    query: Option<&'a str>,
    fragment: Option<&'a str>,
}

impl<'a> Parts<'a> {
    fn of(url: &'a Url) -> Parts<'a> {
        Parts {
            scheme: url.scheme(),
            username: url.username(),
            password: url.password(),
            host: url.has_host().then(|| (url.hostname(), url.host_kind)),
            port: url.port,
            path: url.pathname(),
            query: url.query(),
            fragment: url.fragment(),
        }
    }

    /// The [URL serializer](https://url.spec.whatwg.org/#concept-url-serializer),
    /// recording the offsets of a [`Url`], in a string from the thread's
    /// pool. `None` when the serialization would not fit the `u32` offsets.
    fn serialize(&self) -> Option<Url> {
        let mut s = Text::new().into_string();
        s.reserve(
            self.scheme.len()
                + self.username.len()
                + self.password.len()
                + self.host.map_or(0, |(h, _)| h.len())
                + self.path.len()
                + self.query.map_or(0, str::len)
                + self.fragment.map_or(0, str::len)
                + 16,
        );
        s.push_str(self.scheme);
        let scheme_end = s.len();
        s.push(':');
        let (username_end, host_start, host_end, host_kind, port);
        match self.host {
            Some((host, kind)) => {
                s.push_str("//");
                s.push_str(self.username);
                username_end = s.len();
                if !self.password.is_empty() {
                    s.push(':');
                    s.push_str(self.password);
                }
                // "@" only if the URL includes credentials.
                if !self.username.is_empty() || !self.password.is_empty() {
                    s.push('@');
                }
                host_start = s.len();
                s.push_str(host);
                host_end = s.len();
                host_kind = kind;
                port = self.port;
                if let Some(port) = port {
                    s.push(':');
                    s.push_str(port_digits(port, &mut [0; 5]));
                }
            }
            None => {
                username_end = s.len();
                host_start = s.len();
                host_end = s.len();
                host_kind = HostKind::None;
                port = None;
                // "If url's host is null, url does not have an opaque path,
                // url's path's size is greater than 1, and url's path[0] is
                // the empty string, then append U+002F (/) followed by
                // U+002E (.) to output."
                if self.path.starts_with("//") {
                    s.push_str("/.");
                }
            }
        }
        let path_start = s.len();
        s.push_str(self.path);
        let query_start = self.query.map(|query| {
            let start = s.len();
            s.push('?');
            s.push_str(query);
            start
        });
        let fragment_start = self.fragment.map(|fragment| {
            let start = s.len();
            s.push('#');
            s.push_str(fragment);
            start
        });
        if s.len() > u32::MAX as usize {
            Text::recycle(s);
            return None;
        }
        let url = Url {
            scheme_type: SchemeType::from_lowercase(self.scheme.as_bytes()),
            serialization: s,
            scheme_end: scheme_end as u32,
            username_end: username_end as u32,
            host_start: host_start as u32,
            host_end: host_end as u32,
            port,
            path_start: path_start as u32,
            query_start: query_start.map(|q| q as u32),
            fragment_start: fragment_start.map(|f| f as u32),
            host_kind,
        };
        debug_assert_eq!(url.check_invariants(), Ok(()));
        Some(url)
    }
}

/// The input with every ASCII tab or newline removed, as the basic URL
/// parser does first. (With a URL given, as for every setter, it does not
/// trim C0 controls and spaces.)
fn without_tab_or_newline(input: &str) -> Cow<'_, str> {
    let bytes = input.as_bytes();
    // A setter's value is often a few bytes, where eight at a time in a
    // word costs less than setting up the vector scan.
    let found = if bytes.len() < 32 {
        short_has_tab_or_newline(bytes)
    } else {
        has_tab_or_newline(bytes)
    };
    if found {
        Cow::Owned(input.replace(['\t', '\n', '\r'], ""))
    } else {
        Cow::Borrowed(input)
    }
}

/// Whether `bytes` holds a tab or newline, eight bytes at a time.
fn short_has_tab_or_newline(bytes: &[u8]) -> bool {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
    // Whether a byte of `word` is zero.
    let has_zero = |word: u64| word.wrapping_sub(ONES) & !word & HIGHS != 0;
    let has = |word: u64| {
        has_zero(word ^ (ONES * u64::from(b'\t')))
            || has_zero(word ^ (ONES * u64::from(b'\n')))
            || has_zero(word ^ (ONES * u64::from(b'\r')))
    };
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0; 8];
        word.copy_from_slice(chunk);
        if has(u64::from_ne_bytes(word)) {
            return true;
        }
    }
    // The rest, fewer than eight bytes, one at a time (copying them into
    // a word costs a call to `memcpy`).
    chunks
        .remainder()
        .iter()
        .any(|&b| matches!(b, b'\t' | b'\n' | b'\r'))
}

/// `input` percent-encoded with `set`, in a buffer from the thread's
/// pool. The sets contain every non-ASCII byte, so the result is ASCII.
fn encode(set: &AsciiSet, input: &[u8]) -> Bytes {
    let mut out = Bytes::new();
    set.encode(input, &mut out);
    out
}

/// `input` as the query or fragment state writes it: tab and newline
/// removed, then percent-encoded with `set`. Most values hold none of
/// these bytes, which one vector scan for `stop`'s class (`set`, tabs and
/// newlines among them) says; they are taken as they are. Otherwise the
/// result is written into `buffer`.
#[inline(always)]
fn encoded<'a>(
    input: &'a str,
    stop: Stop,
    set: &AsciiSet,
    buffer: &'a mut Option<Bytes>,
) -> &'a str {
    if find(stop, input.as_bytes(), 0) == input.len() {
        return input;
    }
    let input = without_tab_or_newline(input);
    buffer.insert(encode(set, input.as_bytes())).text()
}

/// The [port state](https://url.spec.whatwg.org/#port-state) with *state
/// override*: the leading ASCII digits of `input` (the first other code
/// point ends the port). `Err(())` for failure (no digit, or a number
/// above 65535); `Ok(None)` for the scheme's default port, which is null.
fn port_with_override(input: &[u8], scheme_type: SchemeType) -> Result<Option<u16>, ()> {
    let digits = input.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 {
        return Err(());
    }
    let mut port: u32 = 0;
    for &d in &input[..digits] {
        port = port * 10 + u32::from(d - b'0');
        if port > 65535 {
            return Err(());
        }
    }
    let port = port as u16;
    Ok((scheme_type.default_port() != Some(port)).then_some(port))
}

/// The bytes that stop the [host state](https://url.spec.whatwg.org/#host-state)'s
/// scan of a setter's value (`:`, `/`, `?`, `#`), and the two that need
/// the whole loop (`[`, `\`).
static HOST_STATE_STOP: [bool; 256] =
    byte_table!(|b| matches!(b, b':' | b'/' | b'?' | b'#' | b'[' | b'\\'));

/// Where the [host state](https://url.spec.whatwg.org/#host-state) with
/// *state override* ends the host in a setter's value: at the end, or at
/// the first `/`, `?`, `#` (or `\` when `special`) as the first member,
/// or at the `:` outside brackets that starts a port, as the second.
fn host_state_end(bytes: &[u8], special: bool) -> (usize, Option<usize>) {
    let Some(first) = bytes.iter().position(|&b| HOST_STATE_STOP[usize::from(b)]) else {
        return (bytes.len(), None);
    };
    // The bytes before `first` are none of these.
    host_state_loop(bytes, special, first)
}

/// [`host_state_end`] by looking at each byte from `from` on (before it
/// there is no `[`).
fn host_state_loop(bytes: &[u8], special: bool, from: usize) -> (usize, Option<usize>) {
    let mut inside_brackets = false;
    for (i, &b) in bytes.iter().enumerate().skip(from) {
        match b {
            b':' if !inside_brackets => return (bytes.len(), Some(i)),
            b'/' | b'?' | b'#' => return (i, None),
            b'\\' if special => return (i, None),
            b'[' => inside_brackets = true,
            b']' => inside_brackets = false,
            _ => {}
        }
    }
    (bytes.len(), None)
}

/// `port` in decimal, written at the end of `buffer`.
fn port_digits(port: u16, buffer: &mut [u8; 5]) -> &str {
    let (mut n, mut start) = (port, buffer.len());
    loop {
        start -= 1;
        buffer[start] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    // Digits are ASCII.
    std::str::from_utf8(&buffer[start..]).unwrap_or_default()
}

/// The first offset of a [`Url`] that [`Url::splice`] moves, in the order
/// of the components.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Offset {
    /// `username_end`, `host_start`, `host_end` and everything after.
    UsernameEnd,
    /// `host_start`, `host_end` and everything after.
    HostStart,
    /// `host_end` and everything after.
    HostEnd,
    /// `path_start`, `query_start`, `fragment_start`.
    PathStart,
    /// `query_start`, `fragment_start`.
    QueryStart,
    /// `fragment_start` only.
    FragmentStart,
}

/// `f` called with the result of [host parsing](https://url.spec.whatwg.org/#concept-host-parser)
/// `buffer` (the host serialized, and its kind; `None` for a failure),
/// with *isOpaque* when the URL is not special.
///
/// The last answer on the thread is kept: a bulk edit (`--set
/// host=example.org`) gives every line the same value, and the host
/// parser (IDNA, IPv4 and IPv6 included) then runs once, not per line;
/// `f` reads the kept answer where it is. The answer depends on the bytes
/// and *isOpaque* alone.
fn with_host<R>(
    buffer: &[u8],
    special: bool,
    mut f: impl FnMut(Option<(&str, HostKind)>) -> R,
) -> R {
    thread_local! {
        static LAST: RefCell<LastHost> = const { RefCell::new(LastHost::EMPTY) };
    }
    // `f` runs once: with the kept answer, or below.
    let kept = LAST.try_with(|last| {
        // Not reentrant: a borrowed answer (or a thread being torn down)
        // falls back to parsing without keeping.
        let mut last = last.try_borrow_mut().ok()?;
        if !(last.filled && last.special == special && last.input == buffer) {
            if buffer.len() > 256 {
                return None;
            }
            let mut out = Bytes::new();
            last.answer = parse_host(buffer, !special, &mut out).ok();
            last.serialized.clear();
            last.serialized.push_str(out.text());
            last.input.clear();
            last.input.extend_from_slice(buffer);
            last.special = special;
            last.filled = true;
        }
        Some(f(last.answer.map(|kind| (last.serialized.as_str(), kind))))
    });
    if let Ok(Some(answer)) = kept {
        return answer;
    }
    let mut out = Bytes::new();
    let answer = parse_host(buffer, !special, &mut out).ok();
    f(answer.map(|kind| (out.text(), kind)))
}

/// The last value [`with_host`] parsed on the thread and its answer (a
/// failure is kept too).
struct LastHost {
    /// Whether the other fields hold an answer.
    filled: bool,
    input: Vec<u8>,
    special: bool,
    /// The host's kind; `None` for a failure.
    answer: Option<HostKind>,
    /// The serialized host.
    serialized: String,
}

impl LastHost {
    const EMPTY: LastHost = LastHost {
        filled: false,
        input: Vec::new(),
        special: false,
        answer: None,
        serialized: String::new(),
    };
}

impl Url {
    /// Replaces `range` of the serialization with the pieces of `with`,
    /// one after the other, in place, and
    /// moves by the change in length the offsets from `first` on (the
    /// components after the replaced one; the caller sets the replaced
    /// component's own offsets). False, with nothing changed, when the
    /// result would not fit the `u32` offsets (or `range` would cut a
    /// character, which a serialization, being ASCII, never has).
    ///
    /// This is the cheap way for a setter whose component is replaced
    /// whole and whose neighbours do not change (the fragment, the query,
    /// the port, the scheme when the port stays, the host and the path of
    /// a URL with a host), which are what bulk edits use most; the others
    /// serialize every component ([`Parts::serialize`]).
    fn splice(&mut self, range: std::ops::Range<usize>, with: &[&str], first: Offset) -> bool {
        let with_len: usize = with.iter().map(|piece| piece.len()).sum();
        let old_len = self.serialization.len();
        let len = old_len - range.len() + with_len;
        if len > u32::MAX as usize
            || !self.serialization.is_char_boundary(range.start)
            || !self.serialization.is_char_boundary(range.end)
        {
            return false;
        }
        // `String::replace_range` goes through `Vec::splice`, which copies
        // the new bytes one at a time (docs/performance.md, the cost of an
        // edit).
        // SAFETY: the bytes replaced run from a character boundary to a
        // character boundary (checked above) and the new ones are `str`s,
        // so the serialization stays UTF-8; no other path reads it before.
        let bytes = unsafe { self.serialization.as_mut_vec() };
        let (tail, new_tail) = (range.end, range.start + with_len);
        bytes.reserve(len.saturating_sub(old_len));
        // SAFETY: the capacity is at least `len`. The tail moves within
        // it, and the pieces (which cannot borrow from `self`) fill the
        // bytes from `range.start` to the tail's new start, so every byte
        // below `len` is written before the length says so.
        unsafe {
            let base = bytes.as_mut_ptr();
            std::ptr::copy(base.add(tail), base.add(new_tail), old_len - tail);
            let mut at = range.start;
            for piece in with {
                std::ptr::copy_nonoverlapping(piece.as_ptr(), base.add(at), piece.len());
                at += piece.len();
            }
            bytes.set_len(len);
        }
        let delta = with_len as i64 - range.len() as i64;
        let moved = |offset: u32| (i64::from(offset) + delta) as u32;
        if first <= Offset::UsernameEnd {
            self.username_end = moved(self.username_end);
        }
        if first <= Offset::HostStart {
            self.host_start = moved(self.host_start);
        }
        if first <= Offset::HostEnd {
            self.host_end = moved(self.host_end);
        }
        if first <= Offset::PathStart {
            self.path_start = moved(self.path_start);
        }
        if first <= Offset::QueryStart {
            self.query_start = self.query_start.map(moved);
        }
        self.fragment_start = self.fragment_start.map(moved);
        true
    }

    /// Where the query is, or would be inserted: its `?` up to the `#` or
    /// the end.
    fn query_range(&self) -> std::ops::Range<usize> {
        let end = self
            .fragment_start
            .map_or(self.serialization.len(), |f| f as usize);
        self.query_start.map_or(end, |q| q as usize)..end
    }

    /// Stores a URL [`Parts::serialize`] returned in `self`; false (and
    /// `self` unchanged) for `None`, a serialization too long for the
    /// offsets.
    fn store(&mut self, url: Option<Url>) -> bool {
        match url {
            Some(url) => {
                let old = std::mem::replace(self, url);
                Text::recycle(old.serialization);
                true
            }
            None => false,
        }
    }

    /// [Includes credentials](https://url.spec.whatwg.org/#include-credentials):
    /// the username or the password is not empty.
    fn includes_credentials(&self) -> bool {
        !self.username().is_empty() || !self.password().is_empty()
    }

    /// [Cannot have a username/password/port](https://url.spec.whatwg.org/#cannot-have-a-username-password-port):
    /// the host is null or empty, or the scheme is `file`.
    fn cannot_have_username_password_port(&self) -> bool {
        matches!(self.host_kind, HostKind::None | HostKind::Empty)
            || self.scheme_type == SchemeType::File
    }

    /// The [`href` setter](https://url.spec.whatwg.org/#dom-url-href):
    /// `value` parsed (without base) replaces the URL. An invalid URL is an
    /// error, as the standard throws a `TypeError`, and leaves `self` as
    /// it was.
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_url::{ParseError, Url};
    ///
    /// let mut url = Url::parse("https://example.com/")?;
    /// url.set_href("HTTP://Other.example/./a")?;
    /// assert_eq!(url.href(), "http://other.example/a");
    /// assert_eq!(url.set_href("/relative"), Err(ParseError::RelativeUrlWithoutBase));
    /// assert_eq!(url.href(), "http://other.example/a");
    /// # Ok::<(), ParseError>(())
    /// ```
    pub fn set_href(&mut self, value: &str) -> Result<(), ParseError> {
        *self = Url::parse(value)?;
        Ok(())
    }

    /// The [`protocol` setter](https://url.spec.whatwg.org/#dom-url-protocol):
    /// `value` followed by `:`, parsed from the scheme start state with
    /// *state override*. The scheme is what precedes the first `:` (the
    /// rest is ignored); the URL is unchanged (false) when that is not a
    /// valid scheme, when it would switch between a
    /// [special](https://url.spec.whatwg.org/#special-scheme) and a
    /// non-special scheme, when it is `file` and the URL has credentials or
    /// a port, or when the URL is `file:` with an empty host. A port equal
    /// to the new scheme's default port becomes null.
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_url::Url;
    ///
    /// let mut url = Url::parse("http://example.com:443/")?;
    /// assert!(url.set_protocol("HTTPS:ignored"));
    /// assert_eq!(url.href(), "https://example.com/");
    /// assert!(!url.set_protocol("web+demo"));
    /// assert_eq!(url.href(), "https://example.com/");
    /// # Ok::<(), normurl_url::ParseError>(())
    /// ```
    pub fn set_protocol(&mut self, value: &str) -> bool {
        let input = without_tab_or_newline(value);
        let bytes = input.as_bytes();
        // Scheme start state: "If c is an ASCII alpha ... Otherwise, return failure."
        if !bytes.first().is_some_and(u8::is_ascii_alphabetic) {
            return false;
        }
        // Scheme state, on `input` followed by the `:` the setter appends.
        let end = bytes
            .iter()
            .position(|&b| !SCHEME_CHAR[b as usize])
            .unwrap_or(bytes.len());
        if end < bytes.len() && bytes[end] != b':' {
            return false;
        }
        let lowercase;
        let scheme = if bytes[..end].iter().any(u8::is_ascii_uppercase) {
            let mut buffer = Bytes::new();
            buffer.extend(bytes[..end].iter().map(u8::to_ascii_lowercase));
            lowercase = buffer;
            lowercase.text()
        } else {
            &input[..end]
        };
        let scheme_type = SchemeType::from_lowercase(scheme.as_bytes());
        if self.scheme_type.is_special() != scheme_type.is_special()
            || (scheme_type == SchemeType::File
                && (self.includes_credentials() || self.port.is_some()))
            || (self.scheme_type == SchemeType::File && self.host_kind == HostKind::Empty)
        {
            return false;
        }
        // "If url's port is url's scheme's default port, then set url's port to null."
        let port = self.port.filter(|&p| scheme_type.default_port() != Some(p));
        if port == self.port {
            let end = self.scheme_end as usize;
            if !self.splice(0..end, &[scheme], Offset::UsernameEnd) {
                return false;
            }
            self.scheme_end = scheme.len() as u32;
            self.scheme_type = scheme_type;
            debug_assert_eq!(self.check_invariants(), Ok(()));
            return true;
        }
        let mut parts = Parts::of(self);
        parts.scheme = scheme;
        parts.port = port;
        let url = parts.serialize();
        self.store(url)
    }

    /// The [`username` setter](https://url.spec.whatwg.org/#dom-url-username):
    /// `value` percent-encoded with the userinfo percent-encode set becomes
    /// the username, unless the URL
    /// [cannot have a username/password/port](https://url.spec.whatwg.org/#cannot-have-a-username-password-port)
    /// (its host is null or empty, or it is a `file:` URL): false then.
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_url::Url;
    ///
    /// let mut url = Url::parse("https://example.com/")?;
    /// assert!(url.set_username("me@home"));
    /// assert_eq!(url.href(), "https://me%40home@example.com/");
    /// assert!(!Url::parse("file:///tmp")?.set_username("me"));
    /// # Ok::<(), normurl_url::ParseError>(())
    /// ```
    pub fn set_username(&mut self, value: &str) -> bool {
        if self.cannot_have_username_password_port() {
            return false;
        }
        let username = encode(&AsciiSet::USERINFO, value.as_bytes());
        let username = username.text();
        // The credentials sit between the `//` and the host: the username,
        // `:` and the password when it is not empty, and `@` when either
        // is not empty.
        let start = self.scheme_end as usize + "://".len();
        let (range, at) = if self.password().is_empty() {
            let at = if username.is_empty() { "" } else { "@" };
            (start..self.host_start as usize, at)
        } else {
            (start..self.username_end as usize, "")
        };
        if !self.splice(range, &[username, at], Offset::UsernameEnd) {
            return false;
        }
        self.username_end = (start + username.len()) as u32;
        debug_assert_eq!(self.check_invariants(), Ok(()));
        true
    }

    /// The [`password` setter](https://url.spec.whatwg.org/#dom-url-password):
    /// as [`Url::set_username`], for the password.
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_url::Url;
    ///
    /// let mut url = Url::parse("https://me@example.com/")?;
    /// assert!(url.set_password("p:w"));
    /// assert_eq!(url.href(), "https://me:p%3Aw@example.com/");
    /// assert!(url.set_password(""));
    /// assert_eq!(url.href(), "https://me@example.com/");
    /// # Ok::<(), normurl_url::ParseError>(())
    /// ```
    pub fn set_password(&mut self, value: &str) -> bool {
        if self.cannot_have_username_password_port() {
            return false;
        }
        let password = encode(&AsciiSet::USERINFO, value.as_bytes());
        let password = password.text();
        // Between the username and the host: `:` and the password when it
        // is not empty, and `@` when it or the username is not empty.
        let (colon, at) = match (password.is_empty(), self.username().is_empty()) {
            (true, true) => ("", ""),
            (true, false) => ("", "@"),
            (false, _) => (":", "@"),
        };
        let range = self.username_end as usize..self.host_start as usize;
        if !self.splice(range, &[colon, password, at], Offset::HostStart) {
            return false;
        }
        debug_assert_eq!(self.check_invariants(), Ok(()));
        true
    }

    /// The [`host` setter](https://url.spec.whatwg.org/#dom-url-host):
    /// `value` parsed from the host state with *state override*. The host
    /// ends at the first `/`, `?`, `#` (or `\` for special URLs); a `:`
    /// outside brackets starts a port, whose leading digits are taken.
    ///
    /// False, with the URL unchanged, for a URL with an opaque path and
    /// where the host is invalid, or empty for a special URL (or for one
    /// with credentials or a port). When the host is valid but the port is
    /// not (no digit after the `:`, or above 65535), the standard sets the
    /// host and leaves the port as it was: true then. Without a port in
    /// `value` the port is kept. For `file:` URLs there is no port:
    /// `value` goes through the file host state, where `localhost` is the
    /// empty host.
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_url::Url;
    ///
    /// let mut url = Url::parse("https://example.com:8080/a")?;
    /// assert!(url.set_host("EXAMPLE.org:443/ignored"));
    /// assert_eq!(url.href(), "https://example.org/a");
    /// assert!(url.set_host("example.net"));
    /// assert_eq!(url.href(), "https://example.net/a");
    /// assert!(!url.set_host("exa mple"));
    /// assert!(!Url::parse("mailto:me@example.com")?.set_host("example.org"));
    /// # Ok::<(), normurl_url::ParseError>(())
    /// ```
    pub fn set_host(&mut self, value: &str) -> bool {
        self.set_host_with_override(value, false)
    }

    /// The [`hostname` setter](https://url.spec.whatwg.org/#dom-url-hostname):
    /// as [`Url::set_host`] from the hostname state, where a `:` outside
    /// brackets is a failure (false) instead of starting a port.
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_url::Url;
    ///
    /// let mut url = Url::parse("http://example.com:8080/")?;
    /// assert!(url.set_hostname("[::1]"));
    /// assert_eq!(url.href(), "http://[::1]:8080/");
    /// assert!(!url.set_hostname("example.com:80"));
    /// assert_eq!(url.href(), "http://[::1]:8080/");
    /// # Ok::<(), normurl_url::ParseError>(())
    /// ```
    pub fn set_hostname(&mut self, value: &str) -> bool {
        self.set_host_with_override(value, true)
    }

    /// The host and hostname setters: the [host state](https://url.spec.whatwg.org/#host-state)
    /// (or hostname state) with *state override*.
    fn set_host_with_override(&mut self, value: &str, hostname_state: bool) -> bool {
        if self.has_opaque_path() {
            return false;
        }
        let input = without_tab_or_newline(value);
        let bytes = input.as_bytes();
        let special = self.scheme_type.is_special();
        if self.scheme_type == SchemeType::File {
            return self.set_file_host(bytes);
        }
        let (mut end, colon) = host_state_end(bytes, special);
        let port = match colon {
            Some(colon) => {
                // "If buffer is the empty string, host-missing validation
                // error, return failure. If state override is given and
                // state override is hostname state, then return failure."
                if colon == 0 || hostname_state {
                    return false;
                }
                end = colon;
                // The host is set before the port state runs, so that a
                // port failure leaves the new host in place.
                port_with_override(&bytes[colon + 1..], self.scheme_type).ok()
            }
            None => {
                if end == 0 && (special || self.includes_credentials() || self.port.is_some()) {
                    return false;
                }
                None
            }
        };
        with_host(&bytes[..end], special, |host| match host {
            Some((host, kind)) => self.put_host(host, kind, port),
            None => false,
        })
    }

    /// The host set to `host` (serialized), and the port to `port` when it
    /// is `Some`.
    fn put_host(&mut self, host: &str, kind: HostKind, port: Option<Option<u16>>) -> bool {
        if self.has_host() && port.is_none() {
            return self.replace_host(host, kind);
        }
        let mut parts = Parts::of(self);
        parts.host = Some((host, kind));
        if let Some(port) = port {
            parts.port = port;
        }
        let url = parts.serialize();
        self.store(url)
    }

    /// The [file host state](https://url.spec.whatwg.org/#file-host-state)
    /// with *state override*: the host ends at the first `/`, `\`, `?` or
    /// `#`; empty or `localhost` is the empty host.
    fn set_file_host(&mut self, bytes: &[u8]) -> bool {
        let end = bytes
            .iter()
            .position(|&b| matches!(b, b'/' | b'\\' | b'?' | b'#'))
            .unwrap_or(bytes.len());
        let buffer = &bytes[..end];
        if buffer.is_empty() {
            return self.put_host("", HostKind::Empty, None);
        }
        with_host(buffer, true, |host| match host {
            Some(("localhost", _)) => self.put_host("", HostKind::Empty, None),
            Some((host, kind)) => self.put_host(host, kind, None),
            None => false,
        })
    }

    /// The host of a URL that has one replaced in place: it sits between
    /// the `//` (and the credentials' `@`) and the port or the path.
    fn replace_host(&mut self, host: &str, kind: HostKind) -> bool {
        let range = self.host_start as usize..self.host_end as usize;
        if !self.splice(range, &[host], Offset::HostEnd) {
            return false;
        }
        self.host_end = self.host_start + host.len() as u32;
        self.host_kind = kind;
        debug_assert_eq!(self.check_invariants(), Ok(()));
        true
    }

    /// The [`port` setter](https://url.spec.whatwg.org/#dom-url-port): the
    /// empty string makes the port null; otherwise the leading digits of
    /// `value` are the port (null if it is the scheme's default port).
    /// False, with the URL unchanged, when the URL
    /// [cannot have a username/password/port](https://url.spec.whatwg.org/#cannot-have-a-username-password-port),
    /// when `value` does not start with a digit, or when the number is
    /// above 65535.
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_url::Url;
    ///
    /// let mut url = Url::parse("http://example.com/")?;
    /// assert!(url.set_port("8080 and more"));
    /// assert_eq!(url.href(), "http://example.com:8080/");
    /// assert!(url.set_port("80"));
    /// assert_eq!(url.href(), "http://example.com/");
    /// assert!(!url.set_port("65536"));
    /// # Ok::<(), normurl_url::ParseError>(())
    /// ```
    pub fn set_port(&mut self, value: &str) -> bool {
        if self.cannot_have_username_password_port() {
            return false;
        }
        let port = if value.is_empty() {
            None
        } else {
            let input = without_tab_or_newline(value);
            match port_with_override(input.as_bytes(), self.scheme_type) {
                Ok(port) => port,
                Err(()) => return false,
            }
        };
        // The port sits between the host and the path, as `:PORT` or not
        // at all.
        let mut digits = [0; 5];
        let text = port.map_or("", |port| port_digits(port, &mut digits));
        let colon = if port.is_some() { ":" } else { "" };
        let range = self.host_end as usize..self.path_start as usize;
        if !self.splice(range, &[colon, text], Offset::PathStart) {
            return false;
        }
        self.port = port;
        debug_assert_eq!(self.check_invariants(), Ok(()));
        true
    }

    /// The [`pathname` setter](https://url.spec.whatwg.org/#dom-url-pathname):
    /// the path is emptied and `value` parsed from the path start state
    /// with *state override* (dot segments resolved, `?` and `#`
    /// percent-encoded as part of the path). False, with the URL unchanged,
    /// for a URL with an opaque path.
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_url::Url;
    ///
    /// let mut url = Url::parse("https://example.com/old?q#f")?;
    /// assert!(url.set_pathname("a/./b/../c d?#"));
    /// assert_eq!(url.href(), "https://example.com/a/c%20d%3F%23?q#f");
    /// let mut url = Url::parse("web+demo:/x")?;
    /// assert!(url.set_pathname("//not-a-host"));
    /// assert_eq!(url.href(), "web+demo:/.//not-a-host");
    /// assert!(!Url::parse("mailto:me@example.com")?.set_pathname("/x"));
    /// # Ok::<(), normurl_url::ParseError>(())
    /// ```
    pub fn set_pathname(&mut self, value: &str) -> bool {
        if self.has_opaque_path() {
            return false;
        }
        // A value that is a path as the parser writes it comes out of the
        // path states unchanged: it starts with `/`, and the fast path's
        // scan (`Stop::Path`) finds no byte to encode, no tab or newline,
        // no `\` or `|`, and no `/.` or `/%` (a possible dot segment). With
        // a host there is no `/.` before the path. A `file:` URL's first
        // segment may be a Windows drive letter, which the path state
        // writes with `:` (`|` is a stop already): one with a `:` as its
        // second byte is left to the path states.
        let parsed;
        let path = if self.has_host()
            && value.starts_with('/')
            && (self.scheme_type != SchemeType::File || value.as_bytes().get(2) != Some(&b':'))
            && find(Stop::Path, value.as_bytes(), 0) == value.len()
        {
            value
        } else {
            let mut path = Bytes::new();
            parser::path_with_override(
                self.scheme_type,
                self.host_kind,
                value.as_bytes(),
                &mut path,
            );
            parsed = path;
            parsed.text()
        };
        if self.has_host() {
            // With a host there is no `/.` before the path to add or drop:
            // the path is replaced in place.
            let range = self.path_start as usize..self.query_range().start;
            if !self.splice(range, &[path], Offset::QueryStart) {
                return false;
            }
            debug_assert_eq!(self.check_invariants(), Ok(()));
            return true;
        }
        let mut parts = Parts::of(self);
        parts.path = path;
        let url = parts.serialize();
        self.store(url)
    }

    /// Appends `segment` to the path as one more segment, after a `/`
    /// unless the path ends with one (`normurl --append path=SEGMENT`): a
    /// `/` in `segment` is written `%2F`, and a `\` `%5C` in a special URL,
    /// where it is a separator; the rest is written as the
    /// [`pathname` setter](Url::set_pathname) writes it (percent-encoded
    /// with the path percent-encode set, a `%` kept; `.` and `..` are dot
    /// segments). False, with the URL unchanged, for a URL with an opaque
    /// path.
    ///
    /// A segment with nothing to encode is written after the path in
    /// place; the others go through the pathname setter with the whole
    /// new path.
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_url::Url;
    ///
    /// let mut url = Url::parse("https://example.com/a?q")?;
    /// assert!(url.push_path_segment("b c"));
    /// assert!(url.push_path_segment("d/e"));
    /// assert_eq!(url.href(), "https://example.com/a/b%20c/d%2Fe?q");
    /// assert!(url.push_path_segment(".."));
    /// assert_eq!(url.href(), "https://example.com/a/b%20c/?q");
    /// assert!(!Url::parse("mailto:me@example.com")?.push_path_segment("x"));
    /// # Ok::<(), normurl_url::ParseError>(())
    /// ```
    pub fn push_path_segment(&mut self, segment: &str) -> bool {
        if self.has_opaque_path() {
            return false;
        }
        let slash = if self.pathname().ends_with('/') {
            ""
        } else {
            "/"
        };
        let bytes = segment.as_bytes();
        // With a host there is no `/.` before the path to add or drop. A
        // segment that neither starts with `.` or `%` (a possible dot
        // segment) nor holds a `/` or a byte the path states change (the
        // `Stop::Path` scan: bytes to encode, tab and newline, `\`, `|`,
        // which a `file:` drive letter may hold) is written as it is, and
        // the path before it parses to itself.
        if self.has_host()
            && !matches!(bytes.first(), Some(b'.' | b'%'))
            && memchr::memchr(b'/', bytes).is_none()
            && find(Stop::Path, bytes, 0) == bytes.len()
        {
            let end = self.query_range().start;
            if !self.splice(end..end, &[slash, segment], Offset::QueryStart) {
                return false;
            }
            debug_assert_eq!(self.check_invariants(), Ok(()));
            return true;
        }
        let mut path = Text::new();
        path.push_str(self.pathname());
        path.push_str(slash);
        let special = self.scheme_type.is_special();
        for c in segment.chars() {
            match c {
                '/' => path.push_str("%2F"),
                '\\' if special => path.push_str("%5C"),
                c => path.push(c),
            }
        }
        self.set_pathname(&path)
    }

    /// The [`search` setter](https://url.spec.whatwg.org/#dom-url-search):
    /// the empty string makes the query null; otherwise `value` without
    /// one leading `?` is the query, percent-encoded with the (special-)query
    /// percent-encode set (`#` included). Always true.
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_url::Url;
    ///
    /// let mut url = Url::parse("https://example.com/p#f")?;
    /// assert!(url.set_search("?a=b c#d"));
    /// assert_eq!(url.href(), "https://example.com/p?a=b%20c%23d#f");
    /// assert!(url.set_search(""));
    /// assert_eq!(url.href(), "https://example.com/p#f");
    /// # Ok::<(), normurl_url::ParseError>(())
    /// ```
    pub fn set_search(&mut self, value: &str) -> bool {
        if value.is_empty() {
            return self.replace_query(None);
        }
        let input = value.strip_prefix('?').unwrap_or(value);
        let set = if self.scheme_type.is_special() {
            &AsciiSet::SPECIAL_QUERY
        } else {
            &AsciiSet::QUERY
        };
        // `Stop::Query` is the special-query set, a superset of the query
        // set: a `'` in a non-special URL's value only takes the encoding
        // pass, which leaves it.
        let mut buffer = None;
        self.replace_query(Some(encoded(input, Stop::Query, set, &mut buffer)))
    }

    /// The query replaced in place by `with` (serialized, without its
    /// `?`; `None` for a null query). False, with nothing changed, when
    /// the result would not fit the offsets.
    fn replace_query(&mut self, with: Option<&str>) -> bool {
        let range = self.query_range();
        let start = range.start as u32;
        let pieces = match with {
            Some(query) => ["?", query],
            None => ["", ""],
        };
        if !self.splice(range, &pieces, Offset::FragmentStart) {
            return false;
        }
        self.query_start = with.is_some().then_some(start);
        debug_assert_eq!(self.check_invariants(), Ok(()));
        true
    }

    /// The [`hash` setter](https://url.spec.whatwg.org/#dom-url-hash): the
    /// empty string makes the fragment null; otherwise `value` without one
    /// leading `#` is the fragment, percent-encoded with the fragment
    /// percent-encode set. Always true.
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_url::Url;
    ///
    /// let mut url = Url::parse("https://example.com/p?q")?;
    /// assert!(url.set_hash("#top <1>"));
    /// assert_eq!(url.href(), "https://example.com/p?q#top%20%3C1%3E");
    /// assert!(url.set_hash(""));
    /// assert_eq!(url.href(), "https://example.com/p?q");
    /// # Ok::<(), normurl_url::ParseError>(())
    /// ```
    pub fn set_hash(&mut self, value: &str) -> bool {
        let mut buffer = None;
        let fragment = (!value.is_empty()).then(|| {
            let input = value.strip_prefix('#').unwrap_or(value);
            encoded(input, Stop::Fragment, &AsciiSet::FRAGMENT, &mut buffer)
        });
        let len = self.serialization.len();
        let start = self.fragment_start.map_or(len, |f| f as usize);
        if start + fragment.map_or(0, |f| f.len() + 1) > u32::MAX as usize {
            return false;
        }
        self.serialization.truncate(start);
        self.fragment_start = fragment.map(|fragment| {
            self.serialization.push('#');
            self.serialization.push_str(fragment);
            start as u32
        });
        debug_assert_eq!(self.check_invariants(), Ok(()));
        true
    }

    /// The URL's query as [`SearchParams`]: what `url.searchParams` holds,
    /// the query parsed as `application/x-www-form-urlencoded` (no pairs
    /// for a null query). A copy: change it and store it with
    /// [`Url::set_search_params`].
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_url::Url;
    ///
    /// let url = Url::parse("https://example.com/?q=a+b&q=%C3%A9&x")?;
    /// let params = url.search_params();
    /// assert_eq!(params.get_all("q"), ["a b", "é"]);
    /// assert!(params.has("x", Some("")));
    /// # Ok::<(), normurl_url::ParseError>(())
    /// ```
    pub fn search_params(&self) -> SearchParams {
        SearchParams::from_query(self.query().unwrap_or(""))
    }

    /// Sets the query to `params` serialized, as the
    /// [URLSearchParams update steps](https://url.spec.whatwg.org/#concept-urlsearchparams-update)
    /// do: no pairs make the query null (no `?`).
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_url::Url;
    ///
    /// let mut url = Url::parse("https://example.com/?b=2&a=1 ~#f")?;
    /// let mut params = url.search_params();
    /// params.sort();
    /// url.set_search_params(&params);
    /// assert_eq!(url.href(), "https://example.com/?a=1+%7E&b=2#f");
    /// params.delete("a", None);
    /// params.delete("b", None);
    /// url.set_search_params(&params);
    /// assert_eq!(url.href(), "https://example.com/#f");
    /// # Ok::<(), normurl_url::ParseError>(())
    /// ```
    pub fn set_search_params(&mut self, params: &SearchParams) {
        let mut text = Text::new();
        let _ = write!(text, "{params}");
        self.replace_query((!params.is_empty()).then_some(&text));
    }

    /// [`URL.canParse(input, base)`](https://url.spec.whatwg.org/#dom-url-canparse):
    /// whether `input` parses against `base` (which is parsed first; an
    /// invalid base gives false), exactly when [`Url::parse`] /
    /// [`Url::parse_with_base`] would succeed.
    ///
    /// Most inputs are answered from their scheme and authority alone,
    /// without writing the URL out and without allocating (`validate.rs`
    /// says which: an absolute URL whose host is ASCII without `%` or
    /// `[`, and no tab or newline before the path). The others are parsed
    /// into a per-thread scratch `Url` pair, so once its buffers have
    /// grown this allocates no more than [`Url::parse_into`] does: nothing
    /// for inputs with an ASCII host and no tab or newline. Debug builds
    /// check every answer of the first kind against the parser.
    ///
    /// # Example
    ///
    /// ```
    /// use normurl_url::Url;
    ///
    /// assert!(Url::can_parse("https://example.com/", None));
    /// assert!(!Url::can_parse("/path", None));
    /// assert!(Url::can_parse("/path", Some("https://example.com/")));
    /// assert!(!Url::can_parse("/path", Some("not a base")));
    /// ```
    pub fn can_parse(input: &str, base: Option<&str>) -> bool {
        let answer = match base {
            None => validate::without_base(input.as_bytes()),
            Some(base) => validate::with_base(input.as_bytes(), base.as_bytes()),
        };
        match answer {
            Some(answer) => {
                if cfg!(debug_assertions) {
                    assert_eq!(
                        answer,
                        Url::can_parse_by_parsing(input, base),
                        "validate.rs answered {input:?} against {base:?}"
                    );
                }
                answer
            }
            None => Url::can_parse_by_parsing(input, base),
        }
    }

    /// [`Url::can_parse`] by running the parser.
    fn can_parse_by_parsing(input: &str, base: Option<&str>) -> bool {
        thread_local! {
            static SCRATCH: RefCell<(Url, Url)> = RefCell::new((Url::empty(), Url::empty()));
        }
        fn check(url: &mut Url, base_url: &mut Url, input: &str, base: Option<&str>) -> bool {
            match base {
                None => url.parse_into(input, None).is_ok(),
                Some(base) => {
                    base_url.parse_into(base, None).is_ok()
                        && url.parse_into(input, Some(base_url)).is_ok()
                }
            }
        }
        SCRATCH
            .try_with(|scratch| {
                // Not reentrant, but a borrowed scratch (or a thread being
                // torn down) falls back to fresh URLs rather than panicking.
                match scratch.try_borrow_mut() {
                    Ok(mut scratch) => {
                        let (url, base_url) = &mut *scratch;
                        check(url, base_url, input, base)
                    }
                    Err(_) => check(&mut Url::empty(), &mut Url::empty(), input, base),
                }
            })
            .unwrap_or_else(|_| check(&mut Url::empty(), &mut Url::empty(), input, base))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(input: &str, special: bool) -> Option<(String, HostKind)> {
        with_host(input.as_bytes(), special, |host| {
            host.map(|(host, kind)| (host.to_owned(), kind))
        })
    }

    #[test]
    fn the_kept_host_answer_depends_on_the_bytes_and_opaqueness() {
        let domain = Some(("a".to_owned(), HostKind::Domain));
        let opaque = Some(("%41".to_owned(), HostKind::Opaque));
        // The empty input first: an opaque host may be empty, and the
        // first call must not match an unfilled cache.
        assert_eq!(parsed("", false), Some((String::new(), HostKind::Empty)));
        assert_eq!(parsed("", true), None);
        assert_eq!(parsed("", false), Some((String::new(), HostKind::Empty)));
        for _ in 0..2 {
            assert_eq!(parsed("%41", true), domain);
            assert_eq!(parsed("%41", true), domain);
            assert_eq!(parsed("%41", false), opaque);
            assert_eq!(parsed("%41", false), opaque);
        }
        // A failure is kept and given again; the next value is parsed.
        assert_eq!(parsed("exa mple", true), None);
        assert_eq!(parsed("exa mple", true), None);
        assert_eq!(
            parsed("EXAMPLE.org", true),
            Some(("example.org".to_owned(), HostKind::Domain))
        );
        assert_eq!(
            parsed("EXAMPLE.org", true),
            Some(("example.org".to_owned(), HostKind::Domain))
        );
        assert_eq!(
            parsed("1.2.3.4", true),
            Some(("1.2.3.4".to_owned(), HostKind::Ipv4))
        );
        assert_eq!(
            parsed("1.2.3.4", false),
            Some(("1.2.3.4".to_owned(), HostKind::Opaque))
        );
    }

    #[test]
    fn short_tab_or_newline_scan_matches_a_byte_loop() {
        for len in 0..40 {
            for at in 0..=len {
                for b in 0..=255u8 {
                    let mut bytes = vec![b'a'; len];
                    if at < len {
                        bytes[at] = b;
                    }
                    let expected = bytes.iter().any(|&b| matches!(b, b'\t' | b'\n' | b'\r'));
                    assert_eq!(short_has_tab_or_newline(&bytes), expected, "{bytes:?}");
                }
            }
        }
    }

    #[test]
    fn port_digits_are_the_decimal_port() {
        for port in 0..=u16::MAX {
            assert_eq!(port_digits(port, &mut [0; 5]), port.to_string());
        }
    }

    #[test]
    fn host_state_end_matches_the_loop() {
        // Every string of up to four bytes over the bytes that matter.
        let alphabet = b"a:/?#\\[]";
        let mut inputs = vec![Vec::new()];
        for _ in 0..4 {
            let longer: Vec<Vec<u8>> = inputs
                .iter()
                .flat_map(|s| alphabet.iter().map(move |&b| [s.as_slice(), &[b]].concat()))
                .collect();
            inputs.extend(longer);
        }
        for input in &inputs {
            for special in [false, true] {
                assert_eq!(
                    host_state_end(input, special),
                    host_state_loop(input, special, 0),
                    "{:?}",
                    String::from_utf8_lossy(input)
                );
            }
        }
    }

    /// The pathname setter the long way: the path states on `value`, and
    /// every component serialized again.
    fn set_pathname_by_parsing(url: &Url, value: &str) -> String {
        let mut path = Bytes::new();
        parser::path_with_override(url.scheme_type, url.host_kind, value.as_bytes(), &mut path);
        let mut parts = Parts::of(url);
        parts.path = path.text();
        parts.serialize().expect("short").href().to_owned()
    }

    #[test]
    fn the_pathname_fast_way_gives_what_the_path_states_give() {
        let urls = [
            "http://h/",
            "http://h/a",
            "http://h/a/",
            "http://h/%2/x?q#f",
            "http://h/a%2",
            "https://h/a/b?q",
            "foo://h",
            "foo://h/a\\b",
            "foo://h/a/#f",
            "file:///",
            "file://h/a",
            "file:///C:/a",
        ];
        let more = [
            "", "x", "/x", ".", "..", "/.", "/..", "%2e", "/%2e", "e", "/%2E%2e", ".x", "/x/",
            "//", "/ x", "/?", "/#", "/\\", "/|", "/C:", "C:", "C|", "/é", "\tx", "/x\n",
        ];
        for url in urls {
            let url = Url::parse(url).unwrap();
            for value in more
                .iter()
                .map(|m| format!("{}{m}", url.pathname()))
                .chain(more.iter().map(|m| (*m).to_owned()))
            {
                let mut fast = url.clone();
                assert!(fast.set_pathname(&value));
                assert_eq!(
                    fast.href(),
                    set_pathname_by_parsing(&url, &value),
                    "{} with {value:?}",
                    url.href()
                );
            }
        }
    }

    #[test]
    fn a_pushed_segment_is_what_the_pathname_setter_makes_of_it() {
        let urls = [
            "http://h/",
            "http://h/a",
            "http://h/a%2/?q#f",
            "foo://h",
            "foo://h/a/#f",
            "foo:/a",
            "file:///",
            "file://h/C:",
            "mailto:x",
        ];
        let segments = [
            "", "x", "e", ".", "..", "%2e", ".x", "%41", "a b", "a/b", "a\\b", "?", "#", "|", "C:",
            "C|", "é", "\tx", "x/",
        ];
        for url in urls {
            let url = Url::parse(url).unwrap();
            for segment in segments {
                let mut pushed = url.clone();
                let done = pushed.push_path_segment(segment);
                let mut expected = url.clone();
                let mut path = url.pathname().to_owned();
                if !path.ends_with('/') {
                    path.push('/');
                }
                path.push_str(&segment.replace('/', "%2F"));
                if url.scheme_type.is_special() {
                    path = path.replace('\\', "%5C");
                }
                assert_eq!(done, expected.set_pathname(&path), "{url:?} {segment:?}");
                assert_eq!(pushed.href(), expected.href(), "{segment:?}");
            }
        }
    }

    #[test]
    fn credentials_in_place_give_what_serializing_gives() {
        let urls = [
            "http://h/",
            "http://u@h/",
            "http://:p@h/",
            "http://u:p@h:8/p?q#f",
            "foo://u@h",
        ];
        for url in urls {
            let url = Url::parse(url).unwrap();
            for value in ["", "x", "a b@:"] {
                let encoded = encode(&AsciiSet::USERINFO, value.as_bytes());
                let mut fast = url.clone();
                assert!(fast.set_username(value));
                let mut parts = Parts::of(&url);
                parts.username = encoded.text();
                assert_eq!(fast.href(), parts.serialize().unwrap().href(), "{url:?}");
                let mut fast = url.clone();
                assert!(fast.set_password(value));
                let mut parts = Parts::of(&url);
                parts.password = encoded.text();
                assert_eq!(fast.href(), parts.serialize().unwrap().href(), "{url:?}");
            }
        }
    }
}
