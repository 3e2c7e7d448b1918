//! An element restored `as last shown` whose subtree lost some elements
//! since: its reference, a removal line for what went, and its changed
//! lines, where that reads shorter than printing it again (TodoMVC's
//! completed row coming back under "Completed" without the delete button
//! it showed on hover). The fixture is shared with the C, Python and Node
//! tests.

mod common;

use common::seen_patch as patch;
use response_diff::tree::{apply_patch, apply_patch_with};

/// TodoMVC's list with rows `rows` (each `(ref, text, checked, hovered,
/// focused)`), and its filters; `filter` is the focused link.
fn todos(rows: &[(u32, &str, bool, bool, bool)], filter: &str) -> String {
    let mut s = String::from("- generic [ref=e1]:\n  - list [ref=e2]");
    if !rows.is_empty() {
        s.push(':');
    }
    for &(r, text, checked, hovered, focused) in rows {
        let states = match (checked, focused) {
            (true, true) => " [checked] [active]",
            (true, false) => " [checked]",
            (false, true) => " [active]",
            (false, false) => "",
        };
        s.push_str(&format!(
            "\n    - listitem [ref=e{r}]:\n      - generic [ref=e{}]:\n        - checkbox{states} [ref=e{}]: ✔\n        - generic [ref=e{}]: {text}",
            r + 1,
            r + 2,
            r + 3
        ));
        if hovered {
            s.push_str(&format!("\n        - button \"✖\" [ref=e{}]", r + 4));
        }
    }
    for (r, name) in [(90, "All"), (91, "Active"), (92, "Completed")] {
        let active = if name == filter { " [active]" } else { "" };
        s.push_str(&format!(
            "\n  - link \"{name}\"{active} [ref=e{r}]:\n    - /url: \"#/{}\"",
            name.to_lowercase()
        ));
    }
    s
}

/// The patch that brings "Walk the dog" back under "Completed", shown
/// there as `completed` gives it, after the agent saw it completed (the
/// mouse on it, the focus in its box) and then filtered out.
fn back_under_completed(completed: impl Fn(String) -> String) -> String {
    let done = todos(
        &[
            (10, "Buy milk", false, false, false),
            (20, "Walk the dog", true, true, true),
        ],
        "",
    );
    let active = todos(&[(10, "Buy milk", false, false, false)], "Active");
    let back = completed(todos(
        &[(20, "Walk the dog", true, false, false)],
        "Completed",
    ));
    patch(&active, &back, &[&done, &active])
}

#[test]
fn a_row_back_without_its_hover_button_is_restored_less_the_button() {
    assert_eq!(
        back_under_completed(|s| s),
        "- [e10] listitem\n\
         + first in [e2]: [e20] as last shown\n\
         - [e24]\n\
         ~ [e22] -active\n\
         ~ focus [e92]"
    );
}

#[test]
fn a_row_back_with_a_text_where_its_button_was_gets_the_text_inserted_inside() {
    // Playwright's own snapshot prints the hidden delete button as its text.
    let text = back_under_completed(|s| {
        s.replace(
            "- generic [ref=e23]: Walk the dog",
            "- generic [ref=e23]: Walk the dog\n        - text: ✖",
        )
    });
    assert_eq!(
        text,
        "- [e10] listitem\n\
         + first in [e2]: [e20] as last shown\n\
         - [e24]\n\
         + after [e23]:\n  - text: ✖\n\
         ~ [e22] -active\n\
         ~ focus [e92]"
    );
}

#[test]
fn printing_stays_where_it_is_shorter() {
    // A row whose every line changed but the button that went: printing
    // it says that in fewer words than restoring it and saying each line.
    let shown = "- list [ref=e1]:\n  - listitem [ref=e2]:\n    - checkbox [ref=e3]\n    - button \"x\" [ref=e4]";
    let gone = "- list [ref=e1]";
    let back =
        "- list [ref=e1]:\n  - listitem \"Row\" [ref=e2]:\n    - checkbox [checked] [ref=e3]";
    let text = patch(gone, back, &[shown, gone]);
    assert!(!text.contains("as last shown"), "{text}");
}

#[test]
fn a_devtools_row_back_without_a_child_is_restored_less_it() {
    let row = |hovered: bool, focused: bool| {
        let mut s = String::from(
            "uid=1_0 RootWebArea \"x\" url=\"http://127.0.0.1/\"\n  uid=1_1 list\n    uid=1_2 listitem\n      uid=1_3 checkbox \"Toggle Walk the dog\" checked",
        );
        if focused {
            s.push_str(" focusable focused");
        }
        s.push_str("\n      uid=1_4 StaticText \"Walk the dog\"\n      uid=1_5 StaticText \"and feed the cat on the way\"");
        if hovered {
            s.push_str("\n      uid=1_6 button \"Delete Walk the dog\"");
        }
        s.push_str("\n  uid=1_9 link \"Completed\"\n");
        s
    };
    let shown = row(true, false);
    let gone = "uid=1_0 RootWebArea \"x\" url=\"http://127.0.0.1/\"\n  uid=1_1 list\n  uid=1_9 link \"Completed\"\n";
    let back = row(false, false);
    let text = patch(gone, &back, &[&shown, gone]);
    assert_eq!(text, "+ first in [1_1]: [1_2] as last shown\n- [1_6]");
}

#[test]
fn a_removal_of_an_element_nobody_restores_is_an_error() {
    let old = "- list [ref=e1]:\n  - listitem [ref=e2]: Tea";
    let e = apply_patch(old, "- [e9]").unwrap_err().to_string();
    assert!(e.contains("[e9] is not in the previous snapshot"), "{e}");
    let shown = "- list [ref=e1]:\n  - listitem [ref=e2]:\n    - button \"x\" [ref=e3]";
    let none = "- list [ref=e1]";
    // The removal names an element inside the restore: it goes.
    let back = apply_patch_with(
        none,
        "+ first in [e1]: [e2] as last shown\n- [e3]",
        &[shown],
    )
    .unwrap();
    assert_eq!(back, "- list [ref=e1]:\n  - listitem [ref=e2]");
}

#[test]
fn the_shared_restore_fixtures_are_what_the_writer_says_and_apply() {
    let cases = common::patch_cases("restores.json");
    assert!(cases.len() >= 4);
    for case in cases {
        let seen = case.seen();
        assert_eq!(
            patch(&case.s("old"), &case.s("new"), &seen),
            case.s("patch"),
            "{}",
            case.s("name")
        );
    }
}
