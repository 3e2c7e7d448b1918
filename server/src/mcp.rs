//! The MCP server (stdio, rmcp): each `#[tool]` is a thin method that takes
//! its call validated ([`Validated`]) and runs it with [`Engine::run`] on a
//! blocking thread.
//!
//! Arguments are validated by [`tools::parse`] (one validator for calls and
//! batch steps), so each tool's input schema is given explicitly
//! ([`tools::input_schema`], compact and derived from the parameter
//! structs). Wrong arguments are `INVALID_PARAMS`; a failed action is a tool
//! error (`isError`); a call that hangs past its budget stops the browser
//! (the next call relaunches it) and is a tool error too. Nothing a tool
//! does ends the server.
//!
//! Faults, and what the agent sees (tests/e2e/test/faults.test.js):
//! - a line on stdin that is not a JSON-RPC message: an error answer
//!   (`-32700`, `-32600`, `-32602`; see [`crate::stdio`]); an unknown tool:
//!   `INVALID_PARAMS` listing the tools;
//! - a page that does not finish loading, a script that does not finish
//!   (`browser_evaluate`, a click handler stuck in a loop): a tool error
//!   after `--action-timeout`; a stuck script is terminated
//!   (`Runtime.terminateExecution`), so the same tab answers the next call;
//!   a page kept busy by its own script is stopped by the next call, which
//!   says so;
//! - the browser killed or crashed: the next call relaunches it and says
//!   so; a call it dies under fails with a note that the next relaunches;
//!   a remote browser (`--cdp-endpoint`) gone away, the same with
//!   connecting again (tests/e2e/test/farm.test.js);
//! - the tab's renderer killed or crashed: the next call reloads the tab
//!   and says so.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::Engine as _;
use rmcp::handler::server::common::FromContextPart;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    JsonObject, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt, tool, tool_handler, tool_router};

use crate::caps::Caps;
use crate::context::Stopper;
use crate::engine::{Engine, Output};
use crate::error::lock;
use crate::tools::{self, Call, Parsed, desc};

/// The MCP server.
#[derive(Clone)]
pub struct McpServer {
    engine: Arc<Mutex<Engine>>,
    /// The password values this session's browser context has seen.
    seen: Arc<crate::secrets::Seen>,
    /// `--snapshot-mode`, for the instructions.
    mode: crate::options::SnapshotMode,
    stopper: Stopper,
    action_timeout: Duration,
    tool_router: ToolRouter<Self>,
}

impl McpServer {
    /// A server around an engine.
    pub fn new(engine: Engine) -> McpServer {
        let stopper = engine.stopper();
        let browser = &engine.config().browser;
        let action_timeout = browser.action_timeout.max(browser.navigation_timeout);
        let tool_router = Self::router_for(&engine.config().caps);
        let mode = engine.config().response.snapshot_mode;
        McpServer {
            mode,
            engine: Arc::new(Mutex::new(engine)),
            seen: Arc::default(),
            stopper,
            action_timeout,
            tool_router,
        }
    }

    /// The tools of the enabled capabilities (crate::caps).
    fn router_for(caps: &Caps) -> ToolRouter<Self> {
        let mut router = Self::tool_router();
        for t in tools::TOOLS.iter().filter(|t| !caps.allows(t.name)) {
            router.remove_route(t.name);
        }
        router
    }

    /// The default tools/list catalog (no `--caps`), as the server sends it.
    pub fn catalog() -> Vec<rmcp::model::Tool> {
        Self::catalog_with(&Caps::default())
    }

    /// The tools/list catalog with `caps` enabled.
    pub fn catalog_with(caps: &Caps) -> Vec<rmcp::model::Tool> {
        Self::router_for(caps).list_all()
    }

    /// Stops the browser (on shutdown).
    pub fn shutdown(&self) {
        lock(&self.engine).shutdown();
    }

    /// How long a call may take before the watchdog stops the browser.
    fn budget(&self, call: &Call) -> Duration {
        let one = self.action_timeout * 2 + Duration::from_secs(30);
        match call {
            Call::Batch(b) => one * (b.steps.len().clamp(1, 1000) as u32),
            Call::WaitFor(w) => {
                one + Duration::from_secs_f64(w.time.unwrap_or(0.0).clamp(0.0, 300.0))
            }
            _ => one,
        }
    }

    async fn dispatch(&self, parsed: Parsed) -> Result<CallToolResult, ErrorData> {
        let tool = parsed.tool;
        let budget = self.budget(&parsed.call);
        let engine = Arc::clone(&self.engine);
        let seen = Arc::clone(&self.seen);
        let task = tokio::task::spawn_blocking(move || {
            let _seen = crate::secrets::enter(seen);
            lock(&engine).run(&parsed)
        });
        match tokio::time::timeout(budget, task).await {
            Ok(Ok(out)) => Ok(to_result(out)),
            Ok(Err(e)) => {
                tracing::error!("{tool} panicked: {e}");
                Err(ErrorData::internal_error(
                    format!(
                        "{tool} failed inside the server ({e}); the server is still running, try again"
                    ),
                    None,
                ))
            }
            Err(_) => {
                // The call hangs (a page stuck in a script, a dead renderer):
                // stopping the browser (or this client's context) ends every
                // pending CDP call, so the blocked thread returns and the
                // next call starts afresh.
                tracing::warn!("{tool} exceeded {budget:?}; stopping it");
                let stopper = self.stopper.clone();
                let what = tokio::task::spawn_blocking(move || stopper.stop())
                    .await
                    .unwrap_or("the browser was stopped");
                Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                    "### Result\nError: {tool} did not finish in {} s, so {what}; the next call starts a fresh one.",
                    budget.as_secs()
                ))]))
            }
        }
    }
}

fn to_result(out: Output) -> CallToolResult {
    // `--image-responses only`: a response with images is the images alone.
    let mut content = if out.text.is_empty() && !out.images.is_empty() {
        Vec::new()
    } else {
        vec![ContentBlock::text(out.text)]
    };
    for image in out.images {
        content.push(ContentBlock::image(
            base64::engine::general_purpose::STANDARD.encode(&image.data),
            image.mime_type,
        ));
    }
    if out.is_error {
        CallToolResult::error(content)
    } else {
        CallToolResult::success(content)
    }
}

/// A tool call validated by the tool's validator ([`tools::parse`]) as
/// rmcp extracts the method's arguments: wrong arguments are
/// `INVALID_PARAMS` before anything runs. Not rmcp's `Parameters<T>`: its
/// serde errors ("failed to deserialize parameters: ...") would replace the
/// validator's messages, which say what to send and are the same for a
/// batch step.
pub struct Validated(pub Parsed);

impl FromContextPart<ToolCallContext<'_, McpServer>> for Validated {
    fn from_context_part(context: &mut ToolCallContext<'_, McpServer>) -> Result<Self, ErrorData> {
        let args = context.arguments.take().unwrap_or_default();
        tools::parse(&context.name, args)
            .map(Validated)
            .map_err(|message| ErrorData::invalid_params(message, None))
    }
}

/// The MCP methods, one per tool of [`tools::for_each_tool`] and named
/// after it, each taking its validated call.
macro_rules! mcp_tools {
    ($($name:ident => $params:ident, $desc:ident;)*) => {
        #[tool_router]
        impl McpServer {
            $(
                #[tool(description = desc::$desc, input_schema = tools::input_schema::<tools::$params>())]
                async fn $name(&self, Validated(call): Validated) -> Result<CallToolResult, ErrorData> {
                    self.dispatch(call).await
                }
            )*
        }
    };
}

tools::for_each_tool!(mcp_tools);

#[tool_handler(router = self.tool_router)]
impl ServerHandler for McpServer {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // rmcp answers an unknown name with a bare "tool not found"; say
        // which tools there are (the same message a batch step gets).
        if self.tool_router.get(&request.name).is_none() {
            // A tool of @playwright/mcp this server cannot offer answers
            // with why, and what to use instead (tools::REFUSED_TOOLS).
            if let Some(why) = tools::refusal(&request.name) {
                return Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                    "### Result\nError: {why}"
                ))])
                .into());
            }
            let message = match tools::canonical(&request.name) {
                Some(full) if crate::caps::cap_of(full).is_some() => {
                    crate::caps::not_enabled(full).unwrap_or_default()
                }
                Some(full) => format!(
                    "unknown tool `{}`; did you mean `{full}`? Call tools by their full name",
                    request.name
                ),
                None => tools::parse(&request.name, JsonObject::new())
                    .err()
                    .unwrap_or_else(|| format!("unknown tool `{}`", request.name)),
            };
            return Err(ErrorData::invalid_params(message, None));
        }
        let tcc = ToolCallContext::new(self, request, context);
        self.tool_router.call(tcc).await
    }

    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("response-diff", env!("CARGO_PKG_VERSION")))
            .with_instructions(match self.mode {
                crate::options::SnapshotMode::Diff => {
                    "Drives a headless Chromium. Act on elements by the [ref=eN] of the latest snapshot. \
                     Responses show what changed on the page since your last view of it: a patch by \
                     ref or a line diff, applied to what you saw; browser_snapshot with full=true \
                     shows the whole page. snapshotOptions.selector scopes a snapshot."
                }
                _ => {
                    "Drives a headless Chromium. Act on elements by the [ref=eN] of the latest snapshot. \
                     To pay only for what changed: expectation.diffOptions.enabled (a diff of the page \
                     snapshot since the previous call on the tab), browser_snapshot with since=<ts>, \
                     snapshotOptions.selector to scope a snapshot."
                }
            })
    }
}

/// Serves MCP on stdin/stdout until the client goes away (or SIGINT /
/// SIGTERM), then stops the browser.
pub async fn serve_stdio(engine: Engine) -> anyhow::Result<()> {
    let server = McpServer::new(engine);
    let running = server
        .clone()
        .serve(crate::stdio::GuardedTransport::stdio()?)
        .await?;
    let cancel = running.cancellation_token();
    let stop = stop_signal();
    tokio::select! {
        r = running.waiting() => { r?; }
        r = stop => { r?; cancel.cancel(); }
    }
    let s = server.clone();
    tokio::task::spawn_blocking(move || s.shutdown()).await?;
    Ok(())
}

/// Resolves on SIGINT or SIGTERM (the end of either transport).
pub async fn stop_signal() -> std::io::Result<()> {
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {},
        _ = term.recv() => {},
    }
    Ok(())
}
