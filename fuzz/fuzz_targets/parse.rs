//! The `parse` fuzz target: see `normurl_fuzz::parse` (fuzz/src/parse.rs).

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| normurl_fuzz::parse::check(data));
