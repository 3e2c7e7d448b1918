#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    response_diff_fuzz::ffi_checks::ffi_json(data);
});
