//! Strict JSON parsing with errors that name the offending field.
//!
//! The field's path is found here rather than by serde_path_to_error
//! (docs/DECISIONS.md D67): the core's `no_std` build stays on serde,
//! serde_json, similar, blake3 and hashbrown, and that crate's wrappers,
//! instantiated for every type read, were 176 KB of the C library. A
//! `Value` is read by a deserializer of ours that records where it is
//! ([`from_value`]); JSON text read by serde_json's streaming
//! deserializer is walked so only when it fails ([`deserialize_at`]). The
//! paths are the ones serde_path_to_error gave (tests check both against
//! it), with and without `std`.

use crate::prelude::*;
use serde::de::{
    self, Deserialize, DeserializeOwned, DeserializeSeed, Deserializer, EnumAccess, MapAccess,
    SeqAccess, VariantAccess, Visitor,
};

use crate::{Error, Result};

/// Parses `json` as `T`, an object type. Syntax errors (anywhere in the
/// text) become [`Error::Parse`] with the line; a document that is not a
/// JSON object, unknown keys, wrong types and bad enum values become
/// [`Error::InvalidOption`] whose `field` is the dotted path under `root`
/// (`expectation.consoleOptions.levels[1]`).
pub(crate) fn from_str<T: DeserializeOwned>(json: &str, root: &str) -> Result<T> {
    // Check the whole syntax first, so a truncated document is reported as
    // such rather than as whatever type error comes before the cut.
    let value: serde_json::Value = serde_json::from_str(json).map_err(|e| Error::Parse {
        what: "JSON",
        line: e.line(),
        message: strip_position(&e.to_string()),
    })?;
    from_value(&value, root)
}

/// Checks that `json` is well-formed JSON: [`Error::Parse`] with the line
/// otherwise, as [`from_str`] reports it. (Read into a `Value`, as there:
/// `IgnoredAny` would let an out-of-range number through.)
pub(crate) fn check_syntax(json: &str) -> Result<()> {
    serde_json::from_str::<serde_json::Value>(json)
        .map(|_| ())
        .map_err(|e| Error::Parse {
            what: "JSON",
            line: e.line(),
            message: strip_position(&e.to_string()),
        })
}

/// Like [`from_str`] for an already parsed JSON value.
pub(crate) fn from_value<T: DeserializeOwned>(value: &serde_json::Value, root: &str) -> Result<T> {
    if !value.is_object() {
        let got = match value {
            serde_json::Value::Null => "null",
            serde_json::Value::Bool(_) => "a boolean",
            serde_json::Value::Number(_) => "a number",
            serde_json::Value::String(_) => "a string",
            serde_json::Value::Array(_) => "an array",
            serde_json::Value::Object(_) => "an object",
        };
        return Err(Error::invalid_option(
            if root.is_empty() { "(root)" } else { root },
            format!("must be a JSON object, got {got}"),
        ));
    }
    walk::<T>(value).map_err(|(path, e)| convert(&path, e, root))
}

/// Deserializes a `T` from the JSON text `json` with serde_json's
/// streaming deserializer (trailing text is not looked at); an error
/// comes with the dotted path of the value it is about
/// (`structure.interactive[0]`, empty at the root), found from where in
/// `json`, walked again as a `Value` ([`walk`]). `deep`: with `std`, no
/// nesting limit and a stack that grows as deep as the document goes
/// (the tree parser's `MAX_DEPTH`); without `std`, or not `deep`,
/// serde_json's 128 levels.
pub(crate) fn deserialize_at<T: DeserializeOwned>(
    json: &str,
    deep: bool,
) -> core::result::Result<T, (String, serde_json::Error)> {
    let mut de = serde_json::Deserializer::from_str(json);
    #[cfg(feature = "std")]
    let result = if deep {
        de.disable_recursion_limit();
        T::deserialize(serde_stacker::Deserializer::new(&mut de))
    } else {
        T::deserialize(&mut de)
    };
    #[cfg(not(feature = "std"))]
    let result = {
        let _ = deep;
        T::deserialize(&mut de)
    };
    result.map_err(|e| {
        let path = match parse_value(json) {
            Some(value) => {
                let path = walk::<T>(&value)
                    .err()
                    .map(|(path, _)| path)
                    .unwrap_or_default();
                drop_flat(value);
                path
            }
            None => String::new(),
        };
        (path, e)
    })
}

/// `json` as a `Value`, to find an error's path: with `std` at any depth
/// (the stack grows), without it within serde_json's 128 levels (deeper
/// documents' errors name no path, docs/LIMITS.md).
fn parse_value(json: &str) -> Option<serde_json::Value> {
    let mut de = serde_json::Deserializer::from_str(json);
    #[cfg(feature = "std")]
    {
        de.disable_recursion_limit();
        serde_json::Value::deserialize(serde_stacker::Deserializer::new(&mut de)).ok()
    }
    #[cfg(not(feature = "std"))]
    {
        serde_json::Value::deserialize(&mut de).ok()
    }
}

/// Drops `value` without recursing (a value 100,000 levels deep would
/// overflow the stack dropping itself).
fn drop_flat(value: serde_json::Value) {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            serde_json::Value::Array(items) => stack.extend(items),
            serde_json::Value::Object(map) => stack.extend(map.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}

/// A `T` from `value` as serde_json's own `Value` deserializer reads it
/// (the same values accepted, the same error messages), or the error and
/// where it was: map keys joined by `.`, sequence indices as `[i]`, the
/// variant of an enum's content; empty at the root (as
/// serde_path_to_error wrote it, which this replaced, D67).
fn walk<T: DeserializeOwned>(
    value: &serde_json::Value,
) -> core::result::Result<T, (String, serde_json::Error)> {
    let track = core::cell::RefCell::new(Track::default());
    let e = match T::deserialize(Walk {
        value,
        track: &track,
    }) {
        Ok(t) => return Ok(t),
        Err(e) => e,
    };
    Err((render(&track.into_inner().failed_at.unwrap_or_default()), e))
}

/// A path as serde_path_to_error wrote it: `a.b[2].c`, empty at the root.
fn render(path: &[Segment]) -> String {
    let mut out = String::new();
    for segment in path {
        match segment {
            Segment::Index(i) => out.push_str(&format!("[{i}]")),
            Segment::Key(k) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(k);
            }
        }
    }
    out
}

#[derive(Clone)]
enum Segment {
    Index(usize),
    Key(String),
}

/// The walk's position, and where the first (innermost) error happened.
#[derive(Default)]
struct Track {
    at: Vec<Segment>,
    failed_at: Option<Vec<Segment>>,
}

impl Track {
    fn fail(&mut self, extra: Option<Segment>) {
        if self.failed_at.is_none() {
            let mut at = self.at.clone();
            at.extend(extra);
            self.failed_at = Some(at);
        }
    }
}

type Tracked<'t> = &'t core::cell::RefCell<Track>;

/// A `Value` deserializer that records the path it is at.
struct Walk<'v, 't> {
    value: &'v serde_json::Value,
    track: Tracked<'t>,
}

impl<'v, 't> Walk<'v, 't> {
    /// Deserializes `seed` from `value` with `segment` on the path.
    fn child<'s, S: DeserializeSeed<'v>>(
        track: Tracked<'t>,
        segment: Segment,
        value: &'v serde_json::Value,
        seed: S,
    ) -> core::result::Result<S::Value, serde_json::Error> {
        track.borrow_mut().at.push(segment);
        let r = seed.deserialize(Walk { value, track });
        if r.is_err() {
            track.borrow_mut().fail(None);
        }
        track.borrow_mut().at.pop();
        r
    }
}

impl<'v, 't> Deserializer<'v> for Walk<'v, 't> {
    type Error = serde_json::Error;

    fn deserialize_any<V: Visitor<'v>>(
        self,
        visitor: V,
    ) -> core::result::Result<V::Value, Self::Error> {
        // Deep trees: grow the stack as the tree parser does.
        #[cfg(feature = "std")]
        return stacker::maybe_grow(64 * 1024, 2 * 1024 * 1024, || self.any(visitor));
        #[cfg(not(feature = "std"))]
        self.any(visitor)
    }

    fn deserialize_option<V: Visitor<'v>>(
        self,
        visitor: V,
    ) -> core::result::Result<V::Value, Self::Error> {
        match self.value {
            serde_json::Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'v>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> core::result::Result<V::Value, Self::Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'v>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> core::result::Result<V::Value, Self::Error> {
        match self.value {
            serde_json::Value::String(s) => {
                visitor.visit_enum(de::value::BorrowedStrDeserializer::new(s))
            }
            serde_json::Value::Object(map) => {
                let mut entries = map.iter();
                match (entries.next(), entries.next()) {
                    (Some((variant, value)), None) => visitor.visit_enum(EnumWalk {
                        variant,
                        value,
                        track: self.track,
                    }),
                    _ => Err(de::Error::invalid_value(
                        de::Unexpected::Map,
                        &"map with a single key",
                    )),
                }
            }
            other => Err(de::Error::invalid_type(unexpected(other), &"string or map")),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'v>>(
        self,
        visitor: V,
    ) -> core::result::Result<V::Value, Self::Error> {
        visitor.visit_unit()
    }

    serde::forward_to_deserialize_any! {
        <W: Visitor<'v>>
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map struct identifier
    }
}

impl<'v, 't> Walk<'v, 't> {
    fn any<V: Visitor<'v>>(self, visitor: V) -> core::result::Result<V::Value, serde_json::Error> {
        use serde_json::Value;
        match self.value {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(*b),
            Value::Number(n) => match (n.as_u64(), n.as_i64()) {
                (Some(u), _) => visitor.visit_u64(u),
                (None, Some(i)) => visitor.visit_i64(i),
                _ => visitor.visit_f64(n.as_f64().unwrap_or(f64::NAN)),
            },
            Value::String(s) => visitor.visit_borrowed_str(s),
            Value::Array(items) => {
                let mut seq = SeqWalk {
                    items: items.iter(),
                    index: 0,
                    track: self.track,
                };
                let out = visitor.visit_seq(&mut seq)?;
                match seq.items.len() {
                    0 => Ok(out),
                    _ => Err(de::Error::invalid_length(
                        items.len(),
                        &"fewer elements in array",
                    )),
                }
            }
            Value::Object(entries) => {
                let mut map = MapWalk {
                    entries: entries.iter(),
                    value: None,
                    track: self.track,
                };
                let out = visitor.visit_map(&mut map)?;
                match map.entries.len() {
                    0 => Ok(out),
                    _ => Err(de::Error::invalid_length(
                        entries.len(),
                        &"fewer elements in map",
                    )),
                }
            }
        }
    }
}

fn unexpected(value: &serde_json::Value) -> de::Unexpected<'_> {
    use serde_json::Value;
    match value {
        Value::Null => de::Unexpected::Unit,
        Value::Bool(b) => de::Unexpected::Bool(*b),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => de::Unexpected::Unsigned(u),
            (None, Some(i)) => de::Unexpected::Signed(i),
            _ => de::Unexpected::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        Value::String(s) => de::Unexpected::Str(s),
        Value::Array(_) => de::Unexpected::Seq,
        Value::Object(_) => de::Unexpected::Map,
    }
}

struct SeqWalk<'v, 't> {
    items: core::slice::Iter<'v, serde_json::Value>,
    index: usize,
    track: Tracked<'t>,
}

impl<'v, 't> SeqAccess<'v> for &mut SeqWalk<'v, 't> {
    type Error = serde_json::Error;

    fn next_element_seed<S: DeserializeSeed<'v>>(
        &mut self,
        seed: S,
    ) -> core::result::Result<Option<S::Value>, Self::Error> {
        let Some(item) = self.items.next() else {
            return Ok(None);
        };
        let index = self.index;
        self.index += 1;
        Walk::child(self.track, Segment::Index(index), item, seed).map(Some)
    }
}

struct MapWalk<'v, 't> {
    entries: serde_json::map::Iter<'v>,
    value: Option<(&'v String, &'v serde_json::Value)>,
    track: Tracked<'t>,
}

impl<'v, 't> MapAccess<'v> for &mut MapWalk<'v, 't> {
    type Error = serde_json::Error;

    fn next_key_seed<S: DeserializeSeed<'v>>(
        &mut self,
        seed: S,
    ) -> core::result::Result<Option<S::Value>, Self::Error> {
        let Some((key, value)) = self.entries.next() else {
            return Ok(None);
        };
        self.value = Some((key, value));
        seed.deserialize(de::value::BorrowedStrDeserializer::new(key))
            .map(Some)
            .inspect_err(|_| {
                // A refused key (an unknown field) is at the key's path.
                self.track
                    .borrow_mut()
                    .fail(Some(Segment::Key(key.clone())));
            })
    }

    fn next_value_seed<S: DeserializeSeed<'v>>(
        &mut self,
        seed: S,
    ) -> core::result::Result<S::Value, Self::Error> {
        let (key, value) = self
            .value
            .take()
            .ok_or_else(|| de::Error::custom("a map value was read before its key"))?;
        Walk::child(self.track, Segment::Key(key.clone()), value, seed)
    }
}

/// An enum with content (`{"variant": content}`): the content's path has
/// the variant's name.
struct EnumWalk<'v, 't> {
    variant: &'v String,
    value: &'v serde_json::Value,
    track: Tracked<'t>,
}

impl<'v, 't> EnumAccess<'v> for EnumWalk<'v, 't> {
    type Error = serde_json::Error;
    type Variant = Self;

    fn variant_seed<S: DeserializeSeed<'v>>(
        self,
        seed: S,
    ) -> core::result::Result<(S::Value, Self), Self::Error> {
        let v = seed.deserialize(de::value::BorrowedStrDeserializer::new(self.variant))?;
        Ok((v, self))
    }
}

impl<'v, 't> VariantAccess<'v> for EnumWalk<'v, 't> {
    type Error = serde_json::Error;

    fn unit_variant(self) -> core::result::Result<(), Self::Error> {
        de::Deserialize::deserialize(Walk {
            value: self.value,
            track: self.track,
        })
    }

    fn newtype_variant_seed<S: DeserializeSeed<'v>>(
        self,
        seed: S,
    ) -> core::result::Result<S::Value, Self::Error> {
        Walk::child(
            self.track,
            Segment::Key(self.variant.clone()),
            self.value,
            seed,
        )
    }

    fn tuple_variant<V: Visitor<'v>>(
        self,
        _len: usize,
        visitor: V,
    ) -> core::result::Result<V::Value, Self::Error> {
        Walk::child(
            self.track,
            Segment::Key(self.variant.clone()),
            self.value,
            SeedOf(visitor),
        )
    }

    fn struct_variant<V: Visitor<'v>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> core::result::Result<V::Value, Self::Error> {
        Walk::child(
            self.track,
            Segment::Key(self.variant.clone()),
            self.value,
            SeedOf(visitor),
        )
    }
}

/// A visitor as a seed: `deserialize_any` with it.
struct SeedOf<V>(V);

impl<'v, V: Visitor<'v>> DeserializeSeed<'v> for SeedOf<V> {
    type Value = V::Value;

    fn deserialize<D: Deserializer<'v>>(self, d: D) -> core::result::Result<V::Value, D::Error> {
        d.deserialize_any(self.0)
    }
}

fn convert(path: &str, inner: serde_json::Error, root: &str) -> Error {
    if inner.is_syntax() || inner.is_eof() || inner.is_io() {
        return Error::Parse {
            what: "JSON",
            line: inner.line(),
            message: strip_position(&inner.to_string()),
        };
    }
    let field = match (root.is_empty(), path) {
        (_, "") => root.to_owned(),
        (true, p) => p.to_owned(),
        (false, p) => format!("{root}.{p}"),
    };
    Error::InvalidOption {
        field,
        message: strip_position(&inner.to_string()),
    }
}

/// serde_json appends " at line L column C"; the path says more.
fn strip_position(msg: &str) -> String {
    match msg.rfind(" at line ") {
        Some(i) => msg[..i].to_owned(),
        None => msg.to_owned(),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use serde_json::{Value, json};

    pub(crate) fn next(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    /// Every node of `v` (as pointers, for `pointer_mut`).
    fn pointers(v: &Value, at: String, out: &mut Vec<String>) {
        out.push(at.clone());
        match v {
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    pointers(item, format!("{at}/{i}"), out);
                }
            }
            Value::Object(map) => {
                for (k, item) in map {
                    pointers(
                        item,
                        format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")),
                        out,
                    );
                }
            }
            _ => {}
        }
    }

    /// One or two random mutations of `doc`: a value of another type, an
    /// unknown key, a missing key, an unknown enum string.
    pub(crate) fn mutate(doc: &Value, state: &mut u64) -> Value {
        let mut v = doc.clone();
        for _ in 0..1 + next(state) % 2 {
            let mut ps = Vec::new();
            pointers(&v, String::new(), &mut ps);
            let p = ps[(next(state) % ps.len() as u64) as usize].clone();
            let node = v.pointer_mut(&p).expect("a pointer of the document");
            let replacements = [
                json!(null),
                json!(true),
                json!(7),
                json!(-1),
                json!(1.5),
                json!(100_000_000_000u64),
                json!("bogus"),
                json!(""),
                json!([]),
                json!([1, "x"]),
                json!({}),
                json!({"k": 1}),
            ];
            match next(state) % 3 {
                0 => {
                    if let Value::Object(map) = node {
                        map.insert("bogusKey".into(), json!(1));
                        continue;
                    }
                }
                1 => {
                    if let Value::Object(map) = node {
                        if let Some(k) = map.keys().next().cloned() {
                            map.remove(&k);
                        }
                        continue;
                    }
                }
                _ => {}
            }
            *node = replacements[(next(state) % replacements.len() as u64) as usize].clone();
        }
        v
    }

    /// What serde_path_to_error (which this module replaced, D67) makes
    /// of deserializing a `T` from `de`: the path, as we write it, and
    /// serde_json's message.
    fn oracle<'de, T: DeserializeOwned, D: Deserializer<'de, Error = serde_json::Error>>(
        de: D,
    ) -> Option<(String, String)> {
        serde_path_to_error::deserialize::<_, T>(de).err().map(|e| {
            let p = e.path().to_string();
            let p = if p == "." { String::new() } else { p };
            (p, e.into_inner().to_string())
        })
    }

    /// 3,000 mutations of `doc`, each given to `case` as a `Value` and its
    /// number, which returns the input as shown, the oracle's answer and
    /// ours; they must agree. Returns how many were errors.
    fn agree_on(
        doc: &Value,
        seed: u64,
        mut case: impl FnMut(
            Value,
            usize,
        ) -> (
            String,
            Option<(String, String)>,
            Result<(), (String, serde_json::Error)>,
        ),
    ) -> usize {
        let mut state = seed;
        let mut errors = 0;
        for n in 0..3_000 {
            let (shown, theirs, ours) = case(mutate(doc, &mut state), n);
            match (theirs, ours) {
                (Some(theirs), Err((path, e))) => {
                    errors += 1;
                    assert_eq!((path, e.to_string()), theirs, "case {n}: {shown}");
                }
                (None, Ok(())) => {}
                (theirs, ours) => panic!(
                    "case {n}: {shown}: serde_path_to_error {theirs:?}, ours {:?}",
                    ours.err()
                ),
            }
        }
        errors
    }

    /// Paths and messages of `walk` (a `Value` read) against the oracle.
    pub(crate) fn agree<T: DeserializeOwned>(doc: &Value, seed: u64) -> usize {
        agree_on(doc, seed, |v, _| {
            let theirs = oracle::<T, _>(&v);
            let ours = walk::<T>(&v).map(drop);
            (v.to_string(), theirs, ours)
        })
    }

    /// As [`agree`] for JSON text read by serde_json's streaming
    /// deserializer ([`deserialize_at`]): compact and pretty (lines).
    pub(crate) fn agree_text<T: DeserializeOwned>(doc: &Value, seed: u64) -> usize {
        agree_on(doc, seed, |v, n| {
            let text = if n % 2 == 0 {
                serde_json::to_string(&v).unwrap()
            } else {
                serde_json::to_string_pretty(&v).unwrap()
            };
            let theirs = oracle::<T, _>(&mut serde_json::Deserializer::from_str(&text));
            let ours = deserialize_at::<T>(&text, n % 3 == 0).map(drop);
            (text, theirs, ours)
        })
    }
}
