//! The parameters of the first tools (Playwright MCP's names and shapes),
//! as serde structs whose JSON schemas the catalog shows.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value};

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
    /// The whole page, not what changed since your last view.
    #[serde(default)]
    pub full: Option<bool>,
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
