//! Tree diff on captured before/after pairs: one test per peer flaw we fix,
//! golden renderings, YAML validity, and the apply law on every pair.

use response_diff::tree::{
    Element, Field, Filter, IdentityMode, Selector, Tree, TreeDiff, TreeDiffFormat,
    TreeDiffOptions, diff, diff_with, parse_aria,
};
use std::path::PathBuf;

fn fixture(name: &str) -> Tree {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/aria")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    parse_aria(&text, false).unwrap()
}

fn case(n: u32) -> (Tree, Tree) {
    (
        fixture(&format!("case{n:02}.before.yml")),
        fixture(&format!("case{n:02}.after.yml")),
    )
}

fn opts(identity: IdentityMode) -> TreeDiffOptions {
    TreeDiffOptions {
        identity,
        ..TreeDiffOptions::default()
    }
}

const MODES: [IdentityMode; 2] = [IdentityMode::Refs, IdentityMode::Content];

fn strip_refs(t: &Tree) -> Tree {
    let mut t = t.clone();
    let mut stack: Vec<&mut Element> = t.roots.iter_mut().collect();
    while let Some(e) = stack.pop() {
        e.aria_ref = None;
        stack.extend(e.children.iter_mut());
    }
    t
}

/// Topmost removed elements (what renderers show).
fn removed_roots(d: &TreeDiff) -> usize {
    d.removed.iter().filter(|r| !r.parent_removed).count()
}

fn parse(s: &str) -> Tree {
    parse_aria(s, false).unwrap()
}

// --- peer flaws ------------------------------------------------------------

#[test]
fn three_identical_rows_becoming_two_is_one_removal() {
    let (before, after) = case(1);
    for mode in MODES {
        let d = diff_with(&before, &after, &opts(mode));
        assert_eq!(removed_roots(&d), 1, "{mode:?}: {}", d.to_agent());
        assert!(
            d.added.is_empty() && d.changed.is_empty(),
            "{mode:?}: {}",
            d.to_agent()
        );
    }
    // Without refs at all, duplicates still count right.
    let d = diff(&strip_refs(&before), &strip_refs(&after));
    assert_eq!(
        (removed_roots(&d), d.added.len(), d.changed.len()),
        (1, 0, 0)
    );
    let d = diff(
        &parse("- row: x\n- row: x\n- row: x"),
        &parse("- row: x\n- row: x"),
    );
    assert_eq!((d.removed.len(), d.added.len(), d.changed.len()), (1, 0, 0));
    assert_eq!(d.unchanged_count, 2);
}

#[test]
fn renamed_button_is_one_change_not_remove_and_add() {
    let (before, after) = case(2);
    // Content mode: exactly one change, the name.
    let d = diff_with(&before, &after, &opts(IdentityMode::Content));
    assert_eq!(d.changed.len(), 1, "{}", d.to_agent());
    assert_eq!(d.changed[0].field, Field::Name);
    assert_eq!(d.changed[0].from.as_deref(), Some("Add to cart"));
    assert_eq!(d.changed[0].to.as_deref(), Some("Added to cart"));
    assert!(d.added.is_empty() && d.removed.is_empty());
    // Refs mode: Playwright gave the renamed button a new ref; still one
    // element changed (name, and the ref the agent must use now).
    let d = diff(&before, &after);
    assert!(
        d.added.is_empty() && d.removed.is_empty(),
        "{}",
        d.to_agent()
    );
    let fields: Vec<_> = d.changed.iter().map(|c| c.field.clone()).collect();
    assert_eq!(fields, [Field::Name, Field::Ref]);
    assert_eq!(
        d.to_agent().lines().next().unwrap(),
        r#"~ [e56] button "Added to cart" (was "Add to cart") (ref was e25)"#
    );
    // Without refs.
    let d = diff(
        &parse("- toolbar:\n  - button \"Save\"\n  - button \"Close\""),
        &parse("- toolbar:\n  - button \"Saved\"\n  - button \"Close\""),
    );
    assert_eq!((d.added.len(), d.removed.len(), d.changed.len()), (0, 0, 1));
}

#[test]
fn value_change_is_a_changed_value() {
    let (before, after) = case(3);
    for mode in MODES {
        let d = diff_with(&before, &after, &opts(mode));
        assert_eq!(d.changed.len(), 1, "{mode:?}");
        let c = &d.changed[0];
        assert_eq!(c.field, Field::Value);
        assert_eq!(
            (c.from.as_deref(), c.to.as_deref()),
            (Some("running shoes"), Some("trail shoes"))
        );
        assert!(d.added.is_empty() && d.removed.is_empty());
        assert_eq!(
            d.to_agent().lines().next().unwrap(),
            r#"~ [e14] searchbox "Search products" value="trail shoes" (was "running shoes")"#
        );
    }
}

#[test]
fn item_inserted_in_the_middle_is_one_addition_and_nothing_else() {
    let (before, after) = case(4);
    let pairs = [
        (before.clone(), after.clone()),
        (strip_refs(&before), strip_refs(&after)),
    ];
    for (b, a) in &pairs {
        for mode in MODES {
            let d = diff_with(b, a, &opts(mode));
            assert_eq!(d.added.len(), 1, "{mode:?}: {}", d.to_agent());
            assert!(
                d.removed.is_empty() && d.changed.is_empty(),
                "{}",
                d.to_agent()
            );
            assert_eq!(d.added[0].element.value.as_deref(), Some("Honeycrisp"));
            assert_eq!(d.unchanged_count, b.len());
        }
    }
}

#[test]
fn renumbered_refs_with_equal_content_are_no_change_in_content_mode() {
    let (before, after) = case(5);
    let d = diff_with(&before, &after, &opts(IdentityMode::Content));
    assert!(d.is_empty(), "{}", d.to_agent());
    assert_eq!(d.unchanged_count, after.len());
    assert_eq!(d.refs_renumbered, 54);
    // Trusting refs, the agent is told each new ref instead (lossless).
    let d = diff(&before, &after);
    assert!(d.added.is_empty() && d.removed.is_empty());
    assert!(d.changed.iter().all(|c| c.field == Field::Ref));
    assert_eq!(d.changed.len(), 54);
}

#[test]
fn closed_dialog_is_one_removed_subtree() {
    let (before, after) = case(6);
    let d = diff(&before, &after);
    assert_eq!(removed_roots(&d), 1);
    assert_eq!(d.removed.len(), 7, "every removed element is in the model");
    assert_eq!(
        d.to_agent(),
        "- [e6] dialog \"Delete account?\"\n# 8 elements unchanged"
    );
}

// --- golden renderings -----------------------------------------------------

#[test]
fn golden_agent_yaml_json_for_an_add_to_cart() {
    let (before, after) = case(7);
    let d = diff(&before, &after);
    insta::assert_snapshot!("case07_agent", d.to_agent());
    insta::assert_snapshot!(
        "case07_yaml",
        d.to_yaml(1_700_000_000_456, Some(1_700_000_000_123))
    );
    insta::assert_snapshot!(
        "case07_json",
        d.to_json(1_700_000_000_456, Some(1_700_000_000_123))
    );
    let (before, after) = case(8);
    insta::assert_snapshot!("case08_agent", diff(&before, &after).to_agent());
}

#[test]
fn renderings_are_deterministic() {
    for n in 1..=8 {
        let (b, a) = case(n);
        let d1 = diff(&b, &a);
        let d2 = diff(&b.clone(), &a.clone());
        for f in [
            TreeDiffFormat::Agent,
            TreeDiffFormat::Yaml,
            TreeDiffFormat::Json,
        ] {
            assert_eq!(d1.render(f, 2, Some(1)), d2.render(f, 2, Some(1)));
        }
    }
}

// --- YAML / JSON validity --------------------------------------------------

fn yaml_doc(text: &str) -> yaml_rust2::Yaml {
    let docs = yaml_rust2::YamlLoader::load_from_str(text)
        .unwrap_or_else(|e| panic!("invalid YAML: {e}\n{text}"));
    assert_eq!(docs.len(), 1);
    docs.into_iter().next().unwrap()
}

#[test]
fn yaml_and_json_parse_back_with_the_right_counts() {
    for n in 1..=8 {
        let (b, a) = case(n);
        for mode in MODES {
            let d = diff_with(&b, &a, &opts(mode));
            let y = yaml_doc(&d.to_yaml(1_700_000_000_001, Some(1_700_000_000_000)));
            assert_eq!(y["ts"].as_i64(), Some(1_700_000_000_001));
            assert_eq!(y["since"].as_i64(), Some(1_700_000_000_000));
            let dy = &y["diff"];
            assert_eq!(dy["added"].as_vec().unwrap().len(), d.added.len());
            assert_eq!(dy["removed"].as_vec().unwrap().len(), removed_roots(&d));
            assert_eq!(dy["changed"].as_vec().unwrap().len(), d.changed.len());
            assert_eq!(
                dy["unchanged_count"].as_i64(),
                Some(d.unchanged_count as i64)
            );
            for (c, yc) in d.changed.iter().zip(dy["changed"].as_vec().unwrap()) {
                assert_eq!(yc["from"].as_str(), c.from.as_deref());
                assert_eq!(yc["to"].as_str(), c.to.as_deref());
                assert_eq!(yc["name"].as_str(), Some(c.name.as_str()));
            }
            let j: serde_json::Value =
                serde_json::from_str(&d.to_json(1_700_000_000_001, Some(1_700_000_000_000)))
                    .unwrap();
            assert_eq!(j["diff"]["added"].as_array().unwrap().len(), d.added.len());
            assert_eq!(
                j["diff"]["unchanged_count"].as_u64(),
                Some(d.unchanged_count as u64)
            );
        }
    }
}

/// A YAML document as JSON data, keys in order.
fn yaml_as_json(y: &yaml_rust2::Yaml) -> serde_json::Value {
    use serde_json::Value;
    use yaml_rust2::Yaml;
    match y {
        Yaml::String(s) => Value::String(s.clone()),
        Yaml::Integer(i) => Value::from(*i),
        Yaml::Boolean(b) => Value::Bool(*b),
        Yaml::Null => Value::Null,
        Yaml::Array(a) => Value::Array(a.iter().map(yaml_as_json).collect()),
        Yaml::Hash(h) => Value::Object(
            h.iter()
                .map(|(k, v)| (k.as_str().expect("string key").to_owned(), yaml_as_json(v)))
                .collect(),
        ),
        other => panic!("unexpected YAML value {other:?}"),
    }
}

/// JSON and YAML are written by different code (serde; by hand): they
/// must carry the same keys in the same order with the same values.
#[test]
fn yaml_and_json_carry_the_same_data() {
    let mut pairs: Vec<(Tree, Tree)> = (1..=8).map(case).collect();
    // Every kind of field: states, props, bounds, descriptions, regex
    // names, unnamed removals with a parent, renumbered refs.
    pairs.push((
        parse("- list \"Cart\" [ref=e1]:\n  - listitem: Tea\n  - checkbox \"Gift\" [ref=e3]\n  - link /Sa.e/ [ref=e4]"),
        parse("- list \"Cart\" [ref=e1]:\n  - checkbox \"Gift\" [checked] [ref=e3]\n  - link /Sa.e/ [ref=e4]:\n    - /url: /save\n  - button /Pa+y/ [disabled] [level=2] [ref=e5]:\n    - /url: /pay"),
    ));
    let mut b = Element::new("button", "Go");
    b.description = Some("Starts: now".into());
    b.bounds = Some(response_diff::tree::Bounds {
        x: 1.0,
        y: 2.5,
        width: 3.0,
        height: 4.0,
    });
    pairs.push((Tree::default(), Tree::new(vec![b])));
    pairs.push((
        parse("- button \"Save\" [ref=e5]"),
        parse("- button \"Save\" [ref=e60]"),
    ));
    for (before, after) in &pairs {
        for mode in MODES {
            let d = diff_with(before, after, &opts(mode));
            for since in [Some(1_700_000_000_000), None] {
                let y = yaml_doc(&d.to_yaml(1_700_000_000_001, since));
                let j: serde_json::Value =
                    serde_json::from_str(&d.to_json(1_700_000_000_001, since)).unwrap();
                assert_eq!(yaml_as_json(&y), j, "{}", d.to_agent());
            }
        }
    }
}

#[test]
fn yaml_quotes_every_risky_string() {
    let risky = [
        "yes",
        "No",
        "null",
        "~",
        "123",
        "1_000",
        "0x1F",
        "1e5",
        ".5",
        "-",
        "- dash",
        "a: b",
        "ends:",
        "#x",
        "a #b",
        "[x]",
        "{x}",
        "&a",
        "*a",
        "!t",
        "%p",
        "@a",
        "`t",
        "|",
        ">",
        "'q'",
        "\"q\"",
        " lead",
        "trail ",
        "tab\there",
        "line\nbreak",
        "nel\u{85}",
        "ls\u{2028}",
        "bom\u{feff}",
        "ctl\u{1}",
        "12:30",
        "2001-12-14",
        "true",
        "on",
        "=",
        "<<",
        "",
        "é ünï 🎉",
        "?q",
        ",c",
        "\\back",
    ];
    let mut old = String::new();
    let mut new = String::new();
    for (i, s) in risky.iter().enumerate() {
        let q = serde_json::to_string(s).unwrap();
        old.push_str(&format!(
            "- textbox {q} [ref=e{i}]: {}\n",
            serde_json::to_string("v").unwrap()
        ));
        new.push_str(&format!(
            "- textbox {q} [ref=e{i}]: {}\n",
            serde_json::to_string(s).unwrap()
        ));
    }
    let d = diff(&parse(old.trim_end()), &parse(new.trim_end()));
    assert_eq!(d.changed.len(), risky.len());
    let y = yaml_doc(&d.to_yaml(1, None));
    assert!(y["since"].is_null());
    let changed = y["diff"]["changed"].as_vec().unwrap();
    for (s, c) in risky.iter().zip(changed) {
        assert_eq!(c["name"].as_str(), Some(*s), "name {s:?}");
        assert_eq!(c["to"].as_str(), Some(*s), "value {s:?}");
        assert_eq!(c["from"].as_str(), Some("v"));
    }
}

// --- filters ---------------------------------------------------------------

#[test]
fn filters_apply_to_both_trees() {
    let (before, after) = case(7);
    let scope = TreeDiffOptions {
        filter: Filter {
            scope: Some(Selector::parse("complementary \"Cart\"").unwrap()),
            ..Filter::default()
        },
        ..TreeDiffOptions::default()
    };
    let d = diff_with(&before, &after, &scope);
    assert_eq!(d.added.len(), 3);
    assert_eq!(d.changed.len(), 3); // heading name + its new ref, subtotal value
    assert_eq!(d.unchanged_count, 9);

    let buttons = TreeDiffOptions {
        filter: Filter {
            roles: Some(vec!["button".into()]),
            ..Filter::default()
        },
        ..TreeDiffOptions::default()
    };
    let d = diff_with(&before, &after, &buttons);
    assert_eq!(
        d.to_agent(),
        "+ [e58] button \"Remove Kids' Sprint\" value=\"×\"\n# 7 elements unchanged"
    );

    let prune = Filter {
        prune: true,
        ..Filter::default()
    };
    let pruned = prune.apply(&fixture("form.yml"));
    assert!(
        pruned
            .iter()
            .all(|(_, e)| e.role != "generic" || !e.name.is_empty() || e.value.is_some())
    );
    assert_eq!(
        pruned.roots[0].role, "main",
        "the unnamed body wrapper is gone"
    );
    let full = fixture("form.yml");
    assert_eq!(
        pruned.iter().filter(|(_, e)| e.role == "textbox").count(),
        full.iter().filter(|(_, e)| e.role == "textbox").count()
    );
}

#[test]
fn scope_with_no_match_gives_an_empty_tree() {
    let f = Filter {
        scope: Some(Selector::parse("e9999").unwrap()),
        ..Filter::default()
    };
    assert!(f.apply(&fixture("shop.yml")).is_empty());
}

#[test]
fn selectors_find_the_first_match_on_real_pages() {
    let shop = fixture("shop.yml");
    let cart = shop
        .find(&Selector::parse("list \"Cart items\"").unwrap())
        .unwrap();
    assert_eq!(cart.aria_ref.as_deref(), Some("e46"));
    assert_eq!(
        cart.to_aria(),
        "- list \"Cart items\" [ref=e46]:\n  - listitem [ref=e47]:\n    - text: Trail Runner 2 × 1\n    - button \"Remove Trail Runner 2\" [ref=e48]: ×\n  - listitem [ref=e49]:\n    - text: Road Racer × 1\n    - button \"Remove Road Racer\" [ref=e50]: ×"
    );
    let first_button = shop.find(&Selector::parse("button").unwrap()).unwrap();
    assert_eq!(first_button.name, "Search");
    let frame = fixture("shadow.yml");
    let in_frame = frame.find(&Selector::parse("f1e2").unwrap()).unwrap();
    assert_eq!(in_frame.name, "In frame");
    assert!(
        shop.find(&Selector::parse("navigation \"Nope\"").unwrap())
            .is_none()
    );
    assert_eq!(
        cart.text_lines(),
        [
            "Cart items",
            "Trail Runner 2 × 1",
            "Remove Trail Runner 2: ×",
            "Road Racer × 1",
            "Remove Road Racer: ×"
        ]
    );
}

// --- the apply law on real pairs -------------------------------------------

type Key = (
    Vec<(String, String)>,
    String,
    String,
    Option<String>,
    Option<String>,
    Vec<String>,
    Vec<String>,
    Option<String>,
);

/// Every element as (ancestor path, fields), sorted: the identity multiset.
pub fn multiset(t: &Tree, with_refs: bool) -> Vec<Key> {
    let mut out = Vec::new();
    let mut path: Vec<(String, String)> = Vec::new();
    for (depth, e) in t.iter() {
        path.truncate(depth);
        let mut states: Vec<String> = e.states.iter().map(|s| s.to_string()).collect();
        states.sort();
        let mut props: Vec<String> = e
            .props
            .iter()
            .map(|p| format!("{}={}", p.name, p.value))
            .collect();
        props.sort();
        out.push((
            path.clone(),
            e.role.clone(),
            format!("{}{}", if e.name_regex { "/" } else { "" }, e.name),
            e.value.clone(),
            e.description.clone(),
            states,
            props,
            if with_refs { e.aria_ref.clone() } else { None },
        ));
        path.push((e.role.clone(), e.name.clone()));
    }
    out.sort();
    out
}

#[test]
fn applying_the_diff_to_the_old_tree_gives_the_new_tree_on_every_pair() {
    let mut pairs: Vec<(Tree, Tree)> = (1..=8).map(case).collect();
    // Also across pages, the hardest case.
    pairs.push((fixture("shop.yml"), fixture("form.yml")));
    pairs.push((fixture("nav.yml"), fixture("lists.yml")));
    for (i, (b, a)) in pairs.iter().enumerate() {
        for mode in MODES {
            let d = diff_with(b, a, &opts(mode));
            let with_refs = mode == IdentityMode::Refs;
            assert_eq!(
                multiset(&d.apply(b), with_refs),
                multiset(a, with_refs),
                "pair {i} {mode:?}"
            );
        }
    }
}
