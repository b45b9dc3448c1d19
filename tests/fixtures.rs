//! Fixture tests: every ok fixture checks with no diagnostic (AST snapshot), every permissive
//! fixture parses without a syntax error, every err fixture reports its code (rendered-diagnostic
//! snapshot), and every code has a fixture.

mod common;

use common::fixtures;
use pipeline_sql::report::{render_human, FileReport};
use pipeline_sql::Code;

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
        let parsed = pipeline_sql::check(source);
        assert!(
            parsed.diagnostics().is_empty(),
            "{name}: {:#?}",
            parsed.diagnostics()
        );
        let statements = &parsed.script().statements;
        assert!(!statements.is_empty(), "{name} has no statement");
        snapshot_settings()
            .bind(|| insta::assert_debug_snapshot!(snapshot_name("ok", name), statements));
    }
}

/// Shapes the grammar accepts so that the checker can explain them: no syntax error, and the
/// checker reports at least one rule.
#[test]
fn permissive_fixtures_parse_and_are_checked() {
    for (name, source) in fixtures("permissive") {
        let parsed = pipeline_sql::parse(&source);
        assert!(
            parsed.diagnostics().is_empty(),
            "{name}: {:#?}",
            parsed.diagnostics()
        );
        for statement in &parsed.script().statements {
            let text = statement.to_string();
            let checked = pipeline_sql::check(&text);
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

/// The err fixtures are named `<CODE>__<case>.sql`.
fn expected_code(file: &str) -> &str {
    file.rsplit('/').next().unwrap().split("__").next().unwrap()
}

#[test]
fn err_fixtures_report_their_code() {
    for (name, source) in fixtures("err") {
        let parsed = pipeline_sql::check(&source);
        let code = expected_code(&name);
        assert!(
            parsed.diagnostics().iter().any(|d| d.code() == code),
            "{name}: expected {code}, got {:#?}",
            parsed.diagnostics()
        );
        let report = FileReport {
            path: &name,
            source: &source,
            statements: parsed.script().statements.len(),
            diagnostics: parsed.diagnostics(),
        };
        let mut rendered = render_human(&[report], 100, false);
        for d in parsed.diagnostics() {
            rendered.push_str(&format!(
                "{}@{}..{}\n",
                d.code(),
                d.span().start,
                d.span().end
            ));
        }
        snapshot_settings().bind(|| insta::assert_snapshot!(snapshot_name("err", &name), rendered));
    }
}

#[test]
fn every_code_has_an_error_fixture() {
    let files: Vec<String> = fixtures("err").into_iter().map(|(name, _)| name).collect();
    for code in Code::ALL {
        assert!(
            files.iter().any(|f| expected_code(f) == code.as_str()),
            "no fixture tests/fixtures/err/{}__<case>.sql",
            code.as_str()
        );
    }
}
