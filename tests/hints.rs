//! Hints: the help that names the likely slip. Each fires on its case and stays silent on a
//! near miss.

use pipeline_sql::{Arena, Pipeline};

/// The help of each diagnostic of `sql` checked alone, with its code.
fn helps(sql: &str) -> Vec<(String, Option<String>)> {
    let arena = Arena::new();
    let checked = pipeline_sql::check(&arena, sql);
    checked
        .diagnostics()
        .iter()
        .map(|d| (d.code().to_string(), d.help().map(str::to_string)))
        .collect()
}

/// The one syntax error's help in `sql`.
fn syntax_help(sql: &str) -> Option<String> {
    let found = helps(sql);
    assert_eq!(found.len(), 1, "{sql}: {found:?}");
    assert_eq!(found[0].0, "PARSE_SYNTAX_ERROR", "{sql}");
    found[0].1.clone()
}

#[test]
fn a_misspelt_keyword_is_named() {
    for (sql, keyword) in [
        (
            "CREAT OR REFRESH STREAMING TABLE t AS SELECT 1 AS x",
            "CREATE",
        ),
        (
            "CREATE OR REFRESH STREAMING TABEL t AS SELECT 1 AS x",
            "TABLE",
        ),
        (
            "CREATE MATERIALIZED VIEW v AS SELECT a FROM t WHERE a > 1 ORDER BY a LIMT 5",
            "LIMIT",
        ),
    ] {
        assert_eq!(
            syntax_help(sql),
            Some(format!("did you mean `{keyword}`?")),
            "{sql}"
        );
    }
    // Far from every keyword: no guess.
    let help = syntax_help("FROBNICATE TABLE t");
    assert!(!help.unwrap_or_default().contains("did you mean"));
}

#[test]
fn a_misspelt_keyword_read_as_an_alias_is_named() {
    for (sql, keyword, word) in [
        (
            "CREATE MATERIALIZED VIEW v AS SELECT a, count(*) AS n FROM t GROPU BY a",
            "GROUP",
            "GROPU",
        ),
        (
            "CREATE MATERIALIZED VIEW v AS SELECT a FORM t",
            "FROM",
            "FORM",
        ),
        (
            "CREATE MATERIALIZED VIEW v AS SELECT a FROM t WEHRE a = 1",
            "WHERE",
            "WEHRE",
        ),
    ] {
        assert_eq!(
            syntax_help(sql),
            Some(format!(
                "did you mean `{keyword}`? `{word}` was read as a name"
            )),
            "{sql}"
        );
    }
    // The same words as real aliases are no error at all.
    assert_eq!(
        helps("CREATE MATERIALIZED VIEW v AS SELECT a form FROM t gropu"),
        []
    );
}

#[test]
fn a_missing_comma_is_named() {
    assert_eq!(
        syntax_help("CREATE MATERIALIZED VIEW v AS SELECT a b c FROM t"),
        Some("a `,` is probably missing before `c`, and perhaps before `b`, which is read as an alias".to_string())
    );
    assert_eq!(
        syntax_help("CREATE OR REFRESH STREAMING TABLE t (id INT name STRING)"),
        Some("a `,` is probably missing before `name`".to_string())
    );
    // One implicit alias is Spark SQL: no error, no hint.
    assert_eq!(
        helps("CREATE MATERIALIZED VIEW v AS SELECT a b, c FROM t"),
        []
    );
}

#[test]
fn a_missing_semicolon_between_statements_is_named() {
    let found = helps(
        "CREATE MATERIALIZED VIEW a AS SELECT 1 AS x\nCREATE MATERIALIZED VIEW b AS SELECT 2 AS x;",
    );
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(
        found[0].1.as_deref(),
        Some("end the statement above with `;`")
    );
    assert_eq!(helps("CREATE MATERIALIZED VIEW a AS SELECT 1 AS x;\nCREATE MATERIALIZED VIEW b AS SELECT 2 AS x;"), []);
}

/// The diagnostics of `sql` checked as a complete pipeline: code, help, and the fix's edits.
fn complete(sql: &str) -> Vec<(String, Option<String>, Vec<String>)> {
    let arena = Arena::new();
    let mut pipeline = Pipeline::new();
    pipeline.complete(true).add_source("p.sql", sql);
    let checked = pipeline.check(&arena);
    checked
        .diagnostics()
        .map(|(_, d)| {
            let edits = d.fix().map_or(Vec::new(), |fix| {
                fix.edits
                    .iter()
                    .map(|e| format!("{}: {}", e.span.text(sql), e.replacement))
                    .collect()
            });
            (d.code().to_string(), d.help().map(str::to_string), edits)
        })
        .collect()
}

#[test]
fn a_flow_target_one_slip_from_a_table_is_named() {
    let tables = "CREATE OR REFRESH STREAMING TABLE orders;\n\
                  CREATE FLOW a AS INSERT INTO orders BY NAME SELECT * FROM STREAM(main.raw.orders);\n";
    let found = complete(&format!(
        "{tables}CREATE FLOW b AS INSERT INTO ordres BY NAME SELECT * FROM STREAM(main.raw.more);"
    ));
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "INVALID_FLOW_TARGET.NOT_FOUND");
    assert!(found[0]
        .1
        .as_deref()
        .unwrap()
        .starts_with("did you mean `orders`?"));
    assert_eq!(found[0].2, ["ordres: orders"]);
    // Far from every dataset: the error without a guess.
    let found = complete(&format!("{tables}CREATE FLOW b AS INSERT INTO invoices BY NAME SELECT * FROM STREAM(main.raw.more);"));
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(!found[0].1.as_deref().unwrap().contains("did you mean"));
    assert!(found[0].2.is_empty());
}

#[test]
fn a_read_one_slip_from_a_dataset_is_named_in_a_complete_pipeline_only() {
    let sql =
        "CREATE OR REFRESH STREAMING TABLE orders AS SELECT * FROM STREAM(main.raw.orders);\n\
               CREATE OR REFRESH MATERIALIZED VIEW totals AS SELECT count(*) AS n FROM ordres;\n";
    let found = complete(sql);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "MISSPELT_DATASET_READ");
    assert_eq!(found[0].2, ["ordres: orders"]);
    // Checked as part of a pipeline, the name may be declared in another file.
    assert_eq!(helps(sql), []);
    // A version of a dataset's name, or a qualified name, is no slip.
    for (dataset, read) in [("orders_v2", "orders_v1"), ("orders", "main.raw.ordres")] {
        let sql = format!(
            "CREATE OR REFRESH STREAMING TABLE {dataset} AS SELECT * FROM STREAM(main.raw.orders);\n\
             CREATE OR REFRESH MATERIALIZED VIEW totals AS SELECT count(*) AS n FROM {read};\n"
        );
        assert_eq!(complete(&sql), [], "{read}");
    }
}
