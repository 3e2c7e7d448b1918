//! response-diff: return only what changed.
#![warn(missing_docs)]

/// Overlays the `Option` fields of `$over` that are set onto `$base`.
macro_rules! overlay {
    ($base:expr, $over:expr; $($field:ident),+ $(,)?) => {
        $( if $over.$field.is_some() { $base.$field.clone_from(&$over.$field); } )+
    };
}

pub mod diff;
pub mod error;
pub mod expectation;
pub mod fingerprint;
mod json;
pub mod response;
mod sync;
pub mod tokens;
pub mod tree;

pub use error::{Error, Result};

// The README's examples run as doctests.
#[doc = include_str!("../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
