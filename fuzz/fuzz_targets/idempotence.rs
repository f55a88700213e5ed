//! The `idempotence` fuzz target: see `normurl_fuzz::idempotence` (fuzz/src/idempotence.rs).

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| normurl_fuzz::idempotence::check(data));
