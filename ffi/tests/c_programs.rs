//! Builds the C test programs in tests/c with `gcc -Wall -Wextra -Werror`
//! against the static library and runs them under AddressSanitizer and
//! UndefinedBehaviorSanitizer, then again under valgrind (leak check).
//!
//! `test_bad_inputs` reads the shared bad-input matrix with jansson
//! (Debian's `libjansson-dev`, installed by `make setup`). Under valgrind it
//! skips only the matrix's 64 MiB cases (`RD_SKIP_HUGE`): each takes minutes
//! there, and the ASan run covers them.

use std::path::{Path, PathBuf};
use std::process::Command;

const PROGRAMS: &[&str] = &[
    "test_detector",
    "test_render",
    "test_errors",
    "test_fingerprint",
    "test_tree",
    "test_bad_inputs",
    "test_carry",
];

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// target/<profile>, where cargo puts libresponse_diff_ffi.a.
fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.parent().unwrap().parent().unwrap().to_path_buf()
}

/// `cargo test` does not refresh the static library, so build it with the
/// same cargo, profile and target directory first.
fn build_static_lib() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let mut cmd = Command::new(env!("CARGO"));
        cmd.args(["build", "--quiet", "-p", "response-diff-ffi", "--lib"]);
        if !cfg!(debug_assertions) {
            cmd.arg("--release");
        }
        let status = cmd.status().expect("cargo runs");
        assert!(status.success(), "building the static library failed");
    });
}

fn build(name: &str, sanitize: bool, out_dir: &Path) -> PathBuf {
    build_static_lib();
    let lib = profile_dir().join("libresponse_diff_ffi.a");
    assert!(
        lib.exists(),
        "{} is missing; build the ffi crate first",
        lib.display()
    );
    let out = out_dir.join(format!("{name}{}", if sanitize { "-asan" } else { "" }));
    let mut cmd = Command::new("gcc");
    cmd.args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-g", "-O1"]);
    if sanitize {
        cmd.args([
            "-fsanitize=address,undefined",
            "-fno-omit-frame-pointer",
            "-fno-sanitize-recover=all",
        ]);
    }
    cmd.arg("-I")
        .arg(crate_dir().join("../include"))
        .arg("-I")
        .arg(crate_dir().join("tests/c"))
        .arg(crate_dir().join(format!("tests/c/{name}.c")))
        .arg(&lib)
        .args(["-ljansson", "-lpthread", "-ldl", "-lm", "-o"])
        .arg(&out);
    let status = cmd.status().expect("gcc runs");
    assert!(status.success(), "gcc failed for {name}");
    out
}

/// Arguments of every C test: the diff, fingerprint and aria fixture folders.
fn fixture_args() -> [PathBuf; 3] {
    let f = crate_dir().join("../tests/fixtures");
    [f.join("diff"), f.join("fingerprint"), f.join("aria")]
}

fn out_dir() -> PathBuf {
    let d = profile_dir().join("c-tests");
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn c_programs_pass_under_asan_and_ubsan() {
    let dir = out_dir();
    for name in PROGRAMS {
        let exe = build(name, true, &dir);
        let out = Command::new(&exe)
            .args(fixture_args())
            .env("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=0")
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{name} failed:\n{stdout}\n{stderr}");
        assert!(stdout.contains(&format!("{name}: ok")), "{stdout}");
    }
}

#[test]
fn c_programs_pass_under_valgrind_without_leaks() {
    let dir = out_dir();
    for name in PROGRAMS {
        let exe = build(name, false, &dir);
        let out = Command::new("valgrind")
            .args([
                "--quiet",
                "--leak-check=full",
                "--show-leak-kinds=definite,indirect",
                "--errors-for-leak-kinds=definite,indirect",
                "--error-exitcode=99",
            ])
            .arg(&exe)
            .args(fixture_args())
            .env("RD_SKIP_HUGE", "1")
            .output()
            .expect("valgrind is installed (make setup installs it)");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success(),
            "{name} under valgrind:\n{stdout}\n{stderr}"
        );
    }
}

#[test]
fn readme_c_example_builds_and_diffs() {
    build_static_lib();
    let exe = out_dir().join("hello");
    let status = Command::new("gcc")
        .args(["-std=c11", "-Wall", "-Werror", "-I"])
        .arg(crate_dir().join("../include"))
        .arg(crate_dir().join("../examples/c/hello.c"))
        .arg(profile_dir().join("libresponse_diff_ffi.a"))
        .args(["-lpthread", "-ldl", "-lm", "-o"])
        .arg(&exe)
        .status()
        .unwrap();
    assert!(status.success());
    let out = Command::new(&exe).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(stdout.contains("\"mode\":\"diff\""), "{stdout}");
    assert!(
        stdout.contains("+  - listitem [ref=e22]: Product 21"),
        "{stdout}"
    );
}
