//! One tab: headless_chrome's handle and our CDP session on it, its
//! calls (with a time limit, failing at once once it crashed), page
//! scripts, dialogs, and waiting for loads and for its events.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Result, anyhow, bail};
use headless_chrome::Tab;
use serde_json::{Value, json};

use crate::cdp::Cdp;
use crate::error::{Error, lock};

use super::events::{MARKER, MARKERS, TabEvents, close_first_dialog};

/// One tab: headless_chrome's handle and our CDP session on it.
#[derive(Clone)]
pub struct Page {
    /// headless_chrome's handle on the same tab, once it has registered it
    /// (used for keys outside our own small table).
    pub(super) tab: Option<Arc<Tab>>,
    pub(super) cdp: Arc<Cdp>,
    pub(super) session: String,
    pub(super) target: String,
    pub(super) key: String,
    /// Events collected by the listener.
    pub events: Arc<Mutex<TabEvents>>,
    pub(super) timeout: Duration,
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
    /// out-of-process frames (`frames/`).
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

    /// Marks the current document with a fresh token (see
    /// [`Page::wait_loaded`]) and starts its DOM change clock (see
    /// `settle`). Returns the point in the tab's events from which what
    /// happens counts as caused by the coming action.
    pub fn mark(&self, token: u64) -> crate::activity::Mark {
        {
            let mut ev = lock(&self.events);
            ev.loads_at_mark = ev.loads;
        }
        let _ = self.evaluate(
            &format!(
                "window.__rdDoc = {token}; {}",
                crate::activity::DOM_CLOCK_JS
            ),
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
