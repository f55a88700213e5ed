//! The single-threaded pipeline: read a batch, transform it, write it, on
//! the calling thread. It runs the very functions the parallel pipeline
//! runs, so it is the reference the parallel one is tested against (and the
//! `-j 1` mode).

use std::panic::{catch_unwind, AssertUnwindSafe};

use super::batch::{process, Batch};
use super::cpu::{thread_nanos, Stage};
use super::shards::Gate;
use super::writer::{Report, Sinks};
use super::{panic_message, Error, Input, Pipeline, Transform};

pub(crate) fn run<T: Transform>(
    pipeline: &Pipeline<T>,
    inputs: Vec<Input>,
    sinks: Sinks<'_>,
) -> Report<T::Stats> {
    let limits = pipeline.limits();
    let shards = sinks.shards();
    let (mut reader, mut writer) = pipeline.ends(inputs, sinks);
    let gate = shards.map(|s| (Gate::new(s.shards()), s));
    let clocks = std::sync::Arc::clone(&writer.clocks);
    let mut state = None;
    let mut batch = Batch::new();
    let mut seq = 0;
    loop {
        let start = thread_nanos();
        let next = reader.next(&mut batch);
        let read = clocks.lap(Stage::Read, start);
        match next {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => {
                writer.fail(e);
                break;
            }
        }
        // Same panic policy as the workers of the parallel pipeline.
        let transformed = catch_unwind(AssertUnwindSafe(|| {
            let state = state.get_or_insert_with(|| pipeline.transform.state());
            process(&pipeline.transform, state, &mut batch, limits);
        }));
        let done = clocks.lap(Stage::Transform, read);
        if let Err(payload) = transformed {
            writer.fail(Error::Panicked {
                path: writer.name(batch.file),
                message: panic_message(&*payload),
            });
            break;
        }
        let done = match &gate {
            Some((gate, shards)) => {
                gate.decide(*shards, seq, &mut batch);
                seq += 1;
                clocks.lap(Stage::Dedup, done)
            }
            None => done,
        };
        let more = writer.write(&mut batch);
        clocks.lap(Stage::Write, done);
        if !more {
            break;
        }
    }
    let mut report = writer.into_report();
    report.summary.bytes_in = reader.bytes_in();
    report.summary.raw_bytes_in = reader.raw_in;
    report.summary.unit_ended_records = reader.unit_ends();
    report
}
