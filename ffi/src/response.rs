//! Expectations, rendering a response under them, and whether this build
//! handles images ([`rd_has_images`]).

use std::ffi::c_char;

use response_diff::Error;
use response_diff::expectation::Expectation;
use response_diff::response::{DiffTarget, Response, render};

#[cfg(doc)]
use crate::boundary::rd_last_error;
use crate::boundary::{ffi_boundary, input_str, opt_str, rd_status};
use crate::detector::{detector_ref, rd_detector};
use crate::output::out_json;
#[cfg(doc)]
use crate::output::rd_string_free;

/// Checks an expectation. On success `*normalized_out` (may be NULL) is the
/// same expectation as canonical JSON, to free with [`rd_string_free`]. On
/// failure the status is `RD_INVALID_OPTION` (or `RD_INVALID_JSON`) and
/// [`rd_last_error`] names the field.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_expectation_validate(
    json: *const c_char,
    json_len: usize,
    normalized_out: *mut *mut c_char,
) -> rd_status {
    ffi_boundary(|| {
        let json = unsafe { input_str(json, json_len, "json")? };
        let e = Expectation::from_json(json)?;
        if normalized_out.is_null() {
            return Ok(());
        }
        unsafe { out_json(normalized_out, &e, "normalized_out") }
    })
}

/// Merges a tool's defaults with layers of expectations (lowest first:
/// e.g. `[globalExpectation, stepExpectation]`, a JSON array; NULL for
/// none) and returns the resolved expectation, every field set, as JSON in
/// `*resolved_out` (free with [`rd_string_free`]).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_expectation_merge(
    tool: *const c_char,
    tool_len: usize,
    layers_json: *const c_char,
    layers_len: usize,
    resolved_out: *mut *mut c_char,
) -> rd_status {
    ffi_boundary(|| {
        let tool = unsafe { input_str(tool, tool_len, "tool")? };
        let layers = parse_layers(unsafe { opt_str(layers_json, layers_len, "layers_json")? })?;
        let refs: Vec<&Expectation> = layers.iter().collect();
        let resolved = Expectation::resolve(tool, &refs)?;
        unsafe { out_json(resolved_out, &resolved.to_expectation(), "resolved_out") }
    })
}

fn parse_layers(json: Option<&str>) -> Result<Vec<Expectation>, Error> {
    let Some(json) = json else {
        return Ok(Vec::new());
    };
    let values: Vec<serde_json::Value> = serde_json::from_str(json).map_err(|e| {
        if e.is_data() {
            Error::invalid_option("layers", "must be a JSON array of expectation objects")
        } else {
            Error::Parse {
                what: "JSON",
                line: e.line(),
                message: e.to_string(),
            }
        }
    })?;
    values
        .iter()
        .enumerate()
        .map(|(i, v)| Expectation::from_value_at(v, &format!("layers[{i}]")))
        .collect()
}

/// Renders a response (JSON: `{"result", "isError", "code", "tabs", "page",
/// "snapshot": {"aria", "html"}, "console", "downloads", "images"}`) to
/// Markdown under `tool`'s defaults merged with `layers_json` (as in
/// [`rd_expectation_merge`]).
///
/// With `detector` non-NULL and `diffOptions.enabled` on, the snapshot is
/// diffed against the previous one under `key`. `*rendered_out` is
/// `{"text", "images", "isError", "snapshotDiff"}` JSON, to free with
/// [`rd_string_free`].
///
/// **Needs images** for `imageOptions`: the lean library (built without
/// the `images` feature, [`rd_has_images`] false) returns images as they
/// came, and a response with images whose merged expectation sets
/// `imageOptions` is `RD_INVALID_OPTION` ("this build has no image
/// support", `rd_last_error`). Every other function works the same in
/// both builds.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_response_render(
    response_json: *const c_char,
    response_len: usize,
    tool: *const c_char,
    tool_len: usize,
    layers_json: *const c_char,
    layers_len: usize,
    detector: *const rd_detector,
    key: *const c_char,
    key_len: usize,
    rendered_out: *mut *mut c_char,
) -> rd_status {
    ffi_boundary(|| {
        let response = Response::from_json(unsafe {
            input_str(response_json, response_len, "response_json")?
        })?;
        let tool = unsafe { input_str(tool, tool_len, "tool")? };
        let layers = parse_layers(unsafe { opt_str(layers_json, layers_len, "layers_json")? })?;
        let refs: Vec<&Expectation> = layers.iter().collect();
        let exp = Expectation::resolve(tool, &refs)?;
        let target = if detector.is_null() {
            None
        } else {
            Some(DiffTarget {
                detector: detector_ref(detector)?,
                key: unsafe { input_str(key, key_len, "key")? },
            })
        };
        let rendered = render(&response, &exp, target)?;
        unsafe { out_json(rendered_out, &rendered, "rendered_out") }
    })
}

/// Whether this build resizes and re-encodes images (`imageOptions` of
/// [`rd_response_render`]): true for `libresponse_diff`, false for the
/// lean build without the `images` feature (same header and functions).
#[unsafe(no_mangle)]
pub extern "C" fn rd_has_images() -> bool {
    cfg!(feature = "images")
}
