//! The `pipeline` fuzz target: see `normurl_fuzz::pipeline`
//! (fuzz/src/pipeline.rs).

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    normurl_fuzz::pipeline::check(data);
});
