//! Percent-encode sets and percent-decoding.
//!
//! <https://url.spec.whatwg.org/#percent-encoded-bytes>. Each set is a
//! 256-entry table over bytes: a byte of a code point's UTF-8 encoding is
//! encoded exactly when the code point is in the set, because every set
//! contains all code points above U+007E.

use super::tables::byte_table;

/// A [percent-encode set](https://url.spec.whatwg.org/#percent-encode-set)
/// as a 256-entry table of the bytes to encode.
///
/// # Example
///
/// ```
/// use normurl_url::AsciiSet;
///
/// let mut out = Vec::new();
/// AsciiSet::PATH.encode("a b/ü?".as_bytes(), &mut out);
/// assert_eq!(out, b"a%20b/%C3%BC%3F");
/// assert!(AsciiSet::QUERY.contains(b'#'));
/// assert!(!AsciiSet::QUERY.contains(b'?'));
/// ```
#[derive(Debug)]
pub struct AsciiSet {
    table: [bool; 256],
}

const fn c0_control(b: u8) -> bool {
    b <= 0x1f || b > 0x7e
}
const fn fragment(b: u8) -> bool {
    c0_control(b) || matches!(b, b' ' | b'"' | b'<' | b'>' | b'`')
}
const fn query(b: u8) -> bool {
    c0_control(b) || matches!(b, b' ' | b'"' | b'#' | b'<' | b'>')
}
const fn special_query(b: u8) -> bool {
    query(b) || b == b'\''
}
const fn path(b: u8) -> bool {
    query(b) || matches!(b, b'?' | b'^' | b'`' | b'{' | b'}')
}
const fn userinfo(b: u8) -> bool {
    path(b) || matches!(b, b'/' | b':' | b';' | b'=' | b'@' | b'['..=b']' | b'|')
}
const fn component(b: u8) -> bool {
    userinfo(b) || matches!(b, b'$'..=b'&' | b'+' | b',')
}
const fn form_urlencoded(b: u8) -> bool {
    component(b) || matches!(b, b'!' | b'\''..=b')' | b'~')
}

impl AsciiSet {
    /// <https://url.spec.whatwg.org/#c0-control-percent-encode-set>
    pub const C0_CONTROL: AsciiSet = AsciiSet {
        table: byte_table!(|b| c0_control(b)),
    };
    /// <https://url.spec.whatwg.org/#fragment-percent-encode-set>
    pub const FRAGMENT: AsciiSet = AsciiSet {
        table: byte_table!(|b| fragment(b)),
    };
    /// <https://url.spec.whatwg.org/#query-percent-encode-set>
    pub const QUERY: AsciiSet = AsciiSet {
        table: byte_table!(|b| query(b)),
    };
    /// <https://url.spec.whatwg.org/#special-query-percent-encode-set>
    pub const SPECIAL_QUERY: AsciiSet = AsciiSet {
        table: byte_table!(|b| special_query(b)),
    };
    /// <https://url.spec.whatwg.org/#path-percent-encode-set>
    pub const PATH: AsciiSet = AsciiSet {
        table: byte_table!(|b| path(b)),
    };
    /// <https://url.spec.whatwg.org/#userinfo-percent-encode-set>
    pub const USERINFO: AsciiSet = AsciiSet {
        table: byte_table!(|b| userinfo(b)),
    };
    /// <https://url.spec.whatwg.org/#component-percent-encode-set>
    pub const COMPONENT: AsciiSet = AsciiSet {
        table: byte_table!(|b| component(b)),
    };
    /// <https://url.spec.whatwg.org/#application-x-www-form-urlencoded-percent-encode-set>
    pub const FORM_URLENCODED: AsciiSet = AsciiSet {
        table: byte_table!(|b| form_urlencoded(b)),
    };

    /// Whether `byte` must be percent-encoded.
    #[inline(always)]
    pub fn contains(&self, byte: u8) -> bool {
        self.table[byte as usize]
    }

    /// Appends `input` to `out`, percent-encoding the bytes in this set
    /// ([UTF-8 percent-encode](https://url.spec.whatwg.org/#utf-8-percent-encode)
    /// of every code point, applied to its UTF-8 bytes). Runs of bytes that
    /// need no encoding are copied in one go.
    #[inline]
    pub fn encode(&self, input: &[u8], out: &mut Vec<u8>) {
        let mut start = 0;
        for (i, &b) in input.iter().enumerate() {
            if self.contains(b) {
                out.extend_from_slice(&input[start..i]);
                push_percent_encoded(b, out);
                start = i + 1;
            }
        }
        out.extend_from_slice(&input[start..]);
    }

    /// Position of the first byte in this set, if any.
    #[inline]
    pub fn find(&self, input: &[u8]) -> Option<usize> {
        input.iter().position(|&b| self.contains(b))
    }
}

const HEX_UPPER: &[u8; 16] = b"0123456789ABCDEF";

/// Appends `%XX` (uppercase hex, as the spec's
/// [percent-encode](https://url.spec.whatwg.org/#percent-encode) does).
#[inline]
pub fn push_percent_encoded(b: u8, out: &mut Vec<u8>) {
    out.extend_from_slice(&[
        b'%',
        HEX_UPPER[(b >> 4) as usize],
        HEX_UPPER[(b & 15) as usize],
    ]);
}

/// The value of an ASCII hex digit.
#[inline]
pub fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// [Percent-decodes](https://url.spec.whatwg.org/#percent-decode) `input`
/// into `out`: `%XX` with two hex digits becomes the byte; a `%` not
/// followed by two hex digits is kept as it is.
///
/// # Example
///
/// ```
/// let mut out = Vec::new();
/// normurl_url::percent_decode(b"a%20b%zz%4", &mut out);
/// assert_eq!(out, b"a b%zz%4");
/// ```
pub fn percent_decode(input: &[u8], out: &mut Vec<u8>) {
    let mut i = 0;
    while i < input.len() {
        let b = input[i];
        if b == b'%' && i + 2 < input.len() {
            if let (Some(h), Some(l)) = (hex_value(input[i + 1]), hex_value(input[i + 2])) {
                out.push(h << 4 | l);
                i += 3;
                continue;
            }
        }
        out.push(b);
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sets, written out as the spec's prose lists them, as a naive oracle.
    fn naive(set: &str, b: u8) -> bool {
        let c0 = b <= 0x1f || b > 0x7e;
        let fragment = c0 || b" \"<>`".contains(&b);
        let query = c0 || b" \"#<>".contains(&b);
        let special_query = query || b == b'\'';
        let path = query || b"?^`{}".contains(&b);
        let userinfo = path || b"/:;=@[\\]^|".contains(&b);
        let component = userinfo || b"$%&+,".contains(&b);
        let form = component || b"!'()~".contains(&b);
        match set {
            "c0" => c0,
            "fragment" => fragment,
            "query" => query,
            "special-query" => special_query,
            "path" => path,
            "userinfo" => userinfo,
            "component" => component,
            "form" => form,
            _ => unreachable!(),
        }
    }

    #[test]
    fn sets_match_spec_prose() {
        let sets: [(&str, &AsciiSet); 8] = [
            ("c0", &AsciiSet::C0_CONTROL),
            ("fragment", &AsciiSet::FRAGMENT),
            ("query", &AsciiSet::QUERY),
            ("special-query", &AsciiSet::SPECIAL_QUERY),
            ("path", &AsciiSet::PATH),
            ("userinfo", &AsciiSet::USERINFO),
            ("component", &AsciiSet::COMPONENT),
            ("form", &AsciiSet::FORM_URLENCODED),
        ];
        for (name, set) in sets {
            for b in 0..=255u8 {
                assert_eq!(set.contains(b), naive(name, b), "set {name}, byte {b:#x}");
            }
        }
        // The spec's own remark: form-urlencoded leaves exactly these alone.
        for b in 0..=127u8 {
            let kept = b.is_ascii_alphanumeric() || b"*-._".contains(&b);
            assert_eq!(!AsciiSet::FORM_URLENCODED.contains(b), kept, "{b:#x}");
        }
    }

    #[test]
    fn encode_and_decode() {
        let mut out = Vec::new();
        AsciiSet::USERINFO.encode(b"a:b@c", &mut out);
        assert_eq!(out, b"a%3Ab%40c");
        out.clear();
        AsciiSet::FRAGMENT.encode(b"", &mut out);
        assert_eq!(out, b"");
        out.clear();
        percent_decode(b"%41%4a%4G%", &mut out);
        assert_eq!(out, b"AJ%4G%");
        out.clear();
        percent_decode(b"%%41", &mut out);
        assert_eq!(out, b"%A");
    }
}
