#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| response_diff_fuzz::checks::aria_parse(data));
