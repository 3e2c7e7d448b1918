//! The fingerprint model: the page JSON (docs/DECISIONS.md D17, snake_case keys),
//! parsed, validated, normalized, hashed and counted.

use crate::prelude::*;
use alloc::collections::BTreeMap;
use core::fmt;

use serde::{Deserialize, Deserializer, Serialize};

use super::normalize::{collapse_ws, normalize_selector, normalize_text, normalize_url};
use super::options::Depth;
use crate::{Error, Result};

/// Largest fingerprint JSON accepted by [`Fingerprint::from_json`], in bytes.
///
/// The extractor's caps keep a real page's fingerprint in the tens of
/// kilobytes; anything near this limit is not a fingerprint.
pub const MAX_FINGERPRINT_BYTES: usize = 2 * 1024 * 1024;

/// A DOM fingerprint: a compact semantic summary of a page.
///
/// Build one with [`Fingerprint::from_json`] from what the page-side
/// extractor ([`FINGERPRINT_SCRIPT`](super::FINGERPRINT_SCRIPT)) returned. Parsing
/// validates the JSON, normalizes dynamic text (see
/// [`normalize_text`](super::normalize_text)), and fills in [`hash`](Self::hash)
/// and [`token_count`](Self::token_count).
///
/// ```
/// use response_diff::fingerprint::Fingerprint;
///
/// let fp = Fingerprint::from_json(r#"{
///   "url": "http://127.0.0.1:8000/orders/12345",
///   "captured_at": "2026-01-23T10:30:45Z",
///   "structure": {
///     "interactive": [{"type": "button", "text": "Pay order 98231", "visible": true, "enabled": true}]
///   }
/// }"#)?;
/// assert_eq!(fp.url, "http://127.0.0.1:8000/orders/[id]");
/// assert_eq!(fp.structure.interactive[0].text, "Pay order [number]");
/// assert_eq!(fp.hash.len(), 16);
/// # Ok::<(), response_diff::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Fingerprint {
    /// The page URL, normalized (numbers, ids and dates in the path and query).
    pub url: String,
    /// The document title, normalized.
    pub title: String,
    /// The viewport at capture time. Not part of the hash.
    pub viewport: Viewport,
    /// When it was captured, as the extractor reported it. Not part of the hash.
    pub captured_at: String,
    /// The scope it was captured with: `full`, `above_fold` or a CSS selector.
    pub scope: String,
    /// The depth it was captured with.
    pub depth: Depth,
    /// The page's structure.
    pub structure: Structure,
    /// blake3 of the canonical normalized fingerprint (url, title, scope,
    /// depth, structure), first 16 hex digits. Equal pages give equal hashes
    /// whatever the key order of the input and whenever they were captured.
    pub hash: String,
    /// Estimated tokens of this fingerprint's compact JSON (bytes / 4, see
    /// [`crate::tokens::estimate`]).
    pub token_count: usize,
}

/// Viewport size in CSS pixels.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Viewport {
    /// Width in CSS pixels.
    #[serde(default)]
    pub width: u32,
    /// Height in CSS pixels.
    #[serde(default)]
    pub height: u32,
}

/// The structural part of a fingerprint.
///
/// Unknown keys in here are an error: this is what compare reads, and a
/// misspelled section would otherwise silently compare as empty.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Structure {
    /// Landmarks by key: `header`, `nav`, `main`, `footer`, `aside`,
    /// `search`, `region:<label>`; a label is appended (`nav:Breadcrumb`) and
    /// repeats get `#2`, `#3`. When the page has no landmarks, the top-level
    /// `<div>` structure (keys are selectors) and `no_landmarks: true`.
    #[serde(default)]
    pub landmarks: BTreeMap<String, Landmark>,
    /// Headings, lists, forms, tables and images.
    #[serde(default)]
    pub content: Content,
    /// Interactive elements in document order (visible ones first within the
    /// cap, then hidden-but-present ones).
    #[serde(default)]
    pub interactive: Vec<Interactive>,
    /// Error, loading, empty, modal and notification state.
    #[serde(default)]
    pub state: State,
    /// True when the page has no landmark elements at all.
    #[serde(default, skip_serializing_if = "is_false")]
    pub no_landmarks: bool,
    /// Sections that hit their cap (`interactive`, `headings`, `lists`,
    /// `forms`, `tables`): the page has more than the fingerprint shows.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub truncated: Vec<String>,
}

/// One landmark region.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Landmark {
    /// Always true for a landmark the extractor found; `false` is read as
    /// missing (the seed's hand-written baselines use it).
    #[serde(default = "yes")]
    pub present: bool,
    /// Rendered (not `display:none`, `visibility:hidden`, `opacity:0`) and
    /// not off-screen or clipped away.
    #[serde(default = "yes")]
    pub visible: bool,
    /// Why it is not visible: `css` (`display:none`, `visibility:hidden`,
    /// `opacity:0`), `off_screen` (its box lies entirely outside the
    /// document's scrollable area) or `clipped` (entirely outside an
    /// ancestor that clips its overflow). Absent when visible.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hidden_by: Option<String>,
    /// The ARIA landmark role (`banner`, `navigation`, `main`…), or `generic`
    /// for the no-landmark fallback.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub role: String,
    /// A summary of what is directly inside: nested landmarks,
    /// `heading:<text>`, `section:<name>`, `form:<selector>`,
    /// `list:<selector>`, `table:<selector>`, `shadow:<tag>`.
    #[serde(default)]
    pub contains: Vec<String>,
    /// `type:text` of the interactive elements inside (depth `detailed`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub interactive: Vec<String>,
}

/// Headings, lists, forms, tables and images.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Content {
    /// Visible headings in document order (at most 50).
    #[serde(default)]
    pub headings: Vec<Heading>,
    /// Lists (at most 20).
    #[serde(default)]
    pub lists: Vec<List>,
    /// Forms (at most 10).
    #[serde(default)]
    pub forms: Vec<Form>,
    /// Tables and grids (at most 10).
    #[serde(default)]
    pub tables: Vec<Table>,
    /// Image counts.
    #[serde(default)]
    pub images: Images,
}

/// A heading. Its text is never normalized: a heading's words are content.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Heading {
    /// 1 to 6.
    #[serde(deserialize_with = "heading_level")]
    pub level: u8,
    /// Accessible name of the heading.
    pub text: String,
}

/// A list (`ul`, `ol`, `menu`, `role=list`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct List {
    /// A selector that identifies the list (id, stable classes, anchored
    /// under a stable ancestor). Lists are matched by selector.
    pub selector: String,
    /// Rendered items.
    #[serde(default)]
    pub items: u32,
    /// `ul`, `ol`, `menu` or `list`.
    #[serde(default, rename = "type")]
    pub kind: String,
    /// Rendered where it can be seen (see [`Landmark::visible`]).
    #[serde(default = "yes")]
    pub visible: bool,
    /// Why it is not visible: `css` (`display:none`, `visibility:hidden`,
    /// `opacity:0`), `off_screen` (its box lies entirely outside the
    /// document's scrollable area) or `clipped` (entirely outside an
    /// ancestor that clips its overflow). Absent when visible.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hidden_by: Option<String>,
}

/// A form.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Form {
    /// A selector that identifies the form.
    pub selector: String,
    /// Fields as `type:label` (`input:Email`, `checkbox:Remember me`).
    #[serde(default)]
    pub fields: Vec<String>,
    /// Buttons as `button:label`.
    #[serde(default)]
    pub buttons: Vec<String>,
    /// Rendered where it can be seen (see [`Landmark::visible`]).
    #[serde(default = "yes")]
    pub visible: bool,
    /// Why it is not visible: `css` (`display:none`, `visibility:hidden`,
    /// `opacity:0`), `off_screen` (its box lies entirely outside the
    /// document's scrollable area) or `clipped` (entirely outside an
    /// ancestor that clips its overflow). Absent when visible.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hidden_by: Option<String>,
}

/// A table or grid.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Table {
    /// A selector that identifies the table.
    pub selector: String,
    /// Rendered body rows.
    #[serde(default)]
    pub rows: u32,
    /// Columns (widest of the header row and the first body row).
    #[serde(default)]
    pub columns: u32,
    /// Header cell texts (depth `detailed`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub headers: Vec<String>,
    /// Rendered where it can be seen (see [`Landmark::visible`]).
    #[serde(default = "yes")]
    pub visible: bool,
    /// Why it is not visible: `css` (`display:none`, `visibility:hidden`,
    /// `opacity:0`), `off_screen` (its box lies entirely outside the
    /// document's scrollable area) or `clipped` (entirely outside an
    /// ancestor that clips its overflow). Absent when visible.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hidden_by: Option<String>,
}

/// Image counts in scope.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Images {
    /// `<img>` elements.
    #[serde(default)]
    pub count: u32,
    /// Those with an `alt` attribute.
    #[serde(default)]
    pub with_alt: u32,
    /// Those that finished loading without image data.
    #[serde(default)]
    pub broken: u32,
}

/// An interactive element.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Interactive {
    /// `button`, `link`, `input`, `checkbox`, `radio`, `select`,
    /// `textarea`, `slider`, `file`, `color`, `switch`, `tab`, `menuitem`,
    /// `combobox`, `textbox` (contenteditable) or `focusable`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Accessible name (`label` is accepted as a synonym on input, as in the seed).
    #[serde(default, alias = "label")]
    pub text: String,
    /// Rendered. Hidden-but-present elements are kept with `false` so that
    /// compare can report [`ElementHidden`](super::ChangeKind::ElementHidden).
    /// Off-screen and clipped-away elements are not visible either.
    #[serde(default = "yes")]
    pub visible: bool,
    /// Why it is not visible: `css` (`display:none`, `visibility:hidden`,
    /// `opacity:0`), `off_screen` (its box lies entirely outside the
    /// document's scrollable area) or `clipped` (entirely outside an
    /// ancestor that clips its overflow). Absent when visible.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hidden_by: Option<String>,
    /// Not disabled (`disabled`, a disabled fieldset, `aria-disabled`).
    #[serde(default = "yes")]
    pub enabled: bool,
    /// Links: the target as a path (`/projects`), `//host/path` for other
    /// origins, or the scheme (`mailto:`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub href: Option<String>,
    /// Fields: `[has value]` or empty. Never the value itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// Checkboxes, radios and switches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checked: Option<bool>,
    /// Enclosing regions, outermost first (`main > section:projects`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    /// Visible, but the point at its centre and most of four inner points
    /// hit another element (an overlay, a z-index bug). Only points inside
    /// the viewport are tested: an element entirely outside it is never
    /// obscured.
    #[serde(default, skip_serializing_if = "is_false")]
    pub obscured: bool,
    /// When obscured: what was hit instead (a landmark key or a selector).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub covered_by: Option<String>,
}

/// Page state markers.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct State {
    /// Visible error elements with text (`role=alert`, `.error`,
    /// `.alert-danger`, `aria-invalid` fields…).
    #[serde(default)]
    pub error_elements: Vec<StateElement>,
    /// Visible loading indicators (`aria-busy`, `role=progressbar`, `.spinner`…).
    #[serde(default)]
    pub loading_indicators: Vec<StateElement>,
    /// Visible empty-state elements (`.empty-state`, `.no-results`…).
    #[serde(default)]
    pub empty_states: Vec<StateElement>,
    /// Open dialogs (`dialog[open]`, `role=dialog`, `.modal.show`…).
    #[serde(default)]
    pub modals_open: Vec<StateElement>,
    /// Visible notifications with text (`role=status`, `.toast`…).
    #[serde(default)]
    pub notifications: Vec<StateElement>,
}

/// One state element.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StateElement {
    /// A selector that identifies it.
    #[serde(default)]
    pub selector: String,
    /// Its text (or accessible name), normalized.
    #[serde(default)]
    pub text: String,
}

fn yes() -> bool {
    true
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn heading_level<'de, D: Deserializer<'de>>(d: D) -> core::result::Result<u8, D::Error> {
    let level = u64::deserialize(d)?;
    match u8::try_from(level) {
        Ok(l @ 1..=6) => Ok(l),
        _ => Err(serde::de::Error::custom(format_args!(
            "heading level must be 1 to 6, not {level}"
        ))),
    }
}

/// What the JSON may contain at the top level. Unknown top-level keys (the
/// seed's `hash` and `token_count`, a driver's own metadata) are ignored and
/// never hashed; unknown keys inside `structure` are an error.
#[derive(Deserialize)]
struct RawFingerprint {
    #[serde(default)]
    url: String,
    #[serde(default)]
    title: String,
    #[serde(default)]
    viewport: Viewport,
    #[serde(default)]
    captured_at: String,
    #[serde(default)]
    scope: Option<String>,
    #[serde(default)]
    depth: Option<Depth>,
    #[serde(default)]
    structure: Option<Structure>,
    #[serde(default)]
    error: Option<ExtractorError>,
}

#[derive(Deserialize)]
struct ExtractorError {
    #[serde(default)]
    field: Option<String>,
    #[serde(default)]
    message: String,
}

#[derive(Serialize)]
struct HashView<'a> {
    url: &'a str,
    title: &'a str,
    scope: &'a str,
    depth: Depth,
    structure: &'a Structure,
}

impl Fingerprint {
    /// Parses what the extractor returned (or a saved fingerprint), validates
    /// it, normalizes it and computes its hash and token count.
    ///
    /// Errors: [`Error::Parse`] with the line for bad JSON or a bad field
    /// (the message names the field path);
    /// [`Error::InvalidOption`] when the extractor itself refused the
    /// options (`{"error": {"field": "scope", …}}`, e.g. a selector that
    /// matches nothing); [`Error::InputTooLarge`] over
    /// [`MAX_FINGERPRINT_BYTES`].
    ///
    /// ```
    /// use response_diff::{Error, fingerprint::Fingerprint};
    ///
    /// let err = Fingerprint::from_json("{\n  \"structure\": {\"headings\": []}\n}").unwrap_err();
    /// assert!(matches!(err, Error::Parse { line: 2, .. }));
    /// ```
    pub fn from_json(json: &str) -> Result<Fingerprint> {
        if json.len() > MAX_FINGERPRINT_BYTES {
            return Err(Error::InputTooLarge {
                what: "fingerprint",
                size: json.len(),
                limit: MAX_FINGERPRINT_BYTES,
            });
        }
        let raw: RawFingerprint = match crate::json::deserialize_at(json, false) {
            Ok(raw) => raw,
            Err((path, inner)) => {
                let at = if path.is_empty() {
                    String::new()
                } else {
                    format!("{path}: ")
                };
                return Err(Error::Parse {
                    what: "fingerprint",
                    line: inner.line().max(1),
                    message: format!("{at}{inner}"),
                });
            }
        };
        if let Some(err) = raw.error {
            return Err(match err.field {
                Some(field) => Error::InvalidOption {
                    field,
                    message: err.message,
                },
                None => Error::Parse {
                    what: "fingerprint",
                    line: 1,
                    message: err.message,
                },
            });
        }
        let Some(structure) = raw.structure else {
            return Err(Error::Parse {
                what: "fingerprint",
                line: 1,
                message: "missing field `structure` (is this the extractor's output?)".into(),
            });
        };
        let mut fp = Fingerprint {
            url: raw.url,
            title: raw.title,
            viewport: raw.viewport,
            captured_at: raw.captured_at,
            scope: raw.scope.unwrap_or_else(|| "full".into()),
            depth: raw.depth.unwrap_or_default(),
            structure,
            hash: String::new(),
            token_count: 0,
        };
        fp.normalize();
        fp.rehash();
        Ok(fp)
    }

    /// Recomputes [`hash`](Self::hash) and [`token_count`](Self::token_count)
    /// after the fields were edited by hand. (Parsing does this already.)
    ///
    /// ```
    /// # use response_diff::fingerprint::Fingerprint;
    /// let mut fp = Fingerprint::from_json(r#"{"url": "/a", "structure": {}}"#)?;
    /// let before = fp.hash.clone();
    /// fp.url = "/b".into();
    /// fp.rehash();
    /// assert_ne!(fp.hash, before);
    /// # Ok::<(), response_diff::Error>(())
    /// ```
    pub fn rehash(&mut self) {
        let view = HashView {
            url: &self.url,
            title: &self.title,
            scope: &self.scope,
            depth: self.depth,
            structure: &self.structure,
        };
        // Struct fields serialize in declaration order and landmarks are a
        // BTreeMap, so these bytes do not depend on the input's key order.
        let bytes = serde_json::to_vec(&view).unwrap_or_default();
        let hex = blake3::hash(&bytes).to_hex();
        self.hash = hex[..16].to_owned();
        // The count is part of the JSON it counts: settle on a fixed point
        // (two or three rounds; the digits of the count barely move it).
        self.token_count = 0;
        for _ in 0..4 {
            let n = crate::tokens::estimate(&self.to_json());
            if n == self.token_count {
                break;
            }
            self.token_count = n;
        }
    }

    /// Compact JSON, snake_case keys as the extractor emits them, with `hash`
    /// and `token_count`. [`Fingerprint::from_json`] reads it back.
    ///
    /// ```
    /// # use response_diff::fingerprint::Fingerprint;
    /// let fp = Fingerprint::from_json(r#"{"url": "/a", "structure": {}}"#)?;
    /// let again = Fingerprint::from_json(&fp.to_json())?;
    /// assert_eq!(fp, again);
    /// # Ok::<(), response_diff::Error>(())
    /// ```
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Indented JSON, for people.
    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// True when the page showed loading indicators at capture time.
    pub fn is_loading(&self) -> bool {
        !self.structure.state.loading_indicators.is_empty()
    }

    fn normalize(&mut self) {
        norm(&mut self.url, normalize_url);
        norm(&mut self.title, normalize_text);
        norm(&mut self.captured_at, |s| s.trim().into());
        let s = &mut self.structure;
        // Landmark keys carry labels, which may carry dynamic text; keys that
        // collide after normalization get #2, #3 like the extractor's repeats.
        let landmarks = core::mem::take(&mut s.landmarks);
        for (key, mut lm) in landmarks {
            let base = normalize_selector(&key).into_owned();
            let mut k = base.clone();
            let mut i = 2;
            while s.landmarks.contains_key(&k) {
                k = format!("{base}#{i}");
                i += 1;
            }
            for c in &mut lm.contains {
                // Headings are content and stay as written (docs/DECISIONS.md D18).
                if !c.starts_with("heading:") {
                    norm(c, normalize_selector);
                }
            }
            lm.interactive
                .iter_mut()
                .for_each(|t| norm(t, normalize_text));
            norm(&mut lm.role, normalize_text);
            s.landmarks.insert(k, lm);
        }
        for h in &mut s.content.headings {
            // Whitespace only.
            norm(&mut h.text, |t| collapse_ws(t).into());
        }
        for l in &mut s.content.lists {
            norm(&mut l.selector, normalize_selector);
        }
        for f in &mut s.content.forms {
            norm(&mut f.selector, normalize_selector);
            f.fields.iter_mut().for_each(|t| norm(t, normalize_text));
            f.buttons.iter_mut().for_each(|t| norm(t, normalize_text));
        }
        for t in &mut s.content.tables {
            norm(&mut t.selector, normalize_selector);
            t.headers.iter_mut().for_each(|h| norm(h, normalize_text));
        }
        for e in &mut s.interactive {
            norm(&mut e.kind, normalize_text);
            norm(&mut e.text, normalize_text);
            if let Some(h) = &mut e.href {
                norm(h, normalize_url);
            }
            if let Some(l) = &mut e.location {
                norm(l, normalize_selector);
            }
            if let Some(c) = &mut e.covered_by {
                norm(c, normalize_selector);
            }
            if let Some(v) = &mut e.value {
                // Only "has a value or not" is kept, whatever a driver sent.
                if !v.is_empty() {
                    *v = "[has value]".into();
                }
            }
        }
        let st = &mut s.state;
        for list in [
            &mut st.error_elements,
            &mut st.loading_indicators,
            &mut st.empty_states,
            &mut st.modals_open,
            &mut st.notifications,
        ] {
            for e in list.iter_mut() {
                norm(&mut e.selector, normalize_selector);
                norm(&mut e.text, normalize_text);
            }
        }
        s.truncated.sort();
        s.truncated.dedup();
    }
}

fn norm(s: &mut String, f: impl Fn(&str) -> alloc::borrow::Cow<'_, str>) {
    if let alloc::borrow::Cow::Owned(o) = f(s) {
        *s = o;
    }
}

impl fmt::Display for Fingerprint {
    /// The compact JSON.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_json())
    }
}

impl core::str::FromStr for Fingerprint {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        Fingerprint::from_json(s)
    }
}

#[cfg(test)]
mod tests {
    use super::RawFingerprint;

    /// Error paths of fingerprint JSON equal serde_path_to_error's, on
    /// mutations of a fixture (docs/DECISIONS.md D67).
    #[test]
    fn error_paths_agree_with_serde_path_to_error() {
        let doc: serde_json::Value = serde_json::from_str(include_str!(
            "../../../tests/fixtures/fingerprint/case01.before.json"
        ))
        .unwrap();
        assert!(crate::json::tests::agree_text::<RawFingerprint>(&doc, 11) > 1_000);
    }
}
