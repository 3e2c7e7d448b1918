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
//!   the rename pass's first stage, then elements whose ancestors changed
//!   only by wrappers inserted or dropped: the same content under the
//!   nearest ancestor pair, look-alikes only when each side has as many).
//!   A value or state change keeps the ref.
//! - **Never to different content.** The rename pass's role-only stage is
//!   left out, but for static text that holds text (a live region's "Page 1
//!   of 6" → "Page 1 of 7", rebuilt with new ids) and the text in it, which
//!   nothing acts on: a rebuilt node whose name differs from every element
//!   seen before is a new element, so an agent acting on a stale ref gets "gone"
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
//!   so the whole row can be restored by one reference. Nor does a ref
//!   move from an item of a collection still on the page into another item
//!   that was there before: the delete button a hover shows on one todo is
//!   not the one the agent saw on another (issue 42).
//! - **Look-alikes keep their neighbours.** Among the leaves under one
//!   parent (chrome-devtools-mcp's grid: one flat run of text cells), a
//!   repeated text takes the ref that stood beside its neighbour's ref
//!   before, so a row comes back with all its cells' refs; a cell that
//!   came back beside a new row's cells and none of its own is new
//!   (`neighbours`).
//! - **Deterministic.** The same inputs give the same refs.
//!
//! Elements without a node id (static text) get no ref.

mod carried;
mod carrier;
mod config;
mod neighbours;
mod page;
mod places;
mod view;

pub use carried::{CarryOptions, RefCarry, RefSource};
pub use carrier::{OWN_REFS_NOTE, RefCarrier, carrier_key};
pub use config::{CarrierConfig, MAX_VIEWS_PER_KEY, PAGE_VIEWS, RETIRED_SHARE};
pub use page::carry_refs;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prelude::*;
    use crate::tree::{Tree, parse_aria};

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
