//! Tool parameters, their compact JSON schemas, and validation of a call
//! (tool name + JSON arguments) into a typed [`Call`].
//!
//! The same parsing serves the MCP tools and every step of
//! `browser_batch_execute`, so a batch is fully validated before any step
//! runs. Error messages say what to send instead.
//!
//! By concern: `params` (the parameters of the first tools) and
//! `interaction` (those added with issue 25, with their checks),
//! `extra` (those added with issue 36, and the refused
//! `browser_run_code_unsafe`),
//! `catalog` (the one list of tools, `for_each_tool`, and their
//! descriptions), `schema` (the compact JSON schemas), `parse` (the
//! catalog's entries and a call's validation, one validator per tool: a
//! batch step is parsed like a call, so they stay together), `call` (the
//! validated call) and `errors` (how an error shows a value).

mod call;
mod catalog;
mod errors;
mod extra;
mod interaction;
mod params;
mod parse;
mod schema;

pub use call::{Batch, Call, Parsed, Step};
pub use catalog::desc;
pub(crate) use catalog::for_each_tool;
pub use extra::*;
pub use interaction::*;
pub use params::*;
pub use parse::{TOOLS, ToolInfo, canonical, parse, parse_severity, refusal};
pub use schema::{EXPECTATION_KEYS, expectation_schema, input_schema};

#[cfg(test)]
mod tests;
