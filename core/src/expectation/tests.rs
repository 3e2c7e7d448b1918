use super::*;

/// Field paths equal serde_path_to_error's, which `crate::json`
/// replaced (docs/DECISIONS.md D67), on mutations of a full
/// expectation, as a `Value` and as text.
#[test]
fn paths_agree_with_serde_path_to_error() {
    use crate::json::tests::{agree, agree_text};
    let expectation = serde_json::json!({
        "includeSnapshot": true, "includeConsole": false, "includeDownloads": true,
        "includeTabs": false, "includeCode": true,
        "snapshotOptions": {"selector": "main", "maxLength": 1000, "format": "aria"},
        "consoleOptions": {"levels": ["error", "warn"], "maxMessages": 5,
                           "patterns": [], "removeDuplicates": true},
        "imageOptions": {"quality": 50, "maxWidth": 100, "maxHeight": 100, "format": "jpeg"},
        "diffOptions": {"enabled": true, "threshold": 0.5, "format": "unified",
                        "maxDiffLines": 10, "ignoreWhitespace": false, "context": 2}
    });
    assert!(Expectation::deserialize(&expectation).is_ok());
    assert!(agree::<Expectation>(&expectation, 5) > 1_000);
    assert!(agree_text::<Expectation>(&expectation, 6) > 1_000);
}

fn err_field(json: &str) -> String {
    match Expectation::from_json(json) {
        Err(Error::InvalidOption { field, .. }) => field,
        other => panic!("expected InvalidOption for {json}, got {other:?}"),
    }
}

#[test]
fn partial_object_keeps_tool_defaults() {
    let e = Expectation::from_json(r#"{"includeConsole": false}"#).unwrap();
    let r = Expectation::resolve("browser_navigate", &[&e]).unwrap();
    assert!(r.include_snapshot && !r.include_console && r.include_tabs);
    let r = Expectation::resolve("browser_take_screenshot", &[&e]).unwrap();
    assert!(!r.include_snapshot);
    let r = Expectation::resolve("browser_evaluate", &[]).unwrap();
    assert!(!r.include_snapshot && r.include_console);
    let r = Expectation::resolve("some_new_tool", &[]).unwrap();
    assert!(r.include_snapshot && r.include_console && r.include_code);
}

#[test]
fn deep_merge_field_by_field() {
    let global = Expectation::from_json(
        r#"{"diffOptions": {"enabled": true, "context": 1},
            "consoleOptions": {"levels": ["error"], "maxMessages": 3}}"#,
    )
    .unwrap();
    let step = Expectation::from_json(
        r#"{"diffOptions": {"format": "minimal"}, "consoleOptions": {"maxMessages": 5}}"#,
    )
    .unwrap();
    let r = Expectation::resolve("click", &[&global, &step]).unwrap();
    assert!(r.diff.enabled);
    assert_eq!(r.diff.context, 1);
    assert_eq!(r.diff.format, crate::diff::DiffFormat::Minimal);
    assert_eq!(r.diff.max_diff_lines, 50);
    assert_eq!(r.console.levels, Some(vec![ConsoleLevel::Error]));
    assert_eq!(r.console.max_messages, 5);
}

#[test]
fn every_validation_error_names_its_field() {
    let cases = [
        (
            r#"{"includeSnapshots": true}"#,
            "expectation.includeSnapshots",
        ),
        (
            r#"{"includeSnapshot": "yes"}"#,
            "expectation.includeSnapshot",
        ),
        (
            r#"{"snapshotOptions": {"maxLength": 0}}"#,
            "expectation.snapshotOptions.maxLength",
        ),
        (
            r#"{"snapshotOptions": {"format": "xml"}}"#,
            "expectation.snapshotOptions.format",
        ),
        (
            r#"{"snapshotOptions": {"selector": ""}}"#,
            "expectation.snapshotOptions.selector",
        ),
        (
            r#"{"snapshotOptions": {"colour": 1}}"#,
            "expectation.snapshotOptions.colour",
        ),
        (
            r#"{"consoleOptions": {"levels": ["log", "fatal"]}}"#,
            "expectation.consoleOptions.levels[1]",
        ),
        (
            r#"{"consoleOptions": {"maxMessages": -1}}"#,
            "expectation.consoleOptions.maxMessages",
        ),
        (
            r#"{"consoleOptions": {"maxMessages": 100001}}"#,
            "expectation.consoleOptions.maxMessages",
        ),
        (
            r#"{"consoleOptions": {"patterns": ["ok", "("]}}"#,
            "expectation.consoleOptions.patterns[1]",
        ),
        (
            r#"{"imageOptions": {"quality": 0}}"#,
            "expectation.imageOptions.quality",
        ),
        (
            r#"{"imageOptions": {"quality": 101}}"#,
            "expectation.imageOptions.quality",
        ),
        (
            r#"{"imageOptions": {"maxWidth": 0}}"#,
            "expectation.imageOptions.maxWidth",
        ),
        (
            r#"{"imageOptions": {"maxHeight": 99999}}"#,
            "expectation.imageOptions.maxHeight",
        ),
        (
            r#"{"imageOptions": {"format": "gif"}}"#,
            "expectation.imageOptions.format",
        ),
        (
            r#"{"diffOptions": {"threshold": 1.5}}"#,
            "expectation.diffOptions.threshold",
        ),
        (
            r#"{"diffOptions": {"threshold": -0.1}}"#,
            "expectation.diffOptions.threshold",
        ),
        (
            r#"{"diffOptions": {"maxDiffLines": 0}}"#,
            "expectation.diffOptions.maxDiffLines",
        ),
        (
            r#"{"diffOptions": {"context": 1e9}}"#,
            "expectation.diffOptions.context",
        ),
        (
            r#"{"diffOptions": {"context": 5000}}"#,
            "expectation.diffOptions.context",
        ),
        (
            r#"{"diffOptions": {"format": "side-by-side"}}"#,
            "expectation.diffOptions.format",
        ),
        (
            r#"{"diffOptions": {"enable": true}}"#,
            "expectation.diffOptions.enable",
        ),
    ];
    for (json, field) in cases {
        if !cfg!(feature = "patterns") && json.contains("patterns") {
            continue; // tests::patterns_need_the_feature
        }
        assert_eq!(err_field(json), field, "for {json}");
    }
}

#[test]
fn unknown_key_message_lists_the_allowed_ones() {
    let e = Expectation::from_json(r#"{"includeSnapshots": true}"#).unwrap_err();
    let msg = e.to_string();
    assert!(
        msg.contains("includeSnapshots") && msg.contains("includeSnapshot`"),
        "{msg}"
    );
}

#[test]
fn non_objects_and_truncated_json_are_reported_as_such() {
    match Expectation::from_json("[true, 2") {
        Err(Error::Parse { what: "JSON", .. }) => {}
        other => panic!("{other:?}"),
    }
    match Expectation::from_json("[true]") {
        Err(Error::InvalidOption { field, message }) => {
            assert_eq!(field, "expectation");
            assert_eq!(message, "must be a JSON object, got an array");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn bad_json_is_a_parse_error_with_a_line() {
    match Expectation::from_json("{\n\"includeSnapshot\": tru}") {
        Err(Error::Parse { line: 2, .. }) => {}
        other => panic!("{other:?}"),
    }
}

#[cfg(not(feature = "patterns"))]
#[test]
fn patterns_need_the_feature() {
    let e = Expectation::from_json(r#"{"consoleOptions": {"patterns": ["^fail"]}}"#);
    match e {
        Err(Error::InvalidOption { field, message }) => {
            assert_eq!(field, "expectation.consoleOptions.patterns[0]");
            assert!(message.contains("`patterns` feature"), "{message}");
        }
        other => panic!("expected InvalidOption, got {other:?}"),
    }
    // No patterns: fine.
    assert!(Expectation::from_json(r#"{"consoleOptions": {"patterns": []}}"#).is_ok());
}

#[cfg(feature = "patterns")]
#[test]
fn console_filter_levels_and_patterns() {
    let e = Expectation::from_json(
        r#"{"consoleOptions": {"levels": ["error", "warn"], "patterns": ["^fail", "TIMEOUT"]}}"#,
    )
    .unwrap();
    let r = Expectation::resolve("click", &[&e]).unwrap();
    assert!(r.console.accepts(ConsoleLevel::Error, "Failed to load"));
    assert!(r.console.accepts(ConsoleLevel::Warn, "request timeout"));
    assert!(!r.console.accepts(ConsoleLevel::Log, "failed"));
    assert!(!r.console.accepts(ConsoleLevel::Error, "all good"));
    assert_eq!(ConsoleLevel::from_browser("warning"), ConsoleLevel::Warn);
}

#[test]
fn tool_names_with_server_prefixes() {
    let r = Expectation::resolve("mcp__browser__browser_take_screenshot", &[]).unwrap();
    assert!(!r.include_snapshot);
}
