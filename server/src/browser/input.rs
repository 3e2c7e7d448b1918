//! Input on a tab: elements by backend node id, their on-screen centre,
//! mouse events and key presses, as CDP `Input.*` calls.

use anyhow::{Result, anyhow, bail};
use serde_json::{Value, json};

use crate::error::Error;

use super::page::Page;

impl Page {
    /// Resolves a backend node id to a JS object id; `None` when the node
    /// is gone or no longer in the document.
    pub fn resolve_backend(&self, backend_id: i64) -> Option<String> {
        let r = self
            .call("DOM.resolveNode", json!({ "backendNodeId": backend_id }))
            .ok()?;
        let id = r.pointer("/object/objectId")?.as_str()?.to_owned();
        let connected = self
            .call_on(&id, "function() { return this.isConnected; }", &[])
            .ok()
            .and_then(|v| v.as_bool())
            .unwrap_or(false);
        connected.then_some(id)
    }

    /// The backend node id of a JS object (a DOM node).
    pub fn backend_of(&self, object_id: &str) -> Result<i64> {
        let r = self.call("DOM.describeNode", json!({ "objectId": object_id }))?;
        r.pointer("/node/backendNodeId")
            .and_then(Value::as_i64)
            .ok_or_else(|| anyhow!("the element has no backend node id"))
    }

    /// Scrolls the node into view and returns the centre of its first
    /// visible content quad, in viewport coordinates.
    pub fn center_of(&self, backend_id: i64) -> Result<(f64, f64)> {
        let _ = self.call(
            "DOM.scrollIntoViewIfNeeded",
            json!({ "backendNodeId": backend_id }),
        );
        let r = self.call(
            "DOM.getContentQuads",
            json!({ "backendNodeId": backend_id }),
        );
        let quads = r
            .ok()
            .and_then(|r| r.get("quads").and_then(Value::as_array).cloned())
            .unwrap_or_default();
        for q in quads {
            let p: Vec<f64> = q
                .as_array()
                .map(|a| a.iter().filter_map(Value::as_f64).collect())
                .unwrap_or_default();
            if p.len() == 8 {
                let area = ((p[0] * p[3] - p[2] * p[1])
                    + (p[2] * p[5] - p[4] * p[3])
                    + (p[4] * p[7] - p[6] * p[5])
                    + (p[6] * p[1] - p[0] * p[7]))
                    .abs()
                    / 2.0;
                if area > 0.5 {
                    let x = (p[0] + p[2] + p[4] + p[6]) / 4.0;
                    let y = (p[1] + p[3] + p[5] + p[7]) / 4.0;
                    return Ok((x, y));
                }
            }
        }
        bail!(Error::NotVisible)
    }

    /// A mouse event at a point.
    pub fn mouse(&self, kind: &str, x: f64, y: f64, button: &str, clicks: u32) -> Result<()> {
        let buttons = match (kind, button) {
            ("mousePressed", "left") => 1,
            ("mousePressed", "right") => 2,
            ("mousePressed", "middle") => 4,
            _ => 0,
        };
        self.call(
            "Input.dispatchMouseEvent",
            json!({ "type": kind, "x": x, "y": y, "button": button, "clickCount": clicks, "buttons": buttons }),
        )?;
        Ok(())
    }

    /// Presses and releases a key: common keys here, any other name of
    /// the US layout through headless_chrome's key table.
    pub fn press_key(&self, key: &str) -> Result<()> {
        let def = match key {
            "Enter" => Some(("Enter", "Enter", 13, Some("\r"))),
            "Tab" => Some(("Tab", "Tab", 9, None)),
            "Escape" => Some(("Escape", "Escape", 27, None)),
            "Backspace" => Some(("Backspace", "Backspace", 8, None)),
            "Delete" => Some(("Delete", "Delete", 46, None)),
            "ArrowUp" => Some(("ArrowUp", "ArrowUp", 38, None)),
            "ArrowDown" => Some(("ArrowDown", "ArrowDown", 40, None)),
            "ArrowLeft" => Some(("ArrowLeft", "ArrowLeft", 37, None)),
            "ArrowRight" => Some(("ArrowRight", "ArrowRight", 39, None)),
            "Home" => Some(("Home", "Home", 36, None)),
            "End" => Some(("End", "End", 35, None)),
            "PageUp" => Some(("PageUp", "PageUp", 33, None)),
            "PageDown" => Some(("PageDown", "PageDown", 34, None)),
            " " | "Space" => Some((" ", "Space", 32, Some(" "))),
            _ => None,
        };
        let single = (key.chars().count() == 1).then(|| {
            let c = key.chars().next().unwrap_or(' ');
            let code = if c.is_ascii_alphabetic() {
                format!("Key{}", c.to_ascii_uppercase())
            } else if c.is_ascii_digit() {
                format!("Digit{c}")
            } else {
                String::new()
            };
            let key_code = if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase() as u32
            } else {
                0
            };
            (code, key_code)
        });
        let Some((name, code, key_code, text)) = def.or(match &single {
            Some((code, key_code)) => Some((key, code.as_str(), *key_code, Some(key))),
            None => None,
        }) else {
            let tab = self
                .tab
                .as_ref()
                .ok_or_else(|| anyhow!(Error::UnknownKey(key.to_owned())))?;
            tab.press_key(key)
                .map_err(|_| anyhow!(Error::UnknownKey(key.to_owned())))?;
            return Ok(());
        };
        let down = if text.is_some() {
            "keyDown"
        } else {
            "rawKeyDown"
        };
        for kind in [down, "keyUp"] {
            let mut p = json!({
                "type": kind, "key": name, "code": code,
                "windowsVirtualKeyCode": key_code, "nativeVirtualKeyCode": key_code,
            });
            if let (Some(t), true) = (text, kind != "keyUp") {
                p["text"] = json!(t);
            }
            self.call("Input.dispatchKeyEvent", p)?;
        }
        Ok(())
    }
}
