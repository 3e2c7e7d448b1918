//! Snapshot dialects: which printer a snapshot's text comes from and how
//! to tell them apart. One element model serves both (docs/DECISIONS.md
//! D69); `text` parses and prints in a dialect.

/// The printer a snapshot text comes from. A [`Tree`](super::Tree) remembers its
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

    /// The name of the dialect in messages: `aria snapshot` or
    /// `chrome-devtools-mcp snapshot`.
    pub fn describe(self) -> &'static str {
        match self {
            Dialect::Playwright => "aria snapshot",
            Dialect::DevTools => "chrome-devtools-mcp snapshot",
        }
    }
}
