//! Roles, states and props as Playwright prints them:
//! - Chromium's role names are the ARIA ones: table roles Chromium gives
//!   to layout tables (`LayoutTable…`) are the ARIA table roles,
//!   `<summary>` is a generic, `<address>` a generic; the parts of a
//!   presentational table are presentational;
//! - `<option>` states come from the DOM (`selected` is the option's
//!   selectedness; `disabled` its own attribute or a disabled `<optgroup>`,
//!   not the select's, as Playwright has it), since Chromium keeps the
//!   popup's options as they were when the select was first laid out;
//! - states are printed only for the roles Playwright prints them for, in
//!   Playwright's order;
//! - `/url` is the raw `href` (same-origin links by their path, `data:`
//!   URLs cut after the comma) and text fields with a `placeholder` other
//!   than their name get `/placeholder`.

use response_diff::tree::{Prop, State};
use serde_json::Value;

use super::dom::DomNode;
use super::model::{AxSnapshot, Node};

// Playwright's role lists per state (injected/src/roleUtils.ts).
pub(super) const CHECKED_ROLES: &[&str] = &[
    "checkbox",
    "menuitemcheckbox",
    "option",
    "radio",
    "switch",
    "menuitemradio",
    "treeitem",
];
pub(super) const SELECTED_ROLES: &[&str] = &[
    "gridcell",
    "option",
    "row",
    "tab",
    "rowheader",
    "columnheader",
    "treeitem",
];
pub(super) const EXPANDED_ROLES: &[&str] = &[
    "application",
    "button",
    "checkbox",
    "combobox",
    "gridcell",
    "link",
    "listbox",
    "menuitem",
    "row",
    "rowheader",
    "tab",
    "treeitem",
    "columnheader",
    "menuitemcheckbox",
    "menuitemradio",
    "switch",
];
pub(super) const DISABLED_ROLES: &[&str] = &[
    "application",
    "button",
    "composite",
    "gridcell",
    "group",
    "input",
    "link",
    "menuitem",
    "scrollbar",
    "separator",
    "tab",
    "checkbox",
    "columnheader",
    "combobox",
    "grid",
    "listbox",
    "menu",
    "menubar",
    "menuitemcheckbox",
    "menuitemradio",
    "option",
    "radio",
    "radiogroup",
    "row",
    "rowheader",
    "searchbox",
    "select",
    "slider",
    "spinbutton",
    "switch",
    "tablist",
    "textbox",
    "toolbar",
    "tree",
    "treegrid",
    "treeitem",
];

pub(super) const TABLE_PARTS: &[&str] = &["TBODY", "THEAD", "TFOOT", "TR", "TD", "TH"];

/// Chromium role names → ARIA role names as Playwright prints them.
pub(super) fn aria_role(role: &str) -> &str {
    match role {
        "image" => "img",
        "LabelText" => "generic",
        "ColorWell" | "Date" | "DateTime" | "InputTime" => "textbox",
        "LayoutTable" => "table",
        "LayoutTableRow" => "row",
        "LayoutTableCell" => "cell",
        "DisclosureTriangle" => "generic",
        "Canvas" => "img",
        "Iframe" | "IframePresentational" => "iframe",
        "DescriptionList" => "generic",
        "DescriptionListTerm" => "term",
        "DescriptionListDetail" => "definition",
        "MathMLMath" => "math",
        "SvgRoot" => "img",
        r if r.starts_with("MathML") => "generic",
        "sectionheader"
        | "sectionfooter"
        | "HeaderAsNonLandmark"
        | "FooterAsNonLandmark"
        | "SectionWithoutName"
        | "Section"
        | "Div"
        | "Pre"
        | "Abbr"
        | "Ruby"
        | "Figcaption"
        | "Legend"
        | "Details"
        | "Unknown" => "generic",
        other => other,
    }
}

/// A `data:` URL cut after its comma, as Playwright prints it.
pub(super) fn truncate_data_url(url: &str) -> String {
    match url.strip_prefix("data:").and(url.find(',')) {
        Some(comma) => format!("{}\u{2026}", &url[..=comma]),
        None => url.to_owned(),
    }
}

impl AxSnapshot {
    /// Whether a table part is inside a table whose role is none or
    /// presentation (its rows and cells are then presentational too).
    pub(super) fn in_presentational_table(&self, b: i64) -> bool {
        let mut cur = b;
        for _ in 0..16 {
            let Some(&p) = self.dom.parent.get(&cur) else {
                return false;
            };
            if let Some(d) = self.dom.nodes.get(&p)
                && d.tag == "TABLE"
            {
                return matches!(d.attr("role").map(str::trim), Some("none" | "presentation"));
            }
            cur = p;
        }
        false
    }

    /// States and props the DOM knows better than the AX tree.
    pub(super) fn dom_properties(&self, d: &DomNode, node: &mut Node) {
        let set = |states: &mut Vec<State>, name: &str, on: bool| {
            states.retain(|s| s.name != name);
            if on {
                states.push(State::flag(name));
            }
        };
        if d.tag == "OPTION" {
            set(&mut node.states, "selected", d.option_selected);
            set(
                &mut node.states,
                "disabled",
                d.attr("disabled").is_some() || d.in_disabled_optgroup,
            );
        }
        if node.role == "link"
            && let Some(href) = d.attr("href")
        {
            node.props.retain(|p| p.name != "url");
            node.props.push(Prop::new("url", truncate_data_url(href)));
        }
        if node.role == "textbox"
            && let Some(ph) = d.attr("placeholder")
            && ph != node.name
        {
            node.props.push(Prop::new("placeholder", ph));
        }
        // Playwright's native levels are headings only; elsewhere aria-level.
        if matches!(node.role.as_str(), "listitem" | "row" | "treeitem")
            && d.attr("aria-level").is_none()
        {
            node.states.retain(|s| s.name != "level");
        }
        node.states.sort_by_key(State::playwright_rank);
    }

    pub(super) fn read_properties(&self, n: &Value, node: &mut Node) {
        let Some(props) = n.get("properties").and_then(Value::as_array) else {
            return;
        };
        let mut url = None;
        for p in props {
            let name = p.get("name").and_then(Value::as_str).unwrap_or_default();
            let value = p.pointer("/value/value");
            let truthy = match value {
                Some(Value::Bool(b)) => *b,
                Some(Value::String(s)) => s == "true",
                _ => false,
            };
            let tristate = |flag: &str| match value {
                Some(Value::String(s)) if s == "mixed" => Some(State::with_value(flag, "mixed")),
                _ if truthy => Some(State::flag(flag)),
                _ => None,
            };
            let state = match name {
                "checked" => tristate("checked"),
                "pressed" => tristate("pressed"),
                "disabled" if truthy => Some(State::flag("disabled")),
                "expanded" if truthy => Some(State::flag("expanded")),
                "selected" if truthy => Some(State::flag("selected")),
                "focused" if truthy => Some(State::flag("active")),
                "invalid" => match value {
                    Some(Value::String(s)) if s == "spelling" || s == "grammar" => {
                        Some(State::with_value("invalid", s.clone()))
                    }
                    Some(Value::String(s)) if s != "false" => Some(State::flag("invalid")),
                    _ => None,
                },
                "level" => value
                    .and_then(Value::as_f64)
                    .map(|l| State::with_value("level", (l as i64).to_string())),
                "url" => {
                    url = value.and_then(Value::as_str).map(str::to_owned);
                    None
                }
                _ => None,
            };
            if let Some(s) = state {
                node.states.push(s);
            }
        }
        // Playwright prints each state only for the roles that can have it.
        let role = node.role.as_str();
        node.states.retain(|s| match s.name.as_str() {
            "checked" => CHECKED_ROLES.contains(&role),
            "disabled" => DISABLED_ROLES.contains(&role),
            "expanded" => EXPANDED_ROLES.contains(&role),
            "level" => matches!(role, "heading" | "listitem" | "row" | "treeitem"),
            "pressed" => role == "button",
            "selected" => SELECTED_ROLES.contains(&role),
            _ => true,
        });
        node.states.sort_by_key(State::playwright_rank);
        if let Some(u) = url
            && node.role == "link"
        {
            node.props.push(Prop::new("url", self.shorten(&u)));
        }
    }

    pub(super) fn shorten(&self, url: &str) -> String {
        match &self.origin {
            Some(o) => match url.strip_prefix(o.as_str()) {
                Some(rest) if rest.starts_with('/') => rest.to_owned(),
                Some("") => "/".to_owned(),
                _ => url.to_owned(),
            },
            None => url.to_owned(),
        }
    }
}
