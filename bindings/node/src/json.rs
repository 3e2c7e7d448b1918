//! Option objects cross as JSON so that the core validates them (unknown
//! keys, types and ranges, each error naming its field), exactly as for the
//! C and Python bindings. The few option objects the core has no JSON form
//! for are read with [`Opts`], which reports problems the same way.

use napi::bindgen_prelude::{
    Env, FromNapiValue, Function, JsObjectValue, JsValue, Unknown, ValueType,
};
use response_diff::Error as CoreError;
use serde_json::{Map, Value};

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
pub(crate) fn options_json(value: Option<Value>) -> Option<String> {
    match value {
        None | Some(Value::Null) => None,
        Some(v) => Some(v.to_string()),
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

    pub(crate) fn u64(&self, key: &str) -> R<Option<u64>> {
        self.get(key)
            .map(|v| {
                non_negative_integer(v).ok_or_else(|| self.wrong(key, "a non-negative integer"))
            })
            .transpose()
    }
}
