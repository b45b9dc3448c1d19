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
    /// The file itself, however named ([`crate::inputs::Input::identity`]).
    pub identity: PathBuf,
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
    // Where each file changed is in `fixed.changes`, by the file itself (however it is named).
    let mut changed: HashMap<PathBuf, usize> = HashMap::new();
    let shared = crate::shared_files(runs);
    for run in runs {
        // Texts the pipelines before this one changed.
        for input in &mut run.inputs {
            let earlier = changed.get(&input.identity()).map(|&i| &fixed.changes[i]);
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
        // A noqa comment of a file another pipeline reads may be for that one: not removed.
        let is_shared: Vec<bool> = readable
            .iter()
            .map(|&i| shared.contains(&run.inputs[i].identity()))
            .collect();
        let results = pipeline_sql::fix::fix_sources(texts, level, |texts| {
            let report = run.check_texts(selection, texts.iter().map(String::as_str));
            let sources = report.sources.into_iter().zip(&is_shared);
            sources
                .map(|(mut source, &shared)| {
                    if shared {
                        source
                            .diagnostics
                            .retain(|d| d.code_enum() != Code::UnusedNoqa);
                    }
                    source.diagnostics
                })
                .collect()
        });
        for (&i, result) in readable.iter().zip(results) {
            let input = &mut run.inputs[i];
            if result.syntax_error {
                fixed.syntax_errors.push(input.name.clone());
                continue;
            }
            let file = input.identity();
            let Ok(text) = &mut input.text else { continue };
            if result.fixed.is_empty() {
                continue;
            }
            let before = std::mem::replace(text, result.text.clone());
            match changed.get(&file) {
                Some(&i) => {
                    fixed.changes[i].after = result.text;
                    fixed.changes[i].fixed.extend(result.fixed);
                }
                None => {
                    changed.insert(file.clone(), fixed.changes.len());
                    fixed.changes.push(Change {
                        name: input.name.clone(),
                        file: input.file.clone(),
                        identity: file,
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

/// The changes as one unified diff, `--- name` / `+++ name` per file with the names as given
/// (relative to the working directory): `patch -p0` and `git apply -p0` apply it.
pub fn diff(changes: &[Change]) -> String {
    let mut out = String::new();
    for change in changes {
        let diff = similar::TextDiff::from_lines(&change.before, &change.after);
        let name = diff_name(&change.name);
        out.push_str(
            &diff
                .unified_diff()
                .context_radius(3)
                .header(&name, &name)
                .to_string(),
        );
    }
    out
}

/// `diff` as printed: exact, so that patch applies it, except that
/// - on a `terminal`, its control characters are shown escaped (it is there to be read, and a
///   file's escape sequences would act on the terminal);
/// - when a line of it would read as a GitHub Actions workflow command (a context line
///   ` ::error ...` of a file), it is printed between `::stop-commands::TOKEN` and
///   `::TOKEN::`, which make the runner run no command in between. The token is random, so that
///   no file can end the pause; patch and git apply pass over both lines.
pub fn shown(diff: String, terminal: bool) -> String {
    let diff = match terminal {
        true => diff
            .split_inclusive('\n')
            .map(|line| match line.strip_suffix('\n') {
                Some(line) => format!("{}\n", pipeline_sql::report::escape(line)),
                None => pipeline_sql::report::escape(line).into_owned(),
            })
            .collect(),
        false => diff,
    };
    if !diff.lines().any(pipeline_sql::report::reads_as_a_command) {
        return diff;
    }
    use std::hash::{BuildHasher, Hasher};
    let token = std::collections::hash_map::RandomState::new()
        .build_hasher()
        .finish();
    format!("::stop-commands::{token:016x}\n{diff}::{token:016x}::\n")
}

/// A file name in a diff header, as git writes it: in double quotes with C escapes when it
/// holds a control character, a quote or a backslash (GNU patch reads those too), followed by
/// a tab when it holds a space (so that patch does not end it there).
fn diff_name(name: &str) -> String {
    if name
        .chars()
        .any(|c| c.is_control() || c == '"' || c == '\\')
    {
        let mut quoted = String::from("\"");
        for c in name.chars() {
            match c {
                '"' | '\\' => quoted.extend(['\\', c]),
                '\n' => quoted.push_str("\\n"),
                '\t' => quoted.push_str("\\t"),
                c if c.is_control() => {
                    let mut bytes = [0; 4];
                    for byte in c.encode_utf8(&mut bytes).bytes() {
                        quoted.push_str(&format!("\\{byte:03o}"));
                    }
                }
                c => quoted.push(c),
            }
        }
        quoted.push('"');
        quoted
    } else if name.contains(' ') {
        format!("{name}\t")
    } else {
        name.to_string()
    }
}

/// Writes the fixed text `after` to `path`, whole or not at all, when the file is still the
/// text `before` that was read; otherwise says why not.
///
/// - Through symbolic links: the file a link names is written, and the link stays a link; but
///   never through `/proc` (`/dev/stdin` is such a link).
/// - Only a regular file that can be written: a FIFO, a device, a read-only file, and a file
///   with other hard links (which a new file renamed over it would split from it) are refused.
/// - Into a new file beside it, created readable by its owner alone, given the old file's
///   owner, group and mode, flushed to disk, then renamed over it.
/// - Never over an edit saved since the file was read: its text is compared before the write
///   and again just before the rename.
pub fn write_fix(path: &Path, before: &str, after: &str) -> Result<(), String> {
    if through_proc(path) {
        return Err("it is an open file reached through /proc (as stdin is)".into());
    }
    let file = std::fs::canonicalize(path).map_err(|e| e.to_string())?;
    let metadata = std::fs::metadata(&file).map_err(|e| e.to_string())?;
    if !metadata.file_type().is_file() {
        return Err("it is not a regular file".into());
    }
    if metadata.permissions().readonly() {
        return Err("it is read-only".into());
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if metadata.nlink() > 1 {
            return Err(format!(
                "it has {} hard links, which a rewrite would split: fix it by hand",
                metadata.nlink()
            ));
        }
    }
    let unchanged = || match std::fs::read(&file) {
        Ok(now) if now == before.as_bytes() => Ok(()),
        Ok(_) => Err("it changed since it was read: check it again".to_string()),
        Err(e) => Err(e.to_string()),
    };
    unchanged()?;
    let temporary = temporary_beside(&file);
    let mut new = create_private(&temporary).map_err(|e| e.to_string())?;
    let written = (|| {
        new.write_all(after.as_bytes())?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            std::os::unix::fs::fchown(&new, Some(metadata.uid()), Some(metadata.gid()))?;
        }
        // After the owner: a change of owner clears set-user-ID and set-group-ID bits.
        new.set_permissions(metadata.permissions())?;
        new.sync_all()
    })()
    .map_err(|e| e.to_string())
    .and_then(|()| unchanged())
    .and_then(|()| std::fs::rename(&temporary, &file).map_err(|e| e.to_string()));
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written
}

/// Whether `path` leads through `/proc`, whose links (`/dev/stdin` is one) name open files
/// rather than paths: the file behind them is not the one named, and is never replaced.
fn through_proc(path: &Path) -> bool {
    let mut current = path.to_path_buf();
    // As many links as the system follows.
    for _ in 0..40 {
        let parent = current.parent().filter(|p| !p.as_os_str().is_empty());
        let parent = parent.unwrap_or(Path::new(".")).to_path_buf();
        if std::fs::canonicalize(&parent).is_ok_and(|p| p.starts_with("/proc")) {
            return true;
        }
        match std::fs::read_link(&current) {
            Ok(next) => current = parent.join(next),
            Err(_) => return false,
        }
    }
    true
}

/// Creates the file at `path`, which must not exist (a link there is not followed), readable
/// and writable by its owner alone.
fn create_private(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)
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
    use std::process::Command;

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

    #[cfg(unix)]
    fn mode(path: &Path) -> u32 {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(path).unwrap().permissions().mode() & 0o7777
    }

    #[test]
    fn a_write_replaces_the_file_whole_and_keeps_its_mode() {
        let dir = scratch("replaces");
        let path = dir.join("a.sql");
        let before = "CREATE LIVE TABLE t AS SELECT 1;";
        std::fs::write(&path, before).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        }
        write_fix(&path, before, "CREATE MATERIALIZED VIEW t AS SELECT 1;").unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "CREATE MATERIALIZED VIEW t AS SELECT 1;"
        );
        assert_eq!(files_in(&dir), ["a.sql"]);
        #[cfg(unix)]
        assert_eq!(mode(&path), 0o640);
    }

    #[test]
    fn a_failed_write_leaves_the_file_as_it_was_and_no_new_file() {
        let dir = scratch("fails");
        let missing = dir.join("gone.sql");
        assert!(write_fix(&missing, "", "text").is_err());
        assert_eq!(files_in(&dir), Vec::<String>::new());
        // The new file's name is taken: nothing is written, and what has the name stays.
        let path = dir.join("b.sql");
        std::fs::write(&path, "before").unwrap();
        std::fs::write(temporary_beside(&path), "someone else's").unwrap();
        assert!(write_fix(&path, "before", "after").is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "before");
        assert_eq!(
            std::fs::read_to_string(temporary_beside(&path)).unwrap(),
            "someone else's"
        );
    }

    #[test]
    fn an_edit_saved_since_the_read_is_kept() {
        let dir = scratch("edited");
        let path = dir.join("a.sql");
        std::fs::write(&path, "edited by hand").unwrap();
        let why = write_fix(&path, "as it was read", "fixed").unwrap_err();
        assert!(why.contains("changed since it was read"), "{why}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "edited by hand");
        assert_eq!(files_in(&dir), ["a.sql"]);
    }

    #[cfg(unix)]
    #[test]
    fn links_fifos_read_only_files_and_hard_links() {
        use std::os::unix::fs::{FileTypeExt, PermissionsExt};
        let dir = scratch("links");
        // A symbolic link stays a link, and the file it names is fixed.
        std::fs::write(dir.join("real.sql"), "old").unwrap();
        std::os::unix::fs::symlink("real.sql", dir.join("link.sql")).unwrap();
        write_fix(&dir.join("link.sql"), "old", "new").unwrap();
        assert!(std::fs::symlink_metadata(dir.join("link.sql"))
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(
            std::fs::read_to_string(dir.join("real.sql")).unwrap(),
            "new"
        );
        // A FIFO is never replaced (nor opened: a read would block).
        let fifo = dir.join("pipe.sql");
        let made = Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            let why = write_fix(&fifo, "", "new").unwrap_err();
            assert!(why.contains("not a regular file"), "{why}");
            assert!(std::fs::symlink_metadata(&fifo)
                .unwrap()
                .file_type()
                .is_fifo());
        }
        // A read-only file is left alone, even by root.
        let read_only = dir.join("read-only.sql");
        std::fs::write(&read_only, "old").unwrap();
        std::fs::set_permissions(&read_only, std::fs::Permissions::from_mode(0o444)).unwrap();
        let why = write_fix(&read_only, "old", "new").unwrap_err();
        assert!(why.contains("read-only"), "{why}");
        assert_eq!(std::fs::read_to_string(&read_only).unwrap(), "old");
        // A file with another hard link is refused: the links stay one file.
        std::fs::write(dir.join("linked.sql"), "old").unwrap();
        std::fs::hard_link(dir.join("linked.sql"), dir.join("other.sql")).unwrap();
        let why = write_fix(&dir.join("linked.sql"), "old", "new").unwrap_err();
        assert!(why.contains("hard links"), "{why}");
        assert_eq!(
            std::fs::read_to_string(dir.join("other.sql")).unwrap(),
            "old"
        );
    }

    #[cfg(unix)]
    #[test]
    fn the_owner_group_and_special_bits_are_kept() {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        let dir = scratch("owner");
        let path = dir.join("a.sql");
        std::fs::write(&path, "old").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o2664)).unwrap();
        // Another owner and group, where this process may give them (as root).
        let _ = std::os::unix::fs::chown(&path, Some(12345), Some(23456));
        let (uid, gid) = {
            let m = std::fs::metadata(&path).unwrap();
            (m.uid(), m.gid())
        };
        write_fix(&path, "old", "new").unwrap();
        let m = std::fs::metadata(&path).unwrap();
        assert_eq!((m.uid(), m.gid()), (uid, gid));
        assert_eq!(mode(&path), 0o2664);
    }
}
