//! Parses the SQL files given on the command line and prints each statement back as canonical
//! SQL, with the diagnostics: `cargo run --example parse_file -- FILE.sql ...`.
use pipeline_sql::{LineIndex, Spanned};

fn main() {
    for path in std::env::args().skip(1) {
        let source = match std::fs::read_to_string(&path) {
            Ok(source) => source,
            Err(error) => {
                eprintln!("{path}: {error}");
                std::process::exit(2);
            }
        };
        let arena = pipeline_sql::Arena::new();
        let parsed = pipeline_sql::parse(&arena, &source);
        let lines = LineIndex::new(&source);
        for statement in parsed.script().statements {
            let (line, _) = lines.line_column(statement.span().start);
            println!("-- {path}:{line}\n{statement};\n");
        }
        for diagnostic in parsed.diagnostics() {
            let (line, column) = lines.line_column(diagnostic.span().start);
            println!(
                "{path}:{line}:{column}: {}: {}",
                diagnostic.code(),
                diagnostic.message()
            );
        }
    }
}
