//! Helpers for the tidy test (`tests/tidy.rs`): reading the repository's files and
//! its manifests without building anything.
//!
//! The test fails when a fact kept in two places drifts: the crates the README
//! lists against the manifests, the dependency picture against the real
//! dependencies, and the other checks `tests/tidy.rs` names.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository's top folder.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the repository's top folder")
}

/// The text of a file of the repository (`path` relative to the top).
pub fn read(path: &str) -> String {
    let full = root().join(path);
    fs::read_to_string(&full).unwrap_or_else(|e| panic!("cannot read {}: {e}", full.display()))
}

/// The files git tracks (paths relative to the top), or, outside a git checkout,
/// every file below the top but `target/` folders and `.git`; symbolic links
/// (the `repo` links of tiny/ and the boards) left out either way.
pub fn tracked_files() -> Vec<String> {
    let top = root();
    let out = Command::new("git")
        .arg("-C")
        .arg(&top)
        .args(["ls-files", "-z"])
        .output();
    if let Ok(out) = out {
        if out.status.success() && !out.stdout.is_empty() {
            return out
                .stdout
                .split(|&b| b == 0)
                .filter(|p| !p.is_empty())
                .map(|p| String::from_utf8_lossy(p).into_owned())
                .filter(|p| !top.join(p).is_symlink())
                .collect();
        }
    }
    files_below(&top, &top)
}

/// Every file below `dir` (paths relative to `top`), `target/` folders and `.git`
/// left out; none when `dir` cannot be listed.
pub fn files_below(top: &Path, dir: &Path) -> Vec<String> {
    let mut files = Vec::new();
    walk(top, dir, &mut files);
    files
}

fn walk(top: &Path, dir: &Path, files: &mut Vec<String>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        // Symbolic links are not followed: tiny/repo and each board's repo link back
        // to the repository's root (docs/release.md) and would make the walk endless.
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if name == "target" || name == ".git" || kind.is_symlink() {
            continue;
        }
        if kind.is_dir() {
            walk(top, &path, files);
        } else if let Ok(rel) = path.strip_prefix(top) {
            files.push(rel.to_string_lossy().into_owned());
        }
    }
}

/// Fails the calling test when it found problems: `what` is wrong, then each
/// problem on a line of its own.
#[track_caller]
pub fn assert_none(what: &str, problems: &[String]) {
    assert!(problems.is_empty(), "{what}:\n{}", problems.join("\n"));
}

/// What the tidy test needs of a `Cargo.toml`: the package's name and the
/// project's own crates (`nimbot*`) it depends on, in any dependency table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Manifest {
    /// The manifest's path, relative to the top.
    pub path: String,
    /// `[package] name`.
    pub name: String,
    /// The `nimbot*` crates named in `[dependencies]` or `[build-dependencies]`.
    pub deps: BTreeSet<String>,
    /// The `nimbot*` crates named in `[dev-dependencies]` only.
    pub dev_deps: BTreeSet<String>,
}

/// One `key = value` of a manifest: its table (`package`, `lints.rust`,
/// `target.'cfg(..)'.dependencies`, ..), key and raw value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The table it stands in, without brackets.
    pub table: String,
    /// The key (dotted keys as written).
    pub key: String,
    /// The raw value, trimmed.
    pub value: String,
}

/// Every `key = value` of a manifest's text. The manifests are plain (one key a
/// line, tables in brackets, inline tables on one line), which this line reader
/// expects; continuation lines of arrays are skipped.
pub fn entries(text: &str) -> Vec<Entry> {
    let mut table = String::new();
    let mut out = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        if line.starts_with('[') {
            table = line.trim_matches(|c| c == '[' || c == ']').to_string();
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let key = key.trim();
        if key.is_empty() || key.contains(' ') || key.starts_with('"') {
            continue;
        }
        out.push(Entry {
            table: table.clone(),
            key: key.to_string(),
            value: value.trim().to_string(),
        });
    }
    out
}

/// Reads the few keys the tidy test needs from a manifest's text ([`entries`]);
/// a manifest it cannot read fails the test rather than being skipped.
pub fn parse_manifest(path: &str, text: &str) -> Option<Manifest> {
    let mut name = None;
    let mut deps = BTreeSet::new();
    let mut dev_deps = BTreeSet::new();
    for e in entries(text) {
        match e.table.as_str() {
            "package" if e.key == "name" => name = Some(e.value.trim_matches('"').to_string()),
            table @ ("dependencies" | "build-dependencies" | "dev-dependencies") => {
                let crate_name = e.key.split('.').next().unwrap_or(&e.key);
                if crate_name.starts_with("nimbot") {
                    if table == "dev-dependencies" {
                        dev_deps.insert(crate_name.to_string());
                    } else {
                        deps.insert(crate_name.to_string());
                    }
                }
            }
            _ => {}
        }
    }
    // A crate's dev-dependency on itself (to turn on features for its tests) and a
    // dev-dependency that is also a normal one say nothing new.
    let name = name?;
    dev_deps.remove(&name);
    dev_deps.retain(|d| !deps.contains(d));
    Some(Manifest {
        path: path.to_string(),
        name,
        deps,
        dev_deps,
    })
}

/// Every package manifest of the repository (the workspace's members and the
/// separate workspaces: tiny, fuzz, examples, each board), fuzz corpora aside.
pub fn manifests() -> Vec<Manifest> {
    let mut out = Vec::new();
    for path in tracked_files() {
        if !(path == "Cargo.toml" || path.ends_with("/Cargo.toml")) {
            continue;
        }
        let text = read(&path);
        if !text.contains("[package]") {
            continue;
        }
        match parse_manifest(&path, &text) {
            Some(m) => out.push(m),
            None => panic!("{path}: a [package] without a name"),
        }
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}
