use serde_json::{Map, Value, json};

use super::call::Call;
use super::parse::{TOOLS, canonical, parse};
use super::schema::expectation_schema;

fn args(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m,
        _ => unreachable!(),
    }
}

#[test]
fn names() {
    assert_eq!(canonical("click"), Some("browser_click"));
    assert_eq!(canonical("browser_click"), Some("browser_click"));
    assert_eq!(
        canonical("mcp__rd__browser_snapshot"),
        Some("browser_snapshot")
    );
    assert_eq!(canonical("drag"), Some("browser_drag"));
    assert_eq!(canonical("browser_fly"), None);
}

#[test]
fn errors_say_what_to_send() {
    let e = parse("browser_navigate", args(json!({}))).unwrap_err();
    assert!(
        e.contains("missing field `url`") && e.contains("url (string, required)"),
        "{e}"
    );
    let e = parse("browser_navigate", args(json!({"url": "example"}))).unwrap_err();
    assert!(e.contains("has no scheme"), "{e}");
    let e = parse("browser_click", args(json!({"ref": "e1", "dbl": true}))).unwrap_err();
    assert!(e.contains("unknown field `dbl`"), "{e}");
    let e = parse(
        "browser_snapshot",
        args(json!({"expectation": {"diffOptions": {"threshold": 2}}})),
    )
    .unwrap_err();
    assert!(e.contains("expectation.diffOptions.threshold"), "{e}");
}

#[test]
fn target_is_accepted_for_ref_as_playwright_names_it() {
    // @playwright/mcp 0.0.83 calls the element argument `target`.
    for (tool, a) in [
        ("browser_click", json!({"target": "e3"})),
        ("browser_type", json!({"target": "e3", "text": "x"})),
        (
            "browser_select_option",
            json!({"target": "e3", "values": ["a"]}),
        ),
        ("browser_hover", json!({"target": "e3"})),
        ("browser_take_screenshot", json!({"target": "e3"})),
        (
            "browser_evaluate",
            json!({"target": "e3", "function": "(e) => 1"}),
        ),
    ] {
        let p = parse(tool, args(a)).unwrap_or_else(|e| panic!("{tool}: {e}"));
        let r = match p.call {
            Call::Click(p) => Some(p.target),
            Call::Type(p) => Some(p.target),
            Call::SelectOption(p) => Some(p.target),
            Call::Hover(p) => Some(p.target),
            Call::Screenshot(p) => p.target,
            Call::Evaluate(p) => p.target,
            other => panic!("{other:?}"),
        };
        assert_eq!(r.as_deref(), Some("e3"), "{tool}");
    }
    let e = parse("browser_click", args(json!({"ref": "e1", "target": "e2"}))).unwrap_err();
    assert!(e.contains("duplicate field"), "{e}");
}

#[test]
fn batch_is_validated_before_running() {
    let e = parse(
        "browser_batch_execute",
        args(json!({"steps": [
            {"tool": "browser_navigate", "arguments": {"url": "http://127.0.0.1:1/"}},
            {"tool": "browser_fly", "arguments": {}}
        ]})),
    )
    .unwrap_err();
    assert!(e.starts_with("steps[1].unknown tool `browser_fly`"), "{e}");
    let e = parse(
        "browser_batch_execute",
        args(json!({"steps": [{"tool": "click", "arguments": {}}]})),
    )
    .unwrap_err();
    assert!(
        e.starts_with("steps[0].browser_click: missing field `ref`"),
        "{e}"
    );
    let ok = parse(
        "browser_batch_execute",
        args(json!({
            "globalExpectation": "{\"includeConsole\": false}",
            "steps": [{"tool": "snapshot", "continueOnError": true,
                       "expectation": {"diffOptions": {"enabled": true}}}]
        })),
    )
    .unwrap();
    match ok.call {
        Call::Batch(b) => {
            assert!(b.stop_on_first_error);
            assert_eq!(b.global.include_console, Some(false));
            assert!(b.steps[0].continue_on_error);
            assert!(b.steps[0].call.expectation.diff_options.is_some());
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn schemas_are_compact_and_share_the_expectation() {
    for t in TOOLS {
        let s = serde_json::to_string(&*(t.schema)()).unwrap();
        assert!(
            !s.contains("$ref") && !s.contains("$defs") && !s.contains("null"),
            "{}: {s}",
            t.name
        );
        // Every tool but browser_close (docs/DECISIONS.md D22); a batch
        // has its globalExpectation and per-step expectations instead.
        if !["browser_close", "browser_batch_execute"].contains(&t.name) {
            assert!(s.contains(&expectation_schema().to_string()), "{}", t.name);
        }
    }
}

#[test]
fn find_and_one_request_take_an_expectation() {
    let exp = json!({"includeConsole": true});
    for (tool, a) in [
        ("browser_find", json!({"text": "Save", "expectation": exp})),
        (
            "browser_network_request",
            json!({"index": 1, "expectation": exp}),
        ),
    ] {
        let p = parse(tool, args(a)).unwrap_or_else(|e| panic!("{tool}: {e}"));
        assert_eq!(p.expectation.include_console, Some(true), "{tool}");
    }
}
