//! The exception hierarchy and the mapping from the core's `Error`, variant
//! by variant (polars' `error.rs` pattern).
//!
//! ```text
//! ResponseDiffError(Exception)
//! ├── InvalidOptionError(ResponseDiffError, ValueError)   .field .message
//! ├── ParseError(ResponseDiffError, ValueError)           .what .line .message
//! ├── InputTooLargeError(ResponseDiffError, ValueError)   .what .size .limit
//! ├── InvalidNameError(ResponseDiffError, ValueError)     .name .reason
//! ├── BaselineNotFoundError(ResponseDiffError, LookupError) .name .known
//! ├── ImageError(ResponseDiffError, ValueError)           .message
//! └── StoreIOError(ResponseDiffError, OSError)            .path .errno
//! ```
//!
//! The subclasses also derive from the matching built-in exception, so
//! `except ValueError` catches bad options as it does elsewhere in Python.
//! `create_exception!` takes a single base, so the classes are made with
//! `type(name, bases, namespace)` once per interpreter.

use pyo3::exceptions::{PyException, PyLookupError, PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyTuple, PyType};
use response_diff::Error;

/// The exception classes.
pub struct Types {
    pub base: Py<PyType>,
    pub invalid_option: Py<PyType>,
    pub parse: Py<PyType>,
    pub input_too_large: Py<PyType>,
    pub invalid_name: Py<PyType>,
    pub baseline_not_found: Py<PyType>,
    pub image: Py<PyType>,
    pub io: Py<PyType>,
}

static TYPES: PyOnceLock<Types> = PyOnceLock::new();

fn new_type(
    py: Python<'_>,
    name: &str,
    doc: &str,
    bases: &[&Bound<'_, PyType>],
) -> PyResult<Py<PyType>> {
    let ns = PyDict::new(py);
    ns.set_item("__module__", "response_diff")?;
    ns.set_item("__doc__", doc)?;
    let bases = PyTuple::new(py, bases)?;
    let ty = py.get_type::<PyType>().call1((name, bases, ns))?;
    Ok(ty.cast_into::<PyType>()?.unbind())
}

/// The exception classes, created on first use.
pub fn types(py: Python<'_>) -> PyResult<&Types> {
    TYPES.get_or_try_init(py, || {
        let base = new_type(
            py,
            "ResponseDiffError",
            "Base class of every error raised by response_diff.",
            &[&py.get_type::<PyException>()],
        )?;
        let b = base.bind(py).clone();
        let value = py.get_type::<PyValueError>();
        let sub = |name: &str, doc: &str, builtin: &Bound<'_, PyType>| {
            new_type(py, name, doc, &[&b, builtin])
        };
        Ok(Types {
            invalid_option: sub(
                "InvalidOptionError",
                "An option had an unknown key, a wrong type or an out-of-range value.\n\n\
                 `field` is the dotted path of the field (`expectation.consoleOptions.maxMessages`);\n\
                 `message` says what was wrong and what is allowed.",
                &value,
            )?,
            parse: sub(
                "ParseError",
                "Input text (an aria snapshot, a fingerprint, JSON) could not be parsed.\n\n\
                 `what` names the input, `line` is the 1-based line of the problem,\n\
                 `message` says what was wrong there.",
                &value,
            )?,
            input_too_large: sub(
                "InputTooLargeError",
                "An input is larger than its limit: `what`, `size` and `limit` (bytes).",
                &value,
            )?,
            invalid_name: sub(
                "InvalidNameError",
                "A baseline name is not allowed (`[A-Za-z0-9._-]{1,64}`), or a hash prefix is\n\
                 ambiguous: `name` and `reason`.",
                &value,
            )?,
            baseline_not_found: sub(
                "BaselineNotFoundError",
                "No baseline (or recent capture) has this name or hash: `name`, and `known`,\n\
                 the names that do exist.",
                &py.get_type::<PyLookupError>(),
            )?,
            image: sub(
                "ImageError",
                "An image could not be decoded or encoded: `message`.",
                &value,
            )?,
            io: sub(
                "StoreIOError",
                "A file operation of an on-disk store failed: `path`, and `errno` when the\n\
                 system gave one.",
                &py.get_type::<PyOSError>(),
            )?,
            base,
        })
    })
}

/// A core error or a Python error: what the binding's functions return, so
/// `?` works on both.
pub enum BindError {
    Core(Error),
    Py(PyErr),
}

/// `Result` of the binding's functions.
pub type RdResult<T> = Result<T, BindError>;

impl From<Error> for BindError {
    fn from(e: Error) -> Self {
        BindError::Core(e)
    }
}

impl From<PyErr> for BindError {
    fn from(e: PyErr) -> Self {
        BindError::Py(e)
    }
}

impl From<pyo3::CastError<'_, '_>> for BindError {
    fn from(e: pyo3::CastError<'_, '_>) -> Self {
        BindError::Py(e.into())
    }
}

impl From<BindError> for PyErr {
    fn from(e: BindError) -> PyErr {
        match e {
            BindError::Py(e) => e,
            BindError::Core(e) => Python::attach(|py| core_error(py, e)),
        }
    }
}

/// Instantiates `ty` with `message` and sets `attrs` on the instance.
fn raise<'py>(
    py: Python<'py>,
    ty: &Py<PyType>,
    message: String,
    attrs: &[(&str, Bound<'py, PyAny>)],
) -> PyErr {
    let make = || -> PyResult<PyErr> {
        let exc = ty.bind(py).call1((message,))?;
        for (k, v) in attrs {
            exc.setattr(*k, v)?;
        }
        Ok(PyErr::from_value(exc))
    };
    make().unwrap_or_else(|e| e)
}

/// Maps one core error to its exception class, keeping its fields.
fn core_error(py: Python<'_>, e: Error) -> PyErr {
    let t = match types(py) {
        Ok(t) => t,
        Err(err) => return err,
    };
    let message = e.to_string();
    let obj = |v: &dyn ToPy| v.to_py(py);
    match &e {
        Error::InvalidOption { field, message: m } => raise(
            py,
            &t.invalid_option,
            message,
            &[("field", obj(field)), ("message", obj(m))],
        ),
        Error::Parse {
            what,
            line,
            message: m,
        } => raise(
            py,
            &t.parse,
            message,
            &[
                ("what", obj(what)),
                ("line", obj(line)),
                ("message", obj(m)),
            ],
        ),
        Error::InputTooLarge { what, size, limit } => raise(
            py,
            &t.input_too_large,
            message,
            &[
                ("what", obj(what)),
                ("size", obj(size)),
                ("limit", obj(limit)),
            ],
        ),
        Error::BaselineNotFound { name, known } => raise(
            py,
            &t.baseline_not_found,
            message,
            &[("name", obj(name)), ("known", obj(known))],
        ),
        Error::InvalidName { name, reason } => raise(
            py,
            &t.invalid_name,
            message,
            &[("name", obj(name)), ("reason", obj(reason))],
        ),
        Error::Image(m) => raise(py, &t.image, message, &[("message", obj(m))]),
        Error::Io { path, source } => {
            // Only `errno` of OSError's own fields: setting `strerror` or
            // `filename` would make str() print them instead of the message.
            let errno = source.raw_os_error();
            raise(
                py,
                &t.io,
                message,
                &[
                    ("path", obj(&path.display().to_string())),
                    ("errno", obj(&errno)),
                ],
            )
        }
        // The core's enum is non-exhaustive: a variant added later is still
        // a ResponseDiffError with its message.
        _ => raise(py, &t.base, message, &[]),
    }
}

/// Values set as exception attributes.
trait ToPy {
    fn to_py<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny>;
}

macro_rules! to_py_via_into {
    ($($t:ty),*) => {$(
        impl ToPy for $t {
            fn to_py<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
                use pyo3::IntoPyObjectExt as _;
                self.clone()
                    .into_bound_py_any(py)
                    .unwrap_or_else(|_| py.None().into_bound(py))
            }
        }
    )*};
}

to_py_via_into!(String, &'static str, usize, Vec<String>, Option<i32>);
