//! The golden corpus (tests/fixtures/golden-corpus.json, explained in
//! core/tests/golden_corpus.rs) through the C ABI: a C program
//! (tests/c/golden_corpus.c) runs every case with `rd_detector_detect` and
//! `rd_diff_format` and writes the outputs; this harness writes the inputs
//! for it and checks the outputs byte for byte (SHA-256 and the result's
//! fields). In release too: `cargo test --release -p response-diff-ffi
//! --test golden_corpus` links the release library.

#[path = "../../core/benches/inputs/mod.rs"]
mod inputs;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use sha2::{Digest, Sha256};

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.parent().unwrap().parent().unwrap().to_path_buf()
}

fn sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The static library of this profile, built by the same cargo (`cargo
/// test` does not refresh it), and the C program linked against it.
fn build_program(out_dir: &Path) -> PathBuf {
    let mut cmd = Command::new(env!("CARGO"));
    cmd.args(["build", "--quiet", "-p", "response-diff-ffi", "--lib"]);
    if !cfg!(debug_assertions) {
        cmd.arg("--release");
    }
    assert!(cmd.status().expect("cargo runs").success());
    let lib = profile_dir().join("libresponse_diff_ffi.a");
    let exe = out_dir.join("golden_corpus");
    let status = Command::new("gcc")
        .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-O1", "-I"])
        .arg(crate_dir().join("../include"))
        .arg("-I")
        .arg(crate_dir().join("tests/c"))
        .arg(crate_dir().join("tests/c/golden_corpus.c"))
        .arg(&lib)
        .args(["-lpthread", "-ldl", "-lm", "-o"])
        .arg(&exe)
        .status()
        .expect("gcc runs");
    assert!(status.success(), "gcc failed for golden_corpus.c");
    exe
}

/// The old and new text of a corpus case, from its name.
fn case_inputs(name: &str) -> (String, String) {
    let fixtures = crate_dir().join("../tests/fixtures");
    let parts: Vec<&str> = name.split('/').collect();
    match parts[..] {
        ["fixture", case, _format] => {
            let read = |side: &str| {
                std::fs::read_to_string(fixtures.join(format!("diff/{case}.{side}.yml"))).unwrap()
            };
            (read("before"), read("after"))
        }
        ["bench", size, change, _options] => {
            let bytes = inputs::SIZES
                .iter()
                .find(|(s, _)| *s == size)
                .unwrap_or_else(|| panic!("unknown size in {name}"))
                .1;
            inputs::pair(bytes, change)
        }
        _ => panic!("unknown case {name}"),
    }
}

#[test]
fn c_abi_matches_the_golden_corpus_byte_for_byte() {
    let corpus_path = crate_dir().join("../tests/fixtures/golden-corpus.json");
    let corpus: Value =
        serde_json::from_str(&std::fs::read_to_string(&corpus_path).unwrap()).unwrap();
    let cases = corpus["cases"].as_array().unwrap();
    let dir = tempfile_dir();
    for (i, case) in cases.iter().enumerate() {
        let (old, new) = case_inputs(case["name"].as_str().unwrap());
        std::fs::write(dir.join(format!("{i}.old")), &old).unwrap();
        std::fs::write(dir.join(format!("{i}.new")), &new).unwrap();
        std::fs::write(dir.join(format!("{i}.opts")), case["options"].to_string()).unwrap();
    }
    let exe = build_program(&dir);
    let out = Command::new(&exe)
        .arg(&dir)
        .arg(cases.len().to_string())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "golden_corpus.c failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let mut differ = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let name = case["name"].as_str().unwrap();
        let old = std::fs::read(dir.join(format!("{i}.old"))).unwrap();
        let new = std::fs::read(dir.join(format!("{i}.new"))).unwrap();
        assert_eq!(sha256(&old), case["oldSha256"], "{name}: old input");
        assert_eq!(sha256(&new), case["newSha256"], "{name}: new input");
        let result = std::fs::read_to_string(dir.join(format!("{i}.result.json"))).unwrap();
        let mut result: Value = serde_json::from_str(&result).unwrap();
        let formatted = result
            .as_object_mut()
            .unwrap()
            .remove("formattedDiff")
            .unwrap();
        let formatted = formatted.as_str().unwrap().as_bytes();
        let line_diff = std::fs::read(dir.join(format!("{i}.linediff"))).unwrap();
        let same = result == case["result"]
            && sha256(formatted) == case["formattedDiffSha256"]
            && formatted.len() as u64 == case["formattedDiffBytes"]
            && sha256(&line_diff) == case["lineDiffSha256"]
            && line_diff.len() as u64 == case["lineDiffBytes"];
        if !same {
            differ.push(name.to_owned());
        }
    }
    std::fs::remove_dir_all(&dir).ok();
    assert!(
        differ.is_empty(),
        "C ABI differs from the corpus: {differ:?}"
    );
}

/// A fresh folder under the target directory for the case files.
fn tempfile_dir() -> PathBuf {
    let d = profile_dir()
        .join("c-tests")
        .join(format!("golden-corpus-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}
