//! response-diff: return only what changed.
//!
//! Without the default `std` feature the crate is `#![no_std]` + `alloc`
//! (docs/DECISIONS.md D36): expectations, response rendering, the line
//! diff, the tree model, aria parsing and printing, the tree diff, ref
//! carrying, patches and fingerprint comparison. `std` adds the
//! thread-safe and disk stores; `images` adds screenshot processing.
#![cfg_attr(not(feature = "std"), no_std)]
#![warn(missing_docs)]

extern crate alloc;
// Unit tests run under the test harness, which has std, in both builds.
#[cfg(all(test, not(feature = "std")))]
extern crate std;

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
mod lru;
mod newlines;
mod prelude;
pub mod response;
mod sync;
pub mod tokens;
pub mod tree;

pub use error::{Error, Result};

/// **Not public API**: no stability promise, may change in any release.
///
/// The line diff engine and its helpers, for this repository's own
/// benchmarks (`core/benches/detector.rs` measures the engine against
/// similar and imara-diff), tests and fuzz targets (`fuzz/`), and the
/// fast-playwright-mcp drop-in of the Node binding
/// (`bindings/node/src/compat/detector.rs`), which needs the engine without the
/// detector's decision rule. Everything else uses [`diff`].
#[doc(hidden)]
pub mod __internals {
    pub use crate::diff::engine::{
        BUDGET_MIN_CHANGES, DiffFormatter, EngineOptions, Formatted, LineDiff, count_lines,
        normalize_whitespace, split_lines,
    };
}

// The README's examples run as doctests.
#[doc = include_str!("../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
