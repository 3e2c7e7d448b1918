//! The diff itself: two trees matched, then what was added, removed and
//! changed, field by field.

use super::flat::{Flat, NONE};
use super::matching::{Matching, pair_by_refs_then_hash_ids};
use super::model::{
    Added, ElementContext, Field, IdentityMode, Parent, Removed, TreeChange, TreeDiff,
    TreeDiffOptions,
};
use crate::prelude::*;
use crate::tree::model::{Bounds, Element, Prop, State, Tree};
use alloc::borrow::Cow;

/// Diffs two trees with the default options ([`IdentityMode::Refs`], no filters).
///
/// ```
/// use response_diff::tree::{diff, parse_aria, Field};
/// let old = parse_aria("- textbox \"Search\" [ref=e12]: a", false).unwrap();
/// let new = parse_aria("- textbox \"Search\" [ref=e12]: b", false).unwrap();
/// let d = diff(&old, &new);
/// assert_eq!(d.changed[0].field, Field::Value);
/// assert_eq!(d.to_agent(), "~ [e12] textbox \"Search\" value=\"b\" (was \"a\")\n# 0 elements unchanged");
/// ```
pub fn diff(old: &Tree, new: &Tree) -> TreeDiff {
    diff_with(old, new, &TreeDiffOptions::default())
}

/// Diffs two trees: filters both, matches elements (refs, content hash,
/// positional rename) and lists what was added, removed and changed.
///
/// ```
/// use response_diff::tree::{diff_with, parse_aria, TreeDiffOptions, IdentityMode};
/// // Refs renumbered, content equal: nothing changed in content mode.
/// let old = parse_aria("- button \"Save\" [ref=e5]", false).unwrap();
/// let new = parse_aria("- button \"Save\" [ref=e60]", false).unwrap();
/// let opts = TreeDiffOptions { identity: IdentityMode::Content, ..TreeDiffOptions::default() };
/// let d = diff_with(&old, &new, &opts);
/// assert!(d.is_empty());
/// assert_eq!(d.refs_renumbered, 1);
/// ```
pub fn diff_with(old: &Tree, new: &Tree, options: &TreeDiffOptions) -> TreeDiff {
    let (old, new): (Cow<'_, Tree>, Cow<'_, Tree>) = if options.filter.is_noop() {
        (Cow::Borrowed(old), Cow::Borrowed(new))
    } else {
        (
            Cow::Owned(options.filter.apply(old)),
            Cow::Owned(options.filter.apply(new)),
        )
    };
    let mut o = Flat::new(&old, options);
    let mut n = Flat::new(&new, options);
    let by_refs = options.identity == IdentityMode::Refs;
    matching(&mut o, &mut n, by_refs).into_diff(options, by_refs)
}

/// The diff's matching of `o` and `n`: refs (when `by_refs`) and hash ids,
/// then content hashes, then renames.
fn matching<'f, 'a>(o: &'f mut Flat<'a>, n: &'f mut Flat<'a>, by_refs: bool) -> Matching<'f, 'a> {
    let (old_to_new, new_to_old) = pair_by_refs_then_hash_ids(o, n, by_refs);
    let mut m = Matching {
        o,
        n,
        old_to_new,
        new_to_old,
        role_renames: true,
        item_keys: None,
    };
    m.match_hashes();
    m.match_renames();
    m
}

/// For each element of `new` in document order, the document index of the
/// element [`diff`] matches it with in `old`, if any (snapshot patches
/// name an element without a ref by its place in `old`).
pub(crate) fn matched(old: &Tree, new: &Tree) -> Vec<Option<usize>> {
    let options = TreeDiffOptions::default();
    let mut o = Flat::new(old, &options);
    let mut n = Flat::new(new, &options);
    matching(&mut o, &mut n, true)
        .new_to_old
        .iter()
        .map(|&i| (i != NONE).then_some(i as usize))
        .collect()
}

impl Matching<'_, '_> {
    pub(super) fn into_diff(self, options: &TreeDiffOptions, report_refs: bool) -> TreeDiff {
        let (o, n) = (self.o, self.n);
        let mut d = TreeDiff::default();
        let parent_link = |np: u32| -> Parent {
            if np == NONE {
                Parent::Root
            } else {
                match self.new_to_old[np as usize] {
                    NONE => Parent::Added(np as usize),
                    op => Parent::Old(op as usize),
                }
            }
        };
        for ni in 0..n.len() {
            let oi = self.new_to_old[ni];
            let ne = n.nodes[ni];
            if oi == NONE {
                let np = n.parent[ni];
                d.added.push(Added {
                    element: shallow(ne),
                    index: ni,
                    parent: parent_link(np),
                    position: n.position[ni] as usize,
                    context: (np != NONE).then(|| ElementContext::of(n.nodes[np as usize])),
                });
                continue;
            }
            let oe = o.nodes[oi as usize];
            let before = d.changed.len();
            let mut push = |field: Field, from: Option<String>, to: Option<String>| {
                d.changed.push(TreeChange {
                    aria_ref: ne.aria_ref.clone().or_else(|| oe.aria_ref.clone()),
                    role: ne.role.clone(),
                    name: ne.name.clone(),
                    field,
                    from,
                    to,
                    old_index: oi as usize,
                    new_index: ni,
                    new_parent: None,
                });
            };
            if oe.role != ne.role {
                push(Field::Role, Some(oe.role.clone()), Some(ne.role.clone()));
            }
            if oe.name != ne.name || oe.name_regex != ne.name_regex {
                push(Field::Name, Some(name_text(oe)), Some(name_text(ne)));
            }
            if oe.value != ne.value {
                push(Field::Value, oe.value.clone(), ne.value.clone());
            }
            if oe.description != ne.description {
                push(
                    Field::Description,
                    oe.description.clone(),
                    ne.description.clone(),
                );
            }
            if oe.states != ne.states {
                diff_states(&oe.states, &ne.states, &mut push);
            }
            if oe.props != ne.props {
                diff_props(&oe.props, &ne.props, &mut push);
            }
            if options.compare_bounds && oe.bounds != ne.bounds {
                let s = |b: &Option<Bounds>| b.map(|b| b.to_string());
                push(Field::Bounds, s(&oe.bounds), s(&ne.bounds));
            }
            if oe.aria_ref != ne.aria_ref {
                if report_refs {
                    push(Field::Ref, oe.aria_ref.clone(), ne.aria_ref.clone());
                } else if oe.aria_ref.is_some() && ne.aria_ref.is_some() {
                    d.refs_renumbered += 1;
                }
            }
            // Moved under another parent?
            let op = o.parent[oi as usize];
            let np = n.parent[ni];
            let same_parent = if op == NONE {
                np == NONE
            } else {
                np != NONE && self.old_to_new[op as usize] == np
            };
            if !same_parent {
                let describe = |f: &Flat<'_>, p: u32| {
                    (p != NONE).then(|| describe_ref(&ElementContext::of(f.nodes[p as usize])))
                };
                push(Field::Parent, describe(o, op), describe(n, np));
                if let Some(last) = d.changed.last_mut() {
                    last.new_parent = Some(parent_link(np));
                }
            }
            if d.changed.len() == before {
                d.unchanged_count += 1;
            }
        }
        for oi in 0..o.len() {
            if self.old_to_new[oi] != NONE {
                continue;
            }
            let op = o.parent[oi];
            d.removed.push(Removed {
                element: shallow(o.nodes[oi]),
                index: oi,
                parent_removed: op != NONE && self.old_to_new[op as usize] == NONE,
                context: (op != NONE).then(|| ElementContext::of(o.nodes[op as usize])),
            });
        }
        d
    }
}

/// The name as printed: regex names keep their slashes. The tree diff's
/// `name` changes and its YAML and JSON `name` keys both use it.
pub(crate) fn name_text(e: &Element) -> String {
    if e.name_regex {
        format!("/{}/", e.name)
    } else {
        e.name.clone()
    }
}

/// `[e5]`, or `list "Cart"`, or `list`.
pub(crate) fn describe_ref(r: &ElementContext) -> String {
    match (&r.aria_ref, r.name.is_empty()) {
        (Some(x), _) => {
            if r.name.is_empty() {
                format!("{} [{x}]", r.role)
            } else {
                format!(
                    "{} {} [{x}]",
                    r.role,
                    crate::tree::aria::json_quote(&r.name)
                )
            }
        }
        (None, true) => r.role.clone(),
        (None, false) => format!("{} {}", r.role, crate::tree::aria::json_quote(&r.name)),
    }
}

pub(super) fn diff_states(
    old: &[State],
    new: &[State],
    push: &mut impl FnMut(Field, Option<String>, Option<String>),
) {
    let find = |list: &[State], name: &str| {
        list.iter()
            .find(|s| s.name == name)
            .map(|s| s.value_str().to_owned())
    };
    for (i, s) in new.iter().enumerate() {
        if new[..i].iter().any(|p| p.name == s.name) {
            continue;
        }
        let from = find(old, &s.name);
        let to = Some(s.value_str().to_owned());
        if from != to {
            push(Field::State(s.name.clone()), from, to);
        }
    }
    for (i, s) in old.iter().enumerate() {
        if old[..i].iter().any(|p| p.name == s.name) || new.iter().any(|p| p.name == s.name) {
            continue;
        }
        push(
            Field::State(s.name.clone()),
            Some(s.value_str().to_owned()),
            None,
        );
    }
}

pub(super) fn diff_props(
    old: &[Prop],
    new: &[Prop],
    push: &mut impl FnMut(Field, Option<String>, Option<String>),
) {
    let find = |list: &[Prop], name: &str| {
        list.iter()
            .find(|p| p.name == name)
            .map(|p| p.value.clone())
    };
    for (i, p) in new.iter().enumerate() {
        if new[..i].iter().any(|q| q.name == p.name) {
            continue;
        }
        let from = find(old, &p.name);
        if from.as_deref() != Some(p.value.as_str()) {
            push(Field::Prop(p.name.clone()), from, Some(p.value.clone()));
        }
    }
    for (i, p) in old.iter().enumerate() {
        if old[..i].iter().any(|q| q.name == p.name) || new.iter().any(|q| q.name == p.name) {
            continue;
        }
        push(Field::Prop(p.name.clone()), Some(p.value.clone()), None);
    }
}

/// A copy of `e` without its children.
pub(crate) fn shallow(e: &Element) -> Element {
    e.shallow_clone()
}
