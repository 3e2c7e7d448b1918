//! `response-diff`: the MCP server (`mcp`) and command-line tools.

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::{CommandFactory, Parser, Subcommand};
use response_diff_server::config::{McpArgs, parse_mcp};
use response_diff_server::context::BrowserHost;
use response_diff_server::engine::{Engine, EngineConfig};
use response_diff_server::http::HttpOptions;
use response_diff_server::mcp::McpServer;
use response_diff_server::{cli, demo, http, mcp};

/// Return only what changed: an MCP server and command-line tools for
/// browser agents, on headless Chromium.
#[derive(Parser)]
#[command(name = "response-diff", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

// Parsed once at start-up: the size of the `mcp` variant (its many
// flags) costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
enum Command {
    /// Serve the MCP tools on stdin/stdout (put this in an MCP client's
    /// config), or over streamable HTTP with --port. Takes @playwright/mcp's
    /// flags, PLAYWRIGHT_MCP_* variables and config file.
    #[command(args_override_self = true)]
    Mcp(Box<McpArgs>),
    /// Read a web page's accessibility tree; with --since, only what changed.
    Read(cli::ReadArgs),
    /// Diff two text files (response diff: unified, split or minimal).
    Diff(cli::DiffArgs),
    /// Diff two accessibility trees (aria snapshot or JSON files).
    TreeDiff(cli::TreeDiffArgs),
    /// Apply a snapshot patch to the snapshot it was taken from; prints the new one.
    ApplyPatch(cli::ApplyPatchArgs),
    /// Capture a page's DOM fingerprint; --save keeps it as a named baseline.
    Fingerprint(cli::FingerprintArgs),
    /// Compare a page's DOM fingerprint with a saved baseline.
    Compare(cli::CompareArgs),
    /// The scripted agent session on the bundled demo site, with its token table.
    Demo(demo::DemoArgs),
}

fn main() -> ExitCode {
    // Errors here are values the agent reads, never printed with a
    // backtrace; with RUST_BACKTRACE=1 in the environment anyhow would walk
    // the stack for each one (the engine makes and drops many), and the
    // debug build then loads ~56 MB of debug info. Panics keep their
    // backtraces; RUST_LIB_BACKTRACE=1 turns error backtraces back on.
    if std::env::var_os("RUST_LIB_BACKTRACE").is_none() {
        // SAFETY: first thing in main, before any other thread exists.
        unsafe { std::env::set_var("RUST_LIB_BACKTRACE", "0") };
    }
    let (cli, notes) = match parse() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e:#}");
            return ExitCode::from(2);
        }
    };
    // Logs go to stderr only: stdout is the MCP protocol channel. `diff`
    // logs nothing, and the filter's setup (regexes) is a measurable part
    // of a whole `diff` process (docs/bench/README.md, the CLI against
    // GNU diff).
    if !matches!(cli.command, Command::Diff(_)) {
        init_logs();
    }
    match run(cli, notes) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn init_logs() {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("RESPONSE_DIFF_LOG").unwrap_or_else(|_| {
                "response_diff_server=info,rmcp=warn,headless_chrome=off".into()
            }),
        )
        .init();
}

/// The command line; for `mcp`, with the `PLAYWRIGHT_MCP_*` variables and
/// the config file folded in (the command line wins, then the
/// environment, then the file).
fn parse() -> Result<(Cli, Vec<String>)> {
    let argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let cli = Cli::parse_from(&argv);
    let Command::Mcp(_) = &cli.command else {
        return Ok((cli, Vec::new()));
    };
    let lookup = |name: &str| std::env::var(name).ok();
    let (matches, origins, notes) = parse_mcp(&Cli::command(), &argv, &lookup)?;
    let args = McpArgs::from_matches(&matches, origins)?;
    Ok((
        Cli {
            command: Command::Mcp(Box::new(args)),
        },
        notes,
    ))
}

fn run(cli: Cli, notes: Vec<String>) -> Result<ExitCode> {
    match cli.command {
        Command::Mcp(args) => {
            // Everything is checked here, before any browser starts.
            let resolved = args.resolve()?;
            for note in notes.iter().chain(&resolved.notes) {
                tracing::info!("{note}");
            }
            let serve = args.serve.clone();
            let host = BrowserHost::new(resolved.host.clone());
            let base = EngineConfig {
                host: Some(Arc::clone(&host)),
                ..resolved.engine
            };
            let first = Engine::new(base.clone())?;
            let rt = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .context("starting the async runtime")?;
            match serve.port {
                None => {
                    rt.block_on(mcp::serve_stdio(first))?;
                    host.shutdown();
                }
                Some(port) => {
                    let opts = HttpOptions {
                        host: serve.host.clone(),
                        port,
                        allowed_hosts: serve.allowed_hosts.clone(),
                        session_timeout: serve.session_timeout(),
                    };
                    let shared = serve.shared_browser_context.then(|| McpServer::new(first));
                    let factory = move || match &shared {
                        Some(s) => Ok(s.clone()),
                        None => Engine::new(base.clone())
                            .map(McpServer::new)
                            .map_err(std::io::Error::other),
                    };
                    let stopping = Arc::clone(&host);
                    rt.block_on(http::serve(opts, factory, move || stopping.shutdown()))?;
                    host.shutdown();
                }
            }
            // Blocking threads may still wait on stdin; do not wait for them.
            rt.shutdown_timeout(Duration::from_millis(100));
            Ok(ExitCode::SUCCESS)
        }
        Command::Read(a) => cli::read(a),
        Command::Diff(a) => cli::diff(a),
        Command::TreeDiff(a) => cli::tree_diff(a),
        Command::ApplyPatch(a) => cli::apply_patch(a),
        Command::Fingerprint(a) => cli::fingerprint(a),
        Command::Compare(a) => cli::compare(a),
        Command::Demo(a) => demo::run(a),
    }
}
