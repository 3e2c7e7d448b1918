//! compare(): every change type, matching rules, thresholds, order, and
//! golden outputs for the Chromium-captured fixture pairs.

use response_diff::fingerprint::{
    ChangeKind, Fingerprint, FingerprintComparison, Overall, Severity, Status, compare,
};
use serde_json::{Value, json};

use ChangeKind::*;

fn fp(v: Value) -> Fingerprint {
    Fingerprint::from_json(&v.to_string()).expect("valid fingerprint")
}

/// A page at `/` with this structure.
fn page(structure: Value) -> Fingerprint {
    fp(json!({"url": "http://127.0.0.1:8000/", "title": "T", "structure": structure}))
}

fn el(kind: &str, text: &str) -> Value {
    json!({"type": kind, "text": text, "visible": true, "enabled": true})
}

fn with(mut v: Value, key: &str, value: Value) -> Value {
    v[key] = value;
    v
}

fn all(b: &Fingerprint, c: &Fingerprint) -> FingerprintComparison {
    compare(b, c, Severity::Info)
}

fn kinds(c: &FingerprintComparison) -> Vec<ChangeKind> {
    c.changes.iter().map(|c| c.kind).collect()
}

fn fixture(name: &str) -> Fingerprint {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/fixtures/fingerprint/"
    );
    Fingerprint::from_json(&std::fs::read_to_string(format!("{path}{name}")).unwrap()).unwrap()
}

#[test]
fn identical_pages_are_unchanged_and_clean() {
    let a = page(json!({"interactive": [el("button", "Save")]}));
    let cmp = all(&a, &a.clone());
    assert_eq!(cmp.status, Status::Unchanged);
    assert_eq!(cmp.severity, Overall::Clean);
    assert!(cmp.changes.is_empty());
    assert_eq!(cmp.summary, "no changes");
    assert!(cmp.is_clean());
    assert_eq!(cmp.unchanged, ["url", "interactive", "errors", "modals"]);
}

#[test]
fn url_and_title() {
    let a = page(json!({}));
    let b = fp(json!({"url": "http://127.0.0.1:8000/login", "title": "Sign in", "structure": {}}));
    let cmp = all(&a, &b);
    assert_eq!(kinds(&cmp), [UrlChanged, TitleChanged]);
    assert_eq!(cmp.changes[0].severity, Severity::Warning);
    assert_eq!(cmp.changes[0].was, Some(json!("http://127.0.0.1:8000/")));
    assert_eq!(cmp.changes[1].severity, Severity::Info);
}

fn lm(visible: bool, contains: &[&str]) -> Value {
    json!({"present": true, "visible": visible, "role": "x", "contains": contains})
}

#[test]
fn landmarks_missing_added_changed_hidden_shown() {
    let a = page(json!({"landmarks": {
        "header": lm(true, &["nav"]), "nav": lm(true, &[]), "main": lm(true, &["heading:A"]),
        "aside": lm(false, &[]), "footer": lm(true, &[])
    }}));
    let b = page(json!({"landmarks": {
        "header": lm(true, &[]), "main": lm(true, &["heading:A", "list:ul.x"]),
        "footer": lm(false, &[]), "search": lm(true, &[])
    }}));
    let cmp = all(&a, &b);
    let got: Vec<(ChangeKind, Severity, &str)> = cmp
        .changes
        .iter()
        .map(|c| (c.kind, c.severity, c.element.text.as_deref().unwrap()))
        .collect();
    assert_eq!(
        got,
        [
            (ElementHidden, Severity::Error, "footer"),
            (LandmarkMissing, Severity::Error, "nav"),
            (LandmarkMissing, Severity::Info, "aside"),
            (LandmarkChanged, Severity::Info, "header"),
            (LandmarkChanged, Severity::Info, "main"),
            (LandmarkAdded, Severity::Info, "search"),
        ]
    );
    assert!(cmp.changes.iter().all(|c| c.element.kind == "landmark"));
    let header = &cmp.changes[3];
    assert_eq!(header.was, Some(json!(["nav"])));
    assert_eq!(
        header.description,
        "Landmark 'header' changed inside: lost nav"
    );

    // And back: shown, added.
    let back = all(&b, &a);
    assert!(back.changes.iter().any(|c| c.kind == ElementShown));
    assert!(back.changes.iter().any(|c| c.kind == LandmarkAdded));
}

#[test]
fn present_false_reads_as_missing() {
    let a = page(json!({"landmarks": {"main": lm(true, &[])}}));
    let b = page(json!({"landmarks": {"main": {"present": false}}}));
    assert_eq!(kinds(&all(&a, &b)), [LandmarkMissing]);
}

#[test]
fn changes_inside_a_gone_landmark_are_folded_into_it() {
    let nav_link = |t: &str| with(el("link", t), "location", json!("header > nav"));
    let a = page(json!({
        "landmarks": {"header": lm(true, &["nav"]), "nav": lm(true, &["list:ul.menu"])},
        "content": {"lists": [{"selector": "ul.menu", "items": 3, "type": "ul"}]},
        "interactive": [nav_link("Home"), nav_link("Docs"), nav_link("Blog"), el("button", "Logout")]
    }));
    let b = page(json!({
        "landmarks": {"header": lm(true, &[])},
        "interactive": [el("button", "Logout")]
    }));
    let cmp = compare(&a, &b, Severity::Warning);
    assert_eq!(kinds(&cmp), [LandmarkMissing]);
    assert_eq!(
        cmp.changes[0].description,
        "Landmark 'nav' is no longer present; 4 changes inside it are not listed separately"
    );
    // CSS-hiding the nav folds its links the same way.
    let hidden = page(json!({
        "landmarks": {"header": lm(true, &["nav"]), "nav": lm(false, &["list:ul.menu"])},
        "content": {"lists": [{"selector": "ul.menu", "items": 0, "type": "ul", "visible": false}]},
        "interactive": [
            with(nav_link("Home"), "visible", json!(false)),
            with(nav_link("Docs"), "visible", json!(false)),
            with(nav_link("Blog"), "visible", json!(false)),
            el("button", "Logout")]
    }));
    let cmp = compare(&a, &hidden, Severity::Info);
    assert_eq!(kinds(&cmp), [ElementHidden]);
    assert!(
        cmp.changes[0].description.contains("4 changes"),
        "{}",
        cmp.changes[0].description
    );
}

#[test]
fn interactive_missing_added_hidden_shown_disabled_enabled() {
    let a = page(json!({"interactive": [
        el("button", "New Project"),
        el("button", "Export"),
        with(el("button", "Archive"), "enabled", json!(false)),
        el("link", "Docs"),
        with(el("button", "Bulk edit"), "visible", json!(false)),
        with(el("button", "Old hidden"), "visible", json!(false)),
    ]}));
    let b = page(json!({"interactive": [
        with(el("button", "Export"), "enabled", json!(false)),
        el("button", "Archive"),
        with(el("link", "Docs"), "visible", json!(false)),
        el("button", "Bulk edit"),
        el("button", "Import"),
    ]}));
    let cmp = all(&a, &b);
    let got: Vec<(ChangeKind, Severity, &str)> = cmp
        .changes
        .iter()
        .map(|c| (c.kind, c.severity, c.element.text.as_deref().unwrap()))
        .collect();
    assert_eq!(
        got,
        [
            (ElementMissing, Severity::Error, "New Project"),
            (ElementHidden, Severity::Error, "Docs"),
            (ElementDisabled, Severity::Warning, "Export"),
            (ElementEnabled, Severity::Info, "Archive"),
            (ElementShown, Severity::Info, "Bulk edit"),
            // Removing what was already hidden is not a regression.
            (ElementMissing, Severity::Info, "Old hidden"),
            (ElementAdded, Severity::Info, "Import"),
        ]
    );
    assert_eq!(
        cmp.changes[0].description,
        "Interactive button 'New Project' is no longer present"
    );
    assert_eq!(cmp.changes[0].element.kind, "button");
    assert_eq!(cmp.summary, "2 errors, 1 warning, 4 info");
}

#[test]
fn duplicates_are_counted() {
    let del = || el("button", "Delete");
    let a = page(json!({"interactive": [del(), del(), del()]}));
    let b = page(json!({"interactive": [del(), del()]}));
    assert_eq!(kinds(&all(&a, &b)), [ElementMissing]);
    let c = page(json!({"interactive": [del(), del(), del(), del()]}));
    assert_eq!(kinds(&all(&a, &c)), [ElementAdded]);
    // One of three hidden: exactly one element_hidden.
    let d = page(json!({"interactive": [del(), with(del(), "visible", json!(false)), del()]}));
    assert_eq!(kinds(&all(&a, &d)), [ElementHidden]);
}

#[test]
fn matching_is_by_type_and_text_never_by_position() {
    let a = page(json!({"interactive": [el("button", "A"), el("button", "B"), el("link", "C")]}));
    let b = page(json!({"interactive": [el("link", "C"), el("button", "B"), el("button", "A")]}));
    let cmp = all(&a, &b);
    assert_eq!(cmp.status, Status::Changed, "the order is part of the hash");
    assert_eq!(kinds(&cmp), [StructureChanged]);
    assert_eq!(cmp.changes[0].severity, Severity::Info);
    assert_eq!(
        cmp.changes[0].description,
        "Only the order or a minor detail changed in: interactive"
    );
    // Same position, different element: missing + added, not "changed".
    let c = page(json!({"interactive": [el("button", "Z"), el("button", "B"), el("link", "C")]}));
    assert_eq!(kinds(&all(&a, &c)), [ElementMissing, ElementAdded]);
    // Same text, different type: not the same element.
    let d = page(json!({"interactive": [el("link", "A"), el("button", "B"), el("link", "C")]}));
    assert_eq!(kinds(&all(&a, &d)), [ElementMissing, ElementAdded]);
}

#[test]
fn counters_in_text_pair_as_a_change_not_a_removal() {
    let a = page(json!({"interactive": [el("link", "Inbox (3)"), el("button", "Save")]}));
    let b = page(json!({"interactive": [el("link", "Inbox (12)"), el("button", "Save")]}));
    let cmp = all(&a, &b);
    assert_eq!(kinds(&cmp), [ElementChanged]);
    assert_eq!(cmp.changes[0].was, Some(json!({"text": "Inbox (3)"})));
    assert_eq!(cmp.changes[0].now, Some(json!({"text": "Inbox (12)"})));
    assert!(compare(&a, &b, Severity::Warning).changes.is_empty());
}

#[test]
fn other_fields_of_a_matched_element_are_element_changed() {
    let a = page(json!({"interactive": [
        with(el("link", "Docs"), "href", json!("/docs")),
        with(el("input", "Email"), "value", json!("")),
        with(el("checkbox", "Remember me"), "checked", json!(false)),
    ]}));
    let b = page(json!({"interactive": [
        with(el("link", "Docs"), "href", json!("/documentation")),
        with(el("input", "Email"), "value", json!("x")),
        with(el("checkbox", "Remember me"), "checked", json!(true)),
    ]}));
    let cmp = all(&a, &b);
    assert_eq!(
        kinds(&cmp),
        [ElementChanged, ElementChanged, ElementChanged]
    );
    assert_eq!(cmp.changes[0].now, Some(json!({"href": "/documentation"})));
    assert_eq!(cmp.changes[1].now, Some(json!({"value": "[has value]"})));
    assert_eq!(cmp.changes[2].now, Some(json!({"checked": true})));
}

fn covered(text: &str) -> Value {
    let v = with(el("button", text), "obscured", json!(true));
    with(v, "covered_by", json!("div.overlay"))
}

#[test]
fn covered_elements_one_by_one_or_grouped() {
    let a = page(
        json!({"interactive": [el("button", "A"), el("button", "B"), el("button", "C"), el("button", "D")]}),
    );
    let one = page(
        json!({"interactive": [covered("A"), el("button", "B"), el("button", "C"), el("button", "D")]}),
    );
    let cmp = all(&a, &one);
    assert_eq!(kinds(&cmp), [ElementCovered]);
    assert_eq!(cmp.changes[0].severity, Severity::Error);
    assert_eq!(cmp.changes[0].kind.as_str(), "element_covered");
    assert_eq!(
        cmp.changes[0].description,
        "Interactive button 'A' is covered by another element ('div.overlay') and cannot be clicked"
    );
    assert_eq!(
        cmp.changes[0].now,
        Some(json!({"obscured": true, "covered_by": "div.overlay"}))
    );
    let many =
        page(json!({"interactive": [covered("A"), covered("B"), covered("C"), covered("D")]}));
    let cmp = all(&a, &many);
    assert_eq!(kinds(&cmp), [ElementCovered]);
    assert_eq!(
        cmp.changes[0].description,
        "4 interactive elements are covered by 'div.overlay' and cannot be clicked: button 'A', button 'B', button 'C', button 'D'"
    );
    // An opened modal explains the covering: only modal_opened.
    let modal = page(json!({
        "interactive": [covered("A"), covered("B"), covered("C"), covered("D")],
        "state": {"modals_open": [{"selector": "dialog", "text": "Confirm"}]}
    }));
    assert_eq!(kinds(&all(&a, &modal)), [ModalOpened]);
}

fn list(selector: &str, items: u32) -> Value {
    json!({"selector": selector, "items": items, "type": "ul", "visible": true})
}

#[test]
fn lists_by_selector() {
    let a = page(json!({"content": {"lists": [
        list("ul.projects", 5), list("ol.feed", 4), list("ul.tags", 3),
        list("ul.gone", 2), list("ul.empty-before", 0), list("ul.hidden", 2)
    ]}}));
    let b = page(json!({"content": {"lists": [
        // Reordered on purpose: lists match by selector, not position.
        list("ul.tags", 6), list("ol.feed", 4), list("ul.projects", 0),
        with(list("ul.hidden", 2), "visible", json!(false)), list("ul.new", 1)
    ]}}));
    let cmp = all(&a, &b);
    let got: Vec<(ChangeKind, Severity, &str)> = cmp
        .changes
        .iter()
        .map(|c| (c.kind, c.severity, c.element.selector.as_deref().unwrap()))
        .collect();
    assert_eq!(
        got,
        [
            (ElementHidden, Severity::Error, "ul.hidden"),
            (ListEmpty, Severity::Warning, "ul.projects"),
            (ListEmpty, Severity::Warning, "ul.gone"),
            (ListCountChanged, Severity::Info, "ul.tags"),
            (ElementMissing, Severity::Info, "ul.empty-before"),
            (ElementAdded, Severity::Info, "ul.new"),
        ]
    );
    assert_eq!(cmp.changes[1].was, Some(json!({"items": 5})));
    assert_eq!(cmp.changes[1].now, Some(json!({"items": 0})));
    assert_eq!(
        cmp.changes[1].description,
        "List 'ul.projects' is now empty (was 5 items)"
    );
    assert_eq!(
        cmp.changes[2].description,
        "List 'ul.gone' is gone (was 2 items)"
    );
    assert_eq!(
        cmp.changes[3].description,
        "List 'ul.tags' has 6 items (was 3)"
    );
}

#[test]
fn repeated_selectors_pair_in_order() {
    let a = page(json!({"content": {"lists": [list("ul", 3), list("ul", 4)]}}));
    let b = page(json!({"content": {"lists": [list("ul", 3), list("ul", 0)]}}));
    let cmp = all(&a, &b);
    assert_eq!(kinds(&cmp), [ListEmpty]);
    assert_eq!(cmp.changes[0].was, Some(json!({"items": 4})));
}

#[test]
fn links_inside_an_emptied_list_are_folded_into_it() {
    let item = |t: &str| with(el("link", t), "location", json!("main > list:ul.projects"));
    let a = page(json!({
        "content": {"lists": [list("ul.projects", 2)]},
        "interactive": [item("Alpha"), item("Beta")]
    }));
    let b = page(json!({"content": {"lists": [list("ul.projects", 0)]}}));
    let cmp = all(&a, &b);
    assert_eq!(kinds(&cmp), [ListEmpty]);
    assert!(
        cmp.changes[0]
            .description
            .ends_with("; 2 changes inside it are not listed separately")
    );
}

#[test]
fn tables_rows() {
    let table = |rows: u32| json!({"selector": "table.team", "rows": rows, "columns": 3});
    let a = page(json!({"content": {"tables": [table(3)]}}));
    let cmp = all(&a, &page(json!({"content": {"tables": [table(0)]}})));
    assert_eq!(kinds(&cmp), [ListEmpty]);
    assert_eq!(cmp.changes[0].element.kind, "table");
    assert_eq!(
        cmp.changes[0].description,
        "Table 'table.team' is now empty (was 3 rows)"
    );
    let cmp = all(&a, &page(json!({"content": {"tables": [table(4)]}})));
    assert_eq!(kinds(&cmp), [ListCountChanged]);
    let wider = json!({"selector": "table.team", "rows": 3, "columns": 4});
    assert_eq!(
        kinds(&all(&a, &page(json!({"content": {"tables": [wider]}})))),
        [ElementChanged]
    );
}

fn form(selector: &str, fields: &[&str], buttons: &[&str]) -> Value {
    json!({"selector": selector, "fields": fields, "buttons": buttons, "visible": true})
}

#[test]
fn forms_fields_missing_added_and_forms_gone_or_hidden() {
    let field = |t: &str| with(el("input", t), "location", json!("main > form:#signup"));
    let a = page(json!({
        "content": {"forms": [form("#signup", &["input:Email", "input:Name"], &["button:Sign up"]), form("#search", &["input:Query"], &[])]},
        "interactive": [field("Email"), field("Name"), with(el("button", "Sign up"), "location", json!("main > form:#signup")), el("input", "Query")]
    }));
    let b = page(json!({
        "content": {"forms": [form("#signup", &["input:Name", "checkbox:Terms"], &["button:Register"])]},
        "interactive": [field("Name"), with(el("checkbox", "Terms"), "location", json!("main > form:#signup")), with(el("button", "Register"), "location", json!("main > form:#signup"))]
    }));
    let cmp = all(&a, &b);
    let got: Vec<(ChangeKind, Severity, &str)> = cmp
        .changes
        .iter()
        .map(|c| {
            (
                c.kind,
                c.severity,
                c.element
                    .text
                    .as_deref()
                    .or(c.element.selector.as_deref())
                    .unwrap(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (FormFieldMissing, Severity::Error, "Email"),
            (ElementMissing, Severity::Error, "#search"),
            (ElementMissing, Severity::Error, "Sign up"),
            (FormFieldAdded, Severity::Info, "Terms"),
            (ElementChanged, Severity::Info, "#signup"),
            (ElementAdded, Severity::Info, "Terms"),
            (ElementAdded, Severity::Info, "Register"),
        ],
        "the Email field is reported once, as form_field_missing; \
         the Query field of the gone #search form is not listed on its own"
    );
    assert_eq!(
        cmp.changes[0].description,
        "Form '#signup' lost its input field 'Email'"
    );

    let hidden = page(json!({
        "content": {"forms": [with(form("#signup", &["input:Email", "input:Name"], &["button:Sign up"]), "visible", json!(false)), form("#search", &["input:Query"], &[])]},
        "interactive": [
            with(field("Email"), "visible", json!(false)),
            with(field("Name"), "visible", json!(false)),
            with(with(el("button", "Sign up"), "location", json!("main > form:#signup")), "visible", json!(false)),
            el("input", "Query")]
    }));
    let cmp = all(&a, &hidden);
    assert_eq!(kinds(&cmp), [ElementHidden]);
    assert!(cmp.changes[0].description.contains("3 changes"));
}

fn h(level: u8, text: &str) -> Value {
    json!({"level": level, "text": text})
}

#[test]
fn headings_missing_changed_added() {
    let a = page(
        json!({"content": {"headings": [h(1, "Dashboard"), h(2, "Projects"), h(2, "Activity"), h(2, "Team")]}}),
    );
    let b = page(
        json!({"content": {"headings": [h(1, "Dashboard"), h(2, "My projects"), h(2, "Team"), h(3, "Members")]}}),
    );
    let cmp = all(&a, &b);
    let got: Vec<(ChangeKind, Severity)> =
        cmp.changes.iter().map(|c| (c.kind, c.severity)).collect();
    assert_eq!(
        got,
        [
            (HeadingChanged, Severity::Warning),
            (HeadingMissing, Severity::Warning),
            (HeadingAdded, Severity::Info),
        ]
    );
    assert_eq!(
        cmp.changes[0].description,
        "Heading h2 changed from 'Projects' to 'My projects'"
    );
    assert_eq!(cmp.changes[1].element.text.as_deref(), Some("Activity"));
    assert_eq!(cmp.changes[1].element.level, Some(2));
    // Headings are not normalized: a year in a heading is a change.
    let y1 = page(json!({"content": {"headings": [h(1, "Report 2025")]}}));
    let y2 = page(json!({"content": {"headings": [h(1, "Report 2026")]}}));
    assert_eq!(kinds(&all(&y1, &y2)), [HeadingChanged]);
}

fn st(selector: &str, text: &str) -> Value {
    json!({"selector": selector, "text": text})
}

#[test]
fn state_errors_modals_empty_states_notifications() {
    let a = page(json!({"state": {
        "error_elements": [st(".error", "Old error")],
        "modals_open": [st("dialog", "Welcome")],
        "notifications": [st(".toast", "Saved")]
    }}));
    let b = page(json!({"state": {
        "error_elements": [st(".error-banner", "Failed to load projects")],
        "modals_open": [st("dialog", "Confirm delete")],
        "empty_states": [st(".empty-state", "No projects yet")],
        "notifications": [st(".toast", "Saved"), st(".toast", "Copied")]
    }}));
    let cmp = all(&a, &b);
    assert_eq!(
        kinds(&cmp),
        [
            ErrorAppeared,
            ModalOpened,
            EmptyStateAppeared,
            ErrorResolved,
            ModalClosed,
            NotificationAppeared
        ]
    );
    assert_eq!(
        cmp.changes[0].description,
        "Error element appeared: 'Failed to load projects'"
    );
    assert_eq!(
        cmp.changes[0].element.selector.as_deref(),
        Some(".error-banner")
    );
    assert_eq!(cmp.changes[0].element.kind, "error");
    let back = all(&b, &a);
    assert!(kinds(&back).contains(&EmptyStateCleared));
    assert!(kinds(&back).contains(&NotificationCleared));
}

#[test]
fn loading_status() {
    let loaded = page(json!({"content": {"lists": [list("ul.projects", 3)]}}));
    let loading =
        page(json!({"state": {"loading_indicators": [st(".spinner", "Loading projects")]}}));
    let cmp = compare(&loaded, &loading, Severity::Warning);
    assert_eq!(cmp.status, Status::Loading);
    assert!(!cmp.is_clean());
    assert_eq!(
        cmp.summary,
        "page is still loading ('Loading projects'); capture again when it settles; 1 warning (1 below the threshold not shown)"
    );
    // A spinner already in the baseline does not make it "loading".
    let both = page(json!({"state": {"loading_indicators": [st(".spinner", "Loading projects")]}}));
    assert_eq!(
        compare(&loading, &both, Severity::Warning).status,
        Status::Unchanged
    );
    let cmp = all(&loading, &loaded);
    assert!(kinds(&cmp).contains(&LoadingFinished));
    assert_eq!(cmp.status, Status::Changed);
}

#[test]
fn images() {
    let a = page(json!({"content": {"images": {"count": 3, "with_alt": 3, "broken": 0}}}));
    let b = page(json!({"content": {"images": {"count": 3, "with_alt": 3, "broken": 2}}}));
    let cmp = all(&a, &b);
    assert_eq!(kinds(&cmp), [ImagesBroken]);
    assert_eq!(
        cmp.changes[0].description,
        "2 of 3 images are broken (was 0)"
    );
    let c = page(json!({"content": {"images": {"count": 4, "with_alt": 3, "broken": 0}}}));
    assert_eq!(kinds(&all(&a, &c)), [ImagesChanged]);
}

#[test]
fn scope_or_depth_mismatch_is_said() {
    let a = fp(json!({"url": "/", "depth": "standard", "structure": {}}));
    let b = fp(json!({"url": "/", "depth": "minimal", "structure": {}}));
    let cmp = all(&a, &b);
    assert_eq!(kinds(&cmp), [StructureChanged]);
    assert!(
        cmp.changes[0]
            .description
            .contains("compare like with like")
    );
}

#[test]
fn threshold_order_summary_and_suppressed() {
    let a = page(json!({
        "interactive": [el("button", "Save"), el("button", "Export")],
        "content": {"headings": [h(1, "A")], "lists": [list("ul", 2)]}
    }));
    let b = page(json!({
        "interactive": [el("button", "Export"), el("button", "Import")],
        "content": {"headings": [], "lists": [list("ul", 3)]},
        "state": {"error_elements": [st(".error", "Boom")]}
    }));
    let info = compare(&a, &b, Severity::Info);
    let sev: Vec<Severity> = info.changes.iter().map(|c| c.severity).collect();
    let mut sorted = sev.clone();
    sorted.sort_by(|x, y| y.cmp(x));
    assert_eq!(sev, sorted, "errors, then warnings, then info");
    assert_eq!(info.summary, "2 errors, 1 warning, 2 info");
    assert_eq!(info.suppressed, 0);

    let warning = compare(&a, &b, Severity::Warning);
    assert_eq!(warning.changes.len(), 3);
    assert_eq!(warning.suppressed, 2);
    assert_eq!(
        warning.summary,
        "2 errors, 1 warning (2 below the threshold not shown)"
    );

    let error = compare(&a, &b, Severity::Error);
    assert_eq!(kinds(&error), [ErrorAppeared, ElementMissing]);
    assert_eq!(error.severity, Overall::Error);

    // Nothing at or above the threshold: clean, but still "changed".
    let c = page(
        json!({"interactive": [el("button", "Save"), el("button", "Export"), el("button", "New")],
                        "content": {"headings": [h(1, "A")], "lists": [list("ul", 2)]}}),
    );
    let quiet = compare(&a, &c, Severity::Warning);
    assert_eq!(quiet.status, Status::Changed);
    assert_eq!(quiet.severity, Overall::Clean);
    assert!(quiet.is_clean());
    assert_eq!(
        quiet.summary,
        "no changes (1 below the threshold not shown)"
    );
}

#[test]
fn output_is_deterministic() {
    let a = fixture("case01.before.json");
    let b = fixture("case08.after.json");
    let first = compare(&a, &b, Severity::Info).to_json();
    for _ in 0..20 {
        assert_eq!(compare(&a, &b, Severity::Info).to_json(), first);
    }
}

#[test]
fn json_keys_are_snake_case() {
    let a = page(json!({"interactive": [el("button", "Save")]}));
    let b = page(json!({"interactive": [], "state": {"error_elements": [st(".e", "x")]}}));
    let v: Value = serde_json::from_str(&compare(&a, &b, Severity::Info).to_json()).unwrap();
    let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        [
            "baseline_hash",
            "changes",
            "current_hash",
            "severity",
            "status",
            "summary",
            "suppressed",
            "unchanged"
        ]
    );
    assert_eq!(v["changes"][0]["type"], "error_appeared");
    assert_eq!(v["changes"][0]["severity"], "error");
    assert_eq!(v["status"], "changed");
    // It reads back.
    let back: FingerprintComparison = serde_json::from_value(v).unwrap();
    assert_eq!(back.changes.len(), 2);
}

#[test]
fn severity_and_kind_names() {
    assert!(Severity::Info < Severity::Warning && Severity::Warning < Severity::Error);
    assert_eq!(Severity::default(), Severity::Warning);
    assert_eq!(ElementHidden.as_str(), "element_hidden");
    assert_eq!(ElementHidden.severity(), Severity::Error);
    assert_eq!(ListEmpty.severity(), Severity::Warning);
    assert_eq!(ElementAdded.severity(), Severity::Info);
    assert_eq!(
        serde_json::to_string(&FormFieldMissing).unwrap(),
        "\"form_field_missing\""
    );
    assert!("warn".parse::<Severity>().is_err());
}

/// Golden outputs for the Chromium-captured pairs: the exact text and JSON
/// an agent reads (tests/fixtures/fingerprint/snapshots).
#[test]
fn golden_fixture_comparisons() {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../../tests/fixtures/fingerprint/snapshots");
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| {
        for n in 1..=10 {
            let before = fixture(&format!("case{n:02}.before.json"));
            let after = fixture(&format!("case{n:02}.after.json"));
            let cmp = compare(&before, &after, Severity::Warning);
            insta::assert_snapshot!(format!("case{n:02}.text"), cmp.to_string());
            insta::assert_snapshot!(format!("case{n:02}.json"), cmp.to_json_pretty());
        }
    });
}

fn hidden(v: Value, by: &str) -> Value {
    let v = with(v, "visible", json!(false));
    with(v, "hidden_by", json!(by))
}

#[test]
fn hidden_elements_say_why() {
    let a = page(json!({
        "landmarks": {"nav": {"role": "navigation"}},
        "content": {
            "lists": [{"selector": "ul.todo-list", "items": 3}],
            "forms": [{"selector": "form#login", "fields": ["input:Email"]}]
        },
        "interactive": [el("button", "Save"), el("button", "Cancel")]
    }));
    let b = page(json!({
        "landmarks": {"nav": {"role": "navigation", "visible": false, "hidden_by": "off_screen"}},
        "content": {
            "lists": [{"selector": "ul.todo-list", "items": 3, "visible": false, "hidden_by": "clipped"}],
            "forms": [{"selector": "form#login", "fields": ["input:Email"], "visible": false, "hidden_by": "off_screen"}]
        },
        "interactive": [hidden(el("button", "Save"), "off_screen"), hidden(el("button", "Cancel"), "css")]
    }));
    let cmp = all(&a, &b);
    let hidden: Vec<_> = cmp
        .changes
        .iter()
        .filter(|c| c.kind == ElementHidden)
        .collect();
    assert_eq!(hidden.len(), 5, "{:#?}", cmp.changes);
    assert!(hidden.iter().all(|c| c.severity == Severity::Error));
    let texts: Vec<&str> = hidden.iter().map(|c| c.description.as_str()).collect();
    assert!(
        texts.contains(&"Landmark 'nav' is present but no longer visible (moved off-screen)"),
        "{texts:?}"
    );
    assert!(texts.contains(&"List 'ul.todo-list' is present but no longer visible (clipped away by an ancestor's overflow)"), "{texts:?}");
    assert!(
        texts.contains(&"Form 'form#login' is present but no longer visible (moved off-screen)"),
        "{texts:?}"
    );
    assert!(
        texts.contains(
            &"Interactive button 'Save' is present but no longer visible (moved off-screen)"
        ),
        "{texts:?}"
    );
    assert!(
        texts.contains(&"Interactive button 'Cancel' is present but no longer visible"),
        "{texts:?}"
    );
    let save = hidden
        .iter()
        .find(|c| c.description.contains("'Save'"))
        .unwrap();
    assert_eq!(
        save.now,
        Some(json!({"visible": false, "hidden_by": "off_screen"}))
    );
}

#[test]
fn a_carousel_that_rotated_is_not_a_regression_but_hiding_one_is() {
    let slide = |text: &str, href: &str, shown: bool| {
        let v = with(
            with(el("link", text), "href", json!(href)),
            "location",
            json!("main > section:Offers"),
        );
        if shown { v } else { hidden(v, "css") }
    };
    let a = page(
        json!({"interactive": [slide("Shop now", "/a", true), slide("Shop now", "/b", false), slide("Shop now", "/c", false)]}),
    );
    let rotated = page(
        json!({"interactive": [slide("Shop now", "/a", false), slide("Shop now", "/b", true), slide("Shop now", "/c", false)]}),
    );
    let cmp = compare(&a, &rotated, Severity::Warning);
    assert!(cmp.changes.is_empty(), "{:#?}", cmp.changes);
    let info = all(&a, &rotated);
    assert_eq!(kinds(&info), [ElementChanged, ElementShown]);
    // One out of view and nothing in its place: a regression.
    let gone = page(
        json!({"interactive": [slide("Shop now", "/a", false), slide("Shop now", "/b", false), slide("Shop now", "/c", false)]}),
    );
    assert_eq!(
        kinds(&compare(&a, &gone, Severity::Warning)),
        [ElementHidden]
    );
}
