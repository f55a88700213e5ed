//! `strip-scheme`: keys for URLs that differ in scheme only.
//!
//! The key is the URL serialization without `scheme:` and, when the URL
//! has a host, the `//` after it: `https://example.com/a?b` has the key
//! `example.com/a?b`, as does `http://example.com/a?b`; `mailto:a@b.c` has
//! `a@b.c`. It is not a URL: like a SURT it is only compared, never
//! parsed. It is idempotent in the way that matters for keys: the key of
//! a URL is the key of its canonical form under the other rules.

/// Removes the scheme, its `:` and a `//` that follows, from the
/// serialization that starts at `start` of `out`.
pub(crate) fn strip(out: &mut Vec<u8>, start: usize) {
    let written = &out[start..];
    let Some(colon) = memchr::memchr(b':', written) else {
        return;
    };
    let mut end = colon + 1;
    if written[end..].starts_with(b"//") {
        end += 2;
    }
    out.drain(start..start + end);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_scheme_and_slashes() {
        for (url, key) in [
            ("https://example.com/a?b#c", "example.com/a?b#c"),
            ("mailto:a@b.c", "a@b.c"),
            ("file:///tmp/x", "/tmp/x"),
            ("foo:/p", "/p"),
        ] {
            let mut out = b"x".to_vec();
            out.extend_from_slice(url.as_bytes());
            strip(&mut out, 1);
            assert_eq!(out, format!("x{key}").as_bytes());
        }
    }
}
