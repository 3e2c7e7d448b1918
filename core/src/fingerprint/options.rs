//! Extraction options and the page-side extractor.

use crate::prelude::*;
use core::fmt;
use core::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::{Error, Result};

/// The page-side extractor: one JavaScript function expression,
/// `(function (options) { … })`, to be called in the page with
/// `{scope, depth}`. It returns a plain object in the fingerprint JSON shape
/// (url, title, viewport, captured_at, scope, depth, structure), or
/// `{error: {field?, message}}` when it cannot extract (a selector that
/// matches nothing, a cross-origin frame). Feed its JSON to
/// [`Fingerprint::from_json`](super::Fingerprint::from_json).
///
/// It works with any driver that can evaluate an expression:
/// headless_chrome, Playwright (`page.evaluate`), Selenium
/// (`execute_script("return (" + FINGERPRINT_SCRIPT + ")(arguments[0])", opts)`).
/// [`ExtractOptions::expression`] builds a ready-to-evaluate expression that
/// returns the JSON as a string.
///
/// It only reads the DOM (no layout-forcing writes), inspects selected
/// elements only, pierces open shadow roots, skips iframes (unless the scope
/// selector names a same-origin frame) and reports fields' values only as
/// `[has value]`.
///
/// ```
/// use response_diff::fingerprint::FINGERPRINT_SCRIPT;
///
/// assert!(FINGERPRINT_SCRIPT.trim_start().starts_with("//"));
/// assert!(FINGERPRINT_SCRIPT.contains("function responseDiffFingerprint(options)"));
/// ```
pub const FINGERPRINT_SCRIPT: &str = include_str!("extractor.js");

/// The former name of [`FINGERPRINT_SCRIPT`], kept for code written
/// against it (every binding now says `FINGERPRINT_SCRIPT`; docs/NAMES.md).
///
/// ```
/// #![allow(deprecated)]
/// use response_diff::fingerprint::{EXTRACTOR_JS, FINGERPRINT_SCRIPT};
/// assert_eq!(EXTRACTOR_JS, FINGERPRINT_SCRIPT);
/// ```
#[deprecated(
    since = "0.2.0",
    note = "renamed FINGERPRINT_SCRIPT, its name in every binding"
)]
pub const EXTRACTOR_JS: &str = FINGERPRINT_SCRIPT;

/// What part of the page to fingerprint.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Scope {
    /// The whole document (the default).
    #[default]
    Full,
    /// Only elements that intersect the viewport.
    AboveFold,
    /// The first element matching this CSS selector. A selector naming a
    /// same-origin `<iframe>` fingerprints the frame's document.
    Selector(String),
}

impl Scope {
    /// The string the extractor takes: `full`, `above_fold` or the selector.
    pub fn as_str(&self) -> &str {
        match self {
            Scope::Full => "full",
            Scope::AboveFold => "above_fold",
            Scope::Selector(s) => s,
        }
    }
}

impl FromStr for Scope {
    type Err = Error;
    /// `full`, `above_fold`, or any other non-empty string as a CSS selector
    /// (at most 1,000 bytes).
    ///
    /// ```
    /// use response_diff::fingerprint::Scope;
    /// assert_eq!("above_fold".parse::<Scope>()?, Scope::AboveFold);
    /// assert_eq!("#app".parse::<Scope>()?, Scope::Selector("#app".into()));
    /// assert!("".parse::<Scope>().is_err());
    /// # Ok::<(), response_diff::Error>(())
    /// ```
    fn from_str(s: &str) -> Result<Self> {
        match s.trim() {
            "" => Err(Error::invalid_option(
                "scope",
                "must be \"full\", \"above_fold\" or a CSS selector, not empty",
            )),
            "full" => Ok(Scope::Full),
            "above_fold" => Ok(Scope::AboveFold),
            sel if sel.len() > 1000 => Err(Error::invalid_option(
                "scope",
                format!(
                    "a CSS selector of at most 1000 bytes is allowed, this one has {}",
                    sel.len()
                ),
            )),
            sel => Ok(Scope::Selector(sel.to_owned())),
        }
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Scope {
    fn serialize<S: serde::Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Scope {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> core::result::Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// How much to capture.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Depth {
    /// Landmarks and page state only.
    Minimal,
    /// Plus headings (50), lists (20), forms (10), tables (10), images and
    /// interactive elements (50). The default.
    #[default]
    Standard,
    /// Plus up to 100 interactive elements, each landmark's interactive
    /// elements, and table header texts.
    Detailed,
}

impl Depth {
    /// `minimal`, `standard` or `detailed`.
    pub fn as_str(self) -> &'static str {
        match self {
            Depth::Minimal => "minimal",
            Depth::Standard => "standard",
            Depth::Detailed => "detailed",
        }
    }
}

impl FromStr for Depth {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        match s {
            "minimal" => Ok(Depth::Minimal),
            "standard" => Ok(Depth::Standard),
            "detailed" => Ok(Depth::Detailed),
            other => Err(Error::invalid_option(
                "depth",
                format!("must be \"minimal\", \"standard\" or \"detailed\", not {other:?}"),
            )),
        }
    }
}

impl fmt::Display for Depth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Options for the extractor: `{"scope": …, "depth": …}`, both optional.
///
/// ```
/// use response_diff::fingerprint::{Depth, ExtractOptions, Scope};
///
/// let opts = ExtractOptions::from_json(r#"{"scope": "main", "depth": "detailed"}"#)?;
/// assert_eq!(opts.scope, Scope::Selector("main".into()));
/// assert_eq!(opts.depth, Depth::Detailed);
/// // What a driver evaluates in the page; it returns the fingerprint JSON as a string.
/// let js = opts.expression();
/// assert!(js.starts_with("JSON.stringify(("));
/// # Ok::<(), response_diff::Error>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExtractOptions {
    /// Which part of the page (default [`Scope::Full`]).
    #[serde(default)]
    pub scope: Scope,
    /// How much (default [`Depth::Standard`]).
    #[serde(default)]
    pub depth: Depth,
}

impl ExtractOptions {
    /// Options with a scope and a depth.
    pub fn new(scope: Scope, depth: Depth) -> Self {
        ExtractOptions { scope, depth }
    }

    /// Parses `{"scope": …, "depth": …}`. Malformed JSON is
    /// [`Error::Parse`]; unknown keys and bad values are
    /// [`Error::InvalidOption`] naming the field.
    pub fn from_json(json: &str) -> Result<Self> {
        // Malformed JSON is a parse error, as for every other option document.
        crate::json::check_syntax(json)?;
        crate::json::deserialize_at(json, false).map_err(|(path, inner)| {
            let field = if path.is_empty() {
                "fingerprintOptions".to_owned()
            } else {
                path
            };
            let msg = inner.to_string();
            // serde's message for an unknown field already lists the allowed ones.
            Error::invalid_option(field, msg)
        })
    }

    /// The options as the JSON object the extractor takes.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// A JavaScript expression that runs [`FINGERPRINT_SCRIPT`] with these options
    /// and evaluates to the fingerprint JSON as a string (so any driver can
    /// return it by value).
    pub fn expression(&self) -> String {
        format!("JSON.stringify(({FINGERPRINT_SCRIPT})({}))", self.to_json())
    }
}
