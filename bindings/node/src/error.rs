//! Core errors as JavaScript errors: an `Error` whose `code` names the core
//! variant (stable), whose `message` is the core's message, and which
//! carries the variant's fields (`field`, `line`, `name`, …) as properties.

use napi::bindgen_prelude::*;
use napi_derive::napi;
use response_diff::Error as CoreError;

/// The `code` of every error this package throws, one per core error variant.
#[napi(string_enum)]
pub enum ErrorCode {
    /// An option had an unknown key, a wrong type or an out-of-range value;
    /// `error.field` is its dotted path (`expectation.consoleOptions.maxMessages`).
    INVALID_OPTION,
    /// An input (aria snapshot, fingerprint, JSON text) could not be parsed;
    /// `error.what` says what, `error.line` where (1-based).
    PARSE_ERROR,
    /// An input was over its limit; `error.what`, `error.size`, `error.limit`.
    INPUT_TOO_LARGE,
    /// No baseline with that name or hash; `error.name`, `error.known`.
    BASELINE_NOT_FOUND,
    /// A name (baseline) was refused; `error.name`, `error.reason`.
    INVALID_NAME,
    /// An image could not be decoded or encoded.
    IMAGE_ERROR,
    /// A file-system operation failed; `error.path`.
    IO_ERROR,
    /// A core error this version does not know (a newer core); a bug to report.
    INTERNAL,
}

impl ErrorCode {
    fn as_str(&self) -> &'static str {
        match self {
            ErrorCode::INVALID_OPTION => "INVALID_OPTION",
            ErrorCode::PARSE_ERROR => "PARSE_ERROR",
            ErrorCode::INPUT_TOO_LARGE => "INPUT_TOO_LARGE",
            ErrorCode::BASELINE_NOT_FOUND => "BASELINE_NOT_FOUND",
            ErrorCode::INVALID_NAME => "INVALID_NAME",
            ErrorCode::IMAGE_ERROR => "IMAGE_ERROR",
            ErrorCode::IO_ERROR => "IO_ERROR",
            ErrorCode::INTERNAL => "INTERNAL",
        }
    }
}

/// Throws `e` as a JavaScript error with its code and fields, and returns
/// the "already thrown" marker napi-rs expects.
pub(crate) fn throw(env: &Env, e: CoreError) -> Error {
    match build(env, &e).and_then(|obj| env.throw(obj)) {
        Ok(()) => Error::from_status(Status::PendingException),
        // Could not build the object (the env is tearing down): let napi-rs
        // throw a plain error with the message.
        Err(_) => Error::new(Status::GenericFailure, e.to_string()),
    }
}

fn build<'env>(env: &'env Env, e: &CoreError) -> Result<Object<'env>> {
    let mut obj = env.create_error(Error::new(Status::GenericFailure, e.to_string()))?;
    let code = match e {
        CoreError::InvalidOption { field, .. } => {
            obj.set("field", field.as_str())?;
            ErrorCode::INVALID_OPTION
        }
        CoreError::Parse { what, line, .. } => {
            obj.set("what", *what)?;
            obj.set("line", *line as u32)?;
            ErrorCode::PARSE_ERROR
        }
        CoreError::InputTooLarge { what, size, limit } => {
            obj.set("what", *what)?;
            obj.set("size", *size as f64)?;
            obj.set("limit", *limit as f64)?;
            ErrorCode::INPUT_TOO_LARGE
        }
        CoreError::BaselineNotFound { name, known } => {
            obj.set("name", name.as_str())?;
            obj.set("known", known.clone())?;
            ErrorCode::BASELINE_NOT_FOUND
        }
        CoreError::InvalidName { name, reason } => {
            obj.set("name", name.as_str())?;
            obj.set("reason", reason.as_str())?;
            ErrorCode::INVALID_NAME
        }
        CoreError::Image(_) => ErrorCode::IMAGE_ERROR,
        CoreError::Io { path, .. } => {
            obj.set("path", path.to_string_lossy().as_ref())?;
            ErrorCode::IO_ERROR
        }
        _ => ErrorCode::INTERNAL,
    };
    obj.set("code", code.as_str())?;
    Ok(obj)
}

/// `.map_err(throw)` for a core result.
pub(crate) trait OrThrow<T> {
    /// Converts a core error into a thrown JavaScript error.
    fn or_throw(self, env: &Env) -> Result<T>;
}

impl<T> OrThrow<T> for std::result::Result<T, CoreError> {
    fn or_throw(self, env: &Env) -> Result<T> {
        self.map_err(|e| throw(env, e))
    }
}
