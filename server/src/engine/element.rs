//! What an element is called and where to point at it: its role and
//! name, the label a result shows, how generated code finds it, and the
//! point to click, checked to hit it. Shared by the actions, the form and
//! the pointer tools.

use anyhow::{Result, anyhow};
use serde_json::{Value, json};

use super::scripts::{HIT_TEST, js_str};
use super::state::Engine;
use crate::browser::Page;
use crate::codegen::Locator;
use crate::error::Error;
use crate::frames::{self, Resolved};

/// An element as a result names it: `button "Save" (e5)`.
pub(super) fn label(role: &str, name: &str, r: &str) -> String {
    if name.is_empty() {
        format!("{role} ({r})")
    } else {
        format!("{role} {} ({r})", js_str(name))
    }
}

impl Engine {
    /// How the generated code finds an element: by its test id when it
    /// has the `--test-id-attribute` (`data-testid`), else by role and
    /// name.
    pub(super) fn locator(&self, frame: &Page, backend: i64, role: &str, name: &str) -> Locator {
        let attr = &self.config.response.test_id_attribute;
        let test_id = frame
            .call("DOM.describeNode", json!({ "backendNodeId": backend }))
            .ok()
            .and_then(|v| {
                let attrs = v.pointer("/node/attributes")?.as_array()?.clone();
                attrs
                    .chunks(2)
                    .find(|kv| kv[0].as_str() == Some(attr.as_str()))
                    .and_then(|kv| kv.get(1)?.as_str().map(str::to_owned))
            });
        Locator {
            role: role.to_owned(),
            name: name.to_owned(),
            test_id,
        }
    }
}

/// Role and name of a node, for messages and generated code.
pub(super) fn describe(tab: &Page, backend: i64) -> (String, String) {
    let r = tab.call(
        "Accessibility.getPartialAXTree",
        json!({
            "backendNodeId": backend, "fetchRelatives": false
        }),
    );
    let node = r.ok().and_then(|v| v.pointer("/nodes/0").cloned());
    let role = node
        .as_ref()
        .and_then(|n| n.pointer("/role/value"))
        .and_then(Value::as_str)
        .unwrap_or("element")
        .to_owned();
    let name = node
        .as_ref()
        .and_then(|n| n.pointer("/name/value"))
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let role = match role.as_str() {
        "image" => "img".to_owned(),
        "StaticText" | "generic" | "none" => "element".to_owned(),
        _ => role,
    };
    (role, name)
}

/// The point to click, in the tab's viewport: the centre of the element,
/// checked to hit it, and for an element in an out-of-process frame each
/// owner `<iframe>` on the way checked too.
pub(super) fn point_of(
    tab: &Page,
    el: &Resolved,
    r: &str,
    role: &str,
    name: &str,
) -> Result<(f64, f64)> {
    let _ = frames::scroll_owners(tab, el);
    let (x, y) = el.frame.center_of(el.backend).map_err(|e| {
        if matches!(Error::of(&e), Some(Error::NotVisible)) {
            anyhow!(Error::User(format!(
                "{} is not visible (hidden or zero-sized); take a new snapshot",
                label(role, name, r)
            )))
        } else {
            e
        }
    })?;
    let covered = |other: String, x: f64, y: f64| {
        anyhow!(Error::User(format!(
            "{} is covered by {other} at ({x:.0}, {y:.0}); close or scroll past it first",
            label(role, name, r)
        )))
    };
    if let Some(other) = hit_test(&el.frame, el.backend, &el.object, x, y)? {
        return Err(covered(other, x, y));
    }
    let (tx, ty, crossings) = frames::to_tab(tab, el, x, y)?;
    for c in crossings {
        if let Some(object) = c.parent.resolve_backend(c.owner)
            && let Some(other) = hit_test(&c.parent, c.owner, &object, c.x, c.y)?
        {
            return Err(covered(other, tx, ty));
        }
    }
    Ok((tx, ty))
}

/// What covers the element at `(x, y)` of its session's viewport, if
/// anything. The point is moved into the element's own document first:
/// in a same-process frame the viewport of the session is the page's
/// (or the out-of-process frame's), not the frame document's, and
/// `elementFromPoint` reads the latter. The corner of the element's quads
/// there and of its box in its document give the shift (0 outside frames).
fn hit_test(frame: &Page, backend: i64, object: &str, x: f64, y: f64) -> Result<Option<String>> {
    let quads = frame
        .call("DOM.getContentQuads", json!({ "backendNodeId": backend }))
        .ok()
        .and_then(|r| r.get("quads").cloned());
    let corner = |axis: usize| {
        quads
            .as_ref()
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_array)
            .flat_map(|q| q.iter().skip(axis).step_by(2).filter_map(Value::as_f64))
            .reduce(f64::min)
    };
    // Without quads (null) the point is taken as it is.
    let hit = frame.call_on(
        object,
        HIT_TEST,
        &[json!(x), json!(y), json!(corner(0)), json!(corner(1))],
    )?;
    Ok(hit.as_str().map(str::to_owned))
}
