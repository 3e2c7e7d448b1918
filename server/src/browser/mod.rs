//! One Chromium, launched lazily by `headless_chrome`, and the CDP calls the
//! tools need.
//!
//! headless_chrome launches and supervises the process (flags, profile,
//! DevTools endpoint, kill on drop) and keeps the list of tabs, including
//! the ones a page opens itself. The tools' calls go through [`Cdp`], a
//! second connection to the same browser with one round trip per call (see
//! `cdp.rs` for why), as plain JSON: the protocol bundled with
//! headless_chrome is older than Debian's Chromium and its typed results
//! fail on values it does not know (docs/DECISIONS.md D23).

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use headless_chrome::{Browser, LaunchOptions, Tab};
use serde_json::{Value, json};

use crate::cdp::{Cdp, Listener};
use crate::error::{Error, lock};

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
    /// Time limit of one action (navigation, waiting for text).
    pub action_timeout: Duration,
    /// What happens to JavaScript dialogs (`--dialogs`).
    pub dialogs: crate::modal::DialogPolicy,
    /// Where downloads are saved (`--output-dir`); `None`: a fresh
    /// temporary directory.
    pub output_dir: Option<PathBuf>,
    /// Directories files may be uploaded from (`--upload-root`); empty:
    /// the working directory.
    pub upload_roots: Vec<PathBuf>,
    /// More Chromium flags for a launch (proxy, user agent, certificate
    /// errors; see `crate::context`).
    pub extra_args: Vec<String>,
}

impl Default for BrowserConfig {
    fn default() -> Self {
        BrowserConfig {
            executable: None,
            headless: true,
            viewport: (1280, 800),
            user_data_dir: None,
            action_timeout: Duration::from_secs(30),
            dialogs: crate::modal::DialogPolicy::Ask,
            output_dir: None,
            upload_roots: Vec::new(),
            extra_args: Vec::new(),
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

/// Kills a process this server started (the browser), by its id.
pub fn kill_process(pid: u32) {
    if pid > 1 {
        // SAFETY: a plain syscall on a pid this server launched.
        unsafe {
            libc::kill(pid as libc::pid_t, libc::SIGKILL);
        }
    }
}

static PROFILES: AtomicU64 = AtomicU64::new(0);
static TAB_KEYS: AtomicU64 = AtomicU64::new(1);

/// Removes fresh profiles that servers no longer running left behind (a
/// killed browser's helper processes can still be writing when its session
/// is dropped, so its profile may outlive the server). Profiles of running
/// servers, this one included, are left alone.
fn remove_stale_profiles() {
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(rest) = name
            .to_str()
            .and_then(|n| n.strip_prefix("response-diff-profile-"))
        else {
            continue;
        };
        let Some(pid) = rest.split('-').next().and_then(|p| p.parse::<u32>().ok()) else {
            continue;
        };
        let is_dir = entry.file_type().map(|t| t.is_dir()).unwrap_or(false);
        if is_dir && !process_alive(pid) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// A console message as captured from the page.
#[derive(Debug, Clone)]
pub struct ConsoleEntry {
    /// Browser level (`log`, `warning`, `error`, …).
    pub level: String,
    /// Text.
    pub text: String,
    /// `path:line`, when known.
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
    /// Highest marker seen by [`Page::sync_events`].
    pub last_marker: u64,
    /// Navigations and requests in flight, for waiting after an action.
    pub activity: crate::settle::Activity,
    /// Dialogs the server answered itself (`--dialogs accept|dismiss`),
    /// not yet reported.
    pub dialogs: Vec<String>,
    /// Modal states the agent has to answer, oldest first.
    pub modal: Vec<crate::modal::ModalState>,
    /// Dialogs answered whose `Page.javascriptDialogClosed` has not come yet.
    pub answered_dialogs: u32,
    /// The tab's own CDP session, and the session whose dialog is open (the
    /// tab's, or an out-of-process frame's: the answer goes there).
    pub tab_session: String,
    /// The session of the open dialog, when one is open.
    pub dialog_session: Option<String>,
    /// How dialogs are answered (`--dialogs`), for the tab and its frames.
    pub dialog_policy: crate::modal::DialogPolicy,
    /// The tab's renderer process died (`Inspector.targetCrashed`); calls
    /// fail at once until [`Page::recover`] reloads it.
    pub crashed: bool,
    /// Main-frame load events (`Page.loadEventFired`), a counter.
    pub loads: u64,
    /// `loads` when the document was last marked ([`Page::mark`]).
    pub loads_at_mark: u64,
    /// How long the tab had been unanswering when a page script was last
    /// stopped ([`Page::stop_scripts`]), until a response reports it.
    pub stopped_script: Option<Duration>,
    /// Requests since the last navigation (`browser_network_requests`).
    pub network: crate::network::NetworkLog,
    /// The drag data of an HTML5 drag Chromium handed over while drags
    /// are intercepted (`Input.dragIntercepted`; see `engine::pointer`).
    pub drag_data: Option<Value>,
    /// The tab's out-of-process frames (see `frames.rs`).
    pub frames: crate::frames::Frames,
}

const CONSOLE_CAP: usize = 2_000;
const MARKER: &str = "__response_diff_sync__";
static MARKERS: AtomicU64 = AtomicU64::new(1);

/// One tab: headless_chrome's handle and our CDP session on it.
#[derive(Clone)]
pub struct Page {
    /// headless_chrome's handle on the same tab, once it has registered it
    /// (used for keys outside our own small table).
    tab: Option<Arc<Tab>>,
    cdp: Arc<Cdp>,
    session: String,
    target: String,
    key: String,
    /// Events collected by the listener.
    pub events: Arc<Mutex<TabEvents>>,
    timeout: Duration,
}

impl Page {
    /// A short, stable key for this tab (`tab1`, `tab2`, …): the key of its
    /// diff chains and `since` reads.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// The CDP target id.
    pub fn target_id(&self) -> &str {
        &self.target
    }

    /// The CDP session id this page's calls go to.
    pub fn session_id(&self) -> &str {
        &self.session
    }

    /// The connection to the browser.
    pub fn cdp(&self) -> Arc<Cdp> {
        Arc::clone(&self.cdp)
    }

    /// The same tab, its calls going to the session of one of its
    /// out-of-process frames (`frames.rs`).
    pub fn for_frame(&self, session: &str, target: &str) -> Page {
        Page {
            session: session.to_owned(),
            target: target.to_owned(),
            ..self.clone()
        }
    }

    /// Calls a CDP method on this tab's session. A tab that does not
    /// answer in time is most likely stuck in a page script: it is stopped
    /// ([`Page::stop_scripts`]) so that the next call is answered.
    pub fn call(&self, method: &str, params: Value) -> Result<Value> {
        let r = self.call_within(method, params, self.timeout + Duration::from_secs(5));
        if let Err(e) = &r
            && Error::is_call_timeout(e)
        {
            self.stop_scripts(self.timeout + Duration::from_secs(5));
        }
        r
    }

    /// Calls a CDP method on this tab's session, waiting at most `timeout`.
    /// On a crashed tab it fails at once ([`Error::PageCrashed`]): the answer
    /// would never come.
    pub fn call_within(&self, method: &str, params: Value, timeout: Duration) -> Result<Value> {
        if self.crashed() {
            bail!(Error::PageCrashed);
        }
        self.cdp.call(Some(&self.session), method, params, timeout)
    }

    /// Whether the tab's renderer process died.
    pub fn crashed(&self) -> bool {
        lock(&self.events).crashed
    }

    /// Whether the tab can still answer: its renderer is alive, the
    /// connection to the browser open and no dialog holds the page.
    pub fn answers(&self) -> bool {
        !self.crashed() && self.cdp.is_open() && !self.dialog_open()
    }

    /// The modal state the agent has to answer first, if any.
    pub fn modal(&self) -> Option<crate::modal::ModalState> {
        lock(&self.events).modal.first().cloned()
    }

    /// Whether a JavaScript dialog holds the page.
    pub fn dialog_open(&self) -> bool {
        lock(&self.events).modal.iter().any(|m| m.is_dialog())
    }

    /// Closes the open dialog: accepts it (a prompt with `prompt_text`,
    /// or its default text) or dismisses it.
    pub fn answer_dialog(&self, accept: bool, prompt_text: Option<&str>) -> Result<()> {
        let mut params = json!({ "accept": accept });
        if let Some(t) = prompt_text {
            params["promptText"] = json!(t);
        }
        // A dialog of an out-of-process frame is answered in its session.
        let target = lock(&self.events)
            .dialog_session
            .clone()
            .unwrap_or_else(|| self.session.clone());
        self.cdp.call(
            Some(&target),
            "Page.handleJavaScriptDialog",
            params,
            Duration::from_secs(5),
        )?;
        // The browser's `javascriptDialogClosed` for this one may come
        // after a next dialog's `Opening`: it is counted, not matched.
        let mut ev = lock(&self.events);
        ev.answered_dialogs += 1;
        close_first_dialog(&mut ev, &self.cdp, &self.session);
        Ok(())
    }

    /// Forgets the file chooser state (answered or cancelled).
    pub fn clear_file_chooser(&self) {
        lock(&self.events).modal.retain(|m| m.is_dialog());
    }

    /// URL and title as the browser knows them (works while a dialog holds
    /// the page, when the page itself answers no script).
    pub fn target_info(&self) -> Option<(String, String)> {
        let r = self
            .cdp
            .call(
                None,
                "Target.getTargetInfo",
                json!({ "targetId": self.target }),
                Duration::from_secs(5),
            )
            .ok()?;
        let s = |k: &str| {
            r.pointer(&format!("/targetInfo/{k}"))
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned()
        };
        Some((s("url"), s("title")))
    }

    /// Reloads a crashed tab in a new renderer process (the browser
    /// handles `Page.reload` itself, so a dead renderer can be replaced),
    /// waiting at most `timeout` for it to load.
    pub fn recover(&self, timeout: Duration) -> Result<()> {
        {
            let mut ev = lock(&self.events);
            ev.loads_at_mark = ev.loads;
        }
        self.cdp.call(
            Some(&self.session),
            "Page.reload",
            json!({}),
            Duration::from_secs(10),
        )?;
        lock(&self.events).crashed = false;
        // The new document carries no token yet, so any token waits for it.
        self.wait_loaded(0, timeout)
    }

    /// Evaluates `expression` in the page and returns its value (by value).
    /// A thrown exception is a [`Error::Js`] with its message; no answer
    /// within `timeout` is a [`Error::ScriptTimeout`] (see `run_script`).
    pub fn evaluate(
        &self,
        expression: &str,
        await_promise: bool,
        timeout: Duration,
    ) -> Result<Value> {
        let r = self.run_script(
            "Runtime.evaluate",
            json!({
                "expression": expression,
                "returnByValue": true,
                "awaitPromise": await_promise,
                "userGesture": true,
            }),
            timeout,
        )?;
        result_value(r)
    }

    /// Calls `function` (a JS function declaration) with `this` = the
    /// object and `args` as values.
    pub fn call_on(&self, object_id: &str, function: &str, args: &[Value]) -> Result<Value> {
        let arguments: Vec<Value> = args.iter().map(|v| json!({ "value": v })).collect();
        self.call_function(object_id, function, arguments, self.timeout)
    }

    /// Calls `function` with `this` = the object and CDP call arguments
    /// (`{value}` or `{objectId}`); no answer within `timeout` is a
    /// [`Error::ScriptTimeout`] (see `run_script`).
    pub fn call_function(
        &self,
        object_id: &str,
        function: &str,
        arguments: Vec<Value>,
        timeout: Duration,
    ) -> Result<Value> {
        let r = self.run_script(
            "Runtime.callFunctionOn",
            json!({
                "objectId": object_id,
                "functionDeclaration": function,
                "arguments": arguments,
                "returnByValue": true,
                "awaitPromise": true,
                "userGesture": true,
            }),
            timeout,
        )?;
        result_value(r)
    }

    /// Runs a script call that may never return (`while (true) {}`, a
    /// promise that never settles, a page stuck in its own loop): after
    /// `timeout` it is a [`Error::ScriptTimeout`]. When `timeout` is the action's
    /// whole time limit, the running script is also terminated so that the
    /// tab answers again; a short internal probe (page state, load checks)
    /// just gives up, leaving a page that is busy for a moment alone.
    fn run_script(&self, method: &str, params: Value, timeout: Duration) -> Result<Value> {
        match self.call_within(method, params, timeout) {
            Err(e) if Error::is_call_timeout(&e) => {
                if timeout >= self.timeout {
                    self.stop_scripts(timeout);
                }
                Err(anyhow!(Error::ScriptTimeout(timeout)))
            }
            other => other,
        }
    }

    /// Stops the script the tab is running, if any. CDP's
    /// `Runtime.terminateExecution` also stops the *next* script when none
    /// runs, so a throwaway evaluation takes that hit instead of the
    /// agent's next call. `waited` (how long the tab did not answer) is
    /// kept until [`Page::take_stopped_script`] reports it.
    pub fn stop_scripts(&self, waited: Duration) {
        lock(&self.events).stopped_script = Some(waited);
        let quick = Duration::from_secs(2);
        let stopped = self.call_within("Runtime.terminateExecution", json!({}), quick);
        let absorbed = self.call_within("Runtime.evaluate", json!({ "expression": "0" }), quick);
        tracing::warn!(
            "stopped a script that ran past its time limit (terminate: {}, page answers: {})",
            stopped.is_ok(),
            absorbed.is_ok()
        );
    }

    /// The note for a page script stopped since the last call of this
    /// (whoever stopped it: an action's wait, a read, the check before a
    /// call), once.
    pub fn take_stopped_script(&self) -> Option<String> {
        lock(&self.events).stopped_script.take().map(|waited| {
            format!(
                "A script in the page kept it busy for over {} s and was stopped.",
                waited.as_secs()
            )
        })
    }

    /// Resolves a backend node id to a JS object id; `None` when the node
    /// is gone or no longer in the document.
    pub fn resolve_backend(&self, backend_id: i64) -> Option<String> {
        let r = self
            .call("DOM.resolveNode", json!({ "backendNodeId": backend_id }))
            .ok()?;
        let id = r.pointer("/object/objectId")?.as_str()?.to_owned();
        let connected = self
            .call_on(&id, "function() { return this.isConnected; }", &[])
            .ok()
            .and_then(|v| v.as_bool())
            .unwrap_or(false);
        connected.then_some(id)
    }

    /// The backend node id of a JS object (a DOM node).
    pub fn backend_of(&self, object_id: &str) -> Result<i64> {
        let r = self.call("DOM.describeNode", json!({ "objectId": object_id }))?;
        r.pointer("/node/backendNodeId")
            .and_then(Value::as_i64)
            .ok_or_else(|| anyhow!("the element has no backend node id"))
    }

    /// Scrolls the node into view and returns the centre of its first
    /// visible content quad, in viewport coordinates.
    pub fn center_of(&self, backend_id: i64) -> Result<(f64, f64)> {
        let _ = self.call(
            "DOM.scrollIntoViewIfNeeded",
            json!({ "backendNodeId": backend_id }),
        );
        let r = self.call(
            "DOM.getContentQuads",
            json!({ "backendNodeId": backend_id }),
        );
        let quads = r
            .ok()
            .and_then(|r| r.get("quads").and_then(Value::as_array).cloned())
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
        bail!(Error::NotVisible)
    }

    /// A mouse event at a point.
    pub fn mouse(&self, kind: &str, x: f64, y: f64, button: &str, clicks: u32) -> Result<()> {
        let buttons = match (kind, button) {
            ("mousePressed", "left") => 1,
            ("mousePressed", "right") => 2,
            ("mousePressed", "middle") => 4,
            _ => 0,
        };
        self.call(
            "Input.dispatchMouseEvent",
            json!({ "type": kind, "x": x, "y": y, "button": button, "clickCount": clicks, "buttons": buttons }),
        )?;
        Ok(())
    }

    /// Presses and releases a key: common keys here, any other name of
    /// the US layout through headless_chrome's key table.
    pub fn press_key(&self, key: &str) -> Result<()> {
        let def = match key {
            "Enter" => Some(("Enter", "Enter", 13, Some("\r"))),
            "Tab" => Some(("Tab", "Tab", 9, None)),
            "Escape" => Some(("Escape", "Escape", 27, None)),
            "Backspace" => Some(("Backspace", "Backspace", 8, None)),
            "Delete" => Some(("Delete", "Delete", 46, None)),
            "ArrowUp" => Some(("ArrowUp", "ArrowUp", 38, None)),
            "ArrowDown" => Some(("ArrowDown", "ArrowDown", 40, None)),
            "ArrowLeft" => Some(("ArrowLeft", "ArrowLeft", 37, None)),
            "ArrowRight" => Some(("ArrowRight", "ArrowRight", 39, None)),
            "Home" => Some(("Home", "Home", 36, None)),
            "End" => Some(("End", "End", 35, None)),
            "PageUp" => Some(("PageUp", "PageUp", 33, None)),
            "PageDown" => Some(("PageDown", "PageDown", 34, None)),
            " " | "Space" => Some((" ", "Space", 32, Some(" "))),
            _ => None,
        };
        let single = (key.chars().count() == 1).then(|| {
            let c = key.chars().next().unwrap_or(' ');
            let code = if c.is_ascii_alphabetic() {
                format!("Key{}", c.to_ascii_uppercase())
            } else if c.is_ascii_digit() {
                format!("Digit{c}")
            } else {
                String::new()
            };
            let key_code = if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase() as u32
            } else {
                0
            };
            (code, key_code)
        });
        let Some((name, code, key_code, text)) = def.or(match &single {
            Some((code, key_code)) => Some((key, code.as_str(), *key_code, Some(key))),
            None => None,
        }) else {
            let tab = self
                .tab
                .as_ref()
                .ok_or_else(|| anyhow!(Error::UnknownKey(key.to_owned())))?;
            tab.press_key(key)
                .map_err(|_| anyhow!(Error::UnknownKey(key.to_owned())))?;
            return Ok(());
        };
        let down = if text.is_some() {
            "keyDown"
        } else {
            "rawKeyDown"
        };
        for kind in [down, "keyUp"] {
            let mut p = json!({
                "type": kind, "key": name, "code": code,
                "windowsVirtualKeyCode": key_code, "nativeVirtualKeyCode": key_code,
            });
            if let (Some(t), true) = (text, kind != "keyUp") {
                p["text"] = json!(t);
            }
            self.call("Input.dispatchKeyEvent", p)?;
        }
        Ok(())
    }

    /// Marks the current document with a fresh token (see
    /// [`Page::wait_loaded`]) and starts its DOM change clock (see
    /// `settle`). Returns the point in the tab's events from which what
    /// happens counts as caused by the coming action.
    pub fn mark(&self, token: u64) -> crate::settle::Mark {
        {
            let mut ev = lock(&self.events);
            ev.loads_at_mark = ev.loads;
        }
        let _ = self.evaluate(
            &format!("window.__rdDoc = {token}; {}", crate::settle::DOM_CLOCK_JS),
            false,
            Duration::from_secs(2),
        );
        // Events are read in order from one socket: those the page sent
        // before answering are in the record now.
        lock(&self.events).activity.mark()
    }

    /// Waits until a document other than the one marked with `token` has
    /// loaded. (A document restored from the back-forward cache carries an
    /// older token, so it counts as new.) A load event since the mark counts
    /// too: a page whose script keeps it busy right after loading answers
    /// no check, but the browser still reports the load.
    pub fn wait_loaded(&self, token: u64, timeout: Duration) -> Result<()> {
        let deadline = Instant::now() + timeout;
        let check = format!("window.__rdDoc !== {token} && document.readyState === 'complete'");
        let loaded = || {
            let ev = lock(&self.events);
            ev.loads > ev.loads_at_mark
        };
        loop {
            // A dialog the page opened while loading holds the load until
            // the agent answers it: the call returns and reports it.
            if loaded() || self.dialog_open() {
                return Ok(());
            }
            let done = self
                .evaluate(&check, false, Duration::from_millis(500))
                .ok()
                .and_then(|v| v.as_bool())
                .unwrap_or(false);
            if done || loaded() {
                return Ok(());
            }
            if !self.cdp.is_open() {
                bail!(Error::Closed);
            }
            if Instant::now() > deadline {
                bail!(Error::Timeout(timeout));
            }
            std::thread::sleep(Duration::from_millis(15));
        }
    }

    /// Waits until the listener has handled every event the page sent
    /// before now (a console marker round trip), so that console messages
    /// and navigations caused by an action are all seen.
    pub fn sync_events(&self) {
        let marker = MARKERS.fetch_add(1, Ordering::SeqCst);
        let expr = format!("console.debug('{MARKER}{marker}')");
        if self.evaluate(&expr, false, Duration::from_secs(5)).is_err() {
            return;
        }
        // Events are read in order from one socket, so the marker arrives
        // before the evaluation's answer; this loop almost never spins.
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline {
            if lock(&self.events).last_marker >= marker {
                return;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        tracing::debug!("event sync marker {marker} not seen in 2 s");
    }
}

/// One browser process (launched here, or attached to with
/// `--cdp-endpoint`) and our connection to it; every [`Session`] on it
/// holds an `Arc`. Dropping the last one stops a browser launched here and
/// only disconnects from an attached one.
pub struct Chromium {
    browser: Option<Browser>,
    cdp: Arc<Cdp>,
    profile: Option<PathBuf>,
    pid: Option<u32>,
    /// The browser's downloads (`Browser.download*` events come on the
    /// browser's own session, for every context).
    downloads: Arc<Mutex<crate::downloads::Downloads>>,
}

/// The tabs of one browser context: the default context of a launched
/// browser, or a context of its own ([`crate::context`]) that is disposed
/// when the session is dropped.
pub struct Session {
    chromium: Arc<Chromium>,
    cdp: Arc<Cdp>,
    /// The browser context, `None` for the browser's default one.
    context: Option<crate::context::ContextHandle>,
    /// What every tab of this context gets when adopted.
    setup: Arc<crate::context::TabSetup>,
    pages: Vec<Page>,
    current: usize,
    action_timeout: Duration,
    /// Tabs that did not answer when adopted (not retried).
    unusable: Vec<String>,
    /// What happens to JavaScript dialogs (`--dialogs`).
    dialogs: crate::modal::DialogPolicy,
}

impl Drop for Session {
    fn drop(&mut self) {
        if let Some(c) = &self.context {
            for p in &self.pages {
                self.cdp.forget(&p.session);
            }
            c.dispose();
        }
    }
}

impl Drop for Chromium {
    fn drop(&mut self) {
        drop(self.browser.take());
        if let Some(pid) = self.pid
            && process_alive(pid)
        {
            // headless_chrome kills its child on drop; make sure.
            kill_process(pid);
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

fn allow_downloads(cdp: &Cdp, dir: &Path, context: Option<&str>) -> Result<()> {
    let mut params =
        json!({ "behavior": "allowAndName", "downloadPath": dir, "eventsEnabled": true });
    if let Some(c) = context {
        params["browserContextId"] = json!(c);
    }
    cdp.call(
        None,
        "Browser.setDownloadBehavior",
        params,
        Duration::from_secs(5),
    )
    .context("Browser.setDownloadBehavior")?;
    Ok(())
}

/// The flags every Chromium we launch gets (the server's and the browser
/// tests'): no GPU, QUIC, first-run UI, background traffic, sync or
/// extensions, muted, no scrollbars (they would change the viewport).
pub const CHROMIUM_FLAGS: &[&str] = &[
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
];

impl Session {
    /// Launches Chromium and opens one tab in its default context.
    /// `pid_slot` receives the browser's process id (the server's watchdog
    /// kills it when a call hangs).
    pub fn launch(config: &BrowserConfig, pid_slot: &AtomicU32) -> Result<Session> {
        let chromium = Arc::new(Chromium::launch(config, pid_slot)?);
        Session::first(
            chromium,
            Arc::default(),
            config.action_timeout,
            config.dialogs,
        )
    }

    /// The default context of a browser just launched: our first tab, then
    /// the launch's own blank tab closed.
    pub fn first(
        chromium: Arc<Chromium>,
        setup: Arc<crate::context::TabSetup>,
        action_timeout: Duration,
        dialogs: crate::modal::DialogPolicy,
    ) -> Result<Session> {
        let launch_tabs = Session::targets_in(&chromium.cdp, None)?;
        let session = Session::open(chromium, None, setup, action_timeout, dialogs)?;
        // Close the launch's own blank tab.
        for t in launch_tabs {
            let _ = session.cdp.call(
                None,
                "Target.closeTarget",
                json!({ "targetId": t }),
                Duration::from_secs(5),
            );
        }
        Ok(session)
    }

    /// The tabs of a context on `chromium` (`None`: the default context),
    /// with one new tab opened in it.
    pub fn open(
        chromium: Arc<Chromium>,
        context: Option<crate::context::ContextHandle>,
        setup: Arc<crate::context::TabSetup>,
        action_timeout: Duration,
        dialogs: crate::modal::DialogPolicy,
    ) -> Result<Session> {
        let mut session = Session {
            cdp: Arc::clone(&chromium.cdp),
            chromium,
            context,
            setup,
            pages: Vec::new(),
            current: 0,
            action_timeout,
            unusable: Vec::new(),
            dialogs,
        };
        session.new_tab().context("opening the first tab")?;
        Ok(session)
    }

    /// The browser this session's context is in.
    pub fn chromium(&self) -> &Arc<Chromium> {
        &self.chromium
    }

    /// The browser context's id (`None`: the default context).
    pub fn context_id(&self) -> Option<&str> {
        self.context.as_ref().map(|c| c.id())
    }

    /// The browser's process id.
    pub fn pid(&self) -> Option<u32> {
        self.chromium.pid
    }

    /// The handle of this session's own browser context, if it has one.
    pub fn context_handle(&self) -> Option<crate::context::ContextHandle> {
        self.context.clone()
    }

    /// Whether the browser, our connection and this session's context are
    /// alive.
    pub fn is_alive(&self) -> bool {
        !self.context.as_ref().is_some_and(|c| c.is_gone()) && self.chromium.is_alive()
    }

    /// The ids of the page targets of this session's context, in the
    /// browser's order.
    fn page_targets(&self) -> Result<Vec<String>> {
        Session::targets_in(&self.cdp, self.context_id())
    }
}

impl Chromium {
    /// Launches Chromium (no tab of ours yet). `pid_slot` receives the
    /// browser's process id.
    pub fn launch(config: &BrowserConfig, pid_slot: &AtomicU32) -> Result<Chromium> {
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
                remove_stale_profiles();
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
        let args: Vec<&OsStr> = CHROMIUM_FLAGS
            .iter()
            .copied()
            .chain(config.extra_args.iter().map(String::as_str))
            .map(OsStr::new)
            .collect();
        let options = LaunchOptions::default_builder()
            .path(Some(path.clone()))
            .headless(config.headless)
            .sandbox(!is_root())
            .window_size(Some(config.viewport))
            .user_data_dir(Some(profile.clone()))
            // headless_chrome drops a connection idle for this long (default
            // 30 s); ours stays open as long as the server runs.
            .idle_browser_timeout(Duration::from_secs(365 * 24 * 3600))
            .args(args)
            .build()
            .map_err(|e| anyhow!("browser launch options: {e}"))?;
        let browser = Browser::new(options)
            .with_context(|| format!("launching Chromium ({})", path.display()))?;
        let pid = browser.get_process_id();
        pid_slot.store(pid.unwrap_or(0), Ordering::SeqCst);
        let cdp = Arc::new(Cdp::connect(&browser.get_ws_url())?);
        let downloads = Chromium::watch_downloads(&cdp, config.output_dir.as_deref())?;
        Ok(Chromium {
            browser: Some(browser),
            cdp,
            profile: owned.then_some(profile),
            pid,
            downloads,
        })
    }

    /// Attaches to a running browser's WebSocket endpoint. It is never
    /// stopped from here: dropping the handle only disconnects.
    pub fn attach(ws_url: &str, output_dir: Option<&Path>) -> Result<Chromium> {
        let cdp = Arc::new(Cdp::connect(ws_url)?);
        let downloads = Chromium::watch_downloads(&cdp, output_dir)?;
        Ok(Chromium {
            browser: None,
            cdp,
            profile: None,
            pid: None,
            downloads,
        })
    }

    /// Saves the downloads of the browser's default context under the
    /// output directory and records them from the browser's events.
    fn watch_downloads(
        cdp: &Arc<Cdp>,
        output_dir: Option<&Path>,
    ) -> Result<Arc<Mutex<crate::downloads::Downloads>>> {
        let out_dir = crate::downloads::output_dir(output_dir)
            .context("creating the output directory (--output-dir)")?;
        let downloads = Arc::new(Mutex::new(crate::downloads::Downloads::new(out_dir)));
        {
            // Browser-level events come with no session id.
            let downloads = Arc::clone(&downloads);
            cdp.listen(
                "",
                Arc::new(move |method: &str, params: &Value| {
                    if method.starts_with("Browser.download") {
                        lock(&downloads).on_event(method, params);
                    }
                }),
            );
        }
        // Not under the lock: the reader thread takes it for the events.
        let dir = lock(&downloads).dir().to_owned();
        allow_downloads(cdp, &dir, None)?;
        Ok(downloads)
    }

    /// Lets a browser context (`None`: the default one) download into the
    /// output directory, with events.
    pub fn allow_downloads(&self, context: Option<&str>) -> Result<()> {
        let dir = lock(&self.downloads).dir().to_owned();
        allow_downloads(&self.cdp, &dir, context)
    }

    /// The browser's downloads.
    pub fn downloads(&self) -> &Arc<Mutex<crate::downloads::Downloads>> {
        &self.downloads
    }

    /// Our connection to the browser.
    pub fn cdp(&self) -> &Arc<Cdp> {
        &self.cdp
    }

    /// The browser's process id (`None` when attached).
    pub fn pid(&self) -> Option<u32> {
        self.pid
    }

    /// Whether the browser process and our connection are alive.
    pub fn is_alive(&self) -> bool {
        if let Some(pid) = self.pid
            && !process_alive(pid)
        {
            return false;
        }
        self.cdp.is_open()
            && self
                .cdp
                .call(
                    None,
                    "Browser.getVersion",
                    json!({}),
                    Duration::from_secs(5),
                )
                .is_ok()
    }
}

impl Session {
    /// The ids of the page targets in a browser context (`None`: every
    /// page not in a context one of our sessions made), in the browser's
    /// order.
    fn targets_in(cdp: &Cdp, context: Option<&str>) -> Result<Vec<String>> {
        let r = cdp.call(None, "Target.getTargets", json!({}), Duration::from_secs(5))?;
        let ours = crate::context::own_contexts();
        Ok(r.get("targetInfos")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter(|t| t.get("type").and_then(Value::as_str) == Some("page"))
            .filter(|t| {
                let in_context = t.get("browserContextId").and_then(Value::as_str);
                match context {
                    Some(c) => in_context == Some(c),
                    None => !in_context.is_some_and(|c| ours.contains(c)),
                }
            })
            .filter_map(|t| t.get("targetId").and_then(Value::as_str).map(str::to_owned))
            .collect())
    }

    /// Attaches our session to a tab and listens to it.
    fn adopt(&mut self, target: String) -> Result<usize> {
        let r = self.cdp.call(
            None,
            "Target.attachToTarget",
            json!({ "targetId": target, "flatten": true }),
            Duration::from_secs(10),
        )?;
        let session = r
            .get("sessionId")
            .and_then(Value::as_str)
            .ok_or_else(|| anyhow!("attaching to the tab gave no session"))?
            .to_owned();
        let events = Arc::new(Mutex::new(TabEvents {
            tab_session: session.clone(),
            dialog_policy: self.dialogs,
            ..TabEvents::default()
        }));
        let page = Page {
            tab: None,
            cdp: Arc::clone(&self.cdp),
            session: session.clone(),
            target: target.clone(),
            key: format!("tab{}", TAB_KEYS.fetch_add(1, Ordering::Relaxed)),
            events: Arc::clone(&events),
            timeout: self.action_timeout,
        };
        let cdp = Arc::downgrade(&self.cdp);
        let policy = self.dialogs;
        let listener: Listener = {
            let session = session.clone();
            Arc::new(move |method: &str, params: &Value| {
                if method.starts_with("Target.") {
                    crate::frames::on_target_event(
                        method, params, &session, &events, &cdp, &target,
                    );
                }
                on_event(method, params, &events, &target, &cdp, &session, policy);
            })
        };
        let listener = self
            .setup
            .listener(listener, Arc::downgrade(&self.cdp), &session);
        self.cdp.listen(&session, listener);
        for (method, params) in session_setup() {
            match page.call_within(method, params, Duration::from_secs(5)) {
                // A popup that opened a dialog as it loaded: it is adopted
                // with its modal state (the rest of its events are lost).
                Err(e) if matches!(Error::of(&e), Some(Error::Modal(_))) => {
                    tracing::warn!("{method} on a new tab held by a dialog: {e:#}");
                }
                Ok(_) => {}
                Err(e) => {
                    self.cdp.forget(&session);
                    let _ = self.cdp.call(
                        None,
                        "Target.detachFromTarget",
                        json!({ "sessionId": session }),
                        Duration::from_secs(2),
                    );
                    return Err(e.context(format!("{method} on a new tab")));
                }
            }
        }
        // A file chooser becomes a modal state (Page.fileChooserOpened);
        // a tab that cannot intercept it still works for everything else.
        if let Err(e) = page.call_within(
            "Page.setInterceptFileChooserDialog",
            json!({ "enabled": true }),
            Duration::from_secs(5),
        ) {
            tracing::warn!(
                "file choosers of tab {} are not intercepted: {e:#}",
                page.key
            );
        }
        if let Err(e) = self.setup.apply(&page) {
            self.cdp.forget(&session);
            return Err(e.context("setting up a new tab"));
        }
        self.pages.push(page);
        Ok(self.pages.len() - 1)
    }

    /// Brings the tab list in line with the browser's: adopts tabs the page
    /// opened, forgets closed ones.
    pub fn sync_tabs(&mut self) -> Result<()> {
        let live = self.page_targets()?;
        let current_key = self.pages.get(self.current).map(|p| p.key.clone());
        let cdp = Arc::clone(&self.cdp);
        self.pages.retain(|p| {
            let keep = live.contains(&p.target);
            if !keep {
                cdp.forget(&p.session);
                crate::frames::forget_frames(&cdp, &p.events);
            }
            keep
        });
        for t in live {
            if !self.pages.iter().any(|p| p.target == t)
                && !self.unusable.contains(&t)
                && let Err(e) = self.adopt(t.clone())
            {
                // A tab that does not answer (a popup Chromium blocked, such
                // as a data: URL) is left out of the list, not an error.
                tracing::warn!("tab {t} does not answer; left out: {e:#}");
                self.unusable.push(t);
            }
        }
        self.current = current_key
            .and_then(|k| self.pages.iter().position(|p| p.key == k))
            .unwrap_or(0);
        if self.pages.is_empty() {
            self.new_tab()?;
        }
        // headless_chrome registers tabs on its own connection, a little later.
        let known: Vec<Arc<Tab>> = match self.chromium.browser.as_ref().map(|b| b.get_tabs().lock())
        {
            Some(Ok(tabs)) => tabs.clone(),
            _ => Vec::new(),
        };
        for p in self.pages.iter_mut().filter(|p| p.tab.is_none()) {
            p.tab = known
                .iter()
                .find(|t| *t.get_target_id() == p.target)
                .cloned();
        }
        Ok(())
    }

    /// The session's downloads.
    pub fn downloads(&self) -> &Arc<Mutex<crate::downloads::Downloads>> {
        self.chromium.downloads()
    }

    /// Which downloads are this session's: with a context of its own (the
    /// browser is shared), those its tabs started; else all.
    pub fn download_frames(&self) -> Option<Vec<String>> {
        self.context
            .as_ref()
            .map(|_| self.pages.iter().map(|p| p.target.clone()).collect())
    }

    /// The current tab.
    pub fn current(&self) -> &Page {
        &self.pages[self.current]
    }

    /// Index of the current tab.
    pub fn current_index(&self) -> usize {
        self.current
    }

    /// All tabs.
    pub fn pages(&self) -> &[Page] {
        &self.pages
    }

    /// Opens a tab and makes it current.
    pub fn new_tab(&mut self) -> Result<usize> {
        let r = self.cdp.call(
            None,
            "Target.createTarget",
            match self.context_id() {
                Some(c) => json!({ "url": "about:blank", "browserContextId": c }),
                None => json!({ "url": "about:blank" }),
            },
            Duration::from_secs(10),
        )?;
        let target = r
            .get("targetId")
            .and_then(Value::as_str)
            .ok_or_else(|| anyhow!("the browser opened no tab"))?
            .to_owned();
        let i = self.adopt(target)?;
        self.current = i;
        Ok(i)
    }

    /// Makes tab `i` current.
    pub fn select(&mut self, i: usize) -> Result<()> {
        let p = self.pages.get(i).ok_or_else(|| self.no_tab(i))?;
        let _ = p.call("Page.bringToFront", json!({}));
        self.current = i;
        Ok(())
    }

    fn no_tab(&self, i: usize) -> anyhow::Error {
        anyhow!(
            "there is no tab {i}; the open tabs are 0 to {} (see action `list`)",
            self.pages.len().saturating_sub(1)
        )
    }

    /// Closes tab `i`; the tab before it becomes current.
    pub fn close_tab(&mut self, i: usize) -> Result<()> {
        if i >= self.pages.len() {
            return Err(self.no_tab(i));
        }
        let p = self.pages.remove(i);
        self.cdp.forget(&p.session);
        crate::frames::forget_frames(&self.cdp, &p.events);
        let _ = self.cdp.call(
            None,
            "Target.closeTarget",
            json!({ "targetId": p.target }),
            Duration::from_secs(5),
        );
        if self.pages.is_empty() {
            self.new_tab()?;
        }
        if self.current >= i && self.current > 0 {
            self.current -= 1;
        }
        self.current = self.current.min(self.pages.len() - 1);
        Ok(())
    }
}

/// The calls that set up a tab's session, and an out-of-process frame's
/// (`frames.rs`): the same events and reads in both.
pub(crate) fn session_setup() -> [(&'static str, Value); 8] {
    [
        ("Page.enable", json!({})),
        ("Runtime.enable", json!({})),
        ("Log.enable", json!({})),
        ("DOM.enable", json!({})),
        ("Accessibility.enable", json!({})),
        // For waiting on the requests an action starts. No bodies are
        // kept for Network.getResponseBody: nothing here reads them.
        (
            "Network.enable",
            json!({ "maxTotalBufferSize": 0, "maxResourceBufferSize": 0, "maxPostDataSize": 0 }),
        ),
        // For Inspector.targetCrashed.
        ("Inspector.enable", json!({})),
        // Out-of-process iframes (`frames.rs`).
        ("Target.setAutoAttach", crate::frames::auto_attach_params()),
    ]
}

/// Handles one event of a tab's session (or of one of its frames', see
/// `frames.rs`).
pub(crate) fn on_event(
    method: &str,
    p: &Value,
    sink: &Mutex<TabEvents>,
    main_frame: &str,
    cdp: &std::sync::Weak<Cdp>,
    session: &str,
    policy: crate::modal::DialogPolicy,
) {
    let str_at = |ptr: &str| p.pointer(ptr).and_then(Value::as_str).unwrap_or_default();
    if method.starts_with("Page.") || method.starts_with("Network.") {
        let mut ev = lock(sink);
        ev.activity.on_event(method, p, main_frame, Instant::now());
        ev.network.on_event(method, p, main_frame);
    }
    match method {
        "Runtime.consoleAPICalled" => {
            let args = p
                .get("args")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            let text = args
                .iter()
                .map(|a| match a.get("value") {
                    Some(Value::String(s)) => s.clone(),
                    Some(v) if !v.is_null() => v.to_string(),
                    _ => a
                        .get("description")
                        .and_then(Value::as_str)
                        .or_else(|| a.get("type").and_then(Value::as_str))
                        .unwrap_or_default()
                        .to_owned(),
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
            let location = p
                .pointer("/stackTrace/callFrames/0")
                .filter(|f| {
                    f.get("url")
                        .and_then(Value::as_str)
                        .is_some_and(|u| !u.is_empty())
                })
                .map(|f| {
                    format!(
                        "{}:{}",
                        short_url(f.get("url").and_then(Value::as_str).unwrap_or_default()),
                        f.get("lineNumber").and_then(Value::as_u64).unwrap_or(0) + 1
                    )
                });
            push(&mut ev, str_at("/type").to_owned(), text, location);
        }
        "Runtime.exceptionThrown" => {
            let d = p.get("exceptionDetails").cloned().unwrap_or(Value::Null);
            let text = d
                .pointer("/exception/description")
                .and_then(Value::as_str)
                .map(|s| s.lines().next().unwrap_or_default().to_owned())
                .or_else(|| d.get("text").and_then(Value::as_str).map(str::to_owned))
                .unwrap_or_default();
            let location = d
                .get("url")
                .and_then(Value::as_str)
                .filter(|u| !u.is_empty())
                .map(|u| {
                    format!(
                        "{}:{}",
                        short_url(u),
                        d.get("lineNumber").and_then(Value::as_u64).unwrap_or(0) + 1
                    )
                });
            push(
                &mut lock(sink),
                "error".into(),
                format!("Uncaught {text}"),
                location,
            );
        }
        // The browser's own favicon fetch failing is not the page's error
        // (Playwright's console does not show it either).
        "Log.entryAdded"
            if str_at("/entry/source") == "network"
                && crate::settle::is_favicon_url(str_at("/entry/url")) => {}
        "Log.entryAdded" => {
            let location = p
                .pointer("/entry/url")
                .and_then(Value::as_str)
                .map(|u| short_url(u).to_owned());
            push(
                &mut lock(sink),
                str_at("/entry/level").to_owned(),
                str_at("/entry/text").to_owned(),
                location,
            );
        }
        "Page.frameNavigated" if p.pointer("/frame/parentId").is_none() => {
            let mut ev = lock(sink);
            // The chooser's input went with its document.
            ev.modal.retain(|m| m.is_dialog());
            ev.console.clear();
            ev.reported = 0;
            ev.dropped = 0;
        }
        "Page.loadEventFired" => lock(sink).loads += 1,
        "Input.dragIntercepted" => lock(sink).drag_data = p.get("data").cloned(),
        "Inspector.targetCrashed" => {
            tracing::warn!("the renderer of tab {main_frame} crashed");
            lock(sink).crashed = true;
        }
        "Page.javascriptDialogOpening" => {
            use crate::modal::{DialogPolicy, ModalState};
            let state = ModalState::Dialog {
                kind: str_at("/type").to_owned(),
                message: str_at("/message").to_owned(),
                default_prompt: (str_at("/type") == "prompt")
                    .then(|| str_at("/defaultPrompt").to_owned()),
            };
            let Some(cdp) = cdp.upgrade() else { return };
            let accept = match policy {
                DialogPolicy::Ask => {
                    // The page's scripts and input wait for the answer:
                    // calls in flight return now, the action reports it.
                    // Recorded before the calls are woken, so that a woken
                    // action sees why.
                    let what = format!("the page waits for an answer to {}", state.describe());
                    let tab_session = {
                        let mut ev = lock(sink);
                        ev.modal.push(state);
                        ev.dialog_session = Some(session.to_owned());
                        ev.tab_session.clone()
                    };
                    cdp.block(session, &what);
                    // A frame's dialog holds input sent through the tab too.
                    if !tab_session.is_empty() && tab_session != session {
                        cdp.block(&tab_session, &what);
                    }
                    return;
                }
                DialogPolicy::Accept => true,
                DialogPolicy::Dismiss => false,
            };
            lock(sink).dialogs.push(format!(
                "{} \"{}\" ({})",
                str_at("/type"),
                str_at("/message"),
                if accept { "accepted" } else { "dismissed" }
            ));
            let session = session.to_owned();
            let prompt = str_at("/defaultPrompt").to_owned();
            // Not from the reader thread: it must stay free to read the answer.
            std::thread::spawn(move || {
                let _ = cdp.call(
                    Some(&session),
                    "Page.handleJavaScriptDialog",
                    json!({ "accept": accept, "promptText": prompt }),
                    Duration::from_secs(5),
                );
            });
        }
        "Page.javascriptDialogClosed" => {
            let mut ev = lock(sink);
            if ev.answered_dialogs > 0 {
                // Answered through `Page::answer_dialog`, already removed.
                ev.answered_dialogs -= 1;
            } else if let Some(cdp) = cdp.upgrade() {
                close_first_dialog(&mut ev, &cdp, session);
            }
        }
        "Page.fileChooserOpened" => {
            lock(sink)
                .modal
                .push(crate::modal::ModalState::FileChooser {
                    backend_node: p.get("backendNodeId").and_then(Value::as_i64).unwrap_or(0),
                    multiple: str_at("/mode") == "selectMultiple",
                });
        }
        _ => {}
    }
}

/// Forgets the oldest open dialog; calls go through again once no dialog
/// is left.
fn close_first_dialog(ev: &mut TabEvents, cdp: &Cdp, session: &str) {
    if let Some(i) = ev.modal.iter().position(|m| m.is_dialog()) {
        ev.modal.remove(i);
    }
    if !ev.modal.iter().any(|m| m.is_dialog()) {
        cdp.unblock(session);
        if let Some(d) = ev.dialog_session.take() {
            cdp.unblock(&d);
        }
        if !ev.tab_session.is_empty() {
            cdp.unblock(&ev.tab_session);
        }
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

/// `http://127.0.0.1:8000/app.js` → `/app.js` for locations (nearly always
/// the page's own host).
fn short_url(url: &str) -> &str {
    url.split_once("://")
        .and_then(|(_, rest)| rest.find('/').map(|i| &rest[i..]))
        .unwrap_or(url)
}

fn result_value(r: Value) -> Result<Value> {
    if let Some(ex) = r.get("exceptionDetails") {
        let msg = ex
            .pointer("/exception/description")
            .and_then(Value::as_str)
            .map(|s| s.lines().next().unwrap_or_default().to_owned())
            .or_else(|| ex.get("text").and_then(Value::as_str).map(str::to_owned))
            .unwrap_or_else(|| "unknown error".into());
        bail!(Error::Js(msg));
    }
    let result = r.get("result").cloned().unwrap_or(Value::Null);
    match result.get("type").and_then(Value::as_str) {
        Some("undefined") => Ok(Value::Null),
        _ => Ok(result.get("value").cloned().unwrap_or_else(|| {
            // Not serializable by value (a function, a DOM node, …).
            result.get("description").cloned().unwrap_or(Value::Null)
        })),
    }
}
