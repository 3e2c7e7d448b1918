//! Collections at the price of what is new (issue 29): a data grid of 60
//! people, 10 a page, followed through rendered responses with diffs on,
//! as the server renders them. Every response is applied to the agent's
//! view with every view it was shown before (`apply_patch_with`), and must
//! rebuild the page exactly.

mod common;

use common::Agent;
use response_diff::diff::{DetectorConfig, ResponseDiffDetector};
use response_diff::tree::{RefCarrier, apply_patch_with, parse_aria};

#[derive(Clone)]
struct Person {
    id: usize,
    name: String,
    dept: &'static str,
    salary: u32,
}

fn people() -> Vec<Person> {
    let first = [
        "Ada", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lea",
    ];
    let last = ["Byron", "Cho", "Diaz", "Evans", "Fox"];
    let depts = ["Sales", "Engineering", "Support", "Finance"];
    (0..60)
        .map(|i| Person {
            id: i,
            name: format!("{} {}", first[i % 12], last[i / 12]),
            dept: depts[(i * 7) % 4],
            salary: 40_000 + ((i as u32 * 7919) % 61) * 1000,
        })
        .collect()
}

/// A page of the grid as our server prints it, refs carried (one per
/// person's row and cell, as the carrier keeps them).
fn page(rows: &[Person], page: usize, size: usize) -> String {
    let shown = &rows[(page * size).min(rows.len())..((page + 1) * size).min(rows.len())];
    let mut s = String::from(
        "- main [ref=m]:\n  - heading \"People\" [level=1] [ref=h]\n  - searchbox \"Type a keyword...\" [ref=q]\n  - grid [ref=g]:\n    - rowgroup [ref=rg]:\n",
    );
    for p in shown {
        let i = p.id;
        s += &format!(
            "      - row \"{} {} ${}\" [ref=r{i}]:\n        - gridcell \"{}\" [ref=n{i}]\n        - gridcell \"{}\" [ref=d{i}]\n        - gridcell \"${}\" [ref=s{i}]\n",
            p.name, p.dept, p.salary, p.name, p.dept, p.salary
        );
    }
    let pages = rows.len().div_ceil(size);
    s += &format!(
        "  - status \"Page {} of {pages}\" [ref=st]: Showing {} to {} of {} results\n  - button \"Next\" [ref=nx]",
        page + 1,
        page * size + 1,
        ((page + 1) * size).min(rows.len()),
        rows.len()
    );
    s
}

fn patch_lines(body: &str) -> Vec<&str> {
    body.lines()
        .filter(|l| !l.starts_with("```") && !l.starts_with(" (patch)"))
        .collect()
}

fn sort(mut rows: Vec<Person>, key: impl Fn(&Person) -> (u32, String)) -> Vec<Person> {
    rows.sort_by_key(|p| key(p));
    rows
}

#[test]
fn a_list_sorted_three_ways_costs_one_order_line_each() {
    let det = ResponseDiffDetector::new();
    let mut agent = Agent::new(&det);
    let ten: Vec<Person> = people().into_iter().take(10).collect();
    agent.step(&page(&ten, 0, 10));
    for rows in [
        sort(ten.clone(), |p| (p.salary, String::new())),
        sort(ten.clone(), |p| (u32::MAX - p.salary, String::new())),
        sort(ten.clone(), |p| (0, p.name.clone())),
    ] {
        let body = agent.step(&page(&rows, 0, 10));
        let lines = patch_lines(&body);
        assert_eq!(lines.len(), 1, "{body}");
        assert!(lines[0].starts_with("~ order [r"), "{body}");
    }
}

#[test]
fn a_larger_page_size_whose_rows_were_all_seen_costs_references_only() {
    let det = ResponseDiffDetector::new();
    let mut agent = Agent::new(&det);
    let rows = people();
    // Pages 2 to 4 were shown more than four responses before.
    for p in [0, 1, 2, 3, 4, 5, 0] {
        agent.step(&page(&rows, p, 10));
    }
    let body = agent.step(&page(&rows, 0, 40));
    // Rows 10..40 come back by reference; only the status line changes.
    assert!(!body.contains("gridcell"), "{body}");
    assert!(body.contains("as last shown"), "{body}");
    assert!(body.len() < 700, "{} bytes:\n{body}", body.len());
}

#[test]
fn paging_away_and_back_after_more_than_ten_responses_restores_by_reference() {
    let det = ResponseDiffDetector::new();
    let mut agent = Agent::new(&det);
    let rows = people();
    agent.step(&page(&rows, 0, 10));
    for p in [1, 2, 3, 4, 5, 4, 3, 2, 3, 4, 5, 2] {
        agent.step(&page(&rows, p, 10));
    }
    let body = agent.step(&page(&rows, 0, 10));
    assert!(!body.contains("gridcell"), "{body}");
    assert!(body.contains("as last shown"), "{body}");
}

#[test]
fn a_cell_edit_in_a_resorted_grid_says_the_cell_and_its_row_only() {
    let det = ResponseDiffDetector::new();
    let mut agent = Agent::new(&det);
    let rows = people();
    agent.step(&page(&rows, 0, 10));
    let by_salary = sort(rows.clone(), |p| (p.salary, p.name.clone()));
    agent.step(&page(&by_salary, 0, 10));
    // The third-cheapest person gets a raise that moves them to fifth.
    let mut edited = by_salary.clone();
    let id = edited[2].id;
    edited[2].salary = edited[4].salary + 100;
    let edited = sort(edited, |p| (p.salary, p.name.clone()));
    assert_eq!(edited[4].id, id);
    let body = agent.step(&page(&edited, 0, 10));
    let lines = patch_lines(&body);
    assert_eq!(lines.len(), 3, "{body}");
    assert!(lines[0].starts_with("~ order [r"), "{body}");
    assert!(
        lines[1].starts_with("~ row ") && lines[1].ends_with(&format!("[ref=r{id}]")),
        "{body}"
    );
    assert!(
        lines[2].starts_with("~ gridcell ") && lines[2].ends_with(&format!("[ref=s{id}]")),
        "{body}"
    );
}

#[test]
fn a_cell_whose_text_another_row_has_keeps_its_own_row_through_sorts() {
    // Refs carried over from node ids that change on every render (a
    // framework rebuilding the table): two rows share "Engineering" and
    // "Oslo"; after each sort every cell keeps its row's refs.
    let mut rows = [
        ("Ada", "Engineering", "Oslo", 3),
        ("Ben", "Engineering", "Oslo", 1),
        ("Cy", "Sales", "Lima", 2),
    ];
    let mut base = 0;
    let mut render = |carrier: &RefCarrier,
                      rows: &[(&str, &str, &str, i32)],
                      order: &[usize],
                      named: bool| {
        let mut s = String::from("- grid [ref=n0]:\n  - rowgroup [ref=n1]:\n");
        for &k in order {
            let (name, dept, city, n) = rows[k];
            base += 10;
            let label = if named {
                format!(" \"{name} {dept} {city} {n}\"")
            } else {
                String::new()
            };
            s += &format!(
                "    - row{label} [ref=n{}]:\n      - gridcell \"{name}\" [ref=n{}]\n      - gridcell \"{dept}\" [ref=n{}]\n      - gridcell \"{city}\" [ref=n{}]\n",
                base,
                base + 1,
                base + 2,
                base + 3
            );
        }
        carrier
            .carry("grid", &parse_aria(&s, false).unwrap())
            .unwrap()
            .tree
    };
    let named = RefCarrier::new();
    let first = render(&named, &rows, &[0, 1, 2], true);
    let cells = |t: &response_diff::tree::Tree| -> Vec<(String, String)> {
        let mut out = Vec::new();
        for (_, row) in t.iter().filter(|(_, e)| e.role == "row") {
            for c in &row.children {
                let row_text: Vec<&str> = row.children.iter().map(|c| c.name.as_str()).collect();
                out.push((
                    format!("{} / {}", row_text.join(" "), c.name),
                    c.aria_ref.clone().unwrap(),
                ));
                out.push((
                    format!("{} / row", row_text.join(" ")),
                    row.aria_ref.clone().unwrap(),
                ));
            }
        }
        out.sort();
        out
    };
    let want = cells(&first);
    for order in [[1, 0, 2], [2, 1, 0], [0, 2, 1]] {
        assert_eq!(cells(&render(&named, &rows, &order, true)), want);
    }
    // Rows without a name (the text is only in their cells) too.
    let unnamed = RefCarrier::new();
    let want = cells(&render(&unnamed, &rows, &[0, 1, 2], false));
    for order in [[1, 0, 2], [2, 1, 0], [0, 2, 1]] {
        assert_eq!(cells(&render(&unnamed, &rows, &order, false)), want);
    }
    // A cell edited in place: its row is still itself (its other cells too).
    rows[2].2 = "Lisbon";
    let edited = cells(&render(&unnamed, &rows, &[0, 2, 1], false));
    let row_of = |c: &[(String, String)], who: &str| -> Vec<String> {
        c.iter()
            .filter(|(k, _)| k.starts_with(who) && !k.contains("Lima") && !k.contains("Lisbon"))
            .map(|(_, r)| r.clone())
            .collect()
    };
    assert_eq!(row_of(&edited, "Cy "), row_of(&want, "Cy "));
}

/// A 60-step session over two orderings and six pages; returns how many
/// row lines came back printed though the agent had been shown them, and
/// how many elements were restored by reference. Every step must rebuild
/// with the full history, and the detector stay under its cap.
fn long_session(cap: usize) -> (usize, usize) {
    let det = ResponseDiffDetector::with_config(DetectorConfig::default().max_stored_bytes(cap));
    let mut agent = Agent::new(&det);
    let rows = people();
    let by_salary = sort(rows.clone(), |p| (p.salary, p.name.clone()));
    let mut printed_again = 0;
    let mut restored = 0;
    for k in 0..60 {
        let (list, p) = match k % 3 {
            0 => (&rows, k % 6),
            1 => (&by_salary, (k * 5) % 6),
            _ => (&rows, (k * 7) % 6),
        };
        let aria = page(list, p, 10);
        let shown_before: Vec<String> = agent
            .history
            .iter()
            .chain(agent.view.iter())
            .cloned()
            .collect();
        let body = agent.step(&aria);
        assert!(
            det.memory_usage() <= cap,
            "{} bytes stored",
            det.memory_usage()
        );
        restored += body.matches("as last shown").count();
        printed_again += body
            .lines()
            .filter(|l| l.trim_start().starts_with("- row "))
            .filter(|l| shown_before.iter().any(|v| v.contains(l.trim_start())))
            .count();
    }
    (printed_again, restored)
}

#[test]
fn the_memory_cap_not_a_count_bounds_what_comes_back_by_reference() {
    // Under the default cap every row shown before comes back by
    // reference, however many responses ago it was shown.
    let (printed_again, restored) = long_session(DetectorConfig::default().max_stored_bytes);
    assert!(restored > 0);
    assert_eq!(printed_again, 0, "rows shown before were printed again");
    // A cap of 32 KiB (the archive may take 4 KiB, about 30 of the 60
    // rows): rows that left longest ago come back in full, never wrong.
    let (printed_again, restored) = long_session(32 * 1024);
    assert!(restored > 0, "nothing was restored by reference");
    assert!(
        printed_again > 0,
        "the cap never made a row come back in full"
    );
}

#[test]
fn the_shared_order_fixtures_are_what_the_writer_says_and_apply() {
    use response_diff::tree::{PatchOptions, snapshot_patch_with};
    for case in common::patch_cases("order.json") {
        let s = |k: &str| case.s(k);
        let seen = case.seen();
        let p =
            snapshot_patch_with(&s("old"), &s("new"), &PatchOptions::seen(seen.clone())).unwrap();
        assert_eq!(p.text, s("patch"), "{}", s("name"));
        assert_eq!(
            apply_patch_with(&s("old"), &s("patch"), &seen).unwrap(),
            s("new"),
            "{}",
            s("name")
        );
    }
}
