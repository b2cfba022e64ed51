//! The README's examples print what the README says they print: every `$ nimbot`
//! command followed by output lines, and the line-protocol session (`>` lines and
//! their replies), are run against the binary.

use std::io::Write;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_nimbot");

/// The README's indented example blocks, each a list of lines (indent removed).
fn example_blocks() -> Vec<Vec<String>> {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md"))
        .expect("README.md");
    let mut blocks = Vec::new();
    let mut current: Vec<String> = Vec::new();
    for line in readme.lines() {
        if let Some(code) = line.strip_prefix("    ") {
            current.push(code.to_string());
        } else if !current.is_empty() {
            blocks.push(std::mem::take(&mut current));
        }
    }
    if !current.is_empty() {
        blocks.push(current);
    }
    blocks
}

/// A line without its `# comment` (examples explain themselves on the right).
fn strip_comment(line: &str) -> &str {
    match line.find("  #") {
        Some(at) => line[..at].trim_end(),
        None => line.trim_end(),
    }
}

#[test]
fn shell_examples_print_what_the_readme_says() {
    let mut checked = 0;
    for block in example_blocks() {
        let mut i = 0;
        while i < block.len() {
            let Some(cmd) = block[i].strip_prefix("$ nimbot ") else {
                i += 1;
                continue;
            };
            let args: Vec<&str> = strip_comment(cmd).split_whitespace().collect();
            let mut expected = Vec::new();
            i += 1;
            while i < block.len() && !block[i].starts_with("$ ") {
                expected.push(strip_comment(&block[i]).to_string());
                i += 1;
            }
            if expected.is_empty() {
                continue; // shown for what it does, not for its output (e.g. demo)
            }
            let out = Command::new(BIN).args(&args).output().expect("run nimbot");
            assert!(out.status.success(), "nimbot {args:?} failed: {out:?}");
            let got: Vec<String> = String::from_utf8_lossy(&out.stdout)
                .lines()
                .map(|l| l.trim_end().to_string())
                .collect();
            assert_eq!(got, expected, "README: `nimbot {}` prints", args.join(" "));
            checked += 1;
        }
    }
    assert!(
        checked >= 2,
        "the README's shell examples were not found ({checked})"
    );
}

#[test]
fn the_session_example_answers_as_shown() {
    let block = example_blocks()
        .into_iter()
        .find(|b| b.first().is_some_and(|l| l.starts_with("$ cargo run")))
        .expect("the README's session example starts with `$ cargo run`");
    let typed: Vec<&str> = block.iter().filter_map(|l| l.strip_prefix("> ")).collect();
    let replies: Vec<&str> = block
        .iter()
        .skip(1)
        .filter(|l| !l.starts_with("> "))
        .map(String::as_str)
        .collect();
    assert_eq!(typed.len(), replies.len(), "one reply per typed line");
    let mut child = Command::new(BIN)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run nimbot");
    let mut stdin = child.stdin.take().expect("stdin");
    for line in &typed {
        writeln!(stdin, "{line}").expect("write a line");
    }
    drop(stdin);
    let out = child
        .wait_with_output()
        .expect("nimbot ends at end of input");
    let got: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(got, replies, "README's session example");
}
