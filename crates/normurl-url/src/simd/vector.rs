//! The vector abstraction: one trait over the byte-vector operations the
//! scans use, implemented for SSE2 (16 lanes, the x86_64 baseline) and AVX2
//! (32 lanes, picked at run time by [`super::avx2`]). Every routine in
//! `simd` is written once over [`Vector`] and has a scalar reference.

// Newer compilers know that an intrinsic called from a function with its
// target feature is safe; the oldest supported one (see `rust-version`)
// wants the `unsafe` blocks.
#![allow(unused_unsafe)]

use std::arch::x86_64::{
    __m128i, __m256i, _mm256_alignr_epi8, _mm256_and_si256, _mm256_blendv_epi8, _mm256_cmpeq_epi8,
    _mm256_cmpgt_epi8, _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_or_si256,
    _mm256_permute2x128_si256, _mm256_set1_epi8, _mm256_setzero_si256, _mm256_storeu_si256,
    _mm_and_si128, _mm_andnot_si128, _mm_cmpeq_epi8, _mm_cmpgt_epi8, _mm_cmplt_epi8,
    _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8, _mm_setzero_si128,
    _mm_srli_si128, _mm_storeu_si128,
};

/// A vector of `LANES` bytes and the operations the scans use.
///
/// # Safety
///
/// Every method needs a CPU with the instructions of the type (SSE2
/// for [`Sse2`], which every x86_64 CPU has; AVX2 for [`Avx2`]); the
/// pointer methods also need `LANES` readable or writable bytes. All
/// are always inlined, so that in a function with the target feature
/// the intrinsics are instructions and not calls.
pub trait Vector: Copy {
    const LANES: usize;
    unsafe fn load(p: *const u8) -> Self;
    unsafe fn store(self, p: *mut u8);
    unsafe fn zero() -> Self;
    /// Lanes equal to `b`: all ones, others zero.
    unsafe fn eq(self, b: u8) -> Self;
    unsafe fn eq_lanes(self, other: Self) -> Self;
    /// Lanes holding `A-Z`.
    unsafe fn upper(self) -> Self;
    /// Lanes below `b` as signed bytes: for `b < 0x80`, every byte of
    /// 0x80 or more is below.
    unsafe fn lt_signed(self, b: u8) -> Self;
    /// Lanes above `b` as signed bytes.
    unsafe fn gt_signed(self, b: u8) -> Self;
    unsafe fn or(self, other: Self) -> Self;
    unsafe fn and(self, other: Self) -> Self;
    /// The top bit of each lane, lane 0 in bit 0.
    unsafe fn movemask(self) -> u32;
    /// The vector one byte later, with 0 shifted in after the last
    /// lane (which starts no pair).
    unsafe fn shift_in_zero(self) -> Self;
    /// The lanes below `n` (at most `LANES`) of `self`, the others of
    /// `other`.
    unsafe fn below_then(self, n: usize, other: Self) -> Self;
}

/// 32 lanes of ones, then 32 of zeros: the 16 or 32 bytes from
/// `32 - n` on have ones in the lanes below `n` (see
/// [`Vector::below_then`]).
static BELOW: [u8; 64] = {
    let mut bytes = [0; 64];
    let mut i = 0;
    while i < 32 {
        bytes[i] = 0xff;
        i += 1;
    }
    bytes
};

#[derive(Clone, Copy)]
pub struct Sse2(__m128i);

#[derive(Clone, Copy)]
pub struct Avx2(__m256i);

// SAFETY (for the `unsafe` blocks in both impls): the methods' callers
// guarantee the CPU feature and, for `load` and `store`, the bytes;
// `loadu`/`storeu` have no alignment requirement.
impl Vector for Sse2 {
    const LANES: usize = 16;
    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        Sse2(unsafe { _mm_loadu_si128(p.cast::<__m128i>()) })
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut u8) {
        unsafe { _mm_storeu_si128(p.cast::<__m128i>(), self.0) }
    }
    #[inline(always)]
    unsafe fn zero() -> Self {
        Sse2(unsafe { _mm_setzero_si128() })
    }
    #[inline(always)]
    unsafe fn eq(self, b: u8) -> Self {
        Sse2(unsafe { _mm_cmpeq_epi8(self.0, _mm_set1_epi8(b as i8)) })
    }
    #[inline(always)]
    unsafe fn eq_lanes(self, other: Self) -> Self {
        Sse2(unsafe { _mm_cmpeq_epi8(self.0, other.0) })
    }
    #[inline(always)]
    unsafe fn upper(self) -> Self {
        // Signed `'A' - 1 < v < 'Z' + 1` (bytes >= 0x80 are negative).
        Sse2(unsafe {
            _mm_and_si128(
                _mm_cmpgt_epi8(self.0, _mm_set1_epi8((b'A' - 1) as i8)),
                _mm_cmplt_epi8(self.0, _mm_set1_epi8((b'Z' + 1) as i8)),
            )
        })
    }
    #[inline(always)]
    unsafe fn lt_signed(self, b: u8) -> Self {
        Sse2(unsafe { _mm_cmplt_epi8(self.0, _mm_set1_epi8(b as i8)) })
    }
    #[inline(always)]
    unsafe fn gt_signed(self, b: u8) -> Self {
        Sse2(unsafe { _mm_cmpgt_epi8(self.0, _mm_set1_epi8(b as i8)) })
    }
    #[inline(always)]
    unsafe fn or(self, other: Self) -> Self {
        Sse2(unsafe { _mm_or_si128(self.0, other.0) })
    }
    #[inline(always)]
    unsafe fn and(self, other: Self) -> Self {
        Sse2(unsafe { _mm_and_si128(self.0, other.0) })
    }
    #[inline(always)]
    unsafe fn movemask(self) -> u32 {
        unsafe { _mm_movemask_epi8(self.0) as u32 }
    }
    #[inline(always)]
    unsafe fn shift_in_zero(self) -> Self {
        Sse2(unsafe { _mm_srli_si128::<1>(self.0) })
    }
    #[inline(always)]
    unsafe fn below_then(self, n: usize, other: Self) -> Self {
        debug_assert!(n <= Self::LANES);
        // SAFETY: `32 - n + 16 <= 64`; SSE2 has no blend instruction.
        unsafe {
            let mask = _mm_loadu_si128(BELOW.as_ptr().add(32 - n).cast::<__m128i>());
            Sse2(_mm_or_si128(
                _mm_and_si128(mask, self.0),
                _mm_andnot_si128(mask, other.0),
            ))
        }
    }
}

impl Vector for Avx2 {
    const LANES: usize = 32;
    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        Avx2(unsafe { _mm256_loadu_si256(p.cast::<__m256i>()) })
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut u8) {
        unsafe { _mm256_storeu_si256(p.cast::<__m256i>(), self.0) }
    }
    #[inline(always)]
    unsafe fn zero() -> Self {
        Avx2(unsafe { _mm256_setzero_si256() })
    }
    #[inline(always)]
    unsafe fn eq(self, b: u8) -> Self {
        Avx2(unsafe { _mm256_cmpeq_epi8(self.0, _mm256_set1_epi8(b as i8)) })
    }
    #[inline(always)]
    unsafe fn eq_lanes(self, other: Self) -> Self {
        Avx2(unsafe { _mm256_cmpeq_epi8(self.0, other.0) })
    }
    #[inline(always)]
    unsafe fn upper(self) -> Self {
        // As for SSE2; AVX2 has no "less than", so the operands of the
        // second compare are swapped.
        Avx2(unsafe {
            _mm256_and_si256(
                _mm256_cmpgt_epi8(self.0, _mm256_set1_epi8((b'A' - 1) as i8)),
                _mm256_cmpgt_epi8(_mm256_set1_epi8((b'Z' + 1) as i8), self.0),
            )
        })
    }
    #[inline(always)]
    unsafe fn lt_signed(self, b: u8) -> Self {
        Avx2(unsafe { _mm256_cmpgt_epi8(_mm256_set1_epi8(b as i8), self.0) })
    }
    #[inline(always)]
    unsafe fn gt_signed(self, b: u8) -> Self {
        Avx2(unsafe { _mm256_cmpgt_epi8(self.0, _mm256_set1_epi8(b as i8)) })
    }
    #[inline(always)]
    unsafe fn or(self, other: Self) -> Self {
        Avx2(unsafe { _mm256_or_si256(self.0, other.0) })
    }
    #[inline(always)]
    unsafe fn and(self, other: Self) -> Self {
        Avx2(unsafe { _mm256_and_si256(self.0, other.0) })
    }
    #[inline(always)]
    unsafe fn movemask(self) -> u32 {
        unsafe { _mm256_movemask_epi8(self.0) as u32 }
    }
    #[inline(always)]
    unsafe fn shift_in_zero(self) -> Self {
        // `alignr` shifts within each 16-byte lane, so the upper lane
        // is moved down first to feed the lower lane's top byte.
        Avx2(unsafe {
            let upper_then_zero = _mm256_permute2x128_si256::<0x81>(self.0, self.0);
            _mm256_alignr_epi8::<1>(upper_then_zero, self.0)
        })
    }
    #[inline(always)]
    unsafe fn below_then(self, n: usize, other: Self) -> Self {
        debug_assert!(n <= Self::LANES);
        // SAFETY: `32 - n + 32 <= 64`.
        unsafe {
            let mask = _mm256_loadu_si256(BELOW.as_ptr().add(32 - n).cast::<__m256i>());
            Avx2(_mm256_blendv_epi8(other.0, self.0, mask))
        }
    }
}
