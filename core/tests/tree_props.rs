//! Property tests: applying the diff to the old tree yields the new tree
//! (same identity multiset and fields), and parse ∘ print = id.

use proptest::prelude::*;
use response_diff::tree::{
    CarrierConfig, Element, IdentityMode, PatchOptions, Prop, RefCarrier, State, Tree,
    TreeDiffOptions, apply_patch, apply_patch_with, diff_with, parse_aria, snapshot_patch,
    snapshot_patch_with,
};
use std::collections::{HashMap, HashSet};

type Key = (
    Vec<(String, String)>,
    String,
    String,
    Option<String>,
    Vec<String>,
    Vec<String>,
    Option<String>,
);

fn multiset(t: &Tree, with_refs: bool) -> Vec<Key> {
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
            e.name.clone(),
            e.value.clone(),
            states,
            props,
            if with_refs { e.aria_ref.clone() } else { None },
        ));
        path.push((e.role.clone(), e.name.clone()));
    }
    out.sort();
    out
}

/// Small vocabularies so that duplicates, renames and collisions are common.
fn element() -> impl Strategy<Value = Element> {
    (
        prop::sample::select(vec![
            "button", "listitem", "list", "generic", "row", "text", "link",
        ]),
        prop::sample::select(vec!["", "", "Save", "Item", "Cart", "a: b", "x\"y"]),
        prop::option::of(prop::sample::select(vec!["1", "2", "hello", ""])),
        prop::collection::vec(
            prop::sample::select(vec!["checked", "disabled", "expanded", "level=2"]),
            0..2,
        ),
        prop::option::of(prop::sample::select(vec!["/", "/cart"])),
    )
        .prop_map(|(role, name, value, states, url)| {
            let mut e = Element::new(role, name);
            e.value = value.map(str::to_owned);
            let mut seen = Vec::new();
            for s in states {
                let (n, v) = s.split_once('=').map_or((s, None), |(n, v)| (n, Some(v)));
                if !seen.contains(&n) {
                    seen.push(n);
                    e.states.push(State {
                        name: n.into(),
                        value: v.map(Into::into),
                    });
                }
            }
            if let Some(u) = url {
                e.props.push(Prop::new("url", u));
            }
            if role == "text" {
                // A static text node is just its text, as Playwright prints it.
                e = Element::text(name);
            }
            e
        })
}

fn tree() -> impl Strategy<Value = Tree> {
    let leaf = element();
    let node = leaf.prop_recursive(4, 40, 5, |inner| {
        (element(), prop::collection::vec(inner, 0..5)).prop_map(|(mut e, kids)| {
            if !e.is_text_node() {
                e.children = kids;
            }
            e
        })
    });
    prop::collection::vec(node, 0..5).prop_map(Tree::new)
}

#[derive(Debug, Clone)]
enum Edit {
    Rename(usize, &'static str),
    Revalue(usize, Option<&'static str>),
    ToggleState(usize, &'static str),
    Delete(usize),
    Insert(usize, usize, Box<Element>),
    Duplicate(usize),
    Move(usize, usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (
            any::<usize>(),
            prop::sample::select(vec!["Save", "Saved", "Item", ""])
        )
            .prop_map(|(i, n)| Edit::Rename(i, n)),
        (
            any::<usize>(),
            prop::option::of(prop::sample::select(vec!["1", "3", "bye"]))
        )
            .prop_map(|(i, v)| Edit::Revalue(i, v)),
        (
            any::<usize>(),
            prop::sample::select(vec!["checked", "active", "disabled"])
        )
            .prop_map(|(i, s)| Edit::ToggleState(i, s)),
        any::<usize>().prop_map(Edit::Delete),
        (any::<usize>(), any::<usize>(), element()).prop_map(|(i, p, e)| Edit::Insert(
            i,
            p,
            Box::new(e)
        )),
        any::<usize>().prop_map(Edit::Duplicate),
        (any::<usize>(), any::<usize>()).prop_map(|(i, j)| Edit::Move(i, j)),
    ]
}

/// Paths (child index chains) of every element in preorder.
fn paths(t: &Tree) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut stack: Vec<(Vec<usize>, &Element)> = t
        .roots
        .iter()
        .enumerate()
        .rev()
        .map(|(i, e)| (vec![i], e))
        .collect();
    while let Some((p, e)) = stack.pop() {
        for (i, c) in e.children.iter().enumerate().rev() {
            let mut q = p.clone();
            q.push(i);
            stack.push((q, c));
        }
        out.push(p);
    }
    out
}

fn list_at<'a>(t: &'a mut Tree, parent: &[usize]) -> &'a mut Vec<Element> {
    let mut list = &mut t.roots;
    for &i in parent {
        list = &mut list[i].children;
    }
    list
}

fn at<'a>(t: &'a mut Tree, p: &[usize]) -> &'a mut Element {
    let (last, parent) = p.split_last().unwrap();
    &mut list_at(t, parent)[*last]
}

fn apply_edit(t: &mut Tree, edit: &Edit) {
    let ps = paths(t);
    if ps.is_empty() {
        if let Edit::Insert(_, _, e) = edit {
            t.roots.push((**e).clone());
        }
        return;
    }
    let pick = |i: usize| ps[i % ps.len()].clone();
    match edit {
        Edit::Rename(i, n) => at(t, &pick(*i)).name = (*n).into(),
        Edit::Revalue(i, v) => at(t, &pick(*i)).value = v.map(Into::into),
        Edit::ToggleState(i, s) => {
            let e = at(t, &pick(*i));
            if e.state(s).is_some() {
                e.states.retain(|x| x.name != *s);
            } else {
                e.states.push(State::flag(*s));
            }
        }
        Edit::Delete(i) => {
            let p = pick(*i);
            let (last, parent) = p.split_last().unwrap();
            list_at(t, parent).remove(*last);
        }
        Edit::Insert(i, pos, e) => {
            let p = pick(*i);
            let list = &mut at(t, &p).children;
            list.insert(pos % (list.len() + 1), (**e).clone());
        }
        Edit::Duplicate(i) => {
            let p = pick(*i);
            let (last, parent) = p.split_last().unwrap();
            let list = list_at(t, parent);
            let copy = list[*last].clone();
            list.insert(last + 1, copy);
        }
        Edit::Move(i, j) => {
            let p = pick(*i);
            let (last, parent) = p.split_last().unwrap();
            let moved = list_at(t, parent).remove(*last);
            let ps = paths(t);
            if ps.is_empty() {
                t.roots.push(moved);
            } else {
                let q = ps[j % ps.len()].clone();
                at(t, &q).children.push(moved);
            }
        }
    }
}

/// Gives every element a unique ref, in document order, starting at `base`.
fn number_refs(t: &mut Tree, base: usize) {
    let mut n = base;
    let mut stack: Vec<&mut Element> = t.roots.iter_mut().rev().collect();
    while let Some(e) = stack.pop() {
        if e.role != "text" {
            e.aria_ref = Some(format!("e{n}"));
            n += 1;
        }
        stack.extend(e.children.iter_mut().rev());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn apply_diff_gives_new_tree_content_mode(old in tree(), edits in prop::collection::vec(edit(), 0..6)) {
        let mut new = old.clone();
        for e in &edits { apply_edit(&mut new, e); }
        let opts = TreeDiffOptions { identity: IdentityMode::Content, ..TreeDiffOptions::default() };
        let d = diff_with(&old, &new, &opts);
        prop_assert_eq!(multiset(&d.apply(&old), false), multiset(&new, false));
        if edits.is_empty() {
            prop_assert!(d.is_empty());
            prop_assert_eq!(d.unchanged_count, old.len());
        }
    }

    #[test]
    fn apply_diff_gives_new_tree_refs_mode(old in tree(), edits in prop::collection::vec(edit(), 0..6), renumber in any::<bool>()) {
        let mut old = old;
        number_refs(&mut old, 1);
        let mut new = old.clone();
        for e in &edits { apply_edit(&mut new, e); }
        if renumber { number_refs(&mut new, 1000); }
        for identity in [IdentityMode::Refs, IdentityMode::Content] {
            let opts = TreeDiffOptions { identity, ..TreeDiffOptions::default() };
            let d = diff_with(&old, &new, &opts);
            let refs = identity == IdentityMode::Refs;
            prop_assert_eq!(multiset(&d.apply(&old), refs), multiset(&new, refs));
        }
    }

    #[test]
    fn a_snapshot_patch_rebuilds_the_new_snapshot(old in tree(), edits in prop::collection::vec(edit(), 0..6)) {
        let mut old = old;
        number_refs(&mut old, 1);
        let mut new = old.clone();
        for e in &edits { apply_edit(&mut new, e); }
        give_missing_refs(&mut new, 5000);
        let (old_text, new_text) = (old.to_aria(), new.to_aria());
        if let Some(p) = snapshot_patch(&old_text, &new_text) {
            prop_assert_eq!(apply_patch(&old_text, &p.text).unwrap(), new_text);
            if edits.is_empty() {
                prop_assert_eq!(p.text, "");
            }
        }
    }

    #[test]
    fn field_changes_always_make_a_patch(old in tree(), edits in prop::collection::vec(edit(), 0..6)) {
        let mut old = old;
        no_text_nodes(&mut old);
        number_refs(&mut old, 1);
        let mut new = old.clone();
        for e in edits.iter().filter(|e| matches!(e, Edit::Rename(..) | Edit::Revalue(..) | Edit::ToggleState(..))) {
            apply_edit(&mut new, e);
        }
        let (old_text, new_text) = (old.to_aria(), new.to_aria());
        let p = snapshot_patch(&old_text, &new_text);
        prop_assert!(p.is_some(), "no patch from\n{}\nto\n{}", old_text, new_text);
        prop_assert_eq!(apply_patch(&old_text, &p.unwrap().text).unwrap(), new_text);
    }

    #[test]
    fn a_patch_restoring_seen_elements_rebuilds_the_new_snapshot(
        base in tree(),
        to_old in prop::collection::vec(edit(), 0..6),
        to_new in prop::collection::vec(edit(), 0..6),
        restore in any::<bool>(),
    ) {
        // The agent saw `base`, then `old`; the page is now `new`, which
        // may bring back elements of `base` that `old` lacks.
        let mut base = base;
        number_refs(&mut base, 1);
        let mut old = base.clone();
        for e in &to_old { apply_edit(&mut old, e); }
        give_missing_refs(&mut old, 5000);
        let mut new = base.clone();
        for e in &to_new { apply_edit(&mut new, e); }
        give_missing_refs(&mut new, 9000);
        let (base_text, old_text, new_text) = (base.to_aria(), old.to_aria(), new.to_aria());
        let seen = [base_text.as_str(), old_text.as_str()];
        let options = PatchOptions::seen(seen.to_vec()).restore(restore);
        if let Some(p) = snapshot_patch_with(&old_text, &new_text, &options) {
            prop_assert_eq!(apply_patch_with(&old_text, &p.text, &seen).unwrap(), new_text);
            if !restore {
                // Only the previous snapshot is needed.
                prop_assert_eq!(apply_patch(&old_text, &p.text).unwrap(), new.to_aria());
            }
        }
    }

    #[test]
    fn carried_refs_never_collide_nor_change_content(
        base in tree(),
        steps in prop::collection::vec(prop::collection::vec(edit(), 0..4), 1..6),
        stable_ids in any::<bool>(),
    ) {
        let carrier = RefCarrier::with_config(CarrierConfig::default().stable_ids(stable_ids));
        // ref -> (role, name) it was last given to.
        let mut handed: HashMap<String, (String, String)> = HashMap::new();
        let mut page = base;
        for (k, edits) in std::iter::once(&Vec::new()).chain(&steps).enumerate() {
            for e in edits { apply_edit(&mut page, e); }
            // Re-rendered: every node id is new (or, with stable ids, kept
            // for the first step's numbering where the element survived).
            let mut snap = page.clone();
            number_refs(&mut snap, if stable_ids { 1 } else { 1000 * (k + 1) });
            let r = carrier.carry("tab", &snap).unwrap();
            let mut here = HashSet::new();
            let mut carried = 0;
            for (_, e) in r.tree.iter() {
                let Some(rf) = &e.aria_ref else { continue };
                prop_assert!(here.insert(rf.clone()), "{} twice", rf);
                let id = (e.role.clone(), e.name.clone());
                if let Some(before) = handed.insert(rf.clone(), id.clone()) {
                    carried += 1;
                    if !stable_ids {
                        prop_assert_eq!(before, id, "{} given to different content", rf);
                    }
                }
            }
            prop_assert_eq!(carried, r.carried);
            prop_assert_eq!(r.carried + r.fresh, r.refs.len());
            prop_assert_eq!(r.refs.len(), snap.iter().filter(|(_, e)| e.aria_ref.is_some()).count());
        }
    }

    #[test]
    fn print_then_parse_is_identity(t in tree()) {
        let text = t.to_aria();
        let back = parse_aria(&text, false).unwrap();
        prop_assert_eq!(back.to_aria(), text);
        prop_assert_eq!(multiset(&back, true), multiset(&t, true));
        prop_assert_eq!(Tree::from_json(&t.to_json()).unwrap(), t);
    }

    #[test]
    fn parsing_never_panics(s in "(( )*(- )?[a-z\"'\\[\\]=:/ #\\\\x]{0,12}\n){0,8}", lenient in any::<bool>()) {
        if let Ok(t) = parse_aria(&s, lenient) {
            let _ = t.to_aria();
        }
    }
}

/// Gives elements without a ref one, in document order, from `base`.
fn give_missing_refs(t: &mut Tree, base: usize) {
    let mut n = base;
    let mut stack: Vec<&mut Element> = t.roots.iter_mut().rev().collect();
    while let Some(e) = stack.pop() {
        if e.aria_ref.is_none() && !e.is_text_node() {
            e.aria_ref = Some(format!("e{n}"));
            n += 1;
        }
        stack.extend(e.children.iter_mut().rev());
    }
}

/// Turns static text nodes (which never carry refs) into named elements.
fn no_text_nodes(t: &mut Tree) {
    let mut stack: Vec<&mut Element> = t.roots.iter_mut().collect();
    while let Some(e) = stack.pop() {
        if e.is_text_node() {
            let mut g = Element::new("generic", std::mem::take(&mut e.name));
            g.children = std::mem::take(&mut e.children);
            *e = g;
        }
        stack.extend(e.children.iter_mut());
    }
}
