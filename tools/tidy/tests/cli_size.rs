//! The command line stays a command line: `cli/src` holds flags, printing and exit
//! statuses, and what a command computes lives in the library crate of its domain
//! (docs/architecture.md's crate list). Its size is the alarm: past the limit, logic has
//! crept back in, and the failure names the largest files to look at.

use std::fs;
use std::path::Path;

use nimbot_tidy::{files_below, root};

/// The most lines `cli/src` may hold, all its Rust files together.
const LIMIT: usize = 2_500;

/// Every `.rs` file below `dir` with its number of lines, the path relative to
/// `top`.
fn rust_files(top: &Path, dir: &Path, out: &mut Vec<(String, usize)>) {
    for name in files_below(top, dir) {
        if name.ends_with(".rs") {
            let path = top.join(&name);
            let text = fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
            out.push((name, text.lines().count()));
        }
    }
}

#[test]
fn the_command_line_crate_stays_within_its_size() {
    let top = root();
    let mut files = Vec::new();
    rust_files(&top, &top.join("cli/src"), &mut files);
    assert!(!files.is_empty(), "no Rust files found in cli/src");
    let total: usize = files.iter().map(|(_, n)| n).sum();
    files.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let largest: Vec<String> = files
        .iter()
        .take(5)
        .map(|(name, n)| format!("{name} ({n})"))
        .collect();
    assert!(
        total <= LIMIT,
        "cli/src has {total} lines, more than {LIMIT}: the command line is flags, printing \
         and exit statuses; move what the commands compute into the library crate of its \
         domain (docs/architecture.md's crate list). Largest: {}",
        largest.join(", ")
    );
}

/// The count is of lines as `wc -l` counts them, over every file of every folder.
#[test]
fn the_line_count_sees_nested_folders() {
    let dir = std::env::temp_dir().join(format!("nimbot-tidy-cli-size-{}", std::process::id()));
    let nested = dir.join("a/b");
    fs::create_dir_all(&nested).expect("a scratch folder");
    fs::write(dir.join("one.rs"), "fn a() {}\nfn b() {}\n").expect("written");
    fs::write(nested.join("two.rs"), "fn c() {}\n").expect("written");
    fs::write(nested.join("notes.txt"), "not Rust\n").expect("written");
    let mut files = Vec::new();
    rust_files(&dir, &dir, &mut files);
    let _ = fs::remove_dir_all(&dir);
    files.sort();
    assert_eq!(
        files,
        vec![("a/b/two.rs".to_string(), 1), ("one.rs".to_string(), 2)]
    );
}
