//! The `pipeline-sql` command: checks pipeline SQL files before they are deployed.
//!
//! `pipeline-sql check [OPTIONS] PATH...` (`-` reads stdin; `check --help` lists the options).
//! `pipeline-sql rules` lists every code; `pipeline-sql rule CODE` explains one.
//! Exit status: 0 without errors, 1 with at least one error (or warning, with
//! `--warnings-as-errors`), 2 on a usage error or a file that could not be read.

mod config;
mod fixing;
mod inputs;

use clap::{Parser, Subcommand, ValueEnum};
use pipeline_sql::pipeline::PipelineReport;
use pipeline_sql::report::{self, FileReport};
use pipeline_sql::settings;
use pipeline_sql::suppress::Selection;
use pipeline_sql::{Applicability, Code, Pipeline};
use std::collections::{BTreeMap, HashMap, HashSet};
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
    Check(Box<CheckOptions>),
    /// List every code with its severity, what it is about and what triggers it.
    Rules,
    /// Print each pipeline's lineage: its datasets, flows, and what reads what.
    Graph(Box<GraphOptions>),
    /// Explain a code: what triggers it, why the engine rejects it, an example and the fix.
    Rule {
        /// The code, as a diagnostic shows it: `INVALID_FLOW_QUERY_TYPE.BATCH_READ`.
        code: String,
    },
}

#[derive(clap::Args)]
struct CheckOptions {
    /// How to print the diagnostics.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Colours in the human report: on a terminal unless NO_COLOR is set (auto), or always,
    /// or never.
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    color: Color,
    /// Report only these codes, or codes starting so (`INVALID_FLOW_QUERY_TYPE`); replaces the
    /// settings file's `select`.
    #[arg(long, value_name = "CODE", value_delimiter = ',')]
    select: Vec<String>,
    /// Do not report these codes, or codes starting so; added to the settings file's `ignore`.
    #[arg(long, value_name = "CODE", value_delimiter = ',')]
    ignore: Vec<String>,
    /// Exit with status 1 when there are warnings, as with errors.
    #[arg(long)]
    warnings_as_errors: bool,
    /// Apply the safe fixes to the files (each written whole, or left as it was), then report
    /// what is left. A file with a syntax error is not changed.
    #[arg(long, conflicts_with = "diff")]
    fix: bool,
    /// Print the changes the fixes would make as a unified diff, and change nothing; exit with
    /// status 1 when there are changes.
    #[arg(long)]
    diff: bool,
    /// With `--fix` or `--diff`, apply the unsafe fixes too: those that change what runs or
    /// rest on a guess.
    #[arg(long)]
    unsafe_fixes: bool,
    #[command(flatten)]
    input: InputOptions,
}

#[derive(clap::Args)]
struct GraphOptions {
    /// How to print the lineage.
    #[arg(long, value_enum, default_value_t = GraphFormat::Json)]
    format: GraphFormat,
    #[command(flatten)]
    input: InputOptions,
}

/// What to read, and the pipeline settings to read it with (`check` and `graph`).
#[derive(clap::Args)]
struct InputOptions {
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
    /// The pipeline's default catalog: `main.sales.orders` and `sales.orders` are one dataset
    /// with `--catalog main`.
    #[arg(long)]
    catalog: Option<String>,
    /// The pipeline's default schema: `sales.orders` and `orders` are one dataset with
    /// `--schema sales`.
    #[arg(long)]
    schema: Option<String>,
    /// Pass over the files and directories a `.gitignore`-style pattern matches, relative to
    /// the working directory, when walking a directory. Repeatable.
    #[arg(long, value_name = "PATTERN")]
    exclude: Vec<String>,
    /// The settings file to use, instead of the `pipeline-sql.toml` (or `pyproject.toml` with a
    /// `[tool.pipeline-sql]` table) found from the first path upwards.
    #[arg(long, value_name = "FILE", conflicts_with = "no_config")]
    config: Option<PathBuf>,
    /// Use no settings file.
    #[arg(long)]
    no_config: bool,
    /// The largest file read, in MiB: a larger one is an error, read no further (a generated
    /// file gone wrong, or a device given as a file).
    #[arg(long, value_name = "MIB", default_value_t = 256)]
    max_file_size: u64,
    /// The bundle target whose variables and overrides apply (the bundle's default target
    /// otherwise).
    #[arg(long, value_name = "NAME")]
    target: Option<String>,
    /// A bundle variable's value, `name=value`, over its default and its target's value (as
    /// `databricks bundle --var` gives it). Repeatable.
    #[arg(long = "var", value_name = "NAME=VALUE", value_parser = parse_param)]
    vars: Vec<(String, String)>,
    /// Files, or directories searched for `*.sql` files; `-` reads stdin. A pipeline settings
    /// file (`databricks.yml`, `spark-pipeline.yml`), or a directory holding one, is read as
    /// the pipelines it declares. Without a PATH, the settings file here.
    paths: Vec<PathBuf>,
}

impl InputOptions {
    /// The largest file read, in bytes.
    fn limit(&self) -> u64 {
        self.max_file_size.saturating_mul(1 << 20)
    }
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
    /// SARIF 2.1.0, for code scanning.
    Sarif,
    /// JUnit XML, for CI test reports.
    Junit,
}

#[derive(Clone, Copy, ValueEnum)]
enum GraphFormat {
    /// One JSON document (see `report::render_lineage_json`).
    Json,
    /// Graphviz DOT.
    Dot,
    /// A Mermaid flowchart.
    Mermaid,
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
        Command::Graph(options) => graph(&options),
        Command::Rules => print(&rules()).map(|()| Outcome::Clean),
        Command::Rule { code } => page(&code).and_then(print).map(|()| Outcome::Clean),
    };
    match result {
        Ok(Outcome::Clean) => ExitCode::SUCCESS,
        Ok(Outcome::Failed) => ExitCode::from(1),
        Ok(Outcome::Unread) => ExitCode::from(2),
        Err(message) => {
            eprintln!("pipeline-sql: {}", report::escape(&message));
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
                code.severity().as_str(),
                code.family().title(),
                code.summary()
            )
        })
        .collect()
}

/// The page of `code` (any case), or what the codes like it are.
fn page(code: &str) -> Result<&'static str, String> {
    let code = code.trim().to_ascii_uppercase();
    if let Some(page) = report::code_page(&code) {
        return Ok(page);
    }
    let like: Vec<&str> = report::CODE_PAGES
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

/// How a check ended, for the exit status.
enum Outcome {
    Clean,
    Failed,
    Unread,
}

/// One pipeline to check: its name, sources and settings.
struct Run {
    /// The pipeline's name in its settings, or the paths given.
    name: String,
    inputs: Vec<inputs::Input>,
    complete: bool,
    parameters: Vec<(String, String)>,
    catalog: Option<String>,
    schema: Option<String>,
}

impl Run {
    /// Checks the sources read, on every core, reporting what `selection` selects.
    fn check(&self, selection: &Selection) -> PipelineReport<'_> {
        let texts = self.inputs.iter().filter_map(|i| i.text.as_deref().ok());
        self.check_texts(selection, texts)
    }

    /// Checks `texts` as the texts of the sources read (in their order), with the pipeline's
    /// settings.
    fn check_texts<'t>(
        &self,
        selection: &Selection,
        texts: impl Iterator<Item = &'t str>,
    ) -> PipelineReport<'t> {
        let mut pipeline = Pipeline::new();
        pipeline.complete(self.complete).select(selection.clone());
        for (key, value) in &self.parameters {
            pipeline.param(key, value);
        }
        if let Some(catalog) = &self.catalog {
            pipeline.catalog(catalog);
        }
        if let Some(schema) = &self.schema {
            pipeline.schema(schema);
        }
        let read = self.inputs.iter().filter(|i| i.text.is_ok());
        for (input, text) in read.zip(texts) {
            pipeline.add_source(&input.name, text);
        }
        pipeline.check_in_parallel()
    }

    /// The reports of its files in the order they were found: those checked (from
    /// `checked`), and those not read with their one diagnostic.
    fn reports<'r>(&'r self, checked: &'r PipelineReport<'_>) -> Vec<FileReport<'r>> {
        let mut read = report::source_reports(checked).into_iter();
        self.inputs
            .iter()
            .filter_map(|input| match &input.text {
                Ok(_) => read.next(),
                Err(not_read) => Some(FileReport {
                    path: &input.name,
                    source: "",
                    statements: 0,
                    diagnostics: not_read,
                }),
            })
            .collect()
    }
}

/// The settings file that applies, found or named.
fn settings_file(input: &InputOptions) -> Result<config::Found, String> {
    if input.no_config {
        Ok(config::Found::default())
    } else if let Some(path) = &input.config {
        config::load(path, input.limit())
    } else {
        let first = input.paths.iter().find(|p| p.as_os_str() != "-");
        config::discover(
            first.map_or(Path::new("."), PathBuf::as_path),
            input.limit(),
        )
    }
}

/// Checks the files, or the pipelines that settings files declare.
fn check(options: &CheckOptions) -> Result<Outcome, String> {
    let found = settings_file(&options.input)?;
    let file = &found.config;
    let select = match (&options.select[..], &file.select) {
        ([], Some(select)) => select.clone(),
        (select, _) => select.to_vec(),
    };
    let ignore = file.ignore.iter().flatten().chain(&options.ignore);
    let selection = Selection::new(select, ignore).map_err(|e| e.to_string())?;
    if options.fix && options.input.paths.iter().any(|p| p.as_os_str() == "-") {
        return Err(
            "`--fix` cannot write the text read from stdin; `--diff` shows its fixes".into(),
        );
    }
    let (mut runs, settings_read) = plan(&options.input, &found)?;
    let settings_failed = settings_read
        .iter()
        .any(|f| f.diagnostics.iter().any(|d| d.is_error()));
    if runs.is_empty() && !settings_failed {
        // Settings that name no SQL file: checking nothing is not a pass.
        let names: Vec<&str> = settings_read.iter().map(|f| f.name.as_str()).collect();
        return Err(format!("{}: no SQL source file to check", names.join(", ")));
    }
    let mut unwritten = false;
    if options.fix || options.diff {
        let level = match options.unsafe_fixes {
            true => Applicability::Unsafe,
            false => Applicability::Safe,
        };
        let fixed = fixing::fix_runs(&mut runs, &selection, level);
        if options.diff {
            let terminal = std::io::stdout().is_terminal();
            print(&fixing::shown(fixing::diff(&fixed.changes), terminal))?;
            return Ok(match fixed.changes.is_empty() {
                true => Outcome::Clean,
                false => Outcome::Failed,
            });
        }
        // What is left is reported from the files as they are now: a file not written has its
        // text back (read again, a FIFO would block).
        let not_written = write_fixes(&fixed);
        unwritten = !not_written.is_empty();
        for input in runs.iter_mut().flat_map(|run| &mut run.inputs) {
            if let (Some(before), Ok(text)) = (not_written.get(&input.identity()), &mut input.text)
            {
                *text = before.to_string();
            }
        }
    }
    let mut checks: Vec<PipelineReport> = runs.iter().map(|run| run.check(&selection)).collect();
    agree_on_shared_noqa(&runs, &mut checks);
    let mut reports: Vec<FileReport> = settings_read
        .iter()
        .filter(|f| !f.diagnostics.is_empty())
        .map(|f| FileReport {
            path: &f.name,
            source: &f.text,
            statements: 0,
            diagnostics: &f.diagnostics,
        })
        .collect();
    for (run, checked) in runs.iter().zip(&checks) {
        reports.extend(run.reports(checked));
    }
    let output = match options.format {
        Format::Json => report::render_json(&reports) + "\n",
        Format::Concise => report::render_concise(&reports),
        Format::Github => report::render_github(&reports),
        Format::Sarif => report::render_sarif(&reports) + "\n",
        Format::Junit => report::render_junit(&reports),
        Format::Human => report::render_human(&reports, 100, colored(options.color)),
    };
    std::io::stdout()
        .write_all(output.as_bytes())
        .map_err(|e| format!("writing the report: {e}"))?;
    let summary = report::Summary::of(&reports);
    let unread = runs.iter().flat_map(|r| &r.inputs).any(|i| i.text.is_err())
        || settings_read.iter().any(|f| f.unread);
    Ok(if unread || unwritten {
        Outcome::Unread
    } else if summary.errors > 0 || options.warnings_as_errors && summary.warnings > 0 {
        Outcome::Failed
    } else {
        Outcome::Clean
    })
}

/// The files that more than one pipeline reads, canonical.
fn shared_files(runs: &[Run]) -> HashSet<PathBuf> {
    let mut seen = HashSet::new();
    let mut shared = HashSet::new();
    for run in runs {
        let files: HashSet<PathBuf> = run.inputs.iter().map(inputs::Input::identity).collect();
        for file in files {
            if !seen.insert(file.clone()) {
                shared.insert(file);
            }
        }
    }
    shared
}

/// Keeps an UNUSED_NOQA diagnostic of a file that several pipelines read only where each of
/// them reports it: a comment that one pipeline needs is not stale for the others.
fn agree_on_shared_noqa(runs: &[Run], checks: &mut [PipelineReport<'_>]) {
    let shared = shared_files(runs);
    if shared.is_empty() {
        return;
    }
    // Where each shared file is: its pipeline, and its place among the sources checked.
    let mut places: HashMap<PathBuf, Vec<(usize, usize)>> = HashMap::new();
    for (r, run) in runs.iter().enumerate() {
        let read = run.inputs.iter().filter(|input| input.text.is_ok());
        for (s, input) in read.enumerate() {
            let file = input.identity();
            if shared.contains(&file) {
                places.entry(file).or_default().push((r, s));
            }
        }
    }
    let is_unused_noqa = |d: &pipeline_sql::Diagnostic| d.code_enum() == Code::UnusedNoqa;
    for places in places.values() {
        let spans = |&(r, s): &(usize, usize)| -> HashSet<(u32, u32)> {
            let diagnostics = checks[r].sources[s].diagnostics.iter();
            let unused = diagnostics.filter(|d| is_unused_noqa(d));
            unused.map(|d| (d.span().start, d.span().end)).collect()
        };
        let everywhere = places.iter().map(spans).reduce(|a, b| &a & &b);
        let everywhere = everywhere.unwrap_or_default();
        for &(r, s) in places {
            let diagnostics = &mut checks[r].sources[s].diagnostics;
            diagnostics.retain(|d| {
                !is_unused_noqa(d) || everywhere.contains(&(d.span().start, d.span().end))
            });
        }
    }
}

/// Writes the files `--fix` changed, and says on stderr what it fixed and what it left alone;
/// the files not written, with their text as it was read.
fn write_fixes(fixed: &fixing::Fixed) -> HashMap<PathBuf, &str> {
    let (mut problems, mut files) = (0, 0);
    let mut not_fixed = Vec::new();
    let mut not_written = HashMap::new();
    for change in &fixed.changes {
        let name = report::escape(&change.name);
        let written = match &change.file {
            Some(file) => fixing::write_fix(file, &change.before, &change.after),
            None => Err("stdin is not written".to_string()),
        };
        match written {
            Ok(()) => (problems, files) = (problems + change.fixed.len(), files + 1),
            Err(why) => {
                not_fixed.push(format!("{name}: not fixed, {}", report::escape(&why)));
                not_written.insert(change.identity.clone(), change.before.as_str());
            }
        }
    }
    eprintln!(
        "pipeline-sql: fixed {problems} problem{} in {files} file{}",
        if problems == 1 { "" } else { "s" },
        if files == 1 { "" } else { "s" },
    );
    for name in &fixed.syntax_errors {
        let name = report::escape(name);
        eprintln!("pipeline-sql: {name}: not fixed, it has a syntax error");
    }
    for line in &not_fixed {
        eprintln!("pipeline-sql: {line}");
    }
    not_written
}

/// Prints the lineage of each pipeline read.
fn graph(options: &GraphOptions) -> Result<Outcome, String> {
    let found = settings_file(&options.input)?;
    let (runs, _) = plan(&options.input, &found)?;
    let checks: Vec<PipelineReport> = runs
        .iter()
        .map(|run| run.check(&Selection::default()))
        .collect();
    let files: Vec<Vec<FileReport>> = checks.iter().map(report::source_reports).collect();
    let lineages: Vec<report::Lineage> = runs
        .iter()
        .zip(&checks)
        .zip(&files)
        .map(|((run, checked), files)| report::Lineage {
            name: &run.name,
            files,
            model: &checked.model,
        })
        .collect();
    let output = match options.format {
        GraphFormat::Json => report::render_lineage_json(&lineages) + "\n",
        GraphFormat::Dot => report::render_lineage_dot(&lineages),
        GraphFormat::Mermaid => report::render_lineage_mermaid(&lineages),
    };
    print(&output)?;
    Ok(Outcome::Clean)
}

/// The pipelines to check: the plain paths as one, and each pipeline that a settings file
/// among the paths (or here, without paths) declares; and the settings files read.
fn plan(
    options: &InputOptions,
    found: &config::Found,
) -> Result<(Vec<Run>, Vec<settings::File>), String> {
    let file = &found.config;
    let mut excludes = inputs::Excludes::default();
    if let (Some(root), Some(patterns)) = (found.root(), &file.exclude) {
        excludes.add(root, patterns)?;
    }
    excludes.add(Path::new("."), &options.exclude)?;
    // Parameters: the settings', then the settings file's, then the command line's.
    let parameters = |declared: &BTreeMap<String, String>| -> Vec<(String, String)> {
        declared
            .iter()
            .chain(&file.parameters)
            .map(|(k, v)| (k.clone(), v.clone()))
            .chain(options.params.iter().cloned())
            .collect()
    };
    let limit = options.limit();
    let read = |found: &[inputs::Found]| inputs::read_all(found, &options.stdin_filename, limit);
    let (settings_paths, plain): (Vec<&PathBuf>, Vec<&PathBuf>) = options
        .paths
        .iter()
        .partition(|p| p.as_os_str() != "-" && settings::settings_file(p).is_some());
    let mut settings_files: Vec<PathBuf> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for file in settings_paths
        .iter()
        .filter_map(|p| settings::settings_file(p))
    {
        // The same settings, however named, are read once.
        if seen.insert(std::fs::canonicalize(&file).unwrap_or_else(|_| file.clone())) {
            settings_files.push(file);
        }
    }
    if options.paths.is_empty() {
        settings_files.push(
            settings::settings_file(Path::new("."))
                .ok_or("no PATH given, and no databricks.yml or spark-pipeline.yml here")?,
        );
    }
    let mut runs = Vec::new();
    if !plain.is_empty() {
        let plain: Vec<PathBuf> = plain.into_iter().cloned().collect();
        runs.push(Run {
            name: plain
                .iter()
                .map(|p| match p.as_os_str() == "-" {
                    true => options.stdin_filename.clone(),
                    false => p.display().to_string(),
                })
                .collect::<Vec<_>>()
                .join(" "),
            inputs: read(&inputs::collect(&plain, &excludes)?),
            complete: options.pipeline,
            parameters: parameters(&BTreeMap::new()),
            catalog: options.catalog.clone().or(file.catalog.clone()),
            schema: options.schema.clone().or(file.schema.clone()),
        });
    }
    let mut settings_read = Vec::new();
    for path in &settings_files {
        let settings = settings::load(path, options.target.as_deref(), &options.vars, limit);
        if let Some(unknown) = settings.unknown_target {
            return Err(unknown);
        }
        for declared in settings.pipelines.iter().filter(|p| !p.sources.is_empty()) {
            runs.push(Run {
                name: declared.name.clone(),
                inputs: read(&declared.sources.iter().cloned().map(Ok).collect::<Vec<_>>()),
                complete: true,
                parameters: parameters(&declared.parameters),
                catalog: options.catalog.clone().or(declared.catalog.clone()),
                schema: options.schema.clone().or(declared.schema.clone()),
            });
        }
        settings_read.extend(settings.files);
    }
    Ok((runs, settings_read))
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
