//! Parsing and validating fingerprint JSON, and the extraction options.

use proptest::prelude::*;
use response_diff::Error;
use response_diff::fingerprint::{
    Depth, ExtractOptions, FINGERPRINT_SCRIPT, Fingerprint, MAX_FINGERPRINT_BYTES, Scope,
};
use serde_json::json;

fn fixture(name: &str) -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/fixtures/fingerprint/"
    );
    std::fs::read_to_string(format!("{path}{name}")).expect("fixture")
}

fn parse_err(json: &str) -> Error {
    Fingerprint::from_json(json).expect_err("should not parse")
}

#[test]
fn parses_real_extractor_output() {
    let fp = Fingerprint::from_json(&fixture("case01.before.json")).unwrap();
    assert_eq!(fp.url, "http://127.0.0.1:8000/app/dashboard");
    assert_eq!(fp.title, "Dashboard - MyApp");
    assert_eq!(fp.captured_at, "2026-01-23T10:30:45.000Z");
    assert_eq!(fp.scope, "full");
    assert_eq!(fp.depth, Depth::Standard);
    assert_eq!(fp.structure.landmarks.len(), 7);
    assert_eq!(fp.structure.content.headings.len(), 7);
    assert_eq!(fp.structure.content.forms.len(), 2);
    assert!(fp.structure.interactive.len() > 20);
    assert_eq!(fp.hash.len(), 16);
    assert!(fp.hash.chars().all(|c| c.is_ascii_hexdigit()));
    // The token count is the estimate of the compact JSON.
    assert_eq!(
        fp.token_count,
        response_diff::tokens::estimate(&fp.to_json())
    );
}

#[test]
fn the_seeds_example_parses() {
    // Seed 003's response, as written there (with `label`, `hash`, `token_count`).
    let seed = json!({
      "url": "http://localhost:3000/dashboard",
      "title": "Dashboard - MyApp",
      "viewport": {"width": 1280, "height": 720},
      "captured_at": "2026-01-23T10:30:45Z",
      "structure": {
        "landmarks": {
          "header": {"present": true, "contains": ["nav", "logo", "user-menu"],
                     "interactive": ["link:Home", "link:Projects", "button:Logout"]},
          "main": {"present": true, "contains": ["heading:Dashboard", "section:projects"], "role": "main"},
          "footer": {"present": true, "contains": ["link:Privacy", "link:Terms"]}
        },
        "content": {
          "headings": [{"level": 1, "text": "Dashboard"}, {"level": 2, "text": "Recent Projects"}],
          "lists": [{"selector": ".project-list", "items": 5, "type": "ul"}],
          "forms": [{"selector": "#search-form", "fields": ["input:Search projects"], "buttons": ["button:Search"]}],
          "tables": [],
          "images": {"count": 3, "with_alt": 3, "broken": 0}
        },
        "interactive": [
          {"type": "button", "text": "New Project", "visible": true, "enabled": true},
          {"type": "input", "label": "Search projects", "visible": true, "value": ""},
          {"type": "link", "text": "View All Projects", "href": "/projects"}
        ],
        "state": {"error_elements": [], "loading_indicators": [], "empty_states": [],
                  "modals_open": [], "notifications": []}
      },
      "hash": "a7f3b2c1",
      "token_count": 412
    });
    let fp = Fingerprint::from_json(&seed.to_string()).unwrap();
    assert_eq!(fp.structure.interactive[1].text, "Search projects");
    assert!(
        fp.structure.interactive[2].visible,
        "visible defaults to true"
    );
    // hash and token_count are ours, not the input's.
    assert_ne!(fp.hash, "a7f3b2c1");
    assert_ne!(fp.token_count, 412);
}

#[test]
fn unknown_top_level_keys_are_ignored_and_not_hashed() {
    let plain = Fingerprint::from_json(r#"{"url": "/", "structure": {}}"#).unwrap();
    let extra = Fingerprint::from_json(r#"{"url": "/", "driver": {"name": "x"}, "structure": {}}"#)
        .unwrap();
    assert_eq!(plain.hash, extra.hash);
    assert_eq!(plain, extra);
}

#[test]
fn unknown_keys_inside_structure_are_refused_with_line_and_path() {
    let json = "{\n  \"url\": \"/\",\n  \"structure\": {\n    \"interactve\": []\n  }\n}";
    match parse_err(json) {
        Error::Parse {
            what,
            line,
            message,
        } => {
            assert_eq!(what, "fingerprint");
            assert_eq!(line, 4);
            assert!(message.contains("interactve"), "{message}");
            assert!(message.contains("structure"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    let json = r#"{"structure": {"interactive": [{"type": "button", "txt": "x"}]}}"#;
    assert!(matches!(parse_err(json), Error::Parse { .. }));
}

#[test]
fn bad_json_gives_the_line() {
    let json = "{\n  \"url\": \"/\",\n  \"structure\": {\n    \"landmarks\": {,}\n  }\n}";
    match parse_err(json) {
        Error::Parse { line, .. } => assert_eq!(line, 4),
        other => panic!("{other:?}"),
    }
    assert!(matches!(parse_err(""), Error::Parse { line: 1, .. }));
    assert!(matches!(parse_err("[]"), Error::Parse { .. }));
    assert!(matches!(parse_err("null"), Error::Parse { .. }));
}

#[test]
fn field_types_and_ranges_are_checked() {
    let cases = [
        (
            "{\"structure\": {\"content\": {\"headings\": [\n{\"level\": 7, \"text\": \"x\"}]}}}",
            "heading level must be 1 to 6",
        ),
        (
            r#"{"structure": {"content": {"headings": [{"level": 0, "text": "x"}]}}}"#,
            "heading level",
        ),
        (
            r#"{"structure": {"content": {"lists": [{"selector": "ul", "items": -1}]}}}"#,
            "items",
        ),
        (
            r#"{"structure": {"interactive": [{"type": 3, "text": "x"}]}}"#,
            "interactive[0].type",
        ),
        (r#"{"url": 5, "structure": {}}"#, "url"),
        (r#"{"depth": "deep", "structure": {}}"#, "depth"),
    ];
    for (json, needle) in cases {
        match parse_err(json) {
            Error::Parse { message, .. } => {
                assert!(message.contains(needle), "{json}: {message}")
            }
            other => panic!("{json}: {other:?}"),
        }
    }
    // The line points at the bad value.
    assert!(matches!(
        parse_err(
            "{\"structure\": {\"content\": {\"headings\": [\n{\"level\": 7, \"text\": \"x\"}]}}}"
        ),
        Error::Parse { line: 2, .. }
    ));
}

#[test]
fn missing_structure_is_an_error() {
    match parse_err(r#"{"url": "/"}"#) {
        Error::Parse { message, .. } => assert!(message.contains("structure")),
        other => panic!("{other:?}"),
    }
}

#[test]
fn extractor_errors_become_typed_errors() {
    let json = r##"{"error": {"field": "scope", "message": "selector \"#x\" matches nothing on the page"}}"##;
    match parse_err(json) {
        Error::InvalidOption { field, message } => {
            assert_eq!(field, "scope");
            assert!(message.contains("matches nothing"));
        }
        other => panic!("{other:?}"),
    }
    let json = r#"{"error": {"message": "the page-side extractor failed: boom"}}"#;
    assert!(matches!(parse_err(json), Error::Parse { .. }));
}

#[test]
fn too_large_input_is_refused_before_parsing() {
    let big = " ".repeat(MAX_FINGERPRINT_BYTES + 1);
    assert!(matches!(
        parse_err(&big),
        Error::InputTooLarge {
            what: "fingerprint",
            ..
        }
    ));
}

#[test]
fn field_values_are_reduced_to_has_value() {
    let fp = Fingerprint::from_json(
        r#"{"structure": {"interactive": [{"type": "input", "text": "Email", "value": "ada@example.com"}]}}"#,
    )
    .unwrap();
    assert_eq!(
        fp.structure.interactive[0].value.as_deref(),
        Some("[has value]")
    );
    assert!(!fp.to_json().contains("ada@"));
}

#[test]
fn round_trips_through_its_own_json() {
    for case in [
        "case01.before.json",
        "case04.after.json",
        "case09.after.json",
    ] {
        let fp = Fingerprint::from_json(&fixture(case)).unwrap();
        let again = Fingerprint::from_json(&fp.to_json()).unwrap();
        assert_eq!(fp, again, "{case}");
        let pretty = Fingerprint::from_json(&fp.to_json_pretty()).unwrap();
        assert_eq!(fp, pretty, "{case}");
        assert_eq!(fp.to_string(), fp.to_json());
        let parsed: Fingerprint = fp.to_json().parse().unwrap();
        assert_eq!(parsed, fp);
    }
}

#[test]
fn extract_options() {
    let opts = ExtractOptions::from_json("{}").unwrap();
    assert_eq!(opts, ExtractOptions::default());
    assert_eq!(opts.scope, Scope::Full);
    assert_eq!(opts.depth, Depth::Standard);
    assert_eq!(opts.to_json(), r#"{"scope":"full","depth":"standard"}"#);

    let opts = ExtractOptions::from_json(r#"{"scope": "above_fold", "depth": "minimal"}"#).unwrap();
    assert_eq!(opts, ExtractOptions::new(Scope::AboveFold, Depth::Minimal));

    match ExtractOptions::from_json(r#"{"scope": "full", "deep": true}"#).unwrap_err() {
        Error::InvalidOption { message, .. } => {
            assert!(message.contains("deep"), "{message}");
            assert!(
                message.contains("scope") && message.contains("depth"),
                "{message}"
            );
        }
        other => panic!("{other:?}"),
    }
    match ExtractOptions::from_json(r#"{"depth": "deep"}"#).unwrap_err() {
        Error::InvalidOption { field, .. } => assert_eq!(field, "depth"),
        other => panic!("{other:?}"),
    }
    match ExtractOptions::from_json(r#"{"scope": ""}"#).unwrap_err() {
        Error::InvalidOption { field, .. } => assert_eq!(field, "scope"),
        other => panic!("{other:?}"),
    }
    assert!("x".repeat(1001).parse::<Scope>().is_err());
    assert!("minimal".parse::<Depth>().is_ok());
    assert!("Minimal".parse::<Depth>().is_err());
}

#[test]
fn the_expression_embeds_the_extractor_and_escapes_options() {
    let opts = ExtractOptions::new(
        Scope::Selector("a[title=\"x\"] </script>".into()),
        Depth::Detailed,
    );
    let js = opts.expression();
    assert!(js.starts_with("JSON.stringify(("));
    assert!(js.contains(FINGERPRINT_SCRIPT));
    assert!(
        js.ends_with(r#"({"scope":"a[title=\"x\"] </script>","depth":"detailed"}))"#),
        "{js}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Nothing panics on any input.
    #[test]
    fn never_panics_on_arbitrary_text(s in "\\PC{0,200}") {
        let _ = Fingerprint::from_json(&s);
        let _ = ExtractOptions::from_json(&s);
    }

    /// Nor on JSON of roughly the right shape with arbitrary values.
    #[test]
    fn never_panics_on_arbitrary_values(
        text in "\\PC{0,40}",
        n in any::<i64>(),
        b in any::<bool>(),
        level in any::<i32>(),
    ) {
        let json = json!({
            "url": text, "title": text, "viewport": {"width": n, "height": n},
            "structure": {
                "landmarks": {text.clone(): {"present": b, "visible": b, "contains": [text]}},
                "content": {"headings": [{"level": level, "text": text}],
                            "lists": [{"selector": text, "items": n}],
                            "images": {"count": n}},
                "interactive": [{"type": text, "text": text, "visible": b, "href": text}],
                "state": {"error_elements": [{"selector": text, "text": text}]}
            }
        });
        if let Ok(fp) = Fingerprint::from_json(&json.to_string()) {
            // Whatever parses round-trips.
            prop_assert_eq!(Fingerprint::from_json(&fp.to_json()).unwrap(), fp);
        }
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let deep = format!(
        "{{\"junk\": {}{}}}",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    assert!(matches!(parse_err(&deep), Error::Parse { .. }));
    let deep = format!(
        "{{\"structure\": {{\"landmarks\": {}}}}}",
        "{\"a\":".repeat(50_000) + "1" + &"}".repeat(50_000)
    );
    assert!(matches!(parse_err(&deep), Error::Parse { .. }));
}
