//! `@x/response-diff`: the Node binding of response-diff (napi-rs).
//!
//! A thin layer: every function converts JavaScript values to core types,
//! calls the core, and converts the result (or the core error, with a
//! stable `code`) back. Option objects cross as JSON so the core validates
//! them exactly as for the C and Python bindings.
//!
//! `compat` is the fast-playwright-mcp drop-in, exported from
//! `@x/response-diff/compat` under that project's names.
#![deny(clippy::all)]
// napi's string enums take the variant names JavaScript sees.
#![allow(non_camel_case_types)]

pub mod carry;
pub mod compat;
pub mod diff;
pub mod error;
pub mod expectation;
pub mod fingerprint;
mod json;
pub mod response;
mod text;
pub mod tokens;
pub mod tree;
