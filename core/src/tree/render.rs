//! Renderers for a [`TreeDiff`]: agent lines, YAML and JSON. All
//! deterministic: fixed key order, document order, no map iteration.
//!
//! JSON goes through serde (`Serialize` on the private `*Json` views
//! below, whose field order is the key order). YAML is written by hand:
//! serde has no well-kept YAML serializer (serde_yaml is unmaintained, and
//! the dependencies have none), and this YAML quotes every string a YAML
//! 1.1 or 1.2 reader could take for something else ([`yaml_scalar`]). Both
//! list the same keys in the same order; `core/tests/tree_diff.rs` checks
//! that they carry the same data.

use super::aria::{json_quote, yaml_needs_quotes};
use super::diff::{Added, ElementContext, Field, Parent, Removed, TreeChange, TreeDiff, name_text};
use super::json::{Props, States};
use super::model::Element;
use crate::prelude::*;
use core::fmt::Write as _;
use serde::{Deserialize, Serialize};

/// Output format of a diff (and of a `since` read). In JSON options:
/// `"agent"`, `"yaml"` or `"json"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum TreeDiffFormat {
    /// One line per change: `+ [e216] listitem "Item 2" (in list "Cart")`,
    /// `- [e95] row "…"`, `~ [e12] textbox "Search" value="b" (was "a")`,
    /// then `# 148 elements unchanged`. The default.
    #[default]
    Agent,
    /// `{ts, since, diff: {added, removed, changed, unchanged_count}}` as YAML.
    Yaml,
    /// The same as compact JSON.
    Json,
}

impl core::str::FromStr for TreeDiffFormat {
    type Err = crate::Error;
    fn from_str(s: &str) -> crate::Result<Self> {
        match s {
            "agent" => Ok(TreeDiffFormat::Agent),
            "yaml" => Ok(TreeDiffFormat::Yaml),
            "json" => Ok(TreeDiffFormat::Json),
            other => Err(crate::Error::invalid_option(
                "format",
                format!("unknown format `{other}`; allowed: agent, yaml, json"),
            )),
        }
    }
}

impl TreeDiff {
    /// Agent lines: added (nested additions indented under their added
    /// parent), removed (topmost only: a removed element's subtree goes with
    /// it), changed (one line per element, every changed field), and last
    /// `# N elements unchanged`.
    ///
    /// ```
    /// use response_diff::tree::{diff, parse_aria};
    /// let old = parse_aria("- button \"Save\" [ref=e7]\n- row \"Bob\" [ref=e95]", false).unwrap();
    /// let new = parse_aria("- button \"Saved\" [ref=e7]", false).unwrap();
    /// assert_eq!(
    ///     diff(&old, &new).to_agent(),
    ///     "- [e95] row \"Bob\"\n~ [e7] button \"Saved\" (was \"Save\")\n# 0 elements unchanged"
    /// );
    /// ```
    pub fn to_agent(&self) -> String {
        let mut out = String::new();
        let mut chain: Vec<(usize, usize)> = Vec::new(); // (new index, indent) of added lines
        for a in &self.added {
            let indent = match a.parent {
                Parent::Added(p) => chain
                    .iter()
                    .rev()
                    .find(|(i, _)| *i == p)
                    .map(|(_, d)| d + 1),
                _ => None,
            };
            out.push_str("+ ");
            for _ in 0..indent.unwrap_or(0) {
                out.push_str("  ");
            }
            describe_element(&mut out, &a.element, true);
            if indent.is_none() {
                if let Some(c) = &a.context {
                    let _ = write!(out, " (in {})", context(c));
                }
            }
            out.push('\n');
            chain.push((a.index, indent.unwrap_or(0)));
        }
        for r in self.removed.iter().filter(|r| !r.parent_removed) {
            out.push_str("- ");
            describe_element(&mut out, &r.element, r.element.aria_ref.is_none());
            if r.element.aria_ref.is_none() {
                if let Some(c) = &r.context {
                    let _ = write!(out, " (in {})", context(c));
                }
            }
            out.push('\n');
        }
        let mut i = 0;
        while i < self.changed.len() {
            let first = &self.changed[i];
            let mut j = i;
            while j < self.changed.len() && self.changed[j].new_index == first.new_index {
                j += 1;
            }
            out.push_str("~ ");
            header(
                &mut out,
                first.aria_ref.as_deref(),
                &first.role,
                &first.name,
            );
            for c in &self.changed[i..j] {
                out.push(' ');
                change_part(&mut out, c);
            }
            out.push('\n');
            i = j;
        }
        if self.refs_renumbered > 0 {
            let _ = writeln!(
                out,
                "# {} refs renumbered (content equal); read the full tree for their new refs",
                self.refs_renumbered
            );
        }
        let _ = write!(
            out,
            "# {} element{} unchanged",
            self.unchanged_count,
            if self.unchanged_count == 1 { "" } else { "s" }
        );
        out
    }

    /// The diff as YAML: `ts`, `since`, then `diff` with `added`, `removed`,
    /// `changed` (`{ref, role, name, field, from, to}`) and `unchanged_count`.
    /// Strings are quoted whenever a YAML reader could take them for
    /// anything but a string.
    ///
    /// ```
    /// use response_diff::tree::{diff, parse_aria};
    /// let old = parse_aria("- textbox \"Search\" [ref=e12]: a", false).unwrap();
    /// let new = parse_aria("- textbox \"Search\" [ref=e12]: b", false).unwrap();
    /// let yaml = diff(&old, &new).to_yaml(1700000000002, Some(1700000000001));
    /// assert!(yaml.starts_with("ts: 1700000000002\nsince: 1700000000001\ndiff:\n  added: []\n  removed: []\n  changed:\n    - ref: e12\n"));
    /// ```
    pub fn to_yaml(&self, ts: u64, since: Option<u64>) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "ts: {ts}");
        match since {
            Some(s) => {
                let _ = writeln!(out, "since: {s}");
            }
            None => out.push_str("since: null\n"),
        }
        out.push_str("diff:\n");
        self.write_yaml_body(&mut out, "  ");
        out.pop();
        out
    }

    pub(crate) fn write_yaml_body(&self, out: &mut String, ind: &str) {
        let list = |out: &mut String, key: &str, items: Vec<Vec<(&'static str, YamlVal)>>| {
            if items.is_empty() {
                let _ = writeln!(out, "{ind}{key}: []");
                return;
            }
            let _ = writeln!(out, "{ind}{key}:");
            for item in items {
                let mut first = true;
                for (k, v) in item {
                    let lead = if first { "- " } else { "  " };
                    first = false;
                    let _ = write!(out, "{ind}  {lead}{k}:");
                    v.write(out, &format!("{ind}      "));
                }
            }
        };
        list(out, "added", self.added.iter().map(added_fields).collect());
        list(
            out,
            "removed",
            self.removed
                .iter()
                .filter(|r| !r.parent_removed)
                .map(removed_fields)
                .collect(),
        );
        list(
            out,
            "changed",
            self.changed.iter().map(change_fields).collect(),
        );
        let _ = writeln!(out, "{ind}unchanged_count: {}", self.unchanged_count);
        if self.refs_renumbered > 0 {
            let _ = writeln!(out, "{ind}refs_renumbered: {}", self.refs_renumbered);
        }
    }

    /// The diff as compact JSON with the same keys and order as
    /// [`TreeDiff::to_yaml`].
    ///
    /// ```
    /// use response_diff::tree::{diff, parse_aria};
    /// let t = parse_aria("- button \"Go\" [ref=e1]", false).unwrap();
    /// assert_eq!(
    ///     diff(&t, &t).to_json(5, Some(4)),
    ///     r#"{"ts":5,"since":4,"diff":{"added":[],"removed":[],"changed":[],"unchanged_count":1}}"#
    /// );
    /// ```
    pub fn to_json(&self, ts: u64, since: Option<u64>) -> String {
        let stamped = Stamped {
            ts,
            since,
            diff: DiffJson::of(self),
        };
        serde_json::to_string(&stamped).unwrap_or_default()
    }

    /// Renders in `format`; YAML and JSON carry `ts` and `since`.
    ///
    /// ```
    /// use response_diff::tree::{diff, parse_aria, TreeDiffFormat};
    /// let t = parse_aria("- button \"Go\"", false).unwrap();
    /// assert_eq!(diff(&t, &t).render(TreeDiffFormat::Agent, 2, Some(1)), "# 1 element unchanged");
    /// ```
    pub fn render(&self, format: TreeDiffFormat, ts: u64, since: Option<u64>) -> String {
        match format {
            TreeDiffFormat::Agent => self.to_agent(),
            TreeDiffFormat::Yaml => self.to_yaml(ts, since),
            TreeDiffFormat::Json => self.to_json(ts, since),
        }
    }
}

/// A YAML value in a diff entry.
pub(crate) enum YamlVal {
    Str(String),
    OptStr(Option<String>),
    /// Ordered key/values; `None` values are bare flags (`true`).
    Map(Vec<(String, Option<String>)>),
    Obj(Vec<(&'static str, String)>),
}

impl YamlVal {
    fn write(&self, out: &mut String, ind: &str) {
        match self {
            YamlVal::Str(s) => {
                out.push(' ');
                out.push_str(&yaml_scalar(s));
                out.push('\n');
            }
            YamlVal::OptStr(None) => out.push_str(" null\n"),
            YamlVal::OptStr(Some(s)) => {
                out.push(' ');
                out.push_str(&yaml_scalar(s));
                out.push('\n');
            }
            YamlVal::Map(m) => {
                out.push('\n');
                for (k, v) in m {
                    let _ = writeln!(
                        out,
                        "{ind}{}: {}",
                        yaml_scalar(k),
                        v.as_deref().map_or("true".into(), yaml_scalar)
                    );
                }
            }
            YamlVal::Obj(m) => {
                out.push('\n');
                for (k, v) in m {
                    let _ = writeln!(out, "{ind}{k}: {}", yaml_scalar(v));
                }
            }
        }
    }
}

/// A string as a YAML scalar: plain when no YAML 1.1 or 1.2 reader could
/// read it as anything else, otherwise JSON-quoted (JSON strings are valid
/// YAML double-quoted scalars).
pub(crate) fn yaml_scalar(s: &str) -> String {
    let first = s.chars().next();
    let risky = yaml_needs_quotes(s)
        || first.is_some_and(|c| c.is_ascii_digit() || matches!(c, '.' | '+' | '-' | '<' | '='))
        || s.chars().any(|c| {
            matches!(c, '\u{85}' | '\u{2028}' | '\u{2029}' | '\u{feff}' | '\t')
                || (c as u32) < 0x20
                || (0x7f..=0x9f).contains(&(c as u32))
                || (0xd800..=0xdfff).contains(&(c as u32))
                || c == '\u{fffe}'
                || c == '\u{ffff}'
        })
        || s.contains(": ")
        || s.ends_with(':');
    if risky { json_quote(s) } else { s.to_owned() }
}

fn identity_fields(e: &Element, out: &mut Vec<(&'static str, YamlVal)>) {
    if let Some(r) = &e.aria_ref {
        out.push(("ref", YamlVal::Str(r.clone())));
    }
    out.push(("role", YamlVal::Str(e.role.clone())));
    if !e.name.is_empty() {
        out.push(("name", YamlVal::Str(name_text(e))));
    }
}

fn parent_obj(c: &ElementContext) -> YamlVal {
    let mut m = Vec::new();
    if let Some(r) = &c.aria_ref {
        m.push(("ref", r.clone()));
    }
    m.push(("role", c.role.clone()));
    if !c.name.is_empty() {
        m.push(("name", c.name.clone()));
    }
    YamlVal::Obj(m)
}

fn added_fields(a: &Added) -> Vec<(&'static str, YamlVal)> {
    let e = &a.element;
    let mut f = Vec::new();
    identity_fields(e, &mut f);
    if let Some(v) = &e.value {
        f.push(("value", YamlVal::Str(v.clone())));
    }
    if let Some(v) = &e.description {
        f.push(("description", YamlVal::Str(v.clone())));
    }
    if !e.states.is_empty() {
        f.push((
            "states",
            YamlVal::Map(
                e.states
                    .iter()
                    .map(|s| (s.name.clone(), s.value.clone()))
                    .collect(),
            ),
        ));
    }
    if !e.props.is_empty() {
        f.push((
            "props",
            YamlVal::Map(
                e.props
                    .iter()
                    .map(|p| (p.name.clone(), Some(p.value.clone())))
                    .collect(),
            ),
        ));
    }
    if let Some(b) = &e.bounds {
        f.push(("bounds", YamlVal::Str(b.to_string())));
    }
    if let Some(c) = &a.context {
        f.push(("parent", parent_obj(c)));
    }
    f
}

fn removed_fields(r: &Removed) -> Vec<(&'static str, YamlVal)> {
    let e = &r.element;
    let mut f = Vec::new();
    identity_fields(e, &mut f);
    if e.aria_ref.is_none() {
        if let Some(v) = &e.value {
            f.push(("value", YamlVal::Str(v.clone())));
        }
        if let Some(c) = &r.context {
            f.push(("parent", parent_obj(c)));
        }
    }
    f
}

fn change_fields(c: &TreeChange) -> Vec<(&'static str, YamlVal)> {
    vec![
        ("ref", YamlVal::OptStr(c.aria_ref.clone())),
        ("role", YamlVal::Str(c.role.clone())),
        ("name", YamlVal::Str(c.name.clone())),
        ("field", YamlVal::Str(c.field.key().into_owned())),
        ("from", YamlVal::OptStr(c.from.clone())),
        ("to", YamlVal::OptStr(c.to.clone())),
    ]
}

// ---------------------------------------------------------------------------
// JSON: the same keys as the YAML above, in the same order

/// `{ts, since, diff}`.
#[derive(Serialize)]
struct Stamped<'a> {
    ts: u64,
    since: Option<u64>,
    diff: DiffJson<'a>,
}

/// `{added, removed, changed, unchanged_count, refs_renumbered?}`.
#[derive(Serialize)]
struct DiffJson<'a> {
    added: Vec<ElementJson<'a>>,
    /// Topmost removed elements only, as in the agent lines.
    removed: Vec<ElementJson<'a>>,
    changed: Vec<ChangeJson<'a>>,
    unchanged_count: usize,
    #[serde(skip_serializing_if = "is_zero")]
    refs_renumbered: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl<'a> DiffJson<'a> {
    fn of(d: &'a TreeDiff) -> Self {
        DiffJson {
            added: d.added.iter().map(ElementJson::added).collect(),
            removed: d
                .removed
                .iter()
                .filter(|r| !r.parent_removed)
                .map(ElementJson::removed)
                .collect(),
            changed: d.changed.iter().map(ChangeJson::of).collect(),
            unchanged_count: d.unchanged_count,
            refs_renumbered: d.refs_renumbered,
        }
    }
}

/// An added or removed element: what [`added_fields`] and
/// [`removed_fields`] list for YAML.
#[derive(Serialize)]
struct ElementJson<'a> {
    #[serde(rename = "ref", skip_serializing_if = "Option::is_none")]
    aria_ref: Option<&'a str>,
    role: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    value: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    states: Option<States<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    props: Option<Props<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    bounds: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    parent: Option<ContextJson<'a>>,
}

impl<'a> ElementJson<'a> {
    /// `ref`, `role` and `name` (as printed: `/regex/` for a regex name).
    fn identity(e: &'a Element) -> Self {
        ElementJson {
            aria_ref: e.aria_ref.as_deref(),
            role: &e.role,
            name: (!e.name.is_empty()).then(|| name_text(e)),
            value: None,
            description: None,
            states: None,
            props: None,
            bounds: None,
            parent: None,
        }
    }

    fn added(a: &'a Added) -> Self {
        let e = &a.element;
        ElementJson {
            value: e.value.as_deref(),
            description: e.description.as_deref(),
            states: (!e.states.is_empty()).then_some(States(&e.states)),
            props: (!e.props.is_empty()).then_some(Props(&e.props)),
            bounds: e.bounds.as_ref().map(ToString::to_string),
            parent: a.context.as_ref().map(ContextJson::of),
            ..ElementJson::identity(e)
        }
    }

    /// An element with a ref is named by it alone; one without says its
    /// value and parent too.
    fn removed(r: &'a Removed) -> Self {
        let e = &r.element;
        let unnamed = e.aria_ref.is_none();
        ElementJson {
            value: e.value.as_deref().filter(|_| unnamed),
            parent: r.context.as_ref().filter(|_| unnamed).map(ContextJson::of),
            ..ElementJson::identity(e)
        }
    }
}

/// `{ref?, role, name?}` of an added or removed element's parent.
#[derive(Serialize)]
struct ContextJson<'a> {
    #[serde(rename = "ref", skip_serializing_if = "Option::is_none")]
    aria_ref: Option<&'a str>,
    role: &'a str,
    #[serde(skip_serializing_if = "str::is_empty")]
    name: &'a str,
}

impl<'a> ContextJson<'a> {
    fn of(c: &'a ElementContext) -> Self {
        ContextJson {
            aria_ref: c.aria_ref.as_deref(),
            role: &c.role,
            name: &c.name,
        }
    }
}

/// `{ref, role, name, field, from, to}`, `null` for what is absent.
#[derive(Serialize)]
struct ChangeJson<'a> {
    #[serde(rename = "ref")]
    aria_ref: Option<&'a str>,
    role: &'a str,
    name: &'a str,
    field: alloc::borrow::Cow<'static, str>,
    from: Option<&'a str>,
    to: Option<&'a str>,
}

impl<'a> ChangeJson<'a> {
    fn of(c: &'a TreeChange) -> Self {
        ChangeJson {
            aria_ref: c.aria_ref.as_deref(),
            role: &c.role,
            name: &c.name,
            field: c.field.key(),
            from: c.from.as_deref(),
            to: c.to.as_deref(),
        }
    }
}

// ---------------------------------------------------------------------------
// Agent lines

fn header(out: &mut String, aria_ref: Option<&str>, role: &str, name: &str) {
    if let Some(r) = aria_ref {
        let _ = write!(out, "[{r}] ");
    }
    out.push_str(role);
    if !name.is_empty() {
        out.push(' ');
        out.push_str(&json_quote(name));
    }
}

/// `[e5] button "Save" [disabled] value="x" /url="/a"`.
fn describe_element(out: &mut String, e: &Element, with_value: bool) {
    if let Some(r) = &e.aria_ref {
        let _ = write!(out, "[{r}] ");
    }
    out.push_str(&e.role);
    if !e.name.is_empty() {
        out.push(' ');
        if e.name_regex {
            let _ = write!(out, "/{}/", e.name);
        } else {
            out.push_str(&json_quote(&e.name));
        }
    }
    if !with_value {
        return;
    }
    for s in &e.states {
        let _ = write!(out, " {s}");
    }
    if let Some(v) = &e.value {
        let _ = write!(out, " value={}", json_quote(v));
    }
    if let Some(v) = &e.description {
        let _ = write!(out, " description={}", json_quote(v));
    }
    for p in &e.props {
        let _ = write!(out, " /{}={}", p.name, json_quote(&p.value));
    }
}

/// `list "Cart"`, `list [e6]`, `list`.
fn context(c: &ElementContext) -> String {
    if !c.name.is_empty() {
        format!("{} {}", c.role, json_quote(&c.name))
    } else if let Some(r) = &c.aria_ref {
        format!("{} [{r}]", c.role)
    } else {
        c.role.clone()
    }
}

fn quoted(v: &Option<String>) -> String {
    v.as_deref().map_or_else(|| "none".to_owned(), json_quote)
}

fn change_part(out: &mut String, c: &TreeChange) {
    match &c.field {
        Field::Name => {
            let _ = match c.from.as_deref() {
                Some(f) if !f.is_empty() => write!(out, "(was {})", json_quote(f)),
                _ => write!(out, "(was unnamed)"),
            };
        }
        Field::Role => {
            let _ = write!(out, "(was {})", c.from.as_deref().unwrap_or("none"));
        }
        Field::Value => {
            let _ = write!(out, "value={} (was {})", quoted(&c.to), quoted(&c.from));
        }
        Field::Description => {
            let _ = write!(
                out,
                "description={} (was {})",
                quoted(&c.to),
                quoted(&c.from)
            );
        }
        Field::State(s) => {
            let attr = |v: &str| {
                if v == "true" {
                    format!("[{s}]")
                } else {
                    format!("[{s}={v}]")
                }
            };
            let _ = match (c.from.as_deref(), c.to.as_deref()) {
                (None, Some(t)) => write!(out, "+{}", attr(t)),
                (Some(f), None) => write!(out, "-{}", attr(f)),
                (Some(f), Some(t)) => write!(out, "{} (was {})", attr(t), attr(f)),
                (None, None) => Ok(()),
            };
        }
        Field::Prop(p) => {
            let _ = write!(out, "/{p}={} (was {})", quoted(&c.to), quoted(&c.from));
        }
        Field::Bounds => {
            let _ = write!(
                out,
                "box={} (was {})",
                c.to.as_deref().unwrap_or("none"),
                c.from.as_deref().unwrap_or("none")
            );
        }
        Field::Ref => {
            let _ = write!(out, "(ref was {})", c.from.as_deref().unwrap_or("none"));
        }
        Field::Parent => {
            let _ = write!(
                out,
                "moved (in {}, was in {})",
                c.to.as_deref().unwrap_or("top level"),
                c.from.as_deref().unwrap_or("top level")
            );
        }
    }
}
