//! The `canon` fuzz target: see `normurl_fuzz::canon` (fuzz/src/canon.rs).

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| normurl_fuzz::canon::check(data));
