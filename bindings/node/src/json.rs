//! Option objects cross as JSON so that the core validates them (unknown
//! keys, types and ranges, each error naming its field), exactly as for the
//! C and Python bindings.

use serde_json::Value;

/// The JSON text of an options object; `None` for `undefined` / `null`.
pub(crate) fn options_json(value: Option<Value>) -> Option<String> {
    match value {
        None | Some(Value::Null) => None,
        Some(v) => Some(v.to_string()),
    }
}
