//! Statements and clauses that Spark (or the vendor's SQL outside pipelines) reads but a
//! pipeline does not take: `CREATE TABLE ... AS SELECT`, `INSERT INTO` outside a flow, MERGE,
//! `CREATE SCHEMA`, DDL and DML of other kinds, and the SCHEDULE and TRIGGER ON UPDATE clauses
//! of streaming tables and materialized views made outside a pipeline.
//!
//! The grammar has none of them, so they fail to parse; where the words before the error say
//! which one a statement is, the error says that and what a pipeline writes instead, rather
//! than "syntax error" at an innocent token. Spark's pipeline registration refuses these
//! statements as unsupported plans (`UNSUPPORTED_PIPELINE_SPARK_SQL_COMMAND` where its Python
//! API runs them).

use crate::diagnostic::{Code, Diagnostic};
use crate::lexer::{SpannedTok, Tok};
use crate::span::Span;

/// The refusal of a statement that failed to parse at `error_at`, when it is one of the
/// statements or clauses above.
pub(crate) fn refusal_at(
    source: &str,
    tokens: &[SpannedTok<'_>],
    error_at: usize,
) -> Option<Diagnostic> {
    let word = |i: usize| -> Option<String> {
        let (l, _, r) = *tokens.get(i)?;
        Some(source[l..r].to_ascii_uppercase())
    };
    let at = tokens.iter().position(|t| t.0 == error_at)?;
    let first = word(0)?;
    let span_of = |from: usize, to: usize| Span::from_usize(tokens[from].0, tokens[to].2);
    let command = |span: Span, what: &str, help: &str| {
        Diagnostic::error(
            Code::UnsupportedPipelineSparkSqlCommand,
            span,
            format!("{what} is not a pipeline statement: a pipeline's source files declare datasets and flows"),
        )
        .with_help(help.to_string())
    };
    if at == 0 {
        let help = match first.as_str() {
            "INSERT" => "write a flow: `CREATE FLOW <name> AS INSERT INTO <target> BY NAME SELECT ...`",
            "MERGE" => "merge changes with an AUTO CDC flow: `CREATE FLOW <name> AS AUTO CDC INTO <target> FROM STREAM(<source>) KEYS (...) SEQUENCE BY <column>`",
            "UPDATE" | "DELETE" | "TRUNCATE" | "DROP" | "ALTER" | "OPTIMIZE" | "VACUUM"
            | "GRANT" | "REVOKE" | "COPY" | "ANALYZE" | "REFRESH" | "RESTORE" | "MSCK"
            | "CACHE" | "UNCACHE" | "DESCRIBE" | "SHOW" | "COMMENT" => {
                "run it outside the pipeline, in a job or a notebook of its own"
            }
            _ => return None,
        };
        return Some(command(span_of(0, 0), &format!("`{first}`"), help));
    }
    if first != "CREATE" {
        return None;
    }
    let error_word = word(at)?;
    // `CREATE [OR REPLACE] SCHEMA ...`: the word the grammar refused right after the head.
    let head_only = tokens[1..at].iter().all(|t| {
        matches!(
            t.1,
            Tok::Or | Tok::Replace | Tok::Refresh | Tok::Temporary | Tok::Private
        )
    });
    if head_only {
        let help = match error_word.as_str() {
            "SCHEMA" | "DATABASE" | "CATALOG" | "NAMESPACE" => {
                "create it outside the pipeline: the pipeline's catalog and schema are its settings"
            }
            "FUNCTION" | "VOLUME" | "CONNECTION" | "EXTERNAL" | "SHARE" | "RECIPIENT" => {
                "create it outside the pipeline, in a job or a notebook of its own"
            }
            _ => return None,
        };
        let what = format!("`CREATE {error_word}`");
        return Some(command(span_of(0, at), &what, help));
    }
    // A managed table's head (not a streaming or legacy live table's).
    let managed_table = tokens[1..at].iter().any(|t| t.1 == Tok::Table)
        && !tokens[1..at]
            .iter()
            .any(|t| matches!(t.1, Tok::Streaming | Tok::Live | Tok::Incremental));
    match (tokens[at].1, error_word.as_str()) {
        (Tok::As, _) if managed_table => {
            Some(command(
                span_of(0, at),
                "`CREATE TABLE ... AS SELECT`",
                "write `CREATE OR REFRESH MATERIALIZED VIEW <name> AS SELECT ...`, or a managed table written by a flow: `CREATE TABLE <name> FLOW INSERT BY NAME SELECT ...`",
            ))
        }
        (_, "SCHEDULE" | "TRIGGER") => Some(
            Diagnostic::error(
                Code::UnsupportedPipelineClause,
                Span::from_usize(tokens[at].0, tokens[at].2),
                format!("`{error_word}` schedules a dataset made outside a pipeline; in a pipeline, the pipeline's trigger updates its datasets"),
            )
            .with_help("remove the clause, and set the pipeline's schedule in its settings (or `SET pipelines.trigger.interval = ...`)"),
        ),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use crate::syntax::read;

    fn code(sql: &str) -> String {
        let arena = crate::Arena::new();
        let parsed = crate::parse(&arena, sql);
        parsed
            .diagnostics()
            .iter()
            .map(|d| d.code().to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn statements_a_pipeline_does_not_take_say_so() {
        for sql in [
            "CREATE TABLE t AS SELECT 1",
            "CREATE OR REPLACE TABLE main.s.t (a INT) USING DELTA AS SELECT 1 AS a",
            "INSERT INTO t SELECT * FROM s",
            "MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN DELETE",
            "CREATE SCHEMA IF NOT EXISTS sales",
            "DROP TABLE t",
            "OPTIMIZE t ZORDER BY (a)",
        ] {
            assert_eq!(code(sql), "UNSUPPORTED_PIPELINE_SPARK_SQL_COMMAND", "{sql}");
        }
        for sql in [
            "CREATE OR REFRESH STREAMING TABLE t SCHEDULE EVERY 1 HOUR AS SELECT * FROM STREAM(s)",
            "CREATE MATERIALIZED VIEW m TRIGGER ON UPDATE AS SELECT 1",
        ] {
            assert_eq!(code(sql), "UNSUPPORTED_PIPELINE_CLAUSE", "{sql}");
        }
    }

    #[test]
    fn near_misses_stay_syntax_errors_or_parse() {
        // A managed table written by a flow, a column named `merge`, a broken CREATE.
        assert!(read("CREATE TABLE t FLOW INSERT BY NAME SELECT * FROM s").is_ok());
        assert!(read("SELECT merge, schedule FROM t").is_ok());
        assert_eq!(code("CREATE TABLE t (a INT"), "PARSE_SYNTAX_ERROR");
        assert_eq!(
            code("CREATE OR REFRESH STREAMING TABLE t AS"),
            "PARSE_SYNTAX_ERROR"
        );
        assert_eq!(
            code("CREATE LIVE TABLE t (a INT,) AS SELECT 1"),
            "PARSE_SYNTAX_ERROR"
        );
    }
}
