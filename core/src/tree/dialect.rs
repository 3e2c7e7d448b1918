//! Snapshot dialects: which printer a snapshot's text comes from, how to
//! tell them apart, and printing a tree (or some of its elements) in its
//! own dialect. One element model serves both (docs/DECISIONS.md D69).

use super::aria;
use super::devtools;
use super::model::{Element, State, Tree};
use crate::Result;
use crate::prelude::*;

/// The printer a snapshot text comes from. A [`Tree`] remembers its
/// dialect, and everything that prints it (the tree itself, the carried
/// snapshot, patches, `since` reads) prints in it.
///
/// ```
/// use response_diff::tree::Dialect;
/// assert_eq!(Dialect::detect("- button \"Go\" [ref=e1]"), Dialect::Playwright);
/// assert_eq!(Dialect::detect("uid=1_0 RootWebArea \"Shop\"\n"), Dialect::DevTools);
/// assert_eq!(Dialect::default(), Dialect::Playwright);
/// ```
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Dialect {
    /// Playwright's aria snapshot YAML (`- button "Go" [ref=e1]`): the
    /// default, and what JSON trees print as.
    #[default]
    Playwright,
    /// chrome-devtools-mcp's `take_snapshot` text (`uid=1_4 button "Go"
    /// focusable focused`), two spaces per level, every line ending in a
    /// newline.
    DevTools,
}

impl Dialect {
    /// The dialect of a snapshot text: chrome-devtools-mcp's when it starts
    /// with `uid=`, else Playwright's.
    pub fn detect(text: &str) -> Dialect {
        if text.starts_with("uid=") {
            Dialect::DevTools
        } else {
            Dialect::Playwright
        }
    }

    /// The same text with what a host may add and the dialect's printer
    /// does not print taken off: trailing newlines for Playwright's
    /// (its printer ends no line in one); nothing for chrome-devtools-mcp's
    /// (its printer ends every line in one).
    ///
    /// ```
    /// use response_diff::tree::Dialect;
    /// assert_eq!(Dialect::Playwright.trim("- button\n"), "- button");
    /// assert_eq!(Dialect::DevTools.trim("uid=1 button\n"), "uid=1 button\n");
    /// ```
    pub fn trim(self, text: &str) -> &str {
        match self {
            Dialect::Playwright => text.trim_end_matches('\n'),
            Dialect::DevTools => text,
        }
    }

    /// The state that says an element has the focus: Playwright's
    /// `[active]`, chrome-devtools-mcp's `focused` (printed with
    /// `focusable` before it).
    pub(crate) fn focus_state(self) -> &'static str {
        match self {
            Dialect::Playwright => "active",
            Dialect::DevTools => "focused",
        }
    }

    /// Whether a state is part of saying where the focus is.
    pub(crate) fn is_focus_state(self, name: &str) -> bool {
        match self {
            Dialect::Playwright => name == "active",
            Dialect::DevTools => name == "focused" || name == "focusable",
        }
    }

    /// Gives an element's states the focus where this dialect's printer
    /// puts it: `[active]` after `checked`, `disabled` and `expanded`;
    /// `focusable focused` where the `focused` key sorts among the others.
    pub(crate) fn add_focus(self, states: &mut Vec<State>) {
        match self {
            Dialect::Playwright => {
                let at = states
                    .iter()
                    .position(|s| !matches!(s.name.as_str(), "checked" | "disabled" | "expanded"))
                    .unwrap_or(states.len());
                states.insert(at, State::flag("active"));
            }
            Dialect::DevTools => {
                fn key(s: &State) -> &str {
                    match s.name.as_str() {
                        "disableable" => "disabled",
                        "expandable" => "expanded",
                        "selectable" => "selected",
                        n => n,
                    }
                }
                let at = states
                    .iter()
                    .position(|s| s.name == devtools::SELECTED || key(s) > "focused")
                    .unwrap_or(states.len());
                states.insert(at, State::flag("focused"));
                states.insert(at, State::flag("focusable"));
            }
        }
    }

    /// The name of the dialect in messages: `aria snapshot` or
    /// `chrome-devtools-mcp snapshot`.
    pub fn describe(self) -> &'static str {
        match self {
            Dialect::Playwright => "aria snapshot",
            Dialect::DevTools => "chrome-devtools-mcp snapshot",
        }
    }
}

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
