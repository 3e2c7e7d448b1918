//! Comparing two fingerprints: typed changes with severities.

use crate::prelude::*;
use alloc::collections::BTreeMap;

use core::fmt;
use core::str::FromStr;
use hashbrown::{HashMap, HashSet};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::model::{Fingerprint, Interactive, StateElement};
use super::normalize::fold_digits;
use crate::{Error, Result};

/// How serious a change is. Ordered: `Info < Warning < Error`.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Severity {
    /// Worth knowing: something was added, a count changed.
    Info,
    /// Probably a problem: a list emptied, a heading changed, a modal opened.
    /// The default threshold, as in the seed.
    #[default]
    Warning,
    /// A regression: something the user needs is missing, hidden, or an
    /// error appeared.
    Error,
}

impl Severity {
    /// `info`, `warning` or `error`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl FromStr for Severity {
    type Err = Error;
    /// ```
    /// use response_diff::fingerprint::Severity;
    /// assert_eq!("error".parse::<Severity>()?, Severity::Error);
    /// assert!("fatal".parse::<Severity>().is_err());
    /// # Ok::<(), response_diff::Error>(())
    /// ```
    fn from_str(s: &str) -> Result<Self> {
        match s {
            "info" => Ok(Severity::Info),
            "warning" => Ok(Severity::Warning),
            "error" => Ok(Severity::Error),
            other => Err(Error::invalid_option(
                "severityThreshold",
                format!("must be \"info\", \"warning\" or \"error\", not {other:?}"),
            )),
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The overall severity of a comparison: the highest reported change, or
/// `clean` when none was reported.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Overall {
    /// Nothing reported at or above the threshold.
    #[default]
    Clean,
    /// At most info changes.
    Info,
    /// At least one warning, no error.
    Warning,
    /// At least one error.
    Error,
}

impl Overall {
    /// `clean`, `info`, `warning` or `error`.
    pub fn as_str(self) -> &'static str {
        match self {
            Overall::Clean => "clean",
            Overall::Info => "info",
            Overall::Warning => "warning",
            Overall::Error => "error",
        }
    }
}

impl From<Severity> for Overall {
    fn from(s: Severity) -> Self {
        match s {
            Severity::Info => Overall::Info,
            Severity::Warning => Overall::Warning,
            Severity::Error => Overall::Error,
        }
    }
}

/// The comparison's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Status {
    /// Same hash: nothing changed (after normalization).
    Unchanged,
    /// Something changed (possibly only below the threshold).
    Changed,
    /// The current page shows loading indicators the baseline did not have:
    /// capture again once it settles. Changes are still listed.
    Loading,
}

impl Status {
    /// `unchanged`, `changed` or `loading`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Unchanged => "unchanged",
            Status::Changed => "changed",
            Status::Loading => "loading",
        }
    }
}

/// The kind of a change, serialized in snake_case (`element_missing`).
/// Each kind has one severity, given here, except `element_missing`, which
/// is `info` when the baseline element was already hidden or empty.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ChangeKind {
    /// warning: the normalized URL differs.
    UrlChanged,
    /// info: the normalized title differs.
    TitleChanged,
    /// error: a landmark of the baseline is gone.
    LandmarkMissing,
    /// info: a new landmark.
    LandmarkAdded,
    /// info: what a landmark directly contains changed.
    LandmarkChanged,
    /// error (info if it was hidden or empty): an interactive element, form,
    /// list or table of the baseline is gone.
    ElementMissing,
    /// info: a new interactive element, form, list or table.
    ElementAdded,
    /// error: still present but no longer seen: not rendered (`display:none`,
    /// `visibility:hidden`, `opacity:0`), moved entirely off-screen, or
    /// clipped away by an ancestor — a CSS-only regression. `now.hidden_by`
    /// says which (`css`, `off_screen`, `clipped`).
    ElementHidden,
    /// info: was hidden, now rendered.
    ElementShown,
    /// warning: was enabled, now disabled.
    ElementDisabled,
    /// info: was disabled, now enabled.
    ElementEnabled,
    /// error: an interactive element is rendered but covered by another
    /// element (an overlay, a z-index bug), so it cannot be clicked; the
    /// change names what covers it. Elements outside the viewport are not
    /// hit-tested.
    ElementCovered,
    /// info: another field of a matched element changed (href, value,
    /// checked, location, a counter in its text).
    ElementChanged,
    /// error: an error element appeared.
    ErrorAppeared,
    /// info: an error element of the baseline is gone.
    ErrorResolved,
    /// info: a loading indicator appeared (the status says `loading`).
    LoadingStarted,
    /// info: a loading indicator of the baseline is gone.
    LoadingFinished,
    /// warning: an empty-state element appeared ("No results").
    EmptyStateAppeared,
    /// info: an empty-state element of the baseline is gone.
    EmptyStateCleared,
    /// warning: a dialog opened.
    ModalOpened,
    /// info: a dialog of the baseline closed.
    ModalClosed,
    /// info: a notification appeared.
    NotificationAppeared,
    /// info: a notification of the baseline is gone.
    NotificationCleared,
    /// warning: a list or table that had items has none (or is gone).
    ListEmpty,
    /// info: a list's or table's item count changed.
    ListCountChanged,
    /// error: a form lost a field.
    FormFieldMissing,
    /// info: a form gained a field.
    FormFieldAdded,
    /// warning: a heading of the baseline is gone.
    HeadingMissing,
    /// warning: a heading's text changed (same level, same place).
    HeadingChanged,
    /// info: a new heading.
    HeadingAdded,
    /// warning: more broken images than in the baseline.
    ImagesBroken,
    /// info: image counts changed.
    ImagesChanged,
    /// info: the fingerprints differ in a detail no other kind covers.
    StructureChanged,
}

impl ChangeKind {
    /// The kind's severity (see [`ChangeKind::ElementMissing`] for its exception).
    pub fn severity(self) -> Severity {
        use ChangeKind::*;
        match self {
            LandmarkMissing | ElementMissing | ElementHidden | ElementCovered | ErrorAppeared
            | FormFieldMissing => Severity::Error,
            UrlChanged | ElementDisabled | EmptyStateAppeared | ModalOpened | ListEmpty
            | HeadingMissing | HeadingChanged | ImagesBroken => Severity::Warning,
            _ => Severity::Info,
        }
    }

    /// The snake_case name (`element_missing`).
    pub fn as_str(self) -> &'static str {
        use ChangeKind::*;
        match self {
            UrlChanged => "url_changed",
            TitleChanged => "title_changed",
            LandmarkMissing => "landmark_missing",
            LandmarkAdded => "landmark_added",
            LandmarkChanged => "landmark_changed",
            ElementMissing => "element_missing",
            ElementAdded => "element_added",
            ElementHidden => "element_hidden",
            ElementShown => "element_shown",
            ElementDisabled => "element_disabled",
            ElementEnabled => "element_enabled",
            ElementCovered => "element_covered",
            ElementChanged => "element_changed",
            ErrorAppeared => "error_appeared",
            ErrorResolved => "error_resolved",
            LoadingStarted => "loading_started",
            LoadingFinished => "loading_finished",
            EmptyStateAppeared => "empty_state_appeared",
            EmptyStateCleared => "empty_state_cleared",
            ModalOpened => "modal_opened",
            ModalClosed => "modal_closed",
            NotificationAppeared => "notification_appeared",
            NotificationCleared => "notification_cleared",
            ListEmpty => "list_empty",
            ListCountChanged => "list_count_changed",
            FormFieldMissing => "form_field_missing",
            FormFieldAdded => "form_field_added",
            HeadingMissing => "heading_missing",
            HeadingChanged => "heading_changed",
            HeadingAdded => "heading_added",
            ImagesBroken => "images_broken",
            ImagesChanged => "images_changed",
            StructureChanged => "structure_changed",
        }
    }
}

impl fmt::Display for ChangeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a change is about.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChangedElement {
    /// `button`, `link`, `input`… for interactive elements; `landmark`,
    /// `list`, `form`, `table`, `heading`, `error`, `loading`, `empty_state`,
    /// `modal`, `notification`, `images`, `page` otherwise.
    #[serde(rename = "type")]
    pub kind: String,
    /// Its text, label or landmark key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Its selector, for lists, forms, tables and state elements.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selector: Option<String>,
    /// Heading level.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<u8>,
}

impl ChangedElement {
    fn new(kind: &str) -> Self {
        ChangedElement {
            kind: kind.to_owned(),
            ..Default::default()
        }
    }
    fn text(mut self, t: &str) -> Self {
        self.text = Some(t.to_owned());
        self
    }
    fn selector(mut self, s: &str) -> Self {
        self.selector = Some(s.to_owned());
        self
    }
}

/// One change between the baseline and the current fingerprint.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FingerprintChange {
    /// The kind (`type` in JSON).
    #[serde(rename = "type")]
    pub kind: ChangeKind,
    /// Its severity.
    pub severity: Severity,
    /// What it is about.
    pub element: ChangedElement,
    /// Where (`main > section:projects`), when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    /// The baseline's value, when there is one to show.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub was: Option<Value>,
    /// The current value, when there is one to show.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub now: Option<Value>,
    /// One sentence for the agent.
    pub description: String,
}

/// The result of [`compare`].
///
/// Serializes with snake_case keys, like the page JSON and the seed's
/// comparison response.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FingerprintComparison {
    /// `unchanged`, `changed` or `loading`.
    pub status: Status,
    /// Highest reported severity, `clean` if none.
    pub severity: Overall,
    /// Reported changes (at or above the threshold), errors first, then
    /// warnings, then info; within a severity in a fixed section order
    /// (url, landmarks, state, forms, lists, tables, interactive, headings,
    /// images) and document order.
    pub changes: Vec<FingerprintChange>,
    /// Landmarks and sections with no change at all (`header`, `footer`,
    /// `forms`, `interactive`…), listing only ones the baseline has.
    pub unchanged: Vec<String>,
    /// `2 errors, 1 warning, 1 info` (plus what was left out, and whether
    /// the page is still loading).
    pub summary: String,
    /// Changes found below the threshold and left out of `changes`.
    pub suppressed: usize,
    /// Hash of the baseline.
    pub baseline_hash: String,
    /// Hash of the current fingerprint.
    pub current_hash: String,
}

impl FingerprintComparison {
    /// Compact JSON (snake_case keys).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Indented JSON.
    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// True when nothing at or above the threshold changed and the page is
    /// not loading.
    pub fn is_clean(&self) -> bool {
        self.status != Status::Loading && self.changes.is_empty()
    }
}

impl fmt::Display for FingerprintComparison {
    /// A compact text for agents:
    ///
    /// ```text
    /// changed, error: 1 error, 1 warning
    /// error element_missing: Interactive button 'New Project' is no longer present (main > section:projects)
    /// warning list_empty: List '.project-list' is now empty (was 5 items)
    /// unchanged: header, footer, forms
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{}, {}: {}",
            self.status.as_str(),
            self.severity.as_str(),
            self.summary
        )?;
        for c in &self.changes {
            write!(f, "{} {}: {}", c.severity, c.kind, c.description)?;
            if let Some(loc) = &c.location {
                write!(f, " ({loc})")?;
            }
            writeln!(f)?;
        }
        if !self.unchanged.is_empty() {
            writeln!(f, "unchanged: {}", self.unchanged.join(", "))?;
        }
        Ok(())
    }
}

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

fn summarize(
    changes: &[FingerprintChange],
    suppressed: usize,
    loading: &[&StateElement],
) -> String {
    let count = |s: Severity| changes.iter().filter(|c| c.severity == s).count();
    let mut parts = Vec::new();
    for (s, one, many) in [
        (Severity::Error, "error", "errors"),
        (Severity::Warning, "warning", "warnings"),
        (Severity::Info, "info", "info"),
    ] {
        match count(s) {
            0 => {}
            1 => parts.push(format!("1 {one}")),
            n => parts.push(format!("{n} {many}")),
        }
    }
    let mut out = if parts.is_empty() {
        "no changes".to_owned()
    } else {
        parts.join(", ")
    };
    if suppressed > 0 {
        out.push_str(&format!(" ({suppressed} below the threshold not shown)"));
    }
    if !loading.is_empty() {
        let what = loading
            .iter()
            .map(|l| quote_or(&l.text, &l.selector))
            .collect::<Vec<_>>()
            .join(", ");
        out = format!("page is still loading ({what}); capture again when it settles; {out}");
    }
    out
}

fn quote_or(text: &str, selector: &str) -> String {
    if text.is_empty() {
        selector.to_owned()
    } else {
        format!("'{text}'")
    }
}

/// Items of `now` with no equal item in `was` (multiset difference).
fn new_items<'a, T: Eq + core::hash::Hash>(was: &[T], now: &'a [T]) -> Vec<&'a T> {
    let mut counts: HashMap<&T, usize> = HashMap::new();
    for w in was {
        *counts.entry(w).or_default() += 1;
    }
    let mut out = Vec::new();
    for n in now {
        match counts.get_mut(n) {
            Some(c) if *c > 0 => *c -= 1,
            _ => out.push(n),
        }
    }
    out
}

#[derive(Default)]
struct Cx {
    changes: Vec<FingerprintChange>,
    /// Sections with at least one change.
    touched: HashSet<&'static str>,
    /// Landmarks present in both with nothing changed.
    landmarks_same: HashSet<String>,
    /// Regions (landmarks, lists, forms, tables) that are gone, emptied or
    /// hidden, with the index of the change that says so: changes inside
    /// them are folded into that change.
    gone_regions: HashMap<String, usize>,
    /// For each gone region, how many changes were folded into it.
    folded: BTreeMap<String, usize>,
    /// Interactive elements newly covered by another element.
    obscured: Vec<(String, Option<String>, Option<String>)>,
    /// The landmark that directly contains each landmark (from `contains`).
    parents: HashMap<String, String>,
}

impl Cx {
    fn push(
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
    fn push_sev(
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
    fn mark_gone(&mut self, region: String) {
        if let Some(last) = self.changes.len().checked_sub(1) {
            self.gone_regions.entry(region).or_insert(last);
        }
    }

    /// The gone region this location lies in (outermost first), if any.
    fn gone_region_of(&self, location: Option<&str>) -> Option<String> {
        let loc = location?;
        loc.split(" > ")
            .find(|part| self.gone_regions.contains_key(*part))
            .map(str::to_owned)
    }

    fn fold(&mut self, region: String) {
        *self.folded.entry(region).or_default() += 1;
    }

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

    /// The landmark chain (outermost first) of a `list:`/`form:`/`table:`/
    /// `heading:` item, from the landmarks' `contains`.
    fn chain_of(&self, landmark_idx: &HashMap<String, String>, item: &str) -> Option<String> {
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
    fn fill_locations(&mut self, landmark_idx: &HashMap<String, String>) {
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

    fn page(&mut self, b: &Fingerprint, c: &Fingerprint) {
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
    fn landmarks(&mut self, b: &Fingerprint, c: &Fingerprint) -> HashMap<String, String> {
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

    fn state(&mut self, b: &Fingerprint, c: &Fingerprint) {
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

    /// Forms by selector. Returns the `type:label` of fields reported
    /// missing, so the interactive pass does not report them twice.
    fn forms(
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

    fn container_region(
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

    fn interactive(
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
    fn report_obscured(&mut self) {
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

    fn lists(&mut self, b: &Fingerprint, c: &Fingerprint, landmark_idx: &HashMap<String, String>) {
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

    fn headings(
        &mut self,
        b: &Fingerprint,
        c: &Fingerprint,
        landmark_idx: &HashMap<String, String>,
    ) {
        let (bh, ch) = (&b.structure.content.headings, &c.structure.content.headings);
        // Exact (level, text) matches first, counting duplicates.
        let key = |h: &super::model::Heading| (h.level, h.text.clone());
        let mut pool: HashMap<(u8, String), Vec<usize>> = HashMap::new();
        for (j, h) in ch.iter().enumerate() {
            pool.entry(key(h)).or_default().push(j);
        }
        for v in pool.values_mut() {
            v.reverse();
        }
        let mut old_match = vec![None; bh.len()];
        let mut new_matched = vec![false; ch.len()];
        for (i, h) in bh.iter().enumerate() {
            if let Some(j) = pool.get_mut(&key(h)).and_then(Vec::pop) {
                old_match[i] = Some(j);
                new_matched[j] = true;
            }
        }
        // Leftovers of the same level between the same matched neighbours
        // are the same heading reworded.
        let mut renamed: Vec<Option<usize>> = vec![None; bh.len()];
        let mut new_cursor = 0usize;
        for i in 0..bh.len() {
            if let Some(j) = old_match[i] {
                new_cursor = new_cursor.max(j + 1);
                continue;
            }
            let limit = (i + 1..bh.len())
                .find_map(|k| old_match[k])
                .unwrap_or(ch.len());
            if let Some(j) =
                (new_cursor..limit).find(|&j| !new_matched[j] && ch[j].level == bh[i].level)
            {
                renamed[i] = Some(j);
                new_matched[j] = true;
                new_cursor = j + 1;
            }
        }
        for (i, was) in bh.iter().enumerate() {
            if old_match[i].is_some() {
                continue;
            }
            self.touched.insert("headings");
            let el = ChangedElement {
                kind: "heading".into(),
                text: Some(was.text.clone()),
                level: Some(was.level),
                selector: None,
            };
            match renamed[i] {
                Some(j) => self.push(
                    ChangeKind::HeadingChanged,
                    el,
                    None,
                    Some(json!(was.text)),
                    Some(json!(ch[j].text)),
                    format!(
                        "Heading h{} changed from '{}' to '{}'",
                        was.level, was.text, ch[j].text
                    ),
                ),
                None => {
                    if let Some(r) = landmark_idx
                        .get(&format!("heading:{}", was.text))
                        .filter(|r| self.gone_regions.contains_key(*r))
                        .cloned()
                    {
                        self.fold(r);
                        continue;
                    }
                    self.push(
                        ChangeKind::HeadingMissing,
                        el,
                        None,
                        None,
                        None,
                        format!("Heading h{} '{}' is no longer present", was.level, was.text),
                    )
                }
            }
        }
        for (j, now) in ch.iter().enumerate() {
            if new_matched[j] {
                continue;
            }
            self.touched.insert("headings");
            self.push(
                ChangeKind::HeadingAdded,
                ChangedElement {
                    kind: "heading".into(),
                    text: Some(now.text.clone()),
                    level: Some(now.level),
                    selector: None,
                },
                None,
                None,
                None,
                format!("New heading h{} '{}'", now.level, now.text),
            );
        }
    }

    fn images(&mut self, b: &Fingerprint, c: &Fingerprint) {
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

    /// Says in each region change how many changes inside it were folded in.
    fn describe_folds(&mut self) {
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

/// `button 'Save'` back to an element reference.
fn element_of(name: &str) -> ChangedElement {
    match name.split_once(' ') {
        Some((kind, text)) => ChangedElement::new(kind).text(text.trim_matches('\'')),
        None => ChangedElement::new(name),
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

/// Multiset differences: (in `was` only, in `now` only), in order.
fn diff_lists<'a>(
    was: impl Iterator<Item = &'a String> + Clone,
    now: impl Iterator<Item = &'a String> + Clone,
) -> (Vec<String>, Vec<String>) {
    let w: Vec<&String> = was.collect();
    let n: Vec<&String> = now.collect();
    let gone = new_items(&n, &w)
        .into_iter()
        .map(|s| (*s).clone())
        .collect();
    let new = new_items(&w, &n)
        .into_iter()
        .map(|s| (*s).clone())
        .collect();
    (gone, new)
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

enum Pair<'a, T> {
    Both(&'a T, &'a T),
    Old(&'a T),
    New(&'a T),
}

/// Pairs items with equal keys, the n-th repeat of a key with the n-th.
/// Order: the baseline's items (paired or gone), then the new ones.
fn pair_by<'a, T, K: Eq + core::hash::Hash>(
    was: &'a [T],
    now: &'a [T],
    key: impl Fn(&'a T) -> K,
) -> Vec<Pair<'a, T>> {
    let mut pool: HashMap<K, Vec<usize>> = HashMap::new();
    for (j, n) in now.iter().enumerate().rev() {
        pool.entry(key(n)).or_default().push(j);
    }
    let mut used = vec![false; now.len()];
    let mut out = Vec::with_capacity(was.len() + now.len());
    for w in was {
        match pool.get_mut(&key(w)).and_then(Vec::pop) {
            Some(j) => {
                used[j] = true;
                out.push(Pair::Both(w, &now[j]));
            }
            None => out.push(Pair::Old(w)),
        }
    }
    for (j, n) in now.iter().enumerate() {
        if !used[j] {
            out.push(Pair::New(n));
        }
    }
    out
}

struct InteractiveMatch {
    old_to_new: Vec<Option<usize>>,
    new_matched: Vec<bool>,
}

impl InteractiveMatch {
    fn modal_opened(&self, b: &Fingerprint, c: &Fingerprint) -> bool {
        !new_items(
            &b.structure.state.modals_open,
            &c.structure.state.modals_open,
        )
        .is_empty()
    }
}

/// Matches interactive elements by (type, text), counting repeats. Within a
/// group, identical elements pair first, then the same location, then the
/// rest in document order. Leftovers whose texts differ only in digits
/// (`Inbox (3)` / `Inbox (5)`) pair last.
fn match_interactive(was: &[Interactive], now: &[Interactive]) -> InteractiveMatch {
    let mut old_to_new = vec![None; was.len()];
    let mut new_matched = vec![false; now.len()];
    // (type, text) -> (baseline indices, current indices)
    type Groups<'a> = HashMap<(&'a str, &'a str), (Vec<usize>, Vec<usize>)>;
    let mut groups: Groups<'_> = HashMap::new();
    for (i, e) in was.iter().enumerate() {
        groups
            .entry((e.kind.as_str(), e.text.as_str()))
            .or_default()
            .0
            .push(i);
    }
    for (j, e) in now.iter().enumerate() {
        groups
            .entry((e.kind.as_str(), e.text.as_str()))
            .or_default()
            .1
            .push(j);
    }
    type Pass = dyn Fn(&Interactive, &Interactive) -> bool;
    let passes: [&Pass; 3] = [&|a, b| a == b, &|a, b| a.location == b.location, &|_, _| {
        true
    }];
    for (olds, news) in groups.values() {
        for pass in passes {
            for &i in olds {
                if old_to_new[i].is_some() {
                    continue;
                }
                if let Some(&j) = news
                    .iter()
                    .find(|&&j| !new_matched[j] && pass(&was[i], &now[j]))
                {
                    old_to_new[i] = Some(j);
                    new_matched[j] = true;
                }
            }
        }
    }
    // Counters: same type, same text once digits are folded.
    let mut folded: HashMap<(&str, String), Vec<usize>> = HashMap::new();
    for (j, e) in now.iter().enumerate().rev() {
        if !new_matched[j] && e.text.bytes().any(|b| b.is_ascii_digit()) {
            folded
                .entry((e.kind.as_str(), fold_digits(&e.text)))
                .or_default()
                .push(j);
        }
    }
    if !folded.is_empty() {
        for (i, e) in was.iter().enumerate() {
            if old_to_new[i].is_some() {
                continue;
            }
            if let Some(j) = folded
                .get_mut(&(e.kind.as_str(), fold_digits(&e.text)))
                .and_then(Vec::pop)
            {
                old_to_new[i] = Some(j);
                new_matched[j] = true;
            }
        }
    }
    InteractiveMatch {
        old_to_new,
        new_matched,
    }
}

/// Baseline indices of matched interactive elements that went out of view
/// while at least as many of the same type in the same place came into view:
/// a carousel that rotated, tabs that switched. Hiding one element is a
/// regression; trading it for its sibling is the page working.
fn swapped_out(bi: &[Interactive], ci: &[Interactive], m: &InteractiveMatch) -> HashSet<usize> {
    let mut flips: HashMap<(&str, &str), (Vec<usize>, usize)> = HashMap::new();
    for (i, was) in bi.iter().enumerate() {
        let Some(j) = m.old_to_new[i] else { continue };
        let now = &ci[j];
        if was.visible == now.visible {
            continue;
        }
        let key = (now.location.as_deref().unwrap_or(""), now.kind.as_str());
        let entry = flips.entry(key).or_default();
        if was.visible {
            entry.0.push(i);
        } else {
            entry.1 += 1;
        }
    }
    flips
        .into_values()
        .filter(|(hidden, shown)| hidden.len() <= *shown)
        .flat_map(|(hidden, _)| hidden)
        .collect()
}

/// The `now` of an element that became hidden (`{"visible": false,
/// "hidden_by": "off_screen"}`), and the reason for its message.
fn hidden_now(reason: Option<&str>) -> (Value, &'static str) {
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
