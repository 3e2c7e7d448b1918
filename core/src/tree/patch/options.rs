//! What a snapshot patch says (its counts and one-line summary), the
//! options of the writer, their JSON form, and the size limits.

use crate::Result;
use crate::prelude::*;

/// Trees deeper than this are left to the line diff (the patch code walks
/// them without recursion, but the gain is nil on such pages).
pub(super) const MAX_PATCH_DEPTH: usize = 256;

/// Snapshots longer than this (either one) are left to the line diff.
/// Parsing both texts, diffing the trees and checking the patch take about
/// 5 ms at this size (about 3,000 elements; `cargo bench -p response-diff
/// --bench tree_diff`, `aria/snapshot_patch_at_the_cap`) and grow linearly
/// with the text, so the cap keeps a response's diff under the 10 ms of docs/DECISIONS.md D25.
/// Seen snapshots over this size are not used for restoring.
pub const MAX_PATCH_BYTES: usize = 128 * 1024;

/// A patch and what it says, for the one-line header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnapshotPatch {
    /// The patch text (no trailing newline).
    pub text: String,
    /// Elements whose own line changed (or that gained or lost `[active]`).
    pub changed: usize,
    /// Elements added (descendants of added elements included; restored
    /// ones too).
    pub added: usize,
    /// Of the added elements, those restored by reference (`as last shown`).
    pub restored: usize,
    /// Elements removed (descendants included).
    pub removed: usize,
    /// Elements that took another place as they were: among their
    /// siblings (`~ order` lines), or under another parent (an insertion
    /// naming them `as last shown`); their subtrees are not counted.
    pub moved: usize,
    /// Elements the same in both.
    pub unchanged: usize,
}

impl SnapshotPatch {
    /// `4 changed (~), 3 added (+), 1 removed (-), 266 unchanged`; with
    /// `N moved` after the changed ones when elements moved.
    pub fn summary(&self) -> String {
        let moved = if self.moved > 0 {
            format!(", {} moved", self.moved)
        } else {
            String::new()
        };
        format!(
            "{} changed (~){moved}, {} added (+), {} removed (-), {} unchanged",
            self.changed, self.added, self.removed, self.unchanged
        )
    }
}

/// How [`snapshot_patch_with`](super::snapshot_patch_with) may say things.
///
/// ```
/// use response_diff::tree::PatchOptions;
/// let earlier = "- listitem \"Tea\" [ref=e2]";
/// let o = PatchOptions::seen(vec![earlier]);
/// assert!(o.restore);
/// let explicit = o.restore(false);
/// # let _ = explicit;
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct PatchOptions<'a> {
    /// The snapshots the agent has already been shown in this conversation
    /// (full aria texts, oldest first); see the module docs.
    pub seen: Vec<&'a str>,
    /// Restore elements from `seen` by reference (default on). Off: nothing
    /// comes from `seen`, for hosts that trim their context (elements of
    /// the previous snapshot itself, which every applier has, may still be
    /// named `as last shown`).
    pub restore: bool,
}

impl Default for PatchOptions<'_> {
    fn default() -> Self {
        PatchOptions {
            seen: Vec::new(),
            restore: true,
        }
    }
}

impl<'a> PatchOptions<'a> {
    /// Options with these seen snapshots (oldest first), restoring on.
    pub fn seen(seen: Vec<&'a str>) -> Self {
        PatchOptions {
            seen,
            restore: true,
        }
    }

    /// Sets [`PatchOptions::restore`].
    pub fn restore(mut self, on: bool) -> Self {
        self.restore = on;
        self
    }
}

/// The JSON form of [`PatchOptions`] every binding accepts:
/// `{"seen": ["<aria text>", …], "restore": true}` (both optional).
///
/// ```
/// use response_diff::tree::PatchRequest;
/// let r = PatchRequest::from_json(r#"{"seen": ["- button \"Go\" [ref=e1]"], "restore": false}"#).unwrap();
/// assert!(!r.options().restore && r.options().seen.len() == 1);
/// assert!(PatchRequest::from_json(r#"{"seen": "x"}"#).is_err());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[non_exhaustive]
pub struct PatchRequest {
    /// See [`PatchOptions::seen`].
    #[serde(default)]
    pub seen: Vec<String>,
    /// See [`PatchOptions::restore`] (default on).
    pub restore: Option<bool>,
}

impl PatchRequest {
    /// Parses the JSON form; errors name the field.
    pub fn from_json(json: &str) -> Result<PatchRequest> {
        crate::json::from_str(json, "patchOptions")
    }

    /// The options, borrowing the seen snapshots.
    pub fn options(&self) -> PatchOptions<'_> {
        PatchOptions {
            seen: self.seen.iter().map(String::as_str).collect(),
            restore: self.restore.unwrap_or(true),
        }
    }
}

impl SnapshotPatch {
    /// `{"text", "summary", "changed", "added", "restored", "removed", "moved",
    /// "unchanged"}`, the form every binding returns.
    pub fn to_json(&self) -> String {
        format!(
            "{{\"text\":{},\"summary\":{},\"changed\":{},\"added\":{},\"restored\":{},\"removed\":{},\"moved\":{},\"unchanged\":{}}}",
            crate::tree::aria::json_quote(&self.text),
            crate::tree::aria::json_quote(&self.summary()),
            self.changed,
            self.added,
            self.restored,
            self.removed,
            self.moved,
            self.unchanged
        )
    }
}
