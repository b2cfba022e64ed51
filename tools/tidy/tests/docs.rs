//! The docs as a newcomer reads them: command blocks that render as code, paths
//! named in manifests that exist, and durations and timings quoted as measurements
//! only in docs/figures.md. Each failure names the file and line.

use nimbot_tidy::{assert_none, read, root, tracked_files};

/// The Markdown pages a reader meets: the README, docs/, table/ and the crates'
/// READMEs.
fn pages() -> Vec<String> {
    tracked_files()
        .into_iter()
        .filter(|p| p.ends_with(".md"))
        .filter(|p| !p.starts_with("fuzz/") && !p.contains("/target/"))
        .collect()
}

/// Lines indented as code right under a paragraph line: Markdown folds them into
/// the paragraph, so a command block there renders as prose.
fn code_glued_to_prose(text: &str) -> Vec<usize> {
    let mut found = Vec::new();
    let mut fenced = false;
    let mut previous = "";
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            previous = "";
            continue;
        }
        if !fenced && line.starts_with("    ") && !line.trim().is_empty() {
            let p = previous.trim_start();
            let prose = !previous.trim().is_empty()
                && !previous.starts_with(' ')
                && !previous.starts_with('\t')
                && !p.starts_with(['-', '*', '|', '>', '#'])
                && !p.starts_with(|c: char| c.is_ascii_digit());
            if prose {
                found.push(n + 1);
            }
        }
        previous = line;
    }
    found
}

#[test]
fn command_blocks_render_as_code() {
    let mut found = Vec::new();
    for page in pages() {
        for n in code_glued_to_prose(&read(&page)) {
            found.push(format!("{page}:{n}"));
        }
    }
    assert_none(
        "indented lines right under a paragraph render as prose (leave a blank line, or fence the block)",
        &found,
    );
}

#[test]
fn the_glued_block_detector_sees_the_difference() {
    assert_eq!(code_glued_to_prose("Run:\n    cargo test\n"), [2]);
    assert!(code_glued_to_prose("Run:\n\n    cargo test\n").is_empty());
    assert!(code_glued_to_prose("- a list item\n    continued\n").is_empty());
    assert!(code_glued_to_prose("```\nx\n    y\n```\n").is_empty());
}

/// Folder or file names in a manifest's comments and values that look like paths
/// of this repository (`word/`, `word/word.ext`), relative to the top.
fn named_paths(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for word in text.split(|c: char| c.is_whitespace() || "`'\"(),;[]{}=".contains(c)) {
        let word = word.trim_end_matches(['.', ':']);
        let top = word.split('/').next().unwrap_or("");
        let known_top = [
            "src", "docs", "tools", "firmware", "web", "cli", "protocol", "platform", "engine",
            "match", "bridge", "analysis", "supernim", "picture", "progmem", "tiny", "examples",
            "fuzz", "table", "tests",
        ];
        if word.contains('/')
            && known_top.contains(&top)
            && !word.contains("://")
            && !word.contains('*')
            && !word.contains('<')
        {
            out.push(word.to_string());
        }
    }
    out
}

#[test]
fn paths_named_in_manifests_exist() {
    let mut missing = Vec::new();
    for manifest in tracked_files()
        .into_iter()
        .filter(|p| p == "Cargo.toml" || p.ends_with("/Cargo.toml"))
    {
        let dir = manifest.trim_end_matches("Cargo.toml");
        for path in named_paths(&read(&manifest)) {
            let path = path.split('#').next().unwrap_or_default().to_string();
            // Relative to the manifest's folder (as cargo reads paths), else to the top.
            if !root().join(dir).join(&path).exists() && !root().join(&path).exists() {
                missing.push(format!("{manifest}: {path}"));
            }
        }
    }
    assert_none("paths named in manifests that do not exist", &missing);
}

/// A duration or a memory size stated as a measurement ("about 3 minutes", "about
/// a quarter of an hour", "takes 20 s", "about 0.26 GB"), which belongs in
/// docs/figures.md.
fn states_a_duration(line: &str) -> bool {
    let lower = line.to_lowercase();
    let words = [
        "an hour",
        "half an hour",
        "a quarter of an hour",
        "a minute",
    ];
    for lead in ["about ", "takes ", "take ", "took "] {
        let mut rest = lower.as_str();
        while let Some(i) = rest.find(lead) {
            let after = &rest[i + lead.len()..];
            if words.iter().any(|w| after.starts_with(w)) {
                return true;
            }
            let number: String = after
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == ',')
                .collect();
            if !number.is_empty() {
                let unit = after[number.len()..].trim_start();
                let unit: String = unit.chars().take_while(|c| c.is_alphabetic()).collect();
                if [
                    "s", "sec", "seconds", "second", "min", "minutes", "minute", "hours", "hour",
                    "h", "mb", "gb", "mib", "gib",
                ]
                .contains(&unit.as_str())
                {
                    return true;
                }
            }
            rest = after;
        }
    }
    false
}

/// A number followed by a unit of time: what a measurement looks like in prose.
fn quotes_a_timing(line: &str) -> bool {
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric()) {
            let mut j = i;
            while j < bytes.len() && (bytes[j].is_ascii_digit() || b".,".contains(&bytes[j])) {
                j += 1;
            }
            let rest = line[j..].trim_start_matches(' ');
            for unit in ["ns", "us", "µs", "ms"] {
                if let Some(after) = rest.strip_prefix(unit) {
                    if !after.starts_with(|c: char| c.is_alphanumeric()) {
                        return true;
                    }
                }
            }
            i = j;
        } else {
            i += 1;
        }
    }
    false
}

/// Lines that name a time that is a setting or a fact of a tool, not a measurement.
const NOT_FIGURES: [(&str, &str); 3] = [
    ("docs/firmware.md", "1 ns per executed instruction"),
    ("docs/firmware.md", "a tick is 5 ns"),
    ("docs/testing.md", "0.3 ms apart"),
];

#[test]
fn measurements_are_quoted_in_the_figures_page_only() {
    let mut found = Vec::new();
    for page in pages() {
        if page == "docs/figures.md" {
            continue;
        }
        for (n, line) in read(&page).lines().enumerate() {
            let allowed = NOT_FIGURES
                .iter()
                .any(|(file, text)| *file == page && line.contains(text));
            if (states_a_duration(line) || quotes_a_timing(line)) && !allowed {
                found.push(format!("{page}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    assert_none(
        "how long something takes is a figure: put it in docs/figures.md and link to it",
        &found,
    );
}

#[test]
fn the_timing_detector_sees_units_and_ignores_words() {
    assert!(quotes_a_timing("a probe takes 0.08 us"));
    assert!(quotes_a_timing("median 12 ms, worst 40ms"));
    assert!(quotes_a_timing("about 20 ns of overhead"));
    assert!(!quotes_a_timing("2 users, 3 muses, version 5"));
    assert!(!quotes_a_timing("N <= 999 and 4 resets"));
}

#[test]
fn the_duration_detector_sees_measurements_and_ignores_settings() {
    assert!(states_a_duration(
        "everything CI checks (about a quarter of an hour)"
    ));
    assert!(states_a_duration(
        "Reproduce (about 3 minutes on two cores)."
    ));
    assert!(states_a_duration("the smoke step takes 2.5 min"));
    assert!(states_a_duration("N <= 99,999 needs about 0.26 GB"));
    assert!(!states_a_duration("`--timeout 60`: each read waits 60 s"));
    assert!(!states_a_duration("about 25 to 40 million cycles"));
}
