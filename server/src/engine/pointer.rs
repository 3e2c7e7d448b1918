//! Pointer tools: `browser_drag`, `browser_drop`, the coordinate mouse of
//! `--caps vision` and `browser_resize`.
//!
//! A drag is real mouse input: press on the source, move in steps, release
//! on the target, so pointer-based sortables (which follow `mousemove` /
//! `pointermove` past a threshold) see what a hand would do. An HTML5 drag
//! (`draggable` and `dragstart`) is different: Chromium starts it in the
//! browser process and, headless, has no platform drag loop to run it. As
//! Playwright's Chromium backend does, drags are intercepted while the
//! button is down (`Input.setInterceptDrags`): when the page starts one,
//! Chromium hands its data over (`Input.dragIntercepted`) and the rest of
//! the gesture is sent as drag events (`Input.dispatchDragEvent`
//! dragEnter, dragOver, drop).
//!
//! A drop (`browser_drop`) comes from outside the page, where there is no
//! gesture to intercept: as Playwright does, the server reads the files
//! (the upload rules of `browser_file_upload` apply) and the page gets the
//! drag events with a `DataTransfer` holding them (`scripts::DROP`), so a
//! remote browser (`--cdp-endpoint`) gets the files too.

use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use base64::Engine as _;
use serde_json::{Value, json};

use super::element::{describe, label, point_of};
use super::scripts;
use super::state::{Acted, Engine, MouseState};
use crate::browser::Page;
use crate::codegen::{Arg, Code, Recv, Step};
use crate::error::{Error, lock};
use crate::tools::{
    self, DragParams, DropParams, MouseButtonParams, MouseClickParams, MouseDragParams,
    MouseMoveParams, MouseWheelParams, ResizeParams,
};

/// Mouse moves between press and release: enough for sortables that wait
/// for a few pixels of travel and follow the pointer.
const DRAG_STEPS: usize = 10;

/// Installed before the first move with the button down: records the
/// page's `dragstart`, whose `defaultPrevented` is read after it ran.
const WATCH_DRAGSTART: &str = "(() => { window.__rdDragStart = null; \
    addEventListener('dragstart', e => { window.__rdDragStart = e; }, { capture: true, once: true }); })()";
const DRAG_STARTED: &str =
    "(() => { const e = window.__rdDragStart; return !!e && !e.defaultPrevented; })()";

impl MouseState {
    /// The button a move reports: the first one held.
    fn moving_button(self) -> &'static str {
        ["left", "right", "middle"]
            .into_iter()
            .find(|b| self.held & buttons(b) != 0)
            .unwrap_or("none")
    }
}

impl Engine {
    pub(super) fn drag(&mut self, p: &DragParams) -> Result<Acted> {
        let tab = self.tab()?;
        let start = self.resolve_ref(&tab, &p.start_ref)?;
        let end = self.resolve_ref(&tab, &p.end_ref)?;
        let (sr, sn) = describe(&start.frame, start.backend);
        let (er, en) = describe(&end.frame, end.backend);
        let (from_loc, to_loc) = (
            self.locator(&start.frame, start.backend, &sr, &sn),
            self.locator(&end.frame, end.backend, &er, &en),
        );
        let from = point_of(&tab, &start, &p.start_ref, &sr, &sn)?;
        // The target's point is taken before the press: a sortable may move
        // the dragged element under it once the drag starts.
        let to = point_of(&tab, &end, &p.end_ref, &er, &en)?;
        let (_, mark) = self.mark(&tab);
        let html5 = drag_between(&tab, from, to)?;
        let settled = self.settle(&tab, mark);
        Ok(Acted {
            result: format!(
                "Dragged {} to {}{}{settled}",
                label(&sr, &sn, &p.start_ref),
                label(&er, &en, &p.end_ref),
                if html5 { " (HTML5 drag and drop)" } else { "" }
            ),
            code: Some(
                Step::new(
                    Recv::Locator(from_loc),
                    "dragTo",
                    vec![Arg::Locator(to_loc)],
                )
                .into(),
            ),
            snapshot: true,
            ..Acted::default()
        })
    }

    pub(super) fn drop_onto(&mut self, p: &DropParams) -> Result<Acted> {
        let tab = self.tab()?;
        let files = read_drop_files(p.paths.as_deref().unwrap_or_default(), self)?;
        let el = self.resolve_ref(&tab, &p.target)?;
        let (role, name) = describe(&el.frame, el.backend);
        let (x, y) = point_of(&tab, &el, &p.target, &role, &name)?;
        let data: Vec<(&String, &String)> = p.data.iter().flatten().collect();
        let (_, mark) = self.mark(&tab);
        let outcome = el.frame.call_on(
            &el.object,
            scripts::DROP,
            &[
                Value::Array(files.iter().map(|f| f.json.clone()).collect()),
                json!(data),
                json!(x),
                json!(y),
            ],
        )?;
        let target = label(&role, &name, &p.target);
        match outcome.as_str() {
            Some("accepted") => {}
            Some("not-accepted") => bail!(Error::User(format!(
                "{target} did not accept the drop: its dragover handler did not call preventDefault(); drop onto the element that takes files or data"
            ))),
            _ => bail!(Error::NotOnPage(p.target.clone())),
        }
        let settled = self.settle(&tab, mark);
        let mut what: Vec<String> = files.iter().map(|f| f.name.clone()).collect();
        what.extend(data.iter().map(|(t, _)| format!("{t} data")));
        let mut opts = Vec::new();
        if !files.is_empty() {
            opts.push((
                "files",
                match &files[..] {
                    [one] => Arg::Path(one.path.clone()),
                    _ => Arg::Paths(files.iter().map(|f| f.path.clone()).collect()),
                },
            ));
        }
        if !data.is_empty() {
            let pairs = data.iter().map(|(t, v)| ((*t).clone(), (*v).clone()));
            opts.push(("data", Arg::Map(pairs.collect())));
        }
        let at = Recv::Locator(self.locator(&el.frame, el.backend, &role, &name));
        Ok(Acted {
            result: format!("Dropped {} onto {target}{settled}", what.join(", ")),
            code: Some(
                Step::new(at, "drop", vec![])
                    .opts("Locator.DropOptions", opts)
                    .into(),
            ),
            snapshot: true,
            ..Acted::default()
        })
    }

    pub(super) fn mouse_move_xy(&mut self, p: &MouseMoveParams) -> Result<Acted> {
        let tab = self.tab()?;
        let (_, mark) = self.mark(&tab);
        let m = self.mouse;
        mouse(&tab, "mouseMoved", (p.x, p.y), m.moving_button(), 0, m.held)?;
        self.mouse.at = (p.x, p.y);
        let settled = self.settle(&tab, mark);
        Ok(Acted {
            result: format!("Moved the mouse to ({}, {}){settled}", p.x, p.y),
            code: Some(Step::new(Recv::Mouse, "move", vec![num(p.x), num(p.y)]).into()),
            snapshot: true,
            ..Acted::default()
        })
    }

    pub(super) fn mouse_click_xy(&mut self, p: &MouseClickParams) -> Result<Acted> {
        let tab = self.tab()?;
        let button = p.button.unwrap_or_default().as_str();
        let count = p.click_count.unwrap_or(1);
        let (_, mark) = self.mark(&tab);
        mouse(&tab, "mouseMoved", (p.x, p.y), "none", 0, 0)?;
        for clicks in 1..=count {
            mouse(
                &tab,
                "mousePressed",
                (p.x, p.y),
                button,
                clicks,
                buttons(button),
            )?;
            if let Some(d) = p.delay.filter(|d| *d > 0.0) {
                std::thread::sleep(Duration::from_secs_f64(d / 1000.0));
            }
            mouse(&tab, "mouseReleased", (p.x, p.y), button, clicks, 0)?;
        }
        self.mouse = MouseState {
            at: (p.x, p.y),
            held: 0,
        };
        let settled = self.settle(&tab, mark);
        let mut opts = Vec::new();
        if p.button.is_some_and(|b| b != tools::Button::Left) {
            opts.push(("button", Arg::Enum("MouseButton", button.to_owned())));
        }
        if count > 1 {
            opts.push(("clickCount", Arg::Num(count.to_string())));
        }
        if let Some(d) = p.delay.filter(|d| *d > 0.0) {
            opts.push(("delay", Arg::Num(d.to_string())));
        }
        Ok(Acted {
            result: format!("Clicked at ({}, {}){settled}", p.x, p.y),
            code: Some(
                Step::new(Recv::Mouse, "click", vec![num(p.x), num(p.y)])
                    .opts("Mouse.ClickOptions", opts)
                    .into(),
            ),
            snapshot: true,
            ..Acted::default()
        })
    }

    pub(super) fn mouse_drag_xy(&mut self, p: &MouseDragParams) -> Result<Acted> {
        let tab = self.tab()?;
        let (_, mark) = self.mark(&tab);
        let html5 = drag_between(&tab, (p.start_x, p.start_y), (p.end_x, p.end_y))?;
        self.mouse = MouseState {
            at: (p.end_x, p.end_y),
            held: 0,
        };
        let settled = self.settle(&tab, mark);
        Ok(Acted {
            result: format!(
                "Dragged from ({}, {}) to ({}, {}){}{settled}",
                p.start_x,
                p.start_y,
                p.end_x,
                p.end_y,
                if html5 { " (HTML5 drag and drop)" } else { "" }
            ),
            code: Some(Code(vec![
                Step::new(Recv::Mouse, "move", vec![num(p.start_x), num(p.start_y)]),
                Step::new(Recv::Mouse, "down", vec![]),
                Step::new(Recv::Mouse, "move", vec![num(p.end_x), num(p.end_y)]).opts(
                    "Mouse.MoveOptions",
                    vec![("steps", Arg::Num(DRAG_STEPS.to_string()))],
                ),
                Step::new(Recv::Mouse, "up", vec![]),
            ])),
            snapshot: true,
            ..Acted::default()
        })
    }

    pub(super) fn mouse_button(&mut self, p: &MouseButtonParams, down: bool) -> Result<Acted> {
        let tab = self.tab()?;
        let button = p.button.unwrap_or_default().as_str();
        let (_, mark) = self.mark(&tab);
        let held = if down {
            self.mouse.held | buttons(button)
        } else {
            self.mouse.held & !buttons(button)
        };
        let kind = if down {
            "mousePressed"
        } else {
            "mouseReleased"
        };
        mouse(&tab, kind, self.mouse.at, button, 1, held)?;
        self.mouse.held = held;
        let settled = self.settle(&tab, mark);
        let (x, y) = self.mouse.at;
        let opts = if button == "left" {
            Vec::new()
        } else {
            vec![("button", Arg::Enum("MouseButton", button.to_owned()))]
        };
        Ok(Acted {
            result: format!(
                "{} the {button} button at ({x}, {y}){settled}",
                if down { "Pressed" } else { "Released" }
            ),
            code: Some(
                if down {
                    Step::new(Recv::Mouse, "down", vec![]).opts("Mouse.DownOptions", opts)
                } else {
                    Step::new(Recv::Mouse, "up", vec![]).opts("Mouse.UpOptions", opts)
                }
                .into(),
            ),
            snapshot: true,
            ..Acted::default()
        })
    }

    pub(super) fn mouse_wheel(&mut self, p: &MouseWheelParams) -> Result<Acted> {
        let tab = self.tab()?;
        let (dx, dy) = (p.delta_x.unwrap_or(0.0), p.delta_y.unwrap_or(0.0));
        let (x, y) = self.mouse.at;
        let (_, mark) = self.mark(&tab);
        tab.call(
            "Input.dispatchMouseEvent",
            json!({ "type": "mouseWheel", "x": x, "y": y, "deltaX": dx, "deltaY": dy, "buttons": self.mouse.held }),
        )?;
        let settled = self.settle(&tab, mark);
        Ok(Acted {
            result: format!("Scrolled the mouse wheel by ({dx}, {dy}) at ({x}, {y}){settled}"),
            code: Some(Step::new(Recv::Mouse, "wheel", vec![num(dx), num(dy)]).into()),
            snapshot: true,
            ..Acted::default()
        })
    }

    pub(super) fn resize(&mut self, p: &ResizeParams) -> Result<Acted> {
        let tab = self.tab()?;
        let (w, h) = (p.width.round(), p.height.round());
        let (_, mark) = self.mark(&tab);
        // What Playwright's page.setViewportSize does in Chromium (an
        // emulated device keeps its scale and mobile mode).
        let e = &self.host.setup().emulation;
        tab.call(
            "Emulation.setDeviceMetricsOverride",
            json!({ "width": w, "height": h, "deviceScaleFactor": e.scale, "mobile": e.mobile }),
        )?;
        let settled = self.settle(&tab, mark);
        Ok(Acted {
            result: format!("Resized the viewport to {w}×{h}{settled}"),
            code: Some(
                Step::new(
                    Recv::Page,
                    "setViewportSize",
                    vec![Arg::Size(w as u32, h as u32)],
                )
                .into(),
            ),
            snapshot: true,
            ..Acted::default()
        })
    }
}

/// Most bytes of files one `browser_drop` reads (they travel base64 in one
/// CDP message).
pub const MAX_DROP_FILE_BYTES: u64 = 32 * 1024 * 1024;

/// A file read for a drop: its name and path for the messages, and the
/// page's `{name, type, lastModified, base64}`.
struct DropFile {
    name: String,
    path: String,
    json: Value,
}

fn read_drop_files(paths: &[String], engine: &Engine) -> Result<Vec<DropFile>> {
    if paths.is_empty() {
        return Ok(Vec::new());
    }
    let roots = crate::modal::upload_roots(&engine.config.browser.upload_roots)
        .map_err(|e| anyhow!(Error::User(e)))?;
    let mut total = 0u64;
    let mut out = Vec::with_capacity(paths.len());
    for path in paths {
        let file = crate::modal::check_upload(path, &roots)
            .map_err(|e| anyhow!(Error::User(format!("browser_drop: {e}"))))?;
        let meta = std::fs::metadata(&file).with_context(|| format!("reading {path}"))?;
        total += meta.len();
        if total > MAX_DROP_FILE_BYTES {
            bail!(Error::User(format!(
                "browser_drop: the files add up to more than {} MiB; drop fewer or smaller files",
                MAX_DROP_FILE_BYTES >> 20
            )));
        }
        let bytes = std::fs::read(&file).with_context(|| format!("reading {path}"))?;
        let name = file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let modified = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0.0, |d| d.as_millis() as f64);
        out.push(DropFile {
            json: json!({
                "name": name,
                "type": mime_guess::from_path(&file).first_or_octet_stream().essence_str(),
                "lastModified": modified,
                "base64": base64::engine::general_purpose::STANDARD.encode(&bytes),
            }),
            name,
            path: path.clone(),
        });
    }
    Ok(out)
}

/// A coordinate or distance as the code prints it.
fn num(v: f64) -> Arg {
    Arg::Num(v.to_string())
}

fn buttons(button: &str) -> u32 {
    match button {
        "left" => 1,
        "right" => 2,
        "middle" => 4,
        _ => 0,
    }
}

fn mouse(
    tab: &Page,
    kind: &str,
    (x, y): (f64, f64),
    button: &str,
    clicks: u32,
    held: u32,
) -> Result<()> {
    tab.call(
        "Input.dispatchMouseEvent",
        json!({ "type": kind, "x": x, "y": y, "button": button, "clickCount": clicks, "buttons": held }),
    )?;
    Ok(())
}

fn drag_event(tab: &Page, kind: &str, (x, y): (f64, f64), data: &Value) -> Result<()> {
    tab.call(
        "Input.dispatchDragEvent",
        json!({ "type": kind, "x": x, "y": y, "data": data }),
    )?;
    Ok(())
}

/// The points of the gesture after the press: a first short move (past
/// the drag threshold of browsers and sortables), then even steps to `to`.
fn path(from: (f64, f64), to: (f64, f64)) -> Vec<(f64, f64)> {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let len = (dx * dx + dy * dy).sqrt();
    let mut points = Vec::with_capacity(DRAG_STEPS + 1);
    if len > 10.0 {
        points.push((from.0 + dx * 8.0 / len, from.1 + dy * 8.0 / len));
    }
    for i in 1..=DRAG_STEPS {
        let t = i as f64 / DRAG_STEPS as f64;
        points.push((from.0 + dx * t, from.1 + dy * t));
    }
    points
}

/// Presses at `from`, moves to `to` and releases there, as an HTML5 drag
/// when the page starts one. Returns whether it was one.
fn drag_between(tab: &Page, from: (f64, f64), to: (f64, f64)) -> Result<bool> {
    mouse(tab, "mouseMoved", from, "none", 0, 0)?;
    mouse(tab, "mousePressed", from, "left", 1, 1)?;
    let _ = tab.evaluate(WATCH_DRAGSTART, false, Duration::from_secs(2));
    lock(&tab.events).drag_data = None;
    tab.call("Input.setInterceptDrags", json!({ "enabled": true }))?;
    let result = move_and_drop(tab, from, to);
    let _ = tab.call("Input.setInterceptDrags", json!({ "enabled": false }));
    if result.is_err() {
        // Never leave the button down.
        let _ = mouse(tab, "mouseReleased", to, "left", 1, 0);
    }
    result
}

fn move_and_drop(tab: &Page, from: (f64, f64), to: (f64, f64)) -> Result<bool> {
    let mut data: Option<Value> = None;
    for point in path(from, to) {
        if let Some(d) = &data {
            drag_event(tab, "dragOver", point, d)?;
            continue;
        }
        mouse(tab, "mouseMoved", point, "left", 0, 1)?;
        let started = tab
            .evaluate(DRAG_STARTED, false, Duration::from_secs(2))
            .ok()
            .and_then(|v| v.as_bool())
            .unwrap_or(false);
        if started {
            let d = intercepted(tab)?;
            drag_event(tab, "dragEnter", point, &d)?;
            data = Some(d);
        }
    }
    match data {
        Some(d) => {
            drag_event(tab, "dragOver", to, &d)?;
            // The drop ends the gesture (the page gets drop and dragend); a
            // mouseup after it would be a stray event (Playwright sends none).
            drag_event(tab, "drop", to, &d)?;
            Ok(true)
        }
        None => {
            mouse(tab, "mouseReleased", to, "left", 1, 0)?;
            Ok(false)
        }
    }
}

/// The drag data Chromium hands over once the page started a drag.
fn intercepted(tab: &Page) -> Result<Value> {
    let deadline = Instant::now() + Duration::from_secs(2);
    loop {
        if let Some(d) = lock(&tab.events).drag_data.take() {
            return Ok(d);
        }
        if Instant::now() > deadline {
            bail!(Error::User(
                "the page started a drag, but the browser handed over no drag data; take a snapshot and try again".into()
            ));
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}
