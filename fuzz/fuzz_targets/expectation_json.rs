#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| response_diff_fuzz::checks::expectation_json(data));
