//! Response diff speed: the detector end to end, the raw line-diff
//! engines it could be built on, and the floor, on generated
//! snapshot-like inputs. The floor is what any line diff of two texts
//! pays: compare them (from the front and from the back, each stopping at
//! its first difference) and split both into lines; the report gives each
//! case as a multiple of it.
//!
//! `make bench` runs this and prints a table of medians and ratios. The
//! line search is bounded by work (imara-diff's Myers, GNU diff's cost
//! limit), not time; these inputs size that bound: the slowest, 2.6 MB,
//! must stay under 10 ms in release (docs/LIMITS.md).

use std::hint::black_box;
use std::time::Duration;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
// The engine is not public API: `__internals` exists for this comparison.
use response_diff::__internals::{EngineOptions, LineDiff};
use response_diff::diff::{DiffSettings, ResponseDiffDetector};

mod inputs;

fn bench(c: &mut Criterion) {
    let settings = DiffSettings {
        enabled: true,
        ..DiffSettings::default()
    };
    let cases = inputs::SIZES
        .iter()
        .flat_map(|&(size, bytes)| inputs::CHANGES.map(|c| (size, bytes, c)))
        .chain(inputs::LARGE_CHANGES.map(|c| (inputs::LARGE.0, inputs::LARGE.1, c)));
    for (size_name, bytes, change) in cases {
        let (old, new) = inputs::pair(bytes, change);
        let id = format!("{size_name}/{change}");
        let mut g = c.benchmark_group(id);
        if bytes > 1_000_000 {
            // imara-diff's Histogram takes seconds on the large rewrites.
            g.sample_size(10);
        }
        let det = ResponseDiffDetector::new();
        g.bench_function("detector", |b| {
            b.iter_batched(
                || det.store("tab", &old).unwrap(),
                |_| black_box(det.detect("tab", black_box(&new), &settings).unwrap()),
                BatchSize::PerIteration,
            )
        });
        g.bench_function("engine", |b| {
            let opts = EngineOptions {
                ignore_whitespace: true,
                context: 3,
                ..EngineOptions::default()
            };
            b.iter(|| black_box(LineDiff::compute_with(&old, &new, &opts).added()))
        });
        // The reference crates take seconds on the large rewrites;
        // 2.6 MB already shows how they scale.
        let references = bytes <= 2_600_000;
        g.bench_function("floor", |b| {
            b.iter(|| black_box(inputs::floor(black_box(&old), black_box(&new))))
        });
        if !references {
            g.finish();
            continue;
        }
        g.bench_function("similar_lines", |b| {
            b.iter(|| {
                black_box(
                    similar::TextDiff::configure()
                        .algorithm(similar::Algorithm::Myers)
                        .diff_lines(old.as_str(), new.as_str())
                        .ops()
                        .len(),
                )
            })
        });
        g.bench_function("imara_histogram", |b| {
            b.iter(|| {
                let input = imara_diff::InternedInput::new(old.as_str(), new.as_str());
                let d = imara_diff::Diff::compute(imara_diff::Algorithm::Histogram, &input);
                black_box(d.count_additions())
            })
        });
        g.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_millis(1200));
    targets = bench
}
criterion_main!(benches);
