//! Error recovery and robustness: every broken statement is reported once, the good ones still
//! parse, and no input makes the parser panic or overflow the stack.

mod common;

use common::all_sources;
use pipeline_sql::ast::Statement;
#[cfg(feature = "cli")]
use pipeline_sql::report::{render_human, render_json, FileReport};

#[test]
fn three_broken_statements_give_three_errors_and_keep_the_rest() {
    let source = "CREATE STREAMING TABLE good1;\n\
                  CREATE FLOW bad1 AS INSERT INTO good1 BY NAME SELECT a FROM x WHERE a =;\n\
                  SELECT 1;\n\
                  CREATE MATERIALIZED VIEW bad2 AS;\n\
                  CREATE FLOW bad3 AS AUTO CDC INTO good1 FROM STREAM(s) KEYS id;\n\
                  CREATE FLOW good2 AS INSERT INTO good1 BY NAME SELECT * FROM STREAM(s);";
    let arena = pipeline_sql::Arena::new();
    let parsed = pipeline_sql::parse(&arena, source);
    let codes: Vec<&str> = parsed.diagnostics().iter().map(|d| d.code()).collect();
    assert_eq!(codes, ["PARSE_SYNTAX_ERROR"; 3]);
    let kinds: Vec<&str> = parsed
        .script()
        .statements
        .iter()
        .map(|s| match s {
            Statement::CreateStreamingTable(_) => "table",
            Statement::CreateFlow(_) => "flow",
            Statement::Query(_) => "query",
            Statement::Error(_) => "error",
            _ => "other",
        })
        .collect();
    assert_eq!(kinds, ["table", "error", "query", "error", "error", "flow"]);
    let lines: Vec<usize> = parsed
        .diagnostics()
        .iter()
        .map(|d| {
            pipeline_sql::LineIndex::new(source)
                .line_column(d.span().start)
                .0
        })
        .collect();
    assert_eq!(lines, [2, 4, 5]);
}

/// A small deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Parses `source`, prints its statements and renders its diagnostics the way the command line
/// does (feature `cli`); panics are the failure.
#[cfg_attr(not(feature = "cli"), allow(unused_variables))]
fn parse_and_render(name: &str, source: &str) {
    let arena = pipeline_sql::Arena::new();
    let parsed = pipeline_sql::check(&arena, source);
    #[cfg(feature = "cli")]
    {
        let report = FileReport {
            path: name,
            source,
            statements: parsed.script().statements.len(),
            diagnostics: parsed.diagnostics(),
        };
        let json = render_json(std::slice::from_ref(&report));
        assert!(json.starts_with("{\"diagnostics\":"));
    }
    for statement in parsed.script().statements {
        let _ = statement.to_string();
    }
}

#[test]
fn no_panic_on_any_prefix_of_any_fixture() {
    for (name, source) in all_sources() {
        for (end, _) in source.char_indices() {
            parse_and_render(&name, &source[..end]);
        }
    }
}

#[test]
fn no_panic_on_mutated_fixtures() {
    const PIECES: &[&str] = &[
        "(", ")", "'", "\"", "`", "/*", "*/", "--", ";", ",", ".", "*", "${", "}", ":", "::", "?",
        "<", ">", "=", "SELECT", "FROM", "STREAM", "ONCE", "EXCEPT", "CASE", "END", "AS", "BY",
        "NAME", "KEYS", "é", "\\", "X'", "1e",
    ];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for (name, source) in all_sources() {
        let chars: Vec<char> = source.chars().collect();
        for _ in 0..60 {
            let mut mutated = chars.clone();
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(mutated.len() + 1);
                match rng.below(3) {
                    0 if at < mutated.len() => {
                        mutated.remove(at);
                    }
                    1 => {
                        let piece = PIECES[rng.below(PIECES.len())];
                        for (k, c) in piece.chars().enumerate() {
                            mutated.insert(at + k, c);
                        }
                    }
                    _ => mutated.truncate(at.max(1)),
                }
            }
            let text: String = mutated.into_iter().collect();
            parse_and_render(&name, &text);
        }
    }
}

/// The kinds of statements of a parse, as the tests above name them.
fn statement_count(parsed: &pipeline_sql::Parsed<'_>) -> (usize, usize) {
    let statements = parsed.script().statements;
    let errors = statements
        .iter()
        .filter(|s| matches!(s, Statement::Error(_)))
        .count();
    (statements.len() - errors, errors)
}

#[test]
fn a_broken_statement_without_its_semicolon_costs_one_statement() {
    let mut statements: Vec<String> = (0..20)
        .map(|i| format!("CREATE OR REFRESH MATERIALIZED VIEW v{i} AS SELECT {i} AS x;"))
        .collect();
    statements[9] = "CREATE OR REFRESH MATERIALIZED VIEW v9 AS SELECT (1 AS x FROM".into();
    let source = statements.join("\n");
    let arena = pipeline_sql::Arena::new();
    let checked = pipeline_sql::check(&arena, &source);
    let codes: Vec<&str> = checked.diagnostics().iter().map(|d| d.code()).collect();
    assert_eq!(codes, ["PARSE_SYNTAX_ERROR"]);
    let line = pipeline_sql::LineIndex::new(&source)
        .line_column(checked.diagnostics()[0].span().start)
        .0;
    assert_eq!(line, 10);
    // The other 19 are in the model: checked as well as parsed.
    assert_eq!(checked.model().datasets.len(), 19);
}

#[test]
fn a_missing_semicolon_between_good_statements_is_one_error_and_both_count() {
    let source = "CREATE OR REFRESH STREAMING TABLE orders\n\
                  CREATE FLOW load AS INSERT INTO orders BY NAME SELECT * FROM STREAM(raw);\n\
                  SELECT 1";
    let arena = pipeline_sql::Arena::new();
    let parsed = pipeline_sql::parse(&arena, source);
    let messages: Vec<&str> = parsed.diagnostics().iter().map(|d| d.message()).collect();
    assert_eq!(
        messages,
        ["syntax error at `CREATE`: a `;` is missing before it, after the statement above"]
    );
    assert_eq!(statement_count(&parsed), (3, 0));
    // A file of statements without any `;` says so at each of them: the engine refuses it.
    let source = "CREATE OR REFRESH MATERIALIZED VIEW a AS SELECT 1 AS x\n\
                  CREATE OR REFRESH MATERIALIZED VIEW b AS SELECT 2 AS x\n\
                  CREATE OR REFRESH MATERIALIZED VIEW c AS SELECT 3 AS x\n";
    let parsed = pipeline_sql::parse(&arena, source);
    assert_eq!(parsed.diagnostics().len(), 2);
    assert_eq!(statement_count(&parsed), (3, 0));
}

#[test]
fn a_broken_cell_costs_that_cell() {
    let source = "-- Databricks notebook source\n\
                  CREATE OR REFRESH MATERIALIZED VIEW a AS SELECT (1 AS x\n\
                  -- COMMAND ----------\n\
                  CREATE OR REFRESH MATERIALIZED VIEW b AS SELECT 'unclosed\n\
                  -- COMMAND ----------\n\
                  CREATE OR REFRESH MATERIALIZED VIEW c AS SELECT 3 AS x\n";
    let arena = pipeline_sql::Arena::new();
    let parsed = pipeline_sql::parse(&arena, source);
    assert_eq!(statement_count(&parsed), (1, 2));
    assert_eq!(parsed.diagnostics().len(), 2, "{:#?}", parsed.diagnostics());
    // Which cell each statement is in.
    let cells: Vec<Option<usize>> = parsed
        .script()
        .statements
        .iter()
        .map(|s| parsed.cell_of(pipeline_sql::Spanned::span(s)))
        .collect();
    assert_eq!(cells, [Some(0), Some(1), Some(2)]);
}

/// A diagnostic far into a long line (generated or minified SQL) is drawn in a window of the
/// line around it: drawing the whole line made the renderer panic past column 65,535, and a
/// report of 200 KB lines is no report.
#[cfg(feature = "cli")]
#[test]
fn a_diagnostic_far_into_a_long_line_renders() {
    let source = format!("SELECT{}(;", " ".repeat(70_000));
    let arena = pipeline_sql::Arena::new();
    let checked = pipeline_sql::check(&arena, &source);
    let report = FileReport {
        path: "long.sql",
        source: &source,
        statements: checked.script().statements.len(),
        diagnostics: checked.diagnostics(),
    };
    let human = render_human(std::slice::from_ref(&report), 100, false);
    // A window of the line around the error is drawn, not the line.
    assert!(human.contains("╭─[long.sql:1:70008]"), "{human}");
    assert!(human.contains("(a part of line 1 of long.sql"), "{human}");
    assert!(human.len() < 2_000, "{human}");
    // A diagnostic near the start of the same line, likewise.
    let source = format!("SELECT (;{}", " ".repeat(70_000));
    let checked = pipeline_sql::check(&arena, &source);
    let report = FileReport {
        source: &source,
        diagnostics: checked.diagnostics(),
        ..report
    };
    let human = render_human(std::slice::from_ref(&report), 100, false);
    assert!(human.contains("╭─[long.sql:1:9]"), "{human}");
    assert!(human.len() < 2_000, "{human}");
}

/// `case` is a name wherever nothing of a CASE expression follows it: a select list of 201
/// columns named `case` is no nesting of 201 CASE expressions, and deep CASE nesting still is.
#[test]
fn many_columns_named_case_are_no_nesting() {
    let columns = vec!["case"; 201].join(", ");
    let source = format!("SELECT {columns} FROM t WHERE case IS NOT NULL");
    let arena = pipeline_sql::Arena::new();
    let parsed = pipeline_sql::parse(&arena, &source);
    assert!(
        parsed.diagnostics().is_empty(),
        "{:?}",
        parsed.diagnostics()
    );
    let nested = format!(
        "SELECT {}1{}",
        "CASE WHEN a THEN ".repeat(250),
        " END".repeat(250)
    );
    let parsed = pipeline_sql::parse(&arena, &nested);
    assert!(parsed.diagnostics()[0]
        .message()
        .contains("nests more than"));
}

/// An optimizer hint's entries are one list in the arena: memory grows with the hints, not
/// with their square (8,000 hints took 1.5 GB when each hint copied the list before it).
#[test]
fn many_hints_take_linear_memory() {
    let bytes = |hints: usize| {
        let source = format!("SELECT /*+ {} */ 1", vec!["BROADCAST(t)"; hints].join(" "));
        let arena = pipeline_sql::Arena::new();
        let parsed = pipeline_sql::parse(&arena, &source);
        assert!(parsed.diagnostics().is_empty());
        arena.allocated_bytes()
    };
    let (small, large) = (bytes(1_000), bytes(8_000));
    assert!(
        large < small * 16,
        "1,000 hints: {small} bytes; 8,000: {large}"
    );
}

/// The human and the JSON report of `source` checked alone as `name`.
#[cfg(feature = "cli")]
fn reports_of(name: &str, source: &str) -> (String, serde_json::Value) {
    let arena = pipeline_sql::Arena::new();
    let checked = pipeline_sql::check(&arena, source);
    let report = FileReport {
        path: name,
        source,
        statements: checked.script().statements.len(),
        diagnostics: checked.diagnostics(),
    };
    let reports = std::slice::from_ref(&report);
    let json = serde_json::from_str(&render_json(reports)).unwrap();
    (render_human(reports, 100, false), json)
}

/// Control characters and characters that reorder text are shown escaped, in snippets,
/// messages and paths: a file cannot clear the terminal or show code other than what is read.
#[cfg(feature = "cli")]
#[test]
fn control_characters_and_bidi_overrides_are_escaped_for_people() {
    let source = "SELECT 1 AS `a\u{1b}[2J\u{202e}b`, );\r\nSELECT 2;\n";
    let (human, json) = reports_of("x\u{7}.sql", source);
    for raw in ['\u{1b}', '\u{202e}', '\u{7}'] {
        assert!(!human.contains(raw), "{raw:?} in {human}");
    }
    assert!(human.contains("`a\\u{1b}[2J\\u{202e}b`"), "{human}");
    assert!(human.contains("x\\u{7}.sql"), "{human}");
    // The Windows line end is no character to escape, and the label still points at the `)`
    // after the escapes.
    assert!(!human.contains("\\u{d}"), "{human}");
    let caret_line = human.lines().find(|l| l.contains('┬')).unwrap();
    let code_line = human.lines().find(|l| l.contains("SELECT 1 AS")).unwrap();
    assert_eq!(
        caret_line.chars().position(|c| c == '┬'),
        code_line
            .chars()
            .collect::<Vec<_>>()
            .iter()
            .rposition(|&c| c == ')'),
        "{human}"
    );
    // JSON is for programs: it keeps the text as written (escaped by JSON's own rules).
    let message = json["diagnostics"][0]["message"].as_str().unwrap();
    assert!(!message.contains("\\u{"), "{message}");
}

/// One definition of line and column for every output: a line ends at `\n`, a lone `\r` is a
/// character of its line, and columns count characters.
#[cfg(feature = "cli")]
#[test]
fn line_and_column_are_the_same_in_every_output() {
    let source = "SELECT 'é' AS a;\rSELECT 'ü', );\nSELECT 1;\n";
    let (human, json) = reports_of("lines.sql", source);
    let diagnostic = &json["diagnostics"][0];
    let (line, column) = (diagnostic["line"].as_u64(), diagnostic["column"].as_u64());
    // `)` is the 30th character of the first line (the `\r` counts as one).
    assert_eq!((line, column), (Some(1), Some(30)));
    assert!(human.contains("[lines.sql:1:30]"), "{human}");
    let lines = pipeline_sql::LineIndex::new(source);
    let offset = source.find(')').unwrap() as u32;
    assert_eq!(lines.line_column(offset), (1, 30));
}

/// A cycle through many views is one diagnostic of bounded size, naming its first views and
/// its last: 100,000 names in one message took minutes to render.
#[test]
fn a_cycle_through_many_views_is_one_short_diagnostic() {
    let n = 5_000;
    let source: String = (0..n)
        .map(|i| format!("CREATE VIEW v{i} AS SELECT * FROM v{};\n", (i + 1) % n))
        .collect();
    let arena = pipeline_sql::Arena::new();
    let checked = pipeline_sql::check(&arena, &source);
    let cycles: Vec<_> = checked
        .diagnostics()
        .iter()
        .filter(|d| d.code() == "PIPELINE_CIRCULAR_DEPENDENCY")
        .collect();
    assert_eq!(cycles.len(), 1);
    let message = cycles[0].message();
    assert!(
        message.ends_with("v8 -> ... (4990 more) -> v4999 -> v0"),
        "{message}"
    );
    assert_eq!(cycles[0].labels().len(), 9);
}

/// A name repeated at the end of a long list is found (in one pass over the list: each name
/// compared with every earlier one took time quadratic in the list).
#[test]
fn a_repeated_name_ends_a_long_list() {
    let n = 20_000;
    let names = |item: &dyn Fn(usize) -> String| -> String {
        (0..n).chain([0]).map(item).collect::<Vec<_>>().join(", ")
    };
    let cases = [
        (
            format!(
                "WITH {} SELECT 1",
                names(&|i| format!("c{i} AS (SELECT 1)"))
            ),
            "the common table expression `c0` is defined twice",
        ),
        (
            format!(
                "SELECT 1 FROM t WINDOW {}",
                names(&|i| format!("w{i} AS (PARTITION BY a)"))
            ),
            "the window `w0` is defined twice",
        ),
        (
            format!(
                "SELECT * FROM JSON_TABLE(doc, '$' COLUMNS ({}))",
                names(&|i| format!("C{i} INT"))
            ),
            "JSON_TABLE has a second column named C0",
        ),
    ];
    for (source, expected) in cases {
        let arena = pipeline_sql::Arena::new();
        let parsed = pipeline_sql::parse(&arena, &source);
        let messages: Vec<&str> = parsed.diagnostics().iter().map(|d| d.message()).collect();
        assert_eq!(messages, [expected]);
        let at = parsed.diagnostics()[0].span().start as usize;
        assert!(
            at > source.len() - 40,
            "reported at {at} of {}",
            source.len()
        );
    }
    // The relations of a long FROM list keep their order.
    let from = format!(
        "SELECT * FROM {}",
        (0..n)
            .map(|i| format!("t{i}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let arena = pipeline_sql::Arena::new();
    let parsed = pipeline_sql::parse(&arena, &from);
    assert_eq!(parsed.script().statements[0].to_string(), from);
}
