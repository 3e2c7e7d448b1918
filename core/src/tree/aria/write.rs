//! Printing aria snapshot text as Playwright does: element keys with their
//! attributes in Playwright's order, nesting, property lines and values.

use super::key::canonical_slots;
use super::quote::{json_quote, yaml_key, yaml_value};
use crate::prelude::*;
use crate::tree::model::{Element, Tree};

impl Tree {
    /// Prints the tree as snapshot text in its dialect, the same as
    /// [`Tree::to_text`]: Playwright's aria snapshot text (no trailing
    /// newline) for a tree read from it or built, chrome-devtools-mcp's for
    /// a tree read from that.
    ///
    /// ```
    /// let text = "- list [ref=e1]:\n  - listitem [ref=e2]: \"Total: 3\"";
    /// assert_eq!(response_diff::tree::parse_aria(text, false).unwrap().to_aria(), text);
    /// ```
    pub fn to_aria(&self) -> String {
        self.to_text()
    }
}

impl Element {
    /// Prints this element and its subtree at indent 0, as Playwright would.
    ///
    /// ```
    /// let t = response_diff::tree::parse_aria("- main:\n  - list \"Cart\":\n    - listitem: a", false).unwrap();
    /// assert_eq!(t.roots[0].children[0].to_aria(), "- list \"Cart\":\n  - listitem: a");
    /// ```
    pub fn to_aria(&self) -> String {
        let mut out = String::new();
        write_elements(&mut out, core::slice::from_ref(self), 0);
        out
    }

    /// The key Playwright prints for this element, before YAML quoting:
    /// `button "Save" [disabled] [ref=e7]`.
    ///
    /// ```
    /// let t = response_diff::tree::parse_aria("- heading \"Hi\" [level=1] [ref=e3]", false).unwrap();
    /// assert_eq!(t.roots[0].aria_key(), "heading \"Hi\" [level=1] [ref=e3]");
    /// ```
    pub fn aria_key(&self) -> String {
        let mut key = self.role.clone();
        if !self.name.is_empty() {
            key.push(' ');
            if self.name_regex {
                key.push('/');
                key.push_str(&self.name);
                key.push('/');
            } else {
                key.push_str(&json_quote(&self.name));
            }
        }
        let (cref, cbox) = canonical_slots(&self.states);
        let n = self.states.len();
        let ref_at = self.layout.ref_at.map_or(cref, |v| (v as usize).min(n));
        let box_at = self.layout.box_at.map_or(cbox, |v| (v as usize).min(n));
        let push_ref = |key: &mut String| {
            if let Some(r) = &self.aria_ref {
                key.push_str(" [ref=");
                key.push_str(r);
                key.push(']');
            }
        };
        let push_box = |key: &mut String| {
            if let Some(b) = &self.bounds {
                key.push_str(&format!(" [box={b}]"));
            }
        };
        for i in 0..=n {
            if self.layout.box_first {
                if i == box_at {
                    push_box(&mut key);
                }
                if i == ref_at {
                    push_ref(&mut key);
                }
            } else {
                if i == ref_at {
                    push_ref(&mut key);
                }
                if i == box_at {
                    push_box(&mut key);
                }
            }
            if let Some(s) = self.states.get(i) {
                key.push(' ');
                key.push_str(&s.to_string());
            }
        }
        key
    }
}

impl core::fmt::Display for Tree {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.to_aria())
    }
}

impl core::fmt::Display for Element {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.to_aria())
    }
}

/// Writes `elements` (and their subtrees) at `base` depth, iteratively.
pub(crate) fn write_elements(out: &mut String, elements: &[Element], base: usize) {
    let mut stack: Vec<(usize, core::slice::Iter<'_, Element>)> = vec![(base, elements.iter())];
    while let Some((depth, it)) = stack.last_mut() {
        let depth = *depth;
        let Some(e) = it.next() else {
            stack.pop();
            continue;
        };
        if !out.is_empty() {
            out.push('\n');
        }
        push_indent(out, depth);
        if e.is_text_node() {
            out.push_str("- text: ");
            out.push_str(&yaml_value(&e.name));
            continue;
        }
        out.push_str("- ");
        let key = e.aria_key();
        if key == "text" {
            // `- text:` is the text-node syntax; a nameless `text` element
            // with a value or children (from JSON, a quoted key or a lenient
            // parse) quotes its key to read back as an element.
            out.push_str("'text'");
        } else {
            out.push_str(&yaml_key(&key));
        }
        let inline = e.props.is_empty() && e.description.is_none() && e.children.is_empty();
        match (&e.value, inline) {
            (None, true) => {}
            (Some(v), true) => {
                out.push_str(": ");
                out.push_str(&yaml_value(v));
            }
            _ => {
                out.push(':');
                let props = e
                    .props
                    .iter()
                    .map(|p| (p.name.as_str(), p.value.as_str()))
                    .chain(e.description.as_deref().map(|d| ("description", d)))
                    .chain(e.value.as_deref().map(|v| ("value", v)));
                for (name, value) in props {
                    out.push('\n');
                    push_indent(out, depth + 1);
                    out.push_str("- /");
                    out.push_str(name);
                    out.push_str(": ");
                    out.push_str(&yaml_value(value));
                }
                if !e.children.is_empty() {
                    stack.push((depth + 1, e.children.iter()));
                }
            }
        }
    }
}

fn push_indent(out: &mut String, depth: usize) {
    for _ in 0..depth {
        out.push_str("  ");
    }
}
