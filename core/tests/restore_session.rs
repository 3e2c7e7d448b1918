//! Restores from anywhere in the session (issue 42 #3): rows the agent was
//! shown in any earlier view of the page, with the same refs, come back by
//! reference (`as last shown`) rather than as new lines.

use response_diff::diff::ResponseDiffDetector;
use response_diff::expectation::Expectation;
use response_diff::response::{DiffTarget, Response, Snapshot, continue_shown, render};
use response_diff::tree::apply_patch_with;

const ON: &str = r#"{"diffOptions": {"enabled": true}}"#;

/// A gridjs-shaped page: a table of people, rows `from..=to`, with its
/// pager. Row `i` has refs `r{i}` and cells `c{i}a`, `c{i}b`, `c{i}c`,
/// the same on every page it is shown on (as the carrier makes them).
fn grid(from: usize, to: usize, page: usize, size: usize) -> String {
    let mut s = String::from(
        "- main [ref=e1]:\n  - heading \"People\" [level=1] [ref=e2]\n  - button \"Show 40 per page\" [ref=e3]\n  - table [ref=e4]:\n    - rowgroup [ref=e5]:\n      - row \"Name Department City\" [ref=e6]:\n        - columnheader \"Name\" [ref=e7]\n        - columnheader \"Department\" [ref=e8]\n        - columnheader \"City\" [ref=e9]\n    - rowgroup [ref=e10]:\n",
    );
    let depts = ["Sales", "Engineering", "Support", "Finance", "Legal"];
    let cities = ["Lisbon", "Oslo", "Kyoto", "Lima"];
    for i in from..=to {
        let name = format!("Person {i}");
        let (d, c) = (depts[i % 5], cities[i % 4]);
        s.push_str(&format!(
            "      - row \"{name} {d} {c}\" [ref=r{i}]:\n        - cell \"{name}\" [ref=c{i}a]\n        - cell \"{d}\" [ref=c{i}b]\n        - cell \"{c}\" [ref=c{i}c]\n"
        ));
    }
    s.push_str(&format!(
        "  - generic [ref=e11]: Showing {from} to {to} of 60 results\n  - navigation \"Pagination\" [ref=e12]:\n    - button \"Previous\" [ref=e13]\n    - button \"Page {page}\" [ref=p{page}x{size}]\n    - button \"Next\" [ref=e14]"
    ));
    s
}

fn render_body(det: &ResponseDiffDetector, aria: &str) -> String {
    render_key(det, "tab1", aria)
}

fn render_key(det: &ResponseDiffDetector, key: &str, aria: &str) -> String {
    let e = Expectation::from_json(ON).unwrap();
    let resolved = Expectation::resolve("browser_click", &[&e]).unwrap();
    let response = Response {
        snapshot: Some(Snapshot::aria(aria)),
        ..Response::default()
    };
    let target = DiffTarget { detector: det, key };
    let text = render(&response, &resolved, Some(target)).unwrap().text;
    text.split("```\n")
        .nth(1)
        .unwrap_or(&text)
        .trim_end_matches("\n```")
        .to_owned()
}

#[test]
fn rows_from_an_earlier_page_come_back_by_reference_after_a_page_size_change() {
    let det = ResponseDiffDetector::new();
    let page1 = grid(1, 10, 1, 10);
    let page2 = grid(11, 20, 2, 10);
    let page3 = grid(21, 30, 3, 10);
    let big = grid(1, 40, 1, 40);
    render_body(&det, &page1);
    render_body(&det, &page2);
    render_body(&det, &page3);
    let body = render_body(&det, &big);
    // Rows 1–10 were shown two pages ago, 11–20 one page ago, 21–30 in
    // the previous view: none is printed again.
    for i in [1, 5, 10, 11, 15, 20, 21, 30] {
        assert!(
            !body.contains(&format!("Person {i} ")),
            "row {i} re-sent:\n{body}"
        );
    }
    assert!(body.contains("as last shown"), "{body}");
    assert!(body.contains("Person 31 "), "{body}");
    let seen = [page1.as_str(), page2.as_str(), page3.as_str()];
    assert_eq!(apply_patch_with(&page3, &body, &seen).unwrap(), big);
}

#[test]
fn rows_shown_before_a_new_chain_come_back_by_reference_in_it() {
    // The host starts a new chain for the tab (a full view the agent asked
    // for) on page 2: rows of page 1, shown in the chain before, still come
    // back by reference when a larger page size shows them again.
    let det = ResponseDiffDetector::new();
    let page1 = grid(1, 10, 1, 10);
    let page2 = grid(11, 20, 2, 10);
    let big = grid(1, 40, 1, 40);
    render_key(&det, "tab1", &page1);
    render_key(&det, "tab1", &page2);
    continue_shown(&det, "tab1", "tab1\u{1f}view1");
    let full = render_key(&det, "tab1\u{1f}view1", &page2);
    assert!(full.contains("Person 11 "), "a new chain starts in full");
    let body = render_key(&det, "tab1\u{1f}view1", &big);
    for i in [1, 5, 10, 11, 20] {
        assert!(
            !body.contains(&format!("Person {i} ")),
            "row {i} re-sent:\n{body}"
        );
    }
    assert!(body.contains("Person 21 "), "{body}");
    let seen = [page1.as_str(), page2.as_str()];
    assert_eq!(apply_patch_with(&page2, &body, &seen).unwrap(), big);
    // Without it, the new chain knows nothing of page 1.
    let det = ResponseDiffDetector::new();
    render_key(&det, "tab1", &page1);
    render_key(&det, "tab1", &page2);
    render_key(&det, "tab1\u{1f}view1", &page2);
    let body = render_key(&det, "tab1\u{1f}view1", &big);
    assert!(body.contains("Person 1 "), "{body}");
}
