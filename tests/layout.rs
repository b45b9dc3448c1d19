//! The crate's layout as its documents describe it: modules depend on each other in one
//! direction only. A module here is a top-level module of `src/`, or a child of `syntax` or of
//! `syntax::actions` (the rooms that the syntax layer's files are grouped in); a dependency is
//! a `crate::` path in a module's code (comments and test modules left out).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The `.rs` files below `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `syntax::actions::query` for `src/syntax/actions/query.rs` (and for its `mod.rs`).
fn module_of(src: &Path, file: &Path) -> String {
    let relative = file.strip_prefix(src).unwrap().with_extension("");
    let parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .filter(|p| p != "mod")
        .collect();
    parts.join("::")
}

/// The room a module belongs to, for the rule that rooms do not depend on each other in a
/// circle.
fn room(module: &str) -> String {
    let parts: Vec<&str> = module.split("::").collect();
    let depth = match parts.as_slice() {
        ["syntax", "actions", _, ..] => 3,
        ["syntax", _, ..] => 2,
        _ => 1,
    };
    parts[..depth.min(parts.len())].join("::")
}

/// The code of a file without comments and without its test module.
fn code(text: &str) -> String {
    let text = text.split("#[cfg(test)]\nmod tests").next().unwrap_or(text);
    text.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every room's dependencies on other rooms.
fn dependencies() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.retain(|f| !f.starts_with(src.join("bin")) && f.file_name().unwrap() != "lib.rs");
    let modules: BTreeSet<String> = files.iter().map(|f| module_of(&src, f)).collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let from = room(&module_of(&src, file));
        let code = code(&std::fs::read_to_string(file).unwrap());
        for path in code.split("crate::").skip(1) {
            let words: Vec<&str> = path
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
                .next()
                .unwrap_or("")
                .split("::")
                .collect();
            // The longest prefix of the path that is a module.
            let target = (1..=words.len())
                .rev()
                .map(|n| words[..n].join("::"))
                .find(|m| modules.contains(m));
            if let Some(to) = target.map(|m| room(&m)) {
                if to != from && !to.starts_with(&format!("{from}::")) {
                    graph.entry(from.clone()).or_default().insert(to);
                }
            }
        }
    }
    graph
}

/// A path from `from` back to `to` through `graph`, if there is one.
fn path_back(
    graph: &BTreeMap<String, BTreeSet<String>>,
    from: &str,
    to: &str,
    seen: &mut BTreeSet<String>,
) -> Option<Vec<String>> {
    if from == to {
        return Some(vec![to.to_string()]);
    }
    if !seen.insert(from.to_string()) {
        return None;
    }
    for next in graph.get(from).into_iter().flatten() {
        if let Some(mut path) = path_back(graph, next, to, seen) {
            path.insert(0, from.to_string());
            return Some(path);
        }
    }
    None
}

#[test]
fn no_two_modules_depend_on_each_other() {
    let graph = dependencies();
    assert!(
        graph.contains_key("syntax::parse"),
        "the walk found the modules"
    );
    for (from, targets) in &graph {
        for to in targets {
            if let Some(path) = path_back(&graph, to, from, &mut BTreeSet::new()) {
                panic!("a cycle: {from} -> {}", path.join(" -> "));
            }
        }
    }
}

#[test]
fn the_lower_layers_know_nothing_above_them() {
    let graph = dependencies();
    let rules = [
        ("syntax::lexer", &["ast", "check", "model", "pipeline"][..]),
        ("ast", &["syntax", "check", "model", "pipeline"][..]),
        ("model", &["check", "pipeline", "syntax"][..]),
        ("check", &["pipeline", "syntax", "suppress"][..]),
        ("suppress", &["check", "model", "pipeline"][..]),
        ("syntax::actions::base", &["syntax::actions"][..]),
    ];
    for (module, forbidden) in rules {
        for to in graph.get(module).into_iter().flatten() {
            assert!(
                !forbidden
                    .iter()
                    .any(|f| to == f || to.starts_with(&format!("{f}::"))),
                "{module} depends on {to}"
            );
        }
    }
}
