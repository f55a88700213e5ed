//! JSON strings: bytes written as a JSON string, escaped, with invalid
//! UTF-8 as U+FFFD. Used by `--json`'s objects (`json.rs`) and its
//! `params` array (`params.rs`); `json::write_string` is the public path.

/// Appends `bytes` as a JSON string, quotes included.
///
/// # Example
///
/// ```
/// let mut out = Vec::new();
/// normurl_canon::component::json::write_string(b"a\"\\\t\x01\xff\xc3\xa9", &mut out);
/// assert_eq!(out, "\"a\\\"\\\\\\t\\u0001\u{fffd}é\"".as_bytes());
/// ```
pub fn write_string(bytes: &[u8], out: &mut Vec<u8>) {
    out.push(b'"');
    for chunk in bytes.utf8_chunks() {
        escape(chunk.valid().as_bytes(), out);
        if !chunk.invalid().is_empty() {
            out.extend_from_slice("\u{fffd}".as_bytes());
        }
    }
    out.push(b'"');
}

/// Turns what was appended to `out` from `start` on into a JSON string:
/// quotes around it, and escapes (rarely any: URL components are ASCII
/// without quotes or controls, but a percent-free `"` can be in an opaque
/// path, and a user's PSL never reaches here).
pub(crate) fn escape_in_place(out: &mut Vec<u8>, start: usize) {
    let clean = out[start..]
        .iter()
        .all(|&b| b >= 0x20 && b != b'"' && b != b'\\' && b < 0x80);
    if clean {
        out.insert(start, b'"');
        out.push(b'"');
        return;
    }
    let raw = out.split_off(start);
    write_string(&raw, out);
}

/// Appends the valid UTF-8 `text` with JSON's escapes.
fn escape(text: &[u8], out: &mut Vec<u8>) {
    for &b in text {
        match b {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            0..=0x1f | 0x7f => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.extend_from_slice(b"\\u00");
                out.push(HEX[usize::from(b >> 4)]);
                out.push(HEX[usize::from(b & 15)]);
            }
            _ => out.push(b),
        }
    }
}
