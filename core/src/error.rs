//! The crate's one error type. Every binding maps it variant by variant.

#[cfg(feature = "std")]
use std::path::PathBuf;

use crate::prelude::*;

/// Everything that can go wrong in response-diff.
///
/// Each message says what was wrong and what to do next. Bindings map each
/// variant to their own typed error (a C status, a Python exception class,
/// a Node error `code`), so variants are stable.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// An option object had an unknown key, a wrong type or an out-of-range
    /// value. `field` is the dotted path of the offending field
    /// (`expectation.consoleOptions.maxMessages`).
    InvalidOption {
        /// Dotted path of the field, e.g. `diffOptions.threshold`.
        field: String,
        /// What was wrong and what is allowed.
        message: String,
    },
    /// Input text (an aria snapshot, a fingerprint, a JSON document) could not
    /// be parsed. `line` is 1-based.
    Parse {
        /// What was being parsed: `aria snapshot`, `fingerprint`, `JSON`.
        what: &'static str,
        /// 1-based line number of the problem.
        line: usize,
        /// What was wrong there.
        message: String,
    },
    /// An input is larger than the documented limit.
    InputTooLarge {
        /// Which input.
        what: &'static str,
        /// Its size in bytes.
        size: usize,
        /// The limit in bytes.
        limit: usize,
    },
    /// A named baseline (or fingerprint hash) is not in the store.
    BaselineNotFound {
        /// The name or hash asked for.
        name: String,
        /// Names that do exist (possibly truncated).
        known: Vec<String>,
    },
    /// A name (baseline, store key) is not allowed.
    InvalidName {
        /// The name as given.
        name: String,
        /// Why it was refused and what is allowed.
        reason: String,
    },
    /// Image decoding or encoding failed.
    Image(String),
    /// A file-system operation of an on-disk store failed.
    #[cfg(feature = "std")]
    Io {
        /// The file or directory involved.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
}

fn known_hint(known: &[String]) -> String {
    if known.is_empty() {
        " (the store is empty)".to_owned()
    } else {
        format!(" (known: {})", known.join(", "))
    }
}

/// `Result` with this crate's [`Error`].
pub type Result<T, E = Error> = core::result::Result<T, E>;

// Hand-written rather than derived with thiserror: seven messages do not
// earn a proc-macro crate pair in the `no_std` build (docs/DECISIONS.md D36).
impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Error::InvalidOption { field, message } => {
                write!(f, "invalid option `{field}`: {message}")
            }
            Error::Parse {
                what,
                line,
                message,
            } => write!(f, "cannot parse {what} at line {line}: {message}"),
            Error::InputTooLarge { what, size, limit } => write!(
                f,
                "{what} is {size} bytes, over the limit of {limit} bytes; send less (e.g. scope the snapshot) or raise the limit"
            ),
            Error::BaselineNotFound { name, known } => write!(
                f,
                "no baseline named `{name}`{}; capture one first with --save / save()",
                known_hint(known)
            ),
            Error::InvalidName { name, reason } => write!(f, "invalid name `{name}`: {reason}"),
            Error::Image(message) => write!(f, "image error: {message}"),
            #[cfg(feature = "std")]
            Error::Io { path, source } => write!(f, "i/o error on {}: {source}", path.display()),
        }
    }
}

impl core::error::Error for Error {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            #[cfg(feature = "std")]
            Error::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

impl Error {
    /// Shorthand for [`Error::InvalidOption`].
    pub fn invalid_option(field: impl Into<String>, message: impl Into<String>) -> Self {
        Error::InvalidOption {
            field: field.into(),
            message: message.into(),
        }
    }
}

/// The dotted path of `field` under `parent`, as [`Error::InvalidOption`]
/// names fields: `parent.field`, or `field` alone under an empty parent.
/// Bindings that check an option themselves name it the same way.
///
/// ```
/// use response_diff::error::field_path;
/// assert_eq!(field_path("expectation.diffOptions", "context"), "expectation.diffOptions.context");
/// assert_eq!(field_path("", "context"), "context");
/// ```
pub fn field_path(parent: &str, field: &str) -> String {
    if parent.is_empty() {
        field.to_owned()
    } else {
        format!("{parent}.{field}")
    }
}
