//! Reading aria snapshot text: the line structure (indentation, nesting,
//! property lines, lenient recovery) and YAML scalars; the key on each
//! line is read by `key`.

use super::key::KeyParser;
use crate::prelude::*;
use crate::tree::model::{Element, MAX_DEPTH, MAX_INPUT_BYTES, Prop, Tree};
use crate::tree::{Dialect, parse_devtools};
use crate::{Error, Result};

const WHAT: &str = "aria snapshot";

/// Parses Playwright's aria snapshot text into a [`Tree`].
///
/// Handles nesting, quoted (JSON-escaped) and regex names, bracketed
/// attributes (`[ref=e5]`, `[level=2]`, `[checked]`, unknown ones kept in
/// order), `: text` inline values, `- /url: …` property lines, `- text: …`
/// text nodes, and YAML single-quoted keys and double-quoted values.
///
/// A malformed line is an [`Error::Parse`] with its 1-based line number; with
/// `lenient`, such a line becomes a text node holding the line's text instead.
/// Blank lines and `#` comment lines are skipped. Nesting deeper than
/// [`MAX_DEPTH`](crate::tree::MAX_DEPTH) is an error in both modes, and so is a
/// text over [`MAX_INPUT_BYTES`](crate::tree::MAX_INPUT_BYTES)
/// ([`Error::InputTooLarge`]).
///
/// A text whose first line starts with `uid=` is chrome-devtools-mcp's
/// snapshot text ([`Dialect::detect`](crate::tree::Dialect::detect)), read
/// by [`parse_devtools`](crate::tree::parse_devtools) into a tree of that
/// dialect, so every caller that takes snapshot text takes either; with
/// `lenient`, one that does not read as that falls back to the lenient aria
/// reading.
///
/// ```
/// let tree = response_diff::tree::parse_aria(
///     "- list \"Cart\" [ref=e4]:\n  - listitem [ref=e5]: Apples\n  - text: total",
///     false,
/// ).unwrap();
/// let list = &tree.roots[0];
/// assert_eq!((list.role.as_str(), list.name.as_str()), ("list", "Cart"));
/// assert_eq!(list.children[0].value.as_deref(), Some("Apples"));
/// assert_eq!(list.children[1].name, "total");
///
/// let err = response_diff::tree::parse_aria("- list:\n  - button \"x", false).unwrap_err();
/// assert!(err.to_string().contains("line 2"));
/// ```
pub fn parse_aria(text: &str, lenient: bool) -> Result<Tree> {
    if text.len() > MAX_INPUT_BYTES {
        return Err(Error::InputTooLarge {
            what: WHAT,
            size: text.len(),
            limit: MAX_INPUT_BYTES,
        });
    }
    if Dialect::detect(text) == Dialect::DevTools {
        match parse_devtools(text) {
            Err(e) if !lenient => return Err(e),
            Err(_) => {}
            ok => return ok,
        }
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut stack: Vec<Open> = Vec::new();
    let mut roots: Vec<Element> = Vec::new();
    let mut root_indent: Option<usize> = None;

    for (idx, raw) in text.split('\n').enumerate() {
        let line_no = idx + 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let trimmed = line.trim_start_matches(' ');
        if trimmed.trim().is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let indent = line.len() - trimmed.len();
        let err = |message: String| Error::Parse {
            what: WHAT,
            line: line_no,
            message,
        };

        // Close every open element at this indent or deeper.
        while stack.last().is_some_and(|top| top.indent >= indent) {
            let done = stack.pop().expect("non-empty").element;
            attach(&mut stack, &mut roots, done);
        }
        match stack.last_mut() {
            None => match root_indent {
                None => root_indent = Some(indent),
                Some(r) if r == indent || lenient => {}
                Some(r) => {
                    return Err(err(format!(
                        "indentation of {indent} spaces does not match the top level ({r} spaces)"
                    )));
                }
            },
            Some(parent) => {
                if !lenient && !parent.accepts {
                    let what = if parent.element.is_text_node() {
                        "a text line".to_owned()
                    } else {
                        format!("`{}`, whose line does not end in ':'", parent.element.role)
                    };
                    return Err(err(format!(
                        "this line is indented under {what}; only a line ending in ':' can have children"
                    )));
                }
                match parent.child_indent {
                    Some(ci) if ci != indent && !lenient => {
                        return Err(err(format!(
                            "indentation of {indent} spaces does not match its siblings ({ci} spaces)"
                        )));
                    }
                    Some(_) => {}
                    None => parent.child_indent = Some(indent),
                }
            }
        }
        if stack.len() >= MAX_DEPTH {
            return Err(err(format!(
                "nesting deeper than {MAX_DEPTH} levels; scope the snapshot to a smaller subtree"
            )));
        }

        let parsed = match trimmed.strip_prefix("- ") {
            Some(item) => parse_item(item),
            None if trimmed == "-" => Err("empty list item".to_owned()),
            None => Err("expected a list item starting with \"- \"".to_owned()),
        };
        let (element, kind) = match parsed {
            Ok(v) => v,
            Err(message) if lenient => {
                let _ = message;
                let content = trimmed.strip_prefix("- ").unwrap_or(trimmed).trim();
                (Element::text(content), ItemKind::Leaf)
            }
            Err(message) => return Err(err(message)),
        };
        match kind {
            ItemKind::Prop(prop) => match stack.last_mut() {
                Some(parent) => add_prop(&mut parent.element, prop),
                None if lenient => {
                    roots.push(Element::text(format!("/{}: {}", prop.name, prop.value)));
                }
                None => {
                    return Err(err(format!(
                        "property `/{}` must be nested under an element",
                        prop.name
                    )));
                }
            },
            ItemKind::Leaf | ItemKind::Container => stack.push(Open {
                indent,
                element,
                accepts: matches!(kind, ItemKind::Container),
                child_indent: None,
            }),
        }
    }
    while let Some(open) = stack.pop() {
        attach(&mut stack, &mut roots, open.element);
    }
    Ok(Tree::new(roots))
}

/// An element whose line was read and whose children may still follow.
struct Open {
    indent: usize,
    element: Element,
    /// Its line ended in ':'.
    accepts: bool,
    /// The indent of its first child, which its other children must share.
    child_indent: Option<usize>,
}

fn attach(stack: &mut [Open], roots: &mut Vec<Element>, done: Element) {
    match stack.last_mut() {
        Some(parent) => parent.element.children.push(done),
        None => roots.push(done),
    }
}

fn add_prop(parent: &mut Element, prop: Prop) {
    match prop.name.as_str() {
        "description" if parent.description.is_none() => parent.description = Some(prop.value),
        "value" if parent.value.is_none() => parent.value = Some(prop.value),
        _ => parent.props.push(prop),
    }
}

enum ItemKind {
    /// An element without children (`- button "Go"`, `- listitem: a`, `- text: x`).
    Leaf,
    /// An element whose line ends in `:`; children follow.
    Container,
    /// A `- /name: value` property line.
    Prop(Prop),
}

/// Parses what follows `- ` on a line.
fn parse_item(item: &str) -> core::result::Result<(Element, ItemKind), String> {
    if let Some(rest) = item.strip_prefix('/') {
        let colon = rest
            .find(':')
            .ok_or_else(|| "property line needs `: value`".to_owned())?;
        let name = &rest[..colon];
        if name.is_empty() || name.contains(char::is_whitespace) {
            return Err(format!("invalid property name `/{name}`"));
        }
        let after = &rest[colon + 1..];
        let value = if after.is_empty() {
            String::new()
        } else {
            let v = after
                .strip_prefix(' ')
                .ok_or_else(|| "expected a space after ':'".to_owned())?;
            parse_value(v)?
        };
        return Ok((
            Element::default(),
            ItemKind::Prop(Prop {
                name: name.to_owned(),
                value,
            }),
        ));
    }
    if let Some(after) = item.strip_prefix("text:") {
        let value = if after.is_empty() {
            String::new()
        } else {
            let v = after
                .strip_prefix(' ')
                .ok_or_else(|| "expected a space after ':'".to_owned())?;
            parse_value(v)?
        };
        return Ok((Element::text(value), ItemKind::Leaf));
    }
    // The key: single-quoted as a whole, or plain.
    let (mut element, rest) = if let Some(q) = item.strip_prefix('\'') {
        let (key, used) = read_single_quoted(q)?;
        let mut p = KeyParser::new(&key);
        let e = p.parse_key()?;
        if !p.rest().is_empty() {
            return Err(format!("unexpected `{}` in the key", p.rest()));
        }
        (e, &q[used..])
    } else {
        let mut p = KeyParser::new(item);
        let e = p.parse_key()?;
        let rest = p.rest();
        (e, rest)
    };
    if rest.is_empty() {
        return Ok((element, ItemKind::Leaf));
    }
    let after = rest
        .strip_prefix(':')
        .ok_or_else(|| format!("unexpected `{rest}` after the attributes"))?;
    if after.trim().is_empty() {
        return Ok((element, ItemKind::Container));
    }
    let v = after
        .strip_prefix(' ')
        .ok_or_else(|| "expected a space after ':'".to_owned())?;
    element.value = Some(parse_value(v)?);
    Ok((element, ItemKind::Leaf))
}

/// Reads a YAML single-quoted scalar after its opening quote; returns the text
/// and the number of bytes consumed including the closing quote.
fn read_single_quoted(s: &str) -> core::result::Result<(String, usize), String> {
    let mut out = String::new();
    let mut chars = s.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c == '\'' {
            if let Some((_, '\'')) = chars.peek() {
                chars.next();
                out.push('\'');
            } else {
                return Ok((out, i + 1));
            }
        } else {
            out.push(c);
        }
    }
    Err("unterminated single-quoted string".to_owned())
}

/// Parses a YAML scalar value on one line: double-quoted, single-quoted or plain.
pub(super) fn parse_value(v: &str) -> core::result::Result<String, String> {
    if let Some(q) = v.strip_prefix('"') {
        let (s, used) = read_double_quoted(q)?;
        if !q[used..].trim().is_empty() {
            return Err(format!(
                "unexpected `{}` after the quoted value",
                &q[used..]
            ));
        }
        Ok(s)
    } else if let Some(q) = v.strip_prefix('\'') {
        let (s, used) = read_single_quoted(q)?;
        if !q[used..].trim().is_empty() {
            return Err(format!(
                "unexpected `{}` after the quoted value",
                &q[used..]
            ));
        }
        Ok(s)
    } else {
        Ok(v.to_owned())
    }
}

/// Reads a YAML double-quoted scalar after its opening quote.
fn read_double_quoted(s: &str) -> core::result::Result<(String, usize), String> {
    let mut out = String::new();
    let mut chars = s.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Ok((out, i + 1)),
            '\\' => {
                let (_, e) = chars
                    .next()
                    .ok_or_else(|| "unterminated escape".to_owned())?;
                let hex = |chars: &mut core::str::CharIndices<'_>, n: usize| {
                    let mut code = 0u32;
                    for _ in 0..n {
                        let d = chars
                            .next()
                            .and_then(|(_, c)| c.to_digit(16))
                            .ok_or_else(|| "bad hexadecimal escape".to_owned())?;
                        code = code * 16 + d;
                    }
                    char::from_u32(code).ok_or_else(|| format!("invalid code point {code:#x}"))
                };
                out.push(match e {
                    '\\' => '\\',
                    '"' => '"',
                    '/' => '/',
                    'b' => '\u{8}',
                    'f' => '\u{c}',
                    'n' => '\n',
                    'r' => '\r',
                    't' | '\t' => '\t',
                    '0' => '\0',
                    'a' => '\u{7}',
                    'v' => '\u{b}',
                    'e' => '\u{1b}',
                    ' ' => ' ',
                    'N' => '\u{85}',
                    '_' => '\u{a0}',
                    'L' => '\u{2028}',
                    'P' => '\u{2029}',
                    'x' => hex(&mut chars, 2)?,
                    'u' => hex(&mut chars, 4)?,
                    'U' => hex(&mut chars, 8)?,
                    other => return Err(format!("unknown escape `\\{other}`")),
                });
            }
            c => out.push(c),
        }
    }
    Err("unterminated double-quoted string".to_owned())
}

impl Tree {
    /// Parses aria snapshot text; see [`parse_aria`].
    ///
    /// ```
    /// let t = response_diff::tree::Tree::parse_aria("- button \"Go\" [ref=e1]", false).unwrap();
    /// assert_eq!(t.roots[0].aria_ref.as_deref(), Some("e1"));
    /// ```
    pub fn parse_aria(text: &str, lenient: bool) -> Result<Tree> {
        parse_aria(text, lenient)
    }
}
