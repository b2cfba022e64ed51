//! Puts `memory.x` (the chip's memory map) where cortex-m-rt's `link.x` finds it.

use std::env;
use std::fs;
use std::path::PathBuf;

fn main() {
    let out = PathBuf::from(env::var_os("OUT_DIR").unwrap_or_default());
    if let Err(e) = fs::write(out.join("memory.x"), include_bytes!("memory.x")) {
        eprintln!("error: cannot write memory.x to {}: {e}", out.display());
        std::process::exit(1);
    }
    println!("cargo:rustc-link-search={}", out.display());
    println!("cargo:rerun-if-changed=memory.x");
    println!("cargo:rerun-if-changed=build.rs");
}
