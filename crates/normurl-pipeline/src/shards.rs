//! Sharded key decisions: a [`KeyShards`] decides the keys of every batch
//! on the workers, shard by shard, in input order.
//!
//! ```text
//!  batch 7 (worker A): keys ─► by shard ─► shard 0: turn 7 ─► shard 1: turn 7 ...
//!  batch 8 (worker B): keys ─► by shard ─► shard 1: turn 8 (after 7) ...
//! ```
//!
//! Every batch gets a sequence number when it is read (in input order).
//! Each shard has a turn counter: a batch's keys of shard `s` are decided
//! only when shard `s`'s turn is the batch's number, and deciding advances
//! it. So each shard sees its keys in input order, the first occurrence
//! of a key is the first one its shard decides, and shards decide
//! different batches at the same time on different workers. A worker goes
//! through its batch's shards in whatever order their turns come (the
//! shards still busy with earlier batches are skipped and come back to),
//! and waits only when every shard left is busy with an earlier batch.
//!
//! That wait cannot deadlock: the earlier batches were read before this
//! one, by workers that hold them and wait for nothing but earlier turns
//! still, so the worker of the earliest batch in flight always goes on.
//! Every batch read takes its turn at every shard, also when its
//! transform panicked (with no keys), so no turn is ever missing.

use std::io;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

use super::batch::Batch;
use super::transform::KeyShards;

/// Each shard's turn: the sequence number of the next batch it decides.
pub(crate) struct Gate {
    turns: Vec<Turn>,
}

struct Turn {
    next: Mutex<u64>,
    changed: Condvar,
}

/// The most shards a [`KeyShards`] may have.
pub const MAX_SHARDS: usize = 64;

impl Gate {
    pub(crate) fn new(shards: usize) -> Gate {
        let turns = (0..shards.clamp(1, MAX_SHARDS))
            .map(|_| Turn {
                next: Mutex::new(0),
                changed: Condvar::new(),
            })
            .collect();
        Gate { turns }
    }

    /// Decides the keys of `batch` (sequence number `seq`) with `shards`,
    /// each shard at its turn, filling `batch.verdicts`. The first error
    /// (or panic) of `decide` is kept in `batch.decide_error`; the turns
    /// advance whatever happens.
    pub(crate) fn decide<S>(&self, shards: &dyn KeyShards, seq: u64, batch: &mut Batch<S>) {
        let n = self.turns.len();
        let split = &mut batch.split;
        split.partition(&batch.keys, n, shards);
        batch.verdicts.clear();
        batch.verdicts.resize(batch.keys.len(), 0);
        let mut error = None;
        let mut decide_shard = |s: usize, mut next: MutexGuard<'_, u64>| {
            let (a, b) = (split.starts[s] as usize, split.starts[s + 1] as usize);
            if a < b && error.is_none() {
                let (keys, verdicts) = (&split.keys[a..b], &mut split.verdicts[a..b]);
                match catch_unwind(AssertUnwindSafe(|| shards.decide(s, keys, verdicts))) {
                    Ok(Ok(())) => {}
                    Ok(Err(e)) => error = Some(e),
                    Err(_) => error = Some(io::Error::other("a panic while deciding keys")),
                }
            }
            *next += 1;
            drop(next);
            self.turns[s].changed.notify_all();
        };
        // Bit s: shard s still to do.
        let mut left: u64 = if n == 64 { u64::MAX } else { (1 << n) - 1 };
        while left != 0 {
            let mut progressed = false;
            let mut bits = left;
            while bits != 0 {
                let s = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let next = match self.turns[s].next.try_lock() {
                    Ok(g) => g,
                    Err(std::sync::TryLockError::Poisoned(p)) => p.into_inner(),
                    Err(std::sync::TryLockError::WouldBlock) => continue,
                };
                if *next == seq {
                    decide_shard(s, next);
                    left &= !(1 << s);
                    progressed = true;
                }
            }
            if !progressed && left != 0 {
                // Every shard left is busy with an earlier batch: wait for
                // the first one's turn.
                let s = left.trailing_zeros() as usize;
                let turn = &self.turns[s];
                let mut next = turn.next.lock().unwrap_or_else(PoisonError::into_inner);
                while *next != seq {
                    next = turn
                        .changed
                        .wait(next)
                        .unwrap_or_else(PoisonError::into_inner);
                }
                decide_shard(s, next);
                left &= !(1 << s);
            }
        }
        split.scatter(&mut batch.verdicts);
        batch.decide_error = error;
    }
}
