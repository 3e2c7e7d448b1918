//! Response rendering: the core's Markdown for a tool response under an
//! expectation, with the snapshot optionally diffed by a detector.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use napi::bindgen_prelude::*;
use napi_derive::napi;
use response_diff::Error as CoreError;
use response_diff::expectation::Expectation as CoreExpectation;
use response_diff::response::{self as core, DiffTarget};
use serde_json::Value;

use crate::json::Json;

use crate::diff::{DiffResult, ResponseDiffDetector};
use crate::error::{OrThrow, throw};
use crate::expectation::layers;

/// Everything a tool call produced, before filtering. (Named `ToolResponse`
/// so it does not shadow the global fetch `Response` type.) Unknown keys
/// throw `INVALID_OPTION`.
#[napi(object)]
pub struct ToolResponse {
    /// What the tool did, or the error it hit.
    pub result: Option<String>,
    /// Whether `result` is an error.
    pub is_error: Option<bool>,
    /// Code equivalent to what was run (e.g. Playwright JavaScript).
    pub code: Option<String>,
    /// Open tabs.
    pub tabs: Option<Vec<Tab>>,
    /// URL and title of the current page.
    pub page: Option<PageState>,
    /// The page snapshot.
    pub snapshot: Option<Snapshot>,
    /// Console messages since the previous response, oldest first.
    pub console: Option<Vec<ConsoleMessage>>,
    /// Downloads.
    pub downloads: Option<Vec<Download>>,
    /// Images (screenshots), base64 as in MCP image content.
    pub images: Option<Vec<Image>>,
}

/// An open tab.
#[napi(object)]
pub struct Tab {
    /// Position in the tab list.
    pub index: u32,
    /// Page title.
    pub title: Option<String>,
    /// Page URL.
    pub url: Option<String>,
    /// Whether this is the tab tools act on.
    pub current: Option<bool>,
}

/// URL and title of the current page.
#[napi(object)]
pub struct PageState {
    /// Page URL.
    pub url: String,
    /// Page title.
    pub title: Option<String>,
}

/// A page snapshot as the host captured it.
#[napi(object)]
pub struct Snapshot {
    /// Playwright-style aria snapshot text.
    pub aria: String,
    /// Outer HTML of the same scope, for `snapshotOptions.format: "html"`.
    pub html: Option<String>,
}

/// A console message.
#[napi(object)]
pub struct ConsoleMessage {
    /// The browser's type: `log`, `info`, `warning`, `error`, `debug`, …
    pub level: String,
    /// The message text.
    pub text: String,
    /// Where it came from (`app.js:12`), if known.
    pub location: Option<String>,
}

/// A download.
#[napi(object)]
pub struct Download {
    /// Suggested file name.
    pub name: String,
    /// Where it was saved, once finished.
    pub path: Option<String>,
}

/// An image content item.
#[napi(object)]
pub struct Image {
    /// `image/png`, `image/jpeg` or `image/webp`.
    pub mime_type: String,
    /// The encoded bytes, base64.
    pub data: String,
}

/// A rendered response.
#[napi(object, object_from_js = false)]
pub struct RenderedResponse {
    /// The Markdown text.
    pub text: String,
    /// Images, resized and re-encoded per `imageOptions` (base64).
    pub images: Vec<Image>,
    /// Whether the result is an error.
    pub is_error: bool,
    /// The snapshot diff, when diffing was on and a snapshot was shown.
    pub snapshot_diff: Option<DiffResult>,
}

/// @deprecated Use `RenderedResponse`, the name every binding uses; this
/// alias goes in the next breaking release.
#[napi]
pub type Rendered = RenderedResponse;

const RENDER_OPTION_KEYS: [&str; 3] = ["expectations", "detector", "key"];
const SNAPSHOT_OPTION_KEYS: [&str; 4] = ["expectations", "detector", "key", "url"];

/// The options both renderers take, read and checked: the expectation
/// resolved for `tool`, the detector, the key and (for the snapshot
/// section) the page URL.
struct RenderOptions<'env> {
    expectation: response_diff::expectation::ResolvedExpectation,
    detector: Option<ClassInstance<'env, ResponseDiffDetector>>,
    key: Option<String>,
    url: Option<String>,
}

impl<'env> RenderOptions<'env> {
    fn read(
        env: &Env,
        tool: &str,
        options: Option<&Object<'env>>,
        allowed: &[&str],
    ) -> Result<Self> {
        let mut expectation_layers = Vec::new();
        let mut detector = None;
        let mut key = None;
        let mut url = None;
        if let Some(o) = options {
            for k in Object::keys(o)? {
                if !allowed.contains(&k.as_str()) {
                    return Err(throw(
                        env,
                        CoreError::invalid_option(
                            format!("renderOptions.{k}"),
                            format!("unknown option `{k}`; allowed: {}", allowed.join(", ")),
                        ),
                    ));
                }
            }
            expectation_layers = layers(env, o.get::<Vec<Json>>("expectations")?)?;
            detector = o.get::<ClassInstance<ResponseDiffDetector>>("detector")?;
            key = o.get::<String>("key")?;
            if allowed.contains(&"url") {
                url = o.get::<String>("url")?;
            }
        }
        if detector.is_some() && key.is_none() {
            return Err(throw(
                env,
                CoreError::invalid_option(
                    "renderOptions.key",
                    "a key (e.g. the tab id) is required with a detector",
                ),
            ));
        }
        let refs: Vec<&CoreExpectation> = expectation_layers.iter().collect();
        let expectation = CoreExpectation::resolve(tool, &refs).or_throw(env)?;
        Ok(RenderOptions {
            expectation,
            detector,
            key,
            url,
        })
    }

    fn target(&self) -> Option<DiffTarget<'_>> {
        match (&self.detector, &self.key) {
            (Some(d), Some(k)) => Some(DiffTarget {
                detector: &d.inner,
                key: k,
            }),
            _ => None,
        }
    }
}

/// Renders `response` as Markdown under `tool`'s defaults merged with
/// `options.expectations`, in the fixed section order every binding shares.
///
/// With `options.detector` (and `options.key`) and `diffOptions.enabled`
/// on, the snapshot is shown as a diff against the previous one under the
/// key, a one-line "unchanged", or in full. With diffing off the stored
/// snapshot is neither read nor moved.
#[napi]
pub fn render_response(
    env: Env,
    #[napi(ts_arg_type = "ToolResponse")] response: Json,
    tool: String,
    #[napi(
        ts_arg_type = "{ expectations?: Expectation[]; detector?: ResponseDiffDetector; key?: string }"
    )]
    options: Option<Object>,
) -> Result<RenderedResponse> {
    let response: core::Response = Response::from_value(&response.0).or_throw(&env)?;
    let o = RenderOptions::read(&env, &tool, options.as_ref(), &RENDER_OPTION_KEYS)?;
    let r = core::render(&response, &o.expectation, o.target()).or_throw(&env)?;
    Ok(RenderedResponse {
        text: r.text,
        images: r.images.into_iter().map(image_out).collect(),
        is_error: r.is_error,
        snapshot_diff: r.snapshot_diff.map(Into::into),
    })
}

/// The snapshot section of a response, alone.
#[napi(object, object_from_js = false)]
pub struct RenderedSnapshotSection {
    /// The heading, without the `### ` (`Page snapshot (patch)`).
    pub heading: String,
    /// The body: the fenced snapshot, a diff or patch, or one line.
    pub body: String,
    /// `### <heading>\n<body>`, as it stands in a rendered response.
    pub text: String,
    /// The snapshot diff, when diffing was on.
    pub snapshot_diff: Option<DiffResult>,
}

/// The snapshot section `renderResponse` would print for `snapshot`, alone
/// (same rules, same text, same detector keys), for hosts that print the
/// other sections themselves (`@x/response-diff/mcp` keeps
/// @playwright/mcp's). `options.url`: the page's URL, so a page seen
/// before diffs against its last snapshot. `null` when the expectation
/// leaves the snapshot out.
#[napi]
pub fn render_snapshot_section(
    env: Env,
    snapshot: Snapshot,
    tool: String,
    #[napi(
        ts_arg_type = "{ expectations?: Expectation[]; detector?: ResponseDiffDetector; key?: string; url?: string }"
    )]
    options: Option<Object>,
) -> Result<Option<RenderedSnapshotSection>> {
    let o = RenderOptions::read(&env, &tool, options.as_ref(), &SNAPSHOT_OPTION_KEYS)?;
    let snap = core::Snapshot {
        aria: snapshot.aria,
        html: snapshot.html,
    };
    let s = core::render_snapshot_section(&snap, &o.expectation, o.target(), o.url.as_deref())
        .or_throw(&env)?;
    Ok(s.map(|s| RenderedSnapshotSection {
        text: s.to_markdown(),
        heading: s.heading,
        body: s.body,
        snapshot_diff: s.diff.map(Into::into),
    }))
}

/// Parses a response object with the core's validation.
struct Response;

impl Response {
    fn from_value(v: &Value) -> response_diff::Result<core::Response> {
        core::Response::from_json(&v.to_string())
    }
}

fn image_out(i: core::Image) -> Image {
    Image {
        mime_type: i.mime_type,
        data: STANDARD.encode(&i.data),
    }
}

/// The lean envelope for a section the host prints itself (the
/// `@x/response-diff/mcp` wrapper keeps @playwright/mcp's `### Page`):
/// whether `body` is what the last response with diffing on showed in
/// section `name` under `key`, so it can be left out; records `body` as
/// shown. Call it only for responses with diffing on. `name` must not be
/// `page` or `tabs`, which `renderResponse` keeps this way itself.
#[napi]
pub fn section_unchanged(
    detector: &ResponseDiffDetector,
    key: String,
    name: String,
    body: String,
) -> bool {
    core::section_unchanged(
        DiffTarget {
            detector: &detector.inner,
            key: &key,
        },
        &name,
        &body,
    )
}
