//! The `differential` fuzz target: see `normurl_fuzz::differential` (fuzz/src/differential.rs).

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| normurl_fuzz::differential::check(data));
