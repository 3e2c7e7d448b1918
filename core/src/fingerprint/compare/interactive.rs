//! The rules for interactive elements: missing, added, hidden, shown,
//! disabled, enabled, covered by another element, or changed in a field.

use crate::prelude::*;

use hashbrown::HashMap;
use serde_json::{Value, json};

use super::context::{Cx, hidden_now};
use super::matching::{match_interactive, swapped_out};
use super::report::{ChangeKind, ChangedElement, Severity};
use crate::fingerprint::model::{Fingerprint, Interactive};

impl Cx {
    pub(super) fn interactive(
        &mut self,
        b: &Fingerprint,
        c: &Fingerprint,
        mut missing_fields: HashMap<String, usize>,
    ) {
        let (bi, ci) = (&b.structure.interactive, &c.structure.interactive);
        let m = match_interactive(bi, ci);
        let swapped = swapped_out(bi, ci, &m);
        // Walk the baseline in document order, then what is new.
        for (i, was) in bi.iter().enumerate() {
            let loc = was.location.clone();
            let el = || ChangedElement::new(&was.kind).text(&was.text);
            let name = format!("{} '{}'", was.kind, was.text);
            match m.old_to_new[i] {
                None => {
                    self.touched.insert("interactive");
                    let region = self.gone_region_of(loc.as_deref()).filter(|_| was.visible);
                    if let Some(r) = region {
                        self.fold(r);
                        continue;
                    }
                    let field = format!("{}:{}", was.kind, was.text);
                    if let Some(n) = missing_fields.get_mut(&field).filter(|n| **n > 0) {
                        // Already reported as form_field_missing.
                        *n -= 1;
                        continue;
                    }
                    let (sev, note) = if was.visible {
                        (Severity::Error, "")
                    } else {
                        (Severity::Info, " (it was hidden)")
                    };
                    self.push_sev(
                        ChangeKind::ElementMissing,
                        sev,
                        el(),
                        loc,
                        None,
                        None,
                        format!("Interactive {name} is no longer present{note}"),
                    );
                }
                Some(j) => {
                    let now = &ci[j];
                    let before = self.changes.len();
                    if was.visible && !now.visible && swapped.contains(&i) {
                        self.push(
                            ChangeKind::ElementChanged,
                            el(),
                            now.location.clone(),
                            Some(json!({"visible": true})),
                            Some(json!({"visible": false})),
                            format!(
                                "Interactive {name} went out of view as another in the same place came into view (a carousel, tabs)"
                            ),
                        );
                    } else if was.visible && !now.visible {
                        if let Some(r) = self.gone_region_of(now.location.as_deref()) {
                            self.touched.insert("interactive");
                            self.fold(r);
                            continue;
                        }
                        let (hidden, why) = hidden_now(now.hidden_by.as_deref());
                        self.push(
                            ChangeKind::ElementHidden,
                            el(),
                            now.location.clone(),
                            Some(json!({"visible": true})),
                            Some(hidden),
                            format!("Interactive {name} is present but no longer visible{why}"),
                        );
                    } else if !was.visible && now.visible {
                        self.push(
                            ChangeKind::ElementShown,
                            el(),
                            now.location.clone(),
                            Some(json!({"visible": false})),
                            Some(json!({"visible": true})),
                            format!("Interactive {name} is now visible"),
                        );
                    }
                    if was.enabled && !now.enabled {
                        self.push(
                            ChangeKind::ElementDisabled,
                            el(),
                            now.location.clone(),
                            Some(json!({"enabled": true})),
                            Some(json!({"enabled": false})),
                            format!("Interactive {name} is now disabled"),
                        );
                    } else if !was.enabled && now.enabled {
                        self.push(
                            ChangeKind::ElementEnabled,
                            el(),
                            now.location.clone(),
                            Some(json!({"enabled": false})),
                            Some(json!({"enabled": true})),
                            format!("Interactive {name} is now enabled"),
                        );
                    }
                    if !was.obscured && now.obscured && now.visible && !m.modal_opened(b, c) {
                        self.obscured.push((
                            name.clone(),
                            now.location.clone(),
                            now.covered_by.clone(),
                        ));
                    }
                    let (w, n) = field_diff(was, now);
                    if !w.is_empty() {
                        let fields = w.keys().cloned().collect::<Vec<_>>().join(", ");
                        self.push(
                            ChangeKind::ElementChanged,
                            el(),
                            now.location.clone(),
                            Some(Value::Object(w)),
                            Some(Value::Object(n)),
                            format!("Interactive {name} changed: {fields}"),
                        );
                    }
                    if self.changes.len() > before {
                        self.touched.insert("interactive");
                    }
                }
            }
        }
        self.report_obscured();
        for (j, now) in ci.iter().enumerate() {
            if m.new_matched[j] {
                continue;
            }
            self.touched.insert("interactive");
            let hidden = if now.visible { "" } else { " (hidden)" };
            self.push(
                ChangeKind::ElementAdded,
                ChangedElement::new(&now.kind).text(&now.text),
                now.location.clone(),
                None,
                None,
                format!("New interactive {} '{}'{hidden}", now.kind, now.text),
            );
        }
    }

    /// One change per newly covered element, or one for all of them when
    /// three or more are covered (one overlay, not twenty problems).
    pub(super) fn report_obscured(&mut self) {
        let list = core::mem::take(&mut self.obscured);
        if list.is_empty() {
            return;
        }
        self.touched.insert("interactive");
        for (_, location, _) in &list {
            for part in location.iter().flat_map(|l| l.split(" > ")) {
                self.landmarks_same.remove(part);
            }
        }
        let by = |c: &Option<String>| {
            c.as_deref()
                .map(|c| format!(" ('{c}')"))
                .unwrap_or_default()
        };
        if list.len() < 3 {
            for (name, location, cover) in list {
                self.push(
                    ChangeKind::ElementCovered,
                    element_of(&name),
                    location,
                    Some(json!({"obscured": false})),
                    Some(json!({"obscured": true, "covered_by": cover})),
                    format!(
                        "Interactive {name} is covered by another element{} and cannot be clicked",
                        by(&cover)
                    ),
                );
            }
            return;
        }
        let n = list.len();
        let mut covers: Vec<&str> = list.iter().filter_map(|(_, _, c)| c.as_deref()).collect();
        covers.sort_unstable();
        covers.dedup();
        let names: Vec<&str> = list.iter().map(|(name, _, _)| name.as_str()).collect();
        let shown = names.iter().take(5).copied().collect::<Vec<_>>().join(", ");
        let more = if n > 5 {
            format!(" and {} more", n - 5)
        } else {
            String::new()
        };
        let cover = if covers.is_empty() {
            "another element".to_owned()
        } else {
            format!("'{}'", covers.join("', '"))
        };
        self.push(
            ChangeKind::ElementCovered,
            ChangedElement::new("elements").text(&format!("{n} interactive elements")),
            None,
            None,
            Some(
                json!({"covered": names.iter().take(20).collect::<Vec<_>>(), "covered_by": covers}),
            ),
            format!(
                "{n} interactive elements are covered by {cover} and cannot be clicked: {shown}{more}"
            ),
        );
    }
}

/// `button 'Save'` back to an element reference.
fn element_of(name: &str) -> ChangedElement {
    match name.split_once(' ') {
        Some((kind, text)) => ChangedElement::new(kind).text(text.trim_matches('\'')),
        None => ChangedElement::new(name),
    }
}

/// Fields of a matched pair that changed, other than visible/enabled/obscured.
fn field_diff(
    was: &Interactive,
    now: &Interactive,
) -> (
    serde_json::Map<String, Value>,
    serde_json::Map<String, Value>,
) {
    let mut w = serde_json::Map::new();
    let mut n = serde_json::Map::new();
    let mut put = |k: &str, a: Value, b: Value| {
        if a != b {
            w.insert(k.to_owned(), a);
            n.insert(k.to_owned(), b);
        }
    };
    put("text", json!(was.text), json!(now.text));
    put("href", json!(was.href), json!(now.href));
    put("value", json!(was.value), json!(now.value));
    put("checked", json!(was.checked), json!(now.checked));
    put("location", json!(was.location), json!(now.location));
    if was.obscured && !now.obscured {
        put("obscured", json!(true), json!(false));
    }
    (w, n)
}
