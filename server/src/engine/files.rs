//! Files the server writes for the agent (`browser_pdf_save`), in the
//! output directory: `--output-dir`, else a fresh private directory under
//! the system's temporary directory, made on first use.

use std::path::PathBuf;
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result, anyhow};
use base64::Engine as _;
use serde_json::{Value, json};

use super::{Acted, Engine};
use crate::error::Error;
use crate::tools::PdfParams;

impl Engine {
    /// The output directory, made (0700 when the server makes it) on first use.
    pub(super) fn output_dir(&mut self) -> Result<PathBuf> {
        if let Some(d) = &self.output_dir {
            return Ok(d.clone());
        }
        let dir = match &self.config.output_dir {
            Some(d) => {
                std::fs::create_dir_all(d)
                    .with_context(|| format!("creating the output directory {}", d.display()))?;
                d.clone()
            }
            None => {
                let d = std::env::temp_dir().join(format!(
                    "response-diff-output-{}-{}",
                    std::process::id(),
                    millis()
                ));
                let mut b = std::fs::DirBuilder::new();
                std::os::unix::fs::DirBuilderExt::mode(&mut b, 0o700);
                b.create(&d)
                    .with_context(|| format!("creating the output directory {}", d.display()))?;
                d
            }
        };
        self.output_dir = Some(dir.clone());
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
