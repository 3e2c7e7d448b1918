//! What the CDP listener of one tab records about navigations and
//! requests ([`Activity`]), so that the wait after an action (`settle.rs`)
//! knows what that action started. What CDP says, measured on Chromium 156:
//!
//! - `pushState`, `replaceState`, a `#fragment` link and `location.hash`
//!   are same-document navigations: `Page.frameStartedLoading`,
//!   `Page.navigatedWithinDocument`, `Page.frameStoppedLoading` within a
//!   millisecond, no `Page.frameNavigated`, no load event. There is nothing
//!   to wait for (a fragment link is first a `frameScheduledNavigation`,
//!   cleared right after).
//! - A link to another document or a form post: `frameRequestedNavigation`
//!   and `frameStartedNavigating` (type `differentDocument`), then
//!   `frameNavigated` at commit, the load event, `frameStoppedLoading`.
//! - An answer that does not replace the page (204, a download, a network
//!   error) fails the document request and stops loading without a commit.
//! - A back-forward-cache restore stops loading first and commits right
//!   after; hence a short grace before a stop without a commit counts as
//!   "the navigation did not happen".
//!
//! Only requests whose `Network.requestWillBeSent` arrives after the action
//! began count, so a long poll, a beacon or a stream the page opened before
//! never delays an action; nor does a request to the same method and path
//! as one in flight when the action began (a long poll answered and opened
//! again meanwhile), at the cost of not waiting for an action's request to
//! a path the page already had a request open to. Kinds that never "finish" (EventSource,
//! WebSocket, beacons, media streams, prefetches) and the browser's own
//! favicon fetch are not tracked at all.

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use serde_json::Value;

/// A stop of loading with no commit is a navigation that did not replace
/// the page, unless a commit follows within this (a back-forward-cache
/// restore commits about 2 ms after it stops loading).
const COMMIT_GRACE: Duration = Duration::from_millis(500);
/// Requests kept per tab at most (a page that never finishes its requests
/// must not grow the record without bound).
const MAX_REQUESTS: usize = 1_000;
/// Request kinds that are never waited for: they are open-ended by nature
/// or not the page's work.
const UNTRACKED_KINDS: &[&str] = &[
    "EventSource",
    "WebSocket",
    "Ping",
    "Prefetch",
    "CSPViolationReport",
    "Media",
    "Manifest",
    "SignedExchange",
    "Preflight",
];

impl Request {
    /// What identifies a recurring request: method and URL without the
    /// query (a long poll's cursor changes).
    fn key(&self) -> String {
        let url = self.url.split(['?', '#']).next().unwrap_or_default();
        format!("{} {url}", self.method)
    }
}

/// A request in flight.
#[derive(Debug, Clone)]
struct Request {
    /// The event sequence number when it started.
    seq: u64,
    method: String,
    url: String,
    kind: String,
    frame: String,
    loader: String,
}

/// What the listener of one tab records about navigations and requests.
/// Every event it sees moves a sequence number; a [`Mark`] is that number
/// when an action began, and "since the mark" means "caused after it".
#[derive(Debug, Default)]
pub struct Activity {
    seq: u64,
    /// A scheduled main-frame navigation not yet cleared (its seq).
    scheduled: Option<u64>,
    /// The last different-document navigation requested or started.
    doc_nav: u64,
    /// The last main-frame `frameStartedLoading`.
    started_loading: u64,
    /// Whether the main frame is loading.
    loading: bool,
    /// The last main-frame `frameStoppedLoading`, and when it came.
    stopped: u64,
    stopped_at: Option<Instant>,
    /// The last main-frame commit (`frameNavigated`).
    commit: u64,
    /// The last same-document navigation of the main frame.
    same_document: u64,
    /// The last failed main-frame document request.
    doc_failed: u64,
    requests: HashMap<String, Request>,
    /// `METHOD url` (without the query) of the requests in flight at the
    /// last mark: a new request to one of them during the action is the
    /// page re-opening it (a long poll answered meanwhile), not the
    /// action's work.
    open_at_mark: HashSet<String>,
    /// The start seq of the request that finished last, and when.
    last_finished: Option<(u64, Instant)>,
}

/// The point an action began at (see [`Activity::mark`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mark(u64);

/// Navigation since a mark.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Navigation {
    /// A navigation is under way: scheduled, started and not committed, or
    /// committed and still loading.
    pub pending: bool,
    /// A new document was committed.
    pub committed: bool,
    /// The document stayed and its URL changed (`pushState`, a fragment, …).
    pub same_document: bool,
    /// A different-document navigation ended without replacing the page.
    pub aborted: bool,
}

impl Activity {
    /// The point an action begins at, for a later [`Activity::navigation`]
    /// or [`Activity::requests_since`].
    pub fn mark(&mut self) -> Mark {
        self.open_at_mark = self.requests.values().map(Request::key).collect();
        Mark(self.seq)
    }

    /// Records one CDP event of the tab whose main frame is `main_frame`.
    pub fn on_event(&mut self, method: &str, p: &Value, main_frame: &str, now: Instant) {
        self.seq += 1;
        let seq = self.seq;
        let str_at = |ptr: &str| p.pointer(ptr).and_then(Value::as_str).unwrap_or_default();
        let main = str_at("/frameId") == main_frame;
        match method {
            "Page.frameScheduledNavigation" if main => self.scheduled = Some(seq),
            "Page.frameClearedScheduledNavigation" if main => self.scheduled = None,
            "Page.frameRequestedNavigation"
                if main && matches!(str_at("/disposition"), "" | "currentTab") =>
            {
                self.doc_nav = seq;
            }
            "Page.frameStartedNavigating"
                if main
                    && !matches!(
                        str_at("/navigationType"),
                        "sameDocument" | "historySameDocument"
                    ) =>
            {
                self.doc_nav = seq;
            }
            "Page.frameStartedLoading" if main => {
                self.started_loading = seq;
                self.loading = true;
            }
            "Page.frameStoppedLoading" if main => {
                self.stopped = seq;
                self.stopped_at = Some(now);
                self.loading = false;
            }
            "Page.navigatedWithinDocument" if main => self.same_document = seq,
            "Page.frameNavigated"
                if p.pointer("/frame/parentId").is_none() && str_at("/frame/id") == main_frame =>
            {
                self.commit = seq;
                // Requests of the old document end with it; the new one's
                // own document request carries the new loader id.
                let loader = str_at("/frame/loaderId").to_owned();
                self.requests.retain(|_, r| r.loader == loader);
            }
            "Network.requestWillBeSent" => {
                let kind = p.get("type").and_then(Value::as_str).unwrap_or("Other");
                let url = str_at("/request/url");
                if UNTRACKED_KINDS.contains(&kind) || is_favicon(kind, url) {
                    return;
                }
                let id = str_at("/requestId").to_owned();
                if let Some(r) = self.requests.get_mut(&id) {
                    // A redirect: the same request, now at a new URL.
                    r.url = url.to_owned();
                    return;
                }
                self.requests.insert(
                    id,
                    Request {
                        seq,
                        method: str_at("/request/method").to_owned(),
                        url: url.to_owned(),
                        kind: kind.to_owned(),
                        frame: str_at("/frameId").to_owned(),
                        loader: str_at("/loaderId").to_owned(),
                    },
                );
                if self.requests.len() > MAX_REQUESTS
                    && let Some(oldest) = self
                        .requests
                        .iter()
                        .min_by_key(|(_, r)| r.seq)
                        .map(|(k, _)| k.clone())
                {
                    self.requests.remove(&oldest);
                }
            }
            "Network.loadingFinished" | "Network.loadingFailed" => {
                if let Some(r) = self.requests.remove(str_at("/requestId")) {
                    if method == "Network.loadingFailed"
                        && r.kind == "Document"
                        && r.frame == main_frame
                    {
                        self.doc_failed = seq;
                    }
                    if self.last_finished.is_none_or(|(s, _)| s < r.seq) {
                        self.last_finished = Some((r.seq, now));
                    } else if let Some((_, at)) = &mut self.last_finished {
                        *at = now;
                    }
                }
            }
            _ => {}
        }
    }

    /// What happened to the main frame's document since `mark`.
    pub fn navigation(&self, mark: Mark, now: Instant) -> Navigation {
        let m = mark.0;
        let scheduled = self.scheduled.is_some_and(|s| s > m);
        let committed = self.commit > m;
        let started = self.doc_nav > m;
        let mut aborted = false;
        let doc_pending = if committed && self.commit > self.doc_nav {
            // Committed: loading stops once the load event has fired.
            self.loading
        } else if started {
            if self.doc_failed > self.doc_nav {
                aborted = true;
                false
            } else if self.stopped > self.doc_nav {
                let waited = self.stopped_at.map(|t| now.saturating_duration_since(t));
                let pending = waited.is_some_and(|w| w < COMMIT_GRACE);
                aborted = !pending;
                pending
            } else {
                true
            }
        } else {
            false
        };
        // A load that started after the mark, unless it was a same-document
        // navigation (those stop at once anyway).
        let loading =
            self.started_loading > m && self.loading && self.same_document < self.started_loading;
        Navigation {
            pending: scheduled || doc_pending || loading,
            committed,
            same_document: self.same_document > m,
            aborted,
        }
    }

    /// Requests started since `mark` and still in flight, oldest first, as
    /// `METHOD url`.
    pub fn requests_since(&self, mark: Mark) -> Vec<(String, String)> {
        let mut v: Vec<&Request> = self
            .requests
            .values()
            .filter(|r| r.seq > mark.0 && !self.open_at_mark.contains(&r.key()))
            .collect();
        v.sort_by_key(|r| r.seq);
        v.into_iter()
            .map(|r| (r.method.clone(), r.url.clone()))
            .collect()
    }

    /// When the last request started since `mark` finished, if one did.
    pub fn last_finished_since(&self, mark: Mark) -> Option<Instant> {
        self.last_finished
            .filter(|(seq, _)| *seq > mark.0)
            .map(|(_, at)| at)
    }
}

/// Chromium fetches `/favicon.ico` by itself after a navigation, even a
/// same-document one: not the page's work.
fn is_favicon(kind: &str, url: &str) -> bool {
    kind == "Other" && is_favicon_url(url)
}

/// Whether `url` is a site's `/favicon.ico`.
pub(crate) fn is_favicon_url(url: &str) -> bool {
    url.split(['?', '#'])
        .next()
        .is_some_and(|u| u.ends_with("/favicon.ico"))
}

/// Installs the DOM change clock of the current document (idempotent):
/// `window.__rdMut.last` is the time of the last mutation.
pub const DOM_CLOCK_JS: &str = "if (!window.__rdMut) { const s = { last: 0 }; \
Object.defineProperty(window, '__rdMut', { value: s }); \
new MutationObserver(() => { s.last = performance.now(); }).observe(document, \
{ subtree: true, childList: true, attributes: true, characterData: true }); }";

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const MAIN: &str = "F1";

    fn feed(a: &mut Activity, events: &[(&str, Value)]) {
        for (m, p) in events {
            a.on_event(m, p, MAIN, Instant::now());
        }
    }

    fn frame(name: &str) -> (&'static str, Value) {
        let m: &'static str = match name {
            "scheduled" => "Page.frameScheduledNavigation",
            "cleared" => "Page.frameClearedScheduledNavigation",
            "requested" => "Page.frameRequestedNavigation",
            "startedLoading" => "Page.frameStartedLoading",
            "stoppedLoading" => "Page.frameStoppedLoading",
            "within" => "Page.navigatedWithinDocument",
            _ => unreachable!(),
        };
        (m, json!({ "frameId": MAIN, "disposition": "currentTab" }))
    }

    fn started(kind: &str) -> (&'static str, Value) {
        (
            "Page.frameStartedNavigating",
            json!({ "frameId": MAIN, "navigationType": kind, "loaderId": "L2" }),
        )
    }

    fn committed(kind: &str) -> (&'static str, Value) {
        (
            "Page.frameNavigated",
            json!({ "frame": { "id": MAIN, "loaderId": "L2" }, "type": kind }),
        )
    }

    fn request(id: &str, kind: &str, url: &str) -> (&'static str, Value) {
        (
            "Network.requestWillBeSent",
            json!({ "requestId": id, "type": kind, "frameId": MAIN, "loaderId": "L1",
                    "request": { "url": url, "method": "GET" } }),
        )
    }

    fn finished(id: &str) -> (&'static str, Value) {
        ("Network.loadingFinished", json!({ "requestId": id }))
    }

    #[test]
    fn same_document_navigations_are_not_pending() {
        // pushState / replaceState, then a fragment link, as Chromium 156 sends them.
        let mut a = Activity::default();
        let mark = a.mark();
        feed(&mut a, &[frame("startedLoading")]);
        assert!(a.navigation(mark, Instant::now()).pending);
        feed(&mut a, &[frame("within"), frame("stoppedLoading")]);
        let n = a.navigation(mark, Instant::now());
        assert_eq!(
            n,
            Navigation {
                same_document: true,
                ..Navigation::default()
            }
        );
        let mark = a.mark();
        feed(
            &mut a,
            &[
                frame("scheduled"),
                frame("startedLoading"),
                frame("within"),
                frame("stoppedLoading"),
            ],
        );
        // Still scheduled until cleared.
        assert!(a.navigation(mark, Instant::now()).pending);
        feed(&mut a, &[frame("cleared")]);
        assert!(!a.navigation(mark, Instant::now()).pending);
    }

    #[test]
    fn a_link_is_pending_until_the_new_document_loaded() {
        let mut a = Activity::default();
        let mark = a.mark();
        feed(
            &mut a,
            &[frame("scheduled"), frame("requested"), frame("cleared")],
        );
        // Cleared, but the requested navigation has not started loading yet.
        assert!(a.navigation(mark, Instant::now()).pending);
        feed(
            &mut a,
            &[
                started("differentDocument"),
                frame("startedLoading"),
                committed("Navigation"),
            ],
        );
        let n = a.navigation(mark, Instant::now());
        assert!(n.pending && n.committed);
        feed(&mut a, &[frame("stoppedLoading")]);
        let n = a.navigation(mark, Instant::now());
        assert!(!n.pending && n.committed && !n.aborted);
    }

    #[test]
    fn a_204_aborts_and_a_bfcache_restore_commits_after_stopping() {
        let mut a = Activity::default();
        let mark = a.mark();
        feed(
            &mut a,
            &[
                frame("requested"),
                started("differentDocument"),
                frame("startedLoading"),
                request("L2", "Document", "http://h/204"),
                ("Network.loadingFailed", json!({ "requestId": "L2" })),
                frame("stoppedLoading"),
            ],
        );
        let n = a.navigation(mark, Instant::now());
        assert!(!n.pending && n.aborted && !n.committed);

        let mut a = Activity::default();
        let mark = a.mark();
        feed(
            &mut a,
            &[
                started("historyDifferentDocument"),
                frame("startedLoading"),
                frame("stoppedLoading"),
            ],
        );
        // Stopped without a commit: the commit may still come.
        assert!(a.navigation(mark, Instant::now()).pending);
        assert!(a.navigation(mark, Instant::now() + COMMIT_GRACE).aborted);
        feed(&mut a, &[committed("BackForwardCacheRestore")]);
        let n = a.navigation(mark, Instant::now());
        assert!(!n.pending && n.committed);
    }

    #[test]
    fn only_requests_started_after_the_mark_count() {
        let mut a = Activity::default();
        feed(&mut a, &[request("1", "Fetch", "http://h/api/poll")]);
        let mark = a.mark();
        assert!(a.requests_since(mark).is_empty());
        feed(
            &mut a,
            &[
                request("2", "XHR", "http://h/api/slow"),
                request("3", "EventSource", "http://h/stream"),
                request("4", "Other", "http://h/favicon.ico"),
                request("5", "Ping", "http://h/beacon"),
            ],
        );
        assert_eq!(
            a.requests_since(mark),
            vec![("GET".to_owned(), "http://h/api/slow".to_owned())]
        );
        assert!(a.last_finished_since(mark).is_none());
        feed(&mut a, &[finished("1")]);
        assert!(a.last_finished_since(mark).is_none());
        feed(&mut a, &[finished("2")]);
        assert!(a.requests_since(mark).is_empty());
        assert!(a.last_finished_since(mark).is_some());
    }

    #[test]
    fn a_long_poll_reopened_during_the_action_is_not_its_work() {
        let mut a = Activity::default();
        feed(&mut a, &[request("1", "XHR", "http://h/api/poll?cursor=1")]);
        let mark = a.mark();
        feed(
            &mut a,
            &[
                finished("1"),
                request("2", "XHR", "http://h/api/poll?cursor=2"),
                request("3", "Fetch", "http://h/api/save"),
            ],
        );
        assert_eq!(
            a.requests_since(mark),
            vec![("GET".to_owned(), "http://h/api/save".to_owned())]
        );
        // The next action sees the re-opened poll as the page's own.
        let mark = a.mark();
        feed(&mut a, &[finished("3")]);
        assert!(a.requests_since(mark).is_empty());
    }

    #[test]
    fn a_commit_forgets_the_old_documents_requests() {
        let mut a = Activity::default();
        let mark = a.mark();
        feed(&mut a, &[request("1", "Fetch", "http://h/a")]);
        feed(
            &mut a,
            &[(
                "Network.requestWillBeSent",
                json!({ "requestId": "L2", "type": "Document", "frameId": MAIN, "loaderId": "L2",
                        "request": { "url": "http://h/next", "method": "GET" } }),
            )],
        );
        feed(&mut a, &[committed("Navigation")]);
        assert_eq!(
            a.requests_since(mark),
            vec![("GET".to_owned(), "http://h/next".to_owned())]
        );
    }
}
