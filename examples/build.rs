//! Puts `memory.x` (the chip's memory map) where cortex-m-rt's `link.x` finds it,
//! for the bare-metal builds only.

use std::env;
use std::fs;
use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-changed=memory.x");
    if env::var("CARGO_CFG_TARGET_OS").as_deref() != Ok("none") {
        return;
    }
    let out = PathBuf::from(env::var_os("OUT_DIR").unwrap_or_default());
    let dir = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    if let Err(e) = fs::copy(dir.join("memory.x"), out.join("memory.x")) {
        eprintln!("error: cannot copy memory.x to {}: {e}", out.display());
        std::process::exit(1);
    }
    println!("cargo:rustc-link-search={}", out.display());
}
