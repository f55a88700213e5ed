//! Byte scans with vectors, for the parser and the canonicalizer: one
//! place for the vector code, shaped like `memchr`'s.
//!
//! - [`vector`]: the one vector abstraction, a trait over the operations
//!   the scans use, for SSE2 (16 lanes, the x86_64 baseline, so no
//!   detection) and AVX2 (32 lanes).
//! - Detection in one place: [`VECTORS`] (whether vector code runs at all)
//!   and [`avx2`] (whether the AVX2 instances may run).
//! - The routines, each written once over [`vector::Vector`] with a scalar
//!   reference that the tests compare it against and that runs where the
//!   vector code does not: [`stop`] (the parser's scans for the first byte
//!   of a class), [`features`] (the canonicalizer's scans for the bytes
//!   rules care about, and its scan-and-copy), [`find_in_windows`] (the
//!   positions of a few delimiters, 16 bytes at a time).
//!
//! The `scalar` cargo feature turns every vector routine off, so that
//! `cargo test --features scalar` checks that the scalar references pass
//! the whole suite alone.

pub mod authority;
pub mod features;
pub mod stop;
#[cfg(target_arch = "x86_64")]
pub mod vector;

/// Whether the vector routines run: on x86_64, unless the `scalar` feature
/// asks for the scalar references alone. A constant, so that the scalar
/// build has no vector code on its paths and the vector build no test.
pub const VECTORS: bool = cfg!(all(target_arch = "x86_64", not(feature = "scalar")));

/// Whether the AVX2 instances of the canonicalizer's scans may run: vector
/// code is on, the CPU has AVX2, and the `NORMURL_NO_AVX2` environment
/// variable is not set (so that the SSE2 code can be measured and tested
/// on the same machine). Read once.
pub fn avx2() -> bool {
    static AVX2: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *AVX2.get_or_init(|| avx2_detected() && std::env::var_os("NORMURL_NO_AVX2").is_none())
}

/// Whether vector code is on and the CPU has AVX2, for the tests that
/// compare the AVX2 instances with the scalar references whatever the
/// environment says.
pub fn avx2_detected() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        VECTORS && is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The lanes of one window the size of an SSE2 vector.
const WINDOW: usize = 16;

/// Where the bytes `needles` are in `bytes` from `start` on, 16 bytes at a
/// time, for the loops that look for a few delimiters and stop early (the
/// pieces of a query, its `%`s): calls `found(base, masks)` for each
/// window `bytes[base..base + 16]` in order, where bit `j` of `masks[k]`
/// says that `bytes[base + j]` is `needles[k]` (lanes before `start`
/// cleared; the last window is the last 16 bytes, overlapping the one
/// before), until `found` returns `Some`. `bytes` must have 16 bytes or
/// more, and `start <= bytes.len()`.
///
/// Callers ask only when [`VECTORS`] is on and have a loop of their own
/// otherwise; the scalar windows are the reference.
#[inline(always)]
pub fn find_in_windows<const K: usize, R>(
    bytes: &[u8],
    start: usize,
    needles: [u8; K],
    found: impl FnMut(usize, [u32; K]) -> Option<R>,
) -> Option<R> {
    assert!(bytes.len() >= WINDOW && start <= bytes.len());
    #[cfg(target_arch = "x86_64")]
    if VECTORS {
        return windows(bytes, start, found, |base| {
            use vector::{Sse2, Vector};
            // SAFETY: `windows` asks for `base + 16 <= bytes.len()`, and
            // SSE2 is part of the x86_64 baseline.
            let v = unsafe { Sse2::load(bytes.as_ptr().add(base)) };
            // SAFETY: as above.
            needles.map(|b| unsafe { v.eq(b).movemask() })
        });
    }
    find_in_windows_scalar(bytes, start, needles, found)
}

/// [`find_in_windows`] one byte at a time: the reference.
pub fn find_in_windows_scalar<const K: usize, R>(
    bytes: &[u8],
    start: usize,
    needles: [u8; K],
    found: impl FnMut(usize, [u32; K]) -> Option<R>,
) -> Option<R> {
    windows(bytes, start, found, |base| {
        needles.map(|b| (0..WINDOW).fold(0, |mask, j| mask | u32::from(bytes[base + j] == b) << j))
    })
}

/// The loop of [`find_in_windows`] over the windows of `bytes` from `start`
/// on, with `masks(base)` the needles' masks of the window at `base`.
#[inline(always)]
fn windows<const K: usize, R>(
    bytes: &[u8],
    start: usize,
    mut found: impl FnMut(usize, [u32; K]) -> Option<R>,
    masks: impl Fn(usize) -> [u32; K],
) -> Option<R> {
    let n = bytes.len();
    let mut i = start;
    while i < n {
        let base = i.min(n - WINDOW);
        // The lanes from `i` on (`i - base` is 0 but in the last window).
        let from = u32::MAX << (i - base);
        if let Some(r) = found(base, masks(base).map(|m| m & from)) {
            return Some(r);
        }
        i = base + WINDOW;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        #[test]
        fn windows_match_scalar(
            bytes in proptest::collection::vec(proptest::sample::select(b"&=%a".to_vec()), 16..70),
            start in 0..70usize,
        ) {
            let start = start.min(bytes.len());
            let collect = |vector: bool| {
                let mut seen = Vec::new();
                let record = |base: usize, masks: [u32; 2]| {
                    seen.push((base, masks));
                    None::<()>
                };
                if vector {
                    find_in_windows(&bytes, start, [b'&', b'%'], record);
                } else {
                    find_in_windows_scalar(&bytes, start, [b'&', b'%'], record);
                }
                seen
            };
            proptest::prop_assert_eq!(collect(true), collect(false));
        }

        #[test]
        fn windows_report_each_needle_once_in_order(
            bytes in proptest::collection::vec(proptest::sample::select(b"&=%a".to_vec()), 16..70),
            start in 0..70usize,
        ) {
            let start = start.min(bytes.len());
            let mut seen = Vec::new();
            let none = find_in_windows(&bytes, start, [b'&', b'%'], |base, masks| {
                for (k, mut mask) in masks.into_iter().enumerate() {
                    while mask != 0 {
                        seen.push((base + mask.trailing_zeros() as usize, k));
                        mask &= mask - 1;
                    }
                }
                None::<()>
            });
            proptest::prop_assert!(none.is_none());
            seen.sort_unstable();
            let naive: Vec<(usize, usize)> = (start..bytes.len())
                .filter_map(|i| match bytes[i] {
                    b'&' => Some((i, 0)),
                    b'%' => Some((i, 1)),
                    _ => None,
                })
                .collect();
            proptest::prop_assert_eq!(seen, naive);
        }
    }
}
