//! The tools/list catalog: its size in o200k tokens (docs/DECISIONS.md D22,
//! D51: at most @playwright/mcp 0.0.83's 4,396, with every one of its 25
//! tools) and its golden file (shared with the
//! end-to-end test, which checks what a real client receives).

use response_diff_server::mcp::McpServer;
use serde_json::json;

/// @playwright/mcp 0.0.83's 25 default tools, measured the same way
/// (docs/DECISIONS.md D22; `node scripts/catalog_tokens.mjs` measures both).
const PLAYWRIGHT_MCP_TOKENS: usize = 4_396;

fn golden_path() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/e2e/golden/tools-list.json")
}

fn catalog_json() -> serde_json::Value {
    json!({ "tools": McpServer::catalog() })
}

#[test]
fn catalog_is_smaller_than_playwright_mcp() {
    let bpe = tiktoken_rs::o200k_base().unwrap();
    let compact = serde_json::to_string(&catalog_json()).unwrap();
    let tokens = bpe.encode_with_special_tokens(&compact).len();
    let tools = McpServer::catalog().len();
    eprintln!(
        "tools/list: {tools} tools, {tokens} o200k tokens ({} bytes of JSON)",
        compact.len()
    );
    assert_eq!(tools, 27);
    // Every tool of @playwright/mcp's default list but the refused
    // browser_run_code_unsafe, and ours, for no more (docs/DECISIONS.md D51).
    assert!(
        tokens <= PLAYWRIGHT_MCP_TOKENS,
        "tools/list costs {tokens} tokens, over @playwright/mcp's {PLAYWRIGHT_MCP_TOKENS}"
    );
}

#[test]
fn opt_in_tools_only_with_caps() {
    use response_diff_server::caps::Caps;
    let names = |caps: &Caps| -> Vec<String> {
        McpServer::catalog_with(caps)
            .into_iter()
            .map(|t| t.name.to_string())
            .collect()
    };
    let default = names(&Caps::default());
    assert!(
        !default
            .iter()
            .any(|n| n.ends_with("_xy") || n == "browser_pdf_save" || n == "browser_storage_state")
    );
    let all = names(&Caps::all());
    assert_eq!(all.len(), 35);
    assert!(all.contains(&"browser_storage_state".to_owned()));
    let vision = names(&Caps::parse("vision").unwrap());
    assert!(vision.contains(&"browser_mouse_drag_xy".to_owned()));
    assert!(!vision.contains(&"browser_pdf_save".to_owned()));
    assert!(!vision.contains(&"browser_storage_state".to_owned()));
    let storage = names(&Caps::parse("storage").unwrap());
    assert!(storage.contains(&"browser_storage_state".to_owned()));
}

#[test]
fn catalog_matches_the_golden_file() {
    let mut text = serde_json::to_string_pretty(&catalog_json()).unwrap();
    text.push('\n');
    let path = golden_path();
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &text).unwrap();
    }
    let golden = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; run with UPDATE_GOLDEN=1 to write it",
            path.display()
        )
    });
    assert_eq!(
        text, golden,
        "tools/list changed; review and run with UPDATE_GOLDEN=1"
    );
}

/// Every tool but `browser_close` takes `expectation` (docs/DECISIONS.md
/// D22), opt-in tools included; a batch takes it as `globalExpectation`
/// and per step. The end-to-end test checks the same on what a real
/// client receives.
#[test]
fn every_tool_but_close_takes_an_expectation() {
    use response_diff_server::caps::Caps;
    let catalog = McpServer::catalog_with(&Caps::all());
    let lacking: Vec<String> = catalog
        .iter()
        .filter(|t| {
            let props = t.input_schema.get("properties").and_then(|p| p.as_object());
            let key = if t.name == "browser_batch_execute" {
                "globalExpectation"
            } else {
                "expectation"
            };
            let has = props.is_some_and(|p| p.contains_key(key));
            has == (t.name == "browser_close")
        })
        .map(|t| t.name.to_string())
        .collect();
    assert!(
        lacking.is_empty(),
        "tools that break the expectation rule (all but browser_close take it): {lacking:?}"
    );
}
