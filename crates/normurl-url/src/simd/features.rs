//! One pass over a URL that says whether it has any of the bytes the rules
//! care about, so that the fast path of the canonicalizer can tell that
//! rules have nothing to do without each rule scanning on its own.
//!
//! With vectors ([`super::VECTORS`]) it looks at 16 bytes at a time with
//! SSE2, or 32 with AVX2 in the `WIDE` instances; elsewhere, and as the
//! reference the tests compare against, it uses a 256-entry table.

/// What a range of bytes contains: a small bitset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Features(u8);

impl Features {
    /// Nothing of interest.
    pub const NONE: Features = Features(0);
    /// A `%`: the percent rules may have something to do.
    pub const PERCENT: Features = Features(1);
    /// An ASCII uppercase letter: the lowercase rules may.
    pub const UPPER: Features = Features(2);
    /// A `;` or `(`: where the path session ids start (`;jsessionid=`,
    /// ASP.NET's `(S(...))`).
    pub const SESSION: Features = Features(4);
    /// `//`: collapse-slashes may have something to do.
    pub const SLASH_PAIR: Features = Features(8);
    /// `..`: trim-host-dots may.
    pub const DOT_PAIR: Features = Features(16);
    /// An `&`: a query of more than one parameter, which the query rules
    /// may drop or reorder.
    pub const AMP: Features = Features(32);
    /// Every feature.
    pub const ALL: Features = Features(63);

    /// Whether `self` and `other` share a feature.
    #[inline]
    pub const fn contains(self, other: Features) -> bool {
        self.0 & other.0 != 0
    }

    #[inline]
    pub const fn union(self, other: Features) -> Features {
        Features(self.0 | other.0)
    }

    #[cfg(test)]
    const fn without(self, other: Features) -> Features {
        Features(self.0 & !other.0)
    }

    /// The bits, for [`any`]'s parameter.
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// Whether every feature of `other` is in `self`.
    pub const fn contains_all(self, other: Features) -> bool {
        self.0 & other.0 == other.0
    }
}

/// Per byte, the features it gives on its own (all but the pairs).
static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = if c == b'%' {
            Features::PERCENT.0
        } else if c.is_ascii_uppercase() {
            Features::UPPER.0
        } else if c == b';' || c == b'(' {
            Features::SESSION.0
        } else if c == b'&' {
            Features::AMP.0
        } else {
            0
        };
        b += 1;
    }
    t
};

/// Per byte, the pair feature it gives when the byte before it is the
/// same: `//` and `..`.
static PAIR: [u8; 256] = {
    let mut t = [0u8; 256];
    t[b'/' as usize] = Features::SLASH_PAIR.0;
    t[b'.' as usize] = Features::DOT_PAIR.0;
    t
};

/// The features of `bytes`, in one pass. Scalar reference implementation
/// for the vector code (tested itself against `classify_naive`), and the
/// one the fast path uses to find out which feature a scan found.
pub fn classify_scalar(bytes: &[u8]) -> Features {
    let mut f = 0;
    // No byte is 0x100: the first byte pairs with nothing.
    let mut prev = 0x100;
    for &b in bytes {
        let b = usize::from(b);
        f |= CLASS[b];
        if b == prev {
            f |= PAIR[b];
        }
        prev = b;
    }
    Features(f)
}

/// [`classify_scalar`] with SSE2 vectors, for the fast path's `careful`,
/// which asks which features a component has once a scan found one:
/// every feature in one pass, in a fraction of the scalar loop's
/// instructions on a path of crawled length (docs/performance-history.md).
pub fn classify(bytes: &[u8]) -> Features {
    #[cfg(target_arch = "x86_64")]
    if super::VECTORS && bytes.len() > <vector::Sse2 as vector::Vector>::LANES {
        // SAFETY: SSE2 is part of the x86_64 baseline.
        return unsafe { vector::classify::<vector::Sse2>(bytes) };
    }
    classify_scalar(bytes)
}

/// [`classify_scalar`] written plainly: the byte classes, then the pairs.
#[cfg(test)]
fn classify_naive(bytes: &[u8]) -> Features {
    let mut f = Features::NONE;
    for &b in bytes {
        f = f.union(Features(CLASS[b as usize]));
    }
    for w in bytes.windows(2) {
        match w {
            b"//" => f = f.union(Features::SLASH_PAIR),
            b".." => f = f.union(Features::DOT_PAIR),
            _ => {}
        }
    }
    f
}

/// Whether `href[start..end]` has any of the features `W` (a
/// [`Features`] value). Only bytes in the range count, but the vector code
/// may read other bytes of `href` (never past it). Callers that need to
/// know which feature is there ask [`classify_scalar`] next: most URLs
/// have none.
///
/// `W` is a constant so that each instance has only the compares it needs
/// (the `semantic` scan is one compare a vector); [`any_of`] picks an
/// instance at run time.
#[inline(always)]
pub fn any<const W: u8>(href: &[u8], start: usize, end: usize) -> bool {
    // SAFETY: without `WIDE`, no instructions beyond the x86_64 baseline.
    unsafe { any_in::<W, false>(href, start, end) }
}

/// [`any`], with 32-byte AVX2 vectors when `WIDE` (half the loop trips of
/// SSE2's 16 bytes on the long paths of crawled URLs).
///
/// # Safety
///
/// With `WIDE`, the CPU must have AVX2 ([`super::avx2`]). Call it from
/// a function with `#[target_feature(enable = "avx2")]`, or the intrinsics
/// will be calls.
#[inline(always)]
pub unsafe fn any_in<const W: u8, const WIDE: bool>(href: &[u8], start: usize, end: usize) -> bool {
    if W == 0 {
        return false;
    }
    #[cfg(target_arch = "x86_64")]
    if super::VECTORS {
        use vector::{Avx2, Sse2, Vector};
        if WIDE && end >= Avx2::LANES {
            // SAFETY: the caller's.
            return unsafe { vector::any::<Avx2, W>(href, start, end) };
        }
        if end >= Sse2::LANES {
            // SAFETY: SSE2 is part of the x86_64 baseline.
            return unsafe { vector::any::<Sse2, W>(href, start, end) };
        }
    }
    // A range in the first 16 bytes of a URL: rare enough for the plain
    // loop, which spares the vector code a mask on each end.
    classify_scalar(&href[start..end]).contains(Features(W))
}

/// Appends `href[..keep]` and `href[start..]` to `out` and returns true
/// when `href[start..]` has none of the features `W`; returns false,
/// leaving `out` as it was, when it has some (`keep <= start`). This is
/// [`any`] and the copy in one pass over the bytes, for the many URLs the
/// fast path writes unchanged or with a cut before the scanned range (a
/// leading `www.`): each vector the scan loads is also stored, instead of
/// a second pass (a `memcpy` call) after the scan. With `WIDE` the vectors
/// are AVX2's.
///
/// # Safety
///
/// As for [`any_in`].
#[inline(always)]
pub unsafe fn append_if_none_in<const W: u8, const WIDE: bool>(
    href: &[u8],
    keep: usize,
    start: usize,
    out: &mut Vec<u8>,
) -> bool {
    #[cfg(target_arch = "x86_64")]
    if super::VECTORS && W != 0 {
        use vector::{Avx2, Sse2};
        if WIDE && vector::can_append::<Avx2>(href.len(), keep, start) {
            // SAFETY: the caller's.
            return unsafe { vector::append_if_none::<Avx2, W>(href, keep, start, out) };
        }
        if vector::can_append::<Sse2>(href.len(), keep, start) {
            // SAFETY: SSE2 is part of the x86_64 baseline.
            return unsafe { vector::append_if_none::<Sse2, W>(href, keep, start, out) };
        }
    }
    if any::<W>(href, start, href.len()) {
        return false;
    }
    out.reserve(keep + href.len() - start);
    out.extend_from_slice(&href[..keep]);
    out.extend_from_slice(&href[start..]);
    true
}

/// [`any`] for a set of features known at run time.
pub fn any_of(want: Features, href: &[u8], start: usize, end: usize) -> bool {
    ANY[(want.0 & Features::ALL.0) as usize](href, start, end)
}

/// An instance of [`any`].
type AnyFn = fn(&[u8], usize, usize) -> bool;

/// `[f::<0> as T, f::<1> as T, ..., f::<63> as T]`: one instance of a
/// function generic over a set of features per set, indexed by its bits.
macro_rules! per_feature_set {
    ($f:ident as $t:ty) => {
        per_feature_set!(@ $f, $t;
            0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31
            32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60
            61 62 63)
    };
    (@ $f:ident, $t:ty; $($w:literal)*) => { [$($f::<$w> as $t),*] };
}

/// One instance of [`any`] per set of features, indexed by its bits.
static ANY: [AnyFn; 64] = per_feature_set!(any as AnyFn);

/// The vector code of [`any_in`] and [`append_if_none_in`], written once over
/// the [`Vector`](vector::Vector) operations, for SSE2 (16 bytes, the
/// x86_64 baseline) and AVX2 (32 bytes).
#[cfg(target_arch = "x86_64")]
// Newer compilers know that an intrinsic called from a function with its
// target feature is safe; the oldest supported one (see `rust-version`)
// wants the `unsafe` blocks.
#[allow(unused_unsafe)]
mod vector {
    use super::Features;
    pub(super) use crate::simd::vector::{Avx2, Sse2, Vector};

    /// Whether `W` has a pair feature: then [`wanted`] needs the vector
    /// one byte later.
    const fn pairs(w: u8) -> bool {
        Features(w).contains(Features::SLASH_PAIR.union(Features::DOT_PAIR))
    }

    /// The lanes of `v` wanted in `W`: singles, and the first bytes of
    /// pairs (`next` is `v` one byte later; without [`pairs`], anything:
    /// callers pass `v` rather than load it).
    ///
    /// # Safety
    ///
    /// The CPU must have `V`'s instructions.
    #[inline(always)]
    unsafe fn wanted<V: Vector, const W: u8>(v: V, next: V) -> V {
        let want = Features(W);
        // SAFETY (all blocks): the caller's.
        let mut m = unsafe { V::zero() };
        if want.contains(Features::PERCENT) {
            m = unsafe { m.or(v.eq(b'%')) };
        }
        if want.contains(Features::UPPER) {
            m = unsafe { m.or(v.upper()) };
        }
        if want.contains(Features::SESSION) {
            m = unsafe { m.or(v.eq(b';').or(v.eq(b'('))) };
        }
        if want.contains(Features::AMP) {
            m = unsafe { m.or(v.eq(b'&')) };
        }
        let pair_byte = match (
            want.contains(Features::SLASH_PAIR),
            want.contains(Features::DOT_PAIR),
        ) {
            (false, false) => return m,
            (true, false) => unsafe { v.eq(b'/') },
            (false, true) => unsafe { v.eq(b'.') },
            (true, true) => unsafe { v.eq(b'/').or(v.eq(b'.')) },
        };
        unsafe { m.or(pair_byte.and(v.eq_lanes(next))) }
    }

    /// The vector at `src + i` and its lanes wanted in `W`.
    ///
    /// # Safety
    ///
    /// The CPU must have `V`'s instructions, and `V::LANES + 1` bytes from
    /// `src + i` must be readable (the one after the vector for the pairs).
    #[inline(always)]
    unsafe fn wanted_at<V: Vector, const W: u8>(src: *const u8, i: usize) -> (V, V) {
        // SAFETY (all blocks): the caller's.
        let v = unsafe { V::load(src.add(i)) };
        let next = if pairs(W) {
            unsafe { V::load(src.add(i + 1)) }
        } else {
            v
        };
        (v, unsafe { wanted::<V, W>(v, next) })
    }

    /// The last vector of a range, at `src + window`, and the mask of its
    /// lanes wanted in `W` (no byte after it counts).
    ///
    /// # Safety
    ///
    /// The CPU must have `V`'s instructions, and `V::LANES` bytes from
    /// `src + window` must be readable.
    #[inline(always)]
    unsafe fn wanted_last<V: Vector, const W: u8>(src: *const u8, window: usize) -> (V, u32) {
        // SAFETY (all blocks): the caller's.
        let v = unsafe { V::load(src.add(window)) };
        let next = if pairs(W) {
            unsafe { v.shift_in_zero() }
        } else {
            v
        };
        (v, unsafe { wanted::<V, W>(v, next).movemask() })
    }

    /// Whether a scan found something: in the vectors the loop or-ed into
    /// `found`, or in the lanes of the last vector's mask `last` (the
    /// vector at `window`) from `start` on.
    ///
    /// # Safety
    ///
    /// The CPU must have `V`'s instructions.
    #[inline(always)]
    unsafe fn found_any<V: Vector>(found: V, last: u32, start: usize, window: usize) -> bool {
        let from_start = (u64::MAX << start.saturating_sub(window).min(32)) as u32;
        // SAFETY: the caller's.
        (unsafe { found.movemask() } | (last & from_start)) != 0
    }

    /// [`super::any_in`] with vectors of `V`, for `end >= V::LANES`.
    ///
    /// # Safety
    ///
    /// The CPU must have `V`'s instructions.
    #[inline(always)]
    pub(super) unsafe fn any<V: Vector, const W: u8>(
        href: &[u8],
        start: usize,
        end: usize,
    ) -> bool {
        assert!(start <= end && end <= href.len() && end >= V::LANES);
        let src = href.as_ptr();
        // SAFETY (loads below): a load at `src + j` reads
        // `j..j + V::LANES`, inside `href` when `j + V::LANES <= end`; the
        // loop loads at `i` and `i + 1` with `i + V::LANES + 1 <= end`
        // (so no pair reaches past `end`), the last vector at
        // `end - V::LANES`.
        let mut found = unsafe { V::zero() };
        let mut i = start;
        while i + V::LANES < end {
            let (_, wanted) = unsafe { wanted_at::<V, W>(src, i) };
            found = unsafe { found.or(wanted) };
            i += V::LANES;
        }
        // The vector that ends at `end`, overlapping what the loop looked
        // at (`end - V::LANES <= i`), with the lanes before `start` dropped.
        let window = end - V::LANES;
        let (_, last) = unsafe { wanted_last::<V, W>(src, window) };
        unsafe { found_any(found, last, start, window) }
    }

    /// [`super::classify`] with vectors of `V`, for more than `V::LANES`
    /// bytes: each feature's lanes ([`wanted`] of that feature alone; the
    /// compiler shares the compares they have in common) or-ed over the
    /// vectors (the last one overlapping the others: every byte is in
    /// range), then one movemask per feature.
    ///
    /// # Safety
    ///
    /// The CPU must have `V`'s instructions.
    #[inline(always)]
    pub(super) unsafe fn classify<V: Vector>(bytes: &[u8]) -> Features {
        let n = bytes.len();
        assert!(n > V::LANES);
        let src = bytes.as_ptr();
        // SAFETY (all blocks): the caller's, and the loads read
        // `i..i + V::LANES + 1` with `i + V::LANES < n`, then
        // `n - V::LANES..n`.
        let mut acc = unsafe { [V::zero(); 6] };
        // In bit order: `acc[k]` holds the feature `1 << k`.
        let mut add = |v: V, next: V| unsafe {
            acc[0] = acc[0].or(wanted::<V, { Features::PERCENT.bits() }>(v, next));
            acc[1] = acc[1].or(wanted::<V, { Features::UPPER.bits() }>(v, next));
            acc[2] = acc[2].or(wanted::<V, { Features::SESSION.bits() }>(v, next));
            acc[3] = acc[3].or(wanted::<V, { Features::SLASH_PAIR.bits() }>(v, next));
            acc[4] = acc[4].or(wanted::<V, { Features::DOT_PAIR.bits() }>(v, next));
            acc[5] = acc[5].or(wanted::<V, { Features::AMP.bits() }>(v, next));
        };
        let mut i = 0;
        while i + V::LANES < n {
            unsafe { add(V::load(src.add(i)), V::load(src.add(i + 1))) };
            i += V::LANES;
        }
        let last = unsafe { V::load(src.add(n - V::LANES)) };
        add(last, unsafe { last.shift_in_zero() });
        let mut f = 0;
        for (bit, lanes) in acc.into_iter().enumerate() {
            f |= u8::from(unsafe { lanes.movemask() } != 0) << bit;
        }
        Features(f)
    }

    /// Whether [`append_if_none`] with vectors of `V` takes these
    /// arguments: its last store writes the first `V::LANES` bytes of
    /// the output, `..keep` of them from `href`'s start, so the output
    /// (`n - (start - keep)` bytes) must have that many.
    #[inline(always)]
    pub(super) fn can_append<V: Vector>(n: usize, keep: usize, start: usize) -> bool {
        keep <= V::LANES && n >= V::LANES + (start - keep)
    }

    /// [`super::append_if_none_in`] with vectors of `V`, for the arguments
    /// [`can_append`] takes: [`any`] from `start` to the end of `href`,
    /// storing every vector it loads into `out`'s spare capacity
    /// (`start - keep` bytes earlier), after the first `V::LANES` bytes of
    /// `href`.
    ///
    /// # Safety
    ///
    /// The CPU must have `V`'s instructions.
    #[inline(always)]
    pub(super) unsafe fn append_if_none<V: Vector, const W: u8>(
        href: &[u8],
        keep: usize,
        start: usize,
        out: &mut Vec<u8>,
    ) -> bool {
        let n = href.len();
        assert!(keep <= start && start <= n && can_append::<V>(n, keep, start));
        let shift = start - keep;
        let total = n - shift;
        out.reserve(total);
        let len = out.len();
        // Raw pointers: the loop runs for every URL, and slice bounds
        // checks on both sides were a large part of its instructions
        // (docs/performance-history.md).
        let src = href.as_ptr();
        // SAFETY: `reserve` made room for `total` bytes after `len`.
        let dst = unsafe { out.as_mut_ptr().add(len) };
        // SAFETY (for the loads and stores below): a load at `src + j`
        // reads `j..j + V::LANES`, in `href` when `j + V::LANES <= n`; a
        // store at `dst + j - shift` writes `j - shift..j - shift +
        // V::LANES`, inside the reserved `total` bytes when
        // `j + V::LANES <= n` and `j >= shift`.
        let mut found = unsafe { V::zero() };
        let mut i = start;
        if i + V::LANES < n {
            // Peeled: most URLs have at most one vector before the last.
            let (v, wanted) = unsafe { wanted_at::<V, W>(src, i) };
            unsafe { v.store(dst.add(i - shift)) };
            found = wanted;
            i += V::LANES;
            while i + V::LANES < n {
                let (v, wanted) = unsafe { wanted_at::<V, W>(src, i) };
                unsafe { v.store(dst.add(i - shift)) };
                found = unsafe { found.or(wanted) };
                i += V::LANES;
            }
        }
        // The last vector, as in `any`. `window >= shift` (`can_append`),
        // so `window - shift` does not underflow; when `window < start`,
        // the lanes before `start` land below `keep`, where the store
        // after this one writes the right bytes over them.
        let window = n - V::LANES;
        let (v, last) = unsafe { wanted_last::<V, W>(src, window) };
        unsafe { v.store(dst.add(window - shift)) };
        // The first `V::LANES` bytes of the output: `href[..keep]`, then
        // bytes from `start` on like every other store's (`j + shift`).
        // Not a branch on whether the last vector reached back before
        // `start` (with `www.` cut, as often as not on short URLs) but a
        // blend, always and last.
        let head = unsafe { V::load(src).below_then(keep, V::load(src.add(shift))) };
        unsafe { head.store(dst) };
        if unsafe { found_any(found, last, start, window) } {
            return false;
        }
        // SAFETY: the first `total` bytes after `len` are written:
        // `keep..i - shift` by the loop, which stops at an `i` past
        // `n - V::LANES - 1`, `total - V::LANES..` by the last vector and
        // `..V::LANES` by the head. With `keep <= V::LANES` that covers
        // `..total` (when the loop does not run, `n <= start + V::LANES`,
        // so `total - V::LANES <= keep`). Each byte holds the right one:
        // output byte `j` is `href[j]` below `keep`, `href[j + shift]`
        // from there on, and the head, stored last, is right everywhere.
        unsafe { out.set_len(len + total) };
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// No feature, the whole set, each feature alone and each feature left
    /// out: every compare on and off.
    fn wants() -> Vec<Features> {
        let mut all = vec![Features::NONE, Features::ALL];
        for bit in 0..6 {
            all.push(Features(1 << bit));
            all.push(Features::ALL.without(Features(1 << bit)));
        }
        all
    }

    /// The bytes that matter, plus neighbours of the class boundaries.
    const INTERESTING: &[u8] = b"%;(/.@AZ[`az09\x00\x7f\x80\xff ?#&=";

    #[test]
    fn classes_of_single_bytes() {
        for b in 0..=255u8 {
            let f = classify_scalar(&[b]);
            assert_eq!(f.contains(Features::PERCENT), b == b'%', "{b:#x}");
            assert_eq!(
                f.contains(Features::UPPER),
                b.is_ascii_uppercase(),
                "{b:#x}"
            );
            assert_eq!(
                f.contains(Features::SESSION),
                b == b';' || b == b'(',
                "{b:#x}"
            );
        }
        assert_eq!(classify_scalar(b"a//b"), Features::SLASH_PAIR);
        assert_eq!(classify_scalar(b"a///b"), Features::SLASH_PAIR);
        assert_eq!(
            classify_scalar(b"/.%/.(/"),
            Features::PERCENT.union(Features::SESSION)
        );
        assert_eq!(classify_scalar(b"a/./b"), Features::NONE);
        assert_eq!(classify_scalar(b"a..b"), Features::DOT_PAIR);
    }

    #[test]
    fn every_byte_at_every_offset_of_every_range() {
        // One byte (or a pair of them) at each position of hrefs of
        // length 16 to 40, for ranges around it: whole vectors, tails of
        // every length, ranges shorter than a vector at every offset.
        let scans = wants();
        for len in 16..41 {
            for b in 0..=255u8 {
                for pos in 0..len {
                    let mut href = vec![b'a'; len];
                    href[pos] = b;
                    check_ranges(&scans, &href, pos);
                }
            }
            for pos in 0..len - 1 {
                for pair in [b'/', b'.'] {
                    let mut href = vec![b'a'; len];
                    href[pos] = pair;
                    href[pos + 1] = pair;
                    check_ranges(&scans, &href, pos);
                }
            }
        }
    }

    #[test]
    fn interesting_bytes_in_long_hrefs() {
        // The 32-byte vectors: whole vectors, the loop's last trip and the
        // overlapping last vector, for hrefs around one, two and three
        // vectors long (the test above covers every byte value up to 40).
        let scans = wants();
        for len in (30..37).chain(62..69).chain(94..101) {
            for &b in INTERESTING {
                for pos in 0..len {
                    let mut href = vec![b'a'; len];
                    href[pos] = b;
                    if pos + 1 < len && matches!(b, b'/' | b'.') {
                        let mut paired = href.clone();
                        paired[pos + 1] = b;
                        check_ranges(&scans, &paired, pos);
                    }
                    check_ranges(&scans, &href, pos);
                }
            }
        }
    }

    /// [`append_if_none`] against [`classify_scalar`] and a plain copy.
    fn check_append(href: &[u8], keep: usize, start: usize) {
        let want = [
            Features::PERCENT,
            Features::ALL.without(Features::AMP),
            Features::PERCENT.union(Features::SLASH_PAIR.union(Features::DOT_PAIR)),
        ];
        for want in want {
            let found = classify_scalar(&href[start..]).contains(want);
            let mut out = b"prefix".to_vec();
            let appended = APPEND[usize::from(want.bits())](href, keep, start, &mut out);
            assert_eq!(appended, !found, "{href:?} {keep} {start} {want:?}");
            let mut expected = b"prefix".to_vec();
            if appended {
                expected.extend_from_slice(&href[..keep]);
                expected.extend_from_slice(&href[start..]);
            }
            assert_eq!(out, expected, "{href:?} {keep} {start} {want:?}");
            #[cfg(target_arch = "x86_64")]
            if super::super::avx2_detected() {
                let mut out = b"prefix".to_vec();
                // SAFETY: the CPU has AVX2.
                let appended =
                    unsafe { WIDE_APPEND[usize::from(want.bits())](href, keep, start, &mut out) };
                assert_eq!(appended, !found, "wide {href:?} {keep} {start} {want:?}");
                assert_eq!(out, expected, "wide {href:?} {keep} {start} {want:?}");
            }
        }
    }

    /// [`append_if_none_in`] with AVX2, in a function with AVX2 on, as
    /// the canonicalizer calls it.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn wide_append<const W: u8>(
        href: &[u8],
        keep: usize,
        start: usize,
        out: &mut Vec<u8>,
    ) -> bool {
        // SAFETY: the caller's.
        unsafe { append_if_none_in::<W, true>(href, keep, start, out) }
    }

    /// [`any_in`] with AVX2, in a function with AVX2 on.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn wide_any<const W: u8>(href: &[u8], start: usize, end: usize) -> bool {
        // SAFETY: the caller's.
        unsafe { any_in::<W, true>(href, start, end) }
    }

    /// An instance of [`wide_append`].
    #[cfg(target_arch = "x86_64")]
    type WideAppendFn = unsafe fn(&[u8], usize, usize, &mut Vec<u8>) -> bool;
    #[cfg(target_arch = "x86_64")]
    static WIDE_APPEND: [WideAppendFn; 64] = per_feature_set!(wide_append as WideAppendFn);

    /// An instance of [`wide_any`].
    #[cfg(target_arch = "x86_64")]
    type WideAnyFn = unsafe fn(&[u8], usize, usize) -> bool;
    #[cfg(target_arch = "x86_64")]
    static WIDE_ANY: [WideAnyFn; 64] = per_feature_set!(wide_any as WideAnyFn);

    /// [`append_if_none_in`] with SSE2.
    fn append_if_none<const W: u8>(
        href: &[u8],
        keep: usize,
        start: usize,
        out: &mut Vec<u8>,
    ) -> bool {
        // SAFETY: without `WIDE`, no instructions beyond the baseline.
        unsafe { append_if_none_in::<W, false>(href, keep, start, out) }
    }

    /// An instance of [`append_if_none`].
    type AppendFn = fn(&[u8], usize, usize, &mut Vec<u8>) -> bool;

    /// One instance of [`append_if_none`] per set of features.
    static APPEND: [AppendFn; 64] = per_feature_set!(append_if_none as AppendFn);

    #[test]
    fn append_matches_scan_and_copy() {
        // Every interesting byte (or pair) at every position of hrefs of
        // 1 to 100 bytes (two trips of the 32-byte loop and the last
        // vector), scanned from every start up to 20, keeping everything
        // before it or cutting 4 bytes (as for `www.`).
        for len in 1..101 {
            for pos in 0..len {
                for (first, second) in [
                    (b'%', b'a'),
                    (b'/', b'/'),
                    (b'.', b'.'),
                    (b';', b'a'),
                    (b'a', b'a'),
                ] {
                    let mut href = vec![b'a'; len];
                    href[pos] = first;
                    if pos + 1 < len {
                        href[pos + 1] = second;
                    }
                    for start in 0..len.min(21) {
                        check_append(&href, start, start);
                        if start >= 4 {
                            check_append(&href, start - 4, start);
                        }
                    }
                }
            }
        }
    }

    /// Compares ranges that start or end at, just before or just after
    /// `pos`, or at the ends of `href`.
    fn check_ranges(scans: &[Features], href: &[u8], pos: usize) {
        let len = href.len();
        for start in [0, pos, pos + 1] {
            for end in [pos, pos + 1, pos + 2, len] {
                if start > end || end > len {
                    continue;
                }
                let exact = classify_scalar(&href[start..end]);
                for &want in scans {
                    assert_eq!(
                        any_of(want, href, start, end),
                        exact.contains(want),
                        "{href:?} {start}..{end} {want:?}"
                    );
                    #[cfg(target_arch = "x86_64")]
                    if super::super::avx2_detected() {
                        // SAFETY: the CPU has AVX2.
                        let found = unsafe { WIDE_ANY[usize::from(want.bits())](href, start, end) };
                        assert_eq!(found, exact.contains(want), "wide {href:?} {start}..{end}");
                    }
                }
            }
        }
    }

    proptest! {
        #[test]
        fn scalar_and_vector_match_naive(
            bytes in proptest::collection::vec(proptest::sample::select(INTERESTING.to_vec()), 0..80),
        ) {
            prop_assert_eq!(classify_scalar(&bytes), classify_naive(&bytes));
            prop_assert_eq!(classify(&bytes), classify_naive(&bytes));
        }

        #[test]
        fn append_matches_scalar(
            href in proptest::collection::vec(proptest::sample::select(INTERESTING.to_vec()), 0..120),
            start in 0usize..40,
            cut in 0usize..6,
        ) {
            let start = start.min(href.len());
            check_append(&href, start.saturating_sub(cut), start);
        }

        #[test]
        fn matches_scalar(
            href in proptest::collection::vec(proptest::sample::select(INTERESTING.to_vec()), 0..80),
            a in 0usize..80,
            b in 0usize..80,
            want in 0u8..64,
        ) {
            let (start, end) = (a.min(b).min(href.len()), a.max(b).min(href.len()));
            let want = Features(want);
            prop_assert_eq!(
                any_of(want, &href, start, end),
                classify_scalar(&href[start..end]).contains(want)
            );
        }
    }
}
