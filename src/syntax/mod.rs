//! Text to tree: the lexer, the grammar (LALRPOP, `grammar/pipeline.lalrpop`), the actions the
//! grammar calls, and the second look at a statement the grammar alone refuses.
//!
//! - [`lexer`]: source text to tokens (logos), with the few contextual choices one token of
//!   look-ahead needs; never aborts.
//! - `expected`: what a syntax error says about the parser's states (the terminals that fit
//!   there, as a message lists them).
//! - `parse`: runs the generated parser over a source, one pass for a clean file and statement
//!   by statement after an error, and turns its errors into diagnostics.
//! - `hints`: the likely slip behind a syntax error (a misspelt keyword, a missing comma).
//! - `depth`: how deep a statement's tree is, refused past [`MAX_DEPTH`] so that every walker
//!   of the tree stays within a 2 MiB stack.
//! - `recovery`: where a broken statement whose `;` is missing ends.
//! - `actions`: what the grammar's rules call to build the tree, and Spark's parse-time
//!   refusals, by topic.
//! - `second_look`: where Spark would accept a statement that the LALR(1) grammar refuses (a
//!   keyword used as a name, ...), the statement read again.

mod actions;
mod depth;
mod expected;
mod hints;
pub(crate) mod keywords;
pub mod lexer;
mod parse;
mod recovery;
mod second_look;

lalrpop_util::lalrpop_mod!(
    #[allow(clippy::all, clippy::pedantic, unused_qualifications, missing_docs)]
    grammar,
    "/pipeline.rs"
);

pub use depth::MAX_DEPTH;
pub(crate) use expected::at_syntax_error;
pub(crate) use parse::parse_script;
pub use parse::{MAX_CHAIN, MAX_NESTING};

/// For the tests of the second looks: the statements as `Display` prints them, joined by a
/// space, or the first diagnostic's message.
#[cfg(test)]
pub(crate) fn read(sql: &str) -> Result<String, String> {
    let arena = crate::Arena::new();
    let parsed = crate::parse(&arena, sql);
    match parsed.diagnostics().first() {
        Some(diagnostic) => Err(diagnostic.message().to_string()),
        None => Ok(parsed
            .script()
            .statements
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ")),
    }
}
