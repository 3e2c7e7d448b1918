//! The test pages over HTTP on 127.0.0.1, served by the server crate's
//! one test HTTP server ([`response_diff_server::site::Site`]).
//!
//! Serves `tests/fixtures/pages/**` at `/`, the third-party apps of the
//! regression corpus (`tests/browser/apps/node_modules/**`, installed by
//! `make fingerprint-apps`) at `/apps/`, pages registered at run time with
//! [`Server::put`] (regression variants), and generated pages
//! (`/generated/big?n=2000`).

use std::sync::Arc;

use anyhow::Result;
use response_diff_server::site::Site;

use crate::pages;

/// The running server; it stops when the last clone is dropped.
#[derive(Clone)]
pub struct Server(Arc<Site>);

impl Server {
    /// Binds 127.0.0.1 on a free port and serves in background threads.
    pub fn start() -> Result<Server> {
        let site = Site::builder(crate::fixtures_dir().join("pages"))
            .mount("/apps/", crate::apps_dir())
            .generate(generated)
            .start()?;
        Ok(Server(Arc::new(site)))
    }

    /// `http://127.0.0.1:<port><path>`.
    pub fn url(&self, path: &str) -> String {
        self.0.url(path)
    }

    /// Serves `html` at `path` (replacing what was there).
    pub fn put(&self, path: &str, html: String) {
        self.0.put(path, html);
    }
}

/// `/generated/big?n=<elements>` (2,000 by default, at most 100,000).
fn generated(path: &str, query: &str) -> Option<String> {
    if path != "/generated/big" {
        return None;
    }
    let n = query
        .split('&')
        .find_map(|kv| kv.strip_prefix("n="))
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000usize)
        .min(100_000);
    Some(pages::generated_page(n))
}
