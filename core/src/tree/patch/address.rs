//! Addresses: elements without a ref named by their place in the previous
//! snapshot. `[e44/3]` is the third child of the element with ref `e44`,
//! `[e44/3/1]` that one's first child, `[/2]` the second element of the
//! top level (children counted from 1, property lines aside).
//!
//! The writer names every element of the previous snapshot that has no
//! ref by its address (from its nearest ancestor with a ref), and the
//! elements of the new snapshot the diff matched with them the same, so
//! that every operation names them as it names refs. The applier gives the
//! addresses a patch uses to the elements they name before anything moves,
//! and takes them off at the end. A ref never has a `/` (Playwright's
//! `e12`, `f1e3`; our server's); where one does, the writer names nothing
//! by address.

use crate::prelude::*;
use crate::tree::diff::matched;
use crate::tree::model::{Element, Tree};

/// Whether a name in a patch has the shape of an address (`e12/2`, `/1/3`)
/// rather than of a ref.
pub(super) fn is_address(r: &str) -> bool {
    r.split_once('/').is_some_and(|(_, steps)| {
        steps
            .split('/')
            .all(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
    })
}

/// `old` with each element without a ref named by its address, and `new`
/// with each element without a ref that the diff matched with one of
/// those named the same; `None` when a ref of either has a `/`, or `old`
/// has no element without a ref.
pub(super) fn addressed(old: &Tree, new: &Tree) -> Option<(Tree, Tree)> {
    let has_slash = |t: &Tree| {
        t.iter()
            .any(|(_, e)| e.aria_ref.as_deref().is_some_and(|r| r.contains('/')))
    };
    if has_slash(old) || has_slash(new) || old.iter().all(|(_, e)| e.aria_ref.is_some()) {
        return None;
    }
    let pairs = matched(old, new);
    let old_refs: FxHashSet<&str> = old
        .iter()
        .filter_map(|(_, e)| e.aria_ref.as_deref())
        .collect();
    // An element without a ref whose nearest ancestor with a ref is new to
    // `old` (a row coming back) keeps no address: the row is restored with
    // it as last shown, where an address would name a look-alike that the
    // diff paired from another row (a todo's "✖" text).
    let mut old = old.clone();
    // Document order, as the diff counts: each element's address, if any.
    let mut names: Vec<Option<String>> = Vec::new();
    let mut stack: Vec<(core::slice::IterMut<'_, Element>, String, usize)> =
        vec![(old.roots.iter_mut(), String::new(), 0)];
    while let Some((it, prefix, k)) = stack.last_mut() {
        let Some(e) = it.next() else {
            stack.pop();
            continue;
        };
        *k += 1;
        let name = e.aria_ref.is_none().then(|| format!("{prefix}/{k}"));
        let below = match (&e.aria_ref, &name) {
            (Some(r), _) => r.clone(),
            (None, Some(a)) => a.clone(),
            (None, None) => String::new(),
        };
        e.aria_ref = e.aria_ref.take().or_else(|| name.clone());
        names.push(name);
        if !e.children.is_empty() {
            stack.push((e.children.iter_mut(), below, 0));
        }
    }
    let mut new = new.clone();
    let mut i = 0;
    // Each level with whether its nearest ancestor with a ref is in `old`
    // (the top level has none, and counts as kept).
    let mut stack: Vec<(core::slice::IterMut<'_, Element>, bool)> =
        vec![(new.roots.iter_mut(), true)];
    while let Some((it, kept)) = stack.last_mut() {
        let Some(e) = it.next() else {
            stack.pop();
            continue;
        };
        let below = e
            .aria_ref
            .as_deref()
            .map_or(*kept, |r| old_refs.contains(r));
        if e.aria_ref.is_none()
            && *kept
            && let Some(Some(oi)) = pairs.get(i)
            && let Some(Some(a)) = names.get(*oi)
        {
            e.aria_ref = Some(a.clone());
        }
        i += 1;
        if !e.children.is_empty() {
            stack.push((e.children.iter_mut(), below));
        }
    }
    Some((old, new))
}
