//! The files a check reads: the ones named, and the `*.sql` files below the directories named,
//! as `.gitignore` files and `--exclude` patterns leave them; each file once.

use ignore::gitignore::{Gitignore, GitignoreBuilder};
use pipeline_sql::files::read_limited;
use pipeline_sql::{Code, Diagnostic, Span};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A source to check: its name, the file it was read from (none for stdin), and its text or
/// the diagnostic that says why it could not be read.
pub struct Input {
    pub name: String,
    pub file: Option<PathBuf>,
    pub text: Result<String, [Diagnostic; 1]>,
}

impl Input {
    /// The file itself, however it was named (its canonical path), or the name of stdin.
    pub fn identity(&self) -> PathBuf {
        match &self.file {
            Some(file) => std::fs::canonicalize(file).unwrap_or_else(|_| file.clone()),
            None => PathBuf::from(&self.name),
        }
    }
}

/// `.gitignore`-style patterns, each set relative to its own directory.
#[derive(Clone, Default)]
pub struct Excludes {
    sets: Vec<Gitignore>,
}

impl Excludes {
    /// Adds `patterns`, relative to `root`.
    pub fn add(&mut self, root: &Path, patterns: &[String]) -> Result<(), String> {
        if patterns.is_empty() {
            return Ok(());
        }
        let root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
        let mut builder = GitignoreBuilder::new(&root);
        for pattern in patterns {
            builder
                .add_line(None, pattern)
                .map_err(|e| format!("exclude pattern `{pattern}`: {e}"))?;
        }
        self.sets.push(
            builder
                .build()
                .map_err(|e| format!("exclude patterns: {e}"))?,
        );
        Ok(())
    }

    /// Whether `path` (absolute, with the directories' canonical paths) is excluded.
    fn excludes(&self, path: &Path, is_dir: bool) -> bool {
        self.sets.iter().any(|set| {
            path.starts_with(set.path())
                && set.matched_path_or_any_parents(path, is_dir).is_ignore()
        })
    }
}

/// A file to read, or a path that could not be walked and why.
pub type Found = Result<PathBuf, (PathBuf, String)>;

/// The paths named, and every `*.sql` file below the directories named (in order, each
/// directory's files sorted), each file once however often it is named or reached. `-` stays
/// as it is, for stdin.
pub fn collect(paths: &[PathBuf], excludes: &Excludes) -> Result<Vec<Found>, String> {
    let mut files = Vec::new();
    for path in paths {
        if path.as_os_str() == "-" {
            files.push(Ok(path.clone()));
        } else if path.is_dir() {
            walk(path, excludes, &mut files);
        } else if path.exists() {
            // Named, so checked: a file, or anything readable as one (`/dev/stdin`, a pipe).
            files.push(Ok(path.clone()));
        } else {
            return Err(format!("{}: no such file or directory", path.display()));
        }
    }
    let mut seen = std::collections::HashSet::new();
    files.retain(|found| match found {
        Ok(file) => seen.insert(std::fs::canonicalize(file).unwrap_or_else(|_| file.clone())),
        Err(_) => true,
    });
    if files.is_empty() {
        return Err("no *.sql file found in the paths given".to_string());
    }
    Ok(files)
}

/// Adds the `*.sql` files below `dir`. Symbolic links are followed, but not into a directory
/// being walked (a loop); hidden files and directories, and what `.gitignore` files ignore, are
/// passed over. What cannot be read is added as such, and the walk goes on.
fn walk(dir: &Path, excludes: &Excludes, files: &mut Vec<Found>) {
    let canonical = match std::fs::canonicalize(dir) {
        Ok(canonical) => canonical,
        Err(e) => return files.push(Err((dir.to_path_buf(), e.to_string()))),
    };
    let (excludes, shown_root) = (Arc::new(excludes.clone()), dir.to_path_buf());
    let walker = ignore::WalkBuilder::new(dir)
        .follow_links(true)
        .require_git(false)
        .sort_by_file_path(Path::cmp)
        .filter_entry(move |entry| {
            // Matched as the canonical directory and the names below it, so that a pattern
            // says the same from any working directory.
            let below = entry
                .path()
                .strip_prefix(&shown_root)
                .unwrap_or(entry.path());
            let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
            !excludes.excludes(&canonical.join(below), is_dir)
        })
        .build();
    for entry in walker {
        match entry {
            Ok(entry) => {
                // Only regular files: a named pipe called `x.sql` would block the check.
                let regular = entry.file_type().is_some_and(|t| t.is_file());
                let sql = entry
                    .path()
                    .extension()
                    .is_some_and(|ext| ext.eq_ignore_ascii_case("sql"));
                if regular && sql {
                    files.push(Ok(entry.into_path()));
                }
            }
            // A link back into a directory being walked is simply not followed.
            Err(e) if is_loop(&e) => {}
            Err(e) => files.push(Err(unwalked(dir, e))),
        }
    }
}

fn is_loop(error: &ignore::Error) -> bool {
    match error {
        ignore::Error::Loop { .. } => true,
        ignore::Error::WithPath { err, .. } | ignore::Error::WithDepth { err, .. } => is_loop(err),
        _ => false,
    }
}

/// The path a walk error is about (`dir` when it names none), and the error.
fn unwalked(dir: &Path, error: ignore::Error) -> (PathBuf, String) {
    match error {
        ignore::Error::WithPath { path, err } => (path, err.to_string()),
        ignore::Error::WithDepth { err, .. } => unwalked(dir, *err),
        other => (dir.to_path_buf(), other.to_string()),
    }
}

/// Reads the files found, in order, on every core (`-` is stdin, named `stdin_name`), each no
/// further than `limit` bytes.
pub fn read_all(found: &[Found], stdin_name: &str, limit: u64) -> Vec<Input> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = found.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = found
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|f| read(f, stdin_name, limit))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| {
                h.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    })
}

/// Reads a file found (`-` is stdin, named `stdin_name`), no further than `limit` bytes.
fn read(found: &Found, stdin_name: &str, limit: u64) -> Input {
    let (name, text) = match found {
        Err((path, why)) => (path.display().to_string(), Err(why.clone())),
        Ok(file) if file.as_os_str() == "-" => (
            stdin_name.to_string(),
            read_limited(std::io::stdin().lock(), limit),
        ),
        Ok(file) => (
            file.display().to_string(),
            std::fs::File::open(file)
                .map_err(|e| e.to_string())
                .and_then(|f| read_limited(f, limit)),
        ),
    };
    let not_read = |why| {
        [Diagnostic::error(
            Code::SourceNotRead,
            Span::new(0, 0),
            format!("not read: {why}"),
        )]
    };
    Input {
        name,
        file: found
            .as_ref()
            .ok()
            .filter(|f| f.as_os_str() != "-")
            .cloned(),
        text: text.map_err(not_read),
    }
}
