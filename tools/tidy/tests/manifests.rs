//! The manifests outside the workspace (the firmware's app and boards, the tiny
//! binary, the embedding examples, the fuzz targets: workspaces of their own, which
//! cannot inherit the root's `[workspace.package]`) held to the root: the same
//! edition, rust-version and license, the workspace's lints, the shared
//! dependencies at the workspace's versions, and path dependencies that exist.

use std::collections::BTreeMap;

use nimbot_tidy::{assert_none, entries, read, root as repo, tracked_files};

/// The string value of `field` in an inline table (`{ version = "0.7", .. }`), or
/// the value itself when it is a plain string and `field` is `version`.
fn field(value: &str, name: &str) -> Option<String> {
    if let Some(inner) = value.strip_prefix('{') {
        for part in inner.trim_end_matches('}').split(',') {
            if let Some((k, v)) = part.split_once('=') {
                if k.trim() == name {
                    return Some(v.trim().trim_matches('"').to_string());
                }
            }
        }
        return None;
    }
    (name == "version" && value.starts_with('"')).then(|| value.trim_matches('"').to_string())
}

fn is_dependency_table(table: &str) -> bool {
    table.ends_with("dependencies")
}

/// The manifests of the separate workspaces: a `[package]` with its own
/// `[workspace]`, the root aside.
fn outside_manifests() -> Vec<String> {
    tracked_files()
        .into_iter()
        .filter(|p| p.ends_with("/Cargo.toml"))
        .filter(|p| {
            let text = read(p);
            text.contains("\n[package]") || text.starts_with("[package]")
        })
        .filter(|p| read(p).lines().any(|l| l.trim() == "[workspace]"))
        .collect()
}

/// What the root says every manifest shares.
struct Root {
    package: BTreeMap<String, String>,
    lints: Vec<(String, String, String)>,
    versions: BTreeMap<String, String>,
}

fn root_facts() -> Root {
    let text = read("Cargo.toml");
    let mut root = Root {
        package: BTreeMap::new(),
        lints: Vec::new(),
        versions: BTreeMap::new(),
    };
    for e in entries(&text) {
        match e.table.as_str() {
            "workspace.package"
                if ["edition", "rust-version", "license"].contains(&e.key.as_str()) =>
            {
                root.package.insert(e.key, e.value);
            }
            t if t.starts_with("workspace.lints.") => {
                root.lints
                    .push((t["workspace.".len()..].to_string(), e.key, e.value));
            }
            "workspace.dependencies" => {
                if let Some(v) = field(&e.value, "version") {
                    root.versions.insert(e.key, v);
                }
            }
            _ => {}
        }
    }
    assert_eq!(
        root.package.len(),
        3,
        "Cargo.toml: [workspace.package] lacks edition, rust-version or license"
    );
    assert!(!root.lints.is_empty(), "Cargo.toml: no [workspace.lints.*]");
    root
}

#[test]
fn the_outside_manifests_include_the_app_every_board_tiny_examples_and_fuzz() {
    let found = outside_manifests();
    let mut want: Vec<String> = ["firmware/app", "tiny", "examples", "fuzz"]
        .iter()
        .map(|d| format!("{d}/Cargo.toml"))
        .collect();
    for entry in std::fs::read_dir(repo().join("firmware/boards")).expect("firmware/boards/") {
        let dir = entry.expect("a directory entry").path();
        if dir.join("Cargo.toml").is_file() {
            let name = dir
                .file_name()
                .expect("a name")
                .to_string_lossy()
                .into_owned();
            want.push(format!("firmware/boards/{name}/Cargo.toml"));
        }
    }
    let missed: Vec<&String> = want.iter().filter(|w| !found.contains(w)).collect();
    assert!(
        missed.is_empty() && want.len() >= 10,
        "separate workspaces the check does not see (each needs [package] and its own [workspace]): {missed:?}"
    );
}

#[test]
fn every_outside_manifest_is_held_to_the_root() {
    let root = root_facts();
    let mut problems = Vec::new();
    for path in outside_manifests() {
        let es = entries(&read(&path));
        let get = |table: &str, key: &str| {
            es.iter()
                .find(|e| e.table == table && e.key == key)
                .map(|e| e.value.clone())
        };
        for (key, want) in &root.package {
            match get("package", key) {
                Some(v) if v == *want => {}
                Some(v) => problems.push(format!("{path}: {key} = {v}, the root's is {want}")),
                None => problems.push(format!("{path}: no {key} (the root's is {want})")),
            }
        }
        for (table, key, want) in &root.lints {
            match get(table, key) {
                Some(v) if v == *want => {}
                Some(v) => problems.push(format!(
                    "{path}: [{table}] {key} = {v}, the root's is {want}"
                )),
                None => problems.push(format!(
                    "{path}: [{table}] lacks {key} = {want} (the root's lint)"
                )),
            }
        }
        let dir = path.trim_end_matches("Cargo.toml");
        for e in es.iter().filter(|e| is_dependency_table(&e.table)) {
            let name = field(&e.value, "package").unwrap_or_else(|| e.key.clone());
            if let (Some(want), Some(have)) = (root.versions.get(&name), field(&e.value, "version"))
            {
                if *want != have {
                    problems.push(format!(
                        "{path}: {name} = \"{have}\", the workspace's is \"{want}\""
                    ));
                }
            }
            if let Some(p) = field(&e.value, "path") {
                if !repo().join(dir).join(&p).join("Cargo.toml").is_file() {
                    problems.push(format!("{path}: {name}'s path {p} has no Cargo.toml"));
                }
            }
        }
    }
    assert_none("outside manifests", &problems);
}

#[test]
fn the_manifest_reader_reads_inline_tables() {
    let es = entries("[package]\nedition = \"2021\"\n[dependencies]\na = { version = \"0.7\", path = \"../a\" }\nb = \"1\"\n");
    assert_eq!(es.len(), 3);
    assert_eq!(field(&es[1].value, "version").as_deref(), Some("0.7"));
    assert_eq!(field(&es[1].value, "path").as_deref(), Some("../a"));
    assert_eq!(field(&es[2].value, "version").as_deref(), Some("1"));
    assert_eq!(field(&es[0].value, "path"), None);
}
