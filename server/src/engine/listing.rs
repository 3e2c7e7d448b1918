//! `browser_network_requests`: the tab's request list, diffed like any
//! other section when `diffOptions.enabled` (the core's detector, keyed by
//! the tab and `network`), so a second look after one more request costs
//! that request's line.

use anyhow::{Context, Result};
use response_diff::diff::{DiffMode, ResponseDiffDetector};
use response_diff::expectation::ResolvedExpectation;

use super::{Acted, Engine};
use crate::error::{Error, lock};
use crate::tools::{self, NetworkParams};

const HEADING: &str = "Requests since the page loaded";

impl Engine {
    pub(super) fn network_requests(&mut self, p: &NetworkParams) -> Result<Acted> {
        let tab = self.tab()?;
        // Every event the page sent before now is in the log.
        tab.sync_events();
        let filter = match &p.filter {
            Some(f) => Some(tools::url_filter(f).map_err(Error::User)?),
            None => None,
        };
        let list = lock(&tab.events)
            .network
            .render(p.include_static.unwrap_or(false), filter.as_ref());
        if let Some(name) = &p.filename {
            let path = self.output_dir()?.join(name);
            std::fs::write(&path, format!("{list}\n"))
                .with_context(|| format!("writing {}", path.display()))?;
            return Ok(Acted {
                result: format!(
                    "Saved the requests since the page loaded to {} ({} lines)",
                    path.display(),
                    list.lines().count()
                ),
                ..Acted::default()
            });
        }
        Ok(Acted {
            network: Some(list),
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
