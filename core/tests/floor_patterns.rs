//! The four patterns of issue 37 that kept responses above their floor (the
//! tokens of what the agent had not been shown), each on small snapshots of
//! the shape the real apps have: a row of identical buttons (a data grid's
//! per-row action), a collapsible section (an API-docs viewer's operation),
//! a table wrapped in a new container, and a filter cleared after several
//! responses.

use response_diff::tree::{
    CarrierConfig, PatchOptions, RefCarrier, apply_patch_with, parse_aria, snapshot_patch_with,
};

/// A data grid page: unnamed rows of a name cell, an age cell and a cell
/// holding an "Edit" button, the same name in every row. Node ids are new
/// on every render (`n<base>…`), as a grid that redraws its body gives.
fn grid(people: &[usize], base: usize) -> String {
    let mut s = format!(
        "- table [ref=n{base}]:\n  - rowgroup [ref=n{}]:\n",
        base + 1
    );
    for (k, &p) in people.iter().enumerate() {
        let id = base + 10 + 10 * k;
        s += &format!(
            "    - row [ref=n{id}]:\n      - cell \"Person {p}\" [ref=n{}]\n      - cell \"{}\" [ref=n{}]\n      - cell \"Edit\" [ref=n{}]:\n        - button \"Edit\" [ref=n{}]\n",
            id + 1,
            20 + p,
            id + 2,
            id + 3,
            id + 4
        );
    }
    s.trim_end().to_owned()
}

/// The subtree of the row showing `Person p` in an aria text.
fn row_of(snapshot: &str, p: usize) -> String {
    let lines: Vec<&str> = snapshot.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains(&format!("\"Person {p}\"")))
        .unwrap()
        - 1;
    lines[at..at + 5].join("\n")
}

/// Pattern 1: page 1, page 2, then a larger page that shows page 1's rows
/// again. Each of them comes back with every ref it had (its button's
/// too, though every row's button looks the same), so the patch restores
/// them as one reference line; page 2's rows keep their own buttons.
#[test]
fn identical_buttons_keep_the_ref_they_had_in_their_own_row() {
    let carrier = RefCarrier::with_config(CarrierConfig::default().stable_ids(true));
    let page1 = carrier
        .carry(
            "grid",
            &parse_aria(&grid(&[0, 1, 2, 3, 4], 1000), false).unwrap(),
        )
        .unwrap()
        .tree
        .to_aria();
    let page2 = carrier
        .carry(
            "grid",
            &parse_aria(&grid(&[5, 6, 7, 8, 9], 2000), false).unwrap(),
        )
        .unwrap()
        .tree
        .to_aria();
    let all: Vec<usize> = (0..15).collect();
    let big = carrier
        .carry("grid", &parse_aria(&grid(&all, 3000), false).unwrap())
        .unwrap()
        .tree
        .to_aria();
    for p in 0..5 {
        assert_eq!(row_of(&big, p), row_of(&page1, p), "row {p}");
    }
    for p in 5..10 {
        assert_eq!(row_of(&big, p), row_of(&page2, p), "row {p}");
    }
    let seen = [page1.as_str(), page2.as_str()];
    let p = snapshot_patch_with(&page2, &big, &PatchOptions::seen(seen.to_vec())).unwrap();
    assert!(
        p.text
            .starts_with("+ first in [n1001]: [n1010 n1020 n1030 n1040 n1050] as last shown\n"),
        "{}",
        p.text
    );
    assert_eq!(apply_patch_with(&page2, &p.text, &seen).unwrap(), big);
}
