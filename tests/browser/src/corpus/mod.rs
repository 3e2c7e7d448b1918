//! The regression corpus on apps nobody here wrote: TodoMVC in several
//! frameworks (npm `todomvc`), jsoneditor's bundled examples (npm
//! `jsoneditor`), reveal.js's demo deck (npm `reveal.js`), plus the
//! project's dashboard fixture.
//!
//! Regressions are generated from a small table per app (which element to
//! remove, which list to empty, what to cover…): each entry becomes a
//! script evaluated in the live page after it has loaded, at the same URL
//! as the baseline. The baseline is captured once per app from a plain
//! load; every regression is a fresh load plus its script. Benign-noise
//! traps (dates, relative times, counters, random and all-digit ids, a
//! rotating banner, animation state, focus) inject the same markup with two
//! different seeds into two loads; any change at `warning` or above
//! between them is a false positive.
//!
//! The apps are installed by `make fingerprint-apps` (npm ci in
//! `tests/browser/apps`) and served from 127.0.0.1 under `/apps/`.

use std::fmt::Write as _;

use response_diff::fingerprint::ChangeKind;

mod run;

pub use run::{Outcome, check_installed, report, run, wait_for};

/// An app of the corpus.
#[derive(Debug, Clone)]
pub struct App {
    /// Short name (`todomvc/react`).
    pub name: &'static str,
    /// URL path on the test server.
    pub path: &'static str,
    /// A script run on every load before the expression below is awaited
    /// (jsoneditor's first example shows its JSON when "Set JSON" is clicked).
    pub prepare: &'static str,
    /// A JS expression that is true once the app has rendered.
    pub ready: &'static str,
    /// Todo items to add through the real UI (typed into `#new-todo`, then
    /// Enter) before the baseline; the first is then checked off. Stored by
    /// the app in localStorage, so every later load shows them.
    pub todos: &'static [&'static str],
    /// Regression targets.
    pub targets: Targets,
}

/// What each kind of regression acts on, as CSS selectors in the app.
#[derive(Debug, Clone, Default)]
pub struct Targets {
    /// Elements to remove.
    pub remove: &'static [&'static str],
    /// Elements before which an error message is inserted.
    pub error: &'static [&'static str],
    /// Lists or tables whose items are removed.
    pub empty: &'static [&'static str],
    /// Elements whose text is replaced, with the new text.
    pub text: &'static [(&'static str, &'static str)],
    /// Elements hidden by CSS (display, visibility, opacity in turn).
    pub hide: &'static [&'static str],
    /// Elements moved off-screen (negative offset, huge translate, clipped
    /// by an ancestor with overflow hidden, in turn).
    pub off_screen: &'static [&'static str],
    /// Interactive elements covered by an overlay (just over it, a
    /// transparent full-page layer, an opaque full-page layer, in turn).
    pub cover: &'static [&'static str],
    /// Controls disabled (`disabled`, or `aria-disabled` for links).
    pub disable: &'static [&'static str],
    /// Where trap markup goes (prepended); `body` when empty.
    pub noise_in: &'static str,
}

/// The kinds of seeded regression.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum RegKind {
    /// An element removed from the DOM.
    Removed,
    /// An error message shown.
    Error,
    /// A list or table emptied.
    Emptied,
    /// An element's text changed.
    TextChanged,
    /// Hidden by CSS.
    Hidden,
    /// Moved off-screen or clipped away.
    OffScreen,
    /// Covered by an overlay.
    Covered,
    /// A control disabled.
    Disabled,
}

impl RegKind {
    /// Every kind, in report order.
    pub const ALL: [RegKind; 8] = [
        RegKind::Removed,
        RegKind::Error,
        RegKind::Emptied,
        RegKind::TextChanged,
        RegKind::Hidden,
        RegKind::OffScreen,
        RegKind::Covered,
        RegKind::Disabled,
    ];

    /// A label for tables.
    pub fn label(self) -> &'static str {
        match self {
            RegKind::Removed => "element removed",
            RegKind::Error => "error shown",
            RegKind::Emptied => "list emptied",
            RegKind::TextChanged => "text changed",
            RegKind::Hidden => "hidden by CSS",
            RegKind::OffScreen => "moved off-screen",
            RegKind::Covered => "covered by an overlay",
            RegKind::Disabled => "disabled",
        }
    }

    /// Change kinds that name a regression of this kind correctly.
    pub fn expect(self) -> &'static [ChangeKind] {
        use ChangeKind::*;
        match self {
            RegKind::Removed => &[
                ElementMissing,
                LandmarkMissing,
                FormFieldMissing,
                HeadingMissing,
                ListEmpty,
            ],
            RegKind::Error => &[ErrorAppeared],
            RegKind::Emptied => &[ListEmpty, EmptyStateAppeared],
            RegKind::TextChanged => &[HeadingChanged, HeadingMissing, ElementMissing],
            RegKind::Hidden => &[ElementHidden, ListEmpty],
            RegKind::OffScreen => &[ElementHidden],
            RegKind::Covered => &[ElementCovered],
            RegKind::Disabled => &[ElementDisabled],
        }
    }
}

/// The kinds of benign noise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trap {
    /// The same page loaded again.
    Reload,
    /// A date in a link's text and href.
    Date,
    /// A relative time in a status line.
    RelativeTime,
    /// A counter in a button and a live count.
    Counter,
    /// A random hex id in element ids and a link.
    RandomId,
    /// An order id that is all digits on one load and hex on the other.
    DigitId,
    /// A carousel showing a different slide.
    RotatingBanner,
    /// A CSS animation caught at another moment.
    Animation,
    /// Focus on another control.
    Focus,
    /// A clock and a timestamped link.
    Clock,
    /// Focus rings drawn by each control's own transparent `::before`
    /// (on the second load only): the control still takes the click.
    FocusRing,
    /// A ripple layer drawn by each button's own `::after` (second load).
    Ripple,
    /// A `body::before` strip along the top and a `body::after` layer
    /// behind the content (second load): they cover no control.
    PseudoDecor,
}

impl Trap {
    /// A label for tables.
    pub fn label(self) -> &'static str {
        match self {
            Trap::Reload => "reload",
            Trap::Date => "date",
            Trap::RelativeTime => "relative time",
            Trap::Counter => "counter",
            Trap::RandomId => "random id",
            Trap::DigitId => "all-digit vs hex id",
            Trap::RotatingBanner => "rotating banner",
            Trap::Animation => "animation state",
            Trap::Focus => "focus",
            Trap::Clock => "clock and timestamp",
            Trap::FocusRing => "focus rings drawn with ::before",
            Trap::Ripple => "ripple layer ::after in buttons",
            Trap::PseudoDecor => "body::before strip, body::after behind",
        }
    }

    /// The script that adds this noise, for one seed (1 or 2).
    fn script(self, container: &str, seed: u32) -> String {
        let put = |html: String| {
            format!(
                "(() => {{ const c = document.querySelector({c}) || document.body; \
                 const d = document.createElement('div'); d.className = 'rd-noise'; \
                 d.innerHTML = {h}; c.prepend(d); }})()",
                c = js_str(container),
                h = js_str(&html)
            )
        };
        let style = |css: &str| {
            format!(
                "(() => {{ const s = document.createElement('style'); s.textContent = {}; document.head.appendChild(s); }})()",
                js_str(css)
            )
        };
        match self {
            Trap::Reload => String::new(),
            Trap::Date => {
                let date = ["2026-01-05", "2026-11-24"][seed as usize % 2];
                put(format!(
                    "<a href=\"/archive/{date}\">Archive of {date}</a> <span>Updated Jan {d}, 2026</span>",
                    d = 3 + seed * 9
                ))
            }
            Trap::RelativeTime => put(format!(
                "<span role=\"status\">Saved {} ago</span>",
                ["3 minutes", "an hour"][seed as usize % 2]
            )),
            Trap::Counter => put(format!(
                "<button type=\"button\">Notifications ({})</button> <a href=\"/inbox\">Inbox ({})</a>",
                seed * 7,
                seed * 13 + 2
            )),
            Trap::RandomId => {
                let id = ["8f3a9c2b", "c41d7e05"][seed as usize % 2];
                put(format!(
                    "<ul id=\"list-{id}\" aria-label=\"Recent\"><li><a id=\"link-{id}\" href=\"/item/{id}\">Recent item</a></li></ul>"
                ))
            }
            Trap::DigitId => {
                let id = ["48213907", "4a8f13c9"][seed as usize % 2];
                put(format!(
                    "<a href=\"/orders/{id}?ref={id}\" data-order=\"{id}\">Order #{id}</a> <button type=\"button\" name=\"pay-{id}\" id=\"pay-{id}\">Pay order</button>"
                ))
            }
            Trap::RotatingBanner => {
                let mut html = String::from("<section aria-label=\"Offers\" class=\"rd-banner\">");
                for k in 0..3u32 {
                    let style = if k == seed % 3 {
                        ""
                    } else {
                        " style=\"display:none\""
                    };
                    let _ = write!(
                        html,
                        "<div class=\"slide\"{style}><span>Offer {k}</span> <a href=\"/promo/{k}\">Shop now</a></div>"
                    );
                }
                html.push_str("</section>");
                put(html)
            }
            Trap::Animation => put(format!(
                "<style>@keyframes rd-pulse {{ from {{ transform: translateX(0) scale(1); opacity: .4 }} to {{ transform: translateX(40px) scale(1.1); opacity: 1 }} }} \
                 .rd-anim {{ animation: rd-pulse 0.7s ease-in-out {}s infinite alternate; }}</style>\
                 <button type=\"button\" class=\"rd-anim\">Live</button>",
                -0.2 * seed as f64
            )),
            Trap::Focus => format!(
                "(() => {{ const f = Array.from(document.querySelectorAll('input:not([type=hidden]),button,a[href],[tabindex]')).filter((e) => e.offsetParent); \
                 if (f.length) f[{} % f.length].focus(); }})()",
                seed * 3
            ),
            Trap::FocusRing | Trap::Ripple | Trap::PseudoDecor if seed == 1 => String::new(),
            Trap::FocusRing => style(
                "button, a, input { position: relative; } button::before, a::before { content: \"\"; position: absolute; inset: -3px; border-radius: 4px; box-shadow: 0 0 0 2px transparent; }",
            ),
            Trap::Ripple => style(
                "button { position: relative; overflow: hidden; } button::after { content: \"\"; position: absolute; inset: 0; background: radial-gradient(circle, rgba(0,0,0,.1) 10%, transparent 10%); opacity: 0; }",
            ),
            Trap::PseudoDecor => style(
                "body::before { content: \"\"; position: fixed; top: 0; left: 0; right: 0; height: 3px; background: #08f; z-index: 2147483647; } body::after { content: \"\"; position: fixed; inset: 0; z-index: -1; pointer-events: none; }",
            ),
            Trap::Clock => {
                let (t, ts) = [("10:31:07", 1_764_000_000u64), ("16:02:55", 1_764_022_000)]
                    [seed as usize % 2];
                put(format!(
                    "<a href=\"/report?t={ts}\">Report at {t}</a> <time>{t}</time>"
                ))
            }
        }
    }
}

/// One case of the corpus.
#[derive(Debug, Clone)]
pub struct Case {
    /// The app (index into [`apps`]).
    pub app: usize,
    /// What the case does.
    pub name: String,
    /// A regression, or a trap.
    pub kind: CaseKind,
    /// Scripts for the baseline and the current load (empty: none).
    pub scripts: (String, String),
}

/// A regression (must be found) or a trap (must not be flagged).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CaseKind {
    /// A seeded regression.
    Regression(RegKind),
    /// Benign noise.
    Trap(Trap),
}

const TODO_READY: &str = "document.querySelectorAll('#todo-list li').length >= 3 && !!document.querySelector('#footer #filters')";
const TODOS: &[&str] = &["Buy milk", "Write the report", "Call the bank"];

/// The apps of the corpus.
pub fn apps() -> Vec<App> {
    let todo = |name, path| App {
        name,
        path,
        prepare: "",
        ready: TODO_READY,
        todos: TODOS,
        targets: Targets::default(),
    };
    let mut v = Vec::new();
    // Each TodoMVC gets a different slice of the same target list, so the
    // corpus touches every part of the app across frameworks.
    let frameworks = [
        (
            "todomvc/vanillajs",
            "/apps/todomvc/examples/vanillajs/index.html",
        ),
        (
            "todomvc/backbone",
            "/apps/todomvc/examples/backbone/index.html",
        ),
        ("todomvc/react", "/apps/todomvc/examples/react/index.html"),
        (
            "todomvc/angularjs",
            "/apps/todomvc/examples/angularjs/index.html",
        ),
        (
            "todomvc/knockoutjs",
            "/apps/todomvc/examples/knockoutjs/index.html",
        ),
    ];
    let remove: [&[&str]; 5] = [
        &["#new-todo", "#filters li:nth-of-type(2)"],
        &["#clear-completed", "#toggle-all"],
        &["#filters", "#new-todo"],
        &["#todo-list li:nth-of-type(2) .toggle", "#clear-completed"],
        &["#footer", "#filters li:nth-of-type(3)"],
    ];
    let text: [&[(&str, &str)]; 5] = [
        &[("h1", "todo list")],
        &[("#clear-completed", "Delete everything")],
        &[("h1", "tasks")],
        &[("#filters li:nth-of-type(2) a", "Open")],
        &[("h1", "")],
    ];
    let hide: [&[&str]; 5] = [
        &["#new-todo", "#todo-list"],
        &["#filters", "#clear-completed"],
        &["#main", "#new-todo"],
        &["#clear-completed", "#todo-list li"],
        &["#footer", "#toggle-all"],
    ];
    let off: [&[&str]; 5] = [
        &["#new-todo", "#filters"],
        &["#clear-completed", "#new-todo"],
        &["#todo-list", "#clear-completed"],
        &["#new-todo", "#footer"],
        &["#filters", "#new-todo"],
    ];
    let cover: [&[&str]; 5] = [
        &["#clear-completed", "#new-todo"],
        &["#new-todo", "#filters a"],
        &["#filters a", "#new-todo"],
        &["#clear-completed", "#new-todo"],
        &["#new-todo", "#clear-completed"],
    ];
    let disable: [&[&str]; 5] = [
        &["#new-todo"],
        &["#clear-completed"],
        &["#filters li:nth-of-type(2) a"],
        &["#todo-list li:nth-of-type(2) .toggle"],
        &["#toggle-all"],
    ];
    for (i, (name, path)) in frameworks.into_iter().enumerate() {
        let mut app = todo(name, path);
        app.targets = Targets {
            remove: remove[i],
            error: [
                &["#todo-list"][..],
                &["#header"],
                &["#footer"],
                &["#main"],
                &["#todo-list"],
            ][i],
            empty: &["#todo-list"],
            text: text[i],
            hide: hide[i],
            off_screen: off[i],
            cover: cover[i],
            disable: disable[i],
            noise_in: "#info",
        };
        v.push(app);
    }
    v.push(App {
        name: "jsoneditor/basic",
        path: "/apps/jsoneditor/examples/01_basic_usage.html",
        prepare: "document.getElementById('setJSON').click()",
        ready: "!!document.querySelector('.jsoneditor-tree .jsoneditor-field')",
        todos: &[],
        targets: Targets {
            remove: &[
                ".jsoneditor-expand-all",
                "#getJSON",
                ".jsoneditor-search input",
            ],
            error: &["#jsoneditor"],
            empty: &["table.jsoneditor-tree > tbody"],
            text: &[("#setJSON", "Load JSON")],
            hide: &[".jsoneditor-menu", "#setJSON", ".jsoneditor-search"],
            off_screen: &[".jsoneditor-collapse-all", "#jsoneditor"],
            cover: &["#getJSON", ".jsoneditor-sort"],
            disable: &["#setJSON", ".jsoneditor-transform"],
            noise_in: "body",
        },
    });
    v.push(App {
        name: "jsoneditor/modes",
        path: "/apps/jsoneditor/examples/03_switch_mode.html",
        prepare: "",
        ready: "!!document.querySelector('.jsoneditor-tree .jsoneditor-field') && !!document.querySelector('.jsoneditor-modes')",
        todos: &[],
        targets: Targets {
            remove: &[".jsoneditor-modes", ".jsoneditor-collapse-all"],
            error: &[".jsoneditor-menu"],
            empty: &["table.jsoneditor-tree > tbody"],
            text: &[(".jsoneditor-modes", "Code ▾")],
            hide: &[".jsoneditor-modes", ".jsoneditor-sort"],
            off_screen: &[".jsoneditor-expand-all", ".jsoneditor-modes"],
            cover: &[".jsoneditor-modes", ".jsoneditor-expand-all"],
            disable: &[".jsoneditor-sort"],
            noise_in: "body",
        },
    });
    v.push(App {
        name: "reveal.js/demo",
        path: "/apps/reveal.js/demo.html",
        prepare: "",
        ready: "!!document.querySelector('.reveal.ready') && !!document.querySelector('.reveal .controls .navigate-right')",
        todos: &[],
        targets: Targets {
            remove: &[".reveal .controls .navigate-right", ".reveal .slides > section.present > a"],
            error: &[".reveal .slides > section.present h3"],
            empty: &[],
            text: &[(".reveal .slides > section.present h3", "Goodbye")],
            hide: &[".reveal .controls", ".reveal .slides > section.present small a"],
            off_screen: &[".reveal .controls .navigate-right", ".reveal .slides > section.present > a"],
            cover: &[".reveal .controls .navigate-right", ".reveal .slides > section.present small a"],
            disable: &[".reveal .controls .navigate-right"],
            noise_in: "body",
        },
    });
    v.push(App {
        name: "dashboard",
        path: "/dashboard.html",
        prepare: "",
        ready: "document.readyState === 'complete'",
        todos: &[],
        targets: Targets {
            remove: &["#new-project", "nav", "#search-form button[type=submit]"],
            error: &["main h1", "#search-form"],
            empty: &[".project-list", ".activity-feed"],
            text: &[("main h1", "Overview"), ("#new-project", "Create")],
            hide: &["#new-project", "nav", "#search-form"],
            off_screen: &["#search-form", "#new-project", "nav"],
            cover: &["#new-project", "nav a"],
            disable: &["#new-project", "#search-form input"],
            noise_in: "main",
        },
    });
    v
}

/// Traps per app: every app gets a reload; the other traps are spread
/// over the apps so each kind of noise meets several of them.
fn traps_for(app: usize, n_apps: usize) -> Vec<Trap> {
    use Trap::*;
    let rest = [
        Date,
        RelativeTime,
        Counter,
        RandomId,
        DigitId,
        RotatingBanner,
        Animation,
        Focus,
        Clock,
    ];
    let mut v = vec![Reload, [FocusRing, Ripple, PseudoDecor][app % 3]];
    // Two passes over the list, offset per app: 2 or 3 traps each.
    for (k, t) in rest.iter().chain(rest.iter()).enumerate() {
        if k % n_apps == app {
            v.push(*t);
        }
    }
    v
}

fn js_str(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

/// `turn`s of [`regression_script`] for covers that hit-test as an
/// ancestor: a transparent `body::after` over the page, and
/// `pointer-events: none` on the element.
const COVER_PSEUDO: usize = usize::MAX;
const COVER_POINTER: usize = usize::MAX - 1;

/// The script for one regression on `sel`; `turn` picks the variant
/// (which CSS property, which way off-screen, which overlay).
fn regression_script(kind: RegKind, sel: &str, arg: &str, turn: usize) -> String {
    let q = js_str(sel);
    let body = match kind {
        RegKind::Removed => "el.remove();".to_owned(),
        RegKind::Error => "const e = document.createElement('div'); e.className = 'error-message'; \
             e.setAttribute('role', 'alert'); e.textContent = 'Something went wrong: your changes could not be saved'; \
             el.parentNode.insertBefore(e, el);"
            .to_owned(),
        RegKind::Emptied => {
            "for (const c of Array.from(el.children)) if (c.tagName !== 'TR' || !c.querySelector('th')) c.remove();"
                .to_owned()
        }
        RegKind::TextChanged => format!("el.textContent = {};", js_str(arg)),
        RegKind::Hidden => {
            let (p, v) = [("display", "none"), ("visibility", "hidden"), ("opacity", "0")][turn % 3];
            format!(
                "for (const e of document.querySelectorAll({q})) e.style.setProperty('{p}', '{v}', 'important');"
            )
        }
        RegKind::OffScreen => match turn % 3 {
            0 => "el.style.setProperty('position', 'absolute', 'important'); el.style.setProperty('left', '-10000px', 'important'); el.style.setProperty('top', '0', 'important');".to_owned(),
            1 => "el.style.setProperty('transform', 'translate(-20000px, -20000px)', 'important');".to_owned(),
            // Pushed below its parent, which now clips its overflow: by the
            // parent's height and its own (clipping may move the parent's
            // edges, as margins stop collapsing through it), in CSS pixels
            // (an ancestor may scale it, as reveal.js's slides do).
            _ => "const p = el.parentElement; p.style.setProperty('overflow', 'hidden', 'important'); \
                  el.style.setProperty('position', 'relative', 'important'); \
                  const k = el.getBoundingClientRect().height / (el.offsetHeight || 1) || 1; \
                  el.style.setProperty('top', ((p.getBoundingClientRect().height + el.getBoundingClientRect().height) / k + 10) + 'px', 'important');"
                .to_owned(),
        },
        RegKind::Covered if turn == COVER_PSEUDO => {
            "const s = document.createElement('style'); s.textContent = 'body::after { content: \"\"; position: fixed; inset: 0; z-index: 2147483647; }'; document.head.appendChild(s);".to_owned()
        }
        RegKind::Covered if turn == COVER_POINTER => {
            "el.style.setProperty('pointer-events', 'none', 'important');".to_owned()
        }
        RegKind::Covered => {
            let layer = match turn % 3 {
                0 => "const r = el.getBoundingClientRect(); o.style.cssText = `position:fixed;left:${r.left - 4}px;top:${r.top - 4}px;width:${r.width + 8}px;height:${r.height + 8}px;z-index:2147483647;background:#fff`;",
                1 => "o.style.cssText = 'position:fixed;inset:0;z-index:2147483647;background:transparent';",
                _ => "o.style.cssText = 'position:fixed;inset:0;z-index:2147483647;background:rgba(255,255,255,.9)';",
            };
            format!(
                "const o = document.createElement('div'); o.className = 'promo-layer'; {layer} document.body.appendChild(o);"
            )
        }
        RegKind::Disabled => "if ('disabled' in el && el.tagName !== 'A') el.disabled = true; else el.setAttribute('aria-disabled', 'true');".to_owned(),
    };
    format!(
        "(() => {{ const el = document.querySelector({q}); if (!el) throw new Error('no element matches ' + {q}); {body} }})()"
    )
}

/// Every case: the regressions generated from each app's targets, then the traps.
pub fn cases() -> Vec<Case> {
    let apps = apps();
    let mut v = Vec::new();
    for (a, app) in apps.iter().enumerate() {
        let t = &app.targets;
        let mut turn = a;
        let mut add = |kind: RegKind, sel: &str, arg: &str| {
            let what = if arg.is_empty() {
                format!("{}: {sel}", kind.label())
            } else {
                format!("{}: {sel} → {arg:?}", kind.label())
            };
            v.push(Case {
                app: a,
                name: what,
                kind: CaseKind::Regression(kind),
                scripts: (String::new(), regression_script(kind, sel, arg, turn)),
            });
            turn += 1;
        };
        for s in t.remove {
            add(RegKind::Removed, s, "");
        }
        for s in t.error {
            add(RegKind::Error, s, "");
        }
        for s in t.empty {
            add(RegKind::Emptied, s, "");
        }
        for (s, to) in t.text {
            add(RegKind::TextChanged, s, to);
        }
        for s in t.hide {
            add(RegKind::Hidden, s, "");
        }
        for s in t.off_screen {
            add(RegKind::OffScreen, s, "");
        }
        for s in t.cover {
            add(RegKind::Covered, s, "");
        }
        for s in t.disable {
            add(RegKind::Disabled, s, "");
        }
        // The same targets under covers that hit-test as an ancestor.
        for (k, s) in t.cover.iter().enumerate() {
            let (variant, label) = if k % 2 == 0 {
                (COVER_PSEUDO, "transparent body::after")
            } else {
                (COVER_POINTER, "pointer-events: none")
            };
            v.push(Case {
                app: a,
                name: format!("{}: {s} ({label})", RegKind::Covered.label()),
                kind: CaseKind::Regression(RegKind::Covered),
                scripts: (
                    String::new(),
                    regression_script(RegKind::Covered, s, "", variant),
                ),
            });
        }
    }
    for (a, app) in apps.iter().enumerate() {
        let container = if app.targets.noise_in.is_empty() {
            "body"
        } else {
            app.targets.noise_in
        };
        for trap in traps_for(a, apps.len()) {
            v.push(Case {
                app: a,
                name: format!("trap: {}", trap.label()),
                kind: CaseKind::Trap(trap),
                scripts: (trap.script(container, 1), trap.script(container, 2)),
            });
        }
    }
    v
}
