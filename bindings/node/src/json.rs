//! Option objects cross as JSON so that the core validates them (unknown
//! keys, types and ranges, each error naming its field), exactly as for the
//! C and Python bindings. The few option objects the core has no JSON form
//! for are read with [`Opts`], which reports problems the same way.

use napi::bindgen_prelude::{
    Env, FromNapiValue, Function, JsObjectValue, JsValue, TypeName, Unknown, ValidateNapiValue,
    ValueType,
};
use napi::sys;
use response_diff::Error as CoreError;
use serde_json::{Map, Value};

use crate::error::OrThrow;

// Trees cross the boundary as JSON text through the engine's own `JSON`,
// not napi's `serde_json::Value` conversion: that one stops at 128 levels
// (64 elements deep), while a tree may be `MAX_DEPTH` (1,000) elements
// deep.

/// A JS value as JSON text (`JSON.stringify`). A value nested too deep for
/// the engine throws its own `RangeError`, which propagates as is.
pub(crate) fn stringify(env: &Env, value: Unknown<'_>) -> napi::Result<String> {
    let json: napi::JSON = env.get_global()?.get_named_property_unchecked("JSON")?;
    json.stringify(value)
}

/// JSON text as a JS value (`JSON.parse`, which is not recursive in V8).
pub(crate) fn parse(env: &Env, text: String) -> napi::Result<Unknown<'static>> {
    let json: napi::JSON = env.get_global()?.get_named_property_unchecked("JSON")?;
    let parse: Function<String, Unknown<'static>> = json.get_named_property_unchecked("parse")?;
    parse.call(text)
}

/// A JS string as a Rust string; `None` when the value is not a string.
pub(crate) fn as_string(env: &Env, value: &Unknown<'_>) -> napi::Result<Option<String>> {
    if value.get_type()? != ValueType::String {
        return Ok(None);
    }
    // SAFETY: the value is a string of this env.
    unsafe { String::from_napi_value(env.raw(), value.raw()) }.map(Some)
}

/// The JSON text of an options object; `None` for `undefined` / `null`.
pub(crate) fn options_json(value: Option<Json>) -> Option<String> {
    match value.map(|j| j.0) {
        None | Some(Value::Null) => None,
        Some(v) => Some(v.to_string()),
    }
}

/// An options object read by the core's `from_json` (`parse`), its
/// defaults for `undefined` / `null`; a refused option throws.
pub(crate) fn options_from<T: Default>(
    env: &Env,
    value: Option<Json>,
    parse: impl FnOnce(&str) -> std::result::Result<T, CoreError>,
) -> napi::Result<T> {
    match options_json(value) {
        None => Ok(T::default()),
        Some(json) => parse(&json).or_throw(env),
    }
}

/// Deeper option values are not options: they read as a string the core
/// then refuses, naming the field.
const MAX_OPTION_DEPTH: usize = 64;

/// A JavaScript value (an options object, an expectation, a response) as
/// JSON data, read without ever refusing it here: what is not JSON data
/// (`NaN`, `Infinity`, a function, a symbol, a bigint, nesting past 64
/// levels) becomes a string such as `"NaN"`, so the core's validation
/// names the field it was found in (`diffOptions.threshold: invalid type:
/// string "NaN", expected f64`) instead of a conversion error naming
/// nothing. `undefined` members are left out, as `JSON.stringify` does.
pub struct Json(pub Value);

impl TypeName for Json {
    fn type_name() -> &'static str {
        "Object"
    }

    fn value_type() -> ValueType {
        ValueType::Object
    }
}

impl ValidateNapiValue for Json {}

impl FromNapiValue for Json {
    unsafe fn from_napi_value(env: sys::napi_env, value: sys::napi_value) -> napi::Result<Self> {
        unsafe { to_json(env, value, 0) }.map(Json)
    }
}

fn check(status: sys::napi_status, what: &str) -> napi::Result<()> {
    if status == sys::Status::napi_ok {
        Ok(())
    } else {
        Err(napi::Error::new(
            napi::Status::GenericFailure,
            format!("could not read {what} (napi status {status})"),
        ))
    }
}

/// # Safety
/// `value` is a value of the current call in `env`.
unsafe fn to_json(env: sys::napi_env, value: sys::napi_value, depth: usize) -> napi::Result<Value> {
    use sys::ValueType as T;
    let mut kind = 0;
    unsafe {
        check(sys::napi_typeof(env, value, &mut kind), "a value's type")?;
        Ok(match kind {
            T::napi_undefined | T::napi_null => Value::Null,
            T::napi_boolean => Value::Bool(bool::from_napi_value(env, value)?),
            T::napi_number => {
                let f = f64::from_napi_value(env, value)?;
                if f.fract() == 0.0 && f.abs() <= MAX_SAFE_INTEGER {
                    Value::from(f as i64)
                } else {
                    serde_json::Number::from_f64(f)
                        .map(Value::Number)
                        // NaN, Infinity, -Infinity: as JavaScript prints them.
                        .unwrap_or_else(|| Value::String(format!("{f}").replace("inf", "Infinity")))
                }
            }
            T::napi_string => Value::String(String::from_napi_value(env, value)?),
            T::napi_object if depth >= MAX_OPTION_DEPTH => {
                Value::String(format!("[nested deeper than {MAX_OPTION_DEPTH} levels]"))
            }
            T::napi_object => {
                let mut is_array = false;
                check(sys::napi_is_array(env, value, &mut is_array), "an array")?;
                if is_array {
                    let mut len = 0u32;
                    check(
                        sys::napi_get_array_length(env, value, &mut len),
                        "an array's length",
                    )?;
                    let mut items = Vec::with_capacity(len as usize);
                    for i in 0..len {
                        let mut item = std::ptr::null_mut();
                        check(
                            sys::napi_get_element(env, value, i, &mut item),
                            "an array item",
                        )?;
                        let v = to_json(env, item, depth + 1)?;
                        items.push(v);
                    }
                    Value::Array(items)
                } else {
                    let mut keys = std::ptr::null_mut();
                    check(
                        sys::napi_get_property_names(env, value, &mut keys),
                        "an object's keys",
                    )?;
                    let mut len = 0u32;
                    check(
                        sys::napi_get_array_length(env, keys, &mut len),
                        "an object's keys",
                    )?;
                    let mut map = Map::new();
                    for i in 0..len {
                        let mut key = std::ptr::null_mut();
                        check(
                            sys::napi_get_element(env, keys, i, &mut key),
                            "an object's key",
                        )?;
                        let mut member = std::ptr::null_mut();
                        check(
                            sys::napi_get_property(env, value, key, &mut member),
                            "an object member",
                        )?;
                        let mut member_kind = 0;
                        check(
                            sys::napi_typeof(env, member, &mut member_kind),
                            "a value's type",
                        )?;
                        if member_kind == T::napi_undefined {
                            continue;
                        }
                        let name = match to_json(env, key, depth + 1)? {
                            Value::String(s) => s,
                            other => other.to_string(),
                        };
                        map.insert(name, to_json(env, member, depth + 1)?);
                    }
                    Value::Object(map)
                }
            }
            T::napi_function => Value::String("[function]".into()),
            T::napi_symbol => Value::String("[symbol]".into()),
            T::napi_bigint => Value::String("[bigint]".into()),
            _ => Value::String("[not JSON data]".into()),
        })
    }
}

/// A JS options object read key by key: a wrong type or an unknown key is
/// the core's `InvalidOption` naming `path.key`.
pub(crate) struct Opts {
    path: &'static str,
    map: Map<String, Value>,
    allowed: &'static [&'static str],
}

type R<T> = Result<T, CoreError>;

/// `Number.MAX_SAFE_INTEGER`.
const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// A non-negative integer from a JS number (numbers past `u32::MAX` arrive
/// as floats).
pub(crate) fn non_negative_integer(v: &Value) -> Option<u64> {
    v.as_u64().or_else(|| {
        v.as_f64()
            .filter(|f| f.fract() == 0.0 && (0.0..=MAX_SAFE_INTEGER).contains(f))
            .map(|f| f as u64)
    })
}

impl Opts {
    /// Reads `value` (an object, `undefined` or `null`) under `path`,
    /// accepting only the `allowed` keys.
    pub(crate) fn new(
        path: &'static str,
        value: Option<Value>,
        allowed: &'static [&'static str],
    ) -> R<Opts> {
        let map = match value {
            None | Some(Value::Null) => Map::new(),
            Some(Value::Object(m)) => m,
            Some(_) => {
                return Err(CoreError::invalid_option(path, "must be an object"));
            }
        };
        if let Some(k) = map.keys().find(|k| !allowed.contains(&k.as_str())) {
            return Err(CoreError::invalid_option(
                format!("{path}.{k}"),
                format!("unknown option `{k}`; allowed: {}", allowed.join(", ")),
            ));
        }
        Ok(Opts { path, map, allowed })
    }

    fn wrong(&self, key: &str, want: &str) -> CoreError {
        debug_assert!(self.allowed.contains(&key));
        CoreError::invalid_option(format!("{}.{key}", self.path), format!("must be {want}"))
    }

    fn get(&self, key: &str) -> Option<&Value> {
        self.map.get(key).filter(|v| !v.is_null())
    }

    pub(crate) fn bool(&self, key: &str) -> R<Option<bool>> {
        self.get(key)
            .map(|v| v.as_bool().ok_or_else(|| self.wrong(key, "a boolean")))
            .transpose()
    }
}
