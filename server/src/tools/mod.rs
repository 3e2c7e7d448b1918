//! Tool parameters, their compact JSON schemas, and validation of a call
//! (tool name + JSON arguments) into a typed [`Call`].
//!
//! The same parsing serves the MCP tools and every step of
//! `browser_batch_execute`, so a batch is fully validated before any step
//! runs. Error messages say what to send instead.
//!
//! By concern: `params` (the parameters of the first tools; those added
//! with issue 25 are in `interaction`), `catalog` (names, descriptions,
//! `for_each_tool`), `schema` (the compact JSON schemas), `parse` (a call's
//! validation, one validator per tool), and here the validated call.

use response_diff::expectation::Expectation;

mod catalog;
mod interaction;
mod params;
mod parse;
mod schema;

pub(crate) use catalog::for_each_tool;
pub use catalog::{TOOLS, ToolInfo, canonical, desc};
pub use interaction::*;
pub use params::*;
pub use parse::{parse, parse_severity};
pub use schema::{EXPECTATION_KEYS, expectation_schema, input_schema};

use catalog::*;
use parse::*;

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

#[cfg(test)]
mod tests;
