//! The four patterns of issue 37 that kept responses above their floor (the
//! tokens of what the agent had not been shown), each on small snapshots of
//! the shape the real apps have: a row of identical buttons (a data grid's
//! per-row action), a collapsible section (an API-docs viewer's operation),
//! a table wrapped in a new container, and a filter cleared after several
//! responses.

mod common;

use common::Agent;
use response_diff::diff::ResponseDiffDetector;
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
            .starts_with("+ first in [n1001]: [n1010 .. n1050] as last shown\n"),
        "{}",
        p.text
    );
    assert_eq!(apply_patch_with(&page2, &p.text, &seen).unwrap(), big);
}

/// A product list with a search box and a notes field, drawn in new nodes
/// on every render (`n<base>…`): what a framework that re-renders its list
/// gives a host whose refs are node ids.
fn shop(query: &str, notes: &str, base: usize) -> String {
    let teas = [
        "Sencha Kyoto",
        "Jasmine Pearls",
        "Assam Breakfast",
        "Earl Grey",
        "Oolong Milk",
        "Rooibos Vanilla",
        "Darjeeling First Flush",
        "Lapsang Souchong",
    ];
    let mut s = format!(
        "- main [ref=n1]:\n  - searchbox \"Search\" [ref=n2]: {query}\n  - textbox \"Notes\" [ref=n3]: {notes}\n  - list \"Teas\" [ref=n4]:\n"
    );
    for (k, t) in teas.iter().enumerate() {
        if !t.to_lowercase().contains(query) {
            continue;
        }
        let id = base + 10 * k;
        s += &format!(
            "    - listitem [ref=n{id}]:\n      - heading \"{t}\" [level=3] [ref=n{}]\n      - button \"Add to cart\" [ref=n{}]\n      - button \"Quick view\" [ref=n{}]\n",
            id + 1,
            id + 2,
            id + 3
        );
    }
    s.trim_end().to_owned()
}

/// A search narrows the list, the agent works elsewhere on the page for 20
/// responses (more than the carrier's 8 views), then clears the search.
/// Returns the snapshot section of the last response; every response must
/// rebuild the page.
fn filter_then_work_then_clear(carrier: &RefCarrier) -> String {
    let det = ResponseDiffDetector::new();
    let mut agent = Agent::new(&det);
    let mut base = 100;
    let mut step = |agent: &mut Agent<'_>, query: &str, notes: &str| -> String {
        base += 100;
        let tree = parse_aria(&shop(query, notes, base), false).unwrap();
        let carried = carrier.carry("shop", &tree).unwrap().tree.to_aria();
        agent.step(&carried)
    };
    step(&mut agent, "", "");
    step(&mut agent, "ea", "");
    let note = "remember the gift wrap and the card";
    for k in 1..=20 {
        step(&mut agent, "ea", &note[..k]);
    }
    step(&mut agent, "", &note[..20])
}

/// Pattern 4: after the search is cleared every item comes back by
/// reference, whatever the number of responses in between; under a small
/// memory cap the carrier stays under it and the items that left longest
/// ago come back printed (with new refs), never wrong.
#[test]
fn rows_come_back_by_reference_after_a_filter_whatever_came_between() {
    let carrier = RefCarrier::with_config(CarrierConfig::default().stable_ids(true));
    let body = filter_then_work_then_clear(&carrier);
    assert!(!body.contains("- listitem"), "items printed again:\n{body}");
    assert!(body.contains("as last shown"), "{body}");
    let cap = 24 * 1024;
    let small = RefCarrier::with_config(
        CarrierConfig::default()
            .stable_ids(true)
            .max_stored_bytes(cap),
    );
    let body = filter_then_work_then_clear(&small);
    assert!(small.memory_usage() <= cap, "{}", small.memory_usage());
    assert!(body.contains("- listitem"), "{body}");
}

/// Pattern 3: moves across parents, from the fixture every binding checks
/// (tests/fixtures/patches/moves.json): the writer says each move with the
/// line that places the element, and patches that also remove it from its
/// old place (as writers said moves before) apply the same.
#[test]
fn a_subtree_moved_under_another_parent_costs_the_line_that_places_it() {
    for case in common::patch_cases("moves.json") {
        let s = |k: &str| case.s(k);
        let seen = case.seen();
        let p =
            snapshot_patch_with(&s("old"), &s("new"), &PatchOptions::seen(seen.clone())).unwrap();
        assert_eq!(p.text, s("patch"), "{}", s("name"));
        assert!(
            !p.text.contains("\n- [") && !p.text.starts_with("- ["),
            "{}",
            p.text
        );
        assert_eq!(p.moved, 1, "{}", s("name"));
        for patch in [s("patch"), s("oldStyle")] {
            assert_eq!(
                apply_patch_with(&s("old"), &patch, &seen).unwrap(),
                s("new"),
                "{}",
                s("name")
            );
        }
    }
}

/// An API-docs page: two operations, each unnamed blocks holding a
/// summary button and, when expanded, its documented responses (the same
/// table in both operations, as swagger-ui shows "200 / default"). After
/// "Execute", the operation's responses move into a new container under
/// the server's response. `ids`: (op, node ids of its table) per op.
fn api_docs(ops: &[(&str, Option<(usize, bool)>)]) -> String {
    let mut s = String::from("- main [ref=n1]:\n");
    for (k, (name, open)) in ops.iter().enumerate() {
        let b = 100 * (k + 1);
        s += &format!(
            "  - generic [ref=n{b}]:\n    - button \"{name}\" [ref=n{}]\n",
            b + 1
        );
        let Some((t, executed)) = open else { continue };
        let (pad, wrap) = if *executed {
            (
                "      ",
                format!(
                    "    - generic [ref=n{}]:\n      - heading \"Server response\" [level=4] [ref=n{}]\n      - code [ref=n{}]: \"{{ \\\"id\\\": {k} }}\"\n",
                    b + 50,
                    b + 51,
                    b + 52
                ),
            )
        } else {
            ("    ", String::new())
        };
        s += &wrap;
        s += &format!(
            "{pad}- table [ref=n{t}]:\n{pad}  - row \"200 OK\" [ref=n{}]:\n{pad}    - cell \"200\" [ref=n{}]\n{pad}    - cell \"OK\" [ref=n{}]\n{pad}  - row \"default unexpected error\" [ref=n{}]:\n{pad}    - cell \"default\" [ref=n{}]\n{pad}    - cell \"unexpected error\" [ref=n{}]\n",
            t + 1,
            t + 2,
            t + 3,
            t + 4,
            t + 5,
            t + 6
        );
    }
    s.trim_end().to_owned()
}

/// Pattern 3 in the ref carrier: the documented responses of the second
/// operation, moved into a new container by "Execute" (its nodes redrawn),
/// keep their own refs, not those of the first operation's table of the
/// same content that an older view showed in a container of that shape;
/// so the move is the one line that places the table.
#[test]
fn a_rewrapped_table_keeps_its_own_refs() {
    let carrier = RefCarrier::with_config(CarrierConfig::default().stable_ids(true));
    let carry = |s: String| {
        carrier
            .carry("docs", &parse_aria(&s, false).unwrap())
            .unwrap()
            .tree
            .to_aria()
    };
    let (a, b) = ("GET /pets List all pets", "POST /pets Create a pet");
    carry(api_docs(&[(a, Some((1000, false))), (b, None)]));
    carry(api_docs(&[(a, Some((1100, true))), (b, None)]));
    carry(api_docs(&[(a, None), (b, None)]));
    let before = carry(api_docs(&[(a, None), (b, Some((2000, false)))]));
    let after = carry(api_docs(&[(a, None), (b, Some((2100, true)))]));
    let table = |s: &str| -> Vec<String> {
        let at = s.find("- table").unwrap();
        s[at..].lines().map(|l| l.trim_start().to_owned()).collect()
    };
    assert_eq!(table(&after), table(&before));
    let p = snapshot_patch_with(&before, &after, &PatchOptions::default()).unwrap();
    assert_eq!(p.text.lines().count(), 5, "{}", p.text);
    assert!(p.text.ends_with(" as last shown"), "{}", p.text);
}

/// An API-docs operation as swagger-ui prints it: collapsed, its summary
/// controls in the operation block; expanded, the summary wrapped in a new
/// container with `[expanded]` on, and a body of `rows` parameter rows.
fn operation(expanded: bool, rows: usize) -> String {
    let mut s = String::from(
        "- main [ref=e1]:\n  - heading \"Pet shop\" [level=1] [ref=e2]\n  - generic [ref=e94]:\n",
    );
    let (pad, state) = if expanded {
        s += "    - generic [ref=e619]:\n";
        ("      ", " [expanded]")
    } else {
        ("    ", "")
    };
    s += &format!(
        "{pad}- button \"GET /pets.json List all pets\"{state} [ref=e91]:\n{pad}  - generic [ref=e86]: GET\n{pad}  - generic [ref=e87]:\n{pad}    - generic [ref=e84]: /pets.json\n{pad}    - generic [ref=e85]: List all pets\n{pad}- button \"Copy path to clipboard\" [ref=e92]\n{pad}- button \"get /pets.json\"{state} [ref=e93]\n"
    );
    if expanded {
        s += "    - generic [ref=e424]:\n      - heading \"Parameters\" [level=4] [ref=e428]\n      - table [ref=e480]:\n";
        for k in 0..rows {
            s += &format!(
                "        - row [ref=e{}]:\n          - cell \"param{k} string (query)\" [ref=e{}]\n          - cell [ref=e{}]:\n            - paragraph [ref=e{}]: What parameter {k} filters by\n            - textbox \"param{k}\" [disabled] [ref=e{}]\n",
                1000 + 10 * k,
                1001 + 10 * k,
                1002 + 10 * k,
                1003 + 10 * k,
                1004 + 10 * k
            );
        }
    }
    s += "  - generic [ref=e109]:\n    - button \"POST /pets.json Create a pet\" [ref=e106]";
    s
}

/// Pattern 2: closing an expanded operation removes a large body (125
/// lines here) and unwraps its summary. The smallest lossless answer is a
/// patch of a few lines: the body's removal (one line whatever its size),
/// the summary's controls put back by reference, and the lines that
/// changed; the response sends it, not the full text or a line diff.
#[test]
fn collapsing_a_large_section_is_a_patch_of_a_few_lines() {
    let (open, closed) = (operation(true, 25), operation(false, 0));
    assert!(open.lines().count() - closed.lines().count() >= 125);
    let p = snapshot_patch_with(&open, &closed, &PatchOptions::default()).unwrap();
    assert_eq!(
        p.text,
        "- [e619 e424]\n+ first in [e94]: [e91 e92] as last shown\n  - button \"get /pets.json\" [ref=e93]\n~ [e91] -expanded"
    );
    assert_eq!(apply_patch_with(&open, &p.text, &[]).unwrap(), closed);
    // Rendered with diffs on, after the agent saw it open: the patch.
    let det = ResponseDiffDetector::new();
    let mut agent = Agent::new(&det);
    agent.step(&closed);
    agent.step(&open);
    let body = agent.step(&closed);
    assert!(body.starts_with(" (patch)"), "{body}");
    assert!(body.lines().count() <= 8, "{body}");
}
