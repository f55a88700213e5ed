//! A filter of names by their first byte and length, for lookups that most
//! names fail: the Public Suffix List's wildcard parents, the tracking
//! parameter names. Two loads rule out a name whose first byte and length
//! no listed name shares, before any hash or comparison.

/// The first bytes and lengths of a set of names: by first byte, bit
/// `min(length, 63)` set when some name has that first byte and length.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ShapeFilter([u64; 256]);

impl ShapeFilter {
    /// A filter no name passes.
    pub(crate) const fn new() -> ShapeFilter {
        ShapeFilter([0; 256])
    }

    /// Lets `name` (and names of its first byte and length) through. An
    /// empty name adds nothing.
    pub(crate) fn insert(&mut self, name: &[u8]) {
        if let Some(&first) = name.first() {
            self.0[usize::from(first)] |= length_bit(name.len());
        }
    }

    /// False when no inserted name has the first byte and length of
    /// `name`; true when one may be `name`.
    #[inline]
    pub(crate) fn may_contain(&self, name: &[u8]) -> bool {
        name.first()
            .is_some_and(|&b| self.0[usize::from(b)] & length_bit(name.len()) != 0)
    }

    /// Whether some inserted name starts with `byte`.
    #[inline]
    pub(crate) fn has_first(&self, byte: u8) -> bool {
        self.0[usize::from(byte)] != 0
    }
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
            b"cz",
            b"kawasaki.jp",
            &long,
            &long[..63],
            &[b'x'; 90],
        ] {
            assert!(filter.may_contain(name), "{name:?}");
        }
        for name in [&b""[..], b"c", b"ckk", b"dk", b"kawasaki.j", &long[..62]] {
            assert!(!filter.may_contain(name), "{name:?}");
        }
        assert!(filter.has_first(b'c') && filter.has_first(b'k') && !filter.has_first(b'd'));
    }
}
