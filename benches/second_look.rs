//! What a statement that the grammar alone does not accept costs, against a valid statement of
//! the same length: a keyword used as a name (`SELECT case, b FROM t`, which Spark accepts and
//! the parser reads on a second look) and a syntax error (`SELECT a,, b FROM t`).
//!
//! `cargo bench --bench second_look`. Each case is a file of 2,000 statements of one shape,
//! parsed whole, and the same statements parsed one source each (as an editor parses the
//! statement being typed); its valid twin has the same length, and the two take turns (see
//! `support/rounds.rs`). The report is the cost per byte of each case over its twin.

use std::hint::black_box;

#[path = "support/rounds.rs"]
mod rounds;

use rounds::{report_cost, take_turns, Contestant};

const STATEMENTS: usize = 2000;

/// Each case: its name, a statement of that kind, and a valid statement of the same length.
const CASES: &[(&str, &str, &str)] = &[
    (
        "keyword as a column",
        "SELECT case, b FROM t",
        "SELECT cose, b FROM t",
    ),
    (
        "keyword as an alias",
        "SELECT a order FROM t",
        "SELECT a ordex FROM t",
    ),
    (
        "keyword as a relation's alias",
        "SELECT a FROM t where",
        "SELECT a FROM t wherx",
    ),
    (
        "syntax error: a comma too many",
        "SELECT a,, b FROM t",
        "SELECT a, bb FROM t",
    ),
    (
        "syntax error: no operand",
        "SELECT a FROM t WHERE a =",
        "SELECT a FROM t WHERE a=1",
    ),
    (
        "syntax error: an open bracket in a flow",
        "CREATE FLOW f AS INSERT INTO t BY NAME SELECT * FROM STREAM(s) WHERE (",
        "CREATE FLOW f AS INSERT INTO t BY NAME SELECT * FROM STREAM(s) WHERE a",
    ),
];

/// Parses `source` into a fresh arena and returns how many diagnostics it has.
fn parse(source: &str) -> usize {
    let arena = pipeline_sql::Arena::new();
    pipeline_sql::parse(&arena, black_box(source))
        .diagnostics()
        .len()
}

fn main() {
    for &(case, statement, twin) in CASES {
        assert_eq!(
            statement.len(),
            twin.len(),
            "{case}: the twins differ in length"
        );
        assert_eq!(parse(twin), 0, "{case}: the twin must be valid");
        let is_error = case.starts_with("syntax error");
        assert_eq!(parse(statement) > 0, is_error, "{case}: {statement}");

        let file = |sql: &str| format!("{sql};\n").repeat(STATEMENTS);
        let (file, twin_file) = (file(statement), file(twin));
        let mut whole = Contestant::new("the file", file.len(), || {
            black_box(parse(&file));
        });
        let mut twin_whole = Contestant::new("its valid twin", twin_file.len(), || {
            black_box(parse(&twin_file));
        });
        let bytes = STATEMENTS * statement.len();
        let mut alone = Contestant::new("each statement alone", bytes, || {
            for _ in 0..STATEMENTS {
                black_box(parse(statement));
            }
        });
        let mut twin_alone = Contestant::new("its valid twin alone", bytes, || {
            for _ in 0..STATEMENTS {
                black_box(parse(twin));
            }
        });
        take_turns(&mut [&mut whole, &mut twin_whole, &mut alone, &mut twin_alone]);
        println!("{case}: `{statement}` against `{twin}`");
        report_cost(&whole, &twin_whole);
        report_cost(&alone, &twin_alone);
        println!();
    }
}
