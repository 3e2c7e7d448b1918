//! The requests of a tab since its last navigation, for
//! `browser_network_requests`, from the CDP `Network.*` events the tab's
//! listener already receives.
//!
//! A main-frame document request starts a new list (it is the navigation),
//! so the list holds what the current page asked for, its own document
//! first. Redirects are separate entries, as Playwright lists them. Only
//! what a line shows is kept (no headers, no bodies), and at most
//! [`MAX_REQUESTS`] entries: older ones are dropped and counted.

use serde_json::Value;

/// Entries kept per tab; older ones are dropped (and counted).
pub const MAX_REQUESTS: usize = 1_000;

/// URLs are cut to this many characters (data: URLs can be megabytes).
const MAX_URL_CHARS: usize = 300;

#[derive(Debug, Clone)]
struct Request {
    id: String,
    method: String,
    url: String,
    /// CDP resource type (`Document`, `Fetch`, `XHR`, `Image`, …).
    kind: String,
    outcome: Outcome,
}

#[derive(Debug, Clone)]
enum Outcome {
    Pending,
    Status(u64, String),
    Failed(String),
}

/// One tab's requests since its last navigation.
#[derive(Debug, Default)]
pub struct NetworkLog {
    requests: Vec<Request>,
    dropped: usize,
}

impl NetworkLog {
    /// Takes a `Network.*` event of the tab whose main frame is `main_frame`.
    pub fn on_event(&mut self, method: &str, p: &Value, main_frame: &str) {
        let s = |ptr: &str| p.pointer(ptr).and_then(Value::as_str).unwrap_or_default();
        let id = s("/requestId");
        match method {
            "Network.requestWillBeSent" => {
                if let Some(status) = p
                    .pointer("/redirectResponse/status")
                    .and_then(Value::as_u64)
                {
                    let text = s("/redirectResponse/statusText").to_owned();
                    if let Some(r) = self.last_mut(id) {
                        r.outcome = Outcome::Status(status, text);
                    }
                }
                let kind = s("/type");
                // The browser's own favicon fetch is not the page's request
                // (Playwright does not list it either).
                if crate::activity::is_favicon_url(s("/request/url")) {
                    return;
                }
                let navigation = kind == "Document"
                    && s("/frameId") == main_frame
                    && s("/loaderId") == id
                    && p.get("redirectResponse").is_none();
                if navigation {
                    self.requests.clear();
                    self.dropped = 0;
                }
                self.requests.push(Request {
                    id: id.to_owned(),
                    method: s("/request/method").to_owned(),
                    url: short_url(s("/request/url")),
                    kind: kind.to_owned(),
                    outcome: Outcome::Pending,
                });
                if self.requests.len() > MAX_REQUESTS {
                    let extra = self.requests.len() - MAX_REQUESTS;
                    self.requests.drain(..extra);
                    self.dropped += extra;
                }
            }
            "Network.responseReceived" => {
                let status = p.pointer("/response/status").and_then(Value::as_u64);
                let text = s("/response/statusText").to_owned();
                let kind = s("/type").to_owned();
                if let (Some(r), Some(status)) = (self.last_mut(id), status) {
                    r.outcome = Outcome::Status(status, text);
                    if r.kind.is_empty() {
                        r.kind = kind;
                    }
                }
            }
            "Network.loadingFailed" => {
                let error = if p.get("canceled").and_then(Value::as_bool) == Some(true) {
                    "net::ERR_ABORTED".to_owned()
                } else {
                    s("/errorText").to_owned()
                };
                if let Some(r) = self.last_mut(id) {
                    // A response that arrived and then failed (a body cut
                    // short) is a failure too.
                    r.outcome = Outcome::Failed(error);
                }
            }
            _ => {}
        }
    }

    fn last_mut(&mut self, id: &str) -> Option<&mut Request> {
        self.requests.iter_mut().rev().find(|r| r.id == id)
    }

    /// The list as the tool prints it: `[GET] url => [200] OK`, one line a
    /// request, Playwright's format. Without `include_static`, successful
    /// requests other than fetch/XHR (the document, scripts, styles,
    /// images, fonts, media) are left out and counted, as Playwright does.
    pub fn render(&self, include_static: bool, filter: Option<&regex::Regex>) -> String {
        let mut lines = Vec::new();
        if self.dropped > 0 {
            lines.push(format!(
                "({} earlier requests were not kept; the list holds the last {MAX_REQUESTS})",
                self.dropped
            ));
        }
        let mut hidden = 0;
        for r in &self.requests {
            let fetch = matches!(r.kind.as_str(), "Fetch" | "XHR");
            let ok = matches!(r.outcome, Outcome::Status(s, _) if s < 400);
            if !include_static && !fetch && ok {
                hidden += 1;
                continue;
            }
            if filter.is_some_and(|f| !f.is_match(&r.url)) {
                continue;
            }
            let mut line = format!("[{}] {}", r.method.to_ascii_uppercase(), r.url);
            match &r.outcome {
                Outcome::Pending => {}
                Outcome::Status(s, text) if text.is_empty() => line.push_str(&format!(" => [{s}]")),
                Outcome::Status(s, text) => line.push_str(&format!(" => [{s}] {text}")),
                Outcome::Failed(e) => line.push_str(&format!(" => [FAILED] {e}")),
            }
            lines.push(line);
        }
        if lines.is_empty() {
            lines.push(match filter {
                Some(f) => format!("No requests matching /{f}/ since the page loaded."),
                None => "No requests since the page loaded.".to_owned(),
            });
        }
        if hidden > 0 {
            lines.push(format!(
                "({hidden} successful static request{} not shown; pass static: true to list {})",
                if hidden == 1 { "" } else { "s" },
                if hidden == 1 { "it" } else { "them" }
            ));
        }
        lines.join("\n")
    }
}

fn short_url(url: &str) -> String {
    match url.char_indices().nth(MAX_URL_CHARS) {
        Some((i, _)) => format!("{}…", &url[..i]),
        None => url.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn sent(log: &mut NetworkLog, id: &str, kind: &str, url: &str) {
        log.on_event(
            "Network.requestWillBeSent",
            &json!({"requestId": id, "loaderId": "L1", "frameId": "F", "type": kind,
                    "request": {"method": "get", "url": url}}),
            "F",
        );
    }

    fn answered(log: &mut NetworkLog, id: &str, status: u64, text: &str) {
        log.on_event(
            "Network.responseReceived",
            &json!({"requestId": id, "type": "Fetch", "response": {"status": status, "statusText": text}}),
            "F",
        );
    }

    #[test]
    fn lists_since_the_navigation_without_static_resources() {
        let mut log = NetworkLog::default();
        sent(&mut log, "L0", "Document", "http://h/old");
        sent(&mut log, "L1", "Document", "http://h/");
        answered(&mut log, "L1", 200, "OK");
        sent(&mut log, "2", "Script", "http://h/app.js");
        answered(&mut log, "2", 200, "OK");
        sent(&mut log, "3", "Fetch", "http://h/api/ok");
        answered(&mut log, "3", 200, "OK");
        sent(&mut log, "4", "Fetch", "http://h/api/missing");
        answered(&mut log, "4", 404, "Not Found");
        sent(&mut log, "5", "Image", "http://h/x.png");
        log.on_event(
            "Network.loadingFailed",
            &json!({"requestId": "5", "errorText": "net::ERR_CONNECTION_REFUSED"}),
            "F",
        );
        sent(&mut log, "6", "XHR", "http://h/api/slow");
        assert_eq!(
            log.render(false, None),
            "[GET] http://h/api/ok => [200] OK\n\
             [GET] http://h/api/missing => [404] Not Found\n\
             [GET] http://h/x.png => [FAILED] net::ERR_CONNECTION_REFUSED\n\
             [GET] http://h/api/slow\n\
             (2 successful static requests not shown; pass static: true to list them)"
        );
        assert!(
            log.render(true, None)
                .starts_with("[GET] http://h/ => [200] OK\n[GET] http://h/app.js")
        );
        let api = regex::Regex::new("/api/(ok|slow)").unwrap();
        assert_eq!(
            log.render(false, Some(&api)),
            "[GET] http://h/api/ok => [200] OK\n[GET] http://h/api/slow\n\
             (2 successful static requests not shown; pass static: true to list them)"
        );
    }
}
