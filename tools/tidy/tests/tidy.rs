//! The tidy test: facts written in two places must agree. Each check names the
//! file to fix when it fails.

use std::collections::{BTreeMap, BTreeSet};

use nimbot_tidy::{assert_none, manifests, read, Manifest};

/// The map of the crates and their layers (linked from the README).
const ARCHITECTURE: &str = "docs/architecture.md";

/// The rows of the architecture map's "The crates" table: crate name -> folder.
fn map_crates() -> BTreeMap<String, String> {
    let map = read(ARCHITECTURE);
    let start = map
        .find("## The crates")
        .expect("docs/architecture.md has a section \"## The crates\"");
    let mut rows = BTreeMap::new();
    for line in map[start..].lines().skip(1) {
        if line.starts_with("## ") {
            break;
        }
        // | `nimbot-cli` (`cli/`) | what |
        let Some(cell) = line.strip_prefix("| `") else {
            continue;
        };
        let Some((name, rest)) = cell.split_once('`') else {
            continue;
        };
        let folder = rest
            .split_once("(`")
            .and_then(|(_, f)| f.split_once('`'))
            .map(|(f, _)| f.trim_end_matches('/').to_string())
            .unwrap_or_default();
        rows.insert(name.to_string(), folder);
    }
    rows
}

fn folder_of(m: &Manifest) -> String {
    let dir = m.path.trim_end_matches("Cargo.toml").trim_end_matches('/');
    if dir.is_empty() {
        "src".to_string()
    } else {
        dir.to_string()
    }
}

/// A board crate is covered by the firmware's row (docs/firmware.md lists them).
fn is_board(m: &Manifest) -> bool {
    m.path.starts_with("firmware/boards/")
}

#[test]
fn the_architecture_map_lists_every_crate_and_only_real_ones() {
    let listed = map_crates();
    let real: Vec<Manifest> = manifests().into_iter().filter(|m| !is_board(m)).collect();
    let mut problems = Vec::new();
    for m in &real {
        match listed.get(&m.name) {
            None => problems.push(format!("{} ({}) is missing", m.name, folder_of(m))),
            Some(folder) if *folder != folder_of(m) => problems.push(format!(
                "{} is in `{}/`, docs/architecture.md says `{folder}/`",
                m.name,
                folder_of(m)
            )),
            Some(_) => {}
        }
    }
    let names: BTreeSet<&str> = real.iter().map(|m| m.name.as_str()).collect();
    for name in listed.keys() {
        if !names.contains(name.as_str()) {
            problems.push(format!("{name} is listed but no Cargo.toml names it"));
        }
    }
    assert_none("docs/architecture.md, \"The crates\"", &problems);
}

/// The crate names in the architecture map's layer picture (the first code block after
/// "## The layers").
fn map_picture() -> BTreeSet<String> {
    let map = read(ARCHITECTURE);
    let start = map
        .find("## The layers")
        .expect("docs/architecture.md has a section \"## The layers\"");
    let block = map[start..]
        .split("```")
        .nth(1)
        .expect("a picture in a code block after \"## The layers\"");
    block
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .filter(|w| *w == "nimbot" || w.starts_with("nimbot-"))
        .map(str::to_string)
        .collect()
}

#[test]
fn the_layer_picture_shows_every_crate_and_only_real_ones() {
    let picture = map_picture();
    let real: BTreeSet<String> = manifests()
        .into_iter()
        .filter(|m| !is_board(m))
        .map(|m| m.name)
        .collect();
    let missing: Vec<&String> = real.difference(&picture).collect();
    let unknown: Vec<&String> = picture.difference(&real).collect();
    assert!(
        missing.is_empty() && unknown.is_empty(),
        "docs/architecture.md, \"The layers\": the picture leaves out {missing:?} and names {unknown:?}, which no Cargo.toml names"
    );
}

/// The dependency list of docs/architecture.md (`crate: dep, dep`) in the block after "The layers".
fn map_edges() -> BTreeMap<String, BTreeSet<String>> {
    let map = read(ARCHITECTURE);
    let start = map
        .find("<!-- tidy: dependencies -->")
        .expect("docs/architecture.md marks its dependency list with <!-- tidy: dependencies -->");
    let block = &map[start..];
    let open = block.find("```").expect("a fenced block after the marker");
    let body = &block[open + 3..];
    let body = &body[body.find('\n').unwrap_or(0)..];
    let close = body.find("```").expect("the block closes");
    let mut edges = BTreeMap::new();
    for line in body[..close].lines() {
        let Some((name, deps)) = line.split_once("->") else {
            continue;
        };
        let deps = deps
            .split(',')
            .map(|d| d.trim().to_string())
            .filter(|d| !d.is_empty() && d != "(none)")
            .collect();
        edges.insert(name.trim().to_string(), deps);
    }
    edges
}

#[test]
fn the_architecture_map_s_dependency_list_is_the_manifests() {
    let listed = map_edges();
    let mut real = BTreeMap::new();
    for m in manifests().into_iter().filter(|m| !is_board(m)) {
        real.insert(m.name.clone(), m.deps.clone());
    }
    let boards: BTreeSet<String> = manifests()
        .into_iter()
        .filter(is_board)
        .flat_map(|m| m.deps)
        .collect();
    real.insert("(each board)".to_string(), boards);
    if listed != real {
        let mut want = String::new();
        for (name, deps) in &real {
            let deps: Vec<&str> = deps.iter().map(String::as_str).collect();
            let deps = if deps.is_empty() {
                "(none)".to_string()
            } else {
                deps.join(", ")
            };
            want.push_str(&format!("{name} -> {deps}\n"));
        }
        panic!("docs/architecture.md's dependency list differs from the manifests; it should read:\n{want}");
    }
}

// ---- Policies: one registry (`nimbot::Policy::ALL`), every list checked against it.

fn policy_names(filter: impl Fn(nimbot::Policy) -> bool) -> Vec<&'static str> {
    nimbot::Policy::ALL
        .into_iter()
        .filter(|&p| filter(p))
        .map(nimbot::Policy::as_str)
        .collect()
}

/// What a `Session` answers to `line`.
fn session_reply(line: &str) -> String {
    let mut session = nimbot_protocol::Session::new(nimbot::TableEngine::embedded());
    let mut input = format!("{line}\n").into_bytes();
    let mut rx: &[u8] = &mut input;
    let mut out = vec![0u8; 4096];
    let mut tx: &mut [u8] = &mut out;
    nimbot_protocol::serve(&mut session, &mut rx, &mut tx).expect("the session answers");
    let left = tx.len();
    let used = out.len() - left;
    String::from_utf8_lossy(&out[..used]).trim_end().to_string()
}

#[test]
fn the_policy_names_literal_is_the_registry() {
    assert_eq!(
        nimbot::policy_names!(),
        policy_names(|_| true).join("|"),
        "nimbot::policy_names!() (src/policy/mod.rs) must list Policy::ALL's names in order"
    );
}

#[test]
fn the_line_protocol_lists_the_registered_policies() {
    let usage = format!("policy [{}]", policy_names(|_| true).join("|"));
    let reply = session_reply("policy nonsense");
    assert!(
        reply.contains(&usage),
        "the protocol's usage for `policy` is {reply:?}, the registry says {usage:?} (protocol/src)"
    );
    let doc = read("docs/protocol.md").replace("\\|", "|");
    assert!(
        doc.contains(&usage),
        "docs/protocol.md should list `{usage}`"
    );
}

#[test]
fn the_tiny_binary_lists_the_policies_a_table_suffices_for() {
    let values = policy_names(|p| p.needs() == nimbot::Knowledge::Values).join("|");
    let want = format!("--policy {values}");
    for file in ["tiny/src/main.rs", "docs/tiny.md"] {
        assert!(read(file).contains(&want), "{file} should say `{want}`");
    }
}

#[test]
fn the_policies_page_has_one_row_per_policy_in_registry_order() {
    let page = read("docs/policies.md");
    let rows: Vec<&str> = page
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split_once("` |").map(|(name, _)| name))
        .collect();
    assert_eq!(
        rows,
        policy_names(|_| true),
        "docs/policies.md's table of policies and nimbot::Policy::ALL differ"
    );
}

// ---- The table's field order: FORMAT.md, the writer's `TableFile` and the reader.

/// The fields of `table/FORMAT.md`'s header table, in order.
fn format_md_fields() -> Vec<String> {
    let spec = read("table/FORMAT.md");
    let start = spec
        .find("| # | field |")
        .expect("table/FORMAT.md has the header's table (| # | field | ...)");
    spec[start..]
        .lines()
        .skip(2)
        .map_while(|l| {
            let mut cells = l.split('|').map(str::trim);
            cells.next()?; // before the first bar
            cells.next()?.parse::<u32>().ok()?;
            Some(cells.next()?.trim_matches('`').to_string())
        })
        .collect()
}

#[test]
fn the_table_fields_are_in_one_order_in_the_spec_the_writer_and_the_reader() {
    let source = read("src/table/format.rs");
    let start = source.find("struct TableFile").expect(
        "src/table/format.rs defines TableFile (the fields nimbot-solve's writer serializes)",
    );
    let body = &source[start..start + source[start..].find("\n}").expect("its end")];
    let writer: Vec<String> = body
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub "))
        .filter_map(|l| l.split_once(':').map(|(name, _)| name.to_string()))
        .collect();
    // The reader checks the magic and the version in place, then names each field.
    let check = &source[source.find("let mut f = Fields").expect("the reader")..];
    let mut reader = vec!["magic".to_string(), "format_version".to_string()];
    reader.extend(check.lines().filter_map(|l| {
        let l = l.trim().strip_prefix("let ")?;
        let (name, rest) = l.split_once(" = ")?;
        rest.starts_with("tri!(f.").then(|| name.to_string())
    }));
    let spec = format_md_fields();
    assert_eq!(
        writer, spec,
        "TableFile's fields and table/FORMAT.md's table differ"
    );
    assert_eq!(
        reader, spec,
        "Layout::check's fields and table/FORMAT.md's table differ"
    );
}

#[test]
fn the_won_side_choices_are_the_registry() {
    let names: Vec<&str> = nimbot::Win::ALL
        .into_iter()
        .map(nimbot::Win::as_str)
        .collect();
    let want = format!("--win {}", names.join("|"));
    assert!(
        read("docs/policies.md").contains(&want),
        "docs/policies.md should name `{want}` (nimbot::Win::ALL)"
    );
}

#[test]
fn the_page_lists_the_policies_the_module_derives_from_the_registry() {
    // The page's policy menu is filled from the module's `nb_policies`, which
    // lists Policy::ALL's policies its engine plays: no file of the page keeps a
    // list of its own.
    let exports = read("web/src/expanding.rs");
    assert!(
        exports.contains("Policy::ALL.into_iter().filter(|&p| engine.plays(p))"),
        "web/src/expanding.rs's nb_policies should list Policy::ALL's policies the page's engine plays"
    );
    let html = read("web/site/index.html");
    let select = html
        .split_once("<select name=\"policy\" id=\"pl-policy\">")
        .map(|(_, rest)| rest.split_once("</select>").map_or(rest, |(menu, _)| menu))
        .expect(
            "web/site/index.html has the policy menu <select name=\"policy\" id=\"pl-policy\">",
        );
    assert!(
        select.trim().is_empty(),
        "web/site/index.html's policy menu should be empty (app.js fills it from nb_policies), not {select:?}"
    );
    let script = read("web/site/app.js");
    assert!(
        script.contains("$('pl-policy').innerHTML = policies()"),
        "web/site/app.js should fill the policy menu from the module (policies(), nb_policies)"
    );
    // docs/web.md names the page's policies: the registry's that need no model.
    let page = policy_names(|p| p.needs() != nimbot::Knowledge::Models)
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ");
    assert!(
        read("docs/web.md").contains(&format!("({page};")),
        "docs/web.md should list the page's policies as ({page}; ...)"
    );
}
