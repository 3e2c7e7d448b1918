//! The agent decides: the gate that refuses tools while a dialog or file
//! chooser waits for an answer, the two tools that answer them, and what
//! an action's response says about tabs it opened and files it downloaded.

use anyhow::{Result, anyhow, bail};
use response_diff::expectation::Expectation;
use response_diff::response::{Download, Response, render};
use serde_json::json;

use super::page::{modal_lines, page_state_of};
use super::scripts::js_str;
use super::state::{Acted, Engine, Output};
use crate::browser::Page;
use crate::codegen::{Arg, Recv, Step};
use crate::error::{Error, lock};
use crate::modal::{ModalState, check_upload, upload_roots};
use crate::tools::{Call, FileUploadParams, HandleDialogParams, Parsed};

impl Engine {
    /// Before a call: while the current tab waits in a modal state, only
    /// the tool that answers it (and tab management) runs; anything else is
    /// refused at once with a message naming the answering tool, as
    /// Playwright's servers do.
    pub(super) fn modal_gate(&mut self, parsed: &Parsed) -> Option<Output> {
        let page = self.session.as_ref()?.current().clone();
        let states = lock(&page.events).modal.clone();
        let dialog = states.iter().find(|m| m.is_dialog());
        let chooser = states.iter().find(|m| !m.is_dialog());
        let message = match (&parsed.call, states.first()) {
            (Call::HandleDialog(_), _) if dialog.is_some() => None,
            (Call::FileUpload(_), _) if dialog.is_none() && chooser.is_some() => None,
            (Call::HandleDialog(_), _) => {
                Some("there is no dialog to answer; browser_handle_dialog answers a dialog the page opened (it is listed under Modal state)".into())
            }
            (Call::FileUpload(_), None) => Some(
                "there is no file chooser open; click the file input first, then call browser_file_upload".into(),
            ),
            (Call::Tabs(_), _) | (Call::Batch(_), _) | (Call::Close, _) => None,
            (_, Some(_)) => {
                // A dialog holds the page first: name it.
                let m = dialog.or(states.first())?;
                Some(m.refusal(parsed.tool))
            }
            (_, None) => None,
        }?;
        Some(self.modal_output(&page, Some(format!("Error: {message}")), true))
    }

    /// A response that shows the tab's modal states (and `result`).
    fn modal_output(&mut self, page: &Page, result: Option<String>, is_error: bool) -> Output {
        let response = Response {
            result,
            is_error,
            page: page_state_of(page),
            modal_state: modal_lines(page),
            ..Response::default()
        };
        let resolved = Expectation::resolve("browser_error", &[]).expect("defaults resolve");
        match render(&response, &resolved, None) {
            Ok(r) => Output {
                text: r.text,
                is_error,
                ..Output::default()
            },
            Err(e) => Output::error(e.to_string()),
        }
    }

    /// `browser_handle_dialog`.
    pub(super) fn handle_dialog(&mut self, p: &HandleDialogParams) -> Result<Acted> {
        let tab = self.tab()?;
        let state = lock(&tab.events)
            .modal
            .iter()
            .find(|m| m.is_dialog())
            .cloned();
        let Some(ModalState::Dialog { kind, .. }) = state else {
            bail!(Error::User("there is no dialog to answer".into()));
        };
        // The page cannot run a script to mark itself while the dialog
        // holds it; the event record's mark is enough to see what follows.
        let mark = lock(&tab.events).activity.mark();
        tab.answer_dialog(p.accept, p.prompt_text.as_deref())?;
        let settled = self.settle(&tab, mark);
        let text = match (&p.prompt_text, p.accept) {
            (Some(t), true) if kind == "prompt" => format!(" with {}", js_str(t)),
            _ => String::new(),
        };
        let verb = if p.accept { "Accepted" } else { "Dismissed" };
        let code = match (&p.prompt_text, p.accept) {
            (Some(t), true) => Step::new(Recv::Dialog, "accept", vec![Arg::Str(t.clone())]),
            (None, true) => Step::new(Recv::Dialog, "accept", vec![]),
            _ => Step::new(Recv::Dialog, "dismiss", vec![]),
        };
        Ok(Acted {
            result: format!("{verb} the \"{kind}\" dialog{text}{settled}"),
            code: Some(code.into()),
            snapshot: true,
            ..Acted::default()
        })
    }

    /// `browser_file_upload`: every path checked first (see
    /// [`check_upload`]); none or an empty list cancels the chooser.
    pub(super) fn file_upload(&mut self, p: &FileUploadParams) -> Result<Acted> {
        let tab = self.tab()?;
        let state = lock(&tab.events)
            .modal
            .iter()
            .find(|m| !m.is_dialog())
            .cloned();
        let Some(ModalState::FileChooser {
            backend_node,
            multiple,
        }) = state
        else {
            bail!(Error::User("there is no file chooser open".into()));
        };
        let paths = p.paths.clone().unwrap_or_default();
        if paths.is_empty() {
            tab.clear_file_chooser();
            return Ok(Acted {
                result: "Cancelled the file chooser".into(),
                snapshot: true,
                ..Acted::default()
            });
        }
        if !multiple && paths.len() > 1 {
            bail!(Error::User(format!(
                "the file chooser takes one file and {} paths were given; send one",
                paths.len()
            )));
        }
        let roots =
            upload_roots(&self.config.browser.upload_roots).map_err(|e| anyhow!(Error::User(e)))?;
        let files = paths
            .iter()
            .map(|path| check_upload(path, &roots))
            .collect::<Result<Vec<_>, String>>()
            .map_err(|e| anyhow!(Error::User(format!("{e}. Nothing was uploaded"))))?;
        let (_, mark) = self.mark(&tab);
        tab.call(
            "DOM.setFileInputFiles",
            json!({ "files": files, "backendNodeId": backend_node }),
        )?;
        tab.clear_file_chooser();
        let settled = self.settle(&tab, mark);
        let names: Vec<String> = files
            .iter()
            .map(|f| {
                f.file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default()
            })
            .collect();
        Ok(Acted {
            result: format!(
                "Set {} file{} on the file chooser: {}{settled}",
                files.len(),
                if files.len() == 1 { "" } else { "s" },
                names.join(", ")
            ),
            code: Some(Step::new(Recv::FileChooser, "setFiles", vec![Arg::Paths(paths)]).into()),
            snapshot: true,
            ..Acted::default()
        })
    }

    /// Whether a navigation that failed with `err` started a download
    /// instead (Chromium aborts it; the download event may come just
    /// after the navigation's answer).
    pub(super) fn download_began(&self, err: &str) -> bool {
        if !err.contains("ERR_ABORTED") {
            return false;
        }
        let Some(session) = self.session.as_ref() else {
            return false;
        };
        let (downloads, only) = (session.downloads(), session.download_frames());
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
        while std::time::Instant::now() < deadline {
            if lock(downloads).has_new(only.as_deref()) {
                return true;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        false
    }

    /// The targets of the open tabs, to see which ones an action opens.
    pub(super) fn tab_targets(&self) -> Vec<String> {
        self.session
            .as_ref()
            .map(|s| s.pages().iter().map(|p| p.target_id().to_owned()).collect())
            .unwrap_or_default()
    }

    /// After an action: adopts the tabs it opened and says so in the
    /// result (the agent selects one with browser_tabs; the current tab
    /// stays), and waits for the downloads it started.
    pub(super) fn after_action(&mut self, acted: &mut Acted, before: &[String]) {
        let timeout = self.timeout();
        let Some(session) = self.session.as_mut() else {
            return;
        };
        if session.sync_tabs().is_ok() {
            for (i, page) in session.pages().iter().enumerate() {
                if before.iter().any(|t| t == page.target_id()) {
                    continue;
                }
                let url = page
                    .target_info()
                    .map(|(u, _)| u)
                    .filter(|u| !u.is_empty())
                    .unwrap_or_else(|| "about:blank".into());
                if !acted.result.is_empty() {
                    acted.result.push('\n');
                }
                acted.result.push_str(&format!(
                    "Opened a new tab {i} ({url}); switch to it with browser_tabs {{action: \"select\", index: {i}}}"
                ));
                acted.tabs = true;
            }
        }
        let downloads = std::sync::Arc::clone(session.downloads());
        let only = session.download_frames();
        crate::downloads::wait(&downloads, only.as_deref(), timeout);
        for d in lock(&downloads).take_new(only.as_deref()) {
            acted.downloads.push(Download {
                name: d.name,
                path: d.path.map(|p| self.config.response.file_paths.show(&p)),
                size: d.size,
            });
        }
    }
}
