//! `browser_fill_form`: several fields in one call, each the way a user
//! sets it (text typed into a textbox, a click on a checkbox or radio, an
//! option picked in a select, a range input's value), the masking of
//! what is typed into a password field and secrets typed by their name
//! (crate::secrets).

use anyhow::{Result, anyhow, bail};
use serde_json::{Value, json};

use super::element::{describe, label, point_of};
use super::scripts::{FOCUS_AND_SELECT, SELECT_OPTIONS, js_str};
use super::state::{Acted, Engine};
use crate::browser::Page;
use crate::codegen::{Arg, Code, Recv, Step};
use crate::error::Error;
use crate::secrets;
use crate::tools::{FieldType, FillFormParams, FormField};

/// Called on an element: its checked state (`true`/`false`), or `null`
/// when it has none (native checkbox/radio or an ARIA checked state).
const CHECKED: &str = r#"function () {
  if (this.localName === 'input' && (this.type === 'checkbox' || this.type === 'radio')) return this.checked;
  const a = this.getAttribute('aria-checked');
  return a === 'true' ? true : a === 'false' ? false : null;
}"#;

/// Called on an element with a number: sets a range input's value as a
/// user would leave it (input and change events); `{error}` otherwise.
const SET_RANGE: &str = r#"function (v) {
  if (this.localName !== 'input' || this.type !== 'range') return { error: 'not a range input (<input type=range>); use browser_press_key with ArrowLeft/ArrowRight on a custom slider' };
  this.focus();
  const set = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(this), 'value').set;
  set.call(this, String(v));
  this.dispatchEvent(new Event('input', { bubbles: true }));
  this.dispatchEvent(new Event('change', { bubbles: true }));
  return { value: this.value };
}"#;

/// Text an agent asked to type: what is typed, and how the response shows
/// it.
pub(super) struct Typed {
    /// The text typed: the agent's, or the value of the secret it named.
    pub(super) value: String,
    /// As the result line shows it: a string literal, the secret's name,
    /// or the mask when the field is a password field.
    pub(super) shown: String,
    /// As the generated code has it.
    pub(super) arg: Arg,
}

impl Typed {
    /// `text` typed into the element `object`: a secret's name is
    /// replaced by its value (`--secrets`), and a password field's text is
    /// masked.
    pub(super) fn of(tab: &Page, object: &str, text: &str) -> Typed {
        let secret = secrets::named(text);
        let value = secret.clone().unwrap_or_else(|| text.to_owned());
        let password = !secrets::revealed()
            && tab.call_on(object, secrets::IS_PASSWORD_JS, &[]).ok() == Some(Value::Bool(true));
        if password && !value.is_empty() {
            secrets::remember(&value);
        }
        let (shown, arg) = match (&secret, password && !value.is_empty()) {
            (Some(_), _) => (secrets::secret_mark(text), Arg::Secret(text.to_owned())),
            (None, true) => {
                let m = secrets::mask(&value);
                (js_str(&m), Arg::Str(m))
            }
            (None, false) => (js_str(&value), Arg::Str(value.clone())),
        };
        Typed { value, shown, arg }
    }
}

impl Engine {
    pub(super) fn fill_form(&mut self, p: &FillFormParams) -> Result<Acted> {
        let tab = self.tab()?;
        let (_, mark) = self.mark(&tab);
        let mut lines = Vec::new();
        let mut code = Vec::new();
        for (i, f) in p.fields.iter().enumerate() {
            match self.fill_field(&tab, f) {
                Ok((line, step)) => {
                    lines.push(line);
                    code.push(step);
                }
                Err(e) => {
                    let done = if i == 0 {
                        "nothing was filled".to_owned()
                    } else {
                        format!("fields[0..{i}] were filled")
                    };
                    let msg = crate::error::describe(&e);
                    bail!(Error::User(format!(
                        "fields[{i}] ({}): {msg} ({done}; take a snapshot to see the form)",
                        f.name
                    )));
                }
            }
        }
        let settled = self.settle(&tab, mark);
        Ok(Acted {
            result: format!("{}{settled}", lines.join("\n")),
            code: Some(Code(code)),
            snapshot: true,
            ..Acted::default()
        })
    }

    /// Fills one field; returns its result line and its Playwright code.
    fn fill_field(&mut self, tab: &Page, f: &FormField) -> Result<(String, Step)> {
        let el = self.resolve_ref(tab, &f.target)?;
        let (frame, object) = (&el.frame, &el.object);
        let (role, name) = describe(frame, el.backend);
        let what = label(&role, &name, &f.target);
        let loc = Recv::Locator(self.locator(frame, el.backend, &role, &name));
        match f.kind {
            FieldType::Textbox => {
                let focused = frame.call_on(object, FOCUS_AND_SELECT, &[])?;
                if focused != Value::Bool(true) {
                    bail!(Error::User(format!(
                        "{what} cannot take text; give a textbox, searchbox or editable element"
                    )));
                }
                let typed = Typed::of(frame, object, &f.value);
                if typed.value.is_empty() {
                    tab.press_key("Backspace")?;
                } else {
                    tab.call("Input.insertText", json!({ "text": typed.value }))?;
                }
                Ok((
                    format!("Filled {what} with {}", typed.shown),
                    Step::new(loc, "fill", vec![typed.arg]),
                ))
            }
            FieldType::Slider => {
                let r = frame.call_on(object, SET_RANGE, &[json!(f.value.trim())])?;
                if let Some(err) = r.get("error").and_then(Value::as_str) {
                    bail!(Error::User(format!("{what} is {err}")));
                }
                let v = r.get("value").and_then(Value::as_str).unwrap_or_default();
                Ok((
                    format!("Set {what} to {v}"),
                    Step::new(loc, "fill", vec![Arg::Str(v.to_owned())]),
                ))
            }
            FieldType::Checkbox | FieldType::Radio => {
                let want = f.value == "true";
                let state = frame.call_on(object, CHECKED, &[])?;
                let Some(now) = state.as_bool() else {
                    bail!(Error::User(format!(
                        "{what} is not a checkbox or radio (it has no checked state)"
                    )));
                };
                if now != want {
                    if f.kind == FieldType::Radio && !want {
                        bail!(Error::User(format!(
                            "{what} is a radio button: it cannot be unchecked; check another option of its group"
                        )));
                    }
                    let (x, y) = point_of(tab, &el, &f.target, &role, &name)?;
                    tab.mouse("mouseMoved", x, y, "none", 0)?;
                    tab.mouse("mousePressed", x, y, "left", 1)?;
                    tab.mouse("mouseReleased", x, y, "left", 1)?;
                    let after = frame.call_on(object, CHECKED, &[])?;
                    if after.as_bool() != Some(want) {
                        bail!(Error::User(format!(
                            "clicking {what} did not {} it (the page kept its state)",
                            if want { "check" } else { "uncheck" }
                        )));
                    }
                }
                let verb = if want { "Checked" } else { "Unchecked" };
                let method = if want { "check" } else { "uncheck" };
                Ok((format!("{verb} {what}"), Step::new(loc, method, vec![])))
            }
            FieldType::Combobox => {
                let r = frame.call_on(object, SELECT_OPTIONS, &[json!([f.value])])?;
                if let Some(err) = r.get("error").and_then(Value::as_str) {
                    bail!(Error::User(format!("{what}: {err}")));
                }
                let picked = r
                    .pointer("/selected/0")
                    .and_then(Value::as_str)
                    .ok_or_else(|| anyhow!("the select reported no option"))?;
                Ok((
                    format!("Selected {} in {what}", js_str(picked)),
                    Step::new(loc, "selectOption", vec![Arg::Str(f.value.clone())]),
                ))
            }
        }
    }
}
