//! 128-bit hashes of dedup keys.
//!
//! `--dedup` keeps one hash per distinct key instead of the key, so the hash
//! must be wide enough that two distinct keys practically never collide:
//! with 128 bits, a billion keys collide with probability about 10^-21.
//! The hash is MurmurHash3 x64_128 (Austin Appleby, public domain): well
//! known, fast on short inputs, and checkable against other
//! implementations. It is not keyed, so it is not meant for adversarial
//! input; crawl logs are not that.

/// MurmurHash3 x64_128 of `bytes` with seed 0, as a `u128` whose low 64 bits
/// are the first half of the digest (`h1`) and high 64 bits the second
/// (`h2`): the digest's 16 bytes read little-endian, the integer Python's
/// `mmh3.hash128(bytes, 0, True, signed=False)` gives.
///
/// # Example
///
/// ```
/// use normurl_canon::key_hash;
///
/// assert_eq!(key_hash(b""), 0);
/// assert_eq!(
///     key_hash(b"The quick brown fox jumps over the lazy dog"),
///     0x7a433ca9c49a9347_e34bbc7bbc071b6c,
/// );
/// ```
pub fn key_hash(bytes: &[u8]) -> u128 {
    const C1: u64 = 0x87c3_7b91_1142_53d5;
    const C2: u64 = 0x4cf5_ad43_2745_937f;
    let (mut h1, mut h2) = (0u64, 0u64);
    let mut blocks = bytes.chunks_exact(16);
    for block in &mut blocks {
        let k1 = u64::from_le_bytes(block[..8].try_into().expect("8 bytes"));
        let k2 = u64::from_le_bytes(block[8..].try_into().expect("8 bytes"));
        h1 ^= k1.wrapping_mul(C1).rotate_left(31).wrapping_mul(C2);
        h1 = h1
            .rotate_left(27)
            .wrapping_add(h2)
            .wrapping_mul(5)
            .wrapping_add(0x52dc_e729);
        h2 ^= k2.wrapping_mul(C2).rotate_left(33).wrapping_mul(C1);
        h2 = h2
            .rotate_left(31)
            .wrapping_add(h1)
            .wrapping_mul(5)
            .wrapping_add(0x3849_5ab5);
    }
    let tail = blocks.remainder();
    if !tail.is_empty() {
        let mut buf = [0u8; 16];
        buf[..tail.len()].copy_from_slice(tail);
        let k1 = u64::from_le_bytes(buf[..8].try_into().expect("8 bytes"));
        let k2 = u64::from_le_bytes(buf[8..].try_into().expect("8 bytes"));
        // The reference mixes k2 only when the tail reaches it; a zero k2
        // mixes to zero, so doing it unconditionally is the same.
        h2 ^= k2.wrapping_mul(C2).rotate_left(33).wrapping_mul(C1);
        h1 ^= k1.wrapping_mul(C1).rotate_left(31).wrapping_mul(C2);
    }
    let len = bytes.len() as u64;
    h1 ^= len;
    h2 ^= len;
    h1 = h1.wrapping_add(h2);
    h2 = h2.wrapping_add(h1);
    h1 = fmix64(h1);
    h2 = fmix64(h2);
    h1 = h1.wrapping_add(h2);
    h2 = h2.wrapping_add(h1);
    (u128::from(h2) << 64) | u128::from(h1)
}

fn fmix64(mut k: u64) -> u64 {
    k ^= k >> 33;
    k = k.wrapping_mul(0xff51_afd7_ed55_8ccd);
    k ^= k >> 33;
    k = k.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    k ^= k >> 33;
    k
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Vectors from the reference C++ implementation, via Python's `mmh3`
    /// 5.x (`mmh3.hash128(s, 0, True, signed=False)`): every tail length
    /// class is covered (0, 1, 3, 5, 15 mod 16 and whole blocks).
    #[test]
    fn reference_vectors() {
        let cases: [(&[u8], u128); 6] = [
            (b"", 0),
            (b"a", 0xe6b53a48510e895a85555565f6597889),
            (b"hello", 0x5b1e906a48ae1d19cbd8a7b341bd9b02),
            (
                b"The quick brown fox jumps over the lazy dog",
                0x7a433ca9c49a9347e34bbc7bbc071b6c,
            ),
            (b"http://example.com/", 0xcc4b29393778419da097098a4e7151f8),
            (&[0u8; 0], 0),
        ];
        for (input, expected) in cases {
            assert_eq!(
                key_hash(input),
                expected,
                "{:?}",
                String::from_utf8_lossy(input)
            );
        }
        let ramp: Vec<u8> = (0..64).collect();
        assert_eq!(key_hash(&ramp), 0xa22238eb56338ea1ffd5522d8d812301);
        assert_eq!(key_hash(&ramp[..33]), 0x55ac8073a7d6a30b7d41281bfaba4612);
    }

    #[test]
    fn distinct_urls_distinct_hashes() {
        let a = key_hash(b"http://example.com/a");
        let b = key_hash(b"http://example.com/b");
        assert_ne!(a, b);
        assert_ne!(a as u64, b as u64);
        assert_ne!((a >> 64) as u64, (b >> 64) as u64);
    }
}
