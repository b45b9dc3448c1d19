//! `cargo +nightly fuzz run parse` (from the repository root): parsing never panics, and a
//! statement that parsed cleanly prints as SQL that parses cleanly again.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pipeline_sql::ast::Statement;

fuzz_target!(|data: &[u8]| {
    let Ok(source) = std::str::from_utf8(data) else {
        return;
    };
    let arena = pipeline_sql::Arena::new();
    let parsed = pipeline_sql::parse(&arena, source);
    if !parsed.diagnostics().is_empty() {
        return;
    }
    for statement in parsed.script().statements {
        if matches!(statement, Statement::Error(_)) {
            continue;
        }
        let printed = statement.to_string();
        let arena = pipeline_sql::Arena::new();
        let reparsed = pipeline_sql::parse(&arena, &printed);
        assert!(reparsed.diagnostics().is_empty(), "`{printed}` does not parse again");
        assert_eq!(reparsed.script().statements.len(), 1, "`{printed}`");
        assert_eq!(reparsed.script().statements[0].to_string(), printed);
    }
});
