//! What a tool call produced, as the host hands it over (the binding
//! boundary's JSON): the types `render` reads and the image and snapshot
//! steps share, kept apart from the rendering so those steps and `mod.rs`
//! do not import each other.

use crate::Result;
use crate::prelude::*;

use serde::{Deserialize, Serialize};

/// Everything a tool call produced, before filtering.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Response {
    /// What the tool did, or the error it hit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    /// Whether `result` is an error.
    #[serde(default)]
    pub is_error: bool,
    /// Code equivalent to what was run (e.g. Playwright JavaScript).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// The language of `code`, for its code block (`js` when not given;
    /// `python`, `java`, `csharp`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code_lang: Option<String>,
    /// Open tabs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tabs: Vec<Tab>,
    /// The call asked for the tabs (`browser_tabs`): with diffing on they
    /// are shown even when unchanged since the previous response, which
    /// leaves out only the sections the agent did not ask for.
    #[serde(default, skip_serializing_if = "core::ops::Not::not")]
    pub tabs_requested: bool,
    /// URL and title of the current page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page: Option<PageState>,
    /// Modal states the agent must answer first (an open dialog, a file
    /// chooser), one line each; shown whatever the expectation says.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub modal_state: Vec<String>,
    /// The page snapshot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snapshot: Option<Snapshot>,
    /// Console messages since the previous response, oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub console: Vec<ConsoleMessage>,
    /// Downloads.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub downloads: Vec<Download>,
    /// Images (screenshots); `data` is base64 in JSON.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub images: Vec<Image>,
    /// A section the host wrote itself, shown where the snapshot goes and
    /// in its place (a `since` read, or a notice that no element matched
    /// the snapshot's selector). Rust hosts only: not part of the JSON.
    #[serde(skip)]
    pub snapshot_section: Option<Section>,
}

/// A section with its heading, as the host wrote it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Section {
    /// The heading, without the `### `.
    pub heading: String,
    /// The body, as is.
    pub body: String,
}

/// An open tab.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Tab {
    /// Position in the tab list.
    pub index: usize,
    /// Page title.
    #[serde(default)]
    pub title: String,
    /// Page URL.
    #[serde(default)]
    pub url: String,
    /// Whether this is the tab tools act on.
    #[serde(default)]
    pub current: bool,
}

/// URL and title of the current page.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PageState {
    /// Page URL.
    pub url: String,
    /// Page title.
    #[serde(default)]
    pub title: String,
}

/// A page snapshot as the host captured it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Snapshot {
    /// Playwright-style aria snapshot text.
    pub aria: String,
    /// Outer HTML of the same scope, for `format: "html"` (hosts that can
    /// read the DOM supply it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub html: Option<String>,
}

impl Snapshot {
    /// A snapshot with aria text only.
    pub fn aria(text: impl Into<String>) -> Self {
        Snapshot {
            aria: text.into(),
            html: None,
        }
    }
}

/// A console message.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ConsoleMessage {
    /// The browser's type: `log`, `info`, `warning`, `error`, `debug`, …
    pub level: String,
    /// The message text.
    pub text: String,
    /// Where it came from (`app.js:12`), if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
}

impl ConsoleMessage {
    /// A message without a location.
    pub fn new(level: impl Into<String>, text: impl Into<String>) -> Self {
        ConsoleMessage {
            level: level.into(),
            text: text.into(),
            location: None,
        }
    }
}

/// A download.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Download {
    /// Suggested file name.
    pub name: String,
    /// Where it was saved, once finished.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Its size in bytes, once finished.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
}

/// An image content item.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Image {
    /// `image/png`, `image/jpeg` or `image/webp`.
    pub mime_type: String,
    /// Encoded bytes (base64 in JSON).
    #[serde(with = "base64_bytes")]
    pub data: Vec<u8>,
}

mod base64_bytes {
    use super::super::base64;
    use crate::prelude::*;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(bytes: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&base64::encode(bytes))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        let s = String::deserialize(d)?;
        base64::decode(&s)
            .map_err(|e| serde::de::Error::custom(format!("data is not valid base64: {e}")))
    }
}

impl Response {
    /// Parses a response from JSON (the binding boundary).
    pub fn from_json(json: &str) -> Result<Response> {
        crate::json::from_str(json, "response")
    }
}
