//! `browser_network_requests`: the tab's request list, diffed like any
//! other section when `diffOptions.enabled` (the core's detector, keyed by
//! the tab and `network`), so a second look after one more request costs
//! that request's line. `browser_network_request`: one of them in detail,
//! or one part (headers, a body read from the browser when asked for).

use anyhow::{Context, Result, anyhow};
use base64::Engine as _;
use response_diff::diff::{DiffMode, ResponseDiffDetector};
use response_diff::expectation::ResolvedExpectation;
use serde_json::{Value, json};

use super::state::{Acted, Engine};
use crate::error::{Error, lock};
use crate::network::{Request, is_textual};
use crate::tools::{self, NetworkParams, NetworkRequestParams, RequestPart};

/// Characters of a body shown in a response; `filename` saves all of it.
pub const MAX_BODY_CHARS: usize = 20_000;

const HEADING: &str = "Requests since the page loaded";

impl Engine {
    pub(super) fn network_requests(&mut self, p: &NetworkParams) -> Result<Acted> {
        let tab = self.tab()?;
        // Every event the page sent before now is in the log.
        tab.sync_events();
        let filter = match &p.filter {
            Some(f) => Some(tools::url_filter(f).map_err(Error::User)?),
            None => None,
        };
        let list = lock(&tab.events)
            .network
            .render(p.include_static.unwrap_or(false), filter.as_ref());
        if let Some(name) = &p.filename {
            let path = self.output_dir()?.join(name);
            std::fs::write(&path, format!("{list}\n"))
                .with_context(|| format!("writing {}", path.display()))?;
            return Ok(Acted {
                result: format!(
                    "Saved the requests since the page loaded to {} ({} lines)",
                    path.display(),
                    list.lines().count()
                ),
                ..Acted::default()
            });
        }
        Ok(Acted {
            network: Some(list),
            snapshot: true,
            ..Acted::default()
        })
    }
}

impl Engine {
    pub(super) fn network_request(&mut self, p: &NetworkRequestParams) -> Result<Acted> {
        let tab = self.tab()?;
        tab.sync_events();
        let request: Request = lock(&tab.events)
            .network
            .get(p.index)
            .map_err(Error::User)?
            .clone();
        let n = p.index;
        // The text (or bytes) of what was asked for, and what it is.
        let (what, content): (String, Content) = match p.part {
            None => ("the details".into(), Content::Text(request.details(n))),
            Some(RequestPart::RequestHeaders) => (
                "the request headers".into(),
                Content::Text(request.headers.lines("").join("\n")),
            ),
            Some(RequestPart::ResponseHeaders) => match &request.response_headers {
                Some(h) => (
                    "the response headers".into(),
                    Content::Text(h.lines("").join("\n")),
                ),
                None => {
                    return Ok(said(format!(
                        "Request #{n} has no response (yet): {}",
                        request.line()
                    )));
                }
            },
            Some(RequestPart::RequestBody) => {
                if !request.has_post_data {
                    return Ok(said(format!(
                        "Request #{n} has no body: {}",
                        request.line()
                    )));
                }
                let r =
                    self.body_of(&tab, &request, "Network.getRequestPostData", "request body")?;
                let body = r
                    .get("postData")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                ("the request body".into(), Content::Text(body.to_owned()))
            }
            Some(RequestPart::ResponseBody) => {
                if !request.can_have_body() {
                    return Ok(said(format!(
                        "Request #{n} has no response body ({}): {}",
                        if request.redirected {
                            "a redirect"
                        } else {
                            "no answer, or an answer without one"
                        },
                        request.line()
                    )));
                }
                let r = self.body_of(&tab, &request, "Network.getResponseBody", "response body")?;
                let body = r.get("body").and_then(Value::as_str).unwrap_or_default();
                let bytes = if r.get("base64Encoded").and_then(Value::as_bool) == Some(true) {
                    base64::engine::general_purpose::STANDARD
                        .decode(body)
                        .context("the browser sent a body that is not base64")?
                } else {
                    body.as_bytes().to_vec()
                };
                let content = if is_textual(&request.mime) {
                    Content::Text(String::from_utf8_lossy(&bytes).into_owned())
                } else {
                    Content::Bytes(bytes)
                };
                ("the response body".into(), content)
            }
        };
        if let Some(name) = &p.filename {
            let path = self.output_dir()?.join(name);
            let (data, size) = match &content {
                Content::Text(t) => (t.as_bytes(), t.len()),
                Content::Bytes(b) => (b.as_slice(), b.len()),
            };
            std::fs::write(&path, data).with_context(|| format!("writing {}", path.display()))?;
            return Ok(said(format!(
                "Saved {what} of request #{n} to {} ({size} bytes)",
                path.display()
            )));
        }
        let text = match content {
            Content::Text(t) if t.is_empty() => format!("(empty: {what} of request #{n})"),
            Content::Text(t) => cut(&t),
            Content::Bytes(b) => format!(
                "The response body of request #{n} is binary ({}, {} bytes); pass filename to save it.",
                if request.mime.is_empty() {
                    "no MIME type"
                } else {
                    &request.mime
                },
                b.len()
            ),
        };
        Ok(said(text))
    }
}

impl Engine {
    /// A body the browser keeps, read on the session that saw the
    /// request (`method`: `Network.getRequestPostData` or
    /// `Network.getResponseBody`).
    fn body_of(
        &self,
        tab: &crate::browser::Page,
        request: &Request,
        method: &str,
        what: &str,
    ) -> Result<Value> {
        tab.cdp()
            .call(
                Some(&request.session),
                method,
                json!({ "requestId": request.id }),
                self.timeout(),
            )
            .map_err(|e| {
                anyhow!(Error::User(format!(
                    "the {what} of {} is not available ({}): the request has not finished, or the browser no longer keeps it ({} MiB of bodies per tab)",
                    request.line(),
                    crate::error::describe(&e),
                    crate::network::BODY_BUFFER_BYTES >> 20
                )))
            })
    }
}

enum Content {
    Text(String),
    Bytes(Vec<u8>),
}

fn said(result: String) -> Acted {
    Acted {
        result,
        snapshot: true,
        ..Acted::default()
    }
}

/// A body cut to [`MAX_BODY_CHARS`], at a line end when there is one.
fn cut(text: &str) -> String {
    let (kept, marker) = response_diff::response::truncate_lines(text, MAX_BODY_CHARS);
    match marker {
        None => kept,
        Some(m) if !kept.is_empty() => format!("{kept}{m}; pass filename to save all of it"),
        // One long line (minified JSON): cut inside it.
        Some(_) => {
            let end = text
                .char_indices()
                .nth(MAX_BODY_CHARS)
                .map_or(text.len(), |(i, _)| i);
            format!(
                "{}\n… {} more characters not shown; pass filename to save all of it",
                &text[..end],
                text[end..].chars().count()
            )
        }
    }
}

/// The result text of a request list: in full, or with diffing on, what
/// changed since the list this chain last showed.
pub(super) fn render_list(
    detector: &ResponseDiffDetector,
    key: &str,
    list: &str,
    resolved: &ResolvedExpectation,
) -> Result<String> {
    if !resolved.diff.enabled {
        return Ok(format!("{HEADING}:\n{list}"));
    }
    let r = detector.detect(&format!("{key}\u{1f}network"), list, &resolved.diff)?;
    Ok(match r.mode {
        DiffMode::Unchanged => format!("{HEADING}: {}", r.formatted_diff),
        DiffMode::Diff => format!(
            "{HEADING} (diff since the previous list):\n{}",
            r.formatted_diff
        ),
        _ => format!("{HEADING}:\n{}", r.formatted_diff),
    })
}
