//! What each fuzz target checks. The same files are compiled into the
//! regression tests (core/tests/fuzz_regressions.rs,
//! ffi/tests/fuzz_regressions.rs) with `#[path]`, so every saved input runs
//! through exactly the code the fuzzer ran.

// `apply_diff`, shared with the core's property tests.
#[path = "../../core/tests/common/mod.rs"]
mod common;

pub mod checks;
pub mod ffi_checks;
