//! Selecting a subtree (`e12`, `navigation`, `list "Cart"`) and listing visible text.

use super::model::{Element, Tree};
use crate::prelude::*;
use crate::{Error, Result};

/// Which subtree to select: the first match in document order.
///
/// The syntax is shared by the tree diff's `scope` filter and the response
/// renderer's `snapshotOptions.selector`:
/// - a ref: `e12`, or a frame ref such as `f1e12`;
/// - a role with an optional quoted name: `navigation`, `button "Submit"`,
///   `list "Cart"` (the name is a JSON string and must match exactly).
///
/// CSS selectors are not understood here: a host that accepts CSS resolves it
/// in the page and passes a ref.
///
/// ```
/// use response_diff::tree::{parse_aria, Selector};
/// let page = parse_aria("- list \"Cart\" [ref=e4]:\n  - button \"Submit\" [ref=e5]", false).unwrap();
/// let by_name = Selector::parse(r#"button "Submit""#).unwrap();
/// assert_eq!(page.find(&by_name).unwrap().aria_ref.as_deref(), Some("e5"));
/// assert_eq!(page.find(&Selector::parse("e4").unwrap()).unwrap().role, "list");
/// assert!(Selector::parse("div.cart > button").is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Selector {
    /// The element with this ref.
    Ref(String),
    /// The first element with this role (and this exact name, if given).
    Role {
        /// ARIA role, lowercase.
        role: String,
        /// Accessible name to match exactly.
        name: Option<String>,
    },
}

/// HTML tag names that are not ARIA roles: a selector made of one of these is
/// almost certainly CSS.
const HTML_ONLY_TAGS: &[&str] = &[
    "a", "abbr", "aside", "b", "body", "br", "div", "em", "footer", "h1", "h2", "h3", "h4", "h5",
    "h6", "head", "header", "hr", "html", "i", "input", "label", "li", "nav", "ol", "p", "pre",
    "section", "select", "small", "span", "strong", "svg", "tbody", "td", "textarea", "tfoot",
    "th", "thead", "tr", "u", "ul",
];

impl Selector {
    /// [`Selector::parse`] for a selector given as an option: a bad one is
    /// [`Error::InvalidOption`] naming `field`, with the parse message.
    ///
    /// ```
    /// use response_diff::tree::Selector;
    /// let e = Selector::parse_option("div > a", "scope").unwrap_err();
    /// assert!(e.to_string().starts_with("invalid option `scope`"));
    /// ```
    pub fn parse_option(input: &str, field: &str) -> Result<Selector> {
        Selector::parse(input).map_err(|e| {
            Error::invalid_option(
                field,
                match e {
                    Error::Parse { message, .. } => message,
                    other => other.to_string(),
                },
            )
        })
    }

    /// Parses a selector: a ref (`e12`, `f1e12`) or a role with an optional
    /// quoted name (`button "Submit"`).
    ///
    /// Anything else is [`Error::Parse`]; for CSS-looking input the message
    /// says that CSS selectors must be resolved by the host.
    ///
    /// ```
    /// use response_diff::tree::Selector;
    /// assert_eq!(Selector::parse("f1e12").unwrap(), Selector::Ref("f1e12".into()));
    /// assert_eq!(
    ///     Selector::parse(r#"list "Cart""#).unwrap(),
    ///     Selector::Role { role: "list".into(), name: Some("Cart".into()) }
    /// );
    /// let err = Selector::parse("#cart .item").unwrap_err().to_string();
    /// assert!(err.contains("CSS selectors must be resolved by the host"));
    /// ```
    pub fn parse(input: &str) -> Result<Selector> {
        let s = input.trim();
        let err = |message: String| Error::Parse {
            what: "selector",
            line: 1,
            message,
        };
        let css = || {
            err(format!(
                "`{s}` looks like a CSS selector; CSS selectors must be resolved by the host \
                 (in the page) into a ref. Here use a ref (`e12`) or a role with an optional \
                 quoted name (`button \"Submit\"`)"
            ))
        };
        if s.is_empty() {
            return Err(err(
                "empty selector; use a ref (`e12`) or a role with an optional quoted name (`list \"Cart\"`)"
                    .to_owned(),
            ));
        }
        if is_ref(s) {
            return Ok(Selector::Ref(s.to_owned()));
        }
        let role_len = s
            .char_indices()
            .find(|&(i, c)| {
                !(c.is_ascii_alphabetic() || (i > 0 && (c.is_ascii_digit() || c == '-')))
            })
            .map_or(s.len(), |(i, _)| i);
        let role = &s[..role_len];
        let rest = s[role_len..].trim_start();
        if role.is_empty() {
            return Err(css());
        }
        let name = if rest.is_empty() {
            None
        } else if rest.starts_with('"') {
            match quoted_prefix(rest) {
                Some((name, used)) if rest[used..].trim().is_empty() => Some(name),
                Some(_) => return Err(css()),
                None => {
                    return Err(err(format!(
                        "the name in `{s}` is not a valid quoted string (use JSON escapes: \\\" and \\\\)"
                    )));
                }
            }
        } else if let Some(inner) = rest.strip_prefix('\'').and_then(|r| r.strip_suffix('\'')) {
            if inner.contains('\'') {
                return Err(css());
            }
            Some(inner.to_owned())
        } else {
            return Err(css());
        };
        let lower = role.to_ascii_lowercase();
        if name.is_none() && HTML_ONLY_TAGS.contains(&lower.as_str()) {
            return Err(err(format!(
                "`{s}` is an HTML tag, not an ARIA role; CSS selectors must be resolved by the host. \
                 Use a role (e.g. `navigation`, `listitem`, `link`) or a ref"
            )));
        }
        Ok(Selector::Role { role: lower, name })
    }

    /// Whether `element` itself matches.
    ///
    /// ```
    /// use response_diff::tree::{Element, Selector};
    /// assert!(Selector::parse("link").unwrap().matches(&Element::new("link", "Home")));
    /// ```
    pub fn matches(&self, element: &Element) -> bool {
        match self {
            Selector::Ref(r) => element.aria_ref.as_deref() == Some(r.as_str()),
            Selector::Role { role, name } => {
                element.role.eq_ignore_ascii_case(role)
                    && name
                        .as_deref()
                        .is_none_or(|n| !element.name_regex && element.name == n)
            }
        }
    }
}

impl core::fmt::Display for Selector {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Selector::Ref(r) => f.write_str(r),
            Selector::Role { role, name: None } => f.write_str(role),
            Selector::Role {
                role,
                name: Some(n),
            } => write!(f, "{role} {}", super::aria::json_quote(n)),
        }
    }
}

impl core::str::FromStr for Selector {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        Selector::parse(s)
    }
}

/// `e12`, `f1e12`, `f12e3`.
fn is_ref(s: &str) -> bool {
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    let body = match s.strip_prefix('f') {
        Some(frame) => match frame.find('e') {
            Some(i) if digits(&frame[..i]) => &frame[i..],
            _ => return false,
        },
        None => s,
    };
    body.strip_prefix('e').is_some_and(digits)
}

/// A JSON string at the start of `s`: its value and byte length.
fn quoted_prefix(s: &str) -> Option<(String, usize)> {
    let bytes = s.as_bytes();
    let mut i = 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => {
                let v = serde_json::from_str::<String>(&s[..=i]).ok()?;
                return Some((v, i + 1));
            }
            _ => i += 1,
        }
    }
    None
}

impl Tree {
    /// The first element (in document order) matching `selector`.
    ///
    /// ```
    /// use response_diff::tree::{parse_aria, Selector};
    /// let t = parse_aria("- navigation [ref=e1]:\n  - link \"A\" [ref=e2]\n- navigation [ref=e3]", false).unwrap();
    /// let nav = t.find(&Selector::parse("navigation").unwrap()).unwrap();
    /// assert_eq!(nav.aria_ref.as_deref(), Some("e1"));
    /// assert!(t.find(&Selector::parse("e99").unwrap()).is_none());
    /// ```
    pub fn find(&self, selector: &Selector) -> Option<&Element> {
        self.iter().map(|(_, e)| e).find(|e| selector.matches(e))
    }

    /// Mutable access to the first element matching `selector`.
    pub fn find_mut(&mut self, selector: &Selector) -> Option<&mut Element> {
        let mut stack: Vec<core::slice::IterMut<'_, Element>> = vec![self.roots.iter_mut()];
        while let Some(it) = stack.last_mut() {
            match it.next() {
                Some(e) => {
                    if selector.matches(e) {
                        return Some(e);
                    }
                    stack.push(e.children.iter_mut());
                }
                None => {
                    stack.pop();
                }
            }
        }
        None
    }

    /// The visible text, one line per text-bearing element in document order;
    /// see [`Element::text_lines`].
    ///
    /// ```
    /// let t = response_diff::tree::parse_aria(
    ///     "- heading \"Cart\" [level=1]\n- textbox \"Search\": shoes\n- paragraph: Total: 3\n- text: Thanks",
    ///     false,
    /// ).unwrap();
    /// assert_eq!(t.text_lines(), ["Cart", "Search: shoes", "Total: 3", "Thanks"]);
    /// ```
    pub fn text_lines(&self) -> Vec<String> {
        self.roots.iter().flat_map(|r| r.text_lines()).collect()
    }

    /// [`Tree::text_lines`] joined with newlines.
    ///
    /// ```
    /// let t = response_diff::tree::parse_aria("- button \"Go\"\n- button", false).unwrap();
    /// assert_eq!(t.visible_text(), "Go");
    /// ```
    pub fn visible_text(&self) -> String {
        self.text_lines().join("\n")
    }
}

impl Element {
    /// The visible text of this subtree, one line per text-bearing element in
    /// document order: its name, its inline value, or `name: value` when it
    /// has both (a filled textbox). Elements without either (wrappers) and
    /// properties such as `/url` give no line; line breaks inside a text
    /// become spaces so that one element stays one line.
    ///
    /// ```
    /// let t = response_diff::tree::parse_aria("- list:\n  - listitem: a\n  - link \"b\":\n    - /url: /b", false).unwrap();
    /// assert_eq!(t.roots[0].text_lines(), ["a", "b"]);
    /// ```
    pub fn text_lines(&self) -> Vec<String> {
        let one_line = |s: &str| -> String {
            s.split(['\n', '\r'])
                .map(str::trim)
                .filter(|p| !p.is_empty())
                .collect::<Vec<_>>()
                .join(" ")
        };
        self.descendants()
            .filter_map(|(_, e)| {
                let name = if e.name_regex { "" } else { e.name.trim() };
                let value = e.value.as_deref().map(str::trim).unwrap_or("");
                let line = match (name.is_empty(), value.is_empty()) {
                    (true, true) => return None,
                    (false, true) => one_line(name),
                    (true, false) => one_line(value),
                    (false, false) if name == value => one_line(name),
                    (false, false) => format!("{}: {}", one_line(name), one_line(value)),
                };
                Some(line)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selector_syntax() {
        assert_eq!(
            Selector::parse(" e12 ").unwrap(),
            Selector::Ref("e12".into())
        );
        assert_eq!(
            Selector::parse("f1e12").unwrap(),
            Selector::Ref("f1e12".into())
        );
        assert_eq!(
            Selector::parse("Navigation").unwrap(),
            Selector::Role {
                role: "navigation".into(),
                name: None
            }
        );
        assert_eq!(
            Selector::parse(r#"button "Say \"hi\"""#).unwrap(),
            Selector::Role {
                role: "button".into(),
                name: Some("Say \"hi\"".into())
            }
        );
        assert_eq!(
            Selector::parse("button 'Go'").unwrap(),
            Selector::Role {
                role: "button".into(),
                name: Some("Go".into())
            }
        );
        for css in [
            "#cart",
            ".item",
            "div > a",
            "button.primary",
            "ul li",
            "nav",
            "div",
            "a[href]",
            "*",
            "[data-x]",
            "button \"x\" extra",
        ] {
            let e = Selector::parse(css).unwrap_err().to_string();
            assert!(
                e.contains("CSS selectors must be resolved by the host"),
                "{css}: {e}"
            );
        }
        assert!(Selector::parse("").is_err());
        assert!(Selector::parse("button \"unterminated").is_err());
    }

    #[test]
    fn round_trip_display() {
        for s in ["e1", "f2e10", "list", r#"list "Cart \"A\"""#] {
            assert_eq!(Selector::parse(s).unwrap().to_string(), s);
        }
    }
}
