//! The URL parser's scans: each finds the first byte of a class (a byte
//! the parser's fast path cannot copy as it is, or a delimiter). With
//! vectors ([`super::VECTORS`]) it looks at 16 bytes at a time with SSE2,
//! which every x86_64 CPU has; otherwise it uses the 256-entry tables,
//! which are also the reference the tests compare the vector code against.

use crate::tables::byte_table;

/// The classes the fast path scans for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Not a byte the fast path keeps in a host: anything but `a-z`, `0-9`,
    /// `-`, `.`, `_`.
    Host,
    /// Where a path's plain run stops: a byte in the path percent-encode set,
    /// `\`, `|`, `?`, `#`, or a `/` followed by `.` or `%` (a possible dot
    /// segment, which the caller checks exactly).
    Path,
    /// A byte in the special-query percent-encode set (which includes `#`).
    Query,
    /// A byte in the fragment percent-encode set.
    Fragment,
    /// Where a special URL's authority ends (`/`, `?`, `#`, `\`), or an `@`.
    SpecialAuthority,
    /// Where a non-special URL's authority ends (`/`, `?`, `#`), or an `@`.
    Authority,
}

const fn host_stop(b: u8) -> bool {
    !(b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'-' | b'.' | b'_'))
}
/// C0 controls, space and everything above U+007E: the bytes every
/// percent-encode set after C0 control contains.
const fn outside_graphic(b: u8) -> bool {
    b <= 0x20 || b >= 0x7f
}
const fn path_stop_byte(b: u8) -> bool {
    outside_graphic(b)
        || matches!(
            b,
            b'"' | b'#' | b'<' | b'>' | b'?' | b'^' | b'`' | b'{' | b'}' | b'\\' | b'|'
        )
}
const fn query_stop(b: u8) -> bool {
    outside_graphic(b) || matches!(b, b'"' | b'#' | b'<' | b'>' | b'\'')
}
const fn fragment_stop(b: u8) -> bool {
    outside_graphic(b) || matches!(b, b'"' | b'<' | b'>' | b'`')
}

static HOST_STOP: [bool; 256] = byte_table!(|b| host_stop(b));
static PATH_STOP: [bool; 256] = byte_table!(|b| path_stop_byte(b));
static QUERY_STOP: [bool; 256] = byte_table!(|b| query_stop(b));
static FRAGMENT_STOP: [bool; 256] = byte_table!(|b| fragment_stop(b));
static SPECIAL_AUTHORITY_STOP: [bool; 256] =
    byte_table!(|b| matches!(b, b'/' | b'?' | b'#' | b'@' | b'\\'));
static AUTHORITY_STOP: [bool; 256] = byte_table!(|b| matches!(b, b'/' | b'?' | b'#' | b'@'));

/// The first position `>= start` of a byte of class `class`, or
/// `input.len()`. Scalar reference implementation.
pub fn find_scalar(class: Stop, input: &[u8], start: usize) -> usize {
    let table = match class {
        Stop::Host => &HOST_STOP,
        Stop::Path => &PATH_STOP,
        Stop::Query => &QUERY_STOP,
        Stop::Fragment => &FRAGMENT_STOP,
        Stop::SpecialAuthority => &SPECIAL_AUTHORITY_STOP,
        Stop::Authority => &AUTHORITY_STOP,
    };
    let mut i = start;
    while i < input.len() {
        let b = input[i];
        if table[b as usize] {
            return i;
        }
        if class == Stop::Path && b == b'/' && matches!(input.get(i + 1), Some(b'.' | b'%')) {
            return i;
        }
        i += 1;
    }
    input.len()
}

/// The first position `>= start` of a byte of class `class`, or
/// `input.len()`.
#[inline]
pub fn find(class: Stop, input: &[u8], start: usize) -> usize {
    #[cfg(target_arch = "x86_64")]
    if super::VECTORS {
        return sse2::find(class, input, start);
    }
    find_scalar(class, input, start)
}

#[cfg(target_arch = "x86_64")]
mod sse2 {
    use super::Stop;
    use crate::simd::vector::{Sse2, Vector};

    // SAFETY (for every `unsafe` block below): the `Vector` methods of
    // `Sse2` need SSE2, which is part of the x86_64 baseline, and `load`
    // reads the 16 bytes of its array.

    #[inline(always)]
    fn load(bytes: &[u8; 16]) -> Sse2 {
        // SAFETY: see above.
        unsafe { Sse2::load(bytes.as_ptr()) }
    }

    /// Bytes `<= 0x20` or `>= 0x7f`: as signed bytes, those below 0x21
    /// (which includes every byte >= 0x80), or 0x7f.
    #[inline(always)]
    fn outside_graphic(v: Sse2) -> Sse2 {
        // SAFETY: see above.
        unsafe { v.lt_signed(0x21).or(v.eq(0x7f)) }
    }

    /// Signed `lo <= v <= hi` for `lo, hi < 0x80`.
    #[inline(always)]
    fn in_range(v: Sse2, lo: u8, hi: u8) -> Sse2 {
        // SAFETY: see above.
        unsafe { v.gt_signed(lo - 1).and(v.lt_signed(hi + 1)) }
    }

    /// The 16-bit mask of bytes of `class` in `v`; `next` is `v` shifted by
    /// one byte (the byte after each position), used by `PathStop`.
    #[inline(always)]
    fn class_mask(class: Stop, v: Sse2, next: Sse2) -> u32 {
        let eq = |b: u8| {
            // SAFETY: see above.
            unsafe { v.eq(b) }
        };
        // SAFETY: see above.
        unsafe {
            let m = match class {
                Stop::Host => {
                    let ok = in_range(v, b'a', b'z')
                        .or(in_range(v, b'0', b'9'))
                        .or(eq(b'-').or(eq(b'.').or(eq(b'_'))));
                    return !ok.movemask() & 0xffff;
                }
                Stop::Path => {
                    let specials = (eq(b'"').or(eq(b'#')).or(eq(b'<').or(eq(b'>'))))
                        .or(eq(b'?').or(eq(b'^')).or(eq(b'`').or(eq(b'{'))));
                    let more = eq(b'}').or(eq(b'\\')).or(eq(b'|'));
                    let dot_start = eq(b'/').and(next.eq(b'.').or(next.eq(b'%')));
                    outside_graphic(v).or(specials).or(more.or(dot_start))
                }
                Stop::Query => outside_graphic(v)
                    .or(eq(b'"'))
                    .or(eq(b'#').or(eq(b'<')).or(eq(b'>').or(eq(b'\'')))),
                Stop::Fragment => outside_graphic(v)
                    .or(eq(b'"'))
                    .or(eq(b'<').or(eq(b'>')).or(eq(b'`'))),
                Stop::SpecialAuthority => {
                    (eq(b'/').or(eq(b'?')).or(eq(b'#').or(eq(b'@')))).or(eq(b'\\'))
                }
                Stop::Authority => eq(b'/').or(eq(b'?')).or(eq(b'#').or(eq(b'@'))),
            };
            m.movemask()
        }
    }

    #[inline]
    pub(super) fn find(class: Stop, input: &[u8], start: usize) -> usize {
        let len = input.len();
        let mut i = start;
        // Whole chunks: 17 bytes must be readable for the shifted load.
        while i + 17 <= len {
            let v = load(input[i..i + 16].try_into().unwrap());
            let next = load(input[i + 1..i + 17].try_into().unwrap());
            let m = class_mask(class, v, next);
            if m != 0 {
                return i + m.trailing_zeros() as usize;
            }
            i += 16;
        }
        if i >= len {
            return len;
        }
        if len >= 16 {
            // The tail (1 to 16 bytes): load the last 16 bytes of the input,
            // overlapping what was already scanned, and drop the bits before
            // `i`. The byte after the last one is shifted in as 0, which is
            // neither `.` nor `%`, as "no next byte" should be.
            let base = len - 16;
            let v = load(input[base..].try_into().unwrap());
            // SAFETY: see above.
            let next = unsafe { v.shift_in_zero() };
            let m = class_mask(class, v, next) >> (i - base);
            return if m != 0 {
                i + m.trailing_zeros() as usize
            } else {
                len
            };
        }
        // Inputs shorter than 16 bytes: a zero-padded copy, bits past the
        // end masked off.
        let n = len - i;
        let mut buf = [0u8; 32];
        buf[..n].copy_from_slice(&input[i..]);
        let v = load(buf[..16].try_into().unwrap());
        let next = load(buf[1..17].try_into().unwrap());
        let m = class_mask(class, v, next) & ((1u32 << n) - 1);
        if m != 0 {
            i + m.trailing_zeros() as usize
        } else {
            len
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLASSES: [Stop; 6] = [
        Stop::Host,
        Stop::Path,
        Stop::Query,
        Stop::Fragment,
        Stop::SpecialAuthority,
        Stop::Authority,
    ];

    #[test]
    fn every_byte_at_every_offset() {
        // Each byte value alone, and at each position of inputs of length 1
        // to 40 (covering whole chunks and every tail length).
        for class in CLASSES {
            for b in 0..=255u8 {
                for len in 1..40 {
                    for pos in 0..len {
                        let mut input = vec![b'a'; len];
                        input[pos] = b;
                        for start in [0, pos.saturating_sub(1), pos] {
                            assert_eq!(
                                find(class, &input, start),
                                find_scalar(class, &input, start),
                                "{class:?} byte {b:#x} pos {pos} len {len} start {start}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn dot_segment_starts() {
        let input = b"/a/b/.x/%2e/c";
        assert_eq!(find(Stop::Path, input, 0), 4);
        assert_eq!(find(Stop::Path, input, 5), 7);
        assert_eq!(find(Stop::Path, input, 8), input.len());
        // A slash at the very end of a chunk, its dot in the next.
        let mut long = vec![b'x'; 15];
        long.extend_from_slice(b"/.abcdefghijklmnopq");
        assert_eq!(find(Stop::Path, &long, 0), 15);
    }

    proptest::proptest! {
        #[test]
        fn matches_scalar(input in proptest::collection::vec(
            proptest::prop_oneof![
                proptest::num::u8::ANY,
                proptest::sample::select(b"/.%?#@az09-_\\|".to_vec()),
            ],
            0..80,
        ), start in 0usize..80) {
            let start = start.min(input.len());
            for class in CLASSES {
                proptest::prop_assert_eq!(find(class, &input, start), find_scalar(class, &input, start));
            }
        }
    }
}
