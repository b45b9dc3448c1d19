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
use crate::span::Span;
use crate::syntax::actions::base::UserError;
use crate::syntax::grammar;
use crate::syntax::keywords;
use crate::syntax::keywords::is_word;
use crate::syntax::second_look::{self, error_offset, Verdict};
use lalrpop_util::ParseError;
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::LazyLock;

/// How deeply brackets may nest in one statement, and how many prefix operators (`NOT`, `-`)
/// may follow each other. Deeper input is reported instead of parsed, so that parsing, printing
/// and visiting the tree cannot exhaust the stack (a tree in the arena is never dropped node by
/// node).
pub const MAX_NESTING: usize = 200;

/// How many binary operators one flat expression may chain (`a + b + ...`, `p AND q AND ...`),
/// and how many set operations, joins, pipe steps and PIVOT, UNPIVOT or BIN BY clauses one
/// statement may have: each such chain becomes a tree as deep as it is long.
pub const MAX_CHAIN: usize = 2000;

/// Tracks bracket depth, runs of prefix operators, and the links of left-deep query chains
/// (UNION, JOIN, `|>`, PIVOT, UNPIVOT, BIN BY) over a statement's tokens.
#[derive(Default)]
struct NestingGuard {
    depth: usize,
    prefix_run: usize,
    links: usize,
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
            Tok::Semicolon => self.links = 0,
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

/// Parses a whole source text. Never fails: problems are diagnostics.
pub(crate) fn parse_script<'a>(arena: &'a Arena, source: &'a str) -> (Script<'a>, Vec<Diagnostic>) {
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
    let mut lexer = Lexer::new(source);
    if let Ok(statements) = parser.parse(source, arena, clean_tokens(&mut lexer)) {
        // A clause word before a minus may be a name with dashes to Spark: each statement is
        // then judged on its own (rare, and cheap only so).
        if !lexer.saw_clause_dash() {
            let statements = arena.slice(statements);
            return (Script { span, statements }, diagnostics);
        }
    }
    // What the failed pass allocated stays in the arena until it is released: a file with
    // errors costs some memory twice, a file without none.
    let mut splitter = StatementSplitter::new(source);
    while let Some(chunk) = splitter.next_statement(&mut diagnostics) {
        statements.push(parse_statement(
            &parser,
            arena,
            source,
            chunk,
            &mut diagnostics,
        ));
    }
    let statements = arena.slice(statements);
    (Script { span, statements }, diagnostics)
}

/// The tokens of `source` for the one-pass parse. Input errors and excessive nesting stop it
/// (as a user error), handing the file over to the statement-by-statement pass, which
/// reports them.
fn clean_tokens<'l, 'a>(
    lexer: &'l mut Lexer<'a>,
) -> impl Iterator<Item = Result<SpannedTok<'a>, UserError>> + 'l {
    let mut guard = NestingGuard::default();
    lexer.map(move |(l, tok, r)| {
        if matches!(tok, Tok::Error(_)) || guard.admit(tok).is_err() {
            return Err(UserError {
                span: Span::from_usize(l, r),
                message: String::new(),
            });
        }
        Ok((l, tok, r))
    })
}

/// The tokens of one statement (without its `;`) and whether they nest too deeply.
struct Chunk<'t, 'a> {
    tokens: &'t [SpannedTok<'a>],
    too_deep: Option<(Span, TooDeep)>,
}

/// Cuts the token stream at `;`, reporting lexical errors on the way.
struct StatementSplitter<'a> {
    lexer: Lexer<'a>,
    buffer: Vec<SpannedTok<'a>>,
}

impl<'a> StatementSplitter<'a> {
    fn new(source: &'a str) -> Self {
        StatementSplitter {
            lexer: Lexer::new(source),
            buffer: Vec::new(),
        }
    }

    fn next_statement(&mut self, diagnostics: &mut Vec<Diagnostic>) -> Option<Chunk<'_, 'a>> {
        self.buffer.clear();
        let mut guard = NestingGuard::default();
        let mut too_deep = None;
        for (l, tok, r) in self.lexer.by_ref() {
            match tok {
                Tok::Semicolon if self.buffer.is_empty() => continue,
                Tok::Semicolon => break,
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
        if self.buffer.is_empty() {
            return None;
        }
        Some(Chunk {
            tokens: &self.buffer,
            too_deep,
        })
    }
}

fn parse_statement<'a>(
    parser: &grammar::ScriptParser,
    arena: &'a Arena,
    source: &'a str,
    chunk: Chunk<'_, 'a>,
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
    let (first, error) = match parser.parse(source, arena, tokens) {
        Ok(mut statements) if statements.len() == 1 => (Ok(statements.swap_remove(0)), None),
        Ok(_) => return Statement::Error(whole),
        Err(error) => (Err(error_offset(&error, last)), Some(error)),
    };
    match second_look::look_again(parser, arena, source, chunk.tokens, first) {
        Verdict::Read(statement) => return statement,
        Verdict::Refused(refusal) => diagnostics.push(refusal),
        Verdict::Unmended => {
            let error = error.expect("only a statement that did not parse stays unmended");
            let (error, expected) = with_expected_tokens(error, || {
                let tokens = chunk.tokens.iter().map(|&t| Ok::<_, UserError>(t));
                parser.parse(source, arena, tokens)
            });
            diagnostics.extend(syntax_diagnostic(error, last, expected));
        }
    }
    Statement::Error(whole)
}

/// What the parser glue keeps of the terminals expected at syntax errors (see
/// [`expected_tokens`]).
#[derive(Default)]
struct Expected {
    /// Whether the error being parsed is the one reported, whose message lists them.
    wanted: bool,
    /// The list for the last error parsed while `wanted`, as a message says it.
    message: Option<String>,
    /// The messages made so far, by the parser states they were made for: a state stack always
    /// expects the same terminals, and an editor meets the same errors again and again.
    by_states: HashMap<Vec<i16>, String>,
}

thread_local! {
    static EXPECTED: RefCell<Expected> = RefCell::default();
}

/// How many messages [`Expected::by_states`] keeps before it starts again (this bounds the
/// memory they take).
const EXPECTED_KEPT: usize = 512;

/// Called by the generated parser at a syntax error with its state stack (`build.rs` makes it
/// do so): for the error that is reported, the message that lists the terminals it expected,
/// made with `list` (which simulates the parse of every terminal, far more work than a
/// statement's parse) unless these states had one made before. Returns no list to LALRPOP:
/// the message is taken by [`with_expected_tokens`].
pub(crate) fn expected_tokens(states: &[i16], list: impl FnOnce() -> Vec<String>) -> Vec<String> {
    EXPECTED.with(|expected| {
        let mut expected = expected.borrow_mut();
        if !expected.wanted {
            return;
        }
        let message = match expected.by_states.get(states) {
            Some(message) => message.clone(),
            None => {
                let message = expected_list(&list());
                if expected.by_states.len() >= EXPECTED_KEPT {
                    expected.by_states.clear();
                }
                expected.by_states.insert(states.to_vec(), message.clone());
                message
            }
        };
        expected.message = Some(message);
    });
    Vec::new()
}

/// `error` with the terminals expected at it, as a message lists them: for a syntax error at a
/// token or at the end, `parse` runs again with the list asked for (it fails the same way,
/// being the same parse).
fn with_expected_tokens<'a, T>(
    error: ParseError<usize, Tok<'a>, UserError>,
    parse: impl FnOnce() -> Result<T, ParseError<usize, Tok<'a>, UserError>>,
) -> (ParseError<usize, Tok<'a>, UserError>, Option<String>) {
    if !matches!(
        error,
        ParseError::UnrecognizedToken { .. } | ParseError::UnrecognizedEof { .. }
    ) {
        return (error, None);
    }
    EXPECTED.with(|expected| expected.borrow_mut().wanted = true);
    let again = parse();
    let message = EXPECTED.with(|expected| {
        let mut expected = expected.borrow_mut();
        expected.wanted = false;
        expected.message.take()
    });
    (again.err().unwrap_or(error), message)
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
        LexError::InvalidCharacter => {
            Diagnostic::error(Code::ParseSyntaxError, span, error.message())
                .with_help("remove the character, or put the text in quotes")
        }
    }
}

/// The diagnostic for a parser error; `None` when the error is at an input error that the
/// lexer has already reported.
fn syntax_diagnostic(
    error: ParseError<usize, Tok<'_>, UserError>,
    end: usize,
    expected_message: Option<String>,
) -> Option<Diagnostic> {
    // The expected terminals as a message says them: from the parse that was asked for them
    // (see `with_expected_tokens`), else from the error's own list.
    let message_of = |list: Vec<String>| expected_message.unwrap_or_else(|| expected_list(&list));
    match error {
        ParseError::UnrecognizedToken {
            token: (_, Tok::Error(_), _),
            ..
        } => None,
        ParseError::UnrecognizedToken {
            token: (l, tok, r),
            expected,
        } => Some(Diagnostic::error(
            Code::ParseSyntaxError,
            Span::from_usize(l, r),
            format!(
                "syntax error at {}: {}",
                found(tok, r - l),
                message_of(expected)
            ),
        )),
        ParseError::UnrecognizedEof { expected, .. } => Some(Diagnostic::error(
            Code::ParseSyntaxError,
            Span::from_usize(end, end),
            format!(
                "syntax error at the end of the statement: {}",
                message_of(expected)
            ),
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
        Tok::Ident(text) | Tok::QuotedIdent(text) => format!("identifier `{text}`"),
        Tok::String(text) | Tok::RawString(text) | Tok::HexString(text) => format!("string {text}"),
        Tok::Number(text) => format!("number {text}"),
        Tok::Param(text) | Tok::NamedMarker(text) => format!("`{text}`"),
        Tok::PipeOperator if len == 1 => {
            "`|`, a pipe `|>` before the word that follows it, as Spark reads it".to_string()
        }
        other => format!("`{}`", other.describe().trim_matches('\'')),
    }
}

/// "expected one of: ...", with LALRPOP's terminal names made readable and the keywords that
/// are identifiers too folded into "identifier".
fn expected_list(expected: &[String]) -> String {
    let takes_identifier = expected.iter().any(|e| e == "IDENT");
    // The `(` of a select item's names, the query's WINDOW, Hive's MAP or REDUCE and the end of
    // a FROM body come only from a second look at the statement (see `keyword_names`), which has
    // already failed when this list is shown; a name after a dot that starts with digits (`t.1a`)
    // is offered as `.`, listed anyway.
    let readable: Vec<Listed<'_>> = expected
        .iter()
        .filter(|t| {
            !matches!(
                t.as_str(),
                "\"( of names\""
                    | "\"WINDOW of the query\""
                    | "MAP_OR_REDUCE"
                    | "\"clauses of a FROM body\""
                    | "\"name with dashes\""
                    | "\"end of VALUES\""
                    | "DOT_DIGIT_NAME"
            )
        })
        .map(|t| Listed::of(t))
        .collect();
    // Whether every reserved word that is a name is listed: one bit each.
    let reserved_listed = readable
        .iter()
        .filter_map(Listed::reserved_name)
        .fold(0u64, |bits, i| bits | 1 << i);
    let takes_any_name = takes_identifier
        && reserved_listed.count_ones() as usize == keywords::reserved_names().len();
    let mut names: Vec<&str> = Vec::new();
    for listed in &readable {
        let name = listed.name();
        // LATERAL is a name only where the grammar's `Ident` is (not a table's first name).
        let folded = takes_identifier && listed.is_non_reserved()
            || takes_any_name && (listed.reserved_name().is_some() || name == "LATERAL");
        if !folded && !names.contains(&name) {
            names.push(name);
        }
    }
    match names.len() {
        0 => "unexpected input".to_string(),
        1 => format!("expected {}", names[0]),
        _ => format!("expected one of: {}", names.join(", ")),
    }
}

/// A terminal as an "expected" list names it: a keyword of the table, whose name and fold are
/// worked out once (most of a list is keywords), or any other terminal.
enum Listed<'t> {
    Keyword(&'static KeywordTerminal),
    Other(Cow<'t, str>),
}

/// A keyword's name in capitals, whether it folds into "identifier" wherever an identifier is
/// expected, and where it is among the reserved words that are names too.
struct KeywordTerminal {
    name: String,
    non_reserved: bool,
    reserved_name: Option<usize>,
}

/// The keywords of the table by their terminal as LALRPOP names it (`"select"`, quoted).
static KEYWORD_TERMINALS: LazyLock<HashMap<String, KeywordTerminal>> = LazyLock::new(|| {
    keywords::KEYWORDS
        .iter()
        .filter(|k| k.is_word())
        .map(|k| {
            let name = k.word.to_ascii_uppercase();
            let listed = KeywordTerminal {
                non_reserved: k.is_non_reserved(),
                // By name, so that a keyword and a terminal named after it (`* EXCEPT`) set
                // the same bit.
                reserved_name: reserved_name_index(&name),
                name,
            };
            (format!("\"{}\"", k.word), listed)
        })
        .collect()
});

impl<'t> Listed<'t> {
    fn of(terminal: &'t str) -> Self {
        match KEYWORD_TERMINALS.get(terminal) {
            Some(keyword) => Listed::Keyword(keyword),
            None => Listed::Other(readable_terminal(terminal)),
        }
    }

    fn name(&self) -> &str {
        match self {
            Listed::Keyword(keyword) => &keyword.name,
            Listed::Other(name) => name,
        }
    }

    fn is_non_reserved(&self) -> bool {
        match self {
            Listed::Keyword(keyword) => keyword.non_reserved,
            Listed::Other(name) => is_non_reserved_name(name),
        }
    }

    fn reserved_name(&self) -> Option<usize> {
        match self {
            Listed::Keyword(keyword) => keyword.reserved_name,
            Listed::Other(name) => reserved_name_index(name),
        }
    }
}

/// Whether `name` (in capitals) is a keyword that the grammar takes wherever it takes an
/// identifier.
fn is_non_reserved_name(name: &str) -> bool {
    keywords::non_reserved()
        .binary_search_by(|word| word.as_str().cmp(name))
        .is_ok()
}

/// Where `word` is among the reserved words that are names too.
fn reserved_name_index(word: &str) -> Option<usize> {
    keywords::reserved_names()
        .binary_search_by(|name| name.as_str().cmp(word))
        .ok()
}

fn readable_terminal(terminal: &str) -> Cow<'_, str> {
    match terminal {
        "IDENT"
        | "QIDENT"
        | "PARAM"
        | "KEYWORD_NAME"
        | "STRICT_KEYWORD_NAME"
        | "IDENTIFIER_CALL" => "identifier".into(),
        "STRING" | "RAWSTRING" | "HEXSTRING" => "string literal".into(),
        "NUMBER" | "NEGATED_BOUND" => "number".into(),
        "INTERVAL_UNIT" => "interval unit".into(),
        "INTERVAL_SIGN" => "sign".into(),
        "NAMED_MARKER" => "parameter marker".into(),
        "\"* EXCEPT\"" => "EXCEPT".into(),
        "\"VALUES after IN (\"" => "VALUES".into(),
        quoted => {
            let inner = quoted.trim_matches('"');
            if is_word(inner) {
                inner.to_ascii_uppercase().into()
            } else {
                format!("'{inner}'").into()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{clean_tokens, keywords, Lexer, MAX_CHAIN};

    /// The one-pass parse guards the whole file with one guard, so chain links must be
    /// counted per statement: many small joins must not push a clean file onto the slow path.
    #[test]
    fn the_one_pass_guard_counts_chains_per_statement() {
        let file = "SELECT * FROM a JOIN b ON true JOIN c ON true;\n".repeat(MAX_CHAIN);
        assert!(clean_tokens(&mut Lexer::new(&file)).all(|token| token.is_ok()));
        let one_statement = format!("SELECT 1{}", " UNION SELECT 1".repeat(MAX_CHAIN + 1));
        assert!(clean_tokens(&mut Lexer::new(&one_statement)).any(|token| token.is_err()));
    }

    /// The fold of keywords into "identifier" is only honest if the grammar really accepts
    /// each of them as a name: as a column, a table and a function.
    #[test]
    fn every_name_keyword_is_an_identifier() {
        for word in keywords::non_reserved()
            .iter()
            .chain(keywords::reserved_names())
        {
            let lower = word.to_ascii_lowercase();
            for sql in [
                format!("SELECT {lower}, t.{word} FROM t"),
                format!("SELECT * FROM s.{word}"),
                format!("SELECT {word}(1)"),
                format!("CREATE STREAMING TABLE x ({word} INT)"),
            ] {
                let arena = crate::Arena::new();
                let parsed = crate::parse(&arena, &sql);
                assert!(
                    parsed.diagnostics().is_empty(),
                    "{sql}: {:?}",
                    parsed.diagnostics()
                );
            }
        }
    }

    /// The message kept for a parser state stack is the one made for it: a second error at the
    /// same states, in another statement, lists the same terminals, and an error elsewhere
    /// its own.
    #[test]
    fn a_kept_expected_message_is_the_one_made_for_its_states() {
        let message = |sql: &str| crate::syntax::read(sql).unwrap_err();
        let first = message("SELECT a FROM t WHERE a =");
        assert_eq!(message("SELECT b FROM u WHERE b ="), first);
        assert_eq!(message("SELECT a FROM t WHERE a ="), first);
        assert_ne!(message("SELECT a FROM t WHERE a = ("), first);
        assert_eq!(
            message("CREATE FLOW f AS INSERT INTO"),
            "syntax error at the end of the statement: expected identifier"
        );
    }

    #[test]
    fn expected_lists_fold_keywords_into_identifier() {
        let arena = crate::Arena::new();
        let parsed = crate::parse(&arena, "CREATE FLOW f AS INSERT INTO");
        let message = parsed.diagnostics()[0].message();
        assert_eq!(
            message,
            "syntax error at the end of the statement: expected identifier"
        );
        let arena = crate::Arena::new();
        let parsed = crate::parse(&arena, "SELECT * FROM t WHERE a =");
        let message = parsed.diagnostics()[0].message();
        assert!(
            message.contains("CASE") && message.contains("identifier"),
            "{message}"
        );
        assert!(
            !message.contains("FLOW") && !message.contains("STREAM"),
            "{message}"
        );
        // After a select item only an implicit alias is a name: AND is an operator there.
        let arena = crate::Arena::new();
        let parsed = crate::parse(&arena, "SELECT 1 2");
        let message = parsed.diagnostics()[0].message();
        assert!(
            message.contains("AND") && message.contains("identifier"),
            "{message}"
        );
    }
}
