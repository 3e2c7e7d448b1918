//! What a comparison reports: the kinds of change with their severities,
//! the change and comparison types with their JSON and text forms, and the
//! one-line summary.

use crate::prelude::*;

use core::fmt;
use core::str::FromStr;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::fingerprint::model::StateElement;
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
    pub(super) fn new(kind: &str) -> Self {
        ChangedElement {
            kind: kind.to_owned(),
            ..Default::default()
        }
    }
    pub(super) fn text(mut self, t: &str) -> Self {
        self.text = Some(t.to_owned());
        self
    }
    pub(super) fn selector(mut self, s: &str) -> Self {
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

/// The result of [`compare`](super::compare).
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

pub(super) fn summarize(
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

pub(super) fn quote_or(text: &str, selector: &str) -> String {
    if text.is_empty() {
        selector.to_owned()
    } else {
        format!("'{text}'")
    }
}
