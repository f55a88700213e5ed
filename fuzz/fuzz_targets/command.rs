//! The `command` fuzz target: see `normurl_fuzz::command`
//! (fuzz/src/command.rs).

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    normurl_fuzz::command::check(data);
});
