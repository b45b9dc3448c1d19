//! What every action uses: the error an action raises, spans, and the words it checks.
//! Imports no other module of the actions.

use crate::span::Span;

/// An error raised by a grammar action: a construct that matched the grammar's shape but is
/// not valid (`CREATE OR REPLACE MATERIALIZED VIEW`, `a > > b`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserError {
    /// The offending text.
    pub span: Span,
    /// What is wrong.
    pub message: String,
}

impl UserError {
    /// The error as a syntax diagnostic.
    pub fn into_diagnostic(self) -> crate::diagnostic::Diagnostic {
        crate::diagnostic::Diagnostic::error(
            crate::diagnostic::Code::ParseSyntaxError,
            self.span,
            self.message,
        )
    }
}

pub type ActionResult<'t, T> =
    Result<T, lalrpop_util::ParseError<usize, crate::lexer::Tok<'t>, UserError>>;

pub fn user_error<'t, T>(span: Span, message: String) -> ActionResult<'t, T> {
    Err(lalrpop_util::ParseError::User {
        error: UserError { span, message },
    })
}

/// A word the grammar read where a keyword of Spark's stands (one that is no keyword here, so
/// that it stays a name elsewhere), with its span.
pub type Word<'a> = (Span, &'a str);

/// `Ok` when `word` is `expected` (in any case), else an error that names both.
pub fn expect_word<'t>((span, word): Word<'_>, expected: &str) -> ActionResult<'t, ()> {
    if word.eq_ignore_ascii_case(expected) {
        return Ok(());
    }
    user_error(span, format!("expected {expected}, found `{word}`"))
}

/// A span from LALRPOP's `usize` locations.
pub fn sp(l: usize, r: usize) -> Span {
    Span::from_usize(l, r)
}

/// The first of `items` whose key an earlier one has: one pass however long the list (a
/// generated clause may hold many thousands).
pub fn first_repeat<T, K: Eq + std::hash::Hash>(
    items: impl IntoIterator<Item = T>,
    key: impl Fn(&T) -> K,
) -> Option<T> {
    let mut seen = std::collections::HashSet::new();
    items.into_iter().find(|item| !seen.insert(key(item)))
}
