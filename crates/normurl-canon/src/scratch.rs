//! The buffers a thread keeps for canonicalizing.

use crate::rules::query::QueryScratch;
use crate::{fast, general};

/// Buffers reused from one URL to the next. Keep one per thread; after the
/// first few URLs, [`Canonicalizer::apply`](super::Canonicalizer::apply) allocates nothing.
#[derive(Debug, Default)]
pub struct Scratch {
    /// The general path's.
    pub(super) general: general::Buffers,
    pub(super) params: QueryScratch,
    /// What the fast path writes besides the output.
    pub(super) fast: fast::Buffers,
}

impl Scratch {
    /// Empty buffers.
    pub fn new() -> Scratch {
        Scratch::default()
    }
}
