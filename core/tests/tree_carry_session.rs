//! A TodoMVC session whose page is rebuilt from scratch on every step (every
//! node id new, as frameworks that re-render whole lists do), followed
//! through snapshot patches three ways: node ids as refs, refs carried over,
//! and refs carried over with restore by reference. Every patch must rebuild
//! the page exactly; carried refs must not churn on unchanged content; the
//! token counts (o200k) are printed with `--nocapture`.

use response_diff::tree::{
    Element, PatchOptions, RefCarrier, Tree, apply_patch_with, parse_aria, snapshot_patch_with,
};

#[derive(Clone)]
struct Todo {
    text: &'static str,
    done: bool,
}

#[derive(Clone, Copy, PartialEq)]
enum Filter {
    All,
    Active,
    Completed,
}

/// The page as Playwright prints it, every node id from `base` on.
fn render(todos: &[Todo], filter: Filter, input: &str, base: usize) -> String {
    let mut id = base;
    let mut next = || {
        id += 1;
        format!("n{id}")
    };
    let mut s = format!("- generic [ref={}]:\n", next());
    s += &format!("  - banner [ref={}]:\n", next());
    s += &format!("    - heading \"todos\" [level=1] [ref={}]\n", next());
    let value = if input.is_empty() {
        String::new()
    } else {
        format!(": {input}")
    };
    s += &format!(
        "    - textbox \"What needs to be done?\" [active] [ref={}]{value}\n",
        next()
    );
    if !todos.is_empty() {
        s += &format!("  - main [ref={}]:\n", next());
        s += &format!("    - checkbox \"Mark all as complete\" [ref={}]\n", next());
        let shown: Vec<&Todo> = todos
            .iter()
            .filter(|t| match filter {
                Filter::All => true,
                Filter::Active => !t.done,
                Filter::Completed => t.done,
            })
            .collect();
        if !shown.is_empty() {
            s += &format!("    - list [ref={}]:\n", next());
            for t in shown {
                s += &format!("      - listitem [ref={}]:\n", next());
                let checked = if t.done { " [checked]" } else { "" };
                s += &format!("        - checkbox{checked} [ref={}]\n", next());
                s += &format!("        - text: {}\n", t.text);
                s += &format!("        - button \"Delete\" [ref={}]\n", next());
            }
        }
        let left = todos.iter().filter(|t| !t.done).count();
        s += &format!("  - contentinfo [ref={}]:\n", next());
        s += &format!(
            "    - text: {left} item{} left\n",
            if left == 1 { "" } else { "s" }
        );
        s += &format!("    - list [ref={}]:\n", next());
        for (name, url) in [
            ("All", "#/"),
            ("Active", "#/active"),
            ("Completed", "#/completed"),
        ] {
            s += &format!("      - listitem [ref={}]:\n", next());
            s += &format!("        - link \"{name}\" [ref={}]:\n", next());
            s += &format!("          - /url: {url}\n");
        }
        if todos.iter().any(|t| t.done) {
            s += &format!("    - button \"Clear completed\" [ref={}]\n", next());
        }
    }
    s.trim_end().to_owned()
}

fn session() -> Vec<(&'static str, String)> {
    let mut todos: Vec<Todo> = Vec::new();
    let mut filter = Filter::All;
    let mut steps = Vec::new();
    let mut k = 0;
    let mut snap = |name: &'static str, todos: &[Todo], filter: Filter, input: &str| {
        k += 1;
        steps.push((name, render(todos, filter, input, 1000 * k)));
    };
    snap("open", &todos, filter, "");
    for text in ["Buy milk", "Walk the dog", "Write the report"] {
        snap("type a todo", &todos, filter, text);
        todos.push(Todo { text, done: false });
        snap("press Enter", &todos, filter, "");
    }
    todos[1].done = true;
    snap("complete one", &todos, filter, "");
    filter = Filter::Active;
    snap("filter Active", &todos, filter, "");
    filter = Filter::Completed;
    snap("filter Completed", &todos, filter, "");
    filter = Filter::All;
    snap("filter All", &todos, filter, "");
    todos[0].text = "Buy oat milk";
    snap("edit one", &todos, filter, "");
    todos.remove(2);
    snap("delete one", &todos, filter, "");
    todos.retain(|t| !t.done);
    snap("clear completed", &todos, filter, "");
    steps
}

fn tokens(bpe: &tiktoken_rs::CoreBPE, s: &str) -> usize {
    bpe.encode_ordinary(s).len()
}

/// What an agent pays for one step: the patch when it is at most half the
/// snapshot (the response renderer's rule), else the snapshot.
fn cost(bpe: &tiktoken_rs::CoreBPE, patch: Option<&str>, full: &str) -> usize {
    let full_t = tokens(bpe, full);
    match patch {
        Some(p) if tokens(bpe, p) * 2 <= full_t => tokens(bpe, p),
        _ => full_t,
    }
}

#[test]
fn a_rerendered_todo_session_costs_what_changed() {
    let bpe = tiktoken_rs::o200k_base().unwrap();
    let steps = session();
    let carrier = RefCarrier::new();
    let (mut raw_total, mut carried_total, mut restored_total, mut full_total) = (0, 0, 0, 0);
    let mut seen: Vec<String> = Vec::new();
    let mut prev_raw: Option<String> = None;
    let mut churn = 0;
    let mut prev_tree: Option<Tree> = None;
    println!("| step | full | node ids | carried | carried + restore |");
    println!("|---|---:|---:|---:|---:|");
    for (name, raw) in &steps {
        let carried = carrier
            .carry("tab", &parse_aria(raw, false).unwrap())
            .unwrap()
            .tree;
        let text = carried.to_aria();
        // Ref churn: an element whose line and place did not change keeps its ref.
        if let Some(prev) = &prev_tree {
            // An element is the same when its ancestors' lines and its
            // whole subtree print the same without refs (the n-th such one).
            let key = |t: &Tree| -> Vec<(String, String)> {
                let strip = |e: &Element| {
                    let mut e = e.clone();
                    let mut stack = vec![&mut e];
                    while let Some(x) = stack.pop() {
                        x.aria_ref = None;
                        stack.extend(x.children.iter_mut());
                    }
                    e.to_aria()
                };
                let mut path: Vec<String> = Vec::new();
                let mut seen: std::collections::HashMap<String, usize> = Default::default();
                t.iter()
                    .filter_map(|(d, e)| {
                        path.truncate(d);
                        let k = format!("{} > {}", path.join(" > "), strip(e));
                        // An ancestor is its own line and its text (a row's item).
                        let mut line = e.clone();
                        line.children.retain(|c| c.is_text_node());
                        line.aria_ref = None;
                        path.push(line.to_aria());
                        let n = seen.entry(k.clone()).or_default();
                        *n += 1;
                        e.aria_ref.clone().map(|r| (format!("{k} #{n}"), r))
                    })
                    .collect()
            };
            let before: std::collections::HashMap<String, String> = key(prev).into_iter().collect();
            for (k, r) in key(&carried) {
                if before.get(&k).is_some_and(|b| *b != r) {
                    println!("ref churn at {name}: {k} is {r}, was {}", before[&k]);
                    churn += 1;
                }
            }
        }
        let full_t = tokens(&bpe, &text);
        let (raw_c, carried_c, restored_c) = match (&prev_raw, seen.last()) {
            (Some(old_raw), Some(old)) => {
                let plain = PatchOptions::default();
                let raw_p = snapshot_patch_with(old_raw, raw, &plain);
                let car_p = snapshot_patch_with(old, &text, &plain);
                let seen_refs: Vec<&str> = seen.iter().map(String::as_str).collect();
                let res_p = snapshot_patch_with(old, &text, &PatchOptions::seen(seen_refs.clone()));
                for p in [&car_p, &res_p].into_iter().flatten() {
                    assert_eq!(apply_patch_with(old, &p.text, &seen_refs).unwrap(), text);
                }
                if let Some(p) = &raw_p {
                    assert_eq!(apply_patch_with(old_raw, &p.text, &[]).unwrap(), *raw);
                }
                (
                    cost(&bpe, raw_p.as_ref().map(|p| p.text.as_str()), raw),
                    cost(&bpe, car_p.as_ref().map(|p| p.text.as_str()), &text),
                    cost(&bpe, res_p.as_ref().map(|p| p.text.as_str()), &text),
                )
            }
            _ => (full_t, full_t, full_t),
        };
        println!("| {name} | {full_t} | {raw_c} | {carried_c} | {restored_c} |");
        full_total += full_t;
        raw_total += raw_c;
        carried_total += carried_c;
        restored_total += restored_c;
        prev_raw = Some(raw.clone());
        seen.push(text);
        prev_tree = Some(carried);
    }
    println!("| total | {full_total} | {raw_total} | {carried_total} | {restored_total} |");
    assert_eq!(churn, 0, "refs changed on unchanged elements");
    assert!(restored_total <= carried_total && carried_total * 2 < raw_total);
}
