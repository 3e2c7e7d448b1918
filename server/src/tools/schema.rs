//! Compact JSON schemas for the catalog: derived from the parameter
//! types, inlined and stripped of what a model does not need, with one
//! shared expectation schema (docs/DECISIONS.md D22, D26).

use std::sync::Arc;

use schemars::JsonSchema;
use serde_json::{Map, Value, json};

/// The shared, compact expectation schema (the same in every tool).
pub fn expectation_schema() -> Value {
    // One line of keys instead of nested schemas: it is repeated in every
    // tool, so it is most of the catalog's cost (docs/DECISIONS.md D22);
    // the server validates the object and names a wrong field.
    json!({
        "type": "object",
        "description": EXPECTATION_KEYS,
    })
}

/// The expectation's keys, as the schema describes them.
pub const EXPECTATION_KEYS: &str = "What to return; omitted keys keep defaults: includeSnapshot, includeConsole, includeTabs, includeCode, includeDownloads; snapshotOptions {selector, maxLength, format, diff}, consoleOptions {levels, maxMessages, patterns}, imageOptions {quality, maxWidth, maxHeight, format}, diffOptions {enabled, format, context, maxDiffLines}.";

/// The input schema of `T`, made compact: definitions inlined, no titles,
/// formats or `null` alternatives, and the shared expectation schema.
pub fn input_schema<T: JsonSchema>() -> Arc<Map<String, Value>> {
    let generator = schemars::generate::SchemaSettings::draft2020_12().into_generator();
    let schema = generator.into_root_schema_for::<T>();
    let mut value = serde_json::to_value(schema).unwrap_or_else(|_| json!({}));
    let defs = value
        .as_object_mut()
        .and_then(|o| o.remove("$defs"))
        .unwrap_or(Value::Null);
    compact(&mut value, &defs, 0);
    let mut map = match value {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    map.remove("$schema");
    map.remove("title");
    map.remove("description");
    map.insert("type".into(), json!("object"));
    if let Some(Value::Object(props)) = map.get_mut("properties") {
        if props.contains_key("expectation") {
            props.insert("expectation".into(), expectation_schema());
        }
        if let Some(Value::Object(items)) = props.get_mut("steps").and_then(|s| s.get_mut("items"))
        {
            items.remove("description");
            if let Some(Value::Object(step_props)) = items.get_mut("properties") {
                step_props.insert(
                    "expectation".into(),
                    json!({"type": "object", "description": "Like expectation."}),
                );
            }
        }
        if let Some(Value::Object(g)) = props.get_mut("globalExpectation") {
            g.insert("type".into(), json!(["object", "string"]));
        }
    }
    Arc::new(map)
}

pub(super) fn compact(v: &mut Value, defs: &Value, depth: usize) {
    if depth > 16 {
        return;
    }
    if let Value::Object(m) = v {
        // Inline `$ref`s to `$defs`.
        if let Some(Value::String(r)) = m.get("$ref").cloned()
            && let Some(name) = r.strip_prefix("#/$defs/")
            && let Some(def) = defs.get(name)
        {
            m.remove("$ref");
            if let Value::Object(d) = def.clone() {
                for (k, val) in d {
                    m.entry(k).or_insert(val);
                }
            }
        }
        // `anyOf: [X, {type: null}]` → X.
        if let Some(Value::Array(any)) = m.get("anyOf").cloned() {
            let non_null: Vec<Value> = any
                .into_iter()
                .filter(|s| s.get("type") != Some(&json!("null")))
                .collect();
            if non_null.len() == 1 {
                m.remove("anyOf");
                if let Value::Object(d) = non_null[0].clone() {
                    for (k, val) in d {
                        m.entry(k).or_insert(val);
                    }
                }
                // The inlined part may itself hold a `$ref`.
                compact(v, defs, depth + 1);
                return;
            }
        }
        // `type: [X, "null"]` → X.
        if let Some(Value::Array(types)) = m.get("type").cloned() {
            let non_null: Vec<Value> = types.into_iter().filter(|t| t != "null").collect();
            if non_null.len() == 1 {
                m.insert("type".into(), non_null[0].clone());
            }
        }
        // One-value enums documented per variant come out as `oneOf` of
        // consts: fold them into a plain `enum`.
        if let Some(Value::Array(one_of)) = m.get("oneOf").cloned()
            && one_of.iter().all(|s| s.get("const").is_some())
        {
            let values: Vec<Value> = one_of
                .iter()
                .filter_map(|s| s.get("const").cloned())
                .collect();
            m.remove("oneOf");
            m.insert("type".into(), json!("string"));
            m.insert("enum".into(), Value::Array(values));
        }
        let is_uint = m
            .get("format")
            .and_then(Value::as_str)
            .is_some_and(|f| f.starts_with("uint"));
        for k in [
            "title",
            "format",
            "default",
            "additionalProperties",
            "$schema",
        ] {
            m.remove(k);
        }
        if is_uint && m.get("minimum") == Some(&json!(0)) {
            m.remove("minimum");
        }
        for val in m.values_mut() {
            compact(val, defs, depth + 1);
        }
        // An array's item type is documented by the array's own description.
        if let Some(Value::Object(items)) = m.get_mut("items") {
            items.remove("description");
        }
    } else if let Value::Array(a) = v {
        for val in a {
            compact(val, defs, depth + 1);
        }
    }
}
