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

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Result, anyhow, bail};
use base64::Engine as _;
use response_diff::diff::ResponseDiffDetector;
use response_diff::expectation::{Expectation, ResolvedExpectation, SnapshotFormat};
use response_diff::fingerprint::{
    BaselineStore, Depth, ExtractOptions, Fingerprint, Scope, Severity,
};
use response_diff::response::{
    ConsoleMessage, DiffTarget, Image, PageState, Response, Snapshot, Tab as TabInfo, fence,
    render, truncate_lines,
};
use response_diff::tree::{
    self, DiffOptions as TreeDiffOptions, Filter, Selector, SinceStore, Tree,
};
use serde_json::{Map, Value, json};

use crate::ax::{AxSnapshot, parse_ref};
use crate::browser::{BrowserConfig, Page, Session};
use crate::error::{Error, describe as describe_error, lock};
use crate::refs::{Carried, Lookup, Refs};
use crate::settle;
use crate::tools::{self, Batch, Call, Parsed, TabAction};

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
    code: Option<String>,
    images: Vec<Image>,
    /// Show every console message of the page, not only the new ones.
    all_console: bool,
    /// Always list the tabs.
    tabs: bool,
    /// Capture a snapshot (when the expectation includes it).
    snapshot: bool,
    /// A `since` read.
    since: Option<u64>,
}

/// Everything captured after an action: the response's raw material.
pub struct Performed {
    tab: Page,
    key: String,
    response: Response,
    ax: Option<AxSnapshot>,
    tree: Option<Tree>,
    /// The snapshot's refs both ways (empty without a snapshot).
    carried: Carried,
    since: Option<u64>,
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
    pid: Arc<AtomicU32>,
    detector: ResponseDiffDetector,
    since: SinceStore,
    baselines: BaselineStore,
    /// Refs carried over re-renders, and each tab's ref → node map.
    refs: Refs,
    nav_token: AtomicU64,
    /// The browser died; the next launch reports it.
    crashed: Option<()>,
}

/// Tools whose defaults the server refines (the core has no entry for
/// them): a fingerprint is the answer, a snapshot beside it is noise.
fn server_default(tool: &str) -> Expectation {
    match tool {
        "browser_get_dom_fingerprint" | "browser_compare_dom_fingerprint" => Expectation {
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
        Ok(Engine {
            config,
            session: None,
            pid: Arc::new(AtomicU32::new(0)),
            detector: ResponseDiffDetector::new(),
            since: SinceStore::with_limits(16, 256),
            baselines,
            refs: Refs::new(),
            nav_token: AtomicU64::new(1),
            crashed: None,
        })
    }

    /// The browser's process id cell (0 when none), shared with the MCP
    /// layer's watchdog.
    pub fn pid_cell(&self) -> Arc<AtomicU32> {
        Arc::clone(&self.pid)
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

    /// Stops the browser.
    pub fn shutdown(&mut self) {
        self.session = None;
        self.pid.store(0, Ordering::SeqCst);
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
        match &parsed.call {
            Call::Batch(b) => self.run_batch(b),
            _ => self.run_one(parsed, None),
        }
    }

    /// Resolves the expectation of a call: core tool default < server
    /// default < operator default < batch global < call.
    pub fn resolve(
        &self,
        tool: &str,
        global: Option<&Expectation>,
        call: &Expectation,
    ) -> Result<ResolvedExpectation, String> {
        let server = server_default(tool);
        let empty = Expectation::default();
        let layers = [
            &server,
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
        Ok(resolved)
    }

    fn run_one(&mut self, parsed: &Parsed, global: Option<&Expectation>) -> Output {
        if let Call::Close = parsed.call {
            return self.close();
        }
        let resolved = match self.resolve(parsed.tool, global, &parsed.expectation) {
            Ok(r) => r,
            Err(e) => return Output::error(e),
        };
        // Reading the accessibility tree is most of a call's time (a
        // 250 KB answer for a small page): skip it when nothing shows it.
        match self.perform_with(parsed, resolved.include_snapshot) {
            Ok(performed) => {
                let key = performed.key.clone();
                self.render(&performed, &resolved, &key)
            }
            Err(out) => out,
        }
    }

    /// Makes the browser ready, runs the action and captures the page. An
    /// error comes back as a rendered error [`Output`].
    pub fn perform(&mut self, parsed: &Parsed) -> Result<Performed, Output> {
        self.perform_with(parsed, true)
    }

    /// Like [`Self::perform`]; `snapshot` false skips reading the
    /// accessibility tree (the response will not show it).
    pub fn perform_with(&mut self, parsed: &Parsed, snapshot: bool) -> Result<Performed, Output> {
        self.perform_once(parsed, snapshot, true)
    }

    /// One attempt at a call. When the tab's renderer died before the call
    /// but the browser reported it only during the call, the failing command
    /// was refused before it reached the page ([`Error::PageCrashed`]): with `retry`
    /// the tab is reloaded and the call runs again, answering as if the
    /// crash had been seen first (a notice of the first attempt, such as a
    /// page script taken to be stuck while the renderer was in fact dead, is
    /// dropped). For a snapshot that holds after the read too; an action
    /// that already ran is not repeated.
    fn perform_once(
        &mut self,
        parsed: &Parsed,
        snapshot: bool,
        retry: bool,
    ) -> Result<Performed, Output> {
        let crashed_before_reaching_the_page =
            |e: &anyhow::Error| retry && matches!(Error::of(e), Some(Error::PageCrashed));
        let notice = match self.ensure_session() {
            Ok(n) => n,
            Err(e) if matches!(Error::of(&e), Some(Error::User(_))) => {
                return Err(Output::error(describe_error(&e)));
            }
            Err(e) => {
                return Err(Output::error(format!(
                    "could not start Chromium: {e:#}. Install it (`make setup`) or pass --executable-path."
                )));
            }
        };
        let acted = self.act(&parsed.call);
        let mut acted = match acted {
            Ok(a) => a,
            Err(e) if crashed_before_reaching_the_page(&e) => {
                tracing::warn!(
                    "the tab crashed before this call reached it; reloading and retrying"
                );
                return self.perform_once(parsed, snapshot, false);
            }
            Err(e) => {
                let mut msg = describe_error(&e);
                if let Some(n) = &notice {
                    msg = format!("{n}\n{msg}");
                }
                if !self.session.as_ref().is_some_and(Session::is_alive) {
                    msg.push_str(
                        "\nThe browser stopped during this call; it will be relaunched on the next call.",
                    );
                    self.drop_dead_session();
                } else if self.session.as_ref().is_some_and(|s| s.current().crashed()) {
                    msg.push_str(
                        "\nThe tab's page crashed during this call; the next call reloads it.",
                    );
                }
                return Err(self.error_output(msg));
            }
        };
        if let Some(n) = notice {
            acted.result = format!("{n}\n{}", acted.result);
        }
        acted.snapshot &= snapshot;
        let read_only = matches!(parsed.call, Call::Snapshot(_));
        match self.capture(acted) {
            Ok(p) => Ok(p),
            Err(e) if read_only && crashed_before_reaching_the_page(&e) => {
                tracing::warn!(
                    "the tab crashed before this read reached it; reloading and retrying"
                );
                self.perform_once(parsed, snapshot, false)
            }
            Err(e) => {
                Err(self.error_output(format!("could not read the page after the action: {e:#}")))
            }
        }
    }

    fn error_output(&mut self, message: String) -> Output {
        let page = self
            .session
            .as_ref()
            .and_then(|s| page_state(s.current()).ok());
        let response = Response {
            result: Some(format!("Error: {message}")),
            is_error: true,
            page,
            ..Response::default()
        };
        let resolved = Expectation::resolve("browser_error", &[]).expect("defaults resolve");
        match render(&response, &resolved, None) {
            Ok(r) => Output {
                text: r.text,
                images: Vec::new(),
                is_error: true,
                ts: None,
            },
            Err(e) => Output::error(format!("{message} ({e})")),
        }
    }

    fn ensure_session(&mut self) -> Result<Option<String>> {
        if let Some(s) = &mut self.session {
            if s.is_alive() {
                s.sync_tabs()
                    .map_err(|e| anyhow!(Error::User(format!("{e:#}"))))?;
                let page = s.current().clone();
                if !page.crashed() {
                    let notice = self.unstick(&page);
                    // A renderer that died just before this call can look
                    // stuck until the browser reports the crash.
                    if !page.crashed() {
                        return Ok(notice);
                    }
                }
                tracing::warn!("the current tab crashed; reloading it");
                let reloaded = page.recover(self.timeout());
                self.forget(&[page.key().to_owned()]);
                return match reloaded {
                    Ok(()) => Ok(Some(
                        "The tab's page had crashed (its renderer process died) and was reloaded: refs from earlier snapshots are gone.".to_owned(),
                    )),
                    Err(e) => Err(anyhow!(Error::User(format!(
                        "the tab's page had crashed (its renderer process died) and reloading it failed ({}); navigate to a page or open a new tab",
                        describe_error(&e)
                    )))),
                };
            }
            tracing::warn!("the browser is gone; relaunching");
            self.drop_dead_session();
        }
        let session = Session::launch(&self.config.browser, &self.pid)?;
        tracing::info!("browser started (pid {:?})", session.pid());
        self.session = Some(session);
        Ok(self.crashed.take().map(|_| {
            "The browser had stopped (it crashed or was killed) and was relaunched: earlier tabs, pages and refs are gone.".to_owned()
        }))
    }

    /// Before an action: a tab still busy in a page script (a loop that
    /// started after the last call) answers nothing, so the script is
    /// stopped and the response says so. One round trip when all is well.
    fn unstick(&self, page: &Page) -> Option<String> {
        let wait = self.timeout().min(Duration::from_secs(5));
        match page.call_within("Runtime.evaluate", json!({ "expression": "0" }), wait) {
            Err(e) if Error::is_call_timeout(&e) => {
                page.stop_scripts();
                Some(format!(
                    "A script in the page kept it busy for over {} s and was stopped.",
                    wait.as_secs()
                ))
            }
            _ => None,
        }
    }

    /// Forgets a browser that died; the next launch says so.
    fn drop_dead_session(&mut self) {
        if let Some(s) = self.session.take() {
            let keys: Vec<String> = s.pages().iter().map(|t| t.key().to_owned()).collect();
            self.forget(&keys);
        }
        self.pid.store(0, Ordering::SeqCst);
        self.crashed = Some(());
    }

    fn forget(&mut self, keys: &[String]) {
        for k in keys {
            self.since.clear(k);
            self.refs.forget(k);
        }
        // Detector keys carry a view suffix; the page's chains are dropped
        // wholesale (the next snapshot of a new tab starts fresh anyway).
        self.detector.clear_all();
    }

    fn session(&mut self) -> Result<&mut Session> {
        self.session
            .as_mut()
            .ok_or_else(|| anyhow!("the browser is not running"))
    }

    fn timeout(&self) -> Duration {
        self.config.browser.action_timeout
    }

    fn close(&mut self) -> Output {
        let had = self.session.is_some();
        if let Some(s) = &self.session {
            let keys: Vec<String> = s.pages().iter().map(|t| t.key().to_owned()).collect();
            self.forget(&keys);
        }
        self.shutdown();
        Output {
            text: format!(
                "### Result\n{}",
                if had {
                    "Closed the browser. The next call starts a fresh one."
                } else {
                    "The browser was not running."
                }
            ),
            ..Output::default()
        }
    }

    fn run_batch(&mut self, b: &Batch) -> Output {
        let mut sections = Vec::new();
        let mut images = Vec::new();
        let mut failed: Vec<String> = Vec::new();
        let mut ok = 0usize;
        let mut stopped = None;
        let mut hard_failure = false;
        let mut last_ts = None;
        for (i, step) in b.steps.iter().enumerate() {
            let out = self.run_one(&step.call, Some(&b.global));
            let n = i + 1;
            let status = if out.is_error { "failed" } else { "ok" };
            sections.push(format!(
                "### Step {n}: {} ({status})\n{}",
                step.call.tool,
                demote(&out.text)
            ));
            images.extend(out.images);
            last_ts = out.ts.or(last_ts);
            if out.is_error {
                failed.push(format!("{n} ({})", step.call.tool));
                if !step.continue_on_error {
                    hard_failure = true;
                    if b.stop_on_first_error {
                        stopped = Some(n);
                        break;
                    }
                }
            } else {
                ok += 1;
            }
        }
        let total = b.steps.len();
        let ran = ok + failed.len();
        let mut summary = format!("{ran} of {total} steps ran: {ok} ok");
        if !failed.is_empty() {
            summary.push_str(&format!(", failed: step {}", failed.join(", step ")));
        }
        if let Some(n) = stopped {
            summary.push_str(&format!(". Stopped at step {n} (stopOnFirstError)"));
            match total - n {
                0 => {}
                1 => summary.push_str(&format!("; step {total} did not run")),
                _ => summary.push_str(&format!("; steps {}..{total} did not run", n + 1)),
            }
        }
        summary.push('.');
        let mut text = format!("### Batch\n{summary}");
        for s in sections {
            text.push_str("\n\n");
            text.push_str(&s);
        }
        Output {
            text,
            images,
            is_error: hard_failure,
            ts: last_ts,
        }
    }

    // -- actions ----------------------------------------------------------

    fn act(&mut self, call: &Call) -> Result<Acted> {
        let timeout = self.timeout();
        match call {
            Call::Navigate(p) => {
                let tab = self.tab()?;
                self.navigate(&tab, &p.url)?;
                Ok(Acted {
                    result: format!("Navigated to {}", p.url),
                    code: Some(format!("await page.goto({});", js_str(&p.url))),
                    snapshot: true,
                    ..Acted::default()
                })
            }
            Call::NavigateBack => {
                let tab = self.tab()?;
                let h = tab.call("Page.getNavigationHistory", json!({}))?;
                let current = h.get("currentIndex").and_then(Value::as_u64).unwrap_or(0) as usize;
                let entries = h
                    .get("entries")
                    .and_then(Value::as_array)
                    .cloned()
                    .unwrap_or_default();
                if current == 0 || entries.len() <= current {
                    bail!(Error::User(
                        "there is no previous page in this tab's history".into()
                    ));
                }
                let entry = &entries[current - 1];
                let (_, mark) = self.mark(&tab);
                tab.call(
                    "Page.navigateToHistoryEntry",
                    json!({ "entryId": entry["id"] }),
                )?;
                // An entry of the same document (pushState, a fragment)
                // is back at once; another document loads.
                let settled = settle::settle(&tab, mark, timeout, true);
                if settled.still.is_some() {
                    let _ = tab.call("Page.stopLoading", json!({}));
                    bail!(Error::User(format!(
                        "going back did not finish loading in {} s; take a snapshot to see what loaded",
                        timeout.as_secs()
                    )));
                }
                Ok(Acted {
                    result: "Went back".into(),
                    code: Some("await page.goBack();".into()),
                    snapshot: true,
                    ..Acted::default()
                })
            }
            Call::Click(p) => {
                let tab = self.tab()?;
                let (backend, object) = self.resolve_ref(&tab, &p.target)?;
                let (role, name) = describe(&tab, backend);
                let (x, y) = point_of(&tab, backend, &object, &p.target, &role, &name)?;
                let button = p.button.unwrap_or_default().as_str();
                let double = p.double_click.unwrap_or(false);
                let (_, mark) = self.mark(&tab);
                tab.mouse("mouseMoved", x, y, "none", 0)?;
                for clicks in 1..=(if double { 2 } else { 1 }) {
                    tab.mouse("mousePressed", x, y, button, clicks)?;
                    tab.mouse("mouseReleased", x, y, button, clicks)?;
                }
                let settled = self.settle(&tab, mark);
                let verb = if double { "Double-clicked" } else { "Clicked" };
                let method = if double { "dblclick" } else { "click" };
                let opts = if p.button.is_some_and(|b| b != tools::Button::Left) {
                    format!("{{ button: '{button}' }}")
                } else {
                    String::new()
                };
                Ok(Acted {
                    result: format!("{verb} {}{settled}", label(&role, &name, &p.target)),
                    code: Some(format!("await {}.{method}({opts});", locator(&role, &name))),
                    snapshot: true,
                    ..Acted::default()
                })
            }
            Call::Type(p) => {
                let tab = self.tab()?;
                let (backend, object) = self.resolve_ref(&tab, &p.target)?;
                let (role, name) = describe(&tab, backend);
                let (_, mark) = self.mark(&tab);
                let focused = tab.call_on(&object, FOCUS_AND_SELECT, &[])?;
                if focused != Value::Bool(true) {
                    bail!(Error::User(format!(
                        "{} cannot take text; type into a textbox, searchbox or editable element",
                        label(&role, &name, &p.target)
                    )));
                }
                if p.text.is_empty() {
                    tab.press_key("Backspace")?;
                } else {
                    tab.call("Input.insertText", json!({ "text": p.text }))?;
                }
                let mut result = format!(
                    "Typed {} into {}",
                    js_str(&p.text),
                    label(&role, &name, &p.target)
                );
                let mut code =
                    format!("await {}.fill({});", locator(&role, &name), js_str(&p.text));
                if p.submit.unwrap_or(false) {
                    tab.press_key("Enter")?;
                    result.push_str(" and pressed Enter");
                    code.push_str(&format!(
                        "\nawait {}.press('Enter');",
                        locator(&role, &name)
                    ));
                }
                result.push_str(&self.settle(&tab, mark));
                Ok(Acted {
                    result,
                    code: Some(code),
                    snapshot: true,
                    ..Acted::default()
                })
            }
            Call::PressKey(p) => {
                let tab = self.tab()?;
                let (_, mark) = self.mark(&tab);
                tab.press_key(&p.key)?;
                let settled = self.settle(&tab, mark);
                Ok(Acted {
                    result: format!("Pressed {}{settled}", p.key),
                    code: Some(format!("await page.keyboard.press({});", js_str(&p.key))),
                    snapshot: true,
                    ..Acted::default()
                })
            }
            Call::SelectOption(p) => {
                let tab = self.tab()?;
                let (backend, object) = self.resolve_ref(&tab, &p.target)?;
                let (role, name) = describe(&tab, backend);
                let (_, mark) = self.mark(&tab);
                let r = tab.call_on(&object, SELECT_OPTIONS, &[json!(p.values)])?;
                if let Some(err) = r.get("error").and_then(Value::as_str) {
                    bail!(Error::User(format!(
                        "{}: {err}",
                        label(&role, &name, &p.target)
                    )));
                }
                let settled = self.settle(&tab, mark);
                let picked = r.get("selected").cloned().unwrap_or(Value::Null);
                Ok(Acted {
                    result: format!(
                        "Selected {picked} in {}{settled}",
                        label(&role, &name, &p.target)
                    ),
                    code: Some(format!(
                        "await {}.selectOption({});",
                        locator(&role, &name),
                        serde_json::to_string(&p.values).unwrap_or_default()
                    )),
                    snapshot: true,
                    ..Acted::default()
                })
            }
            Call::Hover(p) => {
                let tab = self.tab()?;
                let (backend, object) = self.resolve_ref(&tab, &p.target)?;
                let (role, name) = describe(&tab, backend);
                let (x, y) = point_of(&tab, backend, &object, &p.target, &role, &name)?;
                let (_, mark) = self.mark(&tab);
                tab.mouse("mouseMoved", x, y, "none", 0)?;
                let settled = self.settle(&tab, mark);
                Ok(Acted {
                    result: format!("Hovered over {}{settled}", label(&role, &name, &p.target)),
                    code: Some(format!("await {}.hover();", locator(&role, &name))),
                    snapshot: true,
                    ..Acted::default()
                })
            }
            Call::Snapshot(p) => {
                self.sync();
                Ok(Acted {
                    snapshot: true,
                    since: p.since,
                    ..Acted::default()
                })
            }
            Call::Screenshot(p) => {
                let tab = self.tab()?;
                let target = match p.target.as_deref() {
                    Some(r) => {
                        let (backend, object) = self.resolve_ref(&tab, r)?;
                        Some((r, backend, object))
                    }
                    None => None,
                };
                let (image, what) = screenshot(&tab, p.full_page.unwrap_or(false), target)?;
                Ok(Acted {
                    result: format!("Took a screenshot of {what}"),
                    code: Some(match &p.target {
                        Some(_) => "await locator.screenshot();".into(),
                        None if p.full_page.unwrap_or(false) => {
                            "await page.screenshot({ fullPage: true });".into()
                        }
                        None => "await page.screenshot();".into(),
                    }),
                    images: vec![image],
                    snapshot: true,
                    ..Acted::default()
                })
            }
            Call::ConsoleMessages => {
                self.sync();
                Ok(Acted {
                    result: "Console messages of the current page (since it loaded).".into(),
                    all_console: true,
                    snapshot: true,
                    ..Acted::default()
                })
            }
            Call::Tabs(p) => self.tabs(p),
            Call::Evaluate(p) => {
                let tab = self.tab()?;
                let value = match &p.target {
                    Some(r) => {
                        let (_, object) = self.resolve_ref(&tab, r)?;
                        let f = format!(
                            "function (el) {{ const f = ({}\n); return typeof f === 'function' ? f(el) : f; }}",
                            p.function
                        );
                        // The element is both `this` and the argument.
                        tab.call_function(&object, &f, vec![json!({ "objectId": object })], timeout)
                    }
                    None => {
                        let expr = format!(
                            "(async () => {{ const f = ({}\n); return typeof f === 'function' ? await f() : f; }})()",
                            p.function
                        );
                        tab.evaluate(&expr, true, timeout)
                    }
                }
                .map_err(|e| {
                    if matches!(Error::of(&e), Some(Error::ScriptTimeout(_))) {
                        anyhow!(Error::User(format!(
                            "the function did not finish within {} s (--action-timeout) and was stopped; the page is usable again, take a snapshot to see its state",
                            timeout.as_secs()
                        )))
                    } else {
                        e
                    }
                })?;
                self.sync();
                let mut text = serde_json::to_string_pretty(&value).unwrap_or_default();
                const MAX: usize = 20_000;
                if text.len() > MAX {
                    let (kept, marker) = truncate_lines(&text, MAX);
                    text = format!("{kept}{}", marker.unwrap_or_default());
                }
                Ok(Acted {
                    result: text,
                    code: Some(format!("await page.evaluate({});", js_str(&p.function))),
                    snapshot: true,
                    ..Acted::default()
                })
            }
            Call::WaitFor(p) => {
                let tab = self.tab()?;
                let mut done = Vec::new();
                if let Some(t) = p.time {
                    std::thread::sleep(Duration::from_secs_f64(t));
                    done.push(format!("waited {t} s"));
                }
                if let Some(text) = &p.text {
                    wait_text(&tab, text, true, timeout)?;
                    done.push(format!("text {} appeared", js_str(text)));
                }
                if let Some(text) = &p.text_gone {
                    wait_text(&tab, text, false, timeout)?;
                    done.push(format!("text {} is gone", js_str(text)));
                }
                self.sync();
                let mut result = done.join("; ");
                if let Some(first) = result.get_mut(0..1) {
                    first.make_ascii_uppercase();
                }
                Ok(Acted {
                    result,
                    snapshot: true,
                    ..Acted::default()
                })
            }
            Call::GetFingerprint(p) => {
                let tab = self.tab()?;
                let fp = capture_fingerprint(&tab, p.scope.as_deref(), p.depth.as_deref())?;
                self.baselines.record(&fp);
                let mut result = format!("Fingerprint {} ({} tokens)", fp.hash, fp.token_count);
                if let Some(name) = &p.save_as {
                    self.baselines.save(name, &fp)?;
                    result.push_str(&format!("; saved as baseline `{name}`"));
                }
                result.push_str(&format!(
                    ". Compare later with against: \"{}\".\n{}",
                    p.save_as.as_deref().unwrap_or(&fp.hash),
                    fp.to_json()
                ));
                Ok(Acted {
                    result,
                    snapshot: true,
                    ..Acted::default()
                })
            }
            Call::CompareFingerprint(p) => {
                let tab = self.tab()?;
                let fp = capture_fingerprint(&tab, p.scope.as_deref(), p.depth.as_deref())?;
                let threshold = match &p.severity_threshold {
                    Some(s) => tools::parse_severity(s).map_err(|e| anyhow!(Error::User(e)))?,
                    None => Severity::Warning,
                };
                let cmp = self.baselines.compare(&p.against, &fp, threshold)?;
                self.baselines.record(&fp);
                Ok(Acted {
                    result: format!(
                        "Compared with `{}` (current fingerprint {}):\n{}",
                        p.against,
                        fp.hash,
                        cmp.to_string().trim_end()
                    ),
                    snapshot: true,
                    ..Acted::default()
                })
            }
            Call::Close | Call::Batch(_) => bail!("not an action"),
        }
    }

    fn tabs(&mut self, p: &tools::TabsParams) -> Result<Acted> {
        let session = self.session()?;
        let (result, snapshot) = match p.action {
            TabAction::List => {
                let n = session.pages().len();
                (
                    format!("{n} open tab{}", if n == 1 { "" } else { "s" }),
                    false,
                )
            }
            TabAction::New => {
                let i = session.new_tab()?;
                if let Some(url) = &p.url {
                    let tab = self.tab()?;
                    self.navigate(&tab, url)?;
                    (format!("Opened tab {i} at {url}"), true)
                } else {
                    (format!("Opened tab {i}"), true)
                }
            }
            TabAction::Select => {
                let i = p.index.unwrap_or(0);
                session
                    .select(i)
                    .map_err(|e| anyhow!(Error::User(e.to_string())))?;
                (format!("Selected tab {i}"), true)
            }
            TabAction::Close => {
                let i = p.index.unwrap_or(session.current_index());
                let key = session.pages().get(i).map(|t| t.key().to_owned());
                session
                    .close_tab(i)
                    .map_err(|e| anyhow!(Error::User(e.to_string())))?;
                if let Some(k) = key {
                    self.since.clear(&k);
                    self.refs.forget(&k);
                }
                (format!("Closed tab {i}"), true)
            }
        };
        Ok(Acted {
            result,
            tabs: true,
            snapshot,
            ..Acted::default()
        })
    }

    /// Resolves a ref to the node that now stands for it (its backend id
    /// and a JS object id), through the tab's latest snapshot.
    ///
    /// A ref of the latest snapshot whose node is detached (the page
    /// re-rendered since) and a ref the latest snapshot does not show are
    /// looked up again in a fresh snapshot, carried over like any other, so
    /// an element rebuilt or back since keeps working under its ref. A ref
    /// only an earlier snapshot showed still acts on its node while that
    /// node is attached: it is the element the ref named. A ref never
    /// handed out in this document is refused even when `e<n>` happens to
    /// be a live backend id: refs are carried, so `e<n>` may name another
    /// element than node n.
    fn resolve_ref(&mut self, tab: &Page, r: &str) -> Result<(i64, String)> {
        if parse_ref(r).is_none() {
            bail!(Error::User(format!(
                "`{r}` is not a ref; use a [ref=…] from the latest snapshot, such as e12"
            )));
        }
        let key = tab.key().to_owned();
        let first = self.refs.lookup(&key, r);
        if let Lookup::Latest(t) | Lookup::Earlier(t) = &first
            && let Some(object) = tab.resolve_backend(t.backend)
        {
            return Ok((t.backend, object));
        }
        self.resnapshot(tab)?;
        if let Lookup::Latest(t) = self.refs.lookup(&key, r)
            && let Some(object) = tab.resolve_backend(t.backend)
        {
            return Ok((t.backend, object));
        }
        match first {
            Lookup::Latest(t) | Lookup::Earlier(t) => bail!(Error::User(format!(
                "ref {r} ({}) is no longer on the page; take a new snapshot",
                t.label()
            ))),
            Lookup::Unknown => bail!(Error::NotOnPage(r.to_owned())),
        }
    }

    /// Reads the tab's accessibility tree and carries refs over to it (the
    /// agent does not see it; its next snapshot is diffed as usual).
    fn resnapshot(&mut self, tab: &Page) -> Result<()> {
        let (page, doc) = page_info(tab)?;
        let raw = tab.call("Accessibility.getFullAXTree", json!({}))?;
        let ax = AxSnapshot::read(tab, raw, Some(&page.url))?;
        self.refs.carry(tab.key(), &doc, &page.url, &ax.tree())?;
        Ok(())
    }

    fn tab(&mut self) -> Result<Page> {
        Ok(self.session()?.current().clone())
    }

    /// Sees every event the current page sent so far.
    fn sync(&self) {
        if let Some(s) = &self.session {
            s.current().sync_events();
        }
    }

    /// Marks the current document with a fresh token (see
    /// [`Self::wait_loaded`]); the mark is where an action's own effects
    /// begin (see [`settle`]).
    fn mark(&self, tab: &Page) -> (u64, settle::Mark) {
        let token = self.nav_token.fetch_add(1, Ordering::SeqCst);
        let mark = tab.mark(token);
        (token, mark)
    }

    /// Waits for the document after the one marked with `token`; a timeout
    /// is an error that says what to do.
    fn wait_loaded(&self, tab: &Page, token: u64, timeout: Duration, what: &str) -> Result<()> {
        tab.wait_loaded(token, timeout).map_err(|e| {
            if matches!(Error::of(&e), Some(Error::Timeout(_))) {
                anyhow!(Error::User(format!(
                    "{what} did not finish loading in {} s; take a snapshot to see what loaded",
                    timeout.as_secs()
                )))
            } else {
                e
            }
        })
    }

    fn navigate(&self, tab: &Page, url: &str) -> Result<()> {
        let (token, mark) = self.mark(tab);
        let r = match tab.call_within("Page.navigate", json!({ "url": url }), self.timeout()) {
            Ok(r) => r,
            Err(e) if Error::is_call_timeout(&e) => {
                let _ = tab.call("Page.stopLoading", json!({}));
                bail!(Error::User(format!(
                    "navigation to {url} got no response within {} s and was stopped; check that the server answers",
                    self.timeout().as_secs()
                )));
            }
            Err(e) => return Err(e),
        };
        if let Some(err) = r
            .get("errorText")
            .and_then(Value::as_str)
            .filter(|e| !e.is_empty())
        {
            bail!(Error::User(format!(
                "navigation to {url} failed: {err}. Check that the server is running and the URL is right"
            )));
        }
        if r.get("loaderId").is_none() {
            // A same-document navigation (a #fragment): nothing loads, but
            // the page's hashchange handler may render a new view.
            settle::settle(tab, mark, self.timeout(), false);
            return Ok(());
        }
        let loaded = self.wait_loaded(tab, token, self.timeout(), &format!("navigation to {url}"));
        if loaded.is_err() {
            // Leave the page usable: stop what is still loading.
            let _ = tab.call("Page.stopLoading", json!({}));
        }
        loaded
    }

    /// After an input action: waits for what it started (a navigation, its
    /// requests, DOM changes; see [`settle`]). Returns a note for the
    /// result: empty, that the page navigated, or what was still pending
    /// at the time limit.
    fn settle(&self, tab: &Page, mark: settle::Mark) -> String {
        settle::settle(tab, mark, self.timeout(), false).note()
    }

    // -- capture and render ----------------------------------------------

    fn capture(&mut self, acted: Acted) -> Result<Performed> {
        let session = self.session.as_mut().ok_or_else(|| anyhow!("no browser"))?;
        let handle = session.current();
        let tab = handle.clone();
        let key = handle.key().to_owned();
        let info = page_info(&tab).ok();
        let doc = info.as_ref().map(|i| i.1.clone()).unwrap_or_default();
        let page = info.map(|i| i.0);
        let show_tabs = acted.tabs || session.pages().len() > 1;
        let tabs = if show_tabs {
            let current = session.current_index();
            session
                .pages()
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    let info = page_state(t).unwrap_or_default();
                    TabInfo {
                        index: i,
                        title: info.title,
                        url: info.url,
                        current: i == current,
                    }
                })
                .collect()
        } else {
            Vec::new()
        };
        let mut console = Vec::new();
        let mut result = acted.result;
        {
            let mut ev = lock(&handle.events);
            let from = if acted.all_console { 0 } else { ev.reported };
            if acted.all_console && ev.dropped > 0 {
                console.push(ConsoleMessage::new(
                    "info",
                    format!("({} older messages were not kept)", ev.dropped),
                ));
            }
            console.extend(ev.console[from.min(ev.console.len())..].iter().map(|m| {
                ConsoleMessage {
                    level: m.level.clone(),
                    text: m.text.clone(),
                    location: m.location.clone(),
                }
            }));
            ev.reported = ev.console.len();
            for d in ev.dialogs.drain(..) {
                result.push_str(&format!("\nA dialog opened: {d}."));
            }
        }
        let (ax, carried) = if acted.snapshot {
            let raw_tree = match tab.call("Accessibility.getFullAXTree", json!({})) {
                Err(e) if Error::is_call_timeout(&e) => {
                    // A page script kept the tab busy; `Page::call` stopped
                    // it, so the tree can be read now.
                    result.push_str(&format!(
                        "\nA script in the page kept it busy for over {} s and was stopped.",
                        self.config.browser.action_timeout.as_secs() + 5
                    ));
                    tab.call("Accessibility.getFullAXTree", json!({}))?
                }
                r => r?,
            };
            let url = page.as_ref().map(|p| p.url.as_str()).unwrap_or_default();
            let ax = AxSnapshot::read(&tab, raw_tree, Some(url))?;
            let carried = self.refs.carry(&key, &doc, url, &ax.tree())?;
            (Some(ax), carried)
        } else {
            (None, Carried::default())
        };
        let tree = ax.as_ref().map(|_| carried.tree.clone());
        let response = Response {
            result: Some(result).filter(|r| !r.is_empty()),
            code: acted.code,
            tabs,
            page,
            console,
            images: acted.images,
            ..Response::default()
        };
        Ok(Performed {
            tab,
            key,
            response,
            ax,
            tree,
            carried,
            since: acted.since,
        })
    }

    /// Renders a captured call under `resolved`. `key` keys both the
    /// response diff chain and the `since` store (the tab id in the server;
    /// the demo renders one capture under several keys).
    pub fn render(&mut self, p: &Performed, resolved: &ResolvedExpectation, key: &str) -> Output {
        self.render_since(p, resolved, key, p.since)
    }

    /// Like [`Self::render`] with an explicit `since`.
    pub fn render_since(
        &mut self,
        p: &Performed,
        resolved: &ResolvedExpectation,
        key: &str,
        since: Option<u64>,
    ) -> Output {
        match self.try_render(p, resolved, key, since) {
            Ok(o) => o,
            Err(e) => Output::error(describe_error(&e)),
        }
    }

    fn try_render(
        &mut self,
        p: &Performed,
        resolved: &ResolvedExpectation,
        key: &str,
        since: Option<u64>,
    ) -> Result<Output> {
        let mut response = p.response.clone();
        let mut resolved = resolved.clone();
        let mut diff_key = key.to_owned();
        let mut custom: Option<(String, String)> = None;
        let mut ts = None;
        if let (true, Some(tree), Some(ax)) = (resolved.include_snapshot, &p.tree, &p.ax) {
            let selector = resolved.snapshot.selector.clone();
            // Resolve the selector: core syntax (ref, role) or CSS in the page.
            let mut scope: Option<Selector> = None;
            let mut css_tree: Option<Tree> = None;
            let mut css_backend = None;
            let mut notice = None;
            if let Some(sel) = &selector {
                match Selector::parse(sel) {
                    Ok(s) => scope = Some(s),
                    Err(_) => match css_to_backend(&p.tab, sel)? {
                        None => {
                            notice = Some(format!(
                                "No element matches selector `{sel}`; take a snapshot without a selector to see the page."
                            ))
                        }
                        Some(b) => match ax.subtree(b).filter(|t| !t.is_empty()) {
                            Some(t) => {
                                css_tree = Some(p.carried.relabel(t));
                                css_backend = Some(b);
                                let r = p.carried.node_to_ref.get(&b).cloned();
                                scope = Some(Selector::Ref(r.unwrap_or_else(|| format!("e{b}"))));
                            }
                            None => {
                                notice = Some(format!(
                                    "The element matching `{sel}` is not shown in the accessibility tree (it is hidden or has no accessible content)."
                                ))
                            }
                        },
                    },
                }
            }
            let record = self.since.read(
                key,
                tree.clone(),
                since,
                &TreeDiffOptions {
                    filter: Filter {
                        scope: scope.clone().filter(|_| since.is_some()),
                        ..Filter::default()
                    },
                    ..TreeDiffOptions::default()
                },
            );
            ts = Some(record.ts);
            if let Some(n) = notice {
                custom = Some(("Page snapshot".into(), n));
            } else if since.is_some() {
                let mut body = record.render(tree::DiffFormat::Agent);
                if let Some(max) = resolved.snapshot.max_length {
                    let (kept, marker) = truncate_lines(&body, max);
                    body = match marker {
                        Some(m) => format!("{kept}{m}"),
                        None => kept,
                    };
                }
                let heading = match record.outcome {
                    tree::ReadOutcome::Diff(_) => format!(
                        "Page snapshot (changes since ts {})",
                        since.unwrap_or_default()
                    ),
                    _ => "Page snapshot".to_owned(),
                };
                custom = Some((heading, fence("", &body)));
            } else {
                let (aria, scoped_away) = match &css_tree {
                    Some(t) => (t.to_aria(), true),
                    None => (tree.to_aria(), false),
                };
                if scoped_away {
                    // The subtree is already cut; the core must not re-select.
                    resolved.snapshot.selector = None;
                    diff_key = format!("{key}\u{1f}css:{}", selector.as_deref().unwrap_or(""));
                }
                let html = if resolved.snapshot_format() == SnapshotFormat::Html {
                    Some(outer_html(
                        &p.tab,
                        css_backend,
                        scope.as_ref(),
                        tree,
                        &p.carried,
                    )?)
                } else {
                    None
                };
                if html.is_some() {
                    // The host scoped the HTML itself.
                    resolved.snapshot.selector = None;
                    diff_key = format!("{key}\u{1f}html:{}", selector.as_deref().unwrap_or(""));
                }
                response.snapshot = Some(Snapshot { aria, html });
                // The ts is for `since` reads; a diffed response already
                // says what changed, so it goes without (Output::ts keeps it).
                if !resolved.diff.enabled {
                    let line = format!("Snapshot ts: {}", record.ts);
                    response.result = Some(match response.result.take() {
                        Some(r) => format!("{r}\n{line}"),
                        None => line,
                    });
                }
            }
        }
        let target = DiffTarget {
            detector: &self.detector,
            key: &diff_key,
        };
        let rendered = render(&response, &resolved, Some(target))?;
        let mut text = rendered.text;
        if let Some((heading, body)) = custom {
            text = insert_section(&text, &heading, &body);
        }
        Ok(Output {
            text,
            images: rendered.images,
            is_error: rendered.is_error,
            ts,
        })
    }
}

/// Inserts a `### heading` section where the core would put the snapshot:
/// before the console and downloads sections, else at the end.
fn insert_section(text: &str, heading: &str, body: &str) -> String {
    let section = format!("### {heading}\n{body}");
    for next in ["\n\n### Console messages\n", "\n\n### Downloads\n"] {
        if let Some(i) = text.find(next) {
            return format!("{}\n\n{section}{}", &text[..i], &text[i..]);
        }
    }
    if text.is_empty() {
        section
    } else {
        format!("{text}\n\n{section}")
    }
}

/// `### ` headings of a step's text become `#### ` under the batch's step heading.
fn demote(text: &str) -> String {
    text.lines()
        .map(|l| match l.strip_prefix("### ") {
            Some(rest) => format!("#### {rest}"),
            None => l.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn js_str(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

fn label(role: &str, name: &str, r: &str) -> String {
    if name.is_empty() {
        format!("{role} ({r})")
    } else {
        format!("{role} {} ({r})", js_str(name))
    }
}

fn locator(role: &str, name: &str) -> String {
    if name.is_empty() {
        format!("page.getByRole('{role}')")
    } else {
        format!("page.getByRole('{role}', {{ name: {} }})", js_str(name))
    }
}

/// The page state and a token of the current document (its time origin:
/// the same for the life of a document, pushState included; different for
/// every load).
fn page_info(tab: &Page) -> Result<(PageState, String)> {
    let v = tab.evaluate(
        "[location.href, document.title, String(performance.timeOrigin)]",
        false,
        Duration::from_secs(2),
    )?;
    let s = |i: usize| {
        v.get(i)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned()
    };
    Ok((
        PageState {
            url: s(0),
            title: s(1),
        },
        s(2),
    ))
}

fn page_state(tab: &Page) -> Result<PageState> {
    let v = tab.evaluate(
        "[location.href, document.title]",
        false,
        Duration::from_secs(2),
    )?;
    Ok(PageState {
        url: v
            .get(0)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned(),
        title: v
            .get(1)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned(),
    })
}

/// Role and name of a node, for messages and generated code.
fn describe(tab: &Page, backend: i64) -> (String, String) {
    let r = tab.call(
        "Accessibility.getPartialAXTree",
        json!({
            "backendNodeId": backend, "fetchRelatives": false
        }),
    );
    let node = r.ok().and_then(|v| v.pointer("/nodes/0").cloned());
    let role = node
        .as_ref()
        .and_then(|n| n.pointer("/role/value"))
        .and_then(Value::as_str)
        .unwrap_or("element")
        .to_owned();
    let name = node
        .as_ref()
        .and_then(|n| n.pointer("/name/value"))
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let role = match role.as_str() {
        "image" => "img".to_owned(),
        "StaticText" | "generic" | "none" => "element".to_owned(),
        _ => role,
    };
    (role, name)
}

/// The point to click: the centre of the element, checked to hit it.
fn point_of(
    tab: &Page,
    backend: i64,
    object: &str,
    r: &str,
    role: &str,
    name: &str,
) -> Result<(f64, f64)> {
    let (x, y) = tab.center_of(backend).map_err(|e| {
        if matches!(Error::of(&e), Some(Error::NotVisible)) {
            anyhow!(Error::User(format!(
                "{} is not visible (hidden or zero-sized); take a new snapshot",
                label(role, name, r)
            )))
        } else {
            e
        }
    })?;
    let hit = tab.call_on(object, HIT_TEST, &[json!(x), json!(y)])?;
    if let Some(other) = hit.as_str() {
        bail!(Error::User(format!(
            "{} is covered by {other} at ({x:.0}, {y:.0}); close or scroll past it first",
            label(role, name, r)
        )));
    }
    Ok((x, y))
}

const HIT_TEST: &str = r#"function (x, y) {
  const hit = document.elementFromPoint(x, y);
  if (!hit || hit === this || this.contains(hit) || hit.contains(this)) return null;
  if (hit.getRootNode() !== document && hit.getRootNode().host && this.contains(hit.getRootNode().host)) return null;
  const name = (hit.getAttribute('aria-label') || hit.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 40);
  return '<' + hit.tagName.toLowerCase() + '>' + (name ? ' "' + name + '"' : '');
}"#;

const FOCUS_AND_SELECT: &str = r#"function () {
  // Page globals are not trusted: polyfills (webcomponents.js in Polymer's
  // TodoMVC) replace HTMLInputElement and document with wrappers, so an
  // instanceof check or document.activeElement fails on a real input.
  const tag = this.localName;
  const field = tag === 'input' || tag === 'textarea';
  this.scrollIntoView({ block: 'center', inline: 'center' });
  this.focus();
  try {
    if (field) {
      this.select();
    } else if (this.isContentEditable) {
      const doc = this.ownerDocument;
      const r = doc.createRange();
      r.selectNodeContents(this);
      const s = doc.getSelection();
      s.removeAllRanges();
      s.addRange(r);
    }
  } catch (e) {}
  return (field || this.isContentEditable) && this.matches(':focus, :focus-within');
}"#;

const SELECT_OPTIONS: &str = r#"function (values) {
  if (!(this instanceof HTMLSelectElement)) return { error: 'not a select element' };
  const options = [...this.options];
  const picked = [];
  const missing = [];
  for (const v of values) {
    const o = options.find(o => o.value === v) || options.find(o => o.label === v) || options.find(o => o.textContent.trim() === v);
    if (o) picked.push(o); else missing.push(v);
  }
  if (missing.length) return { error: 'no option ' + JSON.stringify(missing) + '; the options are ' + JSON.stringify(options.map(o => o.label)) };
  if (!this.multiple && picked.length > 1) return { error: 'this select takes one value' };
  for (const o of options) o.selected = picked.includes(o);
  this.dispatchEvent(new Event('input', { bubbles: true }));
  this.dispatchEvent(new Event('change', { bubbles: true }));
  return { selected: picked.map(o => o.label) };
}"#;

fn wait_text(tab: &Page, text: &str, appear: bool, timeout: Duration) -> Result<()> {
    let check = format!(
        "(document.body ? document.body.innerText : '').includes({})",
        js_str(text)
    );
    let deadline = Instant::now() + timeout;
    loop {
        let present = tab
            .evaluate(&check, false, Duration::from_secs(2))
            .ok()
            .and_then(|v| v.as_bool());
        if present == Some(appear) {
            return Ok(());
        }
        if Instant::now() > deadline {
            bail!(Error::User(format!(
                "text {} did not {} within {} s",
                js_str(text),
                if appear { "appear" } else { "disappear" },
                timeout.as_secs()
            )));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The backend id of the first element matching a CSS selector, `None` when
/// nothing matches; an invalid selector is an error naming the field.
fn css_to_backend(tab: &Page, css: &str) -> Result<Option<i64>> {
    let r = tab.call(
        "Runtime.evaluate",
        json!({
            "expression": format!("document.querySelector({})", js_str(css)),
            "returnByValue": false,
        }),
    )?;
    if r.get("exceptionDetails").is_some() {
        bail!(Error::User(format!(
            "invalid option `expectation.snapshotOptions.selector`: `{css}` is neither a ref (e12), a role with an optional quoted name (list \"Cart\"), nor valid CSS"
        )));
    }
    let Some(object) = r.pointer("/result/objectId").and_then(Value::as_str) else {
        return Ok(None);
    };
    let b = tab.backend_of(object)?;
    let _ = tab.call("Runtime.releaseObject", json!({ "objectId": object }));
    Ok(Some(b))
}

/// Outer HTML of the snapshot's scope (the whole document without one).
fn outer_html(
    tab: &Page,
    css_backend: Option<i64>,
    scope: Option<&Selector>,
    tree: &Tree,
    carried: &Carried,
) -> Result<String> {
    let backend = match (css_backend, scope) {
        (Some(b), _) => Some(b),
        (None, Some(sel)) => match tree
            .find(sel)
            .and_then(|e| e.aria_ref.as_ref())
            .and_then(|r| carried.ref_to_node.get(r).copied())
        {
            Some(b) => Some(b),
            None => return Ok(String::new()),
        },
        (None, None) => None,
    };
    match backend {
        None => Ok(tab
            .evaluate(
                "document.documentElement.outerHTML",
                false,
                Duration::from_secs(5),
            )?
            .as_str()
            .unwrap_or_default()
            .to_owned()),
        Some(b) => {
            let object = tab
                .resolve_backend(b)
                .ok_or_else(|| anyhow!(Error::NotOnPage(format!("e{b}"))))?;
            Ok(tab
                .call_on(&object, "function () { return this.outerHTML; }", &[])?
                .as_str()
                .unwrap_or_default()
                .to_owned())
        }
    }
}

fn screenshot(
    tab: &Page,
    full_page: bool,
    target: Option<(&str, i64, String)>,
) -> Result<(Image, String)> {
    let mut params = json!({ "format": "png" });
    let what;
    if let Some((r, backend, object)) = target {
        let _ = tab.call(
            "DOM.scrollIntoViewIfNeeded",
            json!({ "backendNodeId": backend }),
        );
        let rect = tab.call_on(&object,
            "function () { const r = this.getBoundingClientRect(); return [r.x + scrollX, r.y + scrollY, r.width, r.height]; }",
            &[],
        )?;
        let v: Vec<f64> = rect
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_f64).collect())
            .unwrap_or_default();
        if v.len() != 4 || v[2] < 1.0 || v[3] < 1.0 {
            bail!(Error::User(format!(
                "ref {r} has no visible box to capture"
            )));
        }
        params["clip"] = json!({ "x": v[0], "y": v[1], "width": v[2], "height": v[3], "scale": 1 });
        params["captureBeyondViewport"] = json!(true);
        what = format!("element {r} ({:.0}×{:.0})", v[2], v[3]);
    } else if full_page {
        let m = tab.call("Page.getLayoutMetrics", json!({}))?;
        let size = m.get("cssContentSize").or_else(|| m.get("contentSize"));
        let w = size
            .and_then(|s| s.get("width"))
            .and_then(Value::as_f64)
            .unwrap_or(1280.0);
        let h = size
            .and_then(|s| s.get("height"))
            .and_then(Value::as_f64)
            .unwrap_or(800.0);
        params["clip"] = json!({ "x": 0, "y": 0, "width": w, "height": h, "scale": 1 });
        params["captureBeyondViewport"] = json!(true);
        what = format!("the full page ({w:.0}×{h:.0})");
    } else {
        what = "the viewport".into();
    }
    let r = tab.call("Page.captureScreenshot", params)?;
    let data = r
        .get("data")
        .and_then(Value::as_str)
        .ok_or_else(|| anyhow!("the browser returned no screenshot"))?;
    let bytes = base64::engine::general_purpose::STANDARD.decode(data)?;
    Ok((
        Image {
            mime_type: "image/png".into(),
            data: bytes,
        },
        what,
    ))
}

/// Runs the core's page-side extractor and parses its result.
pub fn capture_fingerprint(
    tab: &Page,
    scope: Option<&str>,
    depth: Option<&str>,
) -> Result<Fingerprint> {
    let scope: Scope = match scope {
        Some(s) => s.parse()?,
        None => Scope::Full,
    };
    let depth: Depth = match depth {
        Some(d) => d.parse()?,
        None => Depth::Standard,
    };
    let js = ExtractOptions::new(scope, depth).expression();
    let v = tab.evaluate(&js, false, Duration::from_secs(10))?;
    let json = v
        .as_str()
        .ok_or_else(|| anyhow!("the fingerprint extractor returned no JSON"))?;
    Ok(Fingerprint::from_json(json)?)
}
