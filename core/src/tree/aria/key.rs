//! Playwright's key grammar, `role "name" [attr] [attr=value]`: the key
//! parser, and where ref and box go among the attributes.

use crate::prelude::*;
use crate::tree::model::{Bounds, Element, Layout, State};

/// Parses `role "name" [attr] [attr=value]` (Playwright's key grammar).
pub(super) struct KeyParser<'a> {
    s: &'a str,
    pos: usize,
}

impl<'a> KeyParser<'a> {
    pub(super) fn new(s: &'a str) -> Self {
        KeyParser { s, pos: 0 }
    }

    pub(super) fn rest(&self) -> &'a str {
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

    pub(super) fn parse_key(&mut self) -> core::result::Result<Element, String> {
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
pub(super) fn canonical_slots(states: &[State]) -> (usize, usize) {
    let cref = states
        .iter()
        .position(|s| s.name == "cursor")
        .unwrap_or(states.len());
    (cref, states.len())
}
