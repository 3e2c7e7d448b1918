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
//! An action on a ref acts on the node that now stands there: the carrier
//! itself answers which node that is ([`RefCarrier::lookup`]), from the
//! tab's latest snapshot or, for a ref only an earlier snapshot of the same
//! document showed, from that snapshot (its node may still be attached).
//!
//! Memory is per page: a tab's document is filed under the URL it was first
//! seen at ([`carrier_key`]), and keeps that key through in-page route
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

use std::collections::{HashMap, HashSet, VecDeque};

use anyhow::Result;
use response_diff::tree::{CarrierConfig, Element, RefCarrier, RefSource, Tree, carrier_key};

use crate::ax::parse_ref;

/// Documents remembered per URL key for the id-overlap check.
const DOCS_PER_KEY: usize = 16;
/// URL keys whose document ranges are kept; beyond it the oldest key is
/// forgotten by the carrier too, so no stale range is ever trusted.
const MAX_KEYS: usize = 512;
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
    /// Every carrier key the tab filed a document under (for [`Refs::forget`]).
    keys: HashSet<String>,
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
    /// Empty memory; the carrier keeps the views per page every browser
    /// host keeps ([`CarrierConfig::pages`]), within its 8 MiB: a row paged
    /// away and back, or shown again by a larger page size, many responses
    /// later gets its old ref (and so can be restored by reference).
    pub fn new() -> Refs {
        Refs {
            // Backend ids name the same node for the life of a document.
            carrier: RefCarrier::with_config(CarrierConfig::pages().stable_ids(true)),
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
            state.key = carrier_key(tab, url);
            state.keys.insert(state.key.clone());
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
        let c = self.carrier.carry_document(&key, doc, tree)?;
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
        out.tree = c.tree;
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

    /// Where `r` points in tab `tab`: the carrier's answer for the tab's
    /// current page (its latest view, then the earlier views of the same
    /// document it keeps).
    pub fn lookup(&self, tab: &str, r: &str) -> Lookup {
        let Some(state) = self.tabs.get(tab) else {
            return Lookup::Unknown;
        };
        let Some(RefSource {
            node_id,
            role,
            name,
            latest,
            ..
        }) = self.carrier.lookup(&state.key, r)
        else {
            return Lookup::Unknown;
        };
        let Some(backend) = parse_ref(&node_id) else {
            return Lookup::Unknown;
        };
        let t = Target {
            backend,
            role,
            name,
        };
        if latest {
            Lookup::Latest(t)
        } else {
            Lookup::Earlier(t)
        }
    }

    /// Forgets a tab (closed, crashed, or the browser is gone): its map and
    /// the memory of every page it showed.
    pub fn forget(&mut self, tab: &str) {
        let Some(state) = self.tabs.remove(tab) else {
            return;
        };
        for k in &state.keys {
            self.ranges.remove(k);
            self.carrier.clear(k);
        }
        self.order.retain(|k| !state.keys.contains(k));
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

    #[test]
    fn a_ref_of_another_document_names_nothing() {
        let mut refs = Refs::new();
        refs.carry(
            "tab",
            "d1",
            "http://x/",
            &list(&[(10, "Tea"), (11, "Cake")]),
        )
        .unwrap();
        refs.carry("tab", "d1", "http://x/", &list(&[(10, "Tea")]))
            .unwrap();
        assert!(matches!(refs.lookup("tab", "e11"), Lookup::Earlier(t) if t.name == "Cake"));
        // A reload: the same URL, a new document whose ids are above the old.
        refs.carry("tab", "d2", "http://x/", &list_at(30, &[(31, "Tea")]))
            .unwrap();
        assert_eq!(refs.lookup("tab", "e11"), Lookup::Unknown);
        assert!(matches!(refs.lookup("tab", "e10"), Lookup::Latest(t) if t.backend == 31));
    }
}
