//! The tidy test's board checks: each board crate's facts
//! (`[package.metadata.nimbot]` in firmware/boards/NAME/Cargo.toml, what
//! tools/firmware.sh reads) against docs/firmware.md's two board tables and the
//! board's `.cargo/config.toml`, and the page's table of keys against the schema.
//! Manifests are read through nimbot-boards (`cargo metadata --no-deps`: no build,
//! no network); each failure names both places.

use std::collections::BTreeSet;

use nimbot_boards::{Facts, KEYS};
use nimbot_tidy::{read, root as repo};

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

/// One board: its folder's name and its facts, read as tools/firmware.sh reads
/// them (nimbot-boards, the one schema).
struct Board {
    name: String,
    facts: Facts,
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
            let facts = Facts::read(&repo().join("firmware/boards").join(&name))
                .unwrap_or_else(|e| panic!("{e}"));
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
        let target = board.facts.target.as_str();
        assert!(
            code_spans(&row[2]).contains(&target),
            "docs/firmware.md, board {}: the target cell {:?} lacks `{target}`, the target in its Cargo.toml",
            board.name,
            row[2]
        );
        // Tested in: QEMU names its machine (`-M X` or `-machine X`), rp2040py itself.
        let emulator: Vec<&str> = board.facts.emulator.split_whitespace().collect();
        let machine = emulator
            .windows(2)
            .find(|w| w[0] == "-M" || w[0] == "-machine")
            .map_or(board.facts.emulator_package.as_str(), |w| w[1]);
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
        .filter(|b| b.facts.emulator.starts_with("qemu-system-"))
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
            format!("`{}`", board.facts.emulator),
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
            Some(board.facts.target.as_str()),
            "{path}'s [build] target and the target in its Cargo.toml differ"
        );
        if let Some(limit) = config.split("__TEXT_REGION_LENGTH__=").nth(1) {
            let limit: String = limit.chars().take_while(char::is_ascii_digit).collect();
            assert_eq!(
                limit.parse::<u64>().ok(),
                Some(board.facts.flash_budget),
                "{path}'s linker flash limit and the flash-budget in its Cargo.toml differ"
            );
        }
    }
}

/// docs/firmware.md's table of a board's facts names the schema's keys, in its
/// order (nimbot-boards' `KEYS`; a row may name two keys).
#[test]
fn firmware_docs_facts_table_is_the_schema() {
    let doc = read("docs/firmware.md");
    let rows = table("docs/firmware.md", &doc, "| key | what | default |");
    let documented: Vec<&str> = rows.iter().flat_map(|r| code_spans(&r[0])).collect();
    assert_eq!(
        documented, KEYS,
        "docs/firmware.md's table of a board's facts and the schema (tools/boards/src/lib.rs) differ"
    );
}
