//! `[e41 e42] as last shown` inside printed lines: elements the agent was
//! shown before, as placeholders while the writer prints and the reader
//! parses.

use crate::prelude::*;
use crate::tree::model::Element;

/// The role of a placeholder for an element restored by reference inside
/// printed lines (never printed: [`restore_lines`] turns it into
/// `[ref …] as last shown`).
pub(super) const PLACEHOLDER: &str = "restore-as-last-shown";

/// A copy of `e` whose descendants (not `e`) that `shown` has exactly as
/// they are now are placeholders, and how many elements they stand for.
pub(super) fn with_placeholders<'a>(
    e: &Element,
    shown: &impl Fn(&str) -> Option<&'a Element>,
) -> (Element, usize) {
    let mut copy = e.clone();
    let mut restored = 0;
    let mut stack: Vec<&mut Element> = vec![&mut copy];
    while let Some(x) = stack.pop() {
        for c in x.children.iter_mut() {
            let same = c
                .aria_ref
                .as_deref()
                .and_then(shown)
                .is_some_and(|s| s == c);
            if same {
                restored += c.count();
                let mut p = Element::new(PLACEHOLDER, "");
                p.aria_ref = c.aria_ref.take();
                *c = p;
            } else {
                stack.push(c);
            }
        }
    }
    (copy, restored)
}

/// Printed lines with placeholder lines turned into `[ref …] as last
/// shown`, consecutive ones at one indentation sharing a line.
pub(super) fn restore_lines(block: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut open: Option<(usize, Vec<String>)> = None;
    let flush = |out: &mut Vec<String>, open: &mut Option<(usize, Vec<String>)>| {
        if let Some((indent, refs)) = open.take() {
            out.push(format!(
                "{}[{}] as last shown",
                " ".repeat(indent),
                refs.join(" ")
            ));
        }
    };
    for l in block.lines() {
        let body = l.trim_start_matches(' ');
        let indent = l.len() - body.len();
        let r = body
            .strip_prefix("- ")
            .and_then(|b| b.strip_prefix(PLACEHOLDER))
            .and_then(|b| b.strip_prefix(" [ref="))
            .and_then(|b| b.strip_suffix(']'));
        match (r, &mut open) {
            (Some(r), Some((i, refs))) if *i == indent => refs.push(r.to_owned()),
            (Some(r), _) => {
                flush(&mut out, &mut open);
                open = Some((indent, vec![r.to_owned()]));
            }
            (None, _) => {
                flush(&mut out, &mut open);
                out.push(l.to_owned());
            }
        }
    }
    flush(&mut out, &mut open);
    out.join("\n")
}
