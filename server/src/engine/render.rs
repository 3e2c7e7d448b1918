//! Rendering glue: what the server hands the core's one rendering path
//! ([`response_diff::response::render`]) for a captured call: the snapshot
//! scoped (core selector or CSS in the page), a `since` read, HTML.

use std::time::Duration;

use anyhow::{Context, Result, anyhow, bail};
use response_diff::diff::DiffMode;
use response_diff::expectation::{ResolvedExpectation, SnapshotFormat};
use response_diff::response::{DiffTarget, Section, Snapshot, fence, render, truncate_lines};
use response_diff::tree::{self, Filter, FindOptions, FindQuery, Selector, Tree, TreeDiffOptions};
use serde_json::{Value, json};

use super::scripts;
use super::state::{Engine, Output, Performed};
use crate::browser::Page;
use crate::error::{Error, describe as describe_error};
use crate::refs::Carried;
use crate::tools;

impl Engine {
    /// Renders a captured call under `resolved`. `key` keys both the
    /// response diff chain and the `since` store (the tab id in the server;
    /// the demo renders one capture under several keys).
    pub fn render(&mut self, p: &Performed, resolved: &ResolvedExpectation, key: &str) -> Output {
        self.render_since(p, resolved, key, p.since)
    }

    /// Like [`Self::render`] with an explicit `since`.
    pub fn render_since(
        &mut self,
        p: &Performed,
        resolved: &ResolvedExpectation,
        key: &str,
        since: Option<u64>,
    ) -> Output {
        match self.try_render(p, resolved, key, since) {
            Ok(o) => o,
            Err(e) => Output::error(describe_error(&e)),
        }
    }

    fn try_render(
        &mut self,
        p: &Performed,
        resolved: &ResolvedExpectation,
        key: &str,
        since: Option<u64>,
    ) -> Result<Output> {
        let mut response = p.response.clone();
        let mut resolved = resolved.clone();
        let mut diff_key = self.chain_key(key);
        let mut ts = None;
        if let Some(f) = &p.find {
            let text = self.find_text(p, f)?;
            response.result = Some(match response.result.take() {
                Some(r) => format!("{r}\n{text}"),
                None => text,
            });
        }
        if let Some(list) = &p.network {
            let text = super::listing::render_list(&self.detector, key, list, &resolved)?;
            response.result = Some(match response.result.take() {
                Some(r) => format!("{r}\n{text}"),
                None => text,
            });
        }
        if let (true, Some(tree), Some(ax)) = (resolved.include_snapshot, &p.tree, &p.ax) {
            let selector = resolved.snapshot.selector.clone();
            // Resolve the selector: core syntax (ref, role) or CSS in the page.
            let mut scope: Option<Selector> = None;
            let mut css_tree: Option<Tree> = None;
            let mut css_backend = None;
            let mut notice = None;
            if let Some(sel) = &selector {
                match Selector::parse(sel) {
                    Ok(s) => scope = Some(s),
                    Err(_) => match css_to_backend(&p.tab, sel)? {
                        None => {
                            notice = Some(format!(
                                "No element matches selector `{sel}`; take a snapshot without a selector to see the page."
                            ))
                        }
                        Some(b) => match ax.subtree(b).filter(|t| !t.is_empty()) {
                            Some(t) => {
                                css_tree = Some(p.carried.relabel(t));
                                css_backend = Some(b);
                                let r = p.carried.node_to_ref.get(&b).cloned();
                                scope = Some(Selector::Ref(r.unwrap_or_else(|| format!("e{b}"))));
                            }
                            None => {
                                notice = Some(format!(
                                    "The element matching `{sel}` is not shown in the accessibility tree (it is hidden or has no accessible content)."
                                ))
                            }
                        },
                    },
                }
            }
            let record = self.since.read(
                key,
                tree.clone(),
                since,
                &TreeDiffOptions {
                    filter: Filter {
                        scope: scope.clone().filter(|_| since.is_some()),
                        ..Filter::default()
                    },
                    ..TreeDiffOptions::default()
                },
            );
            ts = Some(record.ts);
            if let Some(n) = notice {
                response.snapshot_section = Some(Section {
                    heading: "Page snapshot".into(),
                    body: n,
                });
            } else if since.is_some() {
                let mut body = record.render(tree::TreeDiffFormat::Agent);
                if let Some(max) = resolved.snapshot.max_length {
                    let (kept, marker) = truncate_lines(&body, max);
                    body = match marker {
                        Some(m) => format!("{kept}{m}"),
                        None => kept,
                    };
                }
                let heading = match record.outcome {
                    tree::ReadOutcome::Diff(_) => format!(
                        "Page snapshot (changes since ts {})",
                        since.unwrap_or_default()
                    ),
                    _ => "Page snapshot".to_owned(),
                };
                response.snapshot_section = Some(Section {
                    heading,
                    body: fence("", &body),
                });
            } else {
                let (aria, scoped_away) = match &css_tree {
                    Some(t) => (t.to_aria(), true),
                    None => (tree.to_aria(), false),
                };
                if scoped_away {
                    // The subtree is already cut; the core must not re-select.
                    resolved.snapshot.selector = None;
                    diff_key = format!("{diff_key}\u{1f}css:{}", selector.as_deref().unwrap_or(""));
                }
                let html = if resolved.snapshot_format() == SnapshotFormat::Html {
                    Some(outer_html(
                        &p.tab,
                        css_backend,
                        scope.as_ref(),
                        tree,
                        &p.carried,
                    )?)
                } else {
                    None
                };
                if html.is_some() {
                    // The host scoped the HTML itself.
                    resolved.snapshot.selector = None;
                    diff_key =
                        format!("{diff_key}\u{1f}html:{}", selector.as_deref().unwrap_or(""));
                }
                response.snapshot = Some(Snapshot { aria, html });
                // The ts is for `since` reads; a diffed response already
                // says what changed, so it goes without (Output::ts keeps it).
                if !resolved.diff.enabled {
                    let line = format!("Snapshot ts: {}", record.ts);
                    response.result = Some(match response.result.take() {
                        Some(r) => format!("{r}\n{line}"),
                        None => line,
                    });
                }
            }
        }
        let target = DiffTarget {
            detector: &self.detector,
            key: &diff_key,
        };
        let rendered = render(&response, &resolved, Some(target))?;
        let whole_page = resolved.snapshot.selector.is_none()
            && resolved.snapshot_format() == SnapshotFormat::Aria
            && rendered
                .snapshot_diff
                .as_ref()
                .is_some_and(|d| matches!(d.mode, DiffMode::First | DiffMode::Full));
        if whole_page {
            self.saw_full(key, &p.doc);
        }
        Ok(Output {
            text: rendered.text,
            images: rendered.images,
            is_error: rendered.is_error,
            ts,
        })
    }
}

impl Engine {
    /// `browser_find`: the core's search of the snapshot the agent would
    /// read (refs carried, so they act like a snapshot's), or its file.
    fn find_text(&mut self, p: &Performed, f: &tools::FindParams) -> Result<String> {
        let Some(tree) = &p.tree else {
            bail!(Error::User(
                "the page could not be read (a dialog holds it?); answer it, then search again"
                    .into()
            ));
        };
        let query = match (&f.text, &f.regex) {
            (Some(t), _) => FindQuery::text(t),
            (None, Some(r)) => FindQuery::regex(r),
            (None, None) => bail!(Error::User("browser_find: give `text` or `regex`".into())),
        }
        .map_err(|e| anyhow!(Error::User(format!("browser_find: {e}"))))?;
        let found = tree::find(&tree.to_aria(), &query, &FindOptions::default());
        let Some(name) = &f.filename else {
            return Ok(found.text);
        };
        let path = self.output_dir()?.join(name);
        std::fs::write(&path, format!("{}\n", found.text))
            .with_context(|| format!("writing {}", path.display()))?;
        Ok(format!(
            "Saved {} match{} to {}",
            found.matches,
            if found.matches == 1 { "" } else { "es" },
            path.display()
        ))
    }
}

/// The backend id of the first element matching a CSS selector, `None` when
/// nothing matches; an invalid selector is an error naming the field.
pub(super) fn css_to_backend(tab: &Page, css: &str) -> Result<Option<i64>> {
    let r = tab.call(
        "Runtime.evaluate",
        json!({
            "expression": scripts::query_selector(css),
            "returnByValue": false,
        }),
    )?;
    if r.get("exceptionDetails").is_some() {
        bail!(Error::User(format!(
            "invalid option `expectation.snapshotOptions.selector`: `{css}` is neither a ref (e12), a role with an optional quoted name (list \"Cart\"), nor valid CSS"
        )));
    }
    let Some(object) = r.pointer("/result/objectId").and_then(Value::as_str) else {
        return Ok(None);
    };
    let b = tab.backend_of(object)?;
    let _ = tab.call("Runtime.releaseObject", json!({ "objectId": object }));
    Ok(Some(b))
}

/// Outer HTML of the snapshot's scope (the whole document without one).
pub(super) fn outer_html(
    tab: &Page,
    css_backend: Option<i64>,
    scope: Option<&Selector>,
    tree: &Tree,
    carried: &Carried,
) -> Result<String> {
    let backend = match (css_backend, scope) {
        (Some(b), _) => Some(b),
        (None, Some(sel)) => match tree
            .find(sel)
            .and_then(|e| e.aria_ref.as_ref())
            .and_then(|r| carried.ref_to_node.get(r).copied())
        {
            Some(b) => Some(b),
            None => return Ok(String::new()),
        },
        (None, None) => None,
    };
    match backend {
        None => Ok(tab
            .evaluate(scripts::DOCUMENT_HTML, false, Duration::from_secs(5))?
            .as_str()
            .unwrap_or_default()
            .to_owned()),
        Some(b) => {
            let el = crate::frames::resolve(tab, b)
                .ok_or_else(|| anyhow!(Error::NotOnPage(crate::frames::ref_text(b))))?;
            Ok(el
                .frame
                .call_on(&el.object, scripts::OUTER_HTML, &[])?
                .as_str()
                .unwrap_or_default()
                .to_owned())
        }
    }
}
