//! Comparing two fingerprints: typed changes with severities.
//!
//! [`compare`] pairs the two fingerprints' items (`matching`), runs one
//! rule per part of the page (`page`, `containers`, `interactive`,
//! `headings`) into the state they share (`context`), then filters, sorts
//! and summarizes the changes (`report`).

mod containers;
mod context;
mod headings;
mod interactive;
mod matching;
mod page;
mod report;

pub use report::{
    ChangeKind, ChangedElement, FingerprintChange, FingerprintComparison, Overall, Severity, Status,
};

use crate::prelude::*;

use serde_json::json;

use crate::fingerprint::model::Fingerprint;
use context::Cx;
use matching::new_items;
use report::summarize;

/// Compares a `current` fingerprint with a `baseline` and reports the
/// changes at or above `threshold`.
///
/// Interactive elements are matched by (type, normalized text), counting
/// duplicates; lists, forms and tables by selector (repeats of one selector
/// in document order); headings by (level, text). Never by position alone.
/// The output is deterministic.
///
/// ```
/// use response_diff::fingerprint::{compare, ChangeKind, Fingerprint, Severity, Status};
///
/// let baseline = Fingerprint::from_json(r#"{"url": "/", "structure": {"interactive": [
///     {"type": "button", "text": "New Project", "visible": true, "enabled": true},
///     {"type": "button", "text": "Logout", "visible": true, "enabled": true}]}}"#)?;
/// let current = Fingerprint::from_json(r#"{"url": "/", "structure": {"interactive": [
///     {"type": "button", "text": "Logout", "visible": true, "enabled": true}],
///   "state": {"error_elements": [{"selector": ".error-banner", "text": "Failed to load projects"}]}}}"#)?;
///
/// let cmp = compare(&baseline, &current, Severity::Warning);
/// assert_eq!(cmp.status, Status::Changed);
/// let kinds: Vec<_> = cmp.changes.iter().map(|c| c.kind).collect();
/// assert_eq!(kinds, [ChangeKind::ErrorAppeared, ChangeKind::ElementMissing]);
/// assert_eq!(cmp.summary, "2 errors");
/// # Ok::<(), response_diff::Error>(())
/// ```
pub fn compare(
    baseline: &Fingerprint,
    current: &Fingerprint,
    threshold: Severity,
) -> FingerprintComparison {
    let mut cx = Cx::default();
    if baseline.hash != current.hash || baseline.hash.is_empty() {
        cx.run(baseline, current);
    }
    let loading = new_items(
        &baseline.structure.state.loading_indicators,
        &current.structure.state.loading_indicators,
    );
    let status = if !loading.is_empty() {
        Status::Loading
    } else if cx.changes.is_empty() && baseline.hash == current.hash {
        Status::Unchanged
    } else {
        Status::Changed
    };
    if cx.changes.is_empty() && status != Status::Unchanged && baseline.hash != current.hash {
        cx.push(
            ChangeKind::StructureChanged,
            ChangedElement::new("page"),
            None,
            Some(json!(baseline.hash)),
            Some(json!(current.hash)),
            format!(
                "Only the order or a minor detail changed in: {}",
                differing_sections(baseline, current).join(", ")
            ),
        );
        cx.touched.insert("structure");
    }
    let all = core::mem::take(&mut cx.changes);
    let total = all.len();
    let mut changes: Vec<FingerprintChange> = all
        .into_iter()
        .filter(|c| c.severity >= threshold)
        .collect();
    let suppressed = total - changes.len();
    // Stable: within a severity, the generation order (section, then document order).
    changes.sort_by_key(|c| core::cmp::Reverse(c.severity));
    let severity = changes
        .iter()
        .map(|c| Overall::from(c.severity))
        .max()
        .unwrap_or(Overall::Clean);

    let mut unchanged = Vec::new();
    let b = &baseline.structure;
    for (key, lm) in &b.landmarks {
        if cx.landmarks_same.contains(key.as_str()) && lm.present {
            unchanged.push(key.clone());
        }
    }
    let sections: [(&str, bool); 11] = [
        ("url", !baseline.url.is_empty()),
        ("headings", !b.content.headings.is_empty()),
        ("interactive", !b.interactive.is_empty()),
        ("forms", !b.content.forms.is_empty()),
        ("lists", !b.content.lists.is_empty()),
        ("tables", !b.content.tables.is_empty()),
        ("images", b.content.images.count > 0),
        ("errors", true),
        ("modals", true),
        ("empty_states", !b.state.empty_states.is_empty()),
        ("notifications", !b.state.notifications.is_empty()),
    ];
    for (name, relevant) in sections {
        if relevant && !cx.touched.contains(name) {
            unchanged.push(name.to_owned());
        }
    }

    let summary = summarize(&changes, suppressed, &loading);
    FingerprintComparison {
        status,
        severity,
        changes,
        unchanged,
        summary,
        suppressed,
        baseline_hash: baseline.hash.clone(),
        current_hash: current.hash.clone(),
    }
}

impl Cx {
    /// Runs every rule, in the order their changes are listed within a
    /// severity.
    fn run(&mut self, b: &Fingerprint, c: &Fingerprint) {
        self.page(b, c);
        let landmark_idx = self.landmarks(b, c);
        self.state(b, c);
        let missing_fields = self.forms(b, c, &landmark_idx);
        self.lists(b, c, &landmark_idx);
        self.interactive(b, c, missing_fields);
        self.headings(b, c, &landmark_idx);
        self.images(b, c);
        self.describe_folds();
        self.fill_locations(&landmark_idx);
    }
}

/// Sections of the structure that differ (for the fallback change).
fn differing_sections(b: &Fingerprint, c: &Fingerprint) -> Vec<&'static str> {
    let (b, c) = (&b.structure, &c.structure);
    let mut out = Vec::new();
    let checks = [
        ("landmarks", b.landmarks != c.landmarks),
        ("headings", b.content.headings != c.content.headings),
        ("lists", b.content.lists != c.content.lists),
        ("forms", b.content.forms != c.content.forms),
        ("tables", b.content.tables != c.content.tables),
        ("images", b.content.images != c.content.images),
        ("interactive", b.interactive != c.interactive),
        ("state", b.state != c.state),
        (
            "truncated",
            b.truncated != c.truncated || b.no_landmarks != c.no_landmarks,
        ),
    ];
    for (name, differs) in checks {
        if differs {
            out.push(name);
        }
    }
    if out.is_empty() {
        out.push("details");
    }
    out
}
