//! Normalization of dynamic text and the stability of the hash.

use proptest::prelude::*;
use response_diff::fingerprint::{
    Fingerprint, Severity, Status, compare, normalize_text, normalize_url,
};
use serde_json::{Value, json};

fn fixture(name: &str) -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/fixtures/fingerprint/"
    );
    std::fs::read_to_string(format!("{path}{name}")).expect("fixture")
}

#[test]
fn normalizes_dates_times_numbers_and_ids() {
    let cases = [
        // ids
        (
            "Request 0f8fad5b-d9cb-469f-a165-70867728950e",
            "Request [id]",
        ),
        ("trace 7f3a9c0b2e41", "trace [id]"),
        ("TRACE 7F3A9C0B2E41", "TRACE [id]"),
        ("charge ch_3Lk9XbQ2eZvKYlo2", "charge [id]"),
        ("token a8Kf93Ld02mQxZ7pW4", "token [id]"),
        // dates
        ("Invoice 2026-01-05", "Invoice [date]"),
        ("Invoice 2026/1/5", "Invoice [date]"),
        ("Due 01/23/2026", "Due [date]"),
        ("Due 1/2/26", "Due [date]"),
        ("Fällig 23.01.2026", "Fällig [date]"),
        ("Mon, Jan 23, 2026", "[date]"),
        ("Tuesday, November 17, 2026 report", "[date] report"),
        ("since 23 January 2026", "since [date]"),
        ("on March 3rd", "on [date]"),
        ("Sept. 9", "[date]"),
        // date-times and times
        ("Updated 2026-01-23T10:30:45.123Z", "Updated [date] [time]"),
        ("Updated 2026-01-23 10:30", "Updated [date] [time]"),
        ("Synced at 02:08:33", "Synced at [time]"),
        ("at 9:05 PM", "at [time]"),
        ("at 10:30:45 UTC", "at [time]"),
        ("at 9pm", "at [time]"),
        ("at 9 a.m.", "at [time]"),
        ("5 minutes ago", "[time]"),
        ("generated 3h ago", "generated [time]"),
        ("in 2 days", "[time]"),
        ("just now", "[time]"),
        ("an hour ago", "[time]"),
        // long numbers
        ("Visitors: 48213", "Visitors: [number]"),
        ("Visitors: 48,213", "Visitors: [number]"),
        ("Total $1,234.56", "Total $[number]"),
        ("Price $19.99", "Price $[number]"),
        ("Order #98231", "Order #[id]"),
        ("Order #8fk2a", "Order #[id]"),
        ("Issue #12", "Issue #12"),
        ("Request 12345678", "Request [id]"),
        ("Request a1b2c3d4", "Request [id]"),
        ("row12345", "row[number]"),
        ("© 2026 MyApp", "© [number] MyApp"),
        // kept: short numbers, versions, words
        ("3 items", "3 items"),
        ("Page 2 of 10", "Page 2 of 10"),
        ("Inbox (3)", "Inbox (3)"),
        ("v1.2.3", "v1.2.3"),
        ("1.5 s", "1.5 s"),
        ("H264 video", "H264 video"),
        ("May the force", "May the force"),
        ("decade facade", "decade facade"),
        ("Save", "Save"),
        ("", ""),
        // whitespace
        ("  Save \n  changes\t", "Save changes"),
    ];
    for (input, want) in cases {
        assert_eq!(normalize_text(input), want, "{input:?}");
    }
}

#[test]
fn normalizes_urls_but_not_their_origin() {
    assert_eq!(
        normalize_url("http://127.0.0.1:8000/orders/123456?ts=1700000000000#row-98231"),
        "http://127.0.0.1:8000/orders/[id]?ts=[id]#row-[id]"
    );
    assert_eq!(
        normalize_url("/invoices/2026-01-05?id=0f8fad5b-d9cb-469f-a165-70867728950e"),
        "/invoices/[date]?id=[id]"
    );
    assert_eq!(normalize_url("https://example.com"), "https://example.com");
    assert_eq!(
        normalize_url("//cdn2024.example.com/2026-01-05"),
        "//cdn2024.example.com/[date]"
    );
    assert_eq!(normalize_url("mailto:"), "mailto:");
}

#[test]
fn headings_keep_their_text_everything_else_is_normalized() {
    let fp = Fingerprint::from_json(
        &json!({
            "url": "http://127.0.0.1:8000/report/20260105",
            "title": "Report 48213",
            "structure": {
                "landmarks": {"region:Orders since 2026-01-05": {"contains": ["heading:Sales 2026", "list:#orders-12345"]}},
                "content": {
                    "headings": [{"level": 1, "text": "Sales  2026  report"}],
                    "lists": [{"selector": "#orders-12345", "items": 3}],
                    "forms": [{"selector": "form", "fields": ["input:Order 98231"], "buttons": ["button:Pay $1,234.00"]}],
                    "tables": [{"selector": "table", "rows": 1, "headers": ["Total 2026"]}]
                },
                "interactive": [{"type": "link", "text": "Invoice 01/05/2026", "href": "/invoices/2026-01-05", "location": "main > section:Week of 2026-01-05"}],
                "state": {"notifications": [{"selector": "#toast-98231", "text": "Saved 5 minutes ago"}]}
            }
        })
        .to_string(),
    )
    .unwrap();
    let s = &fp.structure;
    assert_eq!(fp.url, "http://127.0.0.1:8000/report/[id]");
    assert_eq!(fp.title, "Report [number]");
    // Headings: whitespace only.
    assert_eq!(s.content.headings[0].text, "Sales 2026 report");
    let (key, lm) = s.landmarks.iter().next().unwrap();
    assert_eq!(key, "region:Orders since [date]");
    assert_eq!(lm.contains, ["heading:Sales 2026", "list:#orders-[id]"]);
    assert_eq!(s.content.lists[0].selector, "#orders-[id]");
    assert_eq!(s.content.forms[0].fields, ["input:Order [number]"]);
    assert_eq!(s.content.forms[0].buttons, ["button:Pay $[number]"]);
    assert_eq!(s.content.tables[0].headers, ["Total [number]"]);
    let link = &s.interactive[0];
    assert_eq!(link.text, "Invoice [date]");
    assert_eq!(link.href.as_deref(), Some("/invoices/[date]"));
    assert_eq!(
        link.location.as_deref(),
        Some("main > section:Week of [date]")
    );
    assert_eq!(s.state.notifications[0].text, "Saved [time]");
    assert_eq!(s.state.notifications[0].selector, "#toast-[id]");
}

#[test]
fn landmark_keys_that_collide_after_normalization_stay_apart() {
    let fp = Fingerprint::from_json(
        r#"{"structure": {"landmarks": {"nav:Week 2026-01-05": {}, "nav:Week 2026-01-12": {}}}}"#,
    )
    .unwrap();
    let keys: Vec<&String> = fp.structure.landmarks.keys().collect();
    assert_eq!(keys, ["nav:Week [date]", "nav:Week [date]#2"]);
}

fn reorder_keys(v: &Value) -> Value {
    match v {
        Value::Object(m) => {
            // Rebuild with keys in reverse order: serde_json keeps insertion
            // order only with preserve_order, so also write it out by hand.
            let mut out = serde_json::Map::new();
            for (k, val) in m.iter().rev() {
                out.insert(k.clone(), reorder_keys(val));
            }
            Value::Object(out)
        }
        Value::Array(a) => Value::Array(a.iter().map(reorder_keys).collect()),
        other => other.clone(),
    }
}

fn reversed_json(v: &Value) -> String {
    fn write(v: &Value, out: &mut String) {
        match v {
            Value::Object(m) => {
                out.push('{');
                let mut first = true;
                for (k, val) in m.iter().rev() {
                    if !first {
                        out.push(',');
                    }
                    first = false;
                    out.push_str(&serde_json::to_string(k).unwrap());
                    out.push(':');
                    write(val, out);
                }
                out.push('}');
            }
            Value::Array(a) => {
                out.push('[');
                for (i, val) in a.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write(val, out);
                }
                out.push(']');
            }
            other => out.push_str(&other.to_string()),
        }
    }
    let mut out = String::new();
    write(v, &mut out);
    out
}

#[test]
fn hash_ignores_key_order_capture_time_and_viewport() {
    let raw = fixture("case01.before.json");
    let base = Fingerprint::from_json(&raw).unwrap();
    let mut v: Value = serde_json::from_str(&raw).unwrap();

    let reordered = reversed_json(&reorder_keys(&v));
    assert_ne!(reordered, raw);
    assert_eq!(Fingerprint::from_json(&reordered).unwrap().hash, base.hash);

    v["captured_at"] = json!("2030-12-31T23:59:59Z");
    v["viewport"] = json!({"width": 390, "height": 844});
    v["some_driver_field"] = json!(true);
    assert_eq!(
        Fingerprint::from_json(&v.to_string()).unwrap().hash,
        base.hash
    );
}

#[test]
fn hash_changes_with_structure_url_title_scope_and_depth() {
    let raw = fixture("case01.before.json");
    let base = Fingerprint::from_json(&raw).unwrap();
    let edits: [(&str, Value); 5] = [
        ("/url", json!("http://127.0.0.1:8000/app/other")),
        ("/title", json!("Other")),
        ("/scope", json!("main")),
        ("/depth", json!("detailed")),
        ("/structure/interactive/0/visible", json!(false)),
    ];
    for (pointer, value) in edits {
        let mut v: Value = serde_json::from_str(&raw).unwrap();
        *v.pointer_mut(pointer).unwrap() = value;
        let fp = Fingerprint::from_json(&v.to_string()).unwrap();
        assert_ne!(fp.hash, base.hash, "{pointer}");
    }
}

#[test]
fn hash_is_pinned() {
    // The canonical form is a contract: baselines saved by one version must
    // compare equal in the next. If this changes, say so in the changelog.
    let fp = Fingerprint::from_json(&fixture("case01.before.json")).unwrap();
    assert_eq!(fp.hash, "c8322f3aebfb3b82");
}

#[test]
fn dynamic_reload_fixture_normalizes_to_the_same_hash() {
    let before_raw = fixture("case09.before.json");
    let after_raw = fixture("case09.after.json");
    assert_ne!(before_raw, after_raw, "the fixture pages really differ");
    let before = Fingerprint::from_json(&before_raw).unwrap();
    let after = Fingerprint::from_json(&after_raw).unwrap();
    assert_eq!(before.hash, after.hash);
    assert_eq!(before, {
        let mut a = after.clone();
        a.captured_at = before.captured_at.clone();
        a
    });
    assert_eq!(
        compare(&before, &after, Severity::Info).status,
        Status::Unchanged
    );
}

proptest! {
    /// Normalizing twice is normalizing once.
    #[test]
    fn normalization_is_idempotent(
        parts in prop::collection::vec(
            prop_oneof![
                "[A-Za-z]{1,8}",
                "[0-9]{1,7}",
                "[0-9a-f]{6,14}",
                "[0-9]{4}-[0-9]{2}-[0-9]{2}",
                "[0-9]{1,2}:[0-9]{2}",
                "[0-9]{1,3}(,[0-9]{3}){1,2}",
                Just("ago".to_owned()),
                Just("PM".to_owned()),
                Just("Jan".to_owned()),
                "[ .,:/#$()-]{1,2}",
            ],
            0..12,
        )
    ) {
        let text = parts.join(" ");
        let once = normalize_text(&text).into_owned();
        let twice = normalize_text(&once).into_owned();
        prop_assert_eq!(&once, &twice, "input {:?}", text);
    }

    /// Normalizing never panics and never grows a text by more than the
    /// placeholders it inserts.
    #[test]
    fn normalization_never_panics(s in "\\PC{0,120}") {
        let out = normalize_text(&s);
        prop_assert!(out.len() <= s.len() * 14 + 14);
        let _ = normalize_url(&s);
    }
}

proptest! {
    /// An id in an id position (after `#`, in a URL path or query, in a
    /// `[name]` value) normalizes the same whether or not it happens to be
    /// all digits: a random hex id is all digits a few times in a hundred.
    #[test]
    fn ids_normalize_by_position_not_by_digits(
        a in "[0-9a-f]{8}|[0-9a-z]{6,12}|[0-9]{4,13}",
        b in "[0-9]{4,13}",
    ) {
        prop_assume!(a.bytes().any(|c| c.is_ascii_digit()));
        let shapes = |id: &str| {
            let fp = Fingerprint::from_json(&json!({
                "url": format!("http://127.0.0.1:8000/items/{id}?ref={id}#row-{id}"),
                "structure": {
                    "content": {"lists": [{"selector": format!("#todo-{id} li"), "items": 2}],
                                "forms": [{"selector": format!("input[name=\"field-{id}\"]")}]},
                    "interactive": [{"type": "link", "text": format!("Order #{id}"), "href": format!("/orders/{id}"),
                                     "location": format!("list:#todo-{id}")}]
                }
            }).to_string()).unwrap();
            (fp.url.clone(), fp.structure.content.lists[0].selector.clone(),
             fp.structure.content.forms[0].selector.clone(), fp.structure.interactive[0].clone(), fp.hash)
        };
        prop_assert_eq!(shapes(&a), shapes(&b));
    }
}

#[test]
fn real_numbers_stay_numbers_and_small_ones_stay_as_written() {
    // Running text is not an id position: a price or a count stays a number
    // (and short ones as written), so a changed count is still seen.
    assert_eq!(normalize_text("Total $1,234.56"), "Total $[number]");
    assert_eq!(normalize_text("48213 visitors"), "[number] visitors");
    assert_eq!(normalize_text("3 items left"), "3 items left");
    assert_ne!(
        normalize_text("3 items left"),
        normalize_text("0 items left")
    );
    // Short tokens in id positions are names, not ids.
    assert_eq!(normalize_url("/v2/page/3"), "/v2/page/3");
    assert_eq!(normalize_text("#h1 and #col-12"), "#h1 and #col-12");
}
