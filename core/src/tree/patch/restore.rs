//! `[e41 e42] as last shown` inside printed lines: elements the agent was
//! shown before, as placeholders while the writer prints and the reader
//! parses.

use super::address::is_address;
use super::change::{Place, changed_lines, line_changes, said_line};
use super::words::words;
use crate::prelude::*;
use crate::tree::model::{Element, assemble};
use crate::tree::{Dialect, write_elements};

/// The role of a placeholder for an element restored by reference inside
/// printed lines (never printed: [`restore_lines`] turns it into
/// `[ref …] as last shown`).
pub(super) const PLACEHOLDER: &str = "restore-as-last-shown";

/// A copy of `e` whose descendants (not `e`) that `shown` has exactly as
/// they are now, or with only some elements' own lines changed, are
/// placeholders; how many elements they stand for; and the elements whose
/// lines changed, in document order (said by `~` lines after the block).
pub(super) fn with_placeholders<'a, 'n>(
    e: &'n Element,
    shown: &impl Fn(&str) -> Option<&'a Element>,
) -> (Element, usize, Vec<&'n Element>) {
    let mut restored = 0;
    let mut changed: Vec<&'n Element> = Vec::new();
    // Preorder with parent indexes, as `assemble` wants.
    let mut pre: Vec<(Element, usize)> = Vec::new();
    let mut stack: Vec<(&'n Element, usize)> = vec![(e, usize::MAX)];
    while let Some((x, parent)) = stack.pop() {
        let again = (parent != usize::MAX)
            .then(|| x.aria_ref.as_deref().and_then(shown))
            .flatten()
            .and_then(|s| line_changes(s, x));
        if let Some(lines) = again {
            restored += x.count();
            changed.extend(lines);
            let mut p = Element::new(PLACEHOLDER, "");
            p.aria_ref = x.aria_ref.clone();
            pre.push((p, parent));
            continue;
        }
        pre.push((x.shallow_clone(), parent));
        let me = pre.len() - 1;
        stack.extend(x.children.iter().rev().map(|c| (c, me)));
    }
    let copy = assemble(pre).pop().unwrap_or_else(|| e.shallow_clone());
    (copy, restored, changed)
}

/// Printed lines with placeholder lines turned into `[ref …] as last
/// shown`, consecutive ones at one indentation sharing a line (its inside
/// written by `list`).
pub(super) fn restore_lines(block: &str, list: &dyn Fn(&[&str]) -> String) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut open: Option<(usize, Vec<String>)> = None;
    let flush = |out: &mut Vec<String>, open: &mut Option<(usize, Vec<String>)>| {
        if let Some((indent, refs)) = open.take() {
            let refs: Vec<&str> = refs.iter().map(String::as_str).collect();
            out.push(format!(
                "{}[{}] as last shown",
                " ".repeat(indent),
                list(&refs)
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
            .and_then(|b| b.strip_suffix(']'))
            .or_else(|| {
                // chrome-devtools-mcp's: `uid=<ref> restore-as-last-shown`.
                body.strip_prefix("uid=")?
                    .strip_suffix(PLACEHOLDER)?
                    .strip_suffix(' ')
            });
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

/// `e` re-sent in place: its `~` line, then its children one level in,
/// those shown before by reference; how many elements those stand for;
/// and the elements among them whose own lines changed.
pub(super) fn resent<'n, 's>(
    e: &'n Element,
    shown: &impl Fn(&str) -> Option<&'s Element>,
    dialect: Dialect,
    list: &dyn Fn(&[&str]) -> String,
) -> Option<(String, usize, Vec<&'n Element>)> {
    let (block, n, again) = placeholder_block(e, shown, dialect, list, 0);
    let mut lines = block.lines();
    let first = match dialect {
        Dialect::DevTools => lines.next()?,
        _ => lines.next()?.strip_prefix("- ")?,
    };
    let mut out = match e.aria_ref.as_deref().filter(|r| is_address(r)) {
        Some(a) => format!("~ [{a}] {first}"),
        None => format!("~ {first}"),
    };
    for l in lines {
        out.push_str("\n  ");
        out.push_str(l);
    }
    Some((out, n, again))
}

/// `e` with the addresses taken off (printed lines show an
/// element as the snapshot does; placeholders keep theirs).
pub(super) fn unaddressed(mut e: Element) -> Element {
    let mut stack: Vec<&mut Element> = vec![&mut e];
    while let Some(x) = stack.pop() {
        if x.role != PLACEHOLDER && x.aria_ref.as_deref().is_some_and(is_address) {
            x.aria_ref = None;
        }
        stack.extend(x.children.iter_mut());
    }
    e
}

/// `e` printed in an insertion, one level in (below the header): its
/// descendants shown before by reference; how many those stand for; and
/// the elements among them whose own lines changed.
pub(super) fn print_below<'n, 's>(
    e: &'n Element,
    shown: &impl Fn(&str) -> Option<&'s Element>,
    dialect: Dialect,
    list: &dyn Fn(&[&str]) -> String,
) -> (String, usize, Vec<&'n Element>) {
    placeholder_block(e, shown, dialect, list, 1)
}

/// `e` printed at `depth` with its descendants shown before by reference
/// ([`with_placeholders`], [`restore_lines`]); how many elements those
/// stand for; and the elements among them whose own lines changed.
fn placeholder_block<'n, 's>(
    e: &'n Element,
    shown: &impl Fn(&str) -> Option<&'s Element>,
    dialect: Dialect,
    list: &dyn Fn(&[&str]) -> String,
    depth: usize,
) -> (String, usize, Vec<&'n Element>) {
    let (copy, n, lines) = with_placeholders(e, shown);
    let mut block = String::new();
    write_elements(
        dialect,
        &mut block,
        core::slice::from_ref(&unaddressed(copy)),
        depth,
    );
    (restore_lines(&block, list), n, lines)
}

/// `e` (ref and all) restored with `~` lines for its elements whose own
/// lines changed, when that reads shorter than printing it and breaking
/// the run of restored siblings it stands in; `None` otherwise.
pub(super) fn kept_in_run<'n, 's>(
    e: &'n Element,
    shown: &impl Fn(&str) -> Option<&'s Element>,
    dialect: Dialect,
    list: &dyn Fn(&[&str]) -> String,
) -> Option<(&'n str, Vec<&'n Element>)> {
    let r = e.aria_ref.as_deref()?;
    let lines = changed_lines(shown(r)?, e)?;
    let said: Option<Vec<String>> = lines
        .iter()
        .map(|c| said_again(c, shown, dialect))
        .collect();
    let printed = print_below(e, shown, dialect, list).0;
    (words(&said?.join("\n")) < words(&printed) + restore_words(r)).then_some((r, lines))
}

/// The `~` line of `e`, restored with its own line changed since `shown`
/// had it (property lines only where they changed).
pub(super) fn said_again<'s>(
    e: &Element,
    shown: &impl Fn(&str) -> Option<&'s Element>,
    dialect: Dialect,
) -> Option<String> {
    said_line(e, e.aria_ref.as_deref().and_then(shown), dialect)
}

/// [`words`] of one ref restored alone: `[r] as last shown`.
pub(super) fn restore_words(r: &str) -> usize {
    words(&format!("[{r}] as last shown"))
}

/// Insertions inside elements restored `as last shown` (children come
/// since they were shown), each `+ after [ref]:` or `+ first in [ref]:`
/// with its elements printed below; how many elements those restore by
/// reference; and the elements among them whose own lines changed.
pub(super) fn inserted_inside<'n, 's>(
    added: &[(Place<'n>, Vec<&'n Element>)],
    shown: &impl Fn(&str) -> Option<&'s Element>,
    dialect: Dialect,
    list: &dyn Fn(&[&str]) -> String,
) -> (String, usize, Vec<&'n Element>) {
    let mut lines: Vec<String> = Vec::new();
    let (mut n, mut again) = (0, Vec::new());
    for (at, es) in added {
        lines.push(match at {
            Place::After(r) => format!("+ after [{r}]:"),
            Place::FirstIn(r) => format!("+ first in [{r}]:"),
        });
        for e in es {
            let (block, k, changed) = print_below(e, shown, dialect, list);
            n += k;
            again.extend(changed);
            lines.push(block);
        }
    }
    (lines.join("\n"), n, again)
}
