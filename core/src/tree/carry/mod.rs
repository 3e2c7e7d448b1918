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

mod carrier;
mod config;
mod page;
mod places;

pub use carrier::{OWN_REFS_NOTE, PAGE_VIEWS, RefCarrier, carrier_key};
pub use config::{CarrierConfig, MAX_VIEWS_PER_KEY, RETIRED_SHARE};

use super::model::Tree;
use crate::Result;
use crate::prelude::*;
use alloc::sync::Arc;
use page::{Page, View, number};
use places::Places;
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

/// What a carried ref named when it was shown: the answer of
/// [`RefCarrier::lookup`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct RefSource {
    /// The source's node id the element had in that view (the host's own
    /// ref: a backend node id, Playwright's aria-ref).
    pub node_id: String,
    /// The element's role, for messages.
    pub role: String,
    /// The element's name, for messages.
    pub name: String,
    /// Shown in the key's latest view; false when only an earlier view of
    /// the same document showed it.
    pub latest: bool,
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

    #[test]
    fn source_ref_reads_the_latest_view_then_earlier_ones_of_its_document() {
        let c = RefCarrier::with_config(CarrierConfig::pages().stable_ids(true));
        c.carry_document(
            "k",
            "d1",
            &t("- button \"A\" [ref=e1]\n- button \"B\" [ref=e2]"),
        )
        .unwrap();
        c.carry_document("k", "d1", &t("- button \"A\" [ref=e1]"))
            .unwrap();
        assert_eq!(c.source_ref("k", "e1").as_deref(), Some("e1"));
        let b = c.lookup("k", "e2").unwrap();
        assert_eq!(
            (b.node_id.as_str(), b.name.as_str(), b.latest),
            ("e2", "B", false)
        );
        // A new document: only its own views count.
        c.carry_document("k", "d2", &t("- button \"C\" [ref=e9]"))
            .unwrap();
        assert_eq!(c.lookup("k", "e2"), None);
        assert_eq!(c.source_ref("k", "e1"), None);
        // Carried without a document: the latest view alone.
        c.carry("k", &t("- button \"D\" [ref=e8]")).unwrap();
        assert_eq!(c.source_ref("k", "e9"), None);
        assert_eq!(c.source_ref("k", "e8").as_deref(), Some("e8"));
        assert!(c.clear("k"));
        assert_eq!(c.source_ref("k", "e8"), None);
    }

    #[test]
    fn carrier_key_drops_the_fragment_only() {
        assert_eq!(carrier_key("t", "http://x/#a"), "t\u{1f}http://x/");
        assert_eq!(carrier_key("t", ""), "t\u{1f}");
    }
}
