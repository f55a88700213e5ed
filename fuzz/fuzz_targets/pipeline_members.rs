//! The `pipeline_members` fuzz target: see
//! `normurl_fuzz::pipeline::check_members` and `check_frames`
//! (fuzz/src/pipeline.rs): gzip members and zstd frames.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    normurl_fuzz::pipeline::check_members(data);
    normurl_fuzz::pipeline::check_frames(data);
});
