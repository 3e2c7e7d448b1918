//! The reference MCP server and command-line tool of response-diff.
pub mod ax;
pub mod browser;
pub mod site;
