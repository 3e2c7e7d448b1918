//! Capture after an action: page state, tabs, new console messages and
//! dialogs, the accessibility tree with refs carried; and the fingerprint.

use std::time::Duration;

use anyhow::{Result, anyhow};
use response_diff::fingerprint::{Depth, ExtractOptions, Fingerprint, Scope};
use response_diff::response::{ConsoleMessage, Response, Tab as TabInfo};
use serde_json::json;

use super::page::{modal_lines, page_info, page_state_of};
use super::state::{Acted, Engine, Performed};
use crate::ax::AxSnapshot;
use crate::browser::Page;
use crate::error::{Error, lock};
use crate::refs::Carried;

impl Engine {
    pub(super) fn capture(&mut self, acted: Acted) -> Result<Performed> {
        let session = self.session.as_mut().ok_or_else(|| anyhow!("no browser"))?;
        let handle = session.current();
        let tab = handle.clone();
        let key = handle.key().to_owned();
        let held = tab.dialog_open();
        let info = if held { None } else { page_info(&tab).ok() };
        let doc = info.as_ref().map(|i| i.1.clone()).unwrap_or_default();
        let page = match info {
            Some(i) => Some(i.0),
            None => page_state_of(&tab),
        };
        let show_tabs = acted.tabs || session.pages().len() > 1;
        let tabs = if show_tabs {
            let current = session.current_index();
            session
                .pages()
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    let info = page_state_of(t).unwrap_or_default();
                    TabInfo {
                        index: i,
                        title: info.title,
                        url: info.url,
                        current: i == current,
                    }
                })
                .collect()
        } else {
            Vec::new()
        };
        let mut console = Vec::new();
        let mut result = acted.result;
        {
            let mut ev = lock(&handle.events);
            let from = if acted.all_console { 0 } else { ev.reported };
            if acted.all_console && ev.dropped > 0 {
                console.push(ConsoleMessage::new(
                    "info",
                    format!("({} older messages were not kept)", ev.dropped),
                ));
            }
            let level = self.config.response.console_level;
            console.extend(
                ev.console[from.min(ev.console.len())..]
                    .iter()
                    .filter(|m| level.shows(&m.level))
                    .map(|m| ConsoleMessage {
                        level: m.level.clone(),
                        text: m.text.clone(),
                        location: m.location.clone(),
                    }),
            );
            ev.reported = ev.console.len();
            for d in ev.dialogs.drain(..) {
                result.push_str(&format!("\nA dialog opened: {d}."));
            }
        }
        // A dialog holds the page: no tree to read until it is answered.
        let raw_tree = if acted.snapshot && !held {
            match tab.call("Accessibility.getFullAXTree", json!({})) {
                // A page script kept the tab busy; `Page::call` stopped it
                // (the note below says so), so the tree can be read now.
                Err(e) if Error::is_call_timeout(&e) => {
                    Some(tab.call("Accessibility.getFullAXTree", json!({}))?)
                }
                // A dialog opened after the action: the response shows it.
                Err(_) if tab.dialog_open() => None,
                r => Some(r?),
            }
        } else {
            None
        };
        let (ax, carried) = if let Some(raw_tree) = raw_tree {
            let url = page.as_ref().map(|p| p.url.as_str()).unwrap_or_default();
            let ax = AxSnapshot::read(&tab, raw_tree, Some(url))?;
            let carried = self.refs.carry(&key, &doc, url, &ax.tree())?;
            (Some(ax), carried)
        } else {
            (None, Carried::default())
        };
        // A script stopped while acting, settling or reading.
        if let Some(note) = tab.take_stopped_script() {
            result.push('\n');
            result.push_str(&note);
        }
        let tree = ax.as_ref().map(|_| carried.tree.clone());
        let lang = self.config.response.codegen.unwrap_or_default();
        let response = Response {
            result: Some(result).filter(|r| !r.is_empty()),
            code: acted.code.map(|c| c.render(lang)),
            code_lang: Some(lang.fence().to_owned()).filter(|l| l != "js"),
            tabs,
            tabs_requested: acted.tabs,
            page,
            console,
            images: acted.images,
            downloads: acted.downloads,
            modal_state: modal_lines(&tab),
            ..Response::default()
        };
        Ok(Performed {
            tab,
            key,
            doc,
            response,
            ax,
            tree,
            carried,
            since: acted.since,
            network: acted.network,
            find: acted.find,
        })
    }
}

/// Runs the core's page-side extractor and parses its result.
pub fn capture_fingerprint(
    tab: &Page,
    scope: Option<&str>,
    depth: Option<&str>,
) -> Result<Fingerprint> {
    let scope: Scope = match scope {
        Some(s) => s.parse()?,
        None => Scope::Full,
    };
    let depth: Depth = match depth {
        Some(d) => d.parse()?,
        None => Depth::Standard,
    };
    let js = ExtractOptions::new(scope, depth).expression();
    let v = tab.evaluate(&js, false, Duration::from_secs(10))?;
    let json = v
        .as_str()
        .ok_or_else(|| anyhow!("the fingerprint extractor returned no JSON"))?;
    Ok(Fingerprint::from_json(json)?)
}
