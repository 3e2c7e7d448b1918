//! DOM fingerprints: the extractor, comparing two, and baseline stores.

use std::ffi::{CString, c_char};

use response_diff::Error;
use response_diff::fingerprint::{self, BaselineStore, ExtractOptions, Fingerprint, Severity};

use crate::boundary::{Failure, ffi_boundary, free_slot, input_str, opt_str, rd_status, write_out};
use crate::output::out_string;
#[cfg(doc)]
use crate::output::rd_string_free;

/// Saves and compares DOM fingerprints by name (or by the hash of a recent
/// capture). Thread-safe.
pub struct rd_baseline_store {
    inner: BaselineStore,
}

/// The page-side fingerprint extractor: JavaScript source of a function
/// `(options) => fingerprint` that any driver can evaluate (static; do not
/// free). See [`rd_fingerprint_expression`] for a ready-to-evaluate call.
#[unsafe(no_mangle)]
pub extern "C" fn rd_fingerprint_script() -> *const c_char {
    static SCRIPT: std::sync::OnceLock<CString> = std::sync::OnceLock::new();
    SCRIPT
        .get_or_init(|| CString::new(fingerprint::FINGERPRINT_SCRIPT).unwrap_or_default())
        .as_ptr()
}

/// A JavaScript expression that runs the extractor with `options_json`
/// (`{"scope": "full" | "above_fold" | "<css selector>", "depth":
/// "minimal" | "standard" | "detailed"}`, NULL for the defaults) and
/// evaluates to the fingerprint as a JSON string. Free `*expression_out`
/// with [`rd_string_free`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_fingerprint_expression(
    options_json: *const c_char,
    options_len: usize,
    expression_out: *mut *mut c_char,
) -> rd_status {
    ffi_boundary(|| {
        let opts = match unsafe { opt_str(options_json, options_len, "options_json")? } {
            None => ExtractOptions::default(),
            Some(j) => ExtractOptions::from_json(j)?,
        };
        unsafe { out_string(expression_out, opts.expression(), "expression_out") }
    })
}

fn severity(s: Option<&str>) -> Result<Severity, Error> {
    s.map_or(Ok(Severity::default()), str::parse)
}

/// Compares two fingerprints (the extractor's JSON). `threshold` is
/// `"info"`, `"warning"` (the default, also for NULL) or `"error"`: changes
/// below it are counted but not listed. `*comparison_out` is
/// `{"status", "severity", "changes", "unchanged", "summary", …}` JSON, to
/// free with [`rd_string_free`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_fingerprint_compare(
    baseline_json: *const c_char,
    baseline_len: usize,
    current_json: *const c_char,
    current_len: usize,
    threshold: *const c_char,
    threshold_len: usize,
    comparison_out: *mut *mut c_char,
) -> rd_status {
    ffi_boundary(|| {
        let baseline = Fingerprint::from_json(unsafe {
            input_str(baseline_json, baseline_len, "baseline_json")?
        })?;
        let current = Fingerprint::from_json(unsafe {
            input_str(current_json, current_len, "current_json")?
        })?;
        let threshold = severity(unsafe { opt_str(threshold, threshold_len, "threshold")? })?;
        let c = fingerprint::compare(&baseline, &current, threshold);
        unsafe { out_string(comparison_out, c.to_json(), "comparison_out") }
    })
}

/// Creates a baseline store, kept in memory and, when `directory` is not
/// NULL, persisted there (created 0700; files 0600). Free it with
/// [`rd_baseline_store_free`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_baseline_store_new(
    directory: *const c_char,
    directory_len: usize,
    store_out: *mut *mut rd_baseline_store,
) -> rd_status {
    ffi_boundary(|| {
        let store = match unsafe { opt_str(directory, directory_len, "directory")? } {
            None => BaselineStore::new(),
            Some(dir) => BaselineStore::open(dir)?,
        };
        let boxed = Box::new(rd_baseline_store { inner: store });
        unsafe { write_out(store_out, Box::into_raw(boxed), "store_out") }
    })
}

fn store_ref<'a>(store: *const rd_baseline_store) -> Result<&'a BaselineStore, Failure> {
    let s = unsafe { store.as_ref() }.ok_or_else(|| Failure::null("store"))?;
    Ok(&s.inner)
}

/// Saves a fingerprint (the extractor's JSON) as baseline `name`
/// (`[A-Za-z0-9._-]{1,64}`; anything else is `RD_INVALID_NAME`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_baseline_store_save(
    store: *const rd_baseline_store,
    name: *const c_char,
    name_len: usize,
    fingerprint_json: *const c_char,
    fingerprint_len: usize,
) -> rd_status {
    ffi_boundary(|| {
        let name = unsafe { input_str(name, name_len, "name")? };
        let fp = Fingerprint::from_json(unsafe {
            input_str(fingerprint_json, fingerprint_len, "fingerprint_json")?
        })?;
        store_ref(store)?.save(name, &fp)?;
        Ok(())
    })
}

/// Remembers a captured fingerprint so a later compare can name it by its
/// hash. `*hash_out` (may be NULL) is that hash, to free with
/// [`rd_string_free`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_baseline_store_record(
    store: *const rd_baseline_store,
    fingerprint_json: *const c_char,
    fingerprint_len: usize,
    hash_out: *mut *mut c_char,
) -> rd_status {
    ffi_boundary(|| {
        let fp = Fingerprint::from_json(unsafe {
            input_str(fingerprint_json, fingerprint_len, "fingerprint_json")?
        })?;
        store_ref(store)?.record(&fp);
        if hash_out.is_null() {
            return Ok(());
        }
        unsafe { out_string(hash_out, fp.hash.clone(), "hash_out") }
    })
}

/// Compares `current_json` against baseline `against` (a name, or the hash
/// or a unique hash prefix of a recorded capture). A missing baseline is
/// `RD_BASELINE_NOT_FOUND`. `threshold` as in [`rd_fingerprint_compare`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_baseline_store_compare(
    store: *const rd_baseline_store,
    against: *const c_char,
    against_len: usize,
    current_json: *const c_char,
    current_len: usize,
    threshold: *const c_char,
    threshold_len: usize,
    comparison_out: *mut *mut c_char,
) -> rd_status {
    ffi_boundary(|| {
        let against = unsafe { input_str(against, against_len, "against")? };
        let current = Fingerprint::from_json(unsafe {
            input_str(current_json, current_len, "current_json")?
        })?;
        let threshold = severity(unsafe { opt_str(threshold, threshold_len, "threshold")? })?;
        let c = store_ref(store)?.compare(against, &current, threshold)?;
        unsafe { out_string(comparison_out, c.to_json(), "comparison_out") }
    })
}

/// Frees the store `*store` points to and sets `*store` to NULL, so calling
/// it again is harmless. `store` and `*store` may be NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_baseline_store_free(store: *mut *mut rd_baseline_store) {
    let _ = ffi_boundary(|| {
        unsafe { free_slot(store) };
        Ok(())
    });
}
