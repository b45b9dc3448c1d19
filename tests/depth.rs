//! Every recursive construct is bounded: whatever the parser accepts, every walker of the tree
//! (Display, Debug, the visitor, serde, the checker, the pipeline model and the report) runs on
//! a 2 MiB stack, and deeper input is one diagnostic, not a crash.
//!
//! Each construct is tried at the deepest it may nest (it parses, prints, reparses to the same
//! text and checks), one level deeper and at one million (one diagnostic each).

use pipeline_sql::ast::visit::Visitor;
use pipeline_sql::{Arena, Pipeline, MAX_CHAIN, MAX_DEPTH, MAX_NESTING};

/// The stack of a thread that `std::thread::spawn` makes by default, as every walker may
/// have it in an optimized build (`cargo test --release --test depth`, which CI runs). An
/// unoptimized build's frames are about four times as large.
const STACK: usize = if cfg!(debug_assertions) {
    8 << 20
} else {
    2 << 20
};

/// Far past every limit; smaller in an unoptimized build, where lexing a million tokens is slow.
const HUGE: usize = if cfg!(debug_assertions) {
    100_000
} else {
    1_000_000
};

/// The visitor's own walk over the whole tree.
struct WalkAll;

impl Visitor<'_> for WalkAll {}

/// What every walker made of `source`: its diagnostics' codes and messages, and the statements
/// printed back. Runs on a thread with a 2 MiB stack; a stack overflow aborts the test.
fn walk_everything(source: String) -> (Vec<String>, String) {
    std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(move || {
            let arena = Arena::new();
            let checked = pipeline_sql::check(&arena, &source);
            let mut printed = String::new();
            for statement in checked.script().statements {
                printed += &statement.to_string();
                assert!(!format!("{statement:?}").is_empty());
                #[cfg(feature = "cli")]
                assert!(serde_json::to_string(statement).is_ok());
            }
            WalkAll.visit_script(checked.script());
            let diagnostics = checked
                .diagnostics()
                .iter()
                .map(|d| format!("{}: {}", d.code(), d.message()))
                .collect();
            let mut pipeline = Pipeline::new();
            pipeline.add_source("deep.sql", &source);
            pipeline.complete(true);
            let arena = Arena::new();
            let whole = pipeline.check(&arena);
            #[cfg(feature = "cli")]
            {
                let reports = pipeline_sql::report::file_reports(&whole);
                assert!(!pipeline_sql::report::render_json(&reports).is_empty());
                let _ = pipeline_sql::report::render_human(&reports, 100, false);
            }
            drop(whole);
            (diagnostics, printed)
        })
        .unwrap()
        .join()
        .expect("a walker panicked")
}

/// `source` at its limit: no syntax error, and its printed form prints back to itself.
fn accepted(source: String) {
    let (diagnostics, printed) = walk_everything(source.clone());
    assert!(
        !diagnostics.iter().any(|d| d.starts_with("PARSE")),
        "{diagnostics:?}"
    );
    let (again, reprinted) = walk_everything(printed.clone());
    assert!(!again.iter().any(|d| d.starts_with("PARSE")), "{again:?}");
    assert_eq!(printed, reprinted);
}

/// `source` past its limit: refused as nesting too deeply, in one diagnostic.
fn refused(source: String) {
    let (diagnostics, _) = walk_everything(source);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    assert!(
        diagnostics[0].contains("nests more than") || diagnostics[0].contains("chains more than"),
        "{diagnostics:?}"
    );
}

/// `head`, then `open` n times, then `middle`, then `close` n times.
fn nested(head: &str, open: &str, middle: &str, close: &str, n: usize) -> String {
    format!("{head}{}{middle}{}", open.repeat(n), close.repeat(n))
}

macro_rules! bounded {
    ($($name:ident: $limit:expr, |$n:ident| $source:expr;)*) => {$(
        #[test]
        fn $name() {
            let source = |$n: usize| -> String { $source };
            accepted(source($limit));
            refused(source($limit + 1));
            refused(source(HUGE));
        }
    )*};
}

// Brackets, CASE and prefix operators are counted as they are read (MAX_NESTING), chains as
// they are built (MAX_CHAIN); everything else on the tree (MAX_DEPTH), where the query, the
// SELECT and the operand at the bottom take their levels too.
bounded! {
    parentheses: MAX_NESTING, |n| nested("SELECT ", "(", "1", ")", n);
    calls: MAX_NESTING, |n| nested("SELECT ", "f(", "1", ")", n);
    subscripts_inside: MAX_NESTING, |n| nested("SELECT ", "a[", "0", "]", n);
    case_expressions: MAX_NESTING, |n| nested("SELECT ", "CASE WHEN a THEN ", "1", " END", n);
    subqueries: MAX_NESTING, |n| nested("SELECT * FROM ", "(SELECT * FROM ", "t", ")", n);
    not_operators: MAX_NESTING, |n| format!("SELECT {}a", "NOT ".repeat(n));
    sign_operators: MAX_NESTING, |n| format!("SELECT {}a", "- ".repeat(n));
    bit_not_operators: MAX_NESTING, |n| format!("SELECT {}a", "~".repeat(n));
    operator_chains: MAX_CHAIN, |n| format!("SELECT a{}", " + a".repeat(n));
    boolean_chains: MAX_CHAIN, |n| format!("SELECT * FROM t WHERE a{}", " OR a".repeat(n));
    unions: MAX_CHAIN, |n| format!("SELECT 1{}", " UNION SELECT 1".repeat(n));
    joins: MAX_CHAIN, |n| format!("SELECT * FROM t{}", " JOIN t ON true".repeat(n));
    pipes: MAX_CHAIN, |n| format!("FROM t{}", " |> WHERE true".repeat(n));
    intersections: MAX_CHAIN, |n| format!("SELECT a FROM t{}", " INTERSECT (SELECT a FROM t)".repeat(n));
    pivots: MAX_CHAIN, |n| format!("SELECT * FROM t{}", " PIVOT (sum(v) FOR k IN (1))".repeat(n));
    unpivots: MAX_CHAIN, |n| format!("SELECT * FROM t{}", " UNPIVOT (v FOR k IN (a, b))".repeat(n));
    bins: MAX_CHAIN, |n| format!("SELECT * FROM t{}", " BIN BY (RANGE a TO b BIN WIDTH w DISTRIBUTE UNIFORM (v))".repeat(n));
    casts: MAX_DEPTH - 3, |n| format!("SELECT a{}", "::int".repeat(n));
    subscripts_after: MAX_DEPTH - 3, |n| format!("SELECT a{}", "[0]".repeat(n));
    fields: MAX_DEPTH - 4, |n| format!("SELECT (a){}", ".f".repeat(n));
    collations: MAX_DEPTH - 3, |n| format!("SELECT a{}", " COLLATE c".repeat(n));
    json_paths: MAX_DEPTH - 3, |n| format!("SELECT raw{}", ":a".repeat(n));
    lambdas: MAX_DEPTH - 4, |n| format!("SELECT f({}x)", "x -> ".repeat(n));
    array_types: MAX_DEPTH - 4, |n| nested("SELECT CAST(a AS ", "ARRAY<", "INT", ">", n) + ")";
    map_types: MAX_DEPTH - 4, |n| nested("SELECT CAST(a AS ", "MAP<INT, ", "INT", ">", n) + ")";
    struct_types: MAX_DEPTH - 1, |n| nested("CREATE TABLE t (c ", "STRUCT<f: ", "INT", ">", n) + ")";
    // Each limit alone is not enough: the longest chain in the deepest brackets would be
    // 200,000 levels. On the tree, each bracket here is a level and its chain ten.
    chains_in_parentheses: (MAX_DEPTH - 3) / 11, |n| nested("SELECT ", "(", "a", &format!("{})", " + a".repeat(10)), n);
}
