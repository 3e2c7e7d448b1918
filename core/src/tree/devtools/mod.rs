//! chrome-devtools-mcp's snapshot text: parser and printer.
//!
//! chrome-devtools-mcp (`take_snapshot`, and the snapshot its other tools
//! append) prints one line per accessibility node, two spaces per level,
//! every line ending in a newline:
//!
//! ```text
//! uid=1_0 RootWebArea "Leaf & Co." url="http://127.0.0.1:45063/"
//!   uid=1_32 "Type"
//!   uid=1_39 combobox "Sort by" expandable haspopup="menu" value="Featured"
//!     uid=1_40 option "Featured" selected
//!   uid=1_49 button "Add to cart" focusable focused
//!   uid=4_0 ignored
//! ```
//!
//! `uid=<id>` (the element's [`aria_ref`](crate::tree::Element::aria_ref),
//! unless it is on more than one line: see below),
//! the role (none for `StaticText`, read as role `text` like Playwright's
//! text nodes; `ignored` for role `none`), the name in quotes, unescaped,
//! then the attributes, each a [`State`](crate::tree::State) in order: bare
//! words (`focusable`, `focused`) and `key="value"` (unescaped), and
//! maybe ` [selected in the DevTools Elements panel]` (kept as a last
//! state of that name). Names and values are printed raw, so they may hold
//! quotes and newlines: a line that does not start with `uid=` continues
//! the one before it. Where a raw quote makes a line ambiguous, the parser
//! takes the first reading that uses the whole line; whichever it takes
//! prints back the same bytes. A text the printer would not print back
//! byte for byte is an error, so callers show it as written.
//!
//! **A uid on more than one line is no ref.** chrome-devtools-mcp prints
//! a node's uid on the text of its CSS pseudo-elements too (`uid=1_12
//! "“"` … `uid=1_12 "”"` around a quote), and a verbose snapshot one uid
//! on every InlineTextBox. Such a uid names no one element, so those
//! elements have no ref, like Playwright's elements without one: the
//! carrier carries the rest of the tree, and a patch names them by their
//! address (`[1_11/2]`). The uid is kept for printing in a state named
//! `uid on several lines` (a name with spaces, which no attribute has),
//! first among the element's states; the printer prints it as the
//! line's uid and never as an attribute. A state rather than a printing
//! hint in [`Layout`](crate::tree::Element::layout), so that everything
//! else sees it as part of the line: the diff and equality (a uid that
//! changed is a changed line), the patch writer's `~` lines, the applier
//! and the JSON. Which uids are shared is decided on the whole tree, when
//! it is parsed and when a patch has been applied, so a tree's text alone
//! says which of its uids are refs.

mod parse;
mod shared;
mod write;

pub use parse::parse_devtools;
pub(crate) use shared::{settle_uids, unref};
pub(crate) use write::{SELECTED, write_elements};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prelude::*;
    use crate::tree::Dialect;

    #[test]
    fn lines_round_trip() {
        for text in [
            "uid=1_0 RootWebArea \"Leaf & Co. — teas\" url=\"http://127.0.0.1:45063/index.html\"\n",
            "uid=1_0 RootWebArea\n  uid=1_32 \"Type\"\n  uid=4_0 ignored\n    uid=1_1 banner\n",
            "uid=1_39 combobox \"Sort by\" expandable haspopup=\"menu\" value=\"Featured\"\n  uid=1_40 option \"Featured\" selected\n",
            "uid=1_49 button \"Add to cart\" focusable focused [selected in the DevTools Elements panel]\n",
            "uid=2_1 \"Say \"hi\" to \"x\"\"\n",
            "uid=2_2 textbox \"Note\" value=\"line one\n  line \"two\" x=\"y\"\"\n  uid=2_3 button\n",
            "uid=2_4 \"a\" b\"\n",
            "uid=2_5\n",
            "",
        ] {
            let t = parse_devtools(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
            assert_eq!(t.to_text(), text);
            if !text.is_empty() {
                assert_eq!(t.dialect, Dialect::DevTools);
            }
        }
    }

    #[test]
    fn fields_are_read() {
        let t = parse_devtools(
            "uid=1_0 RootWebArea \"Shop\"\n  uid=1_3 \"Hi\"\n  uid=4_0 ignored\n  uid=1_9 button \"Go\" focusable focused level=\"2\"\n",
        )
        .unwrap();
        let r = &t.roots[0];
        assert_eq!((r.role.as_str(), r.name.as_str()), ("RootWebArea", "Shop"));
        assert_eq!(r.children[0].role, "text");
        assert_eq!(r.children[1].role, "none");
        let b = &r.children[2];
        assert_eq!(b.aria_ref.as_deref(), Some("1_9"));
        let states: Vec<String> = b.states.iter().map(|s| s.to_string()).collect();
        assert_eq!(states, ["[focusable]", "[focused]", "[level=2]"]);
    }

    #[test]
    fn malformed_texts_are_errors() {
        for (text, says) in [
            ("uid=1_0 RootWebArea", "newline"),
            ("button \"x\"\n", "line 1"),
            ("uid=1_0 a\n    uid=1_1 b\n", "line 2"),
            ("uid=1_0 a\n uid=1_1 b\n", "line 2"),
            ("uid=1_0 a \"x\n", "line 1"),
            ("uid=1_0 none\n", "none"),
            ("uid=1_0 text \"x\"\n", "text"),
            ("uid=1_0  a\n", "line 1"),
            ("uid= a\n", "uid"),
            ("uid=1_0 a b=\"x\n", "line 1"),
            ("uid=1_0 \"\"\n", "line 1"),
        ] {
            let e = parse_devtools(text).unwrap_err().to_string();
            assert!(e.contains(says), "{text:?}: {e}");
        }
    }

    #[test]
    fn depth_and_size_are_capped() {
        let mut deep = String::new();
        for d in 0..=crate::tree::MAX_DEPTH {
            deep.push_str(&"  ".repeat(d));
            deep.push_str("uid=1 generic\n");
        }
        assert!(
            parse_devtools(&deep)
                .unwrap_err()
                .to_string()
                .contains("deeper")
        );
        let big = "uid=1 x\n".repeat(crate::tree::MAX_INPUT_BYTES / 8 + 1);
        assert!(parse_devtools(&big).is_err());
    }
}
