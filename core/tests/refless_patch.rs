//! Snapshot patches over elements without a ref (issue 42, item 1):
//! Playwright gives none to an empty list, a `generic "Copy path to
//! clipboard"` row and the button in it, a text-only wrapper. A change
//! beside or inside them is still a patch, which names them by address
//! (`[e18/3]`: the third child of `e18`) and rebuilds the new snapshot
//! byte for byte. The fixture is shared with the C, Python and Node tests.

mod common;

use response_diff::diff::ResponseDiffDetector;
use response_diff::tree::{PatchOptions, apply_patch, apply_patch_with, snapshot_patch_with};

#[test]
fn the_shared_refless_fixtures_are_what_the_writer_says_and_apply() {
    let cases = common::patch_cases("refless.json");
    assert!(cases.len() >= 4);
    for case in cases {
        let s = |k: &str| case.s(k);
        let seen = case.seen();
        let p = snapshot_patch_with(&s("old"), &s("new"), &PatchOptions::seen(seen.clone()))
            .unwrap_or_else(|| panic!("no patch: {}", s("name")));
        assert_eq!(p.text, s("patch"), "{}", s("name"));
        assert!(
            p.text.contains('/'),
            "names no element by address: {}",
            p.text
        );
        assert_eq!(
            apply_patch_with(&s("old"), &s("patch"), &seen).unwrap(),
            s("new"),
            "{}",
            s("name")
        );
    }
}

fn render_snapshot(det: &ResponseDiffDetector, aria: &str, diff: &str) -> String {
    common::render_click_diff(det, aria, diff)
}

/// The body of the answer's one fenced block.
fn fenced(text: &str) -> &str {
    let start = text.find("```").unwrap();
    let body = &text[start..];
    let body = &body[body.find('\n').unwrap() + 1..];
    &body[..body.find("\n```").unwrap()]
}

/// The shop's step 2 (docs/bench/proxy.md): the first item added to an
/// empty cart whose list has no ref answered a line diff of 617 tokens
/// through the proxy. It is a patch now, smaller than that line diff, and
/// it rebuilds the new snapshot exactly.
#[test]
fn the_first_item_in_an_empty_list_without_a_ref_is_a_patch() {
    // The page goes on below (as the shop's 24 teas do): the answer is a
    // diff, not the full text.
    let more: String = (0..40)
        .map(|i| format!("\n- paragraph [ref=x{i}]: the rest of the page, line {i}"))
        .collect();
    for case in common::patch_cases("refless.json") {
        let (old, new) = (case.s("old") + &more, case.s("new") + &more);
        let det = ResponseDiffDetector::new();
        render_snapshot(&det, &old, "patch");
        let text = render_snapshot(&det, &new, "patch");
        assert!(text.contains("### Page snapshot (patch)\n"), "{text}");
        let patch = fenced(&text);
        assert_eq!(patch, case.s("patch"), "{}", case.s("name"));
        assert_eq!(apply_patch(&old, patch).unwrap(), new);
        let lines = ResponseDiffDetector::new();
        render_snapshot(&lines, &old, "lines");
        let diff = render_snapshot(&lines, &new, "lines");
        assert!(
            diff.contains("### Page snapshot (diff since the previous snapshot)\n"),
            "{diff}"
        );
        assert!(text.len() < diff.len(), "{text}\n---\n{diff}");
    }
}

#[test]
fn an_address_names_an_element_without_a_ref_of_the_previous_snapshot() {
    let old = "- list [ref=e1]:\n  - listitem [ref=e2]: a\n  - generic:\n    - text: b";
    // Counted from 1 in the previous snapshot, one `/N` a level.
    assert_eq!(
        apply_patch(old, "~ [e1/2/1] text: c").unwrap(),
        "- list [ref=e1]:\n  - listitem [ref=e2]: a\n  - generic:\n    - text: c"
    );
    assert_eq!(
        apply_patch(old, "- [e1/2]").unwrap(),
        "- list [ref=e1]:\n  - listitem [ref=e2]: a"
    );
    assert_eq!(
        apply_patch(old, "+ after [e1/2]:\n  - button \"Go\" [ref=e3]").unwrap(),
        format!("{old}\n  - button \"Go\" [ref=e3]")
    );
    assert_eq!(
        apply_patch("- generic:\n  - text: a", "~ [/1/1] text: b").unwrap(),
        "- generic:\n  - text: b"
    );
    // Errors say what is wrong and where.
    let e = apply_patch(old, "- [e1/3]").unwrap_err().to_string();
    assert!(e.contains("[e1/3] is not in the previous snapshot"), "{e}");
    let e = apply_patch(old, "- [e1/1]").unwrap_err().to_string();
    assert!(
        e.contains("[e1/1] is an element with a ref: name it [e2]"),
        "{e}"
    );
    let e = apply_patch(old, "- [e1/0]").unwrap_err().to_string();
    assert!(e.contains("expected an address like `[e12/2]`"), "{e}");
    let e = apply_patch(old, "- [e9/1]").unwrap_err().to_string();
    assert!(e.contains("[e9] is not in the previous snapshot"), "{e}");
    let e = apply_patch(old, "~ [e1/2] generic [ref=e7]")
        .unwrap_err()
        .to_string();
    assert!(e.contains("named by its address has no ref"), "{e}");
}

#[test]
fn a_lone_element_goes_printed_where_that_is_shorter_than_its_restore() {
    // TodoMVC (Backbone) as Playwright prints it: "Buy milk" opens for
    // editing, and "Walk the dog"'s delete button turns back into text.
    // That text is the one "Buy milk"'s row showed, `[e3/3]`, and its row
    // goes: `- text: ✖` is shorter than `[e3/3] as last shown`.
    let old = "- list [ref=e1]:\n  - listitem [ref=e2]:\n    - generic [ref=e3]:\n      - checkbox [ref=e4]\n      - generic [ref=e5]: Buy milk\n      - text: ✖\n  - listitem [ref=e6]:\n    - generic [ref=e7]:\n      - checkbox [ref=e8]\n      - generic [ref=e9]: Walk the dog\n      - button \"✖\" [ref=e10]";
    let new = "- list [ref=e1]:\n  - listitem [ref=e2]:\n    - textbox [active] [ref=e11]: Buy milk\n  - listitem [ref=e6]:\n    - generic [ref=e7]:\n      - checkbox [ref=e8]\n      - generic [ref=e9]: Walk the dog\n      - text: ✖";
    let p = snapshot_patch_with(old, new, &PatchOptions::seen(vec![old])).expect("a patch");
    assert!(!p.text.contains("as last shown"), "{}", p.text);
    assert!(p.text.contains("+ after [e9]:\n  - text: ✖"), "{}", p.text);
    assert_eq!(apply_patch_with(old, &p.text, &[old]).unwrap(), new);
    // Where the restore moves it from a place the previous snapshot
    // keeps, it stays a restore: printed, it would be there twice.
    let both = "- list [ref=e1]:\n  - listitem [ref=e2]:\n    - generic [ref=e3]:\n      - checkbox [ref=e4]\n      - generic [ref=e5]: Buy milk\n      - button \"✖\" [ref=e12]\n  - listitem [ref=e6]:\n    - generic [ref=e7]:\n      - checkbox [ref=e8]\n      - generic [ref=e9]: Walk the dog\n      - text: ✖";
    let p = snapshot_patch_with(old, both, &PatchOptions::seen(vec![old])).expect("a patch");
    assert_eq!(
        apply_patch_with(old, &p.text, &[old]).unwrap(),
        both,
        "{}",
        p.text
    );
}
