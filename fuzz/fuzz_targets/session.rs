//! libFuzzer entry point of the `session` target (the checks are in `pentad_fuzz::session`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| pentad_fuzz::session(data));
