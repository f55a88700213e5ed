//! The hash of a domain name that two tables share: the list's
//! ([`PublicSuffixList`](super::PublicSuffixList)) and the `strip-www`
//! guard's (`canon::rules::public_suffix`). It is the name's first and
//! last 8 bytes and its length, from two word loads. The components'
//! [`SplitCache`](crate::component::SplitCache) keys hosts by the same
//! words, with one multiplication of them for its index.

/// A hash of the first and last 8 bytes and the length (the two loads
/// overlap for names under 16 bytes, and are padded under 8), which tell
/// the names of the list apart well enough for short probe sequences.
#[inline(always)]
pub(crate) fn key(s: &[u8]) -> u64 {
    let (head, tail) = words(s);
    mix(head, tail, s.len())
}

/// The first 8 bytes of `s` (zero-padded under 8) and its last 8 (0
/// under 8), as little-endian words: with the length, all of a name of
/// up to 16 bytes.
#[inline(always)]
pub(crate) fn words(s: &[u8]) -> (u64, u64) {
    let n = s.len();
    if n >= 8 {
        let word = |i: usize| u64::from_le_bytes(s[i..i + 8].try_into().expect("8 bytes"));
        (word(0), word(n - 8))
    } else {
        (short_word(s), 0)
    }
}

/// The [`key`] of a name of `n` bytes from its first word and last word.
#[inline(always)]
pub(crate) fn mix(head: u64, tail: u64, n: usize) -> u64 {
    let key = (head ^ tail.rotate_left(29) ^ (n as u64)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (key ^ key >> 31).wrapping_mul(0x51_7C_C1_B7_27_22_0A_95)
}

/// The bytes of `s` (under 8 of them) as a little-endian word padded with
/// zeros, from overlapping loads rather than a copy into a padded buffer
/// (a `memcpy` call for two bytes, on every `.ca` or `.de` parent): the
/// bytes two loads share are the same, so or-ing the loads is exact.
#[inline]
fn short_word(s: &[u8]) -> u64 {
    let n = s.len();
    debug_assert!(n < 8);
    if n >= 4 {
        let word = |i: usize| u64::from(u32::from_le_bytes(s[i..i + 4].try_into().expect("4")));
        word(0) | word(n - 4) << (8 * (n - 4))
    } else if n > 0 {
        // 1 to 3 bytes: the first, the middle and the last cover them.
        let byte = |i: usize| u64::from(s[i]) << (8 * i);
        byte(0) | byte(n / 2) | byte(n - 1)
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_words_are_padded_bytes() {
        for n in 0..8 {
            let s: Vec<u8> = (1..=n as u8).map(|b| b * 17).collect();
            let mut padded = [0u8; 8];
            padded[..n].copy_from_slice(&s);
            assert_eq!(short_word(&s), u64::from_le_bytes(padded), "{n}");
        }
    }
}
