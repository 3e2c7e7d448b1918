//! JSON form of the element model (serde, camelCase, fixed field order).
//!
//! ```json
//! [{"role":"button","name":"Save","ref":"e7","states":{"disabled":true,"level":"2"},
//!   "props":{"url":"/"},"children":[...]}]
//! ```
//! Empty fields are left out. `states` and `props` keep their order; a bare
//! flag is `true`, a valued attribute is a string.

use super::model::{Bounds, Element, MAX_DEPTH, MAX_INPUT_BYTES, Prop, State, Tree};
use crate::prelude::*;
use crate::{Error, Result};
use serde::de::{self, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeMap, SerializeSeq, SerializeStruct};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

impl Tree {
    /// The tree as compact JSON: an array of elements.
    ///
    /// ```
    /// let t = response_diff::tree::parse_aria("- heading \"Hi\" [level=1] [ref=e1]", false).unwrap();
    /// assert_eq!(t.to_json(), r#"[{"role":"heading","name":"Hi","ref":"e1","states":{"level":"1"}}]"#);
    /// ```
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads the JSON written by [`Tree::to_json`] (or a single element
    /// object). Unknown keys are an error naming the allowed ones; nesting
    /// deeper than [`MAX_DEPTH`] is an error, and so is a text over
    /// [`MAX_INPUT_BYTES`] ([`Error::InputTooLarge`]).
    ///
    /// ```
    /// use response_diff::tree::Tree;
    /// let t = Tree::from_json(r#"[{"role":"link","name":"Home","props":{"url":"/"}}]"#).unwrap();
    /// assert_eq!(t.to_aria(), "- link \"Home\":\n  - /url: /");
    /// assert!(Tree::from_json(r#"[{"role":"link","nmae":"x"}]"#).is_err());
    /// ```
    pub fn from_json(json: &str) -> Result<Tree> {
        if json.len() > MAX_INPUT_BYTES {
            return Err(Error::InputTooLarge {
                what: "JSON tree",
                size: json.len(),
                limit: MAX_INPUT_BYTES,
            });
        }
        check_depth(json)?;
        // With `std` the stack grows as deep as MAX_DEPTH needs; without it
        // there is no stack to grow, and serde_json's own nesting limit
        // (128 JSON levels, 63 tree levels) stands (docs/LIMITS.md).
        let parsed: core::result::Result<OneOrMany, _> = crate::json::deserialize_at(json, true);
        match parsed {
            Ok(OneOrMany(roots)) => Ok(Tree::new(roots)),
            Err((path, inner)) => Err(Error::Parse {
                what: "JSON tree",
                line: inner.line().max(1),
                message: if path.is_empty() || path == "." {
                    inner.to_string()
                } else {
                    format!("at {path}: {inner}")
                },
            }),
        }
    }
}

/// Rejects JSON nested deeper than the element limit allows, before parsing.
fn check_depth(json: &str) -> Result<()> {
    // Each element level costs an object and a `children` array.
    let limit = 2 * MAX_DEPTH + 2;
    let (mut depth, mut in_str, mut esc, mut line) = (0usize, false, false, 1usize);
    for b in json.bytes() {
        if b == b'\n' {
            line += 1;
        }
        if in_str {
            match (esc, b) {
                (true, _) => esc = false,
                (false, b'\\') => esc = true,
                (false, b'"') => in_str = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_str = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > limit {
                    return Err(Error::Parse {
                        what: "JSON tree",
                        line,
                        message: format!("nesting deeper than {MAX_DEPTH} elements"),
                    });
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

struct OneOrMany(Vec<Element>);

impl<'de> Deserialize<'de> for OneOrMany {
    fn deserialize<D: Deserializer<'de>>(d: D) -> core::result::Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = OneOrMany;
            fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str("an array of elements or one element object")
            }
            fn visit_seq<A: SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> core::result::Result<OneOrMany, A::Error> {
                let mut out = Vec::new();
                while let Some(e) = seq.next_element::<Element>()? {
                    out.push(e);
                }
                Ok(OneOrMany(out))
            }
            fn visit_map<A: MapAccess<'de>>(
                self,
                map: A,
            ) -> core::result::Result<OneOrMany, A::Error> {
                Ok(OneOrMany(vec![ElementVisitor.visit_map(map)?]))
            }
        }
        d.deserialize_any(V)
    }
}

impl Serialize for Tree {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.roots.len()))?;
        for e in &self.roots {
            seq.serialize_element(e)?;
        }
        seq.end()
    }
}

impl<'de> Deserialize<'de> for Tree {
    fn deserialize<D: Deserializer<'de>>(d: D) -> core::result::Result<Self, D::Error> {
        Ok(Tree::new(Vec::deserialize(d)?))
    }
}

/// `states` as a JSON map in order: a bare flag is `true` (shared with the
/// tree diff's JSON).
pub(super) struct States<'a>(pub(super) &'a [State]);
impl Serialize for States<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for st in self.0 {
            match &st.value {
                None => m.serialize_entry(&st.name, &true)?,
                Some(v) => m.serialize_entry(&st.name, v)?,
            }
        }
        m.end()
    }
}

/// `props` as a JSON map in order (shared with the tree diff's JSON).
pub(super) struct Props<'a>(pub(super) &'a [Prop]);
impl Serialize for Props<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for p in self.0 {
            m.serialize_entry(&p.name, &p.value)?;
        }
        m.end()
    }
}

impl Serialize for Bounds {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Bounds", 4)?;
        st.serialize_field("x", &self.x)?;
        st.serialize_field("y", &self.y)?;
        st.serialize_field("width", &self.width)?;
        st.serialize_field("height", &self.height)?;
        st.end()
    }
}

impl<'de> Deserialize<'de> for Bounds {
    fn deserialize<D: Deserializer<'de>>(d: D) -> core::result::Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct B {
            x: f64,
            y: f64,
            width: f64,
            height: f64,
        }
        let b = B::deserialize(d)?;
        Ok(Bounds {
            x: b.x,
            y: b.y,
            width: b.width,
            height: b.height,
        })
    }
}

impl Serialize for Element {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        // Depth is bounded by MAX_DEPTH; grow the stack if a small thread
        // runs out (without `std`, the host's stack must hold it).
        maybe_grow(|| {
            let mut st = s.serialize_struct("Element", 10)?;
            st.serialize_field("role", &self.role)?;
            if !self.name.is_empty() {
                st.serialize_field("name", &self.name)?;
            }
            if self.name_regex {
                st.serialize_field("nameRegex", &true)?;
            }
            if let Some(v) = &self.value {
                st.serialize_field("value", v)?;
            }
            if let Some(v) = &self.description {
                st.serialize_field("description", v)?;
            }
            if let Some(v) = &self.aria_ref {
                st.serialize_field("ref", v)?;
            }
            if let Some(b) = &self.bounds {
                st.serialize_field("bounds", b)?;
            }
            if !self.states.is_empty() {
                st.serialize_field("states", &States(&self.states))?;
            }
            if !self.props.is_empty() {
                st.serialize_field("props", &Props(&self.props))?;
            }
            if !self.children.is_empty() {
                st.serialize_field("children", &self.children)?;
            }
            st.end()
        })
    }
}

const FIELDS: &[&str] = &[
    "role",
    "name",
    "nameRegex",
    "value",
    "description",
    "ref",
    "bounds",
    "states",
    "props",
    "children",
];

impl<'de> Deserialize<'de> for Element {
    fn deserialize<D: Deserializer<'de>>(d: D) -> core::result::Result<Self, D::Error> {
        d.deserialize_struct("Element", FIELDS, ElementVisitor)
    }
}

struct ElementVisitor;

impl<'de> Visitor<'de> for ElementVisitor {
    type Value = Element;

    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("an element object with at least a `role`")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> core::result::Result<Element, A::Error> {
        let mut e = Element::default();
        let mut role = None;
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "role" => role = Some(map.next_value::<String>()?),
                "name" => e.name = map.next_value()?,
                "nameRegex" => e.name_regex = map.next_value()?,
                "value" => e.value = map.next_value()?,
                "description" => e.description = map.next_value()?,
                "ref" => e.aria_ref = map.next_value()?,
                "bounds" => e.bounds = map.next_value()?,
                "states" => e.states = map.next_value::<StatesIn>()?.0,
                "props" => e.props = map.next_value::<PropsIn>()?.0,
                "children" => e.children = map.next_value()?,
                other => return Err(de::Error::unknown_field(other, FIELDS)),
            }
        }
        e.role = role.ok_or_else(|| de::Error::missing_field("role"))?;
        if e.role.is_empty() {
            return Err(de::Error::custom("`role` must not be empty"));
        }
        Ok(e)
    }
}

struct StatesIn(Vec<State>);

impl<'de> Deserialize<'de> for StatesIn {
    fn deserialize<D: Deserializer<'de>>(d: D) -> core::result::Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = StatesIn;
            fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str("an object of states (true for a flag, or a string/number value)")
            }
            fn visit_map<A: MapAccess<'de>>(
                self,
                mut map: A,
            ) -> core::result::Result<StatesIn, A::Error> {
                let mut out = Vec::new();
                while let Some(name) = map.next_key::<String>()? {
                    let value = match map.next_value::<serde_json::Value>()? {
                        serde_json::Value::Bool(true) => None,
                        serde_json::Value::Bool(false) => Some("false".to_owned()),
                        serde_json::Value::String(s) => Some(s),
                        serde_json::Value::Number(n) => Some(n.to_string()),
                        other => {
                            return Err(de::Error::custom(format!(
                                "state `{name}` must be true, a string or a number, not {other}"
                            )));
                        }
                    };
                    out.push(State { name, value });
                }
                Ok(StatesIn(out))
            }
        }
        d.deserialize_map(V)
    }
}

struct PropsIn(Vec<Prop>);

impl<'de> Deserialize<'de> for PropsIn {
    fn deserialize<D: Deserializer<'de>>(d: D) -> core::result::Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = PropsIn;
            fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str("an object of string properties")
            }
            fn visit_map<A: MapAccess<'de>>(
                self,
                mut map: A,
            ) -> core::result::Result<PropsIn, A::Error> {
                let mut out = Vec::new();
                while let Some(name) = map.next_key::<String>()? {
                    let value = map.next_value::<String>()?;
                    out.push(Prop { name, value });
                }
                Ok(PropsIn(out))
            }
        }
        d.deserialize_map(V)
    }
}

#[cfg(feature = "std")]
fn maybe_grow<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(64 * 1024, 1024 * 1024, f)
}

#[cfg(not(feature = "std"))]
fn maybe_grow<R>(f: impl FnOnce() -> R) -> R {
    f()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Error paths equal serde_path_to_error's, which `crate::json`
    /// replaced (docs/DECISIONS.md D67), on mutations of a tree, as a
    /// `Value` and as text.
    #[test]
    fn paths_agree_with_serde_path_to_error() {
        use crate::json::tests::{agree, agree_text};
        let tree = crate::tree::parse_aria(
            "- main [ref=e1]:\n  - heading \"Cart\" [level=2] [ref=e2]\n  - list [ref=e3]:\n    - listitem [ref=e4]:\n      - checkbox \"Done\" [checked] [ref=e5]\n      - link \"Open\" [ref=e6]:\n        - /url: /item/1\n    - listitem [ref=e7]: text\n  - textbox \"Name\" [ref=e8]: Ada\n",
            false,
        )
        .unwrap();
        let tree: serde_json::Value = serde_json::from_str(&tree.to_json()).unwrap();
        assert!(Tree::deserialize(&tree).is_ok());
        assert!(agree::<Tree>(&tree, 9) > 1_000);
        assert!(agree_text::<Tree>(&tree, 10) > 1_000);
    }

    #[test]
    fn deep_json_is_a_clear_error() {
        let mut s = String::new();
        for _ in 0..100_000 {
            s.push_str(r#"{"role":"generic","children":["#);
        }
        let e = Tree::from_json(&s).unwrap_err().to_string();
        assert!(e.contains("nesting deeper"), "{e}");
    }

    /// `depth` nested elements as a JSON tree.
    fn nested(depth: usize) -> String {
        let mut s = String::from("[");
        for _ in 0..depth - 1 {
            s.push_str(r#"{"role":"generic","children":["#);
        }
        s.push_str(r#"{"role":"button"}"#);
        for _ in 0..depth - 1 {
            s.push_str("]}");
        }
        s.push(']');
        s
    }

    #[test]
    #[cfg(feature = "std")]
    fn json_at_the_depth_limit_works() {
        let t = Tree::from_json(&nested(MAX_DEPTH)).unwrap();
        assert_eq!(t.len(), MAX_DEPTH);
        assert_eq!(Tree::from_json(&t.to_json()).unwrap(), t);
        assert_eq!(t.to_aria().lines().count(), MAX_DEPTH);
    }

    /// Without std, serde_json's nesting limit (128 JSON levels) stands:
    /// 63 tree levels parse, 64 are a `Parse` error (docs/LIMITS.md).
    #[test]
    #[cfg(not(feature = "std"))]
    fn json_without_std_nests_63_levels() {
        assert_eq!(Tree::from_json(&nested(63)).unwrap().len(), 63);
        let e = Tree::from_json(&nested(64)).unwrap_err().to_string();
        assert!(e.contains("recursion limit exceeded"), "{e}");
    }

    #[test]
    fn unknown_keys_name_the_allowed_ones() {
        let e = Tree::from_json(r#"[{"role":"x","children":[{"role":"y","bogus":1}]}]"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("bogus") && e.contains("children"), "{e}");
    }
}
