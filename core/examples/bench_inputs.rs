//! Writes the benchmark's generated inputs as files, for timing whole
//! processes (the CLI against GNU `diff -u`, scripts/cli_vs_gnu.py):
//! `OUT/<change>.old` and `OUT/<change>.new` for each change kind at the
//! given size (default 7 MB).
//!
//! ```sh
//! cargo run --release -p response-diff --example bench_inputs -- bench-out/cli-inputs 7000000
//! ```

#[path = "../benches/inputs/mod.rs"]
mod inputs;

fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let out =
        std::path::PathBuf::from(args.next().unwrap_or_else(|| "bench-out/cli-inputs".into()));
    let bytes: usize = match args.next().map(|s| s.parse()) {
        None => 7_000_000,
        Some(Ok(n)) => n,
        Some(Err(e)) => {
            eprintln!("bench_inputs: the size must be a number of bytes ({e})");
            std::process::exit(2);
        }
    };
    std::fs::create_dir_all(&out)?;
    for change in inputs::CHANGES {
        let (old, new) = inputs::pair(bytes, change);
        std::fs::write(out.join(format!("{change}.old")), &old)?;
        std::fs::write(out.join(format!("{change}.new")), &new)?;
        println!(
            "{change}: {} and {} bytes, {} and {} lines",
            old.len(),
            new.len(),
            old.lines().count(),
            new.lines().count()
        );
    }
    Ok(())
}
