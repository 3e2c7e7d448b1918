//! Files the server writes for the agent (`browser_pdf_save`), in the
//! output directory: `--output-dir`, else the fresh directory the browser
//! session made for downloads (`crate::downloads::output_dir`).

use std::path::PathBuf;
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result, anyhow};
use base64::Engine as _;
use serde_json::{Value, json};

use super::{Acted, Engine};
use crate::error::Error;
use crate::tools::PdfParams;

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
        let path = self.output_dir()?.join(&name);
        std::fs::write(&path, &bytes).with_context(|| format!("writing {}", path.display()))?;
        Ok(Acted {
            result: format!(
                "Saved the page as PDF: {} ({} bytes)",
                path.display(),
                bytes.len()
            ),
            code: Some(format!(
                "await page.pdf({{ path: {} }});",
                super::scripts::js_str(&name)
            )),
            ..Acted::default()
        })
    }
}

fn millis() -> u128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis())
}
