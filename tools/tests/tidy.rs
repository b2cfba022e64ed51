//! Tidy: tests that fail when the docs and the code drift apart (in the spirit of
//! rust-analyzer's `tidy`). Each check reads the repository's own files (manifests
//! through `cargo metadata --no-deps`, docs as text) and compares a fact written in
//! two places; its failure names both places and what to change.
//!
//! To add a check: a `#[test]` below, built from the helpers at the top (`repo`,
//! `read`, `metadata`, `table`, `code_spans`). Run them alone with
//! `cargo test --release -p nimbot-tools --test tidy` (about a second).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// The repository's root.
fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tools/ has a parent")
        .to_path_buf()
}

/// A file of the repository, by its path from the root.
fn read(path: &str) -> String {
    std::fs::read_to_string(repo().join(path)).unwrap_or_else(|e| panic!("read {path}: {e}"))
}

/// `cargo metadata --no-deps` of a manifest (a path from the root): the packages of
/// its workspace, without resolving dependencies (no network, no lock file).
fn metadata(manifest: &str) -> Value {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "metadata",
            "--no-deps",
            "--format-version",
            "1",
            "--manifest-path",
        ])
        .arg(repo().join(manifest))
        .current_dir(repo())
        .output()
        .expect("run cargo metadata");
    assert!(
        out.status.success(),
        "cargo metadata --manifest-path {manifest}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("cargo metadata's JSON")
}

/// The rows of the Markdown table whose header line is `header` (cells trimmed,
/// `|` inside code spans kept); panics, naming `doc`, when there is no such table.
fn table(doc: &str, text: &str, header: &str) -> Vec<Vec<String>> {
    let mut lines = text.lines().skip_while(|l| l.trim() != header);
    assert!(
        lines.next().is_some(),
        "{doc}: no table with the header `{header}`"
    );
    lines
        .skip(1) // |---|---|
        .take_while(|l| l.starts_with('|'))
        .map(cells)
        .collect()
}

fn cells(line: &str) -> Vec<String> {
    let (mut cells, mut cell, mut in_code) = (Vec::new(), String::new(), false);
    for c in line.trim().trim_start_matches('|').chars() {
        match c {
            '`' => {
                in_code = !in_code;
                cell.push(c);
            }
            '|' if !in_code => cells.push(std::mem::take(&mut cell).trim().to_string()),
            _ => cell.push(c),
        }
    }
    cells
}

/// The text of every `code span` in `text`.
fn code_spans(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

/// One board: its folder's name and the facts of its manifest's
/// `[package.metadata.nimbot]` (what tools/firmware.sh reads).
struct Board {
    name: String,
    facts: Value,
}

impl Board {
    fn text(&self, key: &str) -> &str {
        self.facts[key].as_str().unwrap_or("")
    }
}

/// Every crate in firmware/boards/ (each its own workspace), as tools/firmware.sh
/// finds them.
fn boards() -> Vec<Board> {
    let mut names: Vec<String> = std::fs::read_dir(repo().join("firmware/boards"))
        .expect("firmware/boards/")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.join("Cargo.toml").is_file())
        .map(|p| {
            p.file_name()
                .expect("a name")
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    assert!(!names.is_empty(), "no board crates in firmware/boards/");
    names
        .into_iter()
        .map(|name| {
            let meta = metadata(&format!("firmware/boards/{name}/Cargo.toml"));
            let facts = meta["packages"][0]["metadata"]["nimbot"].clone();
            assert!(
                facts.is_object(),
                "firmware/boards/{name}/Cargo.toml has no [package.metadata.nimbot]"
            );
            Board { name, facts }
        })
        .collect()
}

fn set<'a>(names: impl IntoIterator<Item = &'a str>) -> BTreeSet<String> {
    names.into_iter().map(str::to_string).collect()
}

/// docs/firmware.md's table of boards: one row per board crate, its target as the
/// manifest says, and the emulator it is tested in.
#[test]
fn firmware_docs_board_table_matches_the_board_crates() {
    let doc = read("docs/firmware.md");
    let rows = table(
        "docs/firmware.md",
        &doc,
        "| board | chip | core, target | UART | HAL | tested |",
    );
    let boards = boards();
    let documented = set(rows.iter().map(|r| r[0].trim_matches('`')));
    assert_eq!(
        documented,
        set(boards.iter().map(|b| b.name.as_str())),
        "docs/firmware.md's board table and the crates in firmware/boards/ name different boards"
    );
    for board in &boards {
        let row = rows
            .iter()
            .find(|r| r[0].trim_matches('`') == board.name)
            .expect("a row");
        let target = board.text("target");
        assert!(
            code_spans(&row[2]).contains(&target),
            "docs/firmware.md, board {}: the target cell {:?} lacks `{target}`, the target in its Cargo.toml",
            board.name,
            row[2]
        );
        // Tested in: QEMU names its machine (`-M X` or `-machine X`), rp2040py itself.
        let emulator: Vec<&str> = board.text("emulator").split_whitespace().collect();
        let machine = emulator
            .windows(2)
            .find(|w| w[0] == "-M" || w[0] == "-machine")
            .map_or(board.text("emulator-package"), |w| w[1]);
        assert!(
            row[5].contains(machine),
            "docs/firmware.md, board {}: the `tested` cell {:?} does not name {machine}, the emulator in its Cargo.toml",
            board.name,
            row[5]
        );
    }
}

/// docs/firmware.md's table of QEMU command lines: exactly the boards tested in
/// QEMU, each with the line its manifest gives tools/firmware.sh.
#[test]
fn firmware_docs_qemu_lines_match_the_board_crates() {
    let doc = read("docs/firmware.md");
    let rows = table("docs/firmware.md", &doc, "| board | QEMU |");
    let boards = boards();
    let in_qemu: Vec<&Board> = boards
        .iter()
        .filter(|b| b.text("emulator").starts_with("qemu-system-"))
        .collect();
    assert_eq!(
        set(rows.iter().map(|r| r[0].as_str())),
        set(in_qemu.iter().map(|b| b.name.as_str())),
        "docs/firmware.md's QEMU table and the boards whose Cargo.toml runs QEMU differ"
    );
    for board in in_qemu {
        let row = rows.iter().find(|r| r[0] == board.name).expect("a row");
        assert_eq!(
            row[1],
            format!("`{}`", board.text("emulator")),
            "docs/firmware.md's QEMU line for {} differs from its Cargo.toml's emulator",
            board.name
        );
    }
}

/// A board's `.cargo/config.toml` (what a plain `cargo build` in its folder uses)
/// builds for the target of its facts, and a linker limit on the flash given there
/// is the flash budget.
#[test]
fn board_cargo_configs_match_the_board_facts() {
    for board in boards() {
        let path = format!("firmware/boards/{}/.cargo/config.toml", board.name);
        let config = read(&path);
        let mut section = "";
        let mut target = None;
        for line in config.lines().map(str::trim) {
            if line.starts_with('[') {
                section = line;
            } else if section == "[build]" && line.starts_with("target =") {
                target = line.split('"').nth(1);
            }
        }
        assert_eq!(
            target,
            Some(board.text("target")),
            "{path}'s [build] target and the target in its Cargo.toml differ"
        );
        if let Some(limit) = config.split("__TEXT_REGION_LENGTH__=").nth(1) {
            let limit: String = limit.chars().take_while(char::is_ascii_digit).collect();
            assert_eq!(
                limit.parse::<u64>().ok(),
                board.facts["flash-budget"].as_u64(),
                "{path}'s linker flash limit and the flash-budget in its Cargo.toml differ"
            );
        }
    }
}

/// README.md's layout table names every member of the workspace by its folder
/// (`cli/`, `tools/latency/`, ...; the root package by `src/`), and every folder it
/// names that holds a crate is a member or a workspace of its own (the firmware
/// boards, the tiny binary, ...).
#[test]
fn readme_layout_names_the_workspace_members() {
    let readme = read("README.md");
    let layout = readme
        .split("\n## Layout")
        .nth(1)
        .expect("README.md has a `## Layout` section");
    let layout = layout.split("\n## ").next().unwrap_or(layout);
    let spans = code_spans(layout);
    // Folders, and `src/` for the root package (named by its files, `src/rules.rs`).
    let mut named: BTreeSet<String> = spans
        .iter()
        .filter_map(|s| s.strip_suffix('/'))
        .map(str::to_string)
        .collect();
    if spans.iter().any(|s| s.starts_with("src/")) {
        named.insert("src".to_string());
    }

    let meta = metadata("Cargo.toml");
    let root = repo();
    let member_dirs: BTreeSet<String> = meta["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .filter(|p| {
            meta["workspace_members"]
                .as_array()
                .is_some_and(|m| m.contains(&p["id"]))
        })
        .map(|p| {
            let manifest = PathBuf::from(p["manifest_path"].as_str().expect("a manifest path"));
            let dir = manifest.parent().expect("a folder").to_path_buf();
            let dir = dir.strip_prefix(&root).unwrap_or(&dir).to_string_lossy();
            if dir.is_empty() {
                "src".to_string()
            } else {
                dir.into_owned()
            }
        })
        .collect();
    let missing: Vec<&String> = member_dirs.difference(&named).collect();
    assert!(
        missing.is_empty(),
        "README.md's layout does not name the workspace members in {missing:?} (as `folder/`)"
    );
    for dir in &named {
        let manifest = root.join(dir).join("Cargo.toml");
        if dir == "src" || member_dirs.contains(dir) || !manifest.is_file() {
            continue;
        }
        let own_workspace = std::fs::read_to_string(&manifest)
            .is_ok_and(|m| m.lines().any(|l| l.trim() == "[workspace]"));
        assert!(
            own_workspace,
            "README.md's layout names `{dir}/`, a crate that is neither a member of the workspace nor a workspace of its own"
        );
    }
}
