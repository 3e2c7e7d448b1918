//! CPU time of the tree diff of two 10,000-element trees (the `tree_diff`
//! bench's inputs, 1 % of the elements changed): the thread's own CPU
//! clock around each call, so the number holds on a busy machine where
//! criterion's wall-clock medians include time spent waiting for a core.
//! Prints a markdown table of medians.
//!
//! ```sh
//! cargo run --release -p response-diff --example tree_cpu
//! ```

use response_diff::tree::{IdentityMode, TreeDiffOptions, diff_with};

#[path = "../benches/tree_inputs/mod.rs"]
mod tree_inputs;

#[path = "support/thread_cpu.rs"]
mod thread_cpu;
use thread_cpu::thread_cpu_ns;

fn main() {
    let old = tree_inputs::page(10_000);
    let new = tree_inputs::changed(&old);
    let refs = TreeDiffOptions::default();
    let content = TreeDiffOptions {
        identity: IdentityMode::Content,
        ..TreeDiffOptions::default()
    };
    let runs = 31;
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "| tree diff, 10,000 elements, 1 % changed | CPU time (median) | fastest | slowest | runs |"
    );
    println!("|---|---:|---:|---:|---:|");
    let variants: [(&str, &dyn Fn() -> usize); 3] = [
        ("refs", &|| diff_with(&old, &new, &refs).changed.len()),
        ("content_hash", &|| {
            diff_with(&old, &new, &content).changed.len()
        }),
        ("refs_render_agent", &|| {
            diff_with(&old, &new, &refs).to_agent().len()
        }),
    ];
    for (name, f) in variants {
        f();
        let mut times: Vec<u128> = (0..runs)
            .map(|_| {
                let t = thread_cpu_ns();
                std::hint::black_box(f());
                thread_cpu_ns() - t
            })
            .collect();
        times.sort_unstable();
        let ms = |ns: u128| format!("{:.2} ms", ns as f64 / 1e6);
        println!(
            "| {name} | {} | {} | {} | {runs} |",
            ms(times[runs / 2]),
            ms(times[0]),
            ms(times[runs - 1])
        );
    }
    println!(
        "\nLoad average at start: {}.",
        load.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );
}
