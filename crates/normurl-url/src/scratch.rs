//! Buffers reused from call to call on each thread, so that the setters,
//! `URL.canParse` and the urlencoded pair walk allocate nothing once the
//! buffers have grown to the sizes their inputs need (a bulk edit calls a
//! setter on every line of a file). [`Text`] is public for callers that
//! build a setter's value per line (`normurl --append`).
//!
//! A [`Text`] or a byte buffer taken from the pool goes back to it when
//! dropped; the pool keeps a few buffers of at most [`KEPT_CAPACITY`]
//! bytes each, so what it holds between calls stays small whatever the
//! inputs were. When the thread's pool is gone (a thread being torn down)
//! a fresh buffer is used and dropped.

use std::cell::RefCell;
use std::ops::{Deref, DerefMut};

/// Buffers larger than this are freed, not kept.
pub const KEPT_CAPACITY: usize = 64 * 1024;

/// Buffers kept per thread and kind.
const KEPT: usize = 4;

thread_local! {
    static TEXTS: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
    static BYTES: RefCell<Vec<Vec<u8>>> = const { RefCell::new(Vec::new()) };
}

fn take<T: Default>(pool: &'static std::thread::LocalKey<RefCell<Vec<T>>>) -> T {
    pool.try_with(|kept| kept.try_borrow_mut().ok()?.pop())
        .ok()
        .flatten()
        .unwrap_or_default()
}

/// `buffer` (already cleared) into the pool, unless it holds nothing, is
/// larger than [`KEPT_CAPACITY`] or the pool is full.
fn give_back<T>(pool: &'static std::thread::LocalKey<RefCell<Vec<T>>>, buffer: T, capacity: usize) {
    if capacity == 0 || capacity > KEPT_CAPACITY {
        return;
    }
    let _ = pool.try_with(|kept| {
        if let Ok(mut kept) = kept.try_borrow_mut() {
            if kept.len() < KEPT {
                kept.push(buffer);
            }
        }
    });
}

/// An empty `String` from the thread's pool, returned to it on drop.
///
/// # Example
///
/// ```
/// use normurl_url::scratch::Text;
///
/// let mut query = Text::new();
/// query.push_str("a=1");
/// assert_eq!(query.as_str(), "a=1");
/// drop(query); // back to the pool, cleared, for the next `Text::new()`
/// assert!(Text::new().is_empty());
/// ```
pub struct Text(String);

impl Text {
    /// An empty string, reusing one a dropped `Text` left on the thread.
    pub fn new() -> Text {
        Text(take(&TEXTS))
    }

    /// The string, out of the pool (for a [`Url`](crate::Url)'s
    /// serialization); give a string back with [`Text::recycle`].
    pub(crate) fn into_string(mut self) -> String {
        std::mem::take(&mut self.0)
    }

    /// `s` cleared, into the pool for the next [`Text::new`] (unless it
    /// is large or the pool is full).
    pub(crate) fn recycle(mut s: String) {
        s.clear();
        let capacity = s.capacity();
        give_back(&TEXTS, s, capacity);
    }
}

impl Default for Text {
    fn default() -> Text {
        Text::new()
    }
}

impl Drop for Text {
    fn drop(&mut self) {
        Text::recycle(std::mem::take(&mut self.0));
    }
}

impl Deref for Text {
    type Target = String;
    fn deref(&self) -> &String {
        &self.0
    }
}

impl DerefMut for Text {
    fn deref_mut(&mut self) -> &mut String {
        &mut self.0
    }
}

/// An empty byte buffer from the thread's pool, returned to it on drop.
pub(crate) struct Bytes(Vec<u8>);

impl Bytes {
    pub(crate) fn new() -> Bytes {
        Bytes(take(&BYTES))
    }

    /// The bytes as text. The buffers the setters fill hold ASCII (the
    /// percent-encode sets contain every non-ASCII byte, hosts are
    /// serialized in ASCII); anything else would be a bug, and is cut at
    /// the first invalid byte rather than panicking (debug builds assert).
    pub(crate) fn text(&self) -> &str {
        // `is_ascii` checks a word at a time, far cheaper than UTF-8
        // validation on the short values setters take.
        if self.0.is_ascii() {
            // SAFETY: ASCII bytes are valid UTF-8.
            return unsafe { std::str::from_utf8_unchecked(&self.0) };
        }
        match std::str::from_utf8(&self.0) {
            Ok(s) => s,
            Err(e) => {
                debug_assert!(false, "not UTF-8: {e}");
                std::str::from_utf8(&self.0[..e.valid_up_to()]).unwrap_or_default()
            }
        }
    }
}

impl Drop for Bytes {
    fn drop(&mut self) {
        let mut buffer = std::mem::take(&mut self.0);
        buffer.clear();
        let capacity = buffer.capacity();
        give_back(&BYTES, buffer, capacity);
    }
}

impl Deref for Bytes {
    type Target = Vec<u8>;
    fn deref(&self) -> &Vec<u8> {
        &self.0
    }
}

impl DerefMut for Bytes {
    fn deref_mut(&mut self) -> &mut Vec<u8> {
        &mut self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_are_reused_and_come_back_empty() {
        let mut a = Bytes::new();
        a.extend_from_slice(b"abc");
        let capacity = a.capacity();
        let pointer = a.as_ptr();
        drop(a);
        let b = Bytes::new();
        assert!(b.is_empty());
        assert_eq!((b.as_ptr(), b.capacity()), (pointer, capacity));

        let mut t = Text::new();
        t.push_str("xyz");
        let pointer = t.as_ptr();
        let s = t.into_string();
        assert_eq!(s, "xyz");
        Text::recycle(s);
        let t = Text::new();
        assert!(t.is_empty());
        assert_eq!(t.as_ptr(), pointer);
    }

    #[test]
    fn large_buffers_are_not_kept() {
        let mut a = Bytes::new();
        a.reserve(KEPT_CAPACITY * 2);
        let pointer = a.as_ptr();
        drop(a);
        let b = Bytes::new();
        assert!(b.capacity() == 0 || b.as_ptr() != pointer);
    }
}
