//! A `#![no_std]` host of the core: what an embedder without an operating
//! system (WebAssembly, a sandboxed plugin) links. With the
//! `panic-handler` feature (`make core-lean`) it defines its own panic
//! handler, so it builds only if nothing in its dependency graph links std
//! (rustc refuses a second `panic_impl`): the core without default
//! features and every dependency it keeps are `no_std` + `alloc`. Its
//! tests (on the host, under the test harness's std) check the answers.
#![no_std]

extern crate alloc;

/// The embedder's panic handler; std has its own, and the two conflict.
#[cfg(all(feature = "panic-handler", not(test)))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    loop {}
}

use alloc::string::String;

use response_diff::diff::{DiffMode, DiffSettings, ResponseDiffDetector, compare_texts};
use response_diff::fingerprint::{Fingerprint, Severity, compare};
use response_diff::tree::{diff, parse_aria};

/// The response diff of two texts: its mode and formatted diff.
pub fn detect(previous: &str, current: &str) -> (DiffMode, String) {
    let r = compare_texts(Some(previous), current, &DiffSettings::default());
    (r.mode, r.formatted_diff)
}

/// The detector over a sequence of texts for one key: each answer's mode.
pub fn detect_each(texts: &[&str]) -> response_diff::Result<alloc::vec::Vec<DiffMode>> {
    let d = ResponseDiffDetector::new();
    let s = DiffSettings::default();
    texts
        .iter()
        .map(|t| Ok(d.detect("tab", t, &s)?.mode))
        .collect()
}

/// The tree diff of two aria snapshots, as the agent reads it.
pub fn tree_diff(before: &str, after: &str) -> response_diff::Result<String> {
    Ok(diff(&parse_aria(before, false)?, &parse_aria(after, false)?).to_agent())
}

/// The comparison summary of two fingerprints (page JSON).
pub fn fingerprint_summary(baseline: &str, current: &str) -> response_diff::Result<String> {
    let (b, c) = (
        Fingerprint::from_json(baseline)?,
        Fingerprint::from_json(current)?,
    );
    Ok(compare(&b, &c, Severity::Warning).summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;

    fn page(n: usize, changed: Option<usize>) -> String {
        (1..=n)
            .map(|i| match changed {
                Some(c) if c == i => format!("  - listitem [ref=e{i}]: Item {i} (sold out)\n"),
                _ => format!("  - listitem [ref=e{i}]: Item {i}\n"),
            })
            .collect()
    }

    #[test]
    fn detect_gives_a_diff() {
        let (mode, text) = detect(&page(20, None), &page(20, Some(7)));
        assert_eq!(mode, DiffMode::Diff);
        assert!(
            text.contains("+  - listitem [ref=e7]: Item 7 (sold out)"),
            "{text}"
        );
    }

    #[test]
    fn detector_keeps_the_previous_text() {
        let (a, b) = (page(20, None), page(20, Some(3)));
        assert_eq!(
            detect_each(&[&a, &a, &b]).unwrap(),
            [DiffMode::First, DiffMode::Unchanged, DiffMode::Diff]
        );
    }

    #[test]
    fn tree_diff_names_the_change() {
        let text = "- navigation \"Main\" [ref=e2]:\n  - link \"Home\" [ref=e3] [cursor=pointer]:\n    - /url: /";
        assert_eq!(
            tree_diff(text, &text.replace("\"Home\"", "\"Start\"")).unwrap(),
            "~ [e3] link \"Start\" (was \"Home\")\n# 1 element unchanged"
        );
    }

    #[test]
    fn fingerprints_compare() {
        let page = |visible: bool| {
            format!(
                r#"{{"url": "http://127.0.0.1:8000/", "structure": {{
                  "landmarks": {{"main": {{"present": true, "visible": true, "role": "main", "contains": []}}}},
                  "interactive": [{{"type": "button", "text": "Save 2026-01-23", "visible": {visible}, "enabled": true, "location": "main"}}]}}}}"#
            )
        };
        assert_eq!(
            fingerprint_summary(&page(true), &page(false)).unwrap(),
            "1 error"
        );
    }
}
