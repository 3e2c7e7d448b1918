//! Look-alikes keep their rows (issue 42): chrome-devtools-mcp prints a
//! grid as one flat run of text cells under its container, so a row's
//! "Finance" and "Lima" look like every other row's. Real snapshots of the
//! bench's grid session (tests/fixtures/carry/devtools-grid-session: sort,
//! sort again, a raise, two pages on, a filter, a row added, 40 a page),
//! carried step by step as the proxy carries them: a row the agent was
//! shown comes back with the refs all four of its cells had, so it can be
//! restored as one run, and no ref ever names a cell of two rows. And the
//! TodoMVC session the same way (devtools-todomvc-react-session): its
//! todos are flat too, a checkbox, a title and maybe a "✖" each, and a
//! checkbox stays with its own title, not the one before it.

use std::collections::HashMap;

use response_diff::tree::{CarrierConfig, PAGE_VIEWS, RefCarrier, parse_devtools};

const STEPS: usize = 12;

fn step(i: usize) -> String {
    fixture("devtools-grid-session", i)
}

fn fixture(session: &str, i: usize) -> String {
    let path = format!(
        "{}/../tests/fixtures/carry/{session}/{i:02}.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The grid's rows in a snapshot: the text cells between the last column
/// header's button and the status line, four a row, as (uid, text).
fn rows(text: &str) -> Vec<Vec<(String, String)>> {
    let mut cells = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        if line.contains("columnheader \"Salary") {
            inside = true;
            continue;
        }
        if !inside || !line.starts_with("      uid=") {
            if line.contains(" status ") {
                break;
            }
            continue;
        }
        let rest = line.trim_start().strip_prefix("uid=").unwrap();
        let (uid, text) = rest.split_once(' ').unwrap();
        if let Some(text) = text.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
            cells.push((uid.to_owned(), text.to_owned()));
        }
    }
    assert_eq!(cells.len() % 4, 0, "{text}");
    cells.chunks(4).map(<[_]>::to_vec).collect()
}

/// Each snapshot of `session` carried as the proxy carries them.
fn carried(steps: usize, text: impl Fn(usize) -> String) -> Vec<String> {
    let c = RefCarrier::with_config(
        CarrierConfig::pages()
            .views_per_key(PAGE_VIEWS)
            .stable_ids(true),
    );
    (1..=steps)
        .map(|i| {
            let tree = parse_devtools(&text(i)).unwrap();
            c.carry("page", &tree).unwrap().tree.to_text()
        })
        .collect()
}

fn session() -> Vec<String> {
    carried(STEPS, step)
}

#[test]
fn a_row_shown_before_comes_back_with_its_cells_refs() {
    // Row texts → the refs its cells had when last shown.
    let mut shown: HashMap<Vec<String>, Vec<String>> = HashMap::new();
    let mut back = 0;
    for (i, text) in session().iter().enumerate() {
        for row in rows(text) {
            let texts: Vec<String> = row.iter().map(|(_, t)| t.clone()).collect();
            let refs: Vec<String> = row.iter().map(|(r, _)| r.clone()).collect();
            if let Some(before) = shown.get(&texts) {
                assert_eq!(&refs, before, "step {}: row {texts:?}", i + 1);
                back += 1;
            }
            shown.insert(texts, refs);
        }
    }
    // Rows shown again: the sorts, the cleared filter, the 40 a page.
    assert!(back > 60, "{back}");
}

#[test]
fn no_ref_names_a_cell_of_two_rows() {
    // Ref → the name of the row its cell was in.
    let mut row_of: HashMap<String, String> = HashMap::new();
    for (i, text) in session().iter().enumerate() {
        for row in rows(text) {
            let name = &row[0].1;
            for (r, cell) in &row {
                let was = row_of.entry(r.clone()).or_insert_with(|| name.clone());
                assert_eq!(was, name, "step {}: {r} {cell:?}", i + 1);
            }
        }
    }
}

/// The todos in a TodoMVC snapshot: each checkbox followed by a text (its
/// title), as (checkbox uid, title uid, title).
fn todos(text: &str) -> Vec<(String, String, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for w in lines.windows(2) {
        let (a, b) = (w[0].trim_start(), w[1].trim_start());
        let Some(cb) = a
            .strip_prefix("uid=")
            .and_then(|a| a.split_once(" checkbox"))
        else {
            continue;
        };
        let Some((uid, title)) = b.strip_prefix("uid=").and_then(|b| b.split_once(" \"")) else {
            continue;
        };
        out.push((
            cb.0.to_owned(),
            uid.to_owned(),
            title.trim_end_matches('"').to_owned(),
        ));
    }
    out
}

#[test]
fn a_todo_checkbox_stays_with_its_own_title() {
    let steps = carried(13, |i| fixture("devtools-todomvc-react-session", i));
    // Checkbox ref → the title it stood before.
    let mut title_of: HashMap<String, String> = HashMap::new();
    let mut seen = 0;
    for (i, text) in steps.iter().enumerate() {
        for (cb, _, title) in todos(text) {
            let was = title_of.entry(cb.clone()).or_insert_with(|| title.clone());
            assert_eq!(was, &title, "step {}: checkbox {cb}", i + 1);
            seen += 1;
        }
    }
    assert!(seen > 20, "{seen}");
}
