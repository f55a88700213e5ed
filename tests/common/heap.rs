//! A global allocator that counts the heap each thread uses, for tests
//! that bound memory (tests/dedup_limits.rs, tests/fuzz_regressions.rs).
//! A test binary installs it with
//!
//! ```ignore
//! #[path = "common/heap.rs"]
//! mod heap;
//! #[global_allocator]
//! static ALLOCATOR: heap::Counting = heap::Counting;
//! ```
//!
//! and measures with [`peak_heap_during`].

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// Passes every call to the system allocator and counts the bytes of the
/// calling thread.
pub struct Counting;

thread_local! {
    /// Bytes allocated by this thread since it started (negative when it
    /// frees what it had before), and the most at one time.
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn count(delta: isize) {
    // `try_with`: an allocation can happen while the thread's locals are
    // being torn down; it is then simply not counted.
    let _ = LIVE.try_with(|live| {
        let now = live.get() + delta;
        live.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

// SAFETY: every method forwards to `System` with the same arguments, so it
// upholds `GlobalAlloc`'s contract exactly as `System` does; the counting
// only touches `const` thread-locals, which need no allocation.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller upholds `alloc`'s contract for `layout`.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            count(layout.size() as isize);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            count(layout.size() as isize);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller upholds `dealloc`'s contract.
        unsafe { System.dealloc(ptr, layout) };
        count(-(layout.size() as isize));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller upholds `realloc`'s contract.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            count(new_size as isize - layout.size() as isize);
        }
        p
    }
}

/// What `f` returns, and the most heap the current thread had allocated at
/// one time while it ran, over what it had before.
pub fn peak_heap_during<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let start = LIVE.with(Cell::get);
    PEAK.with(|peak| peak.set(start));
    let value = f();
    let peak = PEAK.with(Cell::get);
    (value, (peak - start) as usize)
}
