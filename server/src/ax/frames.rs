//! Iframes show their document inside the `iframe` node (Playwright's
//! rule): a frame of the page's process from the page's session
//! (`getFullAXTree {frameId}`, the page's DOM facts), an out-of-process
//! frame from its own session, read like a page (its own DOM facts and
//! frames), its ids qualified by its frame number (`crate::frames`,
//! docs/DECISIONS.md D31).

use super::dom::MAX_DEPTH;
use super::model::{AxSnapshot, Item};

/// Qualifies the ids under an out-of-process `iframe` node (its items as
/// [`AxSnapshot::convert`] returned them) with its frame number; ids of
/// frames nested in it are qualified already.
pub(super) fn qualify_frame(items: &mut [Item], frame: u32, depth: usize) {
    let q = |b: &mut Option<i64>| {
        if let Some(id) = b
            && crate::frames::split(*id).0 == 0
        {
            *id = crate::frames::qualify(frame, *id);
        }
    };
    for item in items {
        match item {
            Item::Node(n) => {
                // The iframe node itself is the parent's (depth 0).
                if depth > 0 {
                    q(&mut n.backend);
                }
                if depth < MAX_DEPTH {
                    qualify_frame(&mut n.children, frame, depth + 1);
                }
            }
            Item::Text(_, b) => q(b),
            Item::Glue => {}
        }
    }
}

impl AxSnapshot {
    /// Puts the tree of an out-of-process frame (read in its own session,
    /// with its own DOM facts) under the `iframe` whose backend id is
    /// `owner`, its node ids qualified by frame number `frame` (≥ 1).
    pub(crate) fn add_remote(&mut self, owner: i64, frame: u32, mut sub: AxSnapshot) {
        sub.frame = frame;
        self.remote.insert(owner, sub);
    }
}
