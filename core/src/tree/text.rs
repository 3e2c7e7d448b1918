//! Snapshot text in either dialect: parsing by detection, and printing a
//! tree (or some of its elements) in its own dialect.

use super::aria;
use super::devtools;
use super::dialect::Dialect;
use super::model::{Element, Tree};
use crate::Result;
use crate::prelude::*;

/// Parses a snapshot text in the dialect [`Dialect::detect`] finds:
/// [`parse_aria`](super::parse_aria) (strict) or
/// [`parse_devtools`](super::parse_devtools).
///
/// ```
/// use response_diff::tree::{parse_snapshot, Dialect};
/// let t = parse_snapshot("uid=1_0 RootWebArea \"Shop\"\n  uid=1_1 button \"Go\"\n").unwrap();
/// assert_eq!((t.dialect, t.roots[0].children[0].aria_ref.as_deref()), (Dialect::DevTools, Some("1_1")));
/// let t = parse_snapshot("- button \"Go\" [ref=e1]").unwrap();
/// assert_eq!(t.dialect, Dialect::Playwright);
/// ```
pub fn parse_snapshot(text: &str) -> Result<Tree> {
    parse_in(Dialect::detect(text), text)
}

/// Parses `text` as `dialect` (strictly).
pub(crate) fn parse_in(dialect: Dialect, text: &str) -> Result<Tree> {
    match dialect {
        Dialect::Playwright => aria::parse_aria(text, false),
        Dialect::DevTools => devtools::parse_devtools(text),
    }
}

/// Parses lines of `dialect` held in a larger text that dropped their last
/// newline (a patch's element lines, an archive entry): chrome-devtools-mcp's
/// lines each end in one, so it goes back on before parsing.
pub(crate) fn parse_lines(dialect: Dialect, text: &str) -> Result<Tree> {
    match dialect {
        Dialect::DevTools => parse_in(dialect, &format!("{text}\n")),
        _ => parse_in(dialect, text),
    }
}

/// Writes `elements` (and their subtrees) at `base` depth in `dialect`:
/// Playwright's lines separated by newlines (none after the last),
/// chrome-devtools-mcp's each ending in one.
pub(crate) fn write_elements(
    dialect: Dialect,
    out: &mut String,
    elements: &[Element],
    base: usize,
) {
    match dialect {
        Dialect::Playwright => aria::write_elements(out, elements, base),
        Dialect::DevTools => devtools::write_elements(out, elements, base),
    }
}

impl Tree {
    /// Prints the tree in its dialect ([`Tree::dialect`]): Playwright's aria
    /// snapshot text (no trailing newline), or chrome-devtools-mcp's
    /// snapshot text (every line ending in a newline). Parsing a text and
    /// printing it gives the text back byte for byte.
    ///
    /// ```
    /// let text = "uid=1_0 RootWebArea \"Shop\" url=\"http://127.0.0.1/\"\n  uid=1_4 button \"Go\" focusable focused\n";
    /// assert_eq!(response_diff::tree::parse_snapshot(text).unwrap().to_text(), text);
    /// ```
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        write_elements(self.dialect, &mut out, &self.roots, 0);
        out
    }

    /// This tree's elements under new roots, in the same dialect.
    pub(crate) fn with_roots(&self, roots: Vec<Element>) -> Tree {
        let mut t = Tree::new(roots);
        t.dialect = self.dialect;
        t
    }
}
