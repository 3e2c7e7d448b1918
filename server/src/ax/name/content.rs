//! Which names from content a snapshot keeps (Playwright's ai mode,
//! `removeRedundantNames`): only the roles Playwright names from content
//! keep a name from content, and a name the content shows (elements under
//! the node, or `aria-labelledby`/a caption pointing inside) is dropped.

use serde_json::Value;

use super::super::{Item, print::collapse};

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

/// Where Chromium took a node's name from: its content, other elements
/// (`aria-labelledby`, a table's caption: their backend ids), or something
/// else (an attribute, a label).
#[derive(PartialEq)]
pub(in crate::ax) enum NameFrom {
    Contents,
    Related(Vec<i64>),
    Other,
}

pub(in crate::ax) fn name_from(n: &Value) -> NameFrom {
    let used = n
        .pointer("/name/sources")
        .and_then(Value::as_array)
        .and_then(|ss| {
            ss.iter().find(|s| {
                s.get("value").is_some()
                    && s.get("superseded").and_then(Value::as_bool) != Some(true)
            })
        });
    let Some(used) = used else {
        return NameFrom::Other;
    };
    match used.get("type").and_then(Value::as_str) {
        Some("contents") => NameFrom::Contents,
        Some("relatedElement") => {
            let ids: Vec<i64> = [
                "/attributeValue/relatedNodes",
                "/nativeSourceValue/relatedNodes",
            ]
            .iter()
            .filter_map(|p| used.pointer(p).and_then(Value::as_array))
            .flatten()
            .filter_map(|r| r.get("backendDOMNodeId").and_then(Value::as_i64))
            .collect();
            if ids.is_empty() {
                NameFrom::Other
            } else {
                NameFrom::Related(ids)
            }
        }
        _ => NameFrom::Other,
    }
}

/// The text directly under a node (not inside its child elements).
pub(in crate::ax) fn own_text(items: &[Item]) -> String {
    let texts: Vec<&str> = items
        .iter()
        .filter_map(|c| match c {
            Item::Text(t, _) => Some(t.as_str()),
            _ => None,
        })
        .collect();
    collapse(&texts.join(" "))
}

/// Whether each of `ids` is a node shown under `items` (not a generic
/// holding only text, which Playwright does not count as shown).
pub(in crate::ax) fn all_shown(items: &[Item], ids: &[i64]) -> bool {
    fn find(items: &[Item], id: i64) -> bool {
        items.iter().any(|c| match c {
            Item::Node(n) => {
                (n.backend == Some(id)
                    && !(n.role == "generic"
                        && n.children.iter().all(|c| !matches!(c, Item::Node(_)))))
                    || find(&n.children, id)
            }
            _ => false,
        })
    }
    ids.iter().all(|&id| find(items, id))
}

/// Whether a node's content shows its name: there is an element under
/// it, and no child that is a generic holding only text (Playwright keeps
/// a name such a child gave, then drops the child as repeating it).
pub(in crate::ax) fn shown_by_content(items: &[Item]) -> bool {
    let leaf_child = items.iter().any(|c| {
        matches!(c, Item::Node(n) if n.role == "generic" && n.children.iter().all(|c| !matches!(c, Item::Node(_))))
    });
    !leaf_child && items.iter().any(|c| matches!(c, Item::Node(_)))
}
