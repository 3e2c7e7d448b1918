//! CPU time of one detector call on each `make bench` input: the thread's
//! own CPU clock, not the wall clock, so the number holds on a busy machine
//! (where criterion's wall-clock medians include the time the thread waited
//! for a core). Prints a markdown table; `make bench` keeps it beside the
//! criterion table as bench-out/detector-cpu.md. Each row also says what
//! the call answered, whether the diff search exhausted its work budget,
//! and whether the answer rebuilds the new text (a diff applied to the old
//! text, or the full text itself), and the floor on the same inputs (compare
//! the texts from both ends and split both into lines, as in
//! benches/detector.rs) with the call as a multiple of it.
//!
//! ```sh
//! cargo run --release -p response-diff --example detector_cpu
//! cargo run --release -p response-diff --example detector_cpu -- 2.6MB/different_page
//! ```
//!
//! An argument keeps the inputs whose `size/change` name contains it (to
//! profile one, e.g. under `perf record`).

use response_diff::diff::{DiffMode, DiffResult, DiffSettings, ResponseDiffDetector};

#[path = "../benches/inputs/mod.rs"]
mod inputs;

#[path = "support/thread_cpu.rs"]
mod thread_cpu;
use thread_cpu::thread_cpu_ns;

// The tests' strict unified-diff applier (only `apply_diff` is used here;
// the module allows its other helpers to go unused).
#[path = "../tests/common/mod.rs"]
mod common;

/// Whether `r` rebuilds `new` from `old`: a diff applied to the old text
/// (after its summary line), the full text, or no change of equal texts.
fn rebuilds(old: &str, new: &str, r: &DiffResult) -> bool {
    match r.mode {
        DiffMode::Diff => r
            .formatted_diff
            .split_once('\n')
            .and_then(|(_, body)| common::apply_diff(old, body))
            .is_some_and(|t| t == new),
        DiffMode::Full => r.formatted_diff.ends_with(new),
        DiffMode::Unchanged => old == new,
        _ => false,
    }
}

/// Minor page faults of this thread so far: a fresh multi-megabyte
/// allocation costs one per 4 KiB page touched, which shows in CPU time.
fn thread_minor_faults() -> i64 {
    // SAFETY: an all-zero rusage is valid and the call only writes into it.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `ru` is a valid, writable rusage for the call's duration.
    let rc = unsafe { libc::getrusage(libc::RUSAGE_THREAD, &mut ru) };
    assert_eq!(rc, 0, "getrusage(RUSAGE_THREAD) failed");
    ru.ru_minflt
}

fn fmt_ns(ns: u128) -> String {
    if ns >= 1_000_000 {
        format!("{:.2} ms", ns as f64 / 1e6)
    } else {
        format!("{:.1} µs", ns as f64 / 1e3)
    }
}

fn main() {
    let settings = DiffSettings {
        enabled: true,
        ..DiffSettings::default()
    };
    let only = std::env::args().nth(1).unwrap_or_default();
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "| input | change | detector CPU time (median) | floor CPU time (median) | detector ÷ floor | page faults (median) | runs | under 10 ms | answer | budget exhausted | rebuilds the new text |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---|---|---|---|");
    let mut slowest = (0u128, String::new());
    let mut exhausted_on = Vec::new();
    let cases = inputs::SIZES
        .iter()
        .flat_map(|&(size, bytes)| inputs::CHANGES.map(|c| (size, bytes, c)))
        .chain(inputs::LARGE_CHANGES.map(|c| (inputs::LARGE.0, inputs::LARGE.1, c)));
    for (size_name, bytes, change) in cases {
        let runs = if bytes > 1_000_000 { 15 } else { 51 };
        {
            if !format!("{size_name}/{change}").contains(&only) {
                continue;
            }
            let (old, new) = inputs::pair(bytes, change);
            let det = ResponseDiffDetector::new();
            let mut times = Vec::with_capacity(runs);
            let mut faults = Vec::with_capacity(runs);
            let mut last = None;
            let mut floors = Vec::with_capacity(runs);
            for _ in 0..runs {
                // A caller drops a result before its next call; one kept
                // would hold its texts (it defers their hashes), and the
                // store could not reuse their buffers.
                drop(last.take());
                let t = thread_cpu_ns();
                std::hint::black_box(inputs::floor(std::hint::black_box(&old), &new));
                floors.push(thread_cpu_ns() - t);
                det.store("tab", &old).unwrap();
                let f = thread_minor_faults();
                let t = thread_cpu_ns();
                let r = det.detect("tab", &new, &settings).unwrap();
                times.push(thread_cpu_ns() - t);
                faults.push(thread_minor_faults() - f);
                last = Some(std::hint::black_box(r));
            }
            let r: DiffResult = last.expect("at least one run");
            if r.metadata.budget_exhausted {
                exhausted_on.push(format!("{size_name} {change}"));
            }
            let (mode, exhausted, rebuilt) = (
                format!("{:?}", r.mode).to_lowercase(),
                if r.metadata.budget_exhausted {
                    "**yes**"
                } else {
                    "no"
                },
                if rebuilds(&old, &new, &r) {
                    "yes"
                } else {
                    "**NO**"
                },
            );
            times.sort_unstable();
            faults.sort_unstable();
            floors.sort_unstable();
            let median = times[runs / 2];
            let floor_ns = floors[runs / 2].max(1);
            if median > slowest.0 {
                slowest = (median, format!("{size_name} {change}"));
            }
            let under = if median < 10_000_000 { "yes" } else { "NO" };
            println!(
                "| {size_name} | {change} | {} | {} | {:.1}× | {} | {runs} | {under} | {mode} | {exhausted} | {rebuilt} |",
                fmt_ns(median),
                fmt_ns(floor_ns),
                median as f64 / floor_ns as f64,
                faults[runs / 2]
            );
        }
    }
    println!(
        "\nSlowest: {} ({}); load average at start: {}",
        fmt_ns(slowest.0),
        slowest.1,
        load.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );
    println!(
        "Budget exhausted on: {}.",
        if exhausted_on.is_empty() {
            "none of these inputs".to_owned()
        } else {
            exhausted_on.join(", ")
        }
    );
}
