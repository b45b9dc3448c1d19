//! The build script's parts on their own: each rewrite pass of `build/rewrite/` on a snippet of
//! LALRPOP's output (the tests are in the passes' files), the build's refusal of a parser that
//! a pass no longer matches, and the grammar's keyword rules written from the keyword table.

#[path = "../build/keywords.rs"]
mod keywords;
#[path = "../build/rewrite/mod.rs"]
mod rewrite;
// The build script reads only part of the table.
#[allow(dead_code)]
#[path = "../src/syntax/keywords.rs"]
mod keyword_table;

#[test]
#[should_panic(expected = "elide_unit_reductions.rs rewrote 0 places")]
fn a_parser_that_a_pass_no_longer_matches_fails_the_build() {
    rewrite::rewrite("pub struct NotAParser;\n");
}

#[test]
fn every_pass_is_listed_once() {
    let mut names: Vec<&str> = rewrite::PASSES.iter().map(|pass| pass.name).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), rewrite::PASSES.len());
    for name in names {
        let file = format!("{}/build/rewrite/{name}.rs", env!("CARGO_MANIFEST_DIR"));
        assert!(std::path::Path::new(&file).exists(), "{file}");
    }
}

#[test]
fn the_keyword_markers_become_the_tables_words() {
    let grammar = "extern {\n    enum Tok<'a> {\n        // @keywords terminals\n    }\n}\nStrictWord: () = {\n    // @keywords strict: the strict words\n};\nClauseWordIdent: Ident<'a> = {\n    // @keywords Name\n};\n// A comment that mentions `// @keywords Name` is no marker.\n";
    let expanded = keywords::expand_grammar(grammar);
    assert!(expanded.contains("        \"select\" => Tok::Select,\n"));
    assert!(expanded.contains("        \"ROW FORMAT\" => Tok::RowFormat,\n"));
    assert!(expanded.contains("    \"join\",\n"));
    assert!(!expanded.contains("    \"select\",\n"));
    assert!(expanded.contains("    KwIdent<\"qualify\">,\n"));
    assert!(expanded.contains("// A comment that mentions `// @keywords Name` is no marker."));
    let rows = keyword_table::KEYWORDS.len();
    assert_eq!(expanded.matches(" => Tok::").count(), rows);
}

#[test]
#[should_panic(expected = "names no part of the keyword table")]
fn a_marker_that_names_nothing_fails_the_build() {
    keywords::expand_grammar("    // @keywords Nmae\n");
}

#[test]
fn the_lexer_gets_a_variant_and_a_name_for_each_word_of_the_table() {
    let declarations = keywords::token_declarations();
    assert!(declarations.contains("            #[token(\"temporary\", ignore(case))]\n            #[token(\"temp\", ignore(case))]\n            Temporary,\n"));
    assert!(declarations.contains("            Tok::Select => \"SELECT\",\n"));
    // A token that the lexer makes from the words around it is declared by the lexer itself.
    assert!(!declarations.contains("RowFormat"));
    let words = keyword_table::KEYWORDS
        .iter()
        .filter(|k| k.is_word())
        .count();
    assert_eq!(declarations.matches(" => \"").count(), words);
}
