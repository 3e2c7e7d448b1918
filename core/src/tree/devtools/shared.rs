//! Uids on more than one line: no refs, kept for printing (module docs of
//! `tree::devtools`).

use super::write::{SHARED_UID, uid_of};
use crate::prelude::*;
use crate::tree::model::{Element, State};

/// Gives every element of `roots` whose uid another element prints too
/// that uid as its [`SHARED_UID`] state (first among its states) and no
/// ref, and every other element its uid as its ref. A tree reads the same
/// however it was built (parsed, or patched), so its text alone says
/// which uids are refs. Elements without a uid are left alone. Iterative.
pub(crate) fn settle_uids(roots: &mut [Element]) {
    let mut count: FxHashMap<String, u32> = FxHashMap::default();
    let mut any_shared = false;
    let mut stack: Vec<core::slice::Iter<'_, Element>> = vec![roots.iter()];
    while let Some(it) = stack.last_mut() {
        let Some(e) = it.next() else {
            stack.pop();
            continue;
        };
        if let Some(u) = uid_of(e) {
            *count.entry(u.to_owned()).or_default() += 1;
        }
        any_shared |= e.states.iter().any(|s| s.name == SHARED_UID);
        stack.push(e.children.iter());
    }
    if !any_shared && count.values().all(|&n| n == 1) {
        return;
    }
    let mut stack: Vec<core::slice::IterMut<'_, Element>> = vec![roots.iter_mut()];
    while let Some(it) = stack.last_mut() {
        let Some(e) = it.next() else {
            stack.pop();
            continue;
        };
        if let Some(u) = uid_of(e).map(str::to_owned) {
            e.states.retain(|s| s.name != SHARED_UID);
            if count.get(&u).is_some_and(|&n| n > 1) {
                e.aria_ref = None;
                e.states.insert(0, State::with_value(SHARED_UID, u));
            } else {
                e.aria_ref = Some(u);
            }
        }
        stack.push(e.children.iter_mut());
    }
}

/// Makes `e`'s uid a [`SHARED_UID`] state when it is its ref: for an
/// element a patch names by its address, whose line prints a uid that is
/// not a ref.
pub(crate) fn unref(e: &mut Element) {
    if let Some(u) = e.aria_ref.take() {
        e.states.retain(|s| s.name != SHARED_UID);
        e.states.insert(0, State::with_value(SHARED_UID, u));
    }
}
