//! Fixture tests: every ok fixture checks with no diagnostic (AST snapshot), every permissive
//! fixture parses without a syntax error and draws a rule, every err fixture reports its code
//! (rendered-diagnostic snapshot), and every code has an err fixture.
//!
//! An err fixture is `tests/fixtures/err/<CODE>__<case>.sql`, or a directory
//! `<CODE>__<case>/` whose `.sql` files are checked together as one pipeline. A case named
//! `complete_...` is checked as the whole pipeline (`--pipeline`).

mod common;

use common::{fixtures, fixtures_dir};
use pipeline_sql::pipeline::PipelineCheck;
#[cfg(feature = "cli")]
use pipeline_sql::report::{file_reports, render_human};
use pipeline_sql::{Arena, Code, Pipeline};
use std::path::Path;

fn snapshot_settings() -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("snapshots");
    settings.set_prepend_module_to_snapshot(false);
    settings
}

fn snapshot_name(kind: &str, file: &str) -> String {
    format!(
        "{kind}__{}",
        file.trim_end_matches(".sql").replace('/', "__")
    )
}

#[test]
fn ok_fixtures_parse_without_diagnostics() {
    let fixtures = fixtures("ok");
    assert!(fixtures.len() >= 15, "the ok fixtures are missing");
    for (name, source) in &fixtures {
        let arena = pipeline_sql::Arena::new();
        let checked = pipeline_sql::check(&arena, source);
        assert!(
            checked.diagnostics().is_empty(),
            "{name}: {:#?}",
            checked.diagnostics()
        );
        let statements = &checked.script().statements;
        assert!(!statements.is_empty(), "{name} has no statement");
        snapshot_settings()
            .bind(|| insta::assert_debug_snapshot!(snapshot_name("ok", name), statements));
    }
}

/// The `.sql` files of a fixture: the file itself, or every file in the directory.
fn case_sources(path: &Path) -> Vec<(String, String)> {
    let mut files: Vec<_> = if path.is_dir() {
        std::fs::read_dir(path)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "sql"))
            .collect()
    } else {
        vec![path.to_path_buf()]
    };
    files.sort();
    files
        .into_iter()
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect()
}

/// Checks a fixture case as one pipeline.
fn check_case<'s>(
    arena: &'s Arena,
    case: &str,
    sources: &'s [(String, String)],
) -> PipelineCheck<'s> {
    let mut pipeline = Pipeline::new();
    pipeline.complete(
        case.split("__")
            .nth(1)
            .is_some_and(|c| c.starts_with("complete_")),
    );
    for (name, text) in sources {
        pipeline.add_source(name.as_str(), text.as_str());
    }
    pipeline.check(arena)
}

/// Every err fixture case: its name (file or directory name) and its path.
fn err_cases() -> Vec<(String, std::path::PathBuf)> {
    let mut cases: Vec<_> = std::fs::read_dir(fixtures_dir().join("err"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), p))
        .collect();
    cases.sort();
    cases
}

/// The code an err fixture is named after.
fn expected_code(case: &str) -> &str {
    case.split("__").next().unwrap()
}

#[test]
fn err_fixtures_report_their_code() {
    for (case, path) in err_cases() {
        let sources = case_sources(&path);
        let arena = Arena::new();
        let checked = check_case(&arena, &case, &sources);
        let code = expected_code(&case);
        assert!(
            checked.diagnostics().any(|(_, d)| d.code() == code),
            "{case}: expected {code}, got {:#?}",
            checked.diagnostics().collect::<Vec<_>>()
        );
        // The snapshot is the diagnostics as the command line renders them (feature `cli`).
        #[cfg(feature = "cli")]
        {
            let reports = file_reports(&checked);
            let mut rendered = render_human(&reports, 100, false);
            for (file, d) in checked.diagnostics() {
                let path = &checked.sources[file.0 as usize].name;
                rendered.push_str(&format!(
                    "{path}: {}@{}..{}\n",
                    d.code(),
                    d.span().start,
                    d.span().end
                ));
            }
            snapshot_settings()
                .bind(|| insta::assert_snapshot!(snapshot_name("err", &case), rendered));
        }
    }
}

/// Shapes the grammar accepts so that the checker can explain them: no syntax error, and the
/// checker reports at least one rule.
#[test]
fn permissive_fixtures_parse_and_are_checked() {
    for (name, source) in fixtures("permissive") {
        let arena = pipeline_sql::Arena::new();
        let parsed = pipeline_sql::parse(&arena, &source);
        assert!(
            parsed.diagnostics().is_empty(),
            "{name}: {:#?}",
            parsed.diagnostics()
        );
        for statement in parsed.script().statements {
            let text = statement.to_string();
            let arena = pipeline_sql::Arena::new();
            let checked = pipeline_sql::check(&arena, &text);
            assert!(
                checked
                    .diagnostics()
                    .iter()
                    .any(|d| d.code() != "PARSE_SYNTAX_ERROR"),
                "{name}: the checker says nothing about `{text}`"
            );
        }
    }
}

/// Multi-file near misses and the sample pipelines: each directory is a whole pipeline that
/// checks clean.
#[test]
fn complete_pipelines_check_clean() {
    let roots = [
        fixtures_dir().join("pipelines"),
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/pipelines"),
    ];
    let mut checked_dirs = 0;
    for root in roots {
        for entry in std::fs::read_dir(root).unwrap() {
            let dir = entry.unwrap().path();
            let sources = case_sources(&dir);
            let mut pipeline = Pipeline::new();
            pipeline.complete(true);
            for (name, text) in &sources {
                pipeline.add_source(name.as_str(), text.as_str());
            }
            let arena = pipeline_sql::Arena::new();
            let checked = pipeline.check(&arena);
            let found: Vec<_> = checked.diagnostics().collect();
            assert!(found.is_empty(), "{}: {found:#?}", dir.display());
            assert!(!checked.model.datasets.is_empty(), "{}", dir.display());
            checked_dirs += 1;
        }
    }
    assert!(checked_dirs >= 4);
}

/// Codes of the snapshot-version protocol (SPEC §3.6), which only a running engine reports;
/// they are tested with the protocol's state machine.
const RUNTIME_ONLY: &[Code] = &[Code::ApplyChangesFromSnapshotOutOfOrderSnapshotVersion];

#[test]
fn every_code_has_an_error_fixture() {
    let cases: Vec<String> = err_cases().into_iter().map(|(case, _)| case).collect();
    for code in Code::ALL.iter().filter(|c| !RUNTIME_ONLY.contains(c)) {
        assert!(
            cases.iter().any(|c| expected_code(c) == code.as_str()),
            "no fixture tests/fixtures/err/{}__<case>.sql",
            code.as_str()
        );
    }
}
