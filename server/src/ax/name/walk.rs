//! Playwright's `getTextAlternative` (roleUtils.ts) over the DOM
//! snapshot: `aria-labelledby`, `aria-label`, native labels (`<label>`,
//! `alt`, `title`, `<caption>`, `<legend>`, `<figcaption>`, an `<svg>`'s
//! `<title>`), a control's value inside its own label, name from content
//! with CSS `::before`/`::after` text, and the elements that gave a name.

use std::collections::HashSet;

use super::role::{PROHIBITS_NAME, closest, hidden, input_type, node, rendered, role, tag};
use crate::ax::dom::{DomFacts, DomNode, MAX_DEPTH};

/// Most elements one name computation visits before it gives up (and
/// leaves Chromium's name): a tree item's name holds every nested item.
pub(super) const MAX_VISITS: usize = 4000;

/// A name and the elements (other than the named one) whose text gave it.
pub(in crate::ax) struct Name {
    pub text: String,
    pub contributors: Vec<i64>,
}

/// The walk met something the DOM snapshot cannot tell.
pub(super) struct Unknown;

#[derive(Clone, Copy, PartialEq)]
pub(super) enum Target {
    Itself,
    Descendant,
    Outside,
}

/// Where the walk is (Playwright's `AccessibleNameOptions`); each `Some`
/// says whether the root of that traversal was hidden.
#[derive(Clone, Copy)]
pub(super) struct Opts {
    pub(super) labelled_by: Option<bool>,
    pub(super) label: Option<bool>,
    pub(super) native: Option<bool>,
    pub(super) target: Target,
}

#[derive(Default)]
pub(super) struct Part {
    pub(super) text: String,
    pub(super) elements: Vec<i64>,
}

impl Part {
    pub(super) fn of(text: &str, b: i64) -> Part {
        Part {
            text: text.to_owned(),
            elements: if text.is_empty() { Vec::new() } else { vec![b] },
        }
    }

    pub(super) fn join(parts: Vec<Part>, sep: &str) -> Part {
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

pub(super) struct Walk<'a> {
    pub(super) dom: &'a DomFacts,
    pub(super) visited: HashSet<i64>,
    pub(super) visits: usize,
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
pub(super) fn flat(s: &str) -> String {
    crate::ax::print::collapse(s)
}

pub(super) fn allows_name_from_content(role: &str, descendant: bool) -> bool {
    NAME_FROM_CONTENT.contains(&role)
        || (descendant && DESCENDANT_NAME_FROM_CONTENT.contains(&role))
}

/// Roles Playwright names from their content (roleUtils.ts).
pub(in crate::ax) const NAME_FROM_CONTENT: &[&str] = &[
    "button",
    "cell",
    "checkbox",
    "columnheader",
    "gridcell",
    "heading",
    "link",
    "menuitem",
    "menuitemcheckbox",
    "menuitemradio",
    "option",
    "radio",
    "row",
    "rowheader",
    "switch",
    "tab",
    "tooltip",
    "treeitem",
];

pub(super) const DESCENDANT_NAME_FROM_CONTENT: &[&str] = &[
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

/// The `<label>`s of a labelable element: the first `<label for>` of its
/// id, and a `<label>` around it without `for`.
pub(super) fn labels(dom: &DomFacts, b: i64, d: &DomNode) -> Vec<i64> {
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
pub(super) fn css_content(d: &DomNode, owner: Option<&DomNode>, content: &str) -> Option<String> {
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
    pub(super) fn d(&self, b: i64) -> Option<&DomNode> {
        node(self.dom, b)
    }

    /// The CSS content of `b`'s `::before` or `::after` (padded with
    /// spaces when it is not inline, as Playwright pads it).
    pub(super) fn pseudo(&self, b: i64, which: &str) -> String {
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

    pub(super) fn attr_part(&self, b: i64, name: &str) -> Part {
        let v = self.d(b).and_then(|d| d.attr(name)).unwrap_or_default();
        Part::of(v, b)
    }

    pub(super) fn labels_text(&mut self, labels: &[i64], depth: usize) -> Result<Part, Unknown> {
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
    pub(super) fn child(&self, b: i64, t: &str) -> Option<i64> {
        self.dom
            .kids
            .get(&b)
            .into_iter()
            .flatten()
            .copied()
            .find(|&k| self.d(k).is_some_and(|d| tag(d) == t))
    }

    /// Playwright's `getTextAlternativeInternal`.
    pub(super) fn alt(&mut self, b: i64, o: Opts, depth: usize) -> Result<Part, Unknown> {
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
    pub(super) fn options(&self, b: i64) -> Vec<i64> {
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
    pub(super) fn inner(&mut self, b: i64, o: Opts, depth: usize) -> Result<Part, Unknown> {
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
