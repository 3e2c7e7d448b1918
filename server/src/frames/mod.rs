//! Frames from any site: out-of-process iframes (OOPIFs) attached over CDP,
//! their accessibility trees read under their `iframe` node, refs
//! qualified by frame, and elements inside them resolved for actions.
//!
//! Chromium puts a frame from another site in another renderer process
//! (site isolation is on by default, headless included: a frame from
//! `localhost` in a page on `127.0.0.1` is its own target). The page's own
//! session sees only an empty `Iframe` node for it. Each tab's session
//! asks for `Target.setAutoAttach {flatten: true}`; the browser then
//! announces every OOPIF as a `Target.attachedToTarget` event on the
//! session of its parent, and this module sets each new session up the
//! same way (nested OOPIFs announce themselves on their parent frame's
//! session). `DOM.getFrameOwner {frameId}` in the parent session names the
//! `<iframe>` element that shows it (an OOPIF's target id is its frame id).
//!
//! Backend node ids are per renderer process and start again in each one,
//! so an id of a frame's process can equal one of the page's. A node is
//! therefore named by a *qualified id*: the backend id in its low 32 bits
//! and a frame number in the bits above (0 for the tab's own process).
//! Refs print it the way Playwright prints refs inside frames: `e12` in
//! the page, `f2e12` in frame 2. A frame number stands for one document
//! of one frame session (a reload or navigation of the frame takes a new
//! number), so one qualified id never names two nodes, and the core's ref
//! carrier (which treats equal ids as the same node) carries refs into a
//! frame's new document by content, as it does for a page's
//! (docs/DECISIONS.md D31).
//!
//! Coordinates: `DOM.getContentQuads` and `DOM.getBoxModel` in an OOPIF's
//! session are relative to that frame's own viewport (measured on Chromium
//! 156), so a point is moved by the content-box corner of each owner
//! `<iframe>` up to the tab before `Input.dispatchMouseEvent`, which goes
//! to the tab's session.

mod registry;

use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use anyhow::{Result, anyhow};
use serde_json::{Value, json};

use self::registry::Child;
use crate::browser::{Page, TabEvents};
use crate::cdp::{Cdp, Listener};
use crate::error::lock;

pub use self::registry::{Frames, MAX_FRAME_DOCS, auto_attach_params};

/// Bits of a qualified id that hold the backend node id.
const FRAME_SHIFT: u32 = 32;
/// Out-of-process frames nested deeper than this are shown as empty
/// `iframe` nodes.
pub const MAX_FRAME_DEPTH: usize = 16;

/// The qualified id of backend node `backend` in frame `frame`.
pub fn qualify(frame: u32, backend: i64) -> i64 {
    (i64::from(frame) << FRAME_SHIFT) | (backend & 0xffff_ffff)
}

/// `(frame number, backend id)` of a qualified id.
pub fn split(id: i64) -> (u32, i64) {
    ((id >> FRAME_SHIFT) as u32, id & 0xffff_ffff)
}

/// The ref text of a qualified id: `e12`, or `f2e12` inside frame 2.
pub fn ref_text(id: i64) -> String {
    match split(id) {
        (0, b) => format!("e{b}"),
        (f, b) => format!("f{f}e{b}"),
    }
}

/// Parses a ref (`e12`, `f2e12`) into the qualified id it names.
pub fn parse_ref(r: &str) -> Option<i64> {
    let digits = |d: &str| {
        (!d.is_empty() && d.len() <= 10 && d.bytes().all(|b| b.is_ascii_digit()))
            .then(|| d.parse::<i64>().ok())
            .flatten()
    };
    let (frame, rest) = match r.strip_prefix('f') {
        Some(rest) => {
            let (f, e) = rest.split_once('e')?;
            (u32::try_from(digits(f)?).ok().filter(|&f| f > 0)?, e)
        }
        None => (0, r.strip_prefix('e')?),
    };
    let b = digits(rest).filter(|&b| b <= 0xffff_ffff)?;
    Some(qualify(frame, b))
}

/// Handles a `Target.*` event of a tab's session or of one of its frames'
/// (`session`): records an attached iframe and sets its session up (on
/// another thread: the reader thread that calls this must stay free to
/// read the answers), forgets a detached one.
pub fn on_target_event(
    method: &str,
    p: &Value,
    session: &str,
    events: &Arc<Mutex<TabEvents>>,
    cdp: &Weak<Cdp>,
    main_frame: &str,
) {
    let str_at = |ptr: &str| p.pointer(ptr).and_then(Value::as_str).unwrap_or_default();
    match method {
        "Target.attachedToTarget" if str_at("/targetInfo/type") == "iframe" => {
            let child = Child {
                target: str_at("/targetInfo/targetId").to_owned(),
                session: str_at("/sessionId").to_owned(),
                parent: session.to_owned(),
                ready: false,
            };
            let Some(cdp) = cdp.upgrade() else { return };
            listen(&cdp, &child.session, events, main_frame);
            let session = child.session.clone();
            {
                let mut ev = lock(events);
                ev.frames.children.retain(|c| c.target != child.target);
                ev.frames.children.push(child);
            }
            let events = Arc::clone(events);
            std::thread::spawn(move || set_up(&cdp, &session, &events));
        }
        "Target.detachedFromTarget" => {
            let gone = str_at("/sessionId");
            if let Some(cdp) = cdp.upgrade() {
                cdp.forget(gone);
            }
            lock(events).frames.children.retain(|c| c.session != gone);
        }
        _ => {}
    }
}

/// Sends a frame session's events where the tab's go: its console, its
/// requests (an action waits for those it started), its dialogs; and its
/// own nested frames to [`on_target_event`]. Its load and navigation
/// events are not the tab's (they would count as the page loading).
fn listen(cdp: &Arc<Cdp>, session: &str, events: &Arc<Mutex<TabEvents>>, main_frame: &str) {
    let weak = Arc::downgrade(cdp);
    let events = Arc::clone(events);
    let main_frame = main_frame.to_owned();
    let own = session.to_owned();
    let listener: Listener = Arc::new(move |method: &str, params: &Value| {
        if method.starts_with("Target.") {
            on_target_event(method, params, &own, &events, &weak, &main_frame);
        } else if method.starts_with("Runtime.")
            || method.starts_with("Log.")
            || method.starts_with("Network.")
            || method.starts_with("Page.javascriptDialog")
        {
            let policy = lock(&events).dialog_policy;
            crate::browser::on_event(method, params, &events, &main_frame, &weak, &own, policy);
        }
    });
    cdp.listen(session, listener);
}

/// Sets a frame session up as a tab's (the same events and reads, and
/// auto-attach for the frames inside it). Idempotent.
fn set_up(cdp: &Cdp, session: &str, events: &Mutex<TabEvents>) {
    let quick = Duration::from_secs(5);
    for (method, params) in crate::browser::session_setup() {
        if let Err(e) = cdp.call(Some(session), method, params, quick) {
            tracing::debug!("{method} on a frame session: {e:#}");
            return;
        }
    }
    let mut ev = lock(events);
    if let Some(c) = ev.frames.children.iter_mut().find(|c| c.session == session) {
        c.ready = true;
    }
}

/// Stops listening to the frame sessions of a tab that is closing or gone
/// (their detach events would go to the tab's listener, forgotten first).
pub fn forget_frames(cdp: &Cdp, events: &Mutex<TabEvents>) {
    let children = std::mem::take(&mut lock(events).frames.children);
    for c in children {
        cdp.forget(&c.session);
    }
}

/// An out-of-process frame inside the document of `page`'s session, read
/// for a snapshot.
pub struct RemoteFrame {
    /// The backend id (in `page`'s process) of the `<iframe>` that shows it.
    pub owner: i64,
    /// The frame's session, as a page to call.
    pub page: Page,
    /// The frame number its nodes' ids are qualified with.
    pub number: u32,
    /// Its document's URL.
    pub url: String,
}

/// The out-of-process frames directly inside `page`'s session (the tab's
/// own, or a frame's): each with its owner element, its session and the
/// number of its current document. A frame whose owner or document
/// cannot be read (it is going away) is left out.
pub fn remote_frames(page: &Page) -> Vec<RemoteFrame> {
    let children: Vec<Child> = lock(&page.events)
        .frames
        .children
        .iter()
        .filter(|c| c.parent == page.session_id())
        .cloned()
        .collect();
    let mut out = Vec::new();
    for c in children {
        let frame = page.for_frame(&c.session, &c.target);
        if !c.ready {
            // Attached a moment ago; its set-up thread may not have run.
            set_up(&page.cdp(), &c.session, &page.events);
        }
        let Ok(owner) = page.call_within(
            "DOM.getFrameOwner",
            json!({ "frameId": c.target }),
            Duration::from_secs(5),
        ) else {
            continue;
        };
        let Some(owner) = owner.get("backendNodeId").and_then(Value::as_i64) else {
            continue;
        };
        let Ok(tree) = frame.call_within("Page.getFrameTree", json!({}), Duration::from_secs(5))
        else {
            continue;
        };
        let loader = tree
            .pointer("/frameTree/frame/loaderId")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let url = tree
            .pointer("/frameTree/frame/url")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let number = lock(&page.events).frames.number(&c.session, loader);
        out.push(RemoteFrame {
            owner,
            page: frame,
            number,
            url,
        });
    }
    out
}

/// An element a ref names, ready to act on.
#[derive(Clone)]
pub struct Resolved {
    /// The session of the element's frame, as a page: calls on the element
    /// (`call_on`, `DOM.*` with its backend id, `Accessibility.*`) go here.
    /// The tab itself for an element of the tab's own process.
    pub frame: Page,
    /// Its backend node id in that frame's process.
    pub backend: i64,
    /// Its JS object id in that session.
    pub object: String,
    /// Its qualified id (as the ref map holds it).
    pub id: i64,
}

impl Resolved {
    /// Whether the element is in an out-of-process frame.
    pub fn in_frame(&self) -> bool {
        split(self.id).0 != 0
    }
}

/// Resolves a qualified id in tab `tab` to its live element; `None` when
/// the node or its frame is gone.
pub fn resolve(tab: &Page, id: i64) -> Option<Resolved> {
    let (number, backend) = split(id);
    let frame = if number == 0 {
        tab.clone()
    } else {
        let ev = lock(&tab.events);
        let session = ev.frames.session_of(number)?.to_owned();
        let target = ev.frames.child(&session)?.target.clone();
        drop(ev);
        tab.for_frame(&session, &target)
    };
    let object = frame.resolve_backend(backend)?;
    Some(Resolved {
        frame,
        backend,
        object,
        id,
    })
}

/// The owner `<iframe>` of each out-of-process frame from `frame` up to
/// the tab, innermost first: `(the parent's session as a page, the owner's
/// backend id there)`.
fn owners(tab: &Page, frame: &Page) -> Result<Vec<(Page, i64)>> {
    let mut out = Vec::new();
    let mut session = frame.session_id().to_owned();
    while session != tab.session_id() {
        let child = lock(&tab.events)
            .frames
            .child(&session)
            .cloned()
            .ok_or_else(|| anyhow!("the frame was detached; take a new snapshot"))?;
        let parent = if child.parent == tab.session_id() {
            tab.clone()
        } else {
            let ev = lock(&tab.events);
            let target = ev
                .frames
                .child(&child.parent)
                .map(|c| c.target.clone())
                .ok_or_else(|| anyhow!("the frame was detached; take a new snapshot"))?;
            drop(ev);
            tab.for_frame(&child.parent, &target)
        };
        let owner = parent
            .call("DOM.getFrameOwner", json!({ "frameId": child.target }))?
            .get("backendNodeId")
            .and_then(Value::as_i64)
            .ok_or_else(|| anyhow!("the frame has no owner element"))?;
        out.push((parent, owner));
        session = child.parent;
        if out.len() > MAX_FRAME_DEPTH {
            break;
        }
    }
    Ok(out)
}

/// Scrolls the owner `<iframe>`s of `el` into view, outermost first, so
/// that the element's own scroll (inside its frame) ends on screen.
pub fn scroll_owners(tab: &Page, el: &Resolved) -> Result<()> {
    if !el.in_frame() {
        return Ok(());
    }
    for (parent, owner) in owners(tab, &el.frame)?.iter().rev() {
        let _ = parent.call(
            "DOM.scrollIntoViewIfNeeded",
            json!({ "backendNodeId": owner }),
        );
    }
    Ok(())
}

/// How far the viewport of `el`'s frame is from the tab's viewport, and
/// each owner `<iframe>` with the point (in its parent's viewport) a click
/// at `(x, y)` of the frame crosses it at, innermost first: for the hit
/// test at every level.
pub fn to_tab(tab: &Page, el: &Resolved, x: f64, y: f64) -> Result<(f64, f64, Vec<Crossing>)> {
    let (mut x, mut y) = (x, y);
    let mut crossings = Vec::new();
    if !el.in_frame() {
        return Ok((x, y, crossings));
    }
    for (parent, owner) in owners(tab, &el.frame)? {
        let model = parent.call("DOM.getBoxModel", json!({ "backendNodeId": owner }))?;
        let content: Vec<f64> = model
            .pointer("/model/content")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_f64).collect())
            .unwrap_or_default();
        let (Some(&left), Some(&top)) = (content.first(), content.get(1)) else {
            return Err(anyhow!("the frame's <iframe> has no box"));
        };
        x += left;
        y += top;
        crossings.push(Crossing {
            parent,
            owner,
            x,
            y,
        });
    }
    Ok((x, y, crossings))
}

/// A point where a click passes an owner `<iframe>`.
pub struct Crossing {
    /// The session the `<iframe>` is in.
    pub parent: Page,
    /// The `<iframe>`'s backend id there.
    pub owner: i64,
    /// The point in that session's viewport.
    pub x: f64,
    /// The point in that session's viewport.
    pub y: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refs_name_the_frame_and_the_node() {
        assert_eq!(parse_ref("e12"), Some(12));
        let id = parse_ref("f3e12").unwrap();
        assert_eq!(split(id), (3, 12));
        assert_eq!(ref_text(id), "f3e12");
        assert_eq!(ref_text(12), "e12");
        assert_ne!(parse_ref("f1e5"), parse_ref("f2e5"));
        assert_ne!(parse_ref("f1e5"), parse_ref("e5"));
        for bad in [
            "",
            "e",
            "f",
            "fe1",
            "f0e1",
            "f1",
            "f1e",
            "x1",
            "e1x",
            "f1x2",
            "e-1",
            "e99999999999",
        ] {
            assert_eq!(parse_ref(bad), None, "{bad}");
        }
    }

    /// An AX tree: `(backend id, parent, role, name)`, the first the root.
    fn ax(nodes: &[(i64, Option<i64>, &str, &str)]) -> crate::ax::AxSnapshot {
        let nodes: Vec<Value> = nodes
            .iter()
            .map(|&(b, parent, role, name)| {
                let children: Vec<String> = nodes
                    .iter()
                    .filter(|n| n.1 == Some(b))
                    .map(|n| n.0.to_string())
                    .collect();
                let mut n = json!({
                    "nodeId": b.to_string(), "ignored": false,
                    "role": {"type": "role", "value": role},
                    "name": {"type": "computedString", "value": name},
                    "childIds": children, "backendDOMNodeId": b,
                });
                if let Some(p) = parent {
                    n["parentId"] = json!(p.to_string());
                }
                n
            })
            .collect();
        crate::ax::AxSnapshot::parse(json!({ "nodes": nodes }), None).unwrap()
    }

    #[test]
    fn a_frame_process_ids_are_qualified_and_never_collide_with_the_page() {
        // The page's iframe is node 2; the frame's own process numbers its
        // nodes from 1 as well, and nests another out-of-process frame.
        let mut page = ax(&[
            (1, None, "RootWebArea", "Shop"),
            (2, Some(1), "Iframe", ""),
            (3, Some(1), "button", "Buy"),
        ]);
        let mut frame = ax(&[
            (1, None, "RootWebArea", "Pay"),
            (2, Some(1), "button", "Pay"),
            (3, Some(1), "Iframe", ""),
        ]);
        let inner = ax(&[
            (1, None, "RootWebArea", "Verify"),
            (2, Some(1), "button", "Verify"),
        ]);
        frame.add_remote(3, 7, inner);
        page.add_remote(2, 4, frame);
        assert_eq!(
            page.tree().to_aria(),
            "- iframe [ref=e2]:\n  - button \"Pay\" [ref=f4e2]\n  - iframe [ref=f4e3]:\n    - button \"Verify\" [ref=f7e2]\n- button \"Buy\" [ref=e3]"
        );
    }
}
