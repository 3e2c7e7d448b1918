//! The state one comparison builds up: the changes so far, the sections
//! and landmarks they touch, and the regions that are gone, whose inner
//! changes fold into the change that says so.

use crate::prelude::*;
use alloc::collections::BTreeMap;

use hashbrown::{HashMap, HashSet};
use serde_json::{Value, json};

use super::report::{ChangeKind, ChangedElement, FingerprintChange, Severity};

#[derive(Default)]
pub(super) struct Cx {
    pub(super) changes: Vec<FingerprintChange>,
    /// Sections with at least one change.
    pub(super) touched: HashSet<&'static str>,
    /// Landmarks present in both with nothing changed.
    pub(super) landmarks_same: HashSet<String>,
    /// Regions (landmarks, lists, forms, tables) that are gone, emptied or
    /// hidden, with the index of the change that says so: changes inside
    /// them are folded into that change.
    pub(super) gone_regions: HashMap<String, usize>,
    /// For each gone region, how many changes were folded into it.
    pub(super) folded: BTreeMap<String, usize>,
    /// Interactive elements newly covered by another element.
    pub(super) obscured: Vec<(String, Option<String>, Option<String>)>,
    /// The landmark that directly contains each landmark (from `contains`).
    pub(super) parents: HashMap<String, String>,
}

impl Cx {
    pub(super) fn push(
        &mut self,
        kind: ChangeKind,
        element: ChangedElement,
        location: Option<String>,
        was: Option<Value>,
        now: Option<Value>,
        description: String,
    ) {
        self.push_sev(
            kind,
            kind.severity(),
            element,
            location,
            was,
            now,
            description,
        );
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn push_sev(
        &mut self,
        kind: ChangeKind,
        severity: Severity,
        element: ChangedElement,
        location: Option<String>,
        was: Option<Value>,
        now: Option<Value>,
        description: String,
    ) {
        self.changes.push(FingerprintChange {
            kind,
            severity,
            element,
            location,
            was,
            now,
            description,
        });
    }

    /// Records that the change just pushed makes `region` gone.
    pub(super) fn mark_gone(&mut self, region: String) {
        if let Some(last) = self.changes.len().checked_sub(1) {
            self.gone_regions.entry(region).or_insert(last);
        }
    }

    /// The gone region this location lies in (outermost first), if any.
    pub(super) fn gone_region_of(&self, location: Option<&str>) -> Option<String> {
        let loc = location?;
        loc.split(" > ")
            .find(|part| self.gone_regions.contains_key(*part))
            .map(str::to_owned)
    }

    pub(super) fn fold(&mut self, region: String) {
        *self.folded.entry(region).or_default() += 1;
    }

    /// The landmark chain (outermost first) of a `list:`/`form:`/`table:`/
    /// `heading:` item, from the landmarks' `contains`.
    pub(super) fn chain_of(
        &self,
        landmark_idx: &HashMap<String, String>,
        item: &str,
    ) -> Option<String> {
        let mut key = landmark_idx.get(item)?;
        let mut chain = vec![key.as_str()];
        while let Some(parent) = self.parents.get(key) {
            if chain.len() >= 8 || chain.contains(&parent.as_str()) {
                break;
            }
            chain.push(parent);
            key = parent;
        }
        chain.reverse();
        Some(chain.join(" > "))
    }

    /// Gives container and heading changes the landmark they are in, and
    /// takes every landmark something changed in out of "unchanged".
    pub(super) fn fill_locations(&mut self, landmark_idx: &HashMap<String, String>) {
        for i in 0..self.changes.len() {
            let c = &self.changes[i];
            if c.location.is_some() {
                continue;
            }
            let item = match (c.kind, c.element.kind.as_str(), &c.element.selector) {
                (ChangeKind::FormFieldMissing | ChangeKind::FormFieldAdded, _, Some(sel)) => {
                    format!("form:{sel}")
                }
                (_, kind @ ("list" | "form" | "table"), Some(sel)) => format!("{kind}:{sel}"),
                (_, "heading", _) => format!("heading:{}", c.element.text.as_deref().unwrap_or("")),
                _ => continue,
            };
            let location = self.chain_of(landmark_idx, &item);
            self.changes[i].location = location;
        }
        for c in &self.changes {
            if let Some(loc) = &c.location {
                for part in loc.split(" > ") {
                    self.landmarks_same.remove(part);
                }
            }
        }
    }

    pub(super) fn container_region(
        &self,
        landmark_idx: &HashMap<String, String>,
        prefix: &str,
        selector: &str,
    ) -> Option<String> {
        landmark_idx
            .get(&format!("{prefix}:{selector}"))
            .filter(|r| self.gone_regions.contains_key(*r))
            .cloned()
    }

    /// Says in each region change how many changes inside it were folded in.
    pub(super) fn describe_folds(&mut self) {
        for (region, n) in &self.folded {
            let Some(change) = self
                .gone_regions
                .get(region)
                .and_then(|&i| self.changes.get_mut(i))
            else {
                continue;
            };
            let what = if *n == 1 {
                "change inside it is"
            } else {
                "changes inside it are"
            };
            change
                .description
                .push_str(&format!("; {n} {what} not listed separately"));
        }
    }
}

/// The `now` of an element that became hidden (`{"visible": false,
/// "hidden_by": "off_screen"}`), and the reason for its message.
pub(super) fn hidden_now(reason: Option<&str>) -> (Value, &'static str) {
    let why = match reason {
        Some("off_screen") => " (moved off-screen)",
        Some("clipped") => " (clipped away by an ancestor's overflow)",
        _ => "",
    };
    let now = match reason {
        Some(r) => json!({"visible": false, "hidden_by": r}),
        None => json!({"visible": false}),
    };
    (now, why)
}
