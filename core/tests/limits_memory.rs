//! The detector's store cap, measured: a detector fed far more than its
//! 10 MiB cap, in 2,000 keys of varied sizes, must keep the process's
//! resident memory within a stated bound of the cap — not only report a
//! `memory_usage()` under it. Linux only (it reads /proc/self/status). One
//! test in its own binary, so nothing else allocates meanwhile.
#![cfg(target_os = "linux")]

use response_diff::diff::{DEFAULT_MAX_STORED_BYTES, DiffSettings, ResponseDiffDetector};

/// `VmRSS` or `VmHWM` of this process, in bytes.
fn status_kib(field: &str) -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status
        .lines()
        .find(|l| l.starts_with(field))
        .unwrap_or_else(|| panic!("{field} missing from /proc/self/status"));
    let kib: usize = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kib * 1024
}

/// Resident memory may exceed the cap by this much: the allocator keeps
/// freed pages and fragments, and the diff of the largest texts needs
/// working space. Stated in docs/LIMITS.md.
const SLACK: usize = DEFAULT_MAX_STORED_BYTES;

#[test]
fn resident_memory_stays_within_a_bound_of_the_cap() {
    const MIB: f64 = 1024.0 * 1024.0;
    let detector = ResponseDiffDetector::new();
    let settings = DiffSettings::default();
    // Warm up the allocator and the diff code paths before measuring.
    detector
        .detect("warm", &"x\n".repeat(1000), &settings)
        .unwrap();
    detector.clear_all();
    let base = status_kib("VmRSS");

    let mut fed = 0usize;
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for round in 0..2 {
        for i in 0..2_000usize {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            // 200 B to 64 KiB of snapshot-like lines; every text differs.
            let bytes = 200 + (seed % (64 * 1024)) as usize;
            let line = format!("- listitem [ref=e{i}]: round {round} item {i} {seed:x}\n");
            let text = line.repeat(bytes / line.len() + 1);
            fed += text.len();
            detector
                .detect(&format!("tab-{i}/section-{}", i % 7), &text, &settings)
                .unwrap();
            assert!(detector.memory_usage() <= DEFAULT_MAX_STORED_BYTES);
        }
    }
    let rss = status_kib("VmRSS");
    let growth = rss.saturating_sub(base);
    eprintln!(
        "fed {:.1} MiB into a {:.0} MiB detector: memory_usage {:.2} MiB, RSS growth {:.2} MiB (bound {:.0} MiB), VmHWM {:.1} MiB",
        fed as f64 / MIB,
        DEFAULT_MAX_STORED_BYTES as f64 / MIB,
        detector.memory_usage() as f64 / MIB,
        growth as f64 / MIB,
        (DEFAULT_MAX_STORED_BYTES + SLACK) as f64 / MIB,
        status_kib("VmHWM") as f64 / MIB,
    );
    assert!(fed > 10 * DEFAULT_MAX_STORED_BYTES, "fed only {fed} bytes");
    assert!(
        detector.memory_usage() > DEFAULT_MAX_STORED_BYTES / 2,
        "the store should be near its cap"
    );
    assert!(
        growth <= DEFAULT_MAX_STORED_BYTES + SLACK,
        "resident memory grew {growth} bytes for a {DEFAULT_MAX_STORED_BYTES}-byte cap"
    );
    // Clearing gives the memory back to the allocator (RSS may keep it).
    detector.clear_all();
    assert_eq!(detector.memory_usage(), 0);
}
