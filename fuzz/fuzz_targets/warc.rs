//! The `warc` fuzz target: see `normurl_fuzz::warc` (fuzz/src/warc.rs).

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    normurl_fuzz::warc::check(data);
});
