//! The panic boundary, statuses, the last error, and input checks.

use std::cell::RefCell;
use std::ffi::{CString, c_char};
use std::panic::{AssertUnwindSafe, catch_unwind};

use response_diff::Error;

/// What a function returns. The numbers are stable.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum rd_status {
    /// Success.
    RD_OK = 0,
    /// A required pointer was NULL.
    RD_NULL_ARGUMENT = 1,
    /// A string was not valid UTF-8.
    RD_INVALID_UTF8 = 2,
    /// A JSON input was not valid JSON.
    RD_INVALID_JSON = 3,
    /// An option had an unknown key, a wrong type or an out-of-range value.
    RD_INVALID_OPTION = 4,
    /// A document (aria snapshot, fingerprint, tree JSON) could not be
    /// parsed; the message gives the line. Malformed *option* JSON is
    /// `RD_INVALID_JSON`.
    RD_PARSE_ERROR = 5,
    /// An input was over its size limit.
    RD_INPUT_TOO_LARGE = 6,
    /// A baseline was not found.
    RD_BASELINE_NOT_FOUND = 7,
    /// A name (baseline, key) was refused.
    RD_INVALID_NAME = 8,
    /// An image could not be decoded or encoded.
    RD_IMAGE_ERROR = 9,
    /// A file-system operation failed.
    RD_IO_ERROR = 10,
    /// Another argument was invalid (see the message).
    RD_INVALID_ARGUMENT = 11,
    /// The library panicked; the call had no effect that can be relied on.
    RD_PANIC = 12,
    /// An unexpected internal error.
    RD_INTERNAL = 13,
}

impl rd_status {
    fn describe(self) -> &'static str {
        let m = self.message();
        // Every message is ASCII ending in one NUL.
        std::str::from_utf8(&m[..m.len() - 1]).unwrap_or("?")
    }

    fn message(self) -> &'static [u8] {
        // NUL-terminated copies of `describe`, for C.
        match self {
            rd_status::RD_OK => b"ok\0",
            rd_status::RD_NULL_ARGUMENT => b"a required pointer was NULL\0",
            rd_status::RD_INVALID_UTF8 => b"a string was not valid UTF-8\0",
            rd_status::RD_INVALID_JSON => b"a JSON input was not valid JSON\0",
            rd_status::RD_INVALID_OPTION => {
                b"an option was unknown, of the wrong type or out of range\0"
            }
            rd_status::RD_PARSE_ERROR => b"an input could not be parsed\0",
            rd_status::RD_INPUT_TOO_LARGE => b"an input was over its size limit\0",
            rd_status::RD_BASELINE_NOT_FOUND => b"no such baseline\0",
            rd_status::RD_INVALID_NAME => b"a name was refused\0",
            rd_status::RD_IMAGE_ERROR => b"an image could not be decoded or encoded\0",
            rd_status::RD_IO_ERROR => b"a file-system operation failed\0",
            rd_status::RD_INVALID_ARGUMENT => b"an argument was invalid\0",
            rd_status::RD_PANIC => b"internal panic (a bug in response-diff; please report it)\0",
            rd_status::RD_INTERNAL => b"internal error\0",
        }
    }
}

/// A failed call: its status and message.
#[derive(Debug)]
pub(crate) struct Failure {
    status: rd_status,
    message: String,
}

impl Failure {
    pub(crate) fn new(status: rd_status, message: String) -> Self {
        Failure { status, message }
    }

    pub(crate) fn null(arg: &str) -> Self {
        Failure::new(
            rd_status::RD_NULL_ARGUMENT,
            format!("`{arg}` is NULL; pass a valid pointer"),
        )
    }

    pub(crate) fn internal(message: String) -> Self {
        Failure::new(rd_status::RD_INTERNAL, message)
    }
}

impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        let status = match &e {
            Error::InvalidOption { .. } => rd_status::RD_INVALID_OPTION,
            Error::Parse { what: "JSON", .. } => rd_status::RD_INVALID_JSON,
            Error::Parse { .. } => rd_status::RD_PARSE_ERROR,
            Error::InputTooLarge { .. } => rd_status::RD_INPUT_TOO_LARGE,
            Error::BaselineNotFound { .. } => rd_status::RD_BASELINE_NOT_FOUND,
            Error::InvalidName { .. } => rd_status::RD_INVALID_NAME,
            Error::Image(_) => rd_status::RD_IMAGE_ERROR,
            Error::Io { .. } => rd_status::RD_IO_ERROR,
            _ => rd_status::RD_INTERNAL,
        };
        Failure::new(status, e.to_string())
    }
}

thread_local! {
    static LAST_ERROR: RefCell<Option<CString>> = const { RefCell::new(None) };
}

fn set_last_error(message: &str) {
    let c = CString::new(message.replace('\0', "\\0")).unwrap_or_default();
    LAST_ERROR.with(|e| *e.borrow_mut() = Some(c));
}

/// Runs `f` inside the panic boundary, recording the message of a failure
/// as this thread's last error.
pub(crate) fn ffi_boundary(f: impl FnOnce() -> Result<(), Failure>) -> rd_status {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => rd_status::RD_OK,
        Ok(Err(failure)) => {
            set_last_error(&failure.message);
            failure.status
        }
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            set_last_error(&format!("{}: {what}", rd_status::RD_PANIC.describe()));
            rd_status::RD_PANIC
        }
    }
}

/// A required UTF-8 input of `len` bytes at `ptr`.
///
/// # Safety
/// `ptr` must be NULL or point to `len` readable bytes that stay valid for
/// the call.
pub(crate) unsafe fn input_str<'a>(
    ptr: *const c_char,
    len: usize,
    arg: &str,
) -> Result<&'a str, Failure> {
    match unsafe { opt_str(ptr, len, arg)? } {
        Some(s) => Ok(s),
        None => Err(Failure::null(arg)),
    }
}

/// An optional UTF-8 input: NULL means absent.
///
/// # Safety
/// As [`input_str`].
pub(crate) unsafe fn opt_str<'a>(
    ptr: *const c_char,
    len: usize,
    arg: &str,
) -> Result<Option<&'a str>, Failure> {
    if ptr.is_null() {
        return Ok(None);
    }
    let bytes = unsafe { std::slice::from_raw_parts(ptr.cast::<u8>(), len) };
    std::str::from_utf8(bytes).map(Some).map_err(|e| {
        Failure::new(
            rd_status::RD_INVALID_UTF8,
            format!(
                "`{arg}` is not valid UTF-8 (first bad byte at offset {}); pass UTF-8 text",
                e.valid_up_to()
            ),
        )
    })
}

/// Writes `value` to a required output pointer. When `out` is NULL the
/// value is dropped (for pointers: freed by the caller's mistake being
/// reported, not leaked).
///
/// # Safety
/// `out` must be NULL or valid for writes.
pub(crate) unsafe fn write_out<T: OutValue>(
    out: *mut T,
    value: T,
    arg: &str,
) -> Result<(), Failure> {
    if out.is_null() {
        value.release();
        return Err(Failure::null(arg));
    }
    unsafe { out.write(value) };
    Ok(())
}

/// Values written to out-pointers; owned pointers are released when they
/// cannot be handed over.
pub(crate) trait OutValue {
    fn release(self);
}

impl OutValue for usize {
    fn release(self) {}
}

impl OutValue for *mut c_char {
    fn release(self) {
        if !self.is_null() {
            drop(unsafe { CString::from_raw(self) });
        }
    }
}

/// Handles made with `Box::into_raw`.
macro_rules! boxed_handles {
    ($($t:ty),+) => {$(
        impl $crate::boundary::OutValue for *mut $t {
            fn release(self) {
                if !self.is_null() {
                    drop(unsafe { Box::from_raw(self) });
                }
            }
        }
    )+};
}
// Invoked in lib.rs for every handle of the crate, so this file names
// none of the crate's types.
pub(crate) use boxed_handles;

/// The body of every `_free(T **)`: takes the pointer out of `*slot`, sets
/// `*slot` to NULL and releases it. NULL `slot` or `*slot` is fine.
///
/// # Safety
/// `slot` must be NULL or valid for reads and writes; `*slot` must be NULL
/// or a pointer this library returned and not yet freed.
pub(crate) unsafe fn free_slot<X>(slot: *mut *mut X)
where
    *mut X: OutValue,
{
    if let Some(s) = unsafe { slot.as_mut() } {
        std::mem::replace(s, std::ptr::null_mut()).release();
    }
}

/// The message of the last failed call on this thread, or NULL if none
/// failed yet. Valid until the next call into the library on this thread;
/// do not free.
#[unsafe(no_mangle)]
pub extern "C" fn rd_last_error() -> *const c_char {
    LAST_ERROR.with(|e| e.borrow().as_ref().map_or(std::ptr::null(), |c| c.as_ptr()))
}

/// A fixed description of `status` (static; do not free).
#[unsafe(no_mangle)]
pub extern "C" fn rd_status_message(status: rd_status) -> *const c_char {
    status.message().as_ptr().cast()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panics_become_a_status_and_a_message() {
        let s = ffi_boundary(|| panic!("boom"));
        assert_eq!(s, rd_status::RD_PANIC);
        let msg = unsafe { std::ffi::CStr::from_ptr(rd_last_error()) };
        assert!(msg.to_str().unwrap().ends_with("boom"));
    }
}
