//! The regression benchmark (in the spirit of docs/DECISIONS.md D18): controlled
//! regressions of each kind on the dashboard fixture, plus reloads of
//! dynamic content and harmless edits that must not be flagged.
//!
//! Every variant is served at the *same URL* as its baseline, so only the
//! page's content differs. A case counts as *detected* when compare reports
//! at least one change at `warning` or above (the default threshold); it is
//! *typed right* when one of those changes has an expected kind. For the
//! harmless kinds, any change at `warning` or above is a false positive.

use std::fmt::Write as _;

use anyhow::{Result, bail};
use headless_chrome::Tab;
use response_diff::fingerprint::{
    ChangeKind, ExtractOptions, Fingerprint, FingerprintChange, FingerprintComparison, Severity,
    compare,
};

use crate::{Server, capture, load, pages::fixture};

/// The kind of a case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// A button, field, link or landmark removed from the HTML.
    ElementRemoved,
    /// An error banner, alert or invalid field introduced.
    ErrorIntroduced,
    /// A list, table or heading emptied or removed.
    ContentEmptied,
    /// Something hidden or covered by CSS alone; the DOM is unchanged.
    CssOnly,
    /// The same page reloaded; dates, times, counters and ids change.
    DynamicReload,
    /// Harmless edits: an item added, a button added, cosmetic CSS.
    BenignEdit,
}

impl Kind {
    /// True for the kinds that must not be flagged.
    pub fn is_benign(self) -> bool {
        matches!(self, Kind::DynamicReload | Kind::BenignEdit)
    }

    /// A label for tables.
    pub fn label(self) -> &'static str {
        match self {
            Kind::ElementRemoved => "element removed",
            Kind::ErrorIntroduced => "error introduced",
            Kind::ContentEmptied => "content emptied",
            Kind::CssOnly => "CSS-only (hidden, covered)",
            Kind::DynamicReload => "dynamic reload (must not flag)",
            Kind::BenignEdit => "harmless edit (must not flag)",
        }
    }
}

/// How a variant is made from its base page.
#[derive(Debug, Clone)]
pub enum Edit {
    /// Replace this text (which must occur exactly once) with that.
    Replace(&'static str, &'static str),
    /// Add a stylesheet at the end of `<head>`.
    Css(&'static str),
    /// Serve the base page unchanged (a reload).
    Reload,
    /// Several edits in order.
    All(Vec<Edit>),
}

impl Edit {
    /// The variant of `html`.
    pub fn apply(&self, html: &str) -> Result<String> {
        Ok(match self {
            Edit::Replace(from, to) => {
                let n = html.matches(from).count();
                if n != 1 {
                    bail!("edit target occurs {n} times, not once: {from:?}");
                }
                html.replacen(from, to, 1)
            }
            Edit::Css(css) => {
                Edit::Replace("</head>", "").apply(html)?;
                html.replacen("</head>", &format!("<style>{css}</style>\n</head>"), 1)
            }
            Edit::Reload => html.to_owned(),
            Edit::All(edits) => {
                let mut out = html.to_owned();
                for e in edits {
                    out = e.apply(&out)?;
                }
                out
            }
        })
    }
}

/// One controlled case.
#[derive(Debug, Clone)]
pub struct Case {
    /// Short name.
    pub name: &'static str,
    /// Kind.
    pub kind: Kind,
    /// Fixture page it starts from.
    pub base: &'static str,
    /// How the variant differs.
    pub edit: Edit,
    /// Change kinds that name the regression correctly (any of them).
    pub expect: &'static [ChangeKind],
}

/// All cases.
pub fn cases() -> Vec<Case> {
    use ChangeKind::*;
    use Edit::*;
    use Kind::*;
    let d = "dashboard.html";
    let mut v = vec![
        Case {
            name: "button 'New Project' removed",
            kind: ElementRemoved,
            base: d,
            edit: Replace(
                "    <button id=\"new-project\" class=\"btn btn-primary\" type=\"button\">New Project</button>\n",
                "",
            ),
            expect: &[ElementMissing],
        },
        Case {
            name: "form field 'Email address' removed",
            kind: ElementRemoved,
            base: d,
            edit: Replace(
                "      <input type=\"email\" name=\"email\" aria-labelledby=\"email-label\">\n",
                "",
            ),
            expect: &[FormFieldMissing],
        },
        Case {
            name: "nav link 'Reports' removed",
            kind: ElementRemoved,
            base: d,
            edit: Replace("    <a href=\"/reports\">Reports</a>\n", ""),
            expect: &[ElementMissing],
        },
        Case {
            name: "footer link 'Privacy' removed",
            kind: ElementRemoved,
            base: d,
            edit: Replace("  <a href=\"/privacy\">Privacy</a>\n", ""),
            expect: &[ElementMissing],
        },
        Case {
            name: "search submit button removed",
            kind: ElementRemoved,
            base: d,
            edit: Replace("      <button type=\"submit\">Search</button>\n", ""),
            expect: &[ElementMissing],
        },
        Case {
            name: "whole <nav> removed",
            kind: ElementRemoved,
            base: d,
            edit: Replace(
                "  <nav aria-label=\"Main\">\n    <a href=\"/dashboard\">Home</a>\n    <a href=\"/projects?sort=recent\">Projects</a>\n    <a href=\"/reports\">Reports</a>\n    <a href=\"https://docs.example.com/guide\">Docs</a>\n  </nav>\n",
                "",
            ),
            expect: &[LandmarkMissing],
        },
        Case {
            name: "error banner in main",
            kind: ErrorIntroduced,
            base: d,
            edit: Replace(
                "  <h1>Dashboard</h1>",
                "  <div class=\"error-banner\" role=\"alert\">Failed to load projects</div>\n  <h1>Dashboard</h1>",
            ),
            expect: &[ErrorAppeared],
        },
        Case {
            name: ".alert-danger in header",
            kind: ErrorIntroduced,
            base: d,
            edit: Replace(
                "  <button id=\"logout\" type=\"button\">Logout</button>",
                "  <button id=\"logout\" type=\"button\">Logout</button>\n  <div class=\"alert alert-danger\">Your session has expired. Sign in again.</div>",
            ),
            expect: &[ErrorAppeared],
        },
        Case {
            name: "invalid field with message",
            kind: ErrorIntroduced,
            base: d,
            edit: Replace(
                "      <input type=\"email\" name=\"email\" aria-labelledby=\"email-label\">\n",
                "      <input type=\"email\" name=\"email\" aria-labelledby=\"email-label\" aria-invalid=\"true\">\n      <p class=\"error-message\">Enter a valid email address</p>\n",
            ),
            expect: &[ErrorAppeared],
        },
        Case {
            name: "error toast",
            kind: ErrorIntroduced,
            base: d,
            edit: Replace(
                "</body>",
                "<div class=\"toast error\">Could not save settings</div>\n</body>",
            ),
            expect: &[ErrorAppeared],
        },
        Case {
            name: "role=alert in settings",
            kind: ErrorIntroduced,
            base: d,
            edit: Replace(
                "    <h2>Settings</h2>",
                "    <h2>Settings</h2>\n    <p role=\"alert\">Network error: retrying</p>",
            ),
            expect: &[ErrorAppeared],
        },
        Case {
            name: "project list emptied",
            kind: ContentEmptied,
            base: d,
            edit: Replace(
                "      <li><a href=\"/projects/alpha\">Alpha</a></li>\n      <li><a href=\"/projects/beta\">Beta</a></li>\n      <li><a href=\"/projects/gamma\">Gamma</a></li>\n      <li><a href=\"/projects/delta\">Delta</a></li>\n      <li><a href=\"/projects/epsilon\">Epsilon</a></li>\n",
                "",
            ),
            expect: &[ListEmpty],
        },
        Case {
            name: "activity list removed",
            kind: ContentEmptied,
            base: d,
            edit: Replace(
                "    <ol class=\"activity-feed\">\n      <li>Alice pushed to Alpha</li>\n      <li>Bob opened an issue in Beta</li>\n      <li>Carol commented on Gamma</li>\n      <li>Dan merged a change in Delta</li>\n    </ol>\n",
                "",
            ),
            expect: &[ListEmpty],
        },
        Case {
            name: "team table rows removed",
            kind: ContentEmptied,
            base: d,
            edit: Replace(
                "        <tr><td>Alice</td><td>Owner</td><td>3</td></tr>\n        <tr><td>Bob</td><td>Maintainer</td><td>2</td></tr>\n        <tr><td>Carol</td><td>Reviewer</td><td>4</td></tr>\n",
                "",
            ),
            expect: &[ListEmpty],
        },
        Case {
            name: "heading 'Activity Feed' removed",
            kind: ContentEmptied,
            base: d,
            edit: Replace("    <h2>Activity Feed</h2>\n", ""),
            expect: &[HeadingMissing],
        },
        Case {
            name: "list replaced by an empty state",
            kind: ContentEmptied,
            base: d,
            edit: Replace(
                "    <ul class=\"project-list\">\n      <li><a href=\"/projects/alpha\">Alpha</a></li>\n      <li><a href=\"/projects/beta\">Beta</a></li>\n      <li><a href=\"/projects/gamma\">Gamma</a></li>\n      <li><a href=\"/projects/delta\">Delta</a></li>\n      <li><a href=\"/projects/epsilon\">Epsilon</a></li>\n    </ul>\n",
                "    <div class=\"empty-state\">No projects yet</div>\n",
            ),
            expect: &[EmptyStateAppeared, ListEmpty],
        },
        Case {
            name: "button hidden: display:none",
            kind: CssOnly,
            base: d,
            edit: Css("#new-project { display: none; }"),
            expect: &[ElementHidden],
        },
        Case {
            name: "nav hidden: visibility:hidden",
            kind: CssOnly,
            base: d,
            edit: Css("nav { visibility: hidden; }"),
            expect: &[ElementHidden],
        },
        Case {
            name: "search form hidden: opacity:0",
            kind: CssOnly,
            base: d,
            edit: Css("#search-form { opacity: 0; }"),
            expect: &[ElementHidden],
        },
        Case {
            name: "footer hidden: display:none",
            kind: CssOnly,
            base: d,
            edit: Css("footer { display: none; }"),
            expect: &[ElementHidden],
        },
        Case {
            name: "list items hidden: li display:none",
            kind: CssOnly,
            base: d,
            edit: Css(".project-list li { display: none; }"),
            expect: &[ListEmpty],
        },
        Case {
            name: "page covered: z-index overlay",
            kind: CssOnly,
            base: d,
            edit: Css("aside { position: fixed; inset: 0; z-index: 1000; background: #fff; }"),
            expect: &[ElementCovered],
        },
        // Pseudo-element overlays hit-test as the element that draws them,
        // an ancestor of what they cover (issue 26).
        Case {
            name: "page covered: transparent body::after overlay",
            kind: CssOnly,
            base: d,
            edit: Css("body::after { content: \"\"; position: fixed; inset: 0; z-index: 999; }"),
            expect: &[ElementCovered],
        },
        Case {
            name: "main covered: main::before overlay",
            kind: CssOnly,
            base: d,
            edit: Css(
                "main { position: relative; } main::before { content: \"\"; position: absolute; inset: 0; z-index: 10; background: rgba(255,255,255,.6); }",
            ),
            expect: &[ElementCovered],
        },
        Case {
            name: "buttons take no clicks: pointer-events:none",
            kind: CssOnly,
            base: d,
            edit: Css(".btn { pointer-events: none; }"),
            expect: &[ElementCovered],
        },
        Case {
            name: "dashboard reloaded",
            kind: DynamicReload,
            base: d,
            edit: Reload,
            expect: &[],
        },
    ];
    for name in [
        "orders page reloaded (1)",
        "orders page reloaded (2)",
        "orders page reloaded (3)",
        "orders page reloaded (4)",
        "orders page reloaded (5)",
    ] {
        v.push(Case {
            name,
            kind: DynamicReload,
            base: "dynamic.html",
            edit: Reload,
            expect: &[],
        });
    }
    v.extend([
        Case {
            name: "project added to the list",
            kind: BenignEdit,
            base: d,
            edit: Replace(
                "      <li><a href=\"/projects/epsilon\">Epsilon</a></li>\n",
                "      <li><a href=\"/projects/epsilon\">Epsilon</a></li>\n      <li><a href=\"/projects/zeta\">Zeta</a></li>\n",
            ),
            expect: &[],
        },
        Case {
            name: "new button 'Import Projects'",
            kind: BenignEdit,
            base: d,
            edit: Replace(
                "    <button id=\"archive\"",
                "    <button id=\"import\" class=\"btn\" type=\"button\">Import Projects</button>\n    <button id=\"archive\"",
            ),
            expect: &[],
        },
        Case {
            name: "cosmetic CSS (colours, radius, spacing)",
            kind: BenignEdit,
            base: d,
            edit: Css(
                "header { background: #def; } .btn { border-radius: 6px; } main { padding: 24px; }",
            ),
            expect: &[],
        },
        // Pseudo-elements that do not cover a control (noise traps).
        Case {
            name: "focus rings drawn with ::before",
            kind: BenignEdit,
            base: d,
            edit: Css(
                "button, a { position: relative; } button::before, a::before { content: \"\"; position: absolute; inset: -3px; border-radius: 4px; box-shadow: 0 0 0 2px transparent; }",
            ),
            expect: &[],
        },
        Case {
            name: "ripple layer ::after inside buttons",
            kind: BenignEdit,
            base: d,
            edit: Css(
                "button { position: relative; overflow: hidden; } button::after { content: \"\"; position: absolute; inset: 0; background: radial-gradient(circle, rgba(0,0,0,.1) 10%, transparent 10%); opacity: 0; }",
            ),
            expect: &[],
        },
        Case {
            name: "body::before strip at the top and main::after behind",
            kind: BenignEdit,
            base: d,
            edit: Css(
                "body::before { content: \"\"; position: fixed; top: 0; left: 0; right: 0; height: 3px; background: #08f; z-index: 999; } main { position: relative; } main::after { content: \"\"; position: absolute; inset: 0; z-index: -1; background: #fafafa; }",
            ),
            expect: &[],
        },
        Case {
            name: "tip text reworded",
            kind: BenignEdit,
            base: d,
            edit: Replace(
                "  <p>Tip: press ? for keyboard shortcuts.</p>",
                "  <p>Tip: press ? to see all keyboard shortcuts.</p>",
            ),
            expect: &[],
        },
        Case {
            name: "activity item and team row added",
            kind: BenignEdit,
            base: d,
            edit: All(vec![
                Replace(
                    "      <li>Dan merged a change in Delta</li>\n",
                    "      <li>Dan merged a change in Delta</li>\n      <li>Eve starred Epsilon</li>\n",
                ),
                Replace(
                    "        <tr><td>Carol</td><td>Reviewer</td><td>4</td></tr>\n",
                    "        <tr><td>Carol</td><td>Reviewer</td><td>4</td></tr>\n        <tr><td>Eve</td><td>Reviewer</td><td>1</td></tr>\n",
                ),
            ]),
            expect: &[],
        },
    ]);
    v
}

/// What happened to one case.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The case.
    pub case: Case,
    /// The comparison at threshold `info` (everything).
    pub comparison: FingerprintComparison,
}

impl Outcome {
    /// Changes at `warning` or above.
    pub fn flagged(&self) -> Vec<&FingerprintChange> {
        self.comparison
            .changes
            .iter()
            .filter(|c| c.severity >= Severity::Warning)
            .collect()
    }

    /// At least one change at `warning` or above.
    pub fn detected(&self) -> bool {
        !self.flagged().is_empty()
    }

    /// A flagged change has an expected kind.
    pub fn typed_right(&self) -> bool {
        self.flagged()
            .iter()
            .any(|c| self.case.expect.contains(&c.kind))
    }

    /// Flagged changes whose kind was not expected.
    pub fn unrelated(&self) -> Vec<&FingerprintChange> {
        self.flagged()
            .into_iter()
            .filter(|c| !self.case.expect.contains(&c.kind))
            .collect()
    }

    /// Same hash as the baseline.
    pub fn hash_equal(&self) -> bool {
        self.comparison.baseline_hash == self.comparison.current_hash
    }
}

/// The path every variant of `base` is served at.
fn app_path(base: &str) -> String {
    format!("/app/{}", base.trim_end_matches(".html"))
}

fn capture_variant(tab: &Tab, server: &Server, base: &str, html: String) -> Result<Fingerprint> {
    let path = app_path(base);
    server.put(&path, html);
    load(tab, &server.url(&path))?;
    capture(tab, &ExtractOptions::default())
}

/// Runs every case in `tab`, pages served by `server`. Baselines are
/// captured once per base page.
pub fn run(tab: &Tab, server: &Server, cases: &[Case]) -> Result<Vec<Outcome>> {
    let mut baselines: Vec<(&str, Fingerprint, String)> = Vec::new();
    let mut out = Vec::new();
    for case in cases {
        let (baseline, html) = match baselines.iter().find(|(b, _, _)| *b == case.base) {
            Some((_, fp, html)) => (fp.clone(), html.clone()),
            None => {
                let html = fixture(case.base)?;
                let fp = capture_variant(tab, server, case.base, html.clone())?;
                baselines.push((case.base, fp.clone(), html.clone()));
                (fp, html)
            }
        };
        let variant = case.edit.apply(&html)?;
        let current = capture_variant(tab, server, case.base, variant)?;
        let comparison = compare(&baseline, &current, Severity::Info);
        out.push(Outcome {
            case: case.clone(),
            comparison,
        });
    }
    Ok(out)
}

/// The Markdown report: one summary row per kind, then one row per case.
pub fn report(outcomes: &[Outcome]) -> String {
    let mut s = String::new();
    let kinds = [
        Kind::ElementRemoved,
        Kind::ErrorIntroduced,
        Kind::ContentEmptied,
        Kind::CssOnly,
        Kind::DynamicReload,
        Kind::BenignEdit,
    ];
    s.push_str("| kind | cases | detected (≥ warning) | typed right | unrelated changes ≥ warning | false positives | same hash |\n");
    s.push_str("|---|---:|---:|---:|---:|---:|---:|\n");
    let (mut reg_n, mut reg_det, mut ben_n, mut ben_fp) = (0, 0, 0, 0);
    for kind in kinds {
        let of: Vec<&Outcome> = outcomes.iter().filter(|o| o.case.kind == kind).collect();
        if of.is_empty() {
            continue;
        }
        let n = of.len();
        let detected = of.iter().filter(|o| o.detected()).count();
        let typed = of.iter().filter(|o| o.typed_right()).count();
        let unrelated: usize = of.iter().map(|o| o.unrelated().len()).sum();
        let same = of.iter().filter(|o| o.hash_equal()).count();
        if kind.is_benign() {
            ben_n += n;
            ben_fp += detected;
            let _ = writeln!(
                s,
                "| {} | {n} | – | – | – | {detected}/{n} ({}) | {same}/{n} |",
                kind.label(),
                pct(detected, n)
            );
        } else {
            reg_n += n;
            reg_det += detected;
            let _ = writeln!(
                s,
                "| {} | {n} | {detected}/{n} ({}) | {typed}/{n} | {unrelated} | – | {same}/{n} |",
                kind.label(),
                pct(detected, n)
            );
        }
    }
    let _ = writeln!(
        s,
        "| **all regressions** | {reg_n} | **{reg_det}/{reg_n} ({})** | | | | |",
        pct(reg_det, reg_n)
    );
    let _ = writeln!(
        s,
        "| **all harmless** | {ben_n} | | | | **{ben_fp}/{ben_n} ({})** | |",
        pct(ben_fp, ben_n)
    );
    s.push_str(
        "\n| case | kind | verdict | changes at ≥ warning (all changes) |\n|---|---|---|---|\n",
    );
    for o in outcomes {
        let verdict = match (o.case.kind.is_benign(), o.detected(), o.typed_right()) {
            (true, false, _) => "ok (not flagged)",
            (true, true, _) => "FALSE POSITIVE",
            (false, true, true) => "detected",
            (false, true, false) => "detected, other type",
            (false, false, _) => "MISSED",
        };
        let flagged: Vec<String> = o
            .flagged()
            .iter()
            .map(|c| {
                format!(
                    "{} {}",
                    c.kind,
                    c.element
                        .text
                        .as_deref()
                        .or(c.element.selector.as_deref())
                        .unwrap_or("")
                )
            })
            .collect();
        let _ = writeln!(
            s,
            "| {} | {} | {verdict} | {} ({} total) |",
            o.case.name,
            o.case.kind.label(),
            if flagged.is_empty() {
                "–".to_owned()
            } else {
                flagged.join("; ")
            },
            o.comparison.changes.len()
        );
    }
    s
}

fn pct(a: usize, n: usize) -> String {
    if n == 0 {
        "–".into()
    } else {
        format!("{:.0} %", 100.0 * a as f64 / n as f64)
    }
}
