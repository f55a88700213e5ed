//! The dedup keys of a batch's records, and their grouping by shard for
//! [`KeyShards`] (`shards.rs` decides them).

use super::transform::KeyShards;

/// A record with a dedup key: `data[start..end]` (terminator included).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Keyed {
    pub(crate) start: u32,
    pub(crate) end: u32,
    pub(crate) key: u128,
}

/// A batch's keys grouped by shard (a counting sort), and their verdicts:
/// buffers recycled with the batch.
#[derive(Default)]
pub(crate) struct Split {
    /// The keys, shard after shard, each shard's in record order.
    pub(crate) keys: Vec<u128>,
    pub(crate) verdicts: Vec<u8>,
    /// For each key in `keys`, its index in the batch's keys.
    from: Vec<u32>,
    /// Shard `s`'s keys are `keys[starts[s]..starts[s + 1]]`.
    pub(crate) starts: Vec<u32>,
    /// Each key's shard, in record order.
    shard: Vec<u8>,
}

impl Split {
    pub(crate) fn partition(&mut self, keyed: &[Keyed], n: usize, shards: &dyn KeyShards) {
        self.shard.clear();
        self.starts.clear();
        self.starts.resize(n + 1, 0);
        for k in keyed {
            // A shard out of range is folded in, not trusted.
            let s = shards.shard_of(k.key) % n;
            self.shard.push(s as u8);
            self.starts[s + 1] += 1;
        }
        for s in 0..n {
            self.starts[s + 1] += self.starts[s];
        }
        let len = keyed.len();
        self.keys.clear();
        self.keys.resize(len, 0);
        self.from.clear();
        self.from.resize(len, 0);
        self.verdicts.clear();
        self.verdicts.resize(len, 0);
        // Fill each shard's range in record order, with `starts[s]` as the
        // cursor, then put the starts back.
        for (i, (k, &s)) in keyed.iter().zip(&self.shard).enumerate() {
            let at = self.starts[s as usize] as usize;
            self.keys[at] = k.key;
            self.from[at] = i as u32;
            self.starts[s as usize] += 1;
        }
        for s in (1..=n).rev() {
            self.starts[s] = self.starts[s - 1];
        }
        self.starts[0] = 0;
    }

    /// Puts the verdicts back in record order.
    pub(crate) fn scatter(&self, out: &mut [u8]) {
        for (&v, &i) in self.verdicts.iter().zip(&self.from) {
            out[i as usize] = v;
        }
    }
}
