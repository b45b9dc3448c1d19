//! The LALRPOP glue: runs the generated parser and turns its errors into diagnostics.
//!
//! A file is first parsed in one pass straight from the lexer, which is the fast path for the
//! common case of a file without errors. If that pass fails, the file is parsed again one
//! statement at a time: the token stream is cut at `;` and each piece parsed alone. That makes
//! recovery exact (rather than relying on error recovery inside LALRPOP): a broken statement
//! yields one diagnostic and a [`Statement::Error`] placeholder, and every other statement
//! parses as if it were alone.

use crate::arena::Arena;
use crate::ast::{Script, Statement};
use crate::diagnostic::{Code, Diagnostic};
use crate::lexer::{LexError, Lexer, SpannedTok, Tok};
use crate::notebook::{Cell, CellKind};
use crate::span::{Span, Spanned};
use crate::syntax::actions::base::UserError;
use crate::syntax::depth::{self, MAX_DEPTH};
use crate::syntax::expected::{self, with_expected, Expected};
use crate::syntax::grammar;
use crate::syntax::hints;
use crate::syntax::recovery;
use crate::syntax::second_look::{self, Verdict};
use lalrpop_util::ParseError;
use std::ops::Range;

/// How deeply brackets may nest in one statement, and how many prefix operators (`NOT`, `-`)
/// may follow each other. Deeper input is reported instead of parsed, so that parsing, printing
/// and visiting the tree cannot exhaust the stack (a tree in the arena is never dropped node by
/// node).
pub const MAX_NESTING: usize = 200;

/// How many binary operators one flat expression may chain (`a + b + ...`, `p AND q AND ...`),
/// and how many set operations, joins, pipe steps and PIVOT, UNPIVOT or BIN BY clauses one
/// statement may have: each such chain becomes a tree as deep as it is long, which the depth
/// limit ([`super::depth::MAX_DEPTH`]) bounds as a whole.
pub const MAX_CHAIN: usize = 1000;

/// Tracks bracket depth, runs of prefix operators, and the links of left-deep query chains
/// (UNION, JOIN, `|>`, PIVOT, UNPIVOT, BIN BY) over a statement's tokens.
#[derive(Default)]
struct NestingGuard {
    depth: usize,
    prefix_run: usize,
    links: usize,
    /// The statement's tokens that may open a level of its tree (all but names, literals and
    /// commas).
    level_tokens: usize,
    /// Whether some statement had more of those than [`depth::UNWALKED_LEVEL_TOKENS`].
    may_be_too_deep: bool,
}

/// Why a statement is refused before it is parsed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TooDeep {
    /// Brackets, CASE or prefix operators nest beyond [`MAX_NESTING`].
    Nesting,
    /// Set operations, joins, pipe steps and relation operators beyond [`MAX_CHAIN`].
    Chain,
}

impl NestingGuard {
    /// Notes `tok`; an error when the statement now nests or chains too deeply. Inlined into
    /// the parser's loop, which calls it for every token.
    #[inline(always)]
    fn admit(&mut self, tok: Tok<'_>) -> Result<(), TooDeep> {
        // One match for all three counts: this runs for every token of every statement.
        let prefix_run = std::mem::take(&mut self.prefix_run);
        if !tok.is_leaf() {
            self.level_tokens += 1;
            self.may_be_too_deep |= self.level_tokens > depth::UNWALKED_LEVEL_TOKENS;
        }
        match tok {
            Tok::LParen | Tok::LBracket | Tok::Case => self.depth += 1,
            Tok::RParen | Tok::RBracket | Tok::End => self.depth = self.depth.saturating_sub(1),
            Tok::Union
            | Tok::Intersect
            | Tok::Except
            | Tok::Minus
            | Tok::Join
            | Tok::PipeOperator
            | Tok::Pivot
            | Tok::Unpivot
            | Tok::BinBy => self.links += 1,
            // The one-pass parse runs one guard over the whole file: links count per statement.
            Tok::Semicolon => (self.links, self.level_tokens) = (0, 0),
            Tok::Not | Tok::Bang | Tok::Dash | Tok::Plus | Tok::Tilde => {
                self.prefix_run = prefix_run + 1
            }
            _ => {}
        }
        if self.depth > MAX_NESTING || self.prefix_run > MAX_NESTING {
            return Err(TooDeep::Nesting);
        }
        if self.links > MAX_CHAIN {
            return Err(TooDeep::Chain);
        }
        Ok(())
    }
}

/// Parses a whole source text, the SQL of each of its `cells` on its own (see
/// [`crate::notebook`]). Never fails: problems are diagnostics.
pub(crate) fn parse_script<'a>(
    arena: &'a Arena,
    source: &'a str,
    cells: &[Cell<'_>],
) -> (Script<'a>, Vec<Diagnostic>) {
    let mut diagnostics = Vec::new();
    let mut statements = Vec::new();
    if u32::try_from(source.len()).is_err() {
        diagnostics.push(Diagnostic::error(
            Code::ParseSyntaxError,
            Span::new(0, 0),
            "the source is 4 GiB or larger; split it into several files",
        ));
        return (
            Script {
                span: Span::new(0, 0),
                statements: &[],
            },
            diagnostics,
        );
    }
    let parser = grammar::ScriptParser::new();
    let span = Span::from_usize(0, source.len());
    for cell in cells.iter().filter(|cell| cell.kind == CellKind::Sql) {
        let range = cell.span.start as usize..cell.span.end as usize;
        let parsed = parse_cell(&parser, arena, source, range, &mut diagnostics);
        // The first cell's list is the script's (a file that is no notebook is one cell).
        if statements.is_empty() {
            statements = parsed;
        } else {
            statements.extend(parsed);
        }
    }
    let statements = arena.slice(statements);
    (Script { span, statements }, diagnostics)
}

/// Turns each statement whose tree is deeper than [`MAX_DEPTH`] into an error, so that no walker
/// meets it.
fn refuse_too_deep(statements: &mut [Statement<'_>], diagnostics: &mut Vec<Diagnostic>) {
    for statement in statements {
        if let Some(at) = depth::too_deep(statement) {
            diagnostics.push(
                Diagnostic::error(
                    Code::ParseSyntaxError,
                    at,
                    format!("the statement nests more than {MAX_DEPTH} levels deep (each operator of a chain, bracket, cast, field access, subscript, lambda and nested type is a level)"),
                )
                .with_help("split the expression, for example into a common table expression (WITH)"),
            );
            *statement = Statement::Error(statement.span());
        }
    }
}

/// Parses the SQL of `source[range]`, pushing its diagnostics.
fn parse_cell<'a>(
    parser: &grammar::ScriptParser,
    arena: &'a Arena,
    source: &'a str,
    range: Range<usize>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Statement<'a>> {
    let mut lexer = Lexer::over(source, range.clone());
    let may_be_too_deep = std::cell::Cell::new(false);
    // Where the one pass failed, the statement alone fails the same way (the grammar starts
    // each statement afresh): its first parse need not be made again.
    let mut one_pass_error =
        match parser.parse(source, arena, clean_tokens(&mut lexer, &may_be_too_deep)) {
            // A clause word before a minus may be a name with dashes to Spark: each statement is
            // then judged on its own (rare, and cheap only so).
            Ok(mut statements) if !lexer.saw_clause_dash() => {
                placeholders(source, lexer.placeholders(), diagnostics);
                if may_be_too_deep.get() {
                    refuse_too_deep(&mut statements, diagnostics);
                }
                return statements;
            }
            Ok(_) => None,
            Err(error) => SyntaxErrorAt::of(error, range.end),
        };
    // What the failed pass allocated stays in the arena until it is released: a file with
    // errors costs some memory twice, a file without none.
    let mut statements = Vec::new();
    let mut splitter = StatementSplitter::new(source, range);
    while let Some(chunk) = splitter.next_statement(diagnostics) {
        let known = one_pass_error
            .take_if(|error| error.at <= chunk.end)
            .and_then(|error| error.within(&chunk));
        let mut found = Vec::new();
        let statement = parse_statement(parser, arena, source, chunk, known, &mut found);
        let starts = match statement {
            Statement::Error(_) if chunk.too_deep.is_none() => {
                recovery::statement_starts(source, chunk.tokens)
            }
            _ => Vec::new(),
        };
        if starts.is_empty() {
            statements.push(statement);
            diagnostics.append(&mut found);
        } else {
            parse_pieces(
                parser,
                arena,
                source,
                chunk,
                &starts,
                &mut statements,
                diagnostics,
            );
        }
    }
    placeholders(source, splitter.lexer.placeholders(), diagnostics);
    if splitter.may_be_too_deep {
        refuse_too_deep(&mut statements, diagnostics);
    }
    statements
}

/// An error for each template placeholder (`{name}`, `{{ name }}`) at `spans`: the engine
/// does not substitute them. (`Pipeline` drops those it has a parameter for.)
fn placeholders(source: &str, spans: &[Span], diagnostics: &mut Vec<Diagnostic>) {
    diagnostics.extend(spans.iter().map(|&span| {
        let text = &source[span.start as usize..span.end as usize];
        Diagnostic::error(
            Code::TemplatePlaceholder,
            span,
            format!("`{text}` is a template placeholder, which the engine does not substitute"),
        )
        .with_help(format!(
            "substitute it before the file is deployed, or give its value to check with: --param {}=<value>",
            crate::ast::parameter_name(text)
        ))
    }));
}

/// Parses each piece of `chunk`, which did not parse whole, cut before each of its tokens at
/// `starts` (lines that start a statement; see [`recovery`]): a piece that parses is a
/// statement whose `;` is missing, which is an error of its own.
fn parse_pieces<'a>(
    parser: &grammar::ScriptParser,
    arena: &'a Arena,
    source: &'a str,
    chunk: Chunk<'_, 'a>,
    starts: &[usize],
    statements: &mut Vec<Statement<'a>>,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let bounds: Vec<usize> = std::iter::once(0)
        .chain(starts.iter().copied())
        .chain(std::iter::once(chunk.tokens.len()))
        .collect();
    for pair in bounds.windows(2) {
        let (from, to) = (pair[0], pair[1]);
        let next = chunk.tokens.get(to);
        let piece = Chunk {
            tokens: &chunk.tokens[from..to],
            too_deep: None,
            end: next.map_or(chunk.end, |t| t.0),
        };
        let statement = parse_statement(parser, arena, source, piece, None, diagnostics);
        if let (false, Some(&(l, tok, r))) = (matches!(statement, Statement::Error(_)), next) {
            let before = chunk.tokens[to - 1];
            diagnostics.push(
                Diagnostic::error(
                    Code::ParseSyntaxError,
                    Span::from_usize(l, r),
                    format!(
                        "syntax error at {}: a `;` is missing before it, after the statement above",
                        found(tok, r - l)
                    ),
                )
                .with_label(
                    Span::from_usize(before.0, before.2),
                    "the statement above ends here",
                )
                .with_help("end the statement above with `;`"),
            );
        }
        statements.push(statement);
    }
}

/// The tokens of `source` for the one-pass parse. Input errors and excessive nesting stop it
/// (as a user error), handing the file over to the statement-by-statement pass, which
/// reports them.
fn clean_tokens<'l, 'a>(
    lexer: &'l mut Lexer<'a>,
    may_be_too_deep: &'l std::cell::Cell<bool>,
) -> impl Iterator<Item = Result<SpannedTok<'a>, UserError>> + 'l {
    let mut guard = NestingGuard::default();
    lexer.map(move |(l, tok, r)| {
        let admitted = guard.admit(tok);
        // Noted after each token: the last one may be what tips a statement over.
        if guard.may_be_too_deep {
            may_be_too_deep.set(true);
        }
        if matches!(tok, Tok::Error(_)) || admitted.is_err() {
            return Err(UserError {
                span: Span::from_usize(l, r),
                message: String::new(),
            });
        }
        Ok((l, tok, r))
    })
}

/// The tokens of one statement (without its `;`) and whether they nest too deeply.
#[derive(Clone, Copy)]
struct Chunk<'t, 'a> {
    tokens: &'t [SpannedTok<'a>],
    too_deep: Option<(Span, TooDeep)>,
    /// Where the `;` after it is, or the end of its cell.
    end: usize,
}

/// A syntax error of the one-pass parse, at a token or at the end of the cell, which the
/// statement it is in meets alone too.
struct SyntaxErrorAt<'a> {
    at: usize,
    error: ParseError<usize, Tok<'a>, UserError>,
}

impl<'a> SyntaxErrorAt<'a> {
    /// The error, if it is a token the grammar did not expect there (not input the lexer
    /// refused, nesting too deep or a check's refusal, which the statement-by-statement pass
    /// reports in its own way).
    fn of(error: ParseError<usize, Tok<'a>, UserError>, cell_end: usize) -> Option<Self> {
        let at = match &error {
            ParseError::UnrecognizedToken {
                token: (_, Tok::Error(_), _),
                ..
            } => return None,
            ParseError::UnrecognizedToken { token, .. } => token.0,
            ParseError::UnrecognizedEof { .. } => cell_end,
            _ => return None,
        };
        Some(SyntaxErrorAt { at, error })
    }

    /// The error as the parse of `chunk` alone meets it, if it is in that statement: at its
    /// `;` or at the end of the cell, the statement's end.
    fn within(self, chunk: &Chunk<'_, 'a>) -> Option<ParseError<usize, Tok<'a>, UserError>> {
        let (start, end) = (chunk.tokens.first()?.0, chunk.tokens.last()?.2);
        if self.at < start {
            return None;
        }
        Some(if self.at >= end {
            ParseError::UnrecognizedEof {
                location: end,
                expected: Vec::new(),
            }
        } else {
            self.error
        })
    }
}

/// Cuts the token stream of a cell at `;`, reporting lexical errors on the way.
struct StatementSplitter<'a> {
    lexer: Lexer<'a>,
    /// Whether a statement may be too deep for the walkers (see [`NestingGuard`]).
    may_be_too_deep: bool,
    buffer: Vec<SpannedTok<'a>>,
    /// Where the text it cuts ends.
    end: usize,
}

impl<'a> StatementSplitter<'a> {
    fn new(source: &'a str, range: Range<usize>) -> Self {
        StatementSplitter {
            may_be_too_deep: false,
            buffer: Vec::new(),
            end: range.end,
            lexer: Lexer::over(source, range),
        }
    }

    fn next_statement(&mut self, diagnostics: &mut Vec<Diagnostic>) -> Option<Chunk<'_, 'a>> {
        self.buffer.clear();
        let mut guard = NestingGuard::default();
        let mut too_deep = None;
        let mut end = self.end;
        for (l, tok, r) in self.lexer.by_ref() {
            match tok {
                Tok::Semicolon if self.buffer.is_empty() => continue,
                Tok::Semicolon => {
                    end = l;
                    break;
                }
                Tok::Error(error) => {
                    diagnostics.push(lex_diagnostic(error, Span::from_usize(l, r)))
                }
                _ => {}
            }
            if let (Err(why), None) = (guard.admit(tok), too_deep) {
                too_deep = Some((Span::from_usize(l, r), why));
            }
            self.buffer.push((l, tok, r));
        }
        self.may_be_too_deep |= guard.may_be_too_deep;
        if self.buffer.is_empty() {
            return None;
        }
        Some(Chunk {
            tokens: &self.buffer,
            too_deep,
            end,
        })
    }
}

fn parse_statement<'a>(
    parser: &grammar::ScriptParser,
    arena: &'a Arena,
    source: &'a str,
    chunk: Chunk<'_, 'a>,
    known_error: Option<ParseError<usize, Tok<'a>, UserError>>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Statement<'a> {
    let (first, last) = match (chunk.tokens.first(), chunk.tokens.last()) {
        (Some(first), Some(last)) => (first.0, last.2),
        _ => return Statement::Error(Span::new(0, 0)),
    };
    let whole = Span::from_usize(first, last);
    if let Some((at, why)) = chunk.too_deep {
        let (message, help) = match why {
            TooDeep::Nesting => (
                format!("the statement nests more than {MAX_NESTING} levels deep (brackets, CASE, or NOT and sign operators in a row)"),
                "split the expression, for example into a common table expression (WITH)",
            ),
            TooDeep::Chain => (
                format!("the statement chains more than {MAX_CHAIN} set operations, joins, pipe steps and PIVOT, UNPIVOT or BIN BY clauses"),
                "split the query into common table expressions (WITH) or several views",
            ),
        };
        diagnostics.push(Diagnostic::error(Code::ParseSyntaxError, at, message).with_help(help));
        return Statement::Error(whole);
    }
    if chunk.tokens.iter().all(|t| matches!(t.1, Tok::Error(_))) {
        // Nothing but input the lexer already reported (an unclosed comment at the end).
        return Statement::Error(whole);
    }
    let tokens = chunk.tokens.iter().map(|&t| Ok::<_, UserError>(t));
    let parsed = match known_error {
        Some(error) => Err(error),
        None => parser.parse(source, arena, tokens),
    };
    let (first, error) = match parsed {
        Ok(mut statements) if statements.len() == 1 => (Ok(statements.swap_remove(0)), None),
        Ok(_) => return Statement::Error(whole),
        Err(error) => (Err(second_look::error_offset(&error, last)), Some(error)),
    };
    match second_look::look_again(parser, arena, source, chunk.tokens, first) {
        Verdict::Read(statement) => return statement,
        Verdict::Refused(refusal) => diagnostics.push(refusal),
        Verdict::Unmended => {
            let error = error.expect("only a statement that did not parse stays unmended");
            let (error, expected) = with_expected(error, || {
                let tokens = chunk.tokens.iter().map(|&t| Ok::<_, UserError>(t));
                parser.parse(source, arena, tokens)
            });
            diagnostics.extend(syntax_diagnostic(
                source,
                chunk.tokens,
                error,
                last,
                expected,
            ));
        }
    }
    Statement::Error(whole)
}

fn lex_diagnostic(error: LexError, span: Span) -> Diagnostic {
    match error {
        LexError::UnclosedComment => Diagnostic::error(
            Code::UnclosedBracketedComment,
            span.with_len(2),
            error.message(),
        )
        .with_help(
            "close the comment with `*/`; comments nest, so every `/*` inside needs its own `*/`",
        ),
        LexError::UnterminatedString => {
            Diagnostic::error(Code::ParseSyntaxError, span.with_len(1), error.message())
                .with_help("add the closing quote; a quote inside the string is written `\\'`")
        }
        LexError::UnterminatedQuotedIdentifier => {
            Diagnostic::error(Code::ParseSyntaxError, span.with_len(1), error.message())
                .with_help("add the closing back-quote; a back-quote inside the name is written ``")
        }
        LexError::UnclosedParameter => {
            Diagnostic::error(Code::ParseSyntaxError, span, error.message())
                .with_help("add the closing }: a parameter's name is letters, digits, `_` and `.`")
        }
        LexError::InvalidCharacter => {
            Diagnostic::error(Code::ParseSyntaxError, span, error.message())
                .with_help("remove the character, or put the text in quotes")
        }
    }
}

/// The diagnostic for a parser error in a statement of `tokens`, with a hint at the likely
/// slip where there is one; `None` when the error is at an input error that the lexer has
/// already reported.
fn syntax_diagnostic(
    source: &str,
    tokens: &[(usize, Tok<'_>, usize)],
    error: ParseError<usize, Tok<'_>, UserError>,
    end: usize,
    expected: Option<Expected>,
) -> Option<Diagnostic> {
    // The expected terminals, from the parse that was asked for them (see `with_expected`).
    let expected = expected.unwrap_or_else(|| Vec::new().into());
    let listed = || expected::describe(&expected);
    match error {
        ParseError::UnrecognizedToken {
            token: (_, Tok::Error(_), _),
            ..
        } => None,
        ParseError::UnrecognizedToken {
            token: (l, tok, r), ..
        } => {
            let diagnostic = Diagnostic::error(
                Code::ParseSyntaxError,
                Span::from_usize(l, r),
                format!("syntax error at {}: {}", found(tok, r - l), listed()),
            );
            let before = &tokens[..tokens.partition_point(|t| t.0 < l)];
            Some(match hints::slip(source, before, (l, r), &expected) {
                Some(hint) => diagnostic.with_help(hint),
                None => diagnostic,
            })
        }
        ParseError::UnrecognizedEof { .. } => Some(Diagnostic::error(
            Code::ParseSyntaxError,
            Span::from_usize(end, end),
            format!("syntax error at the end of the statement: {}", listed()),
        )),
        ParseError::ExtraToken { token: (l, tok, r) } => Some(Diagnostic::error(
            Code::ParseSyntaxError,
            Span::from_usize(l, r),
            format!(
                "syntax error at {}: expected the end of the statement",
                found(tok, r - l)
            ),
        )),
        ParseError::InvalidToken { location } => Some(Diagnostic::error(
            Code::ParseSyntaxError,
            Span::from_usize(location, location),
            "syntax error: invalid token",
        )),
        ParseError::User { error } => Some(error.into_diagnostic()),
    }
}

/// The token at an error, `len` bytes long, as a message names it.
fn found(tok: Tok<'_>, len: usize) -> String {
    match tok {
        Tok::Ident(text)
        | Tok::QuotedIdent(text)
        | Tok::KeywordName(text)
        | Tok::StrictKeywordName(text) => format!("identifier `{text}`"),
        Tok::String(text) | Tok::RawString(text) | Tok::HexString(text) => format!("string {text}"),
        Tok::Number(text) => format!("number {text}"),
        Tok::Param(text) | Tok::NamedMarker(text) => format!("`{text}`"),
        Tok::PipeOperator if len == 1 => {
            "`|`, a pipe `|>` before the word that follows it, as Spark reads it".to_string()
        }
        other => format!("`{}`", other.describe().trim_matches('\'')),
    }
}

#[cfg(test)]
mod tests {
    use super::{clean_tokens, Lexer, MAX_CHAIN};

    /// The one-pass parse guards the whole file with one guard, so chain links must be
    /// counted per statement: many small joins must not push a clean file onto the slow path.
    #[test]
    fn the_one_pass_guard_counts_chains_per_statement() {
        let file = "SELECT * FROM a JOIN b ON true JOIN c ON true;\n".repeat(MAX_CHAIN);
        let deep = std::cell::Cell::new(false);
        assert!(clean_tokens(&mut Lexer::new(&file), &deep).all(|token| token.is_ok()));
        let one_statement = format!("SELECT 1{}", " UNION SELECT 1".repeat(MAX_CHAIN + 1));
        assert!(clean_tokens(&mut Lexer::new(&one_statement), &deep).any(|token| token.is_err()));
    }
}
