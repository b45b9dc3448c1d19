//! `check --fix` and `--diff`: each pipeline's fixes applied round after round
//! ([`pipeline_sql::fix::fix_sources`]), and the files changed written whole or not at all, or
//! shown as a unified diff.

use crate::Run;
use pipeline_sql::suppress::Selection;
use pipeline_sql::{Applicability, Code};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// A file the fixes change: its text before and after, and the codes fixed.
pub struct Change {
    pub name: String,
    pub file: Option<PathBuf>,
    pub before: String,
    pub after: String,
    pub fixed: Vec<Code>,
}

/// What fixing the pipelines did.
#[derive(Default)]
pub struct Fixed {
    /// The files changed, in the order they were first read.
    pub changes: Vec<Change>,
    /// The files left alone because they have a syntax error.
    pub syntax_errors: Vec<String>,
}

/// Fixes every pipeline in turn, replacing the text of its inputs with the fixed text; a file
/// that several pipelines read is fixed by each in turn, from the text the last one left.
pub fn fix_runs(runs: &mut [Run], selection: &Selection, level: Applicability) -> Fixed {
    let mut fixed = Fixed::default();
    // Where each file changed is in `fixed.changes`.
    let mut changed: HashMap<String, usize> = HashMap::new();
    for run in runs {
        // Texts the pipelines before this one changed.
        for input in &mut run.inputs {
            let earlier = changed.get(&input.name).map(|&i| &fixed.changes[i]);
            if let (Some(change), Ok(text)) = (earlier, &mut input.text) {
                text.clone_from(&change.after);
            }
        }
        let readable: Vec<usize> = (0..run.inputs.len())
            .filter(|&i| run.inputs[i].text.is_ok())
            .collect();
        let texts: Vec<String> = readable
            .iter()
            .filter_map(|&i| run.inputs[i].text.clone().ok())
            .collect();
        let results = pipeline_sql::fix::fix_sources(texts, level, |texts| {
            let report = run.check_texts(selection, texts.iter().map(String::as_str));
            report.sources.into_iter().map(|s| s.diagnostics).collect()
        });
        for (&i, result) in readable.iter().zip(results) {
            let input = &mut run.inputs[i];
            if result.syntax_error {
                fixed.syntax_errors.push(input.name.clone());
                continue;
            }
            let Ok(text) = &mut input.text else { continue };
            if result.fixed.is_empty() {
                continue;
            }
            let before = std::mem::replace(text, result.text.clone());
            match changed.get(&input.name) {
                Some(&i) => {
                    fixed.changes[i].after = result.text;
                    fixed.changes[i].fixed.extend(result.fixed);
                }
                None => {
                    changed.insert(input.name.clone(), fixed.changes.len());
                    fixed.changes.push(Change {
                        name: input.name.clone(),
                        file: input.file.clone(),
                        before,
                        after: result.text,
                        fixed: result.fixed,
                    });
                }
            }
        }
    }
    fixed.syntax_errors.sort();
    fixed.syntax_errors.dedup();
    fixed
}

/// The changes as one unified diff, `--- name` / `+++ name` per file.
pub fn diff(changes: &[Change]) -> String {
    let mut out = String::new();
    for change in changes {
        let diff = similar::TextDiff::from_lines(&change.before, &change.after);
        out.push_str(
            &diff
                .unified_diff()
                .context_radius(3)
                .header(&change.name, &change.name)
                .to_string(),
        );
    }
    out
}

/// Writes `text` to `path` whole or not at all: into a new file beside it (with its
/// permissions), flushed to disk, then renamed over it. A failure leaves `path` as it was, and
/// removes the new file.
pub fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    let temporary = temporary_beside(path);
    let mut file = std::fs::File::create_new(&temporary)?;
    let written = (|| {
        file.write_all(text.as_bytes())?;
        file.sync_all()?;
        std::fs::set_permissions(&temporary, std::fs::metadata(path)?.permissions())?;
        std::fs::rename(&temporary, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written
}

/// `dir/.name.pipeline-sql-PID.tmp` for `dir/name`: in the same directory, so that the rename
/// is atomic.
fn temporary_beside(path: &Path) -> PathBuf {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let file = format!(".{name}.pipeline-sql-{}.tmp", std::process::id());
    match path.parent().filter(|p| !p.as_os_str().is_empty()) {
        Some(directory) => directory.join(file),
        None => PathBuf::from(file),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(test: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("pipeline-sql-fixing-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn files_in(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_write_replaces_the_file_whole_and_keeps_its_permissions() {
        let dir = scratch("replaces");
        let path = dir.join("a.sql");
        std::fs::write(&path, "CREATE LIVE TABLE t AS SELECT 1;").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        }
        write_atomically(&path, "CREATE MATERIALIZED VIEW t AS SELECT 1;").unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "CREATE MATERIALIZED VIEW t AS SELECT 1;"
        );
        assert_eq!(files_in(&dir), ["a.sql"]);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o640);
        }
    }

    #[test]
    fn a_failed_write_leaves_the_file_as_it_was_and_no_new_file() {
        let dir = scratch("fails");
        // The file is gone by the time its permissions are read: the write stops before the
        // rename, and removes what it wrote.
        let missing = dir.join("gone.sql");
        assert!(write_atomically(&missing, "text").is_err());
        assert_eq!(files_in(&dir), Vec::<String>::new());
        // The new file's name is taken: nothing is written, and what has the name stays.
        let path = dir.join("b.sql");
        std::fs::write(&path, "before").unwrap();
        std::fs::write(temporary_beside(&path), "someone else's").unwrap();
        assert!(write_atomically(&path, "after").is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "before");
        assert_eq!(
            std::fs::read_to_string(temporary_beside(&path)).unwrap(),
            "someone else's"
        );
    }
}
