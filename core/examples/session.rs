//! The main job (interim, until the MCP server's demo): a scripted agent
//! session over realistic page snapshots, rendered through the core's one
//! rendering path three ways — full, filtered by an expectation, and diffed
//! against the previous snapshot — with tokens counted by a real BPE
//! tokenizer (o200k_base, offline).
//!
//! Run: `make demo` (or `cargo run --release -p response-diff --example session`).

use std::path::PathBuf;

use response_diff::diff::ResponseDiffDetector;
use response_diff::expectation::Expectation;
use response_diff::response::{ConsoleMessage, DiffTarget, PageState, Response, Snapshot, render};

struct Step {
    tool: &'static str,
    what: &'static str,
    snapshot: &'static str,
    console: &'static [(&'static str, &'static str)],
}

const STEPS: &[Step] = &[
    Step {
        tool: "browser_navigate",
        what: "open the shop",
        snapshot: "case01_one_line.before",
        console: &[("info", "shop ready")],
    },
    Step {
        tool: "browser_snapshot",
        what: "re-read, nothing changed",
        snapshot: "case05_identical.after",
        console: &[],
    },
    Step {
        tool: "browser_click",
        what: "price drops on one product",
        snapshot: "case01_one_line.after",
        console: &[("log", "price update")],
    },
    Step {
        tool: "browser_click",
        what: "add to cart: the list grows",
        snapshot: "case02_list_item_added.after",
        console: &[("log", "cart +1"), ("log", "cart +1")],
    },
    Step {
        tool: "browser_click",
        what: "a modal opens",
        snapshot: "case03_modal_inserted.after",
        console: &[],
    },
    Step {
        tool: "browser_press_key",
        what: "modal closed (Escape)",
        snapshot: "case05_identical.after",
        console: &[],
    },
    Step {
        tool: "browser_click",
        what: "checkout fails: error banner",
        snapshot: "case07_error_banner.after",
        console: &[("error", "POST /api/pay 503"), ("warning", "retrying")],
    },
    Step {
        tool: "browser_type",
        what: "typing in search (whitespace only)",
        snapshot: "case06_whitespace_only.after",
        console: &[],
    },
    Step {
        tool: "browser_navigate",
        what: "go to checkout: a new page",
        snapshot: "case04_navigation.after",
        console: &[("info", "checkout ready")],
    },
    Step {
        tool: "browser_snapshot",
        what: "re-read checkout",
        snapshot: "case04_navigation.after",
        console: &[],
    },
];

fn fixture(name: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../tests/fixtures/diff/{name}.yml"));
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let bpe = tiktoken_rs::o200k_base_singleton();
    let tokens = |s: &str| bpe.encode_ordinary(s).len();

    let full = Expectation::default();
    let filtered = Expectation::from_json(
        r#"{"includeTabs": false, "includeCode": false,
        "consoleOptions": {"levels": ["error", "warn"]}}"#,
    )?;
    let mut diffed = filtered.clone();
    diffed.merge(&Expectation::from_json(
        r#"{"diffOptions": {"enabled": true}}"#,
    )?);

    let detector = ResponseDiffDetector::new();
    let target = DiffTarget {
        detector: &detector,
        key: "tab-1",
    };

    println!("Scripted agent session, tokens counted with o200k_base (tiktoken-rs, offline).\n");
    println!("| # | tool | what happened | full | filtered | diffed | diff mode |");
    println!("|---|---|---|---:|---:|---:|---|");
    let (mut t_full, mut t_filt, mut t_diff) = (0, 0, 0);
    for (i, step) in STEPS.iter().enumerate() {
        let response = Response {
            result: Some(format!("Ran {}", step.tool)),
            code: Some(format!(
                "await page.{}();",
                step.tool.trim_start_matches("browser_")
            )),
            page: Some(PageState {
                url: "http://127.0.0.1:8000/shop".into(),
                title: "Acme Shop".into(),
            }),
            snapshot: Some(Snapshot::aria(fixture(step.snapshot))),
            console: step
                .console
                .iter()
                .map(|(l, t)| ConsoleMessage::new(*l, *t))
                .collect(),
            ..Response::default()
        };
        let a = render(&response, &Expectation::resolve(step.tool, &[&full])?, None)?;
        let b = render(
            &response,
            &Expectation::resolve(step.tool, &[&filtered])?,
            None,
        )?;
        let c = render(
            &response,
            &Expectation::resolve(step.tool, &[&diffed])?,
            Some(target),
        )?;
        let mode = c.snapshot_diff.as_ref().map_or("-", |r| r.mode.as_str());
        let (x, y, z) = (tokens(&a.text), tokens(&b.text), tokens(&c.text));
        t_full += x;
        t_filt += y;
        t_diff += z;
        println!(
            "| {} | {} | {} | {x} | {y} | {z} | {mode} |",
            i + 1,
            step.tool,
            step.what
        );
    }
    let pct = |t: usize| 100.0 * (1.0 - t as f64 / t_full as f64);
    println!(
        "| | **total** | | **{t_full}** | **{t_filt}** ({:.0}% fewer) | **{t_diff}** ({:.0}% fewer) | |",
        pct(t_filt),
        pct(t_diff)
    );
    Ok(())
}
