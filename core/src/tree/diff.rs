//! Tree diff: stable element identity and field-level changes (docs/DECISIONS.md D12, D13).
//!
//! Identity, in order:
//! 1. **Refs**, when both trees carry refs and [`IdentityMode::Refs`] is on.
//! 2. **Content hash**: blake3 of role + name + description + the ancestors'
//!    (role, name) path. Elements sharing a hash are paired in document
//!    order like occurrence indexes, but aligned on their content first
//!    (a sequence diff), so that an item inserted among duplicates does not
//!    shift the pairing of the ones after it; pairs under matched parents
//!    are preferred.
//! 3. **Positional rename**: leftovers with the same role under the same
//!    matched parent, between the same matched siblings, are the same element
//!    renamed: `changed`, not removed + added.
//!
//! Value is not part of the identity, so a value change is a `changed`.

use super::filter::Filter;
use super::model::{Bounds, Element, Prop, State, Tree, assemble};
use crate::prelude::*;
use alloc::borrow::Cow;
use core::hash::{Hash, Hasher};

const NONE: u32 = u32::MAX;

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

/// Options for [`diff_with`].
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
    fn of(e: &Element) -> Self {
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

/// Diffs two trees with the default options ([`IdentityMode::Refs`], no filters).
///
/// ```
/// use response_diff::tree::{diff, parse_aria, Field};
/// let old = parse_aria("- textbox \"Search\" [ref=e12]: a", false).unwrap();
/// let new = parse_aria("- textbox \"Search\" [ref=e12]: b", false).unwrap();
/// let d = diff(&old, &new);
/// assert_eq!(d.changed[0].field, Field::Value);
/// assert_eq!(d.to_agent(), "~ [e12] textbox \"Search\" value=\"b\" (was \"a\")\n# 0 elements unchanged");
/// ```
pub fn diff(old: &Tree, new: &Tree) -> TreeDiff {
    diff_with(old, new, &TreeDiffOptions::default())
}

/// Diffs two trees: filters both, matches elements (refs, content hash,
/// positional rename) and lists what was added, removed and changed.
///
/// ```
/// use response_diff::tree::{diff_with, parse_aria, TreeDiffOptions, IdentityMode};
/// // Refs renumbered, content equal: nothing changed in content mode.
/// let old = parse_aria("- button \"Save\" [ref=e5]", false).unwrap();
/// let new = parse_aria("- button \"Save\" [ref=e60]", false).unwrap();
/// let opts = TreeDiffOptions { identity: IdentityMode::Content, ..TreeDiffOptions::default() };
/// let d = diff_with(&old, &new, &opts);
/// assert!(d.is_empty());
/// assert_eq!(d.refs_renumbered, 1);
/// ```
pub fn diff_with(old: &Tree, new: &Tree, options: &TreeDiffOptions) -> TreeDiff {
    let (old, new): (Cow<'_, Tree>, Cow<'_, Tree>) = if options.filter.is_noop() {
        (Cow::Borrowed(old), Cow::Borrowed(new))
    } else {
        (
            Cow::Owned(options.filter.apply(old)),
            Cow::Owned(options.filter.apply(new)),
        )
    };
    let mut o = Flat::new(&old, options);
    let mut n = Flat::new(&new, options);
    let by_refs = options.identity == IdentityMode::Refs;
    let (old_to_new, new_to_old) = pair_by_refs_then_hash_ids(&mut o, &mut n, by_refs);
    let mut m = Matching {
        o: &o,
        n: &n,
        old_to_new,
        new_to_old,
        role_renames: true,
        item_keys: None,
    };
    m.match_hashes();
    m.match_renames();
    m.into_diff(options, options.identity == IdentityMode::Refs)
}

/// Roles whose elements are items of a collection: their text says which
/// item they are.
pub(crate) const ITEM_ROLES: &[&str] = &[
    "listitem",
    "row",
    "option",
    "treeitem",
    "menuitem",
    "menuitemcheckbox",
    "menuitemradio",
    "tab",
    "cell",
    "gridcell",
    "rowheader",
    "columnheader",
    "article",
];

/// Roles of static text, which no action targets.
const STATIC_ROLES: &[&str] = &[
    "strong",
    "emphasis",
    "paragraph",
    "text",
    "status",
    "time",
    "mark",
    "code",
    "subscript",
    "superscript",
];

/// The element matching of the diff, for carrying refs over: for each
/// element of `new` in document order, the document index of the same
/// element in `old` and whether the pair is by content (`true`) or by node
/// id alone (`false`: the caller takes it only when no view pairs the
/// element by content), or `None`.
///
/// Items of a collection pair by all they show (states and buttons aside),
/// never in order; a pair by content needs its parents paired by content
/// with each other, or neither parent paired by content.
///
/// Refs count as node ids only with `stable_ids`, and a pair by node id is
/// always kept; but content decides first: node ids pair at once only
/// where the element's content (below) is unchanged and its parent was
/// paired the same way (step 1a), then the content hash pairs (step 2),
/// then node ids pair what is left on both sides (step 1b: a field renamed
/// in place). A reused node showing another row is that row. Other pairs
/// must also hold the same content and sit in the same place, so that a
/// ref is never handed to different content:
/// - step 3 keeps only its first stage (same role, name and description
///   under a renamed ancestor): a leftover that merely shares a role with a
///   removed element is another element here;
/// - an unnamed element's content is its value and properties, and, for an
///   item of a collection ([`ITEM_ROLES`]) or an element none of whose
///   children has a ref, the text of its descendants without refs (a cart
///   row showing another product is another row); a named element's is its
///   role, name and description (a field whose value changed, a checkbox
///   now checked, stays itself), and so is another container's (a footer
///   whose count changed beside its links stays itself);
/// - the parents are paired with each other, or neither is paired (no pair
///   across rows whose places the diff matched to other rows).
pub(crate) fn match_for_carry(
    old: &Tree,
    new: &Tree,
    stable_ids: bool,
) -> Vec<Option<(usize, bool)>> {
    let options = TreeDiffOptions::default();
    let mut o = Flat::new(old, &options);
    let mut n = Flat::new(new, &options);
    // Node ids, when stable, are only trusted first where the content and
    // the parent stayed (step 1a): frameworks reuse a list's nodes for other
    // rows (a filter shows "Walk the dog" in the node that showed "Buy
    // milk"), and the agent knows the row by what it shows, so content
    // decides before node ids do (step 1b pairs what is left by node id: a
    // field renamed in place keeps its ref).
    let (id_o2n, id_n2o) = if stable_ids && o.has_refs && n.has_refs {
        match_refs(&o, &n)
    } else {
        (vec![NONE; o.len()], vec![NONE; n.len()])
    };
    o.compute_ids(|_| true);
    n.compute_ids(|_| true);
    let (ok, nk) = (o.carry_keys(), n.carry_keys());
    let mut old_to_new = vec![NONE; o.len()];
    let mut new_to_old = vec![NONE; n.len()];
    let mut by_id = vec![false; n.len()];
    // Document order: a parent is decided before its children.
    for ni in 0..n.len() {
        let oi = id_n2o[ni];
        if oi == NONE || ok[oi as usize] != nk[ni] {
            continue;
        }
        let (op, np) = (o.parent[oi as usize], n.parent[ni]);
        let parents_kept = match (op, np) {
            (NONE, NONE) => true,
            (NONE, _) | (_, NONE) => false,
            (op, np) => by_id[np as usize] && new_to_old[np as usize] == op,
        };
        if parents_kept {
            old_to_new[oi as usize] = ni as u32;
            new_to_old[ni] = oi;
            by_id[ni] = true;
        }
    }
    let mut m = Matching {
        o: &o,
        n: &n,
        old_to_new,
        new_to_old,
        role_renames: false,
        item_keys: Some((&ok, &nk)),
    };
    m.match_hashes();
    // Step 1b: a node pairs with itself unless content paired either side
    // with an element of the same content (a pair of differing content
    // would be dropped below anyway).
    for (oi, &ni) in id_o2n.iter().enumerate() {
        if ni == NONE {
            continue;
        }
        if m.old_to_new[oi] == ni {
            by_id[ni as usize] = true;
            continue;
        }
        let (cur_n, cur_o) = (m.old_to_new[oi], m.new_to_old[ni as usize]);
        let weak_o = cur_n == NONE || ok[oi] != nk[cur_n as usize];
        let weak_n = cur_o == NONE || ok[cur_o as usize] != nk[ni as usize];
        if weak_o && weak_n {
            if cur_n != NONE {
                m.new_to_old[cur_n as usize] = NONE;
            }
            if cur_o != NONE {
                m.old_to_new[cur_o as usize] = NONE;
            }
            m.pair(oi as u32, ni);
            by_id[ni as usize] = true;
        }
    }
    m.match_renames();
    // Top-down: a pair is by content when the content is the same and the
    // parents are paired by content with each other, or neither is paired
    // by content (a row rebuilt elsewhere). A pair by node id alone is
    // weaker: the caller takes it only when no view pairs the element by
    // content.
    let mut strong = vec![false; n.len()];
    let mut old_strong = vec![false; o.len()];
    let mut out: Vec<Option<(usize, bool)>> = vec![None; n.len()];
    for ni in 0..n.len() {
        let oi = m.new_to_old[ni];
        if oi == NONE {
            continue;
        }
        let oi = oi as usize;
        let (op, np) = (o.parent[oi], n.parent[ni]);
        let parent_ok = match (op, np) {
            (NONE, NONE) => true,
            (NONE, np) => !strong[np as usize],
            (op, NONE) => !old_strong[op as usize],
            (op, np) if m.new_to_old[np as usize] == op => strong[np as usize],
            (op, np) => !strong[np as usize] && !old_strong[op as usize],
        };
        // Static text whose words changed in place (a count "2" → "3"
        // that a framework redrew) is the same element: nothing acts on it,
        // so its ref cannot send an action to other content.
        let e = n.nodes[ni];
        let recount = e.name.is_empty()
            && e.children.is_empty()
            && STATIC_ROLES.contains(&e.role.as_str())
            && o.nodes[oi].role == e.role
            && np != NONE
            && m.new_to_old[np as usize] == op
            && strong[np as usize];
        if (ok[oi] == nk[ni] && parent_ok) || recount {
            strong[ni] = true;
            old_strong[oi] = true;
            out[ni] = Some((oi, true));
        } else if by_id[ni] {
            out[ni] = Some((oi, false));
        }
    }
    out
}

impl TreeDiff {
    /// Whether nothing was added, removed or changed.
    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty() && self.changed.is_empty()
    }
}

// ---------------------------------------------------------------------------

/// A tree flattened in document order.
struct Flat<'a> {
    nodes: Vec<&'a Element>,
    parent: Vec<u32>,
    depth: Vec<u32>,
    /// Position among the parent's children.
    position: Vec<u32>,
    /// Identity: blake3 of role, name, description and the ancestors' path
    /// (computed on demand: elements matched by ref never need it).
    id: Vec<u128>,
    /// blake3 of the (role, name) path down to and including the element.
    path: Vec<Option<[u8; 16]>>,
    /// Own fields and subtree content (value, states, props, children…).
    sig: Vec<u64>,
    /// Role + name + description, without the path (for the rename pass).
    local: Vec<u64>,
    /// Children of node i are `kids[kid_start[i]..kid_start[i + 1]]`; the
    /// top-level elements are the children of the virtual root `len()`.
    kids: Vec<u32>,
    kid_start: Vec<u32>,
    has_refs: bool,
}

fn fx<T: Hash + ?Sized>(v: &T) -> u64 {
    let mut h = FxHasher::default();
    v.hash(&mut h);
    h.finish()
}

impl<'a> Flat<'a> {
    fn new(tree: &'a Tree, options: &TreeDiffOptions) -> Self {
        let cap = tree.len();
        let mut f = Flat {
            nodes: Vec::with_capacity(cap),
            parent: Vec::with_capacity(cap),
            depth: Vec::with_capacity(cap),
            position: Vec::with_capacity(cap),
            id: Vec::new(),
            path: Vec::new(),
            sig: Vec::with_capacity(cap),
            local: Vec::with_capacity(cap),
            kids: Vec::new(),
            kid_start: Vec::new(),
            has_refs: false,
        };
        let mut stack: Vec<(u32, core::slice::Iter<'a, Element>, u32)> =
            vec![(NONE, tree.roots.iter(), 0)];
        while let Some((parent, it, pos)) = stack.last_mut() {
            let Some(e) = it.next() else {
                stack.pop();
                continue;
            };
            let parent = *parent;
            let position = *pos;
            *pos += 1;
            let depth = stack.len() - 1;
            let idx = f.nodes.len() as u32;
            f.has_refs |= e.aria_ref.is_some();
            f.nodes.push(e);
            f.parent.push(parent);
            f.depth.push(depth as u32);
            f.position.push(position);
            f.local
                .push(fx(&(&e.role, &e.name, e.name_regex, &e.description)));
            f.sig.push(own_sig(e, options.compare_bounds));
            if !e.children.is_empty() {
                stack.push((idx, e.children.iter(), 0));
            }
        }
        let n = f.nodes.len();
        // Children lists (counting sort by parent; preorder keeps sibling order).
        let slot = |p: u32| if p == NONE { n } else { p as usize };
        let mut start = vec![0u32; n + 2];
        for &p in &f.parent {
            start[slot(p) + 1] += 1;
        }
        for i in 1..start.len() {
            start[i] += start[i - 1];
        }
        let mut fill = start.clone();
        f.kids = vec![0; n];
        for (i, &p) in f.parent.iter().enumerate() {
            let s = slot(p);
            f.kids[fill[s] as usize] = i as u32;
            fill[s] += 1;
        }
        f.kid_start = start;
        // Subtree signatures, children before parents.
        for i in (0..n).rev() {
            let kids = f.children_of(i as u32);
            if !kids.is_empty() {
                let mut h = FxHasher::default();
                f.sig[i].hash(&mut h);
                for &k in kids {
                    f.local[k as usize].hash(&mut h);
                    f.sig[k as usize].hash(&mut h);
                }
                f.sig[i] = h.finish();
            }
        }
        f
    }

    fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Computes the identity hash of every element for which `want` is true
    /// (and the path hashes of their ancestors).
    fn compute_ids(&mut self, want: impl Fn(usize) -> bool) {
        let n = self.len();
        self.id.resize(n, 0);
        self.path.resize(n, None);
        let mut buf: Vec<u8> = Vec::with_capacity(256);
        let mut chain: Vec<usize> = Vec::new();
        for i in 0..n {
            if !want(i) {
                continue;
            }
            // Ancestors without a path hash yet, nearest first.
            chain.clear();
            let mut j = i;
            while self.path[j].is_none() {
                chain.push(j);
                match self.parent[j] {
                    NONE => break,
                    p => j = p as usize,
                }
            }
            for &k in chain.iter().rev() {
                let e = self.nodes[k];
                buf.clear();
                match self.parent[k] {
                    NONE => buf.extend_from_slice(&[0u8; 16]),
                    p => buf.extend_from_slice(&self.path[p as usize].expect("parent first")),
                }
                push_field(&mut buf, &e.role);
                push_field(&mut buf, &e.name);
                buf.push(e.name_regex as u8);
                let path: [u8; 16] = blake3::hash(&buf).as_bytes()[..16]
                    .try_into()
                    .expect("16 bytes");
                self.path[k] = Some(path);
                let id = match &e.description {
                    None => path,
                    Some(d) => {
                        buf.clear();
                        buf.extend_from_slice(&path);
                        push_field(&mut buf, d);
                        blake3::hash(&buf).as_bytes()[..16]
                            .try_into()
                            .expect("16 bytes")
                    }
                };
                self.id[k] = u128::from_le_bytes(id);
            }
        }
    }

    /// What an element must keep to keep its ref when its node is rebuilt
    /// (see [`match_for_carry`]).
    fn carry_keys(&self) -> Vec<u64> {
        let mut keys = vec![0u64; self.len()];
        // Everything an element shows, states aside (an item's content).
        let mut deep = vec![0u64; self.len()];
        for i in (0..self.len()).rev() {
            let e = self.nodes[i];
            let kids = self.children_of(i as u32);
            let mut d = FxHasher::default();
            self.local[i].hash(&mut d);
            e.value.hash(&mut d);
            e.props.hash(&mut d);
            // A row's buttons ("✖", "Remove") come and go on hover and
            // are alike in every row: a row is what else it shows (a row
            // of buttons alone is its buttons).
            let is_button = |k: u32| self.nodes[k as usize].role == "button";
            let only_buttons = kids.iter().all(|&k| is_button(k));
            let shown = |k: &&u32| only_buttons || !is_button(**k);
            for &k in kids.iter().filter(shown) {
                deep[k as usize].hash(&mut d);
            }
            deep[i] = d.finish();
            let mut h = FxHasher::default();
            self.local[i].hash(&mut h);
            if e.name.is_empty() {
                e.value.hash(&mut h);
                e.props.hash(&mut h);
                // A leaf's text is what it is, and so is an item's (a row
                // of a list or a table: all it shows, however deep);
                // another container's loose text (a count beside its links)
                // is a property of it, as a value.
                if ITEM_ROLES.contains(&e.role.as_str()) {
                    for &k in kids.iter().filter(shown) {
                        deep[k as usize].hash(&mut h);
                    }
                } else if kids
                    .iter()
                    .all(|&k| self.nodes[k as usize].aria_ref.is_none())
                {
                    for &k in kids {
                        keys[k as usize].hash(&mut h);
                    }
                }
            }
            keys[i] = h.finish();
        }
        keys
    }

    /// Children of `i`, or the top-level elements for `NONE`.
    fn children_of(&self, i: u32) -> &[u32] {
        let s = if i == NONE { self.len() } else { i as usize };
        &self.kids[self.kid_start[s] as usize..self.kid_start[s + 1] as usize]
    }
}

fn push_field(buf: &mut Vec<u8>, s: &str) {
    buf.extend_from_slice(&(s.len() as u32).to_le_bytes());
    buf.extend_from_slice(s.as_bytes());
}

fn own_sig(e: &Element, bounds: bool) -> u64 {
    let mut h = FxHasher::default();
    e.role.hash(&mut h);
    e.name.hash(&mut h);
    e.value.hash(&mut h);
    e.description.hash(&mut h);
    e.states.hash(&mut h);
    e.props.hash(&mut h);
    if bounds {
        if let Some(b) = &e.bounds {
            [b.x, b.y, b.width, b.height].map(f64::to_bits).hash(&mut h);
        }
    }
    h.finish()
}

/// Step 1: refs present exactly once in each tree.
/// The first identity stage shared by the diff and ref carrying: elements
/// paired by ref when `by_refs` and both trees carry refs, then content ids
/// computed for every element left unpaired.
fn pair_by_refs_then_hash_ids(
    o: &mut Flat<'_>,
    n: &mut Flat<'_>,
    by_refs: bool,
) -> (Vec<u32>, Vec<u32>) {
    let (old_to_new, new_to_old) = if by_refs && o.has_refs && n.has_refs {
        match_refs(o, n)
    } else {
        (vec![NONE; o.len()], vec![NONE; n.len()])
    };
    o.compute_ids(|i| old_to_new[i] == NONE);
    n.compute_ids(|i| new_to_old[i] == NONE);
    (old_to_new, new_to_old)
}

fn match_refs(o: &Flat<'_>, n: &Flat<'_>) -> (Vec<u32>, Vec<u32>) {
    let mut old_to_new = vec![NONE; o.len()];
    let mut new_to_old = vec![NONE; n.len()];
    // ref -> (old index, new index); NONE marks "absent or duplicated".
    const DUP: u32 = NONE - 1;
    let mut refs: FxHashMap<&str, (u32, u32)> = FxHashMap::default();
    refs.reserve(o.len());
    for (i, e) in o.nodes.iter().enumerate() {
        if let Some(r) = e.aria_ref.as_deref() {
            refs.entry(r)
                .and_modify(|v| v.0 = DUP)
                .or_insert((i as u32, NONE));
        }
    }
    for (i, e) in n.nodes.iter().enumerate() {
        if let Some(v) = e.aria_ref.as_deref().and_then(|r| refs.get_mut(r)) {
            v.1 = if v.1 == NONE { i as u32 } else { DUP };
        }
    }
    for (oi, ni) in refs.into_values() {
        if oi < DUP && ni < DUP {
            old_to_new[oi as usize] = ni;
            new_to_old[ni as usize] = oi;
        }
    }
    (old_to_new, new_to_old)
}

struct Matching<'f, 'a> {
    o: &'f Flat<'a>,
    n: &'f Flat<'a>,
    old_to_new: Vec<u32>,
    new_to_old: Vec<u32>,
    /// Step 3's second stage: leftovers paired by role alone.
    role_renames: bool,
    /// For carrying refs: items of a collection align on these keys (their
    /// text, states aside) and pair only when equal, never in order.
    item_keys: Option<(&'f [u64], &'f [u64])>,
}

impl Matching<'_, '_> {
    fn pair(&mut self, o: u32, n: u32) {
        self.old_to_new[o as usize] = n;
        self.new_to_old[n as usize] = o;
    }

    /// Step 2: content hash with occurrence alignment.
    fn match_hashes(&mut self) {
        // Groups of unmatched elements sharing an identity hash, as linked
        // lists in document order (no allocation per group).
        #[derive(Clone, Copy)]
        struct Group {
            old_head: u32,
            old_tail: u32,
            old_len: u32,
            new_head: u32,
            new_tail: u32,
            new_len: u32,
        }
        let (o, n) = (self.o, self.n);
        let mut index: FxHashMap<u128, u32> = FxHashMap::default();
        index.reserve(o.len());
        let mut groups: Vec<Group> = Vec::new();
        let mut next_old = vec![NONE; o.len()];
        let mut next_new = vec![NONE; n.len()];
        for i in 0..o.len() {
            if self.old_to_new[i] != NONE {
                continue;
            }
            let i = i as u32;
            let g = *index.entry(o.id[i as usize]).or_insert_with(|| {
                groups.push(Group {
                    old_head: i,
                    old_tail: NONE,
                    old_len: 0,
                    new_head: NONE,
                    new_tail: NONE,
                    new_len: 0,
                });
                (groups.len() - 1) as u32
            });
            let g = &mut groups[g as usize];
            if g.old_tail != NONE {
                next_old[g.old_tail as usize] = i;
            }
            g.old_tail = i;
            g.old_len += 1;
        }
        for i in 0..n.len() {
            if self.new_to_old[i] != NONE {
                continue;
            }
            let Some(&g) = index.get(&n.id[i]) else {
                continue;
            };
            let i = i as u32;
            let g = &mut groups[g as usize];
            if g.new_tail == NONE {
                g.new_head = i;
            } else {
                next_new[g.new_tail as usize] = i;
            }
            g.new_tail = i;
            g.new_len += 1;
        }
        // Singletons pair at once. The hash covers the path, so a group's
        // members share a depth: the other groups go shallow first, so that
        // parents are paired before their children.
        let mut multi: Vec<Group> = Vec::new();
        for g in &groups {
            match (g.old_len, g.new_len) {
                (_, 0) => {}
                (1, 1) => self.pair(g.old_head, g.new_head),
                _ => multi.push(*g),
            }
        }
        multi.sort_by_key(|g| o.depth[g.old_head as usize]);
        let walk = |head: u32, next: &[u32]| {
            let mut v = Vec::new();
            let mut i = head;
            while i != NONE {
                v.push(i);
                i = next[i as usize];
            }
            v
        };
        for g in multi {
            let olds = walk(g.old_head, &next_old);
            let news = walk(g.new_head, &next_new);
            self.match_group(&olds, &news);
        }
    }

    fn match_group(&mut self, olds: &[u32], news: &[u32]) {
        let (o, n) = (self.o, self.n);
        if let Some((ok, nk)) = self.item_keys
            && ITEM_ROLES.contains(&n.nodes[news[0] as usize].role.as_str())
        {
            // A row showing other text is another row, wherever it sits.
            self.align(olds, news, ok, nk, false);
            return;
        }
        // Common case: every member under one parent pair.
        let new_parent_of_old = |x: u32| match o.parent[x as usize] {
            NONE => NONE,
            p => match self.old_to_new[p as usize] {
                NONE => NONE - 1,
                np => np,
            },
        };
        let k = n.parent[news[0] as usize];
        if olds.iter().all(|&x| new_parent_of_old(x) == k)
            && news.iter().all(|&x| n.parent[x as usize] == k)
        {
            self.align(olds, news, &o.sig, &n.sig, true);
            return;
        }
        // Under matched parents first: bucket by the new parent.
        let mut buckets: FxHashMap<u32, (Vec<u32>, Vec<u32>)> = FxHashMap::default();
        for &o in olds {
            let p = self.o.parent[o as usize];
            let np = if p == NONE {
                NONE
            } else {
                match self.old_to_new[p as usize] {
                    NONE => continue,
                    np => np,
                }
            };
            buckets.entry(np).or_default().0.push(o);
        }
        for &n in news {
            buckets
                .entry(self.n.parent[n as usize])
                .or_default()
                .1
                .push(n);
        }
        let mut keys: Vec<u32> = buckets.keys().copied().collect();
        keys.sort_unstable();
        for k in keys {
            let (bo, bn) = &buckets[&k];
            if !bo.is_empty() && !bn.is_empty() {
                let (o, n) = (self.o, self.n);
                self.align(bo, bn, &o.sig, &n.sig, true);
            }
        }
        // Then identical content anywhere else along the same path (a move).
        let lo: Vec<u32> = olds
            .iter()
            .copied()
            .filter(|&o| self.old_to_new[o as usize] == NONE)
            .collect();
        let ln: Vec<u32> = news
            .iter()
            .copied()
            .filter(|&n| self.new_to_old[n as usize] == NONE)
            .collect();
        if !lo.is_empty() && !ln.is_empty() {
            let (o, n) = (self.o, self.n);
            self.align(&lo, &ln, &o.sig, &n.sig, false);
        }
    }

    /// Aligns two sequences on `keys`: equal runs pair; with `pair_replaced`,
    /// replaced runs pair in order too (same identity, changed content).
    fn align(&mut self, olds: &[u32], news: &[u32], ok: &[u64], nk: &[u64], pair_replaced: bool) {
        if olds.len() == news.len()
            && olds
                .iter()
                .zip(news)
                .all(|(&a, &b)| ok[a as usize] == nk[b as usize])
        {
            for (&o, &n) in olds.iter().zip(news) {
                self.pair(o, n);
            }
            return;
        }
        let a: Vec<u64> = olds.iter().map(|&i| ok[i as usize]).collect();
        let b: Vec<u64> = news.iter().map(|&i| nk[i as usize]).collect();
        // Bounded by work (similar's Myers gives up minimality after a
        // size-dependent number of steps), not by a deadline, so the
        // alignment is the same on every machine and at any load.
        let ops = similar::capture_diff_slices(similar::Algorithm::Myers, &a, &b);
        for op in ops {
            match op {
                similar::DiffOp::Equal {
                    old_index,
                    new_index,
                    len,
                } => {
                    for k in 0..len {
                        self.pair(olds[old_index + k], news[new_index + k]);
                    }
                }
                similar::DiffOp::Replace {
                    old_index,
                    old_len,
                    new_index,
                    new_len,
                } if pair_replaced => {
                    for k in 0..old_len.min(new_len) {
                        self.pair(olds[old_index + k], news[new_index + k]);
                    }
                }
                _ => {}
            }
        }
    }

    /// Step 3: leftovers under matched parents, between the same matched
    /// siblings, with the same role are the same element renamed.
    fn match_renames(&mut self) {
        self.rename_children(NONE, NONE);
        for n in 0..self.n.len() as u32 {
            let o = self.new_to_old[n as usize];
            if o != NONE {
                self.rename_children(o, n);
            }
        }
    }

    fn rename_children(&mut self, po: u32, pn: u32) {
        let oc = self.o.children_of(po);
        let nc = self.n.children_of(pn);
        let lo = oc.iter().any(|&c| self.old_to_new[c as usize] == NONE);
        let ln = nc.iter().any(|&c| self.new_to_old[c as usize] == NONE);
        if !lo || !ln {
            return;
        }
        // Gap = the preceding sibling matched within this parent pair (as a new index).
        let mut old_gaps: Vec<(u32, u32)> = Vec::new();
        let mut anchor = NONE;
        for &c in oc {
            match self.old_to_new[c as usize] {
                NONE => old_gaps.push((anchor, c)),
                m if self.n.parent[m as usize] == pn => anchor = m,
                _ => {}
            }
        }
        let mut new_gaps: Vec<(u32, u32)> = Vec::new();
        let mut anchor = NONE;
        for &c in nc {
            match self.new_to_old[c as usize] {
                NONE => new_gaps.push((anchor, c)),
                m if self.o.parent[m as usize] == po => anchor = c,
                _ => {}
            }
        }
        let mut by_gap: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
        for &(g, c) in &new_gaps {
            by_gap.entry(g).or_default().push(c);
        }
        let mut i = 0;
        while i < old_gaps.len() {
            let g = old_gaps[i].0;
            let mut j = i;
            while j < old_gaps.len() && old_gaps[j].0 == g {
                j += 1;
            }
            if let Some(news) = by_gap.get(&g) {
                let olds: Vec<u32> = old_gaps[i..j].iter().map(|&(_, c)| c).collect();
                let news = news.clone();
                self.rename_gap(&olds, &news);
            }
            i = j;
        }
    }

    fn rename_gap(&mut self, olds: &[u32], news: &[u32]) {
        // Same role, name and description (only the path changed), then the
        // remaining ones with the same role, in order.
        let (o, n) = (self.o, self.n);
        self.align(olds, news, &o.local, &n.local, false);
        if !self.role_renames {
            return;
        }
        let mut queue: FxHashMap<&str, alloc::collections::VecDeque<u32>> = FxHashMap::default();
        for &n in news {
            if self.new_to_old[n as usize] == NONE {
                queue
                    .entry(self.n.nodes[n as usize].role.as_str())
                    .or_default()
                    .push_back(n);
            }
        }
        for &o in olds {
            if self.old_to_new[o as usize] != NONE {
                continue;
            }
            let role = self.o.nodes[o as usize].role.as_str();
            if let Some(n) = queue.get_mut(role).and_then(|q| q.pop_front()) {
                self.pair(o, n);
            }
        }
    }

    fn into_diff(self, options: &TreeDiffOptions, report_refs: bool) -> TreeDiff {
        let (o, n) = (self.o, self.n);
        let mut d = TreeDiff::default();
        let parent_link = |np: u32| -> Parent {
            if np == NONE {
                Parent::Root
            } else {
                match self.new_to_old[np as usize] {
                    NONE => Parent::Added(np as usize),
                    op => Parent::Old(op as usize),
                }
            }
        };
        for ni in 0..n.len() {
            let oi = self.new_to_old[ni];
            let ne = n.nodes[ni];
            if oi == NONE {
                let np = n.parent[ni];
                d.added.push(Added {
                    element: shallow(ne),
                    index: ni,
                    parent: parent_link(np),
                    position: n.position[ni] as usize,
                    context: (np != NONE).then(|| ElementContext::of(n.nodes[np as usize])),
                });
                continue;
            }
            let oe = o.nodes[oi as usize];
            let before = d.changed.len();
            let mut push = |field: Field, from: Option<String>, to: Option<String>| {
                d.changed.push(TreeChange {
                    aria_ref: ne.aria_ref.clone().or_else(|| oe.aria_ref.clone()),
                    role: ne.role.clone(),
                    name: ne.name.clone(),
                    field,
                    from,
                    to,
                    old_index: oi as usize,
                    new_index: ni,
                    new_parent: None,
                });
            };
            if oe.role != ne.role {
                push(Field::Role, Some(oe.role.clone()), Some(ne.role.clone()));
            }
            if oe.name != ne.name || oe.name_regex != ne.name_regex {
                push(Field::Name, Some(name_text(oe)), Some(name_text(ne)));
            }
            if oe.value != ne.value {
                push(Field::Value, oe.value.clone(), ne.value.clone());
            }
            if oe.description != ne.description {
                push(
                    Field::Description,
                    oe.description.clone(),
                    ne.description.clone(),
                );
            }
            if oe.states != ne.states {
                diff_states(&oe.states, &ne.states, &mut push);
            }
            if oe.props != ne.props {
                diff_props(&oe.props, &ne.props, &mut push);
            }
            if options.compare_bounds && oe.bounds != ne.bounds {
                let s = |b: &Option<Bounds>| b.map(|b| b.to_string());
                push(Field::Bounds, s(&oe.bounds), s(&ne.bounds));
            }
            if oe.aria_ref != ne.aria_ref {
                if report_refs {
                    push(Field::Ref, oe.aria_ref.clone(), ne.aria_ref.clone());
                } else if oe.aria_ref.is_some() && ne.aria_ref.is_some() {
                    d.refs_renumbered += 1;
                }
            }
            // Moved under another parent?
            let op = o.parent[oi as usize];
            let np = n.parent[ni];
            let same_parent = if op == NONE {
                np == NONE
            } else {
                np != NONE && self.old_to_new[op as usize] == np
            };
            if !same_parent {
                let describe = |f: &Flat<'_>, p: u32| {
                    (p != NONE).then(|| describe_ref(&ElementContext::of(f.nodes[p as usize])))
                };
                push(Field::Parent, describe(o, op), describe(n, np));
                if let Some(last) = d.changed.last_mut() {
                    last.new_parent = Some(parent_link(np));
                }
            }
            if d.changed.len() == before {
                d.unchanged_count += 1;
            }
        }
        for oi in 0..o.len() {
            if self.old_to_new[oi] != NONE {
                continue;
            }
            let op = o.parent[oi];
            d.removed.push(Removed {
                element: shallow(o.nodes[oi]),
                index: oi,
                parent_removed: op != NONE && self.old_to_new[op as usize] == NONE,
                context: (op != NONE).then(|| ElementContext::of(o.nodes[op as usize])),
            });
        }
        d
    }
}

/// The name as printed: regex names keep their slashes. The tree diff's
/// `name` changes and its YAML and JSON `name` keys both use it.
pub(crate) fn name_text(e: &Element) -> String {
    if e.name_regex {
        format!("/{}/", e.name)
    } else {
        e.name.clone()
    }
}

/// `[e5]`, or `list "Cart"`, or `list`.
pub(crate) fn describe_ref(r: &ElementContext) -> String {
    match (&r.aria_ref, r.name.is_empty()) {
        (Some(x), _) => {
            if r.name.is_empty() {
                format!("{} [{x}]", r.role)
            } else {
                format!("{} {} [{x}]", r.role, super::aria::json_quote(&r.name))
            }
        }
        (None, true) => r.role.clone(),
        (None, false) => format!("{} {}", r.role, super::aria::json_quote(&r.name)),
    }
}

fn diff_states(
    old: &[State],
    new: &[State],
    push: &mut impl FnMut(Field, Option<String>, Option<String>),
) {
    let find = |list: &[State], name: &str| {
        list.iter()
            .find(|s| s.name == name)
            .map(|s| s.value_str().to_owned())
    };
    for (i, s) in new.iter().enumerate() {
        if new[..i].iter().any(|p| p.name == s.name) {
            continue;
        }
        let from = find(old, &s.name);
        let to = Some(s.value_str().to_owned());
        if from != to {
            push(Field::State(s.name.clone()), from, to);
        }
    }
    for (i, s) in old.iter().enumerate() {
        if old[..i].iter().any(|p| p.name == s.name) || new.iter().any(|p| p.name == s.name) {
            continue;
        }
        push(
            Field::State(s.name.clone()),
            Some(s.value_str().to_owned()),
            None,
        );
    }
}

fn diff_props(
    old: &[Prop],
    new: &[Prop],
    push: &mut impl FnMut(Field, Option<String>, Option<String>),
) {
    let find = |list: &[Prop], name: &str| {
        list.iter()
            .find(|p| p.name == name)
            .map(|p| p.value.clone())
    };
    for (i, p) in new.iter().enumerate() {
        if new[..i].iter().any(|q| q.name == p.name) {
            continue;
        }
        let from = find(old, &p.name);
        if from.as_deref() != Some(p.value.as_str()) {
            push(Field::Prop(p.name.clone()), from, Some(p.value.clone()));
        }
    }
    for (i, p) in old.iter().enumerate() {
        if old[..i].iter().any(|q| q.name == p.name) || new.iter().any(|q| q.name == p.name) {
            continue;
        }
        push(Field::Prop(p.name.clone()), Some(p.value.clone()), None);
    }
}

/// A copy of `e` without its children.
pub(crate) fn shallow(e: &Element) -> Element {
    e.shallow_clone()
}

impl TreeDiff {
    /// Applies this diff to the tree it was computed from (after the same
    /// filters): removes, changes, moves and adds elements. The result has
    /// the same elements as the new tree: the same identities (ancestor path,
    /// role, name) and fields; siblings that moved without being reported
    /// may come in another order. This is the diff's losslessness, as a
    /// function (the property tests check it).
    ///
    /// ```
    /// use response_diff::tree::{diff, parse_aria};
    /// let old = parse_aria("- list:\n  - listitem: a\n  - listitem: c", false).unwrap();
    /// let new = parse_aria("- list:\n  - listitem: a\n  - listitem: b\n  - listitem: c", false).unwrap();
    /// assert_eq!(diff(&old, &new).apply(&old), new);
    /// ```
    pub fn apply(&self, old: &Tree) -> Tree {
        const TOP: usize = usize::MAX;
        // Old elements (shallow) with their parent, in preorder.
        let mut nodes: Vec<Option<Element>> = Vec::new();
        let mut parent: Vec<usize> = Vec::new();
        let mut stack: Vec<(core::slice::Iter<'_, Element>, usize)> = vec![(old.roots.iter(), TOP)];
        while let Some((it, p)) = stack.last_mut() {
            let p = *p;
            let Some(e) = it.next() else {
                stack.pop();
                continue;
            };
            nodes.push(Some(shallow(e)));
            parent.push(p);
            if !e.children.is_empty() {
                stack.push((e.children.iter(), nodes.len() - 1));
            }
        }
        let old_len = nodes.len();
        for r in &self.removed {
            if let Some(slot) = nodes.get_mut(r.index) {
                *slot = None;
            }
        }
        // Added elements go after the old ones; map their new indexes.
        let mut added_at: FxHashMap<usize, usize> = FxHashMap::default();
        let mut position: Vec<Option<usize>> = vec![None; old_len];
        for a in &self.added {
            added_at.insert(a.index, nodes.len());
            nodes.push(Some(a.element.clone()));
            parent.push(TOP);
            position.push(Some(a.position));
        }
        let link = |p: Parent| match p {
            Parent::Root => TOP,
            Parent::Old(i) => i,
            Parent::Added(i) => added_at.get(&i).copied().unwrap_or(TOP),
        };
        for (k, a) in self.added.iter().enumerate() {
            parent[old_len + k] = link(a.parent);
        }
        for c in &self.changed {
            let Some(Some(e)) = nodes.get_mut(c.old_index) else {
                continue;
            };
            let to = c.to.clone();
            match &c.field {
                Field::Role => e.role = to.unwrap_or_default(),
                Field::Name => {
                    let to = to.unwrap_or_default();
                    e.name_regex = to.len() >= 2 && to == format!("/{}/", c.name);
                    e.name = if e.name_regex { c.name.clone() } else { to };
                }
                Field::Value => e.value = to,
                Field::Description => e.description = to,
                Field::State(name) => {
                    let value = to.map(|v| (v != "true").then_some(v));
                    match (e.states.iter_mut().find(|s| &s.name == name), value) {
                        (Some(s), Some(v)) => s.value = v,
                        (None, Some(v)) => e.states.push(State {
                            name: name.clone(),
                            value: v,
                        }),
                        (_, None) => e.states.retain(|s| &s.name != name),
                    }
                }
                Field::Prop(name) => match (e.props.iter_mut().find(|p| &p.name == name), to) {
                    (Some(p), Some(v)) => p.value = v,
                    (None, Some(v)) => e.props.push(Prop {
                        name: name.clone(),
                        value: v,
                    }),
                    (_, None) => e.props.retain(|p| &p.name != name),
                },
                Field::Bounds => {
                    e.bounds = to.and_then(|b| {
                        let v: Vec<f64> = b.split(',').filter_map(|x| x.parse().ok()).collect();
                        (v.len() == 4).then(|| Bounds {
                            x: v[0],
                            y: v[1],
                            width: v[2],
                            height: v[3],
                        })
                    })
                }
                Field::Ref => e.aria_ref = to,
                Field::Parent => {
                    if let Some(p) = c.new_parent {
                        parent[c.old_index] = link(p);
                    }
                }
            }
        }
        // Children lists: old order, added ones inserted at their position.
        let n = nodes.len();
        let mut kids: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
        for i in 0..n {
            if nodes[i].is_none() {
                continue;
            }
            let p = if parent[i] == TOP { n } else { parent[i] };
            if p < n && nodes[p].is_none() {
                continue; // under a removed element: gone with it
            }
            match position[i] {
                Some(pos) => {
                    let list = &mut kids[p];
                    list.insert(pos.min(list.len()), i);
                }
                None => kids[p].push(i),
            }
        }
        // Preorder walk from the top, then assemble without recursion.
        let mut pre: Vec<(Element, usize)> = Vec::new();
        let mut walk: Vec<(usize, usize)> = kids[n].iter().rev().map(|&k| (k, TOP)).collect();
        while let Some((i, p)) = walk.pop() {
            let Some(e) = nodes[i].take() else { continue };
            pre.push((e, p));
            let me = pre.len() - 1;
            walk.extend(kids[i].iter().rev().map(|&k| (k, me)));
        }
        Tree::new(assemble(pre))
    }
}
