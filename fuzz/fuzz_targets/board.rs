//! libFuzzer entry point of the `board` target (the checks are in `pentad_fuzz::board`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| pentad_fuzz::board(data));
