//! The `pipeline-sql` command: checks pipeline SQL files before they are deployed.
//!
//! `pipeline-sql check [--format human|concise|json|github] [--color auto|always|never]
//! [--pipeline] [--param KEY=VALUE]... PATH...` (`-` reads stdin).
//! `pipeline-sql rules` lists every code; `pipeline-sql rule CODE` explains one.
//! Exit status: 0 without errors, 1 with at least one error, 2 on a usage or I/O error.

use clap::{Parser, Subcommand, ValueEnum};
use pipeline_sql::report;
use pipeline_sql::{Code, Pipeline};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "pipeline-sql",
    version,
    about = "Checks declarative pipeline SQL before it is deployed"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Parse and check pipeline source files; all files given form one pipeline.
    Check(CheckOptions),
    /// List every code with its severity, what it is about and what triggers it.
    Rules,
    /// Explain a code: what triggers it, why the engine rejects it, an example and the fix.
    Rule {
        /// The code, as a diagnostic shows it: `INVALID_FLOW_QUERY_TYPE.BATCH_READ`.
        code: String,
    },
}

/// The pages of `docs/codes/`, by code (written by `build.rs`).
const CODE_PAGES: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/code_pages.rs"));

#[derive(clap::Args)]
struct CheckOptions {
    /// How to print the diagnostics.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Colours in the human report: on a terminal unless NO_COLOR is set (auto), or always,
    /// or never.
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    color: Color,
    /// The name that the text read from stdin (PATH `-`) is reported under.
    #[arg(long, value_name = "NAME", default_value = "<stdin>")]
    stdin_filename: String,
    /// The files given are the whole pipeline (enables the rules that conclude from an
    /// absence: flow targets declared nowhere, tables no flow writes, an empty pipeline).
    #[arg(long)]
    pipeline: bool,
    /// A pipeline parameter, `key=value`: `${key}` in names resolves with it. Repeatable.
    #[arg(long = "param", value_name = "KEY=VALUE", value_parser = parse_param)]
    params: Vec<(String, String)>,
    /// The largest file read, in MiB: a larger one is an error, read no further (a generated
    /// file gone wrong, or a device given as a file).
    #[arg(long, value_name = "MIB", default_value_t = 256)]
    max_file_size: u64,
    /// Files, or directories searched for `*.sql` files; `-` reads stdin.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
}

fn parse_param(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((key, value)) if !key.is_empty() => Ok((key.to_string(), value.to_string())),
        _ => Err(format!("`{text}` is not KEY=VALUE")),
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    /// miette reports with source snippets.
    Human,
    /// One line per diagnostic: `file:line:column: severity[CODE] message`.
    Concise,
    /// One JSON document on stdout.
    Json,
    /// GitHub Actions workflow commands, which annotate the files of a pull request.
    Github,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Color {
    Auto,
    Always,
    Never,
}

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Command::Check(options) => check(&options),
        Command::Rules => print(&rules()).map(|()| false),
        Command::Rule { code } => page(&code).and_then(print).map(|()| false),
    };
    match result {
        Ok(true) => ExitCode::from(1),
        Ok(false) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("pipeline-sql: {message}");
            ExitCode::from(2)
        }
    }
}

fn print(text: &str) -> Result<(), String> {
    std::io::stdout()
        .write_all(text.as_bytes())
        .map_err(|e| format!("writing to stdout: {e}"))
}

/// One line per code: `CODE  severity  family: what triggers it`.
fn rules() -> String {
    let width = Code::ALL
        .iter()
        .map(|c| c.as_str().len())
        .max()
        .unwrap_or(0);
    Code::ALL
        .iter()
        .map(|code| {
            format!(
                "{:width$}  {:7}  {}: {}\n",
                code.as_str(),
                severity(code.as_str()),
                code.family().title(),
                code.summary()
            )
        })
        .collect()
}

/// The severity a code's page states (`Severity: warning.`); an error where the page has no
/// example.
fn severity(code: &str) -> &'static str {
    match page(code) {
        Ok(page) if page.contains("\nSeverity: warning.") => "warning",
        _ => "error",
    }
}

/// The page of `code` (any case), or what the codes like it are.
fn page(code: &str) -> Result<&'static str, String> {
    let code = code.trim().to_ascii_uppercase();
    if let Some((_, page)) = CODE_PAGES.iter().find(|(name, _)| *name == code) {
        return Ok(page);
    }
    let like: Vec<&str> = CODE_PAGES
        .iter()
        .map(|(name, _)| *name)
        .filter(|name| {
            name.starts_with(&code) || code.starts_with(name.split('.').next().unwrap_or(name))
        })
        .collect();
    Err(match like.as_slice() {
        [] => format!("no code `{code}`; `pipeline-sql rules` lists them"),
        _ => format!("no code `{code}`; codes like it: {}", like.join(", ")),
    })
}

/// Checks the files; `Ok(true)` when an error was found.
fn check(options: &CheckOptions) -> Result<bool, String> {
    let files = collect_files(&options.paths)?;
    let limit = options.max_file_size.saturating_mul(1 << 20);
    let mut texts = Vec::with_capacity(files.len());
    for file in &files {
        let (name, text) = if file.as_os_str() == "-" {
            let text = read_limited(std::io::stdin().lock(), limit)
                .map_err(|e| format!("{}: {e}", options.stdin_filename))?;
            (options.stdin_filename.clone(), text)
        } else {
            let text = read_file(file, limit).map_err(|e| format!("{}: {e}", file.display()))?;
            (file.display().to_string(), text)
        };
        texts.push((name, text));
    }
    let mut pipeline = Pipeline::new();
    pipeline.complete(options.pipeline);
    for (key, value) in &options.params {
        pipeline.param(key, value);
    }
    for (path, text) in &texts {
        pipeline.add_source(path, text);
    }
    let arena = pipeline_sql::Arena::new();
    let checked = pipeline.check(&arena);
    let reports = report::file_reports(&checked);
    let output = match options.format {
        Format::Json => report::render_json(&reports) + "\n",
        Format::Concise => report::render_concise(&reports),
        Format::Github => report::render_github(&reports),
        Format::Human => report::render_human(&reports, 100, colored(options.color)),
    };
    std::io::stdout()
        .write_all(output.as_bytes())
        .map_err(|e| format!("writing the report: {e}"))?;
    Ok(checked.has_errors())
}

/// Whether the human report is coloured: `--color`, and for `auto` a terminal without
/// `NO_COLOR` set (<https://no-color.org>).
fn colored(color: Color) -> bool {
    match color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => {
            std::io::stdout().is_terminal()
                && std::env::var_os("NO_COLOR").map_or(true, |v| v.is_empty())
        }
    }
}

/// The text of `path`, read no further than `limit` bytes.
fn read_file(path: &Path, limit: u64) -> Result<String, String> {
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    read_limited(file, limit)
}

/// The text `reader` gives, read no further than `limit` bytes.
fn read_limited(reader: impl std::io::Read, limit: u64) -> Result<String, String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > limit {
        return Err(format!(
            "larger than {} MiB, not read (raise --max-file-size to check it)",
            limit >> 20
        ));
    }
    String::from_utf8(bytes).map_err(|_| "stream did not contain valid UTF-8".to_string())
}

/// The files named, and every `*.sql` file below the directories named, in a stable order;
/// each file once, however often it is named or reached (through a symbolic link, say).
fn collect_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for path in paths {
        if path.as_os_str() == "-" {
            files.push(path.clone());
        } else if path.is_dir() {
            let before = files.len();
            walk(path, &mut files, &mut Vec::new())?;
            files[before..].sort();
        } else if path.exists() {
            // A file, or anything readable as one (`/dev/stdin`, a named pipe).
            files.push(path.clone());
        } else {
            return Err(format!("{}: no such file or directory", path.display()));
        }
    }
    let mut seen = std::collections::HashSet::new();
    files.retain(|file| {
        let identity = std::fs::canonicalize(file).unwrap_or_else(|_| file.clone());
        seen.insert(identity)
    });
    if files.is_empty() {
        return Err("no *.sql file found in the paths given".to_string());
    }
    Ok(files)
}

/// Adds the `*.sql` files below `dir` to `files`. `above` holds the directories being walked
/// (as their canonical paths), so that a symbolic link to one of them is not followed into a
/// loop.
fn walk(dir: &Path, files: &mut Vec<PathBuf>, above: &mut Vec<PathBuf>) -> Result<(), String> {
    let canonical = std::fs::canonicalize(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    if above.contains(&canonical) {
        return Ok(());
    }
    above.push(canonical);
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries {
        let path = entry.map_err(|e| format!("{}: {e}", dir.display()))?.path();
        if path.is_dir() {
            walk(&path, files, above)?;
        } else if path.is_file()
            && path
                .extension()
                .is_some_and(|ext| ext.eq_ignore_ascii_case("sql"))
        {
            // Only regular files: a named pipe called `x.sql` in a directory would block the
            // check forever.
            files.push(path);
        }
    }
    above.pop();
    Ok(())
}
