//! Parser edge cases: errors with line numbers, lenient mode, depth limits,
//! attributes and quoting.

use response_diff::Error;
use response_diff::tree::{
    Filter, MAX_DEPTH, Selector, Tree, TreeDiffOptions, diff, diff_with, parse_aria,
};

fn line_of(text: &str) -> usize {
    match parse_aria(text, false).unwrap_err() {
        Error::Parse { line, what, .. } => {
            assert_eq!(what, "aria snapshot");
            line
        }
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn malformed_lines_report_their_line_number() {
    assert_eq!(line_of("- button \"unterminated"), 1);
    assert_eq!(line_of("- list:\n  - listitem: a\n  - 123"), 3);
    assert_eq!(line_of("- list:\n  - listitem [ref=e1"), 2);
    assert_eq!(line_of("- list:\n  - listitem: a\n   - listitem: b"), 3);
    assert_eq!(line_of("- button \"x\"\n  - text: child of a leaf"), 2);
    assert_eq!(line_of("- list:\n\n  not a list item"), 3);
    assert_eq!(line_of("- /url: /top-level-prop"), 1);
    assert_eq!(line_of("- button \"x\" junk"), 1);
    assert_eq!(line_of("- textbox: \"unterminated"), 1);
    assert_eq!(line_of("- heading [level]x"), 1);
    let e = parse_aria("- list:\n  - listitem: a\n  - 123", false)
        .unwrap_err()
        .to_string();
    assert!(e.contains("line 3"), "{e}");
}

#[test]
fn lenient_mode_keeps_odd_lines_as_text() {
    let t = parse_aria(
        "- list [ref=e1]:\n  - listitem: a\n  garbage here\n  - 123 [\n- button \"ok\"",
        true,
    )
    .unwrap();
    let list = &t.roots[0];
    let texts: Vec<_> = list
        .children
        .iter()
        .map(|c| (c.role.as_str(), c.name.as_str()))
        .collect();
    assert_eq!(
        texts,
        [
            ("listitem", ""),
            ("text", "garbage here"),
            ("text", "123 [")
        ]
    );
    assert_eq!(t.roots[1].name, "ok");
    // Children under a leaf and odd indentation are accepted too.
    let t = parse_aria("- button \"x\"\n   - text: y\n  - text: z", true).unwrap();
    assert_eq!(t.len(), 3);
}

#[test]
fn deep_nesting_is_a_clear_error_not_a_crash() {
    // Aria text grows with the square of its depth; 5,000 levels is 25 MB.
    // (JSON 100,000 levels deep is tested in the library's unit tests.)
    let mut s = String::new();
    for d in 0..5_000 {
        s.push_str(&"  ".repeat(d));
        s.push_str("- generic:\n");
    }
    for lenient in [false, true] {
        match parse_aria(&s, lenient).unwrap_err() {
            Error::Parse { line, message, .. } => {
                assert_eq!(line, MAX_DEPTH + 1);
                assert!(message.contains("nesting deeper"), "{message}");
            }
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn the_deepest_allowed_tree_works_everywhere_on_a_small_stack() {
    let mut s = String::new();
    for d in 0..MAX_DEPTH {
        s.push_str(&"  ".repeat(d));
        s.push_str(if d + 1 == MAX_DEPTH {
            "- button \"deep\" [ref=e1]"
        } else {
            "- generic:\n"
        });
    }
    // 256 KiB of stack: everything must be iterative (or bounded).
    let handle = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || {
            let t = parse_aria(&s, false).unwrap();
            assert_eq!(t.len(), MAX_DEPTH);
            assert_eq!(t.to_aria(), s);
            let back = Tree::from_json(&t.to_json()).unwrap();
            assert_eq!(back.len(), MAX_DEPTH);
            let mut other = t.clone();
            other
                .find_mut(&Selector::parse("e1").unwrap())
                .unwrap()
                .name = "changed".into();
            let d = diff(&t, &other);
            assert_eq!(d.changed.len(), 1);
            assert_eq!(d.apply(&t).len(), MAX_DEPTH);
            let pruned = Filter {
                prune: true,
                ..Filter::default()
            }
            .apply(&t);
            assert_eq!(pruned.len(), 1);
            let d = diff_with(&t, &other, &TreeDiffOptions::default());
            assert_eq!(d.to_agent().lines().count(), 2);
            assert_eq!(t.text_lines(), ["deep"]);
            drop(back);
            drop(other);
        })
        .unwrap();
    handle.join().expect("no stack overflow");
}

#[test]
fn attributes_names_and_values() {
    let t = parse_aria(
        "- heading \"Hi\" [level=2] [ref=e3]\n- checkbox \"A\" [checked=mixed] [disabled] [ref=e4] [cursor=pointer] [box=1,2,3,4]\n- link /Item \\d+/ [ref=e5]\n- button [future-flag] [x=1] [ref=e6] [pressed]\n- textbox \"Q\": \"a\\tb\\x01\"\n- paragraph: 'it''s'\n- text: \"\"",
        false,
    )
    .unwrap();
    let r = &t.roots;
    assert_eq!(r[0].state("level").unwrap().value.as_deref(), Some("2"));
    assert_eq!(
        r[1].state("checked").unwrap().value.as_deref(),
        Some("mixed")
    );
    assert_eq!(r[1].bounds.unwrap().width, 3.0);
    assert!(r[2].name_regex);
    assert_eq!(r[2].name, "Item \\d+");
    let names: Vec<_> = r[3].states.iter().map(|s| s.to_string()).collect();
    assert_eq!(names, ["[future-flag]", "[x=1]", "[pressed]"]);
    assert_eq!(r[4].value.as_deref(), Some("a\tb\u{1}"));
    assert_eq!(r[5].value.as_deref(), Some("it's"));
    assert!(r[6].is_text_node() && r[6].name.is_empty());
    // Canonical output (Playwright's quoting) for what Playwright would print.
    assert_eq!(
        t.to_aria(),
        "- heading \"Hi\" [level=2] [ref=e3]\n- checkbox \"A\" [checked=mixed] [disabled] [ref=e4] [cursor=pointer] [box=1,2,3,4]\n- link /Item \\d+/ [ref=e5]\n- button [future-flag] [x=1] [ref=e6] [pressed]\n- textbox \"Q\": \"a\\tb\\x01\"\n- paragraph: it's\n- text: \"\""
    );
}

#[test]
fn descriptions_and_values_with_children_round_trip() {
    let text = "- button \"Save\" [ref=e1]:\n  - /url: /s\n  - /description: Saves the draft\n  - /value: v\n  - text: child";
    let t = parse_aria(text, false).unwrap();
    let b = &t.roots[0];
    assert_eq!(b.description.as_deref(), Some("Saves the draft"));
    assert_eq!(b.value.as_deref(), Some("v"));
    assert_eq!(b.prop("url"), Some("/s"));
    assert_eq!(t.to_aria(), text);
}

#[test]
fn blank_and_comment_lines_and_crlf_are_tolerated() {
    let t = parse_aria("# header\r\n- list:\r\n\r\n  - listitem: a\r\n", false).unwrap();
    assert_eq!(t.to_aria(), "- list:\n  - listitem: a");
}

#[test]
fn json_errors_are_parse_errors() {
    for bad in [
        "",
        "{",
        "[1]",
        r#"[{"name":"x"}]"#,
        r#"[{"role":""}]"#,
        r#"[{"role":"x","states":{"a":[1]}}]"#,
    ] {
        match Tree::from_json(bad) {
            Err(Error::Parse { what, .. }) => assert_eq!(what, "JSON tree"),
            other => panic!("{bad}: {other:?}"),
        }
    }
    let one =
        Tree::from_json(r#"{"role":"button","name":"Go","states":{"disabled":true,"level":2}}"#)
            .unwrap();
    assert_eq!(one.to_aria(), "- button \"Go\" [disabled] [level=2]");
}
