//! Response rendering (docs/DECISIONS.md D5): one function renders a response's
//! sections to Markdown under an expectation, so every host (Rust server,
//! Node, Python, C) prints the same text for the same input.
//!
//! Sections come in a fixed order with `### ` headings: result, code, open
//! tabs, page state, page snapshot, console messages, downloads. Images stay
//! separate content items.
//!
//! ```
//! use response_diff::expectation::Expectation;
//! use response_diff::response::{render, ConsoleMessage, PageState, Response, Snapshot};
//!
//! let response = Response {
//!     result: Some("Clicked \"Add to cart\"".into()),
//!     page: Some(PageState { url: "http://127.0.0.1:8080/".into(), title: "Shop".into() }),
//!     snapshot: Some(Snapshot::aria("- main [ref=e1]:\n  - button \"Add to cart\" [ref=e2]")),
//!     console: vec![ConsoleMessage::new("error", "Cart service down")],
//!     ..Response::default()
//! };
//! let step = Expectation::from_json(r#"{"includeConsole": false}"#).unwrap();
//! let exp = Expectation::resolve("browser_click", &[&step]).unwrap();
//! let out = render(&response, &exp, None).unwrap();
//! assert!(out.text.starts_with("### Result\nClicked \"Add to cart\"\n"));
//! assert!(out.text.contains("### Page snapshot\n```yaml\n- main [ref=e1]:"));
//! assert!(!out.text.contains("Cart service down"));
//! ```

use crate::prelude::*;

mod base;
mod base64;
mod batch;
mod chain;
mod console;
#[cfg(feature = "images")]
mod image;
mod model;
mod snapshot;
mod snapshot_section;

use core::fmt::Write as _;

use serde::Serialize;

use crate::Result;
use crate::diff::DiffResult;
use crate::expectation::ResolvedExpectation;

pub use base::{BaseDiff, REBASE_SHARE, diff_against_base};
pub use batch::{BatchReport, BatchStep, render_batch};
pub use chain::{DiffTarget, section_unchanged};
pub use model::{ConsoleMessage, Download, Image, PageState, Response, Section, Snapshot, Tab};
pub use snapshot::{SnapshotView, fence, truncate_lines, view_snapshot};
pub use snapshot_section::{SHOWN_SHARE, SnapshotSection, continue_shown, render_snapshot_section};

use chain::{previously_shown, unchanged_since_shown};
use console::render_console;
use snapshot_section::{section, snapshot_section};

/// A rendered response.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RenderedResponse {
    /// The Markdown text.
    pub text: String,
    /// Images, resized and re-encoded per `imageOptions`.
    pub images: Vec<Image>,
    /// Whether the result is an error.
    pub is_error: bool,
    /// The snapshot diff, when diffing was on and a snapshot was shown.
    pub snapshot_diff: Option<DiffResult>,
}

/// Renders `response` under `expectation`.
///
/// With `diff` given and `diffOptions.enabled` on, the snapshot section is
/// compared with the previous snapshot under the same key and shown as a
/// diff, a one-line "unchanged", or in full. With diffing off, the stored
/// previous snapshot is neither read nor moved, so an agent can peek at the
/// full page without breaking its diff chain.
pub fn render(
    response: &Response,
    expectation: &ResolvedExpectation,
    diff: Option<DiffTarget<'_>>,
) -> Result<RenderedResponse> {
    let mut out = String::new();
    let mut snapshot_diff = None;
    // With diffing on, a section the agent was shown in the previous
    // response for this key, unchanged since, is left out (see
    // `unchanged_since_shown`).
    let chain = diff.filter(|_| expectation.diff.enabled);

    if let Some(result) = &response.result {
        section(&mut out, "Result", result);
    }
    if expectation.include_code
        && let Some(code) = response.code.as_deref().filter(|c| !c.trim().is_empty())
    {
        let lang = response.code_lang.as_deref().unwrap_or("js");
        section(&mut out, "Ran Playwright code", &fence(lang, code));
    }
    if expectation.include_tabs && !response.tabs.is_empty() {
        let mut body = String::new();
        for t in &response.tabs {
            let current = if t.current { "(current) " } else { "" };
            let _ = writeln!(body, "- {}: {current}[{}]({})", t.index, t.title, t.url);
        }
        let body = body.trim_end();
        // Checked (and stored) even when asked for, so the next response
        // compares with what this one showed.
        if !unchanged_since_shown(chain, "tabs", body) || response.tabs_requested {
            section(&mut out, "Open tabs", body);
        }
    }
    if let Some(page) = &response.page {
        let body = format!("- Page URL: {}\n- Page Title: {}", page.url, page.title);
        let before = previously_shown(chain, "page");
        if !unchanged_since_shown(chain, "page", &body) {
            // Only the lines that changed (a route change keeps its title).
            let body = match before {
                Some(before) => body
                    .lines()
                    .zip(before.lines().chain(core::iter::repeat("")))
                    .filter(|(now, was)| now != was)
                    .map(|(now, _)| now)
                    .collect::<Vec<_>>()
                    .join("\n"),
                None => body,
            };
            section(&mut out, "Page state", &body);
        }
    }
    if !response.modal_state.is_empty() {
        // The agent cannot act before answering it: never filtered.
        section(&mut out, "Modal state", &response.modal_state.join("\n"));
    }
    if expectation.include_snapshot
        && let Some(own) = &response.snapshot_section
    {
        section(&mut out, &own.heading, &own.body);
    } else if expectation.include_snapshot
        && let Some(snap) = &response.snapshot
    {
        let url = response.page.as_ref().map(|p| p.url.as_str());
        let s = snapshot_section(snap, expectation, diff, url)?;
        snapshot_diff = s.diff;
        section(&mut out, &s.heading, &s.body);
    }
    if expectation.include_console
        && let Some((body, kept)) = render_console(&response.console, &expectation.console)
        // Lean: when diffing, messages the filter left out entirely are
        // not worth a section (the agent chose not to see them).
        && (kept || chain.is_none())
    {
        section(&mut out, "Console messages", &body);
    }
    if expectation.include_downloads && !response.downloads.is_empty() {
        let mut body = String::new();
        for d in &response.downloads {
            match (&d.path, d.size) {
                (Some(p), Some(n)) => writeln!(body, "- {} ({n} bytes) → {p}", d.name),
                (Some(p), None) => writeln!(body, "- {} → {p}", d.name),
                (None, _) => writeln!(body, "- {} (in progress)", d.name),
            }
            .ok();
        }
        section(&mut out, "Downloads", body.trim_end());
    }

    let images = process_images(&response.images, expectation, &mut out)?;
    while out.ends_with('\n') {
        out.pop();
    }
    Ok(RenderedResponse {
        text: out,
        images,
        is_error: response.is_error,
        snapshot_diff,
    })
}

#[cfg(feature = "images")]
fn process_images(
    images: &[Image],
    expectation: &ResolvedExpectation,
    _out: &mut String,
) -> Result<Vec<Image>> {
    images
        .iter()
        .map(|i| image::process(i, &expectation.image))
        .collect()
}

/// Without the `images` feature an image is passed through as it came,
/// unless `imageOptions` asks for work on it: that is an error naming the
/// option (docs/DECISIONS.md D67), rather than an answer that silently
/// is not what was asked.
#[cfg(not(feature = "images"))]
fn process_images(
    images: &[Image],
    expectation: &ResolvedExpectation,
    _out: &mut String,
) -> Result<Vec<Image>> {
    if !images.is_empty() && expectation.image != Default::default() {
        return Err(crate::Error::invalid_option(
            "expectation.imageOptions",
            "this build has no image support (the response-diff crate's `images` feature is off): leave imageOptions out to get the images as they are, or use a build with images".to_owned(),
        ));
    }
    Ok(images.to_vec())
}

#[cfg(feature = "images")]
pub use image::process as process_image;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::{DiffMode, ResponseDiffDetector};
    use crate::expectation::Expectation;

    fn exp(json: &str) -> ResolvedExpectation {
        let e = Expectation::from_json(json).unwrap();
        Expectation::resolve("browser_click", &[&e]).unwrap()
    }

    #[cfg(not(feature = "images"))]
    #[test]
    fn image_options_need_the_images_feature() {
        let response = Response {
            images: vec![Image {
                mime_type: "image/png".into(),
                data: vec![1, 2, 3],
            }],
            ..Default::default()
        };
        // Images as they are: fine.
        let r = render(&response, &exp("{}"), None).unwrap();
        assert_eq!(r.images, response.images);
        // Work on them asked for: an error naming the option.
        match render(
            &response,
            &exp(r#"{"imageOptions": {"maxWidth": 10}}"#),
            None,
        ) {
            Err(crate::Error::InvalidOption { field, message }) => {
                assert_eq!(field, "expectation.imageOptions");
                assert!(message.contains("`images` feature"), "{message}");
            }
            other => panic!("expected InvalidOption, got {other:?}"),
        }
    }

    #[cfg(feature = "patterns")]
    #[test]
    fn console_levels_patterns_dedupe_and_max() {
        let mut msgs = vec![];
        for i in 0..5 {
            msgs.push(ConsoleMessage::new("log", format!("tick {i}")));
        }
        for _ in 0..3 {
            msgs.push(ConsoleMessage::new("error", "Failed to fetch /api/cart"));
        }
        msgs.push(ConsoleMessage::new("warning", "Deprecated API"));
        let e = exp(r#"{"consoleOptions": {"maxMessages": 3}}"#);
        let out = render_console(&msgs, &e.console).unwrap().0;
        assert_eq!(
            out,
            "- … 4 older messages omitted\n- [log] tick 4\n- [error] Failed to fetch /api/cart (×3)\n- [warn] Deprecated API"
        );
        let e = exp(r#"{"consoleOptions": {"levels": ["error"], "patterns": ["FETCH"]}}"#);
        let out = render_console(&msgs, &e.console).unwrap().0;
        assert_eq!(
            out,
            "- [error] Failed to fetch /api/cart (×3)\n- (6 filtered out by consoleOptions)"
        );
        let e = exp(r#"{"consoleOptions": {"removeDuplicates": false, "levels": ["error"]}}"#);
        let out = render_console(&msgs, &e.console).unwrap().0;
        assert_eq!(out.matches("Failed to fetch").count(), 3);
        let e = exp(r#"{"consoleOptions": {"patterns": ["nothing matches"]}}"#);
        assert_eq!(
            render_console(&msgs, &e.console).unwrap().0,
            "No messages match the console filter (9 filtered out)."
        );
    }

    #[test]
    fn sections_in_order_and_switchable() {
        let r = Response {
            result: Some("ok".into()),
            code: Some("await page.click()".into()),
            tabs: vec![Tab {
                index: 0,
                title: "Shop".into(),
                url: "http://127.0.0.1/".into(),
                current: true,
            }],
            page: Some(PageState {
                url: "http://127.0.0.1/".into(),
                title: "Shop".into(),
            }),
            snapshot: Some(Snapshot::aria("- button \"Go\" [ref=e1]")),
            console: vec![ConsoleMessage::new("info", "hi")],
            downloads: vec![Download {
                name: "a.pdf".into(),
                path: Some("/tmp/a.pdf".into()),
                size: Some(12),
            }],
            modal_state: vec![
                "- [\"alert\" dialog with message \"x\"]: can be handled by browser_handle_dialog"
                    .into(),
            ],
            ..Response::default()
        };
        let all = render(&r, &exp("{}"), None).unwrap().text;
        assert!(all.contains("- a.pdf (12 bytes) → /tmp/a.pdf"), "{all}");
        let order = [
            "### Result",
            "### Ran Playwright code",
            "### Open tabs",
            "### Page state",
            "### Modal state",
            "### Page snapshot",
            "### Console messages",
            "### Downloads",
        ];
        let pos: Vec<usize> = order.iter().map(|h| all.find(h).unwrap()).collect();
        assert!(pos.windows(2).all(|w| w[0] < w[1]), "{all}");
        let none = render(
            &r,
            &exp(
                r#"{"includeSnapshot": false, "includeConsole": false, "includeTabs": false,
                    "includeCode": false, "includeDownloads": false}"#,
            ),
            None,
        )
        .unwrap()
        .text;
        // A modal state is never filtered out: the agent must answer it.
        assert_eq!(
            none,
            "### Result\nok\n\n### Page state\n- Page URL: http://127.0.0.1/\n- Page Title: Shop\n\n### Modal state\n- [\"alert\" dialog with message \"x\"]: can be handled by browser_handle_dialog"
        );
    }

    #[test]
    fn fence_outgrows_backticks_in_body() {
        assert_eq!(fence("js", "a ```b``` c"), "````js\na ```b``` c\n````");
    }

    #[test]
    fn diff_off_neither_reads_nor_moves_the_chain() {
        let det = ResponseDiffDetector::new();
        let target = DiffTarget {
            detector: &det,
            key: "tab1",
        };
        let page = |n: usize| -> Response {
            let aria: String = (0..30)
                .map(|i| {
                    format!(
                        "- listitem [ref=e{i}]: item {}\n",
                        if i == 7 { n } else { i }
                    )
                })
                .collect();
            Response {
                snapshot: Some(Snapshot::aria(aria)),
                ..Response::default()
            }
        };
        let on = exp(r#"{"diffOptions": {"enabled": true}}"#);
        let off = exp("{}");
        let first = render(&page(1), &on, Some(target)).unwrap();
        assert_eq!(first.snapshot_diff.unwrap().mode, DiffMode::First);
        let (keys, bytes) = (det.len(), det.memory_usage());
        // A peek with diffing off shows the full snapshot and stores nothing.
        let peek = render(&page(2), &off, Some(target)).unwrap();
        assert!(peek.snapshot_diff.is_none());
        assert!(peek.text.contains("item 2"));
        assert_eq!((det.len(), det.memory_usage()), (keys, bytes));
        let next = render(&page(2), &on, Some(target)).unwrap();
        assert_eq!(next.snapshot_diff.as_ref().unwrap().mode, DiffMode::Diff);
        assert!(
            next.text
                .contains("### Page snapshot (patch)\n```\n~ listitem [ref=e7]: item 2\n```"),
            "{}",
            next.text
        );
        // The same kind of change as a line diff, when asked for.
        let lines =
            exp(r#"{"diffOptions": {"enabled": true}, "snapshotOptions": {"diff": "lines"}}"#);
        let as_lines = render(&page(3), &lines, Some(target)).unwrap();
        assert!(as_lines.text.contains("### Page snapshot (diff since the previous snapshot)\n30 lines, 2 changed: +1 \u{2212}1\n```diff\n"));
        let again = render(&page(3), &on, Some(target)).unwrap();
        assert!(
            again
                .text
                .contains("### Page snapshot\nNo changes since the previous response (30 lines).")
        );
    }

    #[test]
    fn a_diffed_response_leaves_out_page_state_and_tabs_it_already_showed() {
        let det = ResponseDiffDetector::new();
        let target = DiffTarget {
            detector: &det,
            key: "tab1",
        };
        let page = |title: &str, tabs: usize| Response {
            result: Some("ok".into()),
            page: Some(PageState {
                url: "http://127.0.0.1/".into(),
                title: title.into(),
            }),
            tabs: (0..tabs)
                .map(|i| Tab {
                    index: i,
                    title: "Shop".into(),
                    url: "http://127.0.0.1/".into(),
                    current: i == 0,
                })
                .collect(),
            snapshot: Some(Snapshot::aria("- button \"Go\" [ref=e1]")),
            ..Response::default()
        };
        let on = exp(r#"{"diffOptions": {"enabled": true}}"#);
        let first = render(&page("Shop", 2), &on, Some(target)).unwrap().text;
        assert!(first.contains("### Open tabs\n") && first.contains("### Page state\n"));
        let same = render(&page("Shop", 2), &on, Some(target)).unwrap().text;
        assert_eq!(
            same,
            "### Result\nok\n\n### Page snapshot\nNo changes since the previous response (1 line)."
        );
        // A peek with diffing off shows everything and moves nothing.
        let peek = render(&page("Cart", 2), &exp("{}"), Some(target))
            .unwrap()
            .text;
        assert!(peek.contains("- Page Title: Cart"));
        let changed = render(&page("Cart", 3), &on, Some(target)).unwrap().text;
        assert!(changed.contains("- Page Title: Cart"), "{changed}");
        assert!(changed.contains("- 2: [Shop]"), "{changed}");
        // Only the page state lines that changed (the URL kept, the title not).
        assert!(
            changed.contains("### Page state\n- Page Title: Cart\n\n"),
            "{changed}"
        );
        // Without a diff target nothing is left out.
        let alone = render(&page("Cart", 3), &on, None).unwrap().text;
        assert!(alone.contains("### Page state") && alone.contains("### Open tabs"));
        // Tabs asked for (`browser_tabs` list) show even when unchanged.
        let asked = Response {
            tabs_requested: true,
            ..page("Cart", 3)
        };
        let listed = render(&asked, &on, Some(target)).unwrap().text;
        assert!(
            listed.contains("### Open tabs\n- 0: (current) [Shop]"),
            "{listed}"
        );
        assert!(!listed.contains("### Page state"), "{listed}");
        let json = serde_json::to_string(&asked).unwrap();
        assert!(json.contains("\"tabsRequested\":true"), "{json}");
        assert_eq!(Response::from_json(&json).unwrap(), asked);
    }

    #[test]
    fn a_diffed_response_leaves_out_a_console_the_filter_emptied() {
        let det = ResponseDiffDetector::new();
        let target = DiffTarget {
            detector: &det,
            key: "tab1",
        };
        let r = Response {
            console: vec![ConsoleMessage::new("log", "tick")],
            ..Response::default()
        };
        let errors = r#""consoleOptions": {"levels": ["error"]}"#;
        let on = exp(&format!(
            r#"{{{errors}, "diffOptions": {{"enabled": true}}}}"#
        ));
        assert_eq!(render(&r, &on, Some(target)).unwrap().text, "");
        let off = exp(&format!("{{{errors}}}"));
        assert!(
            render(&r, &off, Some(target))
                .unwrap()
                .text
                .contains("No messages match the console filter (1 filtered out).")
        );
        // A message that passes the filter is always shown.
        let r = Response {
            console: vec![ConsoleMessage::new("error", "boom")],
            ..Response::default()
        };
        assert!(
            render(&r, &on, Some(target))
                .unwrap()
                .text
                .contains("- [error] boom")
        );
    }

    #[test]
    fn a_page_seen_before_diffs_against_its_own_last_snapshot() {
        let det = ResponseDiffDetector::new();
        let target = DiffTarget {
            detector: &det,
            key: "tab1",
        };
        let page = |url: &str, word: &str, n: usize| -> Response {
            let aria: String = (0..30)
                .map(|i| {
                    format!(
                        "- listitem [ref=e{i}]: {word} {}\n",
                        if i == 7 { n } else { i }
                    )
                })
                .collect();
            Response {
                page: Some(PageState {
                    url: url.into(),
                    title: word.into(),
                }),
                snapshot: Some(Snapshot::aria(aria)),
                ..Response::default()
            }
        };
        let on = exp(r#"{"diffOptions": {"enabled": true}}"#);
        let shop = "http://127.0.0.1/shop";
        let mode = |r: &RenderedResponse| r.snapshot_diff.as_ref().unwrap().mode;
        assert_eq!(
            mode(&render(&page(shop, "tea", 1), &on, Some(target)).unwrap()),
            DiffMode::First
        );
        // Another page: nothing to diff against.
        let other = render(
            &page("http://127.0.0.1/signup", "form", 1),
            &on,
            Some(target),
        )
        .unwrap();
        assert_eq!(mode(&other), DiffMode::Full);
        // Back to the shop (fragment ignored), one line changed since it was seen.
        let back = render(&page(&format!("{shop}#cart"), "tea", 2), &on, Some(target)).unwrap();
        assert_eq!(mode(&back), DiffMode::Diff);
        assert!(back.text.contains(
            "### Page snapshot (patch since the last snapshot of this URL)\n```\n~ listitem [ref=e7]: tea 2\n```"
        ), "{}", back.text);
        // The tab chain moved on too: the same page again is unchanged.
        let again = render(&page(shop, "tea", 2), &on, Some(target)).unwrap();
        assert_eq!(mode(&again), DiffMode::Unchanged);
        // Away and back with nothing changed on the shop.
        render(
            &page("http://127.0.0.1/signup", "form", 2),
            &on,
            Some(target),
        )
        .unwrap();
        let same = render(&page(shop, "tea", 2), &on, Some(target)).unwrap();
        assert!(
            same.text
                .contains("No changes since the last snapshot of this URL (30 lines).")
        );
    }

    #[test]
    fn elements_shown_two_responses_ago_come_back_by_reference_unless_turned_off() {
        let rows: Vec<String> = (1..=24)
            .map(|i| {
                format!("  - listitem [ref=e{i}]:\n    - link \"Tea number {i}\" [ref=f{i}]\n")
            })
            .collect();
        let all = format!("- list [ref=e0]:\n{}", rows.concat());
        let two = format!("- list [ref=e0]:\n{}{}", rows[3], rows[17]);
        let two_more = two.replace("Tea number 4\"", "Tea number 4 (sold out)\"");
        let snap = |aria: &str| Response {
            snapshot: Some(Snapshot::aria(aria)),
            ..Response::default()
        };
        for (restore, expect_restored) in [("true", true), ("false", false)] {
            let det = ResponseDiffDetector::new();
            let target = DiffTarget {
                detector: &det,
                key: "tab1",
            };
            let on = exp(&format!(
                r#"{{"diffOptions": {{"enabled": true}}, "snapshotOptions": {{"restore": {restore}}}}}"#
            ));
            render(&snap(&all), &on, Some(target)).unwrap();
            render(&snap(&two), &on, Some(target)).unwrap();
            render(&snap(&two_more), &on, Some(target)).unwrap();
            // The search is cleared: 22 rows the agent saw two responses ago.
            let back = all.replace("Tea number 4\"", "Tea number 4 (sold out)\"");
            let out = render(&snap(&back), &on, Some(target)).unwrap();
            let body = out
                .text
                .split("```\n")
                .nth(1)
                .unwrap()
                .trim_end_matches("\n```");
            assert_eq!(
                body.contains("as last shown"),
                expect_restored,
                "{}",
                out.text
            );
            assert_eq!(
                body.contains("Tea number 9"),
                !expect_restored,
                "{}",
                out.text
            );
            let seen = [all.as_str(), two.as_str()];
            let applied = crate::tree::apply_patch_with(&two_more, body, &seen).unwrap();
            assert_eq!(applied, back.trim_end());
        }
    }
}
