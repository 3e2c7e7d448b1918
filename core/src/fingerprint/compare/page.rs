//! The rules for the page as a whole: URL, title and capture settings,
//! landmarks, state elements (errors, dialogs, empty states, loading,
//! notifications) and image counts.

use crate::prelude::*;

use hashbrown::HashMap;
use serde_json::json;

use super::context::{Cx, hidden_now};
use super::matching::{diff_lists, new_items};
use super::report::{ChangeKind, ChangedElement, Severity, quote_or};
use crate::fingerprint::model::{Fingerprint, StateElement};

impl Cx {
    pub(super) fn page(&mut self, b: &Fingerprint, c: &Fingerprint) {
        if b.url != c.url {
            self.touched.insert("url");
            self.push(
                ChangeKind::UrlChanged,
                ChangedElement::new("page"),
                None,
                Some(json!(b.url)),
                Some(json!(c.url)),
                format!("The page URL changed from {} to {}", b.url, c.url),
            );
        }
        if b.title != c.title {
            self.touched.insert("title");
            self.push(
                ChangeKind::TitleChanged,
                ChangedElement::new("page"),
                None,
                Some(json!(b.title)),
                Some(json!(c.title)),
                format!("The title changed from '{}' to '{}'", b.title, c.title),
            );
        }
        if b.scope != c.scope || b.depth != c.depth {
            self.touched.insert("structure");
            self.push(
                ChangeKind::StructureChanged,
                ChangedElement::new("page"),
                None,
                Some(json!({"scope": b.scope, "depth": b.depth})),
                Some(json!({"scope": c.scope, "depth": c.depth})),
                "The two fingerprints were captured with different scope or depth; compare like with like".into(),
            );
        }
    }

    /// Returns, for `list:`, `form:`, `table:` and `heading:` entries of the
    /// baseline's landmarks, which landmark holds them.
    pub(super) fn landmarks(
        &mut self,
        b: &Fingerprint,
        c: &Fingerprint,
    ) -> HashMap<String, String> {
        let bl = &b.structure.landmarks;
        let cl = &c.structure.landmarks;
        let mut index = HashMap::new();
        for (key, lm) in cl.iter().chain(bl) {
            for item in &lm.contains {
                // The baseline's (read last) wins for items in both.
                index.insert(item.clone(), key.clone());
                if bl.contains_key(item) || cl.contains_key(item) {
                    self.parents.insert(item.clone(), key.clone());
                }
            }
        }
        for (key, was) in bl {
            if !was.present {
                continue;
            }
            let el = || ChangedElement::new("landmark").text(key);
            match cl.get(key) {
                Some(now) if now.present => {
                    if was.visible && !now.visible {
                        self.touched.insert("landmarks");
                        let (hidden, why) = hidden_now(now.hidden_by.as_deref());
                        self.push(
                            ChangeKind::ElementHidden,
                            el(),
                            None,
                            Some(json!({"visible": true})),
                            Some(hidden),
                            format!("Landmark '{key}' is present but no longer visible{why}"),
                        );
                        self.mark_gone(key.clone());
                    } else if !was.visible && now.visible {
                        self.touched.insert("landmarks");
                        self.push(
                            ChangeKind::ElementShown,
                            el(),
                            None,
                            Some(json!({"visible": false})),
                            Some(json!({"visible": true})),
                            format!("Landmark '{key}' is now visible"),
                        );
                    } else if was.contains != now.contains || was.interactive != now.interactive {
                        self.touched.insert("landmarks");
                        let (gone, new) = diff_lists(
                            was.contains.iter().chain(&was.interactive),
                            now.contains.iter().chain(&now.interactive),
                        );
                        self.push(
                            ChangeKind::LandmarkChanged,
                            el(),
                            None,
                            Some(json!(gone)),
                            Some(json!(new)),
                            format!(
                                "Landmark '{key}' changed inside: {}",
                                describe_diff(&gone, &new)
                            ),
                        );
                    } else {
                        self.landmarks_same.insert(key.clone());
                    }
                }
                _ => {
                    self.touched.insert("landmarks");
                    let sev = if was.visible {
                        Severity::Error
                    } else {
                        Severity::Info
                    };
                    self.push_sev(
                        ChangeKind::LandmarkMissing,
                        sev,
                        el(),
                        None,
                        None,
                        None,
                        format!("Landmark '{key}' is no longer present"),
                    );
                    self.mark_gone(key.clone());
                }
            }
        }
        for (key, now) in cl {
            if now.present && !bl.get(key).is_some_and(|w| w.present) {
                self.touched.insert("landmarks");
                self.push(
                    ChangeKind::LandmarkAdded,
                    ChangedElement::new("landmark").text(key),
                    None,
                    None,
                    None,
                    format!("New landmark '{key}'"),
                );
            }
        }
        index
    }

    pub(super) fn state(&mut self, b: &Fingerprint, c: &Fingerprint) {
        let (bs, cs) = (&b.structure.state, &c.structure.state);
        type Spec = (
            &'static str,
            &'static str,
            ChangeKind,
            ChangeKind,
            &'static str,
            &'static str,
        );
        let specs: [(&[StateElement], &[StateElement], Spec); 5] = [
            (
                &bs.error_elements,
                &cs.error_elements,
                (
                    "errors",
                    "error",
                    ChangeKind::ErrorAppeared,
                    ChangeKind::ErrorResolved,
                    "Error element appeared",
                    "Error element is gone",
                ),
            ),
            (
                &bs.modals_open,
                &cs.modals_open,
                (
                    "modals",
                    "modal",
                    ChangeKind::ModalOpened,
                    ChangeKind::ModalClosed,
                    "A dialog opened",
                    "A dialog closed",
                ),
            ),
            (
                &bs.empty_states,
                &cs.empty_states,
                (
                    "empty_states",
                    "empty_state",
                    ChangeKind::EmptyStateAppeared,
                    ChangeKind::EmptyStateCleared,
                    "An empty state appeared",
                    "An empty state is gone",
                ),
            ),
            (
                &bs.loading_indicators,
                &cs.loading_indicators,
                (
                    "loading",
                    "loading",
                    ChangeKind::LoadingStarted,
                    ChangeKind::LoadingFinished,
                    "A loading indicator appeared",
                    "A loading indicator is gone",
                ),
            ),
            (
                &bs.notifications,
                &cs.notifications,
                (
                    "notifications",
                    "notification",
                    ChangeKind::NotificationAppeared,
                    ChangeKind::NotificationCleared,
                    "A notification appeared",
                    "A notification is gone",
                ),
            ),
        ];
        for (was, now, (section, kind, appeared, gone, appeared_msg, gone_msg)) in specs {
            for e in new_items(was, now) {
                self.touched.insert(section);
                self.push(
                    appeared,
                    ChangedElement::new(kind)
                        .selector(&e.selector)
                        .text(&e.text),
                    None,
                    None,
                    Some(json!(e.text)),
                    format!("{appeared_msg}: {}", quote_or(&e.text, &e.selector)),
                );
            }
            for e in new_items(now, was) {
                self.touched.insert(section);
                self.push(
                    gone,
                    ChangedElement::new(kind)
                        .selector(&e.selector)
                        .text(&e.text),
                    None,
                    Some(json!(e.text)),
                    None,
                    format!("{gone_msg}: {}", quote_or(&e.text, &e.selector)),
                );
            }
        }
    }

    pub(super) fn images(&mut self, b: &Fingerprint, c: &Fingerprint) {
        let (bi, ci) = (b.structure.content.images, c.structure.content.images);
        if ci.broken > bi.broken {
            self.touched.insert("images");
            self.push(
                ChangeKind::ImagesBroken,
                ChangedElement::new("images"),
                None,
                Some(json!({"broken": bi.broken})),
                Some(json!({"broken": ci.broken})),
                format!(
                    "{} of {} images are broken (was {})",
                    ci.broken, ci.count, bi.broken
                ),
            );
        } else if bi != ci {
            self.touched.insert("images");
            self.push(
                ChangeKind::ImagesChanged,
                ChangedElement::new("images"),
                None,
                Some(json!(bi)),
                Some(json!(ci)),
                format!(
                    "Images: {} ({} with alt, {} broken), was {} ({} with alt, {} broken)",
                    ci.count, ci.with_alt, ci.broken, bi.count, bi.with_alt, bi.broken
                ),
            );
        }
    }
}

fn describe_diff(gone: &[String], new: &[String]) -> String {
    let mut parts = Vec::new();
    if !gone.is_empty() {
        parts.push(format!("lost {}", gone.join(", ")));
    }
    if !new.is_empty() {
        parts.push(format!("gained {}", new.join(", ")));
    }
    if parts.is_empty() {
        "order changed".into()
    } else {
        parts.join("; ")
    }
}
