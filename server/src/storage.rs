//! Playwright's storage state (`--storage-state FILE`): cookies and each
//! origin's localStorage, loaded into every new browser context, and read
//! back from one.
//!
//! The file is Playwright's `storageState()` JSON:
//! `{"cookies": [{name, value, domain, path, expires, httpOnly, secure,
//! sameSite}], "origins": [{"origin": "https://…", "localStorage": [{name,
//! value}]}]}`. Cookies go in with `Storage.setCookies`. localStorage can
//! only be written from a document of its origin, so (as Playwright does)
//! a throwaway tab of the context opens each origin with every request
//! answered by an empty page (the site is never contacted), sets the
//! items, and closes.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use base64::Engine as _;
use serde_json::{Map, Value, json};

use crate::browser::TabSetup;
use crate::cdp::{Cdp, Listener};

/// A storage state file, checked.
#[derive(Debug, Clone, Default)]
pub struct StorageState {
    /// CDP `CookieParam`s.
    cookies: Vec<Value>,
    /// `(origin, [(name, value)])`.
    origins: Vec<(String, Vec<(String, String)>)>,
}

fn field<'a>(o: &'a Map<String, Value>, key: &str, at: &str) -> Result<&'a Value> {
    o.get(key)
        .ok_or_else(|| anyhow!("{at}: `{key}` is missing"))
}

fn string(o: &Map<String, Value>, key: &str, at: &str) -> Result<String> {
    field(o, key, at)?
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| anyhow!("{at}.{key}: expected a string"))
}

impl StorageState {
    /// Reads and checks a file; errors name the file and the field.
    pub fn read(path: &Path) -> Result<StorageState> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("--storage-state: reading {}", path.display()))?;
        let v: Value = serde_json::from_str(&text)
            .with_context(|| format!("--storage-state: {} is not JSON", path.display()))?;
        StorageState::from_json(&v).map_err(|e| {
            anyhow!(
                "--storage-state {}: {e} (expected Playwright's storageState: {{\"cookies\": [...], \"origins\": [...]}})",
                path.display()
            )
        })
    }

    /// From storageState JSON.
    pub fn from_json(v: &Value) -> Result<StorageState> {
        let top = v.as_object().ok_or_else(|| anyhow!("not a JSON object"))?;
        if let Some(k) = top.keys().find(|k| *k != "cookies" && *k != "origins") {
            bail!("unknown key `{k}`");
        }
        let mut state = StorageState::default();
        let empty = Vec::new();
        let cookies = match top.get("cookies") {
            None => &empty,
            Some(c) => c
                .as_array()
                .ok_or_else(|| anyhow!("cookies: expected an array"))?,
        };
        for (i, c) in cookies.iter().enumerate() {
            let at = format!("cookies[{i}]");
            let o = c
                .as_object()
                .ok_or_else(|| anyhow!("{at}: expected an object"))?;
            let mut p = json!({
                "name": string(o, "name", &at)?,
                "value": string(o, "value", &at)?,
            });
            match (o.get("url"), o.get("domain")) {
                (Some(u), _) => {
                    p["url"] = json!(
                        u.as_str()
                            .ok_or_else(|| anyhow!("{at}.url: expected a string"))?
                    )
                }
                (None, Some(_)) => {
                    p["domain"] = json!(string(o, "domain", &at)?);
                    p["path"] = json!(o.get("path").and_then(Value::as_str).unwrap_or("/"));
                }
                (None, None) => bail!("{at}: give `domain` (and `path`) or `url`"),
            }
            if let Some(e) = o.get("expires") {
                let e = e
                    .as_f64()
                    .ok_or_else(|| anyhow!("{at}.expires: expected a number"))?;
                if e > 0.0 {
                    p["expires"] = json!(e);
                }
            }
            for k in ["httpOnly", "secure"] {
                if let Some(b) = o.get(k) {
                    p[k] = json!(
                        b.as_bool()
                            .ok_or_else(|| anyhow!("{at}.{k}: expected true or false"))?
                    );
                }
            }
            if let Some(s) = o.get("sameSite") {
                match s.as_str() {
                    Some(s @ ("Strict" | "Lax" | "None")) => p["sameSite"] = json!(s),
                    _ => bail!("{at}.sameSite: expected \"Strict\", \"Lax\" or \"None\""),
                }
            }
            state.cookies.push(p);
        }
        let origins = match top.get("origins") {
            None => &empty,
            Some(o) => o
                .as_array()
                .ok_or_else(|| anyhow!("origins: expected an array"))?,
        };
        for (i, o) in origins.iter().enumerate() {
            let at = format!("origins[{i}]");
            let o = o
                .as_object()
                .ok_or_else(|| anyhow!("{at}: expected an object"))?;
            let origin = string(o, "origin", &at)?;
            let url = url::Url::parse(&origin)
                .ok()
                .filter(|u| matches!(u.scheme(), "http" | "https"))
                .ok_or_else(|| anyhow!("{at}.origin: `{origin}` is not an http(s) origin"))?;
            let mut items = Vec::new();
            let list = match o.get("localStorage") {
                None => &empty,
                Some(l) => l
                    .as_array()
                    .ok_or_else(|| anyhow!("{at}.localStorage: expected an array"))?,
            };
            for (j, item) in list.iter().enumerate() {
                let at = format!("{at}.localStorage[{j}]");
                let item = item
                    .as_object()
                    .ok_or_else(|| anyhow!("{at}: expected an object"))?;
                items.push((string(item, "name", &at)?, string(item, "value", &at)?));
            }
            state
                .origins
                .push((url.origin().ascii_serialization(), items));
        }
        Ok(state)
    }

    /// Loads the state into a browser context (`None`: the default one).
    pub fn load(&self, cdp: &Arc<Cdp>, context: Option<&str>, _setup: &TabSetup) -> Result<()> {
        if !self.cookies.is_empty() {
            let mut p = json!({ "cookies": self.cookies });
            if let Some(c) = context {
                p["browserContextId"] = json!(c);
            }
            cdp.call(None, "Storage.setCookies", p, Duration::from_secs(10))
                .context("setting the cookies")?;
        }
        for (origin, items) in &self.origins {
            if !items.is_empty() {
                set_local_storage(cdp, context, origin, items)
                    .with_context(|| format!("setting localStorage of {origin}"))?;
            }
        }
        Ok(())
    }
}

/// Writes localStorage items from a throwaway tab on `origin` whose
/// requests are all answered here with an empty page.
fn set_local_storage(
    cdp: &Arc<Cdp>,
    context: Option<&str>,
    origin: &str,
    items: &[(String, String)],
) -> Result<()> {
    let quick = Duration::from_secs(10);
    let mut create = json!({ "url": "about:blank" });
    if let Some(c) = context {
        create["browserContextId"] = json!(c);
    }
    let target = cdp.call(None, "Target.createTarget", create, quick)?;
    let target = target
        .get("targetId")
        .and_then(Value::as_str)
        .ok_or_else(|| anyhow!("the browser opened no tab"))?
        .to_owned();
    let result = (|| -> Result<()> {
        let session = cdp.attach(&target, quick)?;
        let weak = Arc::downgrade(cdp);
        let s = session.clone();
        let listener: Listener = Arc::new(move |method: &str, p: &Value| {
            if method != "Fetch.requestPaused" {
                return;
            }
            let answer = json!({
                "requestId": p.get("requestId").cloned().unwrap_or(Value::Null),
                "responseCode": 200,
                "responseHeaders": [{ "name": "content-type", "value": "text/html" }],
                "body": base64::engine::general_purpose::STANDARD.encode("<html></html>"),
            });
            if let Some(cdp) = weak.upgrade() {
                let s = s.clone();
                std::thread::spawn(move || {
                    let _ = cdp.call(
                        Some(&s),
                        "Fetch.fulfillRequest",
                        answer,
                        Duration::from_secs(5),
                    );
                });
            }
        });
        cdp.listen(&session, listener);
        let done = (|| -> Result<()> {
            cdp.call(
                Some(&session),
                "Fetch.enable",
                json!({ "patterns": [{ "urlPattern": "*" }] }),
                quick,
            )?;
            cdp.call(
                Some(&session),
                "Page.navigate",
                json!({ "url": format!("{origin}/") }),
                quick,
            )?;
            let expr = format!(
                "location.origin === {} && (() => {{ for (const [k, v] of {}) localStorage.setItem(k, v); return true; }})()",
                json!(origin),
                json!(items.iter().map(|(k, v)| [k, v]).collect::<Vec<_>>())
            );
            let deadline = Instant::now() + quick;
            loop {
                let r = cdp.call(
                    Some(&session),
                    "Runtime.evaluate",
                    json!({ "expression": expr, "returnByValue": true }),
                    quick,
                );
                if let Ok(r) = &r
                    && r.pointer("/result/value") == Some(&json!(true))
                {
                    return Ok(());
                }
                if Instant::now() > deadline {
                    bail!("the page of {origin} did not open in time");
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        })();
        cdp.forget(&session);
        done
    })();
    let _ = cdp.call(
        None,
        "Target.closeTarget",
        json!({ "targetId": target }),
        quick,
    );
    result
}

/// The storage state of a browser context (`None`: the default one):
/// its cookies, and localStorage of the origins of `pages` (what the
/// open tabs show, as `(origin, entries)` read from them).
pub fn capture(
    cdp: &Cdp,
    context: Option<&str>,
    origins: Vec<(String, Vec<(String, String)>)>,
) -> Result<Value> {
    let mut p = json!({});
    if let Some(c) = context {
        p["browserContextId"] = json!(c);
    }
    let r = cdp.call(None, "Storage.getCookies", p, Duration::from_secs(10))?;
    let cookies: Vec<Value> = r
        .get("cookies")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|c| {
            let session = c.get("session").and_then(Value::as_bool).unwrap_or(false);
            json!({
                "name": c.get("name").cloned().unwrap_or(Value::Null),
                "value": c.get("value").cloned().unwrap_or(Value::Null),
                "domain": c.get("domain").cloned().unwrap_or(Value::Null),
                "path": c.get("path").cloned().unwrap_or(Value::Null),
                "expires": if session { json!(-1) } else { c.get("expires").cloned().unwrap_or(json!(-1)) },
                "httpOnly": c.get("httpOnly").cloned().unwrap_or(json!(false)),
                "secure": c.get("secure").cloned().unwrap_or(json!(false)),
                "sameSite": c.get("sameSite").cloned().unwrap_or(json!("Lax")),
            })
        })
        .collect();
    let origins: Vec<Value> = origins
        .into_iter()
        .map(|(origin, items)| {
            json!({
                "origin": origin,
                "localStorage": items.into_iter().map(|(name, value)| json!({ "name": name, "value": value })).collect::<Vec<_>>(),
            })
        })
        .collect();
    Ok(json!({ "cookies": cookies, "origins": origins }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn playwright_state_parses_and_bad_fields_are_named() {
        let s = StorageState::from_json(&json!({
            "cookies": [{"name": "sid", "value": "1", "domain": "127.0.0.1", "path": "/", "expires": -1, "httpOnly": false, "secure": false, "sameSite": "Lax"}],
            "origins": [{"origin": "http://127.0.0.1:8000", "localStorage": [{"name": "k", "value": "v"}]}]
        }))
        .unwrap();
        assert_eq!(s.cookies.len(), 1);
        assert!(s.cookies[0].get("expires").is_none());
        assert_eq!(s.origins[0].0, "http://127.0.0.1:8000");
        let e = StorageState::from_json(&json!({"cookies": [{"name": "a"}]})).unwrap_err();
        assert_eq!(e.to_string(), "cookies[0]: `value` is missing");
        let e = StorageState::from_json(&json!({"cookie": []})).unwrap_err();
        assert_eq!(e.to_string(), "unknown key `cookie`");
        let e =
            StorageState::from_json(&json!({"origins": [{"origin": "file:///x"}]})).unwrap_err();
        assert!(e.to_string().contains("origins[0].origin"), "{e}");
    }
}
