//! The tools' logic, as plain functions on an [`Engine`]: no MCP here. The
//! MCP layer ([`crate::mcp`]) and the demo call [`Engine::call`]; tests call
//! it directly too.
//!
//! A call is validated ([`crate::tools::parse`]), the browser is made ready
//! (launched lazily, relaunched if it died), the action runs, the page is
//! captured (state, tabs, new console messages, accessibility snapshot) and
//! the response is rendered by the core's one rendering path
//! ([`response_diff::response::render`]) under the call's resolved
//! expectation, with the snapshot diffed per tab when `diffOptions.enabled`.

mod actions;
mod capture;
mod element;
mod files;
mod form;
mod listing;
mod media;
mod modal;
mod output;
mod page;
mod pointer;
mod render;
mod run;
mod scripts;
mod session;
mod state;

pub use capture::capture_fingerprint;
pub use output::session_log_path;
pub use state::{Engine, EngineConfig, Output, Performed};
