//! The element model (docs/DECISIONS.md D11).

use super::dialect::Dialect;
use crate::prelude::*;

/// Deepest nesting accepted from any input (aria text or JSON).
///
/// Real pages stay far below this; the limit keeps every code path (parsing,
/// printing, hashing, dropping) well inside the stack on any thread.
pub const MAX_DEPTH: usize = 1000;

/// Largest aria snapshot text or tree JSON accepted: 32 MiB, the same as the
/// response diff's default input limit.
///
/// Real snapshots are at most a few MB; parsing takes roughly 20 times the
/// text's size in memory, so the cap keeps one call well under a gigabyte.
pub const MAX_INPUT_BYTES: usize = 32 * 1024 * 1024;

/// One node of an accessibility tree.
///
/// Mirrors what Playwright prints: `- button "Add to cart" [active] [ref=e30]`
/// is `Element { role: "button", name: "Add to cart", states: [active],
/// aria_ref: Some("e30"), .. }`. A static text node (`- text: hello`) has role
/// `text` and its text as the name: for static text, the text *is* its name.
///
/// ```
/// use response_diff::tree::{Element, State};
/// let mut button = Element::new("button", "Save");
/// button.aria_ref = Some("e7".into());
/// button.states.push(State::flag("disabled"));
/// assert_eq!(button.to_aria(), r#"- button "Save" [disabled] [ref=e7]"#);
/// ```
///
/// `Clone`, `PartialEq`, `Debug` and `Drop` are iterative, so trees as deep
/// as [`MAX_DEPTH`] are safe on small thread stacks. (Because of the `Drop`
/// impl, build elements with [`Element::new`] and field assignments rather
/// than struct-update syntax.)
#[derive(Default)]
pub struct Element {
    /// ARIA role (`button`, `listitem`, …), or `text` for a static text node.
    pub role: String,
    /// Accessible name; empty when the element has none.
    pub name: String,
    /// The name is a regular expression (`/Item \d+/`) kept verbatim, as in
    /// Playwright's snapshot templates.
    pub name_regex: bool,
    /// Inline text after the colon: a textbox's value, a paragraph's text.
    pub value: Option<String>,
    /// Accessible description (printed as a `/description` property line).
    pub description: Option<String>,
    /// Element reference (`e12`, `f1e3`) the agent acts on.
    pub aria_ref: Option<String>,
    /// Bounding box (`[box=x,y,width,height]`).
    pub bounds: Option<Bounds>,
    /// Bracketed attributes other than `ref` and `box`, in input order:
    /// `checked`, `disabled`, `expanded`, `level=2`, `cursor=pointer`, and any
    /// unknown ones.
    pub states: Vec<State>,
    /// Property lines (`- /url: /home`, `- /placeholder: Search`), in input
    /// order, names without the slash.
    pub props: Vec<Prop>,
    /// Child elements in document order.
    pub children: Vec<Element>,
    /// Where `ref` and `box` stood among the attributes, when not where
    /// Playwright puts them; only used to print the input back unchanged.
    #[doc(hidden)]
    pub layout: Layout,
}

impl Drop for Element {
    fn drop(&mut self) {
        if self.children.is_empty() {
            return;
        }
        // Detach descendants level by level so no drop recurses.
        let mut stack = core::mem::take(&mut self.children);
        while let Some(mut e) = stack.pop() {
            stack.append(&mut e.children);
        }
    }
}

impl Element {
    /// This element's own fields, without children.
    pub(crate) fn shallow_clone(&self) -> Element {
        let mut e = Element::new(self.role.clone(), self.name.clone());
        e.name_regex = self.name_regex;
        e.value = self.value.clone();
        e.description = self.description.clone();
        e.aria_ref = self.aria_ref.clone();
        e.bounds = self.bounds;
        e.states = self.states.clone();
        e.props = self.props.clone();
        e.layout = self.layout;
        e
    }

    /// Equality of the element's own fields, children ignored.
    pub(crate) fn shallow_eq(&self, other: &Element) -> bool {
        self.states == other.states && self.eq_but_states(other)
    }

    /// Equality of the element's own fields but its states, children
    /// ignored.
    pub(crate) fn eq_but_states(&self, other: &Element) -> bool {
        self.role == other.role
            && self.name == other.name
            && self.name_regex == other.name_regex
            && self.value == other.value
            && self.description == other.description
            && self.aria_ref == other.aria_ref
            && self.bounds == other.bounds
            && self.props == other.props
    }
}

impl Clone for Element {
    fn clone(&self) -> Self {
        if self.children.is_empty() {
            return self.shallow_clone();
        }
        let mut pre: Vec<(Element, usize)> = Vec::new();
        let mut stack: Vec<(core::slice::Iter<'_, Element>, usize)> =
            vec![(core::slice::from_ref(self).iter(), usize::MAX)];
        while let Some((it, parent)) = stack.last_mut() {
            let parent = *parent;
            let Some(e) = it.next() else {
                stack.pop();
                continue;
            };
            pre.push((e.shallow_clone(), parent));
            if !e.children.is_empty() {
                stack.push((e.children.iter(), pre.len() - 1));
            }
        }
        assemble(pre).pop().unwrap_or_default()
    }
}

impl PartialEq for Element {
    fn eq(&self, other: &Self) -> bool {
        let mut stack: Vec<(&Element, &Element)> = vec![(self, other)];
        while let Some((a, b)) = stack.pop() {
            if !a.shallow_eq(b) || a.children.len() != b.children.len() {
                return false;
            }
            stack.extend(a.children.iter().zip(&b.children));
        }
        true
    }
}

impl core::fmt::Debug for Element {
    /// The element as aria snapshot text (iterative, unlike a derived `Debug`).
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Element({:?})", self.to_aria())
    }
}

/// A bracketed attribute: `[checked]` is `State { name: "checked", value: None }`,
/// `[level=2]` is `State { name: "level", value: Some("2") }`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct State {
    /// Attribute name.
    pub name: String,
    /// Attribute value; `None` for a bare flag.
    pub value: Option<String>,
}

impl State {
    /// A bare flag such as `[disabled]`.
    ///
    /// ```
    /// assert_eq!(response_diff::tree::State::flag("checked").to_string(), "[checked]");
    /// ```
    pub fn flag(name: impl Into<String>) -> Self {
        State {
            name: name.into(),
            value: None,
        }
    }

    /// A valued attribute such as `[level=2]`.
    ///
    /// ```
    /// assert_eq!(response_diff::tree::State::with_value("level", "2").to_string(), "[level=2]");
    /// ```
    pub fn with_value(name: impl Into<String>, value: impl Into<String>) -> Self {
        State {
            name: name.into(),
            value: Some(value.into()),
        }
    }

    /// The value as a diff reports it: `"true"` for a bare flag.
    pub fn value_str(&self) -> &str {
        self.value.as_deref().unwrap_or("true")
    }

    /// Where Playwright prints this attribute among an element's
    /// (renderAriaSnapshotAsYaml): `checked`, `disabled`, `expanded`,
    /// `active`, `invalid`, `level`, `pressed`, `selected`, `aria-hidden`,
    /// then the rest. Sort an element's states by it to print them as
    /// Playwright does.
    ///
    /// ```
    /// use response_diff::tree::State;
    /// let mut states = vec![State::flag("selected"), State::flag("checked")];
    /// states.sort_by_key(State::playwright_rank);
    /// assert_eq!(states[0].name, "checked");
    /// ```
    pub fn playwright_rank(&self) -> u8 {
        playwright_rank(&self.name)
    }
}

/// [`State::playwright_rank`] of a state named `name`.
pub(crate) fn playwright_rank(name: &str) -> u8 {
    match name {
        "checked" => 1,
        "disabled" => 2,
        "expanded" => 3,
        "active" => 4,
        "invalid" => 5,
        "level" => 6,
        "pressed" => 7,
        "selected" => 8,
        "aria-hidden" => 9,
        _ => 10,
    }
}

impl core::fmt::Display for State {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match &self.value {
            Some(v) => write!(f, "[{}={}]", self.name, v),
            None => write!(f, "[{}]", self.name),
        }
    }
}

/// A property line: `- /url: /cart` is `Prop { name: "url", value: "/cart" }`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Prop {
    /// Property name without the leading slash.
    pub name: String,
    /// Property value.
    pub value: String,
}

impl Prop {
    /// A property.
    ///
    /// ```
    /// let p = response_diff::tree::Prop::new("url", "/");
    /// assert_eq!((p.name.as_str(), p.value.as_str()), ("url", "/"));
    /// ```
    pub fn new(name: impl Into<String>, value: impl Into<String>) -> Self {
        Prop {
            name: name.into(),
            value: value.into(),
        }
    }
}

/// A bounding box in CSS pixels, relative to the viewport.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Bounds {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub width: f64,
    /// Height.
    pub height: f64,
}

impl core::fmt::Display for Bounds {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{},{},{},{}", self.x, self.y, self.width, self.height)
    }
}

/// Printing hints that carry no meaning: where `[ref=…]` and `[box=…]` stood
/// among the attributes when that differs from Playwright's order. Always
/// equal to any other `Layout`, so it never affects comparisons.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, Default)]
pub struct Layout {
    /// Number of states printed before `[ref=…]`.
    pub ref_at: Option<u32>,
    /// Number of states printed before `[box=…]`.
    pub box_at: Option<u32>,
    /// `[box=…]` came before `[ref=…]` at the same position.
    pub box_first: bool,
}

impl PartialEq for Layout {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Element {
    /// An element with a role and a name (empty for none).
    ///
    /// ```
    /// let e = response_diff::tree::Element::new("link", "Home");
    /// assert_eq!(e.to_aria(), r#"- link "Home""#);
    /// ```
    pub fn new(role: impl Into<String>, name: impl Into<String>) -> Self {
        let mut e = Element::default();
        e.role = role.into();
        e.name = name.into();
        e
    }

    /// A static text node (`- text: hello`).
    ///
    /// ```
    /// assert_eq!(response_diff::tree::Element::text("hello").to_aria(), "- text: hello");
    /// ```
    pub fn text(text: impl Into<String>) -> Self {
        Element::new("text", text)
    }

    /// Whether this is a static text node that prints as `- text: …`.
    pub fn is_text_node(&self) -> bool {
        self.role == "text"
            && !self.name_regex
            && self.value.is_none()
            && self.description.is_none()
            && self.aria_ref.is_none()
            && self.bounds.is_none()
            && self.states.is_empty()
            && self.props.is_empty()
            && self.children.is_empty()
    }

    /// The first state with this name.
    ///
    /// ```
    /// let t = response_diff::tree::parse_aria("- heading \"A\" [level=2]", false).unwrap();
    /// assert_eq!(t.roots[0].state("level").and_then(|s| s.value.as_deref()), Some("2"));
    /// ```
    pub fn state(&self, name: &str) -> Option<&State> {
        self.states.iter().find(|s| s.name == name)
    }

    /// The first property with this name (without the slash).
    ///
    /// ```
    /// let t = response_diff::tree::parse_aria("- link \"Home\":\n  - /url: /", false).unwrap();
    /// assert_eq!(t.roots[0].prop("url"), Some("/"));
    /// ```
    pub fn prop(&self, name: &str) -> Option<&str> {
        self.props
            .iter()
            .find(|p| p.name == name)
            .map(|p| p.value.as_str())
    }

    /// This element and its descendants in document order, with their depth
    /// relative to this element (0 for itself). Iterative: safe on any depth.
    ///
    /// ```
    /// let t = response_diff::tree::parse_aria("- list:\n  - listitem: a\n  - listitem: b", false).unwrap();
    /// let roles: Vec<_> = t.roots[0].descendants().map(|(_, e)| e.role.as_str()).collect();
    /// assert_eq!(roles, ["list", "listitem", "listitem"]);
    /// ```
    pub fn descendants(&self) -> Walk<'_> {
        Walk {
            stack: vec![(0, core::slice::from_ref(self).iter())],
        }
    }

    /// Number of elements in this subtree, itself included.
    pub fn count(&self) -> usize {
        self.descendants().count()
    }
}

/// A whole snapshot: the top-level elements in document order.
///
/// ```
/// use response_diff::tree::Tree;
/// let text = "- navigation \"Main\" [ref=e2]:\n  - link \"Home\" [ref=e3]:\n    - /url: /";
/// let tree = Tree::parse_aria(text, false).unwrap();
/// assert_eq!(tree.len(), 2);
/// assert_eq!(tree.to_aria(), text);
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tree {
    /// Top-level elements.
    pub roots: Vec<Element>,
    /// The snapshot dialect the tree was read from and prints in
    /// ([`Tree::to_text`]); Playwright's unless parsed from
    /// chrome-devtools-mcp's text.
    pub dialect: Dialect,
}

impl Tree {
    /// A tree with these top-level elements.
    ///
    /// ```
    /// let t = response_diff::tree::Tree::new(vec![response_diff::tree::Element::new("button", "Go")]);
    /// assert_eq!(t.len(), 1);
    /// ```
    pub fn new(roots: Vec<Element>) -> Self {
        Tree {
            roots,
            dialect: Dialect::Playwright,
        }
    }

    /// Every element in document order with its depth (0 for top level).
    ///
    /// ```
    /// let t = response_diff::tree::parse_aria("- list:\n  - listitem: a", false).unwrap();
    /// let v: Vec<_> = t.iter().map(|(d, e)| (d, e.role.as_str())).collect();
    /// assert_eq!(v, [(0, "list"), (1, "listitem")]);
    /// ```
    pub fn iter(&self) -> Walk<'_> {
        Walk::over(&self.roots, 0)
    }

    /// Number of elements (text nodes included).
    pub fn len(&self) -> usize {
        self.iter().count()
    }

    /// Whether the tree has no elements.
    pub fn is_empty(&self) -> bool {
        self.roots.is_empty()
    }
}

/// Pre-order iterator over elements with their depth; see [`Tree::iter`].
#[derive(Debug, Clone)]
pub struct Walk<'a> {
    stack: Vec<(usize, core::slice::Iter<'a, Element>)>,
}

impl<'a> Walk<'a> {
    /// `elements` and their subtrees in document order, the first at
    /// depth `base`.
    pub(crate) fn over(elements: &'a [Element], base: usize) -> Walk<'a> {
        Walk {
            stack: vec![(base, elements.iter())],
        }
    }
}

impl<'a> Iterator for Walk<'a> {
    type Item = (usize, &'a Element);

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let (depth, it) = self.stack.last_mut()?;
            let depth = *depth;
            match it.next() {
                Some(e) => {
                    if !e.children.is_empty() {
                        self.stack.push((depth + 1, e.children.iter()));
                    }
                    return Some((depth, e));
                }
                None => {
                    self.stack.pop();
                }
            }
        }
    }
}

/// Builds a forest from elements in preorder with their parent's index
/// (`usize::MAX` for top level), without recursion.
pub(crate) fn assemble(mut nodes: Vec<(Element, usize)>) -> Vec<Element> {
    let mut roots = Vec::new();
    while let Some((mut e, parent)) = nodes.pop() {
        // Children were pushed last-first.
        e.children.reverse();
        if parent == usize::MAX {
            roots.push(e);
        } else {
            nodes[parent].0.children.push(e);
        }
    }
    roots.reverse();
    roots
}
