//! The course's messages are spelled in one place: `platform/src/wire/`. A key of
//! the platform's JSON messages in quotes, or a text of `exp-nim`'s lines, the game
//! log or the reasons that end a game, anywhere else in the Rust sources fails this
//! test: the code there must use the wire module's types (or its constants).
//! Unit tests (after `#[cfg(test)]`), integration tests (`tests/`) and fuzz seeds
//! keep bytes of the wire as fixtures, and are not looked at.

use nimbot_tidy::{assert_none, read, tracked_files};

/// Keys of the messages specific enough to be searched for (`name`, `order`,
/// `reset`, `winner`, `reason`, `finished` and `init_max` are also words of
/// nimbot's own JSON).
const KEYS: [&str; 12] = [
    "init_stones",
    "init_resets",
    "game_time",
    "num_stones",
    "current_max",
    "stones_left",
    "stones_removed",
    "reset_used",
    "resets_left",
    "time_taken",
    "player_0",
    "player_1",
];

/// Texts of the lines and the reasons specific enough to be searched for ("made
/// an illegal move", "moved out of turn" and "Game over" are also nimbot's own
/// words in its reports).
const TEXTS: [&str; 8] = [
    "won the game",
    "used too many resets",
    "exceeded time limit",
    "Please enter your move",
    "Invalid move string",
    "and used reset",
    "Stones left:",
    "Current max:",
];

/// The part of a Rust file that is not its unit tests.
fn code(text: &str) -> &str {
    text.find("#[cfg(test)]").map_or(text, |at| &text[..at])
}

/// The wire strings in `text`, a line each: `(line number, what)`. Comments are
/// prose and may name a key.
fn spelled(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (i, line) in code(text).lines().enumerate() {
        let line = line.trim_start();
        if line.starts_with("//") {
            continue;
        }
        for key in KEYS {
            if line.contains(&format!("\"{key}\"")) || line.contains(&format!("\\\"{key}\\\"")) {
                found.push((i + 1, key.to_string()));
            }
        }
        for t in TEXTS {
            if line.contains(t) {
                found.push((i + 1, t.to_string()));
            }
        }
    }
    found
}

fn checked(path: &str) -> bool {
    path.ends_with(".rs")
        && !path.starts_with("platform/src/wire/")
        && !path.starts_with("fuzz/")
        && !path.starts_with("tools/tidy/")
        && !path
            .split('/')
            .any(|part| part == "tests" || part == "examples")
}

#[test]
fn the_messages_are_spelled_only_in_the_wire_module() {
    let mut problems = Vec::new();
    for path in tracked_files().into_iter().filter(|p| checked(p)) {
        for (line, what) in spelled(&read(&path)) {
            problems.push(format!(
                "{path}:{line}: {what:?} belongs to platform/src/wire/ (use its types)"
            ));
        }
    }
    assert_none("wire strings outside platform/src/wire/", &problems);
}

#[test]
fn the_check_finds_what_it_looks_for() {
    let bad = "fn f(o: &Object) {\n    o.get(\"stones_left\");\n    let x = b\"{\\\"num_stones\\\": \";\n    if r.ends_with(\"won the game! Congrats!\") {}\n}\n";
    let found: Vec<String> = spelled(bad).into_iter().map(|(_, w)| w).collect();
    assert_eq!(found, ["stones_left", "num_stones", "won the game"]);
    let fine = "// the state's \"stones_left\"\nfn g() {}\n#[cfg(test)]\nconst T: &str = \"stones_left\";\n";
    assert!(spelled(fine).is_empty());
    assert!(checked("tournament/src/engine.rs"));
    assert!(!checked("platform/src/wire/message.rs"));
    assert!(!checked("cli/tests/referee.rs"));
}
