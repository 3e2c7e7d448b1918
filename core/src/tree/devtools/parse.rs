//! Reading chrome-devtools-mcp's snapshot text: records (a `uid=` line and
//! the lines that continue its raw quoted text), their nesting, and the
//! fields on each line. Iterative; every line is checked to print back.

use super::shared::settle_uids;
use super::write::{SELECTED, line_of};
use crate::prelude::*;
use crate::tree::dialect::Dialect;
use crate::tree::model::{Element, MAX_DEPTH, MAX_INPUT_BYTES, State, Tree};
use crate::{Error, Result};

const WHAT: &str = "chrome-devtools-mcp snapshot";

/// How many places a raw quote may end a name before the line is given
/// up on (keeps a line of quotes from costing quadratic time).
const NAME_ENDS_TRIED: usize = 64;

/// Parses chrome-devtools-mcp's snapshot text into a [`Tree`] whose
/// [`dialect`](Tree::dialect) is [`Dialect::DevTools`]; see the module
/// docs of `tree::devtools` for the syntax. Printing the tree
/// ([`Tree::to_text`]) gives `text` back byte for byte; a text that would
/// not (a missing final newline, a line without `uid=`, an odd or skipped
/// indentation, a role `none` or `text`, an unterminated quote) is an
/// [`Error::Parse`] with its 1-based line. Nesting deeper than
/// [`MAX_DEPTH`] and texts over [`MAX_INPUT_BYTES`] are errors too.
///
/// ```
/// let text = "uid=1_0 RootWebArea \"Shop\"\n  uid=1_3 \"Tea & \"cake\"\"\n  uid=1_4 button \"Add\" focusable focused\n";
/// let t = response_diff::tree::parse_devtools(text).unwrap();
/// let kids = &t.roots[0].children;
/// assert_eq!((kids[0].role.as_str(), kids[0].name.as_str()), ("text", "Tea & \"cake\""));
/// assert_eq!(kids[1].state("focused").is_some(), true);
/// assert_eq!(t.to_text(), text);
/// assert!(response_diff::tree::parse_devtools("uid=1_0 RootWebArea").is_err());
/// ```
pub fn parse_devtools(text: &str) -> Result<Tree> {
    if text.len() > MAX_INPUT_BYTES {
        return Err(Error::InputTooLarge {
            what: WHAT,
            size: text.len(),
            limit: MAX_INPUT_BYTES,
        });
    }
    let mut tree = Tree {
        roots: Vec::new(),
        dialect: Dialect::DevTools,
    };
    if text.is_empty() {
        return Ok(tree);
    }
    let err = |line: usize, message: String| Error::Parse {
        what: WHAT,
        line,
        message,
    };
    let Some(body) = text.strip_suffix('\n') else {
        return Err(err(
            text.split('\n').count(),
            "the last line does not end in a newline (chrome-devtools-mcp ends every line in one)"
                .to_owned(),
        ));
    };
    // Records: (first line number, indent, where the content starts, where it ends).
    let mut records: Vec<(usize, usize, usize, usize)> = Vec::new();
    let mut at = 0;
    for (k, line) in body.split('\n').enumerate() {
        let content = line.trim_start_matches(' ');
        let indent = line.len() - content.len();
        if content.starts_with("uid=") {
            records.push((k + 1, indent, at + indent, at + line.len()));
        } else if let Some(last) = records.last_mut() {
            // Raw text of the record before: it runs to the end of this line.
            last.3 = at + line.len();
        } else {
            return Err(err(
                k + 1,
                "expected a line starting with `uid=`".to_owned(),
            ));
        }
        at += line.len() + 1;
    }
    let mut stack: Vec<Element> = Vec::new();
    for (line, indent, from, to) in records {
        let content = &body[from..to];
        if indent % 2 != 0 {
            return Err(err(
                line,
                format!("indentation of {indent} spaces is not two spaces per level"),
            ));
        }
        let depth = indent / 2;
        if depth > stack.len() {
            return Err(err(
                line,
                format!(
                    "this line is {depth} levels in, under a line {} levels in; a child is one level (two spaces) in",
                    stack.len().saturating_sub(1)
                ),
            ));
        }
        if depth >= MAX_DEPTH {
            return Err(err(
                line,
                format!(
                    "nesting deeper than {MAX_DEPTH} levels; scope the snapshot to a smaller subtree"
                ),
            ));
        }
        while stack.len() > depth {
            let done = stack.pop().unwrap_or_default();
            attach(&mut stack, &mut tree.roots, done);
        }
        let e = parse_line(content).map_err(|m| err(line, m))?;
        if line_of(&e) != content {
            return Err(err(
                line,
                "this line does not print back as written".to_owned(),
            ));
        }
        stack.push(e);
    }
    while let Some(done) = stack.pop() {
        attach(&mut stack, &mut tree.roots, done);
    }
    settle_uids(&mut tree.roots);
    Ok(tree)
}

fn attach(stack: &mut [Element], roots: &mut Vec<Element>, done: Element) {
    match stack.last_mut() {
        Some(parent) => parent.children.push(done),
        None => roots.push(done),
    }
}

/// One record (a `uid=` line with its continuation lines) as an element
/// without children.
fn parse_line(content: &str) -> core::result::Result<Element, String> {
    let rest = content.strip_prefix("uid=").unwrap_or(content);
    let (uid, mut rest) = match rest.find(' ') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, ""),
    };
    if uid.is_empty() || uid.contains('\n') {
        return Err(format!("expected a uid after `uid=`, found `{uid}`"));
    }
    let selected = match rest.strip_suffix(" [selected in the DevTools Elements panel]") {
        Some(r) => {
            rest = r;
            true
        }
        None => false,
    };
    let mut e = Element::new("text", "");
    e.aria_ref = Some(uid.to_owned());
    if rest.is_empty() {
        // Static text without a name, and nothing else.
    } else {
        rest = rest
            .strip_prefix(' ')
            .ok_or_else(|| "expected one space after the uid".to_owned())?;
        let named = match rest.strip_prefix('"') {
            Some(r) => {
                rest = r;
                true
            }
            None => {
                let (role, after) = match rest.find(' ') {
                    Some(i) => (&rest[..i], &rest[i..]),
                    None => (rest, ""),
                };
                e.role = match role {
                    "" => return Err("expected a role after one space".to_owned()),
                    "none" | "text" => {
                        return Err(format!(
                            "role `{role}` is not printed by chrome-devtools-mcp (role none prints as `ignored`, static text without a role)"
                        ));
                    }
                    "ignored" => "none".to_owned(),
                    r => r.to_owned(),
                };
                match after.strip_prefix(" \"") {
                    Some(r) => {
                        rest = r;
                        true
                    }
                    None => {
                        rest = after;
                        false
                    }
                }
            }
        };
        if named {
            let (name, states) = name_and_attributes(rest)?;
            e.name = name.to_owned();
            e.states = states;
        } else {
            e.states = attributes(rest).ok_or_else(|| bad_attrs(rest))?;
        }
    }
    if selected {
        e.states.push(State::flag(SELECTED));
    }
    Ok(e)
}

fn bad_attrs(s: &str) -> String {
    format!("expected attributes like ` focusable` or ` level=\"2\"`, found `{s}`")
}

/// After a name's opening quote: the name and the attributes after it.
/// The name ends at the first quote after which the rest of the line reads
/// as attributes.
fn name_and_attributes(s: &str) -> core::result::Result<(&str, Vec<State>), String> {
    let ends = s
        .match_indices('"')
        .map(|(i, _)| i)
        .filter(|&i| i > 0 && (i + 1 == s.len() || s.as_bytes()[i + 1] == b' '));
    for q in ends.take(NAME_ENDS_TRIED) {
        if let Some(states) = attributes(&s[q + 1..]) {
            return Ok((&s[..q], states));
        }
    }
    Err(format!(
        "the quoted name `\"{s}` does not end in a quote followed by attributes"
    ))
}

fn is_key_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'-'
}

/// The length of an attribute key at the start of `s` when one starts
/// there and is followed by the end, a space or `="`.
fn key_at(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let n = b.iter().take_while(|&&c| is_key_char(c)).count();
    let after = &s[n..];
    (n > 0 && (after.is_empty() || after.starts_with(' ') || after.starts_with("=\""))).then_some(n)
}

/// ` focusable focused haspopup="menu"` → the states; `None` when `s` is
/// not a run of attributes, each after one space.
fn attributes(mut s: &str) -> Option<Vec<State>> {
    let mut out = Vec::new();
    while !s.is_empty() {
        s = s.strip_prefix(' ')?;
        let n = key_at(s)?;
        let key = &s[..n];
        s = &s[n..];
        let Some(v) = s.strip_prefix("=\"") else {
            out.push(State::flag(key));
            continue;
        };
        // The value ends at the first quote after which the line ends or
        // another attribute starts.
        let end = v.match_indices('"').map(|(i, _)| i).find(|&i| {
            let after = &v[i + 1..];
            after.is_empty() || after.strip_prefix(' ').and_then(key_at).is_some()
        })?;
        out.push(State::with_value(key, &v[..end]));
        s = &v[end + 1..];
    }
    Some(out)
}
