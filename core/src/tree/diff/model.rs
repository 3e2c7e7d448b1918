//! What a tree diff says: the added, removed and changed elements, the
//! fields that change, and the options.

use crate::prelude::*;
use crate::tree::filter::Filter;
use crate::tree::model::Element;
use alloc::borrow::Cow;

/// Which element identity to trust. In JSON options: `"refs"` or
/// `"content"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum IdentityMode {
    /// Match by ref first when both trees carry refs (stable refs, as from
    /// Playwright or our server), then by content. A matched element whose
    /// ref differs reports a `ref` change. The default.
    #[default]
    Refs,
    /// Ignore refs entirely: content hash and rename pass only. For trees
    /// whose refs are renumbered on every read; renumbered refs then count
    /// in [`TreeDiff::refs_renumbered`], not as changes.
    Content,
}

/// Options for [`diff_with`](super::diff_with).
///
/// ```
/// use response_diff::tree::{TreeDiffOptions, IdentityMode};
/// let opts = TreeDiffOptions { identity: IdentityMode::Content, ..TreeDiffOptions::default() };
/// assert!(!opts.compare_bounds);
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TreeDiffOptions {
    /// Which identity to trust (default [`IdentityMode::Refs`]).
    pub identity: IdentityMode,
    /// Report bounding-box changes (default off: scrolling would move every box).
    pub compare_bounds: bool,
    /// Filters applied to both trees before diffing.
    pub filter: Filter,
}

/// What changed between two trees. Lists are in document order (new tree
/// for added and changed, old tree for removed).
///
/// ```
/// use response_diff::tree::{diff, parse_aria};
/// let old = parse_aria("- list \"Cart\" [ref=e1]:\n  - listitem [ref=e2]: Item 1", false).unwrap();
/// let new = parse_aria("- list \"Cart\" [ref=e1]:\n  - listitem [ref=e2]: Item 1\n  - listitem [ref=e3]: Item 2", false).unwrap();
/// let d = diff(&old, &new);
/// assert_eq!((d.added.len(), d.removed.len(), d.changed.len(), d.unchanged_count), (1, 0, 0, 2));
/// assert_eq!(d.to_agent(), "+ [e3] listitem value=\"Item 2\" (in list \"Cart\")\n# 2 elements unchanged");
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TreeDiff {
    /// Elements only in the new tree.
    pub added: Vec<Added>,
    /// Elements only in the old tree (every one, descendants included).
    pub removed: Vec<Removed>,
    /// Field changes of matched elements, one entry per field.
    pub changed: Vec<TreeChange>,
    /// Matched elements with no change.
    pub unchanged_count: usize,
    /// Matched elements whose ref differs ([`IdentityMode::Content`] only).
    pub refs_renumbered: usize,
}

/// Where an element sits, for applying a diff.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Parent {
    /// At the top level.
    Root,
    /// Under the old tree's element with this document index (it is matched).
    Old(usize),
    /// Under the added element with this new-tree document index.
    Added(usize),
}

/// A short description of an element for context lines: role, name, ref.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ElementContext {
    /// Role.
    pub role: String,
    /// Name (empty for none).
    pub name: String,
    /// Ref, if any.
    pub aria_ref: Option<String>,
}

impl ElementContext {
    pub(super) fn of(e: &Element) -> Self {
        ElementContext {
            role: e.role.clone(),
            name: e.name.clone(),
            aria_ref: e.aria_ref.clone(),
        }
    }
}

/// An added element.
#[derive(Debug, Clone, PartialEq)]
pub struct Added {
    /// The element without its children (added children have entries of their own).
    pub element: Element,
    /// Document index in the new tree.
    pub index: usize,
    /// Its parent, for applying the diff.
    pub parent: Parent,
    /// Index among the new parent's children.
    pub position: usize,
    /// The new parent (None at top level), for context.
    pub context: Option<ElementContext>,
}

/// A removed element.
#[derive(Debug, Clone, PartialEq)]
pub struct Removed {
    /// The element without its children.
    pub element: Element,
    /// Document index in the old tree.
    pub index: usize,
    /// Its parent was removed too (renderers show only the topmost).
    pub parent_removed: bool,
    /// The old parent (None at top level), for context.
    pub context: Option<ElementContext>,
}

/// Which field of a matched element changed.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Field {
    /// The role (only when matched by ref).
    Role,
    /// The accessible name.
    Name,
    /// The inline value.
    Value,
    /// The description.
    Description,
    /// A bracketed attribute, by name.
    State(String),
    /// A property line, by name (without the slash).
    Prop(String),
    /// The bounding box (only with [`TreeDiffOptions::compare_bounds`]).
    Bounds,
    /// The ref ([`IdentityMode::Refs`] only).
    Ref,
    /// The element moved under another parent; `from`/`to` describe the parents.
    Parent,
}

impl Field {
    /// The name used in YAML/JSON: `name`, `value`, `state:checked`, `prop:url`, …
    ///
    /// ```
    /// use response_diff::tree::Field;
    /// assert_eq!(Field::State("checked".into()).key(), "state:checked");
    /// assert_eq!(Field::Value.key(), "value");
    /// ```
    pub fn key(&self) -> Cow<'static, str> {
        match self {
            Field::Role => "role".into(),
            Field::Name => "name".into(),
            Field::Value => "value".into(),
            Field::Description => "description".into(),
            Field::State(s) => format!("state:{s}").into(),
            Field::Prop(p) => format!("prop:{p}").into(),
            Field::Bounds => "bounds".into(),
            Field::Ref => "ref".into(),
            Field::Parent => "parent".into(),
        }
    }
}

/// One field change of a matched element.
#[derive(Debug, Clone, PartialEq)]
pub struct TreeChange {
    /// The element's ref (new tree's; the old one if the new has none).
    pub aria_ref: Option<String>,
    /// The element's role in the new tree.
    pub role: String,
    /// The element's name in the new tree.
    pub name: String,
    /// Which field.
    pub field: Field,
    /// Old value (`None`: absent). A bare flag state is `"true"`.
    pub from: Option<String>,
    /// New value (`None`: absent).
    pub to: Option<String>,
    /// Document index in the old tree.
    pub old_index: usize,
    /// Document index in the new tree.
    pub new_index: usize,
    /// For [`Field::Parent`]: the new parent, for applying the diff.
    pub new_parent: Option<Parent>,
}

impl TreeDiff {
    /// Whether nothing was added, removed or changed.
    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty() && self.changed.is_empty()
    }
}
