//! One Chromium, launched lazily through `headless_chrome`, and the CDP
//! calls the tools need.
//!
//! Version-sensitive calls go through raw JSON ([`raw`]): the protocol
//! bundled with headless_chrome is older than Debian's Chromium, and its typed
//! return objects fail on enum values it does not know (TOOLCHAIN.md).

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use headless_chrome::protocol::cdp::types::{Event, Method};
use headless_chrome::{Browser, LaunchOptions, Tab};
use serde_json::{Value, json};

/// Declares raw CDP methods: params and result are plain JSON.
macro_rules! raw_methods {
    ($($ty:ident = $name:literal),* $(,)?) => {
        $(
            #[derive(Debug, serde::Serialize)]
            #[serde(transparent)]
            pub struct $ty(pub Value);
            impl Method for $ty {
                const NAME: &'static str = $name;
                type ReturnObject = Value;
            }
        )*
    };
}

/// Raw CDP methods (JSON in, JSON out).
pub mod raw {
    use super::*;
    raw_methods!(
        AccessibilityEnable = "Accessibility.enable",
        GetFullAxTree = "Accessibility.getFullAXTree",
        DomEnable = "DOM.enable",
        DomGetDocument = "DOM.getDocument",
        DomResolveNode = "DOM.resolveNode",
        DomDescribeNode = "DOM.describeNode",
        DomScrollIntoView = "DOM.scrollIntoViewIfNeeded",
        DomGetContentQuads = "DOM.getContentQuads",
        DomFocus = "DOM.focus",
        RuntimeEvaluate = "Runtime.evaluate",
        RuntimeCallFunctionOn = "Runtime.callFunctionOn",
        RuntimeReleaseObject = "Runtime.releaseObject",
        InputMouse = "Input.dispatchMouseEvent",
        InputKey = "Input.dispatchKeyEvent",
        InputInsertText = "Input.insertText",
        PageNavigate = "Page.navigate",
        PageHistory = "Page.getNavigationHistory",
        PageHistoryEntry = "Page.navigateToHistoryEntry",
        PageScreenshot = "Page.captureScreenshot",
        PageLayoutMetrics = "Page.getLayoutMetrics",
        PageHandleDialog = "Page.handleJavaScriptDialog",
        BrowserVersion = "Browser.getVersion",
    );
}

/// Launch settings (from the command line).
#[derive(Debug, Clone)]
pub struct BrowserConfig {
    /// Chromium binary; `None` finds one ([`find_chromium`]).
    pub executable: Option<PathBuf>,
    /// Headless (the default) or headed.
    pub headless: bool,
    /// Window (viewport) size in CSS pixels.
    pub viewport: (u32, u32),
    /// Profile directory; `None` makes a fresh one per launch, removed on exit.
    pub user_data_dir: Option<PathBuf>,
    /// Time limit of one action (navigation, waiting for an element).
    pub action_timeout: Duration,
}

impl Default for BrowserConfig {
    fn default() -> Self {
        BrowserConfig {
            executable: None,
            headless: true,
            viewport: (1280, 800),
            user_data_dir: None,
            action_timeout: Duration::from_secs(30),
        }
    }
}

/// The Chromium binary: `$CHROMIUM`, Debian's real binary behind the
/// `/usr/bin/chromium` wrapper, the wrapper, then other usual names on `PATH`.
pub fn find_chromium() -> Result<PathBuf> {
    if let Some(p) = std::env::var_os("CHROMIUM") {
        return Ok(PathBuf::from(p));
    }
    for p in ["/usr/lib/chromium/chromium", "/usr/bin/chromium"] {
        if Path::new(p).exists() {
            return Ok(PathBuf::from(p));
        }
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&path) {
        for name in [
            "chromium",
            "chromium-browser",
            "google-chrome",
            "google-chrome-stable",
        ] {
            let p = dir.join(name);
            if p.exists() {
                return Ok(p);
            }
        }
    }
    bail!(
        "no Chromium found; install it (`make setup`, or apt-get install chromium) or pass --executable-path"
    )
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() == 0 }
}

/// Whether a process exists and is not a zombie.
pub fn process_alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the parenthesised command name.
        Ok(stat) => stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.trim_start().chars().next())
            .is_some_and(|state| state != 'Z' && state != 'X'),
        Err(_) => false,
    }
}

/// Kills a process we started (the browser) by its id.
pub fn kill_process(pid: u32) {
    if pid > 1 {
        // SAFETY: plain syscall on a pid this server launched.
        unsafe {
            libc::kill(pid as libc::pid_t, libc::SIGKILL);
        }
    }
}

static PROFILES: AtomicU64 = AtomicU64::new(0);

/// A console message as captured from the page.
#[derive(Debug, Clone)]
pub struct ConsoleEntry {
    /// Browser level (`log`, `warning`, `error`, …).
    pub level: String,
    /// Text.
    pub text: String,
    /// `url:line`, when known.
    pub location: Option<String>,
}

/// What the event listener of one tab collects.
#[derive(Debug, Default)]
pub struct TabEvents {
    /// Console messages since the last main-frame navigation.
    pub console: Vec<ConsoleEntry>,
    /// Messages already shown in a response (an index into `console`).
    pub reported: usize,
    /// Messages dropped from the front (cap).
    pub dropped: usize,
    /// Markers seen by [`Session::sync_events`].
    pub last_marker: u64,
    /// Main-frame navigations requested or started (counter).
    pub navigations: u64,
    /// Dialogs the server accepted, not yet reported.
    pub dialogs: Vec<String>,
}

const CONSOLE_CAP: usize = 2_000;
const MARKER: &str = "__response_diff_sync__";

/// One open tab and what its listener collected.
pub struct TabHandle {
    /// The tab.
    pub tab: Arc<Tab>,
    /// Events collected by its listener.
    pub events: Arc<Mutex<TabEvents>>,
}

impl TabHandle {
    /// The CDP target id; used as the key of the tab's diff chains.
    pub fn id(&self) -> String {
        self.tab.get_target_id().clone()
    }
}

/// A launched browser with its tabs.
pub struct Session {
    browser: Option<Browser>,
    profile: Option<PathBuf>,
    pid: Option<u32>,
    tabs: Vec<TabHandle>,
    current: usize,
    next_marker: u64,
    /// Action time limit.
    pub action_timeout: Duration,
}

impl Drop for Session {
    fn drop(&mut self) {
        drop(self.browser.take());
        if let Some(pid) = self.pid {
            // headless_chrome kills its child on drop; make sure.
            if process_alive(pid) {
                kill_process(pid);
            }
        }
        if let Some(dir) = self.profile.take() {
            for _ in 0..20 {
                if std::fs::remove_dir_all(&dir).is_ok() || !dir.exists() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        }
    }
}

impl Session {
    /// Launches Chromium and opens one tab. `pid_slot` receives the browser's
    /// process id (the server's watchdog kills it when a call hangs).
    pub fn launch(config: &BrowserConfig, pid_slot: &AtomicU32) -> Result<Session> {
        let path = match &config.executable {
            Some(p) => p.clone(),
            None => find_chromium()?,
        };
        let (profile, owned) = match &config.user_data_dir {
            Some(dir) => {
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("creating {}", dir.display()))?;
                (dir.clone(), false)
            }
            None => {
                let dir = std::env::temp_dir().join(format!(
                    "response-diff-profile-{}-{}",
                    std::process::id(),
                    PROFILES.fetch_add(1, Ordering::Relaxed)
                ));
                let _ = std::fs::remove_dir_all(&dir);
                std::fs::create_dir_all(&dir)
                    .with_context(|| format!("creating {}", dir.display()))?;
                (dir, true)
            }
        };
        let args: Vec<&OsStr> = [
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-extensions",
            "--disable-default-apps",
            "--mute-audio",
            "--hide-scrollbars",
            "--no-default-browser-check",
        ]
        .iter()
        .map(OsStr::new)
        .collect();
        let options = LaunchOptions::default_builder()
            .path(Some(path.clone()))
            .headless(config.headless)
            .sandbox(!is_root())
            .window_size(Some(config.viewport))
            .user_data_dir(Some(profile.clone()))
            // The server's own watchdog bounds every call; the transport must
            // not drop an idle connection (its default is 30 s).
            .idle_browser_timeout(Duration::from_secs(365 * 24 * 3600))
            .args(args)
            .build()
            .map_err(|e| anyhow!("browser launch options: {e}"))?;
        let browser = Browser::new(options)
            .with_context(|| format!("launching Chromium ({})", path.display()))?;
        let pid = browser.get_process_id();
        pid_slot.store(pid.unwrap_or(0), Ordering::SeqCst);
        let mut session = Session {
            browser: Some(browser),
            profile: owned.then_some(profile),
            pid,
            tabs: Vec::new(),
            current: 0,
            next_marker: 1,
            action_timeout: config.action_timeout,
        };
        let tab = session
            .browser()
            .new_tab()
            .context("opening the first tab")?;
        session.adopt(tab)?;
        // Close the launch's own about:blank tab: ours is the one to show.
        let others: Vec<Arc<Tab>> = session
            .browser()
            .get_tabs()
            .lock()
            .map_err(|_| anyhow!("tab list poisoned"))?
            .iter()
            .filter(|t| t.get_target_id() != session.tabs[0].tab.get_target_id())
            .cloned()
            .collect();
        for t in others {
            let _ = t.close(false);
        }
        Ok(session)
    }

    fn browser(&self) -> &Browser {
        self.browser.as_ref().expect("present until drop")
    }

    /// The browser's process id.
    pub fn pid(&self) -> Option<u32> {
        self.pid
    }

    /// Whether the browser process and its connection are alive.
    pub fn is_alive(&self) -> bool {
        if let Some(pid) = self.pid
            && !process_alive(pid)
        {
            return false;
        }
        self.browser().get_version().is_ok()
    }

    /// Instruments a tab: console, exceptions, dialogs, navigations.
    fn adopt(&mut self, tab: Arc<Tab>) -> Result<usize> {
        tab.set_default_timeout(self.action_timeout);
        let events = Arc::new(Mutex::new(TabEvents::default()));
        let sink = Arc::clone(&events);
        let main_frame = tab.get_target_id().clone();
        let dialog_tab = Arc::downgrade(&tab);
        tab.add_event_listener(Arc::new(move |event: &Event| {
            on_event(event, &sink, &main_frame, &dialog_tab);
        }))?;
        tab.enable_runtime()?;
        tab.enable_log()?;
        tab.call_method(raw::DomEnable(json!({})))?;
        tab.call_method(raw::AccessibilityEnable(json!({})))?;
        self.tabs.push(TabHandle { tab, events });
        Ok(self.tabs.len() - 1)
    }

    /// Brings the tab list in line with the browser's: adopts tabs the page
    /// opened, forgets closed ones.
    pub fn sync_tabs(&mut self) -> Result<()> {
        let live: Vec<Arc<Tab>> = self
            .browser()
            .get_tabs()
            .lock()
            .map_err(|_| anyhow!("tab list poisoned"))?
            .clone();
        let current_id = self.tabs.get(self.current).map(TabHandle::id);
        self.tabs
            .retain(|h| live.iter().any(|t| t.get_target_id() == h.tab.get_target_id()));
        for t in live {
            if !self.tabs.iter().any(|h| h.tab.get_target_id() == t.get_target_id()) {
                self.adopt(t)?;
            }
        }
        self.current = current_id
            .and_then(|id| self.tabs.iter().position(|h| h.id() == id))
            .unwrap_or(0);
        if self.tabs.is_empty() {
            let tab = self.browser().new_tab()?;
            self.adopt(tab)?;
            self.current = 0;
        }
        Ok(())
    }

    /// The current tab.
    pub fn current(&self) -> &TabHandle {
        &self.tabs[self.current]
    }

    /// Index of the current tab.
    pub fn current_index(&self) -> usize {
        self.current
    }

    /// All tabs.
    pub fn tabs(&self) -> &[TabHandle] {
        &self.tabs
    }

    /// Opens a tab and makes it current.
    pub fn new_tab(&mut self) -> Result<usize> {
        let tab = self.browser().new_tab().context("opening a tab")?;
        let i = self.adopt(tab)?;
        self.current = i;
        Ok(i)
    }

    /// Makes tab `i` current.
    pub fn select(&mut self, i: usize) -> Result<()> {
        let h = self.tabs.get(i).ok_or_else(|| {
            anyhow!(
                "there is no tab {i}; open tabs are 0..{}",
                self.tabs.len().saturating_sub(1)
            )
        })?;
        let _ = h.tab.activate();
        self.current = i;
        Ok(())
    }

    /// Closes tab `i`; the current tab becomes the previous one.
    pub fn close_tab(&mut self, i: usize) -> Result<()> {
        if i >= self.tabs.len() {
            bail!(
                "there is no tab {i}; open tabs are 0..{}",
                self.tabs.len().saturating_sub(1)
            );
        }
        let h = self.tabs.remove(i);
        let _ = h.tab.close(false);
        if self.tabs.is_empty() {
            self.new_tab()?;
        }
        if self.current >= i && self.current > 0 {
            self.current -= 1;
        }
        self.current = self.current.min(self.tabs.len() - 1);
        Ok(())
    }

    /// Waits until the listener of the current tab has handled every event
    /// the page sent before now (a console marker round trip), so console
    /// messages and navigations caused by an action are all seen.
    pub fn sync_events(&mut self) {
        let marker = self.next_marker;
        self.next_marker += 1;
        let h = &self.tabs[self.current];
        let expr = format!("console.debug('{MARKER}{marker}')");
        if evaluate(&h.tab, &expr, false, Duration::from_secs(5)).is_err() {
            return;
        }
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline {
            if lock(&h.events).last_marker >= marker {
                return;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        tracing::debug!("event sync marker {marker} not seen in 2 s");
    }
}

/// Locks a mutex, ignoring poisoning (the data is plain bookkeeping).
pub fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn on_event(
    event: &Event,
    sink: &Mutex<TabEvents>,
    main_frame: &str,
    tab: &std::sync::Weak<Tab>,
) {
    match event {
        Event::RuntimeConsoleAPICalled(e) => {
            let p = &e.params;
            let text = p
                .args
                .iter()
                .map(|a| match &a.value {
                    Some(Value::String(s)) => s.clone(),
                    Some(v) => v.to_string(),
                    None => a
                        .description
                        .clone()
                        .unwrap_or_else(|| format!("{:?}", a.Type).to_lowercase()),
                })
                .collect::<Vec<_>>()
                .join(" ");
            let mut ev = lock(sink);
            if let Some(n) = text.strip_prefix(MARKER) {
                if let Ok(n) = n.parse::<u64>() {
                    ev.last_marker = ev.last_marker.max(n);
                }
                return;
            }
            let level = format!("{:?}", p.Type).to_lowercase();
            let location = p.stack_trace.as_ref().and_then(|s| {
                s.call_frames
                    .first()
                    .filter(|f| !f.url.is_empty())
                    .map(|f| format!("{}:{}", short_url(&f.url), f.line_number + 1))
            });
            push(&mut ev, level, text, location);
        }
        Event::RuntimeExceptionThrown(e) => {
            let d = &e.params.exception_details;
            let text = d
                .exception
                .as_ref()
                .and_then(|x| x.description.clone())
                .map(|s| s.lines().next().unwrap_or_default().to_owned())
                .unwrap_or_else(|| d.text.clone());
            let location = d
                .url
                .as_ref()
                .filter(|u| !u.is_empty())
                .map(|u| format!("{}:{}", short_url(u), d.line_number + 1));
            push(
                &mut lock(sink),
                "error".into(),
                format!("Uncaught {text}"),
                location,
            );
        }
        Event::LogEntryAdded(e) => {
            let entry = &e.params.entry;
            let level = format!("{:?}", entry.level).to_lowercase();
            let location = entry.url.as_ref().map(|u| short_url(u).to_owned());
            push(&mut lock(sink), level, entry.text.clone(), location);
        }
        Event::PageFrameRequestedNavigation(e) if e.params.frame_id == main_frame => {
            lock(sink).navigations += 1;
        }
        Event::PageFrameStartedLoading(e) if e.params.frame_id == main_frame => {
            lock(sink).navigations += 1;
        }
        Event::PageFrameNavigated(e)
            if e.params.frame.parent_id.is_none() && e.params.frame.id == main_frame =>
        {
            let mut ev = lock(sink);
            ev.console.clear();
            ev.reported = 0;
            ev.dropped = 0;
        }
        Event::PageJavascriptDialogOpening(e) => {
            // A dialog blocks the page (and every evaluation) until handled:
            // accept it and tell the agent in the next response.
            let p = &e.params;
            let kind = format!("{:?}", p.Type).to_lowercase();
            lock(sink)
                .dialogs
                .push(format!("{kind} \"{}\" (accepted)", p.message));
            if let Some(tab) = tab.upgrade() {
                let prompt = p.default_prompt.clone().unwrap_or_default();
                std::thread::spawn(move || {
                    let _ = tab.call_method(raw::PageHandleDialog(
                        json!({"accept": true, "promptText": prompt}),
                    ));
                });
            }
        }
        _ => {}
    }
}

fn push(ev: &mut TabEvents, level: String, text: String, location: Option<String>) {
    ev.console.push(ConsoleEntry {
        level,
        text,
        location,
    });
    if ev.console.len() > CONSOLE_CAP {
        let extra = ev.console.len() - CONSOLE_CAP;
        ev.console.drain(..extra);
        ev.reported = ev.reported.saturating_sub(extra);
        ev.dropped += extra;
    }
}

/// `http://127.0.0.1:8000/app.js` → `/app.js` for locations (the host is
/// the page's own nearly always).
fn short_url(url: &str) -> &str {
    url.split_once("://")
        .and_then(|(_, rest)| rest.find('/').map(|i| &rest[i..]))
        .unwrap_or(url)
}

/// Evaluates `expression` in the page and returns its value (by value).
/// A thrown exception is an error with its message.
pub fn evaluate(tab: &Tab, expression: &str, await_promise: bool, timeout: Duration) -> Result<Value> {
    let r = tab.call_method(raw::RuntimeEvaluate(json!({
        "expression": expression,
        "returnByValue": true,
        "awaitPromise": await_promise,
        "timeout": timeout.as_millis() as u64,
        "userGesture": true,
    })))?;
    result_value(r)
}

/// Calls `function` (a JS function declaration) with `this` = the object.
pub fn call_on(tab: &Tab, object_id: &str, function: &str, args: &[Value]) -> Result<Value> {
    let arguments: Vec<Value> = args.iter().map(|v| json!({ "value": v })).collect();
    let r = tab.call_method(raw::RuntimeCallFunctionOn(json!({
        "objectId": object_id,
        "functionDeclaration": function,
        "arguments": arguments,
        "returnByValue": true,
        "awaitPromise": true,
        "userGesture": true,
    })))?;
    result_value(r)
}

fn result_value(r: Value) -> Result<Value> {
    if let Some(ex) = r.get("exceptionDetails") {
        let msg = ex
            .pointer("/exception/description")
            .and_then(Value::as_str)
            .map(|s| s.lines().next().unwrap_or_default().to_owned())
            .or_else(|| ex.get("text").and_then(Value::as_str).map(str::to_owned))
            .unwrap_or_else(|| "unknown error".into());
        bail!(JsError(msg));
    }
    let result = r.get("result").cloned().unwrap_or(Value::Null);
    match result.get("type").and_then(Value::as_str) {
        Some("undefined") => Ok(Value::Null),
        _ => Ok(result.get("value").cloned().unwrap_or_else(|| {
            // Not serializable by value (a function, a DOM node, …).
            result
                .get("description")
                .cloned()
                .unwrap_or(Value::Null)
        })),
    }
}

/// An exception thrown by page JavaScript.
#[derive(Debug)]
pub struct JsError(pub String);

impl std::fmt::Display for JsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for JsError {}

/// Resolves a backend node id to a JS object id; `None` when the node is gone
/// or detached from the document.
pub fn resolve_backend(tab: &Tab, backend_id: i64) -> Option<String> {
    let r = tab
        .call_method(raw::DomResolveNode(json!({ "backendNodeId": backend_id })))
        .ok()?;
    let id = r.pointer("/object/objectId")?.as_str()?.to_owned();
    let connected = call_on(tab, &id, "function() { return this.isConnected; }", &[])
        .ok()
        .and_then(|v| v.as_bool())
        .unwrap_or(false);
    connected.then_some(id)
}

/// The backend node id of a JS object (a DOM node).
pub fn backend_of(tab: &Tab, object_id: &str) -> Result<i64> {
    let r = tab.call_method(raw::DomDescribeNode(json!({ "objectId": object_id })))?;
    r.pointer("/node/backendNodeId")
        .and_then(Value::as_i64)
        .ok_or_else(|| anyhow!("the element has no backend node id"))
}

/// Scrolls the node into view and returns the centre of its first content
/// quad in viewport coordinates.
pub fn center_of(tab: &Tab, backend_id: i64) -> Result<(f64, f64)> {
    let _ = tab.call_method(raw::DomScrollIntoView(json!({ "backendNodeId": backend_id })));
    let r = tab.call_method(raw::DomGetContentQuads(json!({ "backendNodeId": backend_id })))?;
    let quads = r
        .get("quads")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    for q in quads {
        let p: Vec<f64> = q
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_f64).collect())
            .unwrap_or_default();
        if p.len() == 8 {
            let area = ((p[0] * p[3] - p[2] * p[1])
                + (p[2] * p[5] - p[4] * p[3])
                + (p[4] * p[7] - p[6] * p[5])
                + (p[6] * p[1] - p[0] * p[7]))
                .abs()
                / 2.0;
            if area > 0.5 {
                let x = (p[0] + p[2] + p[4] + p[6]) / 4.0;
                let y = (p[1] + p[3] + p[5] + p[7]) / 4.0;
                return Ok((x, y));
            }
        }
    }
    bail!(NotVisible)
}

/// The element has no visible box (hidden, zero-sized or not rendered).
#[derive(Debug)]
pub struct NotVisible;

impl std::fmt::Display for NotVisible {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the element is not visible (no box on screen)")
    }
}

impl std::error::Error for NotVisible {}

/// Mouse event at a point.
pub fn mouse(tab: &Tab, kind: &str, x: f64, y: f64, button: &str, clicks: u32) -> Result<()> {
    tab.call_method(raw::InputMouse(json!({
        "type": kind, "x": x, "y": y, "button": button, "clickCount": clicks,
        "buttons": if kind == "mousePressed" { button_mask(button) } else { 0 },
    })))?;
    Ok(())
}

fn button_mask(button: &str) -> u32 {
    match button {
        "left" => 1,
        "right" => 2,
        "middle" => 4,
        _ => 0,
    }
}

/// Waits until a new document has finished loading in `tab` (the old one was
/// marked with `window.__rdOld` before the navigation).
pub fn wait_for_load(tab: &Tab, timeout: Duration) -> Result<()> {
    let deadline = Instant::now() + timeout;
    loop {
        let done = evaluate(
            tab,
            "!window.__rdOld && document.readyState === 'complete'",
            false,
            Duration::from_secs(2),
        )
        .ok()
        .and_then(|v| v.as_bool())
        .unwrap_or(false);
        if done {
            return Ok(());
        }
        if Instant::now() > deadline {
            bail!(Timeout(timeout));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Marks the current document so [`wait_for_load`] can tell the next one apart.
pub fn mark_document(tab: &Tab) {
    let _ = evaluate(tab, "window.__rdOld = true", false, Duration::from_secs(2));
}

/// A wait ran out of time.
#[derive(Debug)]
pub struct Timeout(pub Duration);

impl std::fmt::Display for Timeout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "timed out after {} s", self.0.as_secs_f64())
    }
}

impl std::error::Error for Timeout {}
