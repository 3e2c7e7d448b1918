//! What the carrier's passes share: an earlier view of a page, and the
//! refs being given to a new snapshot's elements.

use super::super::model::Tree;
use super::places::Places;
use crate::prelude::*;
use alloc::sync::Arc;

/// The refs being given to a snapshot's elements, in document order: each
/// one's ref, the view and index in it the ref came from, and every ref
/// taken.
pub(super) struct Claims {
    pub(super) out: Vec<Option<String>>,
    pub(super) from: Vec<Option<(usize, usize)>>,
    pub(super) used: FxHashSet<String>,
}

/// One earlier view: the snapshot as the host gave it (node ids) and the
/// ref each element was given, in document order.
#[derive(Debug)]
pub(super) struct View {
    pub(super) tree: Arc<Tree>,
    pub(super) refs: Vec<Option<String>>,
    pub(super) bytes: usize,
    pub(super) places: Places,
    /// The document it is of, when the host said
    /// ([`RefCarrier::carry_document`](super::RefCarrier::carry_document)).
    pub(super) document: Option<String>,
}
