//! Runs the fingerprint regression benchmark in headless Chromium and
//! prints a Markdown report.
//!
//! `cargo run -p response-diff-browser-tests --release --bin fingerprint-regressions`

use anyhow::Result;
use response_diff_browser_tests::{Chromium, Server, regressions};

fn main() -> Result<()> {
    let server = Server::start()?;
    let chrome = Chromium::launch()?;
    let tab = chrome.tab()?;
    let cases = regressions::cases();
    let outcomes = regressions::run(&tab, &server, &cases)?;
    println!("## DOM fingerprint regression benchmark\n");
    println!(
        "Chromium headless, pages served from 127.0.0.1, each variant at the same URL as its \
         baseline; compare at threshold `warning` (the default).\n"
    );
    print!("{}", regressions::report(&outcomes));
    Ok(())
}
