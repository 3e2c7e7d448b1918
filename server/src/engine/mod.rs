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
mod scripts;
mod session;

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, AtomicU64};

use anyhow::{Result, anyhow};
use response_diff::diff::ResponseDiffDetector;
use response_diff::expectation::{Expectation, ResolvedExpectation};
use response_diff::fingerprint::BaselineStore;
use response_diff::response::{BatchReport, BatchStep, Image, Response, render_batch};
use response_diff::tree::{SinceStore, SinceStoreConfig, Tree};
use serde_json::{Map, Value, json};

use self::page::page_state;
use crate::ax::AxSnapshot;
use crate::browser::{BrowserConfig, Page, Session};
use crate::context::{BrowserHost, ReleaseMemory, Stopper};
use crate::error::Error;
use crate::options::{Codegen, SnapshotMode};
use crate::refs::{Carried, Refs};
use crate::tools::{self, Batch, Call, Parsed};

pub use capture::capture_fingerprint;
pub use output::session_log_path;

/// Engine settings.
#[derive(Debug, Clone, Default)]
pub struct EngineConfig {
    /// How the browser is launched.
    pub browser: BrowserConfig,
    /// The operator's default expectation: refines every tool's default,
    /// and is refined by batch and call expectations.
    pub default_expectation: Expectation,
    /// Directory for named fingerprint baselines (memory only when `None`).
    pub baseline_dir: Option<PathBuf>,
    /// Opt-in tool groups (`--caps`).
    pub caps: crate::caps::Caps,
    /// The browser this engine shares with others (the HTTP server's
    /// clients); `None` launches one of its own from `browser`.
    pub host: Option<Arc<BrowserHost>>,
    /// The operator's response settings (snapshot mode, console level,
    /// images, code, file paths, the session log).
    pub response: crate::options::ResponseOptions,
}

/// What a tool call returns.
#[derive(Debug, Clone, Default)]
pub struct Output {
    /// The Markdown text.
    pub text: String,
    /// Images (screenshots), processed per `imageOptions`.
    pub images: Vec<Image>,
    /// Whether the call failed.
    pub is_error: bool,
    /// The ts of the snapshot read, when the response carries one.
    pub ts: Option<u64>,
}

impl Output {
    fn error(message: impl Into<String>) -> Output {
        Output {
            text: format!("### Result\nError: {}", message.into()),
            is_error: true,
            ..Output::default()
        }
    }
}

/// What an action produced, before the page is captured.
#[derive(Debug, Default)]
struct Acted {
    result: String,
    code: Option<crate::codegen::Code>,
    images: Vec<Image>,
    /// Show every console message of the page, not only the new ones.
    all_console: bool,
    /// Always list the tabs, even when unchanged since the previous
    /// response (`browser_tabs`, a tab the action opened).
    tabs: bool,
    /// Capture a snapshot (when the expectation includes it).
    snapshot: bool,
    /// A `since` read.
    since: Option<u64>,
    /// A request list (`browser_network_requests`), diffed at render time.
    network: Option<String>,
    /// A search of the snapshot (`browser_find`), run at render time.
    find: Option<tools::FindParams>,
    /// Downloads the action started.
    downloads: Vec<response_diff::response::Download>,
}

/// Everything captured after an action: the response's raw material.
pub struct Performed {
    tab: Page,
    key: String,
    /// The document (its time origin), to tell a new document.
    doc: String,
    response: Response,
    ax: Option<AxSnapshot>,
    tree: Option<Tree>,
    /// The snapshot's refs both ways (empty without a snapshot).
    carried: Carried,
    since: Option<u64>,
    network: Option<String>,
    find: Option<tools::FindParams>,
}

impl Performed {
    /// The tab's key (its CDP target id).
    pub fn key(&self) -> &str {
        &self.key
    }

    /// The page URL after the action.
    pub fn page_url(&self) -> Option<&str> {
        self.response.page.as_ref().map(|p| p.url.as_str())
    }

    /// The accessibility tree, when one was captured.
    pub fn tree(&self) -> Option<&Tree> {
        self.tree.as_ref()
    }
}

/// The engine: one browser session, the diff detector, the `since` store
/// and the fingerprint baselines.
pub struct Engine {
    config: EngineConfig,
    session: Option<Session>,
    host: Arc<BrowserHost>,
    stopper: Stopper,
    detector: ResponseDiffDetector,
    since: SinceStore,
    baselines: BaselineStore,
    /// Refs carried over re-renders, and each tab's ref → node map.
    refs: Refs,
    nav_token: AtomicU64,
    /// The browser died; the next launch reports it.
    crashed: Option<String>,
    /// The host's idle-close count when this engine's session opened
    /// (a session closed by the idle timer says so, not that it crashed).
    idle_closes: u64,
    /// Per tab: the document its last `browser_snapshot` showed in full,
    /// and the generation of its diff chain (a new one starts at each
    /// full view, so what follows diffs against it).
    views: std::collections::HashMap<String, (String, u32)>,
    /// Where the coordinate mouse is and which buttons it holds (`--caps
    /// vision`), for the moves, presses and wheel turns that follow.
    mouse: pointer::MouseState,
    /// Each tab's media overrides (`browser_emulate_media`), by tab key.
    media: std::collections::HashMap<String, media::MediaState>,
    /// Last, so it runs after every other field is dropped.
    _release: ReleaseMemory,
}

/// What `--snapshot-mode` adds to every call's expectation: diffs on
/// (`diff`), nothing (`full`), or no snapshot but in `browser_snapshot`
/// (`none`).
fn mode_default(mode: SnapshotMode, tool: &str) -> Expectation {
    match mode {
        SnapshotMode::Full => Expectation::default(),
        SnapshotMode::Diff => Expectation {
            diff_options: Some(response_diff::diff::DiffOptions {
                enabled: Some(true),
                ..Default::default()
            }),
            ..Expectation::default()
        },
        SnapshotMode::None if tool == "browser_snapshot" => Expectation::default(),
        SnapshotMode::None => Expectation {
            include_snapshot: Some(false),
            ..Expectation::default()
        },
    }
}

/// Tools whose defaults the server refines (the core has no entry for
/// them): a fingerprint is the answer, a snapshot beside it is noise.
fn server_default(tool: &str) -> Expectation {
    match tool {
        "browser_get_dom_fingerprint"
        | "browser_compare_dom_fingerprint"
        | "browser_network_requests"
        | "browser_network_request"
        | "browser_find"
        | "browser_emulate_media"
        | "browser_pdf_save"
        | "browser_storage_state" => Expectation {
            include_snapshot: Some(false),
            ..Expectation::default()
        },
        _ => Expectation::default(),
    }
}

impl Engine {
    /// An engine; the browser starts on the first call that needs it.
    pub fn new(config: EngineConfig) -> Result<Engine> {
        let baselines = match &config.baseline_dir {
            Some(dir) => BaselineStore::open(dir.clone())?,
            None => BaselineStore::new(),
        };
        let host = config
            .host
            .clone()
            .unwrap_or_else(|| BrowserHost::private(config.browser.clone()));
        Ok(Engine {
            config,
            session: None,
            stopper: Stopper::new(host.pid_cell()),
            host,
            detector: ResponseDiffDetector::new(),
            since: SinceStore::with_config(SinceStoreConfig::default().per_key(16)),
            baselines,
            refs: Refs::new(),
            nav_token: AtomicU64::new(1),
            crashed: None,
            idle_closes: 0,
            views: std::collections::HashMap::new(),
            mouse: pointer::MouseState::default(),
            media: std::collections::HashMap::new(),
            _release: ReleaseMemory,
        })
    }

    /// The browser's process id cell (0 when none), shared with the MCP
    /// layer's watchdog.
    pub fn pid_cell(&self) -> Arc<AtomicU32> {
        self.host.pid_cell()
    }

    /// What the MCP layer's watchdog stops when a call of this engine
    /// hangs: its own browser context, else the browser.
    pub fn stopper(&self) -> Stopper {
        self.stopper.clone()
    }

    /// The current tab, when the browser runs.
    pub fn current_page(&self) -> Option<Page> {
        self.session.as_ref().map(|s| s.current().clone())
    }

    /// The current tab's accessibility tree, as a snapshot would show it.
    pub fn snapshot_tree(&mut self) -> Result<Tree> {
        let page = self
            .current_page()
            .ok_or_else(|| anyhow!("the browser is not running"))?;
        let url = page_state(&page).ok().map(|p| p.url);
        let raw_tree = page.call("Accessibility.getFullAXTree", json!({}))?;
        Ok(AxSnapshot::read(&page, raw_tree, url.as_deref())?.tree())
    }

    /// The engine's settings.
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// Stops the browser; with a shared host, closes only this engine's
    /// browser context.
    pub fn shutdown(&mut self) {
        self.session = None;
        self.mouse = pointer::MouseState::default();
        self.stopper.set_context(None);
        if !self.host.is_shared() {
            self.host.release();
        }
    }

    /// Validates and runs one tool call. Wrong arguments are
    /// [`Error::InvalidParams`] (nothing ran); everything else, failures included,
    /// is an [`Output`] (`is_error` for a failed action).
    pub fn call(&mut self, tool: &str, args: Map<String, Value>) -> Result<Output, Error> {
        let parsed = tools::parse(tool, args).map_err(Error::InvalidParams)?;
        Ok(self.run(&parsed))
    }

    /// Runs a validated call.
    pub fn run(&mut self, parsed: &Parsed) -> Output {
        self.host.call_started();
        let started = std::time::SystemTime::now();
        let mut out = match &parsed.call {
            Call::Batch(b) => self.run_batch(b),
            _ => self.run_one(parsed, None),
        };
        self.host.call_ended();
        // Password values the page wrote elsewhere, and the operator's
        // secrets (crate::secrets).
        if let std::borrow::Cow::Owned(t) = crate::secrets::scrub(&out.text) {
            out.text = t;
        }
        self.finish(parsed, out, started)
    }

    /// Resolves the expectation of a call: core tool default < server
    /// default < snapshot mode (`--snapshot-mode`) and code language
    /// (`--codegen`) < operator default < batch global < call.
    pub fn resolve(
        &self,
        tool: &str,
        global: Option<&Expectation>,
        call: &Expectation,
    ) -> Result<ResolvedExpectation, String> {
        let server = server_default(tool);
        let mut mode = mode_default(self.config.response.snapshot_mode, tool);
        // A language given asks for the code lines.
        let codegen = self.config.response.codegen;
        if codegen.is_some_and(|c| c != Codegen::None) {
            mode.include_code = Some(true);
        }
        let empty = Expectation::default();
        let layers = [
            &server,
            &mode,
            &self.config.default_expectation,
            global.unwrap_or(&empty),
            call,
        ];
        let mut resolved = Expectation::resolve(tool, &layers).map_err(|e| e.to_string())?;
        // The lean envelope (issue 15): with diffing on, the Playwright code
        // repeats the result line in another syntax (35 of the 155 o200k
        // tokens of a typed character on the bench site's form), so it is
        // left out unless a layer asks for it.
        if resolved.diff.enabled && layers.iter().all(|l| l.include_code.is_none()) {
            resolved.include_code = false;
        }
        if codegen == Some(Codegen::None) {
            resolved.include_code = false;
        }
        Ok(resolved)
    }

    fn run_one(&mut self, parsed: &Parsed, global: Option<&Expectation>) -> Output {
        if let Call::Close = parsed.call {
            return self.close();
        }
        if !self.config.caps.allows(parsed.tool) {
            return Output::error(crate::caps::not_enabled(parsed.tool).unwrap_or_default());
        }
        let resolved = match self.resolve(parsed.tool, global, &parsed.expectation) {
            Ok(r) => r,
            Err(e) => return Output::error(e),
        };
        // Reading the accessibility tree is most of a call's time (a
        // 250 KB answer for a small page): skip it when nothing shows it
        // (browser_find searches it without showing it).
        let tree = resolved.include_snapshot || matches!(parsed.call, Call::Find(_));
        match self.perform_with(parsed, tree) {
            Ok(performed) => {
                let key = performed.key.clone();
                if let Call::Snapshot(p) = &parsed.call
                    && resolved.diff.enabled
                    && performed.tree.is_some()
                {
                    self.view(&key, &performed.doc, p.full.unwrap_or(false));
                }
                self.render(&performed, &resolved, &key)
            }
            Err(out) => out,
        }
    }

    /// A `browser_snapshot` with diffs on: answered with the whole page
    /// when asked (`full`) or, under `--snapshot-mode diff`, when the tab
    /// shows another document than at its last full view; the tab's diff
    /// chain then starts again from it.
    fn view(&mut self, key: &str, doc: &str, full: bool) {
        let by_mode = self.config.response.snapshot_mode == SnapshotMode::Diff;
        let (seen, generation) = self.views.entry(key.to_owned()).or_default();
        if full || (by_mode && seen != doc) {
            *seen = doc.to_owned();
            *generation += 1;
        }
    }

    /// A response showed the tab's whole page (the first of a chain, or
    /// the full text where a diff would not be smaller): the agent has a
    /// full view of this document.
    pub(crate) fn saw_full(&mut self, key: &str, doc: &str) {
        self.views.entry(key.to_owned()).or_default().0 = doc.to_owned();
    }

    /// The key of a tab's diff chain (its current generation, see
    /// [`Self::view`]).
    pub(crate) fn chain_key(&self, key: &str) -> String {
        match self.views.get(key) {
            Some((_, g)) if *g > 0 => format!("{key}\u{1f}view{g}"),
            _ => key.to_owned(),
        }
    }

    fn run_batch(&mut self, b: &Batch) -> Output {
        let mut report = BatchReport {
            total: b.steps.len(),
            ..BatchReport::default()
        };
        let mut images = Vec::new();
        let mut hard_failure = false;
        let mut last_ts = None;
        let mut modal_stop = None;
        for (i, step) in b.steps.iter().enumerate() {
            let out = self.run_one(&step.call, Some(&b.global));
            images.extend(out.images);
            last_ts = out.ts.or(last_ts);
            report.steps.push(BatchStep {
                tool: step.call.tool.to_owned(),
                ok: !out.is_error,
                text: out.text,
            });
            // The agent answers a dialog or file chooser before anything
            // else runs (see `modal_gate`): the batch stops there.
            if !out.is_error
                && i + 1 < b.steps.len()
                && let Some(m) = self.current_page().and_then(|p| p.modal())
            {
                modal_stop = Some((i + 1, m.cleared_by()));
                break;
            }
            if out.is_error && !step.continue_on_error {
                hard_failure = true;
                if b.stop_on_first_error {
                    report.stopped_at = Some(i + 1);
                    break;
                }
            }
        }
        let mut text = render_batch(&report);
        if let Some((n, tool)) = modal_stop
            && let Some(end) = text
                .find('\n')
                .and_then(|h| text[h + 1..].find('\n').map(|e| h + 1 + e))
        {
            let rest = if n + 1 == b.steps.len() {
                format!("step {} did not run", n + 1)
            } else {
                format!("steps {}..{} did not run", n + 1, b.steps.len())
            };
            text.insert_str(
                end,
                &format!(" Stopped after step {n}: the page waits for an answer ({tool}); {rest}."),
            );
        }
        Output {
            text,
            images,
            is_error: hard_failure,
            ts: last_ts,
        }
    }
}
