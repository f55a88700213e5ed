//! What to do with bytes that are not UTF-8, before parsing.
//!
//! The URL parser takes a string; real dumps contain Latin-1 and broken
//! bytes. The default never changes such bytes silently: it writes each as
//! `%XX`, which is what a browser sends for them anyway, keeps the bytes
//! recoverable, and is idempotent (the result is ASCII there).

use std::fmt;
use std::str::FromStr;

/// The policy for bytes that are not valid UTF-8.
///
/// # Example
///
/// ```
/// use normurl::normalize::InvalidUtf8;
///
/// let mut scratch = Vec::new();
/// assert_eq!(InvalidUtf8::Percent.apply(b"/caf\xE9", &mut scratch), Some("/caf%E9"));
/// assert_eq!(InvalidUtf8::Replace.apply(b"/caf\xE9", &mut scratch), Some("/caf\u{FFFD}"));
/// assert_eq!(InvalidUtf8::Reject.apply(b"/caf\xE9", &mut scratch), None);
/// assert_eq!(InvalidUtf8::Reject.apply(b"/caf\xC3\xA9", &mut scratch), Some("/café"));
/// assert_eq!("replace".parse(), Ok(InvalidUtf8::Replace));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum InvalidUtf8 {
    /// Percent-encode each invalid byte as `%XX` (lossless, idempotent).
    #[default]
    Percent,
    /// Replace each maximal invalid sequence with U+FFFD, as
    /// `String::from_utf8_lossy` and browsers' decoders do (lossy).
    Replace,
    /// Treat the line as invalid.
    Reject,
}

impl InvalidUtf8 {
    /// Every policy, with its name.
    pub const ALL: [InvalidUtf8; 3] = [
        InvalidUtf8::Percent,
        InvalidUtf8::Replace,
        InvalidUtf8::Reject,
    ];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            InvalidUtf8::Percent => "percent",
            InvalidUtf8::Replace => "replace",
            InvalidUtf8::Reject => "reject",
        }
    }

    /// `bytes` as a string under this policy, or `None` if the policy
    /// rejects it. Valid UTF-8 is borrowed as it is; otherwise the result
    /// is built in `scratch`.
    pub fn apply<'a>(self, bytes: &'a [u8], scratch: &'a mut Vec<u8>) -> Option<&'a str> {
        let err = match std::str::from_utf8(bytes) {
            Ok(s) => return Some(s),
            Err(e) => e,
        };
        scratch.clear();
        let mut rest = bytes;
        let mut err = Some(err);
        match self {
            InvalidUtf8::Reject => return None,
            InvalidUtf8::Percent | InvalidUtf8::Replace => {
                while let Some(e) = err {
                    let (valid, after) = rest.split_at(e.valid_up_to());
                    scratch.extend_from_slice(valid);
                    // `None`: the input ends inside a sequence.
                    let bad = e.error_len().unwrap_or(after.len());
                    if self == InvalidUtf8::Percent {
                        for &b in &after[..bad] {
                            push_percent_encoded(b, scratch);
                        }
                    } else {
                        scratch.extend_from_slice("\u{FFFD}".as_bytes());
                    }
                    rest = &after[bad..];
                    err = std::str::from_utf8(rest).err();
                }
                scratch.extend_from_slice(rest);
            }
        }
        // Valid by construction; checked again rather than trusted because
        // this path only runs for broken input.
        std::str::from_utf8(scratch).ok()
    }
}

/// Appends `%XX` with uppercase hex digits, as the URL Standard's
/// percent-encode does.
fn push_percent_encoded(b: u8, out: &mut Vec<u8>) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    out.extend_from_slice(&[b'%', HEX[usize::from(b >> 4)], HEX[usize::from(b & 15)]]);
}

impl fmt::Display for InvalidUtf8 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for InvalidUtf8 {
    type Err = String;

    fn from_str(s: &str) -> Result<InvalidUtf8, String> {
        InvalidUtf8::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| format!("unknown policy {s:?} (expected percent, replace or reject)"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn truncated_sequence_at_the_end() {
        let mut s = Vec::new();
        assert_eq!(
            InvalidUtf8::Percent.apply(b"a\xE2\x82", &mut s),
            Some("a%E2%82")
        );
        assert_eq!(
            InvalidUtf8::Replace.apply(b"a\xE2\x82", &mut s),
            Some("a\u{FFFD}")
        );
        assert_eq!(
            InvalidUtf8::Percent.apply(b"\xFF\xFEz", &mut s),
            Some("%FF%FEz")
        );
    }

    proptest! {
        /// Percent: the result is valid, idempotent, and decodes back to the
        /// original bytes when the original had no `%`.
        #[test]
        fn percent_is_lossless_and_idempotent(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
            let mut s1 = Vec::new();
            let once = InvalidUtf8::Percent.apply(&bytes, &mut s1).unwrap().to_string();
            let mut s2 = Vec::new();
            prop_assert_eq!(InvalidUtf8::Percent.apply(once.as_bytes(), &mut s2), Some(once.as_str()));
            if !bytes.contains(&b'%') {
                let mut decoded = Vec::new();
                crate::percent_decode(once.as_bytes(), &mut decoded);
                prop_assert_eq!(decoded, bytes);
            }
        }

        /// Replace agrees with the standard library.
        #[test]
        fn replace_is_from_utf8_lossy(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
            let mut s = Vec::new();
            let got = InvalidUtf8::Replace.apply(&bytes, &mut s).unwrap().to_string();
            prop_assert_eq!(got, String::from_utf8_lossy(&bytes).into_owned());
        }
    }
}
