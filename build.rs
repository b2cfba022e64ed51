//! Chooses the table blob the core embeds (feature `default-table`):
//! `table/default.nimt`, or the file named by the `NIMBOT_TABLE` environment variable
//! at build time (absolute, or relative to this crate's root), e.g. one made by
//! `nimbot-table generate` for other limits. Without the feature nothing is embedded
//! (a crate of your own embeds its table with `Table::from_bytes(include_bytes!(..))`).

use std::env;
use std::fs;
use std::path::PathBuf;

fn main() {
    // Without this line a build script that prints no rerun-if line runs again
    // (and the crate rebuilds) whenever any file of the package changes.
    println!("cargo:rerun-if-changed=build.rs");
    if env::var_os("CARGO_FEATURE_DEFAULT_TABLE").is_none() {
        return;
    }
    println!("cargo:rerun-if-env-changed=NIMBOT_TABLE");
    let root = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let path = match env::var_os("NIMBOT_TABLE") {
        Some(p) if !p.is_empty() => root.join(p),
        _ => root.join("table").join("default.nimt"),
    };
    println!("cargo:rerun-if-changed={}", path.display());
    // Catch the obvious mistakes here; the full check (checksum, every field) runs
    // when the table is opened.
    match fs::read(&path) {
        Ok(bytes) if bytes.starts_with(b"NIMT") => {}
        Ok(_) => fail(&format!(
            "{} is not a nimbot table (no NIMT magic)",
            path.display()
        )),
        Err(e) => fail(&format!("cannot read the table {}: {e}", path.display())),
    }
    println!("cargo:rustc-env=NIMBOT_TABLE_FILE={}", path.display());
}

fn fail(msg: &str) -> ! {
    eprintln!("error: {msg}");
    eprintln!("       set NIMBOT_TABLE to a blob made by `nimbot-table generate`, or unset it");
    std::process::exit(1);
}
