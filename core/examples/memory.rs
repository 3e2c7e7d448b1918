//! Memory of a detector under its cap (`make bench`): 1,000 keys, each given
//! a 20 KB snapshot and then a changed one (about 40 MB in all through a
//! detector capped at 10 MiB). Prints JSON: the process's peak RSS (VmHWM,
//! Linux) before and after, the detector's own `memory_usage()` at its
//! highest, and whether it ever went above the cap.
//!
//! Run: `cargo run --release -p response-diff --example memory [-- KEYS BYTES]`.

use std::process::ExitCode;

use response_diff::diff::{DetectorConfig, DiffSettings, ResponseDiffDetector};

#[path = "../benches/inputs/mod.rs"]
mod inputs;

/// `VmHWM` / `VmRSS` from /proc/self/status, in KiB (None off Linux).
fn proc_kib(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let parse = |i: usize, default: usize| -> Result<usize, String> {
        match args.get(i) {
            None => Ok(default),
            Some(s) => s
                .parse()
                .map_err(|_| format!("argument {} must be a positive number, got {s:?}", i + 1)),
        }
    };
    let (keys, bytes) = match (parse(0, 1_000), parse(1, 20_000)) {
        (Ok(k), Ok(b)) if k > 0 && b > 0 => (k, b),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("usage: memory [KEYS] [BYTES]: {e}");
            return ExitCode::from(2);
        }
        _ => {
            eprintln!("usage: memory [KEYS] [BYTES]: both must be above 0");
            return ExitCode::from(2);
        }
    };
    let config = DetectorConfig::default();
    let cap = config.max_stored_bytes;
    let detector = ResponseDiffDetector::with_config(config);
    let settings = DiffSettings::default();
    let hwm_before = proc_kib("VmHWM:");
    let rss_before = proc_kib("VmRSS:");
    let mut peak_usage = 0usize;
    let mut over_cap = 0usize;
    let mut fed = 0usize;
    let start = std::time::Instant::now();
    for k in 0..keys {
        let key = format!("tab{k}");
        let old = inputs::page(bytes, &format!("Page {k}"));
        let new = old.replacen("section 3\"", "section 3 (sold out)\"", 1);
        for text in [&old, &new] {
            if let Err(e) = detector.detect(&key, text, &settings) {
                eprintln!("detect failed on {key}: {e}");
                return ExitCode::FAILURE;
            }
            fed += text.len();
            let used = detector.memory_usage();
            peak_usage = peak_usage.max(used);
            if used > cap {
                over_cap += 1;
            }
        }
    }
    let elapsed = start.elapsed();
    let json = serde_json::json!({
        "keys": keys,
        "bytesPerText": bytes,
        "bytesFed": fed,
        "capBytes": cap,
        "peakMemoryUsage": peak_usage,
        "finalMemoryUsage": detector.memory_usage(),
        "storedKeys": detector.len(),
        "callsOverCap": over_cap,
        "vmHwmKibBefore": hwm_before,
        "vmRssKibBefore": rss_before,
        "vmHwmKibAfter": proc_kib("VmHWM:"),
        "vmRssKibAfter": proc_kib("VmRSS:"),
        "seconds": elapsed.as_secs_f64(),
    });
    println!("{json:#}");
    if over_cap > 0 {
        eprintln!("the detector stored more than its cap on {over_cap} calls");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
