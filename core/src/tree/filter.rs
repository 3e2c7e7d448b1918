//! Filters applied to both trees before a diff: scope, prune, roles.

use super::model::{Element, Tree, assemble};
use super::select::Selector;
use crate::prelude::*;

/// Which part of a tree to keep. Applied in this order: `scope`, `prune`,
/// `roles`.
///
/// - `scope`: only the first subtree matching the [`Selector`] (a ref, or a
///   role with an optional quoted name). No match gives an empty tree.
/// - `prune`: unnamed `generic`/`none`/`presentation` wrappers are dropped
///   and their children hoisted into their place. A wrapper is kept when it
///   carries text (an inline value) or is clickable (`[cursor=pointer]`), so
///   nothing the agent can read or act on disappears.
/// - `roles`: only elements with these roles are kept. Ancestors with other
///   roles are dropped and kept elements are re-parented to their nearest
///   kept ancestor (as `desktop-cli read --roles` does): the result is the
///   list of matching elements with their nesting among themselves, not the
///   page's structure. Text nodes have role `text`.
///
/// ```
/// use response_diff::tree::{parse_aria, Filter, Selector};
/// let page = parse_aria(
///     "- generic [ref=e1]:\n  - list \"Cart\" [ref=e2]:\n    - listitem [ref=e3]:\n      - button \"Remove\" [ref=e4]\n  - button \"Pay\" [ref=e5]",
///     false,
/// ).unwrap();
/// let pruned = Filter { prune: true, ..Filter::default() }.apply(&page);
/// assert_eq!(pruned.roots[0].role, "list");
/// let buttons = Filter { roles: Some(vec!["button".into()]), ..Filter::default() }.apply(&page);
/// assert_eq!(buttons.to_aria(), "- button \"Remove\" [ref=e4]\n- button \"Pay\" [ref=e5]");
/// let cart = Filter { scope: Some(Selector::parse("list \"Cart\"").unwrap()), ..Filter::default() }.apply(&page);
/// assert_eq!(cart.len(), 3);
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Filter {
    /// Keep only these roles (re-parenting to the nearest kept ancestor).
    pub roles: Option<Vec<String>>,
    /// Drop unnamed generic wrappers, hoisting their children.
    pub prune: bool,
    /// Keep only the first subtree matching this selector.
    pub scope: Option<Selector>,
}

/// Roles that are mere wrappers when they have no name.
const WRAPPER_ROLES: &[&str] = &["generic", "none", "presentation"];

impl Filter {
    /// Whether this filter keeps every tree as it is.
    ///
    /// ```
    /// assert!(response_diff::tree::Filter::default().is_noop());
    /// ```
    pub fn is_noop(&self) -> bool {
        self.roles.is_none() && !self.prune && self.scope.is_none()
    }

    /// The filtered copy of `tree`. Iterative: safe on any depth.
    ///
    /// ```
    /// use response_diff::tree::{parse_aria, Filter, Selector};
    /// let t = parse_aria("- main:\n  - button \"Go\" [ref=e9]", false).unwrap();
    /// let f = Filter { scope: Some(Selector::parse("e9").unwrap()), ..Filter::default() };
    /// assert_eq!(f.apply(&t).to_aria(), "- button \"Go\" [ref=e9]");
    /// ```
    pub fn apply(&self, tree: &Tree) -> Tree {
        let scoped: Vec<&Element> = match &self.scope {
            None => tree.roots.iter().collect(),
            Some(sel) => tree.find(sel).into_iter().collect(),
        };
        if !self.prune && self.roles.is_none() {
            return tree.with_roots(scoped.into_iter().cloned().collect());
        }
        let keep = |e: &Element| -> bool {
            if self.prune
                && WRAPPER_ROLES.contains(&e.role.as_str())
                && e.name.is_empty()
                && e.value.is_none()
                && !e
                    .states
                    .iter()
                    .any(|s| s.name == "cursor" && s.value.as_deref() == Some("pointer"))
            {
                return false;
            }
            match &self.roles {
                Some(roles) => roles.iter().any(|r| r.eq_ignore_ascii_case(&e.role)),
                None => true,
            }
        };
        // Kept elements in preorder with the index of their kept parent.
        let mut kept: Vec<(Element, usize)> = Vec::new();
        let mut stack: Vec<(core::slice::Iter<'_, Element>, usize)> = Vec::new();
        let top = usize::MAX;
        for root in scoped {
            stack.push((core::slice::from_ref(root).iter(), top));
            while let Some((it, parent)) = stack.last_mut() {
                let parent = *parent;
                let Some(e) = it.next() else {
                    stack.pop();
                    continue;
                };
                let child_parent = if keep(e) {
                    kept.push((e.shallow_clone(), parent));
                    kept.len() - 1
                } else {
                    parent
                };
                if !e.children.is_empty() {
                    stack.push((e.children.iter(), child_parent));
                }
            }
        }
        tree.with_roots(assemble(kept))
    }
}
