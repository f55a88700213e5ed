//! `normalize-data-urls`: the media type of a `data:` URL written the way
//! normalize-url writes it (its `normalizeDataURL`, v8.0.2).
//!
//! A `data:` URL's opaque path is `mediatype,data` (RFC 2397). The media
//! type is split on `;`; a last `base64` stays last; the MIME type is
//! lowercased and dropped when it is the default `text/plain` with no
//! parameter left; each parameter is trimmed, written `key` when its value
//! is empty, and `charset`'s value is lowercased and dropped when it is
//! the default `us-ascii`. With `base64`, spaces around the data go. The
//! data's other bytes are kept: they are the resource.
//!
//! The result is a valid opaque path (it only removes bytes and lowercases
//! letters) and the rule is idempotent: a normalized media type splits
//! into the same pieces.

/// RFC 2397's defaults, which the rule drops.
const DEFAULT_MIME: &[u8] = b"text/plain";
const DEFAULT_CHARSET: &[u8] = b"us-ascii";

/// Writes the normalized `path` of a `data:` URL into `out`; returns
/// whether it differs. A path without `,` is not RFC 2397's and is kept.
pub(crate) fn normalize(path: &[u8], out: &mut Vec<u8>) -> bool {
    let Some(comma) = memchr::memchr(b',', path) else {
        return false;
    };
    let (media_type, data) = (&path[..comma], &path[comma + 1..]);
    let mut pieces: Vec<&[u8]> = media_type.split(|&b| b == b';').collect();
    // As normalize-url: `data:base64,x` has the parameter and no type.
    let base64 = pieces.last() == Some(&&b"base64"[..]);
    if base64 {
        pieces.pop();
    }
    let mime = pieces.first().copied().unwrap_or(b"");
    let start = out.len();
    let mut params = Vec::new();
    for piece in pieces.iter().skip(1) {
        write_parameter(piece, &mut params);
    }
    if base64 {
        params.extend_from_slice(b";base64");
    }
    if !params.is_empty() || (!mime.is_empty() && !mime.eq_ignore_ascii_case(DEFAULT_MIME)) {
        out.extend(mime.iter().map(u8::to_ascii_lowercase));
    }
    out.extend_from_slice(&params);
    out.push(b',');
    out.extend_from_slice(if base64 { data.trim_ascii() } else { data });
    if out[start..] == *path {
        out.truncate(start);
        return false;
    }
    true
}

/// Appends `;key` or `;key=value` for one parameter, or nothing when it is
/// empty or the default charset.
fn write_parameter(piece: &[u8], out: &mut Vec<u8>) {
    let mut halves = piece.splitn(3, |&b| b == b'=');
    let key = halves.next().unwrap_or(b"").trim_ascii();
    // normalize-url keeps what is between the first and a second `=`.
    let value = halves.next().unwrap_or(b"").trim_ascii();
    let charset = key == b"charset";
    if charset && value.eq_ignore_ascii_case(DEFAULT_CHARSET) {
        return;
    }
    if key.is_empty() && value.is_empty() {
        return;
    }
    out.push(b';');
    out.extend_from_slice(key);
    if !value.is_empty() {
        out.push(b'=');
        if charset {
            out.extend(value.iter().map(u8::to_ascii_lowercase));
        } else {
            out.extend_from_slice(value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn normalized(path: &str) -> String {
        let mut out = Vec::new();
        if normalize(path.as_bytes(), &mut out) {
            String::from_utf8(out).unwrap()
        } else {
            path.to_owned()
        }
    }

    #[test]
    fn normalizes_like_normalize_url() {
        for (path, want) in [
            ("text/plain,foo", ",foo"),
            (";charset=us-ascii,foo", ",foo"),
            (";charset=UTF-8;,foo", ";charset=utf-8,foo"),
            (",", ","),
            ("TEXT/HTML,foo", "text/html,foo"),
            (";foo=;bar,", ";foo;bar,"),
            (";base64, Zm9v ", ";base64,Zm9v"),
            ("image/png;base64,iVBO", "image/png;base64,iVBO"),
            ("no comma", "no comma"),
            ("text/plain;base64,Zm9v", "text/plain;base64,Zm9v"),
            ("base64,Zm9v", ";base64,Zm9v"),
        ] {
            assert_eq!(normalized(path), want, "{path}");
        }
    }

    #[test]
    fn is_idempotent() {
        for path in [
            "TEXT/Plain;Charset=US-ASCII;a=b;base64, x ",
            ";;;,",
            "a;=;==;base64,",
            " text/plain ,x",
        ] {
            let once = normalized(path);
            assert_eq!(normalized(&once), once, "{path}");
        }
    }
}
