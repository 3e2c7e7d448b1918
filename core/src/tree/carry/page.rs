//! One page's memory (its recent views, what left them, the refs handed
//! out) and the assignment of refs to a new snapshot of it.

use super::super::diff::match_for_carry;
use super::super::model::{Element, Tree};
use super::super::retired::Retired;
use super::carried::{CarryOptions, RefCarry, RefSource};
use super::neighbours::keep_neighbours;
use super::places::Places;
use super::view::{Claims, View};
use crate::prelude::*;
use crate::{Error, Result};
use alloc::collections::VecDeque;
use alloc::sync::Arc;

/// What a page remembers: its recent views (oldest first), what left them
/// (`tree::retired`), every ref handed out, and the counter for new refs.
#[derive(Debug, Default)]
pub(super) struct Page {
    pub(super) views: VecDeque<View>,
    pub(super) retired: Retired,
    /// `retired` as a view, matched as the oldest one.
    pub(super) retired_view: Option<View>,
    pub(super) handed: FxHashSet<String>,
    /// The last number a new ref was given; never below the largest number
    /// that ends an id or a ref seen, so new refs look like the host's.
    pub(super) next: u64,
    pub(super) bytes: usize,
}

/// The node ids of `tree` in document order; two elements with one id is
/// an error (the mapping would be ambiguous).
fn node_ids(tree: &Tree) -> Result<Vec<Option<&str>>> {
    let mut seen: FxHashSet<&str> = FxHashSet::default();
    let mut ids = Vec::with_capacity(tree.len());
    for (_, e) in tree.iter() {
        let id = e.aria_ref.as_deref();
        if let Some(id) = id
            && !seen.insert(id)
        {
            return Err(Error::invalid_option(
                "snapshot",
                format!(
                    "node id `{id}` is on two elements; give each element its own id (or none) so its ref can be carried over"
                ),
            ));
        }
        ids.push(id);
    }
    Ok(ids)
}

/// Bytes a view is charged: the strings it holds plus a fixed cost per element.
fn view_bytes(tree: &Tree, refs: &[Option<String>]) -> usize {
    let mut n = 0;
    for (_, e) in tree.iter() {
        // 96 for the element, 40 for its place (Places).
        n += 136 + e.role.len() + e.name.len();
        n += e.value.as_ref().map_or(0, String::len);
        n += e.description.as_ref().map_or(0, String::len);
        n += e.aria_ref.as_ref().map_or(0, String::len);
        n += e.states.iter().map(|s| 32 + s.name.len()).sum::<usize>();
        n += e
            .props
            .iter()
            .map(|p| 48 + p.name.len() + p.value.len())
            .sum::<usize>();
    }
    n + refs
        .iter()
        .map(|r| 24 + r.as_ref().map_or(0, String::len))
        .sum::<usize>()
}

/// The node id without its trailing digits (`e`, `f1e`), for new refs in
/// the host's style.
fn prefix(id: &str) -> &str {
    let p = id.trim_end_matches(|c: char| c.is_ascii_digit());
    if p.is_empty() { "e" } else { p }
}

/// The number an id ends with (`e523` → 523), if any.
pub(super) fn number(id: &str) -> u64 {
    // Capped so the counter can never overflow.
    id[prefix_len(id)..]
        .parse::<u64>()
        .unwrap_or(0)
        .min(1 << 52)
}

fn prefix_len(id: &str) -> usize {
    id.trim_end_matches(|c: char| c.is_ascii_digit()).len()
}

impl Page {
    /// Gives `current`'s elements their refs, remembering them as handed
    /// out (the caller records the view).
    pub(super) fn assign(
        &mut self,
        current: &Tree,
        options: CarryOptions,
    ) -> Result<(RefCarry, View)> {
        let ids = node_ids(current)?;
        let mut claims = Claims {
            out: vec![None; ids.len()],
            from: vec![None; ids.len()],
            used: FxHashSet::default(),
        };
        let mut carried: usize = 0;
        let mut left = ids.iter().filter(|i| i.is_some()).count();
        // Pairs by content from every view first (newest first), then pairs
        // by node id alone: a reused node showing a row seen two views ago
        // takes that row's ref, not the one its node had last time.
        // What left the recent views is the oldest view.
        let views: Vec<&View> = self.retired_view.iter().chain(&self.views).collect();
        let matches: Vec<Vec<Option<(usize, bool)>>> = views
            .iter()
            .rev()
            .map(|view| match_for_carry(&view.tree, current, options.stable_ids))
            .collect();
        let newest = views.len();
        let Claims { out, from, used } = &mut claims;
        for by_content in [true, false] {
            for (k, (view, matched)) in views.iter().rev().zip(&matches).enumerate() {
                if left == 0 {
                    break;
                }
                for (i, m) in matched.iter().enumerate() {
                    if out[i].is_some() || ids[i].is_none() {
                        continue;
                    }
                    let Some((o, r)) = m
                        .filter(|&(_, strong)| strong == by_content)
                        .and_then(|(o, _)| Some((o, view.refs.get(o)?.as_ref()?)))
                    else {
                        continue;
                    };
                    if used.insert(r.clone()) {
                        out[i] = Some(r.clone());
                        from[i] = Some((newest - 1 - k, o));
                        carried += 1;
                        left -= 1;
                    }
                }
            }
        }
        let places = Places::of(current);
        carried = Page::keep_places(&views, &ids, &places, &mut claims, carried);
        carried =
            carried.saturating_add_signed(keep_neighbours(&views, &ids, &places, &mut claims));
        let Claims {
            mut out, mut used, ..
        } = claims;
        // New elements: their own id when never handed out, else the counter.
        let avoid: FxHashSet<&str> = ids.iter().flatten().copied().collect();
        self.next = self
            .next
            .max(avoid.iter().map(|id| number(id)).max().unwrap_or(0));
        let mut fresh = 0;
        for (i, id) in ids.iter().enumerate() {
            let Some(id) = id else { continue };
            if out[i].is_some() {
                continue;
            }
            let r = if !self.handed.contains(*id) && !used.contains(*id) {
                (*id).to_owned()
            } else {
                loop {
                    self.next += 1;
                    let r = format!("{}{}", prefix(id), self.next);
                    if !self.handed.contains(&r)
                        && !used.contains(&r)
                        && !avoid.contains(r.as_str())
                    {
                        break r;
                    }
                }
            };
            used.insert(r.clone());
            out[i] = Some(r);
            fresh += 1;
        }
        let mut tree = current.clone();
        let mut mapping = Vec::with_capacity(carried + fresh);
        {
            let mut k = 0;
            let mut stack: Vec<core::slice::IterMut<'_, Element>> = vec![tree.roots.iter_mut()];
            while let Some(it) = stack.last_mut() {
                let Some(e) = it.next() else {
                    stack.pop();
                    continue;
                };
                if let (Some(id), Some(r)) = (ids[k], &out[k]) {
                    mapping.push((id.to_owned(), r.clone()));
                    e.aria_ref = Some(r.clone());
                }
                k += 1;
                if !e.children.is_empty() {
                    stack.push(e.children.iter_mut());
                }
            }
        }
        for r in out.iter().flatten() {
            if !self.handed.contains(r) {
                self.bytes += 24 + r.len();
                self.handed.insert(r.clone());
            }
        }
        let bytes = view_bytes(current, &out);
        let view = View {
            tree: Arc::new(current.clone()),
            refs: out,
            bytes,
            places,
            document: None,
        };
        let carry = RefCarry {
            tree,
            refs: mapping,
            carried,
            fresh,
        };
        Ok((carry, view))
    }

    /// Identity keeps its place (issue 29): a carried ref inside an item
    /// of a collection (a cell in a row) must come from inside the item
    /// whose ref that item now has, and an item whose cells now show other
    /// text, while another item shows the cells it had, is that other
    /// item's, so that no ref names the same text in another row. Such refs
    /// are dropped; so is the ref of an element that never stood under its
    /// parent's ref while an element of its content did (issue 37: a row's
    /// "Edit" button that took another row's look-alike). Then every
    /// element still without a ref whose parent has one takes, from the
    /// newest view that has it, the ref of an element with the same content
    /// under the parent with that ref (an unnamed row found again by its
    /// cells, and its cells and buttons with it). Returns the carried count.
    fn keep_places(
        views: &[&View],
        ids: &[Option<&str>],
        places: &Places,
        claims: &mut Claims,
        mut carried: usize,
    ) -> usize {
        let Claims { out, from, used } = claims;
        let shown_cells: FxHashSet<u64> = places.cells.iter().flatten().copied().collect();
        for i in 0..ids.len() {
            let Some((v, o)) = from[i] else { continue };
            let view = views[v];
            // Only items that show cells (a grid's rows) hold what is in
            // them to themselves; a list item's button that a framework
            // redrew elsewhere keeps the diff's pairing (TodoMVC's edit).
            let grid_item = |p: &Places, k: Option<usize>| k.and_then(|k| p.cells[k]).is_some();
            let item_ok = match (places.item[i], view.places.item[o]) {
                (a, b) if !grid_item(places, a) && !grid_item(&view.places, b) => {
                    // Out of an item still on the page into another item
                    // that was there too: a look-alike in another row (the
                    // delete button a hover shows on the next todo).
                    let now = a.and_then(|a| out[a].as_deref());
                    let then = b.and_then(|b| view.refs[b].as_deref());
                    match (now, then) {
                        (Some(x), Some(y)) => x == y || !used.contains(y),
                        _ => true,
                    }
                }
                (Some(a), Some(b)) => out[a].is_some() && out[a] == view.refs[b],
                _ => false,
            };
            // An item whose cells changed is another item only when the
            // cells it showed are on the page in another item (a node
            // reused for another row after a sort); else it is itself with
            // a cell changed (an edit, a header's sort state), as is one
            // renamed in place (its node kept, stable ids).
            let cells_ok = places.cells[i] == view.places.cells[o]
                || places.own[i] != view.places.own[o]
                || view.places.cells[o].is_none_or(|c| !shown_cells.contains(&c));
            if !(item_ok && cells_ok) {
                if let Some(r) = out[i].take() {
                    used.remove(&r);
                }
                from[i] = None;
                carried -= 1;
            }
        }
        // The second chance: (parent's ref, content) → refs, per view.
        let mut by_place: Vec<FxHashMap<(&str, u64), Vec<usize>>> = Vec::new();
        for view in views {
            let mut m: FxHashMap<(&str, u64), Vec<usize>> = FxHashMap::default();
            for (o, r) in view.refs.iter().enumerate() {
                let (Some(_), Some(p)) = (r, view.places.parent[o]) else {
                    continue;
                };
                if let Some(pr) = view.refs[p].as_deref() {
                    m.entry((pr, view.places.content[o])).or_default().push(o);
                }
            }
            by_place.push(m);
        }
        // A child keeps the ref it had under its own parent (issue 37): an
        // element whose parent has a ref, under which some view showed an
        // element of the same content but never this one's ref, took the
        // ref of a look-alike in another row (every row's "Edit" button is
        // alike): it gives that ref back and takes its own. Then every
        // element still without a ref whose parent has one takes, from the
        // newest view that has it, the ref of an element with the same
        // content under the parent with that ref (an unnamed row found
        // again by its cells, and its cells with it). Twice: first against
        // the parents' refs as matched, then in document order as parents
        // get theirs.
        let misplaced = |out: &[Option<String>], i: usize| -> bool {
            let (Some(r), Some(pr)) = (
                out[i].as_deref(),
                places.parent[i].and_then(|p| out[p].as_deref()),
            ) else {
                return false;
            };
            let key = (pr, places.content[i]);
            let mut any = false;
            for (v, m) in by_place.iter().enumerate() {
                for &o in m.get(&key).into_iter().flatten() {
                    if views[v].refs[o].as_deref() == Some(r) {
                        return false;
                    }
                    any = true;
                }
            }
            any
        };
        let release = |i: usize,
                       out: &mut [Option<String>],
                       from: &mut [Option<(usize, usize)>],
                       used: &mut FxHashSet<String>| {
            if let Some(r) = out[i].take() {
                used.remove(&r);
            }
            from[i] = None;
        };
        let mut gone: Vec<usize> = (0..ids.len()).filter(|&i| misplaced(out, i)).collect();
        for &i in &gone {
            release(i, out, from, used);
        }
        for i in 0..ids.len() {
            if misplaced(out, i) {
                release(i, out, from, used);
                gone.push(i);
            }
            if out[i].is_some() || ids[i].is_none() {
                continue;
            }
            let Some(pr) = places.parent[i].and_then(|p| out[p].clone()) else {
                continue;
            };
            let key = (pr.as_str(), places.content[i]);
            let found = (0..views.len()).rev().find_map(|v| {
                by_place[v].get(&key)?.iter().find_map(|&o| {
                    let r = views[v].refs[o].as_ref()?;
                    (!used.contains(r)).then(|| (v, o, r.clone()))
                })
            });
            if let Some((v, o, r)) = found {
                used.insert(r.clone());
                out[i] = Some(r);
                from[i] = Some((v, o));
                carried += 1;
            }
        }
        carried - gone.len()
    }

    /// What `carried` names in the newest view, else in the views before
    /// it that are of the same document (newest first); see
    /// [`RefCarrier::lookup`](super::RefCarrier::lookup).
    pub(super) fn source(&self, carried: &str) -> Option<RefSource> {
        let newest = self.views.back()?;
        for (k, view) in self.views.iter().rev().enumerate() {
            if k > 0 && (view.document.is_none() || view.document != newest.document) {
                break;
            }
            let Some(i) = view.refs.iter().position(|r| r.as_deref() == Some(carried)) else {
                continue;
            };
            let (_, e) = view.tree.iter().nth(i)?;
            return Some(RefSource {
                node_id: e.aria_ref.clone()?,
                role: e.role.clone(),
                name: e.name.clone(),
                latest: k == 0,
            });
        }
        None
    }

    /// Records `view` as the newest; views past `keep` leave the window
    /// for the retired archive, kept under `budget` bytes.
    pub(super) fn push(&mut self, view: View, keep: usize, budget: usize) {
        self.bytes += view.bytes;
        self.views.push_back(view);
        if self.views.len() <= keep {
            return;
        }
        let before = self.retired.bytes();
        while self.views.len() > keep {
            let Some(gone) = self.views.pop_front() else {
                break;
            };
            self.bytes -= gone.bytes;
            let kept: FxHashSet<&str> = self
                .views
                .iter()
                .flat_map(|v| v.refs.iter().flatten().map(String::as_str))
                .collect();
            self.retired
                .fold(&gone.tree, &gone.refs, &kept, budget, view_bytes);
        }
        self.bytes = self.bytes + self.retired.bytes() - before;
        self.retired_view = self.retired.as_view().map(|(tree, refs)| View {
            places: Places::of(&tree),
            tree: Arc::new(tree),
            refs,
            bytes: 0,
            document: None,
        });
    }

    /// Drops the retired archive, then the oldest view, without archiving
    /// it (the memory cap); false when nothing is left to drop.
    pub(super) fn drop_oldest(&mut self) -> bool {
        if self.retired.bytes() > 0 || self.retired_view.is_some() {
            self.bytes -= self.retired.bytes();
            self.retired.clear();
            self.retired_view = None;
            return true;
        }
        match self.views.pop_front() {
            Some(v) => {
                self.bytes -= v.bytes;
                true
            }
            None => false,
        }
    }
}

/// Carries refs from earlier views to `current` without a store: `previous`
/// are the earlier snapshots as the agent saw them (their refs are the
/// agent's), oldest first; `current` carries node ids. Refs in `previous`
/// count as handed out, so no new element gets one of them.
///
/// ```
/// use response_diff::tree::{carry_refs, parse_aria, CarryOptions};
/// let before = parse_aria("- list [ref=e1]:\n  - listitem \"Tea\" [ref=e2]", false).unwrap();
/// // The list was rebuilt: new node ids, one item more.
/// let now = parse_aria("- list [ref=n7]:\n  - listitem \"Tea\" [ref=n8]\n  - listitem \"Cake\" [ref=n9]", false).unwrap();
/// let c = carry_refs(&[&before], &now, CarryOptions::default()).unwrap();
/// assert_eq!(c.tree.to_aria(), "- list [ref=e1]:\n  - listitem \"Tea\" [ref=e2]\n  - listitem \"Cake\" [ref=n9]");
/// assert_eq!((c.carried, c.fresh), (2, 1));
/// assert_eq!(c.ref_of("n8"), Some("e2"));
/// ```
pub fn carry_refs(previous: &[&Tree], current: &Tree, options: CarryOptions) -> Result<RefCarry> {
    let mut page = Page::default();
    for t in previous {
        let refs: Vec<Option<String>> = t.iter().map(|(_, e)| e.aria_ref.clone()).collect();
        page.handed.extend(refs.iter().flatten().cloned());
        page.next = page
            .next
            .max(refs.iter().flatten().map(|r| number(r)).max().unwrap_or(0));
        page.views.push_back(View {
            tree: Arc::new((*t).clone()),
            refs,
            bytes: 0,
            places: Places::of(t),
            document: None,
        });
    }
    Ok(page.assign(current, options)?.0)
}
