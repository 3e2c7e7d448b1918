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
//! The context itself ([`ContextHandle`]) and what each of its tabs gets
//! ([`TabSetup`]) are in `browser/context.rs`, which the browser session
//! uses; they are re-exported here.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use anyhow::{Result, anyhow, bail};

use crate::browser::{BrowserConfig, Chromium, Session};
use crate::error::{Error, lock};
use crate::storage::StorageState;

pub use crate::browser::{ContextHandle, Proxy, TabSetup, own_contexts};

/// Where the browser comes from and how sessions use it.
#[derive(Debug, Clone, Default)]
pub struct HostConfig {
    /// How a browser is launched (unused when attaching).
    pub browser: BrowserConfig,
    /// `--cdp-endpoint` with its headers and time limit: a browser that
    /// runs elsewhere, connected to again when it went away.
    pub remote: Option<crate::attach::Remote>,
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
    /// CDP permission types granted to every context
    /// (`--grant-permissions`).
    pub permissions: Vec<String>,
    /// Close a launched browser after this long without a call
    /// (`--idle-timeout`); the next call relaunches it.
    pub idle_timeout: Option<Duration>,
    /// Refuse navigations to `file:` URLs (unless
    /// `--allow-unrestricted-file-access`).
    pub block_file_urls: bool,
}

/// The browser every session of this server uses.
pub struct BrowserHost {
    config: HostConfig,
    chromium: Mutex<Option<Arc<Chromium>>>,
    pid: Arc<AtomicU32>,
    /// When the last call ended, and whether one runs (the idle timer).
    activity: Mutex<Activity>,
    /// How many times the idle timer closed the browser.
    idle_closes: AtomicU64,
}

#[derive(Debug)]
struct Activity {
    last: Instant,
    running: usize,
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
        let idle = config.idle_timeout;
        let host = Arc::new(BrowserHost {
            config,
            chromium: Mutex::new(None),
            pid: Arc::new(AtomicU32::new(0)),
            activity: Mutex::new(Activity {
                last: Instant::now(),
                running: 0,
            }),
            idle_closes: AtomicU64::new(0),
        });
        if let Some(idle) = idle {
            let weak = Arc::downgrade(&host);
            std::thread::Builder::new()
                .name("idle-timer".into())
                .spawn(move || idle_timer(weak, idle))
                .ok();
        }
        host
    }

    /// A call starts: the idle timer waits for it.
    pub fn call_started(&self) {
        let mut a = lock(&self.activity);
        a.running += 1;
        a.last = Instant::now();
    }

    /// A call ended: the idle time counts from now.
    pub fn call_ended(&self) {
        let mut a = lock(&self.activity);
        a.running = a.running.saturating_sub(1);
        a.last = Instant::now();
    }

    /// How many times the idle timer closed the browser (an engine whose
    /// session died compares it with the count when it opened).
    pub fn idle_closes(&self) -> u64 {
        self.idle_closes.load(Ordering::SeqCst)
    }

    /// `--idle-timeout`.
    pub fn idle_timeout(&self) -> Option<Duration> {
        self.config.idle_timeout
    }

    /// Closes a launched browser that has been idle for `idle`; returns
    /// whether it did.
    fn close_if_idle(&self, idle: Duration) -> bool {
        {
            let a = lock(&self.activity);
            if a.running > 0 || a.last.elapsed() < idle {
                return false;
            }
        }
        let launched = lock(&self.chromium)
            .as_ref()
            .is_some_and(|c| c.pid().is_some());
        if !launched {
            return false;
        }
        tracing::info!(
            "closing the browser: no call for {} ms (--idle-timeout); the next call relaunches it",
            idle.as_millis()
        );
        self.idle_closes.fetch_add(1, Ordering::SeqCst);
        self.shutdown();
        true
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

    /// The remote browser's endpoint as messages show it, when attached.
    pub fn remote(&self) -> Option<String> {
        self.config
            .remote
            .as_ref()
            .map(crate::attach::Remote::shown)
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

    /// What every tab gets (the emulation, for `browser_resize`).
    pub fn setup(&self) -> &TabSetup {
        &self.config.setup
    }

    /// The launch settings.
    pub fn browser_config(&self) -> &BrowserConfig {
        &self.config.browser
    }

    /// Refuses a navigation the origin policy blocks, with what to do.
    pub fn check_navigation(&self, url: &str) -> Result<()> {
        if self.config.block_file_urls
            && url
                .get(..5)
                .is_some_and(|s| s.eq_ignore_ascii_case("file:"))
        {
            bail!(Error::User(format!(
                "navigation to {url} is refused: file: URLs are blocked unless the server runs with --allow-unrestricted-file-access"
            )));
        }
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
            if let Err(e) = chromium
                .allow_downloads(Some(ctx.id()))
                .and_then(|()| self.grant_permissions(&chromium, Some(ctx.id())))
            {
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
            if fresh {
                self.grant_permissions(&chromium, None)?;
            }
            if fresh && let Some(state) = &self.config.storage_state {
                state
                    .load(chromium.cdp(), None, &setup)
                    .map_err(|e| e.context("loading --storage-state"))?;
            }
            if fresh && self.config.remote.is_none() {
                Session::first(chromium, setup, timeout, dialogs)?
            } else {
                Session::open(chromium, None, setup, timeout, dialogs)?
            }
        };
        Ok((session, restarted))
    }

    /// Grants `--grant-permissions` to a context (`None`: the default one),
    /// for every origin.
    fn grant_permissions(&self, chromium: &Chromium, context: Option<&str>) -> Result<()> {
        if self.config.permissions.is_empty() {
            return Ok(());
        }
        let mut params = serde_json::json!({ "permissions": self.config.permissions });
        if let Some(c) = context {
            params["browserContextId"] = serde_json::json!(c);
        }
        chromium
            .cdp()
            .call(
                None,
                "Browser.grantPermissions",
                params,
                Duration::from_secs(5),
            )
            .map_err(|e| e.context("granting --grant-permissions"))?;
        Ok(())
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
        let chromium = Arc::new(match &self.config.remote {
            Some(remote) => {
                // The agent cannot fix this; the operator can: say what
                // failed (never a credential: crate::attach::redact).
                let attach = || -> Result<Chromium> {
                    let cdp = remote.connect()?;
                    let c = Chromium::attach(cdp, self.config.browser.output_dir.as_deref())?;
                    tracing::info!("attached to the browser at {}", remote.shown());
                    Ok(c)
                };
                attach().map_err(|e| {
                    anyhow!(Error::User(format!(
                        "could not attach to the browser at --cdp-endpoint {}: {e:#}. Check that it runs (with --remote-debugging-port, or that the service is up) and that this host can reach it; the next call tries again",
                        remote.shown()
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

/// Closes the host's browser after `idle` without a call, until the host
/// is gone.
fn idle_timer(host: Weak<BrowserHost>, idle: Duration) {
    let tick = (idle / 4).clamp(Duration::from_millis(50), Duration::from_secs(30));
    loop {
        std::thread::sleep(tick);
        let Some(host) = host.upgrade() else { return };
        host.close_if_idle(idle);
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
