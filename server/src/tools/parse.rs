//! Validation of a call (tool name + JSON arguments) into a typed
//! [`Parsed`]: the arguments' shape, then the checks a schema cannot say,
//! for the MCP tools and every step of `browser_batch_execute` alike.
//! Error messages say what to send instead.
//!
//! The catalog's entries ([`ToolInfo`], [`TOOLS`]: name, description,
//! schema and validator) are here with the validators, one per tool: a
//! batch's validator parses each step as a call, through `TOOLS`, so the
//! two recurse and stay in one file.

use std::sync::Arc;

use response_diff::expectation::Expectation;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::call::{Batch, Call, Parsed, Step};
use super::catalog::{desc, for_each_tool};
use super::errors::{brief, not_an_object};
// The catalog's macro (`for_each_tool`) names every parameter type.
use super::extra::*;
use super::interaction::*;
use super::params::*;
use super::schema::input_schema;

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

/// Validates a call: a known tool, arguments of the right shape, a valid
/// expectation. `path` names the arguments in errors (`steps[2]`).
pub fn parse(tool: &str, args: Map<String, Value>) -> Result<Parsed, String> {
    parse_at(tool, args, "")
}

fn parse_at(tool: &str, args: Map<String, Value>, path: &str) -> Result<Parsed, String> {
    if let Some(why) = refusal(tool) {
        return Err(format!("{path}{why}"));
    }
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
        args,
    })
}

/// A call's arguments on their way to validation.
pub(super) struct Args<'a> {
    pub(super) name: &'static str,
    pub(super) args: &'a Map<String, Value>,
    /// Where the call is (`steps[2].`), empty for a direct call.
    pub(super) path: &'a str,
}

impl Args<'_> {
    /// The arguments as `T`; an error names the call's path.
    pub(super) fn typed<T: DeserializeOwned>(&self) -> Result<T, String> {
        from_args(self.name, self.args).map_err(|e| self.at(&e))
    }

    /// `message` at the call's path.
    pub(super) fn at(&self, message: &str) -> String {
        format!("{}{message}", self.path)
    }
}

/// One validator per tool, named after it (see `for_each_tool`): the
/// arguments' shape, then the checks a schema cannot say.
pub(super) mod validate {
    use super::*;

    pub(in crate::tools) fn browser_navigate(a: &Args) -> Result<Call, String> {
        let p: NavigateParams = a.typed()?;
        check_url(&p.url).map_err(|e| a.at(&e))?;
        Ok(Call::Navigate(p))
    }

    pub(in crate::tools) fn browser_navigate_back(a: &Args) -> Result<Call, String> {
        a.typed::<ExpectationOnly>()?;
        Ok(Call::NavigateBack)
    }

    pub(in crate::tools) fn browser_click(a: &Args) -> Result<Call, String> {
        Ok(Call::Click(a.typed()?))
    }

    pub(in crate::tools) fn browser_type(a: &Args) -> Result<Call, String> {
        Ok(Call::Type(a.typed()?))
    }

    pub(in crate::tools) fn browser_press_key(a: &Args) -> Result<Call, String> {
        let p: PressKeyParams = a.typed()?;
        if p.key.is_empty() {
            return Err(a.at(
                "browser_press_key: `key` is empty; send a key name such as Enter, Tab, ArrowDown or a",
            ));
        }
        Ok(Call::PressKey(p))
    }

    pub(in crate::tools) fn browser_select_option(a: &Args) -> Result<Call, String> {
        Ok(Call::SelectOption(a.typed()?))
    }

    pub(in crate::tools) fn browser_hover(a: &Args) -> Result<Call, String> {
        Ok(Call::Hover(a.typed()?))
    }

    pub(in crate::tools) fn browser_handle_dialog(a: &Args) -> Result<Call, String> {
        Ok(Call::HandleDialog(a.typed()?))
    }

    pub(in crate::tools) fn browser_file_upload(a: &Args) -> Result<Call, String> {
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

    pub(in crate::tools) fn browser_snapshot(a: &Args) -> Result<Call, String> {
        Ok(Call::Snapshot(a.typed()?))
    }

    pub(in crate::tools) fn browser_take_screenshot(a: &Args) -> Result<Call, String> {
        Ok(Call::Screenshot(a.typed()?))
    }

    pub(in crate::tools) fn browser_console_messages(a: &Args) -> Result<Call, String> {
        a.typed::<ExpectationOnly>()?;
        Ok(Call::ConsoleMessages)
    }

    pub(in crate::tools) fn browser_tabs(a: &Args) -> Result<Call, String> {
        let p: TabsParams = a.typed()?;
        if p.action == TabAction::Select && p.index.is_none() {
            return Err(a.at("browser_tabs: action `select` needs `index` (see action `list`)"));
        }
        if let Some(u) = &p.url {
            check_url(u).map_err(|e| a.at(&e))?;
        }
        Ok(Call::Tabs(p))
    }

    pub(in crate::tools) fn browser_evaluate(a: &Args) -> Result<Call, String> {
        Ok(Call::Evaluate(a.typed()?))
    }

    pub(in crate::tools) fn browser_wait_for(a: &Args) -> Result<Call, String> {
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

    pub(in crate::tools) fn browser_close(a: &Args) -> Result<Call, String> {
        a.typed::<CloseParams>()?;
        Ok(Call::Close)
    }

    pub(in crate::tools) fn browser_batch_execute(a: &Args) -> Result<Call, String> {
        if !a.path.is_empty() {
            return Err(a.at(
                "browser_batch_execute cannot run inside a batch; put its steps in this batch",
            ));
        }
        let p: BatchParams = from_args(a.name, a.args)?;
        Ok(Call::Batch(parse_batch(p)?))
    }

    pub(in crate::tools) fn browser_get_dom_fingerprint(a: &Args) -> Result<Call, String> {
        let p: FingerprintParams = a.typed()?;
        check_fingerprint_options(p.scope.as_deref(), p.depth.as_deref()).map_err(|e| a.at(&e))?;
        if let Some(n) = &p.save_as {
            response_diff::fingerprint::validate_name(n)
                .map_err(|e| a.at(&format!("browser_get_dom_fingerprint: saveAs: {e}")))?;
        }
        Ok(Call::GetFingerprint(p))
    }

    pub(in crate::tools) use super::validate_interaction::*;

    pub(in crate::tools) fn browser_compare_dom_fingerprint(a: &Args) -> Result<Call, String> {
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

/// A tool's catalog entry.
pub struct ToolInfo {
    /// Name.
    pub name: &'static str,
    /// Description.
    pub description: &'static str,
    /// Input schema.
    pub schema: fn() -> Arc<Map<String, Value>>,
    /// Validates the arguments into a call.
    pub(super) validate: fn(&Args) -> Result<Call, String>,
}

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

/// The answer to a tool of @playwright/mcp this server refuses
/// ([`REFUSED_TOOLS`]), by full or short name.
pub fn refusal(tool: &str) -> Option<&'static str> {
    let short = tool.rsplit("__").next().unwrap_or(tool);
    let short = short.strip_prefix("browser_").unwrap_or(short);
    REFUSED_TOOLS
        .iter()
        .find(|(name, _)| name.strip_prefix("browser_") == Some(short))
        .map(|(_, why)| *why)
}

/// `name (type, required)` list of a tool's arguments, for error messages.
pub(super) fn usage(tool: &str) -> String {
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

/// Their validators, named after the tools (see `for_each_tool`).
mod validate_interaction {
    use super::*;

    pub(in crate::tools) fn browser_network_requests(a: &Args) -> Result<Call, String> {
        let p: NetworkParams = a.typed()?;
        if let Some(f) = &p.filter {
            url_filter(f).map_err(|e| a.at(&e))?;
        }
        if let Some(f) = &p.filename {
            check_file_name(f).map_err(|e| a.at(&e))?;
        }
        Ok(Call::NetworkRequests(p))
    }

    pub(in crate::tools) fn browser_network_request(a: &Args) -> Result<Call, String> {
        let p: NetworkRequestParams = a.typed()?;
        if p.index == 0 {
            return Err(a.at(
                "browser_network_request: `index` starts at 1 (the numbers browser_network_requests prints)",
            ));
        }
        if let Some(f) = &p.filename {
            check_file_name(f).map_err(|e| a.at(&e))?;
        }
        Ok(Call::NetworkRequest(p))
    }

    pub(in crate::tools) fn browser_find(a: &Args) -> Result<Call, String> {
        let p: FindParams = a.typed()?;
        check_find(&p).map_err(|e| a.at(&e))?;
        if let Some(f) = &p.filename {
            check_file_name(f).map_err(|e| a.at(&e))?;
        }
        Ok(Call::Find(p))
    }

    pub(in crate::tools) fn browser_emulate_media(a: &Args) -> Result<Call, String> {
        let p: EmulateMediaParams = a.typed()?;
        check_emulate(&p).map_err(|e| a.at(&e))?;
        Ok(Call::EmulateMedia(p))
    }

    pub(in crate::tools) fn browser_drop(a: &Args) -> Result<Call, String> {
        let p: DropParams = a.typed()?;
        check_drop(&p).map_err(|e| a.at(&e))?;
        Ok(Call::Drop(p))
    }

    pub(in crate::tools) fn browser_fill_form(a: &Args) -> Result<Call, String> {
        let p: FillFormParams = a.typed()?;
        check_form(&p).map_err(|e| a.at(&e))?;
        Ok(Call::FillForm(p))
    }

    pub(in crate::tools) fn browser_drag(a: &Args) -> Result<Call, String> {
        Ok(Call::Drag(a.typed()?))
    }

    pub(in crate::tools) fn browser_resize(a: &Args) -> Result<Call, String> {
        let p: ResizeParams = a.typed()?;
        for (name, v) in [("width", p.width), ("height", p.height)] {
            if !(MIN_VIEWPORT..=MAX_VIEWPORT).contains(&v) {
                return Err(a.at(&format!(
                    "browser_resize: `{name}` must be {MIN_VIEWPORT} to {MAX_VIEWPORT} CSS pixels, not {v}"
                )));
            }
        }
        Ok(Call::Resize(p))
    }

    pub(in crate::tools) fn browser_mouse_move_xy(a: &Args) -> Result<Call, String> {
        let p: MouseMoveParams = a.typed()?;
        check_point(&[p.x, p.y]).map_err(|e| a.at(&e))?;
        Ok(Call::MouseMove(p))
    }

    pub(in crate::tools) fn browser_mouse_click_xy(a: &Args) -> Result<Call, String> {
        let p: MouseClickParams = a.typed()?;
        check_point(&[p.x, p.y]).map_err(|e| a.at(&e))?;
        if p.click_count.is_some_and(|c| !(1..=3).contains(&c)) {
            return Err(a.at("browser_mouse_click_xy: `clickCount` must be 1, 2 or 3"));
        }
        if p.delay.is_some_and(|d| !(0.0..=10_000.0).contains(&d)) {
            return Err(a.at("browser_mouse_click_xy: `delay` must be 0 to 10000 ms"));
        }
        Ok(Call::MouseClick(p))
    }

    pub(in crate::tools) fn browser_mouse_drag_xy(a: &Args) -> Result<Call, String> {
        let p: MouseDragParams = a.typed()?;
        check_point(&[p.start_x, p.start_y, p.end_x, p.end_y]).map_err(|e| a.at(&e))?;
        Ok(Call::MouseDrag(p))
    }

    pub(in crate::tools) fn browser_mouse_down(a: &Args) -> Result<Call, String> {
        Ok(Call::MouseDown(a.typed()?))
    }

    pub(in crate::tools) fn browser_mouse_up(a: &Args) -> Result<Call, String> {
        Ok(Call::MouseUp(a.typed()?))
    }

    pub(in crate::tools) fn browser_mouse_wheel(a: &Args) -> Result<Call, String> {
        let p: MouseWheelParams = a.typed()?;
        check_point(&[p.delta_x.unwrap_or(0.0), p.delta_y.unwrap_or(0.0)]).map_err(|e| a.at(&e))?;
        Ok(Call::MouseWheel(p))
    }

    pub(in crate::tools) fn browser_pdf_save(a: &Args) -> Result<Call, String> {
        let p: PdfParams = a.typed()?;
        if let Some(f) = &p.filename {
            check_file_name(f).map_err(|e| a.at(&e))?;
        }
        Ok(Call::PdfSave(p))
    }

    pub(in crate::tools) fn browser_storage_state(a: &Args) -> Result<Call, String> {
        let p: StorageStateParams = a.typed()?;
        if let Some(f) = &p.filename {
            check_file_name(f).map_err(|e| a.at(&e))?;
        }
        Ok(Call::StorageState(p))
    }
}
