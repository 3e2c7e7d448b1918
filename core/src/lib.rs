//! response-diff: return only what changed.
#![warn(missing_docs)]

pub mod diff;
pub mod error;
pub mod expectation;
pub mod fingerprint;
mod json;
pub mod response;
pub mod tokens;
pub mod tree;

pub use error::{Error, Result};

// The README's examples run as doctests.
#[doc = include_str!("../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
