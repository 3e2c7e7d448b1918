//! What a tab's CDP listener records: console messages, dialogs and
//! other modal states, loads, navigations and requests (for settling),
//! crashes, drags and out-of-process frames, from the tab's session and
//! its frames' (`frames/`).

use std::sync::Mutex;
use std::sync::atomic::AtomicU64;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::cdp::Cdp;
use crate::error::lock;

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
    /// Highest marker seen by [`Page::sync_events`](super::Page::sync_events).
    pub last_marker: u64,
    /// Navigations and requests in flight, for waiting after an action.
    pub activity: crate::activity::Activity,
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
    /// fail at once until [`Page::recover`](super::Page::recover) reloads it.
    pub crashed: bool,
    /// Main-frame load events (`Page.loadEventFired`), a counter.
    pub loads: u64,
    /// `loads` when the document was last marked ([`Page::mark`](super::Page::mark)).
    pub loads_at_mark: u64,
    /// How long the tab had been unanswering when a page script was last
    /// stopped ([`Page::stop_scripts`](super::Page::stop_scripts)), until a response reports it.
    pub stopped_script: Option<Duration>,
    /// Requests since the last navigation (`browser_network_requests`).
    pub network: crate::network::NetworkLog,
    /// The drag data of an HTML5 drag Chromium handed over while drags
    /// are intercepted (`Input.dragIntercepted`; see `engine::pointer`).
    pub drag_data: Option<Value>,
    /// The tab's out-of-process frames (see `crate::frames`).
    pub frames: crate::frames::Frames,
}

const CONSOLE_CAP: usize = 2_000;
pub(super) const MARKER: &str = "__response_diff_sync__";
pub(super) static MARKERS: AtomicU64 = AtomicU64::new(1);

/// The calls that set up a tab's session, and an out-of-process frame's
/// (`frames/`): the same events and reads in both.
pub(crate) fn session_setup() -> [(&'static str, Value); 8] {
    [
        ("Page.enable", json!({})),
        ("Runtime.enable", json!({})),
        ("Log.enable", json!({})),
        ("DOM.enable", json!({})),
        ("Accessibility.enable", json!({})),
        // For waiting on the requests an action starts, and the request
        // log. Chromium keeps response bodies for browser_network_request
        // (Network.getResponseBody) within these budgets, the oldest going
        // first; request bodies are read when asked for
        // (Network.getRequestPostData), not sent with every event.
        (
            "Network.enable",
            json!({
                "maxTotalBufferSize": crate::network::BODY_BUFFER_BYTES,
                "maxResourceBufferSize": crate::network::BODY_BUFFER_PER_RESPONSE,
                "maxPostDataSize": 0,
            }),
        ),
        // For Inspector.targetCrashed.
        ("Inspector.enable", json!({})),
        // Out-of-process iframes (`frames/`).
        ("Target.setAutoAttach", crate::frames::auto_attach_params()),
    ]
}

/// Handles one event of a tab's session (or of one of its frames', see
/// `frames/`).
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
        ev.network.on_event(method, p, main_frame, session);
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
                && crate::activity::is_favicon_url(str_at("/entry/url")) => {}
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
pub(super) fn close_first_dialog(ev: &mut TabEvents, cdp: &Cdp, session: &str) {
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

pub(super) fn push(ev: &mut TabEvents, level: String, text: String, location: Option<String>) {
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
