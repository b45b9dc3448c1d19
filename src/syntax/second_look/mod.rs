//! The second look: a statement read again where Spark's parser, which looks as far ahead as it
//! needs, reads it differently from the LALR(1) grammar, which decides on one token. This is
//! the one place besides the grammar and the lexer that decides what parses, and [`look_again`]
//! is its one entry. Valid input that the grammar reads as Spark does never comes here beyond
//! one cheap scan (see below).
//!
//! After the grammar refused a statement at a token, in this order, the first that mends it
//! wins (each in `keyword_names`, under the bounds documented there: at most 4 keywords before
//! the error tried as names, 2 names in one reading, 8 steps from the farthest error):
//! 1. `(` after no name as the start of a select item's column names (`f(x) (a, b)`);
//! 2. WINDOW as the query's own WINDOW clause;
//! 3. ORDER BY, LIMIT ... as a FROM-first SELECT body's own clauses;
//! 4. the end of an inline table without an alias (`t JOIN VALUES (1), (2) ON ...`);
//! 5. `IGNORE NULLS )` as the end of `first((x) IGNORE NULLS)`;
//! 6. MAP or REDUCE as Hive's script transform;
//! 7. keywords before the error read as names (`SELECT case, b FROM t`).
//!
//! Where none mends it, a more precise refusal is looked for: an alias with dashes (`AS my-col`,
//! in `dashed_names`), a join word after AS (`FROM t AS union`), or a statement or clause that
//! Spark reads but a pipeline does not take (`CREATE TABLE ... AS SELECT`, MERGE, SCHEDULE, in
//! `unsupported`); else the grammar's error stands.
//!
//! A statement that parsed is looked at once more only when it has a clause word before
//! `- name` (`SELECT a WHERE - b`), which Spark may read as an alias with dashes and refuse
//! (`dashed_names`).
//!
//! Cost, measured with `cargo bench --bench second_look` against valid statements of the same
//! length, in a file of such statements and each alone: a keyword used as a column 1.6x to
//! 1.8x, as an alias 2.3x to 2.9x (the grammar's reading fails, and at least one other is
//! parsed whole); a syntax error 1.7x to 6.4x once an error at the same parser states has been
//! met, as in an editor (every strategy above is tried). The first error at given states also
//! lists the terminals expected there (see `syntax::expected`): counted with callgrind, the
//! flow in the bench then costs 116k instructions where its valid twin costs 12.5k (9.3x).

pub(crate) mod dashed_names;
pub(crate) mod keyword_names;
mod unsupported;

use crate::arena::Arena;
use crate::ast::Statement;
use crate::diagnostic::Diagnostic;
use crate::lexer::SpannedTok;
use crate::lexer::Tok;
use crate::syntax::actions::base::UserError;
use crate::syntax::grammar::ScriptParser;
use lalrpop_util::ParseError;

/// What the second look makes of a statement.
pub(crate) enum Verdict<'a> {
    /// The statement as Spark reads it.
    Read(Statement<'a>),
    /// Spark refuses the statement, for the reason the diagnostic gives.
    Refused(Diagnostic),
    /// No other reading mends the statement: the grammar's own error stands.
    Unmended,
}

/// The statement of `tokens` as Spark reads it. `first` is the grammar's reading: the
/// statement, or where the grammar refused it (`None`: at no token that another reading of the
/// words could mend, such as a check in an action).
pub(crate) fn look_again<'a>(
    parser: &ScriptParser,
    arena: &'a Arena,
    source: &'a str,
    tokens: &[SpannedTok<'a>],
    first: Result<Statement<'a>, Option<usize>>,
) -> Verdict<'a> {
    let statement = match first {
        Ok(statement) => statement,
        Err(None) => return Verdict::Unmended,
        Err(Some(at)) => match keyword_names::reparse(parser, arena, source, tokens, at) {
            Ok(statement) => statement,
            Err(Some(refusal)) => return Verdict::Refused(refusal.into_diagnostic()),
            Err(None) => {
                return dashed_names::alias_with_dashes_at(parser, source, tokens, at)
                    .or_else(|| keyword_names::strict_alias_at(source, tokens, at))
                    .map(UserError::into_diagnostic)
                    .or_else(|| unsupported::refusal_at(source, tokens, at))
                    .map_or(Verdict::Unmended, Verdict::Refused)
            }
        },
    };
    match dashed_names::clause_read_as_alias(parser, source, tokens) {
        Some(refusal) => Verdict::Refused(refusal),
        None => Verdict::Read(statement),
    }
}

/// Where the grammar found a token it did not expect (`end` for the end of the statement);
/// `None` for an error that a check in an action reported, which no other reading of the
/// words can mend.
pub(crate) fn error_offset(
    error: &ParseError<usize, Tok<'_>, UserError>,
    end: usize,
) -> Option<usize> {
    match error {
        // Input the lexer could not read: no reading of the words around it mends it.
        ParseError::UnrecognizedToken {
            token: (_, Tok::Error(_), _),
            ..
        } => None,
        ParseError::UnrecognizedToken { token, .. } | ParseError::ExtraToken { token } => {
            Some(token.0)
        }
        ParseError::UnrecognizedEof { .. } => Some(end),
        ParseError::InvalidToken { .. } | ParseError::User { .. } => None,
    }
}
