//! The parallel pipeline, with output in input order.
//!
//! ```text
//!  worker 1: [lock: read batch 1, queue its receiver] transform 1 ─┐
//!  worker 2:      [lock: read batch 2, queue its receiver] transform 2 ─┐
//!  worker 1:                   [lock: read batch 3, ...]            │  │
//!                                                                   ▼  ▼
//!  writer (calling thread): receivers in queue order ─► wait, write, recycle
//! ```
//!
//! The workers of a rayon pool take turns at the reader: under its lock a
//! worker fills a free batch and queues the receiving end of a one-shot
//! channel to the writer; then, without the lock, it transforms the batch
//! and sends it through that channel. Since receivers are queued under the
//! lock, the queue is in input order, and the writer, which waits on each
//! receiver in turn, writes batches in input order without sequence numbers
//! or sorting (the channel-of-receivers scheme of gzp and xsv's `stats`).
//! Reading overlaps transforming: one worker reads while the others work.
//!
//! At most `in_flight` batches exist. A worker that finds none free waits
//! for the writer to return one, so memory does not grow with the input and
//! a slow writer slows the readers instead of filling queues.
//!
//! Why workers read instead of a dedicated reader thread: a batch is then
//! transformed on the core that has just copied it out of the page cache,
//! while it is still in that core's cache. This took less CPU time and
//! less wall time than a reader thread feeding the pool
//! (docs/performance-history.md), with one thread and one channel fewer.
//!
//! Ending: the worker that reads the end of the input (or a read error)
//! queues `End` (or the error) and marks the reader done; the others see
//! that and stop. If the writer stops early (write error, a transform's
//! stop, a panic), it drops its channel ends: a worker's next queue send or
//! wait for a free batch fails and it stops. A panic in a transform is
//! caught around its batch and sent to the writer as that batch's result,
//! so nothing waits for a batch that never comes; a panic in the reader is
//! caught the same way and queued as an error.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;

use crossbeam_channel::{bounded, Receiver, Sender};

use super::batch::{process, Batch, Limits};
use super::cpu::{thread_nanos, Clocks, Stage};
use super::reader::BatchReader;
use super::shards::Gate;
use super::transform::KeyShards;
use super::writer::{BatchWriter, Report, Sinks};
use super::{panic_message, Error, Input, Pipeline, Transform};

/// An entry of the writer's queue, in input order.
enum Slot<S> {
    /// The result of the next batch, when its worker is done.
    Batch(Receiver<Done<S>>),
    /// The reader failed after the batches before this slot.
    Error(Error),
    /// All input was read.
    End,
}

/// A transformed batch, or the message of the panic that interrupted it
/// (with the index of the batch's input).
type Done<S> = Result<Batch<S>, (usize, String)>;

/// The reader, shared by the workers.
struct Shared {
    reader: BatchReader,
    /// Whether the end of the input (or an error) has been queued.
    done: bool,
    /// The sequence number of the next batch read (for the key shards'
    /// turns).
    seq: u64,
}

pub(crate) fn run<T: Transform>(
    pipeline: &Pipeline<T>,
    inputs: Vec<Input>,
    sinks: Sinks<'_>,
    workers: usize,
) -> Report<T::Stats> {
    let limits = pipeline.limits();
    let in_flight = pipeline.in_flight(workers);
    let shards = sinks.shards();
    let (reader, mut writer) = pipeline.ends(inputs, sinks);
    let gate = shards.map(|s| (Gate::new(s.shards()), s));
    let clocks = Arc::clone(&writer.clocks);
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(workers)
        .thread_name(|i| format!("normurl-worker-{i}"))
        .build()
    {
        Ok(pool) => pool,
        Err(e) => {
            writer.fail(Error::Threads {
                message: e.to_string(),
            });
            return writer.into_report();
        }
    };
    let (order_tx, order_rx) = bounded::<Slot<T::Stats>>(in_flight + 1);
    let (free_tx, free_rx) = bounded::<Batch<T::Stats>>(in_flight);
    let shared = Mutex::new(Shared {
        reader,
        done: false,
        seq: 0,
    });
    let created = AtomicUsize::new(0);
    let transform = &pipeline.transform;

    thread::scope(|s| {
        let (shared, created, free_rx, pool) = (&shared, &created, &free_rx, &pool);
        let (gate, clocks) = (gate.as_ref().map(|(g, s)| (g, *s)), &*clocks);
        let workers_thread = s.spawn(move || {
            pool.scope(|rs| {
                for _ in 0..workers {
                    let order_tx = order_tx.clone();
                    let ends = Ends {
                        order_tx,
                        free_rx,
                        gate,
                        clocks,
                    };
                    rs.spawn(move |_| work(shared, created, transform, limits, in_flight, ends));
                }
                drop(order_tx);
            })
        });
        let ended = write_loop(&mut writer, order_rx, free_tx, clocks);
        // The writer's channel ends are dropped: the workers stop at their
        // next send or wait.
        let joined = workers_thread.join();
        match joined {
            // Panics in transforms are caught per batch; this is one in
            // the pipeline itself, and its message says more than the
            // writer's "stopped before the end".
            Err(payload) => writer.fail(Error::Panicked {
                path: "<worker>".to_string(),
                message: panic_message(&*payload),
            }),
            Ok(()) if !ended => writer.fail(Error::Panicked {
                path: "<worker>".to_string(),
                message: "the workers stopped before the end of the input".to_string(),
            }),
            Ok(()) => {}
        }
    });
    let mut report = writer.into_report();
    match shared.into_inner() {
        Ok(s) => {
            report.summary.bytes_in = s.reader.bytes_in();
            report.summary.raw_bytes_in = s.reader.raw_in;
            report.summary.unit_ended_records = s.reader.unit_ends();
        }
        Err(_) => report.errors.push(Error::Panicked {
            path: "<reader>".to_string(),
            message: "a panic while reading".to_string(),
        }),
    }
    report
}

/// What a worker talks to besides the reader: the writer's queue, the
/// free batches, the key shards' turns and the stage clocks.
struct Ends<'a, S> {
    order_tx: Sender<Slot<S>>,
    free_rx: &'a Receiver<Batch<S>>,
    gate: Option<(&'a Gate, &'a dyn KeyShards)>,
    clocks: &'a Clocks,
}

/// One worker: read a batch in turn, transform it, decide its keys,
/// repeat.
fn work<T: Transform>(
    shared: &Mutex<Shared>,
    created: &AtomicUsize,
    transform: &T,
    limits: Limits,
    in_flight: usize,
    ends: Ends<'_, T::Stats>,
) {
    let Ends {
        order_tx,
        free_rx,
        gate,
        clocks,
    } = ends;
    let mut state = None;
    loop {
        let mut batch = match free_rx.try_recv() {
            Ok(b) => b,
            Err(_) => {
                if created
                    .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |c| {
                        (c < in_flight).then_some(c + 1)
                    })
                    .is_ok()
                {
                    Batch::new()
                } else {
                    match free_rx.recv() {
                        Ok(b) => b,
                        Err(_) => return,
                    }
                }
            }
        };
        let Ok(mut guard) = shared.lock() else {
            return;
        };
        if guard.done {
            return;
        }
        let start = thread_nanos();
        let filled = catch_unwind(AssertUnwindSafe(|| guard.reader.next(&mut batch)));
        let read = clocks.lap(Stage::Read, start);
        let (done_tx, done_rx) = bounded::<Done<T::Stats>>(1);
        let slot = match filled {
            Ok(Ok(true)) => Slot::Batch(done_rx),
            Ok(Ok(false)) => Slot::End,
            Ok(Err(e)) => Slot::Error(e),
            Err(payload) => Slot::Error(Error::Panicked {
                path: "<reader>".to_string(),
                message: panic_message(&*payload),
            }),
        };
        let more = matches!(slot, Slot::Batch(_));
        let seq = guard.seq;
        guard.seq += u64::from(more);
        if order_tx.send(slot).is_err() || !more {
            guard.done = true;
            return;
        }
        drop(guard);
        let file = batch.file;
        let result = catch_unwind(AssertUnwindSafe(|| {
            let st = state.get_or_insert_with(|| transform.state());
            process(transform, st, &mut batch, limits);
        }));
        let transformed = clocks.lap(Stage::Transform, read);
        if let Some((gate, shards)) = gate {
            // Also after a panic: the batch's turn must pass at every shard.
            if result.is_err() {
                batch.keys.clear();
            }
            gate.decide(shards, seq, &mut batch);
            clocks.lap(Stage::Dedup, transformed);
        }
        let done = match result {
            Ok(()) => Ok(batch),
            Err(payload) => {
                state = None;
                Err((file, panic_message(&*payload)))
            }
        };
        let _ = done_tx.send(done);
    }
}

/// The writer: writes batches in queue order and recycles them. Returns
/// whether it got to an end it knows of (the end of the input, or an error
/// now kept in `writer`); `false` means every worker is gone without
/// queuing the end.
fn write_loop<S: super::Merge>(
    writer: &mut BatchWriter<'_, S>,
    order_rx: Receiver<Slot<S>>,
    free_tx: Sender<Batch<S>>,
    clocks: &Clocks,
) -> bool {
    for slot in order_rx.iter() {
        match slot {
            Slot::Batch(done_rx) => match done_rx.recv() {
                Ok(Ok(mut batch)) => {
                    let start = thread_nanos();
                    let more = writer.write(&mut batch);
                    clocks.lap(Stage::Write, start);
                    if !more {
                        return true;
                    }
                    // Never blocks: the free list has room for every batch.
                    let _ = free_tx.send(batch);
                }
                Ok(Err((file, message))) => {
                    writer.fail(Error::Panicked {
                        path: writer.name(file),
                        message,
                    });
                    return true;
                }
                Err(_) => {
                    writer.fail(Error::Panicked {
                        path: "<worker>".to_string(),
                        message: "a batch was lost".to_string(),
                    });
                    return true;
                }
            },
            Slot::Error(e) => {
                writer.fail(e);
                return true;
            }
            Slot::End => return true,
        }
    }
    // Every worker is gone and none queued the end: one panicked outside
    // a batch (the caller has its message from the join), so the output is
    // incomplete.
    false
}
