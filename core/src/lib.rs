//! response-diff: return only what changed.
#![warn(missing_docs)]

pub mod error;
pub mod fingerprint;
pub mod tokens;
pub mod tree;

pub use error::{Error, Result};
