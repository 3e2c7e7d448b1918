//! Rows restored by reference from anywhere in the session (issue 42 #3),
//! on a paged grid in real headless Chromium: rows shown on earlier pages
//! come back `as last shown` after a page-size change, also when the agent
//! read the page in full in between (which starts a new diff chain).

use response_diff_server::engine::{Engine, EngineConfig};
use response_diff_server::site::Site;
use serde_json::{Map, Value, json};

/// A grid that re-renders its body on every page (new nodes, as gridjs
/// does): 60 people, 10 a page, a pager and a page-size button.
const PAGE: &str = r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>People</title></head>
<body><main>
<h1>People</h1>
<button id="size" type="button">Show 40 per page</button>
<table><thead><tr><th>Name</th><th>Department</th><th>City</th></tr></thead>
<tbody id="rows"></tbody></table>
<p id="status"></p>
<button id="next" type="button">Next</button>
</main>
<script>
const depts = ['Sales', 'Engineering', 'Support', 'Finance', 'Legal'];
const cities = ['Lisbon', 'Oslo', 'Kyoto', 'Lima'];
const people = Array.from({ length: 60 }, (_, i) => [`Person ${i + 1}`, depts[i % 5], cities[i % 4]]);
let page = 0, size = 10;
function draw() {
  const body = document.createElement('tbody');
  body.id = 'rows';
  for (const p of people.slice(page * size, page * size + size)) {
    const tr = document.createElement('tr');
    for (const c of p) { const td = document.createElement('td'); td.textContent = c; tr.append(td); }
    body.append(tr);
  }
  document.getElementById('rows').replaceWith(body);
  document.getElementById('status').textContent = `Showing ${page * size + 1} to ${Math.min(60, page * size + size)} of 60`;
}
document.getElementById('next').onclick = () => { page += 1; draw(); };
document.getElementById('size').onclick = () => { page = 0; size = 40; draw(); };
draw();
</script></body></html>
"#;

fn call(e: &mut Engine, tool: &str, a: Value) -> String {
    let Value::Object(m) = a else { panic!() };
    let mut m: Map<String, Value> = m;
    m.insert(
        "expectation".into(),
        json!({"diffOptions": {"enabled": true}}),
    );
    let out = e.call(tool, m).unwrap();
    assert!(!out.is_error, "{tool} failed:\n{}", out.text);
    out.text
}

fn ref_of(text: &str, what: &str) -> String {
    let line = text
        .lines()
        .rfind(|l| l.contains(what))
        .unwrap_or_else(|| panic!("no {what} in\n{text}"));
    let r = line.split("[ref=").nth(1).unwrap();
    r[..r.find(']').unwrap()].to_owned()
}

#[test]
fn rows_of_earlier_pages_come_back_by_reference_after_a_full_read() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("grid.html"), PAGE).unwrap();
    let site = Site::serve(dir.path(), 0).unwrap();
    let mut e = Engine::new(EngineConfig::default()).unwrap();
    let first = call(
        &mut e,
        "browser_navigate",
        json!({"url": site.url("/grid.html")}),
    );
    let next = ref_of(&first, "button \"Next\"");
    let size = ref_of(&first, "button \"Show 40 per page\"");
    call(
        &mut e,
        "browser_click",
        json!({"ref": next, "element": "Next"}),
    );
    call(
        &mut e,
        "browser_click",
        json!({"ref": next, "element": "Next"}),
    );
    let full = call(&mut e, "browser_snapshot", json!({"full": true}));
    assert!(full.contains("Person 21"), "{full}");
    let big = call(
        &mut e,
        "browser_click",
        json!({"ref": size, "element": "page size"}),
    );
    assert!(big.contains("as last shown"), "{big}");
    // Pages 1 and 2 (shown before the full read) and 3 (in it) are not
    // printed again; rows 31–40 are new.
    for i in [1, 10, 11, 20, 21, 30] {
        assert!(
            !big.contains(&format!("\"Person {i}\"")),
            "row {i} re-sent:\n{big}"
        );
    }
    assert!(big.contains("\"Person 31\""), "{big}");
}
