//! Running the corpus: each case loaded and fingerprinted in the live
//! page, compared with its app's baseline, and the report of what was
//! found and what was flagged falsely.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use headless_chrome::Tab;
use response_diff::fingerprint::{
    ExtractOptions, Fingerprint, FingerprintChange, FingerprintComparison, Severity, compare,
};

use super::{App, Case, CaseKind, RegKind, apps, js_str};
use crate::{Server, capture, eval_string};

/// What happened to one case.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The case.
    pub case: Case,
    /// The app's name.
    pub app: &'static str,
    /// The comparison at threshold `info` (everything).
    pub comparison: FingerprintComparison,
}

impl Outcome {
    /// Changes at `warning` or above.
    pub fn flagged(&self) -> Vec<&FingerprintChange> {
        self.comparison
            .changes
            .iter()
            .filter(|c| c.severity >= Severity::Warning)
            .collect()
    }

    /// Found: a flagged change of an expected kind.
    pub fn found(&self) -> bool {
        match self.case.kind {
            CaseKind::Regression(k) => self.flagged().iter().any(|c| k.expect().contains(&c.kind)),
            CaseKind::Trap(_) => false,
        }
    }
}

/// Loads `url`, waits for `ready`, runs `script`, and captures.
fn capture_app(tab: &Tab, url: &str, app: &App, script: &str) -> Result<Fingerprint> {
    load_app(tab, url)?;
    if !app.prepare.is_empty() {
        run_script(tab, url, app.prepare)?;
    }
    wait_for(tab, app.ready).with_context(|| format!("waiting for {url} to render"))?;
    if !script.is_empty() {
        run_script(tab, url, script)?;
    }
    // Two animation frames: the page has laid out what the script changed.
    tab.evaluate(
        "new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r('ok'))))",
        true,
    )
    .context("waiting two animation frames")?;
    capture(tab, &ExtractOptions::default())
}

fn run_script(tab: &Tab, url: &str, script: &str) -> Result<()> {
    let js = format!(
        "(() => {{ try {{ {script}; return 'ok'; }} catch (e) {{ return 'error: ' + e.message; }} }})()"
    );
    let r = eval_string(tab, &js).with_context(|| format!("running a script on {url}"))?;
    if r != "ok" {
        bail!("a script failed on {url}: {r}\n{script}");
    }
    Ok(())
}

/// Like [`crate::load`], but the app's router may add a fragment (`#/`)
/// to the URL as it starts.
fn load_app(tab: &Tab, url: &str) -> Result<()> {
    let _ = tab.evaluate("window.__rdOldDocument = true", false);
    tab.navigate_to(url)
        .with_context(|| format!("navigating to {url}"))?;
    let check = format!(
        "location.href.split('#')[0] === {} && !window.__rdOldDocument && document.readyState === 'complete'",
        js_str(url)
    );
    wait_for(tab, &check).with_context(|| format!("loading {url}"))
}

/// Polls `expression` until it is true (generous deadline: the machine may be loaded).
pub fn wait_for(tab: &Tab, expression: &str) -> Result<()> {
    let deadline = Instant::now() + Duration::from_secs(30);
    let js = format!("!!({expression})");
    loop {
        let ok = tab
            .evaluate(&js, false)
            .ok()
            .and_then(|r| r.value)
            .and_then(|v| v.as_bool())
            .unwrap_or(false);
        if ok {
            return Ok(());
        }
        if Instant::now() > deadline {
            bail!("`{expression}` not true after 30 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Adds the app's todo items through the real UI (typing, Enter, a click).
fn add_todos(tab: &Tab, url: &str, todos: &[&str]) -> Result<()> {
    load_app(tab, url)?;
    wait_for(tab, "!!document.querySelector('#new-todo')")?;
    for (i, t) in todos.iter().enumerate() {
        tab.find_element("#new-todo")?.click()?;
        tab.type_str(t)?.press_key("Enter")?;
        wait_for(
            tab,
            &format!(
                "document.querySelectorAll('#todo-list li').length >= {}",
                i + 1
            ),
        )?;
    }
    tab.find_element("#todo-list li:first-child .toggle")?
        .click()?;
    wait_for(
        tab,
        "document.querySelectorAll('#todo-list li.completed').length >= 1",
    )?;
    Ok(())
}

/// Checks that the apps are installed, with what to run when they are not.
pub fn check_installed() -> Result<()> {
    let dir = crate::apps_dir();
    for p in [
        "todomvc/examples/react/index.html",
        "jsoneditor/examples/01_basic_usage.html",
        "reveal.js/demo.html",
    ] {
        if !dir.join(p).is_file() {
            bail!(
                "{} is missing: install the corpus apps with `make fingerprint-apps` (npm ci in tests/browser/apps)",
                dir.join(p).display()
            );
        }
    }
    Ok(())
}

/// Runs every case in `tab`; pages from `server`.
pub fn run(tab: &Tab, server: &Server, cases: &[Case]) -> Result<Vec<Outcome>> {
    check_installed()?;
    let apps = apps();
    let mut baselines: Vec<Option<Fingerprint>> = vec![None; apps.len()];
    let mut out = Vec::new();
    for case in cases {
        let app = &apps[case.app];
        let url = server.url(app.path);
        if baselines[case.app].is_none() {
            if !app.todos.is_empty() {
                add_todos(tab, &url, app.todos)
                    .with_context(|| format!("adding todos in {}", app.name))?;
            }
            baselines[case.app] = Some(capture_app(tab, &url, app, "")?);
        }
        let comparison = match case.kind {
            CaseKind::Regression(_) => {
                let baseline = baselines[case.app].as_ref().expect("captured above");
                let current = capture_app(tab, &url, app, &case.scripts.1)
                    .with_context(|| format!("{}: {}", app.name, case.name))?;
                compare(baseline, &current, Severity::Info)
            }
            CaseKind::Trap(_) => {
                let before = capture_app(tab, &url, app, &case.scripts.0)?;
                let after = capture_app(tab, &url, app, &case.scripts.1)?;
                compare(&before, &after, Severity::Info)
            }
        };
        out.push(Outcome {
            case: case.clone(),
            app: app.name,
            comparison,
        });
    }
    Ok(out)
}

/// The app family of a name (`todomvc/react` → `todomvc`).
fn family(app: &str) -> &str {
    app.split('/').next().unwrap_or(app)
}

/// The Markdown report: recall per kind, false positives per trap, then
/// one row per case that was missed or flagged wrongly.
pub fn report(outcomes: &[Outcome]) -> String {
    let mut s = String::new();
    let regs: Vec<&Outcome> = outcomes
        .iter()
        .filter(|o| matches!(o.case.kind, CaseKind::Regression(_)))
        .collect();
    let traps: Vec<&Outcome> = outcomes
        .iter()
        .filter(|o| matches!(o.case.kind, CaseKind::Trap(_)))
        .collect();
    let mut apps: Vec<&str> = Vec::new();
    for o in outcomes {
        if !apps.contains(&o.app) {
            apps.push(o.app);
        }
    }
    let mut families: Vec<&str> = apps.iter().map(|a| family(a)).collect();
    families.sort_unstable();
    families.dedup();
    let _ = writeln!(
        s,
        "{} seeded regressions and {} benign-noise traps on {} apps ({}), each case a fresh load at the baseline's URL.\n",
        regs.len(),
        traps.len(),
        families.len(),
        apps.join(", ")
    );
    s.push_str("| regression kind | cases | found (expected type, ≥ warning) | flagged at all | recall |\n|---|---:|---:|---:|---:|\n");
    let mut total_found = 0;
    for kind in RegKind::ALL {
        let of: Vec<&&Outcome> = regs
            .iter()
            .filter(|o| o.case.kind == CaseKind::Regression(kind))
            .collect();
        if of.is_empty() {
            continue;
        }
        let found = of.iter().filter(|o| o.found()).count();
        let flagged = of.iter().filter(|o| !o.flagged().is_empty()).count();
        total_found += found;
        let _ = writeln!(
            s,
            "| {} | {} | {found} | {flagged} | {} |",
            kind.label(),
            of.len(),
            pct(found, of.len())
        );
    }
    let _ = writeln!(
        s,
        "| **all** | {} | **{total_found}** | | **{}** |",
        regs.len(),
        pct(total_found, regs.len())
    );
    s.push_str(
        "\n| app | regressions | found | traps | false positives |\n|---|---:|---:|---:|---:|\n",
    );
    for app in &apps {
        let r: Vec<&&Outcome> = regs.iter().filter(|o| o.app == *app).collect();
        let t: Vec<&&Outcome> = traps.iter().filter(|o| o.app == *app).collect();
        let _ = writeln!(
            s,
            "| {app} | {} | {} | {} | {} |",
            r.len(),
            r.iter().filter(|o| o.found()).count(),
            t.len(),
            t.iter().filter(|o| !o.flagged().is_empty()).count()
        );
    }
    let fp = traps.iter().filter(|o| !o.flagged().is_empty()).count();
    let same = traps
        .iter()
        .filter(|o| o.comparison.baseline_hash == o.comparison.current_hash)
        .count();
    let _ = writeln!(
        s,
        "\nTraps: **{fp} false positives** in {} (a change at `warning` or above between two loads with different noise); {same} of {} kept the same hash.\n",
        traps.len(),
        traps.len()
    );
    let bad: Vec<&Outcome> = outcomes
        .iter()
        .filter(|o| match o.case.kind {
            CaseKind::Regression(_) => !o.found(),
            CaseKind::Trap(_) => !o.flagged().is_empty(),
        })
        .collect();
    if bad.is_empty() {
        s.push_str(
            "Every regression was found with an expected change type; no trap was flagged.\n",
        );
    } else {
        s.push_str(
            "| app | case | verdict | changes at ≥ warning (all changes) |\n|---|---|---|---|\n",
        );
        for o in bad {
            let verdict = match o.case.kind {
                CaseKind::Regression(_) if o.flagged().is_empty() => "MISSED",
                CaseKind::Regression(_) => "flagged, other type",
                CaseKind::Trap(_) => "FALSE POSITIVE",
            };
            let flagged: Vec<String> = o.flagged().iter().map(|c| c.description.clone()).collect();
            let _ = writeln!(
                s,
                "| {} | {} | {verdict} | {} ({} total) |",
                o.app,
                o.case.name.replace('|', "\\|"),
                if flagged.is_empty() {
                    "–".to_owned()
                } else {
                    flagged.join("; ").replace('|', "\\|")
                },
                o.comparison.changes.len()
            );
        }
    }
    s
}

fn pct(a: usize, n: usize) -> String {
    if n == 0 {
        "–".into()
    } else {
        format!("{:.1} %", 100.0 * a as f64 / n as f64)
    }
}
