//! The rules for containers matched by selector: forms and their fields,
//! lists and tables and their item counts.

use crate::prelude::*;

use hashbrown::HashMap;
use serde_json::{Value, json};

use super::context::{Cx, hidden_now};
use super::matching::{Pair, diff_lists, pair_by};
use super::report::{ChangeKind, ChangedElement, Severity};
use crate::fingerprint::model::Fingerprint;

impl Cx {
    /// Forms by selector. Returns the `type:label` of fields reported
    /// missing, so the interactive pass does not report them twice.
    pub(super) fn forms(
        &mut self,
        b: &Fingerprint,
        c: &Fingerprint,
        landmark_idx: &HashMap<String, String>,
    ) -> HashMap<String, usize> {
        let mut missing_fields: HashMap<String, usize> = HashMap::new();
        let (bf, cf) = (&b.structure.content.forms, &c.structure.content.forms);
        let pairs = pair_by(bf, cf, |f| f.selector.as_str());
        for p in pairs {
            match p {
                Pair::Both(was, now) => {
                    let el = || ChangedElement::new("form").selector(&was.selector);
                    if was.visible && !now.visible {
                        self.touched.insert("forms");
                        if let Some(r) = self.container_region(landmark_idx, "form", &was.selector)
                        {
                            self.fold(r);
                            continue;
                        }
                        let (hidden, why) = hidden_now(now.hidden_by.as_deref());
                        self.push(
                            ChangeKind::ElementHidden,
                            el(),
                            None,
                            Some(json!({"visible": true})),
                            Some(hidden),
                            format!(
                                "Form '{}' is present but no longer visible{why}",
                                was.selector
                            ),
                        );
                        self.mark_gone(format!("form:{}", was.selector));
                        continue;
                    }
                    if !was.visible && now.visible {
                        self.touched.insert("forms");
                        self.push(
                            ChangeKind::ElementShown,
                            el(),
                            None,
                            None,
                            None,
                            format!("Form '{}' is now visible", was.selector),
                        );
                    }
                    let (gone, new) = diff_lists(was.fields.iter(), now.fields.iter());
                    for field in &gone {
                        self.touched.insert("forms");
                        *missing_fields.entry(field.clone()).or_default() += 1;
                        let (kind, label) = split_type(field);
                        self.push(
                            ChangeKind::FormFieldMissing,
                            ChangedElement::new(kind)
                                .text(label)
                                .selector(&was.selector),
                            None,
                            None,
                            None,
                            format!("Form '{}' lost its {kind} field '{label}'", was.selector),
                        );
                    }
                    for field in &new {
                        self.touched.insert("forms");
                        let (kind, label) = split_type(field);
                        self.push(
                            ChangeKind::FormFieldAdded,
                            ChangedElement::new(kind)
                                .text(label)
                                .selector(&was.selector),
                            None,
                            None,
                            None,
                            format!("Form '{}' has a new {kind} field '{label}'", was.selector),
                        );
                    }
                    if was.buttons != now.buttons {
                        self.touched.insert("forms");
                        self.push(
                            ChangeKind::ElementChanged,
                            el(),
                            None,
                            Some(json!({"buttons": was.buttons})),
                            Some(json!({"buttons": now.buttons})),
                            format!("Form '{}' buttons changed", was.selector),
                        );
                    }
                }
                Pair::Old(was) => {
                    self.touched.insert("forms");
                    if let Some(r) = self.container_region(landmark_idx, "form", &was.selector) {
                        self.fold(r);
                        continue;
                    }
                    let sev = if was.visible {
                        Severity::Error
                    } else {
                        Severity::Info
                    };
                    self.push_sev(
                        ChangeKind::ElementMissing,
                        sev,
                        ChangedElement::new("form").selector(&was.selector),
                        None,
                        Some(json!({"fields": was.fields.len()})),
                        None,
                        format!(
                            "Form '{}' ({} fields) is no longer present",
                            was.selector,
                            was.fields.len()
                        ),
                    );
                    self.mark_gone(format!("form:{}", was.selector));
                    for f in &was.fields {
                        *missing_fields.entry(f.clone()).or_default() += 1;
                    }
                }
                Pair::New(now) => {
                    self.touched.insert("forms");
                    self.push(
                        ChangeKind::ElementAdded,
                        ChangedElement::new("form").selector(&now.selector),
                        None,
                        None,
                        Some(json!({"fields": now.fields.len()})),
                        format!("New form '{}' ({} fields)", now.selector, now.fields.len()),
                    );
                }
            }
        }
        missing_fields
    }

    pub(super) fn lists(
        &mut self,
        b: &Fingerprint,
        c: &Fingerprint,
        landmark_idx: &HashMap<String, String>,
    ) {
        struct Counted<'a> {
            kind: &'static str,
            selector: &'a str,
            items: u32,
            visible: bool,
            hidden_by: Option<&'a str>,
            extra: Value,
        }
        fn lists(fp: &Fingerprint) -> Vec<Counted<'_>> {
            fp.structure
                .content
                .lists
                .iter()
                .map(|l| Counted {
                    kind: "list",
                    selector: &l.selector,
                    items: l.items,
                    visible: l.visible,
                    hidden_by: l.hidden_by.as_deref(),
                    extra: json!({"type": l.kind}),
                })
                .collect()
        }
        fn tables(fp: &Fingerprint) -> Vec<Counted<'_>> {
            fp.structure
                .content
                .tables
                .iter()
                .map(|t| Counted {
                    kind: "table",
                    selector: &t.selector,
                    items: t.rows,
                    visible: t.visible,
                    hidden_by: t.hidden_by.as_deref(),
                    extra: json!({"columns": t.columns, "headers": t.headers}),
                })
                .collect()
        }
        for (section, bl, cl) in [
            ("lists", lists(b), lists(c)),
            ("tables", tables(b), tables(c)),
        ] {
            let unit = if section == "lists" { "items" } else { "rows" };
            for p in pair_by(&bl, &cl, |x| x.selector) {
                match p {
                    Pair::Both(was, now) => {
                        let kind = was.kind;
                        let el = || ChangedElement::new(kind).selector(was.selector);
                        let name = format!("{} '{}'", capitalize(kind), was.selector);
                        if was.visible && !now.visible {
                            self.touched.insert(section);
                            if let Some(r) = self.container_region(landmark_idx, kind, was.selector)
                            {
                                self.fold(r);
                                continue;
                            }
                            let (hidden, why) = hidden_now(now.hidden_by);
                            self.push(
                                ChangeKind::ElementHidden,
                                el(),
                                None,
                                Some(json!({"visible": true})),
                                Some(hidden),
                                format!("{name} is present but no longer visible{why}"),
                            );
                            self.mark_gone(format!("{kind}:{}", was.selector));
                            continue;
                        }
                        if !was.visible && now.visible {
                            self.touched.insert(section);
                            self.push(
                                ChangeKind::ElementShown,
                                el(),
                                None,
                                None,
                                None,
                                format!("{name} is now visible"),
                            );
                        }
                        if was.items > 0 && now.items == 0 {
                            self.touched.insert(section);
                            self.push(
                                ChangeKind::ListEmpty,
                                el(),
                                None,
                                Some(json!({ unit: was.items })),
                                Some(json!({ unit: 0 })),
                                format!("{name} is now empty (was {} {unit})", was.items),
                            );
                            self.mark_gone(format!("{kind}:{}", was.selector));
                        } else if was.items != now.items {
                            self.touched.insert(section);
                            self.push(
                                ChangeKind::ListCountChanged,
                                el(),
                                None,
                                Some(json!({ unit: was.items })),
                                Some(json!({ unit: now.items })),
                                format!("{name} has {} {unit} (was {})", now.items, was.items),
                            );
                        }
                        if was.extra != now.extra {
                            self.touched.insert(section);
                            self.push(
                                ChangeKind::ElementChanged,
                                el(),
                                None,
                                Some(was.extra.clone()),
                                Some(now.extra.clone()),
                                format!("{name} changed shape"),
                            );
                        }
                    }
                    Pair::Old(was) => {
                        self.touched.insert(section);
                        let kind = was.kind;
                        if let Some(r) = self.container_region(landmark_idx, kind, was.selector) {
                            self.fold(r);
                            continue;
                        }
                        let el = ChangedElement::new(kind).selector(was.selector);
                        let name = format!("{} '{}'", capitalize(kind), was.selector);
                        if was.items > 0 && was.visible {
                            // Emptied content is often removed, not left empty.
                            self.push(
                                ChangeKind::ListEmpty,
                                el,
                                None,
                                Some(json!({ unit: was.items })),
                                Some(json!({ unit: 0, "present": false })),
                                format!("{name} is gone (was {} {unit})", was.items),
                            );
                        } else {
                            self.push_sev(
                                ChangeKind::ElementMissing,
                                Severity::Info,
                                el,
                                None,
                                None,
                                None,
                                format!("{name} is no longer present (it was empty or hidden)"),
                            );
                        }
                        self.mark_gone(format!("{kind}:{}", was.selector));
                    }
                    Pair::New(now) => {
                        self.touched.insert(section);
                        self.push(
                            ChangeKind::ElementAdded,
                            ChangedElement::new(now.kind).selector(now.selector),
                            None,
                            None,
                            Some(json!({ unit: now.items })),
                            format!("New {} '{}' ({} {unit})", now.kind, now.selector, now.items),
                        );
                    }
                }
            }
        }
    }
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

fn split_type(field: &str) -> (&str, &str) {
    field.split_once(':').unwrap_or(("field", field))
}
