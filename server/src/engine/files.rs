//! Files the server writes for the agent (`browser_pdf_save`,
//! `browser_storage_state`), in the output directory: `--output-dir`, else the fresh directory the browser
//! session made for downloads (`crate::downloads::output_dir`).

use std::path::PathBuf;
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result, anyhow};
use base64::Engine as _;
use serde_json::{Value, json};

use super::state::{Acted, Engine};
use crate::codegen::{Arg, Recv, Step};
use crate::error::Error;
use crate::tools::{PdfParams, StorageStateParams};

impl Engine {
    /// The output directory (`--output-dir`, else the fresh directory the
    /// browser session made): downloads, PDFs and saved lists all go there.
    pub(super) fn output_dir(&mut self) -> Result<PathBuf> {
        let s = self.session()?;
        let dir = crate::error::lock(s.downloads()).dir().to_owned();
        Ok(dir)
    }

    pub(super) fn pdf_save(&mut self, p: &PdfParams) -> Result<Acted> {
        let tab = self.tab()?;
        let r = tab
            .call("Page.printToPDF", json!({ "printBackground": true }))
            .map_err(|e| {
                anyhow!(Error::User(format!(
                    "the browser could not print the page ({}); PDF needs a headless browser",
                    crate::error::describe(&e)
                )))
            })?;
        let data = r
            .get("data")
            .and_then(Value::as_str)
            .ok_or_else(|| anyhow!("the browser returned no PDF"))?;
        let bytes = base64::engine::general_purpose::STANDARD.decode(data)?;
        let name = p
            .filename
            .clone()
            .unwrap_or_else(|| format!("page-{}.pdf", millis()));
        let path = self.write_output(&name, &bytes)?;
        Ok(Acted {
            result: format!(
                "Saved the page as PDF: {} ({} bytes)",
                self.config.response.file_paths.show(&path),
                bytes.len()
            ),
            code: Some(
                Step::new(Recv::Page, "pdf", vec![])
                    .opts("Page.PdfOptions", vec![("path", Arg::Path(name))])
                    .into(),
            ),
            ..Acted::default()
        })
    }
}

impl Engine {
    /// Writes `bytes` as `name` (checked plain) in the output directory.
    fn write_output(&mut self, name: &str, bytes: &[u8]) -> Result<PathBuf> {
        let path = self.output_dir()?.join(name);
        std::fs::write(&path, bytes).with_context(|| format!("writing {}", path.display()))?;
        Ok(path)
    }

    /// `browser_storage_state`: the context's cookies and the localStorage
    /// of the origins its tabs show, as Playwright's storageState JSON
    /// (what `--storage-state` loads). The answer counts, never shows,
    /// the values: they are logins.
    pub(super) fn storage_state(&mut self, p: &StorageStateParams) -> Result<Acted> {
        let timeout = self.timeout();
        let session = self.session()?;
        let mut origins: Vec<(String, Vec<(String, String)>)> = Vec::new();
        for page in session.pages() {
            // A tab on about:blank, a crashed or a paused page has no
            // storage to read; the others' is still saved.
            let Ok(v) = page.evaluate(LOCAL_STORAGE, false, timeout) else {
                continue;
            };
            let Some(origin) = v.get(0).and_then(Value::as_str) else {
                continue;
            };
            if !(origin.starts_with("http://") || origin.starts_with("https://"))
                || origins.iter().any(|(o, _)| o == origin)
            {
                continue;
            }
            let items = v
                .get(1)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|kv| {
                    Some((
                        kv.get(0)?.as_str()?.to_owned(),
                        kv.get(1)?.as_str()?.to_owned(),
                    ))
                })
                .collect::<Vec<_>>();
            // As Playwright: an origin without entries is left out.
            if !items.is_empty() {
                origins.push((origin.to_owned(), items));
            }
        }
        let cdp = session.chromium().cdp().clone();
        let context = session.context_id().map(str::to_owned);
        let state = crate::storage::capture(&cdp, context.as_deref(), origins)
            .context("reading the browser context's cookies")?;
        let count = |k: &str| state.get(k).and_then(Value::as_array).map_or(0, Vec::len);
        let (cookies, origins) = (count("cookies"), count("origins"));
        let name = p
            .filename
            .clone()
            .unwrap_or_else(|| format!("storage-state-{}.json", millis()));
        let text = serde_json::to_string_pretty(&state)?;
        let path = self.write_output(&name, text.as_bytes())?;
        Ok(Acted {
            result: format!(
                "Saved the storage state: {} ({cookies} cookie{}, {origins} origin{} with localStorage); load it with --storage-state",
                self.config.response.file_paths.show(&path),
                if cookies == 1 { "" } else { "s" },
                if origins == 1 { "" } else { "s" },
            ),
            code: Some(
                Step::new(Recv::Context, "storageState", vec![])
                    .opts(
                        "BrowserContext.StorageStateOptions",
                        vec![("path", Arg::Path(name))],
                    )
                    .into(),
            ),
            ..Acted::default()
        })
    }
}

/// `[origin, [[key, value], …]]` of a page; reading localStorage throws
/// on opaque origins, which the caller skips.
const LOCAL_STORAGE: &str = "(() => { const o = location.origin; let e = []; try { e = Object.entries(localStorage); } catch (_) {} return [o, e]; })()";

fn millis() -> u128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis())
}
