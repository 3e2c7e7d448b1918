//! A ref stays in its row (issue 42, D60): Playwright's snapshots of a real
//! TodoMVC session (tests/fixtures/carry/todomvc-react-session, React), carried
//! step by step as `PageDiff` carries them. A ref the agent was shown inside
//! one todo must never be handed to an element of another todo that was on
//! the page before, while its own todo is still there: after a hover shows
//! "Write report"'s delete button, that button is not the "✖" the agent saw
//! on "Buy oat milk" a step earlier, and the rows keep their refs; with
//! Playwright's refs taken as node ids or not.

use std::collections::HashMap;

use response_diff::tree::{CarrierConfig, RefCarrier, parse_aria};

const STEPS: usize = 13;

fn step(i: usize) -> String {
    let path = format!(
        "{}/../tests/fixtures/carry/todomvc-react-session/{i:02}.yml",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Each ref of `text` → the ref of the listitem it is in (None outside one).
fn rows(text: &str) -> HashMap<String, Option<String>> {
    let mut out = HashMap::new();
    // (indent, ref of the listitem on that line, or None)
    let mut stack: Vec<(usize, Option<String>)> = Vec::new();
    for line in text.lines() {
        let indent = line.len() - line.trim_start().len();
        while stack.last().is_some_and(|&(i, _)| i >= indent) {
            stack.pop();
        }
        let r = line
            .split("[ref=")
            .nth(1)
            .and_then(|s| s.split(']').next())
            .map(str::to_owned);
        let item = stack.iter().rev().find_map(|(_, it)| it.clone());
        let own = line
            .trim_start()
            .starts_with("- listitem")
            .then(|| r.clone())
            .flatten();
        if let Some(r) = &r {
            out.insert(r.clone(), item);
        }
        stack.push((indent, own));
    }
    out
}

fn session(stable_ids: bool) -> Vec<String> {
    let c = RefCarrier::with_config(CarrierConfig::pages().stable_ids(stable_ids));
    (1..=STEPS)
        .map(|i| {
            let tree = parse_aria(&step(i), false).unwrap();
            c.carry("todomvc", &tree).unwrap().tree.to_text()
        })
        .collect()
}

#[test]
fn a_ref_never_moves_from_a_row_still_shown_into_another() {
    for stable_ids in [false, true] {
        let views = session(stable_ids);
        // Where each ref was last shown: its row.
        let mut last: HashMap<String, Option<String>> = HashMap::new();
        for (k, view) in views.iter().enumerate() {
            let now = rows(view);
            for (r, item) in &now {
                let Some(Some(was)) = last.get(r) else {
                    continue;
                };
                if item.as_ref() != Some(was) && now.contains_key(was) && item.is_some() {
                    panic!(
                        "stable_ids {stable_ids}, step {}: {r} was in row {was}, which is still shown, and is now in row {item:?}\n{view}",
                        k + 1
                    );
                }
            }
            last.extend(now);
        }
    }
}

#[test]
fn rows_keep_their_refs_and_the_hovered_delete_button_is_new() {
    // With Playwright's refs as node ids, as PageDiff carries them (D60):
    // by content alone a row whose delete button turned to text is another
    // row, and its button a look-alike of one no longer shown.
    let a = session(true);
    // The three todos keep their rows' refs through the hover.
    let items = |text: &str| {
        let mut v: Vec<String> = rows(text).into_values().flatten().collect();
        v.sort();
        v.dedup();
        v
    };
    assert_eq!(items(&a[9]), items(&a[10]));
    // "Buy oat milk"'s delete button is gone; the one the hover shows on
    // "Write report" has a ref never shown before.
    let button = a[10]
        .lines()
        .find(|l| l.trim_start().starts_with("- button \"✖\""))
        .expect("the hovered row's delete button");
    let r = button
        .split("[ref=")
        .nth(1)
        .unwrap()
        .split(']')
        .next()
        .unwrap();
    assert!(
        !a[..10].iter().any(|v| v.contains(&format!("[ref={r}]"))),
        "{r} was shown before: {button}"
    );
}

#[test]
fn a_row_coming_back_with_text_like_another_rows_is_restored_whole() {
    use response_diff::diff::ResponseDiffDetector;
    use response_diff::expectation::Expectation;
    use response_diff::response::{DiffTarget, Response, Snapshot, render};
    // Filter All after Completed: "Buy milk" and "Write report" come back
    // as they were last shown, each with a `text: ✖` (no ref) like the one
    // the shown "Walk the dog" row just turned into a button. The look-alike
    // is not the returning rows' text: each row comes back by one reference.
    let det = ResponseDiffDetector::new();
    let e = Expectation::from_json(r#"{"diffOptions": {"enabled": true}}"#).unwrap();
    let resolved = Expectation::resolve("browser_snapshot", &[&e]).unwrap();
    let views = session(true);
    let mut answers = Vec::new();
    for view in &views[..8] {
        let response = Response {
            snapshot: Some(Snapshot::aria(view)),
            ..Response::default()
        };
        let target = DiffTarget {
            detector: &det,
            key: "todomvc",
        };
        answers.push(render(&response, &resolved, Some(target)).unwrap().text);
    }
    let all = &answers[7];
    assert!(
        all.contains("+ first in [e52]: [e53] as last shown"),
        "{all}"
    );
    assert!(all.contains("+ after [e67]: [e71] as last shown"), "{all}");
}
