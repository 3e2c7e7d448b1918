//! The requests of a tab since its last navigation, for
//! `browser_network_requests` and `browser_network_request`, from the CDP
//! `Network.*` events the tab's listener already receives.
//!
//! A main-frame document request starts a new list (it is the navigation),
//! so the list holds what the current page asked for, its own document
//! first. Redirects are separate entries, as Playwright lists them. Each
//! entry keeps what a line shows and what the details show besides the
//! bodies: headers (at most [`MAX_HEADER_BYTES`] per entry), MIME type,
//! timing, and the CDP session and request id the bodies are read with
//! when asked for (`Network.getRequestPostData`,
//! `Network.getResponseBody`; Chromium keeps the response bodies, see
//! `browser/events.rs`). At most [`MAX_REQUESTS`] entries: older ones are
//! dropped and counted, and the numbers of the others do not change.

use serde_json::Value;

/// Entries kept per tab; older ones are dropped (and counted).
pub const MAX_REQUESTS: usize = 1_000;

/// URLs are cut to this many characters (data: URLs can be megabytes).
const MAX_URL_CHARS: usize = 300;

/// Response-body bytes Chromium keeps per tab for
/// `browser_network_request` (older bodies are evicted first).
pub const BODY_BUFFER_BYTES: u64 = 16 * 1024 * 1024;
/// The largest single response body Chromium keeps.
pub const BODY_BUFFER_PER_RESPONSE: u64 = 4 * 1024 * 1024;

/// Header bytes kept per entry (names and values), for the request's and
/// the response's each; headers past it are dropped and counted.
pub const MAX_HEADER_BYTES: usize = 16 * 1024;

/// One request, as `browser_network_request` shows it.
#[derive(Debug, Clone, Default)]
pub struct Request {
    /// The CDP request id (shared by the hops of a redirect chain).
    pub id: String,
    /// The CDP session that saw it (the tab's, or an out-of-process
    /// frame's): its bodies are read there.
    pub session: String,
    /// HTTP method.
    pub method: String,
    /// URL, cut to 300 characters.
    pub url: String,
    /// CDP resource type (`Document`, `Fetch`, `XHR`, `Image`, …).
    pub kind: String,
    outcome: Outcome,
    /// Request headers, in the order sent.
    pub headers: Headers,
    /// Response headers, once answered.
    pub response_headers: Option<Headers>,
    /// The response's MIME type.
    pub mime: String,
    /// Whether the request had a body.
    pub has_post_data: bool,
    /// Monotonic seconds (CDP `timestamp`) when sent and when it ended.
    started: Option<f64>,
    ended: Option<f64>,
    /// A later hop of a redirect took the id: no body is left for this one.
    pub redirected: bool,
}

/// Headers kept under [`MAX_HEADER_BYTES`].
#[derive(Debug, Clone, Default)]
pub struct Headers {
    /// Name, value.
    pub list: Vec<(String, String)>,
    /// Headers left out to keep under the budget.
    pub dropped: usize,
}

impl Headers {
    fn from(v: Option<&Value>) -> Headers {
        let mut h = Headers::default();
        let mut bytes = 0;
        if let Some(map) = v.and_then(Value::as_object) {
            for (k, v) in map {
                let v = match v {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                bytes += k.len() + v.len();
                if bytes > MAX_HEADER_BYTES {
                    h.dropped += 1;
                } else {
                    h.list.push((k.clone(), v));
                }
            }
        }
        h
    }

    /// `name: value` lines (Playwright's), with `indent` before each.
    pub fn lines(&self, indent: &str) -> Vec<String> {
        let mut out: Vec<String> = self
            .list
            .iter()
            .map(|(k, v)| format!("{indent}{k}: {v}"))
            .collect();
        if self.dropped > 0 {
            out.push(format!(
                "{indent}({} more headers not kept: over {MAX_HEADER_BYTES} bytes)",
                self.dropped
            ));
        }
        out
    }
}

#[derive(Debug, Clone, Default)]
enum Outcome {
    #[default]
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
    /// Takes a `Network.*` event of the tab whose main frame is
    /// `main_frame`, seen on CDP session `session`.
    pub fn on_event(&mut self, method: &str, p: &Value, main_frame: &str, session: &str) {
        let s = |ptr: &str| p.pointer(ptr).and_then(Value::as_str).unwrap_or_default();
        let id = s("/requestId");
        let timestamp = p.get("timestamp").and_then(Value::as_f64);
        match method {
            "Network.requestWillBeSent" => {
                if let Some(status) = p
                    .pointer("/redirectResponse/status")
                    .and_then(Value::as_u64)
                {
                    let text = s("/redirectResponse/statusText").to_owned();
                    let mime = s("/redirectResponse/mimeType").to_owned();
                    if let Some(r) = self.last_mut(id) {
                        r.outcome = Outcome::Status(status, text);
                        r.response_headers =
                            Some(Headers::from(p.pointer("/redirectResponse/headers")));
                        r.mime = mime;
                        r.ended = timestamp;
                        r.redirected = true;
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
                    session: session.to_owned(),
                    method: s("/request/method").to_owned(),
                    url: short_url(s("/request/url")),
                    kind: kind.to_owned(),
                    headers: Headers::from(p.pointer("/request/headers")),
                    has_post_data: p
                        .pointer("/request/hasPostData")
                        .and_then(Value::as_bool)
                        .unwrap_or(false),
                    started: timestamp,
                    ..Request::default()
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
                    r.response_headers = Some(Headers::from(p.pointer("/response/headers")));
                    r.mime = s("/response/mimeType").to_owned();
                }
            }
            "Network.loadingFinished" => {
                if let Some(r) = self.last_mut(id) {
                    r.ended = timestamp;
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
                    r.ended = timestamp;
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
        for (i, r) in self.requests.iter().enumerate() {
            let fetch = matches!(r.kind.as_str(), "Fetch" | "XHR");
            let ok = matches!(r.outcome, Outcome::Status(s, _) if s < 400);
            if !include_static && !fetch && ok {
                hidden += 1;
                continue;
            }
            if filter.is_some_and(|f| !f.is_match(&r.url)) {
                continue;
            }
            lines.push(format!("{}. {}", self.dropped + i + 1, r.line()));
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

impl NetworkLog {
    /// The request numbered `index` (1-based, as the list prints it).
    pub fn get(&self, index: u64) -> Result<&Request, String> {
        let at = usize::try_from(index).unwrap_or(usize::MAX);
        if at == 0 || at > self.dropped + self.requests.len() {
            return Err(format!(
                "request #{index} not found: {} requests since the page loaded; call browser_network_requests for their numbers",
                self.dropped + self.requests.len()
            ));
        }
        if at <= self.dropped {
            return Err(format!(
                "request #{index} is no longer kept (the list holds the last {MAX_REQUESTS}); call browser_network_requests for the numbers kept"
            ));
        }
        Ok(&self.requests[at - self.dropped - 1])
    }
}

impl Request {
    /// `[GET] url => [200] OK`, Playwright's line.
    pub fn line(&self) -> String {
        let mut line = format!("[{}] {}", self.method.to_ascii_uppercase(), self.url);
        match &self.outcome {
            Outcome::Pending => {}
            Outcome::Status(s, text) if text.is_empty() => line.push_str(&format!(" => [{s}]")),
            Outcome::Status(s, text) => line.push_str(&format!(" => [{s}] {text}")),
            Outcome::Failed(e) => line.push_str(&format!(" => [FAILED] {e}")),
        }
        line
    }

    /// The HTTP status, once answered.
    pub fn status(&self) -> Option<u64> {
        match self.outcome {
            Outcome::Status(s, _) => Some(s),
            _ => None,
        }
    }

    /// Whether a response body can exist (Playwright's rule: an answer
    /// other than 1xx, 204 and 304, and not a redirect hop).
    pub fn can_have_body(&self) -> bool {
        !self.redirected
            && self
                .status()
                .is_some_and(|s| s != 204 && s != 304 && !(100..200).contains(&s))
    }

    /// Playwright's details: the line numbered, then General (status,
    /// duration, type, MIME type), the request and the response headers,
    /// and how to read the bodies.
    pub fn details(&self, index: u64) -> String {
        let mut lines = vec![
            format!("#{index} {}", self.line()),
            String::new(),
            "  General".to_owned(),
        ];
        match &self.outcome {
            Outcome::Pending => lines.push("    status:    (no answer yet)".to_owned()),
            Outcome::Status(s, text) => lines.push(format!("    status:    [{s}] {text}")),
            Outcome::Failed(e) => lines.push(format!("    status:    [FAILED] {e}")),
        }
        if let (Some(a), Some(b)) = (self.started, self.ended) {
            lines.push(format!(
                "    duration:  {}ms",
                ((b - a) * 1000.0).max(0.0).round()
            ));
        }
        lines.push(format!("    type:      {}", self.kind.to_ascii_lowercase()));
        if !self.mime.is_empty() {
            lines.push(format!("    mimeType:  {}", self.mime));
        }
        for (title, headers) in [
            ("Request headers", Some(&self.headers)),
            ("Response headers", self.response_headers.as_ref()),
        ] {
            if let Some(h) = headers.filter(|h| !h.list.is_empty() || h.dropped > 0) {
                lines.push(String::new());
                lines.push(format!("  {title}"));
                lines.extend(h.lines("    "));
            }
        }
        let mut hints = Vec::new();
        if self.has_post_data {
            hints.push(
                "Call browser_network_request with part=\"request-body\" to read the request body.",
            );
        }
        if self.can_have_body() {
            hints.push("Call browser_network_request with part=\"response-body\" to read the response body.");
        }
        if !hints.is_empty() {
            lines.push(String::new());
            lines.extend(hints.into_iter().map(str::to_owned));
        }
        lines.join("\n")
    }
}

/// Whether a body of this MIME type reads as text (Playwright's
/// `isTextualMimeType`, plus form data).
pub fn is_textual(mime: &str) -> bool {
    let m = mime
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    m.starts_with("text/")
        || m.ends_with("+json")
        || m.ends_with("+xml")
        || matches!(
            m.as_str(),
            "application/json"
                | "application/javascript"
                | "application/x-javascript"
                | "application/ecmascript"
                | "application/xml"
                | "application/x-www-form-urlencoded"
                | "image/svg+xml"
        )
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
            "S",
        );
    }

    fn answered(log: &mut NetworkLog, id: &str, status: u64, text: &str) {
        log.on_event(
            "Network.responseReceived",
            &json!({"requestId": id, "type": "Fetch", "response": {"status": status, "statusText": text}}),
            "F",
            "S",
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
            "S",
        );
        sent(&mut log, "6", "XHR", "http://h/api/slow");
        assert_eq!(
            log.render(false, None),
            "3. [GET] http://h/api/ok => [200] OK\n\
             4. [GET] http://h/api/missing => [404] Not Found\n\
             5. [GET] http://h/x.png => [FAILED] net::ERR_CONNECTION_REFUSED\n\
             6. [GET] http://h/api/slow\n\
             (2 successful static requests not shown; pass static: true to list them)"
        );
        assert!(
            log.render(true, None)
                .starts_with("1. [GET] http://h/ => [200] OK\n2. [GET] http://h/app.js")
        );
        let api = regex::Regex::new("/api/(ok|slow)").unwrap();
        assert_eq!(
            log.render(false, Some(&api)),
            "3. [GET] http://h/api/ok => [200] OK\n6. [GET] http://h/api/slow\n\
             (2 successful static requests not shown; pass static: true to list them)"
        );
        assert_eq!(log.get(4).unwrap().url, "http://h/api/missing");
        assert!(log.get(7).unwrap_err().contains("6 requests"));
        assert!(log.get(0).is_err());
    }

    #[test]
    fn details_headers_timing_and_redirects() {
        let mut log = NetworkLog::default();
        log.on_event(
            "Network.requestWillBeSent",
            &json!({"requestId": "9", "loaderId": "L", "frameId": "F", "type": "Fetch",
                    "timestamp": 10.0,
                    "request": {"method": "POST", "url": "http://h/old", "hasPostData": true,
                                "headers": {"Content-Type": "application/json"}}}),
            "F",
            "S1",
        );
        log.on_event(
            "Network.requestWillBeSent",
            &json!({"requestId": "9", "loaderId": "L", "frameId": "F", "type": "Fetch",
                    "timestamp": 10.1,
                    "redirectResponse": {"status": 307, "statusText": "Temporary Redirect",
                                         "headers": {"Location": "/new"}, "mimeType": ""},
                    "request": {"method": "POST", "url": "http://h/new", "hasPostData": true,
                                "headers": {"Content-Type": "application/json"}}}),
            "F",
            "S1",
        );
        log.on_event(
            "Network.responseReceived",
            &json!({"requestId": "9", "type": "Fetch", "response": {"status": 200,
                    "statusText": "OK", "mimeType": "application/json",
                    "headers": {"content-type": "application/json; charset=utf-8"}}}),
            "F",
            "S1",
        );
        log.on_event(
            "Network.loadingFinished",
            &json!({"requestId": "9", "timestamp": 10.3456}),
            "F",
            "S1",
        );
        let hop = log.get(1).unwrap();
        assert!(hop.redirected && !hop.can_have_body());
        assert_eq!(
            hop.details(1),
            "#1 [POST] http://h/old => [307] Temporary Redirect\n\n  General\n    \
             status:    [307] Temporary Redirect\n    duration:  100ms\n    type:      fetch\n\n  \
             Request headers\n    Content-Type: application/json\n\n  \
             Response headers\n    Location: /new\n\n\
             Call browser_network_request with part=\"request-body\" to read the request body."
        );
        let last = log.get(2).unwrap();
        assert_eq!(last.session, "S1");
        assert_eq!(
            last.details(2),
            "#2 [POST] http://h/new => [200] OK\n\n  General\n    status:    [200] OK\n    \
             duration:  246ms\n    type:      fetch\n    mimeType:  application/json\n\n  \
             Request headers\n    Content-Type: application/json\n\n  \
             Response headers\n    content-type: application/json; charset=utf-8\n\n\
             Call browser_network_request with part=\"request-body\" to read the request body.\n\
             Call browser_network_request with part=\"response-body\" to read the response body."
        );
        assert!(is_textual("application/json; charset=utf-8"));
        assert!(is_textual("application/ld+json"));
        assert!(!is_textual("image/png"));
    }
}
