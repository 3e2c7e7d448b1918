//! Waiting for what an action started, as Playwright-based servers do: the
//! navigation it started (if any) until the new document has loaded, then
//! the network requests it started, then the DOM until it stops changing
//! briefly, all under the action timeout.
//!
//! [`settle`] is the wait; what it waits for is the per-tab record of
//! navigations and requests the CDP listener keeps (`crate::activity`).
//! After a different-document navigation the load is waited for, as
//! Playwright's `goto` does, and then the new page's own requests for at
//! most [`NEW_PAGE_REQUESTS`] (it may open a long poll at once, which must
//! not hold every navigation).

use std::time::{Duration, Instant};

use serde_json::json;

use crate::activity::{Activity, DOM_CLOCK_JS, Mark};
use crate::browser::Page;
use crate::error::lock;

/// After the last request the action started has finished, the network must
/// stay quiet this long (no new request) before the action counts as done:
/// a response often starts the next request (a chained fetch, the images of
/// what it rendered).
const NETWORK_QUIET: Duration = Duration::from_millis(100);
/// After a different-document navigation has loaded, the new page's own
/// requests are waited for at most this long (Playwright's `goto` waits for
/// the load only; pages that fetch and render their content right after it,
/// such as React's in-browser JSX compiler, were then read half drawn).
const NEW_PAGE_REQUESTS: Duration = Duration::from_secs(1);
/// The DOM counts as settled after this long without a mutation…
const DOM_QUIET_MS: u32 = 50;
/// …or after this long of continuous change (an animation never settles).
const DOM_QUIET_CAP_MS: u32 = 500;
/// How often the event record is polled while something is pending.
const POLL: Duration = Duration::from_millis(5);

/// How an action's aftermath ended.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Settled {
    /// The action replaced the document and the new one loaded (or is
    /// still loading, see `still`).
    pub navigated: bool,
    /// The action changed the URL within the document.
    pub same_document: bool,
    /// What was still pending when the time ran out, as a note
    /// ("a navigation started and is still loading", "1 request: GET /x").
    pub still: Option<String>,
    /// Time spent.
    pub elapsed: Duration,
}

impl Settled {
    /// The note appended to an action's result: empty, " (the page
    /// navigated)", or what was still pending at the time limit.
    pub fn note(&self) -> String {
        match (&self.still, self.navigated) {
            (Some(s), _) => format!(" ({s})"),
            (None, true) => " (the page navigated)".into(),
            (None, false) => String::new(),
        }
    }
}

/// Waits two frames (effects and renders scheduled by the action run, and
/// the requests they start begin) and a task (work queued before it, such
/// as reading a reply's body, runs first), then until the DOM has not
/// changed for a moment. A hidden tab draws no frames, so a timer stands in
/// for them.
fn quiet_js() -> String {
    format!(
        "(async () => {{ {DOM_CLOCK_JS}
  const s = window.__rdMut, t0 = performance.now();
  const frame = () => new Promise((r) => {{ let done = false; const f = () => {{ if (!done) {{ done = true; r(); }} }}; requestAnimationFrame(f); setTimeout(f, 100); }});
  await frame(); await frame();
  await new Promise((r) => {{ const c = new MessageChannel(); c.port1.onmessage = r; c.port2.postMessage(0); }});
  for (;;) {{
    const now = performance.now(), quiet = now - s.last;
    if (quiet >= {DOM_QUIET_MS} || now - t0 >= {DOM_QUIET_CAP_MS}) return now - t0;
    await new Promise((r) => setTimeout(r, Math.max(1, {DOM_QUIET_MS} - quiet)));
  }}
}})()"
    )
}

fn remaining(deadline: Instant) -> Duration {
    deadline.saturating_duration_since(Instant::now())
}

/// Waits for the DOM to settle (see [`quiet_js`]). A page busy in a
/// script, or a document that goes away meanwhile, ends the wait: the
/// caller looks at the events again.
fn dom_quiet(page: &Page, deadline: Instant) {
    let limit = remaining(deadline).min(Duration::from_millis(u64::from(DOM_QUIET_CAP_MS) + 2_000));
    if limit.is_zero() {
        return;
    }
    let _ = page.call_within(
        "Runtime.evaluate",
        json!({
            "expression": quiet_js(),
            "awaitPromise": true,
            "returnByValue": true,
            "silent": true,
        }),
        limit,
    );
}

/// Polls the event record until `done` holds or the deadline passes;
/// returns whether `done` held. A tab whose renderer died, or a browser
/// that is gone, sends nothing more: that counts as done (the page read
/// after the action reports it).
fn poll_until(
    page: &Page,
    deadline: Instant,
    mut done: impl FnMut(&Activity, Instant) -> bool,
) -> bool {
    loop {
        let now = Instant::now();
        if done(&lock(&page.events).activity, now) || !page.answers() {
            return true;
        }
        if now >= deadline {
            return false;
        }
        std::thread::sleep(POLL.min(remaining(deadline)));
    }
}

/// A short list of requests for a note: `1 request: GET /api/slow`.
fn describe_requests(page_url: Option<&str>, requests: &[(String, String)]) -> String {
    let origin = page_url.and_then(origin_of);
    let shown: Vec<String> = requests
        .iter()
        .take(3)
        .map(|(method, url)| {
            let url = match &origin {
                Some(o) if url.starts_with(o.as_str()) && url.len() > o.len() => &url[o.len()..],
                _ => url.as_str(),
            };
            let url = if url.chars().count() > 100 {
                format!("{}…", url.chars().take(99).collect::<String>())
            } else {
                url.to_owned()
            };
            format!("{method} {url}")
        })
        .collect();
    let more = requests.len().saturating_sub(shown.len());
    let n = requests.len();
    format!(
        "{n} request{}: {}{}",
        if n == 1 { "" } else { "s" },
        shown.join(", "),
        if more > 0 {
            format!(", and {more} more")
        } else {
            String::new()
        }
    )
}

/// `http://host:port` of a URL.
fn origin_of(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    let host = rest.split(['/', '?', '#']).next()?;
    Some(format!("{scheme}://{host}"))
}

/// Waits for what the action begun at `mark` started (see the module
/// docs), at most `timeout`. With `expect_navigation` (going back or
/// forward in history) it first waits for a navigation of either kind to
/// happen at all.
pub fn settle(page: &Page, mark: Mark, timeout: Duration, expect_navigation: bool) -> Settled {
    let start = Instant::now();
    let deadline = start + timeout;
    let mut out = Settled::default();
    let mut new_page_until: Option<Instant> = None;
    page.sync_events();
    if expect_navigation {
        let happened = poll_until(page, deadline, |a, now| {
            let n = a.navigation(mark, now);
            n.pending || n.committed || n.same_document || n.aborted
        });
        if !happened {
            out.still = Some("a navigation was requested and has not started".into());
        }
    }
    while out.still.is_none() && page.answers() {
        let done = poll_until(page, deadline, |a, now| !a.navigation(mark, now).pending);
        if !done {
            out.still = Some("a navigation started and is still loading".into());
            break;
        }
        dom_quiet(page, deadline);
        page.sync_events();
        let nav = lock(&page.events).activity.navigation(mark, Instant::now());
        if nav.pending {
            continue;
        }
        // After a new document has loaded, its own first requests (the
        // scripts an in-browser compiler fetches before it renders the app,
        // the data a page loads at start) are waited for too, but only
        // briefly: a long poll it opens must not hold every navigation.
        let limit = if nav.committed {
            *new_page_until
                .get_or_insert_with(|| (Instant::now() + NEW_PAGE_REQUESTS).min(deadline))
        } else {
            deadline
        };
        let in_flight = lock(&page.events).activity.requests_since(mark);
        if !in_flight.is_empty() {
            let finished = poll_until(page, limit, |a, now| {
                a.requests_since(mark).is_empty() || a.navigation(mark, now).pending
            });
            if !finished && nav.committed {
                // The new page's requests outlived its window: they are its
                // own, not the action's.
                break;
            }
            if !finished {
                let left = lock(&page.events).activity.requests_since(mark);
                let url = page
                    .evaluate("location.href", false, Duration::from_secs(2))
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned));
                out.still = Some(format!(
                    "still waiting for {}",
                    describe_requests(url.as_deref(), &left)
                ));
            }
            continue;
        }
        let last = lock(&page.events).activity.last_finished_since(mark);
        match last.map(|t| t + NETWORK_QUIET) {
            Some(quiet_at) if quiet_at > Instant::now() => {
                // A quiet window after the action's last request: a new
                // request in it is waited for like the first ones.
                let until = quiet_at.min(limit);
                if poll_until(page, until, |a, _| !a.requests_since(mark).is_empty()) {
                    continue;
                }
                break;
            }
            _ => break,
        }
    }
    let nav = lock(&page.events).activity.navigation(mark, Instant::now());
    out.navigated = nav.committed;
    out.same_document = nav.same_document;
    out.elapsed = start.elapsed();
    tracing::debug!(
        "settled in {:.1} ms{}",
        out.elapsed.as_secs_f64() * 1000.0,
        out.note()
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_name_what_was_pending() {
        let reqs = vec![
            (
                "GET".to_owned(),
                "http://127.0.0.1:8/api/slow?n=1".to_owned(),
            ),
            ("POST".to_owned(), "http://other.test/x".to_owned()),
        ];
        assert_eq!(
            describe_requests(Some("http://127.0.0.1:8/orders"), &reqs[..1]),
            "1 request: GET /api/slow?n=1"
        );
        assert_eq!(
            describe_requests(Some("http://127.0.0.1:8/"), &reqs),
            "2 requests: GET /api/slow?n=1, POST http://other.test/x"
        );
        let s = Settled {
            still: Some("still waiting for 1 request: GET /x".into()),
            ..Settled::default()
        };
        assert_eq!(s.note(), " (still waiting for 1 request: GET /x)");
    }
}
