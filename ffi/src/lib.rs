//! C ABI for response-diff.
//!
//! Conventions (rustls-ffi's):
//! - functions are named `rd_<noun>_<verb>`; stateful things are opaque
//!   handles made by `_new` and released by `_free`. Every `_free` takes
//!   the address of the caller's pointer and sets it to NULL, so freeing
//!   twice is harmless and NULL is always fine;
//! - the object comes first, then inputs, then outputs; a string input is a
//!   pointer followed by its length in bytes (UTF-8, no NUL needed); an
//!   output is written only on success;
//! - every function returns an [`rd_status`]; [`rd_last_error`] gives the
//!   message of the last failure on this thread and
//!   [`rd_status_message`] a fixed description of a status;
//! - strings the library returns are freed with [`rd_string_free`]
//!   (`rd_string_free(&s)`);
//! - options and results cross as JSON, the same JSON as every binding;
//! - every function runs inside a panic boundary: NULL, invalid UTF-8 and
//!   invalid JSON give a status, never a crash.
//!
//! # Safety
//!
//! One contract for every function, stated here instead of on each: every
//! pointer argument is NULL or valid for the access its type implies for the
//! duration of the call (`ptr, len` pairs: `len` readable bytes), handles
//! come from this library and are not used after `_free`.
#![allow(non_camel_case_types)]
// The safety contract is the crate-level one above (rustls-ffi does the same).
#![allow(clippy::missing_safety_doc)]
#![deny(unsafe_op_in_unsafe_fn)]

// In the header's order (cbindgen reads the items of this file, then these
// modules as declared; rustfmt keeps the order because each has a comment).
// `rd_detector_*`, `rd_diff_*`:
mod detector;
// `rd_expectation_*`, `rd_response_render`, `rd_has_images`:
mod response;
// `rd_string_free`:
mod output;
// `rd_fingerprint_*`, `rd_baseline_store_*`:
mod fingerprint;
// `rd_tree_*`, `rd_ref_carrier_*`, `rd_refs_carry`, `rd_snapshot_patch*`:
mod tree;
// `rd_last_error`, `rd_status_message`:
mod boundary;

use std::ffi::c_char;

pub use boundary::{rd_last_error, rd_status, rd_status_message};
pub use detector::*;
pub use fingerprint::*;
pub use output::*;
pub use response::*;
pub use tree::*;

// The modules' handles are released through `boundary::write_out` when an
// out-pointer is NULL.
boundary::boxed_handles!(rd_detector, rd_baseline_store, rd_ref_carrier);

/// The library version, e.g. `"0.1.0"` (static; do not free).
#[unsafe(no_mangle)]
pub extern "C" fn rd_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
}
