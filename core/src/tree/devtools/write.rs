//! Printing chrome-devtools-mcp's snapshot text as its `SnapshotFormatter`
//! does: one line per element, two spaces per level, each line ending in
//! a newline, names and values unescaped.

use crate::prelude::*;
use crate::tree::model::{Element, Walk};

/// The state that stands for chrome-devtools-mcp's
/// ` [selected in the DevTools Elements panel]` suffix (a state name with
/// spaces, which no attribute has).
pub(crate) const SELECTED: &str = "selected in the DevTools Elements panel";

/// The state that holds the uid of an element whose uid is on more than
/// one line (a pseudo-element's text, verbose InlineTextBox nodes): such
/// a uid names no one element, so it is no ref. A state name with spaces,
/// which no attribute has; printed as the line's uid, never as an
/// attribute, and kept first among the states (see the module docs of
/// `tree::devtools`).
pub(crate) const SHARED_UID: &str = "uid on several lines";

/// The uid an element prints: its shared uid, else its ref.
pub(crate) fn uid_of(e: &Element) -> Option<&str> {
    match e.states.iter().find(|s| s.name == SHARED_UID) {
        Some(s) => s.value.as_deref(),
        None => e.aria_ref.as_deref(),
    }
}

/// An element's own line, without indentation or newline:
/// `uid=1_49 button "Add to cart" focusable focused`.
///
/// Role `text` (static text) prints no role and role `none` prints
/// `ignored`, as chrome-devtools-mcp does. Fields its printer has no place
/// for (a value, description or property lines from a JSON tree) print
/// as `key="value"` attributes after the states, so nothing is dropped.
pub(crate) fn line_of(e: &Element) -> String {
    let mut out = String::with_capacity(16 + e.role.len() + e.name.len());
    out.push_str("uid=");
    out.push_str(uid_of(e).unwrap_or(""));
    match e.role.as_str() {
        "" | "text" => {}
        "none" => out.push_str(" ignored"),
        r => {
            out.push(' ');
            out.push_str(r);
        }
    }
    if !e.name.is_empty() {
        out.push_str(" \"");
        out.push_str(&e.name);
        out.push('"');
    }
    let extra = e
        .value
        .as_deref()
        .map(|v| ("value", v))
        .into_iter()
        .chain(e.description.as_deref().map(|d| ("description", d)))
        .chain(e.props.iter().map(|p| (p.name.as_str(), p.value.as_str())));
    let states = e
        .states
        .iter()
        .filter(|s| s.name != SELECTED && s.name != SHARED_UID)
        .map(|s| (s.name.as_str(), s.value.as_deref()));
    for (key, value) in states.chain(extra.map(|(k, v)| (k, Some(v)))) {
        out.push(' ');
        out.push_str(key);
        if let Some(v) = value {
            out.push_str("=\"");
            out.push_str(v);
            out.push('"');
        }
    }
    if e.states.iter().any(|s| s.name == SELECTED) {
        out.push_str(" [selected in the DevTools Elements panel]");
    }
    out
}

/// Writes `elements` (and their subtrees) at `base` depth, every line
/// ending in a newline; iterative.
pub(crate) fn write_elements(out: &mut String, elements: &[Element], base: usize) {
    for (depth, e) in Walk::over(elements, base) {
        for _ in 0..depth {
            out.push_str("  ");
        }
        out.push_str(&line_of(e));
        out.push('\n');
    }
}
