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
use pipeline_sql::{Applicability, Arena, Code, Pipeline, Severity};
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

/// A fixture case as one pipeline.
fn case_pipeline<'s>(case: &str, sources: &'s [(String, String)]) -> Pipeline<'s> {
    let mut pipeline = Pipeline::new();
    pipeline.complete(
        case.split("__")
            .nth(1)
            .is_some_and(|c| c.starts_with("complete_")),
    );
    for (name, text) in sources {
        pipeline.add_source(name.as_str(), text.as_str());
    }
    pipeline
}

/// Checks a fixture case as one pipeline.
fn check_case<'s>(
    arena: &'s Arena,
    case: &str,
    sources: &'s [(String, String)],
) -> PipelineCheck<'s> {
    case_pipeline(case, sources).check(arena)
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
        // On every core, the check finds the same.
        let parallel = case_pipeline(&case, &sources).check_in_parallel();
        let found: Vec<_> = parallel.sources.iter().map(|s| &s.diagnostics).collect();
        let expected: Vec<_> = checked.sources.iter().map(|s| &s.diagnostics).collect();
        assert_eq!(found, expected, "{case}");
        assert_eq!(parallel.model, checked.model, "{case}");
        for (_, d) in checked.diagnostics() {
            // A code that `rules` and SARIF call a warning is never reported as an error.
            if d.code_enum().severity() == Severity::Warning {
                assert_eq!(d.severity(), Severity::Warning, "{case}: {}", d.code());
            }
        }
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

/// Codes that no source text can trigger, with what their page says instead of an example.
/// They are tested where they arise: the snapshot-version protocol with its state machine, a
/// file that cannot be read by running the command line.
const WITHOUT_FIXTURE: &[(Code, &str)] = &[
    (
        Code::ApplyChangesFromSnapshotOutOfOrderSnapshotVersion,
        "Only a running pipeline reports it, as it compares the snapshot versions of one update \
         with those of the last; `snapshot_version::VersionTracker` follows the same protocol and \
         reports it too.",
    ),
    (
        Code::SourceNotRead,
        "`pipeline-sql check` reports it on a file it cannot read (no permission, not UTF-8 \
         text, larger than `--max-file-size`), at the file's start:\n\n```text\n\
         landing/orders.sql:1:1: error[SOURCE_NOT_READ] not read: not UTF-8 text: the byte at \
         offset 17 is not valid UTF-8\n```\n\nThe fix: save the file as UTF-8 text, or make it \
         readable.",
    ),
    (
        Code::PipelineSettingsInvalid,
        "`pipeline-sql check` reports it on the settings file, at the value in question:\n\n\
         ```text\ndatabricks.yml:12:19: error[PIPELINE_SETTINGS_INVALID] the library \
         `../src/orders.sql` does not exist (looked for ./../src/orders.sql)\n```\n\nThe fix: \
         correct the settings; the pipeline's SQL is checked once they read.",
    ),
];

#[test]
fn every_code_has_an_error_fixture() {
    let cases: Vec<String> = err_cases().into_iter().map(|(case, _)| case).collect();
    let exempt: Vec<Code> = WITHOUT_FIXTURE.iter().map(|(code, _)| *code).collect();
    for code in Code::ALL.iter().filter(|c| !exempt.contains(c)) {
        assert!(
            cases.iter().any(|c| expected_code(c) == code.as_str()),
            "no fixture tests/fixtures/err/{}__<case>.sql",
            code.as_str()
        );
    }
}

/// The page of `docs/codes/` for `code`: what triggers it, an example from its first err
/// fixture with what pipeline-sql reports on it, and the fix (the diagnostic's help).
#[cfg(feature = "cli")]
fn code_page(code: Code) -> String {
    let name = code.as_str();
    let why = code.why();
    assert!(
        !why.is_empty(),
        "{name} does not say why the engine rejects it"
    );
    let mut page = format!(
        "# {name}\n\n{}. See [all codes](README.md).\n\n## What triggers it\n\n{}\n\n## Why\n\n{why}\n",
        code.family().title(),
        code.summary()
    );
    let Some((case, path)) = err_cases()
        .into_iter()
        .find(|(c, _)| expected_code(c) == name)
    else {
        let (_, instead) = WITHOUT_FIXTURE
            .iter()
            .find(|(c, _)| *c == code)
            .expect("a code without a fixture says what its page shows instead");
        page.push_str(&format!("\n{instead}\n"));
        return page;
    };
    let sources = case_sources(&path);
    let arena = Arena::new();
    let checked = check_case(&arena, &case, &sources);
    let reports = file_reports(&checked);
    let (_, diagnostic) = checked
        .diagnostics()
        .find(|(_, d)| d.code() == name)
        .expect("the fixture reports its code");
    page.push_str(&format!(
        "\nSeverity: {}.\n\n## Example\n\n",
        diagnostic.severity().as_str()
    ));
    for (file, text) in &sources {
        page.push_str(&format!(
            "`{file}`:\n\n```sql\n{}\n```\n\n",
            text.trim_end()
        ));
    }
    page.push_str(&format!(
        "`pipeline-sql check` reports:\n\n```text\n{}```\n",
        render_human(&reports, 100, false)
    ));
    if let Some(help) = diagnostic.help() {
        page.push_str(&format!("\n## The fix\n\n{help}\n"));
    }
    if let Some(fix) = diagnostic.fix() {
        let flags = match fix.applicability {
            Applicability::Safe => "--fix",
            Applicability::Unsafe => "--fix --unsafe-fixes",
        };
        page.push_str(&format!(
            "\n`pipeline-sql check {flags}` makes the change ({} fix): {}.\n",
            fix.applicability.as_str(),
            fix.message
        ));
    }
    page
}

/// `docs/codes/README.md`: every code, by family.
#[cfg(feature = "cli")]
fn codes_index() -> String {
    let mut index = String::from(
        "# Diagnostic codes\n\nEvery code pipeline-sql reports, by what it is about; each page says what \
         triggers the code and why the engine rejects it, shows it on an example with what `pipeline-sql check` prints, and \
         gives the fix. The pages are written from the codes' definitions (`src/diagnostic.rs`) \
         and the failing examples in `tests/fixtures/err/` by `UPDATE_DOCS=1 cargo test \
         --all-features --test fixtures`, and that test fails when a page is out of date.\n",
    );
    for family in pipeline_sql::Family::ALL {
        index.push_str(&format!("\n## {}\n\n", family.title()));
        for code in Code::ALL.iter().filter(|c| c.family() == *family) {
            let name = code.as_str();
            index.push_str(&format!("- [`{name}`]({name}.md): {}\n", code.summary()));
        }
    }
    index
}

/// Every code has a page in `docs/codes/` that matches what it and its fixture say now.
#[cfg(feature = "cli")]
#[test]
fn every_code_has_an_up_to_date_page() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/codes");
    let update = std::env::var_os("UPDATE_DOCS").is_some();
    let pages = Code::ALL
        .iter()
        .map(|&code| (format!("{}.md", code.as_str()), code_page(code)))
        .chain([("README.md".to_string(), codes_index())]);
    for (file, page) in pages {
        let path = dir.join(&file);
        if update {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &page).unwrap();
        } else {
            let written = std::fs::read_to_string(&path).unwrap_or_default();
            assert!(
                written == page,
                "docs/codes/{file} is out of date: run UPDATE_DOCS=1 cargo test --all-features --test fixtures"
            );
        }
    }
}

/// Whole pipelines written as people write them (a legacy DLT notebook, current Lakeflow files
/// with parameters, an open-source Spark pipeline, CDC in both spellings, Auto Loader in both
/// spellings): each checks with no error as one whole pipeline, and each of its files alone.
#[test]
fn realistic_pipelines_check_without_errors() {
    let root = fixtures_dir().join("realistic");
    let mut pipelines: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    pipelines.sort();
    assert!(pipelines.len() >= 5, "the realistic pipelines are missing");
    for dir in pipelines {
        let sources = case_sources(&dir);
        let errors = |checked: &PipelineCheck<'_>| -> Vec<String> {
            checked
                .diagnostics()
                .filter(|(_, d)| d.is_error())
                .map(|(file, d)| {
                    let name = &checked.sources[file.0 as usize].name;
                    format!("{name}: {} {}", d.code(), d.message())
                })
                .collect()
        };
        let arena = Arena::new();
        let mut pipeline = Pipeline::new();
        pipeline.complete(true);
        for (name, text) in &sources {
            pipeline.add_source(name.as_str(), text.as_str());
        }
        let checked = pipeline.check(&arena);
        assert_eq!(errors(&checked), Vec::<String>::new(), "{}", dir.display());
        assert!(!checked.model.datasets.is_empty(), "{}", dir.display());
        for (name, text) in &sources {
            let mut alone = Pipeline::new();
            alone.add_source(name.as_str(), text.as_str());
            assert_eq!(errors(&alone.check(&arena)), Vec::<String>::new(), "{name}");
        }
    }
}

/// What a pipeline's fixes must keep: its datasets and flows, and what each reads, without the
/// spans (which edits move).
fn lineage_of(model: &pipeline_sql::model::Model) -> Vec<String> {
    let reads = |reads: &[pipeline_sql::model::Read]| -> Vec<String> {
        let mut reads: Vec<String> = reads
            .iter()
            .map(|r| format!("{}{}", if r.streaming { "STREAM " } else { "" }, r.key))
            .collect();
        reads.sort();
        reads
    };
    let datasets = model.datasets.iter().map(|d| {
        format!(
            "dataset {} {:?} {:?} reads {:?}",
            d.key,
            d.kind,
            d.columns,
            reads(&d.reads)
        )
    });
    let flows = model.flows.iter().map(|f| {
        format!(
            "flow {} -> {} {:?} once={} implicit={} keys={:?} reads {:?}",
            f.key,
            f.target,
            f.kind,
            f.once,
            f.implicit,
            f.keys,
            reads(&f.reads)
        )
    });
    datasets.chain(flows).collect()
}

/// A fixture case's sources with new texts, checked: each source's diagnostics, and the model.
fn check_texts(
    case: &str,
    sources: &[(String, String)],
    texts: &[String],
) -> (
    Vec<Vec<pipeline_sql::Diagnostic>>,
    pipeline_sql::model::Model,
) {
    let named: Vec<(String, String)> = sources
        .iter()
        .map(|(name, _)| name.clone())
        .zip(texts.iter().cloned())
        .collect();
    let report = case_pipeline(case, &named).check_in_parallel();
    let diagnostics = report.sources.into_iter().map(|s| s.diagnostics).collect();
    (diagnostics, report.model)
}

/// Every case with a fixable diagnostic (err fixtures and the realistic pipelines), fixed with
/// the safe fixes and then with every fix: no fix the level allows is left, nor any other
/// diagnostic of a code fixed; and with the safe fixes, the sources declare the same datasets
/// and flows, reading the same relations.
#[test]
fn fixes_resolve_their_diagnostics_and_keep_the_lineage() {
    let realistic = std::fs::read_dir(fixtures_dir().join("realistic"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| (format!("realistic__complete_{}", p.display()), p));
    let mut fixed_cases = 0;
    for (case, path) in err_cases().into_iter().chain(realistic) {
        let sources = case_sources(&path);
        let texts: Vec<String> = sources.iter().map(|(_, text)| text.clone()).collect();
        let (found, before) = check_texts(&case, &sources, &texts);
        if !found.iter().flatten().any(|d| d.fix().is_some()) {
            continue;
        }
        fixed_cases += 1;
        for level in [Applicability::Safe, Applicability::Unsafe] {
            let fixed = pipeline_sql::fix::fix_sources(texts.clone(), level, |texts| {
                check_texts(&case, &sources, texts).0
            });
            let fixed_texts: Vec<String> = fixed.iter().map(|f| f.text.clone()).collect();
            let (found, after) = check_texts(&case, &sources, &fixed_texts);
            for (diagnostics, result) in found.iter().zip(&fixed) {
                assert!(!result.syntax_error || pipeline_sql::fix::has_syntax_error(diagnostics));
                for d in diagnostics.iter().filter(|_| !result.syntax_error) {
                    // Of a code fixed, only what needs a fix the level does not allow is left.
                    let left = match d.fix() {
                        Some(fix) => fix.applicability <= level,
                        None => result.fixed.contains(&d.code_enum()),
                    };
                    assert!(
                        !left,
                        "{case} ({level:?}): left after fixing:\n{}\n{d:#?}",
                        result.text
                    );
                }
            }
            if level == Applicability::Safe {
                assert_eq!(lineage_of(&after), lineage_of(&before), "{case}");
            }
        }
    }
    assert!(fixed_cases >= 8, "only {fixed_cases} cases have fixes");
}
