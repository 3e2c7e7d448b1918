use std::collections::HashMap;

use serde_json::{Value, json};

use super::dom::{DomFacts, css_string};
use super::model::AxSnapshot;

/// One DOM node: backend id, parent's backend id, tag (`#text` for
/// text), attributes, text (for text nodes) and display.
struct D(
    i64,
    Option<i64>,
    &'static str,
    &'static [(&'static str, &'static str)],
    &'static str,
    &'static str,
);

/// A `DOMSnapshot.captureSnapshot` result for these nodes (every node
/// laid out with a 10×10 box, visible, taking pointer events).
fn dom(nodes: &[D], selected: &[i64]) -> Value {
    let mut strings: Vec<String> = Vec::new();
    let mut idx = |s: &str| -> i64 {
        match strings.iter().position(|x| x == s) {
            Some(i) => i as i64,
            None => {
                strings.push(s.to_owned());
                (strings.len() - 1) as i64
            }
        }
    };
    let pos = |b: i64| nodes.iter().position(|n| n.0 == b).map_or(-1, |p| p as i64);
    let mut names = Vec::new();
    let mut attrs = Vec::new();
    let mut values = Vec::new();
    let mut styles = Vec::new();
    for n in nodes {
        names.push(idx(n.2));
        attrs.push(
            n.3.iter()
                .flat_map(|(k, v)| [idx(k), idx(v)])
                .collect::<Vec<_>>(),
        );
        values.push(if n.2 == "#text" { idx(n.4) } else { -1 });
        styles.push(vec![idx(n.5), idx("normal"), idx("visible"), idx("auto")]);
    }
    json!({
        "strings": strings,
        "documents": [{
            "nodes": {
                "parentIndex": nodes.iter().map(|n| n.1.map_or(-1, pos)).collect::<Vec<_>>(),
                "nodeType": nodes.iter().map(|n| if n.2 == "#text" { 3 } else { 1 }).collect::<Vec<_>>(),
                "nodeName": names,
                "nodeValue": values,
                "backendNodeId": nodes.iter().map(|n| n.0).collect::<Vec<_>>(),
                "attributes": attrs,
                "optionSelected": {"index": selected.iter().map(|&b| pos(b)).collect::<Vec<_>>()},
                "inputValue": {"index": [], "value": []},
            },
            "layout": {
                "nodeIndex": (0..nodes.len()).collect::<Vec<_>>(),
                "styles": styles,
                "bounds": nodes.iter().map(|_| [0, 0, 10, 10]).collect::<Vec<_>>(),
            }
        }]
    })
}

/// An AX node whose backend id is its node id.
fn ax(id: i64, parent: Option<i64>, role: &str, name: &str, children: &[i64]) -> Value {
    let mut n = json!({
        "nodeId": id.to_string(),
        "ignored": false,
        "role": {"type": "role", "value": role},
        "name": {"type": "computedString", "value": name},
        "childIds": children.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
        "backendDOMNodeId": id,
    });
    if let Some(p) = parent {
        n["parentId"] = json!(p.to_string());
    }
    n
}

fn with(mut n: Value, props: Value) -> Value {
    n["properties"] = props;
    n
}

fn flag(name: &str) -> Value {
    json!({"name": name, "value": {"type": "boolean", "value": true}})
}

fn snapshot(nodes: Vec<Value>, dom_nodes: &[D], selected: &[i64]) -> String {
    let snap =
        AxSnapshot::parse(json!({ "nodes": nodes }), Some("http://127.0.0.1:9/p.html")).unwrap();
    let snap = snap.with_dom(DomFacts::parse(&dom(dom_nodes, selected)), HashMap::new());
    snap.tree().to_aria()
}

#[test]
fn option_states_come_from_the_dom() {
    // Chromium keeps the options [disabled] after the select was enabled
    // and marks none selected; the DOM says which is.
    let disabled = || json!([flag("disabled")]);
    let nodes = vec![
        with(ax(1, None, "RootWebArea", "Shop", &[2]), json!([])),
        ax(2, Some(1), "main", "", &[3]),
        ax(3, Some(2), "combobox", "Status", &[4]),
        ax(4, Some(3), "MenuListPopup", "", &[5, 6]),
        with(ax(5, Some(4), "option", "available", &[]), disabled()),
        with(ax(6, Some(4), "option", "sold", &[]), disabled()),
    ];
    let d = [
        D(2, None, "MAIN", &[], "", "block"),
        D(
            3,
            Some(2),
            "SELECT",
            &[("aria-label", "Status")],
            "",
            "inline-block",
        ),
        D(5, Some(3), "OPTION", &[], "", "block"),
        D(7, Some(5), "#text", &[], "available", "block"),
        D(6, Some(3), "OPTION", &[], "", "block"),
        D(8, Some(6), "#text", &[], "sold", "block"),
    ];
    assert_eq!(
        snapshot(nodes, &d, &[6]),
        "- main [ref=e2]:\n  - combobox \"Status\" [ref=e3]:\n    - option \"available\" [ref=e5]\n    - option \"sold\" [selected] [ref=e6]"
    );
}

#[test]
fn layout_tables_are_tables_and_body_is_the_root() {
    let nodes = vec![
        with(
            ax(1, None, "RootWebArea", "T", &[10]),
            json!([flag("focused")]),
        ),
        with(ax(10, Some(1), "none", "", &[2, 9]), json!([])),
        ax(2, Some(10), "LayoutTable", "", &[3]),
        ax(3, Some(2), "LayoutTableRow", "", &[4, 5]),
        ax(4, Some(3), "LayoutTableCell", "Ada", &[6]),
        ax(6, Some(4), "StaticText", "Ada", &[]),
        ax(5, Some(3), "LayoutTableCell", "", &[]),
        ax(9, Some(10), "paragraph", "", &[11]),
        ax(11, Some(9), "StaticText", "After", &[]),
    ];
    let d = [
        D(10, None, "BODY", &[], "", "block"),
        D(2, Some(10), "TABLE", &[], "", "table"),
        D(3, Some(2), "TR", &[], "", "table-row"),
        D(4, Some(3), "TD", &[], "", "table-cell"),
        D(6, Some(4), "#text", &[], "Ada", "inline"),
        D(5, Some(3), "TD", &[], "", "table-cell"),
        D(9, Some(10), "P", &[], "", "block"),
        D(11, Some(9), "#text", &[], "After", "inline"),
    ];
    let mut nodes = nodes;
    nodes[1]["ignored"] = json!(true);
    assert_eq!(
        snapshot(nodes, &d, &[]),
        "- generic [active] [ref=e10]:\n  - table [ref=e2]:\n    - row [ref=e3]:\n      - cell \"Ada\" [ref=e4]\n      - cell [ref=e5]\n  - paragraph [ref=e9]: After"
    );
}

#[test]
fn urls_placeholders_values_and_left_out_wrappers() {
    // A div Chromium leaves out of its tree is a generic around its two
    // children; a link's /url is its raw href; a text field's
    // placeholder other than its name is a prop.
    let url = json!([{"name": "url", "value": {"type": "string", "value": "http://127.0.0.1:9/p.html#x"}}]);
    let nodes = vec![
        ax(1, None, "RootWebArea", "T", &[2]),
        ax(2, Some(1), "main", "", &[3, 5, 7]),
        with(ax(3, Some(2), "link", "Top", &[4]), url),
        ax(4, Some(3), "StaticText", "Top", &[]),
        ax(5, Some(2), "textbox", "Email", &[]),
        ax(7, Some(2), "DisclosureTriangle", "More", &[8]),
        ax(8, Some(7), "StaticText", "More", &[]),
    ];
    let mut nodes = nodes;
    nodes[5]["properties"] = json!([flag("expanded")]);
    let d = [
        D(2, None, "MAIN", &[], "", "block"),
        D(20, Some(2), "DIV", &[], "", "block"),
        D(3, Some(20), "A", &[("href", "#x")], "", "inline"),
        D(4, Some(3), "#text", &[], "Top", "inline"),
        D(
            5,
            Some(20),
            "INPUT",
            &[("placeholder", "you@example.com"), ("aria-label", "Email")],
            "",
            "inline-block",
        ),
        D(7, Some(2), "SUMMARY", &[], "", "block"),
        D(8, Some(7), "#text", &[], "More", "inline"),
    ];
    assert_eq!(
        snapshot(nodes, &d, &[]),
        "- main [ref=e2]:\n  - generic [ref=e20]:\n    - link \"Top\" [ref=e3]:\n      - /url: \"#x\"\n    - textbox \"Email\" [ref=e5]:\n      - /placeholder: you@example.com\n  - generic \"More\" [ref=e7]"
    );
}

#[test]
fn label_text_and_name_rules() {
    // The label's text Chromium ignores (it names the checkbox) is shown;
    // a legend repeating its group's name is dropped; a row's name from
    // its cells is dropped, as their content shows it.
    let mut text = ax(6, Some(4), "none", "", &[]);
    text["ignored"] = json!(true);
    text["ignoredReasons"] =
        json!([{"name": "labelFor", "value": {"type": "boolean", "value": true}}]);
    let mut label = ax(4, Some(3), "none", "", &[5, 6]);
    label["ignored"] = json!(true);
    label["ignoredReasons"] =
        json!([{"name": "labelFor", "value": {"type": "boolean", "value": true}}]);
    let mut row = ax(30, Some(2), "row", "A1 A2", &[31, 32]);
    row["name"]["sources"] =
        json!([{"type": "contents", "value": {"type": "computedString", "value": "A1 A2"}}]);
    let nodes = vec![
        ax(1, None, "RootWebArea", "T", &[2]),
        ax(2, Some(1), "main", "", &[3, 30]),
        ax(3, Some(2), "group", "Delivery", &[9, 4]),
        ax(9, Some(3), "Legend", "", &[10]),
        ax(10, Some(9), "StaticText", "Delivery", &[]),
        label,
        with(
            ax(5, Some(4), "checkbox", "Gift wrap", &[]),
            json!([{"name": "checked", "value": {"type": "tristate", "value": "true"}}]),
        ),
        text,
        row,
        ax(31, Some(30), "gridcell", "A1", &[]),
        ax(32, Some(30), "gridcell", "A2", &[]),
    ];
    let d = [
        D(2, None, "MAIN", &[], "", "block"),
        D(3, Some(2), "FIELDSET", &[], "", "block"),
        D(9, Some(3), "LEGEND", &[], "", "block"),
        D(10, Some(9), "#text", &[], "Delivery", "inline"),
        D(4, Some(3), "LABEL", &[], "", "inline"),
        D(
            5,
            Some(4),
            "INPUT",
            &[("type", "checkbox")],
            "",
            "inline-block",
        ),
        D(6, Some(4), "#text", &[], " Gift wrap", "inline"),
        D(30, Some(2), "DIV", &[("role", "row")], "", "block"),
        D(31, Some(30), "DIV", &[("role", "gridcell")], "", "block"),
        D(33, Some(31), "#text", &[], "A1", "block"),
        D(32, Some(30), "DIV", &[("role", "gridcell")], "", "block"),
        D(34, Some(32), "#text", &[], "A2", "block"),
    ];
    assert_eq!(
        snapshot(nodes, &d, &[]),
        "- main [ref=e2]:\n  - group \"Delivery\" [ref=e3]:\n    - generic [ref=e4]:\n      - checkbox \"Gift wrap\" [checked] [ref=e5]\n      - text: Gift wrap\n  - row [ref=e30]:\n    - gridcell \"A1\" [ref=e31]\n    - gridcell \"A2\" [ref=e32]"
    );
}

#[test]
fn text_is_joined_as_the_dom_has_it() {
    // Inline spans with no whitespace between join ("Ln:1", "Col:2"); a
    // blank text node between is a space.
    let nodes = vec![
        ax(1, None, "RootWebArea", "T", &[2]),
        ax(2, Some(1), "paragraph", "", &[4, 6, 8, 10]),
        ax(4, Some(2), "StaticText", "Ln:", &[]),
        ax(6, Some(2), "StaticText", "1", &[]),
        ax(8, Some(2), "StaticText", "Col:", &[]),
        ax(10, Some(2), "StaticText", "2", &[]),
    ];
    let d = [
        D(2, None, "P", &[], "", "block"),
        D(3, Some(2), "SPAN", &[], "", "inline"),
        D(4, Some(3), "#text", &[], "Ln:", "inline"),
        D(5, Some(2), "SPAN", &[], "", "inline"),
        D(6, Some(5), "#text", &[], "1", "inline"),
        D(11, Some(2), "#text", &[], " ", "inline"),
        D(7, Some(2), "SPAN", &[], "", "inline"),
        D(8, Some(7), "#text", &[], "Col:", "inline"),
        D(10, Some(2), "#text", &[], "2", "inline"),
    ];
    assert_eq!(snapshot(nodes, &d, &[]), "- paragraph [ref=e2]: Ln:1 Col:2");
}

#[test]
fn aria_hidden_subtrees_are_read_from_the_dom() {
    // Chromium keeps the gutter (3) as an ignored node without its
    // cells, and the hidden slide (20) not at all; Playwright shows
    // both as the DOM has them, nameless, [aria-hidden] where the
    // attribute is, the slide in its place before the textbox.
    let mut gutter = ax(3, Some(2), "none", "", &[]);
    gutter["ignored"] = json!(true);
    gutter["ignoredReasons"] =
        json!([{"name": "ariaHiddenSubtree", "value": {"type": "boolean", "value": true}}]);
    let nodes = vec![
        ax(1, None, "RootWebArea", "T", &[2]),
        ax(2, Some(1), "main", "", &[3, 9]),
        gutter,
        ax(9, Some(2), "textbox", "Code", &[]),
    ];
    let d = [
        D(2, None, "MAIN", &[], "", "block"),
        D(3, Some(2), "DIV", &[("aria-hidden", "true")], "", "block"),
        D(4, Some(3), "DIV", &[("aria-hidden", "false")], "", "block"),
        D(5, Some(4), "#text", &[], "1", "inline"),
        D(
            6,
            Some(4),
            "SPAN",
            &[
                ("role", "button"),
                ("aria-label", "Fold rows 1 to 3"),
                ("aria-expanded", "true"),
            ],
            "",
            "inline-block",
        ),
        D(7, Some(3), "DIV", &[("aria-hidden", "true")], "", "block"),
        D(8, Some(7), "#text", &[], "2", "inline"),
        D(
            20,
            Some(2),
            "SECTION",
            &[("hidden", ""), ("inert", ""), ("aria-hidden", "true")],
            "",
            "block",
        ),
        D(21, Some(20), "H2", &[], "", "block"),
        D(22, Some(21), "#text", &[], "Next", "inline"),
        D(
            23,
            Some(20),
            "A",
            &[("href", "#/2"), ("disabled", "")],
            "",
            "inline",
        ),
        D(24, Some(23), "#text", &[], "Down", "inline"),
        D(
            9,
            Some(2),
            "TEXTAREA",
            &[("aria-label", "Code")],
            "",
            "inline-block",
        ),
    ];
    assert_eq!(
        snapshot(nodes, &d, &[]),
        "- main [ref=e2]:\n  - generic [aria-hidden] [ref=e3]:\n    - generic [ref=e4]:\n      - text: \"1\"\n      - button [expanded] [ref=e6]\n    - generic [aria-hidden] [ref=e7]: \"2\"\n  - generic [aria-hidden] [ref=e20]:\n    - heading [level=2] [ref=e21]: Next\n    - link [ref=e23]:\n      - /url: \"#/2\"\n      - text: Down\n  - textbox \"Code\" [ref=e9]"
    );
}

#[test]
fn an_empty_click_target_is_kept() {
    // Chromium leaves out empty divs; Playwright keeps one whose cursor
    // is a pointer and its parent's is not (a click target of its own).
    let nodes = vec![
        ax(1, None, "RootWebArea", "T", &[2]),
        ax(2, Some(1), "main", "", &[3]),
        ax(3, Some(2), "button", "Go", &[]),
    ];
    let d = [
        D(2, None, "MAIN", &[], "", "block"),
        D(3, Some(2), "BUTTON", &[], "", "inline-block"),
        D(4, Some(3), "#text", &[], "Go", "inline"),
        D(5, Some(2), "DIV", &[], "", "block"),
        D(6, Some(2), "DIV", &[], "", "block"),
    ];
    let mut raw = dom(&d, &[]);
    let strings = raw["strings"].as_array_mut().unwrap();
    strings.push(json!("pointer"));
    let pointer = strings.len() - 1;
    // Node 5 (index 3) has cursor: pointer; node 6 does not.
    raw["documents"][0]["layout"]["styles"][3]
        .as_array_mut()
        .unwrap()
        .push(json!(pointer));
    let snap = AxSnapshot::parse(json!({ "nodes": nodes }), None)
        .unwrap()
        .with_dom(DomFacts::parse(&raw), HashMap::new());
    assert_eq!(
        snap.tree().to_aria(),
        "- main [ref=e2]:\n  - button \"Go\" [ref=e3]\n  - generic [ref=e5]"
    );
}

#[test]
fn a_hidden_label_for_names_its_control() {
    // Chromium leaves the checkbox unnamed: its label is not displayed.
    let nodes = vec![
        ax(1, None, "RootWebArea", "T", &[2]),
        ax(2, Some(1), "main", "", &[10]),
        ax(10, Some(2), "checkbox", "", &[]),
    ];
    let d = [
        D(2, None, "MAIN", &[], "", "block"),
        D(
            10,
            Some(2),
            "INPUT",
            &[("type", "checkbox"), ("id", "all")],
            "",
            "inline-block",
        ),
        D(11, Some(2), "LABEL", &[("for", "all")], "", "none"),
        D(12, Some(11), "#text", &[], "Mark all as complete", "inline"),
    ];
    assert_eq!(
        snapshot(nodes, &d, &[]),
        "- main [ref=e2]:\n  - checkbox \"Mark all as complete\" [ref=e10]"
    );
}

#[test]
fn css_strings() {
    assert_eq!(css_string("\"✔\"").as_deref(), Some("✔"));
    assert_eq!(css_string("none"), None);
    assert_eq!(css_string("counter(x)"), None);
}
