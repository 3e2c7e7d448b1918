//! Playwright's quoting rules: `JSON.stringify` for names, and when and how
//! YAML keys and values are quoted (`yamlStringNeedsQuotes`).

use crate::prelude::*;

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
