//! Replays the ffi_json fuzz target's inputs through the same calls the
//! fuzzer makes (fuzz/src/ffi_checks.rs): every input that ever made it
//! fail (tests/fixtures/fuzz-regressions/ffi_json/, saved by `make fuzz`)
//! and the committed seeds (fuzz/seeds/ffi_json/).

#[path = "../../fuzz/src/ffi_checks.rs"]
mod checks;

use std::path::{Path, PathBuf};

fn inputs(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(entries) => entries.map(|e| e.unwrap().path()).collect(),
        Err(_) => Vec::new(),
    };
    files.sort();
    files
}

#[test]
fn ffi_json() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let seeds = inputs(&repo.join("fuzz/seeds/ffi_json"));
    assert!(!seeds.is_empty(), "fuzz/seeds/ffi_json has no seeds");
    let found = inputs(&repo.join("tests/fixtures/fuzz-regressions/ffi_json"));
    let seed_count = seeds.len();
    for (i, path) in seeds.into_iter().chain(found).enumerate() {
        let data = std::fs::read(&path).unwrap();
        let name = path.display().to_string();
        let is_seed = i < seed_count;
        // The fuzzer's main thread has 8 MiB of stack; so does this one.
        let run = std::thread::Builder::new()
            .name(name.clone())
            .stack_size(8 << 20)
            .spawn(move || checks::ffi_json(&data))
            .unwrap()
            .join();
        let refused =
            run.unwrap_or_else(|_| panic!("{name} failed its fuzz check (message above)"));
        // Seeds are valid calls, so they reach the checks of the output.
        assert!(!is_seed || refused == 0, "{name}: {refused} calls refused");
    }
}
