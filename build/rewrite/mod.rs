//! The rewrites of LALRPOP's generated parser, each a named pass in a file of its own, applied
//! in the order of [`PASSES`]. They were written for the output of lalrpop 0.23.2, which
//! `Cargo.toml` pins. Each pass matches exact lines of that output; a pass that no longer finds
//! what it rewrites fails the build (see [`rewrite`]) instead of being skipped, since most of
//! them only make parsing faster and one (`attach_empty_symbols`) changes the spans.
//!
//! Each pass is idempotent and counts the places it rewrote also when an earlier build already
//! rewrote them: LALRPOP leaves a parser that is up to date alone.

mod attach_empty_symbols;
mod elide_unit_reductions;
mod expected_tokens_on_request;
mod forget_copied_symbols;
mod inline_token_conversions;
mod outline_fallible_reductions;
mod table_driven_goto;
mod word_sized_symbol_tag;

/// One rewrite: its name, what it does to the parser's text (the text and how many places it
/// rewrote), and how many places it must find in this grammar's parser.
pub struct Pass {
    pub name: &'static str,
    pub apply: fn(&str) -> (String, usize),
    pub at_least: usize,
}

/// The passes, in the order they run. The counts are those of this grammar's parser (1,094
/// unit reductions, 860 fallible ones, ...) with a margin for grammar changes.
pub const PASSES: &[Pass] = &[
    Pass {
        name: "elide_unit_reductions",
        apply: elide_unit_reductions::elide_unit_reductions,
        at_least: 800,
    },
    Pass {
        name: "outline_fallible_reductions",
        apply: outline_fallible_reductions::outline_fallible_reductions,
        at_least: 600,
    },
    Pass {
        name: "word_sized_symbol_tag",
        apply: word_sized_symbol_tag::word_sized_symbol_tag,
        at_least: 1,
    },
    Pass {
        name: "forget_copied_symbols",
        apply: forget_copied_symbols::forget_copied_symbols,
        at_least: 100,
    },
    Pass {
        name: "attach_empty_symbols",
        apply: attach_empty_symbols::attach_empty_symbols,
        at_least: 1000,
    },
    Pass {
        name: "inline_token_conversions",
        apply: inline_token_conversions::inline_token_conversions,
        at_least: 4,
    },
    Pass {
        name: "table_driven_goto",
        apply: table_driven_goto::table_driven_goto,
        at_least: 1,
    },
    Pass {
        name: "expected_tokens_on_request",
        apply: expected_tokens_on_request::expected_tokens_on_request,
        at_least: 1,
    },
];

/// `parser` with every pass applied. Panics, failing the build, when a pass rewrote fewer
/// places than it must find.
pub fn rewrite(parser: &str) -> String {
    let mut text = parser.to_string();
    for pass in PASSES {
        let (rewritten, count) = (pass.apply)(&text);
        assert!(
            count >= pass.at_least,
            "build/rewrite/{name}.rs rewrote {count} places of the generated parser, fewer than \
             the {at_least} it must find: LALRPOP's output no longer looks as the pass expects \
             (was lalrpop upgraded? Cargo.toml pins the version the passes were written for)",
            name = pass.name,
            at_least = pass.at_least,
        );
        text = rewritten;
    }
    text
}
