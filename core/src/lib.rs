//! response-diff: return only what changed.
#![warn(missing_docs)]

pub mod fingerprint;
pub mod tree;
