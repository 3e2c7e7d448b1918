//! Tree diff of two 10,000-element trees with 1 % of the elements changed
//! (docs/DECISIONS.md D25: under 10 ms). Run: `cargo bench -p response-diff --bench tree_diff`.

use criterion::{Criterion, criterion_group, criterion_main};
use response_diff::tree::{
    Element, IdentityMode, MAX_PATCH_BYTES, State, Tree, TreeDiffOptions, diff_with, parse_aria,
    snapshot_patch,
};
use std::hint::black_box;

/// A shop-like page: sections of product lists, each item an article with a
/// heading, two paragraphs, a link and a button; refs numbered in order.
fn page(elements: usize) -> Tree {
    let mut n = 0usize;
    let mut next_ref = || {
        n += 1;
        Some(format!("e{n}"))
    };
    let mut roots = Vec::new();
    let mut count = 0;
    let mut section = 0;
    while count < elements {
        section += 1;
        let mut list = Element::new("list", format!("Section {section}"));
        list.aria_ref = next_ref();
        count += 1;
        for item in 0..20 {
            if count >= elements {
                break;
            }
            let mut li = Element::new("listitem", "");
            li.aria_ref = next_ref();
            let mut article = Element::new("article", format!("Product {section}-{item}"));
            article.aria_ref = next_ref();
            let mut h = Element::new("heading", format!("Product {section}-{item}"));
            h.states.push(State::with_value("level", "2"));
            h.aria_ref = next_ref();
            let mut price = Element::new("paragraph", "");
            price.value = Some(format!("${}.99", item + 10));
            price.aria_ref = next_ref();
            let mut stock = Element::new("paragraph", "");
            stock.value = Some("In stock".into());
            stock.aria_ref = next_ref();
            let mut link = Element::new("link", "Details");
            link.aria_ref = next_ref();
            link.states.push(State::with_value("cursor", "pointer"));
            link.props.push(response_diff::tree::Prop::new(
                "url",
                format!("/p/{section}/{item}"),
            ));
            let mut button = Element::new("button", "Add to cart");
            button.aria_ref = next_ref();
            article.children = vec![h, price, stock, link, button];
            li.children.push(article);
            list.children.push(li);
            count += 7;
        }
        roots.push(list);
    }
    Tree::new(roots)
}

/// 1 % of the elements changed: values, renames, removals and insertions.
fn changed(old: &Tree) -> Tree {
    let mut new = old.clone();
    let total = old.len();
    let mut budget = total / 100;
    let mut fresh = 1_000_000;
    for (li_n, list) in new.roots.iter_mut().enumerate() {
        if budget == 0 {
            break;
        }
        if li_n % 3 != 0 {
            continue;
        }
        // a value change, a rename, a removed item (8 elements), an inserted item.
        let first = &mut list.children[0].children[0];
        first.children[1].value = Some("$1.00".into());
        first.children[4].name = "Added".into();
        budget = budget.saturating_sub(2);
        if list.children.len() > 5 && budget >= 16 {
            list.children.remove(3);
            let mut li = Element::new("listitem", "");
            li.aria_ref = Some(format!("e{fresh}"));
            fresh += 1;
            let mut b = Element::new("button", "New offer");
            b.aria_ref = Some(format!("e{fresh}"));
            fresh += 1;
            li.children.push(b);
            list.children.insert(7, li);
            budget -= 10;
        }
    }
    new
}

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
    let mut g = c.benchmark_group("aria");
    g.bench_function("snapshot_patch_at_the_cap", |b| {
        b.iter(|| snapshot_patch(black_box(&text), black_box(&new_text)))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
