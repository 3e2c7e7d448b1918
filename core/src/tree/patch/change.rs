//! `~ <element>`: an element's own line as it is now. The writer prints it
//! for an element of the previous snapshot whose line changed, and for an
//! element restored `as last shown` (or moved there) whose line changed
//! since the agent was shown it, so that a subtree coming back with one
//! state flipped costs its reference and that one line.

use super::address::is_address;
use super::flip::{flip_line, flips};
use super::words::words;
use crate::prelude::*;
use crate::tree::model::{Element, Prop};
use crate::tree::{Dialect, write_elements};

/// The `~` line (with its indented property lines, when they changed from
/// `before`; without any, the applier keeps those it had) of `e`'s own
/// line, children left out; `None` when `e` does not print as an element.
pub(super) fn change_line(
    e: &Element,
    before: Option<&Vec<Prop>>,
    dialect: Dialect,
) -> Option<String> {
    let mut own = e.shallow_clone();
    if before == Some(&own.props) {
        own.props.clear();
    }
    // An element without a ref is named by its address before its line.
    let address = own.aria_ref.take_if(|r| is_address(r));
    if dialect == Dialect::DevTools {
        // One line, the element's own: chrome-devtools-mcp has no
        // property lines (and its elements all have a uid).
        let mut line = String::new();
        write_elements(dialect, &mut line, core::slice::from_ref(&own), 0);
        line.pop();
        return Some(match address {
            Some(a) => format!("~ [{a}] {line}"),
            None => format!("~ {line}"),
        });
    }
    let own = own.to_aria();
    let mut lines = own.lines();
    let first = lines.next()?.strip_prefix("- ")?;
    let mut out = match address {
        Some(a) => format!("~ [{a}] {first}"),
        None => format!("~ {first}"),
    };
    for l in lines {
        out.push_str("\n  ");
        out.push_str(l);
    }
    Some(out)
}

/// How `e`'s own line is said, against `before` (the element as the agent
/// last saw it): by the states it lost and gained where only bare states
/// changed and that reads shorter (`~ [e12] -expanded`), else its `~`
/// line ([`change_line`]).
pub(super) fn said_line(e: &Element, before: Option<&Element>, dialect: Dialect) -> Option<String> {
    let full = change_line(e, before.map(|b| &b.props), dialect)?;
    let flipped = before
        .and_then(|b| Some((e.aria_ref.as_deref()?, flips(b, e, dialect)?)))
        .map(|(r, f)| flip_line(r, &f))
        .filter(|f| words(f) < words(&full));
    Some(flipped.unwrap_or(full))
}

/// The elements of `now` whose own line differs from `shown`'s, in
/// document order, when the two subtrees have the same shape: the same
/// refs in the same places, and the same line wherever an element has no
/// ref (it cannot be named); and when fewer than half of the subtree's
/// elements changed (else printing it says as much in fewer lines).
/// `None` otherwise.
pub(super) fn line_changes<'n>(shown: &Element, now: &'n Element) -> Option<Vec<&'n Element>> {
    let out = changed_lines(shown, now)?;
    (out.is_empty() || 2 * out.len() < now.count()).then_some(out)
}

/// [`line_changes`] however many changed: for an element whose restore
/// keeps a run of restored siblings whole.
pub(super) fn changed_lines<'n>(shown: &Element, now: &'n Element) -> Option<Vec<&'n Element>> {
    trimmed_changes(shown, now).and_then(|(lines, cut)| cut.is_empty().then_some(lines))
}

/// As [`changed_lines`], with some of `shown`'s descendants gone from
/// `now`: the elements whose own line changed, and the refs of the
/// subtrees that went (each with a ref; the others in their places). The
/// rest of the two subtrees has the same shape: `now`'s children are
/// `shown`'s in order, less those gone. `None` otherwise.
pub(super) fn trimmed_changes<'n, 's>(
    shown: &'s Element,
    now: &'n Element,
) -> Option<(Vec<&'n Element>, Vec<&'s str>)> {
    let mut out = Vec::new();
    let mut cut = Vec::new();
    let mut stack = vec![(shown, now)];
    while let Some((s, n)) = stack.pop() {
        if s.aria_ref != n.aria_ref {
            return None;
        }
        if !s.shallow_eq(n) {
            n.aria_ref.as_ref()?;
            out.push(n);
        }
        let mut pairs = Vec::with_capacity(n.children.len());
        let mut left = n.children.iter().peekable();
        for c in &s.children {
            match left.peek() {
                Some(m) if m.aria_ref == c.aria_ref => pairs.push((c, left.next()?)),
                // Gone, unless it is still there further on (moved).
                _ => {
                    let r = c.aria_ref.as_deref()?;
                    if n.children.iter().any(|m| m.aria_ref.as_deref() == Some(r)) {
                        return None;
                    }
                    cut.push(r);
                }
            }
        }
        if left.next().is_some() {
            return None;
        }
        stack.extend(pairs.into_iter().rev());
    }
    Some((out, cut))
}
