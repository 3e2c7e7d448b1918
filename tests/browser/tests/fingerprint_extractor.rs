//! The page-side extractor in real headless Chromium, on the fixture pages
//! (tests/fixtures/pages) served from 127.0.0.1.

use std::sync::Arc;

use headless_chrome::Tab;
use response_diff::Error;
use response_diff::fingerprint::{
    ChangeKind, Depth, ExtractOptions, Fingerprint, Interactive, Scope, Severity, Status, compare,
};
use response_diff_browser_tests::{Chromium, Server, capture, extract_json, load, regressions};

struct Session {
    server: Server,
    tab: Arc<Tab>,
    _chrome: Chromium,
}

fn session() -> Session {
    let server = Server::start().expect("server");
    let chrome = Chromium::launch().expect("chromium");
    let tab = chrome.tab().expect("tab");
    Session {
        server,
        tab,
        _chrome: chrome,
    }
}

impl Session {
    fn open(&self, page: &str) {
        load(&self.tab, &self.server.url(&format!("/{page}"))).expect("page loads");
    }
    fn capture(&self, opts: &ExtractOptions) -> Fingerprint {
        capture(&self.tab, opts).expect("capture")
    }
    fn standard(&self) -> Fingerprint {
        self.capture(&ExtractOptions::default())
    }
    fn eval(&self, js: &str) {
        self.tab.evaluate(js, false).expect("evaluate");
    }
}

fn find<'a>(fp: &'a Fingerprint, kind: &str, text: &str) -> &'a Interactive {
    fp.structure
        .interactive
        .iter()
        .find(|e| e.kind == kind && e.text == text)
        .unwrap_or_else(|| {
            panic!(
                "no {kind} '{text}' in {:#?}",
                fp.structure
                    .interactive
                    .iter()
                    .map(|e| format!("{}:{}", e.kind, e.text))
                    .collect::<Vec<_>>()
            )
        })
}

fn has(fp: &Fingerprint, kind: &str, text: &str) -> bool {
    fp.structure
        .interactive
        .iter()
        .any(|e| e.kind == kind && e.text == text)
}

#[test]
fn dashboard_landmarks_content_and_state() {
    let s = session();
    s.open("dashboard.html");
    let fp = s.standard();
    let st = &fp.structure;

    assert_eq!(fp.title, "Dashboard - MyApp");
    assert!(fp.url.ends_with("/dashboard.html"), "{}", fp.url);
    assert_eq!(fp.viewport.width, 1280);
    assert!(fp.viewport.height > 500);
    let keys: Vec<&str> = st.landmarks.keys().map(String::as_str).collect();
    // Sections with an accessible name are region landmarks (ARIA).
    assert_eq!(
        keys,
        [
            "aside:Tips",
            "footer",
            "header",
            "main",
            "nav:Main",
            "region:Activity",
            "region:Recent Projects"
        ]
    );
    assert!(st.landmarks.values().all(|l| l.present && l.visible));
    assert_eq!(st.landmarks["header"].role, "banner");
    assert!(
        st.landmarks["header"]
            .contains
            .contains(&"nav:Main".to_owned())
    );
    let main = &st.landmarks["main"].contains;
    let mut dedup = main.clone();
    dedup.dedup();
    assert_eq!(&dedup, main, "no repeats");
    for item in [
        "heading:Dashboard",
        "region:Recent Projects",
        "region:Activity",
        "section:search",
        "form:#search-form",
        "table:table.team-table",
    ] {
        assert!(main.contains(&item.to_owned()), "{item} not in {main:?}");
    }

    let headings: Vec<(u8, &str)> = st
        .content
        .headings
        .iter()
        .map(|h| (h.level, h.text.as_str()))
        .collect();
    assert_eq!(
        headings,
        [
            (1, "Dashboard"),
            (2, "Recent Projects"),
            (2, "Activity Feed"),
            (2, "Search"),
            (2, "Team"),
            (2, "Settings"),
            (2, "Charts")
        ]
    );

    let lists: Vec<(&str, u32, &str)> = st
        .content
        .lists
        .iter()
        .map(|l| (l.selector.as_str(), l.items, l.kind.as_str()))
        .collect();
    assert_eq!(
        lists,
        [("ul.project-list", 5, "ul"), ("ol.activity-feed", 4, "ol")]
    );

    let forms = &st.content.forms;
    assert_eq!(forms.len(), 2);
    assert_eq!(forms[0].selector, "#search-form");
    assert_eq!(
        forms[0].fields,
        [
            "input:Search projects",
            "checkbox:Include archived",
            "select:Owner"
        ]
    );
    assert_eq!(forms[0].buttons, ["button:Search"]);
    assert_eq!(forms[1].selector, "#settings-form");
    // aria-labelledby, placeholder, title, aria-label; the hidden csrf input is not a field.
    assert_eq!(
        forms[1].fields,
        [
            "input:Email address",
            "input:Nickname",
            "input:Website",
            "textarea:Bio"
        ]
    );
    assert_eq!(forms[1].buttons, ["button:Save settings"]);

    let table = &st.content.tables[0];
    assert_eq!(
        (table.selector.as_str(), table.rows, table.columns),
        ("table.team-table", 3, 3)
    );
    let img = st.content.images;
    assert_eq!((img.count, img.with_alt, img.broken), (3, 2, 0));

    assert!(st.state.error_elements.is_empty());
    assert!(st.state.loading_indicators.is_empty());
    assert!(
        st.state.modals_open.is_empty(),
        "the hidden dialog is not open"
    );
    assert!(st.state.notifications.is_empty());
    assert!(!st.no_landmarks);
    assert!(fp.token_count > 0 && fp.hash.len() == 16);
}

#[test]
fn dashboard_interactive_names_values_hrefs_and_hidden_elements() {
    let s = session();
    s.open("dashboard.html");
    let fp = s.standard();

    // Accessible names: wrapped img alt, text, aria-label, label[for],
    // wrapping label, aria-labelledby, placeholder, title, input value.
    assert_eq!(find(&fp, "link", "MyApp").href.as_deref(), Some("/"));
    assert_eq!(
        find(&fp, "link", "Home").href.as_deref(),
        Some("/dashboard")
    );
    // Paths only: the query string is dropped; other origins keep their host.
    assert_eq!(
        find(&fp, "link", "Projects").href.as_deref(),
        Some("/projects")
    );
    assert_eq!(
        find(&fp, "link", "Docs").href.as_deref(),
        Some("//docs.example.com/guide")
    );
    assert_eq!(
        find(&fp, "button", "Account menu").location.as_deref(),
        Some("header")
    );
    let new_project = find(&fp, "button", "New Project");
    assert!(new_project.visible && new_project.enabled);
    assert_eq!(
        new_project.location.as_deref(),
        Some("main > region:Recent Projects")
    );
    assert!(!find(&fp, "button", "Archive").enabled);
    assert_eq!(
        find(&fp, "input", "Search projects").value.as_deref(),
        Some("[has value]")
    );
    assert_eq!(
        find(&fp, "checkbox", "Include archived").checked,
        Some(false)
    );
    assert_eq!(
        find(&fp, "input", "Email address").value.as_deref(),
        Some("")
    );
    find(&fp, "input", "Nickname");
    find(&fp, "input", "Website");
    find(&fp, "textarea", "Bio");
    find(&fp, "button", "Save settings");

    // Present but not rendered: kept, flagged invisible.
    assert!(!find(&fp, "button", "Bulk edit").visible);
    assert!(!find(&fp, "button", "Delete").visible);
    // iframes are skipped.
    assert!(!has(&fp, "button", "Inside frame"));

    // Values never leave the page.
    let raw = extract_json(&s.tab, &ExtractOptions::default()).unwrap();
    assert!(
        !raw.contains("private search"),
        "a field value leaked: {raw}"
    );
    assert!(!raw.contains("s3cr3t"), "a hidden input leaked");
}

#[test]
fn shadow_dom_is_pierced_closed_roots_are_not() {
    let s = session();
    s.open("shadow.html");
    let fp = s.standard();
    let st = &fp.structure;

    assert!(st.landmarks.contains_key("header"), "{:?}", st.landmarks);
    assert!(st.landmarks.contains_key("nav:Shell"));
    assert!(st.landmarks.contains_key("region:Profile"));
    assert_eq!(
        find(&fp, "link", "Home").location.as_deref(),
        Some("header > nav:Shell")
    );
    find(&fp, "button", "Open menu");
    assert_eq!(
        find(&fp, "input", "Display name").value.as_deref(),
        Some("[has value]")
    );
    find(&fp, "button", "Update profile");
    find(&fp, "button", "Follow"); // a shadow root inside a shadow root
    assert!(!has(&fp, "button", "Hidden in closed root"));

    let headings: Vec<&str> = st
        .content
        .headings
        .iter()
        .map(|h| h.text.as_str())
        .collect();
    assert_eq!(headings, ["Components", "Ada Lovelace"]);
    assert_eq!(st.content.forms.len(), 1);
    assert!(
        st.content.forms[0].selector.contains(">>>"),
        "{}",
        st.content.forms[0].selector
    );
    assert_eq!(st.content.lists[0].items, 2);
    assert!(
        st.landmarks["main"]
            .contains
            .contains(&"shadow:user-card".to_owned()),
        "{:?}",
        st.landmarks["main"].contains
    );
}

#[test]
fn spinner_page_reports_loading() {
    let s = session();
    s.open("spinner.html");
    let loading = s.standard();
    assert!(loading.is_loading());
    let texts: Vec<&str> = loading
        .structure
        .state
        .loading_indicators
        .iter()
        .map(|l| l.text.as_str())
        .collect();
    // The aria-busy container and the spinner inside it count once, named
    // by the spinner's label.
    assert_eq!(texts, ["Loading projects"]);
    assert_eq!(
        loading.structure.state.loading_indicators[0].selector,
        "#content"
    );

    s.eval("window.finishLoading()");
    let loaded = s.standard();
    assert!(!loaded.is_loading());
    assert_eq!(loaded.structure.content.lists[0].items, 3);

    // A capture taken while loading says so.
    let cmp = compare(&loaded, &loading, Severity::Warning);
    assert_eq!(cmp.status, Status::Loading);
    assert!(
        cmp.summary
            .starts_with("page is still loading ('Loading projects')"),
        "{}",
        cmp.summary
    );
    // The other way round the page finished loading: a change, not "loading".
    let cmp = compare(&loading, &loaded, Severity::Info);
    assert_eq!(cmp.status, Status::Changed);
    assert!(
        cmp.changes
            .iter()
            .any(|c| c.kind == ChangeKind::LoadingFinished)
    );
}

#[test]
fn error_banner_page() {
    let s = session();
    s.open("error.html");
    let fp = s.standard();
    let errors: Vec<&str> = fp
        .structure
        .state
        .error_elements
        .iter()
        .map(|e| e.text.as_str())
        .collect();
    // The nested .error counts once with its banner; the request id is
    // normalized; the hidden template and the empty live region are not errors.
    assert_eq!(
        errors,
        [
            "Payment failed. Your card was declined (request [id]).",
            "invalid: Card number",
            "Enter a valid card number"
        ]
    );
    assert_eq!(
        fp.structure.state.error_elements[0].selector,
        "div.error-banner"
    );

    // Fixing the page resolves them.
    s.eval("document.querySelector('.error-banner').remove(); document.querySelector('#card').removeAttribute('aria-invalid'); document.querySelector('#card-error').remove();");
    let fixed = s.standard();
    let cmp = compare(&fp, &fixed, Severity::Info);
    let resolved = cmp
        .changes
        .iter()
        .filter(|c| c.kind == ChangeKind::ErrorResolved)
        .count();
    assert_eq!(resolved, 3);
    assert_eq!(cmp.severity.as_str(), "info");
    let back = compare(&fixed, &fp, Severity::Warning);
    assert_eq!(back.severity.as_str(), "error");
    assert_eq!(
        back.changes
            .iter()
            .filter(|c| c.kind == ChangeKind::ErrorAppeared)
            .count(),
        3
    );
}

#[test]
fn dynamic_page_hash_is_identical_across_reloads() {
    let s = session();
    let mut raws = Vec::new();
    let mut fps = Vec::new();
    for _ in 0..3 {
        s.open("dynamic.html");
        let raw = extract_json(&s.tab, &ExtractOptions::default()).unwrap();
        fps.push(Fingerprint::from_json(&raw).unwrap());
        raws.push(raw);
    }
    // The pages really differ (dates, counters, ids)...
    let structure = |raw: &str| {
        let v: serde_json::Value = serde_json::from_str(raw).unwrap();
        v["structure"].to_string()
    };
    assert_ne!(structure(&raws[0]), structure(&raws[1]));
    assert_ne!(structure(&raws[1]), structure(&raws[2]));
    // ...and normalize to the same fingerprint.
    assert_eq!(fps[0].hash, fps[1].hash);
    assert_eq!(fps[1].hash, fps[2].hash);
    assert_eq!(fps[0].structure, fps[2].structure);
    let cmp = compare(&fps[0], &fps[2], Severity::Info);
    assert_eq!(cmp.status, Status::Unchanged);
    assert!(fps[0].title.contains("[number]"), "{}", fps[0].title);
    assert!(
        fps[0]
            .structure
            .landmarks
            .contains_key("region:Orders since [date]")
    );
}

#[test]
fn scopes_selector_above_fold_iframe_and_errors() {
    let s = session();
    s.open("dashboard.html");

    let section = s.capture(&ExtractOptions::new(
        Scope::Selector("#projects".into()),
        Depth::Standard,
    ));
    let headings: Vec<&str> = section
        .structure
        .content
        .headings
        .iter()
        .map(|h| h.text.as_str())
        .collect();
    assert_eq!(headings, ["Recent Projects"]);
    assert!(has(&section, "button", "New Project"));
    assert!(!has(&section, "button", "Logout"));
    assert_eq!(section.structure.content.lists.len(), 1);
    assert_eq!(section.scope, "#projects");

    let full = s.standard();
    let fold = s.capture(&ExtractOptions::new(Scope::AboveFold, Depth::Standard));
    assert!(full.structure.landmarks.contains_key("footer"));
    assert!(
        !fold.structure.landmarks.contains_key("footer"),
        "the footer is below the fold at 800 px"
    );
    assert!(has(&fold, "button", "New Project"));
    assert!(fold.structure.interactive.len() < full.structure.interactive.len());

    let frame = s.capture(&ExtractOptions::new(
        Scope::Selector("iframe#frame".into()),
        Depth::Standard,
    ));
    assert!(has(&frame, "button", "Inside frame"));
    assert_eq!(
        find(&frame, "link", "Frame link").href.as_deref(),
        Some("/inside")
    );

    for bad in ["#does-not-exist", "##"] {
        let opts = ExtractOptions::new(Scope::Selector(bad.into()), Depth::Standard);
        match capture(&s.tab, &opts) {
            Err(e) => match e.downcast_ref::<Error>() {
                Some(Error::InvalidOption { field, .. }) => assert_eq!(field, "scope"),
                other => panic!("{bad}: {other:?}"),
            },
            Ok(fp) => panic!("{bad} gave a fingerprint: {fp:?}"),
        }
    }
}

#[test]
fn depths() {
    let s = session();
    s.open("dashboard.html");
    let minimal = s.capture(&ExtractOptions::new(Scope::Full, Depth::Minimal));
    assert_eq!(minimal.structure.landmarks.len(), 7);
    assert!(minimal.structure.interactive.is_empty());
    assert!(minimal.structure.content.headings.is_empty());

    let detailed = s.capture(&ExtractOptions::new(Scope::Full, Depth::Detailed));
    assert_eq!(
        detailed.structure.landmarks["footer"].interactive,
        ["link:Privacy", "link:Terms"]
    );
    assert_eq!(
        detailed.structure.content.tables[0].headers,
        ["Name", "Role", "Projects"]
    );
    let standard = s.standard();
    assert!(standard.token_count > minimal.token_count);
    assert!(detailed.token_count > standard.token_count);
    assert_ne!(standard.hash, detailed.hash);
}

#[test]
fn big_page_respects_caps() {
    let s = session();
    load(&s.tab, &s.server.url("/generated/big?n=2000")).unwrap();
    let fp = s.standard();
    let st = &fp.structure;
    // 50 visible ones, and the hidden ones among them in document order (at
    // most 10 past the cap), so that hiding one reads as hidden.
    let visible = st.interactive.iter().filter(|e| e.visible).count();
    let hidden = st.interactive.len() - visible;
    assert_eq!(visible, 50);
    assert!((1..=10).contains(&hidden), "{hidden} hidden kept");
    assert!(
        st.interactive
            .iter()
            .filter(|e| !e.visible)
            .all(|e| e.hidden_by.as_deref() == Some("css")),
        "{:#?}",
        st.interactive
    );
    assert!(st.content.headings.len() <= 50);
    assert_eq!(st.content.lists.len(), 20);
    assert_eq!(st.content.forms.len(), 10);
    assert_eq!(st.content.tables.len(), 10);
    for section in ["interactive", "lists", "forms", "tables"] {
        assert!(
            st.truncated.contains(&section.to_owned()),
            "{:?}",
            st.truncated
        );
    }
    let detailed = s.capture(&ExtractOptions::new(Scope::Full, Depth::Detailed));
    let detailed_visible = detailed
        .structure
        .interactive
        .iter()
        .filter(|e| e.visible)
        .count();
    assert_eq!(detailed_visible, 100);
}

#[test]
fn css_only_hiding_is_reported_as_hidden() {
    let s = session();
    s.open("dashboard.html");
    let before = s.standard();
    s.eval("document.head.insertAdjacentHTML('beforeend', '<style>#new-project { visibility: hidden } footer { opacity: 0 }</style>')");
    let after = s.standard();
    let cmp = compare(&before, &after, Severity::Warning);
    let hidden: Vec<&str> = cmp
        .changes
        .iter()
        .filter(|c| c.kind == ChangeKind::ElementHidden)
        .filter_map(|c| c.element.text.as_deref())
        .collect();
    assert_eq!(hidden, ["footer", "New Project"]);
    // The footer's links are folded into the footer's change.
    assert_eq!(cmp.changes.len(), 2, "{cmp}");
}

/// The regression benchmark as a test: every controlled regression is
/// detected with the right type, and nothing harmless is flagged.
#[test]
fn regression_benchmark_detects_all_and_flags_nothing_harmless() {
    let s = session();
    let cases = regressions::cases();
    let outcomes = regressions::run(&s.tab, &s.server, &cases).unwrap();
    let report = regressions::report(&outcomes);
    for o in &outcomes {
        if o.case.kind.is_benign() {
            assert!(!o.detected(), "false positive: {}\n{report}", o.case.name);
        } else {
            assert!(
                o.typed_right(),
                "missed or mistyped: {}\n{report}",
                o.case.name
            );
        }
        if o.case.kind == regressions::Kind::DynamicReload {
            assert!(o.hash_equal(), "{}: hash changed\n{report}", o.case.name);
        }
    }
}
