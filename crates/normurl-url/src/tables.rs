//! Byte-class tables and the input pre-scan.
//!
//! Every table is a `[bool; 256]` built at compile time, so a class test is
//! one load. The spec speaks of code points; since every code point above
//! U+007F is in every set below that matters (percent-encode sets, forbidden
//! code points), testing the bytes of the UTF-8 encoding gives the same
//! answers.

/// Builds a `[bool; 256]` table at compile time from a predicate over the
/// byte, which must be a `const` expression: `byte_table!(|b| b == b'x')`.
macro_rules! byte_table {
    (|$b:ident| $pred:expr) => {{
        let mut t = [false; 256];
        let mut i = 0;
        while i < 256 {
            let $b = i as u8;
            t[i] = $pred;
            i += 1;
        }
        t
    }};
}
pub(crate) use byte_table;

/// [Forbidden host code point](https://url.spec.whatwg.org/#forbidden-host-code-point).
pub const fn is_forbidden_host(b: u8) -> bool {
    matches!(
        b,
        0 | b'\t'
            | b'\n'
            | b'\r'
            | b' '
            | b'#'
            | b'/'
            | b':'
            | b'<'
            | b'>'
            | b'?'
            | b'@'
            | b'['
            | b'\\'
            | b']'
            | b'^'
            | b'|'
    )
}

/// [Forbidden domain code point](https://url.spec.whatwg.org/#forbidden-domain-code-point):
/// a forbidden host code point, a C0 control, `%` or U+007F.
pub const fn is_forbidden_domain(b: u8) -> bool {
    is_forbidden_host(b) || b <= 0x1f || b == b'%' || b == 0x7f
}

pub static FORBIDDEN_HOST: [bool; 256] = byte_table!(|b| is_forbidden_host(b));
pub static FORBIDDEN_DOMAIN: [bool; 256] = byte_table!(|b| is_forbidden_domain(b));

/// [Scheme state](https://url.spec.whatwg.org/#scheme-state): ASCII
/// alphanumeric, `+`, `-`, `.`.
pub static SCHEME_CHAR: [bool; 256] =
    byte_table!(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'));

/// [C0 control or space](https://infra.spec.whatwg.org/#c0-control-or-space).
#[inline]
pub fn is_c0_control_or_space(b: u8) -> bool {
    b <= 0x20
}

/// Removes leading and trailing C0 control or space, as the first step of
/// the [basic URL parser](https://url.spec.whatwg.org/#concept-basic-url-parser)
/// does. Only ASCII bytes are removed, so the result is valid UTF-8 when the
/// input is.
#[inline]
pub fn trim_c0_control_or_space(input: &[u8]) -> &[u8] {
    let start = input
        .iter()
        .position(|&b| !is_c0_control_or_space(b))
        .unwrap_or(input.len());
    let end = input
        .iter()
        .rposition(|&b| !is_c0_control_or_space(b))
        .map_or(start, |i| i + 1);
    &input[start..end]
}

/// Whether the input has an [ASCII tab or newline](https://infra.spec.whatwg.org/#ascii-tab-or-newline),
/// which the parser must remove. One memchr3 scan; almost always false.
#[inline]
pub fn has_tab_or_newline(input: &[u8]) -> bool {
    memchr::memchr3(b'\t', b'\n', b'\r', input).is_some()
}

/// The input without ASCII tab or newline (the slow path, after
/// [`has_tab_or_newline`] said there are some).
pub fn remove_tab_or_newline(input: &[u8]) -> Vec<u8> {
    input
        .iter()
        .copied()
        .filter(|&b| !matches!(b, b'\t' | b'\n' | b'\r'))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forbidden_sets() {
        for b in 0..=255u8 {
            let naive_host = b"\0\t\n\r #/:<>?@[\\]^|".contains(&b);
            assert_eq!(FORBIDDEN_HOST[b as usize], naive_host, "{b:#x}");
            let naive_domain = naive_host || b < 0x20 || b == b'%' || b == 0x7f;
            assert_eq!(FORBIDDEN_DOMAIN[b as usize], naive_domain, "{b:#x}");
        }
    }

    #[test]
    fn trim() {
        assert_eq!(trim_c0_control_or_space(b"  \x01a b\x1f "), b"a b");
        assert_eq!(trim_c0_control_or_space(b" \x00 "), b"");
        assert_eq!(trim_c0_control_or_space(b""), b"");
        assert_eq!(
            trim_c0_control_or_space("\u{a0}x".as_bytes()),
            "\u{a0}x".as_bytes()
        );
    }

    #[test]
    fn tabs() {
        assert!(!has_tab_or_newline(b"http://a/b"));
        assert!(has_tab_or_newline(b"ht\ttp"));
        assert_eq!(remove_tab_or_newline(b"h\tt\nt\rp"), b"http");
    }
}
