//! The tools/list catalog: its size in o200k tokens (docs/DECISIONS.md D22: below
//! @playwright/mcp's 4,396) and its golden file (shared with the
//! end-to-end test, which checks what a real client receives).

use response_diff_server::mcp::McpServer;
use serde_json::json;

/// @playwright/mcp's 25 tools, measured the same way (docs/DECISIONS.md D22).
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
    assert_eq!(tools, 19);
    assert!(
        tokens < PLAYWRIGHT_MCP_TOKENS,
        "tools/list costs {tokens} tokens, not below {PLAYWRIGHT_MCP_TOKENS}"
    );
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
