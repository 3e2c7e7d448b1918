//! Refs carried over by content identity across re-rendered snapshots.

use response_diff::tree::{
    CarrierConfig, CarryOptions, RefCarrier, Tree, carry_refs, parse_aria, snapshot_patch,
};

/// A cart rendered from scratch: every node id is new (`n<base + i>`).
fn cart(items: &[&str], base: usize) -> Tree {
    let mut s = format!("- list \"Cart\" [ref=n{base}]:\n");
    for (i, item) in items.iter().enumerate() {
        let id = base + 1 + 2 * i;
        s.push_str(&format!(
            "  - listitem [ref=n{id}]:\n    - text: {item}\n    - button \"Remove\" [ref=n{}]\n",
            id + 1
        ));
    }
    s.push_str(&format!(
        "- paragraph [ref=n{}]: {} items",
        base + 99,
        items.len()
    ));
    parse_aria(&s, false).unwrap()
}

fn refs(t: &Tree) -> Vec<String> {
    t.iter().filter_map(|(_, e)| e.aria_ref.clone()).collect()
}

#[test]
fn a_rerendered_list_with_the_same_content_keeps_every_ref() {
    let c = RefCarrier::new();
    let first = c.carry("tab", &cart(&["Tea", "Cake"], 100)).unwrap();
    let again = c.carry("tab", &cart(&["Tea", "Cake"], 500)).unwrap();
    assert_eq!(again.tree, first.tree);
    assert_eq!((again.carried, again.fresh), (6, 0));
    assert_eq!(again.ref_of("n501"), Some("n101"));
    // The mapping covers every element with a node id, in document order.
    let ids: Vec<&str> = again.refs.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(ids, ["n500", "n501", "n502", "n503", "n504", "n599"]);
}

#[test]
fn one_item_added_to_a_rerendered_list_is_one_added_element() {
    let c = RefCarrier::new();
    let before = c.carry("tab", &cart(&["Tea", "Cake"], 100)).unwrap().tree;
    let after = c.carry("tab", &cart(&["Tea", "Cake", "Pie"], 500)).unwrap();
    // The count's text changed: an unnamed element with other text is
    // another element, so it gets a new ref too.
    assert_eq!((after.carried, after.fresh), (5, 3));
    let p = snapshot_patch(&before.to_aria(), &after.tree.to_aria()).unwrap();
    assert_eq!(
        p.text,
        "- [n199] paragraph\n+ after [n103]:\n  - listitem [ref=n505]:\n    - text: Pie\n    - button \"Remove\" [ref=n506]\n+ after [n100]:\n  - paragraph [ref=n599]: 3 items"
    );
}

#[test]
fn an_item_removed_and_restored_gets_its_old_ref_back() {
    let c = RefCarrier::new();
    let full = c
        .carry("tab", &cart(&["Tea", "Cake", "Pie"], 100))
        .unwrap()
        .tree;
    let filtered = c.carry("tab", &cart(&["Cake"], 200)).unwrap().tree;
    assert_eq!(refs(&filtered), ["n100", "n103", "n104", "n299"]);
    let restored = c.carry("tab", &cart(&["Tea", "Cake", "Pie"], 300)).unwrap();
    // The count "3 items" comes back from the first view too.
    assert_eq!(restored.tree, full);
    assert_eq!((restored.carried, restored.fresh), (8, 0));
}

#[test]
fn identical_rows_map_in_order() {
    let c = RefCarrier::new();
    c.carry("tab", &cart(&["Tea", "Tea", "Tea"], 100)).unwrap();
    // One of three identical rows goes: the first two keep their refs in order.
    let two = c.carry("tab", &cart(&["Tea", "Tea"], 200)).unwrap();
    assert_eq!(
        refs(&two.tree),
        ["n100", "n101", "n102", "n103", "n104", "n299"]
    );
    // A row added among duplicates after a distinct one: the existing ones
    // keep theirs, the new one gets a new ref.
    let three = c.carry("tab", &cart(&["Cake", "Tea", "Tea"], 300)).unwrap();
    let r = refs(&three.tree);
    assert_eq!(&r[3..], ["n101", "n102", "n103", "n104", "n199"]);
    assert_eq!(three.fresh, 2);
}

#[test]
fn a_ref_is_never_given_to_different_content() {
    let c = RefCarrier::new();
    let mut handed: std::collections::HashMap<String, (String, String)> = Default::default();
    let steps: [&[&str]; 5] = [
        &["Tea", "Cake"],
        &["Pie"],
        &["Jam", "Pie"],
        &["Tea"],
        &["Cake", "Jam", "Bun"],
    ];
    for (k, items) in steps.iter().enumerate() {
        let r = c.carry("tab", &cart(items, 1000 * (k + 1))).unwrap();
        let mut seen = std::collections::HashSet::new();
        for (_, e) in r.tree.iter() {
            let Some(rf) = &e.aria_ref else { continue };
            assert!(seen.insert(rf.clone()), "ref {rf} twice in step {k}");
            // What a listitem is: its text; other elements: role and name.
            let what = if e.role == "listitem" {
                e.children[0].name.clone()
            } else {
                e.name.clone()
            };
            let id = (e.role.clone(), what);
            if let Some(prev) = handed.insert(rf.clone(), id.clone()) {
                // The Remove buttons are identical by content; every other
                // element keeps its identity.
                if e.role != "button" {
                    assert_eq!(prev, id, "ref {rf} changed content at step {k}");
                }
            }
        }
    }
}

#[test]
fn a_renamed_rebuilt_element_is_new_but_a_renamed_node_keeps_its_ref() {
    let old = parse_aria("- link \"Cart (1)\" [ref=e5]", false).unwrap();
    // Rebuilt (new node id): another name is another element.
    let rebuilt = parse_aria("- link \"Cart (2)\" [ref=e9]", false).unwrap();
    let c = carry_refs(&[&old], &rebuilt, CarryOptions::default()).unwrap();
    assert_eq!(c.tree.to_aria(), "- link \"Cart (2)\" [ref=e9]");
    // The same node (stable ids): the same element, renamed.
    let same_node = parse_aria("- link \"Cart (2)\" [ref=e5]", false).unwrap();
    let c = carry_refs(&[&old], &same_node, CarryOptions::stable_ids(true)).unwrap();
    assert_eq!((c.carried, c.fresh), (1, 0));
    // Without stable ids the id e5 was handed out to other content, so the
    // renamed node gets a new ref instead of the old one.
    let c = carry_refs(&[&old], &same_node, CarryOptions::default()).unwrap();
    assert_eq!(c.tree.to_aria(), "- link \"Cart (2)\" [ref=e6]");
}

#[test]
fn a_value_change_keeps_the_ref_of_a_rebuilt_field() {
    let old = parse_aria("- textbox \"Name\" [ref=e3]: Ann", false).unwrap();
    let new = parse_aria("- textbox \"Name\" [active] [ref=e40]: Anne", false).unwrap();
    let c = carry_refs(&[&old], &new, CarryOptions::default()).unwrap();
    assert_eq!(
        c.tree.to_aria(),
        "- textbox \"Name\" [active] [ref=e3]: Anne"
    );
}

#[test]
fn the_same_inputs_give_the_same_refs() {
    let run = || {
        let c = RefCarrier::with_config(CarrierConfig::default());
        let mut out = Vec::new();
        for (k, items) in [&["A", "B"][..], &["B", "C"], &["A", "C", "D"]]
            .iter()
            .enumerate()
        {
            out.push(c.carry("t", &cart(items, 100 * (k + 1))).unwrap().to_json());
        }
        out
    };
    assert_eq!(run(), run());
}

#[test]
fn pages_are_kept_apart() {
    let c = RefCarrier::new();
    c.carry("a", &cart(&["Tea"], 100)).unwrap();
    let b = c.carry("b", &cart(&["Tea"], 200)).unwrap();
    assert_eq!(b.carried, 0);
    assert!(c.clear("a"));
    assert!(!c.clear("a"));
}

#[test]
fn the_json_form_lists_the_mapping_in_document_order() {
    let c = carry_refs(
        &[],
        &parse_aria("- button \"Go\" [ref=x1]\n- text: hi", false).unwrap(),
        CarryOptions::default(),
    )
    .unwrap();
    assert_eq!(
        c.to_json(),
        r#"{"snapshot":"- button \"Go\" [ref=x1]\n- text: hi","refs":{"x1":"x1"},"carried":0,"fresh":1}"#
    );
}

/// A filter that shows another row in a reused node (vanillajs, angularjs
/// and mithril's TodoMVC do this): with stable node ids the row is known by
/// what it shows, not by the node, so nothing the agent saw changes ref.
#[test]
fn a_reused_node_showing_another_row_takes_that_rows_refs() {
    let row = |id: u32, checked: bool, text: &str| {
        format!(
            "  - listitem [ref=n{id}]:\n    - checkbox{} [ref=n{}]\n    - generic [ref=n{}]: {text}\n",
            if checked { " [checked]" } else { "" },
            id + 1,
            id + 2
        )
    };
    let list = |rows: &[String]| {
        parse_aria(&format!("- list [ref=n1]:\n{}", rows.concat()), false).unwrap()
    };
    let carrier = RefCarrier::with_config(CarrierConfig::default().stable_ids(true));
    let all = list(&[row(10, false, "Buy milk"), row(20, true, "Walk the dog")]);
    let all_refs = carrier.carry("todo", &all).unwrap().tree;
    // "Completed": the first row's nodes now show "Walk the dog" (its label
    // node is new), the second row's nodes are gone.
    let completed = parse_aria(
        "- list [ref=n1]:\n  - listitem [ref=n10]:\n    - checkbox [checked] [ref=n11]\n    - generic [ref=n30]: Walk the dog",
        false,
    )
    .unwrap();
    let c = carrier.carry("todo", &completed).unwrap();
    assert_eq!(
        c.tree.to_aria(),
        "- list [ref=n1]:\n  - listitem [ref=n20]:\n    - checkbox [checked] [ref=n21]\n    - generic [ref=n22]: Walk the dog"
    );
    assert_eq!((c.carried, c.fresh), (4, 0));
    // "All" again: both rows as they were, every ref as first shown.
    let again = list(&[row(10, false, "Buy milk"), row(40, true, "Walk the dog")]);
    assert_eq!(carrier.carry("todo", &again).unwrap().tree, all_refs);
    // A node renamed in place (no other element has its content) keeps its ref.
    let renamed = list(&[
        row(10, false, "Buy oat milk"),
        row(40, true, "Walk the dog"),
    ]);
    let c = carrier.carry("todo", &renamed).unwrap();
    assert_eq!(c.ref_of("n12"), Some("n12"));
}

/// TodoMVC (vanillajs) "Completed" after "Active": the one row shown is
/// "Walk the dog", drawn in the nodes that showed "Buy milk" (its label
/// node is new), and the last view did not have it. It takes the refs it
/// had two views ago, not the reused nodes'.
#[test]
fn a_row_drawn_in_reused_nodes_takes_its_refs_from_an_older_view() {
    let row = |li: u32, label: u32, checked: bool, text: &str, delete: Option<u32>| {
        let mut s = format!(
            "  - listitem [ref=n{li}]:\n    - generic [ref=n{}]:\n      - checkbox{} [ref=n{}]: ✔\n      - generic [ref=n{label}]: {text}\n",
            li + 1,
            if checked { " [checked]" } else { "" },
            li + 2
        );
        if let Some(d) = delete {
            s.push_str(&format!("      - button \"✖\" [ref=n{d}]\n"));
        }
        s
    };
    let list = |rows: &[String]| {
        parse_aria(&format!("- list [ref=n1]:\n{}", rows.concat()), false).unwrap()
    };
    let carrier = RefCarrier::with_config(CarrierConfig::default().stable_ids(true));
    let all = list(&[
        row(173, 176, false, "Buy milk", None),
        row(191, 194, true, "Walk the dog", Some(213)),
        row(214, 217, false, "Write report", None),
    ]);
    carrier.carry("todo", &all).unwrap();
    let active = list(&[
        row(173, 176, false, "Buy milk", None),
        row(214, 217, false, "Write report", None),
    ]);
    carrier.carry("todo", &active).unwrap();
    let completed = list(&[row(173, 254, true, "Walk the dog", None)]);
    let c = carrier.carry("todo", &completed).unwrap();
    assert_eq!(
        c.tree.to_aria(),
        list(&[row(191, 194, true, "Walk the dog", None)]).to_aria()
    );
    // "All" again: every row as first shown (the Walk row's nodes are new).
    let again = list(&[
        row(173, 176, false, "Buy milk", None),
        row(300, 303, true, "Walk the dog", Some(304)),
        row(214, 217, false, "Write report", None),
    ]);
    assert_eq!(
        carrier.carry("todo", &again).unwrap().tree.to_aria(),
        all.to_aria()
    );
    // Hover moves the "✖" to the last row: every row keeps its refs, and
    // the button there is another button (a stale click must not delete
    // the Walk row).
    let hover = list(&[
        row(173, 176, false, "Buy milk", None),
        row(300, 303, true, "Walk the dog", None),
        row(214, 217, false, "Write report", Some(400)),
    ]);
    let c = carrier.carry("todo", &hover).unwrap();
    let expect = list(&[
        row(173, 176, false, "Buy milk", None),
        row(191, 194, true, "Walk the dog", None),
        row(214, 217, false, "Write report", Some(400)),
    ]);
    assert_eq!(c.tree.to_aria(), expect.to_aria());
}

/// A count redrawn with another number (vanillajs's "2 items left") is the
/// same static text: it keeps its ref, so the patch is one `~` line. A
/// control whose text changed is still a new element.
#[test]
fn a_redrawn_count_keeps_its_ref_but_a_redrawn_control_does_not() {
    let footer = |n: u32, strong: u32, link: &str, l: u32| {
        parse_aria(
            &format!("- generic [ref=n1]:\n  - strong [ref=n{strong}]: \"{n}\"\n  - text: items left\n  - link \"{link}\" [ref=n{l}]"),
            false,
        )
        .unwrap()
    };
    let carrier = RefCarrier::with_config(CarrierConfig::default().stable_ids(true));
    carrier.carry("page", &footer(2, 10, "All", 20)).unwrap();
    let c = carrier.carry("page", &footer(3, 11, "Active", 21)).unwrap();
    assert_eq!(c.ref_of("n11"), Some("n10"));
    assert_eq!(c.ref_of("n21"), Some("n21"));
}

/// Rows that show nothing but a button are their button: removing the
/// middle row from a list whose nodes are reused keeps the last row's refs.
#[test]
fn rows_of_buttons_alone_are_told_apart_by_their_buttons() {
    let list = |rows: &[(u32, &str)]| {
        let body: String = rows
            .iter()
            .map(|(id, name)| {
                format!(
                    "  - listitem [ref=n{id}]:\n    - button \"Pick {name}\" [ref=n{}]\n",
                    id + 1
                )
            })
            .collect();
        parse_aria(&format!("- list [ref=n1]:\n{body}"), false).unwrap()
    };
    let carrier = RefCarrier::with_config(CarrierConfig::default().stable_ids(true));
    carrier
        .carry("cart", &list(&[(10, "Tea"), (20, "Cake"), (30, "Scones")]))
        .unwrap();
    // Cake removed; the framework draws Scones in Cake's row node.
    let now = parse_aria(
        "- list [ref=n1]:\n  - listitem [ref=n10]:\n    - button \"Pick Tea\" [ref=n11]\n  - listitem [ref=n20]:\n    - button \"Pick Scones\" [ref=n40]",
        false,
    )
    .unwrap();
    let c = carrier.carry("cart", &now).unwrap();
    assert_eq!(
        c.tree.to_aria(),
        list(&[(10, "Tea"), (30, "Scones")]).to_aria()
    );
}
