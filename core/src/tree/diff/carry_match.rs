//! The diff's matching as ref carrying wants it: content decides, node
//! ids only where content and parent stayed (tree::carry).

use super::flat::{Flat, NONE};
use super::matching::{Matching, STATIC_ROLES, match_refs};
use super::model::TreeDiffOptions;
use super::rewrap::match_rewrapped;
use crate::prelude::*;
use crate::tree::model::Tree;

/// The element matching of the diff, for carrying refs over: for each
/// element of `new` in document order, the document index of the same
/// element in `old` and whether the pair is by content (`true`) or by node
/// id alone (`false`: the caller takes it only when no view pairs the
/// element by content), or `None`.
///
/// Items of a collection pair by all they show (states and buttons aside),
/// never in order; a pair by content needs its parents paired by content
/// with each other, or neither parent paired by content.
///
/// Refs count as node ids only with `stable_ids`, and a pair by node id is
/// always kept; but content decides first: node ids pair at once only
/// where the element's content (below) is unchanged and its parent was
/// paired the same way (step 1a), then the content hash pairs (step 2),
/// then node ids pair what is left on both sides (step 1b: a field renamed
/// in place). A reused node showing another row is that row. Other pairs
/// must also hold the same content and sit in the same place, so that a
/// ref is never handed to different content:
/// - step 3 keeps only its first stage (same role, name and description
///   under a renamed ancestor): a leftover that merely shares a role with a
///   removed element is another element here;
/// - an unnamed element's content is its value and properties, and, for an
///   item of a collection ([`ITEM_ROLES`]) or an element none of whose
///   children has a ref, the text of its descendants without refs (a cart
///   row showing another product is another row); a named element's is its
///   role, name and description (a field whose value changed, a checkbox
///   now checked, stays itself), and so is another container's (a footer
///   whose count changed beside its links stays itself);
/// - the parents are paired with each other, or neither is paired (no pair
///   across rows whose places the diff matched to other rows);
/// - last, an element whose ancestors changed only by wrappers (one
///   inserted or dropped around it: swagger-ui's expanded operation) pairs
///   with the element of the same content under the same paired ancestor,
///   where that ancestor pair is by content and the content unambiguous
///   (`rewrap`).
pub(crate) fn match_for_carry(
    old: &Tree,
    new: &Tree,
    stable_ids: bool,
) -> Vec<Option<(usize, bool)>> {
    let options = TreeDiffOptions::default();
    let mut o = Flat::new(old, &options);
    let mut n = Flat::new(new, &options);
    // Node ids, when stable, are only trusted first where the content and
    // the parent stayed (step 1a): frameworks reuse a list's nodes for other
    // rows (a filter shows "Walk the dog" in the node that showed "Buy
    // milk"), and the agent knows the row by what it shows, so content
    // decides before node ids do (step 1b pairs what is left by node id: a
    // field renamed in place keeps its ref).
    let (id_o2n, id_n2o) = if stable_ids && o.has_refs && n.has_refs {
        match_refs(&o, &n)
    } else {
        (vec![NONE; o.len()], vec![NONE; n.len()])
    };
    o.compute_ids(|_| true);
    n.compute_ids(|_| true);
    let (ok, nk) = (o.carry_keys(), n.carry_keys());
    let mut old_to_new = vec![NONE; o.len()];
    let mut new_to_old = vec![NONE; n.len()];
    let mut by_id = vec![false; n.len()];
    // Document order: a parent is decided before its children.
    for ni in 0..n.len() {
        let oi = id_n2o[ni];
        if oi == NONE || ok[oi as usize] != nk[ni] {
            continue;
        }
        let (op, np) = (o.parent[oi as usize], n.parent[ni]);
        let parents_kept = match (op, np) {
            (NONE, NONE) => true,
            (NONE, _) | (_, NONE) => false,
            (op, np) => by_id[np as usize] && new_to_old[np as usize] == op,
        };
        if parents_kept {
            old_to_new[oi as usize] = ni as u32;
            new_to_old[ni] = oi;
            by_id[ni] = true;
        }
    }
    let mut m = Matching {
        o: &o,
        n: &n,
        old_to_new,
        new_to_old,
        role_renames: false,
        item_keys: Some((&ok, &nk)),
    };
    m.match_hashes();
    // Step 1b: a node pairs with itself unless content paired either side
    // with an element of the same content (a pair of differing content
    // would be dropped below anyway).
    for (oi, &ni) in id_o2n.iter().enumerate() {
        if ni == NONE {
            continue;
        }
        if m.old_to_new[oi] == ni {
            by_id[ni as usize] = true;
            continue;
        }
        let (cur_n, cur_o) = (m.old_to_new[oi], m.new_to_old[ni as usize]);
        let weak_o = cur_n == NONE || ok[oi] != nk[cur_n as usize];
        let weak_n = cur_o == NONE || ok[cur_o as usize] != nk[ni as usize];
        if weak_o && weak_n {
            if cur_n != NONE {
                m.new_to_old[cur_n as usize] = NONE;
            }
            if cur_o != NONE {
                m.old_to_new[cur_o as usize] = NONE;
            }
            m.pair(oi as u32, ni);
            by_id[ni as usize] = true;
        }
    }
    // A subtree moved under another parent (a table wrapped in a new
    // container) has a new path, so no content id pairs it: pair it whole
    // with the one element of the same subtree, where each side has only one.
    let unique = moved_subtrees(&o, &n);
    for ni in 0..n.len() {
        let Some(&oi) = unique.get(&(n.local[ni], n.sig[ni])) else {
            continue;
        };
        if m.new_to_old[ni] == NONE && m.old_to_new[oi as usize] == NONE {
            m.pair_subtrees(oi, ni as u32);
        }
    }
    m.match_renames();
    let anchor_of = match_rewrapped(&mut m, &ok, &nk, &by_id);
    // Top-down: a pair is by content when the content is the same and the
    // parents are paired by content with each other, or neither is paired
    // by content (a row rebuilt elsewhere). A pair by node id alone is
    // weaker: the caller takes it only when no view pairs the element by
    // content.
    let mut strong = vec![false; n.len()];
    let mut old_strong = vec![false; o.len()];
    let mut out: Vec<Option<(usize, bool)>> = vec![None; n.len()];
    // Under a parent (or a rewrap anchor) paired by node id alone, the
    // element of the same content in the same place is as weak a pair: a
    // TodoMVC row whose node stayed while its inside was re-rendered
    // brings its checkbox's ref along.
    let weak_parent = |out: &[Option<(usize, bool)>], ni: usize, oi: usize| {
        let anchor = match anchor_of[ni] {
            NONE => n.parent[ni],
            a => a,
        };
        let old_anchor = match anchor_of[ni] {
            NONE => o.parent[oi],
            a => m.new_to_old[a as usize],
        };
        anchor != NONE
            && old_anchor != NONE
            && out[anchor as usize].is_some_and(|(x, _)| x == old_anchor as usize)
    };
    for ni in 0..n.len() {
        let oi = m.new_to_old[ni];
        if oi == NONE {
            continue;
        }
        let oi = oi as usize;
        let (op, np) = (o.parent[oi], n.parent[ni]);
        let parent_ok = match (op, np) {
            (NONE, NONE) => true,
            (NONE, np) => !strong[np as usize],
            (op, NONE) => !old_strong[op as usize],
            (op, np) if m.new_to_old[np as usize] == op => strong[np as usize],
            (op, np) => !strong[np as usize] && !old_strong[op as usize],
        } || unique.get(&(n.local[ni], n.sig[ni])) == Some(&(oi as u32))
            || (anchor_of[ni] != NONE && strong[anchor_of[ni] as usize]);
        // Static text whose words changed in place (a count "2" → "3"
        // that a framework redrew, a live region's "Page 1 of 6" → "Page 1
        // of 7") is the same element: nothing acts on it, so its ref cannot
        // send an action to other content.
        let e = n.nodes[ni];
        let recount = STATIC_ROLES.contains(&e.role.as_str())
            && o.nodes[oi].role == e.role
            && np != NONE
            && m.new_to_old[np as usize] == op
            && strong[np as usize];
        if (ok[oi] == nk[ni] && parent_ok) || recount {
            strong[ni] = true;
            old_strong[oi] = true;
            out[ni] = Some((oi, true));
        } else if by_id[ni] || (ok[oi] == nk[ni] && weak_parent(&out, ni, oi)) {
            out[ni] = Some((oi, false));
        }
    }
    out
}

/// Subtrees that each tree has once (role, name, description and whole
/// subtree content alike, states included) and that moved: (own key,
/// subtree signature) → the old element, for elements with children whose
/// parent's subtree differs (else the parent pairs them as they are).
fn moved_subtrees(o: &Flat<'_>, n: &Flat<'_>) -> FxHashMap<(u64, u64), u32> {
    let count = |f: &Flat<'_>| {
        let mut c: FxHashMap<(u64, u64), (u32, u32)> = FxHashMap::default();
        for i in 0..f.len() {
            let e = c.entry((f.local[i], f.sig[i])).or_insert((0, i as u32));
            e.0 += 1;
        }
        c
    };
    let (co, cn) = (count(o), count(n));
    let parent_key = |f: &Flat<'_>, i: usize| match f.parent[i] {
        NONE => None,
        p => Some((f.local[p as usize], f.sig[p as usize])),
    };
    co.into_iter()
        .filter(|(k, (c, i))| {
            *c == 1
                && cn.get(k).is_some_and(|(c, j)| {
                    *c == 1
                        && !o.children_of(*i).is_empty()
                        && parent_key(o, *i as usize) != parent_key(n, *j as usize)
                })
        })
        .map(|(k, (_, i))| (k, i))
        .collect()
}
