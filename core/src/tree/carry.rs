//! Refs that survive re-renders (docs/DECISIONS.md D14): a ref names an element, not
//! a DOM node.
//!
//! A host reads a snapshot whose refs are its own node ids (Chromium's
//! backend node ids, Playwright's aria-refs, a Python agent's handles). When
//! a framework rebuilds a list, every node is new and so is every id, though
//! nothing the agent can see changed. [`RefCarrier::carry`] matches the new
//! snapshot's elements to the recent views of the same page by the tree
//! diff's identity and gives each matched element the ref the agent already
//! knows; only new elements get new refs. It returns the snapshot with those
//! refs and the mapping node id → ref, so the host can resolve an action on
//! a ref to the node that now stands there.
//!
//! The rules:
//! - **Same element, same ref.** Matching is the diff's (refs as node ids
//!   when [`CarryOptions::stable_ids`], then the content hash of role, name,
//!   description and ancestor path with duplicates aligned in order, then
//!   the rename pass's first stage). A value or state change keeps the ref.
//! - **Never to different content.** The rename pass's role-only stage is
//!   left out: a rebuilt node whose name differs from every element seen
//!   before is a new element, so an agent acting on a stale ref gets "gone"
//!   from its host rather than a click on another label. (With stable node
//!   ids, the same node keeps its ref when renamed, as the diff says.)
//! - **Never twice, never reused.** A ref appears at most once per snapshot;
//!   a new element keeps its own node id as its ref when that string was
//!   never handed out for this page, else it gets `<prefix><n>` from a
//!   per-page counter, skipping every ref handed out and every id in the
//!   snapshot. So a ref, once retired, never names another element.
//! - **Elements come back.** The newest view is matched first, then older
//!   ones (up to [`CarrierConfig::views_per_key`]) for what is still
//!   unmatched: a cleared search, a reopened panel, a re-sorted list get
//!   their old refs back. What left those views is kept, each element as
//!   last shown under its ancestors, within 1/[`RETIRED_SHARE`] of the
//!   memory cap, and matched last: an element back after any number of
//!   snapshots gets its old ref too (the oldest go first past the budget).
//! - **Inside its own parent.** A child keeps the ref it had under its own
//!   parent when the parent keeps its ref: a row that comes back brings
//!   its "Edit" button's ref with it, not a look-alike's from another row,
//!   so the whole row can be restored by one reference.
//! - **Deterministic.** The same inputs give the same refs.
//!
//! Elements without a node id (static text) get no ref.

use super::diff::{ITEM_ROLES, match_for_carry};
use super::model::{Element, Tree};
use super::retired::Retired;
use crate::prelude::*;
use crate::sync::{Mutex, lock};
use crate::{Error, Result};
use alloc::collections::VecDeque;
use alloc::sync::Arc;
use serde::Deserialize;

/// How to carry refs over.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct CarryOptions {
    /// The host's node ids name the same node from one snapshot to the next
    /// (Chromium's backend node ids, Playwright's aria-refs): an element
    /// whose node id is unchanged keeps its ref even when renamed. Leave it
    /// off (the default) when ids are renumbered on every read.
    pub stable_ids: bool,
}

impl CarryOptions {
    /// Options with [`CarryOptions::stable_ids`] set as given.
    pub fn stable_ids(stable_ids: bool) -> Self {
        CarryOptions { stable_ids }
    }

    /// Parses `{"stableIds": false}` (optional), the form every binding accepts.
    ///
    /// ```
    /// use response_diff::tree::CarryOptions;
    /// assert!(CarryOptions::from_json(r#"{"stableIds": true}"#).unwrap().stable_ids);
    /// assert!(CarryOptions::from_json(r#"{"stable": true}"#).is_err());
    /// ```
    pub fn from_json(json: &str) -> Result<CarryOptions> {
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase", deny_unknown_fields)]
        struct J {
            stable_ids: Option<bool>,
        }
        let j: J = crate::json::from_str(json, "carryOptions")?;
        Ok(CarryOptions::stable_ids(j.stable_ids.unwrap_or(false)))
    }
}

/// A snapshot with its refs carried over.
#[derive(Debug, Clone, PartialEq)]
pub struct RefCarry {
    /// The snapshot, every element with a node id now carrying its ref.
    pub tree: Tree,
    /// Node id → ref for every element that has a node id, in document order.
    pub refs: Vec<(String, String)>,
    /// Elements that kept a ref from an earlier view.
    pub carried: usize,
    /// Elements that got a new ref.
    pub fresh: usize,
}

impl RefCarry {
    /// The ref given to the element with this node id.
    pub fn ref_of(&self, node_id: &str) -> Option<&str> {
        self.refs
            .iter()
            .find(|(id, _)| id == node_id)
            .map(|(_, r)| r.as_str())
    }

    /// `{"snapshot": "<aria text>", "refs": {"<node id>": "<ref>", …},
    /// "carried": n, "fresh": n}`, the form every binding returns (`refs`
    /// in document order).
    pub fn to_json(&self) -> String {
        use super::aria::json_quote;
        let mut out = String::from("{\"snapshot\":");
        out.push_str(&json_quote(&self.tree.to_aria()));
        out.push_str(",\"refs\":{");
        for (i, (id, r)) in self.refs.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str(&json_quote(id));
            out.push(':');
            out.push_str(&json_quote(r));
        }
        out.push_str(&format!(
            "}},\"carried\":{},\"fresh\":{}}}",
            self.carried, self.fresh
        ));
        out
    }
}

/// One earlier view: the snapshot as the host gave it (node ids) and the
/// ref each element was given, in document order.
#[derive(Debug)]
struct View {
    tree: Arc<Tree>,
    refs: Vec<Option<String>>,
    bytes: usize,
    places: Places,
}

/// Roles that show an item's content (a grid's cells).
const CELL_ROLES: &[&str] = &["cell", "gridcell", "rowheader", "columnheader"];

/// Where each element of a snapshot sits and what it shows, in document
/// order, for keeping identity in its place (see [`Page::keep_places`]).
#[derive(Debug, Default)]
struct Places {
    parent: Vec<Option<usize>>,
    /// The nearest ancestor that is an item of a collection (a row, a list
    /// item, a cell: what is inside one belongs to it).
    item: Vec<Option<usize>>,
    /// Role, name and value of the element alone.
    own: Vec<u64>,
    /// Role, name and value of the element and its whole subtree.
    content: Vec<u64>,
    /// For an item with cells: their names (what an unnamed row shows).
    cells: Vec<Option<u64>>,
}

impl Places {
    fn of(tree: &Tree) -> Places {
        use core::hash::{Hash, Hasher};
        let mut p = Places::default();
        let mut nodes: Vec<&Element> = Vec::with_capacity(tree.len());
        // (children iterator, parent, nearest item)
        let mut stack: Vec<(core::slice::Iter<'_, Element>, Option<usize>, Option<usize>)> =
            vec![(tree.roots.iter(), None, None)];
        while let Some((it, parent, item)) = stack.last_mut() {
            let Some(e) = it.next() else {
                stack.pop();
                continue;
            };
            let (parent, item) = (*parent, *item);
            let me = nodes.len();
            nodes.push(e);
            p.parent.push(parent);
            p.item.push(item);
            if !e.children.is_empty() {
                let inner = if ITEM_ROLES.contains(&e.role.as_str()) {
                    Some(me)
                } else {
                    item
                };
                stack.push((e.children.iter(), Some(me), inner));
            }
        }
        let n = nodes.len();
        let own: Vec<u64> = nodes
            .iter()
            .map(|e| {
                let mut h = FxHasher::default();
                (&e.role, &e.name, &e.value).hash(&mut h);
                h.finish()
            })
            .collect();
        // Children before parents: fold each child's subtree into its parent's.
        let mut content: Vec<FxHasher> = own
            .iter()
            .map(|o| {
                let mut h = FxHasher::default();
                o.hash(&mut h);
                h
            })
            .collect();
        let mut cells: Vec<Option<FxHasher>> = vec![None; n];
        let mut done: Vec<u64> = vec![0; n];
        for i in (0..n).rev() {
            done[i] = content[i].finish();
            if let Some(q) = p.parent[i] {
                // Children are folded in reverse order: still a fixed order.
                done[i].hash(&mut content[q]);
            }
            if CELL_ROLES.contains(&nodes[i].role.as_str())
                && let Some(it) = p.item[i]
            {
                own[i].hash(cells[it].get_or_insert_with(Default::default));
            }
        }
        p.content = done;
        p.own = own;
        p.cells = cells
            .iter()
            .map(|h| h.as_ref().map(|h| h.finish()))
            .collect();
        p
    }
}

/// What a page remembers: its recent views (oldest first), what left them
/// (`tree::retired`), every ref handed out, and the counter for new refs.
#[derive(Debug, Default)]
struct Page {
    views: VecDeque<View>,
    retired: Retired,
    /// `retired` as a view, matched as the oldest one.
    retired_view: Option<View>,
    handed: FxHashSet<String>,
    /// The last number a new ref was given; never below the largest number
    /// that ends an id or a ref seen, so new refs look like the host's.
    next: u64,
    bytes: usize,
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
fn number(id: &str) -> u64 {
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
    fn assign(&mut self, current: &Tree, options: CarryOptions) -> Result<(RefCarry, View)> {
        let ids = node_ids(current)?;
        let mut out: Vec<Option<String>> = vec![None; ids.len()];
        let mut used: FxHashSet<String> = FxHashSet::default();
        let mut carried = 0;
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
        // Where each carried ref came from: (view, index in it).
        let mut from: Vec<Option<(usize, usize)>> = vec![None; ids.len()];
        let newest = views.len();
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
        carried = Page::keep_places(
            &views, &ids, &places, &mut out, &mut from, &mut used, carried,
        );
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
        out: &mut [Option<String>],
        from: &mut [Option<(usize, usize)>],
        used: &mut FxHashSet<String>,
        mut carried: usize,
    ) -> usize {
        let shown_cells: FxHashSet<u64> = places.cells.iter().flatten().copied().collect();
        for i in 0..ids.len() {
            let Some((v, o)) = from[i] else { continue };
            let view = views[v];
            // Only items that show cells (a grid's rows) hold what is in
            // them to themselves; a list item's button that a framework
            // redrew elsewhere keeps the diff's pairing (TodoMVC's edit).
            let grid_item = |p: &Places, k: Option<usize>| k.and_then(|k| p.cells[k]).is_some();
            let item_ok = match (places.item[i], view.places.item[o]) {
                _ if !grid_item(places, places.item[i])
                    && !grid_item(&view.places, view.places.item[o]) =>
                {
                    true
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

    /// Records `view` as the newest; views past `keep` leave the window
    /// for the retired archive, kept under `budget` bytes.
    fn push(&mut self, view: View, keep: usize, budget: usize) {
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
        });
    }

    /// Drops the retired archive, then the oldest view, without archiving
    /// it (the memory cap); false when nothing is left to drop.
    fn drop_oldest(&mut self) -> bool {
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
        });
    }
    Ok(page.assign(current, options)?.0)
}

/// Limits of a [`RefCarrier`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct CarrierConfig {
    /// Views kept per page key (default 8), matched whole; what left them
    /// is kept as retired elements within 1/[`RETIRED_SHARE`] of
    /// `max_stored_bytes`, so an element can come back from further back
    /// and still get its old ref.
    pub views_per_key: usize,
    /// Bytes charged for all keys together (default 8 MiB); least recently
    /// used keys go first, then the current key's retired elements, then
    /// its oldest views (its newest view is always kept).
    pub max_stored_bytes: usize,
    /// See [`CarryOptions::stable_ids`] (default off).
    pub stable_ids: bool,
}

impl Default for CarrierConfig {
    fn default() -> Self {
        CarrierConfig {
            views_per_key: 8,
            max_stored_bytes: 8 * 1024 * 1024,
            stable_ids: false,
        }
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct CarrierConfigJson {
    views_per_key: Option<usize>,
    max_stored_bytes: Option<usize>,
    stable_ids: Option<bool>,
}

/// The share of [`CarrierConfig::max_stored_bytes`] one page's retired
/// elements may take (`tree::retired`): 1/8, 1 MiB of the default 8 MiB.
/// Past it the elements that left longest ago go first, and get new refs
/// when they come back.
pub const RETIRED_SHARE: usize = 8;

/// Largest accepted `viewsPerKey`.
pub const MAX_VIEWS_PER_KEY: usize = 64;

impl CarrierConfig {
    /// Sets [`CarrierConfig::views_per_key`].
    pub fn views_per_key(mut self, views: usize) -> Self {
        self.views_per_key = views;
        self
    }

    /// Sets [`CarrierConfig::max_stored_bytes`].
    pub fn max_stored_bytes(mut self, bytes: usize) -> Self {
        self.max_stored_bytes = bytes;
        self
    }

    /// Sets [`CarrierConfig::stable_ids`].
    pub fn stable_ids(mut self, stable: bool) -> Self {
        self.stable_ids = stable;
        self
    }

    /// Parses `{"viewsPerKey": 8, "maxStoredBytes": 8388608, "stableIds":
    /// false}` (every field optional), the form every binding accepts.
    ///
    /// ```
    /// use response_diff::tree::CarrierConfig;
    /// let c = CarrierConfig::from_json(r#"{"stableIds": true}"#).unwrap();
    /// assert!(c.stable_ids && c.views_per_key == 8);
    /// assert!(CarrierConfig::from_json(r#"{"viewsPerKey": 0}"#).is_err());
    /// ```
    pub fn from_json(json: &str) -> Result<CarrierConfig> {
        let j: CarrierConfigJson = crate::json::from_str(json, "carrierConfig")?;
        let d = CarrierConfig::default();
        let views_per_key = j.views_per_key.unwrap_or(d.views_per_key);
        if !(1..=MAX_VIEWS_PER_KEY).contains(&views_per_key) {
            return Err(Error::invalid_option(
                "carrierConfig.viewsPerKey",
                format!("{views_per_key} is out of range; use 1 to {MAX_VIEWS_PER_KEY}"),
            ));
        }
        let max_stored_bytes = j.max_stored_bytes.unwrap_or(d.max_stored_bytes);
        if max_stored_bytes == 0 {
            return Err(Error::invalid_option(
                "carrierConfig.maxStoredBytes",
                "0 is out of range; use a positive number of bytes",
            ));
        }
        Ok(CarrierConfig {
            views_per_key,
            max_stored_bytes,
            stable_ids: j.stable_ids.unwrap_or(d.stable_ids),
        })
    }
}

/// Keeps the recent views of each page and carries refs over to new
/// snapshots of it (see the module docs). `Send + Sync`: hosts share one
/// across threads; calls are serialized by an internal lock.
///
/// ```
/// use response_diff::tree::{parse_aria, RefCarrier};
/// let carrier = RefCarrier::new();
/// let v1 = parse_aria("- list [ref=n1]:\n  - listitem \"Tea\" [ref=n2]\n  - listitem \"Cake\" [ref=n3]", false).unwrap();
/// let v2 = parse_aria("- list [ref=n4]:\n  - listitem \"Cake\" [ref=n5]", false).unwrap();
/// let v3 = parse_aria("- list [ref=n6]:\n  - listitem \"Tea\" [ref=n7]\n  - listitem \"Cake\" [ref=n8]", false).unwrap();
/// let first = carrier.carry("tab-1", &v1).unwrap();
/// assert_eq!(first.tree, v1); // a first view keeps the node ids as refs
/// assert_eq!(carrier.carry("tab-1", &v2).unwrap().tree.to_aria(), "- list [ref=n1]:\n  - listitem \"Cake\" [ref=n3]");
/// // Tea comes back from the older view with its old ref.
/// assert_eq!(carrier.carry("tab-1", &v3).unwrap().tree, v1);
/// ```
#[derive(Debug)]
pub struct RefCarrier {
    inner: Mutex<Inner>,
    config: CarrierConfig,
}

#[derive(Debug)]
struct Inner {
    pages: lru::LruCache<String, Page>,
    bytes: usize,
}

impl Default for RefCarrier {
    fn default() -> Self {
        RefCarrier::new()
    }
}

impl RefCarrier {
    /// A carrier with the default limits (8 views per key, 8 MiB).
    pub fn new() -> Self {
        RefCarrier::with_config(CarrierConfig::default())
    }

    /// A carrier with these limits (`views_per_key` at least 1).
    pub fn with_config(mut config: CarrierConfig) -> Self {
        config.views_per_key = config.views_per_key.max(1);
        RefCarrier {
            inner: Mutex::new(Inner {
                pages: lru::LruCache::unbounded(),
                bytes: 0,
            }),
            config,
        }
    }

    /// The limits in force.
    pub fn config(&self) -> &CarrierConfig {
        &self.config
    }

    /// Gives the elements of `current` (a snapshot of page `key` whose refs
    /// are the host's node ids) the refs they had in the recent views of
    /// `key`, new refs to new elements, and records the result as the
    /// newest view. Errors only when two elements share a node id.
    pub fn carry(&self, key: &str, current: &Tree) -> Result<RefCarry> {
        let mut inner = lock(&self.inner);
        let options = CarryOptions::stable_ids(self.config.stable_ids);
        let page = inner.pages.get_or_insert_mut(key.to_owned(), Page::default);
        let before = page.bytes;
        let (carry, view) = page.assign(current, options)?;
        page.push(
            view,
            self.config.views_per_key,
            self.config.max_stored_bytes / RETIRED_SHARE,
        );
        let after = page.bytes;
        inner.bytes = inner.bytes + after - before;
        self.evict(&mut inner, key);
        Ok(carry)
    }

    /// Keeps the total under the cap: other keys first (least recently
    /// used first), then the retired elements of `key`, then its oldest
    /// views.
    fn evict(&self, inner: &mut Inner, key: &str) {
        while inner.bytes > self.config.max_stored_bytes {
            let lru_is_key = inner.pages.peek_lru().is_some_and(|(k, _)| k == key);
            if !lru_is_key {
                match inner.pages.pop_lru() {
                    Some((_, p)) => inner.bytes -= p.bytes,
                    None => break,
                }
                continue;
            }
            let Some(page) = inner.pages.peek_mut(key) else {
                break;
            };
            if page.views.len() <= 1 && page.retired_view.is_none() {
                break;
            }
            let before = page.bytes;
            page.drop_oldest();
            inner.bytes -= before - page.bytes;
        }
    }

    /// Forgets `key`: its views and the refs it handed out (a new snapshot
    /// of it starts over). Returns whether it was kept.
    pub fn clear(&self, key: &str) -> bool {
        let mut inner = lock(&self.inner);
        match inner.pages.pop(key) {
            Some(p) => {
                inner.bytes -= p.bytes;
                true
            }
            None => false,
        }
    }

    /// Bytes charged against [`CarrierConfig::max_stored_bytes`].
    pub fn memory_usage(&self) -> usize {
        lock(&self.inner).bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::parse_aria;

    fn t(s: &str) -> Tree {
        parse_aria(s, false).unwrap()
    }

    #[test]
    fn new_refs_skip_everything_handed_out_and_every_id_in_the_snapshot() {
        let c = RefCarrier::new();
        c.carry("k", &t("- button \"A\" [ref=e1]")).unwrap();
        // A different element reuses node id e1: it must not get ref e1, nor
        // e2 (another element's own id in this snapshot).
        let r = c
            .carry("k", &t("- button \"B\" [ref=e1]\n- button \"C\" [ref=e2]"))
            .unwrap();
        assert_eq!(
            r.refs,
            [("e1".into(), "e3".into()), ("e2".into(), "e2".into())]
        );
        assert_eq!((r.carried, r.fresh), (0, 2));
    }

    #[test]
    fn the_cap_drops_other_keys_first_and_keeps_the_newest_view() {
        let big: String = (0..200)
            .map(|i| format!("- listitem \"item {i}\" [ref=e{i}]\n"))
            .collect();
        let tree = t(&big);
        let one = {
            let c = RefCarrier::new();
            c.carry("a", &tree).unwrap();
            c.memory_usage()
        };
        let c = RefCarrier::with_config(CarrierConfig::default().max_stored_bytes(one * 3 / 2));
        c.carry("a", &tree).unwrap();
        c.carry("b", &tree).unwrap();
        assert!(!c.clear("a"), "a was evicted");
        c.carry("b", &tree).unwrap();
        assert!(c.memory_usage() <= one * 3 / 2);
        assert!(c.clear("b"));
        assert_eq!(c.memory_usage(), 0);
    }

    #[test]
    fn duplicate_node_ids_are_an_error() {
        let e = carry_refs(
            &[],
            &t("- button \"A\" [ref=x]\n- button \"B\" [ref=x]"),
            CarryOptions::default(),
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("node id `x` is on two elements"), "{e}");
    }
}
