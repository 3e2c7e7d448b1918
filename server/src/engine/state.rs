//! The engine's state and the types its rooms share: the settings, what
//! an action produced (`Acted`), what was captured after it
//! (`Performed`), a tool's output, and what the engine keeps between
//! calls (the browser session, refs, diff chains, the coordinate mouse,
//! each tab's media overrides). The tools' logic lives in the other files
//! of `engine`, as `impl Engine` blocks.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, AtomicU64};

use anyhow::{Result, anyhow};
use response_diff::diff::ResponseDiffDetector;
use response_diff::expectation::Expectation;
use response_diff::fingerprint::BaselineStore;
use response_diff::response::{Image, Response};
use response_diff::tree::{SinceStore, SinceStoreConfig, Tree};
use serde_json::json;

use super::page::page_state;
use crate::ax::AxSnapshot;
use crate::browser::{BrowserConfig, Page, Session};
use crate::context::{BrowserHost, ReleaseMemory, Stopper};
use crate::refs::{Carried, Refs};
use crate::tools;

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
    pub(super) fn error(message: impl Into<String>) -> Output {
        Output {
            text: format!("### Result\nError: {}", message.into()),
            is_error: true,
            ..Output::default()
        }
    }
}

/// What an action produced, before the page is captured.
#[derive(Debug, Default)]
pub(super) struct Acted {
    pub(super) result: String,
    pub(super) code: Option<crate::codegen::Code>,
    pub(super) images: Vec<Image>,
    /// Show every console message of the page, not only the new ones.
    pub(super) all_console: bool,
    /// Always list the tabs, even when unchanged since the previous
    /// response (`browser_tabs`, a tab the action opened).
    pub(super) tabs: bool,
    /// Capture a snapshot (when the expectation includes it).
    pub(super) snapshot: bool,
    /// A `since` read.
    pub(super) since: Option<u64>,
    /// A request list (`browser_network_requests`), diffed at render time.
    pub(super) network: Option<String>,
    /// A search of the snapshot (`browser_find`), run at render time.
    pub(super) find: Option<tools::FindParams>,
    /// Downloads the action started.
    pub(super) downloads: Vec<response_diff::response::Download>,
}

/// Everything captured after an action: the response's raw material.
pub struct Performed {
    pub(super) tab: Page,
    pub(super) key: String,
    /// The document (its time origin), to tell a new document.
    pub(super) doc: String,
    pub(super) response: Response,
    pub(super) ax: Option<AxSnapshot>,
    pub(super) tree: Option<Tree>,
    /// The snapshot's refs both ways (empty without a snapshot).
    pub(super) carried: Carried,
    pub(super) since: Option<u64>,
    pub(super) network: Option<String>,
    pub(super) find: Option<tools::FindParams>,
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
    pub(super) config: EngineConfig,
    pub(super) session: Option<Session>,
    pub(super) host: Arc<BrowserHost>,
    pub(super) stopper: Stopper,
    pub(super) detector: ResponseDiffDetector,
    pub(super) since: SinceStore,
    pub(super) baselines: BaselineStore,
    /// Refs carried over re-renders, and each tab's ref → node map.
    pub(super) refs: Refs,
    pub(super) nav_token: AtomicU64,
    /// The browser died; the next launch reports it.
    pub(super) crashed: Option<String>,
    /// The host's idle-close count when this engine's session opened
    /// (a session closed by the idle timer says so, not that it crashed).
    pub(super) idle_closes: u64,
    /// Per tab: the document its last `browser_snapshot` showed in full,
    /// and the generation of its diff chain (a new one starts at each
    /// full view, so what follows diffs against it).
    pub(super) views: std::collections::HashMap<String, (String, u32)>,
    /// Where the coordinate mouse is and which buttons it holds (`--caps
    /// vision`), for the moves, presses and wheel turns that follow.
    pub(super) mouse: MouseState,
    /// Each tab's media overrides (`browser_emulate_media`), by tab key.
    pub(super) media: std::collections::HashMap<String, MediaState>,
    /// Last, so it runs after every other field is dropped.
    pub(super) _release: ReleaseMemory,
}

/// The coordinate mouse between calls: where it is, which buttons it holds
/// (its moves are in `pointer.rs`).
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct MouseState {
    pub(super) at: (f64, f64),
    pub(super) held: u32,
}

/// One tab's media overrides (`browser_emulate_media`, in `media.rs`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct MediaState {
    pub(super) media: Option<&'static str>,
    pub(super) features: std::collections::BTreeMap<&'static str, &'static str>,
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
            mouse: MouseState::default(),
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
        self.mouse = MouseState::default();
        self.stopper.set_context(None);
        if !self.host.is_shared() {
            self.host.release();
        }
    }
}
