//! Response texts cross from JavaScript in one pass.
//!
//! napi-rs's `String` asks V8 for the UTF-8 length (a full scan), zeroes a
//! buffer, then copies: three passes over a text that can be megabytes.
//! [`Text`] asks for the UTF-16 length (constant time), which bounds the
//! UTF-8 length at three bytes per code unit, and copies once. This is only
//! a conversion; what is done with the text is the core's business.

use std::ptr;

use napi::bindgen_prelude::*;
use napi::sys;

/// A JavaScript string as a Rust `String`, converted in one copy.
pub struct Text(pub String);

impl TypeName for Text {
    fn type_name() -> &'static str {
        "String"
    }

    fn value_type() -> ValueType {
        ValueType::String
    }
}

impl ValidateNapiValue for Text {}

impl FromNapiValue for Text {
    unsafe fn from_napi_value(env: sys::napi_env, value: sys::napi_value) -> Result<Self> {
        let mut units = 0usize;
        // Constant time; fails with `napi_string_expected` for a non-string.
        let status =
            unsafe { sys::napi_get_value_string_utf16(env, value, ptr::null_mut(), 0, &mut units) };
        if status != sys::Status::napi_ok {
            // Let napi-rs produce its usual `StringExpected` error.
            return unsafe { String::from_napi_value(env, value) }.map(Text);
        }
        // A UTF-16 code unit takes at most 3 bytes in UTF-8 (a surrogate
        // pair, two units, takes 4); one more for the NUL V8 writes.
        let capacity = units.saturating_mul(3).saturating_add(1);
        let mut bytes: Vec<u8> = Vec::with_capacity(capacity);
        let mut written = 0usize;
        let status = unsafe {
            sys::napi_get_value_string_utf8(
                env,
                value,
                bytes.as_mut_ptr().cast(),
                capacity,
                &mut written,
            )
        };
        if status != sys::Status::napi_ok {
            return unsafe { String::from_napi_value(env, value) }.map(Text);
        }
        // SAFETY: V8 wrote `written` bytes (capacity was enough for all of
        // them), replacing lone surrogates, so they are valid UTF-8; napi-rs
        // relies on the same guarantee for `String`.
        unsafe {
            bytes.set_len(written.min(capacity));
            Ok(Text(String::from_utf8_unchecked(bytes)))
        }
    }
}
