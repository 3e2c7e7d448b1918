//! The parameters and checks of the tools added with issue 25 (network
//! requests, fill form, drag, resize, and the `--caps` tools), kept apart
//! from the first tools so that each stays easy to read; `tools`
//! re-exports them and lists them in `for_each_tool`, and their
//! validators are in `parse.rs` with the others.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use super::errors::brief;
use super::params::Button;

/// `browser_network_requests`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NetworkParams {
    /// Also list successful static resources (images, fonts, scripts, styles).
    #[serde(default, rename = "static", alias = "includeStatic")]
    pub include_static: Option<bool>,
    /// Only URLs matching this regex, e.g. /api/.
    #[serde(default)]
    pub filter: Option<String>,
    /// Save the list to this file in the output directory instead.
    #[serde(default)]
    pub filename: Option<String>,
    #[allow(missing_docs)]
    #[serde(default)]
    pub expectation: Option<Value>,
}

/// A field kind of `browser_fill_form`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum FieldType {
    /// A text field: the value replaces its text.
    Textbox,
    /// `true` or `false`.
    Checkbox,
    /// `true` (a radio cannot be unchecked).
    Radio,
    /// A select: the option's text.
    Combobox,
    /// A range input: the number.
    Slider,
}

impl FieldType {
    /// The name in the schema.
    pub fn as_str(self) -> &'static str {
        match self {
            FieldType::Textbox => "textbox",
            FieldType::Checkbox => "checkbox",
            FieldType::Radio => "radio",
            FieldType::Combobox => "combobox",
            FieldType::Slider => "slider",
        }
    }
}

/// One field of `browser_fill_form`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FormField {
    /// Field name, for messages.
    pub name: String,
    /// textbox, checkbox, radio, combobox or slider.
    #[serde(rename = "type")]
    pub kind: FieldType,
    /// Element ref.
    #[serde(rename = "ref", alias = "target")]
    pub target: String,
    /// Text; true/false for checkbox and radio; option text for combobox.
    pub value: String,
}

/// `browser_fill_form`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FillFormParams {
    /// Fields to fill, in order.
    pub fields: Vec<FormField>,
    #[allow(missing_docs)]
    #[serde(default)]
    pub expectation: Option<Value>,
}

/// `browser_drag`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DragParams {
    /// Ref of the element to drag.
    #[serde(alias = "startTarget")]
    pub start_ref: String,
    /// Ref of the element to drop on.
    #[serde(alias = "endTarget")]
    pub end_ref: String,
    /// Accepted, not needed.
    #[serde(default)]
    #[schemars(skip)]
    pub start_element: Option<String>,
    /// Accepted, not needed.
    #[serde(default)]
    #[schemars(skip)]
    pub end_element: Option<String>,
    #[allow(missing_docs)]
    #[serde(default)]
    pub expectation: Option<Value>,
}

/// `browser_resize`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ResizeParams {
    /// Width in CSS pixels.
    pub width: f64,
    /// Height in CSS pixels.
    pub height: f64,
    #[allow(missing_docs)]
    #[serde(default)]
    pub expectation: Option<Value>,
}

/// `browser_mouse_move_xy` (`--caps vision`).
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MouseMoveParams {
    /// X coordinate (viewport CSS pixels).
    pub x: f64,
    /// Y coordinate.
    pub y: f64,
    /// Accepted, not needed.
    #[serde(default)]
    #[schemars(skip)]
    pub element: Option<String>,
    #[allow(missing_docs)]
    #[serde(default)]
    pub expectation: Option<Value>,
}

/// `browser_mouse_click_xy` (`--caps vision`).
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct MouseClickParams {
    /// X coordinate (viewport CSS pixels).
    pub x: f64,
    /// Y coordinate.
    pub y: f64,
    /// left (default), right or middle.
    #[serde(default)]
    pub button: Option<Button>,
    /// Number of clicks (default 1).
    #[serde(default)]
    pub click_count: Option<u32>,
    /// Milliseconds between press and release (default 0).
    #[serde(default)]
    pub delay: Option<f64>,
    /// Accepted, not needed.
    #[serde(default)]
    #[schemars(skip)]
    pub element: Option<String>,
    #[allow(missing_docs)]
    #[serde(default)]
    pub expectation: Option<Value>,
}

/// `browser_mouse_drag_xy` (`--caps vision`).
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct MouseDragParams {
    /// Start X coordinate.
    pub start_x: f64,
    /// Start Y coordinate.
    pub start_y: f64,
    /// End X coordinate.
    pub end_x: f64,
    /// End Y coordinate.
    pub end_y: f64,
    /// Accepted, not needed.
    #[serde(default)]
    #[schemars(skip)]
    pub element: Option<String>,
    #[allow(missing_docs)]
    #[serde(default)]
    pub expectation: Option<Value>,
}

/// `browser_mouse_down` and `browser_mouse_up` (`--caps vision`).
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MouseButtonParams {
    /// left (default), right or middle.
    #[serde(default)]
    pub button: Option<Button>,
    #[allow(missing_docs)]
    #[serde(default)]
    pub expectation: Option<Value>,
}

/// `browser_mouse_wheel` (`--caps vision`).
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct MouseWheelParams {
    /// Horizontal scroll in pixels (default 0).
    #[serde(default)]
    pub delta_x: Option<f64>,
    /// Vertical scroll in pixels (default 0).
    #[serde(default)]
    pub delta_y: Option<f64>,
    #[allow(missing_docs)]
    #[serde(default)]
    pub expectation: Option<Value>,
}

/// `browser_pdf_save` (`--caps pdf`).
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PdfParams {
    /// File name in the output directory (default page-<timestamp>.pdf).
    #[serde(default)]
    pub filename: Option<String>,
    #[allow(missing_docs)]
    #[serde(default)]
    pub expectation: Option<Value>,
}

/// `browser_storage_state` (`--caps storage`).
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StorageStateParams {
    /// File name in the output directory (default storage-state-<timestamp>.json).
    #[serde(default)]
    pub filename: Option<String>,
    #[allow(missing_docs)]
    #[serde(default)]
    pub expectation: Option<Value>,
}

/// `browser_resize` bounds, the same as `--viewport`'s.
pub const MIN_VIEWPORT: f64 = 100.0;
/// See [`MIN_VIEWPORT`].
pub const MAX_VIEWPORT: f64 = 8192.0;

/// Most fields one `browser_fill_form` call takes.
pub const MAX_FORM_FIELDS: usize = 100;

pub(super) fn check_form(p: &FillFormParams) -> Result<(), String> {
    if p.fields.is_empty() {
        return Err(
            "browser_fill_form: `fields` is empty; give at least one {name, type, ref, value}"
                .into(),
        );
    }
    if p.fields.len() > MAX_FORM_FIELDS {
        return Err(format!(
            "browser_fill_form: {} fields, at most {MAX_FORM_FIELDS} per call; split the form over several calls",
            p.fields.len()
        ));
    }
    for (i, f) in p.fields.iter().enumerate() {
        let bad = match f.kind {
            FieldType::Checkbox | FieldType::Radio => !matches!(f.value.as_str(), "true" | "false"),
            FieldType::Slider => f
                .value
                .trim()
                .parse::<f64>()
                .map_or(true, |v| !v.is_finite()),
            FieldType::Textbox | FieldType::Combobox => false,
        };
        if bad {
            let want = match f.kind {
                FieldType::Slider => "a number",
                _ => "\"true\" or \"false\"",
            };
            return Err(format!(
                "browser_fill_form: fields[{i}] ({}): a {} takes {want} as `value`, not {}",
                f.name,
                f.kind.as_str(),
                brief(&Value::from(f.value.as_str()))
            ));
        }
    }
    Ok(())
}

/// The compiled `filter` of `browser_network_requests` (1 MiB at most
/// compiled, as the core's console patterns).
pub fn url_filter(pattern: &str) -> Result<regex::Regex, String> {
    regex::RegexBuilder::new(pattern)
        .size_limit(1 << 20)
        .build()
        .map_err(|e| {
            format!(
                "browser_network_requests: `filter` `{pattern}` is not a valid regex: {}",
                e.to_string().lines().last().unwrap_or("invalid")
            )
        })
}

pub(super) fn check_point(coords: &[f64]) -> Result<(), String> {
    if coords
        .iter()
        .all(|c| c.is_finite() && (-MAX_VIEWPORT..=2.0 * MAX_VIEWPORT).contains(c))
    {
        Ok(())
    } else {
        Err(format!(
            "coordinates must be finite CSS pixels within the page's viewport, got {coords:?}"
        ))
    }
}

/// A file name for the output directory: one plain name, no directories.
pub(super) fn check_file_name(name: &str) -> Result<(), String> {
    let plain = !name.is_empty()
        && name.len() <= 255
        && name != "."
        && name != ".."
        && !name.contains(['/', '\\', '\0']);
    if plain {
        Ok(())
    } else {
        Err(format!(
            "filename `{name}` must be a plain file name (no directories); the file goes to the output directory (--output-dir)"
        ))
    }
}

/// Descriptions of these tools.
pub mod desc {
    #![allow(missing_docs)]
    pub const NETWORK_REQUESTS: &str =
        "Requests since the page loaded: method, URL, status or failure.";
    pub const FILL_FORM: &str = "Fill several form fields in one call.";
    pub const DRAG: &str = "Drag an element onto another (mouse events; HTML5 drag and drop too).";
    pub const RESIZE: &str = "Resize the page's viewport.";
    pub const MOUSE_MOVE_XY: &str = "Move the mouse to a point of the viewport.";
    pub const MOUSE_CLICK_XY: &str = "Click at a point of the viewport.";
    pub const MOUSE_DRAG_XY: &str = "Drag with the left button from one point to another.";
    pub const MOUSE_DOWN: &str = "Press a mouse button where the mouse is.";
    pub const MOUSE_UP: &str = "Release a mouse button where the mouse is.";
    pub const MOUSE_WHEEL: &str = "Scroll with the mouse wheel where the mouse is.";
    pub const PDF_SAVE: &str = "Save the page as PDF in the output directory.";
    pub const STORAGE_STATE: &str = "Save storage state (cookies, local storage) to a file in the output directory for later reuse (--storage-state).";
}
