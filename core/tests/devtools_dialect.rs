//! chrome-devtools-mcp's snapshot dialect (issue 43): real
//! `take_snapshot` output parsed and printed back, carried, patched and
//! rendered in its own format.

use response_diff::tree::{
    Dialect, RefCarrier, Tree, apply_patch, apply_patch_with, parse_devtools, parse_snapshot,
    snapshot_patch,
};

fn fixture(name: &str) -> String {
    let path = format!(
        "{}/../tests/fixtures/devtools/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn real_snapshots_print_back_byte_for_byte() {
    for name in ["take_snapshot.txt", "click.txt", "verbose.txt"] {
        let text = fixture(name);
        let t = parse_snapshot(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(t.dialect, Dialect::DevTools, "{name}");
        assert_eq!(t.to_text(), text, "{name}");
        assert_eq!(
            t.to_aria(),
            text,
            "{name}: to_aria prints the tree's dialect"
        );
        assert_eq!(t.to_string(), text, "{name}");
    }
    let t = parse_devtools(&fixture("click.txt")).unwrap();
    let main = &t.roots[0].children[1];
    assert_eq!(main.role, "main");
    let add = main
        .children
        .iter()
        .find(|e| e.aria_ref.as_deref() == Some("1_49"))
        .unwrap();
    assert_eq!(
        (add.role.as_str(), add.name.as_str()),
        ("button", "Add to cart")
    );
    let states: Vec<String> = add.states.iter().map(|s| s.to_string()).collect();
    assert_eq!(states, ["[focusable]", "[focused]"]);
}

#[test]
fn verbose_snapshots_repeat_uids_without_harm() {
    let text = fixture("verbose.txt");
    let t = parse_devtools(&text).unwrap();
    // InlineTextBox nodes share one uid: it is no ref, but printed.
    let boxes: Vec<_> = t
        .iter()
        .filter(|(_, e)| e.role == "InlineTextBox")
        .map(|(_, e)| e)
        .collect();
    assert!(boxes.len() > 10, "InlineTextBox nodes share one uid");
    assert!(boxes.iter().all(|e| e.aria_ref.is_none()));
    assert!(t.iter().all(|(_, e)| e.aria_ref.as_deref() != Some("4_2")));
    assert_eq!(t.to_text(), text);
    // The carrier carries the tree; the shared uid stays as written.
    let c = RefCarrier::new();
    let shown = c.carry("tab", &t).unwrap();
    assert_eq!(shown.tree.to_text(), text);
    let again = c.carry("tab", &t).unwrap();
    assert_eq!(again.tree.to_text(), text);
    // A patch names the text boxes by address.
    let edited = text.replace("\"Cart (1)\"", "\"Cart (2)\"");
    let p = snapshot_patch(&text, &edited).expect("a patch");
    assert!(
        p.text.contains("uid=4_2 InlineTextBox \"Cart (2)\""),
        "{}",
        p.text
    );
    assert_eq!(apply_patch(&text, &p.text).unwrap(), edited);
}

/// TodoMVC (React) as chrome-devtools-mcp 1.11.0 prints it: the quote's
/// CSS `::before` and `::after` text share their node's uid, `1_12`.
const TODOMVC: &str = "uid=1_0 RootWebArea \"React • TodoMVC\" url=\"https://todomvc.com/examples/react/dist/\"
  uid=1_1 complementary
    uid=1_2 heading \"React\" level=\"3\"
    uid=1_3 link \"Source\" url=\"https://github.com/tastejs/todomvc/tree/gh-pages/examples/react\"
    uid=1_4 separator orientation=\"horizontal\"
    uid=1_5 heading \"React\" level=\"4\"
    uid=1_6 link \"React\" url=\"https://react.dev/\"
    uid=1_11 blockquote
      uid=1_12 \"“\"
      uid=1_13 \"React is a JavaScript library for creating user interfaces. Its core principles are declarative code, efficiency, and flexibility.\"
      uid=1_12 \"”\"
      uid=1_14 link \"React\" url=\"https://react.dev/\"
  uid=1_20 heading \"todos\" level=\"1\"
  uid=1_21 textbox \"New Todo Input\" focusable focused
  uid=1_22 main
    uid=1_23 checkbox \"Toggle All Input\" focusable
    uid=1_24 list
      uid=1_25 listitem level=\"1\"
        uid=1_26 checkbox \"Toggle Todo\" focusable
        uid=1_27 \"Buy milk\"
        uid=1_28 button \"×\" focusable
  uid=1_29 contentinfo
    uid=1_30 \"1 item left!\"
";

#[test]
fn a_uid_on_two_lines_is_no_ref_and_prints_as_written() {
    let t = parse_devtools(TODOMVC).unwrap();
    assert_eq!(t.to_text(), TODOMVC);
    let quote = &t.roots[0].children[0].children[5];
    let marks: Vec<_> = quote
        .children
        .iter()
        .map(|e| (e.name.as_str(), e.aria_ref.as_deref()))
        .collect();
    assert_eq!(
        marks,
        [
            ("“", None),
            (
                "React is a JavaScript library for creating user interfaces. Its core principles are declarative code, efficiency, and flexibility.",
                Some("1_13")
            ),
            ("”", None),
            ("React", Some("1_14")),
        ]
    );
    // The carrier carries it: a re-render gives the list new uids, the
    // agent keeps the ones it was shown; the shared uid prints as written.
    let c = RefCarrier::new();
    let shown = c.carry("tab", &t).unwrap();
    assert_eq!(shown.tree.to_text(), TODOMVC);
    let again = TODOMVC
        .replace("uid=1_25 ", "uid=3_25 ")
        .replace("uid=1_26 ", "uid=3_26 ")
        .replace("uid=1_27 ", "uid=3_27 ")
        .replace("uid=1_28 ", "uid=3_28 ");
    let carried = c.carry("tab", &parse_devtools(&again).unwrap()).unwrap();
    assert_eq!(carried.tree.to_text(), TODOMVC);
    assert_eq!(c.source_ref("tab", "1_26").as_deref(), Some("3_26"));
}

#[test]
fn a_change_beside_a_uid_on_two_lines_is_a_patch() {
    use response_diff::response::{DiffTarget, Snapshot, render_snapshot_section};
    let added = TODOMVC
        .replace(
            "        uid=1_28 button \"×\" focusable\n",
            "        uid=1_28 button \"×\" focusable\n      uid=2_1 listitem level=\"1\"\n        uid=2_2 checkbox \"Toggle Todo\" focusable\n        uid=2_3 \"Walk the dog\"\n        uid=2_4 button \"×\" focusable\n",
        )
        .replace("\"1 item left!\"", "\"2 items left!\"");
    let (detector, exp) = section_target();
    let target = Some(DiffTarget {
        detector: &detector,
        key: "todomvc",
    });
    render_snapshot_section(&Snapshot::aria(TODOMVC), &exp, target, None).unwrap();
    let patched = render_snapshot_section(&Snapshot::aria(&added), &exp, target, None)
        .unwrap()
        .unwrap();
    assert_eq!(patched.heading, "Latest page snapshot (patch)");
    assert!(patched.body.contains("+ after [1_25]:"), "{}", patched.body);
    assert!(!patched.body.contains("1_12"), "{}", patched.body);
    assert_eq!(apply_patch(TODOMVC, &patched.body).unwrap(), added);
    // The quote marks themselves change: named by address, printed with
    // their own uid.
    let curly = TODOMVC.replace("\"“\"", "\"«\"").replace("\"”\"", "\"»\"");
    let p = snapshot_patch(TODOMVC, &curly).expect("a patch");
    assert_eq!(
        p.text,
        "~ [1_11/1] uid=1_12 \"«\"\n~ [1_11/3] uid=1_12 \"»\""
    );
    assert_eq!(apply_patch(TODOMVC, &p.text).unwrap(), curly);
    // A third line with the uid, and the uid becoming a ref again.
    let third = TODOMVC.replace(
        "      uid=1_14 link",
        "      uid=1_12 \"…\"\n      uid=1_14 link",
    );
    let once = TODOMVC.replace("      uid=1_12 \"”\"\n", "");
    for (old, new) in [
        (TODOMVC, third.as_str()),
        (TODOMVC, once.as_str()),
        (once.as_str(), TODOMVC),
    ] {
        if let Some(p) = snapshot_patch(old, new) {
            assert_eq!(apply_patch(old, &p.text).unwrap(), new, "{}", p.text);
        }
    }
}

#[test]
fn quotes_and_newlines_in_names_and_values_round_trip() {
    for text in [
        "uid=1_0 RootWebArea \"He said \"hi\"\" url=\"http://127.0.0.1/?q=\"a b\"\"\n",
        "uid=1_0 RootWebArea \"Form\"\n  uid=1_5 textbox \"Notes\" focusable focused multiline value=\"first line\nsecond \"quoted\" line\n\nlast\"\n  uid=1_6 button \"Save\"\n",
        "uid=1_0 RootWebArea \"A\nB\" url=\"x\"\n  uid=1_1 \"two\nlines\"\n",
        "uid=1_0 RootWebArea \"x\"\n  uid=1_3 link \"Home\" url=\"/\" [selected in the DevTools Elements panel]\n",
    ] {
        let t = parse_snapshot(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        assert_eq!(t.to_text(), text);
    }
}

#[test]
fn malformed_input_is_an_error_not_a_guess() {
    for text in [
        "uid=1_0 RootWebArea \"x\"",
        "uid=1_0 RootWebArea \"x\"\n   uid=1_1 button\n",
        "uid=1_0 RootWebArea \"x\"\n    uid=1_1 button\n",
        "uid=1_0 RootWebArea \"unterminated\n",
        "uid=1_0 none\n",
        "uid=\n",
    ] {
        assert!(parse_devtools(text).is_err(), "{text:?}");
        assert!(apply_patch(text, "~ uid=1_0 RootWebArea \"y\"").is_err());
    }
    // Nothing panics on arbitrary slices of a real snapshot.
    let text = fixture("click.txt");
    for cut in (0..text.len()).step_by(97) {
        if let Some(s) = text.get(cut..) {
            let _ = parse_snapshot(s).map(|t| assert_eq!(t.to_text(), s));
        }
        if let Some(s) = text.get(..cut) {
            let _ = parse_snapshot(s).map(|t| assert_eq!(t.to_text(), s));
        }
    }
}

/// The shop's product list re-rendered: every row gets new uids.
fn rerendered(text: &str, snapshot: usize) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let body = line.trim_start();
        let indent = &line[..line.len() - body.len()];
        let keep = indent.len() != 4 || !body.starts_with("uid=1_") || {
            let n: usize = body[6..body.find(' ').unwrap_or(body.len())]
                .parse()
                .unwrap_or(0);
            !(45..=188).contains(&n)
        };
        if keep {
            out.push_str(line);
        } else {
            let rest = &body[body.find(' ').unwrap_or(body.len())..];
            let n: usize = body[6..body.len() - rest.len()].parse().unwrap();
            out.push_str(&format!("{indent}uid={snapshot}_{n}{rest}"));
        }
        out.push('\n');
    }
    out
}

#[test]
fn carrying_keeps_the_uids_the_agent_was_shown() {
    let first = fixture("take_snapshot.txt");
    let again = rerendered(&first, 5);
    assert_ne!(first, again);
    let c = RefCarrier::new();
    let shown = c.carry("tab", &parse_snapshot(&first).unwrap()).unwrap();
    assert_eq!(shown.tree.to_text(), first);
    let carried = c.carry("tab", &parse_snapshot(&again).unwrap()).unwrap();
    // The agent keeps seeing the uids it was shown, in the same dialect.
    assert_eq!(carried.tree.dialect, Dialect::DevTools);
    assert_eq!(carried.tree.to_text(), first);
    // ...and the host acts on the upstream uid that now stands there.
    assert_eq!(c.source_ref("tab", "1_49").as_deref(), Some("5_49"));
    assert!(carried.to_json().contains("uid=1_0 RootWebArea"));
    // A new element gets a uid-shaped ref no other element has.
    let grown = again.replace(
        "    uid=5_49 button \"Add to cart\"\n",
        "    uid=5_49 button \"Add to cart\"\n    uid=1_49 button \"Wishlist\"\n",
    );
    let t = c.carry("tab", &parse_snapshot(&grown).unwrap()).unwrap();
    let refs: Vec<&str> = t
        .tree
        .iter()
        .filter_map(|(_, e)| e.aria_ref.as_deref())
        .collect();
    let mut unique = refs.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(refs.len(), unique.len(), "no uid on two elements");
    let wish = t
        .tree
        .iter()
        .find(|(_, e)| e.name == "Wishlist")
        .and_then(|(_, e)| e.aria_ref.clone())
        .unwrap();
    assert_ne!(wish, "1_49");
    assert!(wish.contains('_'), "{wish}");
    assert_eq!(c.source_ref("tab", &wish).as_deref(), Some("1_49"));
    let _: Tree = t.tree;
}

#[test]
fn a_click_is_a_patch_in_devtools_lines() {
    let old = fixture("take_snapshot.txt");
    let new = fixture("click.txt");
    let p = snapshot_patch(&old, &new).expect("a patch");
    println!("{}", p.text);
    assert_eq!(apply_patch(&old, &p.text).unwrap(), new);
    assert!(p.text.len() * 10 < new.len());
}

fn section_target() -> (
    response_diff::diff::ResponseDiffDetector,
    response_diff::expectation::ResolvedExpectation,
) {
    use response_diff::expectation::Expectation;
    let on = Expectation::from_json(r#"{"diffOptions": {"enabled": true}}"#).unwrap();
    let exp = Expectation::resolve("click", &[&on]).unwrap();
    (response_diff::diff::ResponseDiffDetector::default(), exp)
}

#[test]
fn the_snapshot_section_is_unfenced_with_devtools_headings() {
    use response_diff::response::{DiffTarget, Snapshot, render_snapshot_section};
    let (detector, exp) = section_target();
    let target = Some(DiffTarget {
        detector: &detector,
        key: "page-1",
    });
    let before = fixture("take_snapshot.txt");
    let after = fixture("click.txt");
    let first = render_snapshot_section(&Snapshot::aria(&before), &exp, target, None)
        .unwrap()
        .unwrap();
    assert_eq!(first.heading, "Latest page snapshot");
    assert_eq!(
        first.body, before,
        "the text as chrome-devtools-mcp prints it"
    );
    let patched = render_snapshot_section(&Snapshot::aria(&after), &exp, target, None)
        .unwrap()
        .unwrap();
    assert_eq!(patched.heading, "Latest page snapshot (patch)");
    assert!(!patched.body.contains("```"), "{}", patched.body);
    let expected = snapshot_patch(&before, &after).unwrap().text;
    assert_eq!(patched.body, expected);
    assert!(patched.body.contains("~ uid=1_24 link \"Cart (1)\""));
    assert!(patched.body.ends_with("~ focus [1_49]"));
    assert_eq!(apply_patch(&before, &patched.body).unwrap(), after);
    assert_eq!(
        patched.to_markdown(),
        format!("### Latest page snapshot (patch)\n{expected}")
    );
    let same = render_snapshot_section(&Snapshot::aria(&after), &exp, target, None)
        .unwrap()
        .unwrap();
    assert_eq!(same.heading, "Latest page snapshot");
    assert_eq!(same.body.lines().count(), 1, "{}", same.body);
    assert!(
        same.body
            .starts_with("No changes since the previous response")
    );
}

#[test]
fn rows_paged_away_come_back_by_reference() {
    use response_diff::response::{DiffTarget, Snapshot, render_snapshot_section};
    let (detector, exp) = section_target();
    let target = Some(DiffTarget {
        detector: &detector,
        key: "page-1",
    });
    let all = fixture("click.txt");
    // A search narrows the list to its first product, then is cleared.
    let narrowed: String = all
        .lines()
        .filter(|l| {
            let n: usize = l
                .trim_start()
                .strip_prefix("uid=1_")
                .and_then(|r| r.split(' ').next())
                .and_then(|n| n.parse().ok())
                .unwrap_or(0);
            !(l.starts_with("    uid=1_") && (51..=188).contains(&n))
        })
        .map(|l| format!("{l}\n"))
        .collect();
    for text in [&all, &narrowed] {
        render_snapshot_section(&Snapshot::aria(text), &exp, target, None).unwrap();
    }
    let back = render_snapshot_section(&Snapshot::aria(&all), &exp, target, None)
        .unwrap()
        .unwrap();
    assert_eq!(back.heading, "Latest page snapshot (patch)");
    assert!(back.body.contains("as last shown"), "{}", back.body);
    assert!(back.body.len() * 5 < all.len(), "{}", back.body);
    assert_eq!(
        back.body.lines().count(),
        1,
        "one line brings 138 elements back"
    );
    assert_eq!(
        apply_patch_with(&narrowed, &back.body, &[&all]).unwrap(),
        all
    );
}

/// Rebuilds tests/fixtures/patches/devtools.json from captured pairs
/// (`DEVTOOLS_CASES=cases.json cargo test -p response-diff --test
/// devtools_dialect -- --ignored`; the pairs come from a capture script
/// like /work/scratch/cdm/capture-dialect.mjs: `[{name, old, new}]`).
#[test]
#[ignore]
fn write_the_devtools_patch_fixture() {
    let Ok(path) = std::env::var("DEVTOOLS_CASES") else {
        return;
    };
    let pairs: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut cases = Vec::new();
    for pair in pairs.as_array().unwrap() {
        let (old, new) = (pair["old"].as_str().unwrap(), pair["new"].as_str().unwrap());
        let name = pair["name"].as_str().unwrap();
        let p = snapshot_patch(old, new).unwrap_or_else(|| panic!("no patch: {name}"));
        cases.push(serde_json::json!({
            "name": name, "old": old, "new": new, "patch": p.text, "seen": [],
        }));
    }
    let fixture = serde_json::json!({
        "about": "Snapshot patches over chrome-devtools-mcp's snapshot text (issue 43): real take_snapshot output of chrome-devtools-mcp 1.11.0 on the shop and TodoMVC before and after each step. A patch over such a snapshot names elements by uid and prints element lines in chrome-devtools-mcp's own format (`~ uid=1_24 link \"Cart (1)\" url=\"…\"`, insertions as indented devtools lines, `~ focus [1_49]` for a moved `focusable focused`). Each binding checks that the writer gives exactly `patch` and that applying `patch` to `old` with `seen` gives `new`, byte for byte (every line of either ends in a newline).",
        "cases": cases,
    });
    let out = format!(
        "{}/../tests/fixtures/patches/devtools.json",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::write(out, serde_json::to_string_pretty(&fixture).unwrap() + "\n").unwrap();
}

#[test]
fn the_shared_devtools_fixtures_are_what_the_writer_says_and_apply() {
    let path = format!(
        "{}/../tests/fixtures/patches/devtools.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let fixture: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let cases = fixture["cases"].as_array().unwrap();
    assert!(cases.len() >= 5);
    for case in cases {
        let s = |k: &str| case[k].as_str().unwrap();
        let seen: Vec<&str> = case["seen"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        let p = response_diff::tree::snapshot_patch_with(
            s("old"),
            s("new"),
            &response_diff::tree::PatchOptions::seen(seen.clone()),
        )
        .unwrap_or_else(|| panic!("no patch: {}", s("name")));
        assert_eq!(p.text, s("patch"), "{}", s("name"));
        assert!(p.text.len() < s("new").len(), "{}", s("name"));
        assert_eq!(
            apply_patch_with(s("old"), s("patch"), &seen).unwrap(),
            s("new"),
            "{}",
            s("name")
        );
    }
}

#[test]
fn store_reads_print_in_the_devtools_dialect() {
    use response_diff::tree::{DiskStore, SinceStore, TreeDiffFormat, TreeDiffOptions};
    let text = fixture("take_snapshot.txt");
    let tree = parse_snapshot(&text).unwrap();
    let opts = TreeDiffOptions::default();
    let mem = SinceStore::new().read("page", tree.clone(), None, &opts);
    assert!(mem.render(TreeDiffFormat::Agent).ends_with(&text));
    let dir = std::env::temp_dir().join(format!("rd-devtools-store-{}", std::process::id()));
    let disk = DiskStore::open(&dir).unwrap();
    let first = disk.read("page", &tree, None, &opts).unwrap();
    assert!(first.render(TreeDiffFormat::Agent).ends_with(&text));
    // A `since` read whose changes outgrow the tree sends the tree as
    // chrome-devtools-mcp prints it (the stored one is kept as its text).
    let other = parse_snapshot("uid=9_0 RootWebArea \"Elsewhere\"\n").unwrap();
    let again = disk.read("page", &other, Some(first.ts), &opts).unwrap();
    let shown = again.render(TreeDiffFormat::Agent);
    assert!(
        shown.ends_with("uid=9_0 RootWebArea \"Elsewhere\"\n"),
        "{shown}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// swagger-ui's example values are text with newlines (`uid=2_43 "[` then
/// `"` on the next line): inserted or changed, they still go as a patch,
/// the rest of each name printed as it is.
#[test]
fn names_with_newlines_go_in_a_patch() {
    let old = "uid=1_0 RootWebArea \"API\" url=\"http://127.0.0.1/\"\n  uid=1_1 button \"Try it out\"\n  uid=1_2 \"Example Value\"\n";
    let rows: String = (0..30)
        .map(|k| format!("  uid=1_{} button \"Operation {k}\"\n", k + 3))
        .collect();
    let old = format!("{old}{rows}");
    let example = "  uid=2_0 tabpanel \"Example Value\"\n    uid=2_1 \"[\n\"\n    uid=2_2 \"  {\n\"\n    uid=2_3 \"\"Rex\"\"\n    uid=2_4 \"\n]\"\n";
    let new = old.replacen(
        "  uid=1_2 \"Example Value\"\n",
        &format!("  uid=1_2 \"Example Value\"\n{example}"),
        1,
    );
    let p = snapshot_patch(&old, &new).expect("a patch");
    assert!(p.text.contains("uid=2_1 \"[\n\""), "{}", p.text);
    assert_eq!(apply_patch(&old, &p.text).unwrap(), new);
    // A changed name with a newline in it.
    let changed = new.replace("uid=2_3 \"\"Rex\"\"", "uid=2_3 \"\"Rex\",\n\"");
    let p = snapshot_patch(&new, &changed).expect("a patch");
    assert!(p.text.starts_with("~ uid=2_3"), "{}", p.text);
    assert_eq!(apply_patch(&new, &p.text).unwrap(), changed);
}

/// A section of a flat page collapsed: the previous snapshot's consecutive
/// siblings go as one run, `- [first .. last]`.
#[test]
fn a_run_of_siblings_is_removed_by_its_ends() {
    let rows: String = (0..40)
        .map(|k| format!("  uid=3_{k} \"Row {k}\"\n"))
        .collect();
    let head = "uid=1_0 RootWebArea \"API\" url=\"http://127.0.0.1/\"\n  uid=1_1 button \"GET /pets\" expandable expanded\n";
    let tail = "  uid=1_2 button \"POST /pets\" expandable\n";
    let (open, closed) = (
        format!("{head}{rows}{tail}"),
        format!("{}{tail}", head.replace(" expanded", "")),
    );
    let p = snapshot_patch(&open, &closed).expect("a patch");
    assert!(p.text.contains("- [3_0 .. 3_39]"), "{}", p.text);
    assert_eq!(apply_patch(&open, &p.text).unwrap(), closed);
}

#[test]
fn a_live_region_renamed_in_place_keeps_its_uids() {
    // gridjs re-creates its "Page 1 of 6" status when a row is added: every
    // uid in it is new, and one word of it changed (real chrome-devtools-mcp
    // lines from the bench's grid session).
    let status = |snap: usize, pages: usize, total: usize| {
        let words = ["Showing", " ", "1", " ", "to", " ", "10", " ", "of", " "];
        let mut s = format!(
            "uid={snap}_0 RootWebArea \"People\" url=\"http://127.0.0.1:8080/grid/\"\n  uid={snap}_1 complementary\n    uid={snap}_2 \"Ada Byron\"\n    uid={snap}_3 status \"Page 1 of {pages}\" atomic live=\"polite\" relevant=\"additions text\"\n"
        );
        for (k, w) in words
            .iter()
            .chain([&total.to_string().as_str(), &" ", &"results"])
            .enumerate()
        {
            s += &format!("      uid={snap}_{} \"{w}\"\n", 10 + k);
        }
        s
    };
    let c = RefCarrier::new();
    let first = status(1, 6, 60);
    c.carry("tab", &parse_snapshot(&first).unwrap()).unwrap();
    let carried = c
        .carry("tab", &parse_snapshot(&status(19, 7, 61)).unwrap())
        .unwrap();
    // The status and its words keep the uids the agent was shown; "60"
    // became "61" in place.
    assert_eq!(carried.tree.to_text(), status(1, 7, 61));
    let p = snapshot_patch(&first, &carried.tree.to_text()).expect("a patch");
    assert_eq!(p.text.lines().count(), 2, "{}", p.text);
}

#[test]
fn look_alike_siblings_keep_their_places_when_rows_are_inserted() {
    // jsoneditor's tree as chrome-devtools-mcp prints it: every row's text,
    // toggle and drag handle are siblings under one parent, and every
    // toggle and handle looks alike. A row expanded in the middle (all
    // uids new after the re-render) must not shift the look-alikes after it.
    let rows = |snap: usize, names: &[&str]| {
        let mut s = format!("uid={snap}_0 RootWebArea \"Tree\" url=\"http://127.0.0.1:8080/\"\n");
        for (k, name) in names.iter().enumerate() {
            s += &format!("  uid={snap}_{} \"{name}\"\n", 3 * k + 1);
            s += &format!("  uid={snap}_{} button \"►\"\n", 3 * k + 2);
            s += &format!("  uid={snap}_{} button \"Drag\"\n", 3 * k + 3);
        }
        s
    };
    let c = RefCarrier::new();
    let first = rows(1, &["a", "b", "c", "d"]);
    c.carry("tab", &parse_snapshot(&first).unwrap()).unwrap();
    let carried = c
        .carry(
            "tab",
            &parse_snapshot(&rows(2, &["a", "x", "y", "b", "c", "d"])).unwrap(),
        )
        .unwrap()
        .tree
        .to_text();
    // "b", "c" and "d" keep their toggles and handles.
    for (name, uid) in [("b", 4), ("c", 7), ("d", 10)] {
        let line = format!(
            "  uid=1_{uid} \"{name}\"\n  uid=1_{} button \"►\"\n  uid=1_{} button \"Drag\"\n",
            uid + 1,
            uid + 2
        );
        assert!(carried.contains(&line), "{name}:\n{carried}");
    }
    // So the patch only inserts the two rows.
    let p = snapshot_patch(&first, &carried).expect("a patch");
    assert!(!p.text.contains("order"), "{}", p.text);
    assert_eq!(p.text.lines().count(), 7, "{}", p.text);
}

#[test]
fn look_alikes_retired_together_come_back_in_their_places() {
    // swagger-ui's response as chrome-devtools-mcp prints it: the body's and
    // the headers' pieces are siblings, and every `": "` looks alike. The
    // response goes, enough snapshots pass for it to leave the carrier's
    // recent views, and a shorter body comes back with new uids: the
    // headers' pieces take the headers' uids, not the body's.
    let page = |snap: usize, body: &[&str]| {
        let mut s = format!(
            "uid={snap}_0 RootWebArea \"API\" url=\"http://127.0.0.1:8080/\"\n  uid={snap}_1 button \"Execute\"\n"
        );
        if body.is_empty() {
            return s;
        }
        let mut pieces: Vec<&str> = Vec::new();
        for key in body {
            let value = match *key {
                "id" => "1",
                "name" => "Rex",
                _ => "dog",
            };
            pieces.extend([*key, ": ", value]);
        }
        pieces.push("Response headers");
        for header in ["content-type", "date"] {
            pieces.extend([header, ": ", "x"]);
        }
        for (k, text) in pieces.iter().enumerate() {
            s += &format!("  uid={snap}_{} \"{text}\"\n", k + 2);
        }
        s
    };
    let c = RefCarrier::new();
    c.carry(
        "tab",
        &parse_snapshot(&page(1, &["id", "name", "tag"])).unwrap(),
    )
    .unwrap();
    for snap in 2..12 {
        c.carry("tab", &parse_snapshot(&page(snap, &[])).unwrap())
            .unwrap();
    }
    let carried = c
        .carry("tab", &parse_snapshot(&page(20, &["id"])).unwrap())
        .unwrap()
        .tree
        .to_text();
    let expected = "uid=1_0 RootWebArea \"API\" url=\"http://127.0.0.1:8080/\"\n  uid=1_1 button \"Execute\"\n  uid=1_2 \"id\"\n  uid=1_3 \": \"\n  uid=1_4 \"1\"\n  uid=1_11 \"Response headers\"\n  uid=1_12 \"content-type\"\n  uid=1_13 \": \"\n  uid=1_14 \"x\"\n  uid=1_15 \"date\"\n  uid=1_16 \": \"\n  uid=1_17 \"x\"\n";
    assert_eq!(carried, expected);
}
