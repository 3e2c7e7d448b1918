//! `~ [ref] -state +state` (docs/DECISIONS.md D71): an element whose own
//! line changed only in bare states is said by the states it lost and
//! gained, in both dialects, and the patch still rebuilds the new snapshot
//! byte for byte.

use response_diff::tree::{
    PatchOptions, apply_patch, apply_patch_with, snapshot_patch, snapshot_patch_with,
};

fn patch(old: &str, new: &str) -> String {
    let p = snapshot_patch(old, new).unwrap();
    assert_eq!(apply_patch(old, &p.text).unwrap(), new, "{}", p.text);
    p.text
}

const OPS: &str = "- generic [ref=e1]:\n  - button \"GET /pets.json List all pets\" [ref=e2]\n  - button \"POST /pets.json Create a pet\" [ref=e3]\n  - checkbox \"Remember me\" [ref=e4]\n  - button \"Bold\" [ref=e5]";

#[test]
fn an_operation_opened_and_closed_is_its_state() {
    let open = OPS.replace(
        "List all pets\" [ref=e2]",
        "List all pets\" [expanded] [ref=e2]",
    );
    assert_eq!(patch(OPS, &open), "~ [e2] +expanded");
    assert_eq!(patch(&open, OPS), "~ [e2] -expanded");
    // Several states at once, each where Playwright prints it.
    let more = open
        .replace(
            "\"Remember me\" [ref=e4]",
            "\"Remember me\" [checked] [disabled] [ref=e4]",
        )
        .replace("\"Bold\" [ref=e5]", "\"Bold\" [pressed] [ref=e5]");
    assert_eq!(
        patch(&open, &more),
        "~ [e4] +checked +disabled\n~ [e5] +pressed"
    );
    assert_eq!(
        patch(&more, &open),
        "~ [e4] -checked -disabled\n~ [e5] -pressed"
    );
}

#[test]
fn the_focus_comes_and_goes_with_the_states() {
    // The clicked toggle opens and takes the focus: one line, no focus line.
    let old = OPS.replace("\"Bold\" [ref=e5]", "\"Bold\" [active] [ref=e5]");
    let new = OPS.replace(
        "List all pets\" [ref=e2]",
        "List all pets\" [expanded] [active] [ref=e2]",
    );
    assert_eq!(patch(&old, &new), "~ [e2] +expanded +active");
    // The focus alone moves by its own line.
    let back = OPS.replace("\"Bold\" [ref=e5]", "\"Bold\" [active] [ref=e5]");
    assert_eq!(patch(&new, &back), "~ [e2] -expanded -active\n~ focus [e5]");
}

#[test]
fn a_playwright_field_emptied_loses_its_value_by_name() {
    // The data grid's search cleared: the text after the colon goes.
    let typed = "- generic [ref=e1]:\n  - searchbox \"Type a keyword...\" [active] [ref=e12]: Engineering\n  - button \"Add Zoe Quinn\" [ref=e90]";
    let cleared = typed.replace(": Engineering", "");
    assert_eq!(patch(typed, &cleared), "~ [e12] -value");
    // With a state lost too, and the focus gone elsewhere.
    let left = cleared
        .replace(" [active] [ref=e12]", " [ref=e12]")
        .replace("[ref=e90]", "[active] [ref=e90]");
    assert_eq!(patch(typed, &left), "~ [e12] -value -active\n~ focus [e90]");
    // A value typed is the whole line; so is one that changed.
    assert_eq!(
        patch(&cleared, typed),
        "~ searchbox \"Type a keyword...\" [active] [ref=e12]: Engineering"
    );
    assert_eq!(
        patch(typed, &typed.replace("Engineering", "Sales")),
        "~ searchbox \"Type a keyword...\" [active] [ref=e12]: Sales"
    );
    // The applier says what is wrong with a value that is not there.
    let e = apply_patch(&cleared, "~ [e12] -value")
        .unwrap_err()
        .to_string();
    assert!(e.contains("`-value`: the element has no value"), "{e}");
}

#[test]
fn a_name_or_a_value_that_changed_is_the_whole_line() {
    let renamed = OPS.replace(
        "\"POST /pets.json Create a pet\" [ref=e3]",
        "\"POST /pets.json Create one pet\" [expanded] [ref=e3]",
    );
    assert_eq!(
        patch(OPS, &renamed),
        "~ button \"POST /pets.json Create one pet\" [expanded] [ref=e3]"
    );
    let level = "- heading \"Pets\" [level=2] [ref=e1]";
    assert_eq!(
        patch(level, &level.replace("level=2", "level=3")),
        "~ heading \"Pets\" [level=3] [ref=e1]"
    );
}

const DT: &str = "uid=1_0 RootWebArea \"Pet shop API\" url=\"http://127.0.0.1/\"\n  uid=1_8 textbox \"Filter by tag or path\" focusable focused value=\"store\"\n  uid=1_16 button \"POST /pets.json Create a pet\" expandable\n  uid=1_18 combobox \"Media type\" expandable haspopup=\"menu\" value=\"application/json\"\n  uid=1_20 button \"Checkout\"\n";

#[test]
fn chrome_devtools_mcp_states_go_where_it_prints_them() {
    // Opened and focused: `expanded` after `expandable`, `focusable
    // focused` after them, the focus taken from the search box.
    let new = DT
        .replace("focusable focused value=\"store\"", "value=\"store\"")
        .replace(
            "\"POST /pets.json Create a pet\" expandable",
            "\"POST /pets.json Create a pet\" expandable expanded focusable focused",
        );
    assert_eq!(patch(DT, &new), "~ [1_16] +expanded +focused");
    // Between `expandable` and `haspopup="…"`, as the printer sorts them.
    let opened = DT.replace("expandable haspopup", "expandable expanded haspopup");
    assert_eq!(patch(DT, &opened), "~ [1_18] +expanded");
    // `disableable disabled` come together.
    let off = DT.replace("\"Checkout\"\n", "\"Checkout\" disableable disabled\n");
    assert_eq!(patch(DT, &off), "~ [1_20] +disableable +disabled");
    // Back again, the whole line is shorter.
    assert_eq!(patch(&off, DT), "~ uid=1_20 button \"Checkout\"");
    // A field emptied loses its value by name.
    let cleared = DT.replace(" value=\"store\"", "");
    assert_eq!(patch(DT, &cleared), "~ [1_8] -value");
    // A value that changed is the whole line.
    let typed = DT.replace("value=\"store\"", "value=\"pets\"");
    assert_eq!(
        patch(DT, &typed),
        "~ uid=1_8 textbox \"Filter by tag or path\" focusable focused value=\"pets\""
    );
}

#[test]
fn a_restored_element_that_lost_the_focus_says_so() {
    // The "pets" tag closed while "POST" had the focus, then opened again
    // from the tag's toggle: the operations come back as last shown, the
    // focus now on the toggle.
    let seen = "uid=1_0 RootWebArea \"A\" url=\"http://x/\"\n  uid=1_12 button \"Collapse\" expandable expanded\n  uid=1_13 button \"GET /pets\"\n  uid=1_14 button \"Copy\"\n  uid=1_15 button \"get\"\n  uid=1_16 button \"POST /pets\" expandable focusable focused\n  uid=1_17 button \"Copy\"\n  uid=1_18 button \"post\"\n";
    let old = "uid=1_0 RootWebArea \"A\" url=\"http://x/\"\n  uid=1_12 button \"Collapse\" expandable focusable focused\n";
    let new = "uid=1_0 RootWebArea \"A\" url=\"http://x/\"\n  uid=1_12 button \"Collapse\" expandable expanded focusable focused\n  uid=1_13 button \"GET /pets\"\n  uid=1_14 button \"Copy\"\n  uid=1_15 button \"get\"\n  uid=1_16 button \"POST /pets\" expandable\n  uid=1_17 button \"Copy\"\n  uid=1_18 button \"post\"\n";
    let p = snapshot_patch_with(old, new, &PatchOptions::seen(vec![seen, old])).unwrap();
    assert_eq!(
        p.text,
        "~ [1_12] +expanded\n+ after [1_12]: [1_13 .. 1_18] as last shown\n~ [1_16] -focused"
    );
    assert_eq!(apply_patch_with(old, &p.text, &[seen, old]).unwrap(), new);
}

#[test]
fn a_state_the_element_has_not_or_has_is_an_error_naming_the_line() {
    let e = apply_patch(OPS, "~ [e2] -expanded")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("line 1") && e.contains("`-expanded`: the element has no such state"),
        "{e}"
    );
    let open = OPS.replace("pets\" [ref=e2]", "pets\" [expanded] [ref=e2]");
    let e = apply_patch(&open, "~ focus [e5]\n~ [e2] +expanded")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("line 2") && e.contains("`+expanded`: the element has it already"),
        "{e}"
    );
    let e = apply_patch(OPS, "~ [e9] +expanded")
        .unwrap_err()
        .to_string();
    assert!(e.contains("[e9] is not in the previous snapshot"), "{e}");
    let e = apply_patch(OPS, "~ [e2] +expanded\n  - text: x")
        .unwrap_err()
        .to_string();
    assert!(e.contains("has no indented lines"), "{e}");
}
