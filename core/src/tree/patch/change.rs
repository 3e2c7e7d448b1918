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
    let mut out = Vec::new();
    let mut stack = vec![(shown, now)];
    while let Some((s, n)) = stack.pop() {
        if s.aria_ref != n.aria_ref || s.children.len() != n.children.len() {
            return None;
        }
        if !s.shallow_eq(n) {
            n.aria_ref.as_ref()?;
            out.push(n);
        }
        stack.extend(s.children.iter().zip(&n.children).rev());
    }
    Some(out)
}

/// What changed inside an element restored `as last shown`, against the
/// subtree the agent was shown ([`trimmed_changes`]).
pub(super) struct Trim<'s, 'n> {
    /// Elements whose own line changed, in document order.
    pub(super) changed: Vec<&'n Element>,
    /// Refs of the subtrees gone since.
    pub(super) cut: Vec<&'s str>,
    /// Runs of children come since: where (after the sibling with this
    /// ref, or first in the parent with it), and the elements.
    pub(super) added: Vec<(Place<'n>, Vec<&'n Element>)>,
}

impl<'s, 'n> Trim<'s, 'n> {
    /// Only own lines changed (or none).
    pub(super) fn lines(changed: Vec<&'n Element>) -> Self {
        Trim {
            changed,
            cut: Vec::new(),
            added: Vec::new(),
        }
    }

    /// Restored exactly as shown.
    pub(super) fn is_exact(&self) -> bool {
        self.changed.is_empty() && self.cut.is_empty() && self.added.is_empty()
    }
}

/// Where a run of children came inside a restored element.
pub(super) enum Place<'n> {
    After(&'n str),
    FirstIn(&'n str),
}

/// As [`changed_lines`] (which the writer tries first: it is cheaper),
/// with children gone from `now` or come to it since `shown`: the two
/// subtrees keep their shape otherwise. `now`'s
/// children are `shown`'s in order, less those gone (each with a ref) and
/// with runs come in between (each after a sibling with a ref, or first
/// in its parent); a child without a ref stands where one stood, or comes.
/// `None` otherwise.
pub(super) fn trimmed_changes<'n, 's>(
    shown: &'s Element,
    now: &'n Element,
) -> Option<Trim<'s, 'n>> {
    let mut t = Trim {
        changed: Vec::new(),
        cut: Vec::new(),
        added: Vec::new(),
    };
    let mut stack = vec![(shown, now)];
    while let Some((s, n)) = stack.pop() {
        if s.aria_ref != n.aria_ref {
            return None;
        }
        if !s.shallow_eq(n) {
            n.aria_ref.as_ref()?;
            t.changed.push(n);
        }
        let mut pairs = Vec::with_capacity(n.children.len());
        let mut theirs = s.children.iter().peekable();
        // The run of children come since, and the sibling before it.
        let mut run: Vec<&'n Element> = Vec::new();
        let mut before: Option<&'n Element> = None;
        let parent = n.aria_ref.as_deref();
        // The refs of the children shown (a set where there are many).
        let many = (s.children.len() > 16).then(|| {
            s.children
                .iter()
                .filter_map(|c| c.aria_ref.as_deref())
                .collect::<FxHashSet<&str>>()
        });
        let shown_here = |r: &str| match &many {
            Some(set) => set.contains(r),
            None => s.children.iter().any(|c| c.aria_ref.as_deref() == Some(r)),
        };
        for m in &n.children {
            let mine = match m.aria_ref.as_deref() {
                // A child with a ref the agent saw here: those before it went.
                Some(r) if shown_here(r) => loop {
                    let c = theirs.next()?;
                    if c.aria_ref.as_deref() == Some(r) {
                        break Some(c);
                    }
                    t.cut.push(c.aria_ref.as_deref()?);
                },
                Some(_) => None,
                // One without: where one stood.
                None => theirs.next_if(|c| c.aria_ref.is_none()),
            };
            match mine {
                Some(c) => {
                    place(&mut t.added, &mut run, before, parent)?;
                    pairs.push((c, m));
                }
                None => run.push(m),
            }
            if mine.is_some() {
                before = Some(m);
            }
        }
        place(&mut t.added, &mut run, before, parent)?;
        for c in theirs {
            t.cut.push(c.aria_ref.as_deref()?);
        }
        stack.extend(pairs.into_iter().rev());
    }
    Some(t)
}

/// Records the run of children come since (if any) after `before`, or
/// first in `parent`; `None` where that has no ref to name it by.
fn place<'n>(
    added: &mut Vec<(Place<'n>, Vec<&'n Element>)>,
    run: &mut Vec<&'n Element>,
    before: Option<&'n Element>,
    parent: Option<&'n str>,
) -> Option<()> {
    if !run.is_empty() {
        let at = match before {
            Some(b) => Place::After(b.aria_ref.as_deref()?),
            None => Place::FirstIn(parent?),
        };
        added.push((at, core::mem::take(run)));
    }
    Some(())
}
