//! A validated tool call: what the engine runs.

use response_diff::expectation::Expectation;

use super::extra::{DropParams, EmulateMediaParams, FindParams, NetworkRequestParams};
use super::interaction::{
    DragParams, FillFormParams, MouseButtonParams, MouseClickParams, MouseDragParams,
    MouseMoveParams, MouseWheelParams, NetworkParams, PdfParams, ResizeParams, StorageStateParams,
};
use super::params::{
    ClickParams, CompareParams, EvaluateParams, FileUploadParams, FingerprintParams,
    HandleDialogParams, HoverParams, NavigateParams, PressKeyParams, ScreenshotParams,
    SelectParams, SnapshotParams, TabsParams, TypeParams, WaitForParams,
};

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
    /// browser_network_request
    NetworkRequest(NetworkRequestParams),
    /// browser_find
    Find(FindParams),
    /// browser_emulate_media
    EmulateMedia(EmulateMediaParams),
    /// browser_drop
    Drop(DropParams),
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
    /// The arguments as sent (for the session log, `--save-session`).
    pub args: serde_json::Map<String, serde_json::Value>,
}
