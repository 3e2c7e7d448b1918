//! Runs the fingerprint regression corpus (third-party apps: TodoMVC in
//! several frameworks, jsoneditor, reveal.js, plus the dashboard) in
//! headless Chromium and prints a Markdown report: recall per regression
//! kind, false positives on benign-noise traps.
//!
//! Needs `make fingerprint-apps` first (npm ci in tests/browser/apps).
//!
//! `cargo run -p response-diff-browser-tests --release --bin fingerprint-corpus [filter]`
//! (a filter keeps the apps whose name contains it).

use anyhow::Result;
use response_diff_browser_tests::{Chromium, Server, corpus};

fn main() -> Result<()> {
    corpus::check_installed()?;
    let filter = std::env::args().nth(1).unwrap_or_default();
    let apps = corpus::apps();
    let cases: Vec<_> = corpus::cases()
        .into_iter()
        .filter(|c| apps[c.app].name.contains(filter.as_str()))
        .collect();
    let server = Server::start()?;
    let chrome = Chromium::launch()?;
    let tab = chrome.tab()?;
    let outcomes = corpus::run(&tab, &server, &cases)?;
    println!("## DOM fingerprint regression corpus (third-party apps)\n");
    println!(
        "Chromium headless, apps from npm (`todomvc`, `jsoneditor`, `reveal.js`, locked in \
         tests/browser/apps) served from 127.0.0.1; regressions are scripts run in the live page \
         after load; compare at threshold `warning` (the default). A regression counts as found \
         when a change at `warning` or above has a type that names it.\n"
    );
    print!("{}", corpus::report(&outcomes));
    Ok(())
}
