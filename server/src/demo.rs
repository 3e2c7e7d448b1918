//! `response-diff demo`: a scripted agent session on the bundled demo site
//! (served from 127.0.0.1), through the server's tools, with a per-step
//! token table counted by o200k (tiktoken-rs), and a DOM fingerprint check
//! of a deliberately broken deploy against its baseline.
//!
//! Each step runs once; its capture is rendered five ways:
//! - **full**: the tool's default expectation, no diff (`--snapshot-mode
//!   full`, what a server without response-diff returns);
//! - **default**: what `response-diff mcp` sends with no flags and no
//!   expectation (`--snapshot-mode diff`: the tool's defaults with the
//!   snapshot as a patch or diff since the previous call on the tab);
//! - **filtered**: the expectation the agent sends (code off, console errors
//!   and warnings only, the snapshot scoped where the agent knows the region);
//! - **filtered + diff**: the same plus `diffOptions.enabled`;
//! - **since**: the same as filtered, the snapshot as a tree diff since the
//!   previous read (`browser_snapshot` with `since`); after a navigation the
//!   agent reads the new page in full.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, anyhow, bail};
use clap::Args;
use response_diff::expectation::Expectation;
use response_diff::tree::{Element, Selector, Tree};
use serde_json::{Value, json};
use tiktoken_rs::CoreBPE;

use crate::cli::BrowserFlags;
use crate::engine::{Engine, EngineConfig, Output};
use crate::site::{Site, bundled_site_dir};
use crate::tools;

/// `demo`.
#[derive(Args, Debug)]
pub struct DemoArgs {
    /// The site to serve (default: the bundled tests/fixtures/site).
    #[arg(long, value_name = "DIR")]
    pub site: Option<PathBuf>,
    /// Write every step's four responses here (Markdown).
    #[arg(long, value_name = "FILE")]
    pub transcript: Option<PathBuf>,
    #[allow(missing_docs)]
    #[command(flatten)]
    pub browser: BrowserFlags,
}

/// One row of the table.
#[derive(Debug, Clone)]
pub struct Row {
    /// What the agent did.
    pub step: String,
    /// Tokens of the full response.
    pub full: usize,
    /// Tokens of what the server sends with no flags (diffs on).
    pub default: usize,
    /// Tokens with the agent's expectation.
    pub filtered: usize,
    /// Tokens with the expectation and the response diff.
    pub diffed: usize,
    /// Tokens with the expectation and a `since` tree diff.
    pub since: usize,
    /// The response diff's mode (`first`, `diff`, `unchanged`, `full`).
    pub mode: String,
}

/// The session's result.
#[derive(Debug, Clone)]
pub struct Report {
    /// Rows in order.
    pub rows: Vec<Row>,
    /// The fingerprint comparison text.
    pub comparison: String,
    /// Tokens of the comparison text.
    pub comparison_tokens: usize,
    /// Tokens of a full snapshot response of the broken page (what the agent
    /// would read instead).
    pub broken_full_tokens: usize,
    /// The transcript (every response of every variant).
    pub transcript: String,
}

/// Counts tokens with o200k.
pub struct Counter(CoreBPE);

impl Counter {
    /// Loads the o200k_base encoding (embedded; works offline).
    pub fn new() -> Result<Counter> {
        Ok(Counter(tiktoken_rs::o200k_base()?))
    }

    /// Tokens of `text`.
    pub fn count(&self, text: &str) -> usize {
        self.0.encode_with_special_tokens(text).len()
    }
}

struct Session<'a> {
    engine: Engine,
    site: &'a Site,
    counter: Counter,
    rows: Vec<Row>,
    transcript: String,
    prev_ts: Option<u64>,
    prev_url: Option<String>,
    tree: Tree,
    global: Expectation,
}

impl Session<'_> {
    /// Runs one step and records its five renderings.
    fn step(&mut self, label: &str, tool: &str, args: Value, scope: Option<&str>) -> Result<()> {
        let Value::Object(args) = args else {
            bail!("arguments must be an object");
        };
        let parsed = tools::parse(tool, args).map_err(|e| anyhow!("{label}: {e}"))?;
        let performed = self
            .engine
            .perform(&parsed)
            .map_err(|o| anyhow!("{label}: {}", o.text))?;
        let key = performed.key().to_owned();
        let url = performed_url(&performed);
        let navigated = self.prev_url.as_deref() != Some(url.as_str());
        let mut agent = self.global.clone();
        if let Some(sel) = scope {
            agent.merge(&Expectation::from_value_at(
                &json!({"snapshotOptions": {"selector": sel}}),
                "expectation",
            )?);
        }
        let mut diffed = agent.clone();
        diffed.merge(&Expectation::from_value_at(
            &json!({"diffOptions": {"enabled": true}}),
            "expectation",
        )?);
        let full_exp = Expectation::resolve(parsed.tool, &[])?;
        // What `--snapshot-mode diff` (the default) adds to every call.
        let default_exp = self
            .engine
            .resolve(
                parsed.tool,
                None,
                &Expectation::from_value_at(
                    &json!({"diffOptions": {"enabled": true}}),
                    "expectation",
                )?,
            )
            .map_err(|e| anyhow!(e))?;
        let agent_exp = self
            .engine
            .resolve(parsed.tool, None, &agent)
            .map_err(|e| anyhow!(e))?;
        let diff_exp = self
            .engine
            .resolve(parsed.tool, None, &diffed)
            .map_err(|e| anyhow!(e))?;
        let full = self
            .engine
            .render(&performed, &full_exp, &format!("full:{key}"));
        let default = self
            .engine
            .render(&performed, &default_exp, &format!("default:{key}"));
        let filtered = self
            .engine
            .render(&performed, &agent_exp, &format!("filtered:{key}"));
        let diff = self
            .engine
            .render(&performed, &diff_exp, &format!("diffed:{key}"));
        let since_at = if navigated { None } else { self.prev_ts };
        let since =
            self.engine
                .render_since(&performed, &agent_exp, &format!("since:{key}"), since_at);
        for o in [&full, &default, &filtered, &diff, &since] {
            if o.is_error {
                bail!("{label}: {}", o.text);
            }
        }
        if since.ts.is_some() {
            self.prev_ts = since.ts;
        }
        self.prev_url = Some(url);
        if let Some(t) = performed.tree() {
            self.tree = t.clone();
        }
        let mode = mode_of(&default);
        let n = self.rows.len() + 1;
        let _ = write!(
            self.transcript,
            "\n## {n}. {label}\n\n### full\n\n{}\n\n### default\n\n{}\n\n### filtered\n\n{}\n\n### filtered + diff\n\n{}\n\n### since\n\n{}\n",
            full.text, default.text, filtered.text, diff.text, since.text
        );
        self.rows.push(Row {
            step: label.to_owned(),
            full: self.counter.count(&full.text),
            default: self.counter.count(&default.text),
            filtered: self.counter.count(&filtered.text),
            diffed: self.counter.count(&diff.text),
            since: self.counter.count(&since.text),
            mode,
        });
        Ok(())
    }

    /// The ref of the first element matching `selector` inside the
    /// smallest element that holds both it and an element matching
    /// `within` (the block `within` names or titles, as an article is
    /// titled by its heading), or anywhere.
    fn find(&self, within: Option<&str>, selector: &str) -> Result<String> {
        let sel = Selector::parse(selector)?;
        let root: Vec<&Element> = match within {
            Some(w) => {
                let w = Selector::parse(w)?;
                let holds = |e: &Element, s: &Selector| e.descendants().any(|(_, d)| s.matches(d));
                // Pre-order: a later element holding both is a deeper one.
                let block = self
                    .tree
                    .roots
                    .iter()
                    .flat_map(|r| r.descendants())
                    .map(|(_, e)| e)
                    .filter(|e| holds(e, &w) && holds(e, &sel))
                    .last();
                vec![block.ok_or_else(|| {
                    anyhow!(
                        "no `{selector}` by `{}` on the page",
                        within.unwrap_or_default()
                    )
                })?]
            }
            None => self.tree.roots.iter().collect(),
        };
        root.iter()
            .flat_map(|r| r.descendants())
            .map(|(_, e)| e)
            .find(|e| sel.matches(e))
            .and_then(|e| e.aria_ref.clone())
            .ok_or_else(|| anyhow!("no `{selector}` on the page"))
    }

    fn call(&mut self, tool: &str, args: Value) -> Result<Output> {
        let Value::Object(args) = args else {
            bail!("arguments must be an object");
        };
        let out = self
            .engine
            .call(tool, args)
            .map_err(|e| anyhow!("{tool}: {e}"))?;
        if out.is_error {
            bail!("{tool}: {}", out.text);
        }
        Ok(out)
    }
}

fn performed_url(p: &crate::engine::Performed) -> String {
    p.page_url().unwrap_or_default().to_owned()
}

fn mode_of(o: &Output) -> String {
    if o.text.contains("### Page snapshot (patch") {
        "patch".into()
    } else if o.text.contains("### Page snapshot (diff since the ") {
        "diff".into()
    } else if o.text.contains("No changes since the ") {
        "unchanged".into()
    } else if o.text.contains("### Page snapshot\nFull response (") {
        "full".into()
    } else if o.text.contains("### Page snapshot\n```") {
        "first".into()
    } else {
        "no snapshot".into()
    }
}

/// Runs the scripted session against a running site.
pub fn session(site: &Site, engine: Engine) -> Result<Report> {
    let global = Expectation::from_value_at(
        &json!({"includeCode": false, "consoleOptions": {"levels": ["error", "warn"]}}),
        "globalExpectation",
    )?;
    let mut s = Session {
        engine,
        site,
        counter: Counter::new()?,
        rows: Vec::new(),
        transcript: String::from(
            "# Demo transcript\n\nEvery step's four responses, as the agent would read them.\n",
        ),
        prev_ts: None,
        prev_url: None,
        tree: Tree::default(),
        global,
    };
    let shop = s.site.url("/index.html");
    let cart = r#"complementary "Cart""#;

    // A clean start: no regression flag from an earlier run of this profile.
    s.call(
        "browser_navigate",
        json!({"url": shop, "expectation": {"includeSnapshot": false}}),
    )?;
    s.call("browser_evaluate", json!({"function": "() => localStorage.removeItem('regression')", "expectation": {"includeConsole": false}}))?;

    s.step(
        "navigate to the shop",
        "browser_navigate",
        json!({"url": shop}),
        None,
    )?;
    s.call(
        "browser_get_dom_fingerprint",
        json!({"saveAs": "shop", "depth": "detailed"}),
    )?;
    for tea in ["Sencha Kyoto", "Jasmine Pearls", "Assam Breakfast"] {
        let r = s.find(
            Some(&format!("heading {}", json_str(tea))),
            r#"button "Add to cart""#,
        )?;
        s.step(
            &format!("add {tea} to the cart"),
            "browser_click",
            json!({"ref": r}),
            Some(cart),
        )?;
    }
    let r = s.find(Some(r#"heading "Oolong Milk""#), r#"button "Quick view""#)?;
    s.step(
        "open Quick view (modal)",
        "browser_click",
        json!({"ref": r}),
        None,
    )?;
    let r = s.find(Some("dialog"), r#"button "Add to cart""#)?;
    s.step(
        "add from the modal (closes it)",
        "browser_click",
        json!({"ref": r}),
        Some(cart),
    )?;
    let r = s.find(Some(cart), r#"button "Remove Jasmine Pearls""#)?;
    s.step(
        "remove Jasmine Pearls",
        "browser_click",
        json!({"ref": r}),
        Some(cart),
    )?;
    s.step(
        "snapshot (nothing changed)",
        "browser_snapshot",
        json!({}),
        None,
    )?;
    let r = s.find(None, r#"button "Checkout""#)?;
    s.step(
        "checkout (error banner)",
        "browser_click",
        json!({"ref": r}),
        None,
    )?;
    let r = s.find(None, r#"searchbox "Search teas""#)?;
    s.step(
        "search \"earl\" (list filters)",
        "browser_type",
        json!({"ref": r, "text": "earl", "submit": true}),
        None,
    )?;
    let r = s.find(Some(r#"navigation "Main""#), r#"link "Sign up""#)?;
    s.step(
        "go to Sign up (new page)",
        "browser_click",
        json!({"ref": r}),
        None,
    )?;
    let r = s.find(None, r#"textbox "Full name""#)?;
    s.step(
        "type the name",
        "browser_type",
        json!({"ref": r, "text": "Ada Lovelace"}),
        None,
    )?;
    let r = s.find(None, r#"textbox "Email""#)?;
    s.step(
        "type a bad email",
        "browser_type",
        json!({"ref": r, "text": "ada@"}),
        None,
    )?;
    let r = s.find(None, r#"button "Create account""#)?;
    s.step(
        "submit (validation errors)",
        "browser_click",
        json!({"ref": r}),
        None,
    )?;
    let r = s.find(None, r#"textbox "Email""#)?;
    s.step(
        "fix the email",
        "browser_type",
        json!({"ref": r, "text": "ada@example.com"}),
        None,
    )?;
    let r = s.find(None, r#"textbox "Password""#)?;
    s.step(
        "type a password",
        "browser_type",
        json!({"ref": r, "text": "correct horse"}),
        None,
    )?;
    let r = s.find(None, r#"combobox "Country""#)?;
    s.step(
        "choose a country",
        "browser_select_option",
        json!({"ref": r, "values": ["Japan"]}),
        None,
    )?;
    let r = s.find(None, r#"checkbox "I accept the terms""#)?;
    s.step("accept the terms", "browser_click", json!({"ref": r}), None)?;
    let r = s.find(None, r#"button "Create account""#)?;
    s.step("submit (welcome)", "browser_click", json!({"ref": r}), None)?;
    s.step("back to the shop", "browser_navigate_back", json!({}), None)?;

    // A bad deploy of the same page: compare with the baseline.
    s.call("browser_evaluate", json!({"function": "() => localStorage.setItem('regression', '1')", "expectation": {"includeConsole": false}}))?;
    let broken = s.call("browser_navigate", json!({"url": shop}))?;
    let broken_full_tokens = s.counter.count(&broken.text);
    let cmp = s.call(
        "browser_compare_dom_fingerprint",
        json!({"against": "shop", "depth": "detailed", "expectation": {"includeConsole": false}}),
    )?;
    s.call("browser_evaluate", json!({"function": "() => localStorage.removeItem('regression')", "expectation": {"includeConsole": false}}))?;
    let comparison = cmp
        .text
        .split_once("### Result\n")
        .map(|(_, r)| r.split("\n\n### ").next().unwrap_or(r))
        .unwrap_or(&cmp.text)
        .to_owned();
    let comparison_tokens = s.counter.count(&cmp.text);
    let _ = write!(
        s.transcript,
        "\n## Fingerprint comparison\n\n{}\n",
        cmp.text
    );
    s.engine.shutdown();
    Ok(Report {
        rows: s.rows,
        comparison,
        comparison_tokens,
        broken_full_tokens,
        transcript: s.transcript,
    })
}

fn json_str(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

fn pct(part: usize, whole: usize) -> String {
    if whole == 0 {
        return "—".into();
    }
    format!("{:.1} %", 100.0 * (1.0 - part as f64 / whole as f64))
}

/// The report as Markdown.
pub fn table(r: &Report) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Tokens per response, counted with o200k_base (tiktoken-rs), one run of each step rendered five ways.\n"
    );
    let _ = writeln!(
        out,
        "| # | step | full | default (no flags) | filtered | filtered + diff | since | default's answer |"
    );
    let _ = writeln!(out, "|---:|---|---:|---:|---:|---:|---:|---|");
    let (mut f, mut de, mut fi, mut d, mut s) = (0, 0, 0, 0, 0);
    for (i, row) in r.rows.iter().enumerate() {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            i + 1,
            row.step,
            row.full,
            row.default,
            row.filtered,
            row.diffed,
            row.since,
            row.mode
        );
        f += row.full;
        de += row.default;
        fi += row.filtered;
        d += row.diffed;
        s += row.since;
    }
    let _ = writeln!(
        out,
        "| | **total** | **{f}** | **{de}** | **{fi}** | **{d}** | **{s}** | |"
    );
    let _ = writeln!(
        out,
        "| | **fewer than full** | | **{}** | **{}** | **{}** | **{}** | |",
        pct(de, f),
        pct(fi, f),
        pct(d, f),
        pct(s, f)
    );
    let _ = writeln!(
        out,
        "\nFingerprint of the broken deploy against the baseline `shop` ({} tokens; reading the broken page in full: {} tokens):\n\n```text\n{}\n```",
        r.comparison_tokens,
        r.broken_full_tokens,
        r.comparison.trim_end()
    );
    out
}

/// `demo`: serves the site, runs the session, prints the table.
pub fn run(a: DemoArgs) -> Result<ExitCode> {
    let dir = a.site.clone().unwrap_or_else(bundled_site_dir);
    let site = Site::serve(&dir, 0).with_context(|| format!("serving {}", dir.display()))?;
    eprintln!("serving {} at {}", dir.display(), site.origin());
    // An engine made in code answers in full (SnapshotMode::Full): each
    // variant's expectation says what it asks for, and "default" adds what
    // `--snapshot-mode diff` adds.
    let engine = Engine::new(EngineConfig {
        browser: a.browser.config()?,
        ..EngineConfig::default()
    })?;
    let report = session(&site, engine)?;
    print!("{}", table(&report));
    if let Some(path) = &a.transcript {
        std::fs::write(path, &report.transcript)
            .with_context(|| format!("writing {}", path.display()))?;
        eprintln!("transcript: {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}
