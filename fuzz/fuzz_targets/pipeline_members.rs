//! The `pipeline_members` fuzz target: see
//! `normurl_fuzz::pipeline::check_members` (fuzz/src/pipeline.rs).

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    normurl_fuzz::pipeline::check_members(data);
});
