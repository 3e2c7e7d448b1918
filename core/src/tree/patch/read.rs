//! Reading a patch: its lines parsed into operations, errors that name
//! the line and the fix.

use super::address::is_address;
use super::flip::{Flip, read_flips};
use super::restore::PLACEHOLDER;
use super::runs::{Siblings, THROUGH};
use crate::prelude::*;
use crate::tree::Dialect;
use crate::tree::model::Element;
use crate::{Error, Result};

/// One operation of a parsed patch.
pub(super) enum Op {
    Remove(Vec<String>),
    Change(Element),
    /// `~ [ref] -expanded +checked`: states lost and gained.
    Flip(String, Vec<Flip>),
    Insert(Anchor, Vec<Item>),
    Focus(Option<String>),
    Order(Vec<String>),
}

/// One inserted element: printed in the patch, or restored by ref.
pub(super) enum Item {
    Printed(Box<Element>),
    Restored(String),
}

/// The refs an op is about (for errors).
pub(super) fn op_refs(op: &Op) -> Vec<&str> {
    match op {
        Op::Remove(rs) => rs.iter().map(String::as_str).collect(),
        Op::Change(e) => {
            let mut refs = vec![e.aria_ref.as_deref().unwrap_or("")];
            refs.extend(placeholders(e));
            refs
        }
        Op::Insert(Anchor::After(r) | Anchor::FirstIn(r), items) => {
            let mut refs = vec![r.as_str()];
            for item in items {
                match item {
                    Item::Restored(r) => refs.push(r),
                    Item::Printed(e) => refs.extend(placeholders(e)),
                }
            }
            refs
        }
        Op::Insert(Anchor::Top, items) => {
            let mut refs = vec![""];
            for item in items {
                match item {
                    Item::Restored(r) => refs.push(r),
                    Item::Printed(e) => refs.extend(placeholders(e)),
                }
            }
            refs
        }
        Op::Flip(r, _) => vec![r.as_str()],
        Op::Focus(r) => vec![r.as_deref().unwrap_or("")],
        Op::Order(rs) => rs.iter().map(String::as_str).collect(),
    }
}

/// The refs of the placeholders (`[…] as last shown`) below `e`.
fn placeholders(e: &Element) -> impl Iterator<Item = &str> {
    e.descendants()
        .filter(|(_, d)| d.role == PLACEHOLDER)
        .filter_map(|(_, d)| d.aria_ref.as_deref())
}

#[derive(PartialEq, Eq, Hash)]
pub(super) enum Anchor {
    After(String),
    FirstIn(String),
    Top,
}

pub(super) fn bad(line: usize, why: impl core::fmt::Display) -> Error {
    Error::Parse {
        what: "snapshot patch",
        line,
        message: format!(
            "{why}; a patch has `- [ref]` / `- [ref ref …]`, `~ <element>` (`~ [e12/2] <element>` for one without a ref), `~ [ref] -state +state`, `~ focus [ref]`, `~ order [ref ref …]` and `+ first in [ref]:` / `+ after [ref]:` / `+ first:` lines, the insertions followed by indented snapshot lines or `[ref …] as last shown` (`[e4 .. e9]`: a run of siblings)"
        ),
    }
}

/// `[e1 e2]…` → the refs and what follows the bracket.
pub(super) fn bracketed_refs(s: &str, line: usize) -> Result<(Vec<String>, &str)> {
    let (inner, rest) = s
        .strip_prefix('[')
        .and_then(|s| s.split_once(']'))
        .ok_or_else(|| bad(line, format!("expected a ref like `[e12]`, found `{s}`")))?;
    let refs: Vec<String> = inner.split(' ').map(str::to_owned).collect();
    if refs
        .iter()
        .any(|r| r.is_empty() || r.contains(char::is_whitespace))
    {
        return Err(bad(
            line,
            format!("expected refs like `[e12 e13]`, found `[{inner}]`"),
        ));
    }
    Ok((refs, rest))
}

pub(super) fn bracketed_ref(s: &str, line: usize) -> Result<String> {
    match bracketed_refs(s, line)? {
        (mut refs, _) if refs.len() == 1 => Ok(refs.remove(0)),
        _ => Err(bad(
            line,
            format!("expected one ref like `[e12]`, found `{s}`"),
        )),
    }
}

/// `[e1 e2] as last shown` → the refs (runs like `e4 .. e9` expanded), or
/// `None` when the text is not that.
pub(super) fn restore_refs(
    s: &str,
    line: usize,
    runs: Option<&Siblings<'_>>,
) -> Option<Result<Vec<String>>> {
    let inner = s.strip_suffix(" as last shown")?;
    Some(bracketed_refs(inner, line).and_then(|(refs, rest)| {
        if rest.is_empty() {
            expand_runs(refs, runs, line)
        } else {
            Err(bad(line, format!("unexpected `{rest}` after the refs")))
        }
    }))
}

/// `refs` read from line `line` with each `first .. last` expanded.
pub(super) fn expand_runs(
    refs: Vec<String>,
    runs: Option<&Siblings<'_>>,
    line: usize,
) -> Result<Vec<String>> {
    if !refs.iter().any(|r| r == THROUGH) {
        return Ok(refs);
    }
    let mut out: Vec<String> = Vec::with_capacity(refs.len());
    let mut k = 0;
    while k < refs.len() {
        if refs[k] != THROUGH {
            out.push(refs[k].clone());
            k += 1;
            continue;
        }
        let first = out.last().filter(|_| k > 0 && refs[k - 1] != THROUGH);
        let (Some(first), Some(last)) = (first, refs.get(k + 1).filter(|r| *r != THROUGH)) else {
            return Err(bad(
                line,
                "`..` stands between two refs, like `[e41 .. e57] as last shown`",
            ));
        };
        let run = runs.and_then(|s| s.expand(first, last)).ok_or_else(|| {
            bad(
                line,
                format!(
                    "[{first} .. {last}] is restored `as last shown` but no snapshot shown before has {first} through {last} as consecutive siblings (pass the snapshots this conversation showed as `seen`, or list the refs)"
                ),
            )
        })?;
        out.extend(run[1..].iter().map(|r| (*r).to_owned()));
        k += 2;
    }
    Ok(out)
}

/// Whether line `l` of a chrome-devtools-mcp patch goes on the text
/// before it (a name or value that holds a newline) rather than starting
/// an op.
fn continues(l: &str) -> bool {
    !(l.trim().is_empty()
        || l.starts_with("- ")
        || l.starts_with("~ ")
        || l.starts_with("+ ")
        || l.starts_with('#'))
}

/// A line of an op's body as its element text: an indented line less the
/// op's two spaces; in chrome-devtools-mcp's dialect, a line that is not
/// an element (`uid=`) or restore line (`[…] as last shown`) continues a
/// name or value and is taken as it is.
fn body_line(dialect: Dialect, b: &str) -> &str {
    let inner = b.get(2..).unwrap_or("");
    if dialect != Dialect::DevTools || !b.starts_with("  ") {
        return if dialect == Dialect::DevTools {
            b
        } else {
            inner
        };
    }
    let own = inner.trim_start_matches(' ');
    if own.starts_with("uid=") || (own.starts_with('[') && own.ends_with(" as last shown")) {
        inner
    } else {
        b
    }
}

/// A placeholder for `r` at `indent` as an element line of `dialect`.
fn placeholder(dialect: Dialect, indent: &str, r: &str) -> String {
    match dialect {
        Dialect::DevTools => format!("{indent}uid={r} {PLACEHOLDER}"),
        _ => format!("{indent}- {PLACEHOLDER} [ref={r}]"),
    }
}

/// The operations of `patch`, whose element lines are in `dialect`;
/// `runs` expands `[e4 .. e9] as last shown`.
pub(super) fn parse_patch(
    patch: &str,
    dialect: Dialect,
    runs: Option<&Siblings<'_>>,
) -> Result<Vec<(usize, Op)>> {
    let lines: Vec<&str> = patch.lines().collect();
    let mut ops = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let (n, l) = (i + 1, lines[i]);
        i += 1;
        if l.trim().is_empty() || l.starts_with('#') {
            continue;
        }
        // The indented lines that belong to this op (and, in
        // chrome-devtools-mcp's dialect, the rest of a name or value that
        // holds a newline, printed as it is).
        let start = i;
        while i < lines.len()
            && (lines[i].starts_with("  ") || (dialect == Dialect::DevTools && continues(lines[i])))
        {
            i += 1;
        }
        let body: Vec<&str> = lines[start..i]
            .iter()
            .map(|b| body_line(dialect, b))
            .collect();
        let body = body.as_slice();
        let parse_block = |text: &str, at: usize| -> Result<Vec<Element>> {
            crate::tree::parse_lines(dialect, text)
                .map(|t| t.roots)
                .map_err(|e| bad(at, format!("the element lines do not parse: {e}")))
        };
        if let Some(rest) = l.strip_prefix("- ") {
            if !body.is_empty() {
                return Err(bad(n, "a removal has no indented lines"));
            }
            // `- [e4 .. e9]`: a run of siblings of the previous snapshot.
            ops.push((
                n,
                Op::Remove(expand_runs(bracketed_refs(rest, n)?.0, runs, n)?),
            ));
        } else if let Some(rest) = l.strip_prefix("~ focus ") {
            if !body.is_empty() {
                return Err(bad(n, "a focus line has no indented lines"));
            }
            let target = if rest == "none" {
                None
            } else {
                Some(bracketed_ref(rest, n)?)
            };
            ops.push((n, Op::Focus(target)));
        } else if let Some(rest) = l
            .strip_prefix("~ order ")
            .filter(|r| r.starts_with('[') && !r.contains('='))
        {
            if !body.is_empty() {
                return Err(bad(n, "an order line has no indented lines"));
            }
            let (refs, tail) = bracketed_refs(rest, n)?;
            if !tail.is_empty() {
                return Err(bad(n, format!("unexpected `{tail}` after the refs")));
            }
            ops.push((n, Op::Order(refs)));
        } else if let Some(rest) = l.strip_prefix("~ ") {
            // `~ [e44/3] <element>`: an element without a ref, by address;
            // `~ [e12] -expanded +checked`: states lost and gained.
            let (address, rest) = match rest.strip_prefix('[') {
                Some(_) => {
                    let (mut refs, tail) = bracketed_refs(rest, n)?;
                    let tail = tail.strip_prefix(' ');
                    if let (1, Some(flips)) = (refs.len(), tail.and_then(read_flips)) {
                        if !body.is_empty() {
                            return Err(bad(
                                n,
                                "a line of states lost and gained has no indented lines",
                            ));
                        }
                        ops.push((n, Op::Flip(refs.remove(0), flips)));
                        continue;
                    }
                    match (refs.len(), tail) {
                        (1, Some(tail)) if is_address(&refs[0]) => (Some(refs.remove(0)), tail),
                        _ => {
                            return Err(bad(
                                n,
                                format!(
                                    "expected an address and an element like `~ [e12/2] text: 3 items`, found `~ {rest}`"
                                ),
                            ));
                        }
                    }
                }
                None => (None, rest),
            };
            let mut text = match dialect {
                Dialect::DevTools => rest.to_owned(),
                _ => format!("- {rest}"),
            };
            for (k, &b) in body.iter().enumerate() {
                let inner = b.trim_start_matches(' ');
                // Children restored by reference become placeholders.
                if inner.len() < b.len()
                    && let Some(refs) = restore_refs(inner, n + 1 + k, runs)
                {
                    let indent = &b[..b.len() - inner.len()];
                    for r in refs? {
                        text.push('\n');
                        text.push_str(&placeholder(dialect, indent, &r));
                    }
                    continue;
                }
                text.push('\n');
                text.push_str(b);
            }
            let mut roots = parse_block(&text, n)?;
            if let Some(a) = address
                && let [e] = roots.as_mut_slice()
            {
                if dialect == Dialect::DevTools {
                    // Its line prints a uid, one on several lines: no ref.
                    crate::tree::devtools::unref(e);
                }
                if e.aria_ref.is_some() {
                    return Err(bad(n, "an element named by its address has no ref"));
                }
                e.aria_ref = Some(a);
            }
            if roots.len() != 1 || roots[0].aria_ref.is_none() {
                return Err(bad(n, "a change is one element with a ref"));
            }
            ops.push((n, Op::Change(roots.remove(0))));
        } else if let Some(rest) = l.strip_prefix("+ ") {
            let (anchor, tail) = if let Some(t) = rest.strip_prefix("first:") {
                (Anchor::Top, t)
            } else if let Some(r) = rest.strip_prefix("first in ") {
                let (mut refs, t) = bracketed_refs(r, n)?;
                match (refs.len(), t.strip_prefix(':')) {
                    (1, Some(t)) => (Anchor::FirstIn(refs.remove(0)), t),
                    _ => return Err(bad(n, format!("unknown insertion point `{rest}`"))),
                }
            } else if let Some(r) = rest.strip_prefix("after ") {
                let (mut refs, t) = bracketed_refs(r, n)?;
                match (refs.len(), t.strip_prefix(':')) {
                    (1, Some(t)) => (Anchor::After(refs.remove(0)), t),
                    _ => return Err(bad(n, format!("unknown insertion point `{rest}`"))),
                }
            } else {
                return Err(bad(n, format!("unknown insertion point `{rest}`")));
            };
            let mut items: Vec<Item> = Vec::new();
            if let Some(t) = tail.strip_prefix(' ') {
                let refs = restore_refs(t, n, runs).ok_or_else(|| {
                    bad(n, format!("unexpected `{t}` after the insertion point"))
                })??;
                items.extend(refs.into_iter().map(Item::Restored));
            } else if !tail.is_empty() {
                return Err(bad(n, format!("unknown insertion point `{rest}`")));
            }
            // Printed elements, with `[…] as last shown` lines among them
            // (nested ones become placeholders, resolved when applied).
            let mut block = String::new();
            let mut block_at = n + 1;
            for (k, &b) in body.iter().enumerate() {
                let inner = b.trim_start_matches(' ');
                if inner.len() < b.len()
                    && let Some(refs) = restore_refs(inner, n + 1 + k, runs)
                {
                    let indent = &b[..b.len() - inner.len()];
                    for r in refs? {
                        if block.is_empty() {
                            block_at = n + 1 + k;
                        } else {
                            block.push('\n');
                        }
                        block.push_str(&placeholder(dialect, indent, &r));
                    }
                    continue;
                }
                match restore_refs(b, n + 1 + k, runs) {
                    Some(refs) => {
                        if !block.is_empty() {
                            items.extend(
                                parse_block(&block, block_at)?
                                    .into_iter()
                                    .map(|e| Item::Printed(Box::new(e))),
                            );
                            block.clear();
                        }
                        items.extend(refs?.into_iter().map(Item::Restored));
                    }
                    None => {
                        if block.is_empty() {
                            block_at = n + 1 + k;
                        } else {
                            block.push('\n');
                        }
                        block.push_str(b);
                    }
                }
            }
            if !block.is_empty() {
                items.extend(
                    parse_block(&block, block_at)?
                        .into_iter()
                        .map(|e| Item::Printed(Box::new(e))),
                );
            }
            if items.is_empty() {
                return Err(bad(n, "an insertion without element lines"));
            }
            ops.push((n, Op::Insert(anchor, items)));
        } else {
            return Err(bad(n, format!("unknown line `{l}`")));
        }
    }
    Ok(ops)
}
