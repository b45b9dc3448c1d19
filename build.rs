//! The build: the grammar's keyword rules and the lexer's keyword tokens written from the
//! keyword table (`build/keywords.rs`), LALRPOP run over the grammar into `OUT_DIR`, and the
//! named rewrites of its output applied (`build/rewrite/`, one file per pass, each tested on
//! its own by `cargo test --test build`); and the list of the pages of `docs/codes/`, which
//! the command line prints (`pipeline-sql rule CODE`).
use std::path::Path;

#[path = "build/keywords.rs"]
mod keywords;
#[path = "build/rewrite/mod.rs"]
mod rewrite;
// The crate uses the parts of the table that the build script does not.
#[allow(dead_code)]
#[path = "src/syntax/keywords.rs"]
mod keyword_table;

fn main() {
    for input in [
        "grammar",
        "build",
        "build.rs",
        "src/syntax/keywords.rs",
        "docs/codes",
    ] {
        println!("cargo:rerun-if-changed={input}");
    }
    let out_dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR for build scripts");
    let out = Path::new(&out_dir);

    // The grammar with its keyword rules written from the keyword table, and the lexer's
    // keyword tokens; each file is written only when it changes, so that LALRPOP and rustc see
    // an unchanged input as unchanged.
    let grammar =
        std::fs::read_to_string("grammar/pipeline.lalrpop").expect("the grammar is there");
    let grammar_dir = out.join("grammar");
    std::fs::create_dir_all(&grammar_dir).expect("OUT_DIR is writable");
    write_if_changed(
        &grammar_dir.join("pipeline.lalrpop"),
        &keywords::expand_grammar(&grammar),
    );
    write_if_changed(
        &out.join("keyword_tokens.rs"),
        &keywords::token_declarations(),
    );

    // LALRPOP writes its parser apart, and leaves it alone while the grammar is unchanged; the
    // passes always rewrite that output as LALRPOP made it, so a changed pass takes effect.
    let lalrpop_dir = out.join("lalrpop");
    lalrpop::Configuration::new()
        .set_in_dir(&grammar_dir)
        .set_out_dir(&lalrpop_dir)
        .emit_rerun_directives(false)
        .process()
        .expect("LALRPOP failed to generate the parser");
    let generated =
        std::fs::read_to_string(lalrpop_dir.join("pipeline.rs")).expect("LALRPOP wrote the parser");
    write_if_changed(&out.join("pipeline.rs"), &rewrite::rewrite(&generated));
    write_if_changed(&out.join("code_pages.rs"), &code_pages());
}

/// `[("CODE", include_str!(".../docs/codes/CODE.md")), ...]`, sorted by code.
fn code_pages() -> String {
    let mut codes: Vec<String> = std::fs::read_dir("docs/codes")
        .expect("docs/codes is there")
        .filter_map(|entry| {
            let name = entry.ok()?.file_name().into_string().ok()?;
            let code = name.strip_suffix(".md")?;
            (code != "README").then(|| code.to_string())
        })
        .collect();
    codes.sort();
    let rows: String = codes
        .iter()
        .map(|code| {
            format!(
                "    (\"{code}\", include_str!(concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/docs/codes/{code}.md\"))),\n"
            )
        })
        .collect();
    format!("&[\n{rows}]\n")
}

/// Writes `text` to `path` unless the file already holds it.
fn write_if_changed(path: &Path, text: &str) {
    if std::fs::read_to_string(path).ok().as_deref() != Some(text) {
        std::fs::write(path, text).expect("OUT_DIR is writable");
    }
}
