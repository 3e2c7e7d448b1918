//! Strings and JSON handed to the caller, and [`rd_string_free`].

use std::ffi::{CString, c_char};

use crate::boundary::{Failure, ffi_boundary, free_slot, rd_status, write_out};

fn c_string(s: String) -> Result<CString, Failure> {
    CString::new(s).map_err(|_| {
        Failure::new(
            rd_status::RD_INVALID_ARGUMENT,
            "the result contains a NUL byte and cannot be returned as a C string".into(),
        )
    })
}

/// Hands `s` to the caller through `out` (freed with `rd_string_free`).
///
/// # Safety
/// `out` must be NULL or valid for writes.
pub(crate) unsafe fn out_string(
    out: *mut *mut c_char,
    s: String,
    arg: &str,
) -> Result<(), Failure> {
    unsafe { write_out(out, c_string(s)?.into_raw(), arg) }
}

/// Hands `value` as JSON to the caller through `out`.
///
/// # Safety
/// As [`out_string`].
pub(crate) unsafe fn out_json<T: serde::Serialize>(
    out: *mut *mut c_char,
    value: &T,
    arg: &str,
) -> Result<(), Failure> {
    let s = serde_json::to_string(value).map_err(|e| Failure::internal(e.to_string()))?;
    unsafe { out_string(out, s, arg) }
}

/// Frees the string `*s` points to (one this library returned) and sets
/// `*s` to NULL, so calling it again is harmless. `s` and `*s` may be NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_string_free(s: *mut *mut c_char) {
    let _ = ffi_boundary(|| {
        unsafe { free_slot(s) };
        Ok(())
    });
}
