//! The patch's unit tests: each operation written, read and applied.

use super::*;
use crate::prelude::*;

const OLD: &str = "- list \"Cart\" [ref=e1]:\n  - listitem [ref=e2]: Tea\n  - text: Total\n- button \"Pay\" [ref=e3]";

#[test]
fn removal_change_and_insertions_at_every_anchor() {
    let new = "- generic [ref=e9]: top\n- list \"Cart\" [ref=e1]:\n  - listitem [ref=e7]: Cake\n  - text: Total\n- listitem [ref=e8]: Pie\n- button \"Pay now\" [disabled] [ref=e3]";
    let p = snapshot_patch(OLD, new).unwrap();
    assert_eq!(
        p.text,
        "- [e2] listitem\n+ first:\n  - generic [ref=e9]: top\n+ first in [e1]:\n  - listitem [ref=e7]: Cake\n+ after [e1]:\n  - listitem [ref=e8]: Pie\n~ button \"Pay now\" [disabled] [ref=e3]"
    );
    assert_eq!(
        p.summary(),
        "1 changed (~), 3 added (+), 1 removed (-), 2 unchanged"
    );
    assert_eq!(apply_patch(OLD, &p.text).unwrap(), new);
}

#[test]
fn a_change_without_a_ref_names_it_by_address_or_replaces_the_nearest_element_with_one() {
    let new = OLD.replace("Total", "Sum");
    let p = snapshot_patch(OLD, &new).unwrap();
    assert_eq!(p.text, "~ [e1/2] text: Sum");
    assert_eq!(
        p.summary(),
        "1 changed (~), 0 added (+), 0 removed (-), 3 unchanged"
    );
    assert_eq!(apply_patch(OLD, &p.text).unwrap(), new);
    // Where most of an element's children without a ref changed, it is
    // shorter to re-send the element.
    let old = "- list [ref=e1]:\n  - generic:\n    - text: a\n  - generic:\n    - text: b";
    let new = "- list [ref=e1]:\n  - strong: A\n  - emphasis: B";
    let p = snapshot_patch(old, new).unwrap();
    assert_eq!(
        p.text,
        "~ list [ref=e1]:\n    - strong: A\n    - emphasis: B"
    );
    assert_eq!(apply_patch(old, &p.text).unwrap(), new);
    // On a large page only the patch by address is written.
    let big: String = (0..1500)
        .map(|i| format!("- listitem [ref=e{i}]:\n  - text: Item {i} × 1\n"))
        .collect();
    assert!(2 * big.len() > 64 * 1024);
    let p = snapshot_patch(&big, &big.replace("Item 9 × 1", "Item 9 × 2")).unwrap();
    assert_eq!(p.text, "~ [e9/1] text: Item 9 × 2");
    // The old way still applies.
    assert_eq!(
        apply_patch(
            OLD,
            "~ list \"Cart\" [ref=e1]:\n    [e2] as last shown\n    - text: Sum"
        )
        .unwrap(),
        OLD.replace("Total", "Sum")
    );
    // Added and removed text nodes too.
    let new = OLD.replace("  - text: Total\n", "");
    assert_eq!(
        apply_patch(OLD, &snapshot_patch(OLD, &new).unwrap().text).unwrap(),
        new
    );
    let new = OLD.replace("  - text: Total\n", "  - text: Total\n  - text: more\n");
    assert_eq!(
        apply_patch(OLD, &snapshot_patch(OLD, &new).unwrap().text).unwrap(),
        new
    );
}

#[test]
fn removed_elements_share_one_line() {
    let old = "- list [ref=e1]:\n  - listitem [ref=e2]: a\n  - listitem [ref=e3]: b\n  - listitem [ref=e4]: c\n  - listitem [ref=e5]: d\n- button \"Go\" [ref=e6]";
    let new = "- list [ref=e1]:\n  - listitem [ref=e4]: c";
    let p = snapshot_patch(old, new).unwrap();
    assert_eq!(p.text, "- [e2 e3 e5 e6]");
    assert_eq!(p.removed, 4);
    assert_eq!(apply_patch(old, &p.text).unwrap(), new);
}

#[test]
fn a_changed_line_repeats_its_properties_only_when_they_changed() {
    let old = "- link \"Cart (1)\" [ref=e1]:\n  - /url: \"#cart\"\n- link \"Help\" [ref=e2]:\n  - /url: /help";
    let new = old.replace("Cart (1)", "Cart (2)");
    let p = snapshot_patch(old, &new).unwrap();
    assert_eq!(p.text, "~ link \"Cart (2)\" [ref=e1]");
    assert_eq!(apply_patch(old, &p.text).unwrap(), new);
    let moved = new.replace("/help", "/faq");
    let p = snapshot_patch(old, &moved).unwrap();
    assert_eq!(
        p.text,
        "~ link \"Cart (2)\" [ref=e1]\n~ link \"Help\" [ref=e2]:\n    - /url: /faq"
    );
    assert_eq!(apply_patch(old, &p.text).unwrap(), moved);
}

#[test]
fn a_moved_element_costs_the_line_that_places_it() {
    // A first todo wraps the header in a new container (react's TodoMVC).
    let old = "- generic [ref=e1]:\n  - heading \"todos\" [level=1] [ref=e2]\n  - textbox \"New\" [ref=e3]";
    let new = "- generic [ref=e1]:\n  - generic [ref=e4]:\n    - heading \"todos\" [level=1] [ref=e2]\n    - textbox \"New\" [ref=e3]\n  - list [ref=e5]:\n    - listitem [ref=e6]: Tea";
    let p = snapshot_patch(old, new).unwrap();
    assert_eq!(
        p.text,
        "+ first in [e1]:\n  - generic [ref=e4]:\n    [e2 e3] as last shown\n  - list [ref=e5]:\n    - listitem [ref=e6]: Tea"
    );
    assert_eq!((p.moved, p.removed, p.added, p.restored), (2, 0, 3, 0));
    assert_eq!(apply_patch(old, &p.text).unwrap(), new);
    // Patches that also remove the moved elements from their old place
    // (as writers before moves did) apply the same.
    let both = format!("- [e2 e3]\n{}", p.text);
    assert_eq!(apply_patch(old, &both).unwrap(), new);
    // A moved element whose text changed is printed where it now is.
    let renamed = new.replace("\"todos\"", "\"my todos\"");
    let p = snapshot_patch(old, &renamed).unwrap();
    assert_eq!(
        p.text,
        "+ first in [e1]:\n  - generic [ref=e4]:\n    - heading \"my todos\" [level=1] [ref=e2]\n    [e3] as last shown\n  - list [ref=e5]:\n    - listitem [ref=e6]: Tea"
    );
    assert_eq!(apply_patch(old, &p.text).unwrap(), renamed);
}

#[test]
fn reordered_siblings_cost_one_order_line() {
    let row = |i: usize, name: &str, n: usize| {
        format!(
            "    - row \"{name} {n}\" [ref=r{i}]:\n      - cell \"{name}\" [ref=c{i}]\n      - cell \"{n}\" [ref=d{i}]\n"
        )
    };
    let data = [("Ada", 36), ("Bob", 25), ("Cy", 41), ("Di", 30)];
    let table = |order: &[usize]| {
        let rows: String = order
            .iter()
            .map(|&i| row(i, data[i].0, data[i].1))
            .collect();
        format!("- table [ref=t]:\n  - rowgroup [ref=g]:\n{rows}- button \"Next\" [ref=b]")
    };
    let by_name = table(&[0, 1, 2, 3]);
    let by_age = table(&[1, 3, 0, 2]);
    let by_age_down = table(&[2, 0, 3, 1]);
    let mut prev = by_name.clone();
    for (next, line) in [
        (&by_age, "~ order [r1 r3 r0 r2]"),
        (&by_age_down, "~ order [r2 r0 r3 r1]"),
        (&by_name, "~ order [r0 r1 r2 r3]"),
    ] {
        let p = snapshot_patch(&prev, next).unwrap();
        assert_eq!(p.text, line);
        assert_eq!(p.moved, 4);
        assert!(p.summary().contains("4 moved"), "{}", p.summary());
        assert_eq!(apply_patch(&prev, &p.text).unwrap(), *next);
        prev = next.clone();
    }
    // Only the elements that left their place are listed.
    let p = snapshot_patch(&by_name, &table(&[0, 2, 1, 3])).unwrap();
    assert_eq!(p.text, "~ order [r2 r1]");
    // A sort that also changes the page: removals, an order, insertions.
    let mut next = table(&[3, 1, 0]);
    next = next.replace(
        "    - row \"Bob",
        "    - row \"Eve 22\" [ref=r9]:\n      - cell \"Eve\" [ref=c9]\n    - row \"Bob",
    );
    let p = snapshot_patch(&by_name, &next).unwrap();
    assert_eq!(
        p.text,
        "- [r2] row \"Cy 41\"\n~ order [r3 r0]\n+ after [r3]:\n  - row \"Eve 22\" [ref=r9]:\n    - cell \"Eve\" [ref=c9]"
    );
    assert_eq!(apply_patch(&by_name, &p.text).unwrap(), next);
    // One row dragged from the top of a long list to its end: a move.
    let long: Vec<usize> = (0..40).collect();
    let items = |order: &[usize]| -> String {
        let rows: Vec<String> = order
            .iter()
            .map(|i| format!("  - listitem \"Item {i}\" [ref=e{i}]"))
            .collect();
        format!("- list [ref=l]:\n{}", rows.join("\n"))
    };
    let mut dragged = long[1..].to_vec();
    dragged.push(0);
    let p = snapshot_patch(&items(&long), &items(&dragged)).unwrap();
    assert_eq!(p.text, "+ after [e39]: [e0] as last shown");
    assert_eq!(
        apply_patch(&items(&long), &p.text).unwrap(),
        items(&dragged)
    );
    // Bad order lines say what is wrong.
    let e = apply_patch(&by_name, "~ order [r1 b]")
        .unwrap_err()
        .to_string();
    assert!(e.contains("[b] is not a sibling of [r1]"), "{e}");
    let e = apply_patch(&by_name, "~ order [r1 r1]")
        .unwrap_err()
        .to_string();
    assert!(e.contains("[r1] is listed twice"), "{e}");
    let e = apply_patch(&by_name, "~ order [x]")
        .unwrap_err()
        .to_string();
    assert!(e.contains("[x] is not in the previous snapshot"), "{e}");
}

#[test]
fn a_moved_focus_costs_one_line() {
    let old = "- textbox \"Body\" [active] [ref=e1]: a long request body that would cost many tokens\n- button \"Send\" [ref=e2]";
    let new = "- textbox \"Body\" [ref=e1]: a long request body that would cost many tokens\n- button \"Send\" [active] [ref=e2]";
    let p = snapshot_patch(old, new).unwrap();
    assert_eq!(p.text, "~ focus [e2]");
    assert_eq!(
        p.summary(),
        "2 changed (~), 0 added (+), 0 removed (-), 0 unchanged"
    );
    assert_eq!(apply_patch(old, &p.text).unwrap(), new);
    // Focus gone from the page.
    let none = new.replace(" [active]", "");
    assert_eq!(snapshot_patch(new, &none).unwrap().text, "~ focus none");
    // `[active]` goes where Playwright prints it among the states.
    let old = "- checkbox \"A\" [checked] [disabled] [level=2] [ref=e1]\n- button \"B\" [active] [ref=e2]";
    let new = "- checkbox \"A\" [checked] [disabled] [active] [level=2] [ref=e1]\n- button \"B\" [ref=e2]";
    let p = snapshot_patch(old, new).unwrap();
    assert_eq!(p.text, "~ focus [e1]");
    assert_eq!(apply_patch(old, &p.text).unwrap(), new);
    // Focus moves into a changed element: its own line says it all.
    let old = "- textbox \"Q\" [ref=e1]\n- button \"Go\" [active] [ref=e2]";
    let new = "- textbox \"Q\" [active] [ref=e1]: tea\n- button \"Go\" [ref=e2]";
    let p = snapshot_patch(old, new).unwrap();
    assert_eq!(p.text, "~ textbox \"Q\" [active] [ref=e1]: tea");
    assert_eq!(apply_patch(old, &p.text).unwrap(), new);
    // ... or into a new one (an edit field opened by a double-click).
    let new = "- textbox \"Q\" [ref=e1]\n- textbox \"Edit\" [active] [ref=e3]: tea\n- button \"Go\" [ref=e2]";
    let p = snapshot_patch(old, new).unwrap();
    assert_eq!(
        p.text,
        "+ after [e1]:\n  - textbox \"Edit\" [active] [ref=e3]: tea"
    );
    assert_eq!(apply_patch(old, &p.text).unwrap(), new);
    // A printed line keeping `[active]` where it was changes nothing else.
    let old = "- textbox \"Q\" [active] [ref=e1]: te\n- button \"Go\" [ref=e2]";
    let new = "- textbox \"Q\" [active] [ref=e1]: tea\n- button \"Go\" [ref=e2]";
    let p = snapshot_patch(old, new).unwrap();
    assert_eq!(p.text, "~ textbox \"Q\" [active] [ref=e1]: tea");
    assert_eq!(apply_patch(old, &p.text).unwrap(), new);
}

#[test]
fn elements_shown_before_are_restored_by_reference() {
    let all = "- list [ref=e1]:\n  - listitem [ref=e2]:\n    - link \"Tea\" [ref=e3]\n  - listitem [ref=e4]:\n    - link \"Cake\" [ref=e5]\n  - listitem [ref=e6]:\n    - link \"Pie\" [ref=e7]";
    let one = "- list [ref=e1]:\n  - listitem [ref=e4]:\n    - link \"Cake\" [ref=e5]";
    // A new element among the restored ones: printed between them.
    let new = all.replace(
        "  - listitem [ref=e6]",
        "  - listitem [ref=e9]: new\n  - listitem [ref=e6]",
    );
    let seen = [all, one];
    let p = snapshot_patch_with(one, &new, &PatchOptions::seen(seen.to_vec())).unwrap();
    assert_eq!(
        p.text,
        "+ first in [e1]: [e2] as last shown\n+ after [e4]:\n  - listitem [ref=e9]: new\n  [e6] as last shown"
    );
    assert_eq!((p.added, p.restored), (5, 4));
    assert_eq!(apply_patch_with(one, &p.text, &seen).unwrap(), new);
    // The latest seen snapshot that has a ref wins: Pie was renamed there,
    // so the original Pie cannot be restored by reference.
    let renamed = all.replace("Pie", "Tart");
    let seen = [all, renamed.as_str(), one];
    let p = snapshot_patch_with(one, all, &PatchOptions::seen(seen.to_vec())).unwrap();
    assert_eq!(
        p.text,
        "+ first in [e1]: [e2] as last shown\n+ after [e4]:\n  - listitem [ref=e6]:\n    - link \"Pie\" [ref=e7]"
    );
    assert_eq!(apply_patch_with(one, &p.text, &seen).unwrap(), all);
    // Off: everything printed.
    let p =
        snapshot_patch_with(one, all, &PatchOptions::seen(seen.to_vec()).restore(false)).unwrap();
    assert_eq!(p.restored, 0);
    assert!(!p.text.contains("as last shown"));
}

#[test]
fn what_a_patch_cannot_say_gives_none() {
    // A top-level static text node has no ref above it: its address
    // counts from the top.
    let old = "- text: Total\n- button \"Pay\" [ref=e3]";
    let p = snapshot_patch(old, &old.replace("Total", "Sum")).unwrap();
    assert_eq!(p.text, "~ [/1] text: Sum");
    // Refs with a `/` would read as addresses: no address then.
    let old = "- list [ref=a/b]:\n  - text: Total";
    assert_eq!(
        snapshot_patch(old, &old.replace("Total", "Sum"))
            .unwrap()
            .text,
        "~ list [ref=a/b]:\n    - text: Sum"
    );
    // Not an aria snapshot.
    assert!(snapshot_patch("- a:\n b", OLD).is_none());
    // Over the size limit.
    let big: String = (0..MAX_PATCH_BYTES / 30 + 1)
        .map(|i| format!("- listitem [ref=e{i}]: item {i}\n"))
        .collect();
    assert!(big.len() > MAX_PATCH_BYTES);
    assert!(snapshot_patch(&big, &big.replace("item 7\n", "item 7!\n")).is_none());
    let small = &big[..big.len() / 2];
    let small = &small[..small.rfind('\n').unwrap()];
    assert!(snapshot_patch(small, &small.replace("item 7\n", "item 7!\n")).is_some());
}

#[test]
fn bad_patches_name_the_line_and_the_fix() {
    let e = apply_patch(OLD, "~ button \"Pay\"")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("snapshot patch at line 1") && e.contains("one element with a ref"),
        "{e}"
    );
    let e = apply_patch(OLD, "- [e2]\n- [e42] row")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("line 2") && e.contains("[e42] is not in the previous snapshot"),
        "{e}"
    );
    let e = apply_patch(OLD, "+ before [e1]:\n  - row")
        .unwrap_err()
        .to_string();
    assert!(e.contains("unknown insertion point `before [e1]:`"), "{e}");
    let e = apply_patch(OLD, "+ first:").unwrap_err().to_string();
    assert!(e.contains("an insertion without element lines"), "{e}");
    let e = apply_patch(OLD, "hello").unwrap_err().to_string();
    assert!(e.contains("unknown line `hello`"), "{e}");
    let e = apply_patch(OLD, "- [e2  e3]").unwrap_err().to_string();
    assert!(e.contains("expected refs like `[e12 e13]`"), "{e}");
    let e = apply_patch(OLD, "~ focus [e9]").unwrap_err().to_string();
    assert!(e.contains("[e9] is not in the previous snapshot"), "{e}");
    let e = apply_patch(OLD, "~ focus [e1 e2]").unwrap_err().to_string();
    assert!(e.contains("expected one ref"), "{e}");
    let e = apply_patch(OLD, "+ after [e1]: [e7] as last shown")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("[e7] is restored `as last shown` but no seen snapshot has it"),
        "{e}"
    );
    let e = apply_patch(OLD, "+ after [e1]: hello")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("unexpected `hello` after the insertion point"),
        "{e}"
    );
    let e = apply_patch_with(OLD, "+ after [e1]: [e7] as last shown", &["- a:\n b"])
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("seen snapshot at line") && e.contains("seen[0]"),
        "{e}"
    );
}

#[test]
fn an_element_restored_with_a_line_changed_costs_its_reference_and_that_line() {
    let all = "- list [ref=e1]:\n  - listitem [ref=e2]:\n    - link \"Tea\" [ref=e3]\n    - button \"Buy\" [ref=e4]\n    - button \"Save\" [ref=e5]\n  - listitem [ref=e6]:\n    - link \"Pie\" [ref=e7]";
    let one = "- list [ref=e1]:\n  - listitem [ref=e6]:\n    - link \"Pie\" [ref=e7]";
    // Tea comes back with its "Buy" button now disabled.
    let back = all.replace("\"Buy\" [ref=e4]", "\"Buy\" [disabled] [ref=e4]");
    let seen = [all, one];
    let p = snapshot_patch_with(one, &back, &PatchOptions::seen(seen.to_vec())).unwrap();
    assert_eq!(
        p.text,
        "+ first in [e1]: [e2] as last shown\n~ [e4] +disabled"
    );
    assert_eq!(apply_patch_with(one, &p.text, &seen).unwrap(), back);
    // A `~` line with children for a restored element replaces them there.
    let swapped = apply_patch_with(
        one,
        "+ first in [e1]: [e2] as last shown\n~ listitem [ref=e2]:\n    - link \"Tea\" [ref=e3]",
        &seen,
    )
    .unwrap();
    assert_eq!(
        swapped,
        "- list [ref=e1]:\n  - listitem [ref=e2]:\n    - link \"Tea\" [ref=e3]\n  - listitem [ref=e6]:\n    - link \"Pie\" [ref=e7]"
    );
}
