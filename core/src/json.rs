//! Strict JSON parsing with errors that name the offending field.

use crate::prelude::*;
use serde::de::{Deserialize, DeserializeOwned, Deserializer};

use crate::{Error, Result};

/// Parses `json` as `T`, an object type. Syntax errors (anywhere in the
/// text) become [`Error::Parse`] with the line; a document that is not a
/// JSON object, unknown keys, wrong types and bad enum values become
/// [`Error::InvalidOption`] whose `field` is the dotted path under `root`
/// (`expectation.consoleOptions.levels[1]`).
pub(crate) fn from_str<T: DeserializeOwned>(json: &str, root: &str) -> Result<T> {
    // Check the whole syntax first, so a truncated document is reported as
    // such rather than as whatever type error comes before the cut.
    let value: serde_json::Value = serde_json::from_str(json).map_err(|e| Error::Parse {
        what: "JSON",
        line: e.line(),
        message: strip_position(&e.to_string()),
    })?;
    from_value(&value, root)
}

/// Checks that `json` is well-formed JSON: [`Error::Parse`] with the line
/// otherwise, as [`from_str`] reports it. (Read into a `Value`, as there:
/// `IgnoredAny` would let an out-of-range number through.)
pub(crate) fn check_syntax(json: &str) -> Result<()> {
    serde_json::from_str::<serde_json::Value>(json)
        .map(|_| ())
        .map_err(|e| Error::Parse {
            what: "JSON",
            line: e.line(),
            message: strip_position(&e.to_string()),
        })
}

/// Like [`from_str`] for an already parsed JSON value.
pub(crate) fn from_value<T: DeserializeOwned>(value: &serde_json::Value, root: &str) -> Result<T> {
    if !value.is_object() {
        let got = match value {
            serde_json::Value::Null => "null",
            serde_json::Value::Bool(_) => "a boolean",
            serde_json::Value::Number(_) => "a number",
            serde_json::Value::String(_) => "a string",
            serde_json::Value::Array(_) => "an array",
            serde_json::Value::Object(_) => "an object",
        };
        return Err(Error::invalid_option(
            if root.is_empty() { "(root)" } else { root },
            format!("must be a JSON object, got {got}"),
        ));
    }
    deserialize_at(value).map_err(|(path, e)| convert(&path, e, root))
}

/// Deserializes a `T` from `de`; an error comes with the dotted path of
/// the value it is about (`consoleOptions.levels[1]`, empty at the root).
/// The path comes from serde_path_to_error, which needs `std`; without it
/// the path is always empty and errors name the document only
/// (docs/DECISIONS.md D67, docs/LIMITS.md).
pub(crate) fn deserialize_at<'de, T, D>(de: D) -> core::result::Result<T, (String, D::Error)>
where
    T: Deserialize<'de>,
    D: Deserializer<'de>,
{
    #[cfg(feature = "std")]
    {
        serde_path_to_error::deserialize(de).map_err(|e| {
            let path = e.path().to_string();
            let path = if path == "." { String::new() } else { path };
            (path, e.into_inner())
        })
    }
    #[cfg(not(feature = "std"))]
    {
        T::deserialize(de).map_err(|e| (String::new(), e))
    }
}

fn convert(path: &str, inner: serde_json::Error, root: &str) -> Error {
    if inner.is_syntax() || inner.is_eof() || inner.is_io() {
        return Error::Parse {
            what: "JSON",
            line: inner.line(),
            message: strip_position(&inner.to_string()),
        };
    }
    let field = match (root.is_empty(), path) {
        (_, "") => root.to_owned(),
        (true, p) => p.to_owned(),
        (false, p) => format!("{root}.{p}"),
    };
    Error::InvalidOption {
        field,
        message: strip_position(&inner.to_string()),
    }
}

/// serde_json appends " at line L column C"; the path says more.
fn strip_position(msg: &str) -> String {
    match msg.rfind(" at line ") {
        Some(i) => msg[..i].to_owned(),
        None => msg.to_owned(),
    }
}
