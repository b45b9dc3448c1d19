//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The fixtures directory.
pub fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// Every `*.sql` file below `tests/fixtures/<kind>`, sorted, with its path relative to that
/// directory (using `/`).
pub fn fixtures(kind: &str) -> Vec<(String, String)> {
    let root = fixtures_dir().join(kind);
    let mut files = Vec::new();
    collect(&root, &mut files);
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let name = path
                .strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            let text = std::fs::read_to_string(&path).unwrap();
            (name, text)
        })
        .collect()
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "sql") {
            out.push(path);
        }
    }
}

/// Every fixture, ok and err, plus the sample pipelines in `examples/`.
pub fn all_sources() -> Vec<(String, String)> {
    let mut all = fixtures("ok");
    all.extend(fixtures("err"));
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut files = Vec::new();
    collect(&examples, &mut files);
    files.sort();
    for path in files {
        all.push((
            path.display().to_string(),
            std::fs::read_to_string(&path).unwrap(),
        ));
    }
    // The conformance corpus, one source per statement (the recovery tests parse every prefix).
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance/queries.sql");
    let corpus = std::fs::read_to_string(corpus).unwrap();
    for (i, line) in corpus.lines().enumerate() {
        all.push((format!("queries.sql:{}", i + 1), line.to_string()));
    }
    all
}

/// `Debug` output with every span (`12..34`) blanked, to compare trees regardless of position.
pub fn without_spans(debug: &str) -> String {
    let bytes = debug.as_bytes();
    let mut out = String::with_capacity(debug.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric()) {
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            if debug[i..].starts_with("..") && bytes.get(i + 2).is_some_and(u8::is_ascii_digit) {
                i += 2;
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
                out.push('_');
                continue;
            }
            out.push_str(&debug[start..i]);
            continue;
        }
        let c = debug[i..].chars().next().unwrap();
        out.push(c);
        i += c.len_utf8();
    }
    out
}
