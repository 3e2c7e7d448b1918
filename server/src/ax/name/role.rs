//! The roles the name walk needs, as Playwright's roleUtils.ts computes
//! them from the DOM: `getAriaRole` (an explicit valid `role`, else the
//! implicit role of the tag; `none`/`presentation` ignored where the
//! element is focusable or has a global ARIA attribute; roles that
//! prohibit a name), heading levels, and `isElementHiddenForAria` (not
//! rendered, `aria-hidden`, inside a closed `<select>`).

use crate::ax::dom::{DomFacts, DomNode, MAX_DEPTH};

pub(super) const PROHIBITS_NAME: &[&str] = &[
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

pub(super) fn tag(d: &DomNode) -> String {
    d.tag.to_ascii_uppercase()
}

pub(super) fn node(dom: &DomFacts, b: i64) -> Option<&DomNode> {
    dom.nodes.get(&b)
}

/// Playwright's `getAriaRole`: the first valid token of `role` (none and
/// presentation yield to the implicit role on a focusable element or one
/// with a global aria attribute), else the implicit role; `None` is no
/// role (a generic).
pub(in crate::ax) fn role(dom: &DomFacts, b: i64) -> Option<String> {
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

pub(super) fn closest(dom: &DomFacts, b: i64, tags: &[&str]) -> Option<i64> {
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

pub(super) fn closest_disabled_fieldset(dom: &DomFacts, b: i64) -> Option<i64> {
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
pub(in crate::ax) fn native_level(d: &DomNode) -> Option<u8> {
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

pub(super) fn input_type(d: &DomNode) -> String {
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
pub(super) fn rendered(dom: &DomFacts, b: i64, depth: usize) -> bool {
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
pub(in crate::ax) fn hidden(dom: &DomFacts, b: i64) -> bool {
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
        if display_none || crate::ax::dom::is_aria_hidden(d) {
            return true;
        }
        match dom.parent.get(&cur) {
            Some(&p) => cur = p,
            None => return false,
        }
    }
    false
}

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

pub(super) const VALID_ROLES: &[&str] = &[
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
