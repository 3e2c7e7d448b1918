//! What a response says about the page itself: URL and title (from the
//! page, or from the browser while a dialog holds it), the document's
//! token, and the tab's modal states. Read by the capture, the modal tools
//! and the session.

use std::time::Duration;

use anyhow::Result;
use response_diff::response::PageState;
use serde_json::Value;

use super::scripts;
use crate::browser::Page;
use crate::error::lock;
use crate::modal::ModalState;

/// The page state and a token of the current document (its time origin:
/// the same for the life of a document, pushState included; different for
/// every load).
pub(super) fn page_info(tab: &Page) -> Result<(PageState, String)> {
    let v = tab.evaluate(scripts::PAGE_INFO, false, Duration::from_secs(2))?;
    let s = |i: usize| {
        v.get(i)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned()
    };
    Ok((
        PageState {
            url: s(0),
            title: s(1),
        },
        s(2),
    ))
}

/// URL and title, read from the page.
pub(super) fn page_state(tab: &Page) -> Result<PageState> {
    let v = tab.evaluate(scripts::PAGE_STATE, false, Duration::from_secs(2))?;
    Ok(PageState {
        url: v
            .get(0)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned(),
        title: v
            .get(1)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned(),
    })
}

/// The tab's modal states as lines of the "Modal state" section.
pub(super) fn modal_lines(page: &Page) -> Vec<String> {
    lock(&page.events)
        .modal
        .iter()
        .map(ModalState::line)
        .collect()
}

/// URL and title: from the page, or from the browser while a dialog holds
/// the page.
pub(super) fn page_state_of(page: &Page) -> Option<PageState> {
    if !page.dialog_open()
        && let Ok(s) = page_state(page)
    {
        return Some(s);
    }
    page.target_info()
        .map(|(url, title)| PageState { url, title })
}
