//! The browser process: finding Chromium, launching it (flags, a fresh
//! profile removed on exit, downloads allowed into the output directory)
//! or attaching to one (`--cdp-endpoint`), and stopping it.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use headless_chrome::{Browser, LaunchOptions};
use serde_json::{Value, json};

use crate::cdp::Cdp;
use crate::error::lock;

/// Launch settings (from the command line).
#[derive(Debug, Clone)]
pub struct BrowserConfig {
    /// Chromium binary; `None` finds one ([`find_chromium`]).
    pub executable: Option<PathBuf>,
    /// Headless (the default) or headed.
    pub headless: bool,
    /// Chromium's sandbox on (the default unless running as root).
    pub sandbox: bool,
    /// Window (viewport) size in CSS pixels.
    pub viewport: (u32, u32),
    /// Profile directory; `None` makes a fresh one per launch, removed on exit.
    pub user_data_dir: Option<PathBuf>,
    /// Time limit of one action (a click and what it started, waiting for
    /// text, a script).
    pub action_timeout: Duration,
    /// Time limit of a navigation (`browser_navigate`, going back).
    pub navigation_timeout: Duration,
    /// The longest wait after an action for what it started to settle
    /// (`--timeout-settle`); `None`: the action's own time limit.
    pub settle_timeout: Option<Duration>,
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
            sandbox: !is_root(),
            viewport: (1280, 800),
            user_data_dir: None,
            action_timeout: Duration::from_secs(30),
            navigation_timeout: Duration::from_secs(30),
            settle_timeout: None,
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

/// Whether this process runs as root (Chromium then cannot run sandboxed).
pub fn is_root() -> bool {
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

/// How long a browser launched here gets to close itself when its last
/// session ends, before it is killed.
const CLOSE_TIMEOUT: Duration = Duration::from_secs(2);
pub(super) static TAB_KEYS: AtomicU64 = AtomicU64::new(1);

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

/// One browser process (launched here, or attached to with
/// `--cdp-endpoint`) and our connection to it; every [`Session`](super::Session) on it
/// holds an `Arc`. Dropping the last one stops a browser launched here and
/// only disconnects from an attached one.
pub struct Chromium {
    pub(super) browser: Option<Browser>,
    pub(super) cdp: Arc<Cdp>,
    pub(super) profile: Option<PathBuf>,
    pub(super) pid: Option<u32>,
    /// The browser's downloads (`Browser.download*` events come on the
    /// browser's own session, for every context).
    pub(super) downloads: Arc<Mutex<crate::downloads::Downloads>>,
}

impl Drop for Chromium {
    fn drop(&mut self) {
        // A browser launched here is asked to close first, as Chromium
        // closes itself: it writes out a profile the operator keeps
        // (`--user-data-dir`) and removes its singleton socket directory
        // (/tmp/org.chromium.Chromium.*), which a killed browser leaves
        // behind, one for every session.
        if let (Some(_), Some(pid)) = (&self.browser, self.pid) {
            // One bound for the call and the exit together.
            let deadline = Instant::now() + CLOSE_TIMEOUT;
            let _ = self
                .cdp
                .call(None, "Browser.close", json!({}), CLOSE_TIMEOUT);
            while process_alive(pid) && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(20));
            }
        }
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
            .sandbox(config.sandbox)
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

    /// A running browser on a connection made elsewhere
    /// (`crate::attach`). It is never stopped from here: dropping the
    /// handle only disconnects.
    pub fn attach(cdp: Cdp, output_dir: Option<&Path>) -> Result<Chromium> {
        let cdp = Arc::new(cdp);
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
        let downloads = Arc::new(Mutex::new(crate::downloads::Downloads::new(
            out_dir,
            output_dir.is_none(),
        )));
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
