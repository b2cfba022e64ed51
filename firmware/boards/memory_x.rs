//! The build script of every board that brings its own memory map (each names it in
//! its `Cargo.toml`): puts the board's `memory.x` (the chip's memory map, next
//! to its `Cargo.toml`) where cortex-m-rt's `link.x` finds it.

use std::env;
use std::fs;
use std::path::PathBuf;

fn main() {
    let out = PathBuf::from(env::var_os("OUT_DIR").unwrap_or_default());
    let board = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    if let Err(e) = fs::copy(board.join("memory.x"), out.join("memory.x")) {
        eprintln!(
            "error: cannot copy {} to {}: {e}",
            board.join("memory.x").display(),
            out.display()
        );
        std::process::exit(1);
    }
    println!("cargo:rustc-link-search={}", out.display());
    println!("cargo:rerun-if-changed=memory.x");
    println!("cargo:rerun-if-changed=../memory_x.rs");
}
