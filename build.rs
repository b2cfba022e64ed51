//! Chooses the table blob the core embeds (feature `default-table`):
//! `table/default.nimt`, or the file named by the `NIMBOT_TABLE` environment variable
//! at build time (absolute, or relative to this crate's root), e.g. one made by
//! `nimbot-table generate` for other limits. Without the feature nothing is embedded
//! (a crate of your own embeds its table with `Table::from_bytes(include_bytes!(..))`).
//!
//! It also says which build this is (`NIMBOT_BUILD`, read by `nimbot::BUILD`): the
//! commit and the embedded table's CRC-32, e.g. `commit 0123456789ab table 5e1f00c2`
//! (`commit 0123456789ab-dirty` when tracked files differ from it). The commit is
//! the `NIMBOT_COMMIT` environment variable when set (tools/release.sh sets it),
//! else what git says about this crate's own checkout, else `unknown` (a tarball
//! without `.git`, or no git): the build never fails for want of git.

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    // Without this line a build script that prints no rerun-if line runs again
    // (and the crate rebuilds) whenever any file of the package changes.
    println!("cargo:rerun-if-changed=build.rs");
    let root = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let commit = commit(&root);
    if env::var_os("CARGO_FEATURE_DEFAULT_TABLE").is_none() {
        println!("cargo:rustc-env=NIMBOT_BUILD=commit {commit} table none");
        return;
    }
    println!("cargo:rerun-if-env-changed=NIMBOT_TABLE");
    let path = match env::var_os("NIMBOT_TABLE") {
        Some(p) if !p.is_empty() => root.join(p),
        _ => root.join("table").join("default.nimt"),
    };
    println!("cargo:rerun-if-changed={}", path.display());
    // Catch the obvious mistakes here; the full check (checksum, every field) runs
    // when the table is opened.
    let crc = match fs::read(&path) {
        // The file's last four bytes are the CRC-32 of the rest (table/FORMAT.md),
        // the number `nimbot-table info` prints.
        Ok(bytes) if bytes.starts_with(b"NIMT") && bytes.len() >= 8 => {
            let tail = bytes.get(bytes.len() - 4..).unwrap_or_default();
            u32::from_le_bytes(tail.try_into().unwrap_or_default())
        }
        Ok(_) => fail(&format!(
            "{} is not a nimbot table (no NIMT magic)",
            path.display()
        )),
        Err(e) => fail(&format!("cannot read the table {}: {e}", path.display())),
    };
    println!("cargo:rustc-env=NIMBOT_TABLE_FILE={}", path.display());
    println!("cargo:rustc-env=NIMBOT_BUILD=commit {commit} table {crc:08x}");
}

/// The commit: `NIMBOT_COMMIT`, else git's HEAD (12 hex digits, `-dirty` when a
/// tracked file differs) when this crate's folder is the top of a git checkout,
/// else `unknown`.
fn commit(root: &Path) -> String {
    println!("cargo:rerun-if-env-changed=NIMBOT_COMMIT");
    if let Some(c) = env::var("NIMBOT_COMMIT").ok().filter(|c| !c.is_empty()) {
        return c;
    }
    let git = |args: &[&str]| -> Option<String> {
        let out = Command::new("git")
            .arg("-C")
            .arg(root)
            .args(args)
            .output()
            .ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
    };
    // Only this crate's own checkout: a tarball unpacked inside another repository
    // must not take that repository's commit.
    let top = git(&["rev-parse", "--show-toplevel"]).map(PathBuf::from);
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    let Some(head) = top
        .filter(|t| same(t, root))
        .and_then(|_| git(&["rev-parse", "--short=12", "HEAD"]))
    else {
        return "unknown".into();
    };
    // Run again when HEAD moves (a commit, a checkout); the dirty mark is as of
    // the last time this script ran.
    for name in ["HEAD", "packed-refs"] {
        if let Some(p) = git(&["rev-parse", "--git-path", name]) {
            println!("cargo:rerun-if-changed={}", root.join(p).display());
        }
    }
    if let Some(r) = git(&["symbolic-ref", "-q", "HEAD"]) {
        if let Some(p) = git(&["rev-parse", "--git-path", &r]) {
            println!("cargo:rerun-if-changed={}", root.join(p).display());
        }
    }
    let dirty =
        git(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
    if dirty {
        format!("{head}-dirty")
    } else {
        head
    }
}

fn fail(msg: &str) -> ! {
    eprintln!("error: {msg}");
    eprintln!("       set NIMBOT_TABLE to a blob made by `nimbot-table generate`, or unset it");
    std::process::exit(1);
}
