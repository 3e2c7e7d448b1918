//! The tools' logic without MCP: an [`Engine`] driving real headless
//! Chromium on pages served from 127.0.0.1.

use response_diff::tree::{self, Element, Tree};
use response_diff_server::engine::{Engine, EngineConfig, Output};
use response_diff_server::site::{Site, bundled_site_dir};
use serde_json::{Map, Value, json};

fn args(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m,
        _ => panic!("not an object"),
    }
}

fn call(e: &mut Engine, tool: &str, a: Value) -> Output {
    e.call(tool, args(a))
        .unwrap_or_else(|err| panic!("{tool}: invalid params: {err}"))
}

fn ok(e: &mut Engine, tool: &str, a: Value) -> String {
    let out = call(e, tool, a);
    assert!(!out.is_error, "{tool} failed:\n{}", out.text);
    out.text
}

fn ref_of(text: &str, within: &str, what: &str) -> String {
    let start = text
        .find(within)
        .unwrap_or_else(|| panic!("no {within} in\n{text}"));
    let line = text[start..]
        .lines()
        .find(|l| l.contains(what))
        .unwrap_or_else(|| panic!("no {what} after {within}"));
    let r = line.split("[ref=").nth(1).unwrap();
    r[..r.find(']').unwrap()].to_owned()
}

fn engine() -> Engine {
    Engine::new(EngineConfig::default()).unwrap()
}

#[test]
fn actions_diffs_and_since_on_the_demo_site() {
    let site = Site::serve(bundled_site_dir(), 0).unwrap();
    let mut e = engine();
    let text = ok(
        &mut e,
        "browser_navigate",
        json!({"url": site.url("/index.html")}),
    );
    assert!(
        text.contains("- heading \"Loose-leaf teas\" [level=1]"),
        "{text}"
    );
    let first_ts = call(
        &mut e,
        "browser_snapshot",
        json!({"expectation": {"diffOptions": {"enabled": true}}}),
    )
    .ts
    .unwrap();

    // A click through the diff chain: only the cart's lines change.
    let add = ref_of(
        &text,
        "heading \"Rooibos Vanilla\"",
        "button \"Add to cart\"",
    );
    let diff = ok(
        &mut e,
        "browser_click",
        json!({"ref": add, "expectation": {"diffOptions": {"enabled": true}}}),
    );
    assert!(diff.contains("### Page snapshot (patch)\n"), "{diff}");
    assert!(
        diff.contains("\n~ heading \"Cart (1)\" [level=2] [ref="),
        "{diff}"
    );

    // The tree diff since the first read says the same in agent lines.
    let since = ok(&mut e, "browser_snapshot", json!({"since": first_ts}));
    assert!(
        since.contains(&format!("### Page snapshot (changes since ts {first_ts})")),
        "{since}"
    );
    assert!(
        since.contains("~ [e") && since.contains("heading \"Cart (1)\" (was \"Cart (0)\")"),
        "{since}"
    );

    // A bad ref, a hidden element, a closed port: tool errors, the engine goes on.
    let bad = call(&mut e, "browser_click", json!({"ref": "e987654"}));
    assert!(
        bad.is_error
            && bad
                .text
                .contains("ref e987654 is not on the page; take a new snapshot")
    );
    let quick = ref_of(&text, "heading \"Genmaicha\"", "button \"Quick view\"");
    let modal = ok(&mut e, "browser_click", json!({"ref": quick}));
    // The dialog is named by its heading, which shows the name already
    // (Playwright leaves such a name out).
    let dialog = modal.find("- dialog").expect("a dialog");
    assert!(modal[dialog..].contains("heading \"Genmaicha\""), "{modal}");
    let close = ref_of(&modal, "- dialog", "button \"Close\"");
    ok(&mut e, "browser_click", json!({"ref": close}));
    // Still in the document, but hidden now.
    let r = call(&mut e, "browser_click", json!({"ref": close}));
    assert!(
        r.is_error && r.text.contains("is not visible"),
        "{}",
        r.text
    );
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let nav = call(
        &mut e,
        "browser_navigate",
        json!({"url": format!("http://127.0.0.1:{port}/")}),
    );
    assert!(
        nav.is_error && nav.text.contains("net::ERR_CONNECTION_REFUSED"),
        "{}",
        nav.text
    );

    // Wrong arguments never run.
    assert!(e.call("browser_hover", args(json!({}))).is_err());
    e.shutdown();
}

#[test]
fn form_select_and_validation() {
    let site = Site::serve(bundled_site_dir(), 0).unwrap();
    let mut e = engine();
    let text = ok(
        &mut e,
        "browser_navigate",
        json!({"url": site.url("/signup.html")}),
    );
    let email = ref_of(&text, "form", "textbox \"Email\"");
    ok(
        &mut e,
        "browser_type",
        json!({"ref": email, "text": "ada@"}),
    );
    let country = ref_of(&text, "form", "combobox \"Country\"");
    let sel = ok(
        &mut e,
        "browser_select_option",
        json!({"ref": country, "values": ["jp"]}),
    );
    assert!(
        sel.contains("Selected [\"Japan\"]") && sel.contains("- option \"Japan\" [selected]"),
        "{sel}"
    );
    let wrong = call(
        &mut e,
        "browser_select_option",
        json!({"ref": country, "values": ["Mars"]}),
    );
    assert!(
        wrong.is_error && wrong.text.contains("no option [\"Mars\"]; the options are"),
        "{}",
        wrong.text
    );
    let submit = ref_of(&text, "form", "button \"Create account\"");
    let errors = ok(&mut e, "browser_click", json!({"ref": submit}));
    assert!(
        errors.contains("- alert [ref=") && errors.contains("Please fix the 3 errors below."),
        "{errors}"
    );
    assert!(errors.contains("textbox \"Email\" [invalid]"), "{errors}");
    assert!(
        errors.contains("[warn] signup: 3 validation errors"),
        "{errors}"
    );
    let key = ok(&mut e, "browser_press_key", json!({"key": "Tab"}));
    assert!(key.contains("Pressed Tab"));
    let unknown = call(&mut e, "browser_press_key", json!({"key": "NoSuchKey"}));
    assert!(
        unknown.is_error && unknown.text.contains("unknown key `NoSuchKey`"),
        "{}",
        unknown.text
    );
    let value = ok(
        &mut e,
        "browser_evaluate",
        json!({"function": "(el) => el.value", "ref": email}),
    );
    assert!(value.starts_with("### Result\n\"ada@\""), "{value}");
    let thrown = call(
        &mut e,
        "browser_evaluate",
        json!({"function": "() => { throw new Error('boom') }"}),
    );
    assert!(
        thrown.is_error && thrown.text.contains("Error: boom"),
        "{}",
        thrown.text
    );
    let waited = ok(&mut e, "browser_wait_for", json!({"text": "Please fix"}));
    assert!(waited.contains("Text \"Please fix\" appeared"), "{waited}");
    e.shutdown();
}

/// Our snapshot of Playwright's own fixture page equals what Playwright
/// printed for it (`tests/fixtures/aria/shop.yml`), refs aside: Playwright
/// numbers refs e1, e2…, ours are backend node ids; it also marks
/// `[cursor=pointer]`, which we do not. Both wrap the body in a generic.
#[test]
fn snapshot_matches_playwright_on_its_fixture_page() {
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/aria");
    let site = Site::serve(fixtures.join("capture/pages"), 0).unwrap();
    let mut e = engine();
    ok(
        &mut e,
        "browser_navigate",
        json!({"url": site.url("/shop.html"), "expectation": {"includeSnapshot": false}}),
    );
    let ours = e.snapshot_tree().unwrap();
    e.shutdown();
    let theirs = tree::parse_aria(
        &std::fs::read_to_string(fixtures.join("shop.yml")).unwrap(),
        false,
    )
    .unwrap();
    assert_eq!(normalized(&ours), normalized(&theirs));
}

fn normalized(t: &Tree) -> String {
    fn strip(e: &mut Element) {
        e.aria_ref = None;
        e.states
            .retain(|s| s.name != "cursor" && s.name != "active");
        for c in &mut e.children {
            strip(c);
        }
    }
    let mut t = t.clone();
    for r in &mut t.roots {
        strip(r);
    }
    t.to_aria()
}

#[test]
fn exceptions_dialogs_popups_and_fingerprint_hashes() {
    let site = Site::serve(bundled_site_dir(), 0).unwrap();
    let mut e = engine();
    let page = format!(
        "data:text/html,<title>Events</title>\
         <button onclick=\"throw new Error('boom')\">Boom</button>\
         <button onclick=\"alert('hello')\">Alert</button>\
         <a href=\"{}\" target=\"_blank\">Open</a>",
        site.url("/help.html")
    );
    let text = ok(&mut e, "browser_navigate", json!({"url": page}));
    let boom = ok(
        &mut e,
        "browser_click",
        json!({"ref": ref_of(&text, "- ", "button \"Boom\"")}),
    );
    assert!(boom.contains("- [error] Uncaught Error: boom"), "{boom}");
    let alert = ok(
        &mut e,
        "browser_click",
        json!({"ref": ref_of(&text, "- ", "button \"Alert\"")}),
    );
    // The agent decides (D29): the dialog is reported, then answered.
    assert!(
        alert.contains(
            "### Modal state\n- [\"alert\" dialog with message \"hello\"]: can be handled by browser_handle_dialog"
        ),
        "{alert}"
    );
    let answered = ok(&mut e, "browser_handle_dialog", json!({"accept": true}));
    assert!(
        answered.contains("Accepted the \"alert\" dialog"),
        "{answered}"
    );
    let opened = ok(
        &mut e,
        "browser_click",
        json!({"ref": ref_of(&text, "- ", "link \"Open\"")}),
    );
    assert!(opened.contains("Opened a new tab 1"), "{opened}");
    let tabs = ok(&mut e, "browser_tabs", json!({"action": "list"}));
    assert!(
        tabs.contains("2 open tabs") && tabs.contains("- 1: [Leaf & Co. — Help]"),
        "{tabs}"
    );

    let fp = ok(&mut e, "browser_get_dom_fingerprint", json!({}));
    let hash = fp.split("Fingerprint ").nth(1).unwrap()[..16].to_owned();
    let same = ok(
        &mut e,
        "browser_compare_dom_fingerprint",
        json!({"against": &hash[..8]}),
    );
    assert!(same.contains("unchanged, clean"), "{same}");
    e.shutdown();
}

#[test]
fn back_hover_waits_formats_and_screenshots() {
    let site = Site::serve(bundled_site_dir(), 0).unwrap();
    let mut config = EngineConfig::default();
    config.browser.action_timeout = std::time::Duration::from_secs(2);
    let mut e = Engine::new(config).unwrap();
    ok(
        &mut e,
        "browser_navigate",
        json!({"url": site.url("/index.html")}),
    );
    ok(
        &mut e,
        "browser_navigate",
        json!({"url": site.url("/help.html"), "expectation": {"includeSnapshot": false}}),
    );
    let back = ok(&mut e, "browser_navigate_back", json!({}));
    assert!(
        back.contains("Went back") && back.contains("Loose-leaf teas"),
        "{back}"
    );
    // The tab started at about:blank; one more step back is the start.
    ok(
        &mut e,
        "browser_navigate_back",
        json!({"expectation": {"includeSnapshot": false}}),
    );
    let none = call(&mut e, "browser_navigate_back", json!({}));
    assert!(
        none.is_error && none.text.contains("no previous page"),
        "{}",
        none.text
    );
    ok(
        &mut e,
        "browser_navigate",
        json!({"url": site.url("/index.html"), "expectation": {"includeSnapshot": false}}),
    );
    let shop = ok(&mut e, "browser_snapshot", json!({}));

    let hover = ok(
        &mut e,
        "browser_hover",
        json!({"ref": ref_of(&shop, "heading \"Genmaicha\"", "button \"Quick view\"")}),
    );
    assert!(
        hover.contains("Hovered over button \"Quick view\""),
        "{hover}"
    );

    let text = ok(
        &mut e,
        "browser_snapshot",
        json!({"expectation": {"snapshotOptions": {"selector": "e99999999"}}}),
    );
    assert!(
        text.contains("No element matches selector `e99999999`"),
        "{text}"
    );
    let text = ok(
        &mut e,
        "browser_snapshot",
        json!({"expectation": {"snapshotOptions": {"selector": "#cart", "format": "text"}}}),
    );
    assert!(text.contains("```text\nCart\nCart (0)\nYour cart is empty.\nCart items\nSubtotal: $0.00\nCheckout\n```"), "{text}");
    let html = ok(
        &mut e,
        "browser_snapshot",
        json!({"expectation": {"snapshotOptions": {"selector": "#cart h2", "format": "html"}}}),
    );
    assert!(html.contains("```html\n<h2>Cart (0)</h2>\n```"), "{html}");
    let capped = ok(
        &mut e,
        "browser_snapshot",
        json!({"expectation": {"snapshotOptions": {"maxLength": 200}}}),
    );
    assert!(
        capped.contains("more lines (") && capped.contains("characters) not shown"),
        "{capped}"
    );

    let gone = ok(
        &mut e,
        "browser_wait_for",
        json!({"textGone": "Nothing like this", "time": 0.1}),
    );
    assert!(
        gone.contains("Waited 0.1 s; text \"Nothing like this\" is gone"),
        "{gone}"
    );
    let never = call(
        &mut e,
        "browser_wait_for",
        json!({"text": "Nothing like this"}),
    );
    assert!(
        never.is_error && never.text.contains("did not appear within"),
        "{}",
        never.text
    );

    let full = call(&mut e, "browser_take_screenshot", json!({"fullPage": true}));
    assert!(!full.is_error && full.images.len() == 1 && full.images[0].mime_type == "image/png");
    assert!(
        full.text
            .contains("Took a screenshot of the full page (1280×"),
        "{}",
        full.text
    );
    let checkout = ref_of(&shop, "complementary", "button \"Checkout\"");
    let el = call(
        &mut e,
        "browser_take_screenshot",
        json!({"ref": checkout, "expectation": {"imageOptions": {"format": "webp"}}}),
    );
    assert!(
        !el.is_error && el.images[0].mime_type == "image/webp",
        "{}",
        el.text
    );
    e.shutdown();
}

#[test]
fn the_browser_closes_itself_and_leaves_nothing_in_tmp() {
    // Chromium keeps its singleton socket in a directory of its own under
    // /tmp, linked from the profile; a killed browser leaves it behind.
    let mut e = engine();
    let site = Site::serve(bundled_site_dir(), 0).unwrap();
    ok(
        &mut e,
        "browser_navigate",
        json!({ "url": site.url("/index.html") }),
    );
    let pid = e.pid_cell().load(std::sync::atomic::Ordering::SeqCst);
    let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap();
    let profile = cmdline
        .split(|b| *b == 0)
        .filter_map(|a| std::str::from_utf8(a).ok())
        .find_map(|a| a.strip_prefix("--user-data-dir="))
        .expect("the browser's --user-data-dir")
        .to_owned();
    let socket = std::fs::read_link(std::path::Path::new(&profile).join("SingletonSocket"))
        .expect("Chromium's SingletonSocket link");
    let socket_dir = socket.parent().unwrap().to_owned();
    assert!(socket_dir.exists(), "{}", socket_dir.display());
    drop(e);
    assert!(
        !socket_dir.exists(),
        "{} was left behind",
        socket_dir.display()
    );
    assert!(
        !std::path::Path::new(&profile).exists(),
        "{profile} was left behind"
    );
}
