//! The classes of an authority's bytes, 16 at a time, for reading the
//! host and port off a serialized URL (`component::parts`): where it ends
//! (`/`, `?`, `#`), its `@`, `:` and `.`, and the bytes no serialized
//! domain or port has.

/// Bit `j` of each mask says what byte `j` of a 16-byte window is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AuthorityMasks {
    /// `/`, `?` or `#`: the end of the authority.
    pub end: u32,
    /// `@`: the end of the userinfo.
    pub at: u32,
    /// `:`.
    pub colon: u32,
    /// `.`.
    pub dot: u32,
    /// Neither of the above nor a byte of a serialized domain: C0
    /// controls, space, DEL, non-ASCII, uppercase letters (the host parser
    /// lowercases them), and the forbidden domain code points `<`, `>`,
    /// `[`, `\`, `]`, `^`, `|`, `%` (url.bs, "forbidden domain code
    /// point"; `[` also starts IPv6 addresses, which are left to the
    /// parser).
    pub other: u32,
}

/// The masks of `bytes[base..base + 16]`, which must be in `bytes`.
#[inline(always)]
pub fn masks(bytes: &[u8], base: usize) -> AuthorityMasks {
    assert!(base + 16 <= bytes.len());
    #[cfg(target_arch = "x86_64")]
    if super::VECTORS {
        use super::vector::{Sse2, Vector};
        // SAFETY: the 16 bytes are in `bytes` (asserted), and SSE2 is
        // part of the x86_64 baseline.
        return unsafe {
            let v = Sse2::load(bytes.as_ptr().add(base));
            let upper_or_brackets = v.gt_signed(b'A' - 1).and(v.lt_signed(b'^' + 1));
            let other = v
                .lt_signed(b'!')
                .or(v.eq(0x7f))
                .or(upper_or_brackets)
                .or(v.eq(b'<'))
                .or(v.eq(b'>'))
                .or(v.eq(b'|'))
                .or(v.eq(b'%'));
            AuthorityMasks {
                end: v.eq(b'/').or(v.eq(b'?')).or(v.eq(b'#')).movemask(),
                at: v.eq(b'@').movemask(),
                colon: v.eq(b':').movemask(),
                dot: v.eq(b'.').movemask(),
                other: other.movemask(),
            }
        };
    }
    masks_scalar(bytes, base)
}

/// [`masks`] one byte at a time: the reference.
pub fn masks_scalar(bytes: &[u8], base: usize) -> AuthorityMasks {
    let mut m = AuthorityMasks::default();
    for (j, &b) in bytes[base..base + 16].iter().enumerate() {
        let bit = 1 << j;
        match b {
            b'/' | b'?' | b'#' => m.end |= bit,
            b'@' => m.at |= bit,
            b':' => m.colon |= bit,
            b'.' => m.dot |= bit,
            0..=0x20 | 0x7f..=0xff | b'A'..=b'^' | b'<' | b'>' | b'|' | b'%' => m.other |= bit,
            _ => {}
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vector_masks_are_the_scalar_ones() {
        // Every byte value in every lane, and the authorities of real URLs.
        let all: Vec<u8> = (0..=255u8).chain(0..=255u8).collect();
        for base in 0..all.len() - 16 {
            assert_eq!(masks(&all, base), masks_scalar(&all, base), "at {base}");
        }
        let text = b"http://user:p%40ss@www.Example.co.uk:8080/a?b#c [::1] x|y^z<>\x7f\x80\xff";
        for base in 0..text.len() - 16 {
            assert_eq!(masks(text, base), masks_scalar(text, base), "at {base}");
        }
    }

    #[test]
    fn classes() {
        let m = masks_scalar(b"u@a-b.c_d:80/?#Z%", 0);
        assert_eq!(m.at, 1 << 1);
        assert_eq!(m.dot, 1 << 5);
        assert_eq!(m.colon, 1 << 9);
        assert_eq!(m.end, 0b111 << 12);
        assert_eq!(m.other, 1 << 15);
    }
}
