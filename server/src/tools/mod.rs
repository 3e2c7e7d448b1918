//! Tool parameters, their compact JSON schemas, and validation of a call
//! (tool name + JSON arguments) into a typed [`Call`].
//!
//! The same parsing serves the MCP tools and every step of
//! `browser_batch_execute`, so a batch is fully validated before any step
//! runs. Error messages say what to send instead.

use std::sync::Arc;

use response_diff::expectation::Expectation;
use schemars::JsonSchema;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

mod interaction;
pub use interaction::*;

/// `browser_navigate`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NavigateParams {
    /// URL to open.
    pub url: String,
    #[allow(missing_docs)]
    #[serde(default)]
    pub expectation: Option<Value>,
}

/// Parameters with only an expectation.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExpectationOnly {
    #[allow(missing_docs)]
    #[serde(default)]
    pub expectation: Option<Value>,
}

/// Mouse button.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Button {
    /// Left (default).
    #[default]
    Left,
    /// Right.
    Right,
    /// Middle.
    Middle,
}

impl Button {
    /// CDP name.
    pub fn as_str(self) -> &'static str {
        match self {
            Button::Left => "left",
            Button::Right => "right",
            Button::Middle => "middle",
        }
    }
}

/// `browser_click`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ClickParams {
    /// Element ref from the snapshot, e.g. e12.
    #[serde(rename = "ref", alias = "target")]
    pub target: String,
    /// Double-click.
    #[serde(default)]
    pub double_click: Option<bool>,
    /// left (default), right or middle.
    #[serde(default)]
    pub button: Option<Button>,
    /// Human description of the element (accepted, not needed).
    #[serde(default)]
    #[schemars(skip)]
    pub element: Option<String>,
    #[allow(missing_docs)]
    #[serde(default)]
    pub expectation: Option<Value>,
}

/// `browser_type`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TypeParams {
    /// Ref of the field.
    #[serde(rename = "ref", alias = "target")]
    pub target: String,
    /// Text; replaces the field's content.
    pub text: String,
    /// Press Enter after.
    #[serde(default)]
    pub submit: Option<bool>,
    /// Accepted, not needed.
    #[serde(default)]
    #[schemars(skip)]
    pub element: Option<String>,
    /// Accepted, ignored (text is inserted at once).
    #[serde(default)]
    #[schemars(skip)]
    pub slowly: Option<bool>,
    #[allow(missing_docs)]
    #[serde(default)]
    pub expectation: Option<Value>,
}

/// `browser_press_key`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PressKeyParams {
    /// Key name, e.g. Enter, Tab, ArrowDown, a.
    pub key: String,
    #[allow(missing_docs)]
    #[serde(default)]
    pub expectation: Option<Value>,
}

/// `browser_select_option`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SelectParams {
    /// Ref of the select.
    #[serde(rename = "ref", alias = "target")]
    pub target: String,
    /// Option values or labels to select.
    pub values: Vec<String>,
    /// Accepted, not needed.
    #[serde(default)]
    #[schemars(skip)]
    pub element: Option<String>,
    #[allow(missing_docs)]
    #[serde(default)]
    pub expectation: Option<Value>,
}

/// `browser_hover`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HoverParams {
    /// Element ref.
    #[serde(rename = "ref", alias = "target")]
    pub target: String,
    /// Accepted, not needed.
    #[serde(default)]
    #[schemars(skip)]
    pub element: Option<String>,
    #[allow(missing_docs)]
    #[serde(default)]
    pub expectation: Option<Value>,
}

/// `browser_handle_dialog`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct HandleDialogParams {
    /// true accepts, false dismisses.
    pub accept: bool,
    /// Text for a prompt.
    #[serde(default)]
    pub prompt_text: Option<String>,
    #[allow(missing_docs)]
    #[serde(default)]
    pub expectation: Option<Value>,
}

/// `browser_file_upload`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FileUploadParams {
    /// Absolute paths; none or empty cancels.
    #[serde(default)]
    pub paths: Option<Vec<String>>,
    #[allow(missing_docs)]
    #[serde(default)]
    pub expectation: Option<Value>,
}

/// `browser_snapshot`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SnapshotParams {
    /// ts of an earlier read: return only what changed since.
    #[serde(default)]
    pub since: Option<u64>,
    #[allow(missing_docs)]
    #[serde(default)]
    pub expectation: Option<Value>,
}

/// `browser_take_screenshot`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ScreenshotParams {
    /// Whole scrollable page.
    #[serde(default)]
    pub full_page: Option<bool>,
    /// Only this element.
    #[serde(default, rename = "ref", alias = "target")]
    pub target: Option<String>,
    /// Accepted, not needed.
    #[serde(default)]
    #[schemars(skip)]
    pub element: Option<String>,
    #[allow(missing_docs)]
    #[serde(default)]
    pub expectation: Option<Value>,
}

/// `browser_tabs` action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum TabAction {
    /// List tabs.
    List,
    /// Open a tab (optionally at `url`).
    New,
    /// Make tab `index` current.
    Select,
    /// Close tab `index` (default: current).
    Close,
}

/// `browser_tabs`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TabsParams {
    /// list, new, select or close.
    pub action: TabAction,
    /// Tab index for select/close.
    #[serde(default)]
    pub index: Option<usize>,
    /// URL for new.
    #[serde(default)]
    pub url: Option<String>,
    #[allow(missing_docs)]
    #[serde(default)]
    pub expectation: Option<Value>,
}

/// `browser_evaluate`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EvaluateParams {
    /// JS function, e.g. () => document.title; gets the element if ref is given.
    pub function: String,
    /// Element ref passed to the function.
    #[serde(default, rename = "ref", alias = "target")]
    pub target: Option<String>,
    /// Accepted, not needed.
    #[serde(default)]
    #[schemars(skip)]
    pub element: Option<String>,
    #[allow(missing_docs)]
    #[serde(default)]
    pub expectation: Option<Value>,
}

/// `browser_wait_for`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct WaitForParams {
    /// Text to appear.
    #[serde(default)]
    pub text: Option<String>,
    /// Text to disappear.
    #[serde(default)]
    pub text_gone: Option<String>,
    /// Seconds to wait.
    #[serde(default)]
    pub time: Option<f64>,
    #[allow(missing_docs)]
    #[serde(default)]
    pub expectation: Option<Value>,
}

/// `browser_close` takes nothing.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CloseParams {}

/// One step of `browser_batch_execute`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct BatchStep {
    /// Tool name, e.g. browser_click.
    pub tool: String,
    /// The tool's arguments.
    #[serde(default)]
    pub arguments: Option<Map<String, Value>>,
    /// Keep going if this step fails.
    #[serde(default)]
    pub continue_on_error: Option<bool>,
    #[allow(missing_docs)]
    #[serde(default)]
    pub expectation: Option<Value>,
}

/// `browser_batch_execute`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct BatchParams {
    /// Steps, run in order.
    pub steps: Vec<BatchStep>,
    /// Stop at a failing step unless it has continueOnError (default true).
    #[serde(default)]
    pub stop_on_first_error: Option<bool>,
    /// Expectation for every step (object or JSON string); steps refine it.
    #[serde(default)]
    pub global_expectation: Option<Value>,
}

/// `browser_get_dom_fingerprint`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct FingerprintParams {
    /// full (default), above_fold or a CSS selector.
    #[serde(default)]
    pub scope: Option<String>,
    /// minimal, standard (default) or detailed.
    #[serde(default)]
    pub depth: Option<String>,
    /// Save as a named baseline.
    #[serde(default)]
    pub save_as: Option<String>,
    #[allow(missing_docs)]
    #[serde(default)]
    pub expectation: Option<Value>,
}

/// `browser_compare_dom_fingerprint`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CompareParams {
    /// Baseline name or fingerprint hash.
    pub against: String,
    /// Least severity reported: info, warning (default) or error.
    #[serde(default)]
    pub severity_threshold: Option<String>,
    /// Like get_dom_fingerprint.
    #[serde(default)]
    pub scope: Option<String>,
    /// Like get_dom_fingerprint.
    #[serde(default)]
    pub depth: Option<String>,
    #[allow(missing_docs)]
    #[serde(default)]
    pub expectation: Option<Value>,
}

/// A validated tool call.
#[derive(Debug, Clone)]
pub enum Call {
    /// browser_navigate
    Navigate(NavigateParams),
    /// browser_navigate_back
    NavigateBack,
    /// browser_click
    Click(ClickParams),
    /// browser_type
    Type(TypeParams),
    /// browser_press_key
    PressKey(PressKeyParams),
    /// browser_select_option
    SelectOption(SelectParams),
    /// browser_hover
    Hover(HoverParams),
    /// browser_handle_dialog
    HandleDialog(HandleDialogParams),
    /// browser_file_upload
    FileUpload(FileUploadParams),
    /// browser_snapshot
    Snapshot(SnapshotParams),
    /// browser_take_screenshot
    Screenshot(ScreenshotParams),
    /// browser_console_messages
    ConsoleMessages,
    /// browser_tabs
    Tabs(TabsParams),
    /// browser_evaluate
    Evaluate(EvaluateParams),
    /// browser_wait_for
    WaitFor(WaitForParams),
    /// browser_close
    Close,
    /// browser_batch_execute
    Batch(Batch),
    /// browser_get_dom_fingerprint
    GetFingerprint(FingerprintParams),
    /// browser_compare_dom_fingerprint
    CompareFingerprint(CompareParams),
    /// browser_network_requests
    NetworkRequests(NetworkParams),
    /// browser_fill_form
    FillForm(FillFormParams),
    /// browser_drag
    Drag(DragParams),
    /// browser_resize
    Resize(ResizeParams),
    /// browser_mouse_move_xy
    MouseMove(MouseMoveParams),
    /// browser_mouse_click_xy
    MouseClick(MouseClickParams),
    /// browser_mouse_drag_xy
    MouseDrag(MouseDragParams),
    /// browser_mouse_down
    MouseDown(MouseButtonParams),
    /// browser_mouse_up
    MouseUp(MouseButtonParams),
    /// browser_mouse_wheel
    MouseWheel(MouseWheelParams),
    /// browser_pdf_save
    PdfSave(PdfParams),
    /// browser_storage_state
    StorageState(StorageStateParams),
}

/// A validated batch.
#[derive(Debug, Clone)]
pub struct Batch {
    /// Steps, validated.
    pub steps: Vec<Step>,
    /// Stop at a failing step (unless it continues on error).
    pub stop_on_first_error: bool,
    /// The global expectation.
    pub global: Expectation,
}

/// A validated batch step.
#[derive(Debug, Clone)]
pub struct Step {
    /// The call.
    pub call: Parsed,
    /// Keep going if it fails.
    pub continue_on_error: bool,
}

/// A tool call with its expectation parsed.
#[derive(Debug, Clone)]
pub struct Parsed {
    /// Canonical tool name (`browser_click`).
    pub tool: &'static str,
    /// The call.
    pub call: Call,
    /// The call's own expectation (empty when none was given).
    pub expectation: Expectation,
}

/// A tool's catalog entry.
pub struct ToolInfo {
    /// Name.
    pub name: &'static str,
    /// Description.
    pub description: &'static str,
    /// Input schema.
    pub schema: fn() -> Arc<Map<String, Value>>,
    /// Validates the arguments into a call.
    validate: fn(&Args) -> Result<Call, String>,
}

/// Tool descriptions (one place for the catalog and the MCP tools).
pub mod desc {
    #![allow(missing_docs)]
    pub const NAVIGATE: &str = "Open a URL in the current tab.";
    pub const NAVIGATE_BACK: &str = "Go back to the previous page.";
    pub const CLICK: &str = "Click an element by ref.";
    pub const TYPE: &str = "Type text into a field by ref (replaces its content).";
    pub const PRESS_KEY: &str = "Press a key on the focused element.";
    pub const SELECT_OPTION: &str = "Select options in a select by ref.";
    pub const HOVER: &str = "Hover over an element by ref.";
    pub const HANDLE_DIALOG: &str = "Answer the open dialog.";
    pub const FILE_UPLOAD: &str = "Set the files of the open file chooser.";
    pub const SNAPSHOT: &str = "Accessibility snapshot of the page, with refs for actions. Every read reports a ts; pass since=ts to get only what changed.";
    pub const SCREENSHOT: &str =
        "Screenshot of the viewport, the full page or an element; see expectation.imageOptions.";
    pub const CONSOLE_MESSAGES: &str = "Console messages of the current page.";
    pub const TABS: &str = "List, open, select or close tabs.";
    pub const EVALUATE: &str = "Run a JS function in the page; returns its JSON result.";
    pub const WAIT_FOR: &str = "Wait for text to appear or disappear, or for some seconds.";
    pub const CLOSE: &str = "Close the browser; a later call starts a fresh one.";
    pub const BATCH: &str = "Run tool calls in order; returns a summary and each step's result. Every step is validated before any runs.";
    pub const GET_FINGERPRINT: &str = "Compact semantic summary of the page (landmarks, headings, forms, interactive elements, errors); saveAs keeps it as a named baseline.";
    pub const COMPARE_FINGERPRINT: &str = "Compare the page with a baseline name or fingerprint hash; reports typed changes with severities.";
    pub use super::interaction::desc::*;
}

/// Every tool in catalog order: `name => parameters, description`. The one
/// place a tool's name is written: [`TOOLS`] (with its validator in
/// `validate`) and the MCP server's methods (`crate::mcp`) are both made
/// from this list by the macro `$m`.
macro_rules! for_each_tool {
    ($m:ident) => {
        $m! {
            browser_navigate => NavigateParams, NAVIGATE;
            browser_navigate_back => ExpectationOnly, NAVIGATE_BACK;
            browser_click => ClickParams, CLICK;
            browser_type => TypeParams, TYPE;
            browser_press_key => PressKeyParams, PRESS_KEY;
            browser_select_option => SelectParams, SELECT_OPTION;
            browser_hover => HoverParams, HOVER;
            browser_handle_dialog => HandleDialogParams, HANDLE_DIALOG;
            browser_file_upload => FileUploadParams, FILE_UPLOAD;
            browser_snapshot => SnapshotParams, SNAPSHOT;
            browser_take_screenshot => ScreenshotParams, SCREENSHOT;
            browser_console_messages => ExpectationOnly, CONSOLE_MESSAGES;
            browser_tabs => TabsParams, TABS;
            browser_evaluate => EvaluateParams, EVALUATE;
            browser_wait_for => WaitForParams, WAIT_FOR;
            browser_close => CloseParams, CLOSE;
            browser_batch_execute => BatchParams, BATCH;
            browser_get_dom_fingerprint => FingerprintParams, GET_FINGERPRINT;
            browser_compare_dom_fingerprint => CompareParams, COMPARE_FINGERPRINT;
            browser_network_requests => NetworkParams, NETWORK_REQUESTS;
            browser_fill_form => FillFormParams, FILL_FORM;
            browser_drag => DragParams, DRAG;
            browser_resize => ResizeParams, RESIZE;
            browser_mouse_move_xy => MouseMoveParams, MOUSE_MOVE_XY;
            browser_mouse_click_xy => MouseClickParams, MOUSE_CLICK_XY;
            browser_mouse_drag_xy => MouseDragParams, MOUSE_DRAG_XY;
            browser_mouse_down => MouseButtonParams, MOUSE_DOWN;
            browser_mouse_up => MouseButtonParams, MOUSE_UP;
            browser_mouse_wheel => MouseWheelParams, MOUSE_WHEEL;
            browser_pdf_save => PdfParams, PDF_SAVE;
            browser_storage_state => StorageStateParams, STORAGE_STATE;
        }
    };
}
pub(crate) use for_each_tool;

macro_rules! catalog {
    ($($name:ident => $params:ident, $desc:ident;)*) => {
        /// Every tool: name, description, input schema, in catalog order.
        pub const TOOLS: &[ToolInfo] = &[
            $( ToolInfo {
                name: stringify!($name),
                description: desc::$desc,
                schema: input_schema::<$params>,
                validate: validate::$name,
            }, )*
        ];
    };
}

for_each_tool!(catalog);

/// The shared, compact expectation schema (the same in every tool).
pub fn expectation_schema() -> Value {
    // One line of keys instead of nested schemas: it is repeated in every
    // tool, so it is most of the catalog's cost (docs/DECISIONS.md D22);
    // the server validates the object and names a wrong field.
    json!({
        "type": "object",
        "description": EXPECTATION_KEYS,
    })
}

/// The expectation's keys, as the schema describes them.
pub const EXPECTATION_KEYS: &str = "What to return; omitted keys keep defaults. Booleans includeSnapshot, includeConsole, includeTabs, includeCode, includeDownloads; objects snapshotOptions {selector, maxLength, format, diff}, consoleOptions {levels, maxMessages, patterns}, imageOptions {quality, maxWidth, maxHeight, format}, diffOptions {enabled, format, context, maxDiffLines}.";

/// The input schema of `T`, made compact: definitions inlined, no titles,
/// formats or `null` alternatives, and the shared expectation schema.
pub fn input_schema<T: JsonSchema>() -> Arc<Map<String, Value>> {
    let generator = schemars::generate::SchemaSettings::draft2020_12().into_generator();
    let schema = generator.into_root_schema_for::<T>();
    let mut value = serde_json::to_value(schema).unwrap_or_else(|_| json!({}));
    let defs = value
        .as_object_mut()
        .and_then(|o| o.remove("$defs"))
        .unwrap_or(Value::Null);
    compact(&mut value, &defs, 0);
    let mut map = match value {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    map.remove("$schema");
    map.remove("title");
    map.remove("description");
    map.insert("type".into(), json!("object"));
    if let Some(Value::Object(props)) = map.get_mut("properties") {
        if props.contains_key("expectation") {
            props.insert("expectation".into(), expectation_schema());
        }
        if let Some(Value::Object(items)) = props.get_mut("steps").and_then(|s| s.get_mut("items"))
        {
            items.remove("description");
            if let Some(Value::Object(step_props)) = items.get_mut("properties") {
                step_props.insert(
                    "expectation".into(),
                    json!({"type": "object", "description": "Like expectation."}),
                );
            }
        }
        if let Some(Value::Object(g)) = props.get_mut("globalExpectation") {
            g.insert("type".into(), json!(["object", "string"]));
        }
    }
    Arc::new(map)
}

fn compact(v: &mut Value, defs: &Value, depth: usize) {
    if depth > 16 {
        return;
    }
    if let Value::Object(m) = v {
        // Inline `$ref`s to `$defs`.
        if let Some(Value::String(r)) = m.get("$ref").cloned()
            && let Some(name) = r.strip_prefix("#/$defs/")
            && let Some(def) = defs.get(name)
        {
            m.remove("$ref");
            if let Value::Object(d) = def.clone() {
                for (k, val) in d {
                    m.entry(k).or_insert(val);
                }
            }
        }
        // `anyOf: [X, {type: null}]` → X.
        if let Some(Value::Array(any)) = m.get("anyOf").cloned() {
            let non_null: Vec<Value> = any
                .into_iter()
                .filter(|s| s.get("type") != Some(&json!("null")))
                .collect();
            if non_null.len() == 1 {
                m.remove("anyOf");
                if let Value::Object(d) = non_null[0].clone() {
                    for (k, val) in d {
                        m.entry(k).or_insert(val);
                    }
                }
                // The inlined part may itself hold a `$ref`.
                compact(v, defs, depth + 1);
                return;
            }
        }
        // `type: [X, "null"]` → X.
        if let Some(Value::Array(types)) = m.get("type").cloned() {
            let non_null: Vec<Value> = types.into_iter().filter(|t| t != "null").collect();
            if non_null.len() == 1 {
                m.insert("type".into(), non_null[0].clone());
            }
        }
        // One-value enums documented per variant come out as `oneOf` of
        // consts: fold them into a plain `enum`.
        if let Some(Value::Array(one_of)) = m.get("oneOf").cloned()
            && one_of.iter().all(|s| s.get("const").is_some())
        {
            let values: Vec<Value> = one_of
                .iter()
                .filter_map(|s| s.get("const").cloned())
                .collect();
            m.remove("oneOf");
            m.insert("type".into(), json!("string"));
            m.insert("enum".into(), Value::Array(values));
        }
        let is_uint = m
            .get("format")
            .and_then(Value::as_str)
            .is_some_and(|f| f.starts_with("uint"));
        for k in [
            "title",
            "format",
            "default",
            "additionalProperties",
            "$schema",
        ] {
            m.remove(k);
        }
        if is_uint && m.get("minimum") == Some(&json!(0)) {
            m.remove("minimum");
        }
        for val in m.values_mut() {
            compact(val, defs, depth + 1);
        }
        // An array's item type is documented by the array's own description.
        if let Some(Value::Object(items)) = m.get_mut("items") {
            items.remove("description");
        }
    } else if let Value::Array(a) = v {
        for val in a {
            compact(val, defs, depth + 1);
        }
    }
}

/// The canonical name of a tool (`click` and `browser_click` both give
/// `browser_click`), or `None` for an unknown tool.
pub fn canonical(tool: &str) -> Option<&'static str> {
    let short = tool.rsplit("__").next().unwrap_or(tool);
    let short = short.strip_prefix("browser_").unwrap_or(short);
    TOOLS
        .iter()
        .map(|t| t.name)
        .find(|name| name.strip_prefix("browser_") == Some(short))
}

/// `name (type, required)` list of a tool's arguments, for error messages.
fn usage(tool: &str) -> String {
    let Some(info) = TOOLS.iter().find(|t| t.name == tool) else {
        return String::new();
    };
    let schema = (info.schema)();
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let Some(props) = schema.get("properties").and_then(Value::as_object) else {
        return format!("{tool} takes no arguments");
    };
    if props.is_empty() {
        return format!("{tool} takes no arguments");
    }
    let args: Vec<String> = props
        .iter()
        .map(|(k, v)| {
            let ty = match v.get("type") {
                Some(Value::String(t)) => t.clone(),
                Some(other) => other.to_string(),
                None => "value".into(),
            };
            if required.contains(&k.as_str()) {
                format!("{k} ({ty}, required)")
            } else {
                format!("{k} ({ty})")
            }
        })
        .collect();
    format!("{tool} takes: {}", args.join(", "))
}

fn from_args<T: DeserializeOwned>(tool: &str, args: &Map<String, Value>) -> Result<T, String> {
    serde_json::from_value::<T>(Value::Object(args.clone()))
        .map_err(|e| format!("{tool}: {e}. {}", usage(tool)))
}

fn expectation_at(value: Option<&Value>, path: &str) -> Result<Expectation, String> {
    match value {
        None | Some(Value::Null) => Ok(Expectation::default()),
        // A JSON string holding the object (some clients send that).
        Some(Value::String(s)) => match serde_json::from_str::<Value>(s) {
            Ok(v @ Value::Object(_)) => {
                Expectation::from_value_at(&v, path).map_err(|e| e.to_string())
            }
            _ => Err(not_an_object(
                path,
                &format!("the string {}", brief(&Value::from(s.as_str()))),
            )),
        },
        Some(v @ Value::Object(_)) => {
            Expectation::from_value_at(v, path).map_err(|e| e.to_string())
        }
        Some(other) => Err(not_an_object(path, &brief(other))),
    }
}

/// A value as JSON, cut to a few dozen characters for an error message.
fn brief(v: &Value) -> String {
    let s = v.to_string();
    match s.char_indices().nth(60) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s,
    }
}

fn not_an_object(path: &str, got: &str) -> String {
    format!(
        "invalid option `{path}`: expected an object such as {{\"includeSnapshot\": false, \"diffOptions\": {{\"enabled\": true}}}} (or that object as a JSON string), got {got}"
    )
}

/// Validates a call: a known tool, arguments of the right shape, a valid
/// expectation. `path` names the arguments in errors (`steps[2]`).
pub fn parse(tool: &str, args: Map<String, Value>) -> Result<Parsed, String> {
    parse_at(tool, args, "")
}

fn parse_at(tool: &str, args: Map<String, Value>, path: &str) -> Result<Parsed, String> {
    let name = canonical(tool).ok_or_else(|| {
        format!(
            "{path}unknown tool `{tool}`; use one of: {}",
            TOOLS.iter().map(|t| t.name).collect::<Vec<_>>().join(", ")
        )
    })?;
    let exp_path = if path.is_empty() {
        "expectation".to_owned()
    } else {
        format!("{path}arguments.expectation")
    };
    let expectation = expectation_at(args.get("expectation"), &exp_path)?;
    let info = TOOLS
        .iter()
        .find(|t| t.name == name)
        .expect("canonical names are in TOOLS");
    let call = (info.validate)(&Args {
        name,
        args: &args,
        path,
    })?;
    Ok(Parsed {
        tool: name,
        call,
        expectation,
    })
}

/// A call's arguments on their way to validation.
struct Args<'a> {
    name: &'static str,
    args: &'a Map<String, Value>,
    /// Where the call is (`steps[2].`), empty for a direct call.
    path: &'a str,
}

impl Args<'_> {
    /// The arguments as `T`; an error names the call's path.
    fn typed<T: DeserializeOwned>(&self) -> Result<T, String> {
        from_args(self.name, self.args).map_err(|e| self.at(&e))
    }

    /// `message` at the call's path.
    fn at(&self, message: &str) -> String {
        format!("{}{message}", self.path)
    }
}

/// One validator per tool, named after it (see `for_each_tool`): the
/// arguments' shape, then the checks a schema cannot say.
mod validate {
    use super::*;

    pub(super) fn browser_navigate(a: &Args) -> Result<Call, String> {
        let p: NavigateParams = a.typed()?;
        check_url(&p.url).map_err(|e| a.at(&e))?;
        Ok(Call::Navigate(p))
    }

    pub(super) fn browser_navigate_back(a: &Args) -> Result<Call, String> {
        a.typed::<ExpectationOnly>()?;
        Ok(Call::NavigateBack)
    }

    pub(super) fn browser_click(a: &Args) -> Result<Call, String> {
        Ok(Call::Click(a.typed()?))
    }

    pub(super) fn browser_type(a: &Args) -> Result<Call, String> {
        Ok(Call::Type(a.typed()?))
    }

    pub(super) fn browser_press_key(a: &Args) -> Result<Call, String> {
        let p: PressKeyParams = a.typed()?;
        if p.key.is_empty() {
            return Err(a.at(
                "browser_press_key: `key` is empty; send a key name such as Enter, Tab, ArrowDown or a",
            ));
        }
        Ok(Call::PressKey(p))
    }

    pub(super) fn browser_select_option(a: &Args) -> Result<Call, String> {
        Ok(Call::SelectOption(a.typed()?))
    }

    pub(super) fn browser_hover(a: &Args) -> Result<Call, String> {
        Ok(Call::Hover(a.typed()?))
    }

    pub(super) fn browser_handle_dialog(a: &Args) -> Result<Call, String> {
        Ok(Call::HandleDialog(a.typed()?))
    }

    pub(super) fn browser_file_upload(a: &Args) -> Result<Call, String> {
        let p: FileUploadParams = a.typed()?;
        let n = p.paths.as_ref().map_or(0, Vec::len);
        if n > crate::modal::MAX_UPLOAD_FILES {
            return Err(a.at(&format!(
                "browser_file_upload: {n} paths; at most {} files per call",
                crate::modal::MAX_UPLOAD_FILES
            )));
        }
        Ok(Call::FileUpload(p))
    }

    pub(super) fn browser_snapshot(a: &Args) -> Result<Call, String> {
        Ok(Call::Snapshot(a.typed()?))
    }

    pub(super) fn browser_take_screenshot(a: &Args) -> Result<Call, String> {
        Ok(Call::Screenshot(a.typed()?))
    }

    pub(super) fn browser_console_messages(a: &Args) -> Result<Call, String> {
        a.typed::<ExpectationOnly>()?;
        Ok(Call::ConsoleMessages)
    }

    pub(super) fn browser_tabs(a: &Args) -> Result<Call, String> {
        let p: TabsParams = a.typed()?;
        if p.action == TabAction::Select && p.index.is_none() {
            return Err(a.at("browser_tabs: action `select` needs `index` (see action `list`)"));
        }
        if let Some(u) = &p.url {
            check_url(u).map_err(|e| a.at(&e))?;
        }
        Ok(Call::Tabs(p))
    }

    pub(super) fn browser_evaluate(a: &Args) -> Result<Call, String> {
        Ok(Call::Evaluate(a.typed()?))
    }

    pub(super) fn browser_wait_for(a: &Args) -> Result<Call, String> {
        let p: WaitForParams = a.typed()?;
        if p.text.is_none() && p.text_gone.is_none() && p.time.is_none() {
            return Err(a.at("browser_wait_for: give `text`, `textGone` or `time` (seconds)"));
        }
        if let Some(t) = p.time
            && !(0.0..=300.0).contains(&t)
        {
            return Err(a.at("browser_wait_for: `time` must be between 0 and 300 seconds"));
        }
        Ok(Call::WaitFor(p))
    }

    pub(super) fn browser_close(a: &Args) -> Result<Call, String> {
        a.typed::<CloseParams>()?;
        Ok(Call::Close)
    }

    pub(super) fn browser_batch_execute(a: &Args) -> Result<Call, String> {
        if !a.path.is_empty() {
            return Err(a.at(
                "browser_batch_execute cannot run inside a batch; put its steps in this batch",
            ));
        }
        let p: BatchParams = from_args(a.name, a.args)?;
        Ok(Call::Batch(parse_batch(p)?))
    }

    pub(super) fn browser_get_dom_fingerprint(a: &Args) -> Result<Call, String> {
        let p: FingerprintParams = a.typed()?;
        check_fingerprint_options(p.scope.as_deref(), p.depth.as_deref()).map_err(|e| a.at(&e))?;
        if let Some(n) = &p.save_as {
            response_diff::fingerprint::validate_name(n)
                .map_err(|e| a.at(&format!("browser_get_dom_fingerprint: saveAs: {e}")))?;
        }
        Ok(Call::GetFingerprint(p))
    }

    pub(super) use super::interaction::validate::*;

    pub(super) fn browser_compare_dom_fingerprint(a: &Args) -> Result<Call, String> {
        let p: CompareParams = a.typed()?;
        check_fingerprint_options(p.scope.as_deref(), p.depth.as_deref()).map_err(|e| a.at(&e))?;
        if let Some(s) = &p.severity_threshold {
            parse_severity(s).map_err(|e| a.at(&e))?;
        }
        Ok(Call::CompareFingerprint(p))
    }
}

fn parse_batch(p: BatchParams) -> Result<Batch, String> {
    if p.steps.is_empty() {
        return Err(
            "browser_batch_execute: `steps` is empty; give at least one {tool, arguments}".into(),
        );
    }
    let global = expectation_at(p.global_expectation.as_ref(), "globalExpectation")?;
    let mut steps = Vec::with_capacity(p.steps.len());
    for (i, s) in p.steps.into_iter().enumerate() {
        let path = format!("steps[{i}].");
        let mut call = parse_at(&s.tool, s.arguments.unwrap_or_default(), &path)?;
        let step_exp = expectation_at(s.expectation.as_ref(), &format!("steps[{i}].expectation"))?;
        call.expectation.merge(&step_exp);
        steps.push(Step {
            call,
            continue_on_error: s.continue_on_error.unwrap_or(false),
        });
    }
    Ok(Batch {
        steps,
        stop_on_first_error: p.stop_on_first_error.unwrap_or(true),
        global,
    })
}

fn check_url(url: &str) -> Result<(), String> {
    let ok = url.split_once(':').is_some_and(|(scheme, _)| {
        !scheme.is_empty()
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    });
    if ok {
        Ok(())
    } else {
        Err(format!(
            "url `{url}` has no scheme; send a full URL such as http://127.0.0.1:8000/"
        ))
    }
}

fn check_fingerprint_options(scope: Option<&str>, depth: Option<&str>) -> Result<(), String> {
    if let Some(s) = scope {
        s.parse::<response_diff::fingerprint::Scope>()
            .map_err(|e| e.to_string())?;
    }
    if let Some(d) = depth {
        d.parse::<response_diff::fingerprint::Depth>()
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Parses a severity threshold (`info`, `warning`, `error`).
pub fn parse_severity(s: &str) -> Result<response_diff::fingerprint::Severity, String> {
    use response_diff::fingerprint::Severity;
    match s {
        "info" => Ok(Severity::Info),
        "warning" => Ok(Severity::Warning),
        "error" => Ok(Severity::Error),
        other => Err(format!(
            "invalid option `severityThreshold`: must be info, warning or error, not {other:?}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(v: Value) -> Map<String, Value> {
        match v {
            Value::Object(m) => m,
            _ => unreachable!(),
        }
    }

    #[test]
    fn names() {
        assert_eq!(canonical("click"), Some("browser_click"));
        assert_eq!(canonical("browser_click"), Some("browser_click"));
        assert_eq!(
            canonical("mcp__rd__browser_snapshot"),
            Some("browser_snapshot")
        );
        assert_eq!(canonical("drag"), Some("browser_drag"));
        assert_eq!(canonical("browser_fly"), None);
    }

    #[test]
    fn errors_say_what_to_send() {
        let e = parse("browser_navigate", args(json!({}))).unwrap_err();
        assert!(
            e.contains("missing field `url`") && e.contains("url (string, required)"),
            "{e}"
        );
        let e = parse("browser_navigate", args(json!({"url": "example"}))).unwrap_err();
        assert!(e.contains("has no scheme"), "{e}");
        let e = parse("browser_click", args(json!({"ref": "e1", "dbl": true}))).unwrap_err();
        assert!(e.contains("unknown field `dbl`"), "{e}");
        let e = parse(
            "browser_snapshot",
            args(json!({"expectation": {"diffOptions": {"threshold": 2}}})),
        )
        .unwrap_err();
        assert!(e.contains("expectation.diffOptions.threshold"), "{e}");
    }

    #[test]
    fn target_is_accepted_for_ref_as_playwright_names_it() {
        // @playwright/mcp 0.0.83 calls the element argument `target`.
        for (tool, a) in [
            ("browser_click", json!({"target": "e3"})),
            ("browser_type", json!({"target": "e3", "text": "x"})),
            (
                "browser_select_option",
                json!({"target": "e3", "values": ["a"]}),
            ),
            ("browser_hover", json!({"target": "e3"})),
            ("browser_take_screenshot", json!({"target": "e3"})),
            (
                "browser_evaluate",
                json!({"target": "e3", "function": "(e) => 1"}),
            ),
        ] {
            let p = parse(tool, args(a)).unwrap_or_else(|e| panic!("{tool}: {e}"));
            let r = match p.call {
                Call::Click(p) => Some(p.target),
                Call::Type(p) => Some(p.target),
                Call::SelectOption(p) => Some(p.target),
                Call::Hover(p) => Some(p.target),
                Call::Screenshot(p) => p.target,
                Call::Evaluate(p) => p.target,
                other => panic!("{other:?}"),
            };
            assert_eq!(r.as_deref(), Some("e3"), "{tool}");
        }
        let e = parse("browser_click", args(json!({"ref": "e1", "target": "e2"}))).unwrap_err();
        assert!(e.contains("duplicate field"), "{e}");
    }

    #[test]
    fn batch_is_validated_before_running() {
        let e = parse(
            "browser_batch_execute",
            args(json!({"steps": [
                {"tool": "browser_navigate", "arguments": {"url": "http://127.0.0.1:1/"}},
                {"tool": "browser_fly", "arguments": {}}
            ]})),
        )
        .unwrap_err();
        assert!(e.starts_with("steps[1].unknown tool `browser_fly`"), "{e}");
        let e = parse(
            "browser_batch_execute",
            args(json!({"steps": [{"tool": "click", "arguments": {}}]})),
        )
        .unwrap_err();
        assert!(
            e.starts_with("steps[0].browser_click: missing field `ref`"),
            "{e}"
        );
        let ok = parse(
            "browser_batch_execute",
            args(json!({
                "globalExpectation": "{\"includeConsole\": false}",
                "steps": [{"tool": "snapshot", "continueOnError": true,
                           "expectation": {"diffOptions": {"enabled": true}}}]
            })),
        )
        .unwrap();
        match ok.call {
            Call::Batch(b) => {
                assert!(b.stop_on_first_error);
                assert_eq!(b.global.include_console, Some(false));
                assert!(b.steps[0].continue_on_error);
                assert!(b.steps[0].call.expectation.diff_options.is_some());
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn schemas_are_compact_and_share_the_expectation() {
        for t in TOOLS {
            let s = serde_json::to_string(&*(t.schema)()).unwrap();
            assert!(
                !s.contains("$ref") && !s.contains("$defs") && !s.contains("null"),
                "{}: {s}",
                t.name
            );
            if !["browser_close", "browser_batch_execute"].contains(&t.name) {
                assert!(s.contains(&expectation_schema().to_string()), "{}", t.name);
            }
        }
    }
}
