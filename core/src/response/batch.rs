//! The layout of a batch of tool calls (fast-playwright-mcp's
//! `browser_batch_execute`): a summary, then each step's rendered response
//! under a heading of its own, one level down.

use crate::prelude::*;

/// One step of a batch, as the host ran it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BatchStep {
    /// The tool the step called (`browser_click`).
    pub tool: String,
    /// Whether the step succeeded.
    pub ok: bool,
    /// The step's response as [`super::render`] printed it (or the host's
    /// error text), its sections under `### ` headings.
    pub text: String,
}

/// What [`render_batch`] lays out: the steps that ran and where the batch
/// stopped.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BatchReport {
    /// The steps that ran, in order.
    pub steps: Vec<BatchStep>,
    /// How many steps the batch had, those that did not run included.
    pub total: usize,
    /// The step (1-based) whose failure stopped the batch
    /// (`stopOnFirstError`), when one did.
    pub stopped_at: Option<usize>,
}

/// A batch as one Markdown text: `### Batch`, a line summing it up, then
/// each step under `### Step n: tool (ok|failed)`, its own `### ` headings
/// moved one level down (`#### `).
///
/// ```
/// use response_diff::response::{BatchReport, BatchStep, render_batch};
///
/// let step = |tool: &str, ok: bool, text: &str| BatchStep { tool: tool.into(), ok, text: text.into() };
/// let report = BatchReport {
///     steps: vec![
///         step("browser_navigate", true, "### Result\nNavigated"),
///         step("browser_click", false, "### Result\nError: ref e99 is not on the page"),
///     ],
///     total: 3,
///     stopped_at: Some(2),
/// };
/// assert_eq!(
///     render_batch(&report),
///     concat!(
///         "### Batch\n",
///         "2 of 3 steps ran: 1 ok, failed: step 2 (browser_click). ",
///         "Stopped at step 2 (stopOnFirstError); step 3 did not run.\n",
///         "\n",
///         "### Step 1: browser_navigate (ok)\n#### Result\nNavigated\n",
///         "\n",
///         "### Step 2: browser_click (failed)\n#### Result\nError: ref e99 is not on the page",
///     )
/// );
/// ```
pub fn render_batch(report: &BatchReport) -> String {
    let ok = report.steps.iter().filter(|s| s.ok).count();
    let failed: Vec<String> = (1..)
        .zip(&report.steps)
        .filter(|(_, s)| !s.ok)
        .map(|(n, s)| format!("{n} ({})", s.tool))
        .collect();
    let total = report.total;
    let mut text = format!(
        "### Batch\n{} of {total} steps ran: {ok} ok",
        report.steps.len()
    );
    if !failed.is_empty() {
        text.push_str(", failed: step ");
        text.push_str(&failed.join(", step "));
    }
    if let Some(n) = report.stopped_at {
        text.push_str(&format!(". Stopped at step {n} (stopOnFirstError)"));
        match total.saturating_sub(n) {
            0 => {}
            1 => text.push_str(&format!("; step {total} did not run")),
            _ => text.push_str(&format!("; steps {}..{total} did not run", n + 1)),
        }
    }
    text.push('.');
    for (n, step) in (1..).zip(&report.steps) {
        let status = if step.ok { "ok" } else { "failed" };
        text.push_str(&format!("\n\n### Step {n}: {} ({status})\n", step.tool));
        text.push_str(&demote(&step.text));
    }
    text
}

/// `### ` headings become `#### `, under the step's own heading. Lines are
/// split as [`str::lines`] splits them and joined with `\n`.
fn demote(text: &str) -> String {
    text.lines()
        .map(|l| match l.strip_prefix("### ") {
            Some(rest) => format!("#### {rest}"),
            None => l.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(tool: &str, ok: bool, text: &str) -> BatchStep {
        BatchStep {
            tool: tool.into(),
            ok,
            text: text.into(),
        }
    }

    #[test]
    fn summary_counts_failures_and_where_it_stopped() {
        let two = |stopped_at, total| BatchReport {
            steps: vec![step("a", false, ""), step("b", false, "")],
            total,
            stopped_at,
        };
        assert!(
            render_batch(&two(None, 2)).starts_with(
                "### Batch\n2 of 2 steps ran: 0 ok, failed: step 1 (a), step 2 (b).\n"
            )
        );
        assert!(render_batch(&two(Some(2), 2)).starts_with(
            "### Batch\n2 of 2 steps ran: 0 ok, failed: step 1 (a), step 2 (b). Stopped at step 2 (stopOnFirstError).\n"
        ));
        assert!(
            render_batch(&two(Some(2), 5))
                .contains("(stopOnFirstError); steps 3..5 did not run.\n")
        );
        let all_ok = BatchReport {
            steps: vec![step("a", true, "x")],
            total: 1,
            stopped_at: None,
        };
        assert_eq!(
            render_batch(&all_ok),
            "### Batch\n1 of 1 steps ran: 1 ok.\n\n### Step 1: a (ok)\nx"
        );
    }

    #[test]
    fn only_level_three_headings_move_down() {
        assert_eq!(
            demote("### A\n#### B\n## C\n ### D\r\n### E\n"),
            "#### A\n#### B\n## C\n ### D\n#### E"
        );
    }
}
