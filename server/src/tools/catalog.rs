//! The tool catalog: every tool's name, parameters and description, in
//! catalog order (`for_each_tool`, the one list the MCP tools and
//! `TOOLS` are made from).

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
    pub const SNAPSHOT: &str = "Accessibility snapshot of the page, with refs for actions; full=true for the whole page. Responses show changes against your last view: a patch by ref (- gone, ~ changed, + inserted, [eN] as last shown; [eN/2] is eN's 2nd child) or a diff.";
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
    pub use crate::tools::extra::desc::*;
    pub use crate::tools::interaction::desc::*;
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
            browser_network_request => NetworkRequestParams, NETWORK_REQUEST;
            browser_find => FindParams, FIND;
            browser_emulate_media => EmulateMediaParams, EMULATE_MEDIA;
            browser_drop => DropParams, DROP;
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
