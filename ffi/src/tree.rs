//! Accessibility trees: parsing, printing and diffing them, carrying refs
//! across snapshots, and snapshot patches.

use std::ffi::c_char;

use response_diff::Error;
use response_diff::tree::{self, Tree, TreeDiffRequest};

use crate::boundary::{Failure, ffi_boundary, free_slot, input_str, opt_str, rd_status, write_out};
use crate::output::out_string;
#[cfg(doc)]
use crate::output::rd_string_free;

/// A tree from aria snapshot text, or from the model's JSON (an array of
/// root elements) when the text starts with `[`.
fn parse_tree(text: &str, lenient: bool) -> Result<Tree, Error> {
    if text.trim_start().starts_with('[') {
        Tree::from_json(text)
    } else {
        tree::parse_aria(text, lenient)
    }
}

/// Parses a Playwright aria snapshot into the element model, as JSON in
/// `*tree_json_out` (free with [`rd_string_free`]). Malformed lines are
/// `RD_PARSE_ERROR` with the line number, unless `lenient`, which keeps
/// them as text nodes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_tree_parse(
    aria: *const c_char,
    aria_len: usize,
    lenient: bool,
    tree_json_out: *mut *mut c_char,
) -> rd_status {
    ffi_boundary(|| {
        let t = tree::parse_aria(unsafe { input_str(aria, aria_len, "aria")? }, lenient)?;
        unsafe { out_string(tree_json_out, t.to_json(), "tree_json_out") }
    })
}

/// Prints a tree (the model's JSON, as [`rd_tree_parse`] returns it) as aria
/// snapshot text in `*aria_out` (free with [`rd_string_free`]).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_tree_print(
    tree_json: *const c_char,
    tree_json_len: usize,
    aria_out: *mut *mut c_char,
) -> rd_status {
    ffi_boundary(|| {
        let t = Tree::from_json(unsafe { input_str(tree_json, tree_json_len, "tree_json")? })?;
        unsafe { out_string(aria_out, t.to_aria(), "aria_out") }
    })
}

/// Diffs two accessibility trees, each aria snapshot text or the model's
/// JSON (as [`rd_tree_parse`] returns it). `options_json` (NULL for the defaults) is `{"format":
/// "agent"|"yaml"|"json", "identity": "refs"|"content", "roles": [..],
/// "prune": bool, "scope": "e12", "compareBounds": bool, "lenient": bool}`.
/// `*diff_out` is the rendered diff (free with [`rd_string_free`]).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_tree_diff(
    old: *const c_char,
    old_len: usize,
    new: *const c_char,
    new_len: usize,
    options_json: *const c_char,
    options_len: usize,
    diff_out: *mut *mut c_char,
) -> rd_status {
    ffi_boundary(|| {
        let req = match unsafe { opt_str(options_json, options_len, "options_json")? } {
            None => TreeDiffRequest::default(),
            Some(j) => TreeDiffRequest::from_json(j)?,
        };
        let old = parse_tree(unsafe { input_str(old, old_len, "old")? }, req.lenient)?;
        let new = parse_tree(unsafe { input_str(new, new_len, "new")? }, req.lenient)?;
        let d = tree::diff_with(&old, &new, &req.options);
        let ts = tree::now_ts();
        unsafe { out_string(diff_out, d.render(req.format, ts, None), "diff_out") }
    })
}

/// Carries refs over from the recent views of each page to new snapshots
/// of it (refs that survive re-renders). Thread-safe.
pub struct rd_ref_carrier {
    inner: tree::RefCarrier,
}

/// Creates a ref carrier. `config_json` may be NULL for the defaults, or
/// `{"viewsPerKey": 8, "maxStoredBytes": 8388608, "stableIds": false}`
/// (every field optional; `stableIds`: the host's node ids name the same
/// node across snapshots). Free it with [`rd_ref_carrier_free`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_ref_carrier_new(
    config_json: *const c_char,
    config_len: usize,
    carrier_out: *mut *mut rd_ref_carrier,
) -> rd_status {
    ffi_boundary(|| {
        let config = match unsafe { opt_str(config_json, config_len, "config_json")? } {
            None => tree::CarrierConfig::default(),
            Some(j) => tree::CarrierConfig::from_json(j)?,
        };
        let c = Box::new(rd_ref_carrier {
            inner: tree::RefCarrier::with_config(config),
        });
        unsafe { write_out(carrier_out, Box::into_raw(c), "carrier_out") }
    })
}

/// Frees the carrier `*carrier` points to and sets `*carrier` to NULL, so
/// calling it again is harmless. `carrier` and `*carrier` may be NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_ref_carrier_free(carrier: *mut *mut rd_ref_carrier) {
    let _ = ffi_boundary(|| {
        unsafe { free_slot(carrier) };
        Ok(())
    });
}

fn carrier_ref<'a>(c: *const rd_ref_carrier) -> Result<&'a tree::RefCarrier, Failure> {
    if c.is_null() {
        return Err(Failure::null("carrier"));
    }
    Ok(unsafe { &(*c).inner })
}

/// Gives the elements of `snapshot` (aria text of page `key` whose refs are
/// the host's node ids) the refs they had in the recent views of `key`, new
/// refs to new elements, and records it as the newest view. `*result_out`
/// is `{"snapshot": "<aria text with the refs>", "refs": {"<node id>":
/// "<ref>", …}, "carried": n, "fresh": n}` (free with [`rd_string_free`]).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_ref_carrier_carry(
    carrier: *const rd_ref_carrier,
    key: *const c_char,
    key_len: usize,
    snapshot: *const c_char,
    snapshot_len: usize,
    result_out: *mut *mut c_char,
) -> rd_status {
    ffi_boundary(|| {
        let c = carrier_ref(carrier)?;
        let key = unsafe { input_str(key, key_len, "key")? };
        let snapshot = parse_tree(
            unsafe { input_str(snapshot, snapshot_len, "snapshot")? },
            false,
        )?;
        let r = c.carry(key, &snapshot)?;
        unsafe { out_string(result_out, r.to_json(), "result_out") }
    })
}

/// The page's own ref (the host's node id) that `carried_ref`, as the agent
/// was shown it, names in the latest view of `key`. `*source_out` is that
/// id (free with [`rd_string_free`]), or NULL when that view did not show
/// the ref.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_ref_carrier_source_ref(
    carrier: *const rd_ref_carrier,
    key: *const c_char,
    key_len: usize,
    carried_ref: *const c_char,
    carried_ref_len: usize,
    source_out: *mut *mut c_char,
) -> rd_status {
    ffi_boundary(|| {
        let c = carrier_ref(carrier)?;
        let key = unsafe { input_str(key, key_len, "key")? };
        let carried = unsafe { input_str(carried_ref, carried_ref_len, "carried_ref")? };
        match c.source_ref(key, carried) {
            Some(id) => unsafe { out_string(source_out, id, "source_out") },
            None => unsafe { write_out(source_out, std::ptr::null_mut(), "source_out") },
        }
    })
}

/// Forgets `key` (its views and the refs it handed out).
/// `*removed_out` (may be NULL) says whether it was kept.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_ref_carrier_clear(
    carrier: *const rd_ref_carrier,
    key: *const c_char,
    key_len: usize,
    removed_out: *mut bool,
) -> rd_status {
    ffi_boundary(|| {
        let c = carrier_ref(carrier)?;
        let key = unsafe { input_str(key, key_len, "key")? };
        let removed = c.clear(key);
        if !removed_out.is_null() {
            unsafe { *removed_out = removed };
        }
        Ok(())
    })
}

/// Bytes the carrier charges against its `maxStoredBytes`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_ref_carrier_memory_usage(
    carrier: *const rd_ref_carrier,
    bytes_out: *mut usize,
) -> rd_status {
    ffi_boundary(|| {
        let used = carrier_ref(carrier)?.memory_usage();
        unsafe { write_out(bytes_out, used, "bytes_out") }
    })
}

/// A JSON array of strings (`what` names it in errors).
fn string_list(json: Option<&str>, what: &str) -> Result<Vec<String>, Error> {
    let Some(json) = json else {
        return Ok(Vec::new());
    };
    let value: serde_json::Value = serde_json::from_str(json).map_err(|e| Error::Parse {
        what: "JSON",
        line: e.line(),
        message: e.to_string(),
    })?;
    serde_json::from_value(value).map_err(|_| {
        Error::invalid_option(
            what,
            "must be a JSON array of strings (aria snapshot texts)",
        )
    })
}

/// Carries refs without a store: `previous_json` is a JSON array of the
/// earlier snapshots as the agent saw them (aria texts, oldest first; NULL
/// for none), `snapshot` the new one with the host's node ids,
/// `options_json` `{"stableIds": false}` (NULL for the default).
/// `*result_out` as in [`rd_ref_carrier_carry`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_refs_carry(
    previous_json: *const c_char,
    previous_len: usize,
    snapshot: *const c_char,
    snapshot_len: usize,
    options_json: *const c_char,
    options_len: usize,
    result_out: *mut *mut c_char,
) -> rd_status {
    ffi_boundary(|| {
        let previous = string_list(
            unsafe { opt_str(previous_json, previous_len, "previous_json")? },
            "previous",
        )?;
        let previous: Vec<Tree> = previous
            .iter()
            .map(|t| tree::parse_aria(t, false))
            .collect::<Result<_, _>>()?;
        let snapshot = parse_tree(
            unsafe { input_str(snapshot, snapshot_len, "snapshot")? },
            false,
        )?;
        let options = match unsafe { opt_str(options_json, options_len, "options_json")? } {
            None => tree::CarryOptions::default(),
            Some(j) => tree::CarryOptions::from_json(j)?,
        };
        let refs: Vec<&Tree> = previous.iter().collect();
        let r = tree::carry_refs(&refs, &snapshot, options)?;
        unsafe { out_string(result_out, r.to_json(), "result_out") }
    })
}

/// The snapshot patch from `old` to `new` (aria texts). `options_json`
/// (NULL for the defaults) is `{"seen": ["<aria text>", …], "restore":
/// true}`: the snapshots the agent was shown earlier in the conversation,
/// oldest first, whose elements may be restored by reference. `*patch_out`
/// is `{"text", "summary", "changed", "added", "restored", "removed", "moved",
/// "unchanged"}`, or `null` when the change cannot be said as a patch (use
/// a line diff); free it with [`rd_string_free`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_snapshot_patch(
    old: *const c_char,
    old_len: usize,
    new: *const c_char,
    new_len: usize,
    options_json: *const c_char,
    options_len: usize,
    patch_out: *mut *mut c_char,
) -> rd_status {
    ffi_boundary(|| {
        let old = unsafe { input_str(old, old_len, "old")? };
        let new = unsafe { input_str(new, new_len, "new")? };
        let req = match unsafe { opt_str(options_json, options_len, "options_json")? } {
            None => tree::PatchRequest::default(),
            Some(j) => tree::PatchRequest::from_json(j)?,
        };
        let json = tree::snapshot_patch_with(old, new, &req.options())
            .map_or_else(|| "null".to_owned(), |p| p.to_json());
        unsafe { out_string(patch_out, json, "patch_out") }
    })
}

/// Applies a snapshot patch to the snapshot it was taken from; `*new_out`
/// is the new snapshot text (free with [`rd_string_free`]). `seen_json` is
/// a JSON array of the snapshots the agent was shown earlier (oldest
/// first), needed when the patch restores elements `as last shown`; NULL
/// for none.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_snapshot_patch_apply(
    old: *const c_char,
    old_len: usize,
    patch: *const c_char,
    patch_len: usize,
    seen_json: *const c_char,
    seen_len: usize,
    new_out: *mut *mut c_char,
) -> rd_status {
    ffi_boundary(|| {
        let old = unsafe { input_str(old, old_len, "old")? };
        let patch = unsafe { input_str(patch, patch_len, "patch")? };
        let seen = string_list(
            unsafe { opt_str(seen_json, seen_len, "seen_json")? },
            "seen",
        )?;
        let seen: Vec<&str> = seen.iter().map(String::as_str).collect();
        let new = tree::apply_patch_with(old, patch, &seen)?;
        unsafe { out_string(new_out, new, "new_out") }
    })
}
