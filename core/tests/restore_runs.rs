//! Runs of siblings restored together (`[e2 .. e21] as last shown`): a
//! flat list shown again costs its first and last refs, not every ref, in
//! both dialects; members never consecutive in one view are listed.

mod common;

use common::seen_patch as patch;
use response_diff::tree::apply_patch_with;

/// A Playwright list `e1` with rows `refs`, one `listitem` each.
fn pw_list(refs: &[String]) -> String {
    let mut s = String::from("- list [ref=e1]");
    if !refs.is_empty() {
        s.push(':');
    }
    for r in refs {
        s.push_str(&format!("\n  - listitem [ref={r}]: row {r}"));
    }
    s
}

/// A chrome-devtools-mcp page, flat: a button `1_1`, then buttons `refs`.
fn dt_page(refs: &[String]) -> String {
    let mut s = String::from(
        "uid=1_0 RootWebArea \"x\" url=\"http://127.0.0.1/\"\n  uid=1_1 button \"A\"\n",
    );
    for r in refs {
        s.push_str(&format!("  uid={r} button \"Row {r}\"\n"));
    }
    s
}

fn pw_refs(from: usize, to: usize) -> Vec<String> {
    (from..=to).map(|i| format!("e{i}")).collect()
}

fn dt_refs(from: usize, to: usize) -> Vec<String> {
    (from..=to).map(|i| format!("1_{i}")).collect()
}

#[test]
fn a_flat_playwright_list_shown_again_is_one_run() {
    let all = pw_list(&pw_refs(2, 21));
    let none = pw_list(&[]);
    let text = patch(&none, &all, &[&all, &none]);
    assert_eq!(text, "+ first in [e1]: [e2 .. e21] as last shown");
}

#[test]
fn a_flat_devtools_page_shown_again_is_one_run() {
    let all = dt_page(&dt_refs(2, 21));
    let none = dt_page(&[]);
    let text = patch(&none, &all, &[&all, &none]);
    assert_eq!(text, "+ after [1_1]: [1_2 .. 1_21] as last shown");
}

#[test]
fn halves_shown_in_two_views_are_two_runs() {
    let first = pw_list(&pw_refs(2, 11));
    let second = pw_list(&pw_refs(12, 21));
    let none = pw_list(&[]);
    let all = pw_list(&pw_refs(2, 21));
    let text = patch(&none, &all, &[&first, &second, &none]);
    assert_eq!(
        text,
        "+ first in [e1]: [e2 .. e11 e12 .. e21] as last shown"
    );
}

#[test]
fn members_never_consecutive_in_one_view_are_listed() {
    // Shown with a separator between every two rows; back without them.
    let mut spaced = String::from("- list [ref=e1]:");
    for i in 2..=21 {
        spaced.push_str(&format!(
            "\n  - listitem [ref=e{i}]: row e{i}\n  - separator [ref=s{i}]"
        ));
    }
    let none = pw_list(&[]);
    let all = pw_list(&pw_refs(2, 21));
    let text = patch(&none, &all, &[&spaced, &none]);
    assert!(!text.contains(".."), "{text}");
    assert!(text.contains("[e2 e3 e4"), "{text}");
}

#[test]
fn a_short_run_is_listed() {
    let all = pw_list(&pw_refs(2, 4));
    let none = pw_list(&[]);
    let text = patch(&none, &all, &[&all, &none]);
    assert_eq!(text, "+ first in [e1]: [e2 e3 e4] as last shown");
}

#[test]
fn a_run_no_view_has_is_a_clear_error() {
    let none = pw_list(&[]);
    let e = apply_patch_with(
        &none,
        "+ first in [e1]: [e2 .. e21] as last shown",
        &[&none],
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("[e2 .. e21]"), "{e}");
    assert!(e.contains("consecutive siblings"), "{e}");
    let e = apply_patch_with(&none, "+ first in [e1]: [.. e21] as last shown", &[&none])
        .unwrap_err()
        .to_string();
    assert!(e.contains("between two refs"), "{e}");
}

#[test]
fn a_run_inside_printed_lines_applies() {
    // A new list (printed) holds rows shown before: one run below it.
    let rows = pw_refs(3, 22);
    let mut shown = String::from("- list [ref=e2]:");
    for r in &rows {
        shown.push_str(&format!("\n  - listitem [ref={r}]: row {r}"));
    }
    let old = "- button \"Go\" [ref=e1]";
    let new = format!(
        "{old}\n- list \"Results\" [ref=e30]:{}",
        &shown["- list [ref=e2]:".len()..]
    );
    let text = patch(old, &new, &[&shown, old]);
    assert!(text.contains("[e3 .. e22] as last shown"), "{text}");
}

/// The snapshot sections a session of `texts` answers with, one detector
/// and diffs on.
fn session(texts: &[&str]) -> Vec<String> {
    use response_diff::diff::ResponseDiffDetector;
    use response_diff::expectation::Expectation;
    use response_diff::response::{DiffTarget, Snapshot, render_snapshot_section};
    let on = Expectation::from_json(r#"{"diffOptions": {"enabled": true}}"#).unwrap();
    let exp = Expectation::resolve("browser_click", &[&on]).unwrap();
    let detector = ResponseDiffDetector::new();
    let target = Some(DiffTarget {
        detector: &detector,
        key: "tab-1",
    });
    texts
        .iter()
        .map(|t| {
            let body = render_snapshot_section(&Snapshot::aria(*t), &exp, target, None)
                .unwrap()
                .unwrap()
                .body;
            // Playwright's body is fenced, chrome-devtools-mcp's is not.
            let inner = body
                .strip_prefix("```\n")
                .and_then(|b| b.strip_suffix("\n```"));
            inner.unwrap_or(&body).to_owned()
        })
        .collect()
}

/// Rows shown, hidden by the next snapshot (collapse all), then shown
/// again (expand all): they left the page together, so the archive gives
/// them back as one run, not ref by ref.
fn hidden_and_shown_again(all: &str, none: &str) -> String {
    let bodies = session(&[all, none, all]);
    let patch = &bodies[2];
    assert_eq!(apply_patch_with(none, patch, &[all, none]).unwrap(), all);
    patch.clone()
}

#[test]
fn a_flat_playwright_list_hidden_and_shown_again_is_one_run() {
    let all = pw_list(&pw_refs(2, 21));
    let none = pw_list(&[]);
    assert_eq!(
        hidden_and_shown_again(&all, &none),
        "+ first in [e1]: [e2 .. e21] as last shown"
    );
}

#[test]
fn a_flat_devtools_page_hidden_and_shown_again_is_one_run() {
    let all = dt_page(&dt_refs(2, 21));
    let none = dt_page(&[]);
    assert_eq!(
        hidden_and_shown_again(&all, &none),
        "+ after [1_1]: [1_2 .. 1_21] as last shown"
    );
}

#[test]
fn rows_hidden_in_two_steps_are_two_runs() {
    // Rows 2–11 go first, then 12–21: two entries, two runs.
    let all = pw_list(&pw_refs(2, 21));
    let half = pw_list(&pw_refs(12, 21));
    let none = pw_list(&[]);
    let bodies = session(&[&all, &half, &none, &all]);
    assert_eq!(
        bodies[3],
        "+ first in [e1]: [e2 .. e11 e12 .. e21] as last shown"
    );
    assert_eq!(
        apply_patch_with(&none, &bodies[3], &[&all, &half, &none]).unwrap(),
        all
    );
}

#[test]
fn a_row_shown_again_since_comes_back_inside_the_run_as_last_shown() {
    // e5 comes back alone, renamed, and goes again: the run still names
    // e2 through e9 (their places in the list), and e5 is read from its
    // latest showing.
    let all = pw_list(&pw_refs(2, 9));
    let none = pw_list(&[]);
    let e5 = "- list [ref=e1]:\n  - listitem [ref=e5]: row e5 renamed";
    let back = all.replace("row e5", "row e5 renamed");
    let bodies = session(&[&all, &none, e5, &none, &back]);
    assert_eq!(bodies[4], "+ first in [e1]: [e2 .. e9] as last shown");
    assert_eq!(
        apply_patch_with(&none, &bodies[4], &[&all, &none, e5, &none]).unwrap(),
        back
    );
}

#[test]
fn a_changed_row_inside_a_run_keeps_the_run_whole() {
    // swagger-ui's "pets" tag expanded again (chrome-devtools-mcp): its
    // operations come back as last shown, but one lost the focus it had
    // then. One run and a line for the focus it lost, not two runs with
    // the row printed between them.
    let seen = "uid=1_0 RootWebArea \"A\" url=\"http://x/\"\n  uid=1_12 button \"Collapse\" expandable expanded\n  uid=1_13 button \"GET /pets\"\n  uid=1_14 button \"Copy\"\n  uid=1_15 button \"get\"\n  uid=1_16 button \"POST /pets\" expandable focusable focused\n  uid=1_17 button \"Copy\"\n  uid=1_18 button \"post\"\n";
    let old = "uid=1_0 RootWebArea \"A\" url=\"http://x/\"\n  uid=1_12 button \"Expand\" expandable focusable focused\n";
    let new = "uid=1_0 RootWebArea \"A\" url=\"http://x/\"\n  uid=1_12 button \"Collapse\" expandable expanded focusable focused\n  uid=1_13 button \"GET /pets\"\n  uid=1_14 button \"Copy\"\n  uid=1_15 button \"get\"\n  uid=1_16 button \"POST /pets\" expandable\n  uid=1_17 button \"Copy\"\n  uid=1_18 button \"post\"\n";
    assert_eq!(
        patch(old, new, &[seen, old]),
        "~ uid=1_12 button \"Collapse\" expandable expanded focusable focused\n+ after [1_12]: [1_13 .. 1_18] as last shown\n~ [1_16] -focused"
    );
}

/// A chrome-devtools-mcp grid as gridjs prints there: one flat list of
/// text cells under `uid=1_1 main`, after a heading.
fn dt_grid(cells: &[(String, String)]) -> String {
    let mut s = String::from(
        "uid=1_0 RootWebArea \"People\" url=\"http://127.0.0.1/\"\n  uid=1_1 main\n    uid=1_2 heading \"People\" level=\"1\"\n",
    );
    for (r, text) in cells {
        s.push_str(&format!("    uid={r} \"{text}\"\n"));
    }
    s
}

#[test]
fn a_grid_sorted_back_is_its_parent_resent_by_reference() {
    // gridjs through chrome-devtools-mcp, a raise re-rendering the grid
    // in the order the agent saw two answers ago: half its cells had left
    // the page (restored), the rest moved, one changed. Said op by op it
    // is a removal of the other sort's cells, an order line and an anchor
    // for each run of restored cells; re-sending `main` with its cells by
    // reference is two runs and the changed cell.
    let names = ["Ada", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"];
    let sorted: Vec<(String, String)> = names
        .iter()
        .enumerate()
        .flat_map(|(k, n)| {
            [
                (format!("3_{}", 2 * k), (*n).to_owned()),
                (format!("3_{}", 2 * k + 1), format!("${},000", 40 + k)),
            ]
        })
        .collect();
    // The other sort: the last four people, then four others.
    let mut other: Vec<(String, String)> = sorted[8..].iter().rev().cloned().collect();
    other.extend((0..8).map(|k| (format!("5_{k}"), format!("Other {k}"))));
    let seen = dt_grid(&sorted);
    let old = dt_grid(&other);
    let mut back = sorted.clone();
    back[5].1 = "$99,000".to_owned();
    back[5].0 = "7_0".to_owned();
    let new = dt_grid(&back);
    assert_eq!(
        patch(&old, &new, &[&seen, &old]),
        "~ uid=1_1 main\n    [1_2 .. 3_4] as last shown\n    uid=7_0 \"$99,000\"\n    [3_6 .. 3_15] as last shown"
    );
}

#[test]
fn a_resent_parent_carries_the_focus_it_gained() {
    // The grid's next page, clicked by its "Next" button (a child of the
    // re-sent `main`): the button is printed there, focused, and no focus
    // line names it again.
    let page = |cells: &[(String, String)], focused: bool| {
        let mut s = dt_grid(cells);
        s.push_str(if focused {
            "    uid=1_9 button \"Next\" focusable focused\n"
        } else {
            "    uid=1_9 button \"Next\"\n"
        });
        s
    };
    let cells = |ids: &[&str], text: &str| -> Vec<(String, String)> {
        ids.iter()
            .map(|r| ((*r).to_owned(), format!("{text} {r}")))
            .collect()
    };
    let ids = |p: &str| -> Vec<String> { (0..12).map(|k| format!("{p}_{k}")).collect() };
    let (a, b) = (ids("3"), ids("5"));
    let first = cells(&a.iter().map(String::as_str).collect::<Vec<_>>(), "Row");
    let mut next = cells(&b.iter().map(String::as_str).collect::<Vec<_>>(), "Row");
    // Look-alike cells kept their uids, in other places.
    for (k, from) in [(1, 10), (3, 0), (5, 7), (7, 2), (9, 5), (11, 4)] {
        next[k] = first[from].clone();
    }
    let old = page(&first, false);
    let new = page(&next, true);
    let p = patch(&old, &new, &[&old]);
    assert!(p.starts_with("~ uid=1_1 main\n"), "{p}");
    assert!(
        p.ends_with("    uid=1_9 button \"Next\" focusable focused"),
        "{p}"
    );
    assert!(!p.contains("~ focus"), "{p}");
}

#[test]
fn only_the_busy_parents_that_read_shorter_are_resent() {
    // gridjs's filter cleared (Playwright): the rows come back around the
    // one row the filter kept, and the page buttons after the first. The
    // rows' group re-sent is one run and no removal line; the buttons'
    // group re-sent would be no shorter than its insertion, so it keeps
    // that.
    let rows = |rs: &[&str]| -> String {
        rs.iter()
            .map(|r| format!("\n  - row \"Person {r} of the grid\" [ref={r}]"))
            .collect()
    };
    let buttons = |bs: &[&str]| -> String {
        bs.iter()
            .map(|b| format!("\n  - button \"Page {b}\" [ref={b}]"))
            .collect()
    };
    let page = |rs: &[&str], bs: &[&str]| {
        format!(
            "- textbox \"Search\" [ref=s]\n- rowgroup [ref=g]:{}\n- generic [ref=p]:{}",
            rows(rs),
            buttons(bs)
        )
    };
    let all = page(
        &["r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8"],
        &["b1", "b2", "b3", "b4"],
    );
    let filtered = page(&["x1", "x2", "r3", "x3", "x4", "x5"], &["b1"]);
    let p = patch(&filtered, &all, &[&all, &filtered]);
    assert_eq!(
        p,
        "~ rowgroup [ref=g]:\n    [r1 .. r8] as last shown\n+ after [b1]: [b2 b3 b4] as last shown"
    );
}

#[test]
fn a_document_replaced_under_a_parent_keeps_its_removal_line() {
    // A frame navigated: every element under it went and new ones came.
    // Re-sending the frame's body would be about as long, and the removal
    // line says plainly what went, so it stays.
    let old = "- generic [ref=f1]:\n  - heading \"Card payment\" [level=2] [ref=f2]\n  - textbox \"Card number\" [ref=f3]\n  - link \"Next step\" [ref=f4]\n- button \"Pay\" [ref=e9]";
    let new = "- generic [active] [ref=f1]:\n  - heading \"Confirm the payment\" [level=2] [ref=f5]\n  - button \"Confirm\" [ref=f6]\n- button \"Pay\" [ref=e9]";
    assert_eq!(
        patch(old, new, &[old]),
        "- [f2 f3 f4]\n+ first in [f1]:\n  - heading \"Confirm the payment\" [level=2] [ref=f5]\n  - button \"Confirm\" [ref=f6]\n~ focus [f1]"
    );
}
