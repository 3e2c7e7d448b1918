//! A browser context made for one session ([`ContextHandle`]), and what
//! every tab of a context gets when adopted ([`TabSetup`]): the origin
//! policy (`--allowed-origins`, `--blocked-origins`, through the Fetch
//! domain), the emulation (`crate::emulation`: device, user agent,
//! viewport, locale, …), certificate errors ignored, the init scripts
//! (`--init-script`) and service workers blocked
//! (`--block-service-workers`). The sessions that hold them are made by
//! `crate::context`'s `BrowserHost`.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use anyhow::{Result, anyhow};
use serde_json::{Value, json};

use super::page::Page;
use crate::cdp::{Cdp, Listener};
use crate::error::lock;
use crate::origins::OriginPolicy;

/// The browser contexts this process made and has not disposed.
static OWN: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());

/// The ids of the browser contexts this process made and has not disposed
/// (a default-context session leaves their tabs alone).
pub fn own_contexts() -> BTreeSet<String> {
    lock(&OWN).clone()
}

/// A browser context made for one session.
#[derive(Clone)]
pub struct ContextHandle {
    cdp: Weak<Cdp>,
    id: String,
    gone: Arc<AtomicBool>,
}

impl ContextHandle {
    /// Makes a browser context: in memory, disposed by the browser if our
    /// connection drops (`disposeOnDetach`), with its own proxy when given.
    pub fn create(cdp: &Arc<Cdp>, proxy: Option<&Proxy>) -> Result<ContextHandle> {
        let mut params = json!({ "disposeOnDetach": true });
        if let Some(p) = proxy {
            params["proxyServer"] = json!(p.server);
            if let Some(b) = &p.bypass {
                params["proxyBypassList"] = json!(b);
            }
        }
        let r = cdp.call(
            None,
            "Target.createBrowserContext",
            params,
            Duration::from_secs(10),
        )?;
        let id = r
            .get("browserContextId")
            .and_then(Value::as_str)
            .ok_or_else(|| anyhow!("the browser made no context"))?
            .to_owned();
        lock(&OWN).insert(id.clone());
        tracing::info!("browser context {id} opened ({} open)", lock(&OWN).len());
        Ok(ContextHandle {
            cdp: Arc::downgrade(cdp),
            id,
            gone: Arc::new(AtomicBool::new(false)),
        })
    }

    /// The context's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Whether the context was disposed.
    pub fn is_gone(&self) -> bool {
        self.gone.load(Ordering::SeqCst)
    }

    /// Disposes the context with its tabs (once; later calls do nothing).
    pub fn dispose(&self) {
        if self.gone.swap(true, Ordering::SeqCst) {
            return;
        }
        if let Some(cdp) = self.cdp.upgrade()
            && let Err(e) = cdp.call(
                None,
                "Target.disposeBrowserContext",
                json!({ "browserContextId": self.id }),
                Duration::from_secs(10),
            )
        {
            tracing::warn!("disposing browser context {}: {e:#}", self.id);
        }
        let mut own = lock(&OWN);
        own.remove(&self.id);
        tracing::info!("browser context {} closed ({} open)", self.id, own.len());
    }
}

/// `--proxy-server` and `--proxy-bypass`.
#[derive(Debug, Clone)]
pub struct Proxy {
    /// e.g. `http://myproxy:3128`, `socks5://myproxy:8080`.
    pub server: String,
    /// Comma-separated hosts that bypass the proxy.
    pub bypass: Option<String>,
}

/// What every tab of a context gets when it is adopted.
#[derive(Debug, Default)]
pub struct TabSetup {
    /// `--allowed-origins` / `--blocked-origins`.
    pub policy: Option<Arc<OriginPolicy>>,
    /// The device, user agent, locale and the rest (an attached
    /// browser's viewport is set here too: its windows are not ours to
    /// size).
    pub emulation: crate::emulation::Emulation,
    /// `--ignore-https-errors`.
    pub ignore_https_errors: bool,
    /// The sources of the `--init-script` files, run in every document
    /// before its own scripts.
    pub init_scripts: Vec<String>,
    /// `--block-service-workers`.
    pub block_service_workers: bool,
}

/// Run in every document with `--block-service-workers`: a page cannot
/// register a service worker (and is told so in its console).
const NO_SERVICE_WORKERS: &str = "if (navigator.serviceWorker) navigator.serviceWorker.register = async () => { console.warn('Service worker registration is blocked (--block-service-workers)'); };";

impl TabSetup {
    /// Wraps a tab's event listener: with an origin policy, requests the
    /// Fetch domain paused are continued or failed here.
    pub fn listener(&self, inner: Listener, cdp: Weak<Cdp>, session: &str) -> Listener {
        let Some(policy) = self.policy.clone() else {
            return inner;
        };
        let session = session.to_owned();
        Arc::new(move |method: &str, params: &Value| {
            if method != "Fetch.requestPaused" {
                return inner(method, params);
            }
            let id = params.get("requestId").cloned().unwrap_or(Value::Null);
            let url = params
                .pointer("/request/url")
                .and_then(Value::as_str)
                .unwrap_or_default();
            let (method, answer) = if policy.allows(url) {
                ("Fetch.continueRequest", json!({ "requestId": id }))
            } else {
                tracing::info!("blocked a request to {url} (origin policy)");
                (
                    "Fetch.failRequest",
                    json!({ "requestId": id, "errorReason": "BlockedByClient" }),
                )
            };
            if let Some(cdp) = cdp.upgrade() {
                let session = session.clone();
                // Not from the reader thread: it must stay free to read the answer.
                std::thread::spawn(move || {
                    let _ = cdp.call(Some(&session), method, answer, Duration::from_secs(5));
                });
            }
        })
    }

    /// Applies the setup to a tab just adopted.
    pub fn apply(&self, page: &Page) -> Result<()> {
        let quick = Duration::from_secs(5);
        if self.policy.is_some() {
            page.call_within(
                "Fetch.enable",
                json!({ "patterns": [{ "urlPattern": "*", "requestStage": "Request" }] }),
                quick,
            )?;
        }
        self.emulation.apply(page)?;
        if self.ignore_https_errors {
            page.call_within(
                "Security.setIgnoreCertificateErrors",
                json!({ "ignore": true }),
                quick,
            )?;
        }
        if self.block_service_workers {
            page.call_within(
                "Network.setBypassServiceWorker",
                json!({ "bypass": true }),
                quick,
            )?;
        }
        let blocker = self
            .block_service_workers
            .then_some(NO_SERVICE_WORKERS.to_owned());
        for source in blocker.iter().chain(&self.init_scripts) {
            page.call_within(
                "Page.addScriptToEvaluateOnNewDocument",
                json!({ "source": source }),
                quick,
            )?;
        }
        Ok(())
    }
}
