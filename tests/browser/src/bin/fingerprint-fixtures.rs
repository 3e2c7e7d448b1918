//! Captures before/after fingerprint pairs from real Chromium into
//! `tests/fixtures/fingerprint/caseNN.{before,after}.json` (raw extractor
//! output, pretty-printed; the server's port and the capture time pinned so
//! the files are reproducible). The core's tests read them.
//!
//! `cargo run -p response-diff-browser-tests --bin fingerprint-fixtures`

use anyhow::{Context, Result};
use response_diff::fingerprint::ExtractOptions;
use response_diff_browser_tests::{
    Chromium, Server, extract_json, fixtures_dir, load, pages, regressions,
};

/// The cases written, by name (see regressions::cases).
const CASES: [&str; 10] = [
    "button 'New Project' removed",
    "form field 'Email address' removed",
    "whole <nav> removed",
    "error banner in main",
    "project list emptied",
    "heading 'Activity Feed' removed",
    "button hidden: display:none",
    "page covered: z-index overlay",
    "orders page reloaded (1)",
    "project added to the list",
];

fn main() -> Result<()> {
    let server = Server::start()?;
    let chrome = Chromium::launch()?;
    let tab = chrome.tab()?;
    let all = regressions::cases();
    let out = fixtures_dir().join("fingerprint");
    std::fs::create_dir_all(&out)?;
    let origin = server.url("");
    let pin = |raw: String| -> Result<String> {
        let raw = raw.replace(&origin, "http://127.0.0.1:8000");
        let mut v: serde_json::Value = serde_json::from_str(&raw)?;
        v["captured_at"] = "2026-01-23T10:30:45.000Z".into();
        Ok(serde_json::to_string_pretty(&v)? + "\n")
    };
    for (i, name) in CASES.iter().enumerate() {
        let case = all.iter().find(|c| c.name == *name).context("case")?;
        let path = format!("/app/{}", case.base.trim_end_matches(".html"));
        let url = server.url(&path);
        let base = pages::fixture(case.base)?;
        let mut captured = Vec::new();
        for html in [base.clone(), case.edit.apply(&base)?] {
            server.put(&path, html);
            load(&tab, &url)?;
            captured.push(pin(extract_json(&tab, &ExtractOptions::default())?)?);
        }
        let n = i + 1;
        std::fs::write(out.join(format!("case{n:02}.before.json")), &captured[0])?;
        std::fs::write(out.join(format!("case{n:02}.after.json")), &captured[1])?;
        println!("case{n:02}: {name}");
    }
    Ok(())
}
