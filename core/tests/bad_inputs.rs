//! The bad-input matrix (`tests/fixtures/bad-inputs/matrix.json`), run on
//! the core. The C, Python and Node tests read the same file; each case
//! must give its typed error (or its defined result) and never panic.

mod common;

use response_diff::Error;
use response_diff::diff::{DetectorConfig, DiffSettings, ResponseDiffDetector, compare_texts};
use response_diff::expectation::Expectation;
use response_diff::fingerprint::{self, BaselineStore, Fingerprint, Severity};
use response_diff::response::{Response, render};
use response_diff::tree::{self, SinceStore, Tree, TreeDiffFormat, TreeDiffRequest};
use serde_json::Value;

/// Expands a string argument (a literal or a generator).
fn gen_string(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Object(o) => match o.get("$gen").and_then(Value::as_str) {
            Some("repeat") => {
                let unit = o["unit"].as_str().unwrap();
                let bytes = o["bytes"].as_u64().unwrap() as usize;
                unit.repeat(bytes / unit.len())
            }
            Some("nest") => {
                let s = |k: &str| o[k].as_str().unwrap();
                let depth = o["depth"].as_u64().unwrap() as usize;
                let mut out = String::new();
                out.push_str(s("prefix"));
                out.push_str(&s("open").repeat(depth));
                out.push_str(s("middle"));
                out.push_str(&s("close").repeat(depth));
                out.push_str(s("suffix"));
                out
            }
            Some("chain") => {
                let depth = o["depth"].as_u64().unwrap() as usize;
                let mut out = String::new();
                for i in 0..depth {
                    out.push_str(&" ".repeat(i));
                    let line = if i + 1 == depth { "last" } else { "line" };
                    out.push_str(o[line].as_str().unwrap());
                    out.push('\n');
                }
                out
            }
            other => panic!("unknown generator {other:?}"),
        },
        other => panic!("not a string argument: {other}"),
    }
}

/// Option JSON as text: `$text` as is, `$float` as its bare token (which
/// JSON cannot hold), anything else serialized.
fn option_text(v: &Value) -> String {
    match v {
        Value::Object(o) if o.contains_key("$text") => gen_string(&o["$text"]),
        Value::Object(o) if o.contains_key("$json") => gen_string(&o["$json"]),
        Value::Object(o) if o.contains_key("$float") => o["$float"].as_str().unwrap().to_owned(),
        Value::Object(o) if o.contains_key("$gen") => {
            serde_json::to_string(&gen_string(v)).unwrap()
        }
        Value::Object(o) => {
            let fields: Vec<String> = o
                .iter()
                .map(|(k, v)| format!("{}:{}", serde_json::to_string(k).unwrap(), option_text(v)))
                .collect();
            format!("{{{}}}", fields.join(","))
        }
        Value::Array(a) => {
            let items: Vec<String> = a.iter().map(option_text).collect();
            format!("[{}]", items.join(","))
        }
        other => other.to_string(),
    }
}

const FINGERPRINT: &str =
    r#"{"url": "/", "structure": {"interactive": [{"type": "button", "text": "Save"}]}}"#;

/// What a successful call produced, for the `ok` checks.
#[derive(Default)]
struct Outcome {
    mode: Option<String>,
    roots: Option<usize>,
    text: Option<String>,
}

fn call(api: &str, args: &Value) -> Result<Outcome, Error> {
    let s = |k: &str| args.get(k).map(gen_string);
    let opt = |k: &str| args.get(k).map(option_text);
    let mut out = Outcome::default();
    match api {
        "detector.new" => {
            DetectorConfig::from_json(&opt("config").unwrap())?;
        }
        "detector.detect" => {
            let config = match opt("config") {
                Some(c) => DetectorConfig::from_json(&c)?,
                None => DetectorConfig::default(),
            };
            let d = ResponseDiffDetector::with_config(config);
            let settings = match opt("options") {
                Some(o) => DiffSettings::from_json(&o)?,
                None => DiffSettings::default(),
            };
            let key = s("key").unwrap();
            if let Some(prev) = s("previous") {
                d.detect(&key, &prev, &settings)?;
            }
            let r = d.detect(&key, &s("text").unwrap(), &settings)?;
            out.mode = Some(r.mode.as_str().to_owned());
            out.text = Some(r.formatted_diff);
        }
        "diff.compare" => {
            let settings = match opt("options") {
                Some(o) => DiffSettings::from_json(&o)?,
                None => DiffSettings::default(),
            };
            let old = s("old");
            let r = compare_texts(old.as_deref(), &s("new").unwrap(), &settings);
            out.mode = Some(r.mode.as_str().to_owned());
        }
        "expectation.validate" => {
            Expectation::from_json(&opt("expectation").unwrap())?;
        }
        "response.render" => {
            let response = Response::from_json(&opt("response").unwrap())?;
            let layers: Vec<Expectation> = match args.get("layers") {
                Some(Value::Array(a)) => a
                    .iter()
                    .enumerate()
                    .map(|(i, v)| {
                        Expectation::from_json_at(&option_text(v), &format!("layers[{i}]"))
                    })
                    .collect::<Result<_, _>>()?,
                _ => Vec::new(),
            };
            let refs: Vec<&Expectation> = layers.iter().collect();
            let exp = Expectation::resolve(&s("tool").unwrap(), &refs)?;
            out.text = Some(render(&response, &exp, None)?.text);
        }
        "tree.parse" => {
            let lenient = args
                .get("lenient")
                .and_then(Value::as_bool)
                .unwrap_or(false);
            let t = tree::parse_aria(&s("text").unwrap(), lenient)?;
            out.roots = Some(t.roots.len());
            out.text = Some(t.to_aria());
        }
        "tree.print" => {
            out.text = Some(Tree::from_json(&s("json").unwrap())?.to_aria());
        }
        "tree.diff" => {
            let req = match opt("options") {
                Some(o) => TreeDiffRequest::from_json(&o)?,
                None => TreeDiffRequest::default(),
            };
            let old = tree::parse_aria(&s("old").unwrap(), req.lenient)?;
            let new = tree::parse_aria(&s("new").unwrap(), req.lenient)?;
            let d = tree::diff_with(&old, &new, &req.options);
            out.text = Some(d.render(req.format, 1, None));
        }
        "fingerprint.parse" => {
            Fingerprint::from_json(&s("json").unwrap())?;
        }
        "fingerprint.compare" => {
            let b = Fingerprint::from_json(&s("baseline").unwrap())?;
            let c = Fingerprint::from_json(&s("current").unwrap())?;
            let t: Severity = s("threshold").unwrap().parse()?;
            out.text = Some(fingerprint::compare(&b, &c, t).to_json());
        }
        "baseline.save" => {
            let fp = Fingerprint::from_json(&s("fingerprint").unwrap_or(FINGERPRINT.into()))?;
            BaselineStore::new().save(&s("name").unwrap(), &fp)?;
        }
        "baseline.compare" => {
            let fp = Fingerprint::from_json(FINGERPRINT)?;
            let store = BaselineStore::new();
            store.save("home", &fp)?;
            let c = store.compare(&s("against").unwrap(), &fp, Severity::Warning)?;
            out.text = Some(c.to_json());
        }
        "since.read" => {
            let store = SinceStore::new();
            let t = tree::parse_aria(&s("text").unwrap(), false)?;
            let since = args.get("since").and_then(Value::as_u64);
            let r = store.read(
                &s("key").unwrap(),
                t,
                since,
                &tree::TreeDiffOptions::default(),
            );
            out.text = Some(r.render(TreeDiffFormat::Agent));
        }
        other => panic!("unknown api {other}"),
    }
    Ok(out)
}

/// Checks `err` against an `error` expectation; returns what did not match.
fn check_error(err: &Error, want: &Value) -> Vec<String> {
    let mut bad = Vec::new();
    let kind = want["error"].as_str().unwrap();
    let msg = err.to_string();
    let got_kind = match err {
        Error::InvalidOption { .. } => "invalid_option",
        Error::Parse { .. } => "parse",
        Error::InputTooLarge { .. } => "input_too_large",
        Error::InvalidName { .. } => "invalid_name",
        Error::BaselineNotFound { .. } => "baseline_not_found",
        Error::Image(_) => "image",
        Error::Io { .. } => "io",
        _ => "other",
    };
    if got_kind != kind {
        bad.push(format!("kind {got_kind}, want {kind}"));
    }
    if let (Some(f), Error::InvalidOption { field, .. }) = (want.get("field"), err) {
        if f.as_str() != Some(field) {
            bad.push(format!("field {field:?}, want {f}"));
        }
    }
    if let Error::Parse { what, line, .. } = err {
        if let Some(w) = want.get("what") {
            if w.as_str() != Some(what) {
                bad.push(format!("what {what:?}, want {w}"));
            }
        }
        if let Some(l) = want.get("line") {
            if l.as_u64() != Some(*line as u64) {
                bad.push(format!("line {line}, want {l}"));
            }
        }
    }
    for needle in want["message"].as_array().into_iter().flatten() {
        let needle = needle.as_str().unwrap();
        if !msg.contains(needle) {
            bad.push(format!("message lacks {needle:?}"));
        }
    }
    if !bad.is_empty() {
        bad.push(format!(
            "message: {}",
            msg.chars().take(300).collect::<String>()
        ));
    }
    bad
}

fn check_ok(out: &Outcome, want: &Value) -> Vec<String> {
    let mut bad = Vec::new();
    if let Some(m) = want.get("mode") {
        if out.mode.as_deref() != m.as_str() {
            bad.push(format!("mode {:?}, want {m}", out.mode));
        }
    }
    if let Some(r) = want.get("roots") {
        if out.roots.map(|n| n as u64) != r.as_u64() {
            bad.push(format!("roots {:?}, want {r}", out.roots));
        }
    }
    if let Some(c) = want.get("contains") {
        let text = out.text.as_deref().unwrap_or("");
        if !text.contains(c.as_str().unwrap()) {
            let tail: String = text.chars().take(300).collect();
            bad.push(format!("output lacks {c}: {tail}"));
        }
    }
    bad
}

#[test]
fn every_bad_input_gets_its_typed_error() {
    let matrix: Value = serde_json::from_str(&common::fixture("bad-inputs/matrix.json")).unwrap();
    let cases = matrix["cases"].as_array().unwrap();
    assert!(cases.len() >= 60, "the matrix lost cases");
    let (mut ran, mut failures) = (0, Vec::new());
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let want = match case.get("rust") {
            Some(o) if o.get("skip").is_some() => continue,
            Some(o) => &o["expect"],
            None => &case["expect"],
        };
        ran += 1;
        let api = case["api"].as_str().unwrap();
        // Run each case on a 2 MiB thread: the size of a small host thread
        // (Node's and Python's are 1-8 MiB), so deep inputs must not need more.
        let args = case["args"].clone();
        let api_owned = api.to_owned();
        let got = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || call(&api_owned, &args))
            .unwrap()
            .join();
        let bad = match (got, want.get("ok")) {
            (Err(_), _) => vec!["panicked".to_owned()],
            (Ok(Ok(out)), Some(ok)) => check_ok(&out, ok),
            (Ok(Ok(_)), None) => vec![format!("succeeded, want {}", want["error"])],
            (Ok(Err(e)), Some(_)) => vec![format!("failed: {e}")],
            (Ok(Err(e)), None) => check_error(&e, want),
        };
        if !bad.is_empty() {
            failures.push(format!("{name} ({api}): {}", bad.join("; ")));
        }
    }
    assert!(ran >= 60, "only {ran} cases ran");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The typed path has no JSON text in the way: NaN and infinities reach the
/// range checks and are refused there.
#[test]
fn non_finite_thresholds_are_refused_by_the_range_check() {
    for t in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.1, 1.5] {
        let o = response_diff::diff::DiffOptions {
            threshold: Some(t),
            ..Default::default()
        };
        let e = o.validate("diffOptions").unwrap_err();
        assert!(
            matches!(&e, Error::InvalidOption { field, .. } if field == "diffOptions.threshold"),
            "{e}"
        );
    }
}
