//! The settings file: `pipeline-sql.toml`, or the `[tool.pipeline-sql]` table of
//! `pyproject.toml`, found in the directory of the first path checked or the nearest one above
//! it that has either (a `pyproject.toml` without the table is passed over).
//!
//! ```toml
//! select = ["INVALID_FLOW", "PIPELINE_"]   # codes or their starts; every code when absent
//! ignore = ["DEPRECATED_SYNTAX"]
//! exclude = ["scratch/", "*.generated.sql"] # .gitignore patterns, from this file's directory
//! catalog = "main"
//! schema = "sales"
//!
//! [parameters]
//! source_path = "/Volumes/main/landing"
//! ```

use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What a settings file holds; every key is optional.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    pub select: Option<Vec<String>>,
    pub ignore: Option<Vec<String>>,
    pub exclude: Option<Vec<String>>,
    pub catalog: Option<String>,
    pub schema: Option<String>,
    #[serde(default)]
    pub parameters: BTreeMap<String, String>,
}

/// A settings file that was read, and the directory its relative paths start from.
#[derive(Debug, Default)]
pub struct Found {
    pub config: Config,
    /// The file, when there is one.
    pub path: Option<PathBuf>,
}

impl Found {
    /// The directory that the file's `exclude` patterns are relative to.
    pub fn root(&self) -> Option<&Path> {
        self.path.as_deref().and_then(Path::parent)
    }
}

/// The settings file that applies to `start` (a file or directory), if any.
pub fn discover(start: &Path, limit: u64) -> Result<Found, String> {
    let start = std::fs::canonicalize(start).unwrap_or_else(|_| start.to_path_buf());
    let first_dir = if start.is_dir() {
        Some(start.as_path())
    } else {
        start.parent()
    };
    for dir in first_dir.into_iter().flat_map(Path::ancestors) {
        let own = dir.join("pipeline-sql.toml");
        if own.is_file() {
            return load(&own, limit);
        }
        let pyproject = dir.join("pyproject.toml");
        if pyproject.is_file() {
            let found = load(&pyproject, limit)?;
            if found.path.is_some() {
                return Ok(found);
            }
        }
    }
    Ok(Found::default())
}

/// Reads the settings file at `path` (at most `limit` bytes): `pipeline-sql.toml` itself, or any other file's
/// `[tool.pipeline-sql]` table (`Found::path` is `None` when it has none).
pub fn load(path: &Path, limit: u64) -> Result<Found, String> {
    let text = pipeline_sql::files::read_regular(path, limit)
        .map_err(|e| format!("{}: not read: {e}", path.display()))?;
    let at = |e: toml::de::Error| located(path, &text, &e);
    let own_file = path
        .file_name()
        .is_some_and(|name| name == "pipeline-sql.toml");
    let config = if own_file {
        Some(toml::from_str::<Config>(&text).map_err(at)?)
    } else {
        #[derive(Deserialize)]
        struct PyProject {
            tool: Option<Tool>,
        }
        #[derive(Deserialize)]
        struct Tool {
            #[serde(rename = "pipeline-sql")]
            pipeline_sql: Option<Config>,
        }
        let pyproject: PyProject = toml::from_str(&text).map_err(at)?;
        pyproject.tool.and_then(|tool| tool.pipeline_sql)
    };
    Ok(match config {
        Some(config) => Found {
            config,
            path: Some(path.to_path_buf()),
        },
        None => Found::default(),
    })
}

/// `path:line:column: message` for an error in a settings file.
fn located(path: &Path, text: &str, error: &toml::de::Error) -> String {
    let message = error.message();
    match error.span() {
        Some(span) => {
            let (line, column) = pipeline_sql::LineIndex::new(text).line_column(span.start as u32);
            format!("{}:{line}:{column}: {message}", path.display())
        }
        None => format!("{}: {message}", path.display()),
    }
}
