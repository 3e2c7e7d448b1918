//! The snapshot's types: a parsed AX tree with the DOM facts and frame
//! trees that correct it ([`AxSnapshot`]), and the items each step makes
//! of its nodes before they become the core's elements (`print`).

use std::collections::HashMap;

use response_diff::tree::{Prop, State};
use serde_json::Value;

use super::dom::DomFacts;

/// One parsed snapshot of a page's accessibility tree.
#[derive(Debug)]
pub struct AxSnapshot {
    pub(super) nodes: Vec<Value>,
    pub(super) by_id: HashMap<String, usize>,
    pub(super) by_backend: HashMap<i64, usize>,
    pub(super) root: Option<usize>,
    pub(super) origin: Option<String>,
    pub(super) dom: DomFacts,
    pub(super) frames: HashMap<i64, AxSnapshot>,
    /// Out-of-process iframes' trees by the backend id of their `<iframe>`
    /// (each with its own process's DOM facts; `crate::frames`).
    pub(super) remote: HashMap<i64, AxSnapshot>,
    /// The frame number that qualifies this tree's node ids (0: the tab's
    /// own process).
    pub(super) frame: u32,
    /// `aria-hidden` elements Chromium left out of its tree entirely, by the
    /// backend id of their closest ancestor it kept (see [`Self::orphans`]).
    pub(super) orphans: HashMap<i64, Vec<i64>>,
    /// The elements that gave each named node its name, by backend id
    /// (`name`; filled as nodes are converted).
    pub(super) name_parts: std::cell::RefCell<HashMap<i64, Vec<i64>>>,
}

pub(super) enum Item {
    Node(Box<Node>),
    /// Text and the backend id of the DOM text node it comes from.
    Text(String, Option<i64>),
    /// Joins the texts around it without a space (a `<br>`, as Playwright
    /// reads it).
    Glue,
}

pub(super) struct Node {
    pub(super) role: String,
    pub(super) name: String,
    pub(super) value: Option<String>,
    pub(super) backend: Option<i64>,
    pub(super) states: Vec<State>,
    pub(super) props: Vec<Prop>,
    pub(super) children: Vec<Item>,
    /// Playwright would give it a ref: it has a box and takes pointer
    /// events (a generic is unwrapped only around such a node).
    pub(super) targetable: bool,
    /// A click target of its own (see [`super::dom::DomNode::click_root`]): kept
    /// even when it is an empty generic or a nameless image.
    pub(super) click_root: bool,
    /// Its box in its document's viewport (`--snapshot-boxes`).
    pub(super) bounds: Option<[f64; 4]>,
}
