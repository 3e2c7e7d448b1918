//! Browser-driven tests and benchmarks for response-diff.
//!
//! Real headless Chromium (Debian's `chromium`) through `headless_chrome`,
//! on pages served by a small HTTP server bound to 127.0.0.1. Nothing here
//! leaves the loopback interface.

pub mod corpus;
pub mod pages;
pub mod regressions;
pub mod server;

use std::ffi::OsStr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use headless_chrome::{Browser, LaunchOptions, Tab};
use response_diff::fingerprint::{ExtractOptions, Fingerprint};

pub use server::Server;

/// The fixtures folder (`tests/fixtures`) of the repository.
pub fn fixtures_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fixtures")
}

/// Where the corpus's third-party apps are installed
/// (`tests/browser/apps/node_modules`, by `make fingerprint-apps`).
pub fn apps_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("apps/node_modules")
}

/// The Chromium binary: `$CHROMIUM`, else Debian's real binary behind the
/// `/usr/bin/chromium` wrapper, else the wrapper.
pub fn chromium_path() -> PathBuf {
    if let Some(p) = std::env::var_os("CHROMIUM") {
        return PathBuf::from(p);
    }
    let real = PathBuf::from("/usr/lib/chromium/chromium");
    if real.exists() {
        real
    } else {
        PathBuf::from("/usr/bin/chromium")
    }
}

/// A headless Chromium with a fresh profile; both go away on drop.
pub struct Chromium {
    browser: Option<Browser>,
    profile: PathBuf,
}

impl Drop for Chromium {
    fn drop(&mut self) {
        // The socket directory Chromium made in /tmp for this profile (its
        // SingletonSocket link): a killed browser leaves it behind.
        let socket = std::fs::read_link(self.profile.join("SingletonSocket"))
            .ok()
            .and_then(|p| p.parent().map(PathBuf::from))
            .filter(|d| {
                d.file_name()
                    .and_then(OsStr::to_str)
                    .is_some_and(|n| n.starts_with("org.chromium.Chromium."))
            });
        // Stop the browser first, then remove its profile (it may still be
        // writing for a moment after the kill).
        drop(self.browser.take());
        for dir in [Some(&self.profile), socket.as_ref()].into_iter().flatten() {
            for _ in 0..20 {
                if std::fs::remove_dir_all(dir).is_ok() || !dir.exists() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        }
    }
}

static PROFILE_COUNTER: AtomicU64 = AtomicU64::new(0);

impl Chromium {
    /// Launches Chromium headless: no sandbox (tests run as root), no GPU,
    /// no background networking, a fresh user-data-dir, 1280×800.
    pub fn launch() -> Result<Chromium> {
        let path = chromium_path();
        if !path.exists() {
            bail!(
                "Chromium not found at {} (run scripts/ensure-chromium.sh or set CHROMIUM)",
                path.display()
            );
        }
        let profile = std::env::temp_dir().join(format!(
            "rd-browser-tests-{}-{}",
            std::process::id(),
            PROFILE_COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&profile);
        std::fs::create_dir_all(&profile)?;
        let args: Vec<&OsStr> = response_diff_server::browser::CHROMIUM_FLAGS
            .iter()
            // Pages never reach past the loopback interface: the corpus's
            // third-party apps link fonts and images on other hosts, and
            // those fail at once, the same way on every run.
            .chain(&["--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"])
            .map(|a| OsStr::new(*a))
            .collect();
        let options = LaunchOptions::default_builder()
            .path(Some(path))
            .headless(true)
            .sandbox(false)
            .window_size(Some((1280, 800)))
            .user_data_dir(Some(profile.clone()))
            .idle_browser_timeout(Duration::from_secs(3600))
            .args(args)
            .build()
            .map_err(|e| anyhow!("launch options: {e}"))?;
        let browser = Browser::new(options).context("launching Chromium")?;
        Ok(Chromium {
            browser: Some(browser),
            profile,
        })
    }

    /// The browser.
    pub fn browser(&self) -> &Browser {
        self.browser.as_ref().expect("present until drop")
    }

    /// A new tab.
    pub fn tab(&self) -> Result<Arc<Tab>> {
        let tab = self.browser().new_tab().context("opening a tab")?;
        tab.set_default_timeout(Duration::from_secs(30));
        Ok(tab)
    }
}

/// Navigates and waits until the new document has finished loading,
/// without the fixed network-idle wait of `wait_until_navigated`. The old
/// document is marked first, so loading the same URL again is told apart.
pub fn load(tab: &Tab, url: &str) -> Result<()> {
    let _ = tab.evaluate("window.__rdOldDocument = true", false);
    tab.navigate_to(url)
        .with_context(|| format!("navigating to {url}"))?;
    let check = format!(
        "location.href === {} && !window.__rdOldDocument && document.readyState === 'complete'",
        serde_json::to_string(url)?
    );
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let done = tab
            .evaluate(&check, false)
            .ok()
            .and_then(|r| r.value)
            .and_then(|v| v.as_bool())
            .unwrap_or(false);
        if done {
            return Ok(());
        }
        if Instant::now() > deadline {
            bail!("{url} did not finish loading in 20 s");
        }
        std::thread::sleep(Duration::from_millis(15));
    }
}

/// Evaluates an expression that returns a string, and returns it.
pub fn eval_string(tab: &Tab, expression: &str) -> Result<String> {
    let result = tab.evaluate(expression, false).context("evaluating")?;
    match result.value {
        Some(serde_json::Value::String(s)) => Ok(s),
        other => bail!(
            "expected a string, got {other:?} ({:?})",
            result.description
        ),
    }
}

/// Runs the extractor in the page and returns its raw JSON.
pub fn extract_json(tab: &Tab, options: &ExtractOptions) -> Result<String> {
    eval_string(tab, &options.expression())
}

/// Runs the extractor in the page and parses the result.
pub fn capture(tab: &Tab, options: &ExtractOptions) -> Result<Fingerprint> {
    let json = extract_json(tab, options)?;
    Ok(Fingerprint::from_json(&json)?)
}

/// Extraction time measured inside the page with `performance.now()`.
#[derive(Debug, Clone, Copy)]
pub struct PageTiming {
    /// The extractor call, in milliseconds.
    pub extract_ms: f64,
    /// `JSON.stringify` of its result, in milliseconds.
    pub stringify_ms: f64,
    /// Bytes of JSON produced.
    pub bytes: usize,
    /// Elements in the document (`querySelectorAll('*')`).
    pub elements: usize,
}

/// Times one extraction inside the page. With `dirty`, the page's style and
/// layout are invalidated first (as after an agent's action), so the
/// extractor pays for the recalculation its first reads trigger.
pub fn time_extraction(tab: &Tab, options: &ExtractOptions, dirty: bool) -> Result<PageTiming> {
    let invalidate = if dirty {
        "document.body.style.paddingTop = (document.body.style.paddingTop === '1px' ? '0px' : '1px'); document.body.classList.toggle('rd-bench');"
    } else {
        ""
    };
    let js = format!(
        "(() => {{ const f = ({js}); const o = {opts}; {invalidate} \
         const t0 = performance.now(); const r = f(o); const t1 = performance.now(); \
         const s = JSON.stringify(r); const t2 = performance.now(); \
         return JSON.stringify({{extract: t1 - t0, stringify: t2 - t1, bytes: s.length, \
         elements: document.querySelectorAll('*').length, error: r.error || null}}); }})()",
        js = response_diff::fingerprint::FINGERPRINT_SCRIPT,
        opts = options.to_json(),
    );
    let out: serde_json::Value = serde_json::from_str(&eval_string(tab, &js)?)?;
    if !out["error"].is_null() {
        bail!("extractor error: {}", out["error"]);
    }
    Ok(PageTiming {
        extract_ms: out["extract"].as_f64().unwrap_or(f64::NAN),
        stringify_ms: out["stringify"].as_f64().unwrap_or(f64::NAN),
        bytes: out["bytes"].as_u64().unwrap_or(0) as usize,
        elements: out["elements"].as_u64().unwrap_or(0) as usize,
    })
}

/// Median of a non-empty slice.
pub fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n == 0 {
        f64::NAN
    } else if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}
