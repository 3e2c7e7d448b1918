//! Snapshot patches: make one from two aria snapshots, apply one to the
//! snapshot it was taken from, and the `RefCarry` type of ref carrying.

use std::collections::HashMap;

use napi::bindgen_prelude::*;
use napi_derive::napi;
use response_diff::tree as core;

use super::count;
use crate::error::OrThrow;
use crate::json::{Json, options_from};

/// Applies a snapshot patch (the body of a `Page snapshot (patch since …)`
/// section) to the aria snapshot it was taken from and returns the new
/// snapshot text, so a host can keep the page as the agent sees it.
/// `seen`: the snapshots the agent was shown earlier in the conversation
/// (oldest first), for elements the patch restores `as last shown`.
#[napi]
pub fn apply_snapshot_patch(
    env: Env,
    previous: String,
    patch: String,
    seen: Option<Vec<String>>,
) -> Result<String> {
    let seen = seen.unwrap_or_default();
    let seen: Vec<&str> = seen.iter().map(String::as_str).collect();
    core::apply_patch_with(&previous, &patch, &seen).or_throw(&env)
}

/// A snapshot patch and what it says.
#[napi(object)]
pub struct SnapshotPatch {
    /// The patch text: `- [ref]`, `- [e1 e2]`, `~ <element>`, `~ [ref]
    /// +expanded`, `~ focus [ref]`, `~ order [e2 e1]`, `+ after [ref]:` …
    /// lines.
    pub text: String,
    /// `4 changed (~), 3 added (+), 1 removed (-), 266 unchanged`.
    pub summary: String,
    /// Elements whose own line changed (or that gained or lost `[active]`).
    pub changed: u32,
    /// Elements added, descendants and restored ones included.
    pub added: u32,
    /// Of the added elements, those restored by reference (`as last shown`).
    pub restored: u32,
    /// Elements removed, descendants included.
    pub removed: u32,
    /// Elements that took another place as they were: among their siblings (`~ order`) or under another parent.
    pub moved: u32,
    /// Elements the same in both.
    pub unchanged: u32,
}

/// The snapshot patch from `before` to `after` that rebuilds `after` byte
/// for byte, or `null` when the change cannot be said by ref (use a line
/// diff).
/// `options.seen`: the snapshots the agent was shown earlier in the
/// conversation (oldest first), whose elements come back by reference
/// unless `options.restore` is false (for hosts that trim their context).
#[napi]
pub fn snapshot_patch(
    env: Env,
    before: String,
    after: String,
    #[napi(ts_arg_type = "{ seen?: string[]; restore?: boolean }")] options: Option<Json>,
) -> Result<Option<SnapshotPatch>> {
    let req = options_from(&env, options, core::PatchRequest::from_json)?;
    Ok(
        core::snapshot_patch_with(&before, &after, &req.options()).map(|p| SnapshotPatch {
            summary: p.summary(),
            changed: count(p.changed),
            added: count(p.added),
            restored: count(p.restored),
            removed: count(p.removed),
            moved: count(p.moved),
            unchanged: count(p.unchanged),
            text: p.text,
        }),
    )
}

/// A snapshot whose refs were carried over, and the mapping node id → ref
/// (in document order) the host uses to act on the element that now
/// stands there.
#[napi(object)]
#[allow(dead_code)] // Built as JSON (to keep the mapping's order); this declares its type.
pub struct RefCarry {
    /// The snapshot as aria text, with the carried refs.
    pub snapshot: String,
    /// Node id → ref for every element with a node id, in document order.
    #[napi(ts_type = "Record<string, string>")]
    pub refs: HashMap<String, String>,
    /// Elements that kept a ref from an earlier view.
    pub carried: u32,
    /// Elements that got a new ref.
    pub fresh: u32,
}
