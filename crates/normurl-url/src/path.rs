//! Path segment helpers: dot segments and Windows drive letters.

/// [Single-dot URL path segment](https://url.spec.whatwg.org/#single-dot-path-segment):
/// `.` or `%2e` (case-insensitive).
#[inline]
pub fn is_single_dot(segment: &[u8]) -> bool {
    match segment.len() {
        1 => segment[0] == b'.',
        3 => segment.eq_ignore_ascii_case(b"%2e"),
        _ => false,
    }
}

/// [Double-dot URL path segment](https://url.spec.whatwg.org/#double-dot-path-segment):
/// `..`, `.%2e`, `%2e.` or `%2e%2e` (case-insensitive).
#[inline]
pub fn is_double_dot(segment: &[u8]) -> bool {
    match segment.len() {
        2 => segment == b"..",
        4 => segment.eq_ignore_ascii_case(b".%2e") || segment.eq_ignore_ascii_case(b"%2e."),
        6 => segment.eq_ignore_ascii_case(b"%2e%2e"),
        _ => false,
    }
}

/// [Windows drive letter](https://url.spec.whatwg.org/#windows-drive-letter):
/// an ASCII alpha followed by `:` or `|`.
#[inline]
pub fn is_windows_drive_letter(s: &[u8]) -> bool {
    s.len() == 2 && s[0].is_ascii_alphabetic() && matches!(s[1], b':' | b'|')
}

/// [Normalized Windows drive letter](https://url.spec.whatwg.org/#normalized-windows-drive-letter):
/// an ASCII alpha followed by `:`.
#[inline]
pub fn is_normalized_windows_drive_letter(s: &[u8]) -> bool {
    s.len() == 2 && s[0].is_ascii_alphabetic() && s[1] == b':'
}

/// [Starts with a Windows drive letter](https://url.spec.whatwg.org/#start-with-a-windows-drive-letter).
#[inline]
pub fn starts_with_windows_drive_letter(s: &[u8]) -> bool {
    s.len() >= 2
        && is_windows_drive_letter(&s[..2])
        && (s.len() == 2 || matches!(s[2], b'/' | b'\\' | b'?' | b'#'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dots() {
        for s in [&b"."[..], b"%2e", b"%2E"] {
            assert!(is_single_dot(s));
            assert!(!is_double_dot(s));
        }
        for s in [&b".."[..], b".%2e", b"%2E.", b"%2e%2E"] {
            assert!(is_double_dot(s));
            assert!(!is_single_dot(s));
        }
        for s in [&b""[..], b"...", b"%2f", b".a", b"%2e%2e%2e"] {
            assert!(!is_double_dot(s) && !is_single_dot(s));
        }
    }

    #[test]
    fn drive_letters() {
        assert!(is_windows_drive_letter(b"c|"));
        assert!(is_normalized_windows_drive_letter(b"C:"));
        assert!(!is_normalized_windows_drive_letter(b"C|"));
        assert!(!is_windows_drive_letter(b"1:"));
        assert!(starts_with_windows_drive_letter(b"c:"));
        assert!(starts_with_windows_drive_letter(b"c:/x"));
        assert!(starts_with_windows_drive_letter(b"c|#"));
        assert!(!starts_with_windows_drive_letter(b"c:x"));
        assert!(!starts_with_windows_drive_letter(b"c"));
    }
}
