//! Accessible names computed from the DOM snapshot the way Playwright's
//! `getElementAccessibleName` (injected/src/roleUtils.ts) computes them,
//! for the snapshot's nodes (docs/DECISIONS.md D33).
//!
//! Chromium's own names (the AX tree's) differ from Playwright's in ways no
//! correction of the tree can undo: a control inside its own `<label>`
//! names itself by its value, an `<svg><title>` does not name the button
//! around it, and a name from content does not say which elements gave it
//! (Playwright's ai mode drops a name only when every element that gave it
//! is shown as a node of its own). So the name is computed here, from
//! [`DomFacts`], with the elements that gave it. Hand-written: there is no
//! crate for the accessible-name algorithm over a CDP DOM snapshot.
//!
//! Where the DOM snapshot does not carry what the walk needs (a shadow
//! root's slot assignment, `aria-owns`), [`accessible_name`] returns `None`
//! and Chromium's name stays.

use std::collections::HashSet;

use super::{DomFacts, DomNode, MAX_DEPTH};

mod content;
pub(super) use content::*;

/// Most elements one name computation visits before it gives up (and
/// leaves Chromium's name): a tree item's name holds every nested item.
const MAX_VISITS: usize = 4000;

/// A name and the elements (other than the named one) whose text gave it.
pub(super) struct Name {
    pub text: String,
    pub contributors: Vec<i64>,
}

/// The walk met something the DOM snapshot cannot tell.
struct Unknown;

#[derive(Clone, Copy, PartialEq)]
enum Target {
    Itself,
    Descendant,
    Outside,
}

/// Where the walk is (Playwright's `AccessibleNameOptions`); each `Some`
/// says whether the root of that traversal was hidden.
#[derive(Clone, Copy)]
struct Opts {
    labelled_by: Option<bool>,
    label: Option<bool>,
    native: Option<bool>,
    target: Target,
}

#[derive(Default)]
struct Part {
    text: String,
    elements: Vec<i64>,
}

impl Part {
    fn of(text: &str, b: i64) -> Part {
        Part {
            text: text.to_owned(),
            elements: if text.is_empty() { Vec::new() } else { vec![b] },
        }
    }

    fn join(parts: Vec<Part>, sep: &str) -> Part {
        let mut out = Part::default();
        let mut texts = Vec::with_capacity(parts.len());
        for p in parts {
            texts.push(p.text);
            out.elements.extend(p.elements);
        }
        out.text = texts.join(sep);
        out
    }
}

struct Walk<'a> {
    dom: &'a DomFacts,
    visited: HashSet<i64>,
    visits: usize,
}

/// The accessible name of element `b`, as Playwright computes it (roles
/// that prohibit a name get none), or `None` when the DOM snapshot does
/// not tell.
pub(super) fn accessible_name(dom: &DomFacts, b: i64) -> Option<Name> {
    let role = role(dom, b);
    if role.as_deref().is_some_and(|r| PROHIBITS_NAME.contains(&r)) {
        return Some(Name {
            text: String::new(),
            contributors: Vec::new(),
        });
    }
    let mut walk = Walk {
        dom,
        visited: HashSet::new(),
        visits: 0,
    };
    let part = walk
        .alt(
            b,
            Opts {
                labelled_by: None,
                label: None,
                native: None,
                target: Target::Itself,
            },
            0,
        )
        .ok()?;
    let mut contributors = part.elements;
    contributors.retain(|&c| c != b);
    contributors.sort_unstable();
    contributors.dedup();
    Some(Name {
        text: flat(&part.text),
        contributors,
    })
}

/// accname's "flat string": whitespace runs to one space, zero-width
/// characters dropped, trimmed.
fn flat(s: &str) -> String {
    super::collapse(s)
}

const PROHIBITS_NAME: &[&str] = &[
    "caption",
    "code",
    "definition",
    "deletion",
    "emphasis",
    "generic",
    "insertion",
    "mark",
    "paragraph",
    "presentation",
    "strong",
    "subscript",
    "suggestion",
    "superscript",
    "term",
    "time",
];

fn tag(d: &DomNode) -> String {
    d.tag.to_ascii_uppercase()
}

fn node(dom: &DomFacts, b: i64) -> Option<&DomNode> {
    dom.nodes.get(&b)
}

/// Playwright's `getAriaRole`: the first valid token of `role` (none and
/// presentation yield to the implicit role on a focusable element or one
/// with a global aria attribute), else the implicit role; `None` is no
/// role (a generic).
pub(super) fn role(dom: &DomFacts, b: i64) -> Option<String> {
    let d = node(dom, b)?;
    let explicit = d.attr("role").and_then(|r| {
        r.split(' ')
            .map(str::trim)
            .find(|r| VALID_ROLES.contains(r))
            .map(str::to_owned)
    });
    match explicit.as_deref() {
        None => implicit(dom, b, d),
        Some("none" | "presentation") => {
            let implicit = implicit(dom, b, d);
            if has_global_aria(d) || focusable(d) {
                implicit
            } else {
                explicit
            }
        }
        Some(_) => explicit,
    }
}

fn has_global_aria(d: &DomNode) -> bool {
    d.attrs.iter().any(|(k, _)| {
        let k = k.to_ascii_lowercase();
        GLOBAL_ARIA.contains(&k.as_str())
    })
}

fn focusable(d: &DomNode) -> bool {
    if d.attr("tabindex").is_some() {
        return true;
    }
    match tag(d).as_str() {
        "BUTTON" | "SELECT" | "TEXTAREA" => d.attr("disabled").is_none(),
        "INPUT" => {
            d.attr("disabled").is_none()
                && !d
                    .attr("type")
                    .is_some_and(|t| t.eq_ignore_ascii_case("hidden"))
        }
        "A" | "AREA" => d.attr("href").is_some(),
        _ => false,
    }
}

fn closest(dom: &DomFacts, b: i64, tags: &[&str]) -> Option<i64> {
    let mut cur = b;
    for _ in 0..MAX_DEPTH {
        let &p = dom.parent.get(&cur)?;
        if node(dom, p).is_some_and(|d| tags.contains(&tag(d).as_str())) {
            return Some(p);
        }
        cur = p;
    }
    None
}

fn closest_disabled_fieldset(dom: &DomFacts, b: i64) -> Option<i64> {
    let mut cur = b;
    for _ in 0..MAX_DEPTH {
        let &p = dom.parent.get(&cur)?;
        if node(dom, p).is_some_and(|d| tag(d) == "FIELDSET" && d.attr("disabled").is_some()) {
            return Some(p);
        }
        cur = p;
    }
    None
}

/// A heading element's own level (`<h1>`…`<h6>`).
pub(super) fn native_level(d: &DomNode) -> Option<u8> {
    match tag(d).as_str() {
        "H1" => Some(1),
        "H2" => Some(2),
        "H3" => Some(3),
        "H4" => Some(4),
        "H5" => Some(5),
        "H6" => Some(6),
        _ => None,
    }
}

fn input_type(d: &DomNode) -> String {
    let t = d
        .attr("type")
        .map(|t| t.trim().to_ascii_lowercase())
        .unwrap_or_default();
    match t.as_str() {
        "" => "text".into(),
        "button" | "checkbox" | "color" | "date" | "datetime-local" | "email" | "file"
        | "hidden" | "image" | "month" | "number" | "password" | "radio" | "range" | "reset"
        | "search" | "submit" | "tel" | "text" | "time" | "url" | "week" => t,
        _ => "text".into(),
    }
}

fn explicit_name(d: &DomNode) -> bool {
    d.attr("aria-label").is_some() || d.attr("aria-labelledby").is_some()
}

fn implicit(dom: &DomFacts, b: i64, d: &DomNode) -> Option<String> {
    let r = match tag(d).as_str() {
        "A" | "AREA" if d.attr("href").is_some() => "link",
        "ARTICLE" => "article",
        "ASIDE" => "complementary",
        "BLOCKQUOTE" => "blockquote",
        "BUTTON" => "button",
        "CAPTION" => "caption",
        "CODE" => "code",
        "DATALIST" => "listbox",
        "DD" => "definition",
        "DEL" => "deletion",
        "DETAILS" | "FIELDSET" | "OPTGROUP" => "group",
        "DFN" | "DT" => "term",
        "DIALOG" => "dialog",
        "EM" => "emphasis",
        "FIGURE" => "figure",
        "FOOTER" | "HEADER" => {
            let inside = ["ARTICLE", "ASIDE", "MAIN", "NAV", "SECTION"];
            if closest(dom, b, &inside).is_some() {
                return None;
            }
            if tag(d) == "FOOTER" {
                "contentinfo"
            } else {
                "banner"
            }
        }
        "FORM" | "SECTION" if !explicit_name(d) => return None,
        "FORM" => "form",
        "SECTION" => "region",
        "H1" | "H2" | "H3" | "H4" | "H5" | "H6" => "heading",
        "HR" => "separator",
        "HTML" => "document",
        "IMG" => {
            let decorative = d.attr("alt") == Some("")
                && d.attr("title").is_none_or(str::is_empty)
                && !has_global_aria(d)
                && d.attr("tabindex").is_none();
            if decorative { "presentation" } else { "img" }
        }
        "INPUT" => match input_type(d).as_str() {
            t @ ("email" | "search" | "tel" | "text" | "url") => {
                let list = d.attr("list").and_then(|l| dom.ids.get(l));
                if list
                    .and_then(|&l| node(dom, l))
                    .is_some_and(|l| tag(l) == "DATALIST")
                {
                    "combobox"
                } else if t == "search" {
                    "searchbox"
                } else {
                    "textbox"
                }
            }
            "hidden" => return None,
            "file" | "button" | "image" | "reset" | "submit" => "button",
            "checkbox" => "checkbox",
            "number" => "spinbutton",
            "radio" => "radio",
            "range" => "slider",
            _ => "textbox",
        },
        "INS" => "insertion",
        "LI" => "listitem",
        "MAIN" => "main",
        "MARK" => "mark",
        "MATH" => "math",
        "MENU" | "OL" | "UL" => "list",
        "METER" => "meter",
        "NAV" => "navigation",
        "OPTION" => "option",
        "OUTPUT" => "status",
        "P" => "paragraph",
        "PROGRESS" => "progressbar",
        "SEARCH" => "search",
        "SELECT" => {
            let size = d
                .attr("size")
                .and_then(|s| s.trim().parse::<u32>().ok())
                .unwrap_or(0);
            if d.attr("multiple").is_some() || size > 1 {
                "listbox"
            } else {
                "combobox"
            }
        }
        "STRONG" => "strong",
        "SUB" => "subscript",
        "SUP" => "superscript",
        "SVG" => "img",
        "TABLE" => "table",
        "TBODY" | "THEAD" | "TFOOT" => "rowgroup",
        "TD" => {
            let grid = closest(dom, b, &["TABLE"])
                .and_then(|t| node(dom, t))
                .and_then(|t| t.attr("role"))
                .is_some_and(|r| matches!(r.trim(), "grid" | "treegrid"));
            if grid { "gridcell" } else { "cell" }
        }
        "TH" => match d.attr("scope").map(str::trim) {
            Some("row" | "rowgroup") => "rowheader",
            _ => "columnheader",
        },
        "TEXTAREA" => "textbox",
        "TIME" => "time",
        "TR" => "row",
        _ => return None,
    };
    // Presentation is inherited down a list or a table's own parts.
    let mut cur = b;
    for _ in 0..4 {
        let Some(&p) = dom.parent.get(&cur) else {
            break;
        };
        let (Some(c), Some(pd)) = (node(dom, cur), node(dom, p)) else {
            break;
        };
        let parents: &[&str] = match tag(c).as_str() {
            "DD" | "DT" => &["DL", "DIV"],
            "DIV" => &["DL"],
            "LI" => &["OL", "UL"],
            "TBODY" | "TFOOT" | "THEAD" => &["TABLE"],
            "TD" | "TH" => &["TR"],
            "TR" => &["THEAD", "TBODY", "TFOOT", "TABLE"],
            _ => break,
        };
        if !parents.contains(&tag(pd).as_str()) {
            break;
        }
        let explicit = pd.attr("role").and_then(|r| {
            r.split(' ')
                .map(str::trim)
                .find(|r| VALID_ROLES.contains(r))
        });
        if let Some(e @ ("none" | "presentation")) = explicit
            && !has_global_aria(pd)
            && !focusable(pd)
        {
            return Some(e.to_owned());
        }
        cur = p;
    }
    Some(r.to_owned())
}

/// Whether `b` has a layout box, or is `display: contents` with content
/// that has one (the DOM snapshot lays out neither `display: none` nor
/// `display: contents` elements; only the second has laid-out content).
fn rendered(dom: &DomFacts, b: i64, depth: usize) -> bool {
    if dom.laid_out.contains(&b) {
        return true;
    }
    depth < 64
        && dom
            .kids
            .get(&b)
            .into_iter()
            .flatten()
            .any(|&k| rendered(dom, k, depth + 1))
}

fn in_select(dom: &DomFacts, b: i64) -> bool {
    closest(dom, b, &["SELECT", "DATALIST"]).is_some()
}

/// Playwright's `isElementHiddenForAria`.
pub(super) fn hidden(dom: &DomFacts, b: i64) -> bool {
    let Some(d) = node(dom, b) else {
        return true;
    };
    let t = tag(d);
    if matches!(t.as_str(), "STYLE" | "SCRIPT" | "NOSCRIPT" | "TEMPLATE") {
        return true;
    }
    let options = in_select(dom, b);
    if !options && t != "SLOT" {
        if !dom.laid_out.contains(&b) && rendered(dom, b, 0) {
            // display: contents is hidden only when all it holds is.
            return !dom.kids.get(&b).into_iter().flatten().any(|&k| {
                if dom.text.contains_key(&k) {
                    dom.laid_out.contains(&k)
                } else {
                    node(dom, k).is_some_and(|c| !c.tag.starts_with("::")) && !hidden(dom, k)
                }
            });
        }
        if dom.laid_out.contains(&b) && d.visibility.as_deref().is_some_and(|v| v != "visible") {
            return true;
        }
    }
    let mut cur = b;
    for _ in 0..MAX_DEPTH {
        let Some(d) = node(dom, cur) else {
            return false;
        };
        if matches!(tag(d).as_str(), "HTML" | "#DOCUMENT") {
            return false;
        }
        let display_none = !options && !rendered(dom, cur, 0);
        if display_none || super::is_aria_hidden(d) {
            return true;
        }
        match dom.parent.get(&cur) {
            Some(&p) => cur = p,
            None => return false,
        }
    }
    false
}

/// The `<label>`s of a labelable element: the first `<label for>` of its
/// id, and a `<label>` around it without `for`.
fn labels(dom: &DomFacts, b: i64, d: &DomNode) -> Vec<i64> {
    let labelable = match tag(d).as_str() {
        "BUTTON" | "METER" | "OUTPUT" | "PROGRESS" | "SELECT" | "TEXTAREA" => true,
        "INPUT" => input_type(d) != "hidden",
        _ => false,
    };
    if !labelable {
        return Vec::new();
    }
    let mut out = Vec::new();
    if let Some(id) = d.attr("id")
        && dom.ids.get(id) == Some(&b)
        && let Some(ls) = dom.labels_for.get(id)
    {
        out.extend(ls.iter().copied());
    }
    if let Some(l) = closest(dom, b, &["LABEL"])
        && node(dom, l).is_some_and(|l| l.attr("for").is_none())
        && !out.contains(&l)
    {
        out.push(l);
    }
    out
}

/// The text of a CSS `content` value: its strings and `attr()`s (after a
/// `/`, the alternative text); `None` when it holds anything else.
fn css_content(d: &DomNode, owner: Option<&DomNode>, content: &str) -> Option<String> {
    let content = content.trim();
    if content.is_empty() || content == "none" || content == "normal" {
        return None;
    }
    let mut tokens = Vec::new();
    let mut chars = content.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c == '"' || c == '\'' {
            chars.next();
            let mut s = String::new();
            while let Some(c2) = chars.next() {
                match c2 {
                    '\\' => {
                        if let Some(n) = chars.next() {
                            s.push(n);
                        }
                    }
                    q if q == c => break,
                    other => s.push(other),
                }
            }
            tokens.push(Ok(s));
        } else if c == '/' {
            chars.next();
            tokens.push(Err('/'));
        } else {
            let mut word = String::new();
            while let Some(&c2) = chars.peek() {
                if c2.is_whitespace() || c2 == '"' || c2 == '\'' || c2 == '/' {
                    break;
                }
                word.push(c2);
                chars.next();
                if c2 == ')' {
                    break;
                }
            }
            let attr = word
                .strip_prefix("attr(")
                .and_then(|w| w.strip_suffix(')'))
                .map(str::trim);
            match attr {
                Some(a) => tokens.push(Ok(owner
                    .or(Some(d))
                    .and_then(|o| o.attr(a))
                    .unwrap_or_default()
                    .to_owned())),
                // Not text (an image, a counter, a quote): only an
                // alternative text after `/` can still name it.
                None => tokens.push(Err('?')),
            }
        }
    }
    if let Some(slash) = tokens.iter().position(|t| *t == Err('/')) {
        tokens.drain(..=slash);
    }
    tokens
        .into_iter()
        .collect::<Result<Vec<_>, _>>()
        .ok()
        .map(|v| v.concat())
}

impl Walk<'_> {
    fn d(&self, b: i64) -> Option<&DomNode> {
        node(self.dom, b)
    }

    /// The CSS content of `b`'s `::before` or `::after` (padded with
    /// spaces when it is not inline, as Playwright pads it).
    fn pseudo(&self, b: i64, which: &str) -> String {
        let owner = self.d(b);
        for &k in self.dom.kids.get(&b).into_iter().flatten() {
            if let Some(p) = self.d(k)
                && p.tag == which
                && p.visibility.as_deref().is_none_or(|v| v == "visible")
                && let Some(text) = p.content.as_deref().and_then(|c| css_content(p, owner, c))
            {
                return if p.display.as_deref().is_none_or(|d| d == "inline") {
                    text
                } else {
                    format!(" {text} ")
                };
            }
        }
        String::new()
    }

    fn attr_part(&self, b: i64, name: &str) -> Part {
        let v = self.d(b).and_then(|d| d.attr(name)).unwrap_or_default();
        Part::of(v, b)
    }

    fn labels_text(&mut self, labels: &[i64], depth: usize) -> Result<Part, Unknown> {
        let mut parts = Vec::new();
        for &l in labels {
            let p = self.alt(
                l,
                Opts {
                    label: Some(hidden(self.dom, l)),
                    native: None,
                    labelled_by: None,
                    target: Target::Outside,
                },
                depth + 1,
            )?;
            if !p.text.is_empty() {
                parts.push(p);
            }
        }
        Ok(Part::join(parts, " "))
    }

    /// The first child element of `b` with this tag.
    fn child(&self, b: i64, t: &str) -> Option<i64> {
        self.dom
            .kids
            .get(&b)
            .into_iter()
            .flatten()
            .copied()
            .find(|&k| self.d(k).is_some_and(|d| tag(d) == t))
    }

    /// Playwright's `getTextAlternativeInternal`.
    fn alt(&mut self, b: i64, o: Opts, depth: usize) -> Result<Part, Unknown> {
        if self.visited.contains(&b) {
            return Ok(Part::default());
        }
        self.visits += 1;
        if depth >= MAX_DEPTH || self.visits > MAX_VISITS {
            return Err(Unknown);
        }
        let dom = self.dom;
        let Some(d) = node(dom, b) else {
            return Ok(Part::default());
        };
        let t = tag(d);
        if dom.shadow_hosts.contains(&b) || t == "SLOT" || d.attr("aria-owns").is_some() {
            return Err(Unknown);
        }
        let child_o = Opts {
            target: if o.target == Target::Itself {
                Target::Descendant
            } else {
                o.target
            },
            ..o
        };
        // 2a: hidden, and not reached through a hidden reference.
        let in_hidden_reference =
            o.labelled_by == Some(true) || o.native == Some(true) || o.label == Some(true);
        if matches!(t.as_str(), "STYLE" | "SCRIPT" | "NOSCRIPT" | "TEMPLATE")
            || (!in_hidden_reference && hidden(dom, b))
        {
            self.visited.insert(b);
            return Ok(Part::default());
        }
        let labelled_by: Vec<i64> = d
            .attr("aria-labelledby")
            .map(|ids| {
                let mut v: Vec<i64> = Vec::new();
                for id in ids.split(' ').filter(|s| !s.is_empty()) {
                    if let Some(&e) = dom.ids.get(id)
                        && !v.contains(&e)
                    {
                        v.push(e);
                    }
                }
                v
            })
            .unwrap_or_default();
        // 2b: aria-labelledby.
        if o.labelled_by.is_none() && !labelled_by.is_empty() {
            let mut parts = Vec::new();
            for &r in &labelled_by {
                parts.push(self.alt(
                    r,
                    Opts {
                        labelled_by: Some(hidden(dom, r)),
                        label: None,
                        native: None,
                        target: Target::Outside,
                    },
                    depth + 1,
                )?);
            }
            let part = Part::join(parts, " ");
            if !part.text.is_empty() {
                return Ok(part);
            }
        }
        let role = role(dom, b).unwrap_or_default();
        // 2c: a control embedded in the label of another.
        if (o.label.is_some() || o.labelled_by.is_some() || o.target == Target::Descendant)
            && !labelled_by.contains(&b)
        {
            match role.as_str() {
                "textbox" => {
                    self.visited.insert(b);
                    if matches!(t.as_str(), "INPUT" | "TEXTAREA") {
                        let v = d.value.clone().unwrap_or_default();
                        return Ok(Part::of(&v, b));
                    }
                    let mut s = String::new();
                    dom.text_content(b, &mut s, 0);
                    return Ok(Part::of(&s, b));
                }
                "combobox" | "listbox" => {
                    self.visited.insert(b);
                    let options: Vec<i64> = if t == "SELECT" {
                        let all = self.options(b);
                        let chosen: Vec<i64> = all
                            .iter()
                            .copied()
                            .filter(|&x| self.d(x).is_some_and(|x| x.option_selected))
                            .collect();
                        if chosen.is_empty() {
                            all.into_iter().take(1).collect()
                        } else {
                            chosen
                        }
                    } else if t == "INPUT" {
                        let v = d.value.clone().unwrap_or_default();
                        return Ok(Part::of(&v, b));
                    } else {
                        // An ARIA combobox's selected options: rare, and
                        // the listbox may be owned; leave it to Chromium.
                        return Err(Unknown);
                    };
                    let mut parts = Vec::new();
                    for x in options {
                        parts.push(self.alt(x, child_o, depth + 1)?);
                    }
                    return Ok(Part::join(parts, " "));
                }
                "progressbar" | "scrollbar" | "slider" | "spinbutton" | "meter" => {
                    self.visited.insert(b);
                    for a in ["aria-valuetext", "aria-valuenow", "value"] {
                        if d.attr(a).is_some() {
                            return Ok(self.attr_part(b, a));
                        }
                    }
                    return Ok(Part::default());
                }
                "menu" => {
                    self.visited.insert(b);
                    return Ok(Part::default());
                }
                _ => {}
            }
        }
        // 2d: aria-label.
        if let Some(l) = d.attr("aria-label")
            && !l.trim().is_empty()
        {
            self.visited.insert(b);
            return Ok(Part::of(l, b));
        }
        let presentational = matches!(role.as_str(), "presentation" | "none");
        // 2e: the host language's own label.
        if !presentational {
            let no_labelled_by = labelled_by.is_empty();
            let ty = if t == "INPUT" {
                input_type(d)
            } else {
                String::new()
            };
            if t == "INPUT" && matches!(ty.as_str(), "button" | "submit" | "reset") {
                self.visited.insert(b);
                let v = d
                    .value
                    .clone()
                    .or_else(|| d.attr("value").map(str::to_owned))
                    .unwrap_or_default();
                if !v.trim().is_empty() {
                    return Ok(Part::of(&v, b));
                }
                return Ok(match ty.as_str() {
                    "submit" => Part::of("Submit", b),
                    "reset" => Part::of("Reset", b),
                    _ => self.attr_part(b, "title"),
                });
            }
            if t == "INPUT" && matches!(ty.as_str(), "file" | "image") {
                self.visited.insert(b);
                let ls = labels(dom, b, d);
                if !ls.is_empty() && o.labelled_by.is_none() {
                    return self.labels_text(&ls, depth);
                }
                if ty == "file" {
                    return Ok(Part::of("Choose File", b));
                }
                for a in ["alt", "title"] {
                    if d.attr(a).is_some_and(|v| !v.trim().is_empty()) {
                        return Ok(self.attr_part(b, a));
                    }
                }
                return Ok(Part::of("Submit", b));
            }
            if no_labelled_by && t == "BUTTON" {
                self.visited.insert(b);
                let ls = labels(dom, b, d);
                if !ls.is_empty() {
                    return self.labels_text(&ls, depth);
                }
            }
            if no_labelled_by && t == "OUTPUT" {
                self.visited.insert(b);
                let ls = labels(dom, b, d);
                if !ls.is_empty() {
                    return self.labels_text(&ls, depth);
                }
                return Ok(self.attr_part(b, "title"));
            }
            if no_labelled_by
                && matches!(
                    t.as_str(),
                    "TEXTAREA" | "SELECT" | "INPUT" | "METER" | "PROGRESS"
                )
            {
                self.visited.insert(b);
                let ls = labels(dom, b, d);
                if !ls.is_empty() {
                    return self.labels_text(&ls, depth);
                }
                let placeholder = (t == "INPUT"
                    && matches!(
                        ty.as_str(),
                        "text" | "password" | "number" | "search" | "tel" | "email" | "url"
                    ))
                    || t == "TEXTAREA";
                let title = d.attr("title").unwrap_or_default();
                if !placeholder || !title.is_empty() {
                    return Ok(self.attr_part(b, "title"));
                }
                return Ok(self.attr_part(b, "placeholder"));
            }
            for (own, caption) in [("FIELDSET", "LEGEND"), ("FIGURE", "FIGCAPTION")] {
                if no_labelled_by && t == own {
                    self.visited.insert(b);
                    if let Some(c) = self.child(b, caption) {
                        return self.alt(
                            c,
                            Opts {
                                native: Some(hidden(dom, c)),
                                ..child_o
                            },
                            depth + 1,
                        );
                    }
                    return Ok(self.attr_part(b, "title"));
                }
            }
            if matches!(t.as_str(), "IMG" | "AREA") {
                self.visited.insert(b);
                if d.attr("alt").is_some_and(|v| !v.trim().is_empty()) {
                    return Ok(self.attr_part(b, "alt"));
                }
                return Ok(self.attr_part(b, "title"));
            }
            if t == "TABLE" {
                self.visited.insert(b);
                if let Some(c) = self.child(b, "CAPTION") {
                    return self.alt(
                        c,
                        Opts {
                            native: Some(hidden(dom, c)),
                            ..child_o
                        },
                        depth + 1,
                    );
                }
                if d.attr("summary").is_some_and(|s| !s.is_empty()) {
                    return Ok(self.attr_part(b, "summary"));
                }
            }
            let in_svg = closest(dom, b, &["SVG"]).is_some();
            if t == "SVG" || in_svg {
                self.visited.insert(b);
                let title = self
                    .dom
                    .kids
                    .get(&b)
                    .into_iter()
                    .flatten()
                    .copied()
                    .find(|&k| {
                        self.d(k).is_some_and(|c| c.tag == "title")
                            && closest(dom, k, &["SVG"]).is_some()
                    });
                if let Some(c) = title {
                    return self.alt(
                        c,
                        Opts {
                            labelled_by: Some(hidden(dom, c)),
                            ..child_o
                        },
                        depth + 1,
                    );
                }
            }
            if in_svg
                && t == "A"
                && let Some(title) = d.attr("xlink:title")
                && !title.trim().is_empty()
            {
                self.visited.insert(b);
                return Ok(Part::of(title, b));
            }
        }
        // 2f, 2h: from content.
        let summary = t == "SUMMARY" && !presentational;
        if allows_name_from_content(&role, o.target == Target::Descendant)
            || summary
            || o.labelled_by.is_some()
            || o.label.is_some()
            || o.native.is_some()
        {
            self.visited.insert(b);
            let mut part = self.inner(b, child_o, depth)?;
            let text = if o.target == Target::Itself {
                part.text.trim().to_owned()
            } else {
                part.text.clone()
            };
            if !text.is_empty() {
                part.elements.push(b);
                return Ok(part);
            }
        }
        // 2i: title.
        if !presentational || t == "IFRAME" || t == "FRAME" {
            self.visited.insert(b);
            if d.attr("title").is_some_and(|v| !v.trim().is_empty()) {
                return Ok(self.attr_part(b, "title"));
            }
        }
        self.visited.insert(b);
        Ok(Part::default())
    }

    /// A `<select>`'s options, in document order (inside optgroups too).
    fn options(&self, b: i64) -> Vec<i64> {
        let mut out = Vec::new();
        for &k in self.dom.kids.get(&b).into_iter().flatten() {
            match self.d(k).map(tag).as_deref() {
                Some("OPTION") => out.push(k),
                Some("OPTGROUP") => out.extend(
                    self.dom
                        .kids
                        .get(&k)
                        .into_iter()
                        .flatten()
                        .copied()
                        .filter(|&x| self.d(x).is_some_and(|x| tag(x) == "OPTION")),
                ),
                _ => {}
            }
        }
        out
    }

    /// Playwright's `innerAccumulatedElementText`.
    fn inner(&mut self, b: i64, o: Opts, depth: usize) -> Result<Part, Unknown> {
        let mut out = Part {
            text: self.pseudo(b, "::before"),
            elements: Vec::new(),
        };
        let kids: Vec<i64> = self.dom.kids.get(&b).cloned().unwrap_or_default();
        for k in kids {
            if let Some(text) = self.dom.text.get(&k) {
                out.text.push_str(text);
                continue;
            }
            let Some(d) = self.d(k) else { continue };
            if d.tag.starts_with("::") {
                continue;
            }
            let block = tag(d) == "BR"
                || d.display.as_deref().is_some_and(|x| x != "inline")
                || !rendered(self.dom, k, 0);
            let part = self.alt(k, o, depth + 1)?;
            if block {
                out.text.push(' ');
            }
            out.text.push_str(&part.text);
            if block {
                out.text.push(' ');
            }
            out.elements.extend(part.elements);
        }
        out.text.push_str(&self.pseudo(b, "::after"));
        Ok(out)
    }
}

fn allows_name_from_content(role: &str, descendant: bool) -> bool {
    NAME_FROM_CONTENT.contains(&role)
        || (descendant && DESCENDANT_NAME_FROM_CONTENT.contains(&role))
}

const DESCENDANT_NAME_FROM_CONTENT: &[&str] = &[
    "",
    "caption",
    "code",
    "contentinfo",
    "definition",
    "deletion",
    "emphasis",
    "insertion",
    "list",
    "listitem",
    "mark",
    "none",
    "paragraph",
    "presentation",
    "region",
    "row",
    "rowgroup",
    "section",
    "strong",
    "subscript",
    "superscript",
    "table",
    "term",
    "time",
];

const GLOBAL_ARIA: &[&str] = &[
    "aria-atomic",
    "aria-busy",
    "aria-controls",
    "aria-current",
    "aria-describedby",
    "aria-details",
    "aria-dropeffect",
    "aria-flowto",
    "aria-grabbed",
    "aria-hidden",
    "aria-keyshortcuts",
    "aria-label",
    "aria-labelledby",
    "aria-live",
    "aria-owns",
    "aria-relevant",
    "aria-roledescription",
];

const VALID_ROLES: &[&str] = &[
    "alert",
    "alertdialog",
    "application",
    "article",
    "banner",
    "blockquote",
    "button",
    "caption",
    "cell",
    "checkbox",
    "code",
    "columnheader",
    "combobox",
    "complementary",
    "contentinfo",
    "definition",
    "deletion",
    "dialog",
    "directory",
    "document",
    "emphasis",
    "feed",
    "figure",
    "form",
    "generic",
    "grid",
    "gridcell",
    "group",
    "heading",
    "img",
    "insertion",
    "link",
    "list",
    "listbox",
    "listitem",
    "log",
    "main",
    "mark",
    "marquee",
    "math",
    "meter",
    "menu",
    "menubar",
    "menuitem",
    "menuitemcheckbox",
    "menuitemradio",
    "navigation",
    "none",
    "note",
    "option",
    "paragraph",
    "presentation",
    "progressbar",
    "radio",
    "radiogroup",
    "region",
    "row",
    "rowgroup",
    "rowheader",
    "scrollbar",
    "search",
    "searchbox",
    "separator",
    "slider",
    "spinbutton",
    "status",
    "strong",
    "subscript",
    "superscript",
    "switch",
    "tab",
    "table",
    "tablist",
    "tabpanel",
    "term",
    "textbox",
    "time",
    "timer",
    "toolbar",
    "tooltip",
    "tree",
    "treegrid",
    "treeitem",
];

/// Whether Playwright makes a node of the element (ai mode: visible to
/// aria or on screen; not none/presentation; not an inline generic
/// holding only one text node).
fn makes_node(dom: &DomFacts, b: i64, d: &DomNode) -> bool {
    if hidden(dom, b) && !d.visible {
        return false;
    }
    match role(dom, b).as_deref() {
        Some("none" | "presentation") => false,
        None | Some("generic") => !(d.inline && d.only_text_child),
        _ => true,
    }
}

/// A generic whose content (through elements that make no node) is text
/// only.
fn leaf_generic(dom: &DomFacts, b: i64, depth: usize) -> bool {
    if depth == 0 && !matches!(role(dom, b).as_deref(), None | Some("generic")) {
        return false;
    }
    if depth > 64 {
        return false;
    }
    dom.kids.get(&b).into_iter().flatten().all(|&k| {
        if dom.text.contains_key(&k) {
            return true;
        }
        match node(dom, k) {
            Some(c) if c.tag.starts_with("::") => true,
            Some(c) => !makes_node(dom, k, c) && leaf_generic(dom, k, depth + 1),
            None => true,
        }
    })
}

impl super::AxSnapshot {
    /// Playwright's name of the element `backend`, or `None` where the
    /// DOM snapshot does not tell it (no DOM facts, an iframe, a shadow
    /// host, `aria-owns`).
    pub(super) fn dom_name(&self, backend: Option<i64>, role: &str) -> Option<Name> {
        if self.dom.nodes.is_empty() || role == "iframe" {
            return None;
        }
        let b = backend?;
        let name = accessible_name(&self.dom, b)?;
        if !name.contributors.is_empty() {
            self.name_parts
                .borrow_mut()
                .insert(b, name.contributors.clone());
        }
        Some(name)
    }

    /// The backend id of the `::before`/`::after` an AX node (CSS
    /// content's text) sits under.
    pub(super) fn pseudo_parent(&self, n: &serde_json::Value) -> Option<i64> {
        let p = n.get("parentId").and_then(super::id_str)?;
        let b = self.backend_of(*self.by_id.get(&p)?)?;
        node(&self.dom, b)
            .filter(|d| matches!(d.tag.as_str(), "::before" | "::after"))
            .map(|_| b)
    }

    /// The text of a `::before`/`::after` node: its CSS content as
    /// Playwright reads it (strings and `attr()`; `open-quote` and
    /// counters are nothing), keyed by the pseudo-element so it joins its
    /// neighbours as the DOM has them. `None` for other nodes.
    pub(super) fn pseudo_items(&self, backend: Option<i64>) -> Option<Vec<super::Item>> {
        let b = backend?;
        let d = node(&self.dom, b).filter(|d| matches!(d.tag.as_str(), "::before" | "::after"))?;
        let owner = self.dom.parent.get(&b).and_then(|&p| node(&self.dom, p));
        if d.visibility.as_deref().is_some_and(|v| v != "visible") {
            return Some(Vec::new());
        }
        let text = d.content.as_deref().and_then(|c| css_content(d, owner, c));
        Some(
            text.filter(|t| !t.is_empty())
                .map(|t| super::Item::Text(t, Some(b)))
                .into_iter()
                .collect(),
        )
    }

    /// The last corrections of a node whose name came from the DOM: the
    /// role and level Playwright gives its element where Chromium's
    /// differ, then the usual shaping.
    pub(super) fn dom_shaped(&self, mut n: super::Node) -> Vec<super::Item> {
        let apart = |a, b| self.apart(a, b);
        let Some(d) = n.backend.and_then(|b| node(&self.dom, b)) else {
            return super::normalize(n, &apart);
        };
        let b = n.backend.unwrap_or_default();
        let ours = role(&self.dom, b);
        let explicit = d.attr("role").and_then(|r| {
            r.split(' ')
                .map(str::trim)
                .find(|r| VALID_ROLES.contains(r))
        });
        match ours.as_deref() {
            // Presentational by inheritance (an `<li>` of a `role=none`
            // list): no node, its children in its place.
            Some("none" | "presentation") => {
                return super::merge_text(std::mem::take(&mut n.children), &apart);
            }
            // Elements Playwright gives no role: `<s>`, `<hgroup>`, a
            // `<section>` or `<form>` named only by `title`.
            None if matches!(tag(d).as_str(), "S" | "HGROUP" | "SECTION" | "FORM") => {
                n.role = "generic".into();
                n.states.clear();
            }
            // A role Chromium does not give out of context (an `option`
            // outside a listbox, a `listitem` outside a list).
            Some(r) if n.role == "generic" && (explicit == Some(r) || explicit.is_none()) => {
                n.role = r.to_owned();
            }
            _ => {}
        }
        if n.role == "generic"
            && explicit.is_none()
            && d.inline
            && d.only_text_child
            && n.name.is_empty()
        {
            return super::merge_text(std::mem::take(&mut n.children), &apart);
        }
        // An option is disabled by a disabled fieldset around its select
        // (Playwright's belongsToDisabledFieldSet), not only by its own
        // attribute or optgroup.
        if n.role == "option"
            && tag(d) == "OPTION"
            && !n.states.iter().any(|s| s.name == "disabled")
            && let Some(f) = closest_disabled_fieldset(&self.dom, b)
            && !self
                .dom
                .kids
                .get(&f)
                .into_iter()
                .flatten()
                .find(|&&k| node(&self.dom, k).is_some_and(|l| tag(l) == "LEGEND"))
                .is_some_and(|&l| self.within(b, l))
        {
            n.states.push(response_diff::tree::State::flag("disabled"));
            n.states.sort_by_key(super::state_rank);
        }
        if let Some(v) = d.attr("aria-invalid").map(str::trim)
            && (v == "spelling" || v == "grammar")
            && n.states.iter().any(|s| s.name == "invalid")
        {
            n.states.retain(|s| s.name != "invalid");
            n.states
                .push(response_diff::tree::State::with_value("invalid", v));
            n.states.sort_by_key(super::state_rank);
        }
        // Playwright's level: a native heading's own, else aria-level on
        // the roles that have one, else none.
        if matches!(n.role.as_str(), "heading" | "listitem" | "row" | "treeitem") {
            let level = native_level(d).map(u32::from).or_else(|| {
                d.attr("aria-level")
                    .and_then(|l| l.trim().parse::<u32>().ok())
                    .filter(|&l| l >= 1)
            });
            n.states.retain(|s| s.name != "level");
            if let Some(l) = level {
                n.states.push(response_diff::tree::State::with_value(
                    "level",
                    l.to_string(),
                ));
                n.states.sort_by_key(super::state_rank);
            }
        }
        super::normalize(n, &apart)
    }

    /// Whether Playwright makes a node of an element Chromium left out:
    /// not when it is presentational by inheritance (an `<li>` of a
    /// `role=none` list) or not visible (`visibility: hidden`, its
    /// visible children shown in its place).
    pub(super) fn wraps_as_playwright(&self, b: i64, d: &DomNode) -> bool {
        if self.dom.laid_out.contains(&b) && d.visibility.as_deref().is_some_and(|v| v != "visible")
        {
            return false;
        }
        !matches!(role(&self.dom, b).as_deref(), Some("none" | "presentation"))
    }

    /// The role of an element Chromium left out and Playwright shows: its
    /// own where that role takes no name (a paragraph Chromium folds into
    /// a generic), else `generic`.
    pub(super) fn wrapper_role(&self, b: i64) -> String {
        role(&self.dom, b)
            .filter(|r| PROHIBITS_NAME.contains(&r.as_str()) && r != "presentation")
            .unwrap_or_else(|| "generic".to_owned())
    }

    /// The page behind a modal `<dialog>`: Chromium's tree holds only the
    /// dialog (the document element is ignored as `activeModalDialog`);
    /// Playwright shows the whole page, so the body is read from the DOM,
    /// named (the dialog with it, in its place). `None` for other nodes.
    pub(super) fn modal_page(
        &self,
        n: &serde_json::Value,
        b: i64,
        depth: usize,
    ) -> Option<Vec<super::Item>> {
        let modal = n
            .get("ignoredReasons")
            .and_then(serde_json::Value::as_array)
            .is_some_and(|rs| {
                rs.iter().any(|r| {
                    r.get("name").and_then(serde_json::Value::as_str) == Some("activeModalDialog")
                })
            });
        if !modal || node(&self.dom, b).is_none_or(|d| tag(d) != "HTML") {
            return None;
        }
        let body = self
            .dom
            .kids
            .get(&b)?
            .iter()
            .copied()
            .find(|&k| node(&self.dom, k).is_some_and(|d| tag(d) == "BODY"))?;
        Some(self.hidden_items(body, depth + 1))
    }

    /// A ruby annotation (`<rt>`) Chromium leaves out of its tree:
    /// Playwright shows it as a generic holding its text (its display is
    /// not inline). `None` for other nodes.
    pub(super) fn ruby_text(&self, b: i64) -> Option<Vec<super::Item>> {
        let d = node(&self.dom, b).filter(|d| tag(d) == "RT" && d.visible)?;
        let children = self
            .dom
            .kids
            .get(&b)
            .into_iter()
            .flatten()
            .filter_map(|&k| Some(super::Item::Text(self.dom.text.get(&k)?.clone(), Some(k))))
            .collect();
        Some(super::normalize(
            super::Node {
                role: "generic".into(),
                name: String::new(),
                value: None,
                backend: Some(b),
                states: Vec::new(),
                props: Vec::new(),
                children,
                targetable: d.targetable,
                click_root: d.click_root,
            },
            &|a, b| self.apart(a, b),
        ))
    }

    /// Whether the elements that gave a name are all shown under the node
    /// (`items`), so that ai mode drops the name as redundant.
    pub(super) fn name_shown(
        &self,
        backend: Option<i64>,
        name: &Name,
        text: &str,
        items: &[super::Item],
    ) -> bool {
        if text.is_empty() || name.contributors.is_empty() {
            return false;
        }
        // What a named node under this one took its name from is
        // represented by that node (its name, or what it shows).
        let mut taken = HashSet::new();
        {
            let parts = self.name_parts.borrow();
            let mut stack: Vec<&[super::Item]> = vec![items];
            while let Some(level) = stack.pop() {
                for item in level {
                    if let super::Item::Node(n) = item {
                        if n.targetable
                            && let Some(p) = n.backend.and_then(|b| parts.get(&b))
                        {
                            taken.extend(p.iter().copied());
                        }
                        stack.push(&n.children);
                    }
                }
            }
        }
        // Only elements Playwright gives a ref count (nameFromContentRefs);
        // each is represented by its own node, unless that node is a
        // generic holding only text, or by a named node under this one.
        let under = |c: i64| backend.is_some_and(|b| c != b && self.within(c, b));
        let with_ref: Vec<i64> = name
            .contributors
            .iter()
            .copied()
            .filter(|&c| match find(items, c) {
                Some(n) => n.targetable,
                None => {
                    under(c)
                        && node(&self.dom, c)
                            .is_some_and(|d| d.targetable && makes_node(&self.dom, c, d))
                }
            })
            .collect();
        !with_ref.is_empty()
            && with_ref.iter().all(|&c| {
                taken.contains(&c)
                    || match find(items, c) {
                        Some(n) => {
                            !(n.role == "generic"
                                && n.children
                                    .iter()
                                    .all(|c| !matches!(c, super::Item::Node(_))))
                        }
                        None => !leaf_generic(&self.dom, c, 0),
                    }
            })
    }
}

/// The node of DOM element `b` among `items` (at any depth).
fn find(items: &[super::Item], b: i64) -> Option<&super::Node> {
    items.iter().find_map(|c| match c {
        super::Item::Node(n) if n.backend == Some(b) => Some(&**n),
        super::Item::Node(n) => find(&n.children, b),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(attrs: &[(&str, &str)]) -> DomNode {
        DomNode {
            tag: "SPAN".into(),
            attrs: attrs
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect(),
            ..DomNode::default()
        }
    }

    #[test]
    fn css_content_values() {
        let e = d(&[("data-n", "3")]);
        assert_eq!(css_content(&e, None, "\"★\"").as_deref(), Some("★"));
        assert_eq!(css_content(&e, None, "\"a\" \"b\"").as_deref(), Some("ab"));
        assert_eq!(
            css_content(&e, None, "\"(\" attr(data-n) \")\"").as_deref(),
            Some("(3)")
        );
        assert_eq!(
            css_content(&e, None, "url(x.png) / \"Alt\"").as_deref(),
            Some("Alt")
        );
        assert_eq!(css_content(&e, None, "\"\"").as_deref(), Some(""));
        assert_eq!(css_content(&e, None, "none"), None);
        assert_eq!(css_content(&e, None, "counter(x)"), None);
    }

    #[test]
    fn flat_strings() {
        assert_eq!(flat("  a\u{200b}b \n c "), "ab c");
    }
}
