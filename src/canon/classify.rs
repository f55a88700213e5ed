//! One pass over a URL that says whether it has any of the bytes the rules
//! care about, so that the fast path of the canonicalizer can tell that
//! rules have nothing to do without each rule scanning on its own.
//!
//! On x86_64 it looks at 16 bytes at a time with SSE2 (part of the x86_64
//! baseline, so no runtime detection), the way `url/scan.rs` does;
//! elsewhere, and as the reference the tests compare against, it uses a
//! 256-entry table.

/// What a range of bytes contains: a small bitset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Features(u8);

impl Features {
    /// Nothing of interest.
    pub(crate) const NONE: Features = Features(0);
    /// A `%`: the percent rules may have something to do.
    pub(crate) const PERCENT: Features = Features(1);
    /// An ASCII uppercase letter: the lowercase rules may.
    pub(crate) const UPPER: Features = Features(2);
    /// A `;` or `(`: where the path session ids start (`;jsessionid=`,
    /// ASP.NET's `(S(...))`).
    pub(crate) const SESSION: Features = Features(4);
    /// `//`: collapse-slashes may have something to do.
    pub(crate) const SLASH_PAIR: Features = Features(8);
    /// `..`: trim-host-dots may.
    pub(crate) const DOT_PAIR: Features = Features(16);
    /// An `&`: a query of more than one parameter, which the query rules
    /// may drop or reorder.
    pub(crate) const AMP: Features = Features(32);
    /// Every feature.
    pub(crate) const ALL: Features = Features(63);

    /// Whether `self` and `other` share a feature.
    #[inline]
    pub(crate) const fn contains(self, other: Features) -> bool {
        self.0 & other.0 != 0
    }

    #[inline]
    pub(crate) const fn union(self, other: Features) -> Features {
        Features(self.0 | other.0)
    }

    #[cfg(test)]
    const fn without(self, other: Features) -> Features {
        Features(self.0 & !other.0)
    }

    /// The bits, for [`any`]'s parameter.
    pub(crate) const fn bits(self) -> u8 {
        self.0
    }

    /// Whether every feature of `other` is in `self`.
    pub(crate) const fn contains_all(self, other: Features) -> bool {
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
/// for the vector code (tested itself against [`classify_naive`]), and the
/// one the fast path uses to find out which feature a scan found.
pub(crate) fn classify_scalar(bytes: &[u8]) -> Features {
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
pub(crate) fn any<const W: u8>(href: &[u8], start: usize, end: usize) -> bool {
    if W == 0 {
        return false;
    }
    #[cfg(target_arch = "x86_64")]
    {
        if end >= 16 {
            return sse2::any::<W>(href, start, end);
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
/// a second pass (a `memcpy` call) after the scan.
#[inline(always)]
pub(crate) fn append_if_none<const W: u8>(
    href: &[u8],
    keep: usize,
    start: usize,
    out: &mut Vec<u8>,
) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        // The vector code stores the first 16 bytes for `..keep`, then
        // 16-byte vectors from `start` on (or from 0 when nothing is cut).
        let n = href.len();
        if W != 0 && keep <= 16 && n >= 16 && (start == keep || n - start >= 16) {
            return sse2::append_if_none::<W>(href, keep, start, out);
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
pub(crate) fn any_of(want: Features, href: &[u8], start: usize, end: usize) -> bool {
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

#[cfg(target_arch = "x86_64")]
mod sse2 {
    use super::Features;
    use std::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_cmpeq_epi8, _mm_cmpgt_epi8, _mm_cmplt_epi8, _mm_loadu_si128,
        _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8, _mm_setzero_si128, _mm_srli_si128,
        _mm_storeu_si128,
    };

    #[inline(always)]
    fn load(bytes: &[u8; 16]) -> __m128i {
        // SAFETY: `bytes` is a reference to exactly 16 readable bytes, and
        // `_mm_loadu_si128` has no alignment requirement. SSE2 is part of
        // the x86_64 baseline, so the instruction is always available.
        unsafe { _mm_loadu_si128(bytes.as_ptr().cast::<__m128i>()) }
    }

    // SAFETY (for every `unsafe` block below that calls an SSE2
    // intrinsic): these intrinsics only require the `sse2` target feature,
    // which every x86_64 target enables; they take no pointers.

    #[inline(always)]
    fn splat(b: u8) -> __m128i {
        // SAFETY: SSE2 intrinsic, always available on x86_64 (see above).
        unsafe { _mm_set1_epi8(b as i8) }
    }

    #[inline(always)]
    fn zero() -> __m128i {
        // SAFETY: SSE2 intrinsic, always available on x86_64.
        unsafe { _mm_setzero_si128() }
    }

    #[inline(always)]
    fn eq(v: __m128i, b: u8) -> __m128i {
        // SAFETY: SSE2 intrinsic, always available on x86_64.
        unsafe { _mm_cmpeq_epi8(v, splat(b)) }
    }

    #[inline(always)]
    fn or(a: __m128i, b: __m128i) -> __m128i {
        // SAFETY: SSE2 intrinsic, always available on x86_64.
        unsafe { _mm_or_si128(a, b) }
    }

    #[inline(always)]
    fn and(a: __m128i, b: __m128i) -> __m128i {
        // SAFETY: SSE2 intrinsic, always available on x86_64.
        unsafe { _mm_and_si128(a, b) }
    }

    #[inline(always)]
    fn movemask(v: __m128i) -> u32 {
        // SAFETY: SSE2 intrinsic, always available on x86_64.
        unsafe { _mm_movemask_epi8(v) as u32 }
    }

    /// `A-Z`: signed `'A' - 1 < v < 'Z' + 1` (bytes >= 0x80 are negative).
    #[inline(always)]
    fn upper(v: __m128i) -> __m128i {
        // SAFETY: SSE2 intrinsics, always available on x86_64.
        unsafe {
            and(
                _mm_cmpgt_epi8(v, splat(b'A' - 1)),
                _mm_cmplt_epi8(v, splat(b'Z' + 1)),
            )
        }
    }

    /// The bytes of `v` that are wanted in `W`: singles, and the first
    /// bytes of pairs (`next` is `v` one byte later, loaded only when
    /// pairs are wanted).
    #[inline(always)]
    fn wanted<const W: u8>(v: __m128i, next: impl FnOnce() -> __m128i) -> __m128i {
        let want = Features(W);
        let mut m = zero();
        if want.contains(Features::PERCENT) {
            m = or(m, eq(v, b'%'));
        }
        if want.contains(Features::UPPER) {
            m = or(m, upper(v));
        }
        if want.contains(Features::SESSION) {
            m = or(m, or(eq(v, b';'), eq(v, b'(')));
        }
        if want.contains(Features::AMP) {
            m = or(m, eq(v, b'&'));
        }
        let pair_byte = match (
            want.contains(Features::SLASH_PAIR),
            want.contains(Features::DOT_PAIR),
        ) {
            (false, false) => return m,
            (true, false) => eq(v, b'/'),
            (false, true) => eq(v, b'.'),
            (true, true) => or(eq(v, b'/'), eq(v, b'.')),
        };
        // SAFETY: SSE2 intrinsic, always available on x86_64.
        or(m, and(pair_byte, unsafe { _mm_cmpeq_epi8(v, next()) }))
    }

    /// [`super::any`] for `end >= 16`.
    #[inline(always)]
    pub(super) fn any<const W: u8>(href: &[u8], start: usize, end: usize) -> bool {
        let mut found = zero();
        // Whole vectors inside the range; 17 bytes must be in the range
        // for the shifted load, so no pair reaches past `end`.
        let range = &href[..end];
        let mut i = start;
        while let Some(chunk) = range.get(i..i + 17) {
            let v = load(chunk[..16].try_into().unwrap());
            let next = || load(chunk[1..].try_into().unwrap());
            found = or(found, wanted::<W>(v, next));
            i += 16;
        }
        // The rest: the 16 bytes that end at `end`, overlapping what was
        // already looked at (`end - 16 <= i`), with the bits before
        // `start` dropped. The byte after the last one is shifted in as 0,
        // which starts no pair.
        let window = end - 16;
        let v = load(href[window..end].try_into().unwrap());
        // SAFETY: SSE2 intrinsic, always available on x86_64.
        let next = || unsafe { _mm_srli_si128::<1>(v) };
        let in_range = u32::MAX << start.saturating_sub(window).min(16);
        movemask(found) | (movemask(wanted::<W>(v, next)) & in_range) != 0
    }

    /// [`super::append_if_none`] for `keep <= 16`, `href.len() >= 16` and,
    /// when `keep < start`, 16 bytes or more from `start` on (so that the
    /// last vector does not store bytes before `start`): [`any`] from
    /// `start` to the end of `href`, storing
    /// every vector it loads into `out`'s spare capacity (`start - keep`
    /// bytes earlier), after the first 16 bytes of `href`.
    #[inline(always)]
    pub(super) fn append_if_none<const W: u8>(
        href: &[u8],
        keep: usize,
        start: usize,
        out: &mut Vec<u8>,
    ) -> bool {
        let n = href.len();
        assert!(keep <= 16 && keep <= start && start <= n && n >= 16);
        assert!(start == keep || n - start >= 16);
        let shift = start - keep;
        let total = n - shift;
        out.reserve(total);
        let len = out.len();
        // Raw pointers: the loop runs for every URL, and slice bounds
        // checks on both sides were a third of its instructions.
        let src = href.as_ptr();
        // SAFETY: `reserve` made room for `total` bytes after `len`.
        let dst = unsafe { out.as_mut_ptr().add(len) };
        // SAFETY (for the loads and stores below): a load at `src + j`
        // reads `j..j + 16`, in `href` when `j + 16 <= n`; a store at
        // `dst + j - shift` writes `j - shift..j - shift + 16`, inside the
        // reserved `total` bytes when `j + 16 <= n`. `load_ptr` and
        // `store_ptr` have no alignment requirement.
        //
        // `..keep` (and bytes the stores below overwrite).
        unsafe { store_ptr(dst, load_ptr(src)) };
        let mut found = zero();
        let mut i = start;
        while i + 17 <= n {
            // SAFETY: `i + 17 <= n`, see above.
            let v = unsafe { load_ptr(src.add(i)) };
            unsafe { store_ptr(dst.add(i - shift), v) };
            let next = || unsafe { load_ptr(src.add(i + 1)) };
            found = or(found, wanted::<W>(v, next));
            i += 16;
        }
        // The last 16 bytes, as in `any`.
        let window = n - 16;
        // SAFETY: `window + 16 == n`; `window >= start` when `shift > 0`
        // (asserted above), so `window - shift` does not underflow.
        let v = unsafe { load_ptr(src.add(window)) };
        unsafe { store_ptr(dst.add(window - shift), v) };
        // SAFETY: SSE2 intrinsic, always available on x86_64.
        let next = || unsafe { _mm_srli_si128::<1>(v) };
        let in_range = u32::MAX << start.saturating_sub(window).min(16);
        if movemask(found) | (movemask(wanted::<W>(v, next)) & in_range) != 0 {
            return false;
        }
        // SAFETY: the first `total` bytes after `len` are written: `..16`,
        // then `keep..i - shift` by the loop, which stops at an `i` past
        // `n - 17`, and `total - 16..`. With `keep <= 16` that covers
        // `..total` (when the loop does not run, `n < start + 17`, so
        // `total - 16 <= keep` and `..16` and `total - 16..` meet). The
        // stores after the first hold the right bytes: they load from
        // `start` on (`window >= start` when `shift > 0`).
        unsafe { out.set_len(len + total) };
        true
    }

    /// Loads 16 bytes from `p`.
    ///
    /// # Safety
    ///
    /// `p..p + 16` must be readable.
    #[inline(always)]
    unsafe fn load_ptr(p: *const u8) -> __m128i {
        // SAFETY: the caller's; no alignment requirement, SSE2 baseline.
        unsafe { _mm_loadu_si128(p.cast::<__m128i>()) }
    }

    /// Stores 16 bytes at `p`.
    ///
    /// # Safety
    ///
    /// `p..p + 16` must be writable.
    #[inline(always)]
    unsafe fn store_ptr(p: *mut u8, v: __m128i) {
        // SAFETY: the caller's; no alignment requirement, SSE2 baseline.
        unsafe { _mm_storeu_si128(p.cast::<__m128i>(), v) }
    }
}

/// [`any`] and [`append_if_none`] with 32-byte AVX2 vectors: half the
/// loop trips of the SSE2 code on the long paths of crawled URLs. The
/// canonicalizer's fast path picks these once, at build time, when the CPU
/// has AVX2 (see `fast::Plan`).
#[cfg(target_arch = "x86_64")]
// Newer compilers know that an AVX2 intrinsic called from a function with
// the `avx2` feature is safe; the oldest supported one (see `rust-version`)
// wants the `unsafe` blocks.
#[allow(unused_unsafe)]
pub(crate) mod wide {
    use super::Features;
    use std::arch::x86_64::{
        __m256i, _mm256_alignr_epi8, _mm256_and_si256, _mm256_cmpeq_epi8, _mm256_cmpgt_epi8,
        _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_or_si256, _mm256_permute2x128_si256,
        _mm256_set1_epi8, _mm256_setzero_si256, _mm256_storeu_si256,
    };

    /// Whether this CPU can run the functions of this module. (Cached by
    /// `std`: one load after the first call.)
    #[inline]
    pub(crate) fn available() -> bool {
        is_x86_feature_detected!("avx2")
    }

    // Every function here is `unsafe` and always inlined: the caller must
    // be a function with `#[target_feature(enable = "avx2")]`, run only
    // after `available()` said yes (so the intrinsics inline into it).
    //
    // SAFETY (for every `unsafe` block in this module that calls an AVX2
    // intrinsic without a pointer): the CPU has AVX2, as the callers must
    // make sure; those intrinsics take no pointers.

    #[inline(always)]
    unsafe fn splat(b: u8) -> __m256i {
        // SAFETY: see the module comment.
        unsafe { _mm256_set1_epi8(b as i8) }
    }

    #[inline(always)]
    unsafe fn eq(v: __m256i, b: u8) -> __m256i {
        // SAFETY: see the module comment.
        unsafe { _mm256_cmpeq_epi8(v, splat(b)) }
    }

    #[inline(always)]
    unsafe fn or(a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: see the module comment.
        unsafe { _mm256_or_si256(a, b) }
    }

    #[inline(always)]
    unsafe fn and(a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: see the module comment.
        unsafe { _mm256_and_si256(a, b) }
    }

    #[inline(always)]
    unsafe fn movemask(v: __m256i) -> u32 {
        // SAFETY: see the module comment.
        unsafe { _mm256_movemask_epi8(v) as u32 }
    }

    /// Loads 32 bytes from `p`.
    ///
    /// # Safety
    ///
    /// `p..p + 32` must be readable, and the CPU must have AVX2.
    #[inline(always)]
    unsafe fn load(p: *const u8) -> __m256i {
        // SAFETY: the caller's; no alignment requirement.
        unsafe { _mm256_loadu_si256(p.cast::<__m256i>()) }
    }

    /// Stores 32 bytes at `p`.
    ///
    /// # Safety
    ///
    /// `p..p + 32` must be writable, and the CPU must have AVX2.
    #[inline(always)]
    unsafe fn store(p: *mut u8, v: __m256i) {
        // SAFETY: the caller's; no alignment requirement.
        unsafe { _mm256_storeu_si256(p.cast::<__m256i>(), v) }
    }

    /// `v` one byte later, with 0 shifted in at the end: for the last
    /// vector of a range, whose next byte may be past the end of `href`.
    /// (`alignr` shifts within each 16-byte lane, so the upper lane is
    /// moved down first to feed the lower lane's top byte.)
    #[inline(always)]
    unsafe fn shift_in_zero(v: __m256i) -> __m256i {
        // SAFETY: see the module comment.
        unsafe {
            let upper_then_zero = _mm256_permute2x128_si256::<0x81>(v, v);
            _mm256_alignr_epi8::<1>(upper_then_zero, v)
        }
    }

    /// The bytes of `v` wanted in `W`, as in `sse2::wanted`; `next` is `v`
    /// one byte later.
    #[inline(always)]
    unsafe fn wanted<const W: u8>(v: __m256i, next: __m256i) -> __m256i {
        let want = Features(W);
        // SAFETY (all blocks): see the module comment.
        let mut m = unsafe { _mm256_setzero_si256() };
        if want.contains(Features::PERCENT) {
            m = unsafe { or(m, eq(v, b'%')) };
        }
        if want.contains(Features::UPPER) {
            // `A-Z`: signed `'A' - 1 < v < 'Z' + 1` (bytes >= 0x80 are
            // negative).
            let upper = unsafe {
                and(
                    _mm256_cmpgt_epi8(v, splat(b'A' - 1)),
                    _mm256_cmpgt_epi8(splat(b'Z' + 1), v),
                )
            };
            m = unsafe { or(m, upper) };
        }
        if want.contains(Features::SESSION) {
            m = unsafe { or(m, or(eq(v, b';'), eq(v, b'('))) };
        }
        if want.contains(Features::AMP) {
            m = unsafe { or(m, eq(v, b'&')) };
        }
        let pair_byte = match (
            want.contains(Features::SLASH_PAIR),
            want.contains(Features::DOT_PAIR),
        ) {
            (false, false) => return m,
            (true, false) => unsafe { eq(v, b'/') },
            (false, true) => unsafe { eq(v, b'.') },
            (true, true) => unsafe { or(eq(v, b'/'), eq(v, b'.')) },
        };
        unsafe { or(m, and(pair_byte, _mm256_cmpeq_epi8(v, next))) }
    }

    /// [`super::any`] with 32-byte vectors.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX2 ([`available`]). Call it from a function
    /// with `#[target_feature(enable = "avx2")]`, or the intrinsics will
    /// be calls.
    #[inline(always)]
    pub(crate) unsafe fn any<const W: u8>(href: &[u8], start: usize, end: usize) -> bool {
        if end < 32 || W == 0 {
            return super::any::<W>(href, start, end);
        }
        assert!(start <= end && end <= href.len());
        let src = href.as_ptr();
        // SAFETY (loads below): a load at `src + j` reads `j..j + 32`,
        // inside `href` when `j + 32 <= end`; the loop loads at `i` and
        // `i + 1` with `i + 33 <= end`, the last vector at `end - 32`.
        let mut found = unsafe { _mm256_setzero_si256() };
        let mut i = start;
        while i + 33 <= end {
            let (v, next) = unsafe { (load(src.add(i)), load(src.add(i + 1))) };
            found = unsafe { or(found, wanted::<W>(v, next)) };
            i += 32;
        }
        // The 32 bytes that end at `end`, overlapping what the loop looked
        // at, with the bits before `start` dropped; 0 is shifted in after
        // the last byte, which starts no pair.
        let window = end - 32;
        let v = unsafe { load(src.add(window)) };
        let last = unsafe { movemask(wanted::<W>(v, shift_in_zero(v))) };
        let in_range = (u64::MAX << start.saturating_sub(window).min(32)) as u32;
        (unsafe { movemask(found) } | (last & in_range)) != 0
    }

    /// [`super::append_if_none`] with 32-byte vectors, storing each vector
    /// it loads into `out`'s spare capacity as `sse2::append_if_none` does.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX2 ([`available`]). Call it from a function
    /// with `#[target_feature(enable = "avx2")]`, or the intrinsics will
    /// be calls.
    #[inline(always)]
    pub(crate) unsafe fn append_if_none<const W: u8>(
        href: &[u8],
        keep: usize,
        start: usize,
        out: &mut Vec<u8>,
    ) -> bool {
        let n = href.len();
        if W == 0 || keep > 32 || n < 32 || (start != keep && n - start < 32) {
            return super::append_if_none::<W>(href, keep, start, out);
        }
        assert!(keep <= start && start <= n);
        let shift = start - keep;
        let total = n - shift;
        out.reserve(total);
        let len = out.len();
        let src = href.as_ptr();
        // SAFETY: `reserve` made room for `total` bytes after `len`.
        let dst = unsafe { out.as_mut_ptr().add(len) };
        // SAFETY (loads and stores below): a load at `src + j` reads
        // `j..j + 32`, in `href` when `j + 32 <= n`; a store at
        // `dst + j - shift` writes `j - shift..j - shift + 32`, inside the
        // reserved `total` bytes when `j + 32 <= n`.
        //
        // `..keep` (and bytes the stores below overwrite).
        unsafe { store(dst, load(src)) };
        let mut found = unsafe { _mm256_setzero_si256() };
        let mut i = start;
        while i + 33 <= n {
            let (v, next) = unsafe { (load(src.add(i)), load(src.add(i + 1))) };
            unsafe { store(dst.add(i - shift), v) };
            found = unsafe { or(found, wanted::<W>(v, next)) };
            i += 32;
        }
        // The last 32 bytes, as in `any`. `window >= start` when
        // `shift > 0` (checked above), so `window - shift` does not
        // underflow.
        let window = n - 32;
        let v = unsafe { load(src.add(window)) };
        unsafe { store(dst.add(window - shift), v) };
        let last = unsafe { movemask(wanted::<W>(v, shift_in_zero(v))) };
        let in_range = (u64::MAX << start.saturating_sub(window).min(32)) as u32;
        if (unsafe { movemask(found) } | (last & in_range)) != 0 {
            return false;
        }
        // SAFETY: the first `total` bytes after `len` are written: `..32`,
        // then `keep..i - shift` by the loop, which stops at an `i` past
        // `n - 33`, and `total - 32..`; together `..total` (as in
        // `sse2::append_if_none`, with 32 for 16).
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
            if wide::available() {
                let mut out = b"prefix".to_vec();
                // SAFETY: the CPU has AVX2.
                let appended =
                    unsafe { WIDE_APPEND[usize::from(want.bits())](href, keep, start, &mut out) };
                assert_eq!(appended, !found, "wide {href:?} {keep} {start} {want:?}");
                assert_eq!(out, expected, "wide {href:?} {keep} {start} {want:?}");
            }
        }
    }

    /// [`wide::append_if_none`] in a function with AVX2 on, as the
    /// canonicalizer calls it.
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
        unsafe { wide::append_if_none::<W>(href, keep, start, out) }
    }

    /// [`wide::any`] in a function with AVX2 on.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn wide_any<const W: u8>(href: &[u8], start: usize, end: usize) -> bool {
        // SAFETY: the caller's.
        unsafe { wide::any::<W>(href, start, end) }
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
                    if wide::available() {
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
        fn scalar_matches_naive(
            bytes in proptest::collection::vec(proptest::sample::select(INTERESTING.to_vec()), 0..40),
        ) {
            prop_assert_eq!(classify_scalar(&bytes), classify_naive(&bytes));
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
