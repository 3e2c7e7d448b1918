//! Measures extraction time inside the page (performance.now() around the
//! extractor) on generated pages, and prints a Markdown table.
//!
//! `cargo run -p response-diff-browser-tests --release --bin fingerprint-speed [runs]`

use anyhow::Result;
use response_diff::fingerprint::{Depth, ExtractOptions, Fingerprint, Scope};
use response_diff_browser_tests::{Chromium, Server, load, median, time_extraction};

fn main() -> Result<()> {
    let runs: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(25)
        .max(1);
    let server = Server::start()?;
    let chrome = Chromium::launch()?;
    let tab = chrome.tab()?;
    println!("## DOM fingerprint extraction time, in the page\n");
    println!(
        "Median of {runs} runs after 3 warm-up runs; `performance.now()` inside the page \
         (Chromium coarsens it to 0.1 ms). *clean*: style and layout already computed; \
         *dirty*: the page's style and layout are invalidated just before each run, as after \
         an agent's action, so the extractor's first read pays for the recalculation.\n"
    );
    println!(
        "| page | elements | depth | median clean (ms) | median dirty (ms) | max dirty (ms) | JSON.stringify (ms) | JSON bytes | est. tokens |"
    );
    println!("|---|---:|---|---:|---:|---:|---:|---:|---:|");
    // The last row covers the page with a transparent layer: every element
    // in view is then hit-tested at all five points (the worst case of the
    // covered check; an uncovered element costs one point).
    for (n, depth, overlay) in [
        (2000, Depth::Standard, false),
        (2000, Depth::Minimal, false),
        (2000, Depth::Detailed, false),
        (10000, Depth::Standard, false),
        (2000, Depth::Standard, true),
    ] {
        let url = server.url(&format!("/generated/big?n={n}"));
        load(&tab, &url)?;
        if overlay {
            tab.evaluate(
                "document.body.insertAdjacentHTML('beforeend', '<div style=\"position:fixed;inset:0;z-index:9;background:transparent\"></div>')",
                false,
            )?;
        }
        let opts = ExtractOptions::new(Scope::Full, depth);
        for _ in 0..3 {
            time_extraction(&tab, &opts, false)?;
        }
        let mut clean = Vec::new();
        let mut dirty = Vec::new();
        let mut stringify = Vec::new();
        let mut last = None;
        for _ in 0..runs {
            let t = time_extraction(&tab, &opts, false)?;
            clean.push(t.extract_ms);
            stringify.push(t.stringify_ms);
            let t = time_extraction(&tab, &opts, true)?;
            dirty.push(t.extract_ms);
            last = Some(t);
        }
        let t = last.expect("runs >= 1");
        let fp = Fingerprint::from_json(&response_diff_browser_tests::extract_json(&tab, &opts)?)?;
        println!(
            "| generated{} | {} | {} | {:.1} | {:.1} | {:.1} | {:.1} | {} | {} |",
            if overlay { ", covered by a layer" } else { "" },
            t.elements,
            depth,
            median(&clean),
            median(&dirty),
            dirty.iter().cloned().fold(f64::MIN, f64::max),
            median(&stringify),
            t.bytes,
            fp.token_count,
        );
    }
    println!("\nTokens: {}.", response_diff::tokens::ESTIMATE_LABEL);
    Ok(())
}
