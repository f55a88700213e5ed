//! A filter of names by their first and last bytes and length, for lookups
//! that most names fail: the Public Suffix List's wildcard parents, the
//! tracking parameter names. Two loads rule out a name whose shape no
//! listed name shares, before any hash or comparison.

/// The shapes of a set of names: for each name, bit `min(length, 63)` of
/// the word its first and last bytes select ([`slot`]), so a name passes
/// only when some inserted name has its length and, but for the rare
/// collision of two byte pairs on one word, its first and last bytes.
/// (First byte and length alone let the parents `ca`, `ch`, `cn`, `fr`,
/// `jp`, `nl`... of most `www.` hosts of those countries through, because
/// of the wildcard parents `ck`, `fk`, `jm`, `np`..., each at the cost of
/// a second hash lookup.)
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ShapeFilter {
    words: [u64; 256],
}

impl ShapeFilter {
    /// A filter no name passes.
    pub(crate) const fn new() -> ShapeFilter {
        ShapeFilter { words: [0; 256] }
    }

    /// Lets `name` (and names of its shape) through. An empty name adds
    /// nothing.
    pub(crate) fn insert(&mut self, name: &[u8]) {
        if let Some(slot) = slot(name) {
            self.words[slot] |= length_bit(name.len());
        }
    }

    /// False when no inserted name has the shape of `name`; true when one
    /// may be `name`.
    #[inline]
    pub(crate) fn may_contain(&self, name: &[u8]) -> bool {
        slot(name).is_some_and(|slot| self.words[slot] & length_bit(name.len()) != 0)
    }
}

/// The word of `name`'s first and last bytes (none for an empty name).
/// Any mix does; this one keeps pairs that differ in one byte apart.
#[inline]
fn slot(name: &[u8]) -> Option<usize> {
    let (&first, &last) = (name.first()?, name.last()?);
    Some((usize::from(first) + 7 * usize::from(last)) & 255)
}

/// The bit of a name of `len` bytes (names of 63 bytes or more share one).
#[inline]
fn length_bit(len: usize) -> u64 {
    1 << len.min(63)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passes_names_of_an_inserted_shape_only() {
        let long = vec![b'x'; 70];
        let mut filter = ShapeFilter::new();
        for name in [&b"ck"[..], b"kawasaki.jp", &long] {
            filter.insert(name);
        }
        filter.insert(b"");
        for name in [
            &b"ck"[..],
            b"kawasaki.jp",
            b"k-other--.p",
            &long,
            &long[..63],
            &[b'x'; 90],
        ] {
            assert!(filter.may_contain(name), "{name:?}");
        }
        // Another length, first byte or last byte (`ca`, `cz`, `jk`,
        // `kawasaki.jq` select other words than the names above).
        for name in [
            &b""[..],
            b"c",
            b"ckk",
            b"dk",
            b"ca",
            b"cz",
            b"kawasaki.j",
            b"kawasaki.jq",
            &long[..62],
        ] {
            assert!(!filter.may_contain(name), "{name:?}");
        }
    }

    #[test]
    fn one_byte_changes_the_word() {
        // So a name differing from a listed one in its first or last byte
        // alone never passes on that name's account.
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                if a != b {
                    assert_ne!(slot(&[a, b'x']), slot(&[b, b'x']));
                    assert_ne!(slot(&[b'x', a]), slot(&[b'x', b]));
                }
            }
        }
    }
}
