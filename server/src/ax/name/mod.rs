//! Accessible names computed from the DOM snapshot the way Playwright's
//! `getElementAccessibleName` (injected/src/roleUtils.ts) computes them,
//! for the snapshot's nodes (docs/DECISIONS.md D33).
//!
//! Chromium's own names (the AX tree's) differ from Playwright's in ways no
//! correction of the tree can undo: a control inside its own `<label>`
//! names itself by its value, an `<svg><title>` does not name the button
//! around it, and a name from content does not say which elements gave it
//! (Playwright's ai mode drops a name only when every element that gave it
//! is shown as a node of its own). So the name is computed here, from
//! [`DomFacts`], with the elements that gave it. Hand-written: there is no
//! crate for the accessible-name algorithm over a CDP DOM snapshot.
//!
//! Where the DOM snapshot does not carry what the walk needs (a shadow
//! root's slot assignment, `aria-owns`), [`accessible_name`] returns `None`
//! and Chromium's name stays.
//!
//! The walk is Playwright's `getTextAlternative` (`walk`); the roles it
//! needs are Playwright's `getAriaRole` and `isElementHiddenForAria`
//! (`role`); `snapshot` applies the names (and the DOM's shape where
//! Chromium's differs) to the snapshot's nodes, and `content` decides
//! which names from content a snapshot shows.

use std::collections::HashSet;

use super::{DomFacts, DomNode, MAX_DEPTH};

mod content;
mod role;
mod snapshot;
mod walk;

pub(super) use content::*;
use role::*;
pub(super) use role::{hidden, native_level, role};
use snapshot::{leaf_generic, makes_node};
use walk::*;

/// Most elements one name computation visits before it gives up (and
/// leaves Chromium's name): a tree item's name holds every nested item.
const MAX_VISITS: usize = 4000;

/// A name and the elements (other than the named one) whose text gave it.
pub(super) struct Name {
    pub text: String,
    pub contributors: Vec<i64>,
}

/// The walk met something the DOM snapshot cannot tell.
struct Unknown;

#[derive(Clone, Copy, PartialEq)]
enum Target {
    Itself,
    Descendant,
    Outside,
}

/// Where the walk is (Playwright's `AccessibleNameOptions`); each `Some`
/// says whether the root of that traversal was hidden.
#[derive(Clone, Copy)]
struct Opts {
    labelled_by: Option<bool>,
    label: Option<bool>,
    native: Option<bool>,
    target: Target,
}

#[derive(Default)]
struct Part {
    text: String,
    elements: Vec<i64>,
}

impl Part {
    fn of(text: &str, b: i64) -> Part {
        Part {
            text: text.to_owned(),
            elements: if text.is_empty() { Vec::new() } else { vec![b] },
        }
    }

    fn join(parts: Vec<Part>, sep: &str) -> Part {
        let mut out = Part::default();
        let mut texts = Vec::with_capacity(parts.len());
        for p in parts {
            texts.push(p.text);
            out.elements.extend(p.elements);
        }
        out.text = texts.join(sep);
        out
    }
}

struct Walk<'a> {
    dom: &'a DomFacts,
    visited: HashSet<i64>,
    visits: usize,
}

/// The accessible name of element `b`, as Playwright computes it (roles
/// that prohibit a name get none), or `None` when the DOM snapshot does
/// not tell.
pub(super) fn accessible_name(dom: &DomFacts, b: i64) -> Option<Name> {
    let role = role(dom, b);
    if role.as_deref().is_some_and(|r| PROHIBITS_NAME.contains(&r)) {
        return Some(Name {
            text: String::new(),
            contributors: Vec::new(),
        });
    }
    let mut walk = Walk {
        dom,
        visited: HashSet::new(),
        visits: 0,
    };
    let part = walk
        .alt(
            b,
            Opts {
                labelled_by: None,
                label: None,
                native: None,
                target: Target::Itself,
            },
            0,
        )
        .ok()?;
    let mut contributors = part.elements;
    contributors.retain(|&c| c != b);
    contributors.sort_unstable();
    contributors.dedup();
    Some(Name {
        text: flat(&part.text),
        contributors,
    })
}

/// accname's "flat string": whitespace runs to one space, zero-width
/// characters dropped, trimmed.
fn flat(s: &str) -> String {
    super::collapse(s)
}

fn allows_name_from_content(role: &str, descendant: bool) -> bool {
    NAME_FROM_CONTENT.contains(&role)
        || (descendant && DESCENDANT_NAME_FROM_CONTENT.contains(&role))
}

const DESCENDANT_NAME_FROM_CONTENT: &[&str] = &[
    "",
    "caption",
    "code",
    "contentinfo",
    "definition",
    "deletion",
    "emphasis",
    "insertion",
    "list",
    "listitem",
    "mark",
    "none",
    "paragraph",
    "presentation",
    "region",
    "row",
    "rowgroup",
    "section",
    "strong",
    "subscript",
    "superscript",
    "table",
    "term",
    "time",
];

#[cfg(test)]
#[cfg(test)]
mod tests {
    use super::*;

    fn d(attrs: &[(&str, &str)]) -> DomNode {
        DomNode {
            tag: "SPAN".into(),
            attrs: attrs
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect(),
            ..DomNode::default()
        }
    }

    #[test]
    fn css_content_values() {
        let e = d(&[("data-n", "3")]);
        assert_eq!(css_content(&e, None, "\"★\"").as_deref(), Some("★"));
        assert_eq!(css_content(&e, None, "\"a\" \"b\"").as_deref(), Some("ab"));
        assert_eq!(
            css_content(&e, None, "\"(\" attr(data-n) \")\"").as_deref(),
            Some("(3)")
        );
        assert_eq!(
            css_content(&e, None, "url(x.png) / \"Alt\"").as_deref(),
            Some("Alt")
        );
        assert_eq!(css_content(&e, None, "\"\"").as_deref(), Some(""));
        assert_eq!(css_content(&e, None, "none"), None);
        assert_eq!(css_content(&e, None, "counter(x)"), None);
    }

    #[test]
    fn flat_strings() {
        assert_eq!(flat("  a\u{200b}b \n c "), "ab c");
    }
}
