//! The parameters and checks of the tools added with issue 36, the rest of
//! @playwright/mcp 0.0.83's default catalog: `browser_find`,
//! `browser_network_request`, `browser_emulate_media` and `browser_drop`
//! (docs/DECISIONS.md D51, D52). Their names and arguments are
//! Playwright's; `browser_drop` takes `ref` (with `target` accepted) like
//! every tool here that acts on an element.
//!
//! `browser_run_code_unsafe` is not a tool of this server: it runs a
//! Playwright script, and there is no Playwright here. A call to it by
//! name (directly or as a batch step) is answered with [`RUN_CODE_REFUSAL`],
//! which points at `browser_evaluate`.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer};
use serde_json::Value;

/// `browser_find`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FindParams {
    /// Text to find, ignoring case. Give text or regex.
    #[serde(default)]
    pub text: Option<String>,
    /// Regex, e.g. "/sign (in|up)/i" (Rust syntax).
    #[serde(default)]
    pub regex: Option<String>,
    /// Save the results to this file in the output directory instead.
    #[serde(default)]
    pub filename: Option<String>,
    #[allow(missing_docs)]
    #[serde(default)]
    pub expectation: Option<Value>,
}

/// One part of a request, for `browser_network_request`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RequestPart {
    /// The headers the page sent.
    RequestHeaders,
    /// The body the page sent.
    RequestBody,
    /// The headers of the answer.
    ResponseHeaders,
    /// The body of the answer.
    ResponseBody,
}

/// `browser_network_request`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NetworkRequestParams {
    /// The request's number in browser_network_requests.
    pub index: u64,
    /// Only this part.
    #[serde(default)]
    pub part: Option<RequestPart>,
    /// Save it to this file in the output directory instead.
    #[serde(default)]
    pub filename: Option<String>,
    #[allow(missing_docs)]
    #[serde(default)]
    pub expectation: Option<Value>,
}

/// The values of a media setting, each with its CSS spelling (which is
/// also its name in the arguments).
macro_rules! css_values {
    ($($(#[$doc:meta])* $name:ident { $($variant:ident => $css:literal),+ })+) => {
        $(
            $(#[$doc])*
            #[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
            #[allow(missing_docs)]
            pub enum $name {
                $( #[serde(rename = $css)] $variant ),+
            }

            impl $name {
                /// The CSS value.
                pub fn css(self) -> &'static str {
                    match self {
                        $( $name::$variant => $css ),+
                    }
                }
            }
        )+
    };
}

css_values! {
    /// `prefers-color-scheme`.
    ColorScheme { Light => "light", Dark => "dark" }
    /// `prefers-reduced-motion`.
    ReducedMotion { Reduce => "reduce", NoPreference => "no-preference" }
    /// `forced-colors`.
    ForcedColors { Active => "active", None => "none" }
    /// `prefers-contrast`.
    Contrast { More => "more", NoPreference => "no-preference" }
    /// The CSS media type.
    MediaType { Screen => "screen", Print => "print" }
}

/// A media setting of `browser_emulate_media`: absent (`None`: leave it),
/// `null` (`Some(None)`: clear the override) or a value.
pub type Setting<T> = Option<Option<T>>;

/// Keeps `null` apart from an absent key (serde's `Option` merges them).
fn setting<'de, D, T>(d: D) -> Result<Setting<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(d).map(Some)
}

/// `browser_emulate_media`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct EmulateMediaParams {
    /// prefers-color-scheme.
    #[serde(default, deserialize_with = "setting")]
    pub color_scheme: Setting<ColorScheme>,
    /// prefers-reduced-motion.
    #[serde(default, deserialize_with = "setting")]
    pub reduced_motion: Setting<ReducedMotion>,
    /// forced-colors.
    #[serde(default, deserialize_with = "setting")]
    pub forced_colors: Setting<ForcedColors>,
    /// prefers-contrast.
    #[serde(default, deserialize_with = "setting")]
    pub contrast: Setting<Contrast>,
    /// CSS media type.
    #[serde(default, deserialize_with = "setting")]
    pub media: Setting<MediaType>,
    #[allow(missing_docs)]
    #[serde(default)]
    pub expectation: Option<Value>,
}

impl EmulateMediaParams {
    /// The media features given, as CDP names and values (`None`: clear).
    pub fn features(&self) -> Vec<(&'static str, Option<&'static str>)> {
        [
            (
                "prefers-color-scheme",
                self.color_scheme.map(|v| v.map(ColorScheme::css)),
            ),
            (
                "prefers-reduced-motion",
                self.reduced_motion.map(|v| v.map(ReducedMotion::css)),
            ),
            (
                "forced-colors",
                self.forced_colors.map(|v| v.map(ForcedColors::css)),
            ),
            (
                "prefers-contrast",
                self.contrast.map(|v| v.map(Contrast::css)),
            ),
        ]
        .into_iter()
        .filter_map(|(name, setting)| setting.map(|value| (name, value)))
        .collect()
    }

    /// The media type given: `None` absent, `Some(None)` clear.
    pub fn media_type(&self) -> Setting<&'static str> {
        self.media.map(|m| m.map(MediaType::css))
    }
}

/// `browser_drop`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DropParams {
    /// Ref of the element to drop onto.
    #[serde(rename = "ref", alias = "target")]
    pub target: String,
    /// Absolute paths of files to drop.
    #[serde(default)]
    pub paths: Option<Vec<String>>,
    /// MIME type to text, e.g. {"text/plain": "hi"}.
    #[serde(default)]
    pub data: Option<BTreeMap<String, String>>,
    /// Accepted, not needed.
    #[serde(default)]
    #[schemars(skip)]
    pub element: Option<String>,
    #[allow(missing_docs)]
    #[serde(default)]
    pub expectation: Option<Value>,
}

/// Most MIME items one `browser_drop` takes.
pub const MAX_DROP_ITEMS: usize = 32;
/// Most bytes of `data` values one `browser_drop` takes.
pub const MAX_DROP_DATA_BYTES: usize = 1 << 20;

pub(super) fn check_find(p: &FindParams) -> Result<(), String> {
    match (&p.text, &p.regex) {
        (None, None) => Err("browser_find: give `text` (plain, ignoring case) or `regex`".into()),
        (Some(_), Some(_)) => Err("browser_find: give `text` or `regex`, not both".into()),
        (Some(t), None) => response_diff::tree::FindQuery::text(t)
            .map(|_| ())
            .map_err(|e| format!("browser_find: {e}")),
        (None, Some(r)) => response_diff::tree::FindQuery::regex(r)
            .map(|_| ())
            .map_err(|e| format!("browser_find: {e}")),
    }
}

pub(super) fn check_emulate(p: &EmulateMediaParams) -> Result<(), String> {
    if p.features().is_empty() && p.media.is_none() {
        return Err(
            "browser_emulate_media: give at least one of colorScheme, reducedMotion, forcedColors, contrast, media (null clears one)"
                .into(),
        );
    }
    Ok(())
}

pub(super) fn check_drop(p: &DropParams) -> Result<(), String> {
    let files = p.paths.as_ref().map_or(0, Vec::len);
    let items = p.data.as_ref().map_or(0, BTreeMap::len);
    if files == 0 && items == 0 {
        return Err(
            "browser_drop: give `paths` (files) or `data` ({mimeType: text}), or both".into(),
        );
    }
    if files > crate::modal::MAX_UPLOAD_FILES {
        return Err(format!(
            "browser_drop: {files} paths; at most {} files per call",
            crate::modal::MAX_UPLOAD_FILES
        ));
    }
    if items > MAX_DROP_ITEMS {
        return Err(format!(
            "browser_drop: {items} data items; at most {MAX_DROP_ITEMS}"
        ));
    }
    if let Some(data) = &p.data {
        let bytes: usize = data.iter().map(|(k, v)| k.len() + v.len()).sum();
        if bytes > MAX_DROP_DATA_BYTES {
            return Err(format!(
                "browser_drop: `data` holds {bytes} bytes; at most {MAX_DROP_DATA_BYTES}"
            ));
        }
        if let Some(bad) = data.keys().find(|k| !is_mime_type(k)) {
            return Err(format!(
                "browser_drop: `{bad}` in `data` is not a MIME type; use keys such as text/plain, text/uri-list, text/html"
            ));
        }
    }
    Ok(())
}

fn is_mime_type(s: &str) -> bool {
    s.split_once('/').is_some_and(|(a, b)| {
        let token = |t: &str| {
            !t.is_empty()
                && t.bytes()
                    .all(|c| c.is_ascii_alphanumeric() || b"!#$&-^_.+".contains(&c))
        };
        token(a) && token(b)
    })
}

/// Tool names of @playwright/mcp that this server answers with a refusal
/// (not in tools/list), and the answer.
pub const REFUSED_TOOLS: &[(&str, &str)] = &[("browser_run_code_unsafe", RUN_CODE_REFUSAL)];

/// The answer to `browser_run_code_unsafe`.
pub const RUN_CODE_REFUSAL: &str = "browser_run_code_unsafe runs a Playwright script (`async (page) => …` on Playwright's API), and this server drives Chromium over CDP without Playwright, so it cannot run one. To run JavaScript in the page, call browser_evaluate with a function such as `() => document.title` (and `ref` to get the element as its argument); for clicks, typing and navigation use the browser_* tools, or browser_batch_execute for several steps in one call.";

/// Descriptions of these tools.
pub mod desc {
    #![allow(missing_docs)]
    pub const FIND: &str = "Find text or a regex in the page snapshot: matching lines with refs, under their path, with context. Cheaper than a snapshot to locate an element.";
    pub const NETWORK_REQUEST: &str =
        "Headers and body of one request, by its number in browser_network_requests.";
    pub const EMULATE_MEDIA: &str =
        "Emulate CSS media features for the page; omitted ones stay, null clears one.";
    pub const DROP: &str =
        "Drop files or MIME-typed data onto an element, as if dragged from outside the page.";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn null_clears_absent_keeps() {
        let p: EmulateMediaParams =
            serde_json::from_value(serde_json::json!({"colorScheme": null, "media": "print"}))
                .unwrap();
        assert_eq!(p.features(), vec![("prefers-color-scheme", None)]);
        assert_eq!(p.media_type(), Some(Some("print")));
        let p: EmulateMediaParams =
            serde_json::from_value(serde_json::json!({"reducedMotion": "no-preference"})).unwrap();
        assert_eq!(
            p.features(),
            vec![("prefers-reduced-motion", Some("no-preference"))]
        );
        assert_eq!(p.media_type(), None);
        assert!(check_emulate(&EmulateMediaParams::default()).is_err());
    }

    #[test]
    fn mime_types() {
        assert!(is_mime_type("text/plain"));
        assert!(is_mime_type("application/vnd.api+json"));
        assert!(!is_mime_type("text"));
        assert!(!is_mime_type("text/ plain"));
    }
}
