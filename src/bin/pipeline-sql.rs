//! The `pipeline-sql` command: checks pipeline SQL files before they are deployed.
//!
//! `pipeline-sql check [--format human|json] [--pipeline] PATH...`
//! Exit status: 0 without errors, 1 with at least one error, 2 on a usage or I/O error.

use clap::{Parser, Subcommand, ValueEnum};
use pipeline_sql::report::{self, FileReport};
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
    Check {
        /// How to print the diagnostics.
        #[arg(long, value_enum, default_value_t = Format::Human)]
        format: Format,
        /// The files given are the whole pipeline (enables the rules that conclude from an absence).
        #[arg(long)]
        pipeline: bool,
        /// Files, or directories searched for `*.sql` files.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    /// miette reports with source snippets.
    Human,
    /// One JSON document on stdout.
    Json,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let Command::Check {
        format,
        pipeline: _,
        paths,
    } = cli.command;
    match check(format, &paths) {
        Ok(true) => ExitCode::from(1),
        Ok(false) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("pipeline-sql: {message}");
            ExitCode::from(2)
        }
    }
}

/// Checks the files; `Ok(true)` when an error was found.
fn check(format: Format, paths: &[PathBuf]) -> Result<bool, String> {
    let files = collect_files(paths)?;
    let mut sources = Vec::with_capacity(files.len());
    for file in &files {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
        sources.push((file.display().to_string(), text));
    }
    let parsed: Vec<_> = sources
        .iter()
        .map(|(_, text)| pipeline_sql::check(text))
        .collect();
    let reports: Vec<FileReport<'_>> = sources
        .iter()
        .zip(&parsed)
        .map(|((path, text), parsed)| FileReport {
            path,
            source: text,
            statements: parsed.script().statements.len(),
            diagnostics: parsed.diagnostics(),
        })
        .collect();
    let output = match format {
        Format::Json => report::render_json(&reports) + "\n",
        Format::Human => {
            let stdout = std::io::stdout();
            report::render_human(&reports, 100, stdout.is_terminal())
        }
    };
    std::io::stdout()
        .write_all(output.as_bytes())
        .map_err(|e| format!("writing the report: {e}"))?;
    Ok(parsed.iter().any(|p| p.has_errors()))
}

/// The files named, and every `*.sql` file below the directories named, in a stable order.
fn collect_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let before = files.len();
            walk(path, &mut files)?;
            files[before..].sort();
        } else if path.is_file() {
            files.push(path.clone());
        } else {
            return Err(format!("{}: no such file or directory", path.display()));
        }
    }
    Ok(files)
}

fn walk(dir: &Path, files: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries {
        let path = entry.map_err(|e| format!("{}: {e}", dir.display()))?.path();
        if path.is_dir() {
            walk(&path, files)?;
        } else if path
            .extension()
            .is_some_and(|ext| ext.eq_ignore_ascii_case("sql"))
        {
            files.push(path);
        }
    }
    Ok(())
}
