//! How an argument error shows the value it got: short, so that an
//! error message stays one line.

use serde_json::Value;

/// A value as JSON, cut to a few dozen characters for an error message.
pub(super) fn brief(v: &Value) -> String {
    let s = v.to_string();
    match s.char_indices().nth(60) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s,
    }
}

pub(super) fn not_an_object(path: &str, got: &str) -> String {
    format!(
        "invalid option `{path}`: expected an object such as {{\"includeSnapshot\": false, \"diffOptions\": {{\"enabled\": true}}}} (or that object as a JSON string), got {got}"
    )
}
