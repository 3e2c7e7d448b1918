//! Refs that survive re-renders (docs/DECISIONS.md D14): a ref
//! names an element, not a DOM node.
//!
//! Chromium's accessibility tree names nodes by backend node id. When a
//! framework rebuilds a list, every node is new, so refs made of node ids
//! would all change and a snapshot patch would re-send whole subtrees that
//! did not change. Every snapshot the server takes goes through the core's
//! [`RefCarrier`] instead: an element keeps the ref the agent already knows
//! (matched by node id within a document, then by content identity), new
//! elements get new refs, and no ref is ever given to different content.
//! The server keeps, per tab, ref → backend node of its latest snapshot, and
//! an action on a ref acts on the node that now stands there.
//!
//! Memory is per page: a tab's document is filed under the URL it was first
//! seen at (fragment left out), and keeps that key through in-page route
//! changes (`pushState`), so a single-page app is one page. A new document
//! at a URL seen before (coming back, a reload) is matched against that
//! URL's recent views by content, so elements that come back get their old
//! refs back.
//!
//! Backend node ids are unique within one renderer process but restart in a
//! new one, so a new document could reuse an id that named another element
//! in an older document filed under the same URL. The carrier matches equal
//! ids as the same node (`stable_ids`), so when a new document's ids overlap
//! an older document's range for that URL, that URL's memory starts over
//! (refs stay correct; only restoring is lost).

use std::collections::{HashMap, VecDeque};

use anyhow::Result;
use response_diff::tree::{CarrierConfig, Element, RefCarrier, Tree};

use crate::ax::parse_ref;

/// Views of a page the carrier matches a new snapshot against. 64 (the
/// carrier's most) made the server's resident memory grow by 19 MiB over
/// the 1,000-call e2e run, against 3 MiB with 8; 16 covers the paging and
/// sorting sessions of the grid bench (12 steps) and the e2e bound.
const VIEWS_PER_PAGE: usize = 16;
/// Documents remembered per URL key for the id-overlap check.
const DOCS_PER_KEY: usize = 16;
/// URL keys whose document ranges are kept; beyond it the oldest key is
/// forgotten by the carrier too, so no stale range is ever trusted.
const MAX_KEYS: usize = 512;
/// Refs of earlier snapshots of the current document kept for actions on
/// a ref the latest snapshot no longer shows.
const MAX_EARLIER: usize = 20_000;
/// Tabs whose maps are kept; a tab the page closed itself is never
/// forgotten explicitly, so the least recently read goes first.
const MAX_TABS: usize = 32;

/// What a ref named when it was last shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// The backend node id.
    pub backend: i64,
    /// The element's role, for messages.
    pub role: String,
    /// The element's name, for messages.
    pub name: String,
}

impl Target {
    /// `button "Add"` (or the role alone), for messages.
    pub fn label(&self) -> String {
        if self.name.is_empty() {
            self.role.clone()
        } else {
            format!(
                "{} {}",
                self.role,
                serde_json::to_string(&self.name).unwrap_or_default()
            )
        }
    }
}

/// Where a ref points, as far as the server knows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lookup {
    /// In the tab's latest snapshot.
    Latest(Target),
    /// Shown in an earlier snapshot of the current document, not in the latest.
    Earlier(Target),
    /// Never handed out in this tab's current document.
    Unknown,
}

/// A snapshot with its refs carried over, and its mapping both ways.
#[derive(Debug, Clone, Default)]
pub struct Carried {
    /// The tree as the agent sees it (carried refs).
    pub tree: Tree,
    /// Backend node id → ref.
    pub node_to_ref: HashMap<i64, String>,
    /// Ref → backend node id.
    pub ref_to_node: HashMap<String, i64>,
    /// Elements that kept a ref from an earlier view.
    pub carried: usize,
    /// Elements that got a new ref.
    pub fresh: usize,
}

impl Carried {
    /// A tree cut from the same accessibility snapshot (node-id refs, such
    /// as a CSS-scoped subtree) with the refs the agent knows.
    pub fn relabel(&self, mut tree: Tree) -> Tree {
        let mut stack: Vec<&mut Element> = tree.roots.iter_mut().collect();
        while let Some(e) = stack.pop() {
            if let Some(r) = e
                .aria_ref
                .as_deref()
                .and_then(parse_ref)
                .and_then(|b| self.node_to_ref.get(&b))
            {
                e.aria_ref = Some(r.clone());
            }
            stack.extend(e.children.iter_mut());
        }
        tree
    }
}

#[derive(Debug, Default)]
struct TabRefs {
    /// The current document's token (see [`Refs::carry`]).
    doc: String,
    /// The carrier key the current document is filed under.
    key: String,
    latest: HashMap<String, Target>,
    earlier: HashMap<String, Target>,
    /// When it was last carried (for [`MAX_TABS`]).
    used: u64,
}

#[derive(Debug, Clone)]
struct DocRange {
    doc: String,
    min: i64,
    max: i64,
}

/// The server's refs: one carrier for every tab and page, and each tab's
/// ref → node map.
#[derive(Debug)]
pub struct Refs {
    carrier: RefCarrier,
    tabs: HashMap<String, TabRefs>,
    ranges: HashMap<String, VecDeque<DocRange>>,
    /// Keys in the order they were first given a range (oldest first).
    order: VecDeque<String>,
    clock: u64,
}

impl Default for Refs {
    fn default() -> Self {
        Refs::new()
    }
}

impl Refs {
    /// Empty memory; the carrier keeps up to 16 views per page
    /// (`VIEWS_PER_PAGE`), within its 8 MiB: a row paged away and back, or
    /// shown again by a larger page size, many responses later gets its
    /// old ref (and so can be restored by reference).
    pub fn new() -> Refs {
        Refs {
            // Backend ids name the same node for the life of a document.
            carrier: RefCarrier::with_config(
                CarrierConfig::default()
                    .stable_ids(true)
                    .views_per_key(VIEWS_PER_PAGE),
            ),
            tabs: HashMap::new(),
            ranges: HashMap::new(),
            order: VecDeque::new(),
            clock: 0,
        }
    }

    /// Carries refs over to a new snapshot of tab `tab`, whose refs are
    /// `e<backend id>` (as [`crate::ax`] makes them). `doc` identifies the
    /// document (any string that differs between documents); `url` is the
    /// page URL, used to file a new document. The result becomes the tab's
    /// latest snapshot.
    pub fn carry(&mut self, tab: &str, doc: &str, url: &str, tree: &Tree) -> Result<Carried> {
        if !self.tabs.contains_key(tab) && self.tabs.len() >= MAX_TABS {
            let oldest = self
                .tabs
                .iter()
                .min_by_key(|(_, t)| t.used)
                .map(|(k, _)| k.clone());
            if let Some(k) = oldest {
                self.forget(&k);
            }
        }
        self.clock += 1;
        let state = self.tabs.entry(tab.to_owned()).or_default();
        state.used = self.clock;
        if state.doc != doc || state.key.is_empty() {
            state.doc = doc.to_owned();
            state.key = format!("{tab}\u{1f}{}", url.split('#').next().unwrap_or(url));
            state.earlier.clear();
            state.latest.clear();
        }
        let key = state.key.clone();
        // The tab's own process only: a frame's ids are qualified by a
        // number that is new for each of its documents (`frames.rs`).
        let ids: Vec<i64> = tree
            .iter()
            .filter_map(|(_, e)| e.aria_ref.as_deref().and_then(parse_ref))
            .filter(|&b| crate::frames::split(b).0 == 0)
            .collect();
        if let (Some(&min), Some(&max)) = (ids.iter().min(), ids.iter().max()) {
            self.note_range(&key, doc, min, max);
        }
        let c = self.carrier.carry(&key, tree)?;
        let mut out = Carried {
            carried: c.carried,
            fresh: c.fresh,
            ..Carried::default()
        };
        for (id, r) in &c.refs {
            if let Some(b) = parse_ref(id) {
                out.node_to_ref.insert(b, r.clone());
                out.ref_to_node.insert(r.clone(), b);
            }
        }
        let mut latest = HashMap::with_capacity(out.ref_to_node.len());
        for (_, e) in c.tree.iter() {
            if let Some(r) = &e.aria_ref
                && let Some(&backend) = out.ref_to_node.get(r)
            {
                latest.insert(
                    r.clone(),
                    Target {
                        backend,
                        role: e.role.clone(),
                        name: e.name.clone(),
                    },
                );
            }
        }
        out.tree = c.tree;
        let state = self.tabs.get_mut(tab).expect("inserted above");
        let previous = std::mem::replace(&mut state.latest, latest);
        if state.earlier.len() + previous.len() > MAX_EARLIER {
            state.earlier.clear();
        }
        for (r, t) in previous {
            if !state.latest.contains_key(&r) {
                state.earlier.insert(r, t);
            }
        }
        for r in state.latest.keys() {
            state.earlier.remove(r);
        }
        Ok(out)
    }

    /// Records that document `doc` filed under `key` uses backend ids in
    /// `min..=max`; an overlap with another document's range under the same
    /// key makes the key start over (see the module docs).
    fn note_range(&mut self, key: &str, doc: &str, min: i64, max: i64) {
        let known = self.ranges.contains_key(key);
        let ranges = self.ranges.entry(key.to_owned()).or_default();
        let clash = ranges
            .iter()
            .any(|d| d.doc != doc && d.min <= max && min <= d.max);
        if clash {
            tracing::debug!(
                "node ids of a new document overlap an older one at {key:?}; its refs start over"
            );
            ranges.clear();
            self.carrier.clear(key);
        }
        match ranges.iter_mut().find(|d| d.doc == doc) {
            Some(d) => {
                d.min = d.min.min(min);
                d.max = d.max.max(max);
            }
            None => {
                ranges.push_back(DocRange {
                    doc: doc.to_owned(),
                    min,
                    max,
                });
                if ranges.len() > DOCS_PER_KEY {
                    // Its views may still be in the carrier: without its
                    // range the overlap check could miss it.
                    ranges.clear();
                    ranges.push_back(DocRange {
                        doc: doc.to_owned(),
                        min,
                        max,
                    });
                    self.carrier.clear(key);
                }
            }
        }
        if !known {
            self.order.push_back(key.to_owned());
            while self.order.len() > MAX_KEYS {
                if let Some(old) = self.order.pop_front() {
                    self.ranges.remove(&old);
                    self.carrier.clear(&old);
                }
            }
        }
    }

    /// Where `r` points in tab `tab`.
    pub fn lookup(&self, tab: &str, r: &str) -> Lookup {
        let Some(state) = self.tabs.get(tab) else {
            return Lookup::Unknown;
        };
        if let Some(t) = state.latest.get(r) {
            return Lookup::Latest(t.clone());
        }
        match state.earlier.get(r) {
            Some(t) => Lookup::Earlier(t.clone()),
            None => Lookup::Unknown,
        }
    }

    /// Forgets a tab (closed, crashed, or the browser is gone): its map and
    /// the memory of every page it showed.
    pub fn forget(&mut self, tab: &str) {
        self.tabs.remove(tab);
        let prefix = format!("{tab}\u{1f}");
        let keys: Vec<String> = self
            .ranges
            .keys()
            .filter(|k| k.starts_with(&prefix))
            .cloned()
            .collect();
        for k in keys {
            self.ranges.remove(&k);
            self.carrier.clear(&k);
        }
        self.order.retain(|k| !k.starts_with(&prefix));
    }

    /// Bytes the carrier holds.
    pub fn memory_usage(&self) -> usize {
        self.carrier.memory_usage()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use response_diff::tree::parse_aria;

    fn t(s: &str) -> Tree {
        parse_aria(s, false).unwrap()
    }

    fn list(ids: &[(i64, &str)]) -> Tree {
        list_at(1, ids)
    }

    fn list_at(id: i64, ids: &[(i64, &str)]) -> Tree {
        let mut s = format!("- list \"Cart\" [ref=e{id}]:\n");
        for (id, name) in ids {
            s.push_str(&format!("  - listitem \"{name}\" [ref=e{id}]\n"));
        }
        t(&s)
    }

    #[test]
    fn a_rebuilt_list_keeps_its_refs_and_maps_them_to_the_new_nodes() {
        let mut refs = Refs::new();
        let a = refs
            .carry(
                "tab",
                "d1",
                "http://x/",
                &list(&[(10, "Tea"), (11, "Cake")]),
            )
            .unwrap();
        assert_eq!(a.fresh, 3);
        let b = refs
            .carry(
                "tab",
                "d1",
                "http://x/#cart",
                &list(&[(20, "Tea"), (21, "Cake"), (22, "Jam")]),
            )
            .unwrap();
        assert_eq!((b.carried, b.fresh), (3, 1));
        assert_eq!(
            b.tree.to_aria(),
            "- list \"Cart\" [ref=e1]:\n  - listitem \"Tea\" [ref=e10]\n  - listitem \"Cake\" [ref=e11]\n  - listitem \"Jam\" [ref=e22]"
        );
        assert_eq!(
            refs.lookup("tab", "e10"),
            Lookup::Latest(Target {
                backend: 20,
                role: "listitem".into(),
                name: "Tea".into()
            })
        );
        // Cake goes; its ref is remembered with its last node.
        refs.carry("tab", "d1", "http://x/", &list(&[(30, "Tea")]))
            .unwrap();
        assert!(matches!(refs.lookup("tab", "e11"), Lookup::Earlier(t) if t.backend == 21));
        assert_eq!(refs.lookup("tab", "e99"), Lookup::Unknown);
        assert_eq!(refs.lookup("other", "e10"), Lookup::Unknown);
    }

    #[test]
    fn coming_back_to_a_url_restores_refs_unless_node_ids_could_clash() {
        let mut refs = Refs::new();
        refs.carry("tab", "d1", "http://x/", &list(&[(10, "Tea")]))
            .unwrap();
        refs.carry(
            "tab",
            "d2",
            "http://x/other",
            &t("- heading \"Other\" [ref=e40]"),
        )
        .unwrap();
        // A new document of the first URL, ids above the old ones.
        let back = refs
            .carry("tab", "d3", "http://x/", &list_at(50, &[(51, "Tea")]))
            .unwrap();
        assert_eq!(back.node_to_ref[&51], "e10");
        assert_eq!(back.node_to_ref[&50], "e1");
        // A document from a new renderer process: ids restart and overlap.
        let fresh = refs
            .carry("tab", "d4", "http://x/", &list_at(4, &[(5, "Tea")]))
            .unwrap();
        assert_eq!((fresh.carried, fresh.node_to_ref[&5].as_str()), (0, "e5"));
    }

    #[test]
    fn relabel_and_forget() {
        let mut refs = Refs::new();
        refs.carry("tab", "d1", "http://x/", &list(&[(10, "Tea")]))
            .unwrap();
        let c = refs
            .carry("tab", "d1", "http://x/", &list(&[(20, "Tea")]))
            .unwrap();
        let sub = c.relabel(t("- listitem \"Tea\" [ref=e20]"));
        assert_eq!(sub.to_aria(), "- listitem \"Tea\" [ref=e10]");
        refs.forget("tab");
        assert_eq!(refs.lookup("tab", "e10"), Lookup::Unknown);
        assert_eq!(refs.memory_usage(), 0);
    }
}
