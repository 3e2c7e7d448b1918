//! The actions: one arm per tool in [`Engine::act`], and the waits an
//! action needs (navigation, load, settling).

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use anyhow::{Result, anyhow, bail};
use base64::Engine as _;
use response_diff::fingerprint::Severity;
use response_diff::response::{Image, truncate_lines};
use serde_json::{Value, json};

use super::capture::capture_fingerprint;
use super::element::{describe, label, point_of};
use super::page::page_info;
use super::scripts::{self, FOCUS_AND_SELECT, SELECT_OPTIONS, js_str};
use super::state::{Acted, Engine};
use crate::activity::Mark;
use crate::ax::{AxSnapshot, parse_ref};
use crate::browser::Page;
use crate::codegen::{Arg, Code, Recv, Step};
use crate::error::Error;
use crate::frames::{self, Resolved};
use crate::refs::Lookup;
use crate::settle;
use crate::tools::{self, Call, TabAction};

impl Engine {
    pub(super) fn act(&mut self, call: &Call) -> Result<Acted> {
        let timeout = self.timeout();
        match call {
            Call::Navigate(p) => {
                let tab = self.tab()?;
                self.navigate(&tab, &p.url)?;
                Ok(Acted {
                    result: format!("Navigated to {}", p.url),
                    code: Some(Step::new(Recv::Page, "goto", vec![Arg::Str(p.url.clone())]).into()),
                    snapshot: true,
                    ..Acted::default()
                })
            }
            Call::NavigateBack => {
                let tab = self.tab()?;
                let h = tab.call("Page.getNavigationHistory", json!({}))?;
                let current = h.get("currentIndex").and_then(Value::as_u64).unwrap_or(0) as usize;
                let entries = h
                    .get("entries")
                    .and_then(Value::as_array)
                    .cloned()
                    .unwrap_or_default();
                if current == 0 || entries.len() <= current {
                    bail!(Error::User(
                        "there is no previous page in this tab's history".into()
                    ));
                }
                let entry = &entries[current - 1];
                let (_, mark) = self.mark(&tab);
                tab.call(
                    "Page.navigateToHistoryEntry",
                    json!({ "entryId": entry["id"] }),
                )?;
                // An entry of the same document (pushState, a fragment)
                // is back at once; another document loads.
                let nav_timeout = self.navigation_timeout();
                let settled = settle::settle(&tab, mark, nav_timeout, true);
                if settled.still.is_some() {
                    let _ = tab.call("Page.stopLoading", json!({}));
                    bail!(Error::User(format!(
                        "going back did not finish loading in {} (--timeout-navigation); take a snapshot to see what loaded",
                        shown(nav_timeout)
                    )));
                }
                Ok(Acted {
                    result: "Went back".into(),
                    code: Some(Step::new(Recv::Page, "goBack", vec![]).into()),
                    snapshot: true,
                    ..Acted::default()
                })
            }
            Call::Click(p) => {
                let tab = self.tab()?;
                let el = self.resolve_ref(&tab, &p.target)?;
                let (role, name) = describe(&el.frame, el.backend);
                let loc = self.locator(&el.frame, el.backend, &role, &name);
                let (x, y) = point_of(&tab, &el, &p.target, &role, &name)?;
                let button = p.button.unwrap_or_default().as_str();
                let double = p.double_click.unwrap_or(false);
                let (_, mark) = self.mark(&tab);
                tab.mouse("mouseMoved", x, y, "none", 0)?;
                for clicks in 1..=(if double { 2 } else { 1 }) {
                    tab.mouse("mousePressed", x, y, button, clicks)?;
                    tab.mouse("mouseReleased", x, y, button, clicks)?;
                }
                let settled = self.settle(&tab, mark);
                let verb = if double { "Double-clicked" } else { "Clicked" };
                let method = if double { "dblclick" } else { "click" };
                let opts = if p.button.is_some_and(|b| b != tools::Button::Left) {
                    vec![("button", Arg::Enum("MouseButton", button.to_owned()))]
                } else {
                    Vec::new()
                };
                Ok(Acted {
                    result: format!("{verb} {}{settled}", label(&role, &name, &p.target)),
                    code: Some(
                        Step::new(Recv::Locator(loc), method, vec![])
                            .opts("Locator.ClickOptions", opts)
                            .into(),
                    ),
                    snapshot: true,
                    ..Acted::default()
                })
            }
            Call::Type(p) => {
                let tab = self.tab()?;
                let el = self.resolve_ref(&tab, &p.target)?;
                let (role, name) = describe(&el.frame, el.backend);
                let loc = self.locator(&el.frame, el.backend, &role, &name);
                let (_, mark) = self.mark(&tab);
                let focused = el.frame.call_on(&el.object, FOCUS_AND_SELECT, &[])?;
                if focused != Value::Bool(true) {
                    bail!(Error::User(format!(
                        "{} cannot take text; type into a textbox, searchbox or editable element",
                        label(&role, &name, &p.target)
                    )));
                }
                // A secret is typed by its name; a password field's text is
                // shown masked (crate::secrets).
                let typed = super::form::Typed::of(&el.frame, &el.object, &p.text);
                if typed.value.is_empty() {
                    tab.press_key("Backspace")?;
                } else {
                    tab.call("Input.insertText", json!({ "text": typed.value }))?;
                }
                let mut result = format!(
                    "Typed {} into {}",
                    typed.shown,
                    label(&role, &name, &p.target)
                );
                let mut code = vec![Step::new(
                    Recv::Locator(loc.clone()),
                    "fill",
                    vec![typed.arg],
                )];
                if p.submit.unwrap_or(false) {
                    tab.press_key("Enter")?;
                    result.push_str(" and pressed Enter");
                    code.push(Step::new(
                        Recv::Locator(loc),
                        "press",
                        vec![Arg::Str("Enter".into())],
                    ));
                }
                result.push_str(&self.settle(&tab, mark));
                Ok(Acted {
                    result,
                    code: Some(Code(code)),
                    snapshot: true,
                    ..Acted::default()
                })
            }
            Call::PressKey(p) => {
                let tab = self.tab()?;
                let (_, mark) = self.mark(&tab);
                tab.press_key(&p.key)?;
                let settled = self.settle(&tab, mark);
                Ok(Acted {
                    result: format!("Pressed {}{settled}", p.key),
                    code: Some(
                        Step::new(Recv::Keyboard, "press", vec![Arg::Str(p.key.clone())]).into(),
                    ),
                    snapshot: true,
                    ..Acted::default()
                })
            }
            Call::SelectOption(p) => {
                let tab = self.tab()?;
                let el = self.resolve_ref(&tab, &p.target)?;
                let (role, name) = describe(&el.frame, el.backend);
                let loc = self.locator(&el.frame, el.backend, &role, &name);
                let (_, mark) = self.mark(&tab);
                let r = el
                    .frame
                    .call_on(&el.object, SELECT_OPTIONS, &[json!(p.values)])?;
                if let Some(err) = r.get("error").and_then(Value::as_str) {
                    bail!(Error::User(format!(
                        "{}: {err}",
                        label(&role, &name, &p.target)
                    )));
                }
                let settled = self.settle(&tab, mark);
                let picked = r.get("selected").cloned().unwrap_or(Value::Null);
                Ok(Acted {
                    result: format!(
                        "Selected {picked} in {}{settled}",
                        label(&role, &name, &p.target)
                    ),
                    code: Some(
                        Step::new(
                            Recv::Locator(loc),
                            "selectOption",
                            vec![Arg::Strs(p.values.clone())],
                        )
                        .into(),
                    ),
                    snapshot: true,
                    ..Acted::default()
                })
            }
            Call::Hover(p) => {
                let tab = self.tab()?;
                let el = self.resolve_ref(&tab, &p.target)?;
                let (role, name) = describe(&el.frame, el.backend);
                let loc = self.locator(&el.frame, el.backend, &role, &name);
                let (x, y) = point_of(&tab, &el, &p.target, &role, &name)?;
                let (_, mark) = self.mark(&tab);
                tab.mouse("mouseMoved", x, y, "none", 0)?;
                let settled = self.settle(&tab, mark);
                Ok(Acted {
                    result: format!("Hovered over {}{settled}", label(&role, &name, &p.target)),
                    code: Some(Step::new(Recv::Locator(loc), "hover", vec![]).into()),
                    snapshot: true,
                    ..Acted::default()
                })
            }
            Call::HandleDialog(p) => self.handle_dialog(p),
            Call::FileUpload(p) => self.file_upload(p),
            Call::Snapshot(p) => {
                self.sync();
                Ok(Acted {
                    snapshot: true,
                    since: p.since,
                    ..Acted::default()
                })
            }
            Call::Screenshot(p) => {
                let tab = self.tab()?;
                let target = match p.target.as_deref() {
                    Some(r) => Some((r, self.resolve_ref(&tab, r)?)),
                    None => None,
                };
                let (image, what) = screenshot(&tab, p.full_page.unwrap_or(false), target)?;
                Ok(Acted {
                    result: format!("Took a screenshot of {what}"),
                    code: Some(
                        match &p.target {
                            Some(_) => Step::new(Recv::Element, "screenshot", vec![]),
                            None if p.full_page.unwrap_or(false) => {
                                Step::new(Recv::Page, "screenshot", vec![]).opts(
                                    "Page.ScreenshotOptions",
                                    vec![("fullPage", Arg::Bool(true))],
                                )
                            }
                            None => Step::new(Recv::Page, "screenshot", vec![]),
                        }
                        .into(),
                    ),
                    images: vec![image],
                    snapshot: true,
                    ..Acted::default()
                })
            }
            Call::ConsoleMessages => {
                self.sync();
                Ok(Acted {
                    result: "Console messages of the current page (since it loaded).".into(),
                    all_console: true,
                    snapshot: true,
                    ..Acted::default()
                })
            }
            Call::Tabs(p) => self.tabs(p),
            Call::Evaluate(p) => {
                let tab = self.tab()?;
                let value = match &p.target {
                    Some(r) => {
                        let el = self.resolve_ref(&tab, r)?;
                        let f = scripts::on_element(&p.function);
                        // The element is both `this` and the argument.
                        el.frame.call_function(
                            &el.object,
                            &f,
                            vec![json!({ "objectId": el.object })],
                            timeout,
                        )
                    }
                    None => {
                        let expr = scripts::on_page(&p.function);
                        tab.evaluate(&expr, true, timeout)
                    }
                }
                .map_err(|e| {
                    if matches!(Error::of(&e), Some(Error::ScriptTimeout(_))) {
                        anyhow!(Error::User(format!(
                            "the function did not finish within {} (--timeout-action) and was stopped; the page is usable again, take a snapshot to see its state",
                            shown(timeout)
                        )))
                    } else {
                        e
                    }
                })?;
                self.sync();
                let mut text = serde_json::to_string_pretty(&value).unwrap_or_default();
                const MAX: usize = 20_000;
                if text.len() > MAX {
                    let (kept, marker) = truncate_lines(&text, MAX);
                    text = format!("{kept}{}", marker.unwrap_or_default());
                }
                Ok(Acted {
                    result: text,
                    code: Some(
                        Step::new(Recv::Page, "evaluate", vec![Arg::Str(p.function.clone())])
                            .into(),
                    ),
                    snapshot: true,
                    ..Acted::default()
                })
            }
            Call::WaitFor(p) => {
                let tab = self.tab()?;
                let mut done = Vec::new();
                if let Some(t) = p.time {
                    std::thread::sleep(Duration::from_secs_f64(t));
                    done.push(format!("waited {t} s"));
                }
                if let Some(text) = &p.text {
                    wait_text(&tab, text, true, timeout)?;
                    done.push(format!("text {} appeared", js_str(text)));
                }
                if let Some(text) = &p.text_gone {
                    wait_text(&tab, text, false, timeout)?;
                    done.push(format!("text {} is gone", js_str(text)));
                }
                self.sync();
                let mut result = done.join("; ");
                if let Some(first) = result.get_mut(0..1) {
                    first.make_ascii_uppercase();
                }
                Ok(Acted {
                    result,
                    snapshot: true,
                    ..Acted::default()
                })
            }
            Call::GetFingerprint(p) => {
                let tab = self.tab()?;
                let fp = capture_fingerprint(&tab, p.scope.as_deref(), p.depth.as_deref())?;
                self.baselines.record(&fp);
                let mut result = format!("Fingerprint {} ({} tokens)", fp.hash, fp.token_count);
                if let Some(name) = &p.save_as {
                    self.baselines.save(name, &fp)?;
                    result.push_str(&format!("; saved as baseline `{name}`"));
                }
                result.push_str(&format!(
                    ". Compare later with against: \"{}\".\n{}",
                    p.save_as.as_deref().unwrap_or(&fp.hash),
                    fp.to_json()
                ));
                Ok(Acted {
                    result,
                    snapshot: true,
                    ..Acted::default()
                })
            }
            Call::CompareFingerprint(p) => {
                let tab = self.tab()?;
                let fp = capture_fingerprint(&tab, p.scope.as_deref(), p.depth.as_deref())?;
                let threshold = match &p.severity_threshold {
                    Some(s) => tools::parse_severity(s).map_err(|e| anyhow!(Error::User(e)))?,
                    None => Severity::Warning,
                };
                let cmp = self.baselines.compare(&p.against, &fp, threshold)?;
                self.baselines.record(&fp);
                Ok(Acted {
                    result: format!(
                        "Compared with `{}` (current fingerprint {}):\n{}",
                        p.against,
                        fp.hash,
                        cmp.to_string().trim_end()
                    ),
                    snapshot: true,
                    ..Acted::default()
                })
            }
            Call::NetworkRequests(p) => self.network_requests(p),
            Call::NetworkRequest(p) => self.network_request(p),
            Call::Find(p) => {
                self.sync();
                Ok(Acted {
                    snapshot: true,
                    find: Some(p.clone()),
                    ..Acted::default()
                })
            }
            Call::EmulateMedia(p) => self.emulate_media(p),
            Call::Drop(p) => self.drop_onto(p),
            Call::FillForm(p) => self.fill_form(p),
            Call::Drag(p) => self.drag(p),
            Call::Resize(p) => self.resize(p),
            Call::MouseMove(p) => self.mouse_move_xy(p),
            Call::MouseClick(p) => self.mouse_click_xy(p),
            Call::MouseDrag(p) => self.mouse_drag_xy(p),
            Call::MouseDown(p) => self.mouse_button(p, true),
            Call::MouseUp(p) => self.mouse_button(p, false),
            Call::MouseWheel(p) => self.mouse_wheel(p),
            Call::PdfSave(p) => self.pdf_save(p),
            Call::StorageState(p) => self.storage_state(p),
            Call::Close | Call::Batch(_) => bail!("not an action"),
        }
    }

    pub(super) fn tabs(&mut self, p: &tools::TabsParams) -> Result<Acted> {
        let session = self.session()?;
        let (result, snapshot) = match p.action {
            TabAction::List => {
                let n = session.pages().len();
                (
                    format!("{n} open tab{}", if n == 1 { "" } else { "s" }),
                    false,
                )
            }
            TabAction::New => {
                let i = session.new_tab()?;
                if let Some(url) = &p.url {
                    let tab = self.tab()?;
                    self.navigate(&tab, url)?;
                    (format!("Opened tab {i} at {url}"), true)
                } else {
                    (format!("Opened tab {i}"), true)
                }
            }
            TabAction::Select => {
                let i = p.index.unwrap_or(0);
                session
                    .select(i)
                    .map_err(|e| anyhow!(Error::User(e.to_string())))?;
                (format!("Selected tab {i}"), true)
            }
            TabAction::Close => {
                let i = p.index.unwrap_or(session.current_index());
                let key = session.pages().get(i).map(|t| t.key().to_owned());
                session
                    .close_tab(i)
                    .map_err(|e| anyhow!(Error::User(e.to_string())))?;
                if let Some(k) = key {
                    self.since.clear(&k);
                    self.refs.forget(&k);
                }
                (format!("Closed tab {i}"), true)
            }
        };
        Ok(Acted {
            result,
            tabs: true,
            snapshot,
            ..Acted::default()
        })
    }

    /// Resolves a ref to the node that now stands for it, through the tab's
    /// latest snapshot: the session of its frame (the tab's own, or an
    /// out-of-process frame's; `frames/`), its backend id there and a JS
    /// object id.
    ///
    /// A ref of the latest snapshot whose node is detached (the page
    /// re-rendered since) and a ref the latest snapshot does not show are
    /// looked up again in a fresh snapshot, carried over like any other, so
    /// an element rebuilt or back since keeps working under its ref. A ref
    /// only an earlier snapshot showed still acts on its node while that
    /// node is attached: it is the element the ref named. A ref never
    /// handed out in this document is refused even when `e<n>` happens to
    /// be a live backend id: refs are carried, so `e<n>` may name another
    /// element than node n.
    pub(super) fn resolve_ref(&mut self, tab: &Page, r: &str) -> Result<Resolved> {
        if parse_ref(r).is_none() {
            bail!(Error::User(format!(
                "`{r}` is not a ref; use a [ref=…] from the latest snapshot, such as e12"
            )));
        }
        let key = tab.key().to_owned();
        let first = self.refs.lookup(&key, r);
        if let Lookup::Latest(t) | Lookup::Earlier(t) = &first
            && let Some(el) = frames::resolve(tab, t.backend)
        {
            return Ok(el);
        }
        self.resnapshot(tab)?;
        if let Lookup::Latest(t) = self.refs.lookup(&key, r)
            && let Some(el) = frames::resolve(tab, t.backend)
        {
            return Ok(el);
        }
        match first {
            Lookup::Latest(t) | Lookup::Earlier(t) => bail!(Error::User(format!(
                "ref {r} ({}) is no longer on the page; take a new snapshot",
                t.label()
            ))),
            Lookup::Unknown => bail!(Error::NotOnPage(r.to_owned())),
        }
    }

    /// Reads the tab's accessibility tree and carries refs over to it (the
    /// agent does not see it; its next snapshot is diffed as usual).
    pub(super) fn resnapshot(&mut self, tab: &Page) -> Result<()> {
        let (page, doc) = page_info(tab)?;
        let raw = tab.call("Accessibility.getFullAXTree", json!({}))?;
        let ax = AxSnapshot::read(tab, raw, Some(&page.url))?;
        self.refs.carry(tab.key(), &doc, &page.url, &ax.tree())?;
        Ok(())
    }

    pub(super) fn tab(&mut self) -> Result<Page> {
        Ok(self.session()?.current().clone())
    }

    /// Sees every event the current page sent so far.
    pub(super) fn sync(&self) {
        if let Some(s) = &self.session {
            s.current().sync_events();
        }
    }

    /// Marks the current document with a fresh token (see
    /// [`Self::wait_loaded`]); the mark is where an action's own effects
    /// begin (see [`settle`]).
    pub(super) fn mark(&self, tab: &Page) -> (u64, Mark) {
        let token = self.nav_token.fetch_add(1, Ordering::SeqCst);
        let mark = tab.mark(token);
        (token, mark)
    }

    /// Waits for the document after the one marked with `token`; a timeout
    /// is an error that says what to do.
    pub(super) fn wait_loaded(
        &self,
        tab: &Page,
        token: u64,
        timeout: Duration,
        what: &str,
    ) -> Result<()> {
        tab.wait_loaded(token, timeout).map_err(|e| {
            if matches!(Error::of(&e), Some(Error::Timeout(_))) {
                anyhow!(Error::User(format!(
                    "{what} did not finish loading in {} (--timeout-navigation); take a snapshot to see what loaded",
                    shown(timeout)
                )))
            } else {
                e
            }
        })
    }

    pub(super) fn navigate(&self, tab: &Page, url: &str) -> Result<()> {
        self.host.check_navigation(url)?;
        let (token, mark) = self.mark(tab);
        let timeout = self.navigation_timeout();
        let r = match tab.call_within("Page.navigate", json!({ "url": url }), timeout) {
            Ok(r) => r,
            Err(e) if Error::is_call_timeout(&e) => {
                let _ = tab.call("Page.stopLoading", json!({}));
                bail!(Error::User(format!(
                    "navigation to {url} got no response within {} (--timeout-navigation) and was stopped; check that the server answers",
                    shown(timeout)
                )));
            }
            Err(e) => return Err(e),
        };
        if let Some(err) = r
            .get("errorText")
            .and_then(Value::as_str)
            .filter(|e| !e.is_empty())
        {
            // A URL that is a file to save aborts the navigation: the
            // response reports the download instead.
            if self.download_began(err) {
                return Ok(());
            }
            bail!(Error::User(format!(
                "navigation to {url} failed: {err}. Check that the server is running and the URL is right"
            )));
        }
        if r.get("loaderId").is_none() {
            // A same-document navigation (a #fragment): nothing loads, but
            // the page's hashchange handler may render a new view.
            settle::settle(tab, mark, self.settle_timeout(), false);
            return Ok(());
        }
        let loaded = self.wait_loaded(tab, token, timeout, &format!("navigation to {url}"));
        if loaded.is_err() {
            // Leave the page usable: stop what is still loading.
            let _ = tab.call("Page.stopLoading", json!({}));
            return loaded;
        }
        // Loaded; then what the page does right after (its first requests,
        // the view it renders from them), as after any other action.
        settle::settle(tab, mark, self.settle_timeout(), false);
        Ok(())
    }

    /// After an input action: waits for what it started (a navigation, its
    /// requests, DOM changes; see [`settle`]). Returns a note for the
    /// result: empty, that the page navigated, or what was still pending
    /// at the time limit.
    pub(super) fn settle(&self, tab: &Page, mark: Mark) -> String {
        settle::settle(tab, mark, self.settle_timeout(), false).note()
    }
}

/// A time limit as a person writes it: `500 ms`, `5 s`, `1.5 s`.
pub(super) fn shown(d: Duration) -> String {
    let ms = d.as_millis();
    if ms < 1000 {
        format!("{ms} ms")
    } else if ms.is_multiple_of(1000) {
        format!("{} s", ms / 1000)
    } else {
        format!("{} s", d.as_secs_f64())
    }
}

/// The box of an element of an out-of-process frame in the tab's page
/// coordinates (`[x, y, width, height]`): its box in the frame's viewport,
/// moved by the frames' offsets and the tab's scroll.
fn frame_box(tab: &Page, el: &Resolved) -> Result<Vec<f64>> {
    let rect = el.frame.call_on(&el.object, scripts::VIEWPORT_BOX, &[])?;
    let v: Vec<f64> = rect
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_f64).collect())
        .unwrap_or_default();
    if v.len() != 4 {
        return Ok(v);
    }
    let (x, y, _) = frames::to_tab(tab, el, v[0], v[1])?;
    let scroll = tab.evaluate("[scrollX, scrollY]", false, Duration::from_secs(2))?;
    let s = |i: usize| scroll.get(i).and_then(Value::as_f64).unwrap_or(0.0);
    Ok(vec![x + s(0), y + s(1), v[2], v[3]])
}

pub(super) fn wait_text(tab: &Page, text: &str, appear: bool, timeout: Duration) -> Result<()> {
    let check = scripts::text_present(text);
    let deadline = Instant::now() + timeout;
    loop {
        let present = tab
            .evaluate(&check, false, Duration::from_secs(2))
            .ok()
            .and_then(|v| v.as_bool());
        if present == Some(appear) {
            return Ok(());
        }
        if Instant::now() > deadline {
            bail!(Error::User(format!(
                "text {} did not {} within {} (--timeout-action)",
                js_str(text),
                if appear { "appear" } else { "disappear" },
                shown(timeout)
            )));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

pub(super) fn screenshot(
    tab: &Page,
    full_page: bool,
    target: Option<(&str, Resolved)>,
) -> Result<(Image, String)> {
    let mut params = json!({ "format": "png" });
    let what;
    if let Some((r, el)) = target {
        let _ = frames::scroll_owners(tab, &el);
        let _ = el.frame.call(
            "DOM.scrollIntoViewIfNeeded",
            json!({ "backendNodeId": el.backend }),
        );
        let v: Vec<f64> = if el.in_frame() {
            frame_box(tab, &el)?
        } else {
            let rect = tab.call_on(&el.object, scripts::PAGE_BOX, &[])?;
            rect.as_array()
                .map(|a| a.iter().filter_map(Value::as_f64).collect())
                .unwrap_or_default()
        };
        if v.len() != 4 || v[2] < 1.0 || v[3] < 1.0 {
            bail!(Error::User(format!(
                "ref {r} has no visible box to capture"
            )));
        }
        params["clip"] = json!({ "x": v[0], "y": v[1], "width": v[2], "height": v[3], "scale": 1 });
        params["captureBeyondViewport"] = json!(true);
        what = format!("element {r} ({:.0}×{:.0})", v[2], v[3]);
    } else if full_page {
        let m = tab.call("Page.getLayoutMetrics", json!({}))?;
        let size = m.get("cssContentSize").or_else(|| m.get("contentSize"));
        let w = size
            .and_then(|s| s.get("width"))
            .and_then(Value::as_f64)
            .unwrap_or(1280.0);
        let h = size
            .and_then(|s| s.get("height"))
            .and_then(Value::as_f64)
            .unwrap_or(800.0);
        params["clip"] = json!({ "x": 0, "y": 0, "width": w, "height": h, "scale": 1 });
        params["captureBeyondViewport"] = json!(true);
        what = format!("the full page ({w:.0}×{h:.0})");
    } else {
        what = "the viewport".into();
    }
    let r = tab.call("Page.captureScreenshot", params)?;
    let data = r
        .get("data")
        .and_then(Value::as_str)
        .ok_or_else(|| anyhow!("the browser returned no screenshot"))?;
    let bytes = base64::engine::general_purpose::STANDARD.decode(data)?;
    Ok((
        Image {
            mime_type: "image/png".into(),
            data: bytes,
        },
        what,
    ))
}
