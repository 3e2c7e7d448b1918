//! Accessibility trees: parse and print aria snapshots, diff two trees,
//! `since` reads.
//!
//! Split by job: this file parses, prints and diffs trees (and reads the
//! options and tree arguments the others share); `since` is the
//! `SinceStore`; `patch` makes and applies snapshot patches.

use std::collections::HashMap;

use napi::bindgen_prelude::*;
use napi_derive::napi;
use response_diff::Error as CoreError;
use response_diff::tree::{self as core, Tree, TreeDiffRequest};
use serde_json::{Map, Value};

use crate::json::Json;

use crate::error::OrThrow;
use crate::json::{Opts, as_string, non_negative_integer, parse, stringify};

pub mod patch;
pub mod since;

type CoreResult<T> = response_diff::Result<T>;

/// One element of an accessibility tree, as plain data (the core's JSON
/// form). `states` holds bracketed attributes (`[checked]` is `true`,
/// `[level=2]` is `"2"`), `props` the `- /url: …` lines.
#[napi(object)]
pub struct SnapshotElement {
    /// ARIA role, or `text` for a static text node.
    pub role: String,
    /// Accessible name (absent when empty).
    pub name: Option<String>,
    /// The name is a regular expression (`/Item \d+/`), kept verbatim.
    pub name_regex: Option<bool>,
    /// Inline text after the colon: a textbox's value, a paragraph's text.
    pub value: Option<String>,
    /// Accessible description.
    pub description: Option<String>,
    /// Element reference (`e12`) the agent acts on.
    #[napi(js_name = "ref")]
    pub aria_ref: Option<String>,
    /// Bounding box (`[box=x,y,width,height]`).
    pub bounds: Option<Bounds>,
    /// Bracketed attributes other than `ref` and `box`, in order.
    pub states: Option<HashMap<String, Either<String, bool>>>,
    /// Property lines, names without the slash.
    pub props: Option<HashMap<String, String>>,
    /// Children in document order.
    pub children: Option<Vec<SnapshotElement>>,
}

/// A bounding box in CSS pixels.
#[napi(object)]
pub struct Bounds {
    /// Left.
    pub x: f64,
    /// Top.
    pub y: f64,
    /// Width.
    pub width: f64,
    /// Height.
    pub height: f64,
}

/// How a tree diff is printed.
#[napi(string_enum = "lowercase")]
pub enum TreeDiffFormat {
    /// `+ [e216] listitem "Item 2" (in list "Cart")`, `- …`, `~ …`, then
    /// `# 148 elements unchanged`.
    Agent,
    /// `{ts, since, diff: {added, removed, changed, unchanged_count}}` as YAML.
    Yaml,
    /// The same as compact JSON.
    Json,
}

/// Which element identity a tree diff trusts.
#[napi(string_enum = "lowercase")]
pub enum TreeIdentity {
    /// Refs first when both trees carry them, then content (the default).
    Refs,
    /// Content only: for trees whose refs are renumbered on every read.
    Content,
}

/// Options of `treeDiff` (and of `SinceStore.read`, which adds `since`).
#[napi(object)]
pub struct TreeDiffOptions {
    /// `agent` (default), `yaml` or `json`.
    pub format: Option<TreeDiffFormat>,
    /// `refs` (default) or `content`.
    pub identity: Option<TreeIdentity>,
    /// Report bounding-box changes (default false).
    pub compare_bounds: Option<bool>,
    /// Keep only these roles (re-parenting to the nearest kept ancestor).
    pub roles: Option<Vec<String>>,
    /// Drop unnamed generic wrappers, hoisting their children.
    pub prune: Option<bool>,
    /// Keep only the first subtree matching this ref or role selector.
    pub scope: Option<String>,
    /// Parse aria text leniently: malformed lines become text nodes.
    pub lenient: Option<bool>,
    /// `ts` printed in YAML/JSON (`treeDiff` only; default now).
    pub ts: Option<f64>,
    /// `since` printed in YAML/JSON (`treeDiff`), or the earlier read to
    /// diff against (`SinceStore.read`).
    pub since: Option<f64>,
}

/// One field change of a matched element.
#[napi(object)]
pub struct TreeChange {
    /// The element's ref (the new tree's; the old one if the new has none).
    #[napi(js_name = "ref")]
    pub aria_ref: Option<String>,
    /// Its role in the new tree.
    pub role: String,
    /// Its name in the new tree.
    pub name: String,
    /// `name`, `value`, `description`, `state:checked`, `prop:url`, `ref`,
    /// `role`, `bounds` or `parent`.
    pub field: String,
    /// The old value (absent: the field was absent; a bare flag is `"true"`).
    pub from: Option<String>,
    /// The new value (absent: the field is gone).
    pub to: Option<String>,
}

/// A tree diff: its rendering and its parts.
#[napi(object)]
pub struct TreeDiff {
    /// The diff in the chosen format.
    pub text: String,
    /// Elements only in the new tree, each without its children (added
    /// children have entries of their own), in document order.
    #[napi(ts_type = "SnapshotElement[]")]
    pub added: Vec<Value>,
    /// Elements only in the old tree, descendants of a removed element
    /// included, each without its children.
    #[napi(ts_type = "SnapshotElement[]")]
    pub removed: Vec<Value>,
    /// Field changes of matched elements, one per field.
    pub changed: Vec<TreeChange>,
    /// Matched elements with no change.
    pub unchanged_count: u32,
    /// Matched elements whose ref differs (`identity: 'content'` only).
    pub refs_renumbered: u32,
}

/// @deprecated Use `TreeDiff`, the name every binding uses; this alias
/// goes in the next breaking release.
#[napi]
pub type TreeDiffResult = TreeDiff;

fn element(e: &core::Element) -> Value {
    serde_json::to_value(e).unwrap_or(Value::Null)
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// A tree argument (aria text, or elements) as text: `Ok(text)` is aria
/// text, `Err(json)` the elements' JSON.
fn tree_text(env: &Env, input: Unknown<'_>) -> Result<std::result::Result<String, String>> {
    match as_string(env, &input)? {
        Some(text) => Ok(Ok(text)),
        None => Ok(Err(stringify(env, input)?)),
    }
}

/// A tree from aria text or the element JSON form.
fn tree_of(input: std::result::Result<String, String>, lenient: bool) -> CoreResult<Tree> {
    match input {
        Ok(text) => core::parse_aria(&text, lenient),
        Err(json) => Tree::from_json(&json),
    }
}

/// Parses Playwright's aria snapshot text into elements. A malformed line
/// throws `PARSE_ERROR` with its line number; with `lenient` it becomes a
/// text node instead.
#[napi(ts_return_type = "SnapshotElement[]")]
pub fn parse_snapshot(
    env: Env,
    text: String,
    #[napi(ts_arg_type = "{ lenient?: boolean }")] options: Option<Json>,
) -> Result<Unknown<'static>> {
    let options = options.map(|j| j.0);
    let o = Opts::new("parseOptions", options, &["lenient"]).or_throw(&env)?;
    let lenient = o.bool("lenient").or_throw(&env)?.unwrap_or(false);
    let tree = core::parse_aria(&text, lenient).or_throw(&env)?;
    parse(&env, tree.to_json())
}

/// Prints elements (or one element) as Playwright's aria snapshot text.
/// Unknown keys throw `PARSE_ERROR` naming the allowed ones.
#[napi]
pub fn print_snapshot(
    env: Env,
    #[napi(ts_arg_type = "SnapshotElement[] | SnapshotElement")] elements: Unknown<'_>,
) -> Result<String> {
    let json = match tree_text(&env, elements)? {
        Ok(text) => serde_json::to_string(&text).unwrap_or_default(),
        Err(json) => json,
    };
    let tree = Tree::from_json(&json).or_throw(&env)?;
    Ok(tree.to_aria())
}

/// Splits the keys only this binding reads (`ts`, `since`) off the options
/// and parses the rest with the core's tree diff options parser, so names,
/// values and errors are the same as in every binding.
fn request(
    options: Option<Value>,
    extra: &[&str],
) -> CoreResult<(TreeDiffRequest, Map<String, Value>)> {
    let mut extras = Map::new();
    let rest = match options {
        None | Some(Value::Null) => None,
        Some(Value::Object(mut m)) => {
            for k in extra {
                if let Some(v) = m.remove(*k) {
                    extras.insert((*k).to_owned(), v);
                }
            }
            Some(Value::Object(m))
        }
        // Not an object: the core says so.
        Some(other) => Some(other),
    };
    let req = match rest {
        None => TreeDiffRequest::default(),
        Some(v) => TreeDiffRequest::from_json(&v.to_string())?,
    };
    Ok((req, extras))
}

/// A millisecond timestamp option (`ts`, `since`): a non-negative integer.
fn millis(extras: &Map<String, Value>, key: &str) -> CoreResult<Option<u64>> {
    match extras.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => non_negative_integer(v).map(Some).ok_or_else(|| {
            CoreError::invalid_option(
                format!("treeDiffOptions.{key}"),
                "must be a non-negative integer (milliseconds)",
            )
        }),
    }
}

/// Compares two accessibility trees (aria text or elements) with a stable
/// element identity: added, removed, changed (field by field) and the
/// unchanged count, rendered for agents or as YAML / JSON.
#[napi]
pub fn tree_diff(
    env: Env,
    #[napi(ts_arg_type = "string | SnapshotElement[]")] before: Unknown<'_>,
    #[napi(ts_arg_type = "string | SnapshotElement[]")] after: Unknown<'_>,
    #[napi(ts_arg_type = "TreeDiffOptions")] options: Option<Json>,
) -> Result<TreeDiff> {
    let options = options.map(|j| j.0);
    let before = tree_text(&env, before)?;
    let after = tree_text(&env, after)?;
    let run = || -> CoreResult<TreeDiff> {
        let (req, extras) = request(options, &["ts", "since"])?;
        let old = tree_of(before, req.lenient)?;
        let new = tree_of(after, req.lenient)?;
        let ts = millis(&extras, "ts")?.unwrap_or_else(core::now_ts);
        let since = millis(&extras, "since")?;
        let d = core::diff_with(&old, &new, &req.options);
        Ok(TreeDiff {
            text: d.render(req.format, ts, since),
            added: d.added.iter().map(|a| element(&a.element)).collect(),
            removed: d.removed.iter().map(|r| element(&r.element)).collect(),
            changed: d
                .changed
                .iter()
                .map(|c| TreeChange {
                    aria_ref: c.aria_ref.clone(),
                    role: c.role.clone(),
                    name: c.name.clone(),
                    field: c.field.key().into_owned(),
                    from: c.from.clone(),
                    to: c.to.clone(),
                })
                .collect(),
            unchanged_count: count(d.unchanged_count),
            refs_renumbered: count(d.refs_renumbered),
        })
    };
    run().or_throw(&env)
}
