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

/// Every path of a `use` (the trees expanded) and every other path a file names
/// (`crate::`, `super::`, `self::` or bare: `child::f()`), with the module it is
/// named from (inline `mod x { .. }` blocks such
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
            // Bare paths too (`use child::X`): the caller keeps those that name
            // a child module.
            for path in expand(&tree) {
                let segs: Vec<String> = path.split("::").map(String::from).collect();
                out.push((inline.len(), segs));
            }
            i += end.max(1);
            continue;
        }
        // A path in the code: from the crate, the parent or the module itself, or a
        // bare one (`child::f()`, which the caller keeps if it names a child
        // module); not the rest of a longer path, a method's turbofish or a macro's
        // `$var::`.
        let anchored = ["crate::", "super::", "self::"]
            .iter()
            .any(|a| rest.starts_with(a));
        let bare = !anchored
            && (bytes[i].is_ascii_alphabetic() || bytes[i] == b'_')
            && !(i > 0 && matches!(bytes[i - 1], b':' | b'.' | b'$' | b'"' | b'\''));
        if at_word && (anchored || bare) {
            let len = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(rest.len());
            if anchored || rest[..len].contains("::") {
                let segs: Vec<String> = rest[..len]
                    .split("::")
                    .filter(|s| !s.is_empty())
                    .map(String::from)
                    .collect();
                out.push((inline.len(), segs));
            }
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

/// The file-level imports of every crate: file -> the files that define the names
/// it imports by a `crate::`/`super::`/`self::` path or a path through its own
/// child module (`use child::X`, `pub use child::X`, `child::f()`), unit tests
/// included; a `#[path]` module is the file it names. Each path is
/// followed through re-exports to the file that defines the name, so that a
/// parent re-exporting (or using) its children's names imports those children:
/// a child that imports what its parent defines closes a loop.
fn import_graph() -> BTreeMap<String, BTreeSet<String>> {
    let files: Vec<(String, String)> = tracked_files()
        .into_iter()
        .filter(|f| f.ends_with(".rs") && module_of(f).is_some())
        .map(|f| {
            let text = read(&f);
            (f, text)
        })
        .collect();
    graph_of(&files)
}

/// [`import_graph`] of the given files and their text.
fn graph_of(files: &[(String, String)]) -> BTreeMap<String, BTreeSet<String>> {
    let mut by_module: BTreeMap<(String, Vec<String>), String> = BTreeMap::new();
    let mut texts: BTreeMap<String, &str> = BTreeMap::new();
    for (f, text) in files {
        if let Some(key) = module_of(f) {
            by_module.insert(key, f.clone());
            texts.insert(f.clone(), text);
        }
    }
    // A `#[path = ".."]` module (or `cfg_attr(.., path = "..")`: the first one) is
    // the file it names, relative to the declaring file's folder.
    for (f, text) in files {
        let (Some((krate, here)), Some((dir, _))) = (module_of(f), f.rsplit_once('/')) else {
            continue;
        };
        let mut path = None;
        for line in text.lines().map(str::trim) {
            if line.starts_with("#[") {
                path = path.or_else(|| line.split_once("path = \"").map(|(_, p)| p));
                continue;
            }
            let item = line
                .split_once("mod ")
                .map(|(_, m)| m.trim_end_matches(';'));
            if let (Some(name), Some(p)) = (item.filter(|_| line.ends_with(';')), path) {
                let file = format!("{dir}/{}", p.split('"').next().unwrap_or(""));
                if texts.contains_key(&file) {
                    let mut module = here.clone();
                    module.push(name.to_string());
                    by_module.insert((krate.clone(), module), file);
                }
            }
            path = None;
        }
    }
    let tree = Tree {
        by_module: &by_module,
        texts: &texts,
    };
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (f, text) in files {
        let Some((krate, here)) = module_of(f) else {
            continue;
        };
        for (inline, segs) in anchored_paths(text) {
            let Some((module, rest)) = tree.start(&krate, &here, inline, &segs) else {
                continue;
            };
            if let Some(target) = tree.resolve(&krate, module, &rest, 4) {
                if target != *f {
                    graph.entry(f.clone()).or_default().insert(target);
                }
            }
        }
    }
    graph
}

/// The module files of every crate, by module path, and their text.
struct Tree<'a> {
    by_module: &'a BTreeMap<(String, Vec<String>), String>,
    texts: &'a BTreeMap<String, &'a str>,
}

impl Tree<'_> {
    fn file(&self, krate: &str, module: &[String]) -> Option<&String> {
        self.by_module.get(&(krate.to_string(), module.to_vec()))
    }

    /// Where a path named in module `here` (inside `inline` inline modules)
    /// starts: the module it is relative to and the segments after the anchor.
    /// `None` for a path into the file's own inline module, or one that names no
    /// module of the crate (`core::..`, another crate).
    fn start(
        &self,
        krate: &str,
        here: &[String],
        inline: usize,
        segs: &[String],
    ) -> Option<(Vec<String>, Vec<String>)> {
        let mut module = here.to_vec();
        let mut inner = inline;
        let mut rest = segs;
        match rest.first().map(String::as_str) {
            Some("crate") => {
                module.clear();
                inner = 0;
                rest = &rest[1..];
            }
            Some("self" | "super") => {
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
            // A bare path: a child module of the file's own (`use child::X`).
            Some(first) => {
                let mut child = module.clone();
                child.push(first.to_string());
                if inner > 0 || self.file(krate, &child).is_none() {
                    return None;
                }
            }
            None => return None,
        }
        (inner == 0).then(|| (module, rest.to_vec()))
    }

    /// The file that defines what `rest` names from `module`: the deepest module
    /// file the path reaches, then the name followed through the `use`s of that
    /// file (at most `hops` of them) to the file that defines it. A glob or a
    /// module is its file; a name found nowhere is the file that names it.
    fn resolve(
        &self,
        krate: &str,
        mut module: Vec<String>,
        rest: &[String],
        hops: usize,
    ) -> Option<String> {
        let mut target = self.file(krate, &module)?.clone();
        let mut consumed = 0;
        for seg in rest {
            module.push(seg.clone());
            match self.file(krate, &module) {
                Some(file) => {
                    target = file.clone();
                    consumed += 1;
                }
                None => {
                    module.pop();
                    break;
                }
            }
        }
        let Some(name) = rest.get(consumed) else {
            return Some(target);
        };
        if name == "*" || hops == 0 {
            return Some(target);
        }
        let text = self.texts.get(&target).copied().unwrap_or("");
        // An exported macro is the crate root's by path, the defining file's in fact.
        if let Some(file) = self.macro_file(krate, name) {
            return Some(file);
        }
        if top_items(text).iter().any(|(n, _, _)| n == name) {
            return Some(target);
        }
        for (inline, segs) in anchored_paths(text) {
            if inline > 0 || segs.last() != Some(name) {
                continue;
            }
            if let Some((from, path)) = self.start(krate, &module, 0, &segs) {
                if let Some(found) = self.resolve(krate, from, &path, hops - 1) {
                    return Some(found);
                }
            }
        }
        Some(target)
    }

    /// The file of `krate` that defines the exported macro `name`.
    fn macro_file(&self, krate: &str, name: &str) -> Option<String> {
        self.by_module
            .iter()
            .filter(|((k, _), _)| k == krate)
            .map(|(_, f)| f)
            .find(|f| {
                let text = self.texts.get(*f).copied().unwrap_or("");
                top_items(text)
                    .iter()
                    .any(|(n, _, exported)| *exported && n == name)
            })
            .cloned()
    }
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

#[test]
fn no_two_files_import_each_other() {
    let found = loops(&import_graph());
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
fn a_parent_that_imports_its_children_closes_a_loop() {
    // The parent re-exports a child's name and the child imports what the parent
    // defines (solver.rs and solver/code.rs before issue 46), with the name reached
    // through a bare child path and through the crate's root.
    let file = |path: &str, text: &str| (path.to_string(), text.to_string());
    let files = [
        file(
            "x/src/lib.rs",
            "mod solver;\npub use solver::CodedSolution;\n",
        ),
        file(
            "x/src/solver.rs",
            "mod code;\npub use code::CodedSolution;\npub struct SolveBox;\n",
        ),
        file(
            "x/src/solver/code.rs",
            "use super::SolveBox;\npub struct CodedSolution(SolveBox);\n",
        ),
        file("x/src/other.rs", "use crate::CodedSolution;\n"),
    ];
    let graph = graph_of(&files);
    assert_eq!(
        loops(&graph),
        vec![vec![
            "x/src/solver.rs".to_string(),
            "x/src/solver/code.rs".to_string()
        ]]
    );
    // Followed through two re-exports to the file that defines it.
    assert!(graph["x/src/other.rs"].contains("x/src/solver/code.rs"));
    assert!(!graph["x/src/other.rs"].contains("x/src/lib.rs"));
    // The child importing from a leaf instead breaks the loop.
    let mut fixed = files.to_vec();
    fixed[1] = file(
        "x/src/solver.rs",
        "mod base;\nmod code;\npub use code::CodedSolution;\n",
    );
    fixed[2] = file(
        "x/src/solver/code.rs",
        "use super::base::SolveBox;\npub struct CodedSolution(SolveBox);\n",
    );
    fixed.push(file("x/src/solver/base.rs", "pub struct SolveBox;\n"));
    assert!(loops(&graph_of(&fixed)).is_empty());
}

#[test]
fn a_parent_that_calls_a_child_by_its_path_closes_a_loop() {
    // No `use` of the child: the parent calls it by a bare path (`cost::run()`)
    // or reaches it through a `#[path]` module, and the child imports from the
    // parent.
    let file = |path: &str, text: &str| (path.to_string(), text.to_string());
    let files = [
        file(
            "x/src/lib.rs",
            "mod cost;\npub fn send() {}\npub fn run() { cost::run() }\n",
        ),
        file(
            "x/src/cost.rs",
            "use crate::send;\npub fn run() { send() }\n",
        ),
        file(
            "y/src/main.rs",
            "#[cfg_attr(unix, path = \"sys/unix.rs\")]\nmod arch;\npub fn exit() {}\n\
             fn main() { arch::start() }\n",
        ),
        file("y/src/sys/unix.rs", "pub fn start() { crate::exit() }\n"),
    ];
    let graph = graph_of(&files);
    assert!(graph["x/src/lib.rs"].contains("x/src/cost.rs"));
    assert!(graph["y/src/main.rs"].contains("y/src/sys/unix.rs"));
    assert_eq!(loops(&graph).len(), 2);
    // A longer path's segments and a method's turbofish name no child.
    let paths = anchored_paths("fn f() { nimbot::cost::run(); x.collect::<Vec<_>>(); }");
    assert_eq!(
        paths,
        vec![(0, vec!["nimbot".into(), "cost".into(), "run".into()])]
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

/// A public name of the core: the file that defines it (`macro` for an exported
/// macro) and the name.
type Name = (String, String);

/// The top-level items of a file: (name, public, exported macro), skipping what
/// `#[doc(hidden)]` marks. Only lines at column 0 count: items inside `impl`
/// blocks and inline modules are indented.
fn top_items(text: &str) -> Vec<(String, bool, bool)> {
    const KINDS: [&str; 9] = [
        "const fn ",
        "const ",
        "static ",
        "fn ",
        "struct ",
        "enum ",
        "trait ",
        "type ",
        "mod ",
    ];
    let mut out = Vec::new();
    let mut attrs: Vec<&str> = Vec::new();
    for line in text.lines() {
        if line.starts_with("#[") {
            attrs.push(line);
            continue;
        }
        let hidden = attrs.iter().any(|a| a.contains("doc(hidden)"));
        let exported = attrs.iter().any(|a| a.contains("macro_export"));
        if !line.starts_with("//") && !line.trim().is_empty() {
            attrs.clear();
        }
        if hidden {
            continue;
        }
        if let Some(rest) = line.strip_prefix("macro_rules! ") {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            out.push((name, exported, exported));
            continue;
        }
        let (public, rest) = match line.strip_prefix("pub ") {
            Some(rest) => (true, rest),
            // `pub(crate)` and the like: defined here, not public.
            None => match line.strip_prefix("pub(").and_then(|r| r.split_once(") ")) {
                Some((_, rest)) => (false, rest),
                None => (false, line),
            },
        };
        for kind in KINDS {
            if let Some(after) = rest.strip_prefix(kind) {
                let name: String = after
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    out.push((name, public, false));
                }
                break;
            }
        }
    }
    out
}

/// The `pub use` paths of a file's top level (trees expanded, `as` renames kept
/// out), skipping `#[doc(hidden)]` ones and renames to `__` names.
fn pub_uses(text: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = text;
    let mut hidden = false;
    while let Some(at) = rest.find('\n') {
        let line = &rest[..at];
        if line.starts_with("#[") {
            hidden |= line.contains("doc(hidden)");
        } else if line.starts_with("pub use ") {
            let end = rest.find(';').unwrap_or(rest.len());
            let tree = rest["pub use ".len()..end]
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            let tree = tree.as_str();
            if !hidden && !tree.contains(" as __") {
                for path in expand(tree) {
                    out.push(path.split("::").map(String::from).collect());
                }
            }
            hidden = false;
        } else if !line.trim().is_empty() && !line.starts_with("//") {
            hidden = false;
        }
        rest = &rest[at + 1..];
    }
    out
}

/// The file that defines `name` as seen from the core's module `module`
/// (following re-exports a few hops), or `macro` for an exported macro.
fn defining_file(
    module: &[String],
    name: &str,
    by_module: &BTreeMap<(String, Vec<String>), String>,
    hops: usize,
) -> Option<String> {
    let file = by_module.get(&(String::new(), module.to_vec()))?;
    let text = read(file);
    let items = top_items(&text);
    if let Some((_, _, exported)) = items.iter().find(|(n, _, _)| n == name) {
        return Some(if *exported {
            "macro".into()
        } else {
            file.clone()
        });
    }
    if hops == 0 {
        return None;
    }
    for path in pub_uses(&text)
        .into_iter()
        .chain(anchored_paths(&text).into_iter().map(|(_, p)| p))
    {
        if path.last().map(String::as_str) != Some(name) {
            continue;
        }
        let mut target = module.to_vec();
        let mut segs = path.as_slice();
        match segs.first().map(String::as_str) {
            Some("crate") => {
                target.clear();
                segs = &segs[1..];
            }
            Some("self") => segs = &segs[1..],
            _ => {}
        }
        while segs.first().map(String::as_str) == Some("super") {
            target.pop();
            segs = &segs[1..];
        }
        target.extend(segs[..segs.len() - 1].iter().cloned());
        if let Some(found) = defining_file(&target, name, by_module, hops - 1) {
            return Some(found);
        }
        // A macro re-exported by its bare name (`pub use text;`).
        if segs.len() == 1 {
            return Some("macro".into());
        }
    }
    None
}

/// The core's public names: what its root and its public modules (recursively)
/// define or re-export, each counted once where it is defined.
fn core_public_names() -> BTreeSet<Name> {
    let mut by_module: BTreeMap<(String, Vec<String>), String> = BTreeMap::new();
    for f in tracked_files() {
        if let Some((krate, module)) = module_of(&f) {
            if krate.is_empty() {
                by_module.insert((krate, module), f);
            }
        }
    }
    let mut names = BTreeSet::new();
    let mut modules: Vec<Vec<String>> = vec![Vec::new()];
    while let Some(module) = modules.pop() {
        let file = &by_module[&(String::new(), module.clone())];
        let text = read(file);
        for (name, public, exported) in top_items(&text) {
            if exported {
                names.insert(("macro".to_string(), name));
            } else if public && text.contains(&format!("pub mod {name}")) {
                let mut child = module.clone();
                child.push(name);
                modules.push(child);
            } else if public {
                names.insert((file.clone(), name));
            }
        }
        for path in pub_uses(&text) {
            let name = path.last().cloned().unwrap_or_default();
            let defined = defining_file(&module, &name, &by_module, 0).is_some();
            let file = if defined {
                defining_file(&module, &name, &by_module, 0)
            } else {
                let mut m = module.clone();
                let mut segs = path.as_slice();
                match segs.first().map(String::as_str) {
                    Some("crate") => {
                        m.clear();
                        segs = &segs[1..];
                    }
                    Some("self") => segs = &segs[1..],
                    _ => {}
                }
                while segs.first().map(String::as_str) == Some("super") {
                    m.pop();
                    segs = &segs[1..];
                }
                m.extend(segs[..segs.len().saturating_sub(1)].iter().cloned());
                defining_file(&m, &name, &by_module, 4)
            };
            let file =
                file.unwrap_or_else(|| panic!("{module:?}: cannot find where {path:?} is defined"));
            names.insert((file, name));
        }
    }
    names
}

/// The names of docs/embedding.md's table of the core's public names (its
/// second column, in backticks; macros without their `!`).
fn documented_names() -> BTreeSet<String> {
    let doc = read("docs/embedding.md");
    let start = doc
        .find("## The core's public names")
        .expect("docs/embedding.md has the section \"The core's public names\"");
    let section = &doc[start..];
    let mut names = BTreeSet::new();
    for line in section.lines().filter(|l| l.starts_with("| ")).skip(1) {
        let cell = line.split('|').nth(2).unwrap_or("");
        for (i, span) in cell.split('`').enumerate() {
            if i % 2 == 1 {
                let name = span.trim_end_matches('!');
                // Features named beside a name are in lower case with a dash.
                if !name.contains('-') && name != "serde" && name != "default-table" {
                    names.insert(name.to_string());
                }
            }
        }
    }
    names
}

/// At most this many public names in the core, root and public modules together
/// (issue 46).
const MAX_PUBLIC_NAMES: usize = 60;

#[test]
fn the_core_keeps_few_public_names_and_lists_them() {
    let names = core_public_names();
    let listing: Vec<String> = names.iter().map(|(f, n)| format!("{n} ({f})")).collect();
    assert!(
        names.len() <= MAX_PUBLIC_NAMES,
        "the core exports {} names, more than {MAX_PUBLIC_NAMES}: {}",
        names.len(),
        listing.join(", ")
    );
    let exported: BTreeSet<String> = names.into_iter().map(|(_, n)| n).collect();
    let documented = documented_names();
    assert_eq!(
        exported.difference(&documented).collect::<Vec<_>>(),
        Vec::<&String>::new(),
        "public names of the core missing from docs/embedding.md's table"
    );
    assert_eq!(
        documented.difference(&exported).collect::<Vec<_>>(),
        Vec::<&String>::new(),
        "docs/embedding.md's table names what the core does not export"
    );
}

#[test]
fn the_name_counter_sees_items_uses_and_hidden_ones() {
    let text = "pub struct A;\npub(crate) fn b() {}\n#[doc(hidden)]\npub fn c() {}\n\
                impl A {\n    pub fn d() {}\n}\n#[macro_export]\nmacro_rules! e { () => {} }\n\
                pub use self::x::{F, G as H};\n#[doc(hidden)]\npub use y::I;\n";
    let items: Vec<(String, bool, bool)> = top_items(text);
    assert_eq!(
        items,
        vec![
            ("A".into(), true, false),
            ("b".into(), false, false),
            ("e".into(), true, true),
        ]
    );
    assert_eq!(
        pub_uses(text),
        vec![
            vec!["self".to_string(), "x".into(), "F".into()],
            vec!["self".to_string(), "x".into(), "G".into()],
        ]
    );
}

#[test]
fn the_core_stays_within_its_lines() {
    let lines: usize = tracked_files()
        .iter()
        .filter(|f| f.starts_with("src/") && f.ends_with(".rs"))
        .map(|f| read(f).lines().count())
        .sum();
    assert!(
        lines <= 7_000,
        "src/ is {lines} lines, more than 7,000 (issue 46)"
    );
}
