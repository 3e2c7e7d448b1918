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

/// A JavaScript string as a Rust `String`, converted in one copy, with the
/// JavaScript value it came from (valid for the call) so a result that
/// repeats it can hand the caller's own string back instead of a copy.
pub struct Text(pub String, sys::napi_value);

impl Text {
    /// `out` as a JavaScript string. When `out` ends with this text (a
    /// `first` or `full` answer: an optional note, then the whole response),
    /// the caller's own string is reused: returned as is, or joined to the
    /// note by `String.prototype.concat`, which V8 does without copying. A
    /// megabyte response then costs nothing to return instead of a UTF-8
    /// decode of the whole text.
    pub fn reuse_in(&self, mut out: String) -> JsText {
        let Some(split) = out.len().checked_sub(self.0.len()) else {
            return JsText::Owned(out);
        };
        if !out.is_char_boundary(split) || out.as_bytes()[split..] != *self.0.as_bytes() {
            return JsText::Owned(out);
        }
        out.truncate(split);
        JsText::Reuse {
            note: out,
            tail: self.1,
        }
    }
}

/// A string result for JavaScript: built in Rust, or an input string reused.
pub enum JsText {
    /// A string made here.
    Owned(String),
    /// `note` followed by the input string `tail` (a value of the current call).
    Reuse { note: String, tail: sys::napi_value },
}

impl From<String> for JsText {
    fn from(s: String) -> Self {
        JsText::Owned(s)
    }
}

impl TypeName for JsText {
    fn type_name() -> &'static str {
        "String"
    }

    fn value_type() -> ValueType {
        ValueType::String
    }
}

impl ToNapiValue for JsText {
    unsafe fn to_napi_value(env: sys::napi_env, val: Self) -> Result<sys::napi_value> {
        match val {
            JsText::Owned(s) => unsafe { String::to_napi_value(env, s) },
            JsText::Reuse { note, tail } if note.is_empty() => Ok(tail),
            JsText::Reuse { note, tail } => unsafe { concat(env, note, tail) },
        }
    }
}

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
            return unsafe { String::from_napi_value(env, value) }.map(|s| Text(s, value));
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
            return unsafe { String::from_napi_value(env, value) }.map(|s| Text(s, value));
        }
        // SAFETY: V8 wrote `written` bytes (capacity was enough for all of
        // them), replacing lone surrogates, so they are valid UTF-8; napi-rs
        // relies on the same guarantee for `String`.
        unsafe {
            bytes.set_len(written.min(capacity));
            Ok(Text(String::from_utf8_unchecked(bytes), value))
        }
    }
}

/// `note.concat(tail)` in JavaScript: V8 joins the two without copying.
///
/// # Safety
/// `env` is the current call's environment and `tail` a string value of it.
unsafe fn concat(
    env: sys::napi_env,
    note: String,
    tail: sys::napi_value,
) -> Result<sys::napi_value> {
    let check = |status: sys::napi_status, what: &str| {
        if status == sys::Status::napi_ok {
            Ok(())
        } else {
            Err(Error::new(
                Status::GenericFailure,
                format!("could not {what} (napi status {status})"),
            ))
        }
    };
    unsafe {
        let note = String::to_napi_value(env, note)?;
        let mut concat = ptr::null_mut();
        // Node-API converts the string primitive to its wrapper object.
        check(
            sys::napi_get_named_property(env, note, c"concat".as_ptr(), &mut concat),
            "look up String.prototype.concat",
        )?;
        let mut joined = ptr::null_mut();
        check(
            sys::napi_call_function(env, note, concat, 1, &tail, &mut joined),
            "join the note and the response",
        )?;
        Ok(joined)
    }
}
