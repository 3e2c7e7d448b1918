//! Playwright's aria snapshot text: parser and printer.
//!
//! The printer follows Playwright's own renderer rule for rule (key quoting,
//! value quoting, attribute order), so that a snapshot Playwright printed is
//! printed back byte for byte. The parser is line based and iterative.

use super::model::{Bounds, Element, Layout, MAX_DEPTH, MAX_INPUT_BYTES, Prop, State, Tree};
use crate::prelude::*;
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
/// [`MAX_DEPTH`](super::MAX_DEPTH) is an error in both modes, and so is a
/// text over [`MAX_INPUT_BYTES`](super::MAX_INPUT_BYTES)
/// ([`Error::InputTooLarge`]).
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
    Ok(Tree { roots })
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
fn parse_value(v: &str) -> core::result::Result<String, String> {
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

/// Parses `role "name" [attr] [attr=value]` (Playwright's key grammar).
struct KeyParser<'a> {
    s: &'a str,
    pos: usize,
}

impl<'a> KeyParser<'a> {
    fn new(s: &'a str) -> Self {
        KeyParser { s, pos: 0 }
    }

    fn rest(&self) -> &'a str {
        &self.s[self.pos..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn skip_spaces(&mut self) {
        let r = self.rest();
        self.pos += r.len() - r.trim_start_matches(' ').len();
    }

    fn ident(&mut self) -> &'a str {
        let r = self.rest();
        let mut end = 0;
        for (i, c) in r.char_indices() {
            let ok = if i == 0 {
                c.is_ascii_alphabetic()
            } else {
                c.is_ascii_alphanumeric() || c == '-' || c == '_'
            };
            if !ok {
                break;
            }
            end = i + c.len_utf8();
        }
        self.pos += end;
        &r[..end]
    }

    fn parse_key(&mut self) -> core::result::Result<Element, String> {
        let role = self.ident();
        if role.is_empty() {
            return Err(match self.peek() {
                Some(c) => format!("expected a role, found `{c}`"),
                None => "expected a role".to_owned(),
            });
        }
        let mut e = Element::new(role, "");
        let save = self.pos;
        self.skip_spaces();
        match self.peek() {
            Some('"') => {
                self.pos += 1;
                e.name = self.json_string()?;
            }
            Some('/') => {
                self.pos += 1;
                e.name = self.regex()?;
                e.name_regex = true;
            }
            _ => self.pos = save,
        }
        // Attributes, remembering where ref and box stood.
        let mut ref_at = None;
        let mut box_at = None;
        let mut box_first = false;
        loop {
            let save = self.pos;
            self.skip_spaces();
            if self.peek() != Some('[') {
                self.pos = save;
                break;
            }
            self.pos += 1;
            let name = self.ident();
            if name.is_empty() {
                return Err("expected an attribute name after '['".to_owned());
            }
            let value = if self.peek() == Some('=') {
                self.pos += 1;
                let r = self.rest();
                let end = r
                    .find(|c: char| c == ']' || c.is_whitespace())
                    .unwrap_or(r.len());
                self.pos += end;
                Some(r[..end].to_owned())
            } else {
                None
            };
            if self.peek() != Some(']') {
                return Err(format!("expected ']' to close attribute `[{name}`"));
            }
            self.pos += 1;
            match (name, value) {
                ("ref", Some(v)) if e.aria_ref.is_none() && !v.is_empty() => {
                    ref_at = Some(e.states.len());
                    e.aria_ref = Some(v);
                }
                ("box", Some(v)) if e.bounds.is_none() && parse_box(&v).is_some() => {
                    box_at = Some(e.states.len());
                    box_first = ref_at.is_none();
                    e.bounds = parse_box(&v);
                }
                (name, value) => e.states.push(State {
                    name: name.to_owned(),
                    value,
                }),
            }
        }
        // Keep a layout hint only where the canonical order would differ.
        let (cref, cbox) = canonical_slots(&e.states);
        let n = e.states.len();
        let box_first = box_first && ref_at.is_some();
        if ref_at.is_some_and(|r| r != cref) || box_at.is_some_and(|b| b != cbox) || box_first {
            e.layout = Layout {
                ref_at: ref_at.map(|v| v.min(n) as u32),
                box_at: box_at.map(|v| v.min(n) as u32),
                box_first,
            };
        }
        Ok(e)
    }

    /// A JSON string after its opening quote.
    fn json_string(&mut self) -> core::result::Result<String, String> {
        let start = self.pos - 1;
        let bytes = self.s.as_bytes();
        let mut i = self.pos;
        while i < bytes.len() {
            match bytes[i] {
                b'\\' => i += 2,
                b'"' => {
                    let raw = &self.s[start..=i];
                    self.pos = i + 1;
                    return serde_json::from_str::<String>(raw)
                        .map_err(|e| format!("invalid quoted name {raw}: {e}"));
                }
                _ => i += 1,
            }
        }
        Err("unterminated quoted name".to_owned())
    }

    /// A regex name after its opening slash, kept verbatim (Playwright's rules:
    /// escapes and `[...]` classes do not end it).
    fn regex(&mut self) -> core::result::Result<String, String> {
        let r = self.rest();
        let mut escaped = false;
        let mut in_class = false;
        for (i, c) in r.char_indices() {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '/' && !in_class {
                self.pos += i + 1;
                return Ok(r[..i].to_owned());
            } else if c == '[' {
                in_class = true;
            } else if c == ']' && in_class {
                in_class = false;
            }
        }
        Err("unterminated regex name".to_owned())
    }
}

/// `x,y,width,height`, accepted only when it prints back identically.
fn parse_box(v: &str) -> Option<Bounds> {
    let mut it = v
        .split(',')
        .map(|p| p.parse::<f64>().ok().filter(|f| f.is_finite()));
    let b = Bounds {
        x: it.next()??,
        y: it.next()??,
        width: it.next()??,
        height: it.next()??,
    };
    (it.next().is_none() && b.to_string() == v).then_some(b)
}

/// Where Playwright puts ref and box: ref before `[cursor=…]` (which it only
/// prints after a ref), otherwise after every state; box last.
fn canonical_slots(states: &[State]) -> (usize, usize) {
    let cref = states
        .iter()
        .position(|s| s.name == "cursor")
        .unwrap_or(states.len());
    (cref, states.len())
}

// ---------------------------------------------------------------------------
// Printing

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

    /// Prints the tree as Playwright's aria snapshot text (no trailing newline).
    ///
    /// ```
    /// let text = "- list [ref=e1]:\n  - listitem [ref=e2]: \"Total: 3\"";
    /// assert_eq!(response_diff::tree::parse_aria(text, false).unwrap().to_aria(), text);
    /// ```
    pub fn to_aria(&self) -> String {
        let mut out = String::new();
        write_elements(&mut out, &self.roots, 0);
        out
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

/// `JSON.stringify` of a string (what Playwright uses for names).
pub(crate) fn json_quote(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| format!("{s:?}"))
}

/// Playwright's `yamlEscapeKeyIfNeeded`.
pub(crate) fn yaml_key(s: &str) -> alloc::borrow::Cow<'_, str> {
    if !yaml_needs_quotes(s) {
        return s.into();
    }
    format!("'{}'", s.replace('\'', "''")).into()
}

/// Playwright's `yamlEscapeValueIfNeeded`.
pub(crate) fn yaml_value(s: &str) -> alloc::borrow::Cow<'_, str> {
    if !yaml_needs_quotes(s) {
        return s.into();
    }
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || (0x7f..=0x9f).contains(&(c as u32)) => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out.into()
}

/// JavaScript's `\s`.
fn js_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202f}'
                | '\u{205f}'
                | '\u{3000}'
                | '\u{feff}'
    )
}

/// Playwright's `yamlStringNeedsQuotes`, rule for rule.
pub(crate) fn yaml_needs_quotes(s: &str) -> bool {
    let (Some(first), Some(last)) = (s.chars().next(), s.chars().next_back()) else {
        return true;
    };
    if js_space(first) || js_space(last) {
        return true;
    }
    let mut prev: Option<char> = None;
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        let u = c as u32;
        if matches!(u, 0x00..=0x08 | 0x0b | 0x0c | 0x0e..=0x1f | 0x7f..=0x9f) {
            return true;
        }
        if c == '\n' || c == '\r' || c == '{' || c == '}' || c == '`' {
            return true;
        }
        if c == ':' && chars.peek().is_none_or(|&n| js_space(n)) {
            return true;
        }
        if c == '#' && prev.is_some_and(js_space) {
            return true;
        }
        prev = Some(c);
    }
    if matches!(
        first,
        '-' | '&' | '*' | ']' | ',' | '?' | '!' | '>' | '|' | '@' | '"' | '\'' | '#' | '%' | '['
    ) {
        return true;
    }
    if matches!(first, '0'..='9' | '+' | '.' | 'I') && js_number(s) {
        return true;
    }
    if s.len() <= 5
        && [
            "y", "n", "yes", "no", "true", "false", "on", "off", "null", "~",
        ]
        .iter()
        .any(|k| k.eq_ignore_ascii_case(s))
    {
        return true;
    }
    if s.len() <= 5 {
        let body = s.strip_prefix(['-', '+']).unwrap_or(s);
        return body.eq_ignore_ascii_case(".inf") || body.eq_ignore_ascii_case(".nan");
    }
    false
}

/// Whether JavaScript's `Number(s)` is not NaN (for a string without
/// surrounding whitespace).
fn js_number(s: &str) -> bool {
    let b = s.as_bytes();
    for prefix in [b"0x", b"0X", b"0o", b"0O", b"0b", b"0B"] {
        if let Some(rest) = b.strip_prefix(&prefix[..]) {
            let radix = match prefix[1] | 0x20 {
                b'x' => 16,
                b'o' => 8,
                _ => 2,
            };
            return !rest.is_empty() && rest.iter().all(|&d| (d as char).is_digit(radix));
        }
    }
    let body = s.strip_prefix(['+', '-']).unwrap_or(s);
    if body == "Infinity" {
        return true;
    }
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], Some(&body[i + 1..])),
        None => (body, None),
    };
    let (int, frac) = match mantissa.find('.') {
        Some(i) => (&mantissa[..i], &mantissa[i + 1..]),
        None => (mantissa, ""),
    };
    let digits = |t: &str| t.bytes().all(|d| d.is_ascii_digit());
    if !(digits(int) && digits(frac)) || (int.is_empty() && frac.is_empty()) {
        return false;
    }
    match exponent {
        None => true,
        Some(e) => {
            let e = e.strip_prefix(['+', '-']).unwrap_or(e);
            !e.is_empty() && digits(e)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_follows_playwright() {
        for (s, q) in [
            ("a", false),
            ("", true),
            ("123", true),
            ("1e5", true),
            (".5", true),
            ("5.", true),
            ("0x1F", true),
            ("Infinity", true),
            ("1_000", false),
            ("b: c", true),
            ("b:c", false),
            ("- dash", true),
            ("#hash", true),
            ("a #b", true),
            ("a#b", false),
            ("true", true),
            ("Yes", true),
            ("[x]", true),
            ("x]", false),
            ("a{b", true),
            (" lead", true),
            ("trail\u{a0}", true),
            ("-.inf", true),
            ("ends:", true),
            ("Items: 1", true),
            ("e", false),
            ("1e", false),
        ] {
            assert_eq!(yaml_needs_quotes(s), q, "{s:?}");
        }
    }

    #[test]
    fn values_escape_like_playwright() {
        assert_eq!(yaml_value("\"quoted\""), r#""\"quoted\"""#);
        assert_eq!(yaml_value("a\u{1}b: c"), r#""a\x01b: c""#);
        assert_eq!(parse_value(r#""a\x01b: c""#).unwrap(), "a\u{1}b: c");
    }

    #[test]
    fn quoted_key_round_trips() {
        let text = r#"- 'link "Say \"hi\": \\ there" [ref=e4] [cursor=pointer]':
  - /url: /x?a=1"#;
        let t = parse_aria(text, false).unwrap();
        assert_eq!(t.roots[0].name, r#"Say "hi": \ there"#);
        assert_eq!(t.to_aria(), text);
    }

    #[test]
    fn attribute_order_is_kept() {
        for text in [
            "- button [ref=e1] [checked] [box=1,2,3,4] [x=y]",
            "- button [box=1,2,3,4] [ref=e1]",
            "- button [ref=e1] [cursor=pointer] [box=1.5,2,3,4]",
            "- button [checked] [ref=e1] [cursor=pointer] [box=1,2,3,4]",
            "- button [box=1,2,3]",
        ] {
            assert_eq!(parse_aria(text, false).unwrap().to_aria(), text);
        }
    }
}
