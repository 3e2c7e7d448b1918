//! One call from arguments to output: validation, the modal gate, the
//! expectation resolved from its layers, the action, the capture and the
//! render; and batches of calls.

use response_diff::expectation::{Expectation, ResolvedExpectation};
use response_diff::response::{BatchReport, BatchStep, continue_shown, render_batch};
use serde_json::{Map, Value};

use super::state::{Engine, Output};
use crate::error::Error;
use crate::options::{Codegen, SnapshotMode};
use crate::tools::{self, Batch, Call, Parsed};

/// What `--snapshot-mode` adds to every call's expectation: diffs on
/// (`diff`), nothing (`full`), or no snapshot but in `browser_snapshot`
/// (`none`).
fn mode_default(mode: SnapshotMode, tool: &str) -> Expectation {
    match mode {
        SnapshotMode::Full => Expectation::default(),
        SnapshotMode::Diff => Expectation {
            diff_options: Some(response_diff::diff::DiffOptions {
                enabled: Some(true),
                ..Default::default()
            }),
            ..Expectation::default()
        },
        SnapshotMode::None if tool == "browser_snapshot" => Expectation::default(),
        SnapshotMode::None => Expectation {
            include_snapshot: Some(false),
            ..Expectation::default()
        },
    }
}

/// Tools whose defaults the server refines (the core has no entry for
/// them): a fingerprint is the answer, a snapshot beside it is noise.
fn server_default(tool: &str) -> Expectation {
    match tool {
        "browser_get_dom_fingerprint"
        | "browser_compare_dom_fingerprint"
        | "browser_network_requests"
        | "browser_network_request"
        | "browser_find"
        | "browser_emulate_media"
        | "browser_pdf_save"
        | "browser_storage_state" => Expectation {
            include_snapshot: Some(false),
            ..Expectation::default()
        },
        _ => Expectation::default(),
    }
}

impl Engine {
    /// Validates and runs one tool call. Wrong arguments are
    /// [`Error::InvalidParams`] (nothing ran); everything else, failures included,
    /// is an [`Output`] (`is_error` for a failed action).
    pub fn call(&mut self, tool: &str, args: Map<String, Value>) -> Result<Output, Error> {
        let parsed = tools::parse(tool, args).map_err(Error::InvalidParams)?;
        Ok(self.run(&parsed))
    }

    /// Runs a validated call.
    pub fn run(&mut self, parsed: &Parsed) -> Output {
        self.host.call_started();
        let started = std::time::SystemTime::now();
        let mut out = match &parsed.call {
            Call::Batch(b) => self.run_batch(b),
            _ => self.run_one(parsed, None),
        };
        self.host.call_ended();
        // Password values the page wrote elsewhere, and the operator's
        // secrets (crate::secrets).
        if let std::borrow::Cow::Owned(t) = crate::secrets::scrub(&out.text) {
            out.text = t;
        }
        self.finish(parsed, out, started)
    }

    /// Resolves the expectation of a call: core tool default < server
    /// default < snapshot mode (`--snapshot-mode`) and code language
    /// (`--codegen`) < operator default < batch global < call.
    pub fn resolve(
        &self,
        tool: &str,
        global: Option<&Expectation>,
        call: &Expectation,
    ) -> Result<ResolvedExpectation, String> {
        let server = server_default(tool);
        let mut mode = mode_default(self.config.response.snapshot_mode, tool);
        // A language given asks for the code lines.
        let codegen = self.config.response.codegen;
        if codegen.is_some_and(|c| c != Codegen::None) {
            mode.include_code = Some(true);
        }
        let empty = Expectation::default();
        let layers = [
            &server,
            &mode,
            &self.config.default_expectation,
            global.unwrap_or(&empty),
            call,
        ];
        let mut resolved = Expectation::resolve(tool, &layers).map_err(|e| e.to_string())?;
        // The lean envelope (issue 15): with diffing on, the Playwright code
        // repeats the result line in another syntax (35 of the 155 o200k
        // tokens of a typed character on the bench site's form), so it is
        // left out unless a layer asks for it.
        if resolved.diff.enabled && layers.iter().all(|l| l.include_code.is_none()) {
            resolved.include_code = false;
        }
        if codegen == Some(Codegen::None) {
            resolved.include_code = false;
        }
        Ok(resolved)
    }

    fn run_one(&mut self, parsed: &Parsed, global: Option<&Expectation>) -> Output {
        if let Call::Close = parsed.call {
            return self.close();
        }
        if !self.config.caps.allows(parsed.tool) {
            return Output::error(crate::caps::not_enabled(parsed.tool).unwrap_or_default());
        }
        let resolved = match self.resolve(parsed.tool, global, &parsed.expectation) {
            Ok(r) => r,
            Err(e) => return Output::error(e),
        };
        // Reading the accessibility tree is most of a call's time (a
        // 250 KB answer for a small page): skip it when nothing shows it
        // (browser_find searches it without showing it).
        let tree = resolved.include_snapshot || matches!(parsed.call, Call::Find(_));
        match self.perform_with(parsed, tree) {
            Ok(performed) => {
                let key = performed.key.clone();
                if let Call::Snapshot(p) = &parsed.call
                    && resolved.diff.enabled
                    && performed.tree.is_some()
                {
                    self.view(&key, &performed.doc, p.full.unwrap_or(false));
                }
                self.render(&performed, &resolved, &key)
            }
            Err(out) => out,
        }
    }

    /// A `browser_snapshot` with diffs on: answered with the whole page
    /// when asked (`full`) or, under `--snapshot-mode diff`, when the tab
    /// shows another document than at its last full view; the tab's diff
    /// chain then starts again from it.
    ///
    /// A new chain of the same document takes over what the agent was
    /// shown in the one before ([`continue_shown`]), so rows shown before
    /// the full view still come back by reference after it; another
    /// document starts with nothing.
    fn view(&mut self, key: &str, doc: &str, full: bool) {
        let by_mode = self.config.response.snapshot_mode == SnapshotMode::Diff;
        let before = self.chain_key(key);
        let (seen, generation) = self.views.entry(key.to_owned()).or_default();
        if full || (by_mode && seen != doc) {
            let same_doc = seen == doc;
            *seen = doc.to_owned();
            *generation += 1;
            if same_doc {
                let after = self.chain_key(key);
                continue_shown(&self.detector, &before, &after);
            }
        }
    }

    /// A response showed the tab's whole page (the first of a chain, or
    /// the full text where a diff would not be smaller): the agent has a
    /// full view of this document.
    pub(crate) fn saw_full(&mut self, key: &str, doc: &str) {
        self.views.entry(key.to_owned()).or_default().0 = doc.to_owned();
    }

    /// The key of a tab's diff chain (its current generation, see
    /// [`Self::view`]).
    pub(crate) fn chain_key(&self, key: &str) -> String {
        match self.views.get(key) {
            Some((_, g)) if *g > 0 => format!("{key}\u{1f}view{g}"),
            _ => key.to_owned(),
        }
    }

    fn run_batch(&mut self, b: &Batch) -> Output {
        let mut report = BatchReport {
            total: b.steps.len(),
            ..BatchReport::default()
        };
        let mut images = Vec::new();
        let mut hard_failure = false;
        let mut last_ts = None;
        let mut modal_stop = None;
        for (i, step) in b.steps.iter().enumerate() {
            let out = self.run_one(&step.call, Some(&b.global));
            images.extend(out.images);
            last_ts = out.ts.or(last_ts);
            report.steps.push(BatchStep {
                tool: step.call.tool.to_owned(),
                ok: !out.is_error,
                text: out.text,
            });
            // The agent answers a dialog or file chooser before anything
            // else runs (see `modal_gate`): the batch stops there.
            if !out.is_error
                && i + 1 < b.steps.len()
                && let Some(m) = self.current_page().and_then(|p| p.modal())
            {
                modal_stop = Some((i + 1, m.cleared_by()));
                break;
            }
            if out.is_error && !step.continue_on_error {
                hard_failure = true;
                if b.stop_on_first_error {
                    report.stopped_at = Some(i + 1);
                    break;
                }
            }
        }
        let mut text = render_batch(&report);
        if let Some((n, tool)) = modal_stop
            && let Some(end) = text
                .find('\n')
                .and_then(|h| text[h + 1..].find('\n').map(|e| h + 1 + e))
        {
            let rest = if n + 1 == b.steps.len() {
                format!("step {} did not run", n + 1)
            } else {
                format!("steps {}..{} did not run", n + 1, b.steps.len())
            };
            text.insert_str(
                end,
                &format!(" Stopped after step {n}: the page waits for an answer ({tool}); {rest}."),
            );
        }
        Output {
            text,
            images,
            is_error: hard_failure,
            ts: last_ts,
        }
    }
}
