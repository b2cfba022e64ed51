//! Every crate's shape: no dependency that nothing uses, and no Rust file so long
//! that a reader cannot hold it (a file over the limit is two things; split it
//! where it changes subject).

use std::collections::BTreeSet;

use nimbot_tidy::{assert_none, entries, read, tracked_files};

/// The most lines a tracked Rust file may have.
const MOST_LINES: usize = 1_000;

/// Files still over [`MOST_LINES`], each with the issue that splits it: the list
/// only shrinks (a file that comes under the limit must leave it, a test below
/// says so).
const LONG_FILES: &[(&str, &str)] = &[];

#[test]
fn no_rust_file_is_over_the_limit() {
    let mut problems = Vec::new();
    for path in tracked_files().into_iter().filter(|p| p.ends_with(".rs")) {
        let lines = read(&path).lines().count();
        let allowed = LONG_FILES.iter().any(|(p, _)| *p == path);
        if lines > MOST_LINES && !allowed {
            problems.push(format!(
                "{path}: {lines} lines, more than {MOST_LINES}: split it where its subject changes"
            ));
        }
        if lines <= MOST_LINES && allowed {
            problems.push(format!(
                "{path}: {lines} lines now; take it off LONG_FILES (tools/tidy/tests/crates.rs)"
            ));
        }
    }
    for (path, _) in LONG_FILES {
        if !std::path::Path::new(&nimbot_tidy::root().join(path)).exists() {
            problems.push(format!("{path} is on LONG_FILES but gone: take it off"));
        }
    }
    assert_none("Rust files over the size limit", &problems);
}

/// The folder of a manifest (`""` for the root's).
fn folder(manifest: &str) -> &str {
    manifest.strip_suffix("Cargo.toml").unwrap_or("")
}

/// The Rust files that belong to the package of `manifest`: below its folder,
/// but not below a folder with a package of its own.
fn package_files(manifest: &str, all: &[String], packages: &BTreeSet<String>) -> Vec<String> {
    let top = folder(manifest);
    all.iter()
        .filter(|p| p.ends_with(".rs") && p.starts_with(top))
        .filter(|p| {
            // The nearest folder above the file with a manifest is this one's.
            let mut dir = p.rsplit_once('/').map_or("", |(d, _)| d).to_string();
            loop {
                let here = if dir.is_empty() {
                    "Cargo.toml".to_string()
                } else {
                    format!("{dir}/Cargo.toml")
                };
                if packages.contains(&here) {
                    return here == manifest;
                }
                match dir.rsplit_once('/') {
                    Some((up, _)) => dir = up.to_string(),
                    None if !dir.is_empty() => dir.clear(),
                    None => return false,
                }
            }
        })
        .cloned()
        .collect()
}

/// Whether `text` names the crate `ident` as Rust code does.
fn names(text: &str, ident: &str) -> bool {
    [
        format!("{ident}::"),
        format!("use {ident}"),
        format!("extern crate {ident}"),
    ]
    .iter()
    .any(|form| {
        text.match_indices(form.as_str()).any(|(at, _)| {
            // A whole word: not the tail of a longer name (`my_serde::`).
            let before = text[..at].chars().next_back();
            !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
        })
    })
}

/// Dependencies that no line of Rust names, for a reason the manifest gives.
const NAMED_ELSEWHERE: &[(&str, &str, &str)] = &[
    (
        "firmware/boards/pico/Cargo.toml",
        "cortex-m-rt",
        "its feature paint-stack, for the stack's high-water mark; the HAL names the crate",
    ),
    (
        "firmware/boards/hifive1/Cargo.toml",
        "embedded-io",
        "issue 46: to remove with a build of the board (the app names it)",
    ),
    (
        "firmware/boards/microbit/Cargo.toml",
        "embedded-io",
        "issue 46: to remove with a build of the board (the app names it)",
    ),
    (
        "firmware/boards/stm32vldiscovery/Cargo.toml",
        "embedded-io",
        "issue 46: to remove with a build of the board (the app names it)",
    ),
];

#[test]
fn every_dependency_is_used() {
    let all = tracked_files();
    let packages: BTreeSet<String> = all
        .iter()
        .filter(|p| *p == "Cargo.toml" || p.ends_with("/Cargo.toml"))
        .filter(|p| read(p).contains("[package]"))
        .cloned()
        .collect();
    let mut problems = Vec::new();
    for manifest in &packages {
        let text: String = package_files(manifest, &all, &packages)
            .iter()
            .map(|p| read(p))
            .collect::<Vec<_>>()
            .join("\n");
        for e in entries(&read(manifest)) {
            let table = e.table.as_str();
            if !table.ends_with("dependencies") || table.starts_with("workspace") {
                continue;
            }
            let key = e.key.split('.').next().unwrap_or(&e.key);
            let ident = key.replace('-', "_");
            // The root's dev-dependency on itself turns features on for its tests.
            if names(&text, &ident)
                || folder(manifest).is_empty() && key == "nimbot"
                || NAMED_ELSEWHERE
                    .iter()
                    .any(|(m, d, _)| m == manifest && *d == key)
            {
                continue;
            }
            problems.push(format!(
                "{manifest}: [{table}] {key} is named by no Rust file of the package: remove it"
            ));
        }
    }
    assert_none("unused dependencies", &problems);
}

#[test]
fn a_name_is_found_only_as_a_whole_crate_name() {
    assert!(names("use serde::Serialize;", "serde"));
    assert!(names("let v = serde_json::json!({});", "serde_json"));
    assert!(!names("let v = serde_json::json!({});", "json"));
    assert!(!names("my_serde::x()", "serde"));
    assert!(names("extern crate alloc;\nextern crate std;", "std"));
    assert!(!names("// serde is not named here", "serde"));
}
