//! The committed header must equal what cbindgen generates from the source.
//! Regenerate with `UPDATE_HEADER=1 cargo test -p response-diff-ffi --test header`.

use std::path::PathBuf;

#[test]
fn committed_header_matches_the_source() {
    let crate_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml")).unwrap();
    let mut generated = Vec::new();
    cbindgen::Builder::new()
        .with_crate(&crate_dir)
        .with_config(config)
        .generate()
        .expect("cbindgen parses the ffi crate")
        .write(&mut generated);
    let generated = String::from_utf8(generated).unwrap();
    let path = crate_dir.join("../include/response_diff.h");
    if std::env::var_os("UPDATE_HEADER").is_some() {
        std::fs::write(&path, &generated).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "include/response_diff.h is out of date; run `UPDATE_HEADER=1 cargo test -p response-diff-ffi --test header` and commit it"
    );
}
