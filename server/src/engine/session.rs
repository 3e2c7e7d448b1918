//! The browser session: launched on first use, relaunched when it died,
//! a crashed tab reloaded and a stuck page script stopped, each said in the
//! response; a failed action rendered as an error response.

use std::time::Duration;

use anyhow::{Result, anyhow};
use response_diff::expectation::Expectation;
use response_diff::response::{Response, render};
use serde_json::json;

use super::page::page_state;
use super::state::{Engine, Output, Performed};
use crate::browser::{Page, Session};
use crate::error::{Error, describe as describe_error};
use crate::tools::{Call, Parsed};

impl Engine {
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
    pub(super) fn perform_once(
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
        if let Some(out) = self.modal_gate(parsed) {
            return Err(out);
        }
        let tabs_before = self.tab_targets();
        let acted = self.act(&parsed.call);
        let mut acted = match acted {
            Ok(a) => a,
            // A dialog the action opened holds the page: the calls it was
            // waiting on returned, and the response shows the dialog.
            Err(_) if self.current_page().is_some_and(|p| p.dialog_open()) => {
                super::state::Acted::default()
            }
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
                    msg.push_str(if self.host.remote().is_some() {
                        "\nThe connection to the remote browser closed during this call; the next call connects again."
                    } else {
                        "\nThe browser stopped during this call; it will be relaunched on the next call."
                    });
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
        self.after_action(&mut acted, &tabs_before);
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

    pub(super) fn error_output(&mut self, message: String) -> Output {
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

    pub(super) fn ensure_session(&mut self) -> Result<Option<String>> {
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
        // A browser that died is relaunched by the host (a remote one
        // connected to again); this engine says so when it had tabs there
        // (`crashed`, set above, kept while connecting again fails).
        let (session, _restarted) = self.host.open()?;
        self.stopper.set_context(session.context_handle());
        self.session = Some(session);
        self.idle_closes = self.host.idle_closes();
        Ok(self.crashed.take())
    }

    /// Before an action: a tab still busy in a page script (a loop that
    /// started after the last call) answers nothing, so the script is
    /// stopped and the response says so. One round trip when all is well.
    pub(super) fn unstick(&self, page: &Page) -> Option<String> {
        let wait = self.timeout().min(Duration::from_secs(5));
        match page.call_within("Runtime.evaluate", json!({ "expression": "0" }), wait) {
            Err(e) if Error::is_call_timeout(&e) => {
                page.stop_scripts(wait);
                page.take_stopped_script()
            }
            _ => None,
        }
    }

    /// Forgets a browser that died; the next launch says so.
    pub(super) fn drop_dead_session(&mut self) {
        if let Some(s) = self.session.take() {
            let keys: Vec<String> = s.pages().iter().map(|t| t.key().to_owned()).collect();
            self.forget(&keys);
        }
        self.stopper.set_context(None);
        self.crashed = Some(if self.host.idle_closes() > self.idle_closes {
            format!(
                "The browser was closed after {} without a call (--idle-timeout) and was relaunched: earlier tabs, pages and refs are gone.",
                super::actions::shown(self.host.idle_timeout().unwrap_or_default())
            )
        } else if let Some(endpoint) = self.host.remote() {
            format!(
                "The remote browser had gone away (its connection closed) and the server connected to {endpoint} again: earlier tabs, pages and refs are gone."
            )
        } else {
            "The browser had stopped (it crashed or was killed) and was relaunched: earlier tabs, pages and refs are gone.".to_owned()
        });
    }

    pub(super) fn forget(&mut self, keys: &[String]) {
        for k in keys {
            self.since.clear(k);
            self.refs.forget(k);
            self.media.remove(k);
            self.views.remove(k);
        }
        // Detector keys carry a view suffix; the page's chains are dropped
        // wholesale (the next snapshot of a new tab starts fresh anyway).
        self.detector.clear_all();
    }

    pub(super) fn session(&mut self) -> Result<&mut Session> {
        self.session
            .as_mut()
            .ok_or_else(|| anyhow!("the browser is not running"))
    }

    /// The action timeout (`--timeout-action`).
    pub(super) fn timeout(&self) -> Duration {
        self.config.browser.action_timeout
    }

    /// The navigation timeout (`--timeout-navigation`).
    pub(super) fn navigation_timeout(&self) -> Duration {
        self.config.browser.navigation_timeout
    }

    /// How long an action's aftermath is waited for (`--timeout-settle`,
    /// else the action timeout).
    pub(super) fn settle_timeout(&self) -> Duration {
        self.config.browser.settle_timeout.unwrap_or(self.timeout())
    }

    pub(super) fn close(&mut self) -> Output {
        let had = self.session.is_some();
        let own_context = self
            .session
            .as_ref()
            .is_some_and(|s| s.context_id().is_some());
        if let Some(s) = &self.session {
            let keys: Vec<String> = s.pages().iter().map(|t| t.key().to_owned()).collect();
            self.forget(&keys);
        }
        self.shutdown();
        Output {
            text: format!(
                "### Result\n{}",
                if had && own_context {
                    "Closed this client's browser context (its tabs, cookies and storage). The next call opens a fresh one."
                } else if had {
                    "Closed the browser. The next call starts a fresh one."
                } else {
                    "The browser was not running."
                }
            ),
            ..Output::default()
        }
    }
}
