//! The reference MCP server and command-line tool of response-diff.
#![warn(missing_docs)]
pub mod activity;
pub mod attach;
pub mod ax;
pub mod browser;
pub mod caps;
pub mod cdp;
pub mod cli;
pub mod config;
pub mod context;
pub mod demo;
pub mod downloads;
pub mod engine;
pub mod error;
pub mod frames;
pub mod http;
pub mod mcp;
pub mod modal;
pub mod network;
pub mod origins;
pub mod refs;
pub mod secrets;
pub mod settle;
pub mod site;
pub mod stdio;
pub mod storage;
pub mod tools;
