//! A browser context and its tabs: the first tab, tabs the page opens
//! itself (adopted as they appear), new, selected and closed tabs.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{Context, Result, anyhow};
use headless_chrome::Tab;
use serde_json::{Value, json};

use crate::cdp::{Cdp, Listener};
use crate::error::Error;

use super::context::{ContextHandle, TabSetup, own_contexts};
use super::events::{TabEvents, on_event, session_setup};
use super::launch::{BrowserConfig, Chromium, TAB_KEYS};
use super::page::Page;

/// The tabs of one browser context: the default context of a launched
/// browser, or a context of its own ([`crate::context`]) that is disposed
/// when the session is dropped.
pub struct Session {
    pub(super) chromium: Arc<Chromium>,
    pub(super) cdp: Arc<Cdp>,
    /// The browser context, `None` for the browser's default one.
    pub(super) context: Option<ContextHandle>,
    /// What every tab of this context gets when adopted.
    pub(super) setup: Arc<TabSetup>,
    pub(super) pages: Vec<Page>,
    pub(super) current: usize,
    pub(super) action_timeout: Duration,
    /// Tabs that did not answer when adopted (not retried).
    pub(super) unusable: Vec<String>,
    /// What happens to JavaScript dialogs (`--dialogs`).
    pub(super) dialogs: crate::modal::DialogPolicy,
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
        setup: Arc<TabSetup>,
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
        context: Option<ContextHandle>,
        setup: Arc<TabSetup>,
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
    pub fn context_handle(&self) -> Option<ContextHandle> {
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

impl Session {
    /// The ids of the page targets in a browser context (`None`: every
    /// page not in a context one of our sessions made), in the browser's
    /// order.
    fn targets_in(cdp: &Cdp, context: Option<&str>) -> Result<Vec<String>> {
        let r = cdp.call(None, "Target.getTargets", json!({}), Duration::from_secs(5))?;
        let ours = own_contexts();
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
