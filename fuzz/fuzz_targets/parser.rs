//! libFuzzer entry point of the `parser` target (the checks are in `pentad_fuzz::parser`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| pentad_fuzz::parser(data));
