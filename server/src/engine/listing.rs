//! `browser_network_requests`: the tab's request list, diffed like any
//! other section when `diffOptions.enabled` (the core's detector, keyed by
//! the tab and `network`), so a second look after one more request costs
//! that request's line.

use anyhow::Result;
use response_diff::diff::{DiffMode, ResponseDiffDetector};
use response_diff::expectation::ResolvedExpectation;

use super::{Acted, Engine};
use crate::error::lock;
use crate::tools::NetworkParams;

const HEADING: &str = "Requests since the page loaded";

impl Engine {
    pub(super) fn network_requests(&mut self, p: &NetworkParams) -> Result<Acted> {
        let tab = self.tab()?;
        // Every event the page sent before now is in the log.
        tab.sync_events();
        let list = lock(&tab.events)
            .network
            .render(p.include_static.unwrap_or(false));
        Ok(Acted {
            network: Some(list),
            code: None,
            snapshot: true,
            ..Acted::default()
        })
    }
}

/// The result text of a request list: in full, or with diffing on, what
/// changed since the list this chain last showed.
pub(super) fn render_list(
    detector: &ResponseDiffDetector,
    key: &str,
    list: &str,
    resolved: &ResolvedExpectation,
) -> Result<String> {
    if !resolved.diff.enabled {
        return Ok(format!("{HEADING}:\n{list}"));
    }
    let r = detector.detect(&format!("{key}\u{1f}network"), list, &resolved.diff)?;
    Ok(match r.mode {
        DiffMode::Unchanged => format!("{HEADING}: {}", r.formatted_diff),
        DiffMode::Diff => format!(
            "{HEADING} (diff since the previous list):\n{}",
            r.formatted_diff
        ),
        _ => format!("{HEADING}:\n{}", r.formatted_diff),
    })
}
