//! The layout's rules, checked on the source text: no two files of a crate import
//! each other (directly or round a longer loop), and the core's root keeps its few
//! public modules. Each check names the files to fix when it fails.

use std::collections::{BTreeMap, BTreeSet};

use nimbot_tidy::{read, tracked_files};

/// The module path of a source file below a crate's `src/` (`None` for files that
/// are not modules of the crate's library or main binary: `src/bin/`, build
/// scripts, tests).
fn module_of(file: &str) -> Option<(String, Vec<String>)> {
    let (krate, rest) = match file.split_once("src/") {
        Some((k, r)) if k.is_empty() || k.ends_with('/') => (k.to_string(), r),
        _ => return None,
    };
    if !rest.ends_with(".rs") || rest.starts_with("bin/") {
        return None;
    }
    let mut parts: Vec<String> = rest
        .trim_end_matches(".rs")
        .split('/')
        .map(String::from)
        .collect();
    let last = parts.last().cloned().unwrap_or_default();
    if last == "mod" || (parts.len() == 1 && (last == "lib" || last == "main")) {
        parts.pop();
    }
    Some((krate, parts))
}

/// Every `crate::`, `super::` or `self::` path a file names (the `use` trees
/// expanded), with the module it is named from (inline `mod x { .. }` blocks such
/// as unit tests count: their `super` is the file itself).
fn anchored_paths(text: &str) -> Vec<(usize, Vec<String>)> {
    // Strip comments line by line (doc text names paths that are no imports).
    let code: String = text
        .lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n");
    let mut out = Vec::new();
    // Depth of inline modules at each byte, from `mod name {` blocks.
    let mut inline: Vec<i64> = Vec::new();
    let mut depth: i64 = 0;
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let rest = &code[i..];
        let at_word = i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
        if at_word && (rest.starts_with("mod ") || rest.starts_with("mod\t")) {
            let after = rest[4..].trim_start();
            let name_len = after
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(after.len());
            if after[name_len..].trim_start().starts_with('{') {
                inline.push(depth + 1);
            }
        }
        if at_word && rest.starts_with("use ") {
            let end = rest.find(';').unwrap_or(rest.len());
            let tree = rest[4..end]
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            for path in expand(&tree) {
                let segs: Vec<String> = path.split("::").map(String::from).collect();
                if matches!(segs[0].as_str(), "crate" | "super" | "self") {
                    out.push((inline.len(), segs));
                }
            }
            i += end.max(1);
            continue;
        }
        if at_word && (rest.starts_with("crate::") || rest.starts_with("super::")) {
            let len = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(rest.len());
            let segs: Vec<String> = rest[..len]
                .split("::")
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect();
            out.push((inline.len(), segs));
            i += len;
            continue;
        }
        match bytes[i] {
            b'{' => depth += 1,
            b'}' => {
                if inline.last() == Some(&depth) {
                    inline.pop();
                }
                depth -= 1;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// The paths of a `use` tree: `a::{b, c::{d, e as f}}` -> `a::b`, `a::c::d`,
/// `a::c::e`.
fn expand(tree: &str) -> Vec<String> {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        return vec![tree.split(" as ").next().unwrap_or(tree).to_string()];
    };
    let prefix = &tree[..open];
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let mut parts = Vec::new();
    let (mut level, mut start) = (0, 0);
    for (k, c) in inner.char_indices() {
        match c {
            '{' => level += 1,
            '}' => level -= 1,
            ',' if level == 0 => {
                parts.push(&inner[start..k]);
                start = k + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .flat_map(|p| expand(p).into_iter().map(move |s| format!("{prefix}{s}")))
        .collect()
}

/// The file-level imports of every crate: file -> the files it names by a
/// `crate::`/`super::`/`self::` path (unit tests included). A parent naming its own
/// children (`pub use self::child::..`) is the module tree, not an import, and is
/// not counted; bare relative paths (`child::f`) are not followed either.
fn import_graph() -> BTreeMap<String, BTreeSet<String>> {
    let files: Vec<String> = tracked_files()
        .into_iter()
        .filter(|f| f.ends_with(".rs") && module_of(f).is_some())
        .collect();
    let mut by_module: BTreeMap<(String, Vec<String>), String> = BTreeMap::new();
    for f in &files {
        if let Some(key) = module_of(f) {
            by_module.insert(key, f.clone());
        }
    }
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in &files {
        let (krate, here) = module_of(f).expect("filtered above");
        for (inline, segs) in anchored_paths(&read(f)) {
            let mut module: Vec<String> = here.clone();
            let mut inner = inline;
            let mut rest = segs.as_slice();
            if rest.first().map(String::as_str) == Some("crate") {
                module.clear();
                inner = 0;
                rest = &rest[1..];
            } else {
                while rest.first().map(String::as_str) == Some("self") {
                    rest = &rest[1..];
                }
                while rest.first().map(String::as_str) == Some("super") {
                    if inner > 0 {
                        inner -= 1;
                    } else {
                        module.pop();
                    }
                    rest = &rest[1..];
                }
            }
            if inner > 0 {
                continue; // a path into the file's own inline module
            }
            // The deepest module file the path reaches; a module's own descendants
            // are its tree (`pub use self::child::..`), not an import.
            let mut target = by_module.get(&(krate.clone(), module.clone())).cloned();
            let mut consumed = 0;
            for seg in rest {
                module.push(seg.clone());
                match by_module.get(&(krate.clone(), module.clone())) {
                    Some(file) => {
                        target = Some(file.clone());
                        consumed += 1;
                    }
                    None => {
                        module.pop();
                        break;
                    }
                }
            }
            // A name that the module reached re-exports from its own tree is
            // followed to the file that defines it: `crate::table::TableError` is
            // `src/table/error.rs`'s, which `src/table/mod.rs` only re-exports.
            if let (Some(file), Some(name)) = (target.clone(), rest.get(consumed)) {
                if let Some((defining, path)) = reexported(&krate, &module, &file, name, &by_module)
                {
                    target = Some(defining);
                    module = path;
                }
            }
            let below = module.len() > here.len() && module.starts_with(&here);
            if let Some(target) = target {
                if target != *f && !below {
                    graph.entry(f.clone()).or_default().insert(target);
                }
            }
        }
    }
    graph
}

/// The file below `module` (the module of `file`) that defines `name`, when `file`
/// re-exports it from its own tree (`pub use self::child::Name`, followed through
/// further re-exports), with that file's module path.
fn reexported(
    krate: &str,
    module: &[String],
    file: &str,
    name: &str,
    by_module: &BTreeMap<(String, Vec<String>), String>,
) -> Option<(String, Vec<String>)> {
    let mut found: Option<(String, Vec<String>)> = None;
    let (mut module, mut file) = (module.to_vec(), file.to_string());
    // A few hops at most: a re-export of a re-export.
    for _ in 0..4 {
        let text = read(&file);
        let hop = anchored_paths(&text)
            .into_iter()
            .find_map(|(inline, segs)| {
                if inline > 0 || segs.last().map(String::as_str) != Some(name) {
                    return None;
                }
                // Only `self::` paths: a module's own tree.
                let rest = segs.strip_prefix(&["self".to_string()])?;
                let mut reached = module.clone();
                let mut to = None;
                for seg in &rest[..rest.len() - 1] {
                    reached.push(seg.clone());
                    to = Some(
                        by_module
                            .get(&(krate.to_string(), reached.clone()))?
                            .clone(),
                    );
                }
                to.map(|t| (t, reached))
            });
        match hop {
            Some((next, path)) => {
                found = Some((next.clone(), path.clone()));
                file = next;
                module = path;
            }
            None => break,
        }
    }
    found
}

/// The loops of `graph` (Tarjan's strongly connected components of more than one
/// file).
fn loops(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct State<'a> {
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        found: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on_stack.insert(v);
        let graph = s.graph;
        for w in graph.get(v).into_iter().flatten() {
            let w = w.as_str();
            if !s.index.contains_key(w) {
                visit(s, w);
                let lw = s.low[w];
                let lv = s.low[v];
                s.low.insert(v, lv.min(lw));
            } else if s.on_stack.contains(w) {
                let iw = s.index[w];
                let lv = s.low[v];
                s.low.insert(v, lv.min(iw));
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                component.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.found.push(component);
            }
        }
    }
    let mut s = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in graph.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.found
}

/// Loops known and being taken apart, each with its issue: the list only shrinks
/// (a loop that is gone must leave it, the test says so).
const KNOWN_LOOPS: &[(&[&str], &str)] = &[];

#[test]
fn no_two_files_import_each_other() {
    let mut found = loops(&import_graph());
    for (known, _) in KNOWN_LOOPS {
        let before = found.len();
        found.retain(|c| c.iter().map(String::as_str).ne(known.iter().copied()));
        assert!(
            found.len() < before,
            "the loop {known:?} is gone: take it off KNOWN_LOOPS (tools/tidy/tests/layout.rs)"
        );
    }
    assert!(
        found.is_empty(),
        "files that import each other (move what both need into a third file): {}",
        found
            .iter()
            .map(|c| c.join(" <-> "))
            .collect::<Vec<_>>()
            .join("; ")
    );
}

#[test]
fn the_loop_finder_sees_a_loop_and_resolves_paths() {
    // A two-file loop and a one-way edge.
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    g.entry("a".into()).or_default().insert("b".into());
    g.entry("b".into()).or_default().insert("a".into());
    g.entry("c".into()).or_default().insert("a".into());
    assert_eq!(loops(&g), vec![vec!["a".to_string(), "b".to_string()]]);
    // Use trees expand; unit tests' `super` is their own file.
    assert_eq!(
        expand("crate::{a::{B, C as D}, d::E}"),
        ["crate::a::B", "crate::a::C", "crate::d::E"]
    );
    let paths = anchored_paths(
        "use crate::x::Y;\nmod tests {\n use super::*;\n}\nfn f() { super::z::g() }",
    );
    assert_eq!(
        paths,
        vec![
            (0, vec!["crate".into(), "x".into(), "Y".into()]),
            (1, vec!["super".into(), "*".into()]),
            (0, vec!["super".into(), "z".into(), "g".into()]),
        ]
    );
    // The real graph has the edges the core is built on.
    let graph = import_graph();
    assert!(graph["src/probe.rs"].contains("src/engine.rs"));
    assert!(graph["src/engine.rs"].contains("src/value.rs"));
    // A re-exported name leads to the file that defines it, not to the module
    // that re-exports it.
    assert!(graph["src/engine.rs"].contains("src/table/source.rs"));
}

#[test]
fn the_core_root_keeps_few_public_modules() {
    // The domain's types are re-exported at the root; a public module is a domain of
    // its own (the table's format, the protocol's text, Fibonacci Nim).
    let lib = read("src/lib.rs");
    let public: Vec<&str> = lib
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub mod "))
        .map(|l| l.trim_end_matches(';'))
        .collect();
    assert_eq!(
        public,
        ["fibonacci", "table", "text"],
        "src/lib.rs: the core's public modules changed; re-export a domain type at the root \
         instead, or update this list and the crate docs' \"What the crate offers\""
    );
}

#[test]
fn the_core_never_depends_on_the_solver() {
    // The core (src/) reads tables; the solver and the table writer are the crate
    // nimbot-solve (solve/), which depends on the core and never the other way
    // (issue 46): the core's manifest names no nimbot-solve, in any table, and no
    // code of src/ names it.
    let manifests = nimbot_tidy::manifests();
    let core = manifests
        .iter()
        .find(|m| m.name == "nimbot")
        .expect("the core's manifest");
    let solve = manifests
        .iter()
        .find(|m| m.name == "nimbot-solve")
        .expect("the solver's manifest");
    assert!(
        !core.deps.contains("nimbot-solve") && !core.dev_deps.contains("nimbot-solve"),
        "Cargo.toml: the core depends on nimbot-solve"
    );
    assert!(solve.deps.contains("nimbot"), "solve/Cargo.toml: no nimbot");
    let mut wrong = Vec::new();
    for f in tracked_files() {
        if f.starts_with("src/") && f.ends_with(".rs") {
            let code: String = read(&f)
                .lines()
                .filter(|l| !l.trim_start().starts_with("//"))
                .collect();
            if code.contains("nimbot_solve") {
                wrong.push(f);
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "the core names the solver's crate: {}",
        wrong.join(", ")
    );
}
