use serde_json::{Value, json};

use super::model::AxSnapshot;
use super::parse_ref;
use super::read::origin_of;

fn node(id: u32, parent: Option<u32>, role: &str, name: &str, children: &[u32]) -> Value {
    let mut n = json!({
        "nodeId": id.to_string(),
        "ignored": false,
        "role": {"type": "role", "value": role},
        "name": {"type": "computedString", "value": name},
        "childIds": children.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
        "backendDOMNodeId": id + 100,
    });
    if let Some(p) = parent {
        n["parentId"] = json!(p.to_string());
    }
    n
}

#[test]
fn shapes_like_playwright() {
    let mut heading = node(3, Some(2), "heading", "Cart", &[4]);
    heading["properties"] = json!([{"name": "level", "value": {"type": "integer", "value": 2}}]);
    let mut button = node(7, Some(2), "button", "Add to cart", &[8]);
    button["properties"] =
        json!([{"name": "disabled", "value": {"type": "boolean", "value": true}}]);
    let mut link = node(9, Some(2), "link", "Help", &[10]);
    link["properties"] = json!([{"name": "url", "value": {"type": "string", "value": "http://127.0.0.1:9/help.html"}}]);
    let mut textbox = node(11, Some(2), "textbox", "Email", &[12]);
    textbox["value"] = json!({"type": "string", "value": "ada@"});
    let mut ignored = node(13, Some(2), "generic", "", &[14]);
    ignored["ignored"] = json!(true);
    let ax = json!({"nodes": [
        node(1, None, "RootWebArea", "Shop", &[2]),
        node(2, Some(1), "main", "", &[3, 5, 7, 9, 11, 13, 15]),
        heading,
        node(4, Some(3), "StaticText", "Cart", &[]),
        node(5, Some(2), "paragraph", "", &[6, 16]),
        node(6, Some(5), "StaticText", "Subtotal:  ", &[]),
        button,
        node(8, Some(7), "StaticText", "Add to cart", &[]),
        link,
        node(10, Some(9), "StaticText", "Help", &[]),
        textbox,
        node(12, Some(11), "generic", "", &[]),
        ignored,
        node(14, Some(13), "button", "Pay", &[]),
        node(15, Some(2), "generic", "", &[17]),
        node(16, Some(5), "StaticText", "$8.50", &[]),
        node(17, Some(15), "listitem", "", &[]),
    ]});
    let snap = AxSnapshot::parse(ax, Some("http://127.0.0.1:9/index.html")).unwrap();
    assert_eq!(
        snap.tree().to_aria(),
        "- main [ref=e102]:\n  - heading \"Cart\" [level=2] [ref=e103]\n  - paragraph [ref=e105]: \"Subtotal: $8.50\"\n  - button \"Add to cart\" [disabled] [ref=e107]\n  - link \"Help\" [ref=e109]:\n    - /url: /help.html\n  - textbox \"Email\" [ref=e111]: ada@\n  - button \"Pay\" [ref=e114]\n  - listitem [ref=e117]"
    );
    let sub = snap.subtree(105).unwrap();
    assert_eq!(sub.to_aria(), "- paragraph [ref=e105]: \"Subtotal: $8.50\"");
    assert!(snap.subtree(999).is_none());
}

#[test]
fn refs() {
    assert_eq!(parse_ref("e42"), Some(42));
    assert_eq!(parse_ref("e"), None);
    assert_eq!(parse_ref("42"), None);
    assert_eq!(parse_ref("e4x"), None);
}

#[test]
fn origins() {
    assert_eq!(
        origin_of("http://127.0.0.1:8080/a?b").as_deref(),
        Some("http://127.0.0.1:8080")
    );
    assert_eq!(origin_of("about:blank"), None);
}
