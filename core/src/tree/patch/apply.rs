//! Applying a patch: the operations read from it, done on the snapshot it
//! was taken from (orders first, then removals, changes, insertions and
//! focus in one walk).

use super::address::is_address;
use super::flip::{Flip, add_focus, apply_flips};
use super::order::reorder;
use super::read::{Anchor, Item, Op, bad, op_refs, parse_patch};
use super::restore::PLACEHOLDER;
use super::runs::Siblings;
use super::seen::{Seen, walk_paths};
use crate::Result;
use crate::prelude::*;
use crate::tree::model::{Element, Tree, assemble};
use crate::tree::{Dialect, parse_snapshot};

/// Applies a patch from [`snapshot_patch`](super::snapshot_patch) to the snapshot it was taken
/// from, giving the new snapshot text, in `old`'s dialect (detected: see
/// [`Dialect::detect`](crate::tree::Dialect::detect)). An agent (or a host keeping the
/// agent's view) uses this to follow a page through patches. A patch that
/// restores elements `as last shown` needs [`apply_patch_with`].
///
/// Errors name the patch line and what was expected, or the ref that is
/// not in `old`.
pub fn apply_patch(old: &str, patch: &str) -> Result<String> {
    apply_patch_with(old, patch, &[])
}

/// [`apply_patch`] with the snapshots the agent was shown earlier in the
/// conversation (oldest first), for elements the patch restores `as last
/// shown`: each comes from the latest of them that has its ref. `seen` is
/// only parsed when the patch restores something.
///
/// ```
/// use response_diff::tree::apply_patch_with;
/// let earlier = "- list [ref=e1]:\n  - listitem \"Tea\" [ref=e2]";
/// let now = "- list [ref=e1]";
/// let back = apply_patch_with(now, "+ first in [e1]: [e2] as last shown", &[earlier]).unwrap();
/// assert_eq!(back, earlier);
/// let e = apply_patch_with(now, "+ first in [e1]: [e2] as last shown", &[]).unwrap_err();
/// assert!(e.to_string().contains("[e2] is restored `as last shown`"));
/// ```
pub fn apply_patch_with(old: &str, patch: &str, seen: &[&str]) -> Result<String> {
    // Hosts may end Playwright's text in newlines its printer does not print.
    let tree = parse_snapshot(Dialect::detect(old).trim(old))?;
    let needs_seen = patch.lines().any(|l| l.ends_with(" as last shown"));
    let seen = if needs_seen {
        Some(Seen::parse(seen, true)?)
    } else {
        None
    };
    Ok(apply_to(tree, patch, seen.as_ref())?.to_text())
}

pub(super) fn apply_to(mut old: Tree, patch: &str, seen: Option<&Seen>) -> Result<Tree> {
    let dialect = old.dialect;
    let focus_state = dialect.focus_state();
    // Runs (`[e4 .. e9] as last shown`) are read in the views as given.
    let runs = patch.contains(" .. ").then(|| Siblings::new(&old, seen));
    let ops = parse_patch(patch, dialect, runs.as_ref())?;
    drop(runs);
    // Where each ref is named first, for the error when it is not in `old`.
    let mut named: Vec<(usize, String)> = ops
        .iter()
        .flat_map(|(n, op)| op_refs(op).into_iter().map(|r| (*n, r.to_owned())))
        .collect();
    // Addresses name their elements before anything moves (module docs).
    let addresses: Vec<(usize, String)> = named
        .iter()
        .filter(|(_, r)| is_address(r))
        .cloned()
        .collect();
    let addresses = resolve(&mut old, &addresses)?;
    // Orders first: the other lines' anchors are the siblings in their new order.
    reorder(&mut old, &ops)?;
    // As last shown: the old snapshot is the latest view, then `seen`.
    let mut old_by_ref: FxHashMap<&str, &Element> = FxHashMap::default();
    if patch.contains(" as last shown") {
        for (_, e) in old.iter() {
            if let Some(r) = e.aria_ref.as_deref() {
                old_by_ref.entry(r).or_insert(e);
            }
        }
    }
    let shown = |r: &str| {
        old_by_ref
            .get(r)
            .copied()
            .or_else(|| seen.and_then(|s| s.get(r)))
    };
    let missing = |n: usize, r: &str| {
        bad(
            n,
            format!(
                "[{r}] is restored `as last shown` but no seen snapshot has it (pass the snapshots this conversation showed as `seen`, or ask for patches without restoring)"
            ),
        )
    };
    let mut removed: FxHashSet<String> = FxHashSet::default();
    let mut changed: FxHashMap<String, Element> = FxHashMap::default();
    // `~ [ref] -state +state` lines, with their line numbers for errors.
    let mut flipped: FxHashMap<String, (usize, Vec<Flip>)> = FxHashMap::default();
    let mut inserts: FxHashMap<Anchor, Vec<Element>> = FxHashMap::default();
    let mut focus: Option<Option<String>> = None;
    // A printed element with `[active]` takes the focus (module docs).
    let mut takes_focus = false;
    let active = |e: &Element| e.descendants().any(|(_, d)| d.state(focus_state).is_some());
    for (n, op) in ops {
        match op {
            Op::Remove(rs) => removed.extend(rs),
            Op::Change(mut e) => {
                takes_focus |= active(&e);
                let mut stack: Vec<&mut Element> = vec![&mut e];
                while let Some(x) = stack.pop() {
                    for c in x.children.iter_mut() {
                        if c.role == PLACEHOLDER {
                            let r = c.aria_ref.clone().unwrap_or_default();
                            *c = shown(&r).ok_or_else(|| missing(n, &r))?.clone();
                        } else {
                            stack.push(c);
                        }
                    }
                }
                let r = e.aria_ref.clone().unwrap_or_default();
                changed.insert(r, e);
            }
            Op::Insert(a, items) => {
                let list = inserts.entry(a).or_default();
                for item in items {
                    match item {
                        Item::Printed(mut e) => {
                            takes_focus |= active(&e);
                            let mut stack: Vec<&mut Element> = vec![&mut *e];
                            while let Some(x) = stack.pop() {
                                for c in x.children.iter_mut() {
                                    if c.role == PLACEHOLDER {
                                        let r = c.aria_ref.clone().unwrap_or_default();
                                        *c = shown(&r).ok_or_else(|| missing(n, &r))?.clone();
                                    } else {
                                        stack.push(c);
                                    }
                                }
                            }
                            list.push(*e)
                        }
                        Item::Restored(r) => match shown(&r) {
                            Some(e) => list.push(e.clone()),
                            None => return Err(missing(n, &r)),
                        },
                    }
                }
            }
            Op::Flip(r, flips) => {
                // Gaining the focus takes it, as a printed line does.
                takes_focus |= flips.iter().any(|f| f.gained && f.name == focus_state);
                flipped.insert(r, (n, flips));
            }
            Op::Focus(target) => focus = Some(target),
            Op::Order(_) => {}
        }
    }
    drop(old_by_ref);
    // An element of the previous snapshot that the patch places (inside
    // an insertion, or among a `~` element's new children) moved there: it
    // leaves its old place, subtree and all (a ref is on one element).
    let old_refs: FxHashSet<&str> = old
        .iter()
        .filter_map(|(_, e)| e.aria_ref.as_deref())
        .collect();
    let mut moved: FxHashSet<String> = FxHashSet::default();
    {
        let mut note = |e: &Element| {
            for (_, d) in e.descendants() {
                if let Some(r) = d.aria_ref.as_deref()
                    && old_refs.contains(r)
                {
                    moved.insert(r.to_owned());
                }
            }
        };
        inserts.values().flatten().for_each(&mut note);
        changed
            .values()
            .flat_map(|c| &c.children)
            .for_each(&mut note);
    }
    // A removal that names no element of the previous snapshot names one
    // inside an element the patch restores: gone since it was shown.
    let cut: FxHashSet<String> = removed
        .extract_if(|r| !old_refs.contains(r.as_str()))
        .collect();
    drop(old_refs);
    let pending = removed.len() + cut.len() + changed.len() + flipped.len() + inserts.len();
    let mut focus_target = focus.clone().flatten();
    let mut left = Left {
        changed,
        flipped,
        cut,
        inserts,
        pending: pending + usize::from(focus_target.is_some()),
        dialect,
    };
    // Preorder with parent indexes, as `assemble` wants.
    let mut out: Vec<(Element, usize)> = Vec::new();
    if let Some(es) = left.inserts.remove(&Anchor::Top) {
        left.push_subtrees(&mut out, es, usize::MAX)?;
        left.pending -= 1;
    }
    // The old tree is taken apart, not copied: each element moves into
    // `out` without its children, which follow it.
    let mut stack: Vec<(alloc::vec::IntoIter<Element>, usize)> =
        vec![(old.roots.into_iter(), usize::MAX)];
    while let Some((it, parent)) = stack.last_mut() {
        let parent = *parent;
        let Some(mut e) = it.next() else {
            stack.pop();
            continue;
        };
        let r = e.aria_ref.take();
        if r.as_deref().is_some_and(|r| removed.remove(r)) {
            left.pending -= 1;
            continue;
        }
        if r.as_deref()
            .is_some_and(|r| moved.contains(r) && !left.changed.contains_key(r))
        {
            continue;
        }
        if focus.is_some() {
            e.states.retain(|s| !dialect.is_focus_state(&s.name));
            if r.is_some() && r == focus_target {
                add_focus(dialect, &mut e.states);
                focus_target = None;
                left.pending -= 1;
            }
        } else if takes_focus {
            e.states.retain(|s| !dialect.is_focus_state(&s.name));
        }
        let children = core::mem::take(&mut e.children);
        // A `~` element printed with children has them instead of its own.
        let mut new_children: Vec<Element> = Vec::new();
        let mut own = match r.as_deref().and_then(|r| left.changed.remove(r)) {
            Some(mut c) => {
                left.pending -= 1;
                new_children = core::mem::take(&mut c.children);
                if c.props.is_empty() {
                    c.props = core::mem::take(&mut e.props);
                }
                c
            }
            None => {
                e.aria_ref = r.clone();
                e
            }
        };
        flip(&mut own, &mut left.flipped, &mut left.pending, dialect)?;
        out.push((own, parent));
        let me = out.len() - 1;
        if let Some(r) = r {
            if let Some(es) = left.inserts.remove(&Anchor::After(r.clone())) {
                left.push_subtrees(&mut out, es, parent)?;
                left.pending -= 1;
            }
            if let Some(es) = left.inserts.remove(&Anchor::FirstIn(r)) {
                left.push_subtrees(&mut out, es, me)?;
                left.pending -= 1;
            }
        }
        if !new_children.is_empty() {
            left.push_subtrees(&mut out, new_children, me)?;
        } else if !children.is_empty() {
            stack.push((children.into_iter(), me));
        }
    }
    if left.pending > 0 {
        let missing: FxHashSet<String> = removed
            .into_iter()
            .chain(left.cut)
            .chain(left.changed.into_keys())
            .chain(left.flipped.into_keys())
            .chain(focus_target)
            .chain(left.inserts.into_keys().map(|a| match a {
                Anchor::After(r) | Anchor::FirstIn(r) => r,
                Anchor::Top => String::new(),
            }))
            .collect();
        named.retain(|(_, r)| missing.contains(r));
        let (line, r) = named.into_iter().next().unwrap_or_default();
        return Err(bad(
            line,
            format!(
                "[{r}] is not in the previous snapshot (apply a patch to the snapshot it was taken from)"
            ),
        ));
    }
    if !addresses.is_empty() {
        for (e, _) in out.iter_mut() {
            if e.aria_ref.as_ref().is_some_and(|r| addresses.contains(r)) {
                e.aria_ref = None;
            }
        }
    }
    let mut tree = Tree::new(assemble(out));
    tree.dialect = dialect;
    if dialect == Dialect::DevTools {
        // Which uids are refs, as reading the new text would say.
        crate::tree::devtools::settle_uids(&mut tree.roots);
    }
    Ok(tree)
}

/// What a patch has left to do while the new tree is put together: its
/// changes, flips, removals inside restored elements and insertions by
/// anchor, and how many of those are not done yet.
struct Left {
    changed: FxHashMap<String, Element>,
    /// `~ [ref] -state +state` lines, with their line numbers for errors.
    flipped: FxHashMap<String, (usize, Vec<Flip>)>,
    /// Refs removed from inside restored elements.
    cut: FxHashSet<String>,
    inserts: FxHashMap<Anchor, Vec<Element>>,
    pending: usize,
    dialect: Dialect,
}

impl Left {
    /// Inserted subtrees (and a `~` element's new children) go in whole,
    /// under `parent`; a `~` or flip line for an element among them
    /// (restored with its line changed) applies there, as do a removal
    /// and insertions inside it (what went and came since it was shown).
    fn push_subtrees(
        &mut self,
        out: &mut Vec<(Element, usize)>,
        es: Vec<Element>,
        parent: usize,
    ) -> Result<()> {
        let mut stack: Vec<(Element, usize)> = es.into_iter().rev().map(|e| (e, parent)).collect();
        while let Some((mut e, p)) = stack.pop() {
            if e.aria_ref.as_deref().is_some_and(|r| self.cut.remove(r)) {
                self.pending -= 1;
                continue;
            }
            let mut children = core::mem::take(&mut e.children);
            if let Some(mut c) = e.aria_ref.as_deref().and_then(|r| self.changed.remove(r)) {
                self.pending -= 1;
                let theirs = core::mem::take(&mut c.children);
                if c.props.is_empty() {
                    c.props = core::mem::take(&mut e.props);
                }
                if !theirs.is_empty() {
                    children = theirs;
                }
                e = c;
            }
            flip(&mut e, &mut self.flipped, &mut self.pending, self.dialect)?;
            let (after, first) = match e.aria_ref.as_deref() {
                Some(r) if !self.inserts.is_empty() => (
                    self.inserts.remove(&Anchor::After(r.to_owned())),
                    self.inserts.remove(&Anchor::FirstIn(r.to_owned())),
                ),
                _ => (None, None),
            };
            out.push((e, p));
            let me = out.len() - 1;
            if let Some(es) = after {
                self.pending -= 1;
                stack.extend(es.into_iter().rev().map(|x| (x, p)));
            }
            stack.extend(children.into_iter().rev().map(|c| (c, me)));
            if let Some(es) = first {
                self.pending -= 1;
                stack.extend(es.into_iter().rev().map(|x| (x, me)));
            }
        }
        Ok(())
    }
}

/// Applies the `~ [ref] -state +state` line for `e`, if there is one.
fn flip(
    e: &mut Element,
    flipped: &mut FxHashMap<String, (usize, Vec<Flip>)>,
    pending: &mut usize,
    dialect: Dialect,
) -> Result<()> {
    let Some((n, flips)) = e.aria_ref.as_deref().and_then(|r| flipped.remove(r)) else {
        return Ok(());
    };
    *pending -= 1;
    apply_flips(dialect, e, &flips).map_err(|why| {
        bad(
            n,
            format!(
                "{why} (apply a patch to the snapshot it was taken from, with the snapshots shown before as `seen`)"
            ),
        )
    })
}

/// Names the elements of `tree` that the addresses in `names` (with the
/// patch line of each) point to; the addresses given. Errors name the line
/// of an address that points to no element, or to one with a ref.
pub(super) fn resolve(tree: &mut Tree, names: &[(usize, String)]) -> Result<FxHashSet<String>> {
    let mut done: FxHashSet<String> = FxHashSet::default();
    if names.is_empty() {
        return Ok(done);
    }
    let bases: FxHashSet<&str> = names
        .iter()
        .filter_map(|(_, a)| a.split_once('/').map(|(b, _)| b))
        .filter(|b| !b.is_empty())
        .collect();
    let mut base_at: FxHashMap<String, Vec<usize>> = FxHashMap::default();
    // A ref of the snapshot that looks like an address stays a ref.
    let mut refs: FxHashSet<String> = FxHashSet::default();
    walk_paths(tree, |e, path| {
        if let Some(r) = e.aria_ref.as_deref() {
            if bases.contains(r) {
                base_at
                    .entry(r.to_owned())
                    .or_insert_with(|| path.iter().map(|&i| i as usize).collect());
            }
            if is_address(r) {
                refs.insert(r.to_owned());
            }
        }
        true
    });
    for (n, a) in names {
        if done.contains(a) || refs.contains(a) {
            continue;
        }
        let Some((base, steps)) = a.split_once('/') else {
            continue;
        };
        let mut path: Vec<usize> = if base.is_empty() {
            Vec::new()
        } else {
            base_at.get(base).cloned().ok_or_else(|| {
                bad(
                    *n,
                    format!("[{a}]: [{base}] is not in the previous snapshot (apply a patch to the snapshot it was taken from)"),
                )
            })?
        };
        for s in steps.split('/') {
            match s.parse::<usize>() {
                Ok(k) if k > 0 => path.push(k - 1),
                _ => {
                    return Err(bad(
                        *n,
                        format!(
                            "expected an address like `[e12/2]` (a ref, then child numbers from 1), found `[{a}]`"
                        ),
                    ));
                }
            }
        }
        let (first, rest) = path.split_first().unwrap_or((&usize::MAX, &[]));
        let mut e = tree.roots.get_mut(*first);
        for &k in rest {
            e = e.and_then(|e| e.children.get_mut(k));
        }
        let e = e.ok_or_else(|| {
            bad(
                *n,
                format!("[{a}] is not in the previous snapshot (an address counts the children of its ref's element there, from 1)"),
            )
        })?;
        if let Some(r) = e.aria_ref.as_deref() {
            return Err(bad(
                *n,
                format!("[{a}] is an element with a ref: name it [{r}]"),
            ));
        }
        e.aria_ref = Some(a.clone());
        done.insert(a.clone());
    }
    Ok(done)
}
