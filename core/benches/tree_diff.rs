//! Tree diff of two 10,000-element trees with 1 % of the elements changed
//! (docs/DECISIONS.md D25: under 10 ms). Run: `cargo bench -p response-diff --bench tree_diff`.

use criterion::{Criterion, criterion_group, criterion_main};
use response_diff::tree::{
    CarrierConfig, IdentityMode, MAX_PATCH_BYTES, PAGE_VIEWS, PatchOptions, RefCarrier,
    TreeDiffOptions, diff_with, parse_aria, parse_devtools, snapshot_patch, snapshot_patch_with,
};
use std::hint::black_box;

mod tree_inputs;
use tree_inputs::{changed, page};

fn bench(c: &mut Criterion) {
    let old = page(10_000);
    assert!(old.len() >= 10_000);
    let new = changed(&old);
    let d = diff_with(&old, &new, &TreeDiffOptions::default());
    eprintln!(
        "old {} elements, new {}; {} added, {} removed, {} changed, {} unchanged",
        old.len(),
        new.len(),
        d.added.len(),
        d.removed.len(),
        d.changed.len(),
        d.unchanged_count
    );
    let mut g = c.benchmark_group("tree_diff_10k_1pct");
    g.bench_function("refs", |b| {
        b.iter(|| {
            diff_with(
                black_box(&old),
                black_box(&new),
                &TreeDiffOptions::default(),
            )
        })
    });
    let content = TreeDiffOptions {
        identity: IdentityMode::Content,
        ..TreeDiffOptions::default()
    };
    g.bench_function("content_hash", |b| {
        b.iter(|| diff_with(black_box(&old), black_box(&new), &content))
    });
    g.bench_function("refs_render_agent", |b| {
        b.iter(|| {
            diff_with(
                black_box(&old),
                black_box(&new),
                &TreeDiffOptions::default(),
            )
            .to_agent()
        })
    });
    g.bench_function("blake3_20k_small", |b| {
        let buf = [7u8; 56];
        b.iter(|| {
            let mut acc = 0u8;
            for i in 0..20_000u32 {
                let mut x = buf;
                x[..4].copy_from_slice(&i.to_le_bytes());
                acc ^= blake3::hash(black_box(&x)).as_bytes()[0];
            }
            acc
        })
    });
    g.finish();
    let text = old.to_aria();
    let mut g = c.benchmark_group("aria_10k");
    g.bench_function("parse", |b| {
        b.iter(|| parse_aria(black_box(&text), false).unwrap())
    });
    g.bench_function("print", |b| b.iter(|| black_box(&old).to_aria()));
    g.finish();
    // What a rendered snapshot section pays for a patch at the largest size
    // it tries one (parse both texts, diff, write the patch, check that it
    // rebuilds the new text): the 10 ms bar of docs/DECISIONS.md D25 applies.
    let mut n = 1_000;
    while page(n + 100).to_aria().len() <= MAX_PATCH_BYTES {
        n += 100;
    }
    let (small, small_new) = (page(n), changed(&page(n)));
    let (text, new_text) = (small.to_aria(), small_new.to_aria());
    let p = snapshot_patch(&text, &new_text).expect("a patch at the cap");
    eprintln!(
        "snapshot patch at the cap ({} elements, {} KB): {}, {} bytes",
        small.len(),
        text.len() / 1024,
        p.summary(),
        p.text.len()
    );
    // Four flat grids of 300 cells each re-sorted (chrome-devtools-mcp's
    // gridjs, 32 KB): every grid is a busy parent, so the writer also tries
    // re-sending each alone and those that helped together.
    let grids = |sorted: bool| {
        let mut s = String::from("uid=1_0 RootWebArea \"People\" url=\"http://127.0.0.1/\"\n");
        for g in 0..4 {
            s.push_str(&format!("  uid=2_{g} main\n"));
            for k in 0..300 {
                let j = if sorted { (k * 7 + 3) % 300 } else { k };
                s.push_str(&format!("    uid=3_{} \"Cell {j}\"\n", g * 1000 + j));
            }
        }
        s
    };
    let (unsorted, sorted) = (grids(false), grids(true));
    // 2,000 operations of an API-docs page, 500 of them opened (a state
    // each, said `~ [ref] +expanded`, or the whole line before D71).
    let ops = |open: bool| {
        let mut s = String::from("- main [ref=e1]:");
        for k in 0..2000 {
            let state = if open && k % 4 == 0 {
                " [expanded]"
            } else {
                ""
            };
            s.push_str(&format!(
                "\n  - button \"GET /pets/{k}.json Info for pet {k}\"{state} [ref=e{}]",
                k + 2
            ));
        }
        s
    };
    let (closed, opened) = (ops(false), ops(true));
    // 500 todos shown with their delete buttons (hovered), filtered out,
    // then back without them: each row restored less its button (D72),
    // or printed again before.
    let todos = |rows: bool, buttons: bool| {
        let mut s = String::from("- list [ref=e1]");
        if rows {
            s.push(':');
        }
        for k in (0..500).filter(|_| rows) {
            let r = 10 + k * 5;
            s.push_str(&format!(
                "\n  - listitem [ref=e{r}]:\n    - generic [ref=e{}]:\n      - checkbox [ref=e{}]\n      - generic [ref=e{}]: Todo number {k} to do",
                r + 1,
                r + 2,
                r + 3
            ));
            if buttons {
                s.push_str(&format!("\n      - button \"Delete\" [ref=e{}]", r + 4));
            }
        }
        s
    };
    let (hovered, none, back) = (todos(true, true), todos(false, false), todos(true, false));
    let seen = PatchOptions::seen(vec![hovered.as_str(), none.as_str()]);
    let mut g = c.benchmark_group("aria");
    g.bench_function("snapshot_patch_500_rows_back_less_a_button", |b| {
        b.iter(|| snapshot_patch_with(black_box(&none), black_box(&back), black_box(&seen)))
    });
    g.bench_function("snapshot_patch_500_states_flipped", |b| {
        b.iter(|| snapshot_patch(black_box(&closed), black_box(&opened)))
    });
    g.bench_function("snapshot_patch_at_the_cap", |b| {
        b.iter(|| snapshot_patch(black_box(&text), black_box(&new_text)))
    });
    g.bench_function("snapshot_patch_four_busy_grids", |b| {
        b.iter(|| snapshot_patch(black_box(&unsorted), black_box(&sorted)))
    });
    g.finish();
    // Carrying refs as the proxy does (a view per page, node ids stable):
    // the real grid session through chrome-devtools-mcp (12 snapshots of
    // one flat run of text cells), and a flat grid of 1,200 cells whose
    // departments and cities repeat, re-rendered with new uids in three
    // orders, where every look-alike is placed by its neighbours.
    let session: Vec<_> = (1..=12)
        .map(|i| {
            let path = format!(
                "{}/../tests/fixtures/carry/devtools-grid-session/{i:02}.txt",
                env!("CARGO_MANIFEST_DIR")
            );
            parse_devtools(&std::fs::read_to_string(path).unwrap()).unwrap()
        })
        .collect();
    let flat = |snap: usize, order: usize| {
        let mut s = String::from("uid=1_0 RootWebArea \"People\" url=\"http://127.0.0.1/\"\n");
        s.push_str(&format!("  uid={snap}_1 complementary\n"));
        for k in 0..300 {
            let row = (k * (2 * order + 1) + order * 17) % 300;
            let cells = [
                format!("Person {row}"),
                ["Sales", "Support", "Legal", "Finance", "Engineering"][row % 5].to_owned(),
                ["Lima", "Oslo", "Kyoto", "Lagos", "Austin", "Lisbon"][row % 6].to_owned(),
                format!("${},000", 40 + row),
            ];
            for (c, t) in cells.iter().enumerate() {
                s.push_str(&format!("    uid={snap}_{} \"{t}\"\n", 2 + k * 4 + c));
            }
        }
        parse_devtools(&s).unwrap()
    };
    let orders: Vec<_> = (0..3).map(|o| flat(o + 2, o)).collect();
    let config = || {
        CarrierConfig::pages()
            .views_per_key(PAGE_VIEWS)
            .stable_ids(true)
    };
    let mut g = c.benchmark_group("carry");
    g.bench_function("devtools_grid_session_12_steps", |b| {
        b.iter(|| {
            let c = RefCarrier::with_config(config());
            for t in &session {
                black_box(c.carry("p", t).unwrap());
            }
        })
    });
    g.bench_function("flat_grid_1200_cells_three_orders", |b| {
        b.iter(|| {
            let c = RefCarrier::with_config(config());
            for t in &orders {
                black_box(c.carry("p", t).unwrap());
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
