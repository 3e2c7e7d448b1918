//! Strict JSON parsing with errors that name the offending field.

use serde::de::DeserializeOwned;

use crate::{Error, Result};

/// Parses `json` as `T`. Syntax errors become [`Error::Parse`] with the line;
/// unknown keys, wrong types and bad enum values become
/// [`Error::InvalidOption`] whose `field` is the dotted path under `root`
/// (`expectation.consoleOptions.levels[1]`).
pub(crate) fn from_str<T: DeserializeOwned>(json: &str, root: &str) -> Result<T> {
    let de = &mut serde_json::Deserializer::from_str(json);
    let value: T = serde_path_to_error::deserialize(de).map_err(|e| convert(e, root))?;
    Ok(value)
}

/// Like [`from_str`] for an already parsed JSON value.
pub(crate) fn from_value<T: DeserializeOwned>(value: &serde_json::Value, root: &str) -> Result<T> {
    serde_path_to_error::deserialize(value).map_err(|e| convert(e, root))
}

fn convert(e: serde_path_to_error::Error<serde_json::Error>, root: &str) -> Error {
    let path = e.path().to_string();
    let inner = e.into_inner();
    if inner.is_syntax() || inner.is_eof() || inner.is_io() {
        return Error::Parse {
            what: "JSON",
            line: inner.line(),
            message: strip_position(&inner.to_string()),
        };
    }
    let field = match (root.is_empty(), path.as_str()) {
        (_, ".") => root.to_owned(),
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
