//! What the fuzz targets (`fuzz/fuzz_targets/`) assert about any input, shared with
//! `tests/fuzz_regressions.rs`, which replays every input that ever failed one of them (the
//! files of `tests/fuzz/corpus/<target>/`), so that a fixed failure stays fixed without a
//! nightly toolchain.
//!
//! A failure is a panic: a crash, a stack overflow (which aborts), or one of the assertions
//! below.

use pipeline_sql::ast::Statement;
use pipeline_sql::fix::{apply, has_syntax_error};
use pipeline_sql::report::{
    file_reports, render_human, render_json, render_junit, render_sarif, source_reports,
};
use pipeline_sql::{Applicability, Arena, Diagnostic, Pipeline, Span};

/// What a target does with an input.
pub type Target = fn(&[u8]);

/// The targets, by name.
pub const TARGETS: &[(&str, Target)] = &[
    ("parse", parse),
    ("check", check),
    ("pipeline", pipeline),
    ("round_trip", round_trip),
    ("settings", settings),
];

/// The input as text; fuzzing's other bytes are the lexer's concern only where they are text.
fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// Parsing alone: no panic.
pub fn parse(data: &[u8]) {
    let Some(source) = text(data) else { return };
    let arena = Arena::new();
    let parsed = pipeline_sql::parse(&arena, source);
    spans_within(source, parsed.diagnostics());
}

/// `check` on one source: every span within the source, every statement printed, the reports
/// rendered, and the fixes applied without breaking the source.
pub fn check(data: &[u8]) {
    let Some(source) = text(data) else { return };
    let arena = Arena::new();
    let checked = pipeline_sql::check(&arena, source);
    spans_within(source, checked.diagnostics());
    for statement in checked.script().statements {
        let _ = statement.to_string();
    }
    // The fixes (all of them, at once) leave a source without a syntax error without one.
    if !has_syntax_error(checked.diagnostics()) {
        if let Some((fixed, _)) = apply(source, checked.diagnostics(), Applicability::Unsafe) {
            let arena = Arena::new();
            let again = pipeline_sql::parse(&arena, &fixed);
            assert!(
                !has_syntax_error(again.diagnostics()),
                "the fixes broke\n{source}\ninto\n{fixed}\n{:#?}",
                again.diagnostics()
            );
        }
    }
    let mut pipeline = Pipeline::new();
    pipeline.add_source("fuzz.sql", source);
    render(&pipeline);
}

/// The `Pipeline` API on the input cut into sources at each NUL byte. The first byte chooses
/// whether the pipeline is complete and whether it has parameters.
pub fn pipeline(data: &[u8]) {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let Some(rest) = text(rest) else { return };
    let mut pipeline = Pipeline::new();
    for (i, source) in rest.split('\0').enumerate() {
        pipeline.add_source(format!("source{i}.sql"), source);
    }
    pipeline.complete(flags & 1 == 1);
    if flags & 2 == 2 {
        pipeline.param("env", "dev").param("catalog", "main");
    }
    if flags & 4 == 4 {
        pipeline.catalog("main").schema("sales");
    }
    render(&pipeline);
}

/// A settings file and its sources, written to a directory of their own: the input cut at NUL
/// bytes is the settings file (its first byte chooses a bundle or a Spark spec), then the SQL
/// sources `src/0.sql`, `src/1.sql`, ... A file beside the directory must never be read. Every
/// diagnostic is within its settings file; every source is inside the directory, once; each
/// pipeline declared is checked and rendered.
pub fn settings(data: &[u8]) {
    let mut parts = data.split(|&b| b == 0);
    let Some((&choice, yaml)) = parts.next().and_then(<[u8]>::split_first) else {
        return;
    };
    let name = ["databricks.yml", "spark-pipeline.yml"][usize::from(choice & 1)];
    let thread = format!("{:?}", std::thread::current().id())
        .replace(|c: char| !c.is_ascii_alphanumeric(), "");
    let dir =
        std::env::temp_dir().join(format!("pipeline-sql-fuzz-{}-{thread}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let root = dir.join("bundle");
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(
        dir.join("outside.sql"),
        "CREATE MATERIALIZED VIEW outside AS SELECT 1;",
    )
    .unwrap();
    std::fs::write(root.join(name), yaml).unwrap();
    for (i, source) in parts.enumerate() {
        std::fs::write(root.join(format!("src/{i}.sql")), source).unwrap();
    }
    let read = pipeline_sql::settings::load(&root.join(name), None, &[], 1 << 20);
    for file in &read.files {
        spans_within(&file.text, &file.diagnostics);
    }
    let inside = std::fs::canonicalize(&root).unwrap();
    for declared in &read.pipelines {
        let mut seen = std::collections::HashSet::new();
        let mut texts = Vec::new();
        for source in &declared.sources {
            let file = std::fs::canonicalize(source).unwrap();
            assert!(file.starts_with(&inside), "{} is outside", file.display());
            assert!(seen.insert(file), "{} is read twice", source.display());
            if let Ok(text) = pipeline_sql::files::read_regular(source, 1 << 20) {
                texts.push((source.display().to_string(), text));
            }
        }
        let mut pipeline = Pipeline::new();
        pipeline.complete(true);
        for (key, value) in &declared.parameters {
            pipeline.param(key, value);
        }
        for (name, text) in &texts {
            pipeline.add_source(name.as_str(), text);
        }
        render(&pipeline);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Checks `pipeline`, asserts that every span and label is within its file, and renders both
/// reports.
fn render(pipeline: &Pipeline<'_>) {
    let arena = Arena::new();
    let checked = pipeline.check(&arena);
    for source in &checked.sources {
        spans_within(source.text, &source.diagnostics);
        for diagnostic in &source.diagnostics {
            for label in diagnostic.labels() {
                let file = label
                    .file
                    .map_or(source.text, |f| checked.sources[f.0 as usize].text);
                span_within(file, label.span);
            }
        }
    }
    let reports = file_reports(&checked);
    let json = render_json(&reports);
    assert!(
        json.starts_with("{\"diagnostics\":[") && json.ends_with('}'),
        "{json}"
    );
    let human = render_human(&reports, 100, false);
    let summary = human.lines().last().unwrap_or_default();
    assert!(summary.starts_with("checked "), "{human}");
    let sarif = render_sarif(&reports);
    assert!(
        serde_json::from_str::<serde_json::Value>(&sarif).is_ok(),
        "{sarif}"
    );
    let junit = render_junit(&reports);
    // XML 1.0 holds no control characters but white space: the source's are written out.
    assert!(
        !junit.chars().any(|c| c.is_control() && c != '\n'),
        "{junit}"
    );
    // Checked on every core, the pipeline gives the same diagnostics and model.
    let parallel = pipeline.check_in_parallel();
    let one_core: Vec<_> = reports.iter().map(|r| r.diagnostics).collect();
    let all_cores: Vec<_> = source_reports(&parallel)
        .iter()
        .map(|r| r.diagnostics)
        .collect();
    assert_eq!(one_core, all_cores);
    assert_eq!(parallel.model, checked.model);
}

/// Each diagnostic's span is within `source`, on character boundaries.
fn spans_within(source: &str, diagnostics: &[Diagnostic]) {
    for diagnostic in diagnostics {
        span_within(source, diagnostic.span());
    }
}

fn span_within(source: &str, span: Span) {
    let (start, end) = (span.start as usize, span.end as usize);
    assert!(
        start <= end && end <= source.len(),
        "{span:?} in {} bytes",
        source.len()
    );
    assert!(
        source.is_char_boundary(start) && source.is_char_boundary(end),
        "{span:?} cuts a character"
    );
}

/// A source that parses cleanly prints as SQL that parses cleanly, to one statement each, and
/// prints the same again.
pub fn round_trip(data: &[u8]) {
    let Some(source) = text(data) else { return };
    let arena = Arena::new();
    let parsed = pipeline_sql::parse(&arena, source);
    if !parsed.diagnostics().is_empty() {
        return;
    }
    for statement in parsed.script().statements {
        if matches!(statement, Statement::Error(_)) {
            continue;
        }
        let printed = statement.to_string();
        let arena = Arena::new();
        let reparsed = pipeline_sql::parse(&arena, &printed);
        assert!(
            reparsed.diagnostics().is_empty(),
            "`{printed}` does not parse again: {:?}",
            reparsed.diagnostics()
        );
        assert_eq!(reparsed.script().statements.len(), 1, "`{printed}`");
        assert_eq!(reparsed.script().statements[0].to_string(), printed);
    }
}
