//! Browser contexts: where a client's tabs live, and the one browser they
//! share.
//!
//! A [`BrowserHost`] owns the browser (launched lazily, or attached to with
//! `--cdp-endpoint`, relaunched when it died) and opens a [`Session`] per
//! engine: in a browser context of its own (`Target.createBrowserContext`,
//! so cookies, storage and tabs are the client's alone) or in the browser's
//! default context (stdio without `--isolated`, `--shared-browser-context`).
//! A context is disposed when its session is dropped; a context the
//! watchdog gave up on is disposed through its [`ContextHandle`] without
//! the engine's lock.
//!
//! [`TabSetup`] is what every tab of a context gets when adopted: the
//! origin policy (`--allowed-origins`, `--blocked-origins`, through the
//! Fetch domain), the user agent, the viewport of an attached browser, and
//! certificate errors ignored.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use anyhow::{Result, anyhow, bail};
use serde_json::{Value, json};

use crate::browser::{BrowserConfig, Chromium, Page, Session};
use crate::cdp::{Cdp, Listener};
use crate::error::{Error, lock};
use crate::origins::OriginPolicy;
use crate::storage::StorageState;

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
    /// `--user-agent`.
    pub user_agent: Option<String>,
    /// The viewport, set per tab (an attached browser's windows are not
    /// ours to size).
    pub viewport: Option<(u32, u32)>,
    /// `--ignore-https-errors`.
    pub ignore_https_errors: bool,
}

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
        if let Some(ua) = &self.user_agent {
            page.call_within(
                "Emulation.setUserAgentOverride",
                json!({ "userAgent": ua }),
                quick,
            )?;
        }
        if let Some((w, h)) = self.viewport {
            page.call_within(
                "Emulation.setDeviceMetricsOverride",
                json!({ "width": w, "height": h, "deviceScaleFactor": 0, "mobile": false }),
                quick,
            )?;
        }
        if self.ignore_https_errors {
            page.call_within(
                "Security.setIgnoreCertificateErrors",
                json!({ "ignore": true }),
                quick,
            )?;
        }
        Ok(())
    }
}

/// Where the browser comes from and how sessions use it.
#[derive(Debug, Clone, Default)]
pub struct HostConfig {
    /// How a browser is launched (unused when attaching).
    pub browser: BrowserConfig,
    /// `--cdp-endpoint`, resolved to a `ws://` URL at each connection.
    pub cdp_endpoint: Option<String>,
    /// A browser context per session (else the browser's default one).
    pub own_contexts: bool,
    /// Several engines use the browser (HTTP): one closing its session
    /// leaves the browser running.
    pub shared: bool,
    /// Applied to every tab.
    pub setup: Arc<TabSetup>,
    /// Loaded into every new context (`--storage-state`).
    pub storage_state: Option<Arc<StorageState>>,
    /// Given to every new context (an attached browser was started
    /// without our proxy flags).
    pub proxy: Option<Proxy>,
}

/// The browser every session of this server uses.
pub struct BrowserHost {
    config: HostConfig,
    chromium: Mutex<Option<Arc<Chromium>>>,
    pid: Arc<AtomicU32>,
}

impl std::fmt::Debug for BrowserHost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BrowserHost")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl BrowserHost {
    /// A host; nothing starts until a session is opened.
    pub fn new(config: HostConfig) -> Arc<BrowserHost> {
        Arc::new(BrowserHost {
            config,
            chromium: Mutex::new(None),
            pid: Arc::new(AtomicU32::new(0)),
        })
    }

    /// A host that launches its browser for one engine, tabs in the
    /// default context (the command-line tools, stdio).
    pub fn private(browser: BrowserConfig) -> Arc<BrowserHost> {
        BrowserHost::new(HostConfig {
            browser,
            ..HostConfig::default()
        })
    }

    /// The launched browser's process id (0 when none or attached), for
    /// the watchdog.
    pub fn pid_cell(&self) -> Arc<AtomicU32> {
        Arc::clone(&self.pid)
    }

    /// Whether sessions get a browser context of their own.
    pub fn own_contexts(&self) -> bool {
        self.config.own_contexts
    }

    /// Whether several engines use this browser.
    pub fn is_shared(&self) -> bool {
        self.config.shared
    }

    /// At exit: stops a browser launched here even if a session still
    /// holds it; an attached one is only disconnected.
    pub fn shutdown(&self) {
        let pid = self.pid.load(Ordering::SeqCst);
        let had = lock(&self.chromium).take();
        let launched = had.as_ref().is_some_and(|c| c.pid().is_some());
        drop(had);
        if launched && crate::browser::process_alive(pid) {
            crate::browser::kill_process(pid);
        }
        self.pid.store(0, Ordering::SeqCst);
    }

    /// The launch settings.
    pub fn browser_config(&self) -> &BrowserConfig {
        &self.config.browser
    }

    /// Refuses a navigation the origin policy blocks, with what to do.
    pub fn check_navigation(&self, url: &str) -> Result<()> {
        if let Some(p) = &self.config.setup.policy
            && let Some(why) = p.refusal(url)
        {
            bail!(Error::User(why));
        }
        Ok(())
    }

    /// Opens a session: the browser started (or reconnected) when needed,
    /// a context of its own when configured, the storage state loaded.
    /// The bool says whether the browser had to be started again after
    /// one that died.
    pub fn open(&self) -> Result<(Session, bool)> {
        let (chromium, fresh, restarted) = self.browser()?;
        let timeout = self.config.browser.action_timeout;
        let dialogs = self.config.browser.dialogs;
        let setup = Arc::clone(&self.config.setup);
        let session = if self.config.own_contexts {
            let ctx = ContextHandle::create(chromium.cdp(), self.config.proxy.as_ref())?;
            if let Err(e) = chromium.allow_downloads(Some(ctx.id())) {
                ctx.dispose();
                return Err(e);
            }
            if let Some(state) = &self.config.storage_state {
                // Before the first tab, so that its first page sees the state.
                if let Err(e) = state.load(chromium.cdp(), Some(ctx.id()), &setup) {
                    ctx.dispose();
                    return Err(e.context("loading --storage-state"));
                }
            }
            Session::open(chromium, Some(ctx), setup, timeout, dialogs)?
        } else {
            if fresh && let Some(state) = &self.config.storage_state {
                state
                    .load(chromium.cdp(), None, &setup)
                    .map_err(|e| e.context("loading --storage-state"))?;
            }
            if fresh && self.config.cdp_endpoint.is_none() {
                Session::first(chromium, setup, timeout, dialogs)?
            } else {
                Session::open(chromium, None, setup, timeout, dialogs)?
            }
        };
        Ok((session, restarted))
    }

    /// The browser: the running one, or a new launch (or connection).
    /// Returns it, whether it is new, and whether it replaced one that died.
    fn browser(&self) -> Result<(Arc<Chromium>, bool, bool)> {
        let mut slot = lock(&self.chromium);
        let mut restarted = false;
        if let Some(c) = slot.as_ref() {
            if c.is_alive() {
                return Ok((Arc::clone(c), false, false));
            }
            tracing::warn!("the browser is gone; starting again");
            *slot = None;
            restarted = true;
        }
        let chromium = Arc::new(match &self.config.cdp_endpoint {
            Some(endpoint) => {
                // The agent cannot fix this; the operator can: say what failed.
                let attach = || -> Result<Chromium> {
                    let ws = crate::attach::ws_url(endpoint)?;
                    let c = Chromium::attach(&ws, self.config.browser.output_dir.as_deref())
                        .map_err(|e| e.context(format!("connecting to {ws}")))?;
                    tracing::info!("attached to the browser at {ws}");
                    Ok(c)
                };
                attach().map_err(|e| {
                    anyhow!(Error::User(format!(
                        "could not attach to the browser at --cdp-endpoint {endpoint}: {e:#}. Check that it runs with --remote-debugging-port and that this host can reach it"
                    )))
                })?
            }
            None => {
                let c = Chromium::launch(&self.config.browser, &self.pid)?;
                tracing::info!("browser started (pid {:?})", c.pid());
                c
            }
        });
        *slot = Some(Arc::clone(&chromium));
        Ok((chromium, true, restarted))
    }

    /// Forgets the browser: a launched one stops once no session holds
    /// it; an attached one is only disconnected.
    pub fn release(&self) {
        lock(&self.chromium).take();
        self.pid.store(0, Ordering::SeqCst);
    }
}

/// What the watchdog stops when a call hangs: the client's own context
/// (other clients keep the browser), else the browser process.
#[derive(Clone, Default)]
pub struct Stopper {
    pid: Arc<AtomicU32>,
    context: Arc<Mutex<Option<ContextHandle>>>,
}

impl Stopper {
    /// A stopper for a host's browser.
    pub fn new(pid: Arc<AtomicU32>) -> Stopper {
        Stopper {
            pid,
            context: Arc::default(),
        }
    }

    /// The context the engine now uses (`None`: the default context).
    pub fn set_context(&self, context: Option<ContextHandle>) {
        *lock(&self.context) = context;
    }

    /// Ends every pending call of the hung one; says what it stopped.
    pub fn stop(&self) -> &'static str {
        if let Some(c) = lock(&self.context).take() {
            c.dispose();
            return "this client's browser context was closed";
        }
        let pid = self.pid.load(Ordering::SeqCst);
        tracing::warn!("stopping the browser (pid {pid})");
        crate::browser::kill_process(pid);
        "the browser was stopped"
    }
}

/// Hands memory freed by a closed engine back to the system when dropped
/// (glibc keeps freed heap pages in its arenas otherwise), so that a
/// long-running HTTP server returns to its size after its clients leave
/// (docs/bench/load.md).
pub struct ReleaseMemory;

impl Drop for ReleaseMemory {
    fn drop(&mut self) {
        #[cfg(all(target_os = "linux", target_env = "gnu"))]
        // SAFETY: malloc_trim only returns free pages; no pointer is touched.
        unsafe {
            libc::malloc_trim(0);
        }
    }
}
