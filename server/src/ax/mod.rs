//! Chromium's accessibility tree (`Accessibility.getFullAXTree`, raw JSON)
//! → the core's aria [`Tree`], printed the way Playwright prints snapshots.
//!
//! Refs are `e<backendDOMNodeId>`: Chromium keeps a node's backend id for the
//! life of the document, so the same element has the same ref in every
//! snapshot of that document, and the server can act on it directly. In an
//! out-of-process iframe (another site, another renderer process, whose ids
//! start again) they are `f<n>e<backendDOMNodeId>`, `n` numbering that
//! frame's document (`crate::frames`, docs/DECISIONS.md D31).
//!
//! Where Chromium's AX tree says something else than Playwright's
//! `ariaSnapshot({mode: 'ai'})` (what @playwright/mcp prints), the DOM
//! decides: one `DOMSnapshot.captureSnapshot` per read ([`DomFacts`], joined
//! by backend node id) gives each element's tag, attributes, current form
//! state and computed display. We keep the AX tree as the base (its names
//! are Chromium's own name computation, and its node ids are our refs) and
//! correct it from the DOM rather than run Playwright's injected script in
//! the page: that script walks the whole DOM in JS on every read and has no
//! backend ids to give refs.
//!
//! A snapshot is built in steps, one file each; each names at its top the
//! Playwright rules it implements:
//! - `read`: the AX tree, the page's DOM facts and its iframes' trees;
//! - `dom`: the DOM snapshot as facts by backend node id ([`DomFacts`]);
//! - `convert`: one AX node → the items Playwright shows for it;
//! - `hidden`: `aria-hidden` and `inert` subtrees and the click targets
//!   Chromium drops, read from the DOM;
//! - `wrappers`: the elements Chromium leaves out, put back as generics;
//! - `role`: roles, states and props;
//! - `name`: accessible names as Playwright computes them, and which of
//!   them a snapshot shows;
//! - `frames`: iframe documents inside their `iframe` node;
//! - `print`: text joined, wrappers unwrapped, items → the core's elements.
//!
//! `model` holds the types they share ([`AxSnapshot`] and its items).
//!
//! Without DOM facts (no `with_dom`), the AX tree alone is shaped by the
//! same rules where it can be.

mod convert;
mod dom;
mod frames;
mod hidden;
mod model;
mod name;
mod print;
mod read;
mod role;
mod wrappers;

use std::sync::atomic::{AtomicBool, Ordering};

use response_diff::tree::Tree;

pub use dom::{DOM_SNAPSHOT_METHOD, DomFacts, dom_snapshot_params};
pub use model::AxSnapshot;

pub use crate::frames::parse_ref;

/// `--snapshot-boxes`: an operator flag, set once at start (the reader
/// has no engine to ask).
static BOXES: AtomicBool = AtomicBool::new(false);

/// Turns each element's `[box=x,y,width,height]` on or off.
pub fn set_boxes(on: bool) {
    BOXES.store(on, Ordering::SeqCst);
}

fn boxes() -> bool {
    BOXES.load(Ordering::SeqCst)
}

impl AxSnapshot {
    /// The whole page as an aria tree.
    pub fn tree(&self) -> Tree {
        match self.root {
            Some(r) => Tree::new(self.finish(self.convert(r, 0))),
            None => Tree::default(),
        }
    }

    /// The subtree of the DOM node with this backend id (its own node, or
    /// its children when the node itself is not shown), or `None` when the
    /// node is not in the accessibility tree at all.
    pub fn subtree(&self, backend_id: i64) -> Option<Tree> {
        let i = *self.by_backend.get(&backend_id)?;
        Some(Tree::new(self.finish(self.convert(i, 0))))
    }

    /// Whether a backend id is in this snapshot.
    pub fn contains(&self, backend_id: i64) -> bool {
        self.by_backend.contains_key(&backend_id)
    }

    /// Number of accessibility nodes (ignored ones included).
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the snapshot has no nodes.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod dom_tests;
