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

mod content;
mod role;
mod snapshot;
mod walk;

pub(super) use content::{NameFrom, all_shown, name_from, own_text, shown_by_content};
pub(super) use role::{hidden, native_level, role};
pub(super) use walk::NAME_FROM_CONTENT;

#[cfg(test)]
mod tests {
    use super::walk::{css_content, flat};
    use crate::ax::dom::DomNode;

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
