//! What a user sees, in real headless Chromium: elements moved off-screen
//! or clipped away are hidden with the reason, elements under an overlay
//! are `element_covered` naming the overlay, and ids normalize the same
//! whether or not they happen to be all digits.

use std::sync::Arc;

use headless_chrome::Tab;
use response_diff::fingerprint::{
    ChangeKind, ExtractOptions, Fingerprint, FingerprintComparison, Interactive, Severity, compare,
};
use response_diff_browser_tests::{Chromium, Server, capture, load};

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
    fn open(&self, path: &str) {
        load(&self.tab, &self.server.url(path)).expect("page loads");
    }
    fn capture(&self) -> Fingerprint {
        capture(&self.tab, &ExtractOptions::default()).expect("capture")
    }
    fn eval(&self, js: &str) {
        let r = self
            .tab
            .evaluate(&format!("(() => {{ {js}; return 'ok'; }})()"), false)
            .expect("evaluate");
        assert_eq!(
            r.value,
            Some(serde_json::json!("ok")),
            "script failed: {js}\n{r:?}"
        );
    }
}

fn button<'a>(fp: &'a Fingerprint, text: &str) -> &'a Interactive {
    fp.structure
        .interactive
        .iter()
        .find(|e| e.kind == "button" && e.text == text)
        .unwrap_or_else(|| panic!("no button '{text}' in {:#?}", fp.structure.interactive))
}

fn of_kind(cmp: &FingerprintComparison, kind: ChangeKind) -> Vec<String> {
    cmp.changes
        .iter()
        .filter(|c| c.kind == kind)
        .map(|c| c.description.clone())
        .collect()
}

#[test]
fn off_screen_and_clipped_elements_are_hidden_with_the_reason() {
    let s = session();
    s.open("/visibility.html");
    let before = s.capture();
    for text in ["Save", "Cancel", "Inside", "Edge", "Below the fold"] {
        let b = button(&before, text);
        assert!(b.visible && b.hidden_by.is_none(), "{b:?}");
    }
    s.eval(
        "const set = (sel, css) => document.querySelector(sel).style.cssText = css; \
         set('#save', 'position:absolute; left:-10000px; top:0'); \
         set('#cancel', 'transform: translate(-20000px, -20000px)'); \
         set('#inside', 'position:relative; top:60px'); \
         set('#signup', 'position:absolute; top:-3000px'); \
         set('.results', 'transform: translateY(-4000px)'); \
         set('#edge', 'position:relative; left:-20px'); \
         set('#star', 'visibility:hidden')",
    );
    let after = s.capture();
    let by = |t: &str| button(&after, t).hidden_by.clone();
    assert_eq!(by("Save").as_deref(), Some("off_screen"));
    assert_eq!(by("Cancel").as_deref(), Some("off_screen"));
    assert_eq!(by("Inside").as_deref(), Some("clipped"));
    assert_eq!(by("★ Star").as_deref(), Some("css"));
    // Partly off-screen is still seen; below the fold can be scrolled to.
    assert!(button(&after, "Edge").visible);
    assert!(button(&after, "Below the fold").visible);
    let form = &after.structure.content.forms[0];
    assert!(
        !form.visible && form.hidden_by.as_deref() == Some("off_screen"),
        "{form:?}"
    );
    let list = &after.structure.content.lists[0];
    assert!(
        !list.visible && list.hidden_by.as_deref() == Some("off_screen"),
        "{list:?}"
    );

    let cmp = compare(&before, &after, Severity::Warning);
    let hidden = of_kind(&cmp, ChangeKind::ElementHidden);
    for want in [
        "Interactive button 'Save' is present but no longer visible (moved off-screen)",
        "Interactive button 'Cancel' is present but no longer visible (moved off-screen)",
        "Interactive button 'Inside' is present but no longer visible (clipped away by an ancestor's overflow)",
        "Interactive button '★ Star' is present but no longer visible",
        "Form '#signup' is present but no longer visible (moved off-screen)",
        "List 'ul.results' is present but no longer visible (moved off-screen)",
    ] {
        assert!(
            hidden.iter().any(|h| h.starts_with(want)),
            "missing {want:?} in {cmp}"
        );
    }
    assert!(
        cmp.changes.iter().all(|c| c.severity == Severity::Error),
        "{cmp}"
    );
}

#[test]
fn an_overlay_is_element_covered_naming_what_covers() {
    let s = session();
    s.open("/visibility.html");
    let before = s.capture();
    // Nothing covers anything on the plain page: a button's own icon, a
    // checkbox's label, an element below the fold are not covers.
    assert!(
        before.structure.interactive.iter().all(|e| !e.obscured),
        "{:#?}",
        before.structure.interactive
    );

    // A banner over one button.
    s.eval(
        "const r = document.querySelector('#save').getBoundingClientRect(); \
         const d = document.createElement('div'); d.className = 'cookie-banner'; \
         d.style.cssText = `position:fixed; left:${r.left - 2}px; top:${r.top - 2}px; width:${r.width + 4}px; height:${r.height + 4}px; z-index:10; background:#fff`; \
         document.body.appendChild(d)",
    );
    let one = s.capture();
    assert!(button(&one, "Save").obscured);
    assert_eq!(
        button(&one, "Save").covered_by.as_deref(),
        Some("div.cookie-banner")
    );
    assert!(!button(&one, "Cancel").obscured);
    let cmp = compare(&before, &one, Severity::Warning);
    assert_eq!(
        of_kind(&cmp, ChangeKind::ElementCovered),
        [
            "Interactive button 'Save' is covered by another element ('div.cookie-banner') and cannot be clicked"
        ],
        "{cmp}"
    );
    assert_eq!(cmp.changes[0].severity, Severity::Error);

    // A banner over the bottom edge only: most inner points still reach it.
    s.eval(
        "document.querySelector('.cookie-banner').remove(); \
         const r = document.querySelector('#cancel').getBoundingClientRect(); \
         const d = document.createElement('div'); d.className = 'edge-bar'; \
         d.style.cssText = `position:fixed; left:0; right:0; top:${r.bottom - 3}px; height:3px; z-index:10; background:#000`; \
         document.body.appendChild(d)",
    );
    assert!(!button(&s.capture(), "Cancel").obscured);

    // A transparent layer over the whole page: one change for all in view;
    // the button below the fold is not hit-tested.
    s.eval(
        "document.querySelector('.edge-bar').remove(); \
         const d = document.createElement('div'); d.className = 'glass'; \
         d.style.cssText = 'position:fixed; inset:0; z-index:10; background:transparent'; \
         document.body.appendChild(d)",
    );
    let all = s.capture();
    assert!(!button(&all, "Below the fold").obscured);
    let cmp = compare(&before, &all, Severity::Warning);
    let covered = of_kind(&cmp, ChangeKind::ElementCovered);
    assert_eq!(covered.len(), 1, "{cmp}");
    assert!(
        covered[0].contains("covered by 'div.glass'"),
        "{}",
        covered[0]
    );
    let change = cmp
        .changes
        .iter()
        .find(|c| c.kind == ChangeKind::ElementCovered)
        .unwrap();
    let names = change.now.as_ref().unwrap()["covered"]
        .as_array()
        .unwrap()
        .clone();
    assert!(
        names.contains(&serde_json::json!("button 'Save'")),
        "{names:?}"
    );
    assert!(
        !names.contains(&serde_json::json!("button 'Below the fold'")),
        "{names:?}"
    );

    // Clicks pass through a layer with pointer-events: none: not covered.
    s.eval("document.querySelector('.glass').style.pointerEvents = 'none'");
    let through = s.capture();
    assert!(
        compare(&before, &through, Severity::Warning)
            .changes
            .is_empty()
    );
}

#[test]
fn a_pseudo_element_overlay_or_pointer_events_none_is_covered() {
    let s = session();
    s.open("/visibility.html");
    let before = s.capture();
    assert!(before.structure.interactive.iter().all(|e| !e.obscured));

    // Noise traps: a transparent focus ring and a ripple layer drawn by
    // each control's own ::before/::after hit-test as the control; a strip
    // along the top and a layer behind the content cover nothing.
    s.eval(
        "const st = document.createElement('style'); st.id = 'traps'; \
         st.textContent = 'button, a { position: relative; } \
           button::before, a::before { content: \"\"; position: absolute; inset: -3px; border-radius: 4px; } \
           button::after { content: \"\"; position: absolute; inset: 0; opacity: 0; background: #000; } \
           body::before { content: \"\"; position: fixed; top: 0; left: 0; right: 0; height: 2px; z-index: 99; background: #08f; } \
           main { position: relative; } main::after { content: \"\"; position: absolute; inset: 0; z-index: -1; }'; \
         document.head.appendChild(st)",
    );
    let traps = s.capture();
    assert!(
        traps.structure.interactive.iter().all(|e| !e.obscured),
        "{:#?}",
        traps.structure.interactive
    );
    assert!(
        compare(&before, &traps, Severity::Warning)
            .changes
            .is_empty()
    );

    // A transparent body::after over the page hit-tests as body, an
    // ancestor of every control: each control in view is covered by it.
    s.eval(
        "const st = document.createElement('style'); st.id = 'overlay'; \
         st.textContent = 'body::after { content: \"\"; position: fixed; inset: 0; z-index: 999; }'; \
         document.head.appendChild(st)",
    );
    let over = s.capture();
    assert!(button(&over, "Save").obscured);
    assert_eq!(
        button(&over, "Save").covered_by.as_deref(),
        Some("body::after")
    );
    assert!(!button(&over, "Below the fold").obscured);
    let cmp = compare(&before, &over, Severity::Warning);
    let covered = of_kind(&cmp, ChangeKind::ElementCovered);
    assert_eq!(covered.len(), 1, "{cmp}");
    assert!(
        covered[0].contains("covered by 'body::after'"),
        "{}",
        covered[0]
    );

    // pointer-events: none on the control: the click goes to its parent.
    s.eval(
        "document.getElementById('overlay').remove(); \
         document.querySelector('#save').style.pointerEvents = 'none'",
    );
    let through = s.capture();
    assert!(button(&through, "Save").obscured);
    assert!(!button(&through, "Cancel").obscured);
    let cmp = compare(&before, &through, Severity::Warning);
    assert_eq!(of_kind(&cmp, ChangeKind::ElementCovered).len(), 1, "{cmp}");
}

fn ids_page(id: &str) -> String {
    format!(
        "<!doctype html><html><head><title>Orders</title></head><body><main>\
         <h1>Orders</h1>\
         <ul id=\"orders-{id}\"><li><a href=\"/orders/{id}?ref={id}#row-{id}\">Order #{id}</a></li></ul>\
         <form id=\"pay-{id}\"><input name=\"card-{id}\" aria-label=\"Card\"><button type=\"submit\" id=\"submit-{id}\">Pay</button></form>\
         <p role=\"status\" id=\"toast-{id}\">Saved order #{id}</p>\
         </main></body></html>"
    )
}

#[test]
fn ids_that_happen_to_be_all_digits_fingerprint_like_any_other() {
    let s = session();
    let mut hashes = Vec::new();
    // An 8-digit hex id is all digits about 2 % of the time; other lengths
    // and alphabets the same way.
    for id in [
        "4a8f13c9",
        "48213907",
        "k2j3h4",
        "902113",
        "c0ffee42aa",
        "1700000000",
    ] {
        s.server.put("/orders-page", ids_page(id));
        s.open("/orders-page");
        let fp = s.capture();
        assert!(
            !fp.to_json().contains(id),
            "id {id} left in the fingerprint: {}",
            fp.to_json_pretty()
        );
        hashes.push((id, fp.hash.clone(), fp));
    }
    let (_, first, base) = &hashes[0];
    for (id, hash, fp) in &hashes[1..] {
        assert_eq!(hash, first, "{id}: {}", compare(base, fp, Severity::Info));
    }
    // A real count still shows: a price or a quantity is not an id.
    s.server.put(
        "/orders-page",
        ids_page("4a8f13c9").replace(
            "<h1>Orders</h1>",
            "<h1>Orders</h1><a href=\"/cart\">Cart (3 items, $1,234.50)</a>",
        ),
    );
    s.open("/orders-page");
    let with_cart = s.capture();
    assert!(
        with_cart.to_json().contains("Cart (3 items, $[number])"),
        "{}",
        with_cart.to_json_pretty()
    );
}
