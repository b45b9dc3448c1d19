//! Parses the SQL files given on the command line and prints each statement back as canonical
//! SQL, with the diagnostics: `cargo run --example parse_file -- [--tree] [--lines] FILE.sql ...`.
//! With `--tree`, each statement's syntax tree (with its spans) is printed too, which makes
//! the output a byte-for-byte record of what the parser builds; with `--lines`, each line of a
//! file is parsed as a source of its own (a corpus of one statement a line).
use pipeline_sql::{LineIndex, Spanned};

fn main() {
    let (mut tree, mut by_line) = (false, false);
    for path in std::env::args().skip(1) {
        match path.as_str() {
            "--tree" => tree = true,
            "--lines" => by_line = true,
            _ => {}
        }
        if path.starts_with("--") {
            continue;
        }
        let source = match std::fs::read_to_string(&path) {
            Ok(source) => source,
            Err(error) => {
                eprintln!("{path}: {error}");
                std::process::exit(2);
            }
        };
        if by_line {
            for (number, line) in source.lines().enumerate() {
                print_parsed(&format!("{path}#{}", number + 1), line, tree);
            }
        } else {
            print_parsed(&path, &source, tree);
        }
    }
}

/// Prints the statements of `source` as canonical SQL (and as trees), then its diagnostics.
fn print_parsed(path: &str, source: &str, tree: bool) {
    {
        let arena = pipeline_sql::Arena::new();
        let parsed = pipeline_sql::parse(&arena, source);
        let lines = LineIndex::new(source);
        for statement in parsed.script().statements {
            let (line, _) = lines.line_column(statement.span().start);
            println!("-- {path}:{line}\n{statement};\n");
            if tree {
                println!("{statement:?}\n");
            }
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
