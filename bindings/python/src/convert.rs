//! Python values ⇄ the JSON the core reads and writes.
//!
//! Options cross into the core as the same JSON every binding sends (the C
//! ABI's choice), so the core alone validates them and names the offending
//! field. Python callers may pass a dict, a JSON string, keyword arguments,
//! or a mix of a dict and keyword arguments; snake_case keys are accepted as
//! aliases of the camelCase JSON names (`max_diff_lines` → `maxDiffLines`).

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyMapping, PyString, PyTuple};
use response_diff::Error;
use response_diff::error::field_path;
use serde_json::{Map, Value};

use crate::errors::RdResult;

/// Reads one of the module's option classes (`DiffOptions`,
/// `Expectation`) as JSON, or `None` for anything else.
pub type KnownJson = fn(&Bound<'_, PyAny>) -> PyResult<Option<Value>>;

/// The reader of the option classes, set once by the module's init
/// (lib.rs): the classes' files read options through this file, so it
/// cannot name them itself without an import circle.
pub static KNOWN_JSON: std::sync::OnceLock<KnownJson> = std::sync::OnceLock::new();

/// `max_diff_lines` → `maxDiffLines`; camelCase keys pass unchanged.
pub fn camel(key: &str) -> String {
    if !key.contains('_') || key.starts_with('_') {
        return key.to_owned();
    }
    let mut out = String::with_capacity(key.len());
    let mut upper = false;
    for c in key.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// Whether dict keys are option names (camelCased) or data (kept as given).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Keys {
    /// Option objects: snake_case keys become camelCase.
    Camel,
    /// Data the core reads with its own key style (fingerprints, trees).
    Verbatim,
}

fn unsupported(path: &str, obj: &Bound<'_, PyAny>) -> Error {
    let ty = obj
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "object".into());
    Error::invalid_option(
        if path.is_empty() { "(root)" } else { path },
        format!(
            "a `{ty}` cannot be sent as JSON; use None, bool, int, float, str, a list or a dict"
        ),
    )
}

/// Converts a Python value to JSON. `path` names the value in errors.
pub fn to_json(obj: &Bound<'_, PyAny>, keys: Keys, path: &str) -> RdResult<Value> {
    if obj.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(b) = obj.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if obj.cast::<PyInt>().is_ok() {
        if let Ok(i) = obj.extract::<i64>() {
            return Ok(Value::from(i));
        }
        if let Ok(u) = obj.extract::<u64>() {
            return Ok(Value::from(u));
        }
        return Err(Error::invalid_option(
            if path.is_empty() { "(root)" } else { path },
            "the integer is too large for JSON (64 bits at most)",
        )
        .into());
    }
    if let Ok(f) = obj.cast::<PyFloat>() {
        let v = f.value();
        return serde_json::Number::from_f64(v)
            .map(Value::Number)
            .ok_or_else(|| {
                Error::invalid_option(
                    if path.is_empty() { "(root)" } else { path },
                    format!("{v} is not a JSON number; use a finite number"),
                )
                .into()
            });
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Value::String(s.to_cow()?.into_owned()));
    }
    if let Ok(b) = obj.cast::<PyBytes>() {
        // Image data: JSON carries bytes as base64.
        return Ok(Value::String(base64_encode(b.as_bytes())));
    }
    if let Some(known) = KNOWN_JSON.get()
        && let Some(v) = known(obj)?
    {
        return Ok(v);
    }
    if obj.cast::<PyList>().is_ok() || obj.cast::<PyTuple>().is_ok() {
        let mut out = Vec::new();
        for (i, item) in obj.try_iter()?.enumerate() {
            out.push(to_json(&item?, keys, &format!("{path}[{i}]"))?);
        }
        return Ok(Value::Array(out));
    }
    if let Ok(m) = obj.cast::<PyMapping>() {
        return mapping_to_json(m, keys, path);
    }
    Err(unsupported(path, obj).into())
}

fn mapping_to_json(m: &Bound<'_, PyMapping>, keys: Keys, path: &str) -> RdResult<Value> {
    let mut out = Map::new();
    for item in m.items()?.try_iter()? {
        let (k, v): (Bound<'_, PyAny>, Bound<'_, PyAny>) = item?.extract()?;
        let Ok(k) = k.cast::<PyString>() else {
            return Err(Error::invalid_option(
                if path.is_empty() { "(root)" } else { path },
                format!("keys must be strings, got {}", k.repr()?),
            )
            .into());
        };
        let k = k.to_cow()?;
        let k: &str = &k;
        let key = match keys {
            Keys::Camel => camel(k),
            Keys::Verbatim => k.to_owned(),
        };
        let value = to_json(&v, keys, &field_path(path, &key))?;
        out.insert(key, value);
    }
    Ok(Value::Object(out))
}

/// An options object from an optional positional value (a dict, a JSON
/// string, or one of this module's option classes) and keyword arguments,
/// which override the positional value's keys. `None` when neither is given.
///
/// The result is JSON text for the core's `from_json`, so the core reports
/// every error (syntax, unknown keys, types, ranges).
pub fn options_json(
    root: &str,
    options: Option<&Bound<'_, PyAny>>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> RdResult<Option<String>> {
    let kwargs = kwargs.filter(|k| !k.is_empty());
    let options = options.filter(|o| !o.is_none());
    match (options, kwargs) {
        (None, None) => Ok(None),
        // A JSON string goes to the core as is (its syntax errors carry the line).
        (Some(o), None) if o.is_instance_of::<PyString>() => {
            Ok(Some(o.cast::<PyString>()?.to_cow()?.into_owned()))
        }
        (o, kw) => {
            let mut value = match o {
                None => Value::Object(Map::new()),
                Some(o) if o.is_instance_of::<PyString>() => {
                    serde_json::from_str(&o.cast::<PyString>()?.to_cow()?).map_err(|e| {
                        Error::Parse {
                            what: "JSON",
                            line: e.line(),
                            message: e.to_string(),
                        }
                    })?
                }
                Some(o) => to_json(o, Keys::Camel, root)?,
            };
            if let Some(kw) = kw {
                let Value::Object(map) = &mut value else {
                    // Let the core say what the positional value should be.
                    return Ok(Some(value.to_string()));
                };
                for (k, v) in kw.iter() {
                    let key = camel(&k.cast::<PyString>()?.to_cow()?);
                    let v = to_json(&v, Keys::Camel, &field_path(root, &key))?;
                    map.insert(key, v);
                }
            }
            Ok(Some(value.to_string()))
        }
    }
}

/// JSON text from a value the core reads as data: a JSON string as is, or
/// a dict/list converted with its keys kept verbatim.
pub fn data_json(obj: &Bound<'_, PyAny>, what: &str) -> RdResult<String> {
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(s.to_cow()?.into_owned());
    }
    Ok(to_json(obj, Keys::Verbatim, what)?.to_string())
}

/// JSON text → Python objects (`json.loads`, which keeps key order).
pub fn json_to_py<'py>(py: Python<'py>, json: &str) -> PyResult<Bound<'py, PyAny>> {
    static LOADS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let loads = LOADS.get_or_try_init(py, || -> PyResult<_> {
        Ok(py.import("json")?.getattr("loads")?.unbind())
    })?;
    loads.bind(py).call1((json,))
}

/// A serializable value → Python objects.
pub fn to_py<'py, T: serde::Serialize>(py: Python<'py>, value: &T) -> PyResult<Bound<'py, PyAny>> {
    json_to_py(py, &to_string(value))
}

/// Compact JSON of a core type (whose serialization cannot fail).
pub fn to_string<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// Python's `repr` of an optional string, for `__repr__`s.
pub fn repr(py: Python<'_>, s: Option<&str>) -> String {
    match s {
        None => "None".to_owned(),
        Some(s) => PyString::new(py, s)
            .repr()
            .map(|r| r.to_string())
            .unwrap_or_default(),
    }
}

fn base64_encode(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn camel_case_aliases() {
        assert_eq!(camel("max_diff_lines"), "maxDiffLines");
        assert_eq!(camel("maxDiffLines"), "maxDiffLines");
        assert_eq!(camel("enabled"), "enabled");
        assert_eq!(camel("_private"), "_private");
    }
}
