//! Rust-side cost of fingerprints: parse + normalize + hash of a real
//! Chromium capture, and compare of two captures.
//!
//! `cargo bench -p response-diff --bench fingerprint_compare`

use criterion::{Criterion, criterion_group, criterion_main};
use response_diff::fingerprint::{Fingerprint, Severity, compare, normalize_text};
use std::hint::black_box;

fn fixture(name: &str) -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/fixtures/fingerprint/"
    );
    std::fs::read_to_string(format!("{path}{name}")).expect("fixture")
}

fn bench(c: &mut Criterion) {
    let dashboard = fixture("case01.before.json");
    let dynamic = fixture("case09.before.json");
    c.bench_function("fingerprint parse+normalize+hash (dashboard, 9 KB)", |b| {
        b.iter(|| Fingerprint::from_json(black_box(&dashboard)).unwrap())
    });
    c.bench_function("fingerprint parse+normalize+hash (dynamic page)", |b| {
        b.iter(|| Fingerprint::from_json(black_box(&dynamic)).unwrap())
    });
    let before = Fingerprint::from_json(&dashboard).unwrap();
    let covered = Fingerprint::from_json(&fixture("case08.after.json")).unwrap();
    let emptied = Fingerprint::from_json(&fixture("case05.after.json")).unwrap();
    c.bench_function("fingerprint compare (19 elements covered)", |b| {
        b.iter(|| compare(black_box(&before), black_box(&covered), Severity::Info))
    });
    c.bench_function("fingerprint compare (list emptied)", |b| {
        b.iter(|| compare(black_box(&before), black_box(&emptied), Severity::Info))
    });
    c.bench_function("fingerprint compare (identical)", |b| {
        b.iter(|| compare(black_box(&before), black_box(&before), Severity::Info))
    });
    c.bench_function("normalize_text (mixed dynamic text)", |b| {
        b.iter(|| {
            normalize_text(black_box(
                "Order #482913 placed 2026-01-23T10:30:45Z by 0f8fad5b-d9cb-469f-a165-70867728950e, 5 minutes ago",
            ))
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
